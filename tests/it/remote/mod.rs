//! Files on an object store (`parquet_rows::remote`): `InMemory`,
//! `LocalFileSystem`, and `ThrottledStore` for latency; requests and bytes
//! counted by a wrapper store.

pub(crate) mod counting;
mod dataset;
mod filtered;
mod round_trips;
mod send;
mod source;
mod upload;

use std::sync::Arc;
use std::time::{Duration, Instant};

use object_store::memory::InMemory;
use object_store::path::Path;
use object_store::throttle::{ThrottleConfig, ThrottledStore};
use object_store::{ObjectStore, ObjectStoreExt};
use parquet::file::properties::WriterProperties;
use parquet_rows::remote::{FetchOptions, RemoteFile};
use parquet_rows::{ParquetFile, ParquetRow};
use parquet_rows_suite::{write_columns, ColumnValues};

use counting::{Counting, Counts};

pub(crate) fn runtime() -> tokio::runtime::Runtime {
    // Timers for `ThrottledStore`.
    tokio::runtime::Builder::new_current_thread()
        .enable_time()
        .build()
        .unwrap()
}

pub(crate) const ROWS: usize = 2000; // per row group
pub(crate) const GROUPS: usize = 8;

/// A file of 20 INT64 columns `c0`..`c19` and 8 row groups; column `c` of
/// row `r` of row group `g` holds `(g * ROWS + r) * 100 + c`, so chunks are
/// incompressible enough to have distinct sizes.
pub(crate) fn wide_file() -> bytes::Bytes {
    let schema = format!(
        "message wide {{ {} }}",
        (0..20)
            .map(|c| format!("REQUIRED INT64 c{c};"))
            .collect::<Vec<_>>()
            .concat()
    );
    let groups: Vec<Vec<ColumnValues>> = (0..GROUPS)
        .map(|g| {
            (0..20)
                .map(|c| {
                    ColumnValues::Int64(
                        (0..ROWS)
                            .map(|r| Some(((g * ROWS + r) * 100 + c) as i64))
                            .collect(),
                    )
                })
                .collect()
        })
        .collect();
    let props = WriterProperties::builder()
        .set_dictionary_enabled(false)
        .build();
    write_columns(&schema, props, &groups).unwrap()
}

/// Four of the twenty columns, spread so that no two are neighbours.
#[derive(ParquetRow, Debug, PartialEq)]
struct Spread {
    c1: i64,
    c6: i64,
    c11: i64,
    c16: i64,
}

/// Four neighbouring columns.
#[derive(ParquetRow, Debug, PartialEq)]
struct Adjacent {
    c4: i64,
    c5: i64,
    c6: i64,
    c7: i64,
}

fn bound_bytes(file: &bytes::Bytes, columns: &[usize]) -> u64 {
    let meta = parquet_rows_suite::file_metadata(file);
    meta.row_groups()
        .iter()
        .flat_map(|rg| {
            columns
                .iter()
                .map(move |&c| rg.column(c).compressed_size() as u64)
        })
        .sum()
}

fn put(store: &dyn ObjectStore, location: &Path, bytes: bytes::Bytes) {
    runtime()
        .block_on(store.put(location, bytes.into()))
        .unwrap();
}

#[test]
fn in_memory_reads_what_a_local_read_reads() {
    let bytes = wide_file();
    let store: Arc<dyn ObjectStore> = Arc::new(InMemory::new());
    let location = Path::from("a/wide.parquet");
    put(&*store, &location, bytes.clone());

    let remote = RemoteFile::open_blocking(store, location).unwrap();
    assert_eq!(remote.len(), bytes.len() as u64);
    let rows: Vec<Spread> = remote.rows().collect_blocking().unwrap();
    let local: Vec<Spread> = parquet_rows::from_bytes(bytes).unwrap();
    assert_eq!(rows.len(), ROWS * GROUPS);
    assert_eq!(rows, local);
    assert_eq!(
        rows[ROWS + 3],
        Spread {
            c1: 200_301,
            c6: 200_306,
            c11: 200_311,
            c16: 200_316
        }
    );
}

/// With 50 ms per request, 4 of 20 columns of an 8-row-group file cost
/// few requests and at most 1.1x the bytes of the bound column chunks (the
/// round trips of every ending: `round_trips.rs`).
#[test]
fn four_of_twenty_columns_fetch_their_bytes_in_few_requests() {
    let bytes = wide_file();
    let memory = InMemory::new();
    put(&memory, &Path::from("wide.parquet"), bytes.clone());
    let config = ThrottleConfig {
        wait_get_per_call: Duration::from_millis(50),
        ..ThrottleConfig::default()
    };
    let counts = Arc::new(Counts::default());
    let store: Arc<dyn ObjectStore> = Arc::new(Counting {
        inner: ThrottledStore::new(memory, config),
        counts: Arc::clone(&counts),
    });
    let fetch = FetchOptions::default(); // 16 requests at once
    runtime().block_on(async {
        for (columns, spread) in [(&[1, 6, 11, 16][..], true), (&[4, 5, 6, 7][..], false)] {
            counts.reset();
            let started = Instant::now();
            let remote =
                RemoteFile::open_with(Arc::clone(&store), Path::from("wide.parquet"), fetch)
                    .await
                    .unwrap();
            assert_eq!(
                (counts.gets(), remote.num_row_groups()),
                (1, GROUPS),
                "one request opens"
            );
            let footer_bytes = counts.bytes();
            let file = if spread {
                remote.fetch::<Spread>().await.unwrap()
            } else {
                remote.fetch::<Adjacent>().await.unwrap()
            };
            let fetching = started.elapsed();
            let rows = if spread {
                file.rows::<Spread>().collect().unwrap().len()
            } else {
                file.rows::<Adjacent>().collect().unwrap().len()
            };
            let decoding = started.elapsed().saturating_sub(fetching);
            assert_eq!(rows, ROWS * GROUPS);
            // The same struct decoded from the whole file in memory: the
            // fetched file is decoded by the same code, for comparison.
            let local = ParquetFile::from_bytes(bytes.clone()).unwrap();
            let local_started = Instant::now();
            let local_rows = if spread {
                local.rows::<Spread>().collect().unwrap().len()
            } else {
                local.rows::<Adjacent>().collect().unwrap().len()
            };
            let local_decoding = local_started.elapsed();
            assert_eq!(local_rows, rows);

            let chunk_requests = counts.gets() - 1;
            let fetched = counts.bytes() - footer_bytes;
            let bound = bound_bytes(&bytes, columns);
            // Spread columns cannot be merged within 10%: one range per
            // chunk, 32, in two waves of 16. Neighbours are one range per
            // row group: 8 in one wave.
            let expected_requests = if spread { 32 } else { 8 };
            assert_eq!(chunk_requests, expected_requests, "columns {columns:?}");
            let waves = chunk_requests.div_ceil(fetch.concurrency_limit());
            assert!(
                waves < 3,
                "1 footer request and {waves} waves of chunk requests"
            );
            assert!(counts.max_in_flight() <= fetch.concurrency_limit());
            assert!(
                fetched * 10 <= bound * 11,
                "fetched {fetched} bytes for {bound} bound"
            );
            // The wall clock of the requests: under 4 round trips of
            // latency (decoding, which other tests' load slows, apart).
            assert!(
                fetching < Duration::from_millis(200),
                "columns {columns:?}: {fetching:?} for {} requests",
                counts.gets()
            );
            eprintln!(
                "columns {columns:?}: {} requests (1 footer of {footer_bytes} bytes), \
                 {fetched} bytes for {bound} bound ({}/1000 x), fetched in {fetching:?}, \
                 decoded in {decoding:?} (from_bytes: {local_decoding:?})",
                counts.gets(),
                fetched * 1000 / bound
            );
        }
    });
}

#[test]
fn a_long_footer_takes_a_second_request_and_only_then() {
    let bytes = wide_file();
    let footer_len = u64::from(u32::from_le_bytes(
        bytes[bytes.len() - 8..bytes.len() - 4].try_into().unwrap(),
    ));
    let memory = InMemory::new();
    put(&memory, &Path::from("f.parquet"), bytes.clone());
    let counts = Arc::new(Counts::default());
    let store: Arc<dyn ObjectStore> = Arc::new(Counting {
        inner: memory,
        counts: Arc::clone(&counts),
    });
    runtime().block_on(async {
        for (guess, gets) in [(footer_len + 8, 1), (footer_len + 7, 2), (64, 2)] {
            counts.reset();
            let fetch = FetchOptions::default().footer_guess(guess);
            let remote = RemoteFile::open_with(Arc::clone(&store), Path::from("f.parquet"), fetch)
                .await
                .unwrap();
            assert_eq!(counts.gets(), gets, "a first request of {guess} bytes");
            assert_eq!(counts.bytes(), (footer_len + 8).max(guess));
            assert_eq!(remote.num_row_groups(), GROUPS);
        }
    });
}

#[test]
fn chosen_row_groups_fetch_only_their_chunks() {
    let bytes = wide_file();
    let memory = InMemory::new();
    put(&memory, &Path::from("f.parquet"), bytes.clone());
    let counts = Arc::new(Counts::default());
    let store: Arc<dyn ObjectStore> = Arc::new(Counting {
        inner: memory,
        counts: Arc::clone(&counts),
    });
    let remote = RemoteFile::open_blocking(store, Path::from("f.parquet")).unwrap();
    counts.reset();
    let file = runtime()
        .block_on(remote.fetch_row_groups::<Adjacent>(&[5, 2]))
        .unwrap();
    let meta = parquet_rows_suite::file_metadata(&bytes);
    let want: u64 = [5, 2]
        .iter()
        .flat_map(|&g| (4..8).map(move |c| (g, c)))
        .map(|(g, c)| meta.row_group(g).column(c).compressed_size() as u64)
        .sum();
    assert_eq!((counts.gets(), counts.bytes()), (2, want));
    // The file has the two row groups, in the order asked for.
    let rows: Vec<Adjacent> = file.rows().collect().unwrap();
    assert_eq!(rows.len(), 2 * ROWS);
    assert_eq!(rows[0].c4, (5 * ROWS * 100 + 4) as i64);
    assert_eq!(rows[ROWS].c4, (2 * ROWS * 100 + 4) as i64);
    // A struct reading other columns finds them not fetched: an error.
    let err = file.rows::<Spread>().collect().unwrap_err().to_string();
    assert!(err.contains("were not fetched"), "{err}");
    // A row group that does not exist is an error before any request.
    counts.reset();
    assert!(runtime()
        .block_on(remote.fetch_row_groups::<Adjacent>(&[8]))
        .is_err());
    assert_eq!(counts.gets(), 0);
}

#[test]
fn a_local_directory_is_a_store_too() {
    let dir = std::env::temp_dir().join(format!("parquet-rows-remote-{}", std::process::id()));
    std::fs::create_dir_all(dir.join("x")).unwrap();
    std::fs::write(dir.join("x/wide.parquet"), wide_file()).unwrap();
    let store: Arc<dyn ObjectStore> =
        Arc::new(object_store::local::LocalFileSystem::new_with_prefix(&dir).unwrap());
    let remote = RemoteFile::open_blocking(store, Path::from("x/wide.parquet")).unwrap();
    let rows: Vec<Adjacent> = remote.rows().collect_blocking().unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!(rows.len(), ROWS * GROUPS);
    assert_eq!(
        rows.last().unwrap().c7,
        ((GROUPS * ROWS - 1) * 100 + 7) as i64
    );
}

#[test]
fn a_corrupt_or_missing_object_is_an_error() {
    let store: Arc<dyn ObjectStore> = Arc::new(InMemory::new());
    let missing = RemoteFile::open_blocking(Arc::clone(&store), Path::from("none.parquet"));
    assert!(missing.unwrap_err().to_string().contains("i/o error"));
    put(
        &*store,
        &Path::from("junk.parquet"),
        bytes::Bytes::from_static(b"not a parquet file at all"),
    );
    assert!(RemoteFile::open_blocking(Arc::clone(&store), Path::from("junk.parquet")).is_err());
    // A footer whose schema lies is refused before `parquet` parses it, as
    // for a local file: the same check, the same error.
    let mut bytes = wide_file().to_vec();
    let n = bytes.len();
    let footer_len = u32::from_le_bytes(bytes[n - 8..n - 4].try_into().unwrap()) as usize;
    for b in &mut bytes[n - 8 - footer_len..n - 8 - footer_len / 2] {
        *b = 0xff;
    }
    let bytes = bytes::Bytes::from(bytes);
    put(&*store, &Path::from("lies.parquet"), bytes.clone());
    let remote = RemoteFile::open_blocking(store, Path::from("lies.parquet")).unwrap_err();
    let local = ParquetFile::from_bytes(bytes).unwrap_err();
    assert_eq!(remote.to_string(), local.to_string());
}

/// The sync sources beyond `File` and `Bytes` read what `from_bytes` reads.
#[test]
fn read_seek_and_chunk_reader_sources() {
    let bytes = wide_file();
    let want: Vec<Spread> = parquet_rows::from_bytes(bytes.clone()).unwrap();
    let cursor = std::io::Cursor::new(bytes.to_vec());
    assert_eq!(
        ParquetFile::from_reader(cursor)
            .unwrap()
            .rows::<Spread>()
            .collect()
            .unwrap(),
        want
    );
    let chunks = ParquetFile::from_chunk_reader(bytes.clone()).unwrap();
    assert_eq!(chunks.rows::<Spread>().collect().unwrap(), want);
    let par: Vec<Spread> = ParquetFile::from_reader(std::io::Cursor::new(bytes.to_vec()))
        .unwrap()
        .rows()
        .threads(2)
        .collect()
        .unwrap();
    assert_eq!(par, want);
    // A truncated reader is an error.
    let cut = std::io::Cursor::new(bytes[..bytes.len() / 2].to_vec());
    assert!(ParquetFile::from_reader(cut).is_err());
}
