// A column the sample file does not have.
use parquet_rows::ParquetRow;

#[derive(ParquetRow)]
#[parquet(schema_file = "tests/data/ticks.parquet")]
struct Tick {
    ts: i64,
    venue: String,
}

fn main() {}
