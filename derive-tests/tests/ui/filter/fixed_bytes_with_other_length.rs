// A `[u8; 4]` field compares with four bytes, not with a slice of another length.
use parquet_rows::ParquetRow;

#[derive(ParquetRow)]
struct Key {
    key: [u8; 4],
}

fn main() {
    let _ = Key::filter().key().eq(b"abc");
}
