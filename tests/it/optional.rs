//! OPTIONAL columns, as pyarrow, duckdb, polars and Spark write every column:
//! plain fields read them when they hold no null (and a null is an error
//! naming the row), `Option` fields read them with or without nulls; both
//! through the run-at-a-time level path, on data pages v1 and v2, PLAIN and
//! dictionary pages, many pages and row groups.

use std::sync::Arc;

use bytes::Bytes;
use parquet::file::properties::{WriterProperties, WriterVersion};
use parquet_rows::{Error, ParquetFile, ParquetRow, Timestamp};
use parquet_rows_suite::{write_columns, ColumnValues};

const SCHEMA: &str = "message ticks {
    OPTIONAL INT64 ts (TIMESTAMP(MICROS, true));
    OPTIONAL BINARY symbol (UTF8);
    OPTIONAL DOUBLE bid;
    OPTIONAL INT32 size;
}";

const SYMBOLS: [&str; 8] = [
    "EURUSD", "GBPUSD", "USDJPY", "AUDUSD", "USDCHF", "NZDUSD", "USDCAD", "EURGBP",
];

#[derive(ParquetRow, Debug, PartialEq)]
struct Plain<'a> {
    ts: i64,
    symbol: &'a str,
    bid: f64,
    size: i32,
}

#[derive(ParquetRow, Debug, PartialEq)]
struct PlainOwned {
    ts: Timestamp,
    symbol: String,
    bid: f64,
    size: i64,
}

/// `Arc<str>` has no cheap placeholder: decoded through buffers, not rows.
#[derive(ParquetRow, Debug, PartialEq)]
struct PlainShared {
    symbol: Arc<str>,
    size: i32,
}

#[derive(ParquetRow, Debug, PartialEq)]
struct Nullable<'a> {
    ts: Option<i64>,
    symbol: Option<&'a str>,
    bid: Option<f64>,
    size: Option<i32>,
}

#[derive(ParquetRow, Debug, PartialEq)]
struct NullableOwned {
    ts: Option<Timestamp>,
    symbol: Option<String>,
    bid: Option<f64>,
    size: Option<i64>,
}

#[derive(ParquetRow, Debug, PartialEq)]
struct NullableShared {
    symbol: Option<Arc<str>>,
    size: Option<i32>,
}

/// Which values are null: `(row, column) -> bool`.
type NullPattern = Box<dyn FnMut(usize, usize) -> bool>;

/// One row of the generated data; `None` where `null(i, column)` says.
type Row = (Option<i64>, Option<&'static str>, Option<f64>, Option<i32>);

/// A small deterministic generator (xorshift), so failures reproduce.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

/// `rows` rows split into row groups of `group` rows; `null` decides which
/// values are null (row, column).
fn data(rows: usize, null: &mut dyn FnMut(usize, usize) -> bool) -> Vec<Row> {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    (0..rows)
        .map(|i| {
            let r = rng.next();
            (
                (!null(i, 0)).then_some(1_700_000_000_000_000 + i as i64 * 7),
                (!null(i, 1)).then_some(SYMBOLS[(r % 8) as usize]),
                (!null(i, 2)).then_some(1.0 + f64::from((r >> 40) as u32) / 1e6),
                (!null(i, 3)).then_some((r % 1000) as i32),
            )
        })
        .collect()
}

fn write(rows: &[Row], group: usize, props: &WriterProperties) -> Bytes {
    let groups: Vec<Vec<ColumnValues>> = rows
        .chunks(group)
        .map(|chunk| {
            vec![
                ColumnValues::Int64(chunk.iter().map(|r| r.0).collect()),
                ColumnValues::Bytes(
                    chunk
                        .iter()
                        .map(|r| r.1.map(|s| s.as_bytes().to_vec()))
                        .collect(),
                ),
                ColumnValues::Double(chunk.iter().map(|r| r.2).collect()),
                ColumnValues::Int32(chunk.iter().map(|r| r.3).collect()),
            ]
        })
        .collect();
    write_columns(SCHEMA, props.clone(), &groups).expect("write")
}

/// Writer settings that cover the level and value paths: v1 and v2 pages,
/// dictionary or PLAIN, small pages (many pages per chunk) or one.
fn settings() -> Vec<(String, WriterProperties)> {
    let mut all = Vec::new();
    for version in [WriterVersion::PARQUET_1_0, WriterVersion::PARQUET_2_0] {
        for dictionary in [true, false] {
            for page_rows in [97, 20_000] {
                let props = WriterProperties::builder()
                    .set_writer_version(version)
                    .set_dictionary_enabled(dictionary)
                    .set_data_page_row_count_limit(page_rows)
                    .set_write_batch_size(page_rows.min(1024))
                    .build();
                let name = format!("{version:?} dictionary={dictionary} page_rows={page_rows}");
                all.push((name, props));
            }
        }
    }
    all
}

fn plain(rows: &[Row]) -> Vec<Plain<'static>> {
    rows.iter()
        .map(|r| Plain {
            ts: r.0.unwrap(),
            symbol: r.1.unwrap(),
            bid: r.2.unwrap(),
            size: r.3.unwrap(),
        })
        .collect()
}

fn nullable(rows: &[Row]) -> Vec<Nullable<'static>> {
    rows.iter()
        .map(|r| Nullable {
            ts: r.0,
            symbol: r.1,
            bid: r.2,
            size: r.3,
        })
        .collect()
}

#[test]
fn plain_fields_read_optional_columns_without_nulls() {
    let rows = data(5_000, &mut |_, _| false);
    for (name, props) in settings() {
        let bytes = write(&rows, 1_700, &props);
        let file = ParquetFile::from_bytes(bytes.clone()).unwrap();
        let pages = file.load::<Plain>().unwrap();
        assert_eq!(pages.rows::<Plain>().unwrap(), plain(&rows), "{name}");

        let owned: Vec<PlainOwned> = parquet_rows::from_bytes(bytes.clone()).unwrap();
        assert_eq!(owned.len(), rows.len(), "{name}");
        for (got, want) in owned.iter().zip(&rows) {
            assert_eq!(got.ts.value, want.0.unwrap(), "{name}");
            assert_eq!(Some(got.symbol.as_str()), want.1, "{name}");
            assert_eq!(Some(got.bid), want.2, "{name}");
            assert_eq!(got.size, i64::from(want.3.unwrap()), "{name}");
        }

        let shared: Vec<PlainShared> = parquet_rows::from_bytes(bytes).unwrap();
        for (got, want) in shared.iter().zip(&rows) {
            assert_eq!((Some(&*got.symbol), Some(got.size)), (want.1, want.3));
        }
    }
}

#[test]
fn option_fields_read_optional_columns_with_and_without_nulls() {
    let mut rng = Rng(42);
    // No nulls; scattered nulls (bit-packed levels); long runs of nulls and
    // of values (RLE levels), including whole pages of nulls.
    let patterns: Vec<(&str, NullPattern)> = vec![
        ("no nulls", Box::new(|_, _| false)),
        (
            "scattered",
            Box::new(move |_, _| rng.next().is_multiple_of(3)),
        ),
        ("runs", Box::new(|i, c| (i / (50 + 37 * c)) % 2 == 1)),
        ("all null", Box::new(|_, c| c != 1)),
    ];
    for (pattern, mut null) in patterns {
        let rows = data(4_000, &mut *null);
        for (name, props) in settings() {
            let bytes = write(&rows, 1_500, &props);
            let file = ParquetFile::from_bytes(bytes.clone()).unwrap();
            let pages = file.load::<Nullable>().unwrap();
            let got = pages.rows::<Nullable>().unwrap();
            assert_eq!(got, nullable(&rows), "{pattern}, {name}");

            let owned: Vec<NullableOwned> = parquet_rows::from_bytes(bytes.clone()).unwrap();
            for (got, want) in owned.iter().zip(&rows) {
                assert_eq!(got.ts.map(|t| t.value), want.0, "{pattern}, {name}");
                assert_eq!(got.symbol.as_deref(), want.1, "{pattern}, {name}");
                assert_eq!((got.bid, got.size), (want.2, want.3.map(i64::from)));
            }

            let shared: Vec<NullableShared> = parquet_rows::from_bytes(bytes).unwrap();
            for (got, want) in shared.iter().zip(&rows) {
                assert_eq!((got.symbol.as_deref(), got.size), (want.1, want.3));
            }
        }
    }
}

/// The error a read of `T` gives on `bytes`, as text.
fn decode_error<T: parquet_rows::OwnedRow + std::fmt::Debug>(bytes: Bytes) -> Error {
    match parquet_rows::from_bytes::<T>(bytes) {
        Err(e) => e,
        Ok(rows) => panic!("expected an error, got {} rows", rows.len()),
    }
}

#[test]
fn a_null_in_a_plain_field_is_an_error_naming_the_row() {
    #[derive(ParquetRow, Debug)]
    struct Sizes {
        size: i32,
    }
    #[derive(ParquetRow, Debug)]
    struct Symbols {
        symbol: String,
    }
    #[derive(ParquetRow, Debug)]
    struct Shared {
        symbol: Arc<str>,
    }
    // Row 3,456 (row group 2, row 456 in it) has a null size and symbol.
    let rows = data(5_000, &mut |i, c| i == 3_456 && c % 2 == 1);
    for (name, props) in settings() {
        let bytes = write(&rows, 1_500, &props);
        for (e, ty) in [
            (decode_error::<Sizes>(bytes.clone()), "i32"),
            (decode_error::<Symbols>(bytes.clone()), "String"),
            (decode_error::<Shared>(bytes.clone()), "Arc<str>"),
        ] {
            let column = if ty == "i32" { "size" } else { "symbol" };
            let Error::Value { location, message } = &e else {
                panic!("{name}: expected a value error, got {e:?}");
            };
            assert_eq!(
                (location.column.as_str(), location.row_group),
                (column, Some(2)),
                "{name}"
            );
            assert_eq!(
                message,
                &format!(
                    "null at row 456 of the row group, read into a field of type `{ty}`; \
                     use `Option<{ty}>` to read nulls"
                ),
                "{name}"
            );
        }
        // The same file reads into `Option` fields.
        let ok: Vec<NullableOwned> = parquet_rows::from_bytes(bytes).unwrap();
        assert_eq!(ok[3_456].size, None);
    }
}

#[test]
fn borrowed_plain_field_error_names_the_type_without_the_lifetime() {
    let rows = data(10, &mut |i, c| i == 7 && c == 1);
    let bytes = write(&rows, 10, &WriterProperties::builder().build());
    let file = ParquetFile::from_bytes(bytes).unwrap();
    let pages = file.load::<Plain>().unwrap();
    let e = pages.rows::<Plain>().unwrap_err();
    assert_eq!(
        e.to_string(),
        "bad value (column `symbol`, row group 0, page 1): null at row 7 of the row group, \
         read into a field of type `&str`; use `Option<&str>` to read nulls"
    );
}
