// A struct must read at least one column.
use parquet_rows::ParquetRow;

#[derive(ParquetRow)]
struct Empty {
    #[parquet(skip)]
    note: String,
}

fn main() {}
