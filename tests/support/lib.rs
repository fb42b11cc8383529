//! Shared helpers for the integration tests, benches and examples: the tick
//! fixture (as described in the project's issue #2) and the location of the
//! parquet-testing corpus.
//!
//! The nested tests' machinery has a module each: [`rng`] (deterministic
//! values), [`shred`] (values into levels), [`nested_writer`] (files under
//! every writer setting), [`pagewriter`] (hand-encoded v1 pages), [`record`]
//! (the `parquet` record API as an independent reader); [`panics`] keeps the
//! panics of corrupt-input tests quiet.

pub mod footer_edit;
pub mod nested_writer;
pub mod pagewriter;
pub mod panics;
pub mod record;
pub mod rng;
pub mod shred;

use std::path::{Path, PathBuf};
use std::sync::Arc;

use parquet::basic::{Compression, ZstdLevel};
use parquet::data_type::{ByteArray, ByteArrayType, DoubleType, Int64Type};
use parquet::file::properties::WriterProperties;
use parquet::file::writer::SerializedFileWriter;
use parquet::schema::parser::parse_message_type;
use parquet_rows::ParquetRow;

pub mod handmade;

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
    let bid = 1.10000 + f64::from((i % 1000) as u32) * 1e-5;
    (
        1_774_000_000_000_000 + i as i64 * 137,
        "EURUSD",
        bid,
        bid + 0.00012,
    )
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
///
/// # Panics
/// Never in practice: only if the tick schema had fewer columns than written.
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
    col.typed::<ByteArrayType>()
        .write_batch(&symbol, None, None)?;
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
///
/// # Panics
/// If the file cannot be written.
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
        _ => workspace_root()
            .join("..")
            .join("shared")
            .join("parquet-testing"),
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

/// The values of one column for [`write_columns`]; `None` is a null.
///
/// The definition levels are derived from the column's schema: `None` is
/// written as a null in an OPTIONAL column and is an error in a REQUIRED one.
#[derive(Debug, Clone, PartialEq)]
pub enum ColumnValues {
    /// BOOLEAN.
    Bool(Vec<Option<bool>>),
    /// INT32 (whatever its annotation).
    Int32(Vec<Option<i32>>),
    /// INT64 (whatever its annotation).
    Int64(Vec<Option<i64>>),
    /// FLOAT.
    Float(Vec<Option<f32>>),
    /// DOUBLE.
    Double(Vec<Option<f64>>),
    /// BYTE_ARRAY or FIXED_LEN_BYTE_ARRAY (raw bytes, written as given: no UTF-8 check).
    Bytes(Vec<Option<Vec<u8>>>),
}

impl ColumnValues {
    /// Number of values (nulls included).
    pub fn len(&self) -> usize {
        match self {
            ColumnValues::Bool(v) => v.len(),
            ColumnValues::Int32(v) => v.len(),
            ColumnValues::Int64(v) => v.len(),
            ColumnValues::Float(v) => v.len(),
            ColumnValues::Double(v) => v.len(),
            ColumnValues::Bytes(v) => v.len(),
        }
    }

    /// Whether there are no values.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// Splits `values` into the non-null values and, for an OPTIONAL column
/// (`max_def > 0`), the definition levels.
fn split_nulls<T: Clone>(
    values: &[Option<T>],
    max_def: i16,
) -> parquet::errors::Result<(Vec<T>, Option<Vec<i16>>)> {
    let dense: Vec<T> = values.iter().flatten().cloned().collect();
    if max_def == 0 {
        if dense.len() != values.len() {
            return Err(parquet::errors::ParquetError::General(
                "a null in a REQUIRED column".into(),
            ));
        }
        return Ok((dense, None));
    }
    let defs = values.iter().map(|v| i16::from(v.is_some())).collect();
    Ok((dense, Some(defs)))
}

/// Writes a file in memory with `SerializedFileWriter`: `schema` in the
/// message-type syntax of `parse_message_type`, one entry per row group, each
/// holding one [`ColumnValues`] per leaf column in schema order.
///
/// Every column is written with one `write_batch` call; the writer splits it
/// into pages as `props` says (`set_write_batch_size`, page limits, ...).
pub fn write_columns(
    schema: &str,
    props: WriterProperties,
    row_groups: &[Vec<ColumnValues>],
) -> parquet::errors::Result<bytes::Bytes> {
    use parquet::column::writer::ColumnWriter;
    use parquet::data_type::FixedLenByteArray;
    use parquet::errors::ParquetError;

    let schema = Arc::new(parse_message_type(schema)?);
    let descr = parquet::schema::types::SchemaDescriptor::new(schema.clone());
    let mut buf = Vec::new();
    let mut writer = SerializedFileWriter::new(&mut buf, schema, Arc::new(props))?;
    for columns in row_groups {
        if columns.len() != descr.num_columns() {
            return Err(ParquetError::General(format!(
                "{} columns given, the schema has {}",
                columns.len(),
                descr.num_columns()
            )));
        }
        let mut rg = writer.next_row_group()?;
        for (i, values) in columns.iter().enumerate() {
            let max_def = descr.column(i).max_def_level();
            let mut col = rg
                .next_column()?
                .ok_or_else(|| ParquetError::General("fewer columns than values".into()))?;
            match (col.untyped(), values) {
                (ColumnWriter::BoolColumnWriter(w), ColumnValues::Bool(v)) => {
                    let (dense, defs) = split_nulls(v, max_def)?;
                    w.write_batch(&dense, defs.as_deref(), None)?;
                }
                (ColumnWriter::Int32ColumnWriter(w), ColumnValues::Int32(v)) => {
                    let (dense, defs) = split_nulls(v, max_def)?;
                    w.write_batch(&dense, defs.as_deref(), None)?;
                }
                (ColumnWriter::Int64ColumnWriter(w), ColumnValues::Int64(v)) => {
                    let (dense, defs) = split_nulls(v, max_def)?;
                    w.write_batch(&dense, defs.as_deref(), None)?;
                }
                (ColumnWriter::FloatColumnWriter(w), ColumnValues::Float(v)) => {
                    let (dense, defs) = split_nulls(v, max_def)?;
                    w.write_batch(&dense, defs.as_deref(), None)?;
                }
                (ColumnWriter::DoubleColumnWriter(w), ColumnValues::Double(v)) => {
                    let (dense, defs) = split_nulls(v, max_def)?;
                    w.write_batch(&dense, defs.as_deref(), None)?;
                }
                (ColumnWriter::ByteArrayColumnWriter(w), ColumnValues::Bytes(v)) => {
                    let (dense, defs) = split_nulls(v, max_def)?;
                    let dense: Vec<ByteArray> = dense.into_iter().map(ByteArray::from).collect();
                    w.write_batch(&dense, defs.as_deref(), None)?;
                }
                (ColumnWriter::FixedLenByteArrayColumnWriter(w), ColumnValues::Bytes(v)) => {
                    let (dense, defs) = split_nulls(v, max_def)?;
                    let dense: Vec<FixedLenByteArray> = dense
                        .into_iter()
                        .map(|b| FixedLenByteArray::from(ByteArray::from(b)))
                        .collect();
                    w.write_batch(&dense, defs.as_deref(), None)?;
                }
                (_, values) => {
                    return Err(ParquetError::General(format!(
                        "column {} ({}) cannot take {values:?}",
                        i,
                        descr.column(i).path()
                    )))
                }
            }
            col.close()?;
        }
        rg.close()?;
    }
    writer.close()?;
    Ok(bytes::Bytes::from(buf))
}

/// Every page of every column chunk of an in-memory file, as the `parquet`
/// crate's page reader returns them (decompressed): `pages[row_group][column]`.
///
/// # Panics
/// If the file or the page headers cannot be read: only for files the tests wrote.
pub fn all_pages(file: &bytes::Bytes) -> Vec<Vec<Vec<parquet::column::page::Page>>> {
    use parquet::file::reader::{FileReader, SerializedFileReader};
    let reader = SerializedFileReader::new(file.clone()).expect("footer");
    (0..reader.num_row_groups())
        .map(|g| {
            let group = reader.get_row_group(g).expect("row group");
            (0..group.num_columns())
                .map(|c| {
                    group
                        .get_column_page_reader(c)
                        .expect("page reader")
                        .collect::<parquet::errors::Result<_>>()
                        .expect("pages")
                })
                .collect()
        })
        .collect()
}

/// The footer metadata of an in-memory file.
///
/// # Panics
/// If the footer cannot be read: only for files the tests wrote.
pub fn file_metadata(file: &bytes::Bytes) -> parquet::file::metadata::ParquetMetaData {
    use parquet::file::reader::{FileReader, SerializedFileReader};
    let reader = SerializedFileReader::new(file.clone()).expect("footer");
    reader.metadata().clone()
}
