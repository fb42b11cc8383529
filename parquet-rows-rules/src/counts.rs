//! Statistics whose counts are negative, found before the `parquet` crate
//! converts the footer: it refuses the whole file for one of them ("Statistics
//! null count is negative"), though the count only ever serves pruning. The
//! runtime asks it to skip those columns' statistics instead, and reads the
//! file.
//!
//! The walk (compact protocol, as in [`crate::footer`]): `FileMetaData` field
//! 4 `row_groups` → `RowGroup` field 1 `columns` → `ColumnChunk` field 3
//! `meta_data` → `ColumnMetaData` field 12 `statistics` → `Statistics`
//! field 3 `null_count` and field 9 `nan_count` (both i64).

use crate::footer::{corrupt, ty, Reader};
use crate::FooterError;

/// Deepest nesting of a struct skipped inside the fields walked.
const DEPTH: usize = 8;

/// When some row group's statistics of some leaf column give a negative
/// null or NaN count, the leaf columns (their index in a row group's column
/// list) whose statistics are sound in every row group, in increasing
/// order; `None` when every count is sound.
///
/// ```
/// // A footer with no row groups has nothing to drop.
/// assert_eq!(parquet_rows_rules::sound_statistics(&[0]), Ok(None));
/// ```
pub fn sound_statistics(metadata: &[u8]) -> Result<Option<Vec<usize>>, FooterError> {
    let mut r = Reader {
        buf: metadata,
        pos: 0,
    };
    let (mut found, mut width) = (Vec::new(), 0);
    let mut last = 0;
    while let Some((id, kind)) = r.field(&mut last)? {
        if id == 4 && kind == ty::LIST {
            for_each_struct(&mut r, |r| row_group(r, &mut found, &mut width))?;
        } else {
            r.skip(kind, 0)?;
        }
    }
    if found.is_empty() {
        return Ok(None);
    }
    Ok(Some((0..width).filter(|c| !found.contains(c)).collect()))
}

/// Calls `each` for every element of a list of structs (the list header
/// next in `r`); a list of anything else is skipped.
fn for_each_struct(
    r: &mut Reader<'_>,
    mut each: impl FnMut(&mut Reader<'_>) -> Result<(), FooterError>,
) -> Result<(), FooterError> {
    let (elem, size) = r.list()?;
    for _ in 0..size {
        if elem == ty::STRUCT {
            each(r)?;
        } else {
            r.skip_element(elem, 1)?;
        }
    }
    Ok(())
}

/// A `RowGroup`: pushes its columns with a negative count to `found`, and
/// raises `width` to its number of columns.
fn row_group(
    r: &mut Reader<'_>,
    found: &mut Vec<usize>,
    width: &mut usize,
) -> Result<(), FooterError> {
    let mut last = 0;
    while let Some((id, kind)) = r.field(&mut last)? {
        if id == 1 && kind == ty::LIST {
            let mut column = 0;
            for_each_struct(r, |r| {
                if column_chunk(r)? && !found.contains(&column) {
                    found.push(column);
                }
                column += 1;
                *width = (*width).max(column);
                Ok(())
            })?;
        } else {
            r.skip(kind, 1)?;
        }
    }
    Ok(())
}

/// Walks a struct, handing its fields to `field` (id, kind), which reads
/// the value or returns `false` to have it skipped; `true` when any call
/// said a count was negative.
fn walk(
    r: &mut Reader<'_>,
    depth: usize,
    mut field: impl FnMut(&mut Reader<'_>, i16, u8) -> Result<Option<bool>, FooterError>,
) -> Result<bool, FooterError> {
    let (mut last, mut negative) = (0, false);
    while let Some((id, kind)) = r.field(&mut last)? {
        match field(r, id, kind)? {
            Some(n) => negative |= n,
            None => r.skip(kind, depth)?,
        }
    }
    Ok(negative)
}

/// A `ColumnChunk`: whether its statistics hold a negative count.
fn column_chunk(r: &mut Reader<'_>) -> Result<bool, FooterError> {
    walk(r, 2, |r, id, kind| {
        if id != 3 || kind != ty::STRUCT {
            return Ok(None);
        }
        // ColumnMetaData
        walk(r, 3, |r, id, kind| {
            if id != 12 || kind != ty::STRUCT {
                return Ok(None);
            }
            // Statistics
            walk(r, DEPTH, |r, id, kind| {
                if (id == 3 || id == 9) && kind == ty::I64 {
                    return Ok(Some(r.zigzag()? < 0));
                }
                Ok(None)
            })
            .map(Some)
        })
        .map(Some)
    })
    .map_err(|e| match e {
        FooterError::Corrupt(why) => corrupt(format!("in a column chunk's metadata: {why}")),
        other => other,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Compact-protocol bytes, field deltas written by hand.
    fn field(delta: u8, kind: u8) -> u8 {
        delta << 4 | kind
    }

    /// A footer of `groups` row groups of columns whose null counts are given.
    fn footer(groups: &[&[i64]]) -> Vec<u8> {
        let mut out = vec![field(4, ty::LIST), (groups.len() as u8) << 4 | ty::STRUCT];
        for columns in groups {
            out.extend([field(1, ty::LIST), (columns.len() as u8) << 4 | ty::STRUCT]);
            for &nulls in *columns {
                // ColumnChunk: file_offset (2), meta_data (3)
                out.extend([field(2, ty::I64), 0, field(1, ty::STRUCT)]);
                // ColumnMetaData: num_values (5), statistics (12)
                out.extend([field(5, ty::I64), 8, field(7, ty::STRUCT)]);
                // Statistics: max (1), null_count (3), min_value (6)
                out.extend([field(1, ty::BINARY), 1, 7, field(2, ty::I64)]);
                out.push(((nulls << 1) ^ (nulls >> 63)) as u8);
                out.extend([field(3, ty::BINARY), 1, 2, 0]);
                out.extend([0, 0]); // end of ColumnMetaData, ColumnChunk
            }
            out.extend([field(2, ty::I64), 16, 0]); // RowGroup: num_rows, end
        }
        out.push(0);
        out
    }

    #[test]
    fn finds_the_columns_with_negative_null_counts() {
        assert_eq!(sound_statistics(&footer(&[&[0, 3]])), Ok(None));
        assert_eq!(
            sound_statistics(&footer(&[&[0, -1, 2, 0], &[-5, 0, 0, 1], &[0, -1, 0, 0]])),
            Ok(Some(vec![2, 3]))
        );
    }

    #[test]
    fn truncated_footers_are_errors() {
        let bytes = footer(&[&[0, -1]]);
        for n in 0..bytes.len() {
            assert!(sound_statistics(&bytes[..n]).is_err(), "{n}");
        }
    }
}
