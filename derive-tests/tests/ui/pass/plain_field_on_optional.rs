// A plain field reads an OPTIONAL column (a null met while decoding is an
// error naming the row); the declared schema accepts it at compile time.
use parquet_rows::ParquetRow;

#[derive(ParquetRow)]
#[parquet(schema = "message schema {
    REQUIRED INT64 ts (TIMESTAMP_MICROS);
    OPTIONAL DOUBLE bid;
}")]
#[allow(dead_code)]
struct Quote {
    ts: i64,
    bid: f64,
}

fn main() {}
