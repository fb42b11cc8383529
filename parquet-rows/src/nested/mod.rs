//! Nested data: structs inside structs, lists and maps.
//!
//! Every type that can be a field of a `#[derive(ParquetRow)]` struct
//! implements [`ParquetNode`]: the leaf types of [`crate::ParquetField`] (through
//! one blanket impl), `Option<T>`, `Vec<T>`, `HashMap`, `BTreeMap`, `(K, V)`
//! and every derived struct. It says what the type binds to ([`Shape`]) and
//! how to read it in two ways:
//!
//! - **in batches** ([`ParquetNode::Reader`]): what a top-level field of the
//!   row struct uses. A leaf (or `Option` of a leaf) on a flat column reads
//!   through [`ColumnReader`](crate::column::ColumnReader) exactly as before nesting
//!   existed: a flat struct pays nothing for nesting it does not have.
//! - **record by record** ([`ParquetNode::Cursor`]): every column under a
//!   nested field is decoded, a chunk of levels at a time, into its
//!   repetition levels, definition levels and non-null values
//!   ([`leaf::LeafCursor`]); the values
//!   are then assembled ("record shredding in reverse") by walking those
//!   streams in lockstep: an `Option` is `None` when the first leaf's
//!   definition level is below the level at which its node is defined, a
//!   list takes elements while the repetition level says "same list", and a
//!   null or empty node takes one level entry from each leaf under it.
//!
//! Binding ([`crate::bind`]) matches a [`Shape`] to the schema once per file
//! and gives each node its levels ([`Bound`]).

mod leaf;
mod list;
mod map;
mod option;
#[cfg(test)]
mod skip_tests;

pub use list::ListCursor;

pub use crate::shape::{Bound, FieldSpec, Shape};

pub use crate::field::ListElement;

use crate::error::{Error, Location, Result};
use crate::group::RowGroup;

/// A Rust type that can be a field of a `#[derive(ParquetRow)]` struct: a
/// leaf type ([`crate::ParquetField`]), `Option<T>`, `Vec<T>`, a map, a pair,
/// or another derived struct.
///
/// The methods are the derive's plumbing; you do not call them yourself.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be a field of a `#[derive(ParquetRow)]` struct",
    label = "unsupported field type",
    note = "supported field types: bool, i8-i64, u8-u64, i128, f32, f64, &str, String, Box<str>, Arc<str>, CompactString, &[u8], Vec<u8>, [u8; N], bytes::Bytes, Timestamp, Date, Time, Int96, Decimal, Variant, OwnedVariant, structs that derive ParquetRow, Vec<_>, HashMap<_, _>, BTreeMap<_, _>, and Option<_> of each",
    note = "borrowed fields (`&str`, `&[u8]`) must use the struct's lifetime parameter; use #[parquet(skip)] for a field that is not in the file",
    note = "for a type of your own, read a supported type and convert it: #[parquet(from = \"f64\")] uses `From<f64>`, #[parquet(try_from = \"&str\")] uses `TryFrom<&str>`"
)]
pub trait ParquetNode<'p>: Sized {
    /// What the type binds to.
    fn shape() -> Shape;

    /// A value a row holds in a field of this type until the decoded one is
    /// written over it: no allocation.
    fn placeholder() -> Self;
    /// Whether [`ParquetNode::placeholder`] costs (nearly) nothing to make
    /// and drop. `Arc<str>`'s updates a shared reference count: a struct with
    /// such a field is decoded column by column into buffers zipped into
    /// rows instead, as fast for it and without that traffic (except a
    /// struct of more than 64 fields, which is always decoded in place:
    /// see docs/pipeline.md, Wide structs).
    const CHEAP_PLACEHOLDER: bool = true;

    /// Reads the values of a top-level field, a batch of rows at a time.
    type Reader: BatchReader<Self>;
    /// The reader of a top-level field of this type, bound as `bound`.
    fn reader(row_group: &RowGroup<'_, 'p>, bound: &Bound) -> Result<Self::Reader>;

    /// [`ParquetNode::Reader`] for `Option<Self>` (flat leaves have their own).
    type OptionReader: BatchReader<Option<Self>>;
    /// The reader of a top-level `Option<Self>` field, bound as `bound`.
    fn option_reader(row_group: &RowGroup<'_, 'p>, bound: &Bound) -> Result<Self::OptionReader>;

    /// Record-by-record state: the level and value streams of the leaves
    /// under the node, and the node's levels.
    type Cursor;
    /// Decodes the row group's columns under the node.
    fn cursor(row_group: &RowGroup<'_, 'p>, bound: &Bound) -> Result<Self::Cursor>;
    /// The definition level of the next entry of the node's first leaf (0
    /// when there is none: then [`ParquetNode::next`] and
    /// [`ParquetNode::skip`] fail).
    fn def(cursor: &mut Self::Cursor) -> Result<u32>;
    /// The repetition level of the next entry of the node's first leaf, `None`
    /// after the last.
    fn rep(cursor: &mut Self::Cursor) -> Result<Option<u32>>;
    /// Consumes one entry of each leaf under the node: an ancestor is null or
    /// an empty list.
    fn skip(cursor: &mut Self::Cursor) -> Result<()>;
    /// Assembles the next value.
    fn next(cursor: &mut Self::Cursor) -> Result<Self>;
    /// Moves every leaf under the node past its next `n` records (rows of
    /// the top-level field) without assembling them: what each leaf
    /// buffered for them is dropped, the rest is skipped in its column
    /// (the crate's `ColumnReader::skip_records`).
    /// Every leaf starts a record (repetition level 0) when it is called.
    fn skip_records(cursor: &mut Self::Cursor, n: usize) -> Result<()>;
    /// Checks that every leaf under the node was read to its end.
    fn finish(cursor: &mut Self::Cursor) -> Result<()>;
}

/// Reads a top-level field's values, a batch of rows at a time.
#[doc(hidden)]
pub trait BatchReader<T> {
    /// Appends exactly `n` values (one per row) to `out`.
    fn read(&mut self, n: usize, out: &mut Vec<T>) -> Result<()>;
    /// Writes exactly `rows.len()` values, one into the field `field(row)` of
    /// each row; `scratch` is a buffer the caller keeps between batches.
    fn read_into<R>(
        &mut self,
        rows: &mut [R],
        field: impl FnMut(&mut R) -> &mut T,
        scratch: &mut Vec<T>,
    ) -> Result<()> {
        scratch.clear();
        let result = self.read(rows.len(), scratch);
        crate::out::scatter(rows, scratch.drain(..), field);
        result
    }
    /// For each `(skip, take)` of `runs`: moves past `skip` rows, then
    /// appends the next `take` values to `out` (the taken rows of a batch of
    /// a filtered read, `runtime::Step::FillRuns`). This default skips and
    /// reads run by run; the flat readers loop inside the column reader.
    fn read_runs(&mut self, runs: &[(usize, usize)], out: &mut Vec<T>) -> Result<()> {
        for &(skip, take) in runs {
            if skip > 0 {
                self.skip(skip)?;
            }
            self.read(take, out)?;
        }
        Ok(())
    }
    /// [`read_into`](Self::read_into) for the taken rows of `runs`: `rows`
    /// holds one row per taken row.
    fn read_runs_into<R>(
        &mut self,
        runs: &[(usize, usize)],
        rows: &mut [R],
        field: impl FnMut(&mut R) -> &mut T,
        scratch: &mut Vec<T>,
    ) -> Result<()> {
        scratch.clear();
        let result = self.read_runs(runs, scratch);
        crate::out::scatter(rows, scratch.drain(..), field);
        result
    }
    /// Moves past `n` rows without handing out their values: the rows of a
    /// page before or after those a query selects. Flat columns skip levels
    /// and values without decoding them (`ColumnReader::skip_rows`), nested
    /// fields skip whole records ([`ParquetNode::skip_records`]). This
    /// default, decoding the rows and dropping them, is for a reader that
    /// can do no better; every reader of the crate overrides it.
    fn skip(&mut self, n: usize) -> Result<()> {
        let mut scratch = Vec::new();
        let mut left = n;
        while left > 0 {
            let batch = left.min(crate::runtime::BATCH);
            self.read(batch, &mut scratch)?;
            scratch.clear();
            left -= batch;
        }
        Ok(())
    }
    /// Checks that the row group's columns hold no values beyond its rows.
    fn finish(&mut self) -> Result<()>;
}

/// The batch reader of a top-level nested field: assembles one record per row.
#[doc(hidden)]
pub struct Assembled<'p, T: ParquetNode<'p>> {
    cursor: T::Cursor,
    location: Location, // the field's first column, for errors
}

impl<'p, T: ParquetNode<'p>> std::fmt::Debug for Assembled<'p, T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Assembled")
            .field("location", &self.location)
            .finish_non_exhaustive()
    }
}

impl<'p, T: ParquetNode<'p>> Assembled<'p, T> {
    /// Decodes the row group's columns under the field.
    pub fn new(row_group: &RowGroup<'_, 'p>, bound: &Bound) -> Result<Self> {
        Ok(Assembled {
            cursor: T::cursor(row_group, bound)?,
            location: row_group.location(bound.leaf),
        })
    }
}

impl<'p, T: ParquetNode<'p>> BatchReader<T> for Assembled<'p, T> {
    fn read(&mut self, n: usize, out: &mut Vec<T>) -> Result<()> {
        out.reserve(n);
        for _ in 0..n {
            match T::rep(&mut self.cursor)? {
                Some(0) => out.push(T::next(&mut self.cursor)?),
                Some(rep) => {
                    return Err(self.out_of_spec(format!(
                        "a record starts with repetition level {rep}, not 0"
                    )))
                }
                None => {
                    return Err(self.out_of_spec(
                        "the column chunk has fewer records than the row group has rows".into(),
                    ))
                }
            }
        }
        Ok(())
    }

    /// The records are skipped in every column under the field, undecoded
    /// (see [`ParquetNode::skip_records`]), not assembled and dropped.
    fn skip(&mut self, n: usize) -> Result<()> {
        if n == 0 {
            return Ok(());
        }
        T::skip_records(&mut self.cursor, n)
    }

    fn finish(&mut self) -> Result<()> {
        T::finish(&mut self.cursor)
    }
}

impl<'p, T: ParquetNode<'p>> Assembled<'p, T> {
    fn out_of_spec(&self, message: String) -> Error {
        Error::OutOfSpec {
            location: self.location.clone(),
            message,
        }
    }
}

/// `(K, V)`: a group of two fields read by position, e.g. a map's key and
/// value in a `Vec<(K, V)>`.
impl<'p, K: ParquetNode<'p>, V: ParquetNode<'p>> ParquetNode<'p> for (K, V) {
    fn shape() -> Shape {
        Shape::Pair(Box::new(K::shape()), Box::new(V::shape()))
    }
    fn placeholder() -> Self {
        (K::placeholder(), V::placeholder())
    }
    const CHEAP_PLACEHOLDER: bool = K::CHEAP_PLACEHOLDER && V::CHEAP_PLACEHOLDER;
    type Reader = Assembled<'p, Self>;
    fn reader(row_group: &RowGroup<'_, 'p>, bound: &Bound) -> Result<Self::Reader> {
        Assembled::new(row_group, bound)
    }
    type OptionReader = Assembled<'p, Option<Self>>;
    fn option_reader(row_group: &RowGroup<'_, 'p>, bound: &Bound) -> Result<Self::OptionReader> {
        Assembled::new(row_group, bound)
    }
    type Cursor = (K::Cursor, V::Cursor);
    fn cursor(row_group: &RowGroup<'_, 'p>, bound: &Bound) -> Result<Self::Cursor> {
        Ok((
            K::cursor(row_group, bound.child(0)?)?,
            V::cursor(row_group, bound.child(1)?)?,
        ))
    }
    fn def(cursor: &mut Self::Cursor) -> Result<u32> {
        K::def(&mut cursor.0)
    }
    fn rep(cursor: &mut Self::Cursor) -> Result<Option<u32>> {
        K::rep(&mut cursor.0)
    }
    fn skip(cursor: &mut Self::Cursor) -> Result<()> {
        K::skip(&mut cursor.0)?;
        V::skip(&mut cursor.1)
    }
    fn next(cursor: &mut Self::Cursor) -> Result<Self> {
        Ok((K::next(&mut cursor.0)?, V::next(&mut cursor.1)?))
    }
    fn skip_records(cursor: &mut Self::Cursor, n: usize) -> Result<()> {
        K::skip_records(&mut cursor.0, n)?;
        V::skip_records(&mut cursor.1, n)
    }
    fn finish(cursor: &mut Self::Cursor) -> Result<()> {
        K::finish(&mut cursor.0)?;
        V::finish(&mut cursor.1)
    }
}

impl<K, V> ListElement for (K, V) {}
