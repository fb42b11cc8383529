// Each column of a schema ends with `;`.
use parquet_rows::ParquetRow;

#[derive(ParquetRow)]
#[parquet(schema = "message m {
    REQUIRED DOUBLE bid
}")]
struct Quote {
    bid: f64,
}

fn main() {}
