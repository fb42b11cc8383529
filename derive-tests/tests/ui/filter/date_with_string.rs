// A `Date` field compares with `Date`s, not with text.
use parquet_rows::ParquetRow;

#[derive(ParquetRow)]
struct Day {
    day: parquet_rows::Date,
}

fn main() {
    let _ = Day::filter().day().eq("2026-03-20");
}
