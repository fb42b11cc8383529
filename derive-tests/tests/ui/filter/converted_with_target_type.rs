// A converted field compares in its source type (the column's values),
// not in the type it converts into.
use parquet_rows::ParquetRow;

#[derive(Debug, Clone, Copy, PartialEq)]
struct Millis(i64);

impl From<i64> for Millis {
    fn from(v: i64) -> Self {
        Millis(v)
    }
}

#[derive(ParquetRow)]
struct Tick {
    #[parquet(from = "i64")]
    ts: Millis,
}

fn main() {
    let _ = Tick::filter().ts().gt(Millis(5));
}
