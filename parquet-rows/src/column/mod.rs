//! Reading one column chunk: pages in, typed values out.
//!
//! A [`ColumnReader`] walks the pages of one bound column chunk (held by
//! [`Pages`](crate::Pages)), keeps the chunk's dictionary, and appends batches of
//! values to the caller's buffers. It handles data pages v1 and v2, PLAIN and
//! dictionary-encoded values (including a chunk that falls back from dictionary
//! to PLAIN part-way), and definition levels for OPTIONAL columns, and it
//! skips rows without decoding them ([`ColumnReader::skip_rows`]).
//!
//! It never learns which encoding a page uses: `page.rs` picks each page's
//! decoder when it opens the page, and the physical type `P` makes its values
//! from what that decoder yields.
//!
//! Values are read per *segment*: the part of a batch that lies inside one page.
//! Every decoder call covers a whole segment (or a stretch of non-null values
//! in it), so nothing is dispatched per value.
//!
//! There is one read path, [`ColumnReader::read_with`]: levels, then stretches
//! of non-null values, then values into a sink. What varies is two type
//! parameters the compiler specialises: a [`Decode`] (`decode.rs`: the values
//! as they are, converted, copied, converted once per dictionary entry and
//! shared, or as `Bytes`) and a [`Sink`] (`crate::out`: one field of each
//! row, or a buffer; plain or `Option`). Skipping (`skip.rs`) and the levels
//! of nested columns (`nested.rs`) have their own modules.

mod context;
mod decode;
mod nested;
mod page;
mod runs;
mod skip;
#[cfg(test)]
mod skip_tests;
#[cfg(test)]
mod tests;
mod verdicts;

use std::sync::Arc;

use parquet::column::page::Page;

use crate::chunk::{LoadedColumn, Opened};
use crate::encoding::dictionary::DictionaryDecoder;
use crate::encoding::ValueDecoder;
use crate::error::{DecodeError, Error, Location, Result};
use crate::out::{Nulls, Sink, ValueOut};
use crate::physical::{Physical, PlainShape};

pub use context::ColumnContext;
pub(crate) use decode::{Convert, Copied, Decode, Identity, ShareBytes, Shared};
use page::{DataPage, MaxLevels, Values};
pub(crate) use verdicts::Verdicts;

/// Reads the values of one column chunk in batches.
///
/// Created by the derive-generated decoder for each bound field and row group;
/// `'p` is the lifetime of the page buffers that `&str`/`&[u8]` values borrow.
/// `S` is the type of the converted dictionary a `Shared` conversion keeps
/// (the field's type; `()` when nothing is shared).
pub struct ColumnReader<'p, P: Physical, S = ()> {
    column: &'p LoadedColumn,        // the chunk's pages and schema
    row_group: usize,                // for error locations
    next_page: usize,                // invariant: <= column.pages.len(); next page to open
    max_def: i16,                    // invariant: 0 or 1 unless `nested`
    max_rep: i16,                    // invariant: 0 unless `nested`
    nested: bool, // levels are read by `read_nested_levels`, values by `read_with`
    values_ready: usize, // nested: non-null values of the levels read, not yet read
    shape: PlainShape, // FIXED_LEN_BYTE_ARRAY width
    dict: Option<Vec<P::Value<'p>>>, // the chunk's dictionary, once its page was seen
    page: DataPage<'p>, // the current data page; `left == 0` when none
    levels: Vec<u32>, // scratch: definition levels of one segment
    context: ColumnContext, // what value conversions need to know
    shared: Option<Vec<S>>, // converted dictionary (`Shared`), built once per chunk
    dict_page: Option<usize>, // index of the dictionary page in `column.pages`
    next_row: usize, // flat: index in the row group of the next value, for null errors
    field_type: &'static str, // the field's Rust type, for null errors ("" when unknown)
    keep_pages: bool, // open pages with `LoadedPage::open` (kept for later readers) even where values are copied out
    // Declared last, so dropped after `page`, which borrows it: the page
    // this reader opened for itself alone (`LoadedPage::open_once`).
    held: Option<Arc<Page>>,
}

impl<P: Physical, S> std::fmt::Debug for ColumnReader<'_, P, S> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ColumnReader")
            .field("column", &self.column.path)
            .field("row_group", &self.row_group)
            .field("next_page", &self.next_page)
            .finish_non_exhaustive()
    }
}

impl<'p, P: Physical, S> ColumnReader<'p, P, S> {
    /// A reader positioned before the first page of `column`, a flat column
    /// (not repeated, at most one level of nulls).
    pub(crate) fn new(column: &'p LoadedColumn, row_group: usize) -> Result<Self> {
        let reader = Self::any(column, row_group, false)?;
        if reader.max_rep != 0 || reader.max_def > 1 {
            // Binding rejects these first; this guards the decoder's assumptions.
            return Err(reader.unsupported());
        }
        Ok(reader)
    }

    /// A reader of a column at any depth: [`ColumnReader::read_nested_levels`]
    /// returns the next repetition and definition levels, and
    /// [`ColumnReader::read_with`] then reads the non-null values among them.
    pub(crate) fn nested(column: &'p LoadedColumn, row_group: usize) -> Result<Self> {
        Self::any(column, row_group, true)
    }

    /// Names the Rust type of the field the reader fills, for the error a
    /// null in a plain field's column gives (`use Option<i64>`).
    pub(crate) fn for_field(mut self, field_type: &'static str) -> Self {
        self.field_type = field_type;
        self
    }

    /// Opens pages so that they stay decompressed for the readers after
    /// this one: a predicate's probe, whose pages the decode reads again.
    /// Other readers of a type whose values are copied out of the page
    /// free each page as they leave it (see [`ColumnReader::ensure_page`]).
    pub(crate) fn keeping_pages(mut self) -> Self {
        self.keep_pages = true;
        self
    }

    fn any(column: &'p LoadedColumn, row_group: usize, nested: bool) -> Result<Self> {
        let descr = &column.descr;
        let reader = ColumnReader {
            column,
            row_group,
            next_page: 0,
            max_def: descr.max_def_level(),
            max_rep: descr.max_rep_level(),
            nested,
            values_ready: 0,
            shape: PlainShape {
                physical: descr.physical_type(),
                fixed_len: (descr.physical_type() == parquet::basic::Type::FIXED_LEN_BYTE_ARRAY)
                    .then(|| usize::try_from(descr.type_length()).unwrap_or(0)),
                unsigned: crate::schema_rules::is_unsigned(descr),
                narrow: crate::schema_rules::narrow_int32(descr),
            },
            dict: None,
            page: DataPage::empty(),
            levels: Vec::new(),
            context: ColumnContext::of(descr),
            shared: None,
            dict_page: None,
            next_row: column.numbering.first_row,
            field_type: "",
            keep_pages: false,
            held: None,
        };
        if !P::accepts(descr.physical_type()) || reader.max_def < 0 || reader.max_rep < 0 {
            return Err(reader.unsupported());
        }
        Ok(reader)
    }

    fn unsupported(&self) -> Error {
        let descr = &self.column.descr;
        Error::Unsupported {
            location: self.location(),
            message: format!(
                "a {:?} column with max definition level {} and max repetition level {} cannot be read here",
                descr.physical_type(),
                descr.max_def_level(),
                descr.max_rep_level()
            ),
        }
    }

    /// Where the reader is, for errors.
    fn location(&self) -> Location {
        Location {
            column: self.column.path.clone(),
            row_group: Some(self.row_group),
            page: self
                .next_page
                .checked_sub(1)
                .map(|k| self.column.numbering.page(k)),
        }
    }

    /// Turns a decoder error into an [`Error`] at the current position.
    fn err(&self, e: DecodeError) -> Error {
        e.at(self.location())
    }

    /// Reads the values of the next `n` rows into `sink`, each made by
    /// `decode` from what the page's decoder yields: the one read path,
    /// whatever the field's type (see [`Decode`]), whether it is an
    /// `Option` and where its values go (see [`Sink`]).
    ///
    /// Page segment by page segment: definition levels are read a run at a
    /// time, and a run at the column's maximum level (a page without nulls
    /// is one such run) is one stretch of values, decoded as if the column
    /// were REQUIRED. Only the rest of the levels are decoded one by one.
    /// Into a plain field, a null is an error naming the row; into an
    /// `Option`, its row is passed over (rows keep their `None`) or, in a
    /// buffer, spread.
    ///
    /// On a reader made by [`ColumnReader::nested`], reads `n` of the
    /// non-null values of the levels last read.
    pub(crate) fn read_with<D, O>(&mut self, n: usize, decode: &mut D, sink: &mut O) -> Result<()>
    where
        D: Decode<'p, P, S>,
        O: Sink<D::Value>,
    {
        if self.nested {
            // The values of the levels just read, all in the current page.
            if n > self.values_ready {
                return Err(self.err(DecodeError::oos(format!(
                    "{n} values asked for where the levels hold {}",
                    self.values_ready
                ))));
            }
            decode.dense(self, n, &mut sink.stretch(n))?;
            self.values_ready -= n;
            return Ok(());
        }
        let mut done = 0;
        while done < n {
            self.ensure_page()?;
            let k = (n - done).min(self.page.left);
            if self.max_def == 0 {
                decode.dense(self, k, &mut sink.stretch(k))?;
            } else if O::Nulls::NULLABLE {
                self.read_defined_stretches(k, decode, sink)?;
            } else {
                self.require_defined(k)?;
                decode.dense(self, k, &mut sink.stretch(k))?;
            }
            self.advance(k);
            done += k;
        }
        Ok(())
    }

    /// For an `Option` field: the next `k` rows of the current page, each
    /// stretch of non-null ones through `decode` into `sink`, the null ones
    /// passed over (or, for a sink that spreads, a chunk of levels at a time).
    fn read_defined_stretches<D, O>(&mut self, k: usize, decode: &mut D, sink: &mut O) -> Result<()>
    where
        D: Decode<'p, P, S>,
        O: Sink<D::Value>,
    {
        let mut levels = std::mem::take(&mut self.levels);
        let result = self.defined_stretches(k, decode, sink, &mut levels);
        self.levels = levels;
        result
    }

    fn defined_stretches<D, O>(
        &mut self,
        k: usize,
        decode: &mut D,
        sink: &mut O,
        levels: &mut Vec<u32>,
    ) -> Result<()>
    where
        D: Decode<'p, P, S>,
        O: Sink<D::Value>,
    {
        let max = self.max_def as u32;
        let mut i = 0;
        while i < k {
            let run = self.take_defined_run(k - i)?;
            if run > 0 {
                decode.dense(self, run, &mut sink.stretch(run))?;
                i += run;
                continue;
            }
            let (m, non_null) = self.next_levels(k - i, levels)?;
            let chunk = &levels[..m];
            if O::SPREADS {
                decode.dense(self, non_null, &mut sink.stretch(non_null))?;
                if !sink.spread(chunk, max, non_null) {
                    return Err(
                        self.err(DecodeError::oos("a value decoder returned too few values"))
                    );
                }
            } else {
                let mut j = 0;
                while j < m {
                    let start = j;
                    while j < m && chunk[j] != max {
                        j += 1;
                    }
                    sink.nulls(j - start);
                    let start = j;
                    while j < m && chunk[j] == max {
                        j += 1;
                    }
                    if j > start {
                        decode.dense(self, j - start, &mut sink.stretch(j - start))?;
                    }
                }
            }
            i += m;
        }
        Ok(())
    }

    /// For a plain field on an OPTIONAL column: consumes the definition
    /// levels of the next `k` values, which must all say non-null; a null is
    /// an error that names the row and the `Option` type to use.
    fn require_defined(&mut self, k: usize) -> Result<()> {
        let max = self.max_def as u32;
        let mut levels = std::mem::take(&mut self.levels);
        let mut done = 0;
        let result = loop {
            if done == k {
                break Ok(());
            }
            match self.take_defined_run(k - done) {
                Ok(0) => {}
                Ok(run) => {
                    done += run;
                    continue;
                }
                Err(e) => break Err(e),
            }
            let (m, non_null) = match self.next_levels(k - done, &mut levels) {
                Ok(counts) => counts,
                Err(e) => break Err(e),
            };
            if non_null < m {
                let j = levels[..m].iter().position(|&level| level != max);
                break Err(self.null_in_plain_field(self.next_row + done + j.unwrap_or(0)));
            }
            done += m;
        };
        self.levels = levels;
        result
    }

    /// Consumes up to `max` definition levels of the current page if they
    /// start a run at the column's maximum (non-null values); returns how many.
    fn take_defined_run(&mut self, max: usize) -> Result<usize> {
        let level = self.max_def as u32;
        let taken = match self.page.defs.as_mut() {
            Some(defs) => defs.take_run(level, max),
            None => Ok(0),
        };
        taken.map_err(|e| self.err(e))
    }

    /// Decodes the next definition levels of the current page, at most `max`
    /// and at most to the end of the current run, into `levels`; returns how
    /// many, and how many of them are non-null. Fewer levels than values, or
    /// a level above the maximum, is an error.
    fn next_levels(&mut self, max: usize, levels: &mut Vec<u32>) -> Result<(usize, usize)> {
        /// Levels decoded at a time outside runs: a bound on the scratch
        /// buffer whatever a page claims, small enough to stay in L1.
        const CHUNK: usize = 1024;
        let left = match self.page.defs.as_mut() {
            Some(defs) => defs.run_left(),
            None => Ok(0),
        };
        let m = left.map_err(|e| self.err(e))?.min(max).min(CHUNK);
        if m == 0 {
            return Err(self.err(DecodeError::oos(
                "the page has fewer definition levels than values",
            )));
        }
        let non_null = self.read_levels(m, self.max_def as u32, levels)?;
        Ok((m, non_null))
    }

    /// The error of a null met by a field that is not an `Option`.
    fn null_in_plain_field(&self, row: usize) -> Error {
        // `&'p str` names the trait's lifetime, not the user's: `&str`.
        let ty = match self.field_type {
            "" => "T".to_owned(),
            ty => ty.replace("&'p ", "&"),
        };
        self.err(DecodeError::Value(format!(
            "null at row {row} of the row group, read into a field of type `{ty}`; \
             use `Option<{ty}>` to read nulls"
        )))
    }

    /// Marks `k` values of the current page as read.
    fn advance(&mut self, k: usize) {
        self.page.left -= k;
        self.next_row += k;
    }

    /// What conversions need to know about the column (decimal scale, time unit).
    pub fn context(&self) -> &ColumnContext {
        &self.context
    }

    /// Decodes the next `k` definition levels into `levels`; returns how many
    /// are non-null (equal to `max_def`).
    fn read_levels(&mut self, k: usize, max_def: u32, levels: &mut Vec<u32>) -> Result<usize> {
        levels.clear();
        levels.resize(k, 0);
        let got = match self.page.defs.as_mut() {
            Some(defs) => defs.get_batch(levels),
            None => Ok(0),
        };
        let got = got.map_err(|e| self.err(e))?;
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
        Ok(non_null)
    }

    /// Puts `k` non-null values from the current page into `out` (a buffer,
    /// or a field of each row: values then go from the page straight into
    /// the rows), with the page's decoder.
    fn read_dense(&mut self, k: usize, out: &mut impl ValueOut<P::Value<'p>>) -> Result<()> {
        if k == 0 {
            // A chunk of levels that are all null: the values section is
            // not touched (a DELTA_BYTE_ARRAY page is not rebuilt for it).
            return Ok(());
        }
        let result = match &mut self.page.values {
            Values::Plain(decoder) => P::read_plain(decoder, self.shape, k, out),
            Values::Dictionary(indices) => {
                let dict = self.dict.as_deref().unwrap_or(&[]);
                DictionaryDecoder { indices, dict }.decode(k, out)
            }
            Values::Encoded(values) => P::read_encoded(values, self.shape, k, out),
            Values::Empty => Err(DecodeError::oos(format!(
                "the page has no values section but {k} non-null values"
            ))),
        };
        result.map_err(|e| self.err(e))
    }

    /// Makes sure the current data page has values left, opening pages as needed.
    ///
    /// Where the values are copied out of the page (every type but byte
    /// arrays: `Physical::OWNS_VALUES`) and no later reader needs the page
    /// (not a probe, [`ColumnReader::keeping_pages`]), a page not yet
    /// decompressed is decompressed for this reader alone and freed when
    /// the reader leaves it, its buffer back in the file's pool for the
    /// next page. Kept instead, the pages of a borrowed read stay until
    /// its `Pages` is dropped (docs/read-path.md).
    #[allow(unsafe_code)] // a page held by this reader, borrowed for `'p`; see the SAFETY comment
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
            let max_levels = MaxLevels {
                rep: self.max_rep,
                def: self.max_def,
            };
            let limits = (max_levels, self.column.max_rebuilt);
            let opened = if P::OWNS_VALUES && !self.keep_pages {
                page.open_once()
            } else {
                page.open().map(Opened::Kept)
            };
            let opened = opened.map_err(|e| self.err(e))?;
            // The decoders of the page left borrow the held page: dropped
            // first, then the page itself.
            self.page = DataPage::empty();
            self.held = None;
            let page: &'p Page = match opened {
                Opened::Kept(page) => page,
                Opened::Once(page) => {
                    let held = Arc::new(page);
                    let ptr = Arc::as_ptr(&held);
                    self.held = Some(held);
                    // SAFETY: `ptr` points into the `Arc` now in
                    // `self.held`, which keeps the page (and the buffer of
                    // its `Bytes`) alive and unmoved until `self.held` is
                    // replaced or dropped. Only `self.page` (the decoders
                    // made from it just below) and the dictionary page's
                    // decoding borrow it, and `P::OWNS_VALUES` means no
                    // value read through them borrows it (the values are
                    // copied out; `physical::tests` checks each type at
                    // compile time). `self.page` is emptied above before
                    // `self.held` is replaced, and declared before `held`
                    // so dropped first. The page is only read: shared
                    // borrows of an `Arc`'s contents.
                    unsafe { &*ptr }
                }
            };
            match page::open::<P>(page, arena, limits, self.shape, &mut self.dict) {
                Ok(Some(data)) => self.page = data,
                Ok(None) => self.dict_page = Some(self.next_page - 1), // keep going
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
