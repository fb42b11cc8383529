// A struct with a field the writer does not write (a list of pairs, which
// reads a map keeping the file's order) derives and reads; writing it is an
// error that names the field's type.
use parquet_rows::ParquetRow;

#[derive(ParquetRow)]
struct Order {
    id: i64,
    fills: Vec<(String, i32)>,
}

fn main() {
    let rows = vec![Order { id: 1, fills: vec![("a".into(), 2)] }];
    let _ = parquet_rows::to_path("orders.parquet", &rows);
}
