//! Locations come from the plan: an error names the row group by its index
//! in the file, the page by its place in its column chunk, and the row by
//! its place in the row group, whatever the path read (sequential,
//! parallel, filtered, windowed, streaming, remote). One corrupt page and
//! one unexpected null, each read every way that reaches it, give the same
//! text.

use std::sync::Arc;

use bytes::Bytes;
use object_store::memory::InMemory;
use object_store::path::Path;
use object_store::{ObjectStore, ObjectStoreExt};
use parquet::basic::Compression;
use parquet::file::properties::{EnabledStatistics, WriterProperties};
use parquet_rows::remote::RemoteFile;
use parquet_rows::{FilterOf, OwnedRow, ParquetFile, ParquetRow, Query, RowFilter};
use parquet_rows_rules::page_header::read_page_header;
use parquet_rows_suite::footer_edit::page_locations;
use parquet_rows_suite::{write_columns, ColumnValues};

const GROUPS: usize = 3;
const GROUP_ROWS: usize = 1000;
const PAGE_ROWS: usize = 64;
/// The row group, the page (of 64 rows) and the row the faults are in.
const GROUP: usize = 1;
const PAGE: usize = 5;
const ROW: usize = 350; // in page 5: rows 320..384 of the row group

#[derive(ParquetRow, Debug, Clone, PartialEq)]
struct Nullable {
    id: i64,
    v: Option<i64>,
}

/// `id` read through a conversion that refuses row `ROW` of row group
/// `GROUP`.
#[derive(ParquetRow, Debug, Clone, PartialEq)]
struct Converted {
    #[parquet(try_from = "i64")]
    id: Checked,
    v: Option<i64>,
}

/// An id, refused at row `ROW` of row group `GROUP`.
#[derive(Debug, Clone, PartialEq)]
struct Checked(i64);

impl TryFrom<i64> for Checked {
    type Error = String;

    fn try_from(id: i64) -> Result<Self, String> {
        if id == (GROUP * GROUP_ROWS + ROW) as i64 {
            return Err(format!("id {id} refused"));
        }
        Ok(Checked(id))
    }
}

/// `v` read into a plain field: its null is an error.
#[derive(ParquetRow, Debug, Clone, PartialEq)]
struct Plain {
    id: i64,
    v: i64,
}

/// `id` the row number in the file, `v` its double, null only at row
/// `ROW` of row group `GROUP`; SNAPPY, no dictionary, pages of 64 rows,
/// page statistics and offset indexes.
fn file() -> Bytes {
    let groups: Vec<Vec<ColumnValues>> = (0..GROUPS)
        .map(|g| {
            let ids: Vec<i64> = (0..GROUP_ROWS)
                .map(|r| (g * GROUP_ROWS + r) as i64)
                .collect();
            let null = (GROUP * GROUP_ROWS + ROW) as i64;
            vec![
                ColumnValues::Int64(ids.iter().map(|&i| Some(i)).collect()),
                ColumnValues::Int64(ids.iter().map(|&i| (i != null).then_some(2 * i)).collect()),
            ]
        })
        .collect();
    let props = WriterProperties::builder()
        .set_compression(Compression::SNAPPY)
        .set_statistics_enabled(EnabledStatistics::Page)
        .set_dictionary_enabled(false)
        .set_data_page_row_count_limit(PAGE_ROWS)
        .set_write_batch_size(PAGE_ROWS)
        .build();
    write_columns(
        "message m { REQUIRED INT64 id; OPTIONAL INT64 v; }",
        props,
        &groups,
    )
    .unwrap()
}

/// `bytes` with the compressed values of page `PAGE` of column `id` in row
/// group `GROUP` overwritten: its SNAPPY preamble no longer matches the
/// header's size, so decompressing it fails.
fn corrupt(bytes: &Bytes) -> Bytes {
    let meta = parquet_rows_suite::file_metadata(bytes);
    let chunk = meta.row_group(GROUP).column(0);
    let pages = page_locations(
        bytes,
        chunk.offset_index_offset().unwrap(),
        chunk.offset_index_length().unwrap(),
    );
    let at = usize::try_from(pages[PAGE].offset).unwrap();
    let (header, len) = read_page_header(&bytes[at..]).unwrap();
    let body = at + len..at + len + usize::try_from(header.compressed_size).unwrap();
    let mut out = bytes.to_vec();
    out[body].fill(0xff);
    Bytes::from(out)
}

/// A query that reads row `ROW` of row group `GROUP`: by `id`, or by
/// position.
fn around<F: RowFilter>(by_id: impl FnOnce(i64, i64) -> F, positional: F) -> [Query<F>; 2] {
    let row = (GROUP * GROUP_ROWS + ROW) as i64;
    [
        Query::from_filter(by_id(row - 100, row + 100)),
        positional.offset(GROUP * GROUP_ROWS + 300).limit(200),
    ]
}

/// The error of every path reading `T` from `bytes` (sequential,
/// parallel, filtered and windowed, streaming, remote), named.
#[allow(clippy::too_many_lines)] // one list of every path
fn errors<T>(name: &str, bytes: &Bytes, queries: &[Query<FilterOf<T>>]) -> Vec<(String, String)>
where
    T: OwnedRow + Send + std::fmt::Debug,
{
    let file = || ParquetFile::from_bytes(bytes.clone()).unwrap();
    let memory = InMemory::new();
    let location = Path::from("locations.parquet");
    crate::remote::runtime()
        .block_on(memory.put(&location, bytes.clone().into()))
        .unwrap();
    let store: Arc<dyn ObjectStore> = Arc::new(memory);
    let remote = RemoteFile::open_blocking(store, location).unwrap();
    let disk = parquet_rows_suite::workspace_root().join("target");
    std::fs::create_dir_all(&disk).unwrap();
    let disk = disk.join(format!("locations-{name}-{}.parquet", std::process::id()));
    std::fs::write(&disk, bytes).unwrap();
    let on_disk = || ParquetFile::open(&disk).unwrap();
    let mut out: Vec<(String, parquet_rows::Result<Vec<T>>)> = vec![
        ("read".into(), file().rows().collect()),
        ("par_read".into(), file().rows().threads(0).collect()),
        (
            "path par_read".into(),
            on_disk().rows().threads(0).collect(),
        ),
        ("stream".into(), file().rows().stream().unwrap().collect()),
        (
            "threads(2) stream".into(),
            file().rows().threads(2).stream().unwrap().collect(),
        ),
        (
            "batches".into(),
            file()
                .rows::<T>()
                .batches()
                .unwrap()
                .collect::<parquet_rows::Result<Vec<Vec<T>>>>()
                .map(|groups| groups.into_iter().flatten().collect()),
        ),
        (
            "threads(2) collect".into(),
            file().rows().threads(2).collect(),
        ),
        (
            "load rows".into(),
            file().load::<T>().and_then(|p| p.rows()),
        ),
        (
            "load par_rows".into(),
            file()
                .rows::<T>()
                .threads(0)
                .load()
                .and_then(|p| p.par_rows()),
        ),
        ("remote read".into(), remote.rows().collect_blocking()),
    ];
    for (i, q) in queries.iter().enumerate() {
        let q = || q.clone();
        out.extend([
            (
                format!("read_where {i}"),
                file().rows().filter(q()).collect(),
            ),
            (
                format!("par_read_where {i}"),
                file().rows().filter(q()).threads(0).collect(),
            ),
            (
                format!("path par_read_where {i}"),
                on_disk().rows().filter(q()).threads(0).collect(),
            ),
            (
                format!("filter threads(2) collect {i}"),
                file().rows().filter(q()).threads(2).collect(),
            ),
            (
                format!("filter batches {i}"),
                file()
                    .rows::<T>()
                    .filter(q())
                    .batches()
                    .unwrap()
                    .collect::<parquet_rows::Result<Vec<Vec<T>>>>()
                    .map(|groups| groups.into_iter().flatten().collect()),
            ),
            (
                format!("stream_where {i}"),
                file().rows::<T>().filter(q()).stream().unwrap().collect(),
            ),
            (
                format!("load_where rows {i}"),
                file().rows::<T>().filter(q()).load().and_then(|p| p.rows()),
            ),
            (
                format!("load_where par_rows {i}"),
                file()
                    .rows::<T>()
                    .filter(q())
                    .load()
                    .and_then(|p| p.par_rows()),
            ),
            (
                format!("remote read_where {i}"),
                remote.rows().filter(q()).collect_blocking(),
            ),
        ]);
    }
    // The builder's own window around the row.
    let (offset, limit) = (GROUP * GROUP_ROWS + 300, 200);
    out.extend([
        (
            "offset/limit collect".into(),
            file().rows().offset(offset).limit(limit).collect(),
        ),
        (
            "offset/limit threads(2) collect".into(),
            on_disk()
                .rows()
                .offset(offset)
                .limit(limit)
                .threads(2)
                .collect(),
        ),
        (
            "offset/limit stream".into(),
            file()
                .rows::<T>()
                .offset(offset)
                .limit(limit)
                .stream()
                .unwrap()
                .collect(),
        ),
        (
            "row_groups offset collect".into(),
            file().rows().row_groups([GROUP]).offset(300).collect(),
        ),
    ]);
    std::fs::remove_file(&disk).unwrap();
    out.into_iter()
        .map(|(path, got)| {
            let e = got.expect_err(&path);
            (path, e.to_string())
        })
        .collect()
}

/// Every path's error is `want`.
fn all_say(errors: Vec<(String, String)>, want: &str) {
    for (path, e) in errors {
        assert_eq!(e, want, "{path}");
    }
}

#[test]
fn a_corrupt_page_is_named_alike_on_every_path() {
    let bytes = corrupt(&file());
    let full = ParquetFile::from_bytes(bytes.clone())
        .unwrap()
        .rows::<Nullable>()
        .collect()
        .unwrap_err()
        .to_string();
    assert!(
        full.contains(&format!("column `id`, row group {GROUP}, page {PAGE}")),
        "{full}"
    );
    let queries = around(
        |lo, hi| Nullable::filter().id().between(lo, hi),
        Nullable::filter(),
    );
    all_say(errors::<Nullable>("page", &bytes, &queries), &full);
}

#[test]
fn a_null_in_a_plain_field_is_named_alike_on_every_path() {
    let bytes = file();
    let full = ParquetFile::from_bytes(bytes.clone())
        .unwrap()
        .rows::<Plain>()
        .collect()
        .unwrap_err()
        .to_string();
    assert!(
        full.contains(&format!("column `v`, row group {GROUP}, page {PAGE}"))
            && full.contains(&format!("null at row {ROW} of the row group")),
        "{full}"
    );
    let queries = around(
        |lo, hi| Plain::filter().id().between(lo, hi),
        Plain::filter(),
    );
    all_say(errors::<Plain>("null", &bytes, &queries), &full);
}

#[test]
fn a_refused_conversion_is_named_alike_on_every_path() {
    let bytes = file();
    let full = ParquetFile::from_bytes(bytes.clone())
        .unwrap()
        .rows::<Converted>()
        .collect()
        .unwrap_err()
        .to_string();
    assert!(
        full.contains(&format!("column `id`, row group {GROUP}"))
            && full.contains(&format!("row {ROW} of the row group: id 1350 refused")),
        "{full}"
    );
    // By `id` (compared before the conversion), and by position.
    let queries = around(
        |lo, hi| Converted::filter().id().between(lo, hi),
        Converted::filter(),
    );
    all_say(errors::<Converted>("convert", &bytes, &queries), &full);
}
