// `from` names a type that cannot read a column.
use parquet_rows::ParquetRow;

struct Price(u128);

impl From<u128> for Price {
    fn from(value: u128) -> Self {
        Price(value)
    }
}

#[derive(ParquetRow)]
struct Tick {
    #[parquet(from = "u128")]
    price: Price,
}

fn main() {}
