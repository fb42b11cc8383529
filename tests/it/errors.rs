//! Errors: schema mismatches (exact messages), invalid values, and corrupt,
//! truncated or malformed files, which must give `Err` and never panic or hang.

// Most structs here exist to be bound against a schema they do not match, or
// to be decoded for the error only: their fields are never read.
#![allow(dead_code)]

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{mpsc, Arc, Once};
use std::time::Duration;

use bytes::Bytes;
use parquet::basic::Encoding;
use parquet::column::page::Page;
use parquet::file::properties::{WriterProperties, WriterVersion};
use parquet_rows::{Error, MismatchKind, ParquetFile, ParquetRow, SchemaError};
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
        file.load_row_group::<T>(0).map(drop),
        file.row_groups::<T>().map(drop),
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
            suggestion: Some("f64"),
        }
    );
    assert_eq!(
        message,
        "struct `Quote` does not match the file's schema (1 mismatch):\n  \
         field `bid: f32` cannot read column `bid` (REQUIRED DOUBLE): `f32` reads FLOAT; use `f64`"
    );
    // Owned rows bind the same way.
    match quotes_file().read::<Quote>() {
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
            suggestion: Some("parquet_rows::Timestamp` or `i64"),
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
            if found == "OPTIONAL INT96" && s.contains("Int96")),
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
fn non_option_field_on_optional_column() {
    #[derive(ParquetRow, Debug)]
    struct Quote {
        size: i32,
    }

    let (kind, message) = one_mismatch::<Quote>();
    assert_eq!(
        kind,
        MismatchKind::Nullable {
            found: "OPTIONAL INT32".into()
        }
    );
    assert_eq!(
        message,
        "struct `Quote` does not match the file's schema (1 mismatch):\n  \
         field `size: i32` cannot read column `size` (OPTIONAL INT32): the column may hold nulls; use `Option<i32>`"
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
        size: i32,
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
        MismatchKind::Nullable { .. }
    ));
    assert!(matches!(
        e.mismatches[2].kind,
        MismatchKind::MissingColumn { .. }
    ));
    assert!(matches!(e.mismatches[3].kind, MismatchKind::Nested { .. }));
    assert!(matches!(e.mismatches[4].kind, MismatchKind::Nested { .. }));
    assert_eq!(e.mismatches[1].rust_type, "i32");
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
/// (PLAIN fallback, see roundtrip.rs), several pages.
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
            file.read::<Owned>().map(|r| r.len()),
            "s",
        );
        let optional = file
            .load::<Optional>()
            .and_then(|p| p.rows::<Optional>().map(|r| r.len()));
        check_utf8_error(&format!("{what}: Option<&str>"), optional, "o");
        check_utf8_error(
            &format!("{what}: Option<String>"),
            file.read::<OptionalOwned>().map(|r| r.len()),
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
            let owned = file.read::<Owned>();
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

#[test]
fn out_of_range_integers_are_value_errors() {
    #[derive(ParquetRow, Debug)]
    struct U8 {
        u8: u8,
    }
    #[derive(ParquetRow, Debug)]
    struct I8 {
        i8: i8,
    }
    #[derive(ParquetRow, Debug)]
    struct U16 {
        u16: Option<u16>,
    }
    #[derive(ParquetRow, Debug)]
    struct I16 {
        i16: i16,
    }
    #[derive(ParquetRow, Debug)]
    struct Wide {
        u8: i16, // INT(8, unsigned) into a wider signed field: 300 fits
        i8: i32,
        u16: Option<u32>, // 4294967295 fits
        i16: i32,
    }
    fn check(what: &str, result: Result<usize, Error>, column: &str, text: &str) {
        match result {
            Err(Error::Value { location, message }) => {
                assert_eq!(location.column, column, "{what}");
                assert_eq!(message, text, "{what}");
            }
            other => panic!("{what}: expected a value error, got {other:?}"),
        }
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
        // With a dictionary, the bad value sits in the dictionary page (whose
        // entries are all checked, used or not); without, in a PLAIN data page.
        for column in &all_pages(&bytes)[0] {
            let has_dictionary = column
                .iter()
                .any(|p| matches!(p, Page::DictionaryPage { .. }));
            assert_eq!(has_dictionary, dictionary, "{what}");
        }
        let file = ParquetFile::from_bytes(bytes).expect("open");
        check(
            &what,
            file.read::<U8>().map(|r| r.len()),
            "u8",
            "300 does not fit `u8`",
        );
        check(
            &what,
            file.read::<I8>().map(|r| r.len()),
            "i8",
            "200 does not fit `i8`",
        );
        check(
            &what,
            file.read::<U16>().map(|r| r.len()),
            "u16",
            "4294967295 does not fit `u16`",
        );
        check(
            &what,
            file.read::<I16>().map(|r| r.len()),
            "i16",
            "40000 does not fit `i16`",
        );
        let wide: Vec<Wide> = file.read().expect("wider fields read every value");
        assert_eq!(
            (
                wide[BAD_ROW].u8,
                wide[BAD_ROW].i8,
                wide[BAD_ROW].u16,
                wide[BAD_ROW].i16
            ),
            (300, 200, Some(u32::MAX), 40_000),
            "{what}"
        );
    }
}

// ---------------------------------------------------------------------------
// Hand-made corruption: dictionary indices and definition levels
// ---------------------------------------------------------------------------

/// Finds `needle` in `haystack`, exactly once.
fn find_once(haystack: &[u8], needle: &[u8]) -> usize {
    let hits: Vec<usize> = haystack
        .windows(needle.len())
        .enumerate()
        .filter(|(_, w)| *w == needle)
        .map(|(i, _)| i)
        .collect();
    assert_eq!(
        hits.len(),
        1,
        "the page bytes must occur exactly once in the file"
    );
    hits[0]
}

/// Offsets (in `stream`) of the runs of an RLE/bit-packed hybrid stream with
/// values of `width` bits: `(header offset, header length, is_rle, count)`.
fn hybrid_runs(stream: &[u8], width: usize) -> Vec<(usize, usize, bool, usize)> {
    let mut runs = Vec::new();
    let mut pos = 0;
    while pos < stream.len() {
        let (mut header, mut len, mut shift) = (0usize, 0, 0);
        loop {
            let b = stream[pos + len];
            header |= usize::from(b & 0x7f) << shift;
            len += 1;
            shift += 7;
            if b < 0x80 {
                break;
            }
        }
        let rle = header & 1 == 0;
        let count = header >> 1;
        runs.push((pos, len, rle, count));
        pos += len
            + if rle {
                width.div_ceil(8)
            } else {
                count * width
            };
    }
    runs
}

/// An uncompressed v1 file (no page CRCs), one row group.
fn plain_v1(dictionary: bool) -> WriterProperties {
    WriterProperties::builder()
        .set_writer_version(WriterVersion::PARQUET_1_0)
        .set_dictionary_enabled(dictionary)
        .build()
}

#[test]
fn dictionary_index_out_of_range() {
    #[derive(ParquetRow, Debug)]
    struct X {
        x: i32,
    }

    // 3 dictionary entries (bit width 2); indices 0 x100, 1 x100, 2 x100: RLE runs.
    let values: Vec<Option<i32>> = (0..300).map(|i| Some(7 + i / 100)).collect();
    let bytes = write_columns(
        "message m { REQUIRED INT32 x; }",
        plain_v1(true),
        &[vec![ColumnValues::Int32(values)]],
    )
    .expect("write");
    let pages = &all_pages(&bytes)[0][0];
    let data = pages
        .iter()
        .find(|p| p.is_data_page())
        .expect("a data page");
    assert!(matches!(
        data.encoding(),
        Encoding::PLAIN_DICTIONARY | Encoding::RLE_DICTIONARY
    ));
    let body = data.buffer();
    assert_eq!(body[0], 2, "bit width of 3 dictionary indices");
    let (header, header_len, rle, _) = hybrid_runs(&body[1..], 2)
        .into_iter()
        .find(|r| r.2)
        .expect("an RLE run of indices");
    assert!(rle);
    let at = find_once(&bytes, body) + 1 + header + header_len;

    // Index 3 in a 3-entry dictionary.
    let mut corrupt = bytes.to_vec();
    corrupt[at] = 3;
    let file = ParquetFile::from_bytes(corrupt).expect("open");
    match file.read::<X>() {
        Err(Error::OutOfSpec { location, message }) => {
            assert_eq!(location.column, "x");
            assert_eq!(
                message,
                "dictionary index 3 is out of range (the dictionary has 3 entries)"
            );
        }
        other => panic!("expected an out-of-range index error, got {other:?}"),
    }
    // The error comes half-way through a batch whose rows were already placed
    // in the output: `rows_into` takes them out again, leaving the rows it
    // was given as they were.
    let pages = file.load::<X>().expect("load");
    let mut out = vec![X { x: -1 }];
    assert!(pages.rows_into(&mut out).is_err());
    assert_eq!(out.iter().map(|r| r.x).collect::<Vec<_>>(), [-1]);
}

/// An OPTIONAL column, PLAIN: 50 values, 50 nulls, 50 values (three RLE runs of
/// definition levels). Returns the file and the offset of the level stream.
fn levels_file() -> (Bytes, usize) {
    let values: Vec<Option<i32>> = (0..150)
        .map(|i| (!(50..100).contains(&i)).then_some(i))
        .collect();
    let bytes = write_columns(
        "message m { OPTIONAL INT32 x; }",
        plain_v1(false),
        &[vec![ColumnValues::Int32(values)]],
    )
    .expect("write");
    let pages = &all_pages(&bytes)[0][0];
    assert_eq!(pages.len(), 1, "one data page");
    let body = pages[0].buffer();
    // v1: 4-byte little-endian length, then the levels.
    let at = find_once(&bytes, body) + 4;
    (bytes, at)
}

#[derive(ParquetRow, Debug)]
struct OptionalX {
    x: Option<i32>,
}

#[test]
fn more_non_null_levels_than_values() {
    let (bytes, levels) = levels_file();
    let runs = hybrid_runs(&bytes[levels..levels + 6], 1);
    // runs: 50 x 1, 50 x 0, 50 x 1 (header 1 byte + value 1 byte each)
    assert_eq!(
        runs.iter().map(|r| (r.2, r.3)).collect::<Vec<_>>(),
        [(true, 50), (true, 50), (true, 50)]
    );
    let mut corrupt = bytes.to_vec();
    assert_eq!(corrupt[levels + 3], 0, "the null run's level");
    corrupt[levels + 3] = 1; // the nulls become values: 150 values, 100 in the page
    let file = ParquetFile::from_bytes(corrupt).expect("open");
    match file.read::<OptionalX>() {
        Err(Error::OutOfSpec { location, message }) => {
            assert_eq!(location.column, "x");
            assert!(message.contains("PLAIN values"), "{message}");
        }
        other => panic!("expected an error, got {other:?}"),
    }
}

#[test]
fn fewer_levels_than_values() {
    let (bytes, levels) = levels_file();
    let mut corrupt = bytes.to_vec();
    assert_eq!(corrupt[levels], 50 << 1, "the first run's header");
    corrupt[levels] = 10 << 1; // 110 levels for 150 values
    let file = ParquetFile::from_bytes(corrupt).expect("open");
    match file.read::<OptionalX>() {
        Err(Error::OutOfSpec { location, message }) => {
            assert_eq!(location.column, "x");
            assert!(
                message.contains("fewer definition levels than values"),
                "{message}"
            );
        }
        other => panic!("expected an error, got {other:?}"),
    }
}

/// `bytes` with a new footer in which row group `g` claims `rows[g]` rows; the
/// pages are untouched (column chunk offsets are absolute, so they stay valid).
fn with_row_counts(bytes: &Bytes, rows: &[i64]) -> Bytes {
    use parquet::file::metadata::{ParquetMetaData, ParquetMetaDataWriter};
    let metadata = file_metadata(bytes);
    let len = bytes.len();
    let footer_len = u32::from_le_bytes(bytes[len - 8..len - 4].try_into().expect("4 bytes"));
    let footer_start = len - 8 - footer_len as usize;
    let groups = metadata
        .row_groups()
        .iter()
        .zip(rows)
        .map(|(g, &n)| {
            g.clone()
                .into_builder()
                .set_num_rows(n)
                .build()
                .expect("row group")
        })
        .collect();
    let metadata = ParquetMetaData::new(metadata.file_metadata().clone(), groups);
    let mut out = bytes[..footer_start].to_vec();
    ParquetMetaDataWriter::new(&mut out, &metadata)
        .finish()
        .expect("write footer");
    Bytes::from(out)
}

#[test]
fn row_counts_in_the_footer_that_disagree_with_the_pages() {
    let values: Vec<Option<i32>> = (0..100).map(|i| (i % 3 != 0).then_some(i)).collect();
    let bytes = write_columns(
        "message m { OPTIONAL INT32 x; }",
        plain_v1(true),
        &[vec![ColumnValues::Int32(values)]],
    )
    .expect("write");
    // The rewritten footer itself is fine.
    let same = with_row_counts(&bytes, &[100]);
    assert_eq!(
        ParquetFile::from_bytes(same)
            .expect("open")
            .read::<OptionalX>()
            .expect("read")
            .len(),
        100
    );

    // Fewer rows than the column chunk holds: the rest would be silently lost.
    let file = ParquetFile::from_bytes(with_row_counts(&bytes, &[90])).expect("open");
    match file.read::<OptionalX>() {
        Err(Error::OutOfSpec { location, message }) => {
            assert_eq!(location.column, "x");
            assert_eq!(
                message,
                "the column chunk has 10 more values than the row group has rows"
            );
        }
        other => panic!("expected an error, got {other:?}"),
    }
    // More rows than the pages hold, up to absurd counts: an error, and no
    // allocation sized by the footer's number.
    for rows in [101, 1 << 40, i64::MAX] {
        let file = ParquetFile::from_bytes(with_row_counts(&bytes, &[rows])).expect("open");
        match file.read::<OptionalX>() {
            Err(Error::OutOfSpec { location, message }) => {
                assert_eq!(location.column, "x", "{rows} rows");
                assert!(
                    message.contains("fewer values than the row group has rows"),
                    "{message}"
                );
            }
            other => panic!("{rows} rows: expected an error, got {other:?}"),
        }
        let pages = file.load::<OptionalX>().expect("load");
        assert!(pages.rows::<OptionalX>().is_err(), "{rows} rows");
    }
}

// ---------------------------------------------------------------------------
// Every byte of the column chunks corrupted, and truncated files
// ---------------------------------------------------------------------------

const FUZZ_SCHEMA: &str = "message fuzz {
    REQUIRED INT32 id;
    OPTIONAL BINARY name (UTF8);
    OPTIONAL DOUBLE price;
    REQUIRED BOOLEAN flag;
    OPTIONAL INT64 big (INTEGER(64,false));
    REQUIRED FIXED_LEN_BYTE_ARRAY (2) code;
}";

#[derive(ParquetRow, Debug)]
struct Fuzz<'a> {
    id: i32,
    name: Option<&'a str>,
    price: Option<f64>,
    flag: bool,
    big: Option<u64>,
    code: &'a [u8],
}

/// A small uncompressed file: several pages per column, optional and
/// dictionary-encoded columns (`id`, `name`, `big`), PLAIN ones (`price`, `code`).
fn fuzz_file(version: WriterVersion) -> Bytes {
    let rows = 40;
    let columns = vec![
        ColumnValues::Int32((0..rows).map(|i| Some(i % 7)).collect()),
        ColumnValues::Bytes(
            (0..rows)
                .map(|i| (i % 4 != 1).then(|| format!("n{}é", i % 5).into_bytes()))
                .collect(),
        ),
        ColumnValues::Double(
            (0..rows)
                .map(|i| (i % 3 != 0).then(|| f64::from(i) * 0.5))
                .collect(),
        ),
        ColumnValues::Bool((0..rows).map(|i| Some(i % 2 == 0)).collect()),
        ColumnValues::Int64(
            (0..rows)
                .map(|i| (i % 5 != 0).then(|| -i64::from(i % 3)))
                .collect(),
        ),
        ColumnValues::Bytes((0..rows).map(|i| Some(vec![i as u8, 1])).collect()),
    ];
    let props = WriterProperties::builder()
        .set_writer_version(version)
        .set_encoding(Encoding::PLAIN)
        .set_column_dictionary_enabled("price".into(), false)
        .set_column_dictionary_enabled("code".into(), false)
        .set_write_batch_size(5)
        .set_data_page_row_count_limit(10)
        .build();
    write_columns(FUZZ_SCHEMA, props, &[columns]).expect("write the fuzz file")
}

/// Opens and decodes `bytes`; returns the number of rows.
fn decode_all(bytes: Bytes) -> Result<usize, Error> {
    let file = ParquetFile::from_bytes(bytes)?;
    let pages = file.load::<Fuzz>()?;
    let rows: Vec<Fuzz<'_>> = pages.rows()?;
    Ok(rows.len())
}

/// Silences panic messages from threads named `quiet-*` (their panics are
/// caught and reported by the test), leaving other threads' messages alone.
fn quiet_panics_in_fuzz_threads() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            let quiet = std::thread::current()
                .name()
                .is_some_and(|n| n.starts_with("quiet-"));
            if !quiet {
                previous(info);
            }
        }));
    });
}

fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|s| (*s).to_owned())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "(non-string panic)".into())
}

/// Outcome counts of a batch of corrupted inputs.
#[derive(Debug, Default)]
struct Outcomes {
    ok: usize,
    err: usize,
    panics: Vec<String>,
}

/// Runs `cases` on a thread named `quiet-<name>`, catching panics; fails if the
/// thread does not finish within a generous limit (a hang), naming the case it
/// was on. `case(i)` returns the input to decode for case `i`, or `None` to stop.
fn run_cases(
    name: &str,
    cases: impl Fn(usize) -> Option<(String, Bytes)> + Send + 'static,
) -> Outcomes {
    quiet_panics_in_fuzz_threads();
    let current = Arc::new(AtomicUsize::new(0));
    let progress = Arc::clone(&current);
    let (tx, rx) = mpsc::channel();
    std::thread::Builder::new()
        .name(format!("quiet-{name}"))
        .spawn(move || {
            let mut outcomes = Outcomes::default();
            let mut i = 0;
            while let Some((label, bytes)) = cases(i) {
                progress.store(i, Ordering::Relaxed);
                match catch_unwind(AssertUnwindSafe(|| decode_all(bytes))) {
                    Ok(Ok(_)) => outcomes.ok += 1,
                    Ok(Err(_)) => outcomes.err += 1,
                    Err(payload) => outcomes
                        .panics
                        .push(format!("{label}: {}", panic_message(payload.as_ref()))),
                }
                i += 1;
            }
            tx.send(outcomes).expect("send outcomes");
        })
        .expect("spawn");
    // Not a performance assertion: the cases take well under a second each
    // batch; only a decoder stuck in a loop gets anywhere near this.
    #[allow(clippy::duration_suboptimal_units)]
    // `Duration::from_mins` needs Rust 1.91; the workspace supports 1.85
    let limit = Duration::from_secs(5 * 60);
    match rx.recv_timeout(limit) {
        Ok(outcomes) => outcomes,
        Err(mpsc::RecvTimeoutError::Timeout | mpsc::RecvTimeoutError::Disconnected) => panic!(
            "{name}: no result after 5 minutes (or the thread died): decoding hangs on case {}",
            current.load(Ordering::Relaxed)
        ),
    }
}

/// Decodes `bytes` with each byte at `offsets` replaced in turn by 0x00, 0xff
/// and itself ^ 0x55 (three cases per offset), catching panics and hangs.
fn corrupt_each(name: &str, bytes: &Bytes, offsets: Vec<usize>) -> Outcomes {
    let source = bytes.clone();
    let cases = move |i: usize| {
        let (offset, how) = (*offsets.get(i / 3)?, i % 3);
        let mut corrupt = source.to_vec();
        let before = corrupt[offset];
        corrupt[offset] = match how {
            0 => 0x00,
            1 => 0xff,
            _ => before ^ 0x55,
        };
        let label = format!("byte {offset} ({before:#04x}) -> {:#04x}", corrupt[offset]);
        Some((label, Bytes::from(corrupt)))
    };
    run_cases(name, cases)
}

/// The byte ranges of every column chunk, from the column chunk metadata.
fn chunk_ranges(bytes: &Bytes) -> Vec<std::ops::Range<usize>> {
    let metadata = file_metadata(bytes);
    let mut ranges: Vec<std::ops::Range<usize>> = metadata
        .row_groups()
        .iter()
        .flat_map(parquet::file::metadata::RowGroupMetaData::columns)
        .map(|c| {
            let (start, len) = c.byte_range();
            start as usize..(start + len) as usize
        })
        .collect();
    ranges.sort_by_key(|r| r.start);
    ranges
}

/// Replaces every byte of every column chunk (located through the column chunk
/// metadata, not the footer's position) with 0x00, 0xff and itself ^ 0x55, and
/// decodes each result: `Ok` or `Err` are both fine (there are no page CRCs, so
/// a changed value can decode), a panic or a hang is not.
fn corrupt_every_byte(version: WriterVersion) {
    let bytes = fuzz_file(version);
    assert_eq!(
        decode_all(bytes.clone()).expect("the clean file decodes"),
        40
    );
    // The dictionaries and the pages really are there.
    let pages = &all_pages(&bytes)[0];
    for c in [0, 1, 4] {
        assert!(pages[c]
            .iter()
            .any(|p| matches!(p, Page::DictionaryPage { .. })));
    }
    assert!(pages
        .iter()
        .all(|c| c.iter().filter(|p| p.is_data_page()).count() >= 4));
    let offsets: Vec<usize> = chunk_ranges(&bytes).into_iter().flatten().collect();
    let n = offsets.len();
    let outcomes = corrupt_each(&format!("{version:?}"), &bytes, offsets);
    println!(
        "{version:?}: {n} bytes x 3 corruptions: {} ok, {} err, {} panics",
        outcomes.ok,
        outcomes.err,
        outcomes.panics.len()
    );
    assert!(
        outcomes.panics.is_empty(),
        "{version:?}: {} corruptions panicked instead of returning Err, e.g.:\n{}",
        outcomes.panics.len(),
        outcomes.panics[..outcomes.panics.len().min(10)].join("\n")
    );
    assert_eq!(outcomes.ok + outcomes.err, 3 * n);
    // The corruptions reach the decoder: many of them are errors.
    assert!(
        outcomes.err > n / 2,
        "{version:?}: only {} errors",
        outcomes.err
    );
}

#[test]
fn every_corrupted_byte_of_v1_pages_is_ok_or_err() {
    corrupt_every_byte(WriterVersion::PARQUET_1_0);
}

#[test]
fn every_corrupted_byte_of_v2_pages_is_ok_or_err() {
    corrupt_every_byte(WriterVersion::PARQUET_2_0);
}

#[test]
fn truncated_files_are_errors() {
    let bytes = fuzz_file(WriterVersion::PARQUET_1_0);
    let len = bytes.len();
    // Every prefix: the footer is gone or cut.
    let source = bytes.clone();
    let prefixes = run_cases("prefix", move |i| {
        (i < len).then(|| (format!("first {i} bytes"), source.slice(..i)))
    });
    assert!(
        prefixes.panics.is_empty(),
        "{:?}",
        &prefixes.panics[..prefixes.panics.len().min(10)]
    );
    assert_eq!(prefixes.ok, 0, "a truncated file decoded");
    assert_eq!(prefixes.err, len);

    // Column data cut short, footer kept: its offsets point past the data.
    let footer_len =
        u32::from_le_bytes(bytes[len - 8..len - 4].try_into().expect("4 bytes")) as usize;
    let footer_start = len - 8 - footer_len;
    let data_end = chunk_ranges(&bytes).last().expect("chunks").end;
    assert!(data_end <= footer_start);
    let source = bytes.clone();
    let cut = run_cases("cut", move |i| {
        let keep = 4 + i; // after the leading magic
        (keep < data_end).then(|| {
            let mut corrupt = source.slice(..keep).to_vec();
            corrupt.extend_from_slice(&source[footer_start..]);
            (format!("data cut at {keep}"), Bytes::from(corrupt))
        })
    });
    assert!(
        cut.panics.is_empty(),
        "{:?}",
        &cut.panics[..cut.panics.len().min(10)]
    );
    // Footer bytes read in place of the missing data can pass for PLAIN values
    // (there are no CRCs), so some cuts decode; most cannot.
    println!("data cut short: {} ok, {} err", cut.ok, cut.err);
    assert!(cut.err > cut.ok, "{cut:?}");
}

// ---------------------------------------------------------------------------
// The corpus's bad_data files
// ---------------------------------------------------------------------------

/// The flat columns of the ARROW-GH-41317/41321 files (arrow's all-types test
/// file) that parquet-rows reads; decimals, the INT32 `null` column (Null
/// logical type) and nested columns are left out.
#[derive(ParquetRow, Debug)]
struct ArrowTypes<'a> {
    boolean: Option<bool>,
    uint8: Option<u8>,
    int8: Option<i8>,
    uint16: Option<u16>,
    int16: Option<i16>,
    uint32: Option<i64>, // un-annotated INT64
    int32: Option<i32>,
    uint64: Option<u64>,
    int64: Option<i64>,
    float32: Option<f32>,
    float64: Option<f64>,
    string: Option<&'a str>,
    large_string: Option<&'a str>,
    timestamp_ms_gmt: Option<i64>,
    timestamp_ms_gmt_plus_2: Option<i64>,
    timestamp_ms_gmt_minus_0215: Option<i64>,
    timestamp_s_no_tz: Option<i64>,
    timestamp_us_no_tz: Option<i64>,
    timestamp_ns_no_tz: Option<i64>,
    time32_s: Option<i32>,
    time32_ms: Option<i32>,
    time64_us: Option<i64>,
    time64_ns: Option<i64>,
    date32: Option<i32>,
    date64: Option<i32>,
    binary: Option<&'a [u8]>,
    large_binary: Option<&'a [u8]>,
    fixed_size_binary: Option<&'a [u8]>,
    dict: Option<&'a str>,
    geometry: Option<&'a [u8]>,
}

/// Nation columns (ARROW-RS-GH-6229-DICTHEADER).
#[derive(ParquetRow, Debug)]
#[allow(clippy::struct_field_names)] // the fields are the file's column names
struct Nation<'a> {
    nation_key: Option<i32>,
    name: Option<&'a [u8]>,
    region_key: Option<i32>,
    comment_col: Option<&'a [u8]>,
}

/// ARROW-GH-47662: a corrupt copy of data/fixed_length_byte_array.
#[derive(ParquetRow, Debug)]
struct Flba<'a> {
    flba_field: &'a [u8],
}

/// ARROW-GH-45185: `x` is a list (nested: not supported, so binding refuses it).
#[derive(ParquetRow, Debug)]
struct ListX {
    x: i32,
}

/// ARROW-RS-GH-6229-LEVELS: `outer` is a list of structs (nested).
#[derive(ParquetRow, Debug)]
struct Outer {
    outer: i32,
}

/// Opens the file at `path` and decodes it into `T` (borrowed rows).
fn open_and_decode<T>(path: &std::path::Path) -> Result<usize, Error>
where
    for<'p> T: ParquetRow<'p>,
{
    let file = ParquetFile::open(path)?;
    let pages = file.load::<T>()?;
    let rows: Vec<T> = pages.rows()?;
    Ok(rows.len())
}

/// Like [`open_and_decode`] for structs that borrow.
macro_rules! decode_borrowed {
    ($path:expr, $row:ident) => {{
        (|| -> Result<usize, Error> {
            let file = ParquetFile::open($path)?;
            let pages = file.load::<$row>()?;
            let rows: Vec<$row> = pages.rows()?;
            Ok(rows.len())
        })()
    }};
}

/// Where an error came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Stage {
    /// The `parquet` crate rejected the footer or a page header / page.
    Parquet,
    /// Binding refused the struct (nested columns).
    Schema,
    /// parquet-rows' decoder found the page bytes out of spec.
    Decode,
}

fn stage(e: &Error) -> Stage {
    match e {
        Error::Parquet(_) | Error::Io(_) => Stage::Parquet,
        Error::Schema(_) => Stage::Schema,
        _ => Stage::Decode,
    }
}

#[test]
fn every_bad_data_file_is_an_error() {
    type Decode = fn(&std::path::Path) -> Result<usize, Error>;

    let Some(dir) = parquet_rows_suite::parquet_test_data() else {
        println!("skipped: PARQUET_TEST_DATA=skip, bad_data files not read");
        return;
    };
    let dir = dir.join("bad_data");
    // (file, decode, where the error may come from). Files whose footer the
    // `parquet` crate rejects never reach binding; the others are decoded with
    // a struct matching their flat columns, so the error is the file's.
    let cases: [(&str, Decode, &[Stage]); 7] = [
        (
            "ARROW-GH-41317.parquet",
            |p| decode_borrowed!(p, ArrowTypes),
            &[Stage::Parquet, Stage::Decode],
        ),
        (
            "ARROW-GH-41321.parquet",
            |p| decode_borrowed!(p, ArrowTypes),
            &[Stage::Parquet, Stage::Decode],
        ),
        (
            "ARROW-GH-45185.parquet",
            open_and_decode::<ListX>,
            &[Stage::Schema],
        ),
        (
            "ARROW-GH-47662.parquet",
            |p| decode_borrowed!(p, Flba),
            &[Stage::Parquet, Stage::Decode],
        ),
        (
            "ARROW-RS-GH-6229-DICTHEADER.parquet",
            |p| decode_borrowed!(p, Nation),
            &[Stage::Parquet, Stage::Decode],
        ),
        (
            "ARROW-RS-GH-6229-LEVELS.parquet",
            open_and_decode::<Outer>,
            &[Stage::Schema],
        ),
        (
            "PARQUET-1481.parquet",
            open_and_decode::<Outer>,
            &[Stage::Parquet],
        ),
    ];
    // Every bad file is covered (ARROW-GH-43605 is readable: corpus.rs).
    let mut listed: Vec<String> = std::fs::read_dir(&dir)
        .expect("bad_data")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".parquet") && n != "ARROW-GH-43605.parquet")
        .collect();
    listed.sort();
    let mut covered: Vec<String> = cases.iter().map(|c| c.0.to_owned()).collect();
    covered.sort();
    assert_eq!(listed, covered, "bad_data files and test cases differ");

    let mut failures = Vec::new();
    for (name, decode, stages) in cases {
        let path = dir.join(name);
        match catch_unwind(|| decode(&path)) {
            Ok(Err(e)) => {
                println!("{name}: {:?} error: {e}", stage(&e));
                if !stages.contains(&stage(&e)) {
                    failures.push(format!(
                        "{name}: error from {:?}, expected {stages:?}: {e}",
                        stage(&e)
                    ));
                }
            }
            Ok(Ok(rows)) => failures.push(format!("{name}: decoded {rows} rows without an error")),
            Err(payload) => failures.push(format!(
                "{name}: panicked: {}",
                panic_message(payload.as_ref())
            )),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The same for every byte of the footer (the thrift metadata): offsets, sizes,
/// counts and types that lie must give `Err`, never a panic. Found by hand: a
/// negative column chunk offset made the `parquet` crate assert.
#[test]
fn every_corrupted_byte_of_the_footer_is_ok_or_err() {
    let bytes = fuzz_file(WriterVersion::PARQUET_1_0);
    let len = bytes.len();
    let footer_len = u32::from_le_bytes(
        bytes[len - 8..len - 4]
            .try_into()
            .expect("4 bytes of footer length"),
    ) as usize;
    let footer = len - 8 - footer_len..len - 8;
    let offsets: Vec<usize> = footer.collect();
    let n = offsets.len();
    let outcomes = corrupt_each("footer", &bytes, offsets);
    println!(
        "footer: {n} bytes x 3 corruptions: {} ok, {} err, {} panics",
        outcomes.ok,
        outcomes.err,
        outcomes.panics.len()
    );
    assert!(
        outcomes.panics.is_empty(),
        "{} footer corruptions panicked instead of returning Err, e.g.:\n{}",
        outcomes.panics.len(),
        outcomes.panics[..outcomes.panics.len().min(10)].join("\n")
    );
    assert_eq!(outcomes.ok + outcomes.err, 3 * n);
}
