// A struct checked against the footer of a sample file (relative to the
// crate's Cargo.toml); the schema read from it is kept for the run-time check.
use parquet_rows::ParquetRow;

#[derive(ParquetRow)]
#[parquet(schema_file = "tests/data/ticks.parquet")]
#[allow(dead_code)]
struct Tick<'a> {
    ts: i64,
    symbol: &'a str,
    bid: f64,
    ask: f64,
}

#[derive(ParquetRow)]
#[parquet(schema_file = "tests/data/ticks.parquet", rename_all = "snake_case")]
#[allow(dead_code)]
struct Prices {
    #[parquet(rename = "bid")]
    best_bid: Option<f64>,
    ask: f64,
}

fn main() {
    let declared = Tick::DECLARED_SCHEMA.expect("declared");
    assert_eq!(
        declared,
        "message schema {\n  REQUIRED INT64 ts (TIMESTAMP_MICROS);\n  REQUIRED BYTE_ARRAY symbol (UTF8);\n  REQUIRED DOUBLE bid;\n  REQUIRED DOUBLE ask;\n}"
    );
    assert_eq!(Prices::DECLARED_SCHEMA, Some(declared));
}
