//! A file with two top-level columns of one name (duckdb writes `column`
//! twice): a field binds to one of them with `#[parquet(nth = ...)]`, and a
//! field that does not say which is refused with a message that says how.

use parquet::file::properties::WriterProperties;
use parquet_rows::{Error, ParquetFile, ParquetRow};
use parquet_rows_suite::{write_columns, ColumnValues};

const SCHEMA: &str = "message duckdb_schema {
    OPTIONAL INT32 column;
    OPTIONAL INT64 id;
    OPTIONAL BYTE_ARRAY column (UTF8);
}";

fn file() -> bytes::Bytes {
    let columns = vec![
        ColumnValues::Int32(vec![Some(1), None, Some(3)]),
        ColumnValues::Int64(vec![Some(10), Some(20), Some(30)]),
        ColumnValues::Bytes(vec![Some(b"a".to_vec()), Some(b"b".to_vec()), None]),
    ];
    write_columns(SCHEMA, WriterProperties::builder().build(), &[columns]).expect("write")
}

#[derive(ParquetRow, Debug, PartialEq)]
struct Both {
    #[parquet(nth = 0)]
    column: Option<i32>,
    id: Option<i64>,
    #[parquet(rename = "column", nth = 1)]
    column_2: Option<String>,
}

/// The same, borrowing, with the fields in another order than the columns.
#[derive(ParquetRow, Debug, PartialEq)]
struct SecondFirst<'a> {
    #[parquet(rename = "column", nth = 1)]
    text: Option<&'a str>,
    #[parquet(rename = "column", nth = 0)]
    number: Option<i32>,
}

#[derive(ParquetRow, Debug)]
#[allow(dead_code)] // only ever fails to bind
struct Unsaid {
    column: Option<i32>,
}

#[derive(ParquetRow, Debug)]
#[allow(dead_code)] // only ever fails to bind
struct NoThird {
    #[parquet(nth = 2)]
    column: Option<i32>,
}

#[test]
fn nth_binds_each_of_two_columns_of_one_name() {
    let rows: Vec<Both> = parquet_rows::from_bytes(file()).expect("read");
    assert_eq!(
        rows,
        [
            Both {
                column: Some(1),
                id: Some(10),
                column_2: Some("a".into())
            },
            Both {
                column: None,
                id: Some(20),
                column_2: Some("b".into())
            },
            Both {
                column: Some(3),
                id: Some(30),
                column_2: None
            },
        ]
    );
    let file = ParquetFile::from_bytes(file()).expect("open");
    let pages = file.load::<SecondFirst<'_>>().expect("load");
    let rows: Vec<SecondFirst<'_>> = pages.rows().expect("rows");
    let expected = [(Some("a"), Some(1)), (Some("b"), None), (None, Some(3))];
    let got: Vec<(Option<&str>, Option<i32>)> = rows.iter().map(|r| (r.text, r.number)).collect();
    assert_eq!(got, expected);
}

fn schema_error<T: parquet_rows::OwnedRow + std::fmt::Debug>() -> String {
    match parquet_rows::from_bytes::<T>(file()) {
        Err(Error::Schema(e)) => e.to_string(),
        other => panic!("expected a schema error, got {other:?}"),
    }
}

#[test]
fn an_ambiguous_name_is_refused_with_the_fix() {
    assert_eq!(
        schema_error::<Unsaid>(),
        "struct `Unsaid` does not match the file's schema (1 mismatch):\n  \
         field `column: Option<i32>`: the file has 2 top-level columns named `column`; \
         say which one this field reads with #[parquet(nth = 0)] (the first) to #[parquet(nth = 1)] (the last)"
    );
    assert_eq!(
        schema_error::<NoThird>(),
        "struct `NoThird` does not match the file's schema (1 mismatch):\n  \
         field `column: Option<i32>` reads column `column` number 2 (`nth = 2`, counting from 0), \
         but the file has only 2 columns named `column`; use `nth` from 0 to 1"
    );
}

/// Parquet allows an empty column name (duckdb's `silly-names.parquet` has
/// one beside `önë` and `🦆`): `rename = ""` binds it, and the writer
/// writes it.
#[test]
fn an_empty_column_name_is_a_name() {
    #[derive(parquet_rows::ParquetRow, Debug, Clone, PartialEq)]
    struct Silly {
        #[parquet(rename = "önë")]
        one: i64,
        #[parquet(rename = "")]
        unnamed: String,
        #[parquet(rename = "🦆")]
        duck: bool,
    }
    let rows: Vec<Silly> = (0..3)
        .map(|i| Silly {
            one: i,
            unnamed: format!("v{i}"),
            duck: i % 2 == 0,
        })
        .collect();
    let mut bytes = Vec::new();
    parquet_rows::to_writer(&mut bytes, &rows).unwrap();
    let file = parquet_rows::ParquetFile::from_bytes(bytes::Bytes::from(bytes)).unwrap();
    let names: Vec<String> = file
        .metadata()
        .file_metadata()
        .schema_descr()
        .columns()
        .iter()
        .map(|c| c.name().to_owned())
        .collect();
    assert_eq!(names, ["önë", "", "🦆"]);
    let back: Vec<Silly> = file.rows().collect().unwrap();
    assert_eq!(back, rows);
}
