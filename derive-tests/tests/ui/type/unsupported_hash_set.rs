// A field type that reads no column.
use parquet_rows::ParquetRow;

use std::collections::HashSet;

#[derive(ParquetRow)]
struct Tagged {
    tags: HashSet<i32>,
}

fn main() {}
