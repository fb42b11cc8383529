// `'static` inside a field type of a struct that has a lifetime.
use parquet_rows::ParquetRow;

#[derive(ParquetRow)]
struct Tick<'a> {
    symbol: &'a str,
    venues: Vec<&'static [u8]>,
}

fn main() {}
