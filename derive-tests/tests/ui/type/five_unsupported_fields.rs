// Five unsupported field types: five errors, each at its field.
use parquet_rows::ParquetRow;

use std::collections::HashSet;

#[derive(ParquetRow)]
struct Tick {
    ts: u128,
    tags: HashSet<i32>,
    side: char,
    bid: f64,
    flags: Vec<char>,
    size: Option<usize>,
}

fn main() {}
