// An encoding is one of those the writer writes, spelled as Parquet names them.
use parquet_rows::ParquetRow;

#[derive(ParquetRow)]
struct Tick {
    #[parquet(encoding = "delta")]
    ts: i64,
}

fn main() {}
