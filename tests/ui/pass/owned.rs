// A struct without a lifetime owns its data: it reads rows for any pages'
// lifetime (what `parquet_rows::from_bytes` needs).
use parquet_rows::ParquetRow;

#[derive(ParquetRow, Debug)]
#[allow(dead_code)]
struct Tick {
    ts: i64,
    symbol: String,
    bid: f64,
    ask: Option<f64>,
}

fn owned<T: for<'p> ParquetRow<'p>>() {}

fn main() {
    owned::<Tick>();
}
