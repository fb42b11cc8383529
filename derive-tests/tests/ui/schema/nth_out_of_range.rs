// `nth` counts the columns of the field's name from 0: there is no third.
use parquet_rows::ParquetRow;

#[derive(ParquetRow)]
#[parquet(schema = "message m { OPTIONAL INT32 column; OPTIONAL BYTE_ARRAY column (UTF8); }")]
struct Row {
    #[parquet(nth = 2)]
    column: Option<i32>,
}

fn main() {}
