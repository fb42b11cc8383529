// An attribute given twice.
use parquet_rows::ParquetRow;

#[derive(ParquetRow)]

struct Quote {
    #[parquet(rename = "bid", rename = "ask")]
    price: f64,
}

fn main() {}
