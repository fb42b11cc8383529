// `rename` reads a column whose name is not the field's.
use parquet_rows::ParquetRow;

#[derive(ParquetRow)]
#[allow(dead_code)]
struct Quote {
    #[parquet(rename = "Bid Price")]
    bid: f64,
    #[parquet(rename = "ask")]
    offer: f64,
    r#type: i32,
}

fn main() {
    let columns: Vec<&str> = Quote::fields().specs.iter().map(|f| f.column).collect();
    assert_eq!(columns, ["Bid Price", "ask", "type"]);
}
