// A field whose column is not in the schema; the closest name is suggested.
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
    symbl: &'a str,
    bid: f64,
    ask: f64,
}

fn main() {}
