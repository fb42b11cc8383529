//! Datasets of many files: `#[parquet(partition)]` fields and partition
//! pruning by typed predicates, row-group pruning by statistics, file
//! order, globs, and splits read back by a worker.

use std::sync::Arc;

use object_store::memory::InMemory;
use object_store::path::Path;
use object_store::ObjectStore;
use parquet::file::properties::WriterProperties;
use parquet::file::statistics::Statistics;
use parquet_rows::dataset::{Dataset, Split};
use parquet_rows::remote::FetchOptions;
use parquet_rows::{ParquetRow, RowFilter};
use parquet_rows_suite::{write_columns, ColumnValues};

use super::counting::{Counting, Counts};
use super::put;

const DATES: usize = 10;
const FILES_PER_DATE: usize = 10;
const ROWS: usize = 50; // per row group, two row groups per file

#[derive(ParquetRow, Debug, Clone, PartialEq)]
struct Tick {
    ts: i64,
    bid: f64,
    #[parquet(partition)]
    date: String,
    #[parquet(partition)]
    part: u32,
}

#[derive(ParquetRow, Debug, Clone, PartialEq)]
struct Ts {
    ts: i64,
}

/// `part` may be missing from a path; the key is renamed, `rename_all`
/// applies to the other partition field as to columns.
#[derive(ParquetRow, Debug, PartialEq)]
#[parquet(rename_all = "camelCase")]
struct Loose {
    ts: i64,
    #[parquet(partition, rename = "part")]
    part_number: Option<u32>,
    #[parquet(partition)]
    date: String,
}

/// The bid of the row whose ts is `ts` (ts < 2^20: exact in `f64`).
fn bid(ts: i64) -> f64 {
    f64::from(i32::try_from(ts).unwrap()) / 2.0
}

fn date(d: usize) -> String {
    format!("2026-01-{:02}", d + 1)
}

/// File `n` (of 100) holds ts `n * 1000 + i` for i in 0..100, in two row
/// groups of 50, and bid `ts / 2`.
fn file(n: usize) -> bytes::Bytes {
    let group = |g: usize| {
        let ts: Vec<i64> = (0..ROWS)
            .map(|i| (n * 1000 + g * ROWS + i) as i64)
            .collect();
        vec![
            ColumnValues::Int64(ts.iter().map(|&t| Some(t)).collect()),
            ColumnValues::Double(ts.iter().map(|&t| Some(bid(t))).collect()),
        ]
    };
    write_columns(
        "message t { REQUIRED INT64 ts; REQUIRED DOUBLE bid; }",
        WriterProperties::builder().build(),
        &[group(0), group(1)],
    )
    .unwrap()
}

/// 100 files: `ticks/date=.../part=.../data.parquet` and, unpartitioned,
/// `flat/NNN.parquet`; plus files a dataset leaves out.
fn store() -> (Arc<dyn ObjectStore>, Arc<Counts>) {
    let memory = InMemory::new();
    for d in 0..DATES {
        for p in 0..FILES_PER_DATE {
            let n = d * FILES_PER_DATE + p;
            let bytes = file(n);
            put(
                &memory,
                &Path::from(format!("ticks/date={}/part={p}/data.parquet", date(d))),
                bytes.clone(),
            );
            put(&memory, &Path::from(format!("flat/{n:03}.parquet")), bytes);
        }
    }
    put(&memory, &Path::from("ticks/_SUCCESS"), bytes::Bytes::new());
    put(
        &memory,
        &Path::from("ticks/date=2026-01-01/.part=0.crc"),
        bytes::Bytes::from_static(b"x"),
    );
    let counts = Arc::new(Counts::default());
    let store = Arc::new(Counting {
        inner: memory,
        counts: Arc::clone(&counts),
    });
    (store, counts)
}

/// Fetch options whose first request is a file's footer alone: these
/// files are small enough for the default first request (64 KiB) to hold
/// them whole, and reads inside it cost no request; the tests that count
/// the requests of column chunks open the files with these instead.
fn footer_only() -> FetchOptions {
    let bytes = file(0);
    let n = bytes.len();
    let footer = u32::from_le_bytes(bytes[n - 8..n - 4].try_into().unwrap());
    FetchOptions::default().footer_guess(u64::from(footer) + 8)
}

fn expected(n: usize) -> Vec<Tick> {
    let (d, p) = (n / FILES_PER_DATE, n % FILES_PER_DATE);
    (0..2 * ROWS)
        .map(|i| {
            let ts = (n * 1000 + i) as i64;
            Tick {
                ts,
                bid: bid(ts),
                date: date(d),
                part: p as u32,
            }
        })
        .collect()
}

#[test]
fn a_partitioned_dataset_reads_every_file_in_order() {
    let (store, _) = store();
    let dataset = Dataset::open_blocking(store, "ticks").unwrap();
    assert_eq!(
        dataset.files().len(),
        DATES * FILES_PER_DATE,
        "_SUCCESS and .crc left out"
    );
    let rows: Vec<Tick> = dataset.rows().collect_blocking().unwrap();
    let want: Vec<Tick> = (0..DATES * FILES_PER_DATE).flat_map(expected).collect();
    assert_eq!(rows, want);
}

#[test]
fn a_parallel_read_gives_the_same_rows() {
    let (store, counts) = store();
    let dataset = Dataset::open_blocking(store, "ticks")
        .unwrap()
        .with_fetch_options(footer_only(), 8)
        .prune(Tick::filter().part().eq(7))
        .unwrap();
    counts.reset();
    let rows: Vec<Tick> = dataset.rows().threads(0).collect_blocking().unwrap();
    let want: Vec<Tick> = (0..DATES)
        .flat_map(|d| expected(d * FILES_PER_DATE + 7))
        .collect();
    assert_eq!(rows, want);
    assert_eq!(counts.gets(), DATES * 2);
}

#[test]
fn a_query_on_one_date_opens_only_that_dates_files() {
    let (store, counts) = store();
    let dataset = Dataset::open_blocking(store, "ticks")
        .unwrap()
        .with_fetch_options(footer_only(), 8);
    let all: Vec<Tick> = dataset.rows().collect_blocking().unwrap();
    counts.reset();
    let rows: Vec<Tick> = dataset
        .rows()
        .filter(Tick::filter().date().eq(date(3)))
        .collect_blocking()
        .unwrap();
    let naive: Vec<Tick> = all.into_iter().filter(|t| t.date == date(3)).collect();
    assert_eq!(rows, naive);
    assert_eq!(rows.len(), FILES_PER_DATE * 2 * ROWS);
    let locations = counts.locations();
    assert!(
        locations.iter().all(|l| l.contains("date=2026-01-04/")),
        "{locations:?}"
    );
    // Per file: its footer, then its chunks (two columns, two row groups,
    // adjacent: one range).
    assert_eq!(counts.gets(), FILES_PER_DATE * 2);
}

#[test]
fn partition_and_column_predicates_prune_files_then_row_groups() {
    let (store, counts) = store();
    let dataset = Dataset::open_blocking(store, "ticks")
        .unwrap()
        .with_fetch_options(footer_only(), 8);
    let all: Vec<Tick> = dataset.rows().collect_blocking().unwrap();
    counts.reset();
    // Date index 7 holds files 70..80; ts in [75_020, 82_010] keeps files
    // 75..=79 of that date (80 and 81 are of the next date).
    let (low, high) = (75_020, 82_010);
    let query = || {
        Tick::filter()
            .date()
            .le(date(7))
            .ts()
            .between(low, high)
            .part()
            .ge(5)
    };
    let rows: Vec<Tick> = dataset.rows().filter(query()).collect_blocking().unwrap();
    let naive: Vec<Tick> = all
        .iter()
        .filter(|t| t.date <= date(7) && (low..=high).contains(&t.ts) && t.part >= 5)
        .cloned()
        .collect();
    assert_eq!(rows, naive);
    assert_eq!(rows.len(), 5 * 2 * ROWS - 20);
    // Only the files whose path matches are opened (part >= 5 of dates
    // 0..=7); of those, only files 75..=79 past their footer (the others'
    // statistics rule every row group out).
    let locations = counts.locations();
    for n in 0..DATES * FILES_PER_DATE {
        let (d, p) = (n / FILES_PER_DATE, n % FILES_PER_DATE);
        let name = format!("ticks/date={}/part={p}/data.parquet", date(d));
        let requests = locations.iter().filter(|l| **l == name).count();
        match (d <= 7 && p >= 5, (75..80).contains(&n)) {
            (false, _) => assert_eq!(requests, 0, "{name}"),
            (true, false) => assert_eq!(requests, 1, "{name}"),
            (true, true) => assert!(requests > 1, "{name}"),
        }
    }
    // Predicates on partition fields are not evaluated against statistics:
    // a partition predicate alone on a value no file's path has reads nothing.
    counts.reset();
    let none: Vec<Tick> = dataset
        .rows()
        .filter(Tick::filter().part().gt(9))
        .collect_blocking()
        .unwrap();
    assert!(none.is_empty());
    assert_eq!(counts.gets(), 0);
    // The window applies after the partition pruning.
    let window: Vec<Tick> = dataset
        .rows()
        .filter(query().offset(3).limit(2))
        .collect_blocking()
        .unwrap();
    assert_eq!(window, naive[3..5]);
}

#[test]
#[allow(clippy::too_many_lines)] // one case per way a partition value is bad, side by side
fn bad_partition_values_are_errors_naming_the_file_key_and_value() {
    let memory = InMemory::new();
    put(
        &memory,
        &Path::from("ticks/date=2026-01-01/part=1/data.parquet"),
        file(1),
    );
    put(
        &memory,
        &Path::from("ticks/date=2026-01-02/part=x7/data.parquet"),
        file(2),
    );
    put(
        &memory,
        &Path::from("ticks/date=2026-01-03/data.parquet"),
        file(3),
    );
    let store: Arc<dyn ObjectStore> = Arc::new(memory);
    let dataset = Dataset::open_blocking(Arc::clone(&store), "ticks").unwrap();
    let err = dataset
        .rows::<Tick>()
        .collect_blocking()
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("ticks/date=2026-01-02/part=x7/data.parquet")
            && err.contains("partition `part=x7` does not parse as `u32` (field `part`)"),
        "{err}"
    );
    // A typed predicate on the partition parses it too, before any request.
    let err = dataset
        .rows::<Tick>()
        .filter(Tick::filter().part().eq(1))
        .collect_blocking()
        .unwrap_err()
        .to_string();
    assert!(err.contains("`part=x7`"), "{err}");
    let err = dataset
        .clone()
        .prune(Tick::filter().part().eq(1))
        .unwrap_err()
        .to_string();
    assert!(err.contains("`part=x7`"), "{err}");
    // `prune` is for partition predicates only.
    let err = dataset
        .clone()
        .prune(Tick::filter().date().eq("2026-01-01").ts().eq(1))
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("`Dataset::prune` takes predicates on `#[parquet(partition)]` fields"),
        "{err}"
    );
    // A file whose path lacks a partition: an error for a required field...
    let only_3 = dataset
        .clone()
        .prune(Tick::filter().date().eq("2026-01-03"))
        .unwrap();
    let err = only_3
        .rows::<Tick>()
        .collect_blocking()
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("ticks/date=2026-01-03/data.parquet") && err.contains("no partition `part`"),
        "{err}"
    );
    // ... `None` for an `Option` one.
    let rows: Vec<Loose> = only_3.rows().collect_blocking().unwrap();
    assert_eq!(rows.len(), 2 * ROWS);
    assert!(rows
        .iter()
        .all(|r| r.part_number.is_none() && r.date == "2026-01-03"));
    // Files the date rules out are not parsed for `part`, nor opened.
    let rows: Vec<Loose> = dataset
        .rows()
        .filter(Loose::filter().date().eq("2026-01-01"))
        .collect_blocking()
        .unwrap();
    assert_eq!(rows.len(), 2 * ROWS);
    assert!(rows.iter().all(|r| r.part_number == Some(1)));
    // A column of the partition's name in the file: the path's value wins.
    let with_column = write_columns(
        "message t { REQUIRED INT64 ts; REQUIRED BINARY date (UTF8); }",
        WriterProperties::builder().build(),
        &[vec![
            ColumnValues::Int64(vec![Some(1), Some(2)]),
            ColumnValues::Bytes(vec![Some(b"1999-12-31".to_vec()), Some(b"x".to_vec())]),
        ]],
    )
    .unwrap();
    put(
        &*store,
        &Path::from("ticks/date=2026-01-04/part=0/data.parquet"),
        with_column,
    );
    let rows: Vec<Loose> = Dataset::open_blocking(store, "ticks")
        .unwrap()
        .rows()
        .filter(Loose::filter().date().eq("2026-01-04"))
        .collect_blocking()
        .unwrap();
    assert_eq!(
        rows.iter()
            .map(|r| (r.ts, r.date.as_str()))
            .collect::<Vec<_>>(),
        [(1, "2026-01-04"), (2, "2026-01-04")]
    );
}

/// Hive directories on a local disk, through `LocalFileSystem`.
#[test]
fn a_local_directory_of_partitions_is_a_dataset_too() {
    let dir = std::env::temp_dir().join(format!("parquet-rows-hive-{}", std::process::id()));
    for n in 0..4 {
        let part = dir.join(format!("ticks/date={}/part={n}", date(n % 2)));
        std::fs::create_dir_all(&part).unwrap();
        std::fs::write(part.join("data.parquet"), file(n)).unwrap();
    }
    let store: Arc<dyn ObjectStore> =
        Arc::new(object_store::local::LocalFileSystem::new_with_prefix(&dir).unwrap());
    let dataset = Dataset::open_blocking(store, "ticks").unwrap();
    let rows: Vec<Tick> = dataset
        .rows()
        .filter(Tick::filter().date().eq(date(1)).part().lt(3))
        .collect_blocking()
        .unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!(dataset.files().len(), 4);
    // File 1 (ts 1000..1100) is the only one of date index 1 with part < 3.
    let want: Vec<Tick> = expected(1)
        .into_iter()
        .map(|t| Tick { date: date(1), ..t })
        .collect();
    assert_eq!(rows, want);
}

#[test]
fn unpartitioned_each_footer_is_read_once_and_chunks_only_where_statistics_match() {
    let (store, counts) = store();
    let dataset = Dataset::open_blocking(store, "flat")
        .unwrap()
        .with_fetch_options(footer_only(), 8);
    assert_eq!(dataset.files().len(), 100);
    counts.reset();
    // ts in [41_060, 43_010]: row group 1 of file 41, both of 42, row group 0 of 43.
    let (low, high) = (41_060, 43_010);
    let rows: Vec<Ts> = dataset
        .keep_row_groups(move |_, rg| match rg.column(0).statistics() {
            Some(Statistics::Int64(s)) => match (s.min_opt(), s.max_opt()) {
                (Some(&min), Some(&max)) => max >= low && min <= high,
                _ => true,
            },
            _ => true,
        })
        .rows()
        .collect_blocking()
        .unwrap();
    assert_eq!(rows.len(), 4 * ROWS);
    assert_eq!((rows[0].ts, rows.last().unwrap().ts), (41_050, 43_049));
    let locations = counts.locations();
    let footers = 100;
    // One range per kept row group: the `ts` chunks of file 42's two row
    // groups lie apart (the first `bid` chunk between them, as large as
    // they are: more than 10% to cross).
    let chunk_requests = 4;
    assert_eq!(locations.len(), footers + chunk_requests, "{locations:?}");
    for n in 0..100 {
        let name = format!("flat/{n:03}.parquet");
        let requests = locations.iter().filter(|l| **l == name).count();
        let want = match n {
            41 | 43 => 2,
            42 => 3,
            _ => 1,
        };
        assert_eq!(requests, want, "{name}");
    }
}

#[test]
fn a_glob_narrows_the_files() {
    let (store, _) = store();
    let dataset = Dataset::open_blocking(Arc::clone(&store), "ticks")
        .unwrap()
        .glob("date=2026-01-0[12]/part=[0-4]/*.parquet")
        .unwrap();
    let files: Vec<String> = dataset
        .files()
        .iter()
        .map(|f| f.location.to_string())
        .collect();
    assert_eq!(files.len(), 10, "{files:?}");
    assert!(files[0].ends_with("date=2026-01-01/part=0/data.parquet"));
    // `*` does not cross directories.
    let all = Dataset::open_blocking(store, "ticks").unwrap();
    assert!(all.clone().glob("*.parquet").unwrap().files().is_empty());
    assert_eq!(all.clone().glob("**/*.parquet").unwrap().files().len(), 100);
    assert!(all.glob("[").is_err());
}

/// The single-machine equivalent of a cluster run: splits, serialised and
/// read back, each read by a "worker", give the rows of the dataset read.
#[test]
fn splits_read_by_workers_give_the_dataset_rows() {
    let (store, counts) = store();
    let dataset = Dataset::open_blocking(Arc::clone(&store), "ticks")
        .unwrap()
        .prune(Tick::filter().date().le("2026-01-03"))
        .unwrap();
    counts.reset();
    // One row group's two chunks are about 800 bytes: a target of 1 byte
    // makes one split per row group, a large one one split per file.
    let small = dataset.splits_blocking::<Tick>(1).unwrap();
    let large = dataset.splits_blocking::<Tick>(1 << 30).unwrap();
    assert_eq!(counts.gets(), 2 * 30, "footers only, no chunk");
    assert_eq!((small.len(), large.len()), (60, 30));
    assert!(large
        .iter()
        .all(|s| s.row_groups == [0, 1] && s.ranges.len() == 1));

    let json = serde_json::to_string(&small).unwrap();
    let received: Vec<Split> = serde_json::from_str(&json).unwrap();
    assert_eq!(received, small);
    let mut rows = Vec::new();
    for split in &received {
        rows.extend(
            split
                .with_store(Arc::clone(&store))
                .rows::<Tick>()
                .collect_blocking()
                .unwrap(),
        );
    }
    let want: Vec<Tick> = dataset.rows().collect_blocking().unwrap();
    assert_eq!(rows.len(), 30 * 2 * ROWS);
    assert_eq!(rows, want);
    // The workers filled the partition fields from the splits.
    assert_eq!(rows[0].date, "2026-01-01");
    assert_eq!(rows.last().unwrap().date, "2026-01-03");
    assert_eq!(rows.last().unwrap().part, 9);
    assert_eq!(received[1].partitions.get("part"), Some("0"));

    // A split whose partition value does not parse fails with the file's name.
    let mut bad = received[0].clone();
    bad.partitions = [("date", "2026-01-01"), ("part", "-1")]
        .into_iter()
        .collect();
    let err = bad
        .with_store(Arc::clone(&store))
        .rows::<Tick>()
        .collect_blocking()
        .unwrap_err()
        .to_string();
    assert!(
        err.contains(&bad.location) && err.contains("`part=-1`"),
        "{err}"
    );

    // A split of a file that changed since is refused.
    let mut stale = received[0].clone();
    stale.file_len += 1;
    let err = stale
        .with_store(Arc::clone(&store))
        .rows::<Ts>()
        .collect_blocking()
        .unwrap_err()
        .to_string();
    assert!(err.contains("the file changed"), "{err}");
    // So is one whose file has the same length and another ETag.
    let mut stale = received[0].clone();
    assert!(stale.e_tag.is_some(), "the split carries the file's ETag");
    stale.e_tag = Some("another".to_owned());
    let err = stale
        .with_store(store)
        .rows::<Ts>()
        .collect_blocking()
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("the ETag") && err.contains("the file changed"),
        "{err}"
    );
}

#[test]
fn a_typed_query_reads_only_matching_rows_and_opens_the_rest_only_for_footers() {
    let (store, counts) = store();
    let dataset = Dataset::open_blocking(store, "flat").unwrap();
    counts.reset();
    let (low, high) = (41_060, 43_010);
    let rows: Vec<Ts> = dataset
        .rows()
        .filter(Ts::filter().ts().between(low, high))
        .collect_blocking()
        .unwrap();
    let want: Vec<i64> = (41..=43)
        .flat_map(|n| (0..2 * ROWS as i64).map(move |i| n * 1000 + i))
        .filter(|ts| (low..=high).contains(ts))
        .collect();
    assert_eq!(rows.iter().map(|r| r.ts).collect::<Vec<_>>(), want);
    // Files whose statistics rule every row group out cost their footer.
    let locations = counts.locations();
    for n in (0..100).filter(|n| !(41..=43).contains(n)) {
        let name = format!("flat/{n:03}.parquet");
        assert_eq!(
            locations.iter().filter(|l| **l == name).count(),
            1,
            "{name}"
        );
    }
    // The window applies to the dataset's matching rows, across files.
    let window: Vec<Ts> = dataset
        .rows()
        .filter(Ts::filter().ts().between(low, high).offset(38).limit(5))
        .collect_blocking()
        .unwrap();
    assert_eq!(
        window.iter().map(|r| r.ts).collect::<Vec<_>>(),
        [41_098, 41_099, 42_000, 42_001, 42_002]
    );
}

/// A dataset's `batches` and `stream` give the rows of `collect`, file by
/// file, and stop opening files once the window's limit is reached.
#[test]
fn dataset_streams_give_the_rows_of_collect_and_stop_at_the_limit() {
    let (store, counts) = store();
    let dataset = Dataset::open_blocking(store, "ticks").unwrap();
    let query = || Tick::filter().date().le(date(1)).part().ge(8);
    let want: Vec<Tick> = dataset.rows().filter(query()).collect_blocking().unwrap();
    assert_eq!(want.len(), 2 * 2 * 2 * ROWS); // 2 dates x 2 parts x 100 rows
    let groups: Vec<Vec<Tick>> = dataset
        .rows()
        .filter(query())
        .batches_blocking()
        .unwrap()
        .collect::<parquet_rows::Result<_>>()
        .unwrap();
    assert_eq!(groups.len(), 2 * 2 * 2, "a batch per row group");
    assert_eq!(groups.concat(), want);
    let rows: Vec<Tick> = dataset
        .rows()
        .filter(query())
        .offset(70)
        .limit(60)
        .stream_blocking()
        .unwrap()
        .collect::<parquet_rows::Result<_>>()
        .unwrap();
    assert_eq!(rows, want[70..130]);
    // Rows 70..130 lie in the first two files: the stream opens no other.
    counts.reset();
    let first: Vec<Tick> = dataset
        .rows()
        .limit(150)
        .stream_blocking()
        .unwrap()
        .collect::<parquet_rows::Result<_>>()
        .unwrap();
    assert_eq!(first.len(), 150);
    let mut opened = counts.locations();
    opened.dedup();
    assert_eq!(opened.len(), 2, "{opened:?}");
}
