// A misspelled field attribute.
use parquet_rows::ParquetRow;

#[derive(ParquetRow)]

struct Quote {
    bid: f64,
    #[parquet(skp)]
    note: String,
}

fn main() {}
