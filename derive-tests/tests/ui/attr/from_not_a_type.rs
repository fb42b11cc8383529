// `from` takes a type, in a string.
use parquet_rows::ParquetRow;

struct Price(f64);

#[derive(ParquetRow)]
struct Tick {
    #[parquet(from = "f64 +")]
    price: Price,
}

fn main() {}
