// `&'static str` cannot borrow from pages that are dropped.
use parquet_rows::ParquetRow;

#[derive(ParquetRow)]
struct Tick {
    ts: i64,
    symbol: &'static str,
}

fn main() {}
