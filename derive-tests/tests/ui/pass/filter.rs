// The typed filter: every scalar field type, borrowed and `Option` fields, a
// field named like a `RowFilter` method, and the filter named by `FilterOf`.
use std::sync::Arc;

use parquet_rows::{FilterOf, ParquetRow, Query, RowFilter};

#[derive(ParquetRow)]
#[allow(dead_code)]
struct Everything<'a> {
    flag: bool,
    tiny: i8,
    int: i32,
    long: i64,
    uint: u32,
    ulong: u64,
    single: f32,
    double: f64,
    text: &'a str,
    owned_text: String,
    boxed_text: Box<str>,
    shared_text: Arc<str>,
    maybe_long: Option<i64>,
    maybe_text: Option<&'a str>,
    limit: u16,
    raw: &'a [u8],
}

fn recent(filter: FilterOf<Everything<'static>>, since: i64) -> FilterOf<Everything<'static>> {
    filter.long().ge(since)
}

fn main() {
    let filter = Everything::filter()
        .flag()
        .eq(true)
        .tiny()
        .lt(3)
        .int()
        .between(1, 9)
        .uint()
        .gt(7u32)
        .ulong()
        .le(u64::MAX)
        .single()
        .ne(1.5f32)
        .double()
        .in_range(0.0..1.0)
        .text()
        .eq("EURUSD")
        .owned_text()
        .ge(String::from("A"))
        .boxed_text()
        .lt("z")
        .shared_text()
        .ne("x")
        .maybe_long()
        .is_null()
        .maybe_text()
        .is_not_null()
        .limit()
        .gt(2u16);
    let filter = recent(filter, 10);
    let query: Query<_> = RowFilter::limit(filter, 5).offset(1);
    let _ = query;
}
