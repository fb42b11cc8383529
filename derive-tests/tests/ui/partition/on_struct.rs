// `partition` is a field attribute.
use parquet_rows::ParquetRow;

#[derive(ParquetRow)]
#[parquet(partition)]
struct Tick {
    ts: i64,
}

fn main() {}
