// Every supported field type, bare and in an `Option`, in one struct that
// borrows from the pages.
use std::sync::Arc;

use parquet_rows::{Date, Decimal, Int96, ParquetRow, Time, Timestamp};

#[derive(ParquetRow)]
#[allow(dead_code)]
struct Everything<'a> {
    flag: bool,
    tiny: i8,
    small: i16,
    int: i32,
    long: i64,
    utiny: u8,
    usmall: u16,
    uint: u32,
    ulong: u64,
    unscaled: i128,
    single: f32,
    double: f64,
    text: &'a str,
    owned_text: String,
    boxed_text: Box<str>,
    shared_text: Arc<str>,
    raw: &'a [u8],
    owned_raw: Vec<u8>,
    zero_copy: bytes::Bytes,
    id: [u8; 16],
    at: Timestamp,
    day: Date,
    time: Time,
    legacy: Int96,
    amount: Decimal,
    maybe_flag: Option<bool>,
    maybe_long: Option<i64>,
    maybe_double: Option<f64>,
    maybe_text: Option<&'a str>,
    maybe_owned_text: Option<String>,
    maybe_raw: Option<&'a [u8]>,
    maybe_id: Option<[u8; 16]>,
    maybe_at: Option<Timestamp>,
    maybe_amount: Option<Decimal>,
}

fn main() {
    let fields = <Everything<'_> as ParquetRow<'_>>::fields();
    assert_eq!(fields.specs.len(), 34);
    assert!(
        fields
            .specs
            .iter()
            .filter(|f| matches!(f.shape, parquet_rows::__private_v1::Shape::Option(_)))
            .count()
            == 9
    );
    assert_eq!(fields.declared_schema, None);
}
