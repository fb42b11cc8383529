//! Fields of the user's own types: `#[parquet(from = "T")]` reads the column
//! as `T` and converts with `From`, `#[parquet(try_from = "T")]` with
//! `TryFrom` (a refused value is `Error::Value` naming the column, row group
//! and row); in borrowed and owned structs, on `Option` fields with nulls,
//! with `&str` sources borrowing the pages for the conversion only.

use parquet::file::properties::WriterProperties;
use parquet_rows::{Error, ParquetFile, ParquetRow};
use parquet_rows_suite::{write_columns, ColumnValues};

const SCHEMA: &str = "message trades {
    REQUIRED DOUBLE price;
    OPTIONAL DOUBLE limit;
    OPTIONAL BINARY side (UTF8);
    OPTIONAL BINARY venue (UTF8);
}";

/// A newtype the crate knows nothing of.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Price(f64);

impl From<f64> for Price {
    fn from(value: f64) -> Self {
        Price(value)
    }
}

/// An enum parsed from a string column.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Side {
    Buy,
    Sell,
}

impl TryFrom<&str> for Side {
    type Error = String;
    fn try_from(value: &str) -> Result<Self, String> {
        match value {
            "B" => Ok(Side::Buy),
            "S" => Ok(Side::Sell),
            other => Err(format!("unknown side `{other}`")),
        }
    }
}

#[derive(ParquetRow, Debug, PartialEq)]
struct Owned {
    #[parquet(from = "f64")]
    price: Price,
    #[parquet(from = "f64")]
    limit: Option<Price>,
    #[parquet(try_from = "&str")]
    side: Side,
    venue: String,
}

#[derive(ParquetRow, Debug, PartialEq)]
struct Borrowed<'a> {
    #[parquet(from = "f64")]
    price: Price,
    #[parquet(try_from = "&str")]
    side: Option<Side>,
    venue: &'a str,
}

/// `Owned` with `side` an `Option`: nulls stay `None`.
#[derive(ParquetRow, Debug, PartialEq)]
struct OwnedNullable {
    #[parquet(from = "f64")]
    price: Price,
    #[parquet(from = "f64")]
    limit: Option<Price>,
    #[parquet(try_from = "&str")]
    side: Option<Side>,
    venue: String,
}

/// `rename` and a fallible conversion on the same field.
#[derive(ParquetRow, Debug, PartialEq)]
struct Renamed {
    #[parquet(try_from = "&str", rename = "side")]
    direction: Option<Side>,
}

/// A field whose own type is read as `Option<T>`: a null becomes a value.
#[derive(Debug, PartialEq)]
struct Limit(f64);

impl From<Option<f64>> for Limit {
    fn from(value: Option<f64>) -> Self {
        Limit(value.unwrap_or(f64::INFINITY))
    }
}

#[derive(ParquetRow, Debug, PartialEq)]
struct NullAsValue {
    #[parquet(from = "Option<f64>")]
    limit: Limit,
}

/// `rows` rows over row groups of `group` rows; every 7th `limit` null,
/// every 5th `side` null, `side` "B" or "S" except at `bad` rows.
fn file(rows: usize, group: usize, bad: &[usize]) -> bytes::Bytes {
    let groups: Vec<Vec<ColumnValues>> = (0..rows)
        .collect::<Vec<_>>()
        .chunks(group)
        .map(|rows| {
            let price = rows.iter().map(|&i| Some(num(i) / 4.0)).collect();
            let limit = rows
                .iter()
                .map(|&i| (i % 7 != 0).then_some(num(i)))
                .collect();
            let side = rows
                .iter()
                .map(|&i| {
                    let text: &[u8] = if bad.contains(&i) {
                        b"X"
                    } else if i % 2 == 0 {
                        b"B"
                    } else {
                        b"S"
                    };
                    (i % 5 != 0 || bad.contains(&i)).then(|| text.to_vec())
                })
                .collect();
            let venue = rows
                .iter()
                .map(|&i| Some(format!("v{}", i % 3).into_bytes()))
                .collect();
            vec![
                ColumnValues::Double(price),
                ColumnValues::Double(limit),
                ColumnValues::Bytes(side),
                ColumnValues::Bytes(venue),
            ]
        })
        .collect();
    let props = WriterProperties::builder()
        .set_data_page_row_count_limit(300)
        .set_write_batch_size(300)
        .build();
    write_columns(SCHEMA, props, &groups).expect("write")
}

/// `i` as a column value (the tests' row numbers fit in `u32`).
fn num(i: usize) -> f64 {
    f64::from(u32::try_from(i).expect("a small row number"))
}

fn side(i: usize) -> Option<Side> {
    match (i % 5, i % 2) {
        (0, _) => None,
        (_, 0) => Some(Side::Buy),
        _ => Some(Side::Sell),
    }
}

#[test]
fn newtypes_and_enums_read_through_from_and_try_from() {
    let bytes = file(3_000, 1_100, &[]);
    let file = ParquetFile::from_bytes(bytes.clone()).unwrap();
    let pages = file.load::<Borrowed>().unwrap();
    let borrowed: Vec<Borrowed> = pages.rows().unwrap();
    assert_eq!(borrowed.len(), 3_000);
    for (i, row) in borrowed.iter().enumerate() {
        let venue = format!("v{}", i % 3);
        let want = Borrowed {
            price: Price(num(i) / 4.0),
            side: side(i),
            venue: &venue,
        };
        assert_eq!(*row, want, "row {i}");
    }

    let renamed: Vec<Renamed> = parquet_rows::from_bytes(bytes.clone()).unwrap();
    let directions: Vec<Option<Side>> = renamed.into_iter().map(|r| r.direction).collect();
    assert_eq!(directions, (0..3_000).map(side).collect::<Vec<_>>());

    let limits: Vec<NullAsValue> = parquet_rows::from_bytes(bytes).unwrap();
    assert_eq!(limits[0].limit, Limit(f64::INFINITY));
    assert_eq!(limits[1].limit, Limit(1.0));
    assert_eq!(limits[14].limit, Limit(f64::INFINITY));
}

#[test]
fn owned_rows_convert_present_values_and_keep_nulls() {
    // `Owned::side` is a plain `Side`: the null at row 0 of `side` is the
    // null error of any plain field, before any conversion.
    let bytes = file(2_000, 700, &[]);
    let err = parquet_rows::from_bytes::<Owned>(bytes).unwrap_err();
    assert!(matches!(err, Error::Value { .. }), "{err}");
    assert!(err.to_string().contains("null at row 0"), "{err}");

    let rows: Vec<OwnedNullable> = parquet_rows::from_bytes(file(2_000, 700, &[])).unwrap();
    for (i, row) in rows.iter().enumerate() {
        let want = OwnedNullable {
            price: Price(num(i) / 4.0),
            limit: (i % 7 != 0).then_some(Price(num(i))),
            side: side(i),
            venue: format!("v{}", i % 3),
        };
        assert_eq!(*row, want, "row {i}");
    }
}

#[test]
fn a_refused_value_names_column_row_group_and_row() {
    // Row 1_234 is row 534 of row group 1 (row groups of 700 rows).
    let bytes = file(2_000, 700, &[1_234]);
    let err = parquet_rows::from_bytes::<Renamed>(bytes.clone()).unwrap_err();
    assert!(matches!(err, Error::Value { .. }), "{err:?}");
    assert_eq!(
        err.to_string(),
        "bad value (column `side`, row group 1): row 534 of the row group: unknown side `X`"
    );

    let file = ParquetFile::from_bytes(bytes).unwrap();
    let err = file
        .load::<Borrowed>()
        .unwrap()
        .rows::<Borrowed>()
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "bad value (column `side`, row group 1): row 534 of the row group: unknown side `X`"
    );
}
