// A misspelled rename_all rule.
use parquet_rows::ParquetRow;

#[derive(ParquetRow)]
#[parquet(rename_all = "camelcase")]
struct Quote {
    bid_price: f64,
}

fn main() {}
