// The declared schema is checked against the type a converted field reads.
use parquet_rows::ParquetRow;

struct Price(f64);

impl From<f64> for Price {
    fn from(value: f64) -> Self {
        Price(value)
    }
}

#[derive(ParquetRow)]
#[parquet(schema = "message schema { REQUIRED BINARY bid (UTF8); }")]
struct Tick {
    #[parquet(from = "f64")]
    bid: Price,
}

fn main() {}
