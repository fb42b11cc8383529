//! Predicates beyond one comparison on a number or a string: fields of
//! time types and chrono types, converted fields (compared in their source
//! type), several fields on one column, `is_in`, `not` and `any_of`, each
//! on every filtered path against the full read filtered by hand.

use std::sync::Arc;

use bytes::Bytes;
use chrono::{DateTime, TimeZone, Utc};
use object_store::memory::InMemory;
use object_store::path::Path;
use object_store::{ObjectStore, ObjectStoreExt};
use parquet::file::properties::{EnabledStatistics, WriterProperties};
use parquet_rows::remote::RemoteFile;
use parquet_rows::{Cond, FilterOf, ParquetFile, ParquetRow, Query, Timestamp, Unit};
use parquet_rows_suite::{write_columns, ColumnValues};

use crate::filter::same;

/// Microseconds of row `i`: 1 ms apart, from 2026-03-20.
fn micros(i: usize) -> i64 {
    1_774_000_000_000_000 + i as i64 * 1_000
}

const ROWS: usize = 4_000;

/// 4 row groups of 1,000 rows sorted by `ts` (TIMESTAMP(MICROS, UTC)), a
/// null every 7th row, with page statistics, dictionaries and bloom filters.
fn file() -> Bytes {
    let props = WriterProperties::builder()
        .set_statistics_enabled(EnabledStatistics::Page)
        .set_dictionary_enabled(true)
        .set_bloom_filter_enabled(true)
        .set_data_page_row_count_limit(100)
        .set_write_batch_size(100)
        .build();
    let groups: Vec<Vec<ColumnValues>> = (0..4)
        .map(|g| {
            let rows = g * 1_000..(g + 1) * 1_000;
            let ts = rows
                .clone()
                .map(|i| (i % 7 != 3).then(|| micros(i)))
                .collect();
            let id = rows.map(|i| Some(i32::try_from(i).unwrap())).collect();
            vec![ColumnValues::Int64(ts), ColumnValues::Int32(id)]
        })
        .collect();
    write_columns(
        "message m { OPTIONAL INT64 ts (TIMESTAMP(MICROS, true)); REQUIRED INT32 id; }",
        props,
        &groups,
    )
    .unwrap()
}

/// Milliseconds since the epoch: a type of the user's own, made from the
/// column's `i64` (microseconds) by a conversion that is not an order the
/// filter could know.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Coarse(i64);

impl From<i64> for Coarse {
    fn from(micros: i64) -> Self {
        Coarse(micros / 1_000)
    }
}

/// One column read by four fields: an `i64`, a `Timestamp`, a chrono
/// instant, and a converted one.
#[derive(ParquetRow, Debug, Clone, PartialEq)]
struct Tick {
    ts: Option<i64>,
    #[parquet(rename = "ts")]
    at: Option<parquet_rows::Timestamp>,
    #[parquet(rename = "ts")]
    when: Option<chrono::DateTime<chrono::Utc>>,
    #[parquet(rename = "ts", from = "i64")]
    coarse: Option<Coarse>,
    id: i32,
}

fn remote(bytes: &Bytes) -> RemoteFile {
    let store: Arc<dyn ObjectStore> = Arc::new(InMemory::new());
    let location = Path::from("t.parquet");
    tokio::runtime::Builder::new_current_thread()
        .build()
        .unwrap()
        .block_on(store.put(&location, bytes.clone().into()))
        .unwrap();
    RemoteFile::open_blocking(store, location).unwrap()
}

/// `query` on every path equals the full read filtered by `keep`; returns
/// how many rows the borrowed load kept (to see pruning happen).
fn every_path(
    bytes: &Bytes,
    query: impl Into<Query<FilterOf<Tick>>>,
    keep: impl Fn(&Tick) -> bool,
    context: &str,
) -> usize {
    let query = query.into();
    let file = ParquetFile::from_bytes(bytes.clone()).unwrap();
    let full: Vec<Tick> = file.rows().collect().unwrap();
    assert_eq!(full.len(), ROWS);
    let want: Vec<&Tick> = full.iter().filter(|t| keep(t)).collect();
    let got: Vec<Tick> = file.rows().filter(query.clone()).collect().unwrap();
    same(
        &got.iter().collect::<Vec<_>>(),
        &want,
        &format!("read_where: {context}"),
    );
    let streamed: Vec<Tick> = file
        .rows::<Tick>()
        .filter(query.clone())
        .stream()
        .unwrap()
        .collect::<parquet_rows::Result<_>>()
        .unwrap();
    same(&streamed, &got, &format!("stream_where: {context}"));
    let parallel: Vec<Tick> = file
        .rows()
        .filter(query.clone())
        .threads(0)
        .collect()
        .unwrap();
    same(&parallel, &got, &format!("par_read_where: {context}"));
    let far: Vec<Tick> = remote(bytes)
        .rows()
        .filter(query.clone())
        .collect_blocking()
        .unwrap();
    same(&far, &got, &format!("remote: {context}"));
    let pages = file.rows::<Tick>().filter(query).load().unwrap();
    let loaded = pages.num_rows();
    let rows: Vec<Tick> = pages.rows().unwrap();
    same(&rows, &got, &format!("load_where: {context}"));
    loaded
}

fn ts(value: i64, unit: Unit) -> Timestamp {
    Timestamp {
        value,
        unit,
        utc: true,
    }
}

#[test]
fn fields_on_one_column_read_the_same_values() {
    let file = ParquetFile::from_bytes(file()).unwrap();
    let rows: Vec<Tick> = file.rows().collect().unwrap();
    for (i, r) in rows.iter().enumerate() {
        let want = (i % 7 != 3).then(|| micros(i));
        assert_eq!(r.ts, want);
        assert_eq!(r.at.map(|t| t.value), want);
        assert_eq!(r.when.map(|t| t.timestamp_micros()), want);
        assert_eq!(r.coarse, want.map(|v| Coarse(v / 1_000)));
    }
}

#[test]
fn timestamps_filter_in_any_unit_and_prune() {
    let bytes = file();
    let (lo, hi) = (micros(1_500), micros(1_540));
    // The same range in the column's unit, in millis and in nanos.
    for (a, b) in [
        (ts(lo, Unit::Micros), ts(hi, Unit::Micros)),
        (ts(lo / 1_000, Unit::Millis), ts(hi / 1_000, Unit::Millis)),
        (ts(lo * 1_000, Unit::Nanos), ts(hi * 1_000, Unit::Nanos)),
    ] {
        let loaded = every_path(
            &bytes,
            Tick::filter().at().in_range(a..b),
            |t| t.ts.is_some_and(|v| (lo..hi).contains(&v)),
            &format!("{a:?}..{b:?}"),
        );
        assert!(loaded <= 200, "{loaded} rows loaded for 40 matching");
    }
    // An instant between two stored ones: no row. Its page's bounds hold it,
    // and it is no whole count of the column's microseconds, so the
    // dictionary and the bloom filter are not asked: that page is read.
    let between = ts(micros(2_000) * 1_000 + 1, Unit::Nanos);
    let loaded = every_path(
        &bytes,
        Tick::filter().at().eq(between),
        |_| false,
        "between",
    );
    assert!(loaded <= 100, "{loaded} rows loaded for none");
    let on = ts(micros(2_001) * 1_000, Unit::Nanos);
    every_path(
        &bytes,
        Tick::filter().at().eq(on),
        |t| t.ts == Some(micros(2_001)),
        "on a stored instant, in nanos",
    );
    // chrono values for a chrono field.
    let start: DateTime<Utc> = Utc.timestamp_micros(micros(3_990)).unwrap();
    let loaded = every_path(
        &bytes,
        Tick::filter().when().ge(start),
        |t| t.ts.is_some_and(|v| v >= micros(3_990)),
        "chrono",
    );
    assert!(loaded <= 100, "{loaded} rows loaded for 10");
}

#[test]
fn converted_fields_compare_in_their_source_type() {
    let bytes = file();
    // `coarse` holds millis; its predicates take the column's micros.
    let loaded = every_path(
        &bytes,
        Tick::filter().coarse().lt(micros(20)),
        |t| t.ts.is_some_and(|v| v < micros(20)),
        "coarse < micros(20)",
    );
    assert!(loaded <= 100, "{loaded} rows loaded for 20");
    every_path(
        &bytes,
        Tick::filter().coarse().is_null(),
        |t| t.ts.is_none(),
        "coarse is null",
    );
}

#[test]
fn disjunctions_and_negations_on_every_path() {
    let bytes = file();
    let (a, b) = (micros(10), micros(3_980));
    // Two ends of the file: the middle row groups are pruned.
    let loaded = every_path(
        &bytes,
        Tick::filter().ts().any_of([Cond::lt(a), Cond::ge(b)]),
        |t| t.ts.is_some_and(|v| v < a || v >= b),
        "any_of",
    );
    assert!(loaded <= 400, "{loaded} rows loaded for 30");
    let wanted = [micros(5), micros(2_222), micros(3_999), micros(3)];
    let loaded = every_path(
        &bytes,
        Tick::filter().ts().is_in(wanted),
        |t| t.ts.is_some_and(|v| wanted.contains(&v)),
        "is_in",
    );
    assert!(loaded <= 400, "{loaded} rows loaded for 3");
    every_path(
        &bytes,
        Tick::filter().ts().is_in::<i64>([]),
        |_| false,
        "is_in nothing",
    );
    // `not` keeps the nulls, so on `ts` (a null in every page) it prunes
    // nothing; on `id` (no nulls) the row groups wholly inside the range go.
    let (lo, hi) = (micros(500), micros(3_500));
    every_path(
        &bytes,
        Tick::filter().ts().not().in_range(lo..hi),
        |t| !t.ts.is_some_and(|v| (lo..hi).contains(&v)),
        "not in_range, nulls",
    );
    let loaded = every_path(
        &bytes,
        Tick::filter().id().not().in_range(500..3_500),
        |t| !(500..3_500).contains(&t.id),
        "not in_range",
    );
    assert!(loaded <= 1_200, "{loaded} rows loaded for 1,000");
    every_path(
        &bytes,
        Tick::filter()
            .at()
            .not()
            .is_null()
            .id()
            .matches(!Cond::between(100, 3_000)),
        |t| t.at.is_some() && !(100..=3_000).contains(&t.id),
        "not is_null, not between",
    );
    every_path(
        &bytes,
        Tick::filter()
            .id()
            .matches(Cond::lt(50).or(Cond::gt(3_950).and(!Cond::eq(3_999)))),
        |t| t.id < 50 || (t.id > 3_950 && t.id != 3_999),
        "nested or/and/not",
    );
}
