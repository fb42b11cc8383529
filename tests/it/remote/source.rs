//! What a remote file checks and how it fetches: a rewritten object is an
//! error, large ranges are cut into bounded requests, the bytes read at open
//! serve the page index, and the blocking twins read what the async methods
//! read.

use std::sync::Arc;

use object_store::memory::InMemory;
use object_store::path::Path;
use object_store::ObjectStore;
use parquet_rows::remote::{FetchOptions, RemoteFile};
use parquet_rows::{ParquetFile, ParquetRow};

use super::counting::{Counting, Counts};
use super::{put, wide_file, Adjacent, Spread, GROUPS, ROWS};

/// Every column of the wide file.
#[derive(ParquetRow, Debug, PartialEq)]
struct All {
    c0: i64,
    c1: i64,
    c2: i64,
    c3: i64,
    c4: i64,
    c5: i64,
    c6: i64,
    c7: i64,
    c8: i64,
    c9: i64,
    c10: i64,
    c11: i64,
    c12: i64,
    c13: i64,
    c14: i64,
    c15: i64,
    c16: i64,
    c17: i64,
    c18: i64,
    c19: i64,
}

fn counted(bytes: bytes::Bytes) -> (Arc<dyn ObjectStore>, Arc<Counts>) {
    let memory = InMemory::new();
    put(&memory, &Path::from("f.parquet"), bytes);
    let counts = Arc::new(Counts::default());
    let store: Arc<dyn ObjectStore> = Arc::new(Counting {
        inner: memory,
        counts: Arc::clone(&counts),
    });
    (store, counts)
}

#[test]
fn an_object_rewritten_after_the_open_is_an_error() {
    let store: Arc<dyn ObjectStore> = Arc::new(InMemory::new());
    let location = Path::from("ticks.parquet");
    put(&*store, &location, wide_file());
    let remote = RemoteFile::open_blocking(Arc::clone(&store), location.clone()).unwrap();
    assert!(remote.e_tag().is_some(), "InMemory gives ETags");
    // Another file at the same location: 1 row group of other values.
    let other = parquet_rows_suite::write_columns(
        "message m { REQUIRED INT64 c4; REQUIRED INT64 c5; REQUIRED INT64 c6; REQUIRED INT64 c7; }",
        parquet::file::properties::WriterProperties::builder().build(),
        &[(0..4)
            .map(|_| parquet_rows_suite::ColumnValues::Int64((0..50_000).map(Some).collect()))
            .collect()],
    )
    .unwrap();
    put(&*store, &location, other);
    let err = remote
        .fetch_row_groups_blocking::<Adjacent>(&[0])
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("the object `ticks.parquet` changed since it was opened")
            && err.contains("ETag"),
        "{err}"
    );
    for err in [
        remote.read_blocking::<Adjacent>().map(|_| ()).unwrap_err(),
        remote
            .read_where_blocking::<Adjacent>(Adjacent::filter().c4().ge(0))
            .map(|_| ())
            .unwrap_err(),
    ] {
        assert!(
            err.to_string().contains("changed since it was opened"),
            "{err}"
        );
    }
    // Opened again, the file is the new one.
    let again = RemoteFile::open_blocking(store, location).unwrap();
    assert_eq!(again.read_blocking::<Adjacent>().unwrap().len(), 50_000);
}

#[test]
fn all_twenty_columns_come_in_requests_of_at_most_the_request_size() {
    let bytes = wide_file();
    let (store, counts) = counted(bytes.clone());
    let max = 64 << 10;
    let fetch = FetchOptions::default()
        .max_request_bytes(max)
        .concurrency(4);
    let remote = RemoteFile::open_with_blocking(store, Path::from("f.parquet"), fetch).unwrap();
    counts.reset();
    let rows: Vec<All> = remote.read_blocking().unwrap();
    let local: Vec<All> = parquet_rows::from_bytes(bytes.clone()).unwrap();
    assert_eq!(rows.len(), ROWS * GROUPS);
    assert_eq!(rows, local);
    let ranges = counts.ranges();
    assert!(ranges.iter().all(|r| r.end - r.start <= max), "{ranges:?}");
    // The column chunks are contiguous: one range, cut into pieces.
    let fetched: u64 = ranges.iter().map(|r| r.end - r.start).sum();
    assert_eq!(ranges.len() as u64, fetched.div_ceil(max));
    assert!(counts.max_in_flight() <= 4);
    // By default (8 MiB) the same read is one request.
    let (store, counts) = counted(bytes);
    let remote = RemoteFile::open_blocking(store, Path::from("f.parquet")).unwrap();
    counts.reset();
    assert_eq!(remote.read_blocking::<All>().unwrap(), local);
    assert_eq!(counts.gets(), 1);
}

#[test]
fn blocking_twins_read_what_the_async_methods_read() {
    let bytes = wide_file();
    let (store, _) = counted(bytes.clone());
    let remote = RemoteFile::open_blocking(store, Path::from("f.parquet")).unwrap();
    let file = remote.fetch_row_groups_blocking::<Spread>(&[6, 1]).unwrap();
    let rows: Vec<Spread> = file.rows().collect().unwrap();
    assert_eq!(rows.len(), 2 * ROWS);
    assert_eq!(rows[0].c1, (6 * ROWS * 100 + 1) as i64);
    assert_eq!(rows[ROWS].c1, (ROWS * 100 + 1) as i64);

    let groups: Vec<Vec<Spread>> = remote
        .stream_blocking::<Spread>()
        .unwrap()
        .collect::<parquet_rows::Result<_>>()
        .unwrap();
    assert_eq!(groups.len(), GROUPS);
    let local: Vec<Spread> = ParquetFile::from_bytes(bytes)
        .unwrap()
        .rows()
        .collect()
        .unwrap();
    assert_eq!(groups.into_iter().flatten().collect::<Vec<_>>(), local);

    // Rows 100..2,100: the end of row group 0 and the start of row group 1.
    let query = Spread::filter().c1().between(10_001, 210_001);
    let groups: Vec<Vec<Spread>> = remote
        .stream_where_blocking::<Spread>(query)
        .unwrap()
        .collect::<parquet_rows::Result<_>>()
        .unwrap();
    assert_eq!(
        groups.iter().map(Vec::len).collect::<Vec<_>>(),
        [ROWS - 100, 101]
    );
}
