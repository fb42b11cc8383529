// Two partition fields filled from the same key (after `rename`).
use parquet_rows::ParquetRow;

#[derive(ParquetRow)]
struct Tick {
    ts: i64,
    #[parquet(partition)]
    date: String,
    #[parquet(partition, rename = "date")]
    day: Option<String>,
}

fn main() {}
