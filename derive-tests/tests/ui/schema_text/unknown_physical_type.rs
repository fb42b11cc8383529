// A misspelled physical type.
use parquet_rows::ParquetRow;

#[derive(ParquetRow)]
#[parquet(schema = "message m { REQUIRED DOUBL bid; }")]
struct Quote {
    bid: f64,
}

fn main() {}
