// No const parameters.
use parquet_rows::ParquetRow;

#[derive(ParquetRow)]
struct Id<const N: usize> {
    id: [u8; N],
}

fn main() {}
