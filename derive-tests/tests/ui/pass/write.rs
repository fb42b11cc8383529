// Structs the writer writes, owned and borrowed, with `rename`, `skip` and
// `Option`s, read back equal.
use parquet_rows::{ParquetRow, WriteOptions, Writer};

#[derive(ParquetRow, Debug, PartialEq)]
#[parquet(rename_all = "camelCase")]
struct Event<'a> {
    event_time: i64,
    #[parquet(rename = "kind")]
    name: &'a str,
    payload: Option<&'a [u8]>,
    #[parquet(skip)]
    note: u8,
}

#[derive(ParquetRow, Debug, PartialEq)]
struct Owned {
    #[parquet(rename = "eventTime")]
    event_time: i64,
    kind: String,
    payload: Option<Vec<u8>>,
}

fn main() {
    let rows = [
        Event { event_time: 1, name: "a", payload: None, note: 0 },
        Event { event_time: 2, name: "b", payload: Some(b"x"), note: 0 },
    ];
    let mut writer = Writer::<Event, _>::new(Vec::new(), WriteOptions::default()).unwrap();
    writer.write(&rows).unwrap();
    let (_, bytes) = writer.finish().unwrap();
    let back: Vec<Owned> = parquet_rows::from_bytes(bytes).unwrap();
    assert_eq!(back[1], Owned { event_time: 2, kind: "b".into(), payload: Some(b"x".to_vec()) });
}
