//! Leaf types as nodes: the flat batch readers, and the leaf cursor that
//! decodes a column chunk's levels and values for record assembly.

use super::{BatchReader, Bound, ParquetNode, Shape};
use crate::column::ColumnReader;
use crate::error::{Error, Location, Result};
use crate::field::ParquetField;
use crate::pages::RowGroup;

/// A top-level leaf field on a flat column: values go from the page into the
/// batch through [`ParquetField::read`], as for a struct without nesting.
#[doc(hidden)]
#[derive(Debug)]
pub struct Flat<'p, T: ParquetField<'p>> {
    reader: ColumnReader<'p, T::Physical>,
}

impl<'p, T: ParquetField<'p>> BatchReader<T> for Flat<'p, T> {
    #[inline]
    fn read(&mut self, n: usize, out: &mut Vec<T>) -> Result<()> {
        T::read(&mut self.reader, n, out)
    }
    fn finish(&mut self) -> Result<()> {
        self.reader.finish()
    }
}

/// A top-level `Option<T>` field of a leaf type on a flat column.
#[doc(hidden)]
#[derive(Debug)]
pub struct FlatOptional<'p, T: ParquetField<'p>> {
    reader: ColumnReader<'p, T::Physical>,
}

impl<'p, T: ParquetField<'p>> BatchReader<Option<T>> for FlatOptional<'p, T> {
    #[inline]
    fn read(&mut self, n: usize, out: &mut Vec<Option<T>>) -> Result<()> {
        T::read_optional(&mut self.reader, n, out)
    }
    fn finish(&mut self) -> Result<()> {
        self.reader.finish()
    }
}

/// One leaf column of a row group, decoded for record assembly: a level pair
/// per entry (value, null or empty list) and the non-null values, converted.
#[doc(hidden)]
pub struct LeafCursor<T> {
    reps: Vec<u32>,                // repetition level per entry
    defs: Vec<u32>,                // definition level per entry
    values: std::vec::IntoIter<T>, // the non-null values, in order
    next: usize,                   // invariant: <= reps.len() == defs.len(); next entry
    max_def: u32,                  // the level of a non-null value
    location: Location,            // the column, for errors
}

impl<T> std::fmt::Debug for LeafCursor<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LeafCursor")
            .field("location", &self.location)
            .field("next", &self.next)
            .field("entries", &self.defs.len())
            .finish_non_exhaustive()
    }
}

impl<T> LeafCursor<T> {
    fn out_of_spec(&self, message: impl Into<String>) -> Error {
        Error::OutOfSpec {
            location: self.location.clone(),
            message: message.into(),
        }
    }
}

impl<'p, T: ParquetField<'p>> ParquetNode<'p> for T {
    fn shape() -> Shape {
        Shape::Leaf {
            kind: T::KIND,
            rust_type: T::RUST_TYPE,
        }
    }

    type Reader = Flat<'p, T>;
    fn reader(row_group: &RowGroup<'_, 'p>, bound: &Bound) -> Result<Self::Reader> {
        Ok(Flat {
            reader: row_group.column(bound.leaf)?,
        })
    }

    type OptionReader = FlatOptional<'p, T>;
    fn option_reader(row_group: &RowGroup<'_, 'p>, bound: &Bound) -> Result<Self::OptionReader> {
        Ok(FlatOptional {
            reader: row_group.column(bound.leaf)?,
        })
    }

    type Cursor = LeafCursor<T>;
    fn cursor(row_group: &RowGroup<'_, 'p>, bound: &Bound) -> Result<Self::Cursor> {
        let mut reader = row_group.nested_column::<T::Physical>(bound.leaf)?;
        let (mut reps, mut defs, mut values) = (Vec::new(), Vec::new(), Vec::new());
        while let Some(non_null) = reader.read_page_levels(&mut reps, &mut defs)? {
            if non_null > 0 {
                T::read(&mut reader, non_null, &mut values)?;
            }
        }
        Ok(LeafCursor {
            reps,
            defs,
            values: values.into_iter(),
            next: 0,
            max_def: bound.def,
            location: row_group.location(bound.leaf),
        })
    }

    #[inline]
    fn def(cursor: &Self::Cursor) -> u32 {
        cursor.defs.get(cursor.next).copied().unwrap_or(0)
    }

    #[inline]
    fn rep(cursor: &Self::Cursor) -> Option<u32> {
        cursor.reps.get(cursor.next).copied()
    }

    fn skip(cursor: &mut Self::Cursor) -> Result<()> {
        match cursor.defs.get(cursor.next) {
            Some(&def) if def < cursor.max_def => {
                cursor.next += 1;
                Ok(())
            }
            Some(_) => Err(cursor.out_of_spec(
                "a value where the levels of another column under the same field say null or empty",
            )),
            None => Err(cursor.out_of_spec(
                "the column has fewer entries than the other columns under the same field",
            )),
        }
    }

    #[inline]
    fn next(cursor: &mut Self::Cursor) -> Result<Self> {
        match cursor.defs.get(cursor.next) {
            Some(&def) if def == cursor.max_def => {
                cursor.next += 1;
                match cursor.values.next() {
                    Some(value) => Ok(value),
                    None => Err(cursor.out_of_spec("the column has fewer values than its levels")),
                }
            }
            Some(_) => Err(cursor.out_of_spec(
                "a null where the levels of another column under the same field say a value",
            )),
            None => Err(cursor.out_of_spec(
                "the column has fewer entries than the other columns under the same field",
            )),
        }
    }

    fn finish(cursor: &Self::Cursor) -> Result<()> {
        let left = cursor.defs.len() - cursor.next;
        if left > 0 || cursor.values.len() > 0 {
            return Err(cursor.out_of_spec(format!(
                "the column chunk has {left} more entries than the row group's records use"
            )));
        }
        Ok(())
    }
}
