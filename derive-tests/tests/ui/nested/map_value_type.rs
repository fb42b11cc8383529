// The map's values are INT64, not DOUBLE.
use std::collections::HashMap;

use parquet_rows::ParquetRow;

#[derive(ParquetRow)]
#[parquet(schema = "message m {
    REQUIRED group attributes (MAP) {
        REPEATED group key_value { REQUIRED BINARY key (UTF8); REQUIRED INT64 value; }
    }
}")]
struct Attributes {
    attributes: HashMap<String, f64>,
}

fn main() {}
