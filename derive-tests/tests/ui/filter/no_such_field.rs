// A predicate on a field the struct does not have is a missing method.
use parquet_rows::ParquetRow;

#[derive(ParquetRow)]
struct Tick {
    ts: i64,
}

fn main() {
    let _ = Tick::filter().price().gt(1.0);
}
