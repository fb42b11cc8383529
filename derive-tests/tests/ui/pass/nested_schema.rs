// Nested fields whose shapes agree with the declared schema, in every form
// the compile-time walk follows: 3-level and legacy lists, REPEATED fields,
// maps as maps and as pairs, `Option` on OPTIONAL nodes and on REQUIRED
// ones, lists of lists, nested structs (seen from outside).
use std::collections::{BTreeMap, HashMap};

use parquet_rows::ParquetRow;

#[derive(ParquetRow)]
#[parquet(schema = "message m {
    OPTIONAL group tags (LIST) { REPEATED group list { OPTIONAL BINARY element (UTF8); } }
    REQUIRED group legacy (LIST) { REPEATED INT32 array; }
    REPEATED INT64 repeated;
    REQUIRED group scores (LIST) { REPEATED group list { OPTIONAL DOUBLE element; } }
    REQUIRED group attributes (MAP) {
        REPEATED group key_value { REQUIRED BINARY key (UTF8); OPTIONAL INT64 value; }
    }
    OPTIONAL group customer { REQUIRED BINARY name (UTF8); }
    REQUIRED group grid (LIST) {
        REPEATED group list {
            REQUIRED group element (LIST) { REPEATED group list { REQUIRED INT32 element; } }
        }
    }
    REQUIRED group fills (LIST) {
        REPEATED group list { REQUIRED group element { REQUIRED DOUBLE price; } }
    }
}")]
#[allow(dead_code)]
struct Everything<'a> {
    tags: Option<Vec<Option<&'a str>>>,
    legacy: Vec<i32>,
    repeated: Vec<i64>,
    scores: Option<Vec<Option<f64>>>,
    attributes: HashMap<String, Option<i64>>,
    customer: Option<Customer>,
    grid: Vec<Vec<i64>>,
    fills: Vec<Fill>,
    #[parquet(rename = "attributes")]
    pairs: Vec<(&'a str, Option<i64>)>,
    #[parquet(rename = "attributes")]
    sorted: std::collections::BTreeMap<String, Option<i64>>,
}

#[derive(ParquetRow)]
#[allow(dead_code)]
struct Customer {
    name: String,
}

#[derive(ParquetRow)]
#[allow(dead_code)]
struct Fill {
    price: f64,
}

fn main() {
    let _: Option<BTreeMap<i32, i32>> = None;
}
