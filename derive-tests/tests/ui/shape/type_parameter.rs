// Each field's concrete type decides which columns it reads.
use parquet_rows::ParquetRow;

#[derive(ParquetRow)]
struct Tick<T> {
    bid: T,
}

fn main() {}
