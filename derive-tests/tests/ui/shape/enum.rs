// Only structs.
use parquet_rows::ParquetRow;

#[derive(ParquetRow)]
enum Side {
    Bid(f64),
    Ask(f64),
}

fn main() {}
