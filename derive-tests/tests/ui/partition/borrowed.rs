// A partition field that borrows: its value comes from the path, which the
// rows cannot borrow from.
use parquet_rows::ParquetRow;

#[derive(ParquetRow)]
struct Tick<'a> {
    symbol: &'a str,
    #[parquet(partition)]
    date: &'a str,
}

fn main() {}
