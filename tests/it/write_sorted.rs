//! `WriteOptions::sorted_by`: the footer lists the declared keys, and every
//! row is checked against the one before as it is written (across `write`
//! calls and row groups); a row out of order is an `Err` naming field and
//! row, and the file gets no footer.

use bytes::Bytes;
use parquet::file::metadata::SortingColumn;
use parquet::file::reader::FileReader;
use parquet::file::serialized_reader::SerializedFileReader;
use parquet_rows::writer::SortOrder;
use parquet_rows::{Error, ParquetRow, WriteOptions, Writer};
use parquet_rows_suite::rng::generate;

#[derive(ParquetRow, Debug, Clone, PartialEq)]
struct Event {
    /// Ascending, nulls first.
    day: Option<i32>,
    /// Descending within a day.
    #[parquet(rename = "at")]
    ts: i64,
    name: String,
}

/// Rows sorted by `day` (nulls first) then `ts` descending.
fn sorted_events(n: usize) -> Vec<Event> {
    let mut rows = generate(3, n, |rng, i| Event {
        day: rng.maybe(10, |r| r.below(20) as i32 - 10),
        ts: rng.i64(),
        name: format!("é{i}"),
    });
    rows.sort_by(|a, b| a.day.cmp(&b.day).then(b.ts.cmp(&a.ts)));
    rows
}

fn options() -> WriteOptions {
    WriteOptions::default()
        .row_group_rows(300)
        .sorted_by("day", SortOrder::Ascending)
        .sorted_by("at", SortOrder::Descending)
}

#[test]
fn sorted_rows_write_and_the_footer_lists_the_keys() {
    let rows = sorted_events(2000);
    let mut writer = Writer::<Event, _>::new(Vec::new(), options()).unwrap();
    // Several calls, several row groups: each row is checked against the
    // one before it, wherever that one is.
    for part in rows.chunks(333) {
        writer.write(part).unwrap();
    }
    let (summary, bytes) = writer.finish().unwrap();
    assert_eq!((summary.rows, summary.row_groups), (2000, 7));
    let bytes = Bytes::from(bytes);
    let reader = SerializedFileReader::new(bytes.clone()).unwrap();
    let expected = vec![
        SortingColumn {
            column_idx: 0,
            descending: false,
            nulls_first: true,
        },
        SortingColumn {
            column_idx: 1,
            descending: true,
            nulls_first: false,
        },
    ];
    for group in reader.metadata().row_groups() {
        assert_eq!(group.sorting_columns(), Some(&expected));
    }
    let back: Vec<Event> = parquet_rows::from_bytes(bytes).unwrap();
    assert_eq!(back, rows);
}

#[test]
fn a_row_out_of_order_is_an_err_naming_field_and_row_and_leaves_no_footer() {
    let mut rows = sorted_events(1000);
    // Row 700 (in the third row group) gets a larger `at` than row 699 on
    // the same day: out of order on the second key.
    rows[700].day = rows[699].day;
    rows[700].ts = rows[699].ts.saturating_add(1);
    let path = std::env::temp_dir().join(format!(
        "parquet-rows-unsorted-{}.parquet",
        std::process::id()
    ));
    let mut writer = Writer::<Event>::create(&path, options()).unwrap();
    writer.write(&rows[..500]).unwrap();
    let err = writer.write(&rows[500..]).unwrap_err();
    let message = err.to_string();
    assert!(matches!(err, Error::Value { .. }), "{err:?}");
    assert!(message.contains("column `at`"), "{message}");
    assert!(message.contains("field `Event::ts`, row 700"), "{message}");
    assert!(
        message.contains(&format!(
            "out of order: {} after {}",
            rows[700].ts, rows[699].ts
        )),
        "{message}"
    );
    assert!(message.contains("descending"), "{message}");
    let again = writer.write(&rows[..1]).unwrap_err().to_string();
    assert!(again.contains("stopped at an earlier error"), "{again}");
    assert!(writer.close().is_err());
    let written = std::fs::read(&path).unwrap();
    std::fs::remove_file(&path).unwrap();
    assert!(written.starts_with(b"PAR1") && !written.ends_with(b"PAR1"));
    assert!(parquet_rows::from_bytes::<Event>(written).is_err());
}

#[test]
fn a_null_after_a_value_is_out_of_order_in_an_ascending_column() {
    let rows = [
        Event {
            day: None,
            ts: 5,
            name: "a".into(),
        },
        Event {
            day: Some(-3),
            ts: 9,
            name: "b".into(),
        },
        Event {
            day: None,
            ts: 9,
            name: "c".into(),
        },
    ];
    let mut writer = Writer::<Event, _>::new(Vec::new(), options()).unwrap();
    let message = writer.write(&rows).unwrap_err().to_string();
    assert!(
        message.contains("field `Event::day`, row 2: out of order: null after -3"),
        "{message}"
    );
}

#[derive(ParquetRow, Debug, Clone, PartialEq)]
struct Typed {
    big: u64,
    text: String,
    value: f64,
}

fn typed(big: u64, text: &str, value: f64) -> Typed {
    Typed {
        big,
        text: text.into(),
        value,
    }
}

/// Each key on its column's order: unsigned integers as unsigned (the bit
/// pattern of `u64::MAX` is -1), strings byte by byte ("Z" < "a" < "é").
#[test]
fn keys_compare_on_the_columns_typed_order() {
    let by = |column: &str| WriteOptions::default().sorted_by(column, SortOrder::Ascending);
    let write = |options: WriteOptions, rows: &[Typed]| {
        let mut writer = Writer::<Typed, _>::new(Vec::new(), options).unwrap();
        writer.write(rows)?;
        writer.finish().map(drop)
    };
    let up = [
        typed(1, "Z", -0.5),
        typed(u64::MAX, "a", 0.0),
        typed(u64::MAX, "é", 2.5),
    ];
    write(by("big"), &up).unwrap();
    write(by("text"), &up).unwrap();
    write(by("value"), &up).unwrap();
    let down = [typed(u64::MAX, "é", 1.0), typed(1, "a", 0.5)];
    let err = write(by("big"), &down).unwrap_err().to_string();
    assert!(
        err.contains("field `Typed::big`, row 1: out of order: 1 after 18446744073709551615"),
        "{err}"
    );
    let err = write(by("text"), &down).unwrap_err().to_string();
    assert!(
        err.contains("field `Typed::text`, row 1: out of order: \"a\" after \"é\""),
        "{err}"
    );
    let err = write(by("value"), &[typed(1, "a", 1.0), typed(1, "a", f64::NAN)])
        .unwrap_err()
        .to_string();
    assert!(err.contains("field `Typed::value`, row 1: NaN"), "{err}");
    // Descending in the same file reads the other way.
    let desc = WriteOptions::default().sorted_by("big", SortOrder::Descending);
    write(desc, &down).unwrap();
}

#[test]
fn sort_keys_the_file_cannot_have_are_errors_at_creation() {
    let err = |options: WriteOptions| {
        Writer::<Typed, _>::new(Vec::new(), options)
            .unwrap_err()
            .to_string()
    };
    let message = err(WriteOptions::default().sorted_by("nope", SortOrder::Ascending));
    assert!(
        message.contains("column `nope`, which the struct does not write"),
        "{message}"
    );
    let message = err(WriteOptions::default()
        .sorted_by("big", SortOrder::Ascending)
        .sorted_by("big", SortOrder::Descending));
    assert!(message.contains("`big` twice"), "{message}");
}
