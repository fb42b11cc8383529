// An unsigned column needs an unsigned field (or a wider signed one).
use parquet_rows::ParquetRow;

#[derive(ParquetRow)]
#[parquet(schema = "message m { REQUIRED INT32 size (INTEGER(32, false)); }")]
struct Order {
    size: i32,
}

fn main() {}
