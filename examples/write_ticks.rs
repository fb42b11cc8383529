//! Write market-data ticks from your own struct, streaming, then read them
//! back into it.
//!
//! ```text
//! cargo run --release -p parquet-rows --example write_ticks
//! ```
//!
//! Generates 2,000,000 ticks in batches of 10,000 (as a feed handler would
//! hand them over), writes them with `parquet_rows::Writer` into the system's
//! temporary directory (ZSTD, row groups of 500,000 rows, the page index),
//! then reads the file back with parquet-rows and checks every row.

use std::error::Error;
use std::time::Instant;

use parquet_rows::writer::Compression;
use parquet_rows::{ParquetFile, ParquetRow, WriteOptions, Writer};

/// One tick. The symbol is borrowed: the writer copies what it needs.
#[derive(ParquetRow, Debug, PartialEq)]
struct Tick<'a> {
    ts: i64,
    symbol: &'a str,
    bid: f64,
    ask: f64,
    size: u32,
    /// Set on a trade, null on a quote (an OPTIONAL column).
    venue: Option<&'a str>,
}

const ROWS: usize = 2_000_000;
const BATCH: usize = 10_000;
const SYMBOLS: [&str; 8] = [
    "EURUSD", "USDJPY", "GBPUSD", "AUDUSD", "USDCHF", "USDCAD", "NZDUSD", "EURGBP",
];

fn tick(i: usize) -> Tick<'static> {
    let bid = 1.1 + f64::from((i % 1000) as u32) * 1e-5;
    Tick {
        ts: 1_774_000_000_000_000 + i as i64 * 137,
        symbol: SYMBOLS[i % SYMBOLS.len()],
        bid,
        ask: bid + 0.00012,
        size: (i % 50) as u32 * 100,
        venue: (i % 10 == 0).then_some("XLON"),
    }
}

fn main() -> Result<(), Box<dyn Error>> {
    let path = std::env::temp_dir().join("parquet-rows-write-ticks.parquet");
    let options = WriteOptions::default()
        .compression(Compression::Zstd(1))
        .row_group_rows(500_000)
        .metadata("source", "examples/write_ticks.rs");

    let start = Instant::now();
    let mut writer = Writer::<Tick>::create(&path, options)?;
    let mut batch = Vec::with_capacity(BATCH);
    for first in (0..ROWS).step_by(BATCH) {
        batch.clear();
        batch.extend((first..first + BATCH).map(tick));
        writer.write(&batch)?;
    }
    let summary = writer.close()?;
    let elapsed = start.elapsed();
    println!(
        "wrote {} rows in {} row groups, {} bytes, in {elapsed:?} ({} ns/row)",
        summary.rows,
        summary.row_groups,
        summary.bytes,
        elapsed.as_nanos() / ROWS as u128
    );

    let file = ParquetFile::open(&path)?;
    let pages = file.load::<Tick>()?;
    let rows = pages.rows::<Tick>()?;
    assert_eq!(rows.len(), ROWS);
    for (i, row) in rows.iter().enumerate() {
        assert_eq!(*row, tick(i), "row {i}");
    }
    println!("read back {} rows, equal", rows.len());
    std::fs::remove_file(&path)?;
    Ok(())
}
