//! `#[parquet(partition)]` fields on files read on their own: values from
//! `ParquetFile::with_partitions`, parsed into each supported type, the same
//! in every read path, and predicates on them decided once per file.

use std::sync::Arc;

use parquet_rows::doc_support::tick_file;
use parquet_rows::{ParquetFile, ParquetRow, Partitions};

#[derive(ParquetRow, Debug, Clone, PartialEq)]
#[parquet(rename_all = "camelCase")]
struct Quote {
    ts: i64,
    bid: f64,
    #[parquet(partition)]
    date: String,
    #[parquet(partition, rename = "venue")]
    trading_venue: Option<String>,
    #[parquet(partition)]
    hour: u8,
    #[parquet(partition)]
    live: bool,
    #[parquet(partition)]
    shard: Option<i32>,
    #[parquet(partition)]
    region: Box<str>,
    #[parquet(partition)] // key `deskName`, after `rename_all`
    desk_name: Arc<str>,
}

/// A borrowed row: `&str` columns and owned partition values.
#[derive(ParquetRow, Debug)]
struct Tick<'a> {
    symbol: &'a str,
    #[parquet(partition)]
    date: String,
}

/// The schema check at compile time: partition fields are not in the file.
#[derive(ParquetRow, Debug)]
#[parquet(schema = "message schema { REQUIRED INT64 ts (TIMESTAMP_MICROS); }")]
struct Declared {
    ts: i64,
    #[parquet(partition)]
    date: String,
}

const PATH: &str =
    "ticks/date=2026-01-02/venue=XLON/hour=7/live=true/region=eu/deskName=fx/f.parquet";

fn file(rows: usize) -> ParquetFile {
    ParquetFile::from_bytes(tick_file(rows).unwrap()).unwrap()
}

#[test]
fn partition_fields_hold_the_path_values_parsed() {
    let rows: Vec<Quote> = file(10)
        .with_partitions(Partitions::from_path(PATH))
        .rows()
        .collect()
        .unwrap();
    assert_eq!(rows.len(), 10);
    for q in &rows {
        assert_eq!(q.date, "2026-01-02");
        assert_eq!(q.trading_venue.as_deref(), Some("XLON"));
        assert_eq!((q.hour, q.live, q.shard), (7, true, None));
        assert_eq!((&*q.region, &*q.desk_name), ("eu", "fx"));
    }
    // Every read path fills them the same way.
    let file = file(3000).with_partitions(Partitions::from_path(PATH));
    let read: Vec<Quote> = file.rows().collect().unwrap();
    let pages = file.load::<Quote>().unwrap();
    assert_eq!(pages.rows::<Quote>().unwrap(), read);
    assert_eq!(pages.par_rows::<Quote>().unwrap(), read);
    assert_eq!(file.rows::<Quote>().threads(0).collect().unwrap(), read);
    let streamed: Vec<Quote> = file
        .rows()
        .stream()
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    assert_eq!(streamed, read);
    let pages = file.load::<Tick>().unwrap();
    let ticks: Vec<Tick<'_>> = pages.rows().unwrap();
    assert!(ticks
        .iter()
        .all(|t| t.date == "2026-01-02" && t.symbol == "EURUSD"));
    let declared: Vec<Declared> = file.rows().collect().unwrap();
    assert_eq!(declared.len(), 3000);
    assert_eq!(declared[0].date, "2026-01-02");
}

#[test]
fn a_file_read_on_its_own_has_no_partition_values_unless_given() {
    let err = file(10).rows::<Quote>().collect().unwrap_err().to_string();
    assert!(
        err.contains("no partition `date`") && err.contains("with_partitions"),
        "{err}"
    );
    let bad =
        Partitions::from_path("date=d/venue=v/hour=24h/live=true/region=r/deskName=d/f.parquet");
    let err = file(10)
        .with_partitions(bad)
        .rows::<Quote>()
        .collect()
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("partition `hour=24h` does not parse as `u8` (field `hour`)"),
        "{err}"
    );
}

#[test]
fn predicates_on_partition_fields_are_decided_once_per_file() {
    let file = file(2000).with_partitions(Partitions::from_path(PATH));
    let all: Vec<Quote> = file.rows().collect().unwrap();
    let t0 = all[0].ts;
    let query = |hour: u8| {
        Quote::filter()
            .hour()
            .eq(hour)
            .ts()
            .lt(t0 + 500 * 137)
            .trading_venue()
            .eq("XLON")
            .shard()
            .is_null()
    };
    let rows: Vec<Quote> = file.rows().filter(query(7)).collect().unwrap();
    let naive: Vec<Quote> = all
        .iter()
        .filter(|q| q.ts < t0 + 500 * 137)
        .cloned()
        .collect();
    assert_eq!(rows.len(), 500);
    assert_eq!(rows, naive);
    assert_eq!(
        file.rows::<Quote>()
            .filter(query(7))
            .threads(0)
            .collect()
            .unwrap(),
        naive
    );
    let pages = file.rows::<Quote>().filter(query(7)).load().unwrap();
    assert_eq!(pages.rows::<Quote>().unwrap(), naive);
    // Another hour rules the whole file out: no row group is loaded.
    assert!(file
        .rows::<Quote>()
        .filter(query(8))
        .collect()
        .unwrap()
        .is_empty());
    assert!(file
        .rows::<Quote>()
        .filter(query(8))
        .threads(0)
        .collect()
        .unwrap()
        .is_empty());
    let pages = file.rows::<Quote>().filter(query(8)).load().unwrap();
    assert_eq!(pages.num_rows(), 0);
    assert!(pages.rows::<Quote>().unwrap().is_empty());
    // A value that does not parse is an error, not a pruned file.
    let bad = ParquetFile::from_bytes(tick_file(10).unwrap())
        .unwrap()
        .with_partitions([("hour", "x"), ("date", "d")].into_iter().collect());
    let err = bad
        .rows::<Quote>()
        .filter(query(7))
        .collect()
        .unwrap_err()
        .to_string();
    assert!(err.contains("`hour=x`"), "{err}");
}
