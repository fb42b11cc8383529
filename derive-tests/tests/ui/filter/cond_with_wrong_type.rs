// The tests of a disjunction take values of the field's type too.
use parquet_rows::{Cond, ParquetRow};

#[derive(ParquetRow)]
struct Quote {
    size: Option<i32>,
}

fn main() {
    let _ = Quote::filter().size().any_of([Cond::lt(10), Cond::gt(1.5)]);
}
