// `[u8; N]` reads FIXED_LEN_BYTE_ARRAY(N) of exactly its length.
use parquet_rows::ParquetRow;

#[derive(ParquetRow)]
#[parquet(schema = "message m { REQUIRED FIXED_LEN_BYTE_ARRAY(16) id (UUID); }")]
struct Event {
    id: [u8; 8],
}

fn main() {}
