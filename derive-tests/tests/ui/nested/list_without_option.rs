// The list itself may be null: it needs `Option<Vec<_>>`.
use parquet_rows::ParquetRow;

#[derive(ParquetRow)]
#[parquet(schema = "message m {
    OPTIONAL group tags (LIST) { REPEATED group list { OPTIONAL BINARY element (UTF8); } }
}")]
struct Tagged {
    tags: Vec<Option<String>>,
}

fn main() {}
