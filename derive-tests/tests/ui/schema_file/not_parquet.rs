// The sample file must be a Parquet file.
use parquet_rows::ParquetRow;

#[derive(ParquetRow)]
#[parquet(schema_file = "Cargo.toml")]
struct Quote {
    bid: f64,
}

fn main() {}
