//! The tick dataset: files `date=YYYY-MM-DD/part-N.parquet` of ticks of
//! one symbol each, of 1 to 6 row groups of 10,000 rows (so that a
//! split's size in bytes, not the file count, sets how many splits there
//! are).

use std::sync::Arc;

use parquet::data_type::{ByteArray, ByteArrayType, DataType, DoubleType, Int64Type};
use parquet::errors::ParquetError;
use parquet::file::properties::WriterProperties;
use parquet::file::writer::{SerializedFileWriter, SerializedRowGroupWriter};
use parquet::schema::parser::parse_message_type;
use parquet_rows::ParquetRow;

/// A tick, as a worker reads it.
#[derive(ParquetRow, Debug, Clone, PartialEq)]
pub struct Tick {
    /// Microseconds since the epoch.
    pub ts: i64,
    /// One symbol per file (dictionary-encoded).
    pub symbol: String,
    /// The bid price.
    pub bid: f64,
    /// The ask price.
    pub ask: f64,
    /// The quantity.
    pub size: i64,
    /// From the file's `date=.../` directory, not from a column.
    #[parquet(partition)]
    pub date: String,
}

const SCHEMA: &str = "message tick {
    REQUIRED INT64 ts (TIMESTAMP_MICROS);
    REQUIRED BINARY symbol (UTF8);
    REQUIRED DOUBLE bid;
    REQUIRED DOUBLE ask;
    REQUIRED INT64 size;
}";
/// Files per date, one per symbol.
const PARTS: u16 = 3;
const SYMBOLS: [&str; 3] = ["EURUSD", "GBPUSD", "USDJPY"];
const BASES: [f64; 3] = [1.17, 1.34, 156.2];
const GROUP_ROWS: u32 = 10_000;
/// 2026-01-05T08:00:00Z, in microseconds.
const FIRST_OPEN: i64 = 1_767_600_000_000_000;
const DAY: i64 = 86_400_000_000;
/// Days 2026-01-05 to 2026-01-31.
const DAYS: u16 = 27;

/// The paths below the dataset's prefix of its first `files` files (3 per
/// date, one per symbol), each with its day and part numbers.
///
/// # Errors
///
/// For more than 81 files (27 days of January, 3 files a day).
pub fn tick_files(files: u16) -> Result<Vec<(String, u16, u16)>, String> {
    if files > DAYS * PARTS {
        return Err(format!(
            "at most {} files (January has {DAYS} days left)",
            DAYS * PARTS
        ));
    }
    Ok((0..files)
        .map(|n| {
            let (day, part) = (n / PARTS, n % PARTS);
            let date = format!("2026-01-{:02}", 5 + day);
            (format!("date={date}/part-{part}.parquet"), day, part)
        })
        .collect())
}

/// File `part` of day `day`: `1 + n mod 6` row groups of 10,000 ticks of
/// symbol `part`, where `n` is the file's number.
///
/// # Errors
///
/// When the `parquet` writer fails.
pub fn tick_file(day: u16, part: u16) -> Result<bytes::Bytes, ParquetError> {
    let p = usize::from(part) % SYMBOLS.len();
    let n = u32::from(day) * u32::from(PARTS) + u32::from(part);
    let groups = 1 + n % 6;
    let schema = Arc::new(parse_message_type(SCHEMA)?);
    let mut buf = Vec::new();
    let props = Arc::new(WriterProperties::builder().build());
    let mut writer = SerializedFileWriter::new(&mut buf, schema, props)?;
    let open = FIRST_OPEN + i64::from(day) * DAY;
    for g in 0..groups {
        // Row numbers within the file: < 60,000.
        let rows = g * GROUP_ROWS..(g + 1) * GROUP_ROWS;
        let ts: Vec<i64> = rows
            .clone()
            .map(|i| open + i64::from(i) * 50_000 + i64::from(part))
            .collect();
        let symbol: Vec<ByteArray> = rows.clone().map(|_| ByteArray::from(SYMBOLS[p])).collect();
        let bid: Vec<f64> = rows
            .clone()
            .map(|i| BASES[p] + f64::from(i * 7919 % 2000) * 1e-5)
            .collect();
        let ask: Vec<f64> = bid
            .iter()
            .zip(rows.clone())
            .map(|(b, i)| b + f64::from(1 + i % 3) * 1e-5)
            .collect();
        let size: Vec<i64> = rows
            .map(|i| 1000 * (1 + (i64::from(i) * 31 + i64::from(day)) % 50))
            .collect();
        let mut group = writer.next_row_group()?;
        write_column::<Int64Type>(&mut group, &ts)?;
        write_column::<ByteArrayType>(&mut group, &symbol)?;
        write_column::<DoubleType>(&mut group, &bid)?;
        write_column::<DoubleType>(&mut group, &ask)?;
        write_column::<Int64Type>(&mut group, &size)?;
        group.close()?;
    }
    writer.close()?;
    Ok(buf.into())
}

/// Writes `values` as the row group's next column.
fn write_column<T: DataType>(
    group: &mut SerializedRowGroupWriter<'_, &mut Vec<u8>>,
    values: &[T::T],
) -> Result<(), ParquetError> {
    let mut column = group
        .next_column()?
        .ok_or_else(|| ParquetError::General("fewer columns than written".into()))?;
    column.typed::<T>().write_batch(values, None, None)?;
    column.close()
}
