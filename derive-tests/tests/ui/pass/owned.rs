// A struct without a lifetime owns its data: it reads rows for any pages'
// lifetime and implements `OwnedRow` (what `parquet_rows::from_bytes` needs).
use parquet_rows::{OwnedRow, ParquetRow};

#[derive(ParquetRow, Debug)]
#[allow(dead_code)]
struct Tick {
    ts: i64,
    symbol: String,
    bid: f64,
    ask: Option<f64>,
}

fn any_pages<T: for<'p> ParquetRow<'p>>() {}

fn owned<T: OwnedRow>() {}

fn main() {
    any_pages::<Tick>();
    owned::<Tick>();
}
