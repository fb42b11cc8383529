//! Leaf types as nodes: the flat batch readers, and the leaf cursor that
//! decodes a column chunk's levels and values for record assembly.

use std::collections::VecDeque;

use super::{BatchReader, Bound, ParquetNode, Shape};
use crate::column::ColumnReader;
use crate::error::{Error, Location, Result};
use crate::field::ParquetField;
use crate::group::RowGroup;
use crate::out::{NotNull, Nullable};

/// A top-level leaf field on a flat column: values go from the page into the
/// batch through [`ParquetField::read`], as for a struct without nesting.
#[doc(hidden)]
#[derive(Debug)]
pub struct Flat<'p, T: ParquetField<'p>> {
    reader: ColumnReader<'p, T::Physical, T>,
}

impl<'p, T: ParquetField<'p>> BatchReader<T> for Flat<'p, T> {
    #[inline]
    fn read(&mut self, n: usize, out: &mut Vec<T>) -> Result<()> {
        T::read(&mut self.reader, n, out)
    }
    #[inline]
    fn read_into<R>(
        &mut self,
        rows: &mut [R],
        field: impl FnMut(&mut R) -> &mut T,
        _: &mut Vec<T>,
    ) -> Result<()> {
        T::read_into::<R, NotNull>(&mut self.reader, rows, field)
    }
    #[inline]
    fn read_runs(&mut self, runs: &[(usize, usize)], out: &mut Vec<T>) -> Result<()> {
        T::read_runs(&mut self.reader, runs, out)
    }
    #[inline]
    fn read_runs_into<R>(
        &mut self,
        runs: &[(usize, usize)],
        rows: &mut [R],
        field: impl FnMut(&mut R) -> &mut T,
        _: &mut Vec<T>,
    ) -> Result<()> {
        T::read_runs_into::<R, NotNull>(&mut self.reader, runs, rows, field)
    }
    /// Levels and values skipped undecoded; a null in a skipped row is not
    /// an error, since no field receives it.
    fn skip(&mut self, n: usize) -> Result<()> {
        self.reader.skip_rows(n)
    }
    fn finish(&mut self) -> Result<()> {
        self.reader.finish()
    }
}

/// A top-level `Option<T>` field of a leaf type on a flat column.
#[doc(hidden)]
#[derive(Debug)]
pub struct FlatOptional<'p, T: ParquetField<'p>> {
    reader: ColumnReader<'p, T::Physical, T>,
}

impl<'p, T: ParquetField<'p>> BatchReader<Option<T>> for FlatOptional<'p, T> {
    #[inline]
    fn read(&mut self, n: usize, out: &mut Vec<Option<T>>) -> Result<()> {
        T::read_optional(&mut self.reader, n, out)
    }
    /// Values go straight into the rows' `Option`s; a page (or a run of
    /// definition levels) without nulls is read as if REQUIRED.
    #[inline]
    fn read_into<R>(
        &mut self,
        rows: &mut [R],
        field: impl FnMut(&mut R) -> &mut Option<T>,
        _: &mut Vec<Option<T>>,
    ) -> Result<()> {
        T::read_into::<R, Nullable>(&mut self.reader, rows, field)
    }
    #[inline]
    fn read_runs(&mut self, runs: &[(usize, usize)], out: &mut Vec<Option<T>>) -> Result<()> {
        T::read_runs_optional(&mut self.reader, runs, out)
    }
    #[inline]
    fn read_runs_into<R>(
        &mut self,
        runs: &[(usize, usize)],
        rows: &mut [R],
        field: impl FnMut(&mut R) -> &mut Option<T>,
        _: &mut Vec<Option<T>>,
    ) -> Result<()> {
        T::read_runs_into::<R, Nullable>(&mut self.reader, runs, rows, field)
    }
    fn skip(&mut self, n: usize) -> Result<()> {
        self.reader.skip_rows(n)
    }
    fn finish(&mut self) -> Result<()> {
        self.reader.finish()
    }
}

/// Levels decoded per refill of a leaf cursor: memory stays bounded whatever
/// the page headers claim, and the buffers stay in cache.
const CHUNK: usize = 1024;

/// One leaf column of a row group, read for record assembly: its level pairs
/// (one per value, null or empty list) and non-null values, a chunk at a time.
#[doc(hidden)]
pub struct LeafCursor<'p, T: ParquetField<'p>> {
    reader: ColumnReader<'p, T::Physical, T>,
    reps: Vec<u32>,      // repetition level per entry of the chunk
    defs: Vec<u32>,      // definition level per entry of the chunk
    next: usize,         // invariant: <= reps.len() == defs.len(); next entry
    values: VecDeque<T>, // the chunk's non-null values not taken yet, in order
    scratch: Vec<T>,     // values as the reader appends them
    max_def: u32,        // the level of a non-null value
    location: Location,  // the column, for errors
}

impl<'p, T: ParquetField<'p>> std::fmt::Debug for LeafCursor<'p, T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LeafCursor")
            .field("location", &self.location)
            .field("next", &self.next)
            .finish_non_exhaustive()
    }
}

impl<'p, T: ParquetField<'p>> LeafCursor<'p, T> {
    fn out_of_spec(&self, message: impl Into<String>) -> Error {
        Error::OutOfSpec {
            location: self.location.clone(),
            message: message.into(),
        }
    }

    /// Makes sure an entry is available; `false` after the last one.
    #[inline]
    fn available(&mut self) -> Result<bool> {
        if self.next < self.defs.len() {
            return Ok(true);
        }
        self.refill()
    }

    /// Moves past the next `n` records: first the entries (and values)
    /// buffered for them, then, when the buffer ends before the record
    /// after them starts, the rest in the column, undecoded.
    fn skip_records(&mut self, n: usize) -> Result<()> {
        if n == 0 {
            return Ok(());
        }
        if self.next == self.defs.len() {
            return self.reader.skip_records(n, false);
        }
        if self.reps[self.next] != 0 {
            return Err(self.out_of_spec(format!(
                "a record starts with repetition level {}, not 0",
                self.reps[self.next]
            )));
        }
        let mut started = 0; // record starts passed
        let mut values = 0; // non-null values among the entries passed
        let mut i = self.next;
        while i < self.defs.len() {
            if self.reps[i] == 0 {
                if started == n {
                    break;
                }
                started += 1;
            }
            values += usize::from(self.defs[i] == self.max_def);
            i += 1;
        }
        if values > self.values.len() {
            return Err(self.out_of_spec("the column has fewer values than its levels"));
        }
        self.values.drain(..values);
        self.next = i;
        if i < self.defs.len() {
            return Ok(());
        }
        if !self.values.is_empty() {
            return Err(self.out_of_spec("the column has more values than its levels say"));
        }
        // The last record passed may go on past the buffer.
        self.reader.skip_records(n - started, true)
    }

    /// Reads the next chunk of levels and their values.
    fn refill(&mut self) -> Result<bool> {
        if !self.values.is_empty() {
            return Err(self.out_of_spec("the column has more values than its levels say"));
        }
        self.reps.clear();
        self.defs.clear();
        self.next = 0;
        let Some(non_null) =
            self.reader
                .read_nested_levels(CHUNK, &mut self.reps, &mut self.defs)?
        else {
            return Ok(false);
        };
        if non_null > 0 {
            self.scratch.clear();
            T::read(&mut self.reader, non_null, &mut self.scratch)?;
            self.values.extend(self.scratch.drain(..));
        }
        Ok(!self.defs.is_empty())
    }
}

#[diagnostic::do_not_recommend]
impl<'p, T: ParquetField<'p>> ParquetNode<'p> for T {
    fn shape() -> Shape {
        Shape::Leaf {
            kind: T::KIND,
            rust_type: T::RUST_TYPE,
        }
    }
    #[inline]
    fn placeholder() -> Self {
        T::placeholder()
    }
    const CHEAP_PLACEHOLDER: bool = T::CHEAP_PLACEHOLDER;

    type Reader = Flat<'p, T>;
    fn reader(row_group: &RowGroup<'_, 'p>, bound: &Bound) -> Result<Self::Reader> {
        Ok(Flat {
            reader: row_group.column(bound.leaf)?.for_field(T::RUST_TYPE),
        })
    }

    type OptionReader = FlatOptional<'p, T>;
    fn option_reader(row_group: &RowGroup<'_, 'p>, bound: &Bound) -> Result<Self::OptionReader> {
        Ok(FlatOptional {
            reader: row_group.column(bound.leaf)?,
        })
    }

    type Cursor = LeafCursor<'p, T>;
    fn cursor(row_group: &RowGroup<'_, 'p>, bound: &Bound) -> Result<Self::Cursor> {
        Ok(LeafCursor {
            reader: row_group.nested_column(bound.leaf)?,
            reps: Vec::with_capacity(CHUNK),
            defs: Vec::with_capacity(CHUNK),
            next: 0,
            values: VecDeque::new(),
            scratch: Vec::new(),
            max_def: bound.def,
            location: row_group.location(bound.leaf),
        })
    }

    #[inline]
    fn def(cursor: &mut Self::Cursor) -> Result<u32> {
        Ok(if cursor.available()? {
            cursor.defs[cursor.next]
        } else {
            0
        })
    }

    #[inline]
    fn rep(cursor: &mut Self::Cursor) -> Result<Option<u32>> {
        Ok(if cursor.available()? {
            Some(cursor.reps[cursor.next])
        } else {
            None
        })
    }

    fn skip(cursor: &mut Self::Cursor) -> Result<()> {
        if !cursor.available()? {
            return Err(cursor.out_of_spec(
                "the column has fewer entries than the other columns under the same field",
            ));
        }
        if cursor.defs[cursor.next] >= cursor.max_def {
            return Err(cursor.out_of_spec(
                "a value where the levels of another column under the same field say null or empty",
            ));
        }
        cursor.next += 1;
        Ok(())
    }

    #[inline]
    fn next(cursor: &mut Self::Cursor) -> Result<Self> {
        if !cursor.available()? {
            return Err(cursor.out_of_spec(
                "the column has fewer entries than the other columns under the same field",
            ));
        }
        if cursor.defs[cursor.next] != cursor.max_def {
            return Err(cursor.out_of_spec(
                "a null where the levels of another column under the same field say a value",
            ));
        }
        cursor.next += 1;
        match cursor.values.pop_front() {
            Some(value) => Ok(value),
            None => Err(cursor.out_of_spec("the column has fewer values than its levels")),
        }
    }

    fn skip_records(cursor: &mut Self::Cursor, n: usize) -> Result<()> {
        cursor.skip_records(n)
    }

    fn finish(cursor: &mut Self::Cursor) -> Result<()> {
        if cursor.available()? {
            return Err(cursor.out_of_spec(
                "the column chunk has more entries than the row group's records use",
            ));
        }
        Ok(())
    }
}
