//! Round trips of remote reads (the targets): behind a store with a
//! fixed latency per request, the waves of requests each builder ending
//! makes (see `counting.rs` for what a wave is). 4 of 20 columns: the
//! footer, then the chunks. A filtered read that needs the page index: the
//! footer, then the page index (none when it lies in the bytes read at
//! open), then the pages.

use std::sync::Arc;
use std::time::Duration;

use futures_util::TryStreamExt;
use object_store::memory::InMemory;
use object_store::path::Path;
use object_store::throttle::{ThrottleConfig, ThrottledStore};
use object_store::ObjectStore;
use parquet_rows::remote::{FetchOptions, RemoteFile};
use parquet_rows::ParquetFile;

use super::counting::{Counting, Counts};
use super::filtered::{sorted_ticks, Tick, TickOwned};
use super::{put, runtime, wide_file, Adjacent, Spread, GROUPS, ROWS};

/// `bytes` at `f.parquet` behind 20 ms per request, counted.
fn throttled(bytes: bytes::Bytes) -> (Arc<dyn ObjectStore>, Arc<Counts>) {
    let memory = InMemory::new();
    put(&memory, &Path::from("f.parquet"), bytes);
    let config = ThrottleConfig {
        wait_get_per_call: Duration::from_millis(20),
        ..ThrottleConfig::default()
    };
    let counts = Arc::new(Counts::default());
    let store: Arc<dyn ObjectStore> = Arc::new(Counting {
        inner: ThrottledStore::new(memory, config),
        counts: Arc::clone(&counts),
    });
    (store, counts)
}

/// The round trips counted since the last reset, checked against the log.
fn waves(counts: &Counts) -> usize {
    assert_eq!(counts.waves(), counts.waves_from_events());
    counts.waves()
}

/// The fetch options whose first request holds the footer alone.
fn footer_only(bytes: &bytes::Bytes) -> FetchOptions {
    let n = bytes.len();
    let footer = u32::from_le_bytes(bytes[n - 8..n - 4].try_into().unwrap());
    FetchOptions::default().footer_guess(u64::from(footer) + 8)
}

#[test]
fn four_of_twenty_columns_take_two_round_trips_on_every_ending() {
    let bytes = wide_file();
    let local = ParquetFile::from_bytes(bytes.clone()).unwrap();
    let spread: Vec<Spread> = local.rows::<Spread>().collect().unwrap();
    let adjacent: Vec<Adjacent> = local.rows::<Adjacent>().collect().unwrap();
    let (store, counts) = throttled(bytes.clone());
    // Spread columns are 32 ranges (no two merge within 10% more bytes),
    // in one wave with the default of 32 requests in flight (with 16, the
    // second 16 would wait for the first: two latencies). Adjacent columns
    // are one range per row group: 8.
    let wide = FetchOptions::default();
    runtime().block_on(async {
        let open = |fetch: FetchOptions| {
            let store = Arc::clone(&store);
            async move {
                RemoteFile::open_with(store, Path::from("f.parquet"), fetch)
                    .await
                    .unwrap()
            }
        };
        let ending = |name: &str, n: usize| {
            let w = waves(&counts);
            assert_eq!(w, 2, "{name}: {w} round trips, {} requests", counts.gets());
            assert!(n > 0, "{name}");
        };
        counts.reset();
        let remote = open(wide).await;
        assert_eq!((counts.gets(), waves(&counts)), (1, 1), "the open");
        let rows = remote.rows::<Spread>().collect().await.unwrap();
        assert_eq!(rows, spread);
        assert_eq!(counts.gets(), 1 + 32);
        ending("collect", rows.len());

        counts.reset();
        let remote = open(wide).await;
        let pages = remote.rows::<Spread>().load().await.unwrap();
        assert_eq!(pages.rows::<Spread>().unwrap(), spread);
        ending("load", pages.num_rows());

        counts.reset();
        let remote = open(FetchOptions::default()).await;
        let rows = remote.rows::<Adjacent>().collect().await.unwrap();
        assert_eq!(rows, adjacent);
        assert_eq!(counts.gets(), 1 + GROUPS);
        ending("collect of adjacent columns", rows.len());

        counts.reset();
        let remote = open(FetchOptions::default()).await;
        let rows: Vec<Adjacent> = remote
            .rows::<Adjacent>()
            .threads(2)
            .collect()
            .await
            .unwrap();
        assert_eq!(rows, adjacent);
        ending("collect on 2 threads", rows.len());

        counts.reset();
        let remote = open(wide).await;
        let pages = remote.rows::<Adjacent>().load().await.unwrap();
        assert_eq!(pages.rows::<Adjacent>().unwrap(), adjacent);
        ending("load of adjacent columns", pages.num_rows());

        // A stream holds one row group at a time (two in flight): a row
        // group is one wave after the footer.
        counts.reset();
        let remote = open(wide).await;
        let rows: Vec<Spread> = remote
            .rows::<Spread>()
            .row_groups([3])
            .stream()
            .try_collect()
            .await
            .unwrap();
        assert_eq!(rows, spread[3 * ROWS..4 * ROWS]);
        ending("stream of one row group", rows.len());
        counts.reset();
        let rows: Vec<Spread> = remote
            .rows::<Spread>()
            .stream()
            .try_collect()
            .await
            .unwrap();
        assert_eq!(rows, spread);
        let w = waves(&counts);
        assert!((1..=GROUPS).contains(&w), "stream: {w} round trips");
        assert_eq!(counts.gets(), 4 * GROUPS, "a request per chunk");
    });
}

#[test]
fn a_filtered_read_needing_the_page_index_takes_two_round_trips_after_the_footer() {
    let bytes = sorted_ticks();
    let local = ParquetFile::from_bytes(bytes.clone()).unwrap();
    // Rows 31,500..33,000: row group 3 by its statistics, pages 1 to 3 of
    // each column by the page index.
    let query = || TickOwned::filter().ts().in_range(315_000..330_000);
    let want: Vec<TickOwned> = local.rows::<TickOwned>().filter(query()).collect().unwrap();
    assert_eq!(want.len(), 1_500);
    let borrowed = || Tick::filter().ts().in_range(315_000..330_000);
    let (store, counts) = throttled(bytes.clone());
    runtime().block_on(async {
        // The page indexes lie in the last 64 KiB, read at open: served
        // from them, so the pages are the only wave after the footer. With
        // a first request of the footer alone, the page index is a wave of
        // its own: two after the footer.
        for (fetch, after_footer) in [(FetchOptions::default(), 1), (footer_only(&bytes), 2)] {
            let open = || async {
                RemoteFile::open_with(Arc::clone(&store), Path::from("f.parquet"), fetch)
                    .await
                    .unwrap()
            };
            let check = |name: &str| {
                let w = waves(&counts);
                assert_eq!(
                    w,
                    1 + after_footer,
                    "{name}: {w} round trips ({} requests)",
                    counts.gets()
                );
            };
            counts.reset();
            let remote = open().await;
            let rows = remote
                .rows::<TickOwned>()
                .filter(query())
                .collect()
                .await
                .unwrap();
            assert_eq!(rows, want);
            check("collect");

            counts.reset();
            let remote = open().await;
            let pages = remote
                .rows::<Tick>()
                .filter(borrowed())
                .load()
                .await
                .unwrap();
            assert_eq!(pages.rows::<Tick>().unwrap().len(), want.len());
            check("load");

            counts.reset();
            let remote = open().await;
            let rows: Vec<TickOwned> = remote
                .rows::<TickOwned>()
                .filter(query())
                .stream()
                .try_collect()
                .await
                .unwrap();
            assert_eq!(rows, want);
            check("stream");

            counts.reset();
            let remote = open().await;
            let groups: Vec<Vec<TickOwned>> = remote
                .rows::<TickOwned>()
                .filter(query())
                .batches()
                .try_collect()
                .await
                .unwrap();
            assert_eq!(groups.concat(), want);
            check("batches");
        }
    });
}

/// A file smaller than the first request is read whole by it: the read
/// costs no request after the open.
#[test]
fn a_file_inside_the_first_request_costs_one_round_trip() {
    let bytes = parquet_rows_suite::write_columns(
        "message m { REQUIRED INT64 c4; REQUIRED INT64 c5; REQUIRED INT64 c6; REQUIRED INT64 c7; }",
        parquet::file::properties::WriterProperties::builder().build(),
        &[(0..4)
            .map(|c| {
                parquet_rows_suite::ColumnValues::Int64(
                    (0..100).map(|r| Some(r * 10 + c)).collect(),
                )
            })
            .collect()],
    )
    .unwrap();
    assert!(bytes.len() < 64 << 10);
    let (store, counts) = throttled(bytes);
    runtime().block_on(async {
        let remote = RemoteFile::open(store, Path::from("f.parquet"))
            .await
            .unwrap();
        let rows: Vec<Adjacent> = remote.rows::<Adjacent>().collect().await.unwrap();
        assert_eq!(rows.len(), 100);
        assert_eq!(rows[99].c7, 993);
        assert_eq!((counts.gets(), waves(&counts)), (1, 1));
    });
}
