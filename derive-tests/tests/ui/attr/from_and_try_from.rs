// A field is converted one way.
use parquet_rows::ParquetRow;

struct Price(f64);

impl From<f64> for Price {
    fn from(value: f64) -> Self {
        Price(value)
    }
}

#[derive(ParquetRow)]
struct Tick {
    #[parquet(from = "f64", try_from = "f64")]
    price: Price,
}

fn main() {}
