// A string field on a numeric column.
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
    symbol: &'a str,
    bid: String,
    ask: f64,
}

fn main() {}
