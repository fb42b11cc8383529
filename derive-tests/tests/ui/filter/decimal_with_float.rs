// A `Decimal` field compares with `Decimal`s, not with a float that cannot
// hold most decimals exactly.
use parquet_rows::ParquetRow;

#[derive(ParquetRow)]
struct Fill {
    price: parquet_rows::Decimal,
}

fn main() {
    let _ = Fill::filter().price().lt(1.5);
}
