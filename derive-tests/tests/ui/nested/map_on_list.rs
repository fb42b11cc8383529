// A map reads a MAP; `attributes` is a LIST.
use std::collections::BTreeMap;

use parquet_rows::ParquetRow;

#[derive(ParquetRow)]
#[parquet(schema = "message m {
    REQUIRED group attributes (LIST) { REPEATED group list { REQUIRED INT64 element; } }
}")]
struct Attributes {
    attributes: BTreeMap<String, i64>,
}

fn main() {}
