// One unsupported field type: one error, at the field.
use parquet_rows::ParquetRow;

#[derive(ParquetRow)]
struct Tick {
    ts: u128,
    bid: f64,
}

fn main() {}
