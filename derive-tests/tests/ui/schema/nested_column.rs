// Groups (and REPEATED columns) cannot be read yet.
use parquet_rows::ParquetRow;

#[derive(ParquetRow)]
#[parquet(schema = "message m {
    OPTIONAL group tags (LIST) {
        REPEATED group list { OPTIONAL BINARY element (UTF8); }
    }
}")]
struct Tagged {
    tags: Vec<u8>,
}

fn main() {}
