// `customer` is a group of fields, not a list.
use parquet_rows::ParquetRow;

#[derive(ParquetRow)]
#[parquet(schema = "message m {
    REQUIRED group customer { REQUIRED BINARY name (UTF8); REQUIRED BINARY region (UTF8); }
}")]
struct Order {
    customer: Vec<String>,
}

fn main() {}
