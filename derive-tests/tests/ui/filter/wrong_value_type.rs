// A predicate compares a field with a value of the field's own type: an
// `Option<i32>` field with a string does not compile.
use parquet_rows::ParquetRow;

#[derive(ParquetRow)]
struct Quote {
    symbol: String,
    size: Option<i32>,
}

fn main() {
    let _ = Quote::filter().size().gt("100");
}
