// A borrowed field in a struct without a lifetime parameter: rustc's error,
// which suggests `struct Tick<'a>` and `&'a str`, and nothing from the derive.
use parquet_rows::ParquetRow;

#[derive(ParquetRow)]
struct Tick {
    ts: i64,
    symbol: &str,
}

fn main() {}
