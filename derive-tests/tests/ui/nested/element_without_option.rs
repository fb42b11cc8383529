// The elements may be null: they need `Option<f64>`.
use parquet_rows::ParquetRow;

#[derive(ParquetRow)]
#[parquet(schema = "message m {
    REQUIRED group scores (LIST) { REPEATED group list { OPTIONAL DOUBLE element; } }
}")]
struct Scores {
    scores: Vec<f64>,
}

fn main() {}
