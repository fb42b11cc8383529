//! Reading one column chunk: pages in, typed values out.
//!
//! A [`ColumnReader`] walks the pages of one bound column chunk (held by
//! [`Pages`](crate::Pages)), keeps the chunk's dictionary, and appends batches of
//! values to the caller's buffers. It handles data pages v1 and v2, PLAIN and
//! dictionary-encoded values (including a chunk that falls back from dictionary
//! to PLAIN part-way), and definition levels for OPTIONAL columns.
//!
//! Values are read per *segment*: the part of a batch that lies inside one page.
//! Every decoder call covers a whole segment, so nothing is dispatched per value.

mod page;

use crate::error::{DecodeError, Error, Location, Result};
use crate::pages::LoadedColumn;
use crate::physical::{Physical, PlainShape};

use page::{DataPage, Values};

/// Reads the values of one column chunk in batches.
///
/// Created by the derive-generated decoder for each bound field and row group;
/// `'p` is the lifetime of the page buffers that `&str`/`&[u8]` values borrow.
pub struct ColumnReader<'p, P: Physical> {
    column: &'p LoadedColumn,        // the chunk's pages and schema
    row_group: usize,                // for error locations
    next_page: usize,                // invariant: <= column.pages.len(); next page to open
    max_def: i16,                    // invariant: 0 or 1 (flat columns only)
    shape: PlainShape,               // FIXED_LEN_BYTE_ARRAY width
    dict: Option<Vec<P::Value<'p>>>, // the chunk's dictionary, once its page was seen
    page: DataPage<'p>,              // the current data page; `left == 0` when none
    levels: Vec<u32>,                // scratch: definition levels of one segment
    indices: Vec<u32>,               // scratch: dictionary indices of one segment
    dense: Vec<P::Value<'p>>,        // scratch: non-null values of one segment
}

impl<P: Physical> std::fmt::Debug for ColumnReader<'_, P> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ColumnReader")
            .field("column", &self.column.path)
            .field("row_group", &self.row_group)
            .field("next_page", &self.next_page)
            .finish_non_exhaustive()
    }
}

impl<'p, P: Physical> ColumnReader<'p, P> {
    /// A reader positioned before the first page of `column`.
    pub(crate) fn new(column: &'p LoadedColumn, row_group: usize) -> Result<Self> {
        let descr = &column.descr;
        let reader = ColumnReader {
            column,
            row_group,
            next_page: 0,
            max_def: descr.max_def_level(),
            shape: PlainShape {
                physical: descr.physical_type(),
                fixed_len: (descr.physical_type() == parquet::basic::Type::FIXED_LEN_BYTE_ARRAY)
                    .then(|| usize::try_from(descr.type_length()).unwrap_or(0)),
            },
            dict: None,
            page: DataPage::empty(),
            levels: Vec::new(),
            indices: Vec::new(),
            dense: Vec::new(),
        };
        if !P::accepts(descr.physical_type()) || descr.max_rep_level() != 0 || reader.max_def > 1 {
            // Binding rejects these first; this guards the decoder's assumptions.
            return Err(Error::Unsupported {
                location: reader.location(),
                message: format!(
                    "a {:?} column with max definition level {} and max repetition level {} cannot be read here",
                    descr.physical_type(),
                    descr.max_def_level(),
                    descr.max_rep_level()
                ),
            });
        }
        Ok(reader)
    }

    /// Where the reader is, for errors.
    fn location(&self) -> Location {
        Location {
            column: self.column.path.clone(),
            row_group: Some(self.row_group),
            page: self.next_page.checked_sub(1),
        }
    }

    /// Turns a decoder error into an [`Error`] at the current position.
    fn err(&self, e: DecodeError) -> Error {
        e.at(self.location())
    }

    /// Appends exactly `n` values of a column without nulls to `out`.
    ///
    /// The fast path: values go from the page straight into `out`.
    pub fn read(&mut self, n: usize, out: &mut Vec<P::Value<'p>>) -> Result<()> {
        if self.max_def > 0 {
            return Err(self.err(DecodeError::Unsupported(
                "an OPTIONAL column needs an `Option<_>` field".into(),
            )));
        }
        let mut left = n;
        while left > 0 {
            self.ensure_page()?;
            let k = left.min(self.page.left);
            self.read_dense(k, out)?;
            self.page.left -= k;
            left -= k;
        }
        Ok(())
    }

    /// Appends exactly `n` values of a column without nulls, each through `convert`.
    pub fn read_map<T>(
        &mut self,
        n: usize,
        out: &mut Vec<T>,
        convert: impl Fn(P::Value<'p>) -> Result<T, String>,
    ) -> Result<()> {
        let mut dense = std::mem::take(&mut self.dense);
        dense.clear();
        let result = self.read(n, &mut dense).and_then(|()| {
            out.reserve(dense.len());
            for &v in &dense {
                out.push(convert(v).map_err(|m| self.err(DecodeError::Value(m)))?);
            }
            Ok(())
        });
        self.dense = dense;
        result
    }

    /// Appends exactly `n` values, `None` for nulls, each non-null one through `convert`.
    ///
    /// Works on OPTIONAL and REQUIRED columns (the latter never yield `None`).
    pub fn read_optional<T>(
        &mut self,
        n: usize,
        out: &mut Vec<Option<T>>,
        convert: impl Fn(P::Value<'p>) -> Result<T, String>,
    ) -> Result<()> {
        if self.max_def == 0 {
            let mut dense = std::mem::take(&mut self.dense);
            dense.clear();
            let result = self.read(n, &mut dense).and_then(|()| {
                out.reserve(dense.len());
                for &v in &dense {
                    out.push(Some(
                        convert(v).map_err(|m| self.err(DecodeError::Value(m)))?,
                    ));
                }
                Ok(())
            });
            self.dense = dense;
            return result;
        }
        let mut levels = std::mem::take(&mut self.levels);
        let mut dense = std::mem::take(&mut self.dense);
        let result = self.read_optional_segments(n, out, &convert, &mut levels, &mut dense);
        self.levels = levels;
        self.dense = dense;
        result
    }

    fn read_optional_segments<T>(
        &mut self,
        n: usize,
        out: &mut Vec<Option<T>>,
        convert: &impl Fn(P::Value<'p>) -> Result<T, String>,
        levels: &mut Vec<u32>,
        dense: &mut Vec<P::Value<'p>>,
    ) -> Result<()> {
        out.reserve(n);
        let max_def = self.max_def as u32;
        let mut left = n;
        while left > 0 {
            self.ensure_page()?;
            let k = left.min(self.page.left);
            levels.clear();
            levels.resize(k, 0);
            let got = match self.page.defs.as_mut() {
                Some(defs) => defs.get_batch(levels).map_err(|e| e.at(self.location()))?,
                None => 0,
            };
            if got != k {
                return Err(self.err(DecodeError::oos(format!(
                    "the page has fewer definition levels than values ({got} levels where {k} were needed)"
                ))));
            }
            let mut non_null = 0;
            for &level in levels.iter() {
                if level > max_def {
                    return Err(self.err(DecodeError::oos(format!(
                        "definition level {level} is larger than the column's maximum of {max_def}"
                    ))));
                }
                non_null += usize::from(level == max_def);
            }
            dense.clear();
            self.read_dense(non_null, dense)?;
            let mut values = dense.iter();
            for &level in levels.iter() {
                if level == max_def {
                    // `dense` holds exactly `non_null` values, one per level equal to max_def.
                    let Some(&v) = values.next() else { break };
                    out.push(Some(
                        convert(v).map_err(|m| self.err(DecodeError::Value(m)))?,
                    ));
                } else {
                    out.push(None);
                }
            }
            self.page.left -= k;
            left -= k;
        }
        Ok(())
    }

    /// Appends `k` non-null values from the current page.
    fn read_dense(&mut self, k: usize, out: &mut Vec<P::Value<'p>>) -> Result<()> {
        if k == 0 {
            return Ok(());
        }
        match &mut self.page.values {
            Values::Plain(decoder) => {
                let result = P::read_plain(decoder, self.shape, k, out);
                result.map_err(|e| self.err(e))
            }
            Values::Dictionary(indices) => {
                self.indices.clear();
                self.indices.resize(k, 0);
                let result = indices.get_batch(&mut self.indices);
                let got = result.map_err(|e| self.err(e))?;
                if got != k {
                    return Err(self.err(DecodeError::oos(format!(
                        "the page ends after {got} of {k} dictionary indices"
                    ))));
                }
                let dict = self.dict.as_deref().unwrap_or(&[]);
                // Check the largest index once, then gather without a branch per value
                // that can fail: the indexing below cannot go out of bounds.
                let max = self.indices.iter().copied().max().unwrap_or(0) as usize;
                if max >= dict.len() {
                    return Err(self.err(DecodeError::oos(format!(
                        "dictionary index {max} is out of range (the dictionary has {} entries)",
                        dict.len()
                    ))));
                }
                out.extend(self.indices.iter().map(|&i| dict[i as usize]));
                Ok(())
            }
            Values::Encoded(values) => {
                let result = P::read_encoded(values, k, out);
                result.map_err(|e| self.err(e))
            }
            Values::Empty => Err(self.err(DecodeError::oos(format!(
                "the page has no values section but {k} non-null values"
            )))),
        }
    }

    /// Makes sure the current data page has values left, opening pages as needed.
    fn ensure_page(&mut self) -> Result<()> {
        while self.page.left == 0 {
            let (Some(page), Some(arena)) = (
                self.column.pages.get(self.next_page),
                self.column.arenas.get(self.next_page),
            ) else {
                return Err(self.err(DecodeError::oos(
                    "the column chunk has fewer values than the row group has rows",
                )));
            };
            self.next_page += 1;
            match page::open::<P>(page, arena, self.max_def, self.shape, &mut self.dict) {
                Ok(Some(data)) => self.page = data,
                Ok(None) => {} // a dictionary page: keep going
                Err(e) => return Err(self.err(e)),
            }
        }
        Ok(())
    }

    /// Checks that the chunk holds no values beyond the ones read.
    ///
    /// Called once after the last batch of a row group: a chunk with more values
    /// than the row group has rows is corrupt (columns would disagree on rows).
    pub fn finish(&mut self) -> Result<()> {
        let extra_in_pages: u64 = self.column.pages[self.next_page..]
            .iter()
            .filter(|p| p.is_data_page())
            .map(|p| u64::from(p.num_values()))
            .sum();
        let extra = self.page.left as u64 + extra_in_pages;
        if extra > 0 {
            return Err(self.err(DecodeError::oos(format!(
                "the column chunk has {extra} more values than the row group has rows"
            ))));
        }
        Ok(())
    }
}

/// Bit width of levels whose maximum is `max_level`.
pub(crate) fn level_bit_width(max_level: i16) -> u32 {
    32 - u32::from(max_level.unsigned_abs()).leading_zeros()
}
