// `&str` needs a UTF-8 annotation (STRING, ENUM, JSON); raw BINARY is bytes.
use parquet_rows::ParquetRow;

#[derive(ParquetRow)]
#[parquet(schema = "message m { REQUIRED BINARY payload; }")]
struct Message<'a> {
    payload: &'a str,
}

fn main() {}
