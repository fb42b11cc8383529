//! Pages decompressed when a reader first opens them, into buffers the file
//! keeps for its next pages (`chunk::loaded`, `chunk::pool`): a page no row
//! of a read needs is never decompressed, a corrupt one fails the reads that
//! open it with the error the eager path gave, and rows read into reused
//! buffers (with every codec that reuses them) are the rows written, whether
//! earlier rows still borrow their pages or not, on every read path
//! (owned, streamed, parallel, windowed, filtered, borrowed, remote).

use std::sync::Arc;

use bytes::Bytes;
use object_store::memory::InMemory;
use object_store::path::Path;
use object_store::{ObjectStore, ObjectStoreExt};
use parquet::basic::{Compression, ZstdLevel};
use parquet::file::properties::{EnabledStatistics, WriterProperties};
use parquet_rows::remote::RemoteFile;
use parquet_rows::{Error, ParquetFile, ParquetRow, ReadOptions};
use parquet_rows_suite::{file_metadata, write_columns, ColumnValues};

const ROWS: usize = 3000;
const PAGE_ROWS: usize = 100;

#[derive(ParquetRow, Debug, Clone, PartialEq)]
struct Row {
    id: i64,
    v: i64,
    s: String,
}

#[derive(ParquetRow, Debug, Clone, Copy, PartialEq)]
struct Borrowed<'a> {
    id: i64,
    s: &'a str,
}

#[derive(ParquetRow, Debug, Clone, Copy, PartialEq)]
struct Values {
    v: i64,
}

fn s_of(i: usize) -> String {
    // Strings of several lengths, so that pages differ in size.
    format!("s{}-{}", i % 37, "x".repeat(i % 11))
}

/// One row group of `id`, `v = 10 * id` and `s`: pages of 100 rows, no
/// statistics (no page can be pruned before it is loaded), `id` and `v`
/// PLAIN, `s` PLAIN (its pages are what borrowed rows point into).
fn file(codec: Compression, groups: usize) -> Bytes {
    let per = ROWS / groups;
    let columns: Vec<Vec<ColumnValues>> = (0..groups)
        .map(|g| {
            let ids: Vec<usize> = (g * per..(g + 1) * per).collect();
            vec![
                ColumnValues::Int64(ids.iter().map(|&i| Some(i as i64)).collect()),
                ColumnValues::Int64(ids.iter().map(|&i| Some(i as i64 * 10)).collect()),
                ColumnValues::Bytes(ids.iter().map(|&i| Some(s_of(i).into_bytes())).collect()),
            ]
        })
        .collect();
    let props = WriterProperties::builder()
        .set_compression(codec)
        .set_statistics_enabled(EnabledStatistics::None)
        .set_data_page_row_count_limit(PAGE_ROWS)
        .set_write_batch_size(PAGE_ROWS)
        .set_dictionary_enabled(false)
        .build();
    write_columns(
        "message m { REQUIRED INT64 id; REQUIRED INT64 v; REQUIRED BINARY s (UTF8); }",
        props,
        &columns,
    )
    .unwrap()
}

fn expected(ids: impl IntoIterator<Item = usize>) -> Vec<Row> {
    ids.into_iter()
        .map(|i| Row {
            id: i as i64,
            v: i as i64 * 10,
            s: s_of(i),
        })
        .collect()
}

/// `file` with page 1 of column `v` (rows 100..200 of the only row group)
/// made to decompress to 801 bytes where its header says 800: its SNAPPY
/// stream starts with that length, and nothing else in the page's bytes
/// before it is the same varint.
fn corrupt_second_page_of_v(file: &Bytes) -> Bytes {
    let meta = file_metadata(file);
    let v = meta.row_group(0).column(1);
    let start = v.data_page_offset() as usize;
    let end = start + v.compressed_size() as usize;
    // 800 bytes (100 INT64 values) as a ULEB128 varint: the stream's length.
    let (from, to) = ([0xa0, 0x06], [0xa1, 0x06]);
    let at: Vec<usize> = (start..end - 1)
        .filter(|&k| file[k..k + 2] == from)
        .collect();
    assert!(at.len() >= 2, "the pages of `v` start with their length");
    let mut out = file.to_vec();
    out[at[1]..at[1] + 2].copy_from_slice(&to);
    Bytes::from(out)
}

#[test]
fn a_page_no_row_needs_is_never_decompressed_and_a_read_that_opens_it_fails() {
    let file =
        ParquetFile::from_bytes(corrupt_second_page_of_v(&file(Compression::SNAPPY, 1))).unwrap();
    let err = file.rows::<Row>().collect().unwrap_err();
    let text = err.to_string();
    assert!(matches!(err, Error::OutOfSpec { .. }), "{text}");
    for part in ["`v`", "row group 0", "page 1", "801", "800"] {
        assert!(text.contains(part), "{part} in {text}");
    }
    // The same error on two threads, where pages are decompressed ahead.
    let parallel = file.rows::<Row>().threads(2).collect().unwrap_err();
    assert_eq!(parallel.to_string(), text);
    // Rows on either side of the bad page: its rows are skipped whole, the
    // page is never decompressed.
    let wanted = [5i64, 250, 2999];
    let rows = file
        .rows::<Row>()
        .filter(Row::filter().id().is_in(wanted))
        .collect()
        .unwrap();
    assert_eq!(rows, expected([5, 250, 2999]));
    // A struct without `v` reads every row.
    let all = file.rows::<Borrowed>().load().unwrap();
    assert_eq!(all.rows::<Borrowed>().unwrap().len(), ROWS);
    // A row of the bad page fails the read.
    let err = file
        .rows::<Row>()
        .filter(Row::filter().id().is_in([5i64, 150]))
        .collect()
        .unwrap_err();
    assert_eq!(err.to_string(), text);
}

/// Every read path's rows of `bytes` with `options`, by name: owned on one
/// thread, streamed, on two threads, windowed, filtered, borrowed (loaded on
/// one thread and on two), and remote (`InMemory`).
fn every_path(bytes: &Bytes, options: ReadOptions) -> Vec<(&'static str, Vec<Row>)> {
    let file = ParquetFile::from_bytes(bytes.clone()).unwrap();
    let owned = |b: &parquet_rows::Pages| -> Vec<Row> {
        b.rows::<Borrowed>()
            .unwrap()
            .iter()
            .map(|r| Row {
                id: r.id,
                v: r.id * 10,
                s: r.s.to_owned(),
            })
            .collect()
    };
    let store: Arc<dyn ObjectStore> = Arc::new(InMemory::new());
    let location = Path::from("lazy.parquet");
    tokio::runtime::Builder::new_current_thread()
        .build()
        .unwrap()
        .block_on(store.put(&location, bytes.clone().into()))
        .unwrap();
    let remote = RemoteFile::open_blocking(store, location).unwrap();
    let rows = || file.rows::<Row>().options(options);
    vec![
        ("collect", rows().collect().unwrap()),
        (
            "stream",
            rows().stream().unwrap().collect::<Result<_, _>>().unwrap(),
        ),
        ("threads(2)", rows().threads(2).collect().unwrap()),
        ("window", rows().offset(150).limit(2000).collect().unwrap()),
        (
            "filter",
            rows()
                .filter(Row::filter().id().is_in([7i64, 1234, 2500]))
                .collect()
                .unwrap(),
        ),
        (
            "load",
            owned(&file.rows::<Borrowed>().options(options).load().unwrap()),
        ),
        (
            "load, threads(2)",
            owned(
                &file
                    .rows::<Borrowed>()
                    .options(options)
                    .threads(2)
                    .load()
                    .unwrap(),
            ),
        ),
        (
            "remote",
            remote
                .rows::<Row>()
                .options(options)
                .collect_blocking()
                .unwrap(),
        ),
    ]
}

#[test]
fn rows_read_into_kept_buffers_are_the_rows_written() {
    for codec in [
        Compression::SNAPPY,
        Compression::ZSTD(ZstdLevel::default()),
        Compression::LZ4_RAW,
        Compression::UNCOMPRESSED,
    ] {
        for groups in [1, 3] {
            let bytes = file(codec, groups);
            for kept in [0, 4096, 64 << 20] {
                let options = ReadOptions::default().max_kept_page_bytes(kept);
                let file = ParquetFile::from_bytes(bytes.clone())
                    .unwrap()
                    .with_options(options);
                let case = format!("{codec}, {groups} row groups, {kept} bytes kept");
                // Borrowed rows hold their pages while later reads take
                // the buffers the file kept from earlier ones.
                let first = file.rows::<Borrowed>().load().unwrap();
                let held = first.rows::<Borrowed>().unwrap();
                for _round in 0..2 {
                    for (path, rows) in every_path(&bytes, options) {
                        let want = match path {
                            "window" => expected(150..2150),
                            "filter" => expected([7, 1234, 2500]),
                            _ => expected(0..ROWS),
                        };
                        assert_eq!(rows, want, "{case}: {path}");
                    }
                    let values: Vec<i64> = file
                        .rows::<Values>()
                        .collect()
                        .unwrap()
                        .iter()
                        .map(|r| r.v)
                        .collect();
                    assert_eq!(values, (0..ROWS as i64).map(|i| i * 10).collect::<Vec<_>>());
                    let again = file.rows::<Borrowed>().load().unwrap();
                    assert_eq!(again.rows::<Borrowed>().unwrap(), held, "{case}");
                }
                for (i, row) in held.iter().enumerate() {
                    assert_eq!((row.id, row.s), (i as i64, s_of(i).as_str()), "{case}");
                }
            }
        }
    }
}

/// Pages whose values are copied into the rows (`id`, `v`: INT64) are
/// decompressed for the reader that decodes them and freed when it leaves
/// them; pages that rows may borrow (`s`) and pages a predicate tested (the
/// decode reads them again) stay decompressed. A page freed is read again
/// from its stored bytes: a second decode of the same `Pages`, on one
/// thread or two, gives the same rows, and a corrupt page the same error.
#[test]
fn pages_copied_out_are_freed_after_the_decode_and_read_again_the_same() {
    use crate::api::debug_count;
    for codec in [Compression::SNAPPY, Compression::ZSTD(ZstdLevel::default())] {
        for groups in [1, 3] {
            let bytes = file(codec, groups);
            let file = ParquetFile::from_bytes(bytes.clone()).unwrap();
            // The decompressed size of each column's pages, from pages
            // loaded for one column at a time and read.
            let ids = file.rows::<Values>().load().unwrap();
            assert_eq!(debug_count(&format!("{ids:?}"), "decompressed"), 0);
            let v_bytes = debug_count(&format!("{ids:?}"), "bytes");
            let pages = file.rows::<Row>().load().unwrap();
            let all_bytes = debug_count(&format!("{pages:?}"), "bytes");
            for round in 0..3 {
                let rows = pages.rows::<Row>().unwrap();
                assert_eq!(rows, expected(0..ROWS), "{codec}, round {round}");
                let held = debug_count(&format!("{pages:?}"), "decompressed");
                // `s` only: `id` and `v` hold the same bytes each.
                assert_eq!(held, all_bytes - 2 * v_bytes, "{codec}, {groups} groups");
            }
            let values: Vec<i64> = pages
                .rows::<Values>()
                .unwrap()
                .iter()
                .map(|r| r.v)
                .collect();
            assert_eq!(values, (0..ROWS as i64).map(|i| i * 10).collect::<Vec<_>>());
            assert_eq!(
                pages.par_rows::<Row>().unwrap(),
                expected(0..ROWS),
                "{codec}"
            );

            // A predicate on `v`: its pages are kept for the decode.
            let filtered = file
                .rows::<Row>()
                .filter(Row::filter().v().ge(25_000i64))
                .load()
                .unwrap();
            for _ in 0..2 {
                assert_eq!(filtered.rows::<Row>().unwrap(), expected(2500..ROWS));
            }
            // Every page of `v` (the probe read every row), the pages of
            // `s` with taken rows, no page of `id`.
            let held = debug_count(&format!("{filtered:?}"), "decompressed");
            assert!(
                held > v_bytes && held < all_bytes - v_bytes,
                "{held} bytes, {codec}"
            );
        }
    }
    // A corrupt page of `v`, freed or never kept, fails every decode that
    // opens it with the same text.
    let file =
        ParquetFile::from_bytes(corrupt_second_page_of_v(&file(Compression::SNAPPY, 1))).unwrap();
    let pages = file.rows::<Row>().load().unwrap();
    let first = pages.rows::<Row>().unwrap_err().to_string();
    assert!(first.contains("page 1") && first.contains("`v`"), "{first}");
    assert_eq!(pages.rows::<Row>().unwrap_err().to_string(), first);
    assert_eq!(pages.par_rows::<Row>().unwrap_err().to_string(), first);
}

/// Pages loaded for several threads are not decompressed by the load; the
/// parallel decode cuts the row group into parts and, the row group being
/// small, decompresses its pages on the pool first. The rows are the
/// file's, on two threads and one; a corrupt page fails the load on no path
/// and every decode that opens it with the same text.
#[test]
fn pages_loaded_on_threads_are_decompressed_by_the_parallel_decode() {
    use crate::api::debug_count;
    // Parts of 250 rows at least: 3,000 rows make parts whose ends fall
    // inside pages of 100 rows.
    let options = ReadOptions::default().min_task_rows(250);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(2)
        .build()
        .unwrap();
    for codec in [Compression::SNAPPY, Compression::ZSTD(ZstdLevel::default())] {
        for groups in [1, 3] {
            let bytes = file(codec, groups);
            let file = ParquetFile::from_bytes(bytes).unwrap();
            let load = || {
                let rows = file.rows::<Row>().options(options).threads(2);
                rows.load().unwrap()
            };
            let pages = load();
            assert_eq!(debug_count(&format!("{pages:?}"), "decompressed"), 0);
            let all_bytes = debug_count(&format!("{pages:?}"), "bytes");
            let rows = pool.install(|| pages.par_rows::<Row>()).unwrap();
            assert_eq!(rows, expected(0..ROWS), "{codec}, {groups} groups");
            let held = debug_count(&format!("{pages:?}"), "decompressed");
            assert_eq!(held, all_bytes, "{codec}, {groups} groups");
            // Decoded on one thread, the same rows.
            assert_eq!(load().rows::<Row>().unwrap(), expected(0..ROWS));
            // Owned rows read on threads go through the same parts.
            let read = file.rows::<Row>().options(options).threads(2).collect();
            assert_eq!(read.unwrap(), expected(0..ROWS));
            // With a window, the parallel decode takes a row group per
            // task: the load decompressed every page it read, on its threads.
            let rows = file.rows::<Row>().options(options).offset(10);
            let windowed = rows.threads(2).load().unwrap();
            let text = format!("{windowed:?}");
            assert_eq!(
                debug_count(&text, "decompressed"),
                debug_count(&text, "bytes")
            );
            let rows = pool.install(|| windowed.par_rows::<Row>()).unwrap();
            assert_eq!(rows, expected(10..ROWS), "{codec}, {groups} groups");
        }
    }
    let bad = corrupt_second_page_of_v(&file(Compression::SNAPPY, 1));
    let file = ParquetFile::from_bytes(bad).unwrap();
    let sequential = file.rows::<Row>().load().unwrap();
    let first = sequential.rows::<Row>().unwrap_err().to_string();
    let pages = file
        .rows::<Row>()
        .options(options)
        .threads(2)
        .load()
        .unwrap();
    let parallel = pool.install(|| pages.par_rows::<Row>()).unwrap_err();
    assert_eq!(parallel.to_string(), first);
    let read = file.rows::<Row>().options(options).threads(2).collect();
    assert_eq!(read.unwrap_err().to_string(), first);
}

/// A row group of more than 8 MiB of pages decoded in parts: each part
/// decompresses the pages it opens, and a page two parts share (where one
/// part ends and the next starts) is decompressed once and kept, so after
/// the decode every page is held, once.
#[test]
fn parts_of_a_large_row_group_decompress_the_pages_they_open_once() {
    use crate::api::debug_count;
    #[derive(ParquetRow, Debug, Clone, Copy, PartialEq)]
    struct Pair {
        id: i64,
        v: i64,
    }
    const N: i64 = 1_200_000; // 19.2 MB of PLAIN values, pages of 1 MiB
    let columns = vec![vec![
        ColumnValues::Int64((0..N).map(Some).collect()),
        ColumnValues::Int64((0..N).map(|i| Some(i * 10)).collect()),
    ]];
    let props = WriterProperties::builder()
        .set_compression(Compression::SNAPPY)
        .set_dictionary_enabled(false)
        .build();
    let schema = "message m { REQUIRED INT64 id; REQUIRED INT64 v; }";
    let file = ParquetFile::from_bytes(write_columns(schema, props, &columns).unwrap()).unwrap();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(2)
        .build()
        .unwrap();
    let pages = file.rows::<Pair>().threads(2).load().unwrap();
    assert_eq!(debug_count(&format!("{pages:?}"), "decompressed"), 0);
    let all_bytes = debug_count(&format!("{pages:?}"), "bytes");
    assert!(all_bytes > 8 << 20, "{all_bytes} bytes");
    let rows = pool.install(|| pages.par_rows::<Pair>()).unwrap();
    assert_eq!(rows.len(), N as usize);
    assert!(rows
        .iter()
        .zip(0..)
        .all(|(r, i)| *r == Pair { id: i, v: i * 10 }));
    assert_eq!(
        debug_count(&format!("{pages:?}"), "decompressed"),
        all_bytes
    );
    let read: Vec<Pair> = pool
        .install(|| file.rows::<Pair>().threads(0).collect())
        .unwrap();
    assert_eq!(read, rows);
}
