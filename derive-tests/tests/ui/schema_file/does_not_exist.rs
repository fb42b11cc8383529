// The sample file must exist (paths are relative to the crate's Cargo.toml).
use parquet_rows::ParquetRow;

#[derive(ParquetRow)]
#[parquet(schema_file = "tests/data/no_such_file.parquet")]
struct Quote {
    bid: f64,
}

fn main() {}
