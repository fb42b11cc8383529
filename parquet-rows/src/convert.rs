//! Conversions of `#[parquet(try_from = "T")]` fields: the column is read as
//! `T`, then each value goes through the field type's `TryFrom<T>`; a value
//! it refuses is an [`Error::Value`] naming the column, row group and row.

use std::fmt::Display;

use crate::error::{Error, Location, Result};
use crate::group::RowGroup;

/// Converts one field's values in one view of a row group (every row, a
/// parallel reader's range, or a filter's runs), in row order, so that a
/// failure names its row in the row group: the row is found from the
/// view's place in the row group and its runs, as the plan gave them,
/// never from a count that restarts with each view.
#[doc(hidden)]
#[derive(Debug)]
pub struct Converter<'a> {
    location: Location,         // the field's column in this row group
    first: usize,               // the row group's row where the view's rows start
    runs: &'a [(usize, usize)], // the view's (rows skipped, rows decoded) pairs
    done: usize,                // rows converted so far in the view
}

impl<'a> Converter<'a> {
    /// The converter of read field number `field` (in `ParquetRow::fields`
    /// order) in `row_group`.
    pub fn new(row_group: &'a RowGroup<'_, '_>, field: usize) -> Result<Self> {
        let mut leaves = Vec::new();
        row_group.field(field)?.leaves(&mut leaves);
        let location = match leaves[..] {
            [leaf] => row_group.location(leaf),
            _ => Location::default(),
        };
        Ok(Converter {
            location,
            first: row_group.first_row(),
            runs: row_group.runs(),
            done: 0,
        })
    }

    /// The row in the row group of the view's decoded row number `k`.
    fn row(&self, k: usize) -> usize {
        let (mut at, mut left) = (self.first, k);
        for &(skip, take) in self.runs {
            at += skip;
            if left < take {
                return at + left;
            }
            at += take;
            left -= take;
        }
        at + left // beyond the runs: cannot happen, but say something near
    }

    /// The next row's value, converted.
    pub fn try_from<S, T>(&mut self, value: S) -> Result<T>
    where
        T: TryFrom<S>,
        T::Error: Display,
    {
        let k = self.done;
        self.done += 1;
        T::try_from(value).map_err(|e| Error::Value {
            location: self.location.clone(),
            message: format!("row {} of the row group: {e}", self.row(k)),
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
                self.done += 1;
                Ok(None)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_decoded_row_is_found_through_the_runs() {
        let runs = [(2, 3), (10, 1), (0, 4)];
        let c = Converter {
            location: Location::default(),
            first: 100,
            runs: &runs,
            done: 0,
        };
        let rows: Vec<usize> = (0..8).map(|k| c.row(k)).collect();
        assert_eq!(rows, [102, 103, 104, 115, 116, 117, 118, 119]);
    }
}
