// A schema is a `message`.
use parquet_rows::ParquetRow;

#[derive(ParquetRow)]
#[parquet(schema = "REQUIRED DOUBLE bid;")]
struct Quote {
    bid: f64,
}

fn main() {}
