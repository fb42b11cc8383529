//! Read ticks from an object store: only the footer and the column chunks
//! (or, with a filter, the row groups and pages) a query needs are fetched,
//! by byte range.
//!
//! ```text
//! cargo run --release -p parquet-rows --example remote --features object_store
//! ```
//!
//! Writes a tick file of 500,000 rows into an `object_store` `InMemory`
//! store and reads it back through the store. `AmazonS3`,
//! `GoogleCloudStorage`, `MicrosoftAzure`, `HttpStore` or `LocalFileSystem`
//! (each behind a feature of `object_store` in your own `Cargo.toml`) take
//! its place unchanged: `RemoteFile` sees only an `Arc<dyn ObjectStore>`.
//! Outside async code, the blocking twins (`RemoteFile::open_blocking`,
//! `collect_blocking`, ...) run these on a runtime of their own.

use std::error::Error;
use std::sync::Arc;

use object_store::memory::InMemory;
use object_store::path::Path;
use object_store::{ObjectStore, ObjectStoreExt};
use parquet_rows::remote::RemoteFile;
use parquet_rows::{ParquetRow, WriteOptions, Writer};

#[derive(ParquetRow, Debug, Clone, PartialEq)]
struct Tick<'a> {
    ts: i64,
    symbol: &'a str,
    bid: f64,
    ask: f64,
}

/// The owned rows a filtered remote read returns.
#[derive(ParquetRow, Debug, Clone, PartialEq)]
struct Quote {
    ts: i64,
    symbol: String,
    bid: f64,
}

const ROWS: usize = 500_000;
const SYMBOLS: [&str; 4] = ["EURUSD", "USDJPY", "GBPUSD", "AUDUSD"];

fn tick(i: usize) -> Tick<'static> {
    let bid = 1.1 + f64::from((i % 1000) as u32) * 1e-5;
    Tick {
        ts: 1_774_000_000_000_000 + i as i64 * 137,
        symbol: SYMBOLS[i % SYMBOLS.len()],
        bid,
        ask: bid + 0.00012,
    }
}

fn main() -> Result<(), Box<dyn Error>> {
    let runtime = tokio::runtime::Builder::new_current_thread().build()?;
    runtime.block_on(run())
}

async fn run() -> Result<(), Box<dyn Error>> {
    // A file of 5 row groups, written into memory and put into the store.
    let options = WriteOptions::default().row_group_rows(100_000);
    let mut writer = Writer::<Tick, Vec<u8>>::new(Vec::new(), options)?;
    writer.write(&(0..ROWS).map(tick).collect::<Vec<_>>())?;
    let (_, bytes) = writer.finish()?;
    let store: Arc<dyn ObjectStore> = Arc::new(InMemory::new());
    let location = Path::from("ticks/2026-03-20.parquet");
    store.put(&location, bytes.into()).await?;

    // One request for the footer.
    let remote = RemoteFile::open(store, location).await?;
    let meta = remote.metadata();
    println!(
        "{} rows in {} row groups",
        meta.file_metadata().num_rows(),
        meta.num_row_groups()
    );

    // Borrowed rows of every row group: the `ts`, `symbol`, `bid` and `ask`
    // chunks, fetched in coalesced ranges, then decoded as a local file is.
    let file = remote.fetch::<Tick>().await?;
    let pages = file.load::<Tick>()?;
    let ticks: Vec<Tick<'_>> = pages.rows()?;
    assert_eq!(ticks.len(), ROWS);
    assert_eq!(ticks[ROWS - 1], tick(ROWS - 1));

    // One symbol in the last 50,000 ticks: the statistics rule out the
    // first four row groups, which are not fetched.
    let from = tick(ROWS - 50_000).ts;
    let late: Vec<Quote> = remote
        .rows::<Quote>()
        .filter(Quote::filter().ts().ge(from).symbol().eq("GBPUSD"))
        .collect()
        .await?;
    let want = ticks
        .iter()
        .filter(|t| t.ts >= from && t.symbol == "GBPUSD")
        .count();
    assert_eq!(late.len(), want);
    assert!(late.iter().all(|q| q.ts >= from && q.symbol == "GBPUSD"));
    println!("GBPUSD in the last 50,000 ticks: {} rows", late.len());
    Ok(())
}
