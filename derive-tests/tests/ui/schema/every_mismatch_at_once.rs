// Every mismatch of a struct is reported in one compile, each at its field.
use parquet_rows::ParquetRow;

#[derive(ParquetRow)]
#[parquet(schema = "message schema {
    REQUIRED INT64 ts (TIMESTAMP_MICROS);
    REQUIRED BINARY symbol (UTF8);
    REQUIRED DOUBLE bid;
    REQUIRED DOUBLE ask;
}")]
struct Tick<'a> {
    ts: i32,
    symbol: &'a [u8],
    bid: f32,
    ask: Option<f64>,
    venue: &'a str,
}

fn main() {}
