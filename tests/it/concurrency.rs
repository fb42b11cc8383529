//! Threads sharing one `ParquetFile` opened from a path, each loading row
//! groups at once: every load returns its own row group's values.
//!
//! A file is read by position (`pread`), so the threads' reads cannot move
//! one another's cursor. Reading with `seek` + `read_exact` on one shared
//! handle returned another row group's values, with `Ok`, about once in
//! 12,800 loads; this test makes 20,000 loads by default
//! (`PARQUET_ROWS_CONCURRENT_LOADS` sets the count, e.g. 1,000,000 for a
//! long run).

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use parquet::file::properties::WriterProperties;
use parquet_rows::{ParquetFile, ParquetRow};
use parquet_rows_suite::{write_columns, ColumnValues};

const GROUPS: usize = 16;
const ROWS: usize = 128; // per row group
const THREADS: usize = 4;

/// Row `r` of row group `g` holds `g * 1_000_000 + r` (and its negation):
/// a row group's values say which row group and row they came from.
#[derive(ParquetRow, Debug)]
struct Row {
    v: i64,
    w: i64,
}

fn distinct_groups() -> bytes::Bytes {
    let groups: Vec<Vec<ColumnValues>> = (0..GROUPS)
        .map(|g| {
            let v: Vec<i64> = (0..ROWS).map(|r| (g * 1_000_000 + r) as i64).collect();
            vec![
                ColumnValues::Int64(v.iter().map(|&x| Some(x)).collect()),
                ColumnValues::Int64(v.iter().map(|&x| Some(-x)).collect()),
            ]
        })
        .collect();
    // PLAIN, uncompressed: each load is mostly reads, so that the threads'
    // reads interleave as often as they can.
    let props = WriterProperties::builder()
        .set_dictionary_enabled(false)
        .build();
    write_columns(
        "message m { REQUIRED INT64 v; REQUIRED INT64 w; }",
        props,
        &groups,
    )
    .unwrap()
}

/// Whether `rows` are exactly row group `g`'s.
fn is_group(rows: &[Row], g: usize) -> bool {
    rows.len() == ROWS
        && rows.iter().enumerate().all(|(r, row)| {
            let want = (g * 1_000_000 + r) as i64;
            row.v == want && row.w == -want
        })
}

#[test]
fn threads_sharing_a_file_opened_by_path_read_their_own_row_groups() {
    let loads: usize = std::env::var("PARQUET_ROWS_CONCURRENT_LOADS").map_or(20_000, |n| {
        n.parse()
            .expect("PARQUET_ROWS_CONCURRENT_LOADS is a number")
    });
    let dir = parquet_rows_suite::workspace_root()
        .join("target")
        .join("fixtures");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(format!("concurrency-{}.parquet", std::process::id()));
    std::fs::write(&path, distinct_groups()).unwrap();
    let file = Arc::new(ParquetFile::open(&path).unwrap());
    std::fs::remove_file(&path).unwrap(); // the open handle keeps the bytes
    assert_eq!(file.num_row_groups(), GROUPS);

    let (wrong, failed) = (Arc::new(AtomicUsize::new(0)), Arc::new(AtomicUsize::new(0)));
    let started = std::time::Instant::now();
    let threads: Vec<_> = (0..THREADS)
        .map(|t| {
            let (file, wrong, failed) =
                (Arc::clone(&file), Arc::clone(&wrong), Arc::clone(&failed));
            std::thread::spawn(move || {
                // Each thread walks the row groups with its own stride, so
                // threads load different row groups at the same moment.
                let mut g = t;
                for _ in 0..loads.div_ceil(THREADS) {
                    g = (g + 2 * t + 1) % GROUPS;
                    match file
                        .rows::<Row>()
                        .row_groups([g])
                        .load()
                        .and_then(|p| p.rows::<Row>())
                    {
                        Ok(rows) if is_group(&rows, g) => {}
                        Ok(_) => _ = wrong.fetch_add(1, Ordering::Relaxed),
                        Err(_) => _ = failed.fetch_add(1, Ordering::Relaxed),
                    }
                }
            })
        })
        .collect();
    for t in threads {
        t.join().unwrap();
    }
    let (wrong, failed) = (
        wrong.load(Ordering::Relaxed),
        failed.load(Ordering::Relaxed),
    );
    eprintln!(
        "{} loads on {THREADS} threads in {:?}: {wrong} wrong, {failed} errors",
        loads.div_ceil(THREADS) * THREADS,
        started.elapsed()
    );
    assert_eq!((wrong, failed), (0, 0), "wrong row groups, errors");
}
