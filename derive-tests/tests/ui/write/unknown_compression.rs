// A compression is one of the codecs the writer writes, with a level for those that take one.
use parquet_rows::ParquetRow;

#[derive(ParquetRow)]
struct Tick {
    #[parquet(compression = "lzo(3)")]
    ts: i64,
}

fn main() {}
