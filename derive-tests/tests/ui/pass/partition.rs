// `partition`: fields filled from the file's `key=value` path directories,
// with typed filter methods, outside the declared schema.
use parquet_rows::{ParquetRow, Partitions, RowFilter};

#[derive(ParquetRow)]
#[parquet(rename_all = "camelCase")]
#[parquet(schema = "message schema { REQUIRED INT64 ts (TIMESTAMP_MICROS); REQUIRED BINARY symbol (UTF8); }")]
struct Tick<'a> {
    ts: i64,
    symbol: &'a str,
    #[parquet(partition)]
    date: String,
    #[parquet(partition, rename = "h")]
    hour_of_day: Option<u8>,
    #[parquet(partition)]
    trading_venue: std::sync::Arc<str>,
}

fn main() {
    // Partition fields read no column.
    assert_eq!(Tick::fields().specs.len(), 2);
    let query = Tick::filter()
        .date()
        .eq("2026-01-02")
        .hour_of_day()
        .lt(12)
        .trading_venue()
        .ne("XLON")
        .limit(10);
    let _ = query;
    let p = Partitions::from_path("date=2026-01-02/h=7/tradingVenue=XPAR/f.parquet");
    assert_eq!(p.get("tradingVenue"), Some("XPAR"));
}
