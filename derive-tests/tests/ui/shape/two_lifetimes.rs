// One lifetime: the pages'.
use parquet_rows::ParquetRow;

#[derive(ParquetRow)]
struct Tick<'a, 'b> {
    symbol: &'a str,
    venue: &'b str,
}

fn main() {}
