// `from = "f64"` on a type without `From<f64>`.
use parquet_rows::ParquetRow;

struct Price(f64);

#[derive(ParquetRow)]
struct Tick {
    #[parquet(from = "f64")]
    price: Price,
}

fn main() {}
