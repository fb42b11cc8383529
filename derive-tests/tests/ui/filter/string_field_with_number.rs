// A `&str` field compares with strings, not numbers.
use parquet_rows::ParquetRow;

#[derive(ParquetRow)]
struct Tick<'a> {
    ts: i64,
    symbol: &'a str,
}

fn main() {
    let _ = Tick::filter().symbol().eq(5);
}
