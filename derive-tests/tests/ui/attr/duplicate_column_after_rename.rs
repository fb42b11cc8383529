// Two fields cannot read the same column.
use parquet_rows::ParquetRow;

#[derive(ParquetRow)]

struct Quote {
    bid: f64,
    #[parquet(rename = "bid")]
    best_bid: f64,
}

fn main() {}
