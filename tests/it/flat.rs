//! The flat rows and the file the builder and window tests read: `id`,
//! an `Option` `v` and a string `s`, owned ([`Row`]) or borrowed
//! ([`Borrowed`]), written in row groups and pages of known sizes.

use bytes::Bytes;
use parquet::file::properties::{EnabledStatistics, WriterProperties};
use parquet_rows::ParquetRow;
use parquet_rows_suite::{write_columns, ColumnValues};

#[derive(ParquetRow, Debug, Clone, PartialEq)]
pub(crate) struct Row {
    pub(crate) id: i64,
    pub(crate) v: Option<i64>,
    pub(crate) s: String,
}

#[derive(ParquetRow, Debug, PartialEq)]
pub(crate) struct Borrowed<'a> {
    pub(crate) id: i64,
    pub(crate) v: Option<i64>,
    pub(crate) s: &'a str,
}

impl Borrowed<'_> {
    /// The owned row of the same values.
    pub(crate) fn owned(&self) -> Row {
        Row {
            id: self.id,
            v: self.v,
            s: self.s.to_owned(),
        }
    }
}

/// Rows `0..rows` in row groups of `group` rows, pages of 64 rows; `v` is
/// `3 * id`, null on every seventh row; `s` is `s{id % 13}`. With `index`,
/// page statistics and the offset index, else neither; `id` is not
/// dictionary-encoded.
pub(crate) fn flat(rows: usize, group: usize, index: bool) -> Bytes {
    let groups: Vec<Vec<ColumnValues>> = (0..rows)
        .step_by(group)
        .map(|first| {
            let ids: Vec<i64> = (first..rows.min(first + group)).map(|i| i as i64).collect();
            vec![
                ColumnValues::Int64(ids.iter().map(|&i| Some(i)).collect()),
                ColumnValues::Int64(ids.iter().map(|&i| (i % 7 != 0).then_some(i * 3)).collect()),
                ColumnValues::Bytes(
                    ids.iter()
                        .map(|i| Some(format!("s{}", i % 13).into_bytes()))
                        .collect(),
                ),
            ]
        })
        .collect();
    let props = WriterProperties::builder()
        .set_statistics_enabled(if index {
            EnabledStatistics::Page
        } else {
            EnabledStatistics::Chunk
        })
        .set_offset_index_disabled(!index)
        .set_data_page_row_count_limit(64)
        .set_write_batch_size(64)
        .set_column_dictionary_enabled("id".into(), false)
        .build();
    write_columns(
        "message m { REQUIRED INT64 id; OPTIONAL INT64 v; REQUIRED BINARY s (UTF8); }",
        props,
        &groups,
    )
    .unwrap()
}
