// Nested fields: structs, `Vec`, maps, with and without a declared schema.
// The derive cannot see into a nested field's type, so with a declared schema
// it checks that the column exists and leaves the shape to the check when the
// file is opened.
use std::collections::{BTreeMap, HashMap};

use parquet_rows::ParquetRow;

#[derive(ParquetRow)]
#[parquet(schema = "message order {
    REQUIRED INT64 id;
    REQUIRED group customer { REQUIRED BINARY name (UTF8); OPTIONAL BINARY region (UTF8); }
    REQUIRED group tags (LIST) { REPEATED group list { REQUIRED BINARY element (UTF8); } }
    OPTIONAL group fills (LIST) {
        REPEATED group list { REQUIRED group element { REQUIRED DOUBLE price; REQUIRED INT32 qty; } }
    }
    REQUIRED group attributes (MAP) {
        REPEATED group key_value { REQUIRED BINARY key (UTF8); REQUIRED INT64 value; }
    }
    REQUIRED group scores (LIST) { REPEATED group list { OPTIONAL DOUBLE element; } }
}")]
#[allow(dead_code)]
struct Order<'a> {
    id: i64,
    customer: Customer<'a>,
    tags: Vec<&'a str>,
    fills: Option<Vec<Fill>>,
    attributes: BTreeMap<String, i64>,
    scores: Vec<Option<f64>>,
}

#[derive(ParquetRow)]
#[allow(dead_code)]
struct Customer<'a> {
    name: &'a str,
    region: Option<&'a str>,
}

#[derive(ParquetRow)]
#[allow(dead_code)]
struct Fill {
    price: f64,
    qty: i32,
}

// Other spellings of the same columns: owned, pairs, `HashMap`, nested `Option`s.
#[derive(ParquetRow)]
#[allow(dead_code)]
struct OrderOwned {
    customer: Option<CustomerOwned>,
    tags: Vec<Option<String>>,
    fills: Option<Vec<Option<Fill>>>,
    attributes: HashMap<String, Option<i64>>,
    grid: Vec<Vec<i32>>,
}

#[derive(ParquetRow)]
#[allow(dead_code)]
struct Pairs {
    #[parquet(rename = "attributes")]
    pairs: Vec<(String, i64)>,
}

#[derive(ParquetRow)]
#[allow(dead_code)]
struct CustomerOwned {
    name: String,
}

fn main() {
    let bytes = parquet_rows::doc_support::order_file().unwrap();
    let file = parquet_rows::ParquetFile::from_bytes(bytes).unwrap();
    let pages = file.load::<Order>().unwrap();
    let orders: Vec<Order<'_>> = pages.rows().unwrap();
    assert_eq!(orders.len(), 2);
    assert_eq!(file.rows::<Pairs>().collect().unwrap()[0].pairs, [("channel".to_owned(), 3)]);
}
