// `is_in` takes values of the field's type, as every comparison does.
use parquet_rows::ParquetRow;

#[derive(ParquetRow)]
struct Quote {
    size: Option<i32>,
}

fn main() {
    let _ = Quote::filter().size().is_in(["100", "200"]);
}
