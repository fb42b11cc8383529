// A unit struct reads nothing.
use parquet_rows::ParquetRow;

#[derive(ParquetRow)]
struct Nothing;

fn main() {}
