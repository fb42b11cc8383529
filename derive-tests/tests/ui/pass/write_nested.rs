// Nested structs the writer writes: a borrowed struct in a list, borrowed
// fields inside maps, a struct in an `Option`, read back equal.
use std::collections::BTreeMap;

use parquet_rows::{ParquetRow, WriteOptions, Writer};

#[derive(ParquetRow, Debug, PartialEq)]
struct Pair<'a> {
    first: &'a str,
    second: Option<&'a str>,
}

#[derive(ParquetRow, Debug, PartialEq)]
struct Numbers {
    first: i32,
    second: Option<i32>,
}

#[derive(ParquetRow, Debug, PartialEq)]
struct Order<'a> {
    id: i64,
    #[parquet(rename = "lines")]
    items: Vec<Pair<'a>>,
    extra: Option<Numbers>,
    attrs: BTreeMap<&'a str, Vec<Option<&'a [u8]>>>,
}

fn main() {
    let rows = [
        Order { id: 1, items: vec![], extra: None, attrs: BTreeMap::new() },
        Order {
            id: 2,
            items: vec![Pair { first: "a", second: None }, Pair { first: "b", second: Some("c") }],
            extra: Some(Numbers { first: 3, second: Some(4) }),
            attrs: BTreeMap::from([("k", vec![None, Some(&b"v"[..])])]),
        },
    ];
    let mut writer = Writer::<Order, _>::new(Vec::new(), WriteOptions::default()).unwrap();
    writer.write(&rows).unwrap();
    let (_, bytes) = writer.finish().unwrap();
    let file = parquet_rows::ParquetFile::from_bytes(bytes::Bytes::from(bytes)).unwrap();
    let pages = file.load::<Order>().unwrap();
    assert_eq!(pages.rows::<Order>().unwrap(), rows);
}
