// A timestamp's unit is one of the three Parquet has.
use parquet_rows::{ParquetRow, Timestamp};

#[derive(ParquetRow)]
struct Event {
    #[parquet(unit = "seconds")]
    at: Timestamp,
}

fn main() {}
