// A crate type on a column of another logical type.
use parquet_rows::ParquetRow;

#[derive(ParquetRow)]
#[parquet(schema = "message m { REQUIRED INT64 day (TIMESTAMP(MILLIS, true)); }")]
struct Trade {
    day: parquet_rows::Date,
}

fn main() {}
