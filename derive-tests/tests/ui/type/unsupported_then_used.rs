// A struct with an unsupported field, used: the field's error, and one where
// it is used (the struct does not implement the trait while the field is wrong).
use parquet_rows::ParquetRow;

#[derive(ParquetRow)]
struct Tick {
    ts: u128,
    bid: f64,
}

fn main() {
    let _ticks: Vec<Tick> = parquet_rows::from_path("ticks.parquet").unwrap();
}
