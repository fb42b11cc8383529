//! Builds small files for the documentation examples. Not public API.

use std::sync::Arc;

use parquet::data_type::{ByteArray, ByteArrayType, DoubleType, Int64Type};
use parquet::file::properties::WriterProperties;
use parquet::file::writer::SerializedFileWriter;
use parquet::schema::parser::parse_message_type;

/// A tick file of `rows` rows (ts, symbol, bid, ask) in memory.
pub fn tick_file(rows: usize) -> crate::Result<bytes::Bytes> {
    let schema = Arc::new(parse_message_type(
        "message schema { REQUIRED INT64 ts (TIMESTAMP_MICROS); REQUIRED BINARY symbol (UTF8); REQUIRED DOUBLE bid; REQUIRED DOUBLE ask; }",
    )?);
    let mut buf = Vec::new();
    let mut writer = SerializedFileWriter::new(
        &mut buf,
        schema,
        Arc::new(WriterProperties::builder().build()),
    )?;
    let mut rg = writer.next_row_group()?;
    let ts: Vec<i64> = (0..rows as i64)
        .map(|i| 1_774_000_000_000_000 + i * 137)
        .collect();
    let symbol: Vec<ByteArray> = (0..rows).map(|_| ByteArray::from("EURUSD")).collect();
    let bid: Vec<f64> = (0..rows)
        .map(|i| 1.1 + f64::from((i % 1000) as u32) * 1e-5)
        .collect();
    let ask: Vec<f64> = bid.iter().map(|b| b + 0.00012).collect();
    let mut col = rg.next_column()?.ok_or_else(missing)?;
    col.typed::<Int64Type>().write_batch(&ts, None, None)?;
    col.close()?;
    let mut col = rg.next_column()?.ok_or_else(missing)?;
    col.typed::<ByteArrayType>()
        .write_batch(&symbol, None, None)?;
    col.close()?;
    for values in [&bid, &ask] {
        let mut col = rg.next_column()?.ok_or_else(missing)?;
        col.typed::<DoubleType>().write_batch(values, None, None)?;
        col.close()?;
    }
    rg.close()?;
    writer.close()?;
    Ok(bytes::Bytes::from(buf))
}

fn missing() -> parquet::errors::ParquetError {
    parquet::errors::ParquetError::General("schema has fewer columns than written".into())
}
