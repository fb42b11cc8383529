// `u16` cannot read negative values of a signed INT(16) column.
use parquet_rows::ParquetRow;

#[derive(ParquetRow)]
#[parquet(schema = "message m { REQUIRED INT32 level (INT_16); }")]
struct Book {
    level: u16,
}

fn main() {}
