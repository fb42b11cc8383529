// A `Timestamp` field compares with `Timestamp`s (any unit), not with a
// bare integer whose unit nobody knows.
use parquet_rows::ParquetRow;

#[derive(ParquetRow)]
struct Tick {
    ts: Option<parquet_rows::Timestamp>,
}

fn main() {
    let _ = Tick::filter().ts().ge(1_774_000_000_000_000);
}
