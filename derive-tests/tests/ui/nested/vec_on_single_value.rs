// `Vec<f64>` reads a list; `bid` holds one DOUBLE per row.
use parquet_rows::ParquetRow;

#[derive(ParquetRow)]
#[parquet(schema = "message m { REQUIRED DOUBLE bid; }")]
struct Quote {
    bid: Vec<f64>,
}

fn main() {}
