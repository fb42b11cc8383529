//! Decode a Parquet file of market-data ticks into your own struct.
//!
//! ```text
//! cargo run --release -p parquet-rows --example ticks
//! ```
//!
//! Writes a 370,000-row tick file with the `parquet` crate's writer (into the
//! system's temporary directory), decodes it into `Vec<Tick>` with
//! parquet-rows, checks every row against the `parquet` crate's record API,
//! and times both. Everything here uses only `parquet-rows` and the `parquet`
//! crate it re-exports, so the program can be copied as it is.

use std::error::Error;
use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

use parquet_rows::parquet;
use parquet_rows::{ParquetFile, ParquetRow};

use parquet::basic::Compression;
use parquet::data_type::{ByteArray, ByteArrayType, DoubleType, Int64Type};
use parquet::file::properties::WriterProperties;
use parquet::file::reader::{FileReader, SerializedFileReader};
use parquet::file::writer::SerializedFileWriter;
use parquet::record::RowAccessor;
use parquet::schema::parser::parse_message_type;

/// One row of the file. Fields are matched to columns by name, once per file.
#[derive(ParquetRow, Debug, PartialEq)]
struct Tick<'a> {
    ts: i64,         // INT64 (TIMESTAMP_MICROS)
    symbol: &'a str, // BYTE_ARRAY (UTF8): borrows the decompressed dictionary page
    bid: f64,        // DOUBLE
    ask: f64,        // DOUBLE
}

const ROWS: u32 = 370_000;

fn main() -> Result<(), Box<dyn Error>> {
    let path = std::env::temp_dir().join(format!("ticks-{ROWS}.parquet"));
    write_ticks(&path, ROWS)?;
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

    // The same rows through the record API, compared one by one.
    let records = record_api(&path)?;
    assert_eq!(records.len(), ticks.len());
    for (i, (t, (ts, symbol, bid, ask))) in ticks.iter().zip(&records).enumerate() {
        let same = Tick {
            ts: *ts,
            symbol,
            bid: *bid,
            ask: *ask,
        };
        assert_eq!(*t, same, "row {i}");
    }
    println!("every row equals the record API's");

    // Time the whole job, open to Vec, both ways; best of a few runs.
    let ours = best_of(5, || {
        let file = ParquetFile::open(&path)?;
        let pages = file.load::<Tick>()?;
        let ticks: Vec<Tick<'_>> = pages.rows()?;
        Ok(ticks.len())
    })?;
    let theirs = best_of(5, || Ok(record_api(&path)?.len()))?;

    let per_row = |d: Duration| d.as_secs_f64() * 1e9 / f64::from(ROWS);
    println!("decode, ns/row (open to Vec, best of 5):");
    for (how, time) in [
        ("parquet-rows, Vec<Tick<'_>>", ours),
        ("parquet record API, get_row_iter + get_*", theirs),
    ] {
        println!("  {how:<42} {:6.1}", per_row(time));
    }
    println!(
        "  parquet-rows is {:.1}x faster",
        theirs.as_secs_f64() / ours.as_secs_f64()
    );
    Ok(())
}

/// Writes `rows` ticks to `path`: ts, symbol, bid, ask; SNAPPY (pyarrow's default), one row group.
fn write_ticks(path: &Path, rows: u32) -> Result<(), Box<dyn Error>> {
    let schema = parse_message_type(
        "message schema {
            REQUIRED INT64 ts (TIMESTAMP_MICROS);
            REQUIRED BINARY symbol (UTF8);
            REQUIRED DOUBLE bid;
            REQUIRED DOUBLE ask;
        }",
    )?;
    let props = WriterProperties::builder()
        .set_compression(Compression::SNAPPY)
        .set_max_row_group_row_count(Some(rows as usize))
        .build();
    let ts: Vec<i64> = (0..rows)
        .map(|i| 1_774_000_000_000_000 + i64::from(i) * 137)
        .collect();
    let symbol = vec![ByteArray::from("EURUSD"); rows as usize];
    let bid: Vec<f64> = (0..rows)
        .map(|i| 1.1 + f64::from(i % 1000) * 1e-5)
        .collect();
    let ask: Vec<f64> = bid.iter().map(|b| b + 0.00012).collect();

    let file = std::fs::File::create(path)?;
    let mut writer = SerializedFileWriter::new(file, Arc::new(schema), Arc::new(props))?;
    let mut group = writer.next_row_group()?;
    let mut column = group.next_column()?.ok_or("no `ts` column")?;
    column.typed::<Int64Type>().write_batch(&ts, None, None)?;
    column.close()?;
    let mut column = group.next_column()?.ok_or("no `symbol` column")?;
    column
        .typed::<ByteArrayType>()
        .write_batch(&symbol, None, None)?;
    column.close()?;
    for values in [&bid, &ask] {
        let mut column = group.next_column()?.ok_or("no price column")?;
        column
            .typed::<DoubleType>()
            .write_batch(values, None, None)?;
        column.close()?;
    }
    group.close()?;
    writer.close()?;
    Ok(())
}

/// A row as the record API gives it: ts, symbol, bid, ask.
type Record = (i64, String, f64, f64);

/// The file's rows through the `parquet` crate's record API.
fn record_api(path: &Path) -> Result<Vec<Record>, Box<dyn Error>> {
    let reader = SerializedFileReader::new(std::fs::File::open(path)?)?;
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
    Ok(ticks)
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
