//! Read only the ticks a query asks for, with the typed filter that
//! `#[derive(ParquetRow)]` generates.
//!
//! ```text
//! cargo run --release -p parquet-rows --example filters
//! ```
//!
//! Writes 1,000,000 ticks of 8 symbols (time-sorted, row groups of 100,000
//! rows, with the page index) into the system's temporary directory, then
//! counts the rows of three queries: read with a filter (statistics, the
//! dictionary, bloom filters and the page index skip what cannot match, see
//! docs/filters.md), and checked against the full read filtered in Rust.

use std::error::Error;
use std::time::Instant;

use parquet_rows::{ParquetFile, ParquetRow, RowFilter, WriteOptions, Writer};

#[derive(ParquetRow, Debug, Clone, PartialEq)]
struct Tick<'a> {
    ts: i64,
    symbol: &'a str,
    bid: f64,
    ask: f64,
    size: i32,
}

/// The same tick, owning its symbol: for `read_where` and `stream_where`,
/// which return rows that outlive the pages.
#[derive(ParquetRow, Debug, Clone, PartialEq)]
struct Quote {
    ts: i64,
    symbol: String,
    size: i32,
}

const ROWS: usize = 1_000_000;
const START: i64 = 1_774_000_000_000_000; // microseconds since the epoch
const STEP: i64 = 137; // microseconds between ticks
const SYMBOLS: [&str; 8] = [
    "EURUSD", "USDJPY", "GBPUSD", "AUDUSD", "USDCHF", "USDCAD", "NZDUSD", "EURGBP",
];

fn tick(i: usize) -> Tick<'static> {
    let bid = 1.1 + f64::from((i % 1000) as u32) * 1e-5;
    Tick {
        ts: START + i as i64 * STEP,
        symbol: SYMBOLS[(i * 7 + i / 3) % SYMBOLS.len()],
        bid,
        ask: bid + 0.00012,
        size: ((i * 31) % 100) as i32 * 100,
    }
}

fn main() -> Result<(), Box<dyn Error>> {
    let path = std::env::temp_dir().join("parquet-rows-filters.parquet");
    let mut writer =
        Writer::<Tick>::create(&path, WriteOptions::default().row_group_rows(100_000))?;
    let batch: Vec<Tick<'_>> = (0..ROWS).map(tick).collect();
    writer.write(&batch)?;
    writer.close()?;
    let file = ParquetFile::open(&path)?;
    println!(
        "file: {} ({} rows, {} row groups)",
        path.display(),
        file.num_rows(),
        file.num_row_groups()
    );

    // The whole file, for the checks below.
    let pages = file.load::<Tick>()?;
    let all: Vec<Tick<'_>> = pages.rows()?;

    // 1. One symbol in a window of about 10 seconds: borrowed rows of the
    //    row groups and pages that may hold the window.
    let (from, to) = (START + 500_000 * STEP, START + 573_000 * STEP);
    let start = Instant::now();
    let window = file
        .rows::<Tick>()
        .filter(Tick::filter().ts().in_range(from..to).symbol().eq("EURUSD"))
        .load()?;
    let eurusd: Vec<Tick<'_>> = window.rows()?;
    let took = start.elapsed();
    let want = all
        .iter()
        .filter(|t| (from..to).contains(&t.ts) && t.symbol == "EURUSD")
        .count();
    assert_eq!(eurusd.len(), want);
    assert!(eurusd
        .iter()
        .all(|t| (from..to).contains(&t.ts) && t.symbol == "EURUSD"));
    println!(
        "EURUSD in the window:     {:>7} rows ({took:?})",
        eurusd.len()
    );

    // 2. Large trades of any symbol, owned rows.
    let large: Vec<Quote> = file
        .rows()
        .filter(Quote::filter().size().ge(9_000))
        .collect()?;
    let want = all.iter().filter(|t| t.size >= 9_000).count();
    assert_eq!(large.len(), want);
    println!("size >= 9000:             {:>7} rows", large.len());

    // 3. A symbol the file does not hold: the dictionaries (or bloom
    //    filters) rule out every row group; nothing is decoded.
    let none = file
        .rows::<Quote>()
        .filter(Quote::filter().symbol().eq("XAUUSD"))
        .stream()?
        .count();
    assert_eq!(none, 0);
    println!("XAUUSD:                   {none:>7} rows");

    // A window over the matches: the 11th to 15th EURUSD ticks after `from`.
    let window_of_five: Vec<Quote> = file
        .rows()
        .filter(
            Quote::filter()
                .ts()
                .ge(from)
                .symbol()
                .eq("EURUSD")
                .offset(10)
                .limit(5),
        )
        .collect()?;
    assert_eq!(window_of_five.len(), 5);
    println!(
        "5 EURUSD ticks after 10 skipped: first at ts {}",
        window_of_five[0].ts
    );

    std::fs::remove_file(&path)?;
    Ok(())
}
