// Two columns of one name (duckdb writes `column` twice): the field must say
// which one it reads with `nth`.
use parquet_rows::ParquetRow;

#[derive(ParquetRow)]
#[parquet(schema = "message m { OPTIONAL INT32 column; OPTIONAL BYTE_ARRAY column (UTF8); }")]
struct Row {
    column: Option<i32>,
}

fn main() {}
