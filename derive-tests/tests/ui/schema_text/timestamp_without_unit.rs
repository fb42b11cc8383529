// TIMESTAMP needs its unit and UTC flag.
use parquet_rows::ParquetRow;

#[derive(ParquetRow)]
#[parquet(schema = "message m { REQUIRED INT64 ts (TIMESTAMP); }")]
struct Quote {
    ts: i64,
}

fn main() {}
