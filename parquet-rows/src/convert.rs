//! Conversions of `#[parquet(try_from = "T")]` fields: the column is read as
//! `T`, then each value goes through the field type's `TryFrom<T>`; a value
//! it refuses is an [`Error::Value`] naming the column, row group and row.

use std::fmt::Display;

use crate::error::{Error, Location, Result};
use crate::group::RowGroup;

/// Converts one field's values in one row group, in row order, so that a
/// failure can name its row.
#[doc(hidden)]
#[derive(Debug)]
pub struct Converter {
    location: Location, // the field's column in this row group
    row: usize,         // rows converted so far in the row group
}

impl Converter {
    /// The converter of read field number `field` (in `ParquetRow::fields`
    /// order) in `row_group`.
    pub fn new(row_group: &RowGroup<'_, '_>, field: usize) -> Result<Self> {
        let mut leaves = Vec::new();
        row_group.field(field)?.leaves(&mut leaves);
        let location = match leaves[..] {
            [leaf] => row_group.location(leaf),
            _ => Location::default(),
        };
        Ok(Converter { location, row: 0 })
    }

    /// The next row's value, converted.
    pub fn try_from<S, T>(&mut self, value: S) -> Result<T>
    where
        T: TryFrom<S>,
        T::Error: Display,
    {
        let row = self.row;
        self.row += 1;
        T::try_from(value).map_err(|e| Error::Value {
            location: self.location.clone(),
            message: format!("row {row} of the row group: {e}"),
        })
    }

    /// The next row's value of an `Option` field, converted when present.
    pub fn try_from_some<S, T>(&mut self, value: Option<S>) -> Result<Option<T>>
    where
        T: TryFrom<S>,
        T::Error: Display,
    {
        match value {
            Some(value) => self.try_from(value).map(Some),
            None => {
                self.row += 1;
                Ok(None)
            }
        }
    }
}
