//! Filtered reads of a remote file (`RemoteFile::load_where`,
//! `read_where`): the same rows as the local filtered read, with row groups
//! and pages that cannot match never fetched.

use std::sync::Arc;

use bytes::Bytes;
use object_store::memory::InMemory;
use object_store::path::Path;
use object_store::ObjectStore;
use parquet::data_type::{ByteArray, ByteArrayType, Int64Type};
use parquet::file::properties::{EnabledStatistics, WriterProperties};
use parquet::file::writer::SerializedFileWriter;
use parquet::schema::parser::parse_message_type;
use parquet::schema::types::ColumnPath;
use parquet_rows::remote::RemoteFile;
use parquet_rows::{ParquetFile, ParquetRow, RowFilter};

use super::counting::{Counting, Counts};
use super::put;

const GROUPS: usize = 8;
const GROUP_ROWS: usize = 10_000;
const SYMBOLS: [&str; 3] = ["EURUSD", "GBPUSD", "USDJPY"];

#[derive(ParquetRow, Debug, Clone, PartialEq)]
struct Tick<'a> {
    ts: i64,
    symbol: &'a str,
    size: i64,
}

#[derive(ParquetRow, Debug, Clone, PartialEq)]
struct TickOwned {
    ts: i64,
    symbol: String,
    size: i64,
}

/// Ticks sorted by `ts`, 8 row groups, pages of 1,000 rows, page statistics
/// and the page index; `symbol` dictionary-encoded, the numbers PLAIN.
fn sorted_ticks() -> Bytes {
    let schema = Arc::new(
        parse_message_type(
            "message m { REQUIRED INT64 ts; REQUIRED BINARY symbol (UTF8); REQUIRED INT64 size; }",
        )
        .unwrap(),
    );
    let props = Arc::new(
        WriterProperties::builder()
            .set_statistics_enabled(EnabledStatistics::Page)
            .set_data_page_row_count_limit(1_000)
            .set_write_batch_size(1_000)
            .set_max_row_group_row_count(Some(GROUP_ROWS))
            // Distinct numbers: a dictionary page would hold every value.
            .set_column_dictionary_enabled(ColumnPath::from("ts"), false)
            .set_column_dictionary_enabled(ColumnPath::from("size"), false)
            .build(),
    );
    let mut out = Vec::new();
    let mut w = SerializedFileWriter::new(&mut out, schema, props).unwrap();
    for g in 0..GROUPS {
        let first = (g * GROUP_ROWS) as i64;
        let ts: Vec<i64> = (first..first + GROUP_ROWS as i64).map(|i| i * 10).collect();
        let symbols: Vec<ByteArray> = (0..GROUP_ROWS)
            .map(|i| SYMBOLS[(i * 7 + g) % SYMBOLS.len()].into())
            .collect();
        // Distinct sizes, so that the chunk does not compress to nothing.
        let sizes: Vec<i64> = ts
            .iter()
            .map(|t| t.wrapping_mul(2_654_435_761) % 100_003)
            .collect();
        let mut rg = w.next_row_group().unwrap();
        let mut c = rg.next_column().unwrap().unwrap();
        c.typed::<Int64Type>().write_batch(&ts, None, None).unwrap();
        c.close().unwrap();
        let mut c = rg.next_column().unwrap().unwrap();
        c.typed::<ByteArrayType>()
            .write_batch(&symbols, None, None)
            .unwrap();
        c.close().unwrap();
        let mut c = rg.next_column().unwrap().unwrap();
        c.typed::<Int64Type>()
            .write_batch(&sizes, None, None)
            .unwrap();
        c.close().unwrap();
        rg.close().unwrap();
    }
    w.close().unwrap();
    Bytes::from(out)
}

fn counted_store(bytes: Bytes) -> (Arc<dyn ObjectStore>, Arc<Counts>) {
    let memory = InMemory::new();
    put(&memory, &Path::from("ticks.parquet"), bytes);
    let counts = Arc::new(Counts::default());
    let store: Arc<dyn ObjectStore> = Arc::new(Counting {
        inner: memory,
        counts: Arc::clone(&counts),
    });
    (store, counts)
}

#[test]
fn a_ts_range_fetches_a_few_pages_of_one_row_group() {
    let bytes = sorted_ticks();
    let local = ParquetFile::from_bytes(bytes.clone()).unwrap();
    let (store, counts) = counted_store(bytes.clone());
    let remote = RemoteFile::open_blocking(store, Path::from("ticks.parquet")).unwrap();
    let opened = (counts.gets(), counts.bytes());
    // Rows 31,500..33,000: row group 3, pages 1 to 3 of each column.
    let query = || Tick::filter().ts().in_range(315_000..330_000);
    let pages = remote.load_where_blocking::<Tick>(query()).unwrap();
    let got: Vec<Tick<'_>> = pages.rows().unwrap();
    let local_pages = local.rows::<Tick>().filter(query()).load().unwrap();
    let want: Vec<Tick<'_>> = local_pages.rows().unwrap();
    assert_eq!(got.len(), 1_500);
    assert_eq!(got, want);
    // The statistics leave one row group: its probes (the page indexes of
    // three columns) in one round of requests, then its pages in another.
    let fetched = counts.bytes() - opened.1;
    let one_group = (bytes.len() as u64) / GROUPS as u64;
    assert!(
        fetched < one_group / 2,
        "{fetched} bytes fetched; a row group is about {one_group}"
    );
    assert!(
        counts.gets() - opened.0 <= 8,
        "{} requests",
        counts.gets() - opened.0
    );

    // The page indexes lie in the last 64 KiB read at open, and are served
    // from them: no request after the open reads there.
    let tail = bytes.len() as u64 - (64 << 10);
    let after_open = &counts.ranges()[opened.0..];
    assert!(after_open.iter().all(|r| r.end <= tail), "{after_open:?}");
    // Opened with a first request of the footer alone, the same read
    // fetches the page indexes too.
    let footer_len = u64::from(u32::from_le_bytes(
        bytes[bytes.len() - 8..bytes.len() - 4].try_into().unwrap(),
    ));
    let (store, small) = counted_store(bytes.clone());
    let fetch = parquet_rows::remote::FetchOptions::default().footer_guess(footer_len + 8);
    let remote_small =
        RemoteFile::open_with_blocking(store, Path::from("ticks.parquet"), fetch).unwrap();
    let gets = small.gets();
    let small_pages = remote_small.load_where_blocking::<Tick>(query()).unwrap();
    assert_eq!(small_pages.rows::<Tick>().unwrap(), want);
    assert!(
        small.gets() - gets > counts.gets() - opened.0,
        "{} requests without the tail, {} with it",
        small.gets() - gets,
        counts.gets() - opened.0
    );

    // Owned rows, through `read_where`: the same rows.
    let owned: Vec<TickOwned> = remote
        .read_where_blocking(TickOwned::filter().ts().in_range(315_000..330_000))
        .unwrap();
    assert_eq!(owned.len(), 1_500);
    assert!(owned
        .iter()
        .zip(&want)
        .all(|(o, w)| o.ts == w.ts && o.symbol == w.symbol && o.size == w.size));
}

#[test]
fn a_symbol_absent_from_the_dictionaries_fetches_no_data_page() {
    let bytes = sorted_ticks();
    let (store, counts) = counted_store(bytes.clone());
    let remote = RemoteFile::open_blocking(store, Path::from("ticks.parquet")).unwrap();
    let opened = counts.bytes();
    let pages = remote
        .load_where_blocking::<Tick>(Tick::filter().symbol().eq("GBPJPY"))
        .unwrap();
    assert_eq!(pages.num_rows(), 0);
    assert!(pages.rows::<Tick>().unwrap().is_empty());
    // Inside every row group's min/max (EURUSD..USDJPY), so the probes are
    // fetched: the dictionary pages and page indexes of 8 row groups, small
    // beside the data pages, none of which is fetched.
    let fetched = counts.bytes() - opened;
    assert!(fetched > 0, "the dictionaries were read");
    assert!(
        fetched < bytes.len() as u64 / 20,
        "{fetched} bytes fetched of a {}-byte file",
        bytes.len()
    );
    // A present symbol: every row group, every row of it.
    let pages = remote
        .load_where_blocking::<Tick>(Tick::filter().symbol().eq("GBPUSD"))
        .unwrap();
    let rows: Vec<Tick<'_>> = pages.rows().unwrap();
    let want = (0..GROUPS)
        .flat_map(|g| (0..GROUP_ROWS).map(move |i| SYMBOLS[(i * 7 + g) % SYMBOLS.len()]))
        .filter(|s| *s == "GBPUSD")
        .count();
    assert_eq!(rows.len(), want);
    assert!(rows.iter().all(|t| t.symbol == "GBPUSD"));
}

#[test]
fn streams_give_one_item_per_row_group_and_stop_at_the_limit() {
    use futures_util::TryStreamExt;
    let bytes = sorted_ticks();
    let (store, counts) = counted_store(bytes);
    super::runtime().block_on(async {
        let remote = RemoteFile::open(store, Path::from("ticks.parquet"))
            .await
            .unwrap();
        let groups: Vec<Vec<TickOwned>> = remote.stream::<TickOwned>().try_collect().await.unwrap();
        assert_eq!(groups.len(), GROUPS);
        assert!(groups.iter().all(|g| g.len() == GROUP_ROWS));
        let ts: Vec<i64> = groups.iter().flatten().map(|t| t.ts).collect();
        assert_eq!(
            ts,
            (0..(GROUPS * GROUP_ROWS) as i64)
                .map(|i| i * 10)
                .collect::<Vec<_>>()
        );

        // Every row group matches `ts >= 0`: the requests of a full read.
        counts.reset();
        let every: Vec<Vec<TickOwned>> = remote
            .stream_where(TickOwned::filter().ts().ge(0))
            .try_collect()
            .await
            .unwrap();
        assert_eq!(
            every.iter().map(Vec::len).sum::<usize>(),
            GROUPS * GROUP_ROWS
        );
        let full = counts.gets();

        // Rows 9,900..20,100 match: 100 in row group 0, 10,000 in 1, 101 in
        // 2; the statistics rule out row groups 3 to 7, which cost nothing.
        let query = || TickOwned::filter().ts().between(99_000, 201_000);
        counts.reset();
        let all: Vec<Vec<TickOwned>> = remote.stream_where(query()).try_collect().await.unwrap();
        assert_eq!(
            all.iter().map(Vec::len).collect::<Vec<_>>(),
            [100, 10_000, 101]
        );
        let three = counts.gets();
        assert!(
            three < full,
            "{three} requests for 3 row groups, {full} for 8"
        );
        // The window spans row groups; the stream ends at the limit.
        counts.reset();
        let window: Vec<Vec<TickOwned>> = remote
            .stream_where(query().offset(50).limit(200))
            .try_collect()
            .await
            .unwrap();
        assert_eq!(window.iter().map(Vec::len).collect::<Vec<_>>(), [50, 150]);
        assert_eq!(window[0][0].ts, (9_900 + 50) * 10);
        assert!(counts.gets() <= three);
    });
}
