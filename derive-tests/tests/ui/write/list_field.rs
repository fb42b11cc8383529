// A struct with a field the writer does not write yet (a list) derives and
// reads; writing it is an error that names the field's type.
use parquet_rows::ParquetRow;

#[derive(ParquetRow)]
struct Order {
    id: i64,
    fills: Vec<i32>,
}

fn main() {
    let rows = vec![Order { id: 1, fills: vec![2] }];
    let _ = parquet_rows::to_path("orders.parquet", &rows);
}
