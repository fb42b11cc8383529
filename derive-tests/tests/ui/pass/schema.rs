// A struct checked against the schema it declares: every field type that reads
// its column compiles, and the schema is kept for the check at run time.
use std::sync::Arc;

use parquet_rows::ParquetRow;

#[derive(ParquetRow)]
#[parquet(schema = "message schema {
    REQUIRED INT64 ts (TIMESTAMP_MICROS);
    REQUIRED BINARY symbol (UTF8);
    OPTIONAL BINARY venue (STRING);
    REQUIRED DOUBLE bid;
    OPTIONAL DOUBLE ask;
    REQUIRED INT32 size (INTEGER(16, false));
    REQUIRED INT32 day (DATE);
    REQUIRED FIXED_LEN_BYTE_ARRAY(16) id (UUID);
    REQUIRED INT64 price (DECIMAL(18, 4));
    REQUIRED BINARY raw;
    OPTIONAL group tags (LIST) {
        REPEATED group list { OPTIONAL BINARY element (UTF8); }
    }
}")]
#[allow(dead_code)]
struct Tick<'a> {
    ts: parquet_rows::Timestamp,
    symbol: Arc<str>,
    venue: Option<&'a str>,
    bid: f64,
    ask: Option<f64>,
    size: u32,
    day: parquet_rows::Date,
    id: [u8; 16],
    price: parquet_rows::Decimal,
    raw: &'a [u8],
    // Columns the struct does not read (`tags`) are fine.
}

// Types the derive cannot tell from their tokens (an alias, a bare imported
// name) are left to the check when the file is opened.
type Micros = i64;
use parquet_rows::Timestamp;

#[derive(ParquetRow)]
#[parquet(schema = "message m { REQUIRED INT64 ts (TIMESTAMP(MICROS, true)); OPTIONAL INT64 at (TIMESTAMP(MICROS, true)); }")]
#[allow(dead_code)]
struct Aliased {
    ts: Micros,
    at: Option<Timestamp>,
}

fn main() {
    let declared = <Tick<'_> as ParquetRow<'_>>::DECLARED_SCHEMA.expect("declared");
    assert!(declared.contains("REQUIRED DOUBLE bid;"));
    assert_eq!(Tick::fields().declared_schema, Some(declared));
    assert!(Aliased::DECLARED_SCHEMA.is_some());
}
