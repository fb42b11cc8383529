// `Option<Option<_>>` reads nothing.
use parquet_rows::ParquetRow;

#[derive(ParquetRow)]
#[parquet(schema = "message m { OPTIONAL DOUBLE bid; }")]
struct Quote {
    bid: Option<Option<f64>>,
}

fn main() {}
