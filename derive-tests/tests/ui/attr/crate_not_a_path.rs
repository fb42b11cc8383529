// `crate` takes a path.
use parquet_rows::ParquetRow;

#[derive(ParquetRow)]
#[parquet(crate = "not a path")]
struct Quote {
    bid: f64,
}

fn main() {}
