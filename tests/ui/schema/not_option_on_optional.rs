// An OPTIONAL column may hold nulls: the field must be an `Option`.
use parquet_rows::ParquetRow;

#[derive(ParquetRow)]
#[parquet(schema = "message schema {
    REQUIRED INT64 ts (TIMESTAMP_MICROS);
    OPTIONAL DOUBLE bid;
}")]
struct Quote {
    ts: i64,
    bid: f64,
}

fn main() {}
