//! Files whose metadata lies where the format lets a writer lie, each read
//! on every path (the full read; filtered reads sequential, parallel,
//! streaming, borrowed and remote on `InMemory`): the rows are right, or
//! the read is an `Err` naming the column, the row group and what is
//! inconsistent. Never other rows. The rules are in `docs/filters.md`.

use std::sync::Arc;

use bytes::Bytes;
use object_store::memory::InMemory;
use object_store::path::Path;
use object_store::{ObjectStore, ObjectStoreExt};
use parquet::file::metadata::{ParquetMetaData, RowGroupMetaData};
use parquet::file::page_index::offset_index::PageLocation;
use parquet::file::properties::{EnabledStatistics, WriterProperties};
use parquet::file::statistics::Statistics;
use parquet_rows::remote::RemoteFile;
use parquet_rows::{FilterOf, ParquetFile, ParquetRow, Result};
use parquet_rows_suite::footer_edit::{
    offset_index, page_locations, patch, rewrite_footer, varint,
};
use parquet_rows_suite::{write_columns, ColumnValues};

const GROUP_ROWS: usize = 1000;
const PAGE_ROWS: usize = 100;

#[derive(ParquetRow, Debug, Clone, PartialEq)]
struct Row {
    id: i64,
    v: i64,
    s: String,
}

/// Two row groups of `id` (the row number), `v = 10 * id` and `s`, a
/// string of its row group (`g0-7`): pages of 100 rows, page statistics and
/// indexes, `s` dictionary-encoded.
fn file(stats: EnabledStatistics) -> Bytes {
    let groups: Vec<Vec<ColumnValues>> = (0..2)
        .map(|g| {
            let ids: Vec<i64> = (0..GROUP_ROWS)
                .map(|r| (g * GROUP_ROWS + r) as i64)
                .collect();
            vec![
                ColumnValues::Int64(ids.iter().map(|&i| Some(i)).collect()),
                ColumnValues::Int64(ids.iter().map(|&i| Some(i * 10)).collect()),
                ColumnValues::Bytes(
                    ids.iter()
                        .map(|i| Some(format!("g{g}-{}", i % 10).into_bytes()))
                        .collect(),
                ),
            ]
        })
        .collect();
    let props = WriterProperties::builder()
        .set_statistics_enabled(stats)
        .set_data_page_row_count_limit(PAGE_ROWS)
        .set_write_batch_size(PAGE_ROWS)
        .set_column_dictionary_enabled("id".into(), false)
        .set_column_dictionary_enabled("v".into(), false)
        .build();
    write_columns(
        "message m { REQUIRED INT64 id; REQUIRED INT64 v; REQUIRED BINARY s (UTF8); }",
        props,
        &groups,
    )
    .unwrap()
}

fn expected(ids: std::ops::Range<i64>) -> Vec<Row> {
    ids.map(|i| Row {
        id: i,
        v: i * 10,
        s: format!("g{}-{}", i / GROUP_ROWS as i64, i % 10),
    })
    .collect()
}

/// Column `column` of row group `group` of `metadata`, edited by `edit`.
fn edit_chunk(
    metadata: ParquetMetaData,
    group: usize,
    column: usize,
    edit: impl FnOnce(
        parquet::file::metadata::ColumnChunkMetaDataBuilder,
    ) -> parquet::file::metadata::ColumnChunkMetaDataBuilder,
) -> ParquetMetaData {
    let mut groups: Vec<RowGroupMetaData> = metadata.row_groups().to_vec();
    let mut columns = groups[group].columns().to_vec();
    columns[column] = edit(columns[column].clone().into_builder())
        .build()
        .unwrap();
    groups[group] = groups[group]
        .clone()
        .into_builder()
        .set_column_metadata(columns)
        .build()
        .unwrap();
    metadata.into_builder().set_row_groups(groups).build()
}

/// Every filtered path's result for `filter`, named.
fn filtered(bytes: &Bytes, filter: &FilterOf<Row>) -> Vec<(&'static str, Result<Vec<Row>>)> {
    let open = || ParquetFile::from_bytes(bytes.clone());
    let store: Arc<dyn ObjectStore> = Arc::new(InMemory::new());
    let location = Path::from("lie.parquet");
    tokio::runtime::Builder::new_current_thread()
        .build()
        .unwrap()
        .block_on(store.put(&location, bytes.clone().into()))
        .unwrap();
    vec![
        (
            "read_where",
            open().and_then(|f| f.rows().filter(filter.clone()).collect()),
        ),
        (
            "stream_where",
            open().and_then(|f| f.rows::<Row>().filter(filter.clone()).stream()?.collect()),
        ),
        (
            "par_read_where",
            open().and_then(|f| f.rows().filter(filter.clone()).threads(0).collect()),
        ),
        (
            "load_where",
            open().and_then(|f| f.rows::<Row>().filter(filter.clone()).load()?.rows()),
        ),
        (
            "remote read_where",
            RemoteFile::open_blocking(store, location)
                .and_then(|f| f.rows().filter(filter.clone()).collect_blocking()),
        ),
    ]
}

/// Asserts every filtered path returns `want`.
fn all_return(bytes: &Bytes, filter: &FilterOf<Row>, want: &[Row]) {
    for (path, got) in filtered(bytes, filter) {
        let got = got.unwrap_or_else(|e| panic!("{path}: {e}"));
        assert_eq!(got, want, "{path}");
    }
}

/// Asserts every filtered path fails, with a message holding each of `says`.
fn all_fail(bytes: &Bytes, filter: &FilterOf<Row>, says: &[&str]) {
    for (path, got) in filtered(bytes, filter) {
        let e = got.expect_err(path).to_string();
        for s in says {
            // Remote reads name row groups by their index in the file too.
            assert!(e.contains(s), "{path}: {e:?} does not say {s:?}");
        }
    }
}

/// The OffsetIndex of column `column` of row group `group`, replaced by
/// `lie` of its page locations.
fn lying_offset_index(
    bytes: &Bytes,
    group: usize,
    column: usize,
    lie: impl FnOnce(Vec<PageLocation>) -> Vec<PageLocation>,
) -> Bytes {
    let metadata = parquet::file::metadata::ParquetMetaDataReader::new()
        .parse_and_finish(bytes)
        .unwrap();
    let chunk = metadata.row_group(group).column(column);
    let locations = page_locations(
        bytes,
        chunk.offset_index_offset().unwrap(),
        chunk.offset_index_length().unwrap(),
    );
    assert_eq!(locations.len(), GROUP_ROWS / PAGE_ROWS);
    let index = offset_index(&lie(locations));
    rewrite_footer(bytes, &index, |metadata, at| {
        edit_chunk(metadata, group, column, |c| {
            c.set_offset_index_offset(Some(at as i64))
                .set_offset_index_length(Some(index.len() as i32))
        })
    })
}

#[test]
fn an_offset_index_that_leaves_a_page_out_is_not_used() {
    // Column `v` of row group 1: page 3 left out, the pages after it given
    // its rows onwards (from row 0, increasing, inside the chunk). `id`'s
    // index is honest and narrows a query to rows 550..560 of row group 1.
    let bytes = lying_offset_index(&file(EnabledStatistics::Page), 1, 1, |mut l| {
        let rows: Vec<i64> = l.iter().map(|p| p.first_row_index).collect();
        l.remove(3);
        for (k, page) in l.iter_mut().enumerate().skip(3) {
            page.first_row_index = rows[k];
        }
        l
    });
    let full: Vec<Row> = ParquetFile::from_bytes(bytes.clone())
        .unwrap()
        .rows()
        .collect()
        .unwrap();
    assert_eq!(full, expected(0..2000));
    // The index is not contiguous (page 2 does not end where "page 3"
    // starts): ignored, the whole chunk read, the right rows.
    all_return(
        &bytes,
        &Row::filter().id().in_range(1550..1560),
        &expected(1550..1560),
    );
    all_return(&bytes, &Row::filter().id().ge(1995), &expected(1995..2000));
}

#[test]
fn an_offset_index_whose_pages_hold_other_rows_is_an_error() {
    // Column `v` of row group 1: every page where it is, but page 4 said
    // to start at row 350 (page 3 then holds 50 rows, page 4 150): `id`'s
    // index narrows rows 360..370 to its page 3, rows 300..400, which in
    // `v`'s index are pages 3 and 4: page 4's bytes hold rows 400..500.
    let bytes = lying_offset_index(&file(EnabledStatistics::Page), 1, 1, |mut l| {
        l[4].first_row_index = 350;
        l
    });
    let full: Vec<Row> = ParquetFile::from_bytes(bytes.clone())
        .unwrap()
        .rows()
        .collect()
        .unwrap();
    assert_eq!(full, expected(0..2000));
    all_fail(
        &bytes,
        &Row::filter().id().in_range(1360..1370),
        &[
            "column `v`",
            "row group 1",
            "offset index gives page 3 rows 300..350",
            "100 values",
        ],
    );
    // Rows 450..460: `v`'s index sends them to page 4, whose bytes hold
    // rows 400..500; read as rows 350..500, they would be other rows.
    all_fail(
        &bytes,
        &Row::filter().id().in_range(1450..1460),
        &[
            "column `v`",
            "row group 1",
            "offset index gives page 4 rows 350..500",
        ],
    );
    // Pages whose rows agree with the index are read as before.
    all_return(
        &bytes,
        &Row::filter().id().in_range(1250..1260),
        &expected(1250..1260),
    );
}

#[test]
fn a_dictionary_offset_into_another_row_group_is_an_error() {
    let bytes = file(EnabledStatistics::Page);
    let metadata = parquet::file::metadata::ParquetMetaDataReader::new()
        .parse_and_finish(&bytes)
        .unwrap();
    let first = metadata.row_group(0).column(2).dictionary_page_offset();
    assert!(first.is_some());
    let bytes = rewrite_footer(&bytes, &[], |metadata, _| {
        edit_chunk(metadata, 1, 2, |c| c.set_dictionary_page_offset(first))
    });
    let says = ["column `s`", "row group 1", "outside the column chunk"];
    let e = ParquetFile::from_bytes(bytes.clone())
        .unwrap()
        .rows::<Row>()
        .collect()
        .unwrap_err()
        .to_string();
    assert!(says.iter().all(|s| e.contains(s)), "{e}");
    all_fail(&bytes, &Row::filter().id().ge(1500), &says);
    // Row group 0 alone is read.
    all_return(&bytes, &Row::filter().id().lt(5), &expected(0..5));
}

#[test]
fn statistics_with_min_above_max_are_ignored() {
    // Row group 0's `id` statistics swapped: min 999, max 0. Trusted, they
    // would prove that no row of it equals 500.
    let bytes = rewrite_footer(&file(EnabledStatistics::Chunk), &[], |metadata, _| {
        edit_chunk(metadata, 0, 0, |c| {
            c.set_statistics(Statistics::int64(Some(999), Some(0), None, Some(0), false))
        })
    });
    let full: Vec<Row> = ParquetFile::from_bytes(bytes.clone())
        .unwrap()
        .rows()
        .collect()
        .unwrap();
    assert_eq!(full, expected(0..2000));
    all_return(&bytes, &Row::filter().id().eq(500), &expected(500..501));
    all_return(
        &bytes,
        &Row::filter().id().in_range(10..20),
        &expected(10..20),
    );
    // Row group 1's statistics are sound and still prune.
    let pages = ParquetFile::from_bytes(bytes.clone())
        .unwrap()
        .rows::<Row>()
        .filter(Row::filter().id().eq(500))
        .load()
        .unwrap();
    assert_eq!(pages.num_rows(), GROUP_ROWS);
}

#[test]
fn a_negative_null_count_is_ignored_and_the_file_read() {
    // Row group 0's `id` null count: a distinctive count, then its bytes
    // in the footer patched to the same-length encoding of its negative.
    const COUNT: i64 = 0x12_3456;
    let honest = rewrite_footer(&file(EnabledStatistics::Chunk), &[], |metadata, _| {
        edit_chunk(metadata, 0, 0, |c| {
            c.set_statistics(Statistics::int64(
                Some(0),
                Some(999),
                None,
                Some(COUNT as u64),
                false,
            ))
        })
    });
    let zigzag = |v: i64| ((v << 1) ^ (v >> 63)) as u64;
    let footer_start = honest.len()
        - 8
        - u32::from_le_bytes(
            honest[honest.len() - 8..honest.len() - 4]
                .try_into()
                .unwrap(),
        ) as usize;
    let bytes = patch(
        &honest,
        footer_start,
        &varint(zigzag(COUNT)),
        &varint(zigzag(-COUNT)),
    );
    // `parquet` itself refuses the footer.
    let refused = parquet::file::metadata::ParquetMetaDataReader::new().parse_and_finish(&bytes);
    assert!(refused
        .unwrap_err()
        .to_string()
        .contains("null count is negative"));
    let full: Vec<Row> = ParquetFile::from_bytes(bytes.clone())
        .unwrap()
        .rows()
        .collect()
        .unwrap();
    assert_eq!(full, expected(0..2000));
    all_return(&bytes, &Row::filter().id().eq(5), &expected(5..6));
    all_return(&bytes, &Row::filter().id().ge(1990), &expected(1990..2000));
    // The other columns' statistics are kept: row group 0 is pruned by `v`.
    let pages = ParquetFile::from_bytes(bytes.clone())
        .unwrap()
        .rows::<Row>()
        .filter(Row::filter().v().ge(19_900))
        .load()
        .unwrap();
    assert_eq!(pages.num_rows(), GROUP_ROWS);
}

/// parquet-cpp (Arrow 4.0.1, e.g. the h2oai benchmark files) wrote a null
/// count of 0 for dictionary-encoded columns that hold nulls: `is_null()`
/// and `not(..)` must still find the null rows.
#[test]
fn a_null_count_of_zero_does_not_prove_there_are_no_nulls() {
    #[derive(ParquetRow, Debug, Clone, PartialEq)]
    struct Opt {
        id: i64,
        s: Option<String>,
    }
    let groups: Vec<Vec<ColumnValues>> = (0..2)
        .map(|g| {
            let ids: Vec<i64> = (0..GROUP_ROWS as i64)
                .map(|r| g * GROUP_ROWS as i64 + r)
                .collect();
            vec![
                ColumnValues::Int64(ids.iter().map(|&i| Some(i)).collect()),
                ColumnValues::Bytes(
                    ids.iter()
                        .map(|i| (i % 7 != 3).then(|| format!("s{}", i % 5).into_bytes()))
                        .collect(),
                ),
            ]
        })
        .collect();
    let props = WriterProperties::builder()
        .set_statistics_enabled(EnabledStatistics::Page)
        .set_data_page_row_count_limit(PAGE_ROWS)
        .set_write_batch_size(PAGE_ROWS)
        .build();
    let honest = write_columns(
        "message m { REQUIRED INT64 id; OPTIONAL BINARY s (UTF8); }",
        props,
        &groups,
    )
    .unwrap();
    // Both row groups' `s` chunks say "0 nulls", as parquet-cpp did.
    let bytes = rewrite_footer(&honest, &[], |metadata, _| {
        let zero = |c: parquet::file::metadata::ColumnChunkMetaDataBuilder| {
            c.set_statistics(Statistics::byte_array(None, None, None, Some(0), false))
        };
        let metadata = edit_chunk(metadata, 0, 1, zero);
        edit_chunk(metadata, 1, 1, zero)
    });
    let full: Vec<Opt> = ParquetFile::from_bytes(bytes.clone())
        .unwrap()
        .rows()
        .collect()
        .unwrap();
    assert_eq!(full.len(), 2 * GROUP_ROWS);
    let by_hand = |keep: &dyn Fn(&Opt) -> bool| -> Vec<Opt> {
        full.iter().filter(|r| keep(r)).cloned().collect()
    };
    let nulls = by_hand(&|r| r.s.is_none());
    assert!(!nulls.is_empty());
    let file = ParquetFile::from_bytes(bytes.clone()).unwrap();
    let is_null: Vec<Opt> = file
        .rows()
        .filter(Opt::filter().s().is_null())
        .collect()
        .unwrap();
    assert_eq!(is_null, nulls);
    let streamed: Vec<Opt> = file
        .rows::<Opt>()
        .filter(Opt::filter().s().is_null())
        .stream()
        .unwrap()
        .collect::<Result<_>>()
        .unwrap();
    assert_eq!(streamed, nulls);
    let parallel: Vec<Opt> = file
        .rows()
        .filter(Opt::filter().s().is_null())
        .threads(2)
        .collect()
        .unwrap();
    assert_eq!(parallel, nulls);
    let not_null: Vec<Opt> = file
        .rows()
        .filter(Opt::filter().s().is_not_null())
        .collect()
        .unwrap();
    assert_eq!(not_null, by_hand(&|r| r.s.is_some()));
}
