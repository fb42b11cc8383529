// One struct declares one schema.
use parquet_rows::ParquetRow;

#[derive(ParquetRow)]
#[parquet(schema = "message m { REQUIRED DOUBLE bid; }", schema_file = "tests/data/ticks.parquet")]
struct Quote {
    bid: f64,
}

fn main() {}
