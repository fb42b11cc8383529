// `i32` cannot hold every value of an INT64 column.
use parquet_rows::ParquetRow;

#[derive(ParquetRow)]
#[parquet(schema = "message m { REQUIRED INT64 count; }")]
struct Counts {
    count: i32,
}

fn main() {}
