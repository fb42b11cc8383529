// Fields are matched to columns by name.
use parquet_rows::ParquetRow;

#[derive(ParquetRow)]
struct Tick(i64, f64);

fn main() {}
