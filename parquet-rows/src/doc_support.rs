//! Builds small files for the documentation examples. Not public API.

use std::sync::Arc;

use parquet::data_type::{ByteArray, ByteArrayType, DoubleType, Int32Type, Int64Type};
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

/// A file with one OPTIONAL INT32 column `size` holding `sizes`.
pub fn optional_sizes(sizes: &[Option<i32>]) -> crate::Result<bytes::Bytes> {
    let schema = Arc::new(parse_message_type(
        "message schema { OPTIONAL INT32 size; }",
    )?);
    let mut buf = Vec::new();
    let props = Arc::new(WriterProperties::builder().build());
    let mut writer = SerializedFileWriter::new(&mut buf, schema, props)?;
    let mut rg = writer.next_row_group()?;
    let values: Vec<i32> = sizes.iter().flatten().copied().collect();
    let defs: Vec<i16> = sizes.iter().map(|s| i16::from(s.is_some())).collect();
    let mut col = rg.next_column()?.ok_or_else(missing)?;
    col.typed::<Int32Type>()
        .write_batch(&values, Some(&defs), None)?;
    col.close()?;
    rg.close()?;
    writer.close()?;
    Ok(bytes::Bytes::from(buf))
}

fn missing() -> parquet::errors::ParquetError {
    parquet::errors::ParquetError::General("schema has fewer columns than written".into())
}

/// The two-row order file of the nested-data example (ids 1 and 2).
pub fn order_file() -> crate::Result<bytes::Bytes> {
    use parquet::data_type::{DataType, Int32Type};
    use parquet::file::writer::SerializedRowGroupWriter;

    /// Writes the next column: values, then definition and repetition levels.
    fn column<T: DataType>(
        rg: &mut SerializedRowGroupWriter<'_, &mut Vec<u8>>,
        values: &[T::T],
        defs: Option<&[i16]>,
        reps: Option<&[i16]>,
    ) -> crate::Result<()> {
        let mut col = rg.next_column()?.ok_or_else(missing)?;
        col.typed::<T>().write_batch(values, defs, reps)?;
        col.close()?;
        Ok(())
    }
    let text = |s: &[&str]| -> Vec<ByteArray> { s.iter().map(|s| ByteArray::from(*s)).collect() };

    let schema = Arc::new(parse_message_type(
        "message order {
            REQUIRED INT64 id;
            REQUIRED group customer { REQUIRED BINARY name (UTF8); OPTIONAL BINARY region (UTF8); }
            REQUIRED group tags (LIST) { REPEATED group list { REQUIRED BINARY element (UTF8); } }
            OPTIONAL group fills (LIST) {
                REPEATED group list { REQUIRED group element { REQUIRED DOUBLE price; REQUIRED INT32 qty; } }
            }
            REQUIRED group attributes (MAP) {
                REPEATED group key_value { REQUIRED BINARY key (UTF8); REQUIRED INT64 value; }
            }
            REQUIRED group scores (LIST) { REPEATED group list { OPTIONAL DOUBLE element; } }
        }",
    )?);
    let mut buf = Vec::new();
    let mut writer = SerializedFileWriter::new(
        &mut buf,
        schema,
        Arc::new(WriterProperties::builder().build()),
    )?;
    let mut rg = writer.next_row_group()?;
    // Row 1: tags [new, vip], two fills, one attribute, scores [0.5, null].
    // Row 2: no tags, fills null, no attributes, no scores.
    column::<Int64Type>(&mut rg, &[1, 2], None, None)?;
    column::<ByteArrayType>(&mut rg, &text(&["ada", "bob"]), None, None)?;
    column::<ByteArrayType>(&mut rg, &text(&["eu"]), Some(&[1, 0]), None)?;
    let list = (Some(&[1, 1, 0][..]), Some(&[0, 1, 0][..]));
    column::<ByteArrayType>(&mut rg, &text(&["new", "vip"]), list.0, list.1)?;
    let fills = (Some(&[2, 2, 0][..]), Some(&[0, 1, 0][..]));
    column::<DoubleType>(&mut rg, &[101.5, 101.6], fills.0, fills.1)?;
    column::<Int32Type>(&mut rg, &[10, 5], fills.0, fills.1)?;
    let map = (Some(&[1, 0][..]), Some(&[0, 0][..]));
    column::<ByteArrayType>(&mut rg, &text(&["channel"]), map.0, map.1)?;
    column::<Int64Type>(&mut rg, &[3], map.0, map.1)?;
    column::<DoubleType>(&mut rg, &[0.5], Some(&[2, 1, 0]), Some(&[0, 1, 0]))?;
    rg.close()?;
    writer.close()?;
    Ok(bytes::Bytes::from(buf))
}
