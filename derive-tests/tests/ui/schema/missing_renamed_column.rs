// `rename` names a column the schema does not have; the error points at the name.
use parquet_rows::ParquetRow;

#[derive(ParquetRow)]
#[parquet(schema = "message schema {
    REQUIRED INT64 ts (TIMESTAMP_MICROS);
    REQUIRED BINARY symbol (UTF8);
    REQUIRED DOUBLE bid;
    REQUIRED DOUBLE ask;
}")]
struct Tick<'a> {
    ts: i64,
    #[parquet(rename = "Symbol")]
    instrument: &'a str,
    bid: f64,
    ask: f64,
}

fn main() {}
