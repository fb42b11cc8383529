// A struct with a lifetime, a borrowed field without it.
use parquet_rows::ParquetRow;

#[derive(ParquetRow)]
struct Tick<'a> {
    venue: &'a str,
    symbol: &str,
}

fn main() {}
