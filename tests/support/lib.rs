//! Shared helpers for the integration tests, benches and examples: the tick
//! fixture (as described in the project's issue #2) and the location of the
//! parquet-testing corpus.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use parquet::basic::{Compression, ZstdLevel};
use parquet::data_type::{ByteArray, ByteArrayType, DoubleType, Int64Type};
use parquet::file::properties::WriterProperties;
use parquet::file::writer::SerializedFileWriter;
use parquet::schema::parser::parse_message_type;
use parquet_rows::ParquetRow;

/// The tick schema from the user's report.
pub const TICK_SCHEMA: &str = "message schema {
    REQUIRED INT64 ts (TIMESTAMP_MICROS);
    REQUIRED BINARY symbol (UTF8);
    REQUIRED DOUBLE bid;
    REQUIRED DOUBLE ask;
}";

/// One tick, borrowing its symbol from the pages.
#[derive(ParquetRow, Debug, Clone, Copy, PartialEq)]
pub struct Tick<'a> {
    /// Microseconds since the epoch.
    pub ts: i64,
    /// Instrument, dictionary-encoded in the file.
    pub symbol: &'a str,
    /// Bid price.
    pub bid: f64,
    /// Ask price.
    pub ask: f64,
}

/// One tick that owns its symbol.
#[derive(ParquetRow, Debug, Clone, PartialEq)]
pub struct TickOwned {
    /// Microseconds since the epoch.
    pub ts: i64,
    /// Instrument.
    pub symbol: String,
    /// Bid price.
    pub bid: f64,
    /// Ask price.
    pub ask: f64,
}

/// The values of row `i` of the tick fixture: (ts, symbol, bid, ask).
pub fn tick_values(i: usize) -> (i64, &'static str, f64, f64) {
    let bid = 1.10000 + (i % 1000) as f64 * 1e-5;
    (1_774_000_000_000_000 + i as i64 * 137, "EURUSD", bid, bid + 0.00012)
}

/// Writes the tick fixture with `rows` rows: ZSTD, one row group, default
/// dictionary settings, `SerializedFileWriter` (as in the user's report).
pub fn write_ticks<W: std::io::Write + Send>(out: W, rows: usize) -> parquet::errors::Result<()> {
    let props = WriterProperties::builder()
        .set_compression(Compression::ZSTD(ZstdLevel::default()))
        .set_max_row_group_row_count(Some(rows.max(1)))
        .build();
    write_ticks_with(out, rows, props)
}

/// Writes the tick fixture's data with the given writer properties.
pub fn write_ticks_with<W: std::io::Write + Send>(
    out: W,
    rows: usize,
    props: WriterProperties,
) -> parquet::errors::Result<()> {
    let schema = Arc::new(parse_message_type(TICK_SCHEMA)?);
    let mut writer = SerializedFileWriter::new(out, schema, Arc::new(props))?;
    let mut ts = Vec::with_capacity(rows);
    let mut symbol = Vec::with_capacity(rows);
    let mut bid = Vec::with_capacity(rows);
    let mut ask = Vec::with_capacity(rows);
    for i in 0..rows {
        let (t, s, b, a) = tick_values(i);
        ts.push(t);
        symbol.push(ByteArray::from(s));
        bid.push(b);
        ask.push(a);
    }
    let mut rg = writer.next_row_group()?;
    let mut col = rg.next_column()?.expect("ts column");
    col.typed::<Int64Type>().write_batch(&ts, None, None)?;
    col.close()?;
    let mut col = rg.next_column()?.expect("symbol column");
    col.typed::<ByteArrayType>().write_batch(&symbol, None, None)?;
    col.close()?;
    for values in [&bid, &ask] {
        let mut col = rg.next_column()?.expect("price column");
        col.typed::<DoubleType>().write_batch(values, None, None)?;
        col.close()?;
    }
    rg.close()?;
    writer.close()?;
    Ok(())
}

/// The workspace root (where the top-level `Cargo.toml` is).
pub fn workspace_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Path of the tick fixture with `rows` rows under `target/fixtures/`, written
/// first if it does not exist yet.
pub fn tick_file(rows: usize) -> PathBuf {
    let dir = workspace_root().join("target").join("fixtures");
    std::fs::create_dir_all(&dir).expect("create target/fixtures");
    let path = dir.join(format!("ticks-{rows}.parquet"));
    if !path.exists() {
        // Write to a temporary name and rename, so a concurrent reader never
        // sees a half-written file.
        let tmp = dir.join(format!("ticks-{rows}.parquet.{}.tmp", std::process::id()));
        let file = std::fs::File::create(&tmp).expect("create tick file");
        write_ticks(file, rows).expect("write tick file");
        std::fs::rename(&tmp, &path).expect("rename tick file");
    }
    path
}

/// The parquet-testing corpus directory, from `PARQUET_TEST_DATA` or
/// `../shared/parquet-testing` beside the workspace.
///
/// Returns `None` only when `PARQUET_TEST_DATA=skip`.
///
/// # Panics
/// If the directory does not exist: a test that needs the corpus must not pass
/// silently without it.
pub fn parquet_test_data() -> Option<PathBuf> {
    let dir = match std::env::var("PARQUET_TEST_DATA") {
        Ok(v) if v == "skip" => return None,
        Ok(v) if !v.is_empty() => {
            let p = PathBuf::from(v);
            if p.is_absolute() {
                p
            } else {
                workspace_root().join(p)
            }
        }
        _ => workspace_root().join("..").join("shared").join("parquet-testing"),
    };
    assert!(
        dir.join("data").is_dir(),
        "the parquet-testing corpus was not found at {}: set PARQUET_TEST_DATA to its directory \
         (the one holding data/ and bad_data/), or to `skip` to skip the tests that need it",
        dir.display()
    );
    Some(dir)
}

/// `path` relative to the corpus, if the corpus is available.
pub fn corpus_file(relative: impl AsRef<Path>) -> Option<PathBuf> {
    parquet_test_data().map(|d| d.join(relative))
}
