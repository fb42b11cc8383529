// A misspelled struct attribute.
use parquet_rows::ParquetRow;

#[derive(ParquetRow)]
#[parquet(rename_al = "snake_case")]
struct Quote {
    bid: f64,
}

fn main() {}
