// UTF8 annotates BYTE_ARRAY, not INT32.
use parquet_rows::ParquetRow;

#[derive(ParquetRow)]
#[parquet(schema = "message m { REQUIRED INT32 symbol (UTF8); }")]
struct Quote {
    symbol: String,
}

fn main() {}
