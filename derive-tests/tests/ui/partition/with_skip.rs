// `partition` and `skip` on one field.
use parquet_rows::ParquetRow;

#[derive(ParquetRow)]
struct Tick {
    ts: i64,
    #[parquet(partition, skip)]
    date: String,
}

fn main() {}
