// The group may be null: a nested struct on it needs `Option<_>`.
use parquet_rows::ParquetRow;

#[derive(ParquetRow)]
#[parquet(schema = "message m {
    REQUIRED INT64 id;
    OPTIONAL group customer { REQUIRED BINARY name (UTF8); }
}")]
struct Order {
    id: i64,
    customer: Customer,
}

#[derive(ParquetRow)]
struct Customer {
    name: String,
}

fn main() {}
