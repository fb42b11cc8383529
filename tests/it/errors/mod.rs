//! Errors: schema mismatches (exact messages), invalid values, and corrupt,
//! truncated or malformed files, which must give `Err` and never panic or hang.

// Most structs here exist to be bound against a schema they do not match, or
// to be decoded for the error only: their fields are never read.
#![allow(dead_code)]

mod paths;

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{mpsc, Arc};
use std::time::Duration;

use bytes::Bytes;
use parquet::basic::Encoding;
use parquet::column::page::Page;
use parquet::file::properties::{WriterProperties, WriterVersion};
use parquet_rows::{Error, MismatchKind, ParquetFile, ParquetRow, SchemaError};
use parquet_rows_suite::panics::{panic_message, quiet_panics_in_quiet_threads};
use parquet_rows_suite::{all_pages, file_metadata, write_columns, ColumnValues};

// ---------------------------------------------------------------------------
// Schema mismatches
// ---------------------------------------------------------------------------

const QUOTES_SCHEMA: &str = "message quotes {
    REQUIRED INT64 ts (TIMESTAMP_MICROS);
    REQUIRED BINARY symbol (UTF8);
    REQUIRED DOUBLE bid;
    OPTIONAL DOUBLE ask;
    OPTIONAL INT32 size;
    REPEATED INT32 levels;
    OPTIONAL group venue {
        REQUIRED BINARY name (UTF8);
    }
    OPTIONAL INT96 legacy_ts;
    OPTIONAL INT32 nothing (UNKNOWN);
}";

const COLUMNS: &str =
    "`ts`, `symbol`, `bid`, `ask`, `size`, `levels`, `venue`, `legacy_ts`, `nothing`";

/// A file with the quotes schema and no row group: binding needs only the schema.
fn quotes_file() -> ParquetFile {
    let bytes = write_columns(QUOTES_SCHEMA, WriterProperties::builder().build(), &[])
        .expect("write the quotes schema");
    ParquetFile::from_bytes(bytes).expect("open")
}

/// The schema error `T` gets on the quotes file, checked to be the same from
/// every entry point that binds (`'static`: binding borrows nothing, and it
/// lets borrowing structs be checked too; `read` is checked in
/// `wrong_type_suggests_a_field_type`).
fn schema_error<T: ParquetRow<'static>>() -> SchemaError {
    let file = quotes_file();
    let errors = [
        file.load::<T>().map(drop),
        file.rows::<T>().limit(3).load().map(drop),
        file.rows::<T>().offset(1).load().map(drop),
    ];
    let mut first: Option<SchemaError> = None;
    for result in errors {
        match result {
            Err(Error::Schema(e)) => match &first {
                Some(f) => assert_eq!(*f, e, "every entry point reports the same mismatches"),
                None => first = Some(e),
            },
            other => panic!("expected a schema error, got {other:?}"),
        }
    }
    first.expect("three results")
}

/// The one mismatch of a struct with one bad field, and the error's full text.
fn one_mismatch<T: ParquetRow<'static>>() -> (MismatchKind, String) {
    let e = schema_error::<T>();
    assert_eq!(e.mismatches.len(), 1, "{e}");
    (e.mismatches[0].kind.clone(), e.to_string())
}

#[test]
fn wrong_type_suggests_a_field_type() {
    #[derive(ParquetRow, Debug)]
    struct Quote {
        ts: i64,
        bid: f32,
    }
    #[derive(ParquetRow, Debug)]
    struct Stamp<'a> {
        ts: &'a str,
    }
    #[derive(ParquetRow, Debug)]
    struct Legacy {
        legacy_ts: Option<f64>,
    }
    #[derive(ParquetRow, Debug)]
    struct Nothing {
        nothing: Option<f32>,
    }

    let (kind, message) = one_mismatch::<Quote>();
    assert_eq!(
        kind,
        MismatchKind::WrongType {
            expected: "FLOAT",
            found: "REQUIRED DOUBLE".into(),
            suggestion: Some(&["f64"]),
        }
    );
    assert_eq!(
        message,
        "struct `Quote` does not match the file's schema (1 mismatch):\n  \
         field `bid: f32` cannot read column `bid` (REQUIRED DOUBLE): `f32` reads FLOAT; use `f64`"
    );
    // Owned rows bind the same way.
    match quotes_file().rows::<Quote>().collect() {
        Err(Error::Schema(e)) => assert_eq!(e.to_string(), message),
        other => panic!("expected a schema error, got {other:?}"),
    }

    // A string field on a timestamp column: the annotation is named, and the
    // suggestion lists the field types that read it.
    let (kind, message) = one_mismatch::<Stamp>();
    assert_eq!(
        kind,
        MismatchKind::WrongType {
            expected: "BYTE_ARRAY annotated STRING, ENUM or JSON",
            found: "REQUIRED INT64 (TIMESTAMP_MICROS)".into(),
            suggestion: Some(&["parquet_rows::Timestamp", "i64"]),
        }
    );
    assert!(
        message.ends_with(
            "field `ts: &'a str` cannot read column `ts` (REQUIRED INT64 (TIMESTAMP_MICROS)): \
             `&'a str` reads BYTE_ARRAY annotated STRING, ENUM or JSON; \
             use `parquet_rows::Timestamp` or `i64`"
        ),
        "{message}"
    );

    // INT96 (legacy timestamps).
    let (kind, _) = one_mismatch::<Legacy>();
    assert!(
        matches!(kind, MismatchKind::WrongType { ref found, suggestion: Some(s), .. }
            if found == "OPTIONAL INT96" && s == ["parquet_rows::Timestamp", "parquet_rows::Int96"]),
        "{kind:?}"
    );

    // A column no field type reads: no suggestion.
    let (kind, message) = one_mismatch::<Nothing>();
    assert_eq!(
        kind,
        MismatchKind::WrongType {
            expected: "FLOAT",
            found: "OPTIONAL INT32 (UNKNOWN)".into(),
            suggestion: None,
        }
    );
    assert!(
        message.ends_with(
            "field `nothing: Option<f32>` cannot read column `nothing` (OPTIONAL INT32 (UNKNOWN)): \
             `Option<f32>` reads FLOAT; no field type reads this column yet"
        ),
        "{message}"
    );
}

#[test]
fn missing_column_lists_columns_and_suggests_a_close_name() {
    #[derive(ParquetRow, Debug)]
    struct Typo<'a> {
        symbl: &'a str,
    }
    #[derive(ParquetRow, Debug)]
    #[parquet(rename_all = "SCREAMING_SNAKE_CASE")]
    struct Shouting {
        legacy_ts: Option<i64>,
    }
    #[derive(ParquetRow, Debug)]
    struct Exchange {
        exchange: String,
    }

    let (kind, message) = one_mismatch::<Typo>();
    assert_eq!(
        kind,
        MismatchKind::MissingColumn {
            available: [
                "ts",
                "symbol",
                "bid",
                "ask",
                "size",
                "levels",
                "venue",
                "legacy_ts",
                "nothing",
            ]
            .map(String::from)
            .to_vec(),
            closest: Some("symbol".into()),
        }
    );
    assert_eq!(
        message,
        format!(
            "struct `Typo` does not match the file's schema (1 mismatch):\n  \
             field `symbl: &'a str`: the file has no column `symbl`; did you mean `symbol`? \
             (use #[parquet(rename = \"symbol\")]); its columns are {COLUMNS}"
        )
    );

    // Case and separators differ: still found as the close name.
    let (kind, _) = one_mismatch::<Shouting>();
    assert!(
        matches!(&kind, MismatchKind::MissingColumn { closest: Some(c), .. } if c == "legacy_ts"),
        "{kind:?}"
    );

    // Nothing close: no suggestion.
    let (kind, message) = one_mismatch::<Exchange>();
    assert!(
        matches!(kind, MismatchKind::MissingColumn { closest: None, .. }),
        "{kind:?}"
    );
    assert!(
        message.ends_with(&format!(
            "field `exchange: String`: the file has no column `exchange`; its columns are {COLUMNS}"
        )),
        "{message}"
    );
}

#[test]
fn nested_and_repeated_columns() {
    #[derive(ParquetRow, Debug)]
    struct Levels {
        levels: i32,
    }
    #[derive(ParquetRow, Debug)]
    struct Venue<'a> {
        venue: Option<&'a str>,
    }

    let (kind, message) = one_mismatch::<Levels>();
    assert_eq!(
        kind,
        MismatchKind::Nested {
            found: "REPEATED INT32".into(),
            hint: "the column is REPEATED; read it with `Vec<_>`".into()
        }
    );
    assert!(
        message.ends_with(
            "field `levels: i32` cannot read column `levels` (REPEATED INT32): \
             the column is REPEATED; read it with `Vec<_>`"
        ),
        "{message}"
    );

    let (kind, message) = one_mismatch::<Venue>();
    assert_eq!(
        kind,
        MismatchKind::Nested {
            found: "OPTIONAL group".into(),
            hint: "the column is a group; read it with a struct that derives `ParquetRow`".into()
        }
    );
    assert!(
        message.contains("(OPTIONAL group): the column is a group; read it with a struct"),
        "{message}"
    );
}

#[test]
fn every_mismatch_in_one_error() {
    #[derive(ParquetRow, Debug)]
    struct Everything<'a> {
        ts: i64, // fine
        bid: f32,
        size: f32, // a wrong type (an OPTIONAL column is fine for any type)
        symbl: &'a str,
        levels: i32,
        #[parquet(skip)]
        note: String, // skipped: never a mismatch
        ask: Option<f64>, // fine
        venue: String,
    }

    let e = schema_error::<Everything>();
    assert_eq!(e.struct_name, "Everything");
    let fields: Vec<&str> = e.mismatches.iter().map(|m| m.field.as_str()).collect();
    assert_eq!(
        fields,
        ["bid", "size", "symbl", "levels", "venue"],
        "in field order"
    );
    assert!(matches!(
        e.mismatches[0].kind,
        MismatchKind::WrongType { .. }
    ));
    assert!(matches!(
        e.mismatches[1].kind,
        MismatchKind::WrongType { .. }
    ));
    assert!(matches!(
        e.mismatches[2].kind,
        MismatchKind::MissingColumn { .. }
    ));
    assert!(matches!(e.mismatches[3].kind, MismatchKind::Nested { .. }));
    assert!(matches!(e.mismatches[4].kind, MismatchKind::Nested { .. }));
    assert_eq!(e.mismatches[1].rust_type, "f32");
    assert_eq!(e.mismatches[2].column, "symbl");
    let message = e.to_string();
    let lines: Vec<&str> = message.lines().collect();
    assert_eq!(
        lines[0],
        "struct `Everything` does not match the file's schema (5 mismatches):"
    );
    assert_eq!(lines.len(), 6, "{message}");
    for (line, field) in lines[1..].iter().zip(fields) {
        assert!(line.starts_with(&format!("  field `{field}: ")), "{line}");
    }
    // The same text through `Error`, with the `SchemaError` as its source.
    let err = quotes_file().load::<Everything>().expect_err("mismatches");
    assert_eq!(err.to_string(), message);
    let source = std::error::Error::source(&err).expect("a source");
    assert_eq!(source.to_string(), message);
}

#[test]
fn decoding_pages_loaded_for_another_struct() {
    #[derive(ParquetRow, Debug)]
    struct A {
        a: i32,
    }
    #[derive(ParquetRow, Debug)]
    struct B {
        b: f64,
    }
    #[derive(ParquetRow, Debug)]
    struct WrongB {
        b: i64,
    }

    // `Pages::rows` binds again: a struct reading columns that were not loaded,
    // or that does not match, is an error, not garbage.
    let bytes = write_columns(
        "message m { REQUIRED INT32 a; REQUIRED DOUBLE b; }",
        WriterProperties::builder().build(),
        &[vec![
            ColumnValues::Int32(vec![Some(1), Some(2)]),
            ColumnValues::Double(vec![Some(1.5), Some(2.5)]),
        ]],
    )
    .expect("write");
    let file = ParquetFile::from_bytes(bytes).expect("open");
    let pages = file.load::<A>().expect("load");
    assert_eq!(pages.rows::<A>().expect("rows").len(), 2);
    let err = pages.rows::<B>().expect_err("b was not loaded");
    assert!(
        matches!(&err, Error::Unsupported { location, .. } if location.column == "b"),
        "{err:?}"
    );
    let err = pages.rows::<WrongB>().expect_err("b is DOUBLE");
    assert!(matches!(err, Error::Schema(_)), "{err:?}");
}

// ---------------------------------------------------------------------------
// Values that do not fit their field
// ---------------------------------------------------------------------------

/// Writer settings for the value tests: dictionary on or off, page v1 or v2
/// (PLAIN fallback, see roundtrip/), several pages.
fn variants() -> Vec<(String, bool, WriterProperties)> {
    let mut out = Vec::new();
    for version in [WriterVersion::PARQUET_1_0, WriterVersion::PARQUET_2_0] {
        for dictionary in [true, false] {
            let props = WriterProperties::builder()
                .set_writer_version(version)
                .set_encoding(Encoding::PLAIN)
                .set_dictionary_enabled(dictionary)
                .set_write_batch_size(64)
                .set_data_page_row_count_limit(128)
                .build();
            out.push((
                format!("{version:?}, dictionary {dictionary}"),
                dictionary,
                props,
            ));
        }
    }
    out
}

const BAD_ROW: usize = 500;

/// Checks that `result` is an invalid UTF-8 error naming `column`.
fn check_utf8_error(what: &str, result: Result<usize, Error>, column: &str) {
    match result {
        Err(Error::Value { location, message }) => {
            assert_eq!(location.column, column, "{what}");
            assert_eq!(location.row_group, Some(0), "{what}");
            assert!(message.contains("invalid UTF-8"), "{what}: {message}");
            let text = Error::Value { location, message }.to_string();
            assert!(
                text.contains(&format!("column `{column}`")),
                "{what}: {text}"
            );
        }
        other => panic!("{what}: expected an invalid UTF-8 error, got {other:?}"),
    }
}

#[test]
fn invalid_utf8_is_an_error_naming_the_column() {
    #[derive(ParquetRow, Debug)]
    struct Borrowed<'a> {
        s: &'a str,
    }
    #[derive(ParquetRow, Debug)]
    struct Owned {
        s: String,
    }
    #[derive(ParquetRow, Debug)]
    struct Optional<'a> {
        o: Option<&'a str>,
    }
    #[derive(ParquetRow, Debug)]
    struct OptionalOwned {
        o: Option<String>,
    }
    #[derive(ParquetRow, Debug)]
    struct Bytes_<'a> {
        s: &'a [u8],
        o: Option<Vec<u8>>,
    }
    #[derive(ParquetRow, Debug)]
    struct Valid<'a> {
        ok: &'a str,
    }

    let schema = "message m { REQUIRED BINARY s (UTF8); OPTIONAL BINARY o (UTF8); REQUIRED BINARY ok (UTF8); }";
    let text = |i: usize| format!("value {} é", i % 10).into_bytes();
    let s = (0..1000)
        .map(|i| {
            Some(if i == BAD_ROW {
                vec![b'a', 0xff, b'b']
            } else {
                text(i)
            })
        })
        .collect();
    let o = (0..1000)
        .map(|i| match i {
            BAD_ROW => Some(vec![0xc3, 0x28]), // an invalid 2-byte sequence
            i if i % 3 == 0 => None,
            i => Some(text(i)),
        })
        .collect();
    let ok = (0..1000).map(|i| Some(text(i))).collect();
    let columns = vec![
        ColumnValues::Bytes(s),
        ColumnValues::Bytes(o),
        ColumnValues::Bytes(ok),
    ];

    for (what, dictionary, props) in variants() {
        let bytes = write_columns(schema, props, std::slice::from_ref(&columns)).expect("write");
        // With a dictionary, the bad value sits in the dictionary page (whose
        // entries are all checked, used or not); without, in a PLAIN data page.
        for column in &all_pages(&bytes)[0] {
            let has_dictionary = column
                .iter()
                .any(|p| matches!(p, Page::DictionaryPage { .. }));
            assert_eq!(has_dictionary, dictionary, "{what}");
        }
        let file = ParquetFile::from_bytes(bytes).expect("open");
        let borrowed = file
            .load::<Borrowed>()
            .and_then(|p| p.rows::<Borrowed>().map(|r| r.len()));
        check_utf8_error(&format!("{what}: &str"), borrowed, "s");
        check_utf8_error(
            &format!("{what}: String"),
            file.rows::<Owned>().collect().map(|r| r.len()),
            "s",
        );
        let optional = file
            .load::<Optional>()
            .and_then(|p| p.rows::<Optional>().map(|r| r.len()));
        check_utf8_error(&format!("{what}: Option<&str>"), optional, "o");
        check_utf8_error(
            &format!("{what}: Option<String>"),
            file.rows::<OptionalOwned>().collect().map(|r| r.len()),
            "o",
        );
        // The bytes are readable as bytes.
        let pages = file.load::<Bytes_>().expect("load");
        let rows: Vec<Bytes_<'_>> = pages.rows().expect("bytes fields take any bytes");
        assert_eq!(rows[BAD_ROW].s, b"a\xffb", "{what}");
        assert_eq!(
            rows[BAD_ROW].o.as_deref(),
            Some(&[0xc3, 0x28][..]),
            "{what}"
        );
        // A valid column of the same file decodes.
        let pages = file.load::<Valid>().expect("load");
        assert_eq!(
            pages.rows::<Valid>().expect("valid UTF-8").len(),
            1000,
            "{what}"
        );
    }
}

/// The bytes of row `i` of a test column.
type TextValue<'a> = &'a dyn Fn(usize) -> Vec<u8>;

/// DELTA_LENGTH_BYTE_ARRAY and DELTA_BYTE_ARRAY text is validated once per
/// page, then sliced without checking each value again (`physical::Utf8`): a
/// page whose bytes are valid UTF-8 as a whole but which splits a character
/// between two values must still be an error, as must an invalid byte.
#[test]
fn delta_text_splitting_a_character_or_invalid_is_an_error() {
    #[derive(ParquetRow, Debug)]
    struct Borrowed<'a> {
        s: &'a str,
    }
    #[derive(ParquetRow, Debug)]
    struct Owned {
        s: String,
    }
    let schema = "message m { REQUIRED BINARY s (UTF8); }";
    let good = |i: usize| format!("v{} é 日本", i % 7).into_bytes();
    // Rows 10 and 11 together are "é" (0xc3 0xa9), split between the two.
    let split = |i: usize| match i {
        10 => vec![b'a', 0xc3],
        11 => vec![0xa9, b'b'],
        i => good(i),
    };
    let invalid = |i: usize| if i == 10 { vec![b'a', 0xff] } else { good(i) };
    let cases: [(&str, TextValue<'_>, bool); 3] = [
        ("valid", &good, true),
        ("a character split between two values", &split, false),
        ("an invalid byte", &invalid, false),
    ];
    for encoding in [
        Encoding::DELTA_LENGTH_BYTE_ARRAY,
        Encoding::DELTA_BYTE_ARRAY,
    ] {
        for (what, value, ok) in cases {
            let props = WriterProperties::builder()
                .set_writer_version(WriterVersion::PARQUET_2_0)
                .set_dictionary_enabled(false)
                .set_encoding(encoding)
                .build();
            let column = ColumnValues::Bytes((0..100).map(|i| Some(value(i))).collect());
            let bytes = write_columns(schema, props, &[vec![column]]).expect("write");
            let used = all_pages(&bytes)[0][0]
                .iter()
                .filter(|p| p.is_data_page())
                .all(|p| p.encoding() == encoding);
            assert!(used, "{encoding}: the data pages are not {encoding}");
            let file = ParquetFile::from_bytes(bytes).expect("open");
            let pages = file.load::<Borrowed>().expect("load");
            let borrowed = pages.rows::<Borrowed>();
            let owned = file.rows::<Owned>().collect();
            if ok {
                let rows = borrowed.expect("valid text");
                let want: Vec<String> = (0..100)
                    .map(|i| String::from_utf8(good(i)).unwrap())
                    .collect();
                assert_eq!(
                    rows.iter().map(|r| r.s).collect::<Vec<_>>(),
                    want,
                    "{encoding}"
                );
                let owned = owned.expect("valid text");
                assert_eq!(
                    owned.iter().map(|r| r.s.as_str()).collect::<Vec<_>>(),
                    want,
                    "{encoding}"
                );
            } else {
                check_utf8_error(
                    &format!("{encoding}, {what}: &str"),
                    borrowed.map(|r| r.len()),
                    "s",
                );
                check_utf8_error(
                    &format!("{encoding}, {what}: String"),
                    owned.map(|r| r.len()),
                    "s",
                );
            }
        }
    }
}

/// Values outside their annotation's range are read from its low bits, as
/// pyarrow reads them (see `docs/writer-quirks.md`): not an error, and the
/// same value in a wider field of the same signedness.
#[test]
fn out_of_range_integers_read_their_low_bits() {
    #[derive(ParquetRow, Debug)]
    struct Narrow {
        u8: u8,
        i8: i8,
        u16: Option<u16>,
        i16: i16,
    }
    #[derive(ParquetRow, Debug)]
    struct Wide {
        u8: i16, // INT(8, unsigned) into a wider signed field
        u16: Option<u32>,
    }

    let schema = "message m {
        REQUIRED INT32 u8 (INTEGER(8,false));
        REQUIRED INT32 i8 (INTEGER(8,true));
        OPTIONAL INT32 u16 (INTEGER(16,false));
        REQUIRED INT32 i16 (INTEGER(16,true));
    }";
    // In range everywhere except row BAD_ROW.
    let column = |bad: i32, optional: bool| {
        ColumnValues::Int32(
            (0..1000)
                .map(|i| match i {
                    BAD_ROW => Some(bad),
                    i if optional && i % 4 == 0 => None,
                    i => Some((i % 100) as i32),
                })
                .collect(),
        )
    };
    let columns = vec![
        column(300, false),
        column(200, false),
        column(-1, true), // the bit pattern of u32::MAX
        column(40_000, false),
    ];
    for (what, dictionary, props) in variants() {
        let bytes = write_columns(schema, props, std::slice::from_ref(&columns)).expect("write");
        // With a dictionary, the bad value sits in the dictionary page;
        // without, in a PLAIN data page.
        for column in &all_pages(&bytes)[0] {
            let has_dictionary = column
                .iter()
                .any(|p| matches!(p, Page::DictionaryPage { .. }));
            assert_eq!(has_dictionary, dictionary, "{what}");
        }
        let file = ParquetFile::from_bytes(bytes).expect("open");
        let narrow: Vec<Narrow> = file
            .rows()
            .collect()
            .expect("narrow fields read every value");
        let bad = &narrow[BAD_ROW];
        assert_eq!(
            (bad.u8, bad.i8, bad.u16, bad.i16),
            (44, -56, Some(65_535), -25_536),
            "{what}"
        );
        assert_eq!(
            narrow[BAD_ROW + 1].u8,
            ((BAD_ROW + 1) % 100) as u8,
            "{what}"
        );
        let wide: Vec<Wide> = file
            .rows()
            .collect()
            .expect("wider fields read every value");
        assert_eq!(
            (wide[BAD_ROW].u8, wide[BAD_ROW].u16),
            (44, Some(65_535)),
            "{what}"
        );
    }
}

mod corrupt;
mod handmade;

// ---------------------------------------------------------------------------
// What a user sees: `Debug` (what `main` prints) and paths
// ---------------------------------------------------------------------------

/// `fn main() -> parquet_rows::Result<()>` prints an error with `Debug`: it
/// must be the message, not a dump of the variant's fields.
#[test]
fn debug_of_an_error_is_its_message() {
    #[derive(ParquetRow, Debug)]
    struct Quote {
        ts: i64,
        bid: f32,
    }
    let err = quotes_file().load::<Quote>().expect_err("`bid` is DOUBLE");
    let message = "struct `Quote` does not match the file's schema (1 mismatch):\n  \
                   field `bid: f32` cannot read column `bid` (REQUIRED DOUBLE): `f32` reads FLOAT; use `f64`";
    assert_eq!(err.to_string(), message);
    assert_eq!(format!("{err:?}"), message);
    // `{:#?}` still shows the variant and its fields, for debugging.
    let pretty = format!("{err:#?}");
    assert!(
        pretty.starts_with("Schema(") && pretty.contains("struct_name: \"Quote\""),
        "{pretty}"
    );

    let err =
        ParquetFile::from_bytes(Bytes::from_static(b"not a parquet file")).expect_err("no footer");
    assert_eq!(format!("{err:?}"), err.to_string());
}
