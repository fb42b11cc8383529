// A partition field of a type that no path value parses into.
use parquet_rows::ParquetRow;

#[derive(ParquetRow)]
struct Tick {
    ts: i64,
    #[parquet(partition)]
    day: Vec<u8>,
}

fn main() {}
