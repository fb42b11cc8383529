// The list holds strings, not integers.
use parquet_rows::ParquetRow;

#[derive(ParquetRow)]
#[parquet(schema = "message m {
    OPTIONAL group tags (LIST) { REPEATED group list { OPTIONAL BINARY element (UTF8); } }
}")]
struct Tagged {
    tags: Option<Vec<Option<i64>>>,
}

fn main() {}
