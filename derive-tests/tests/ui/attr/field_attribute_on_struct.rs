// `rename` belongs on a field.
use parquet_rows::ParquetRow;

#[derive(ParquetRow)]
#[parquet(rename = "quote")]
struct Quote {
    bid: f64,
}

fn main() {}
