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
//! Every decoder call covers a whole segment, so nothing is dispatched per value.

mod context;
mod page;
#[cfg(test)]
mod tests;

use std::any::Any;

use crate::chunk::LoadedColumn;
use crate::encoding::delta_byte_array::Incremental;
use crate::encoding::dictionary::DictionaryDecoder;
use crate::encoding::ValueDecoder;
use crate::error::{DecodeError, Error, Location, Result};
use crate::out::{Converted, FieldOut, Nulls, ValueOut};
use crate::physical::{Physical, PlainShape};

pub use context::ColumnContext;
use page::{DataPage, MaxLevels, Values};

/// Reads the values of one column chunk in batches.
///
/// Created by the derive-generated decoder for each bound field and row group;
/// `'p` is the lifetime of the page buffers that `&str`/`&[u8]` values borrow.
pub struct ColumnReader<'p, P: Physical> {
    column: &'p LoadedColumn,        // the chunk's pages and schema
    row_group: usize,                // for error locations
    next_page: usize,                // invariant: <= column.pages.len(); next page to open
    max_def: i16,                    // invariant: 0 or 1 unless `nested`
    max_rep: i16,                    // invariant: 0 unless `nested`
    nested: bool, // levels are read by `read_nested_levels`, values by the `read*` methods
    values_ready: usize, // nested: non-null values of the levels read, not yet read
    shape: PlainShape, // FIXED_LEN_BYTE_ARRAY width
    dict: Option<Vec<P::Value<'p>>>, // the chunk's dictionary, once its page was seen
    page: DataPage<'p>, // the current data page; `left == 0` when none
    levels: Vec<u32>, // scratch: definition levels of one segment
    dense: Vec<P::Value<'p>>, // scratch: non-null values of one segment
    context: ColumnContext, // what value conversions need to know
    shared: Option<Box<dyn Any>>, // converted dictionary (`read_shared`), built once per chunk
    dict_page: Option<usize>, // index of the dictionary page in `column.pages`
    next_row: usize, // flat: index in the row group of the next value, for null errors
    field_type: &'static str, // the field's Rust type, for null errors ("" when unknown)
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
    /// returns the next repetition and definition levels, and the `read*`
    /// methods then read the non-null values among them.
    pub(crate) fn nested(column: &'p LoadedColumn, row_group: usize) -> Result<Self> {
        Self::any(column, row_group, true)
    }

    /// Names the Rust type of the field the reader fills, for the error a
    /// null in a plain field's column gives (`use Option<i64>`).
    pub(crate) fn for_field(mut self, field_type: &'static str) -> Self {
        self.field_type = field_type;
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
            },
            dict: None,
            page: DataPage::empty(),
            levels: Vec::new(),
            dense: Vec::new(),
            context: ColumnContext::of(descr),
            shared: None,
            dict_page: None,
            next_row: 0,
            field_type: "",
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
        self.read_required_with(n, out, Self::read_dense)
    }

    /// Writes exactly `rows.len()` values, one into the field `field(row)` of
    /// each row, in order: `N` says whether the field is an `Option` (a null
    /// leaves the row's `None` placeholder) or a plain field (a null is an
    /// error naming the row).
    ///
    /// Numbers (PLAIN, DELTA_BINARY_PACKED, BYTE_STREAM_SPLIT) and
    /// dictionary-encoded values go from the page straight into the rows;
    /// other values (PLAIN or DELTA byte arrays, booleans) through a buffer.
    ///
    /// The rows must hold their placeholders: the fields of null rows are
    /// not written.
    pub(crate) fn read_into<R, N: Nulls>(
        &mut self,
        rows: &mut [R],
        mut field: impl FnMut(&mut R) -> &mut N::Field<P::Value<'p>>,
    ) -> Result<()> {
        self.read_rows::<R, N>(rows, |reader, stretch| {
            let k = stretch.len();
            reader.read_dense(k, &mut FieldOut::<_, _, N>::new(stretch, &mut field))
        })
    }

    /// Writes one value into each row of `rows`, page segment by page
    /// segment: `dense(reader, stretch)` writes the values of a stretch of
    /// rows whose values are all non-null and in the current page.
    ///
    /// Definition levels are read a run at a time: a run at the column's
    /// maximum level (a page without nulls is one such run) is one dense
    /// stretch, decoded as if the column were REQUIRED. Only the rest of the
    /// levels are decoded one by one.
    fn read_rows<R, N: Nulls>(
        &mut self,
        rows: &mut [R],
        mut dense: impl FnMut(&mut Self, &mut [R]) -> Result<()>,
    ) -> Result<()> {
        if self.nested {
            return Err(self.unsupported());
        }
        let mut done = 0;
        while done < rows.len() {
            self.ensure_page()?;
            let k = (rows.len() - done).min(self.page.left);
            let segment = &mut rows[done..done + k];
            if self.max_def == 0 {
                dense(self, segment)?;
            } else if N::NULLABLE {
                self.read_defined_stretches(segment, &mut dense)?;
            } else {
                self.require_defined(k)?;
                dense(self, segment)?;
            }
            self.advance(k);
            done += k;
        }
        Ok(())
    }

    /// For an `Option` field: calls `dense` on each stretch of `segment`
    /// (rows of the current page) whose definition levels say non-null; the
    /// other rows keep their `None`.
    fn read_defined_stretches<R>(
        &mut self,
        segment: &mut [R],
        dense: &mut impl FnMut(&mut Self, &mut [R]) -> Result<()>,
    ) -> Result<()> {
        let max = self.max_def as u32;
        let mut levels = std::mem::take(&mut self.levels);
        let mut i = 0;
        let result = 'segment: loop {
            if i == segment.len() {
                break Ok(());
            }
            let run = match self.take_defined_run(segment.len() - i) {
                Ok(run) => run,
                Err(e) => break Err(e),
            };
            if run > 0 {
                if let Err(e) = dense(self, &mut segment[i..i + run]) {
                    break Err(e);
                }
                i += run;
                continue;
            }
            let m = match self.next_levels(segment.len() - i, &mut levels) {
                Ok((m, _)) => m,
                Err(e) => break Err(e),
            };
            let mut j = 0;
            while j < m {
                if levels[j] != max {
                    j += 1;
                    continue;
                }
                let start = j;
                while j < m && levels[j] == max {
                    j += 1;
                }
                if let Err(e) = dense(self, &mut segment[i + start..i + j]) {
                    break 'segment Err(e);
                }
            }
            i += m;
        };
        self.levels = levels;
        result
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

    /// [`ColumnReader::read_into`] with each value through `convert` on its
    /// way from the decoder into its row (a `String` per value, say); values
    /// the physical type does not read straight from the page (PLAIN byte
    /// arrays, booleans) go through the reader's buffer first.
    pub(crate) fn read_map_into<R, T, N: Nulls>(
        &mut self,
        rows: &mut [R],
        field: impl FnMut(&mut R) -> &mut N::Field<T>,
        convert: impl Fn(P::Value<'p>, &ColumnContext) -> Result<T, String>,
    ) -> Result<()> {
        let no_copy = None::<&fn(&mut Incremental<'p>) -> Result<T, DecodeError>>;
        self.map_into::<R, T, N>(rows, field, convert, no_copy)
    }

    /// [`ColumnReader::read_map_into`] for a conversion that copies each
    /// value (`String`, `Box<str>`, `Vec<u8>`): `copy` makes the field from a
    /// value's bytes.
    ///
    /// DELTA_BYTE_ARRAY pages are then rebuilt one value at a time into a
    /// small buffer that `copy` reads (`Incremental::next_text`), not into an
    /// arena as large as the page's values. Borrowed fields need that arena
    /// to outlive the page; a copy does not, and the arena costs an
    /// allocation, a write and a read of every rebuilt byte, and memory for
    /// as long as the pages are held.
    pub(crate) fn read_copied_into<R, T, N: Nulls>(
        &mut self,
        rows: &mut [R],
        field: impl FnMut(&mut R) -> &mut N::Field<T>,
        convert: impl Fn(P::Value<'p>, &ColumnContext) -> Result<T, String>,
        copy: impl Fn(&mut Incremental<'p>) -> Result<T, DecodeError>,
    ) -> Result<()> {
        self.map_into::<R, T, N>(rows, field, convert, Some(&copy))
    }

    fn map_into<R, T, N: Nulls>(
        &mut self,
        rows: &mut [R],
        mut field: impl FnMut(&mut R) -> &mut N::Field<T>,
        convert: impl Fn(P::Value<'p>, &ColumnContext) -> Result<T, String>,
        copy: Option<&impl Fn(&mut Incremental<'p>) -> Result<T, DecodeError>>,
    ) -> Result<()> {
        let context = self.context;
        self.read_rows::<R, N>(rows, |reader, stretch| {
            let k = stretch.len();
            if let (Some(copy), Some(values)) = (copy, reader.page.values.streaming()) {
                let streamed = stretch.iter_mut().try_for_each(|row| {
                    *field(row) = N::some(copy(values)?);
                    Ok(())
                });
                return streamed.map_err(|e| reader.err(e));
            }
            // Converted on the way from the decoder into the rows: no
            // buffer of the decoded values.
            let mut out = Converted::new(FieldOut::<_, _, N>::new(stretch, &mut field), |v| {
                convert(v, &context)
            });
            reader.read_dense(k, &mut out)?;
            match out.into_error() {
                Some(message) => Err(reader.err(DecodeError::Value(message))),
                None => Ok(()),
            }
        })
    }

    /// Appends exactly `n` values of a column without nulls, each through `convert`.
    pub fn read_map<T>(
        &mut self,
        n: usize,
        out: &mut Vec<T>,
        convert: impl Fn(P::Value<'p>, &ColumnContext) -> Result<T, String>,
    ) -> Result<()> {
        self.read_required_with(n, out, |r, k, out| r.read_converted(k, out, &convert))
    }

    /// Appends exactly `n` values, `None` for nulls, each non-null one through `convert`.
    ///
    /// Works on OPTIONAL and REQUIRED columns (the latter never yield `None`).
    pub fn read_optional<T>(
        &mut self,
        n: usize,
        out: &mut Vec<Option<T>>,
        convert: impl Fn(P::Value<'p>, &ColumnContext) -> Result<T, String>,
    ) -> Result<()> {
        let some = |v, c: &ColumnContext| convert(v, c).map(Some);
        self.read_optional_with(n, out, |r, k, out| r.read_converted(k, out, &some))
    }

    /// Like [`ColumnReader::read_map`], but each dictionary entry is converted
    /// once and cloned per row: an `Arc<str>` column makes one allocation per
    /// dictionary entry, not per row.
    pub fn read_shared<T: Clone + 'static>(
        &mut self,
        n: usize,
        out: &mut Vec<T>,
        convert: impl Fn(P::Value<'p>, &ColumnContext) -> Result<T, String>,
    ) -> Result<()> {
        self.read_required_with(n, out, |r, k, out| r.read_dense_shared(k, out, &convert))
    }

    /// [`ColumnReader::read_shared`] for nullable fields.
    pub fn read_optional_shared<T: Clone + 'static>(
        &mut self,
        n: usize,
        out: &mut Vec<Option<T>>,
        convert: impl Fn(P::Value<'p>, &ColumnContext) -> Result<T, String>,
    ) -> Result<()> {
        let some = |v, c: &ColumnContext| convert(v, c).map(Some);
        self.read_optional_with(n, out, |r, k, out| r.read_dense_shared(k, out, &some))
    }

    /// What conversions need to know about the column (decimal scale, time unit).
    pub fn context(&self) -> &ColumnContext {
        &self.context
    }

    /// Reads `n` values of a column without nulls, page segment by page segment;
    /// `dense(reader, k, out)` appends the `k` values of one segment.
    fn read_required_with<T>(
        &mut self,
        n: usize,
        out: &mut Vec<T>,
        mut dense: impl FnMut(&mut Self, usize, &mut Vec<T>) -> Result<()>,
    ) -> Result<()> {
        if self.nested {
            // The values of the levels just read, all in the current page.
            if n > self.values_ready {
                return Err(self.err(DecodeError::oos(format!(
                    "{n} values asked for where the levels hold {}",
                    self.values_ready
                ))));
            }
            dense(self, n, out)?;
            self.values_ready -= n;
            return Ok(());
        }
        let mut left = n;
        while left > 0 {
            self.ensure_page()?;
            let k = left.min(self.page.left);
            if self.max_def > 0 {
                // A plain field on an OPTIONAL column.
                self.require_defined(k)?;
            }
            dense(self, k, out)?;
            self.advance(k);
            left -= k;
        }
        Ok(())
    }

    /// Reads `n` values that may be null; `dense(reader, k, out)` appends `k`
    /// non-null values as `Some`. A run of definition levels at the maximum
    /// is appended as it is; elsewhere the non-null values of a chunk of
    /// levels are appended, then spread over the chunk's slots in place, from
    /// the back, with `None` for nulls.
    fn read_optional_with<T>(
        &mut self,
        n: usize,
        out: &mut Vec<Option<T>>,
        mut dense: impl FnMut(&mut Self, usize, &mut Vec<Option<T>>) -> Result<()>,
    ) -> Result<()> {
        if self.max_def == 0 {
            return self.read_required_with(n, out, dense);
        }
        out.reserve(n);
        let mut levels = std::mem::take(&mut self.levels);
        let mut left = n;
        let result = loop {
            if left == 0 {
                break Ok(());
            }
            if let Err(e) = self.ensure_page() {
                break Err(e);
            }
            let k = left.min(self.page.left);
            if let Err(e) = self.read_optional_segment(k, out, &mut levels, &mut dense) {
                break Err(e);
            }
            self.advance(k);
            left -= k;
        };
        self.levels = levels;
        result
    }

    /// [`ColumnReader::read_optional_with`] for `k` values of the current page.
    fn read_optional_segment<T>(
        &mut self,
        k: usize,
        out: &mut Vec<Option<T>>,
        levels: &mut Vec<u32>,
        dense: &mut impl FnMut(&mut Self, usize, &mut Vec<Option<T>>) -> Result<()>,
    ) -> Result<()> {
        let max_def = self.max_def as u32;
        let mut i = 0;
        while i < k {
            let base = out.len();
            let run = self.take_defined_run(k - i)?;
            let (slots, non_null) = if run > 0 {
                (run, run)
            } else {
                self.next_levels(k - i, levels)?
            };
            dense(self, non_null, out)?;
            if out.len() != base + non_null {
                return Err(self.err(DecodeError::oos("a value decoder returned too few values")));
            }
            if run == 0 {
                // Spread: slot j of the chunk takes the next value from the back.
                out.resize_with(base + slots, || None);
                let mut next = base + non_null;
                for j in (0..slots).rev() {
                    if levels[j] == max_def {
                        next -= 1;
                        out.swap(base + j, next);
                    }
                }
            }
            i += slots;
        }
        Ok(())
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

    /// Appends `k` non-null values, each through `convert`.
    fn read_converted<T>(
        &mut self,
        k: usize,
        out: &mut Vec<T>,
        convert: &impl Fn(P::Value<'p>, &ColumnContext) -> Result<T, String>,
    ) -> Result<()> {
        let mut dense = std::mem::take(&mut self.dense);
        dense.clear();
        let result = self.read_dense(k, &mut dense).and_then(|()| {
            out.reserve(dense.len());
            for &v in &dense {
                out.push(convert(v, &self.context).map_err(|m| self.err(DecodeError::Value(m)))?);
            }
            Ok(())
        });
        self.dense = dense;
        result
    }

    /// Appends `k` non-null values; from a dictionary page, each entry is
    /// converted once (cached for the chunk) and cloned per value.
    fn read_dense_shared<T: Clone + 'static>(
        &mut self,
        k: usize,
        out: &mut Vec<T>,
        convert: &impl Fn(P::Value<'p>, &ColumnContext) -> Result<T, String>,
    ) -> Result<()> {
        if k == 0 || !matches!(self.page.values, Values::Dictionary(_)) {
            return self.read_converted(k, out, convert);
        }
        if !self.shared.as_ref().is_some_and(|c| c.is::<Vec<T>>()) {
            let dict = self.dict.as_deref().unwrap_or(&[]);
            let mut cache = Vec::with_capacity(dict.len());
            for &v in dict {
                cache.push(convert(v, &self.context).map_err(|m| self.err(DecodeError::Value(m)))?);
            }
            self.shared = Some(Box::new(cache));
        }
        let (Values::Dictionary(indices), Some(dict)) = (
            &mut self.page.values,
            self.shared
                .as_ref()
                .and_then(|c| c.downcast_ref::<Vec<T>>()),
        ) else {
            return Err(self.err(DecodeError::oos("dictionary cache missing")));
        };
        let result = DictionaryDecoder { indices, dict }.decode(k, out);
        result.map_err(|e| self.err(e))
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
            match page::open::<P>(page, arena, max_levels, self.shape, &mut self.dict) {
                Ok(Some(data)) => self.page = data,
                Ok(None) => self.dict_page = Some(self.next_page - 1), // keep going
                Err(e) => return Err(self.err(e)),
            }
        }
        Ok(())
    }

    /// For a reader made by [`ColumnReader::nested`]: appends the next (at
    /// most `max`, all from one page) repetition and definition levels to
    /// `reps` and `defs` (zeros when the column has none), opening the next
    /// data page when needed. Returns how many of them are non-null values,
    /// which the caller then reads with a `read*` method before asking for
    /// more levels; `None` after the last page.
    pub(crate) fn read_nested_levels(
        &mut self,
        max: usize,
        reps: &mut Vec<u32>,
        defs: &mut Vec<u32>,
    ) -> Result<Option<usize>> {
        if self.values_ready != 0 {
            return Err(self.err(DecodeError::oos(
                "the values of the levels read were not all read",
            )));
        }
        if self.page.left == 0 {
            if self.column.pages[self.next_page..]
                .iter()
                .all(|p| !p.is_data_page() || p.num_values() == 0)
            {
                return Ok(None);
            }
            self.ensure_page()?;
        }
        let n = self.page.left.min(max);
        let max_rep = u32::from(self.max_rep.unsigned_abs());
        let max_def = u32::from(self.max_def.unsigned_abs());
        let (reps_start, defs_start) = (reps.len(), defs.len());
        let got_reps = fill_levels(self.page.reps.as_mut(), n, reps);
        let got_defs = fill_levels(self.page.defs.as_mut(), n, defs);
        let (got_reps, got_defs) = (
            got_reps.map_err(|e| self.err(e))?,
            got_defs.map_err(|e| self.err(e))?,
        );
        if got_reps != n || got_defs != n {
            return Err(self.err(DecodeError::oos(format!(
                "the page has {} more values but {got_reps} repetition and {got_defs} definition levels",
                self.page.left
            ))));
        }
        if self.page.defs.is_none() {
            defs[defs_start..].fill(max_def);
        }
        if let Some(&rep) = reps[reps_start..].iter().find(|&&r| r > max_rep) {
            return Err(self.err(DecodeError::oos(format!(
                "repetition level {rep} is larger than the column's maximum of {max_rep}"
            ))));
        }
        let mut non_null = 0;
        for &level in &defs[defs_start..] {
            if level > max_def {
                return Err(self.err(DecodeError::oos(format!(
                    "definition level {level} is larger than the column's maximum of {max_def}"
                ))));
            }
            non_null += usize::from(level == max_def);
        }
        self.page.left -= n;
        self.values_ready = non_null;
        Ok(Some(non_null))
    }

    /// Skips the next `n` rows of a flat column: their definition levels and
    /// their values, so that the next read starts `n` rows later.
    ///
    /// Nothing is materialised that the encoding lets the reader step over
    /// (see [`ValueDecoder::skip`](crate::encoding::ValueDecoder::skip)):
    /// data pages that lie wholly inside the skipped rows are not even
    /// opened (a dictionary page still is, for the pages after it), and in
    /// the page where the skip ends only the definition levels are tallied,
    /// to know how many values the skipped rows hold. A null in a skipped
    /// row is not an error, even for a field that is not an `Option`: it is
    /// never read.
    ///
    /// Range reads (a row selection) and decoding parts of one row group in
    /// parallel position a reader with it.
    ///
    /// # Errors
    /// [`Error::Unsupported`] on a reader made by [`ColumnReader::nested`]
    /// (a row of a repeated column spans a variable number of levels: not
    /// skipped yet); out of spec when the chunk holds fewer than `n` more
    /// rows, when a page is malformed, or when a skipped definition level is
    /// above the column's maximum.
    pub(crate) fn skip_rows(&mut self, n: usize) -> Result<()> {
        if self.nested {
            return Err(Error::Unsupported {
                location: self.location(),
                message: "skipping rows of a repeated or nested column".into(),
            });
        }
        let mut left = n;
        while left > 0 {
            if self.page.left == 0 {
                left = self.skip_whole_pages(left);
                if left == 0 {
                    break;
                }
            }
            self.ensure_page()?;
            let k = left.min(self.page.left);
            let values = self.skip_levels(k)?;
            let shape = self.shape;
            let skipped = self.page.values.skip(values, shape);
            skipped.map_err(|e| self.err(e))?;
            self.advance(k);
            left -= k;
        }
        Ok(())
    }

    /// Steps over the data pages that come next and hold at most `left`
    /// rows in all, without opening them; returns the rows left to skip.
    /// Stops at a dictionary page: the pages after it need it.
    fn skip_whole_pages(&mut self, mut left: usize) -> usize {
        while let Some(page) = self.column.pages.get(self.next_page) {
            let rows = page.num_values() as usize;
            if !page.is_data_page() || rows > left {
                break;
            }
            left -= rows;
            self.next_row += rows;
            self.next_page += 1;
        }
        left
    }

    /// Moves past the definition levels of the next `k` values of the
    /// current page; returns how many of them are non-null.
    fn skip_levels(&mut self, k: usize) -> Result<usize> {
        let max = u32::from(self.max_def.unsigned_abs());
        let Some(defs) = self.page.defs.as_mut() else {
            return Ok(k); // REQUIRED: every row holds a value
        };
        let tally = defs.skip_counting(k, max).map_err(|e| self.err(e))?;
        if tally.skipped < k {
            return Err(self.err(DecodeError::oos(format!(
                "the page has fewer definition levels than values ({} levels where {k} were needed)",
                tally.skipped
            ))));
        }
        if tally.max > max {
            return Err(self.err(DecodeError::oos(format!(
                "definition level {} is larger than the column's maximum of {max}",
                tally.max
            ))));
        }
        Ok(tally.equal)
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

impl ColumnReader<'_, crate::physical::ByteArray> {
    /// Appends exactly `n` byte arrays as `Bytes` that share the page buffers.
    pub fn read_bytes(&mut self, n: usize, out: &mut Vec<bytes::Bytes>) -> Result<()> {
        self.read_required_with(n, out, |r, k, out| r.read_dense_bytes(k, out, |b| b))
    }

    /// [`ColumnReader::read_bytes`] for nullable fields.
    pub fn read_optional_bytes(
        &mut self,
        n: usize,
        out: &mut Vec<Option<bytes::Bytes>>,
    ) -> Result<()> {
        self.read_optional_with(n, out, |r, k, out| r.read_dense_bytes(k, out, Some))
    }

    fn read_dense_bytes<T>(
        &mut self,
        k: usize,
        out: &mut Vec<T>,
        wrap: impl Fn(bytes::Bytes) -> T,
    ) -> Result<()> {
        let mut dense = std::mem::take(&mut self.dense);
        dense.clear();
        let result = self.read_dense(k, &mut dense);
        out.extend(dense.iter().map(|slice| wrap(self.share(slice))));
        self.dense = dense;
        result
    }

    /// `slice` as `Bytes`: a view of the page buffer that holds it (the current
    /// data page or the dictionary page), or a copy if it lives elsewhere.
    fn share(&self, slice: &[u8]) -> bytes::Bytes {
        let holders = [self.next_page.checked_sub(1), self.dict_page];
        for page in holders.into_iter().flatten() {
            if let Some(page) = self.column.pages.get(page) {
                let buf = page.buffer();
                let range = buf.as_ptr_range();
                if slice.is_empty()
                    || range.contains(&slice.as_ptr()) && slice.as_ptr_range().end <= range.end
                {
                    return buf.slice_ref(slice);
                }
            }
        }
        bytes::Bytes::copy_from_slice(slice)
    }
}

/// Appends `n` levels from `levels` to `out` (zeros when there are none);
/// returns how many were decoded. `n` is a cursor's chunk (see
/// `ColumnReader::read_nested_levels`), never a page header's count.
fn fill_levels(
    levels: Option<&mut page::Levels<'_>>,
    n: usize,
    out: &mut Vec<u32>,
) -> Result<usize, DecodeError> {
    let start = out.len();
    out.resize(start + n, 0);
    let got = match levels {
        Some(levels) => levels.get_batch(&mut out[start..])?,
        None => n,
    };
    out.truncate(start + got);
    Ok(got)
}

/// Bit width of levels whose maximum is `max_level`.
pub(crate) fn level_bit_width(max_level: i16) -> u32 {
    32 - u32::from(max_level.unsigned_abs()).leading_zeros()
}
