// `skip`: a field that is not in the file, set to its `Default`; it may be of
// any type.
use std::collections::HashSet;

use parquet_rows::ParquetRow;

#[derive(ParquetRow)]
#[allow(dead_code)]
struct Tick<'a> {
    symbol: &'a str,
    #[parquet(skip)]
    seen: HashSet<String>,
    #[parquet(skip)]
    note: Option<String>,
}

fn main() {
    assert_eq!(Tick::fields().specs.len(), 1);
}
