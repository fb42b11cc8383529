// Only structs.
use parquet_rows::ParquetRow;

#[derive(ParquetRow)]
union Price {
    bid: f64,
    ask: f64,
}

fn main() {}
