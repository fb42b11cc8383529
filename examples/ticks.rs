//! Decode a Parquet file of market-data ticks into your own struct.
//!
//! ```text
//! cargo run --release --example ticks
//! ```
//!
//! Writes a 370,000-row tick file under `target/fixtures/` (once), decodes it
//! into `Vec<Tick>` with parquet-rows, prints a few rows, and times the same job
//! with the `parquet` crate's record API. This is a demo; the benchmark is
//! `cargo bench --bench ticks`.

use std::error::Error;
use std::time::{Duration, Instant};

use parquet::file::reader::{FileReader, SerializedFileReader};
use parquet::record::RowAccessor;
use parquet_rows::{ParquetFile, ParquetRow};

/// One row of the file. Fields are matched to columns by name, once per file.
#[derive(ParquetRow)]
struct Tick<'a> {
    ts: i64,         // INT64 (TIMESTAMP_MICROS)
    symbol: &'a str, // BYTE_ARRAY (UTF8): borrows the decompressed dictionary page
    bid: f64,        // DOUBLE
    ask: f64,        // DOUBLE
}

const ROWS: u32 = 370_000;

fn main() -> Result<(), Box<dyn Error>> {
    // ts INT64, symbol BYTE_ARRAY, bid DOUBLE, ask DOUBLE; ZSTD, one row group.
    // (`tick_file` is this repository's test helper, in tests/support/lib.rs.)
    let path = parquet_rows_suite::tick_file(ROWS as usize);
    println!("file: {}", path.display());

    // Open (reads the footer), load the pages of the columns `Tick` reads,
    // and decode them into rows that borrow those pages.
    let file = ParquetFile::open(&path)?;
    let pages = file.load::<Tick>()?;
    let ticks: Vec<Tick<'_>> = pages.rows()?;

    println!("rows: {}", ticks.len());
    for t in &ticks[..3] {
        println!(
            "  ts {}  {}  bid {:.5}  ask {:.5}",
            t.ts, t.symbol, t.bid, t.ask
        );
    }

    // Time the whole job, open to Vec, both ways; best of a few runs.
    let ours = best_of(5, || {
        let file = ParquetFile::open(&path)?;
        let pages = file.load::<Tick>()?;
        let ticks: Vec<Tick<'_>> = pages.rows()?;
        Ok(ticks.len())
    })?;
    let record_api = best_of(5, || {
        let reader = SerializedFileReader::new(std::fs::File::open(&path)?)?;
        let mut ticks = Vec::new();
        for row in reader.get_row_iter(None)? {
            let row = row?;
            ticks.push((
                row.get_timestamp_micros(0)?, // `get_long` fails: the column is a timestamp
                row.get_string(1)?.clone(),
                row.get_double(2)?,
                row.get_double(3)?,
            ));
        }
        Ok(ticks.len())
    })?;

    let per_row = |d: Duration| d.as_secs_f64() * 1e9 / f64::from(ROWS);
    println!("decode, ns/row (open to Vec, best of 5):");
    for (how, time) in [
        ("parquet-rows, Vec<Tick<'_>>", ours),
        ("parquet record API, get_row_iter + get_*", record_api),
    ] {
        println!("  {how:<42} {:6.1}", per_row(time));
    }
    println!(
        "  parquet-rows is {:.1}x faster",
        record_api.as_secs_f64() / ours.as_secs_f64()
    );
    Ok(())
}

/// The shortest of `runs` timings of `job`, which must decode all `ROWS` rows.
fn best_of(
    runs: usize,
    mut job: impl FnMut() -> Result<usize, Box<dyn Error>>,
) -> Result<Duration, Box<dyn Error>> {
    let mut best = Duration::MAX;
    for _ in 0..runs {
        let start = Instant::now();
        let rows = job()?;
        best = best.min(start.elapsed());
        assert_eq!(rows, ROWS as usize, "every row decoded");
    }
    Ok(best)
}
