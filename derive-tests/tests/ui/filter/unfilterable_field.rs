// Fields of types predicates cannot test (lists, nested structs) have no
// filter method.
use parquet_rows::ParquetRow;

#[derive(ParquetRow)]
struct Order {
    id: i64,
    fills: Vec<i32>,
}

fn main() {
    let _ = Order::filter().fills();
}
