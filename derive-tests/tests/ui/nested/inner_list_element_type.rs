// A list of lists of INT32, read as lists of strings.
use parquet_rows::ParquetRow;

#[derive(ParquetRow)]
#[parquet(schema = "message m {
    REQUIRED group grid (LIST) {
        REPEATED group list {
            REQUIRED group element (LIST) { REPEATED group list { REQUIRED INT32 element; } }
        }
    }
}")]
struct Grid {
    grid: Vec<Vec<String>>,
}

fn main() {}
