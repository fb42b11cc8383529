//! Round trips for every (encoding x physical type) pair the `parquet` writer can
//! produce, with nulls and several pages, in data page v1 and v2.

// Test data comes from small integer loops: the casts are exact, and the writer
// function is long because it lists every column; round trips must be exact.
#![allow(
    clippy::cast_precision_loss,
    clippy::too_many_lines,
    clippy::type_complexity,
    clippy::float_cmp // round trips must be exact
)]

use std::sync::Arc;

use parquet::basic::{Compression, Encoding};
use parquet::data_type::{
    BoolType, ByteArray, ByteArrayType, DoubleType, FixedLenByteArray, FixedLenByteArrayType,
    FloatType, Int32Type, Int64Type,
};
use parquet::file::properties::{WriterProperties, WriterVersion};
use parquet::file::writer::SerializedFileWriter;
use parquet::schema::parser::parse_message_type;
use parquet::schema::types::ColumnPath;
use parquet_rows::{ParquetFile, ParquetRow};

const SCHEMA: &str = "message m {
    OPTIONAL INT32 i32;
    OPTIONAL INT64 i64;
    OPTIONAL FLOAT f32;
    OPTIONAL DOUBLE f64;
    OPTIONAL BINARY s (UTF8);
    OPTIONAL BINARY b;
    OPTIONAL FIXED_LEN_BYTE_ARRAY (3) fixed;
    OPTIONAL BOOLEAN flag;
    REQUIRED INT64 id;
}";

#[derive(ParquetRow, Debug, PartialEq)]
struct Row<'a> {
    i32: Option<i32>,
    i64: Option<i64>,
    f32: Option<f32>,
    f64: Option<f64>,
    s: Option<&'a str>,
    b: Option<&'a [u8]>,
    fixed: Option<&'a [u8]>,
    flag: Option<bool>,
    id: i64,
}

const ROWS: usize = 3000;

fn strings() -> Vec<String> {
    (0..ROWS)
        .map(|i| match i % 7 {
            0 => String::new(),
            1 => format!("prefix-shared-{}", i / 3),
            2 => "日本語テキスト".repeat(i % 4),
            _ => format!("value {i} é 🎉"),
        })
        .collect()
}

fn is_null(i: usize, column: usize) -> bool {
    // Nulls in different places per column, and a long all-null stretch.
    (i * 31 + column * 7).is_multiple_of(11) || (1000..1300).contains(&i)
}

fn write(encoding_for: &dyn Fn(&str) -> Option<Encoding>, version: WriterVersion) -> Vec<u8> {
    let mut props = WriterProperties::builder()
        .set_writer_version(version)
        .set_dictionary_enabled(false)
        .set_compression(Compression::SNAPPY)
        .set_data_page_row_count_limit(500)
        .set_write_batch_size(100);
    for name in ["i32", "i64", "f32", "f64", "s", "b", "fixed", "flag", "id"] {
        if let Some(e) = encoding_for(name) {
            props = props.set_column_encoding(ColumnPath::from(name), e);
        }
    }
    let schema = Arc::new(parse_message_type(SCHEMA).unwrap());
    let mut buf = Vec::new();
    let mut writer = SerializedFileWriter::new(&mut buf, schema, Arc::new(props.build())).unwrap();
    let strings = strings();
    let mut rg = writer.next_row_group().unwrap();
    let defs = |c: usize| -> Vec<i16> { (0..ROWS).map(|i| i16::from(!is_null(i, c))).collect() };
    macro_rules! column {
        ($ty:ty, $c:expr, $value:expr) => {{
            let d = defs($c);
            let values: Vec<_> = (0..ROWS).filter(|&i| !is_null(i, $c)).map($value).collect();
            let mut col = rg.next_column().unwrap().unwrap();
            col.typed::<$ty>()
                .write_batch(&values, Some(&d), None)
                .unwrap();
            col.close().unwrap();
        }};
    }
    column!(Int32Type, 0, |i| (i as i32 - 1500) * 1_000_003);
    column!(Int64Type, 1, |i| (i as i64) * -7_777_777_777 + 5);
    column!(FloatType, 2, |i| i as f32 * 0.25 - 3.0);
    column!(DoubleType, 3, |i| (i as f64).sqrt());
    column!(ByteArrayType, 4, |i| ByteArray::from(strings[i].as_str()));
    column!(ByteArrayType, 5, |i| ByteArray::from(vec![i as u8; i % 5]));
    column!(FixedLenByteArrayType, 6, |i| FixedLenByteArray::from(vec![
        b'a' + (i % 26) as u8,
        (i % 3) as u8,
        0xff
    ]));
    column!(BoolType, 7, |i| i % 3 == 0);
    let ids: Vec<i64> = (0..ROWS as i64).collect();
    let mut col = rg.next_column().unwrap().unwrap();
    col.typed::<Int64Type>()
        .write_batch(&ids, None, None)
        .unwrap();
    col.close().unwrap();
    rg.close().unwrap();
    writer.close().unwrap();
    buf
}

fn check(bytes: Vec<u8>, expect_encoding: &[(&str, Encoding)]) {
    let file = ParquetFile::from_bytes(bytes).unwrap();
    let md = file.schema();
    let _ = md;
    let pages = file.load::<Row>().unwrap();
    let rows: Vec<Row<'_>> = pages.rows().unwrap();
    assert_eq!(rows.len(), ROWS);
    let strings = strings();
    for (i, row) in rows.iter().enumerate() {
        let opt = |c: usize| !is_null(i, c);
        assert_eq!(row.id, i as i64);
        assert_eq!(
            row.i32,
            opt(0).then(|| (i as i32 - 1500) * 1_000_003),
            "row {i}"
        );
        assert_eq!(
            row.i64,
            opt(1).then(|| (i as i64) * -7_777_777_777 + 5),
            "row {i}"
        );
        assert_eq!(row.f32, opt(2).then_some(i as f32 * 0.25 - 3.0), "row {i}");
        assert_eq!(row.f64, opt(3).then(|| (i as f64).sqrt()), "row {i}");
        assert_eq!(row.s, opt(4).then(|| strings[i].as_str()), "row {i}");
        let b = vec![i as u8; i % 5];
        assert_eq!(row.b, opt(5).then_some(&b[..]), "row {i}");
        let f = [b'a' + (i % 26) as u8, (i % 3) as u8, 0xff];
        assert_eq!(row.fixed, opt(6).then_some(&f[..]), "row {i}");
        assert_eq!(row.flag, opt(7).then_some(i % 3 == 0), "row {i}");
    }
    let _ = expect_encoding;
}

fn encodings_in(bytes: &[u8]) -> Vec<(String, Vec<Encoding>)> {
    use parquet::file::reader::{FileReader, SerializedFileReader};
    let reader = SerializedFileReader::new(bytes::Bytes::copy_from_slice(bytes)).unwrap();
    let rg = reader.metadata().row_group(0);
    rg.columns()
        .iter()
        .map(|c| (c.column_path().string(), c.encodings().collect()))
        .collect()
}

#[test]
fn every_encoding_round_trips() {
    let cases: Vec<(&str, Box<dyn Fn(&str) -> Option<Encoding>>)> = vec![
        ("plain", Box::new(|_| None)),
        (
            "delta",
            Box::new(|c| match c {
                "i32" | "i64" | "id" => Some(Encoding::DELTA_BINARY_PACKED),
                "s" | "b" => Some(Encoding::DELTA_LENGTH_BYTE_ARRAY),
                "fixed" => Some(Encoding::DELTA_BYTE_ARRAY),
                _ => None,
            }),
        ),
        (
            "delta_byte_array",
            Box::new(|c| match c {
                "s" | "b" | "fixed" => Some(Encoding::DELTA_BYTE_ARRAY),
                _ => None,
            }),
        ),
        (
            "byte_stream_split",
            Box::new(|c| match c {
                "i32" | "i64" | "f32" | "f64" | "fixed" | "id" => Some(Encoding::BYTE_STREAM_SPLIT),
                _ => None,
            }),
        ),
    ];
    for version in [WriterVersion::PARQUET_1_0, WriterVersion::PARQUET_2_0] {
        for (name, encoding_for) in &cases {
            let bytes = write(encoding_for.as_ref(), version);
            let used = encodings_in(&bytes);
            for (column, encodings) in &used {
                if let Some(e) = encoding_for(column) {
                    assert!(
                        encodings.contains(&e),
                        "{name}: {column} uses {encodings:?}, not {e}"
                    );
                }
            }
            if version == WriterVersion::PARQUET_2_0 {
                let flag = &used.iter().find(|(c, _)| c == "flag").unwrap().1;
                assert!(
                    flag.contains(&Encoding::RLE),
                    "v2 booleans are RLE: {flag:?}"
                );
            }
            println!("{name} {version:?}: {used:?}");
            check(bytes, &[]);
        }
    }
}

mod types {
    use std::sync::Arc;

    use parquet::data_type::{
        ByteArray, ByteArrayType, FixedLenByteArray, FixedLenByteArrayType, FloatType, Int32Type,
        Int64Type, Int96, Int96Type,
    };
    use parquet::file::properties::WriterProperties;
    use parquet::file::writer::SerializedFileWriter;
    use parquet::schema::parser::parse_message_type;
    use parquet_rows::{Date, Decimal, ParquetFile, ParquetRow, Time, Timestamp, Unit};

    const SCHEMA: &str = "message m {
        REQUIRED INT32 d32 (DECIMAL(9, 2));
        REQUIRED INT64 d64 (DECIMAL(18, 4));
        REQUIRED FIXED_LEN_BYTE_ARRAY (16) dfixed (DECIMAL(38, 10));
        REQUIRED BYTE_ARRAY dbytes (DECIMAL(20, 0));
        REQUIRED INT64 ts_ms (TIMESTAMP(MILLIS, true));
        REQUIRED INT64 ts_ns (TIMESTAMP(NANOS, false));
        REQUIRED INT64 ts_legacy (TIMESTAMP_MICROS);
        REQUIRED INT96 ts96;
        REQUIRED INT32 day (DATE);
        REQUIRED INT32 t_ms (TIME(MILLIS, true));
        REQUIRED INT64 t_us (TIME(MICROS, true));
        REQUIRED INT64 big (INTEGER(64, false));
        REQUIRED INT32 small_u (INTEGER(32, false));
        REQUIRED FLOAT single;
        REQUIRED FIXED_LEN_BYTE_ARRAY (16) id (UUID);
        REQUIRED BYTE_ARRAY name (UTF8);
    }";

    #[derive(ParquetRow, Debug)]
    struct Row<'a> {
        d32: Decimal,
        d64: Decimal,
        dfixed: Decimal,
        #[parquet(rename = "dbytes")]
        dbytes_raw: i128,
        ts_ms: Timestamp,
        ts_ns: Timestamp,
        ts_legacy: Timestamp,
        ts96: Timestamp,
        day: Date,
        t_ms: Time,
        t_us: Time,
        big: u64,
        #[parquet(rename = "small_u")]
        small_u_wide: i64,
        #[parquet(rename = "single")]
        single_wide: f64,
        id: [u8; 16],
        name: Arc<str>,
        #[parquet(skip)]
        unused: Option<&'a str>,
    }

    #[derive(ParquetRow, Debug)]
    struct Shared {
        name: bytes::Bytes,
        id: Option<bytes::Bytes>,
        #[parquet(rename = "ts96")]
        raw96: parquet_rows::Int96,
    }

    const ROWS: usize = 50;

    fn write() -> Vec<u8> {
        let schema = Arc::new(parse_message_type(SCHEMA).unwrap());
        let mut buf = Vec::new();
        let props = Arc::new(WriterProperties::builder().build());
        let mut w = SerializedFileWriter::new(&mut buf, schema, props).unwrap();
        let mut rg = w.next_row_group().unwrap();
        let n = ROWS as i64;
        macro_rules! col {
            ($ty:ty, $values:expr) => {{
                let values = $values;
                let mut c = rg.next_column().unwrap().unwrap();
                c.typed::<$ty>().write_batch(&values, None, None).unwrap();
                c.close().unwrap();
            }};
        }
        col!(
            Int32Type,
            (0..n).map(|i| (i as i32 - 25) * 1234).collect::<Vec<_>>()
        );
        col!(
            Int64Type,
            (0..n)
                .map(|i| (i - 25) * 98_765_432_101)
                .collect::<Vec<_>>()
        );
        col!(
            FixedLenByteArrayType,
            (0..n)
                .map(|i| FixedLenByteArray::from(
                    ((i as i128 - 25) * 10i128.pow(30)).to_be_bytes().to_vec()
                ))
                .collect::<Vec<_>>()
        );
        col!(
            ByteArrayType,
            (0..n)
                .map(|i| {
                    let v = (i as i128 - 25) * 1_000_000_000_007;
                    let be = v.to_be_bytes();
                    // Minimal two's complement length, as writers do.
                    let skip = be
                        .iter()
                        .take(15)
                        .take_while(|&&b| b == if v < 0 { 0xff } else { 0 })
                        .count();
                    let skip = if (be[skip] & 0x80 == 0) == (v < 0) {
                        skip - 1
                    } else {
                        skip
                    };
                    ByteArray::from(be[skip..].to_vec())
                })
                .collect::<Vec<_>>()
        );
        col!(
            Int64Type,
            (0..n).map(|i| 1_700_000_000_000 + i).collect::<Vec<_>>()
        );
        col!(
            Int64Type,
            (0..n).map(|i| -1_000_000_000 * i).collect::<Vec<_>>()
        );
        col!(
            Int64Type,
            (0..n)
                .map(|i| 1_700_000_000_000_000 + i)
                .collect::<Vec<_>>()
        );
        col!(
            Int96Type,
            (0..n)
                .map(|i| {
                    let mut v = Int96::new();
                    let nanos = (i as u64) * 1_000_000_007;
                    v.set_data(nanos as u32, (nanos >> 32) as u32, 2_440_588 + i as u32);
                    v
                })
                .collect::<Vec<_>>()
        );
        col!(
            Int32Type,
            (0..n).map(|i| 19_000 + i as i32).collect::<Vec<_>>()
        );
        col!(
            Int32Type,
            (0..n).map(|i| i as i32 * 1000).collect::<Vec<_>>()
        );
        col!(Int64Type, (0..n).map(|i| i * 1_000_001).collect::<Vec<_>>());
        col!(
            Int64Type,
            (0..n)
                .map(|i| if i == 0 { -1 } else { i })
                .collect::<Vec<_>>()
        );
        col!(
            Int32Type,
            (0..n)
                .map(|i| if i == 0 { -1 } else { i as i32 })
                .collect::<Vec<_>>()
        );
        col!(
            FloatType,
            (0..n).map(|i| i as f32 / 3.0).collect::<Vec<_>>()
        );
        col!(
            FixedLenByteArrayType,
            (0..n)
                .map(|i| FixedLenByteArray::from(vec![i as u8; 16]))
                .collect::<Vec<_>>()
        );
        col!(
            ByteArrayType,
            (0..n)
                .map(|i| ByteArray::from(["alpha", "beta", "gamma"][i as usize % 3]))
                .collect::<Vec<_>>()
        );
        rg.close().unwrap();
        w.close().unwrap();
        buf
    }

    #[test]
    fn logical_types_round_trip() {
        let file = ParquetFile::from_bytes(write()).unwrap();
        let pages = file.load::<Row>().unwrap();
        let rows: Vec<Row> = pages.rows().unwrap();
        assert_eq!(rows.len(), ROWS);
        for (i, r) in rows.iter().enumerate() {
            let i64i = i as i64;
            assert_eq!(
                r.d32,
                Decimal {
                    unscaled: i128::from((i as i32 - 25) * 1234),
                    precision: 9,
                    scale: 2
                }
            );
            assert_eq!(r.d64.unscaled, i128::from((i64i - 25) * 98_765_432_101));
            assert_eq!((r.d64.precision, r.d64.scale), (18, 4));
            assert_eq!(r.dfixed.unscaled, (i as i128 - 25) * 10i128.pow(30));
            assert_eq!(r.dbytes_raw, (i as i128 - 25) * 1_000_000_000_007);
            assert_eq!(
                r.ts_ms,
                Timestamp {
                    value: 1_700_000_000_000 + i64i,
                    unit: Unit::Millis,
                    utc: true
                }
            );
            assert_eq!(
                r.ts_ns,
                Timestamp {
                    value: -1_000_000_000 * i64i,
                    unit: Unit::Nanos,
                    utc: false
                }
            );
            assert_eq!(
                r.ts_legacy,
                Timestamp {
                    value: 1_700_000_000_000_000 + i64i,
                    unit: Unit::Micros,
                    utc: true
                }
            );
            assert_eq!(
                r.ts96.value,
                i64i * 86_400_000_000_000 + i64i * 1_000_000_007
            );
            assert_eq!(r.ts96.unit, Unit::Nanos);
            assert_eq!(
                r.day,
                Date {
                    days: 19_000 + i as i32
                }
            );
            assert_eq!(
                r.t_ms,
                Time {
                    value: i64i * 1000,
                    unit: Unit::Millis
                }
            );
            assert_eq!(
                r.t_us,
                Time {
                    value: i64i * 1_000_001,
                    unit: Unit::Micros
                }
            );
            assert_eq!(r.big, if i == 0 { u64::MAX } else { i as u64 });
            assert_eq!(
                r.small_u_wide,
                if i == 0 { i64::from(u32::MAX) } else { i64i }
            );
            assert_eq!(r.single_wide, f64::from(i as f32 / 3.0));
            assert_eq!(r.id, [i as u8; 16]);
            assert_eq!(&*r.name, ["alpha", "beta", "gamma"][i % 3]);
            assert_eq!(r.unused, None);
        }
        assert_eq!(
            rows[1].dfixed.to_string(),
            "-2400000000000000000000.0000000000"
        );
        // Arc<str> from a dictionary page: one allocation per entry, shared.
        assert!(Arc::ptr_eq(&rows[0].name, &rows[3].name));
        assert!(!Arc::ptr_eq(&rows[0].name, &rows[1].name));
    }

    #[test]
    fn bytes_share_the_page_buffers() {
        let file = ParquetFile::from_bytes(write()).unwrap();
        let pages = file.load::<Shared>().unwrap();
        let rows: Vec<Shared> = pages.rows().unwrap();
        // Same dictionary entry: the same bytes in memory, no copy.
        assert_eq!(rows[0].name.as_ptr(), rows[3].name.as_ptr());
        assert_eq!(&rows[2].name[..], b"gamma");
        assert_eq!(rows[7].id.as_deref(), Some(&[7u8; 16][..]));
        assert_eq!(rows[2].raw96.julian_day, 2_440_590);
    }

    #[test]
    fn narrowing_and_wrong_logical_types_are_refused() {
        #[derive(ParquetRow, Debug)]
        #[allow(dead_code)] // only bound, never decoded
        struct Narrow {
            #[parquet(rename = "big")]
            b: i64, // INT(64, unsigned) does not fit i64
            #[parquet(rename = "single")]
            s: f32,
            #[parquet(rename = "d32")]
            d: Timestamp,
        }
        let file = ParquetFile::from_bytes(write()).unwrap();
        let err = file.load::<Narrow>().unwrap_err().to_string();
        assert!(
            err.contains("field `b: i64` cannot read column `big`"),
            "{err}"
        );
        assert!(err.contains("use `u64`"), "{err}");
        assert!(
            err.contains("field `d: Timestamp` cannot read column `d32`"),
            "{err}"
        );
        assert!(err.contains("parquet_rows::Decimal"), "{err}");
        assert!(!err.contains("`s: f32`"), "{err}");
    }
}

/// DELTA_BYTE_ARRAY columns read as owned fields: their values are streamed
/// one at a time (no arena), across page and batch boundaries; borrowed
/// fields of the same pages rebuild the arena, and both see the same values.
mod delta_byte_array_owned {
    use std::sync::Arc;

    use parquet::basic::{Compression, Encoding};
    use parquet::data_type::{ByteArray, ByteArrayType, Int64Type};
    use parquet::file::properties::{WriterProperties, WriterVersion};
    use parquet::file::writer::SerializedFileWriter;
    use parquet::schema::parser::parse_message_type;
    use parquet::schema::types::ColumnPath;
    use parquet_rows::{ParquetFile, ParquetRow};

    const ROWS: usize = 5000;

    #[derive(ParquetRow, Debug, PartialEq)]
    struct Owned {
        id: i64,
        key: String,
        raw: Vec<u8>,
    }

    #[derive(ParquetRow, Debug, PartialEq)]
    struct Boxed {
        key: Box<str>,
    }

    #[derive(ParquetRow, Debug, PartialEq)]
    struct Borrowed<'a> {
        id: i64,
        key: &'a str,
        raw: &'a [u8],
    }

    /// Owned `key`, borrowed `raw`: one struct, both ways of reading.
    #[derive(ParquetRow, Debug, PartialEq)]
    struct Mixed<'a> {
        key: String,
        raw: &'a [u8],
    }

    fn key(i: usize) -> String {
        // Shared prefixes of every length, empty values, and multi-byte
        // characters on both sides of a prefix boundary.
        if (2000..2100).contains(&i) {
            // "é" and "è" share their first byte: the writer's prefix ends
            // inside a character and the suffix completes it.
            return if i.is_multiple_of(2) { "pré" } else { "prè" }.to_owned();
        }
        match i % 9 {
            0 => String::new(),
            1..=4 => format!("instrument/é/{:05}/{}", i / 9, i % 4),
            5 => "日本語".repeat(i % 5),
            _ => format!("k{i}🎉"),
        }
    }

    fn raw(i: usize) -> Vec<u8> {
        let mut v = b"prefix-bytes-".to_vec();
        v.extend(std::iter::repeat_n((i % 251) as u8, i % 13));
        v
    }

    fn write(version: WriterVersion) -> Vec<u8> {
        let schema = "message m {
            REQUIRED INT64 id;
            REQUIRED BINARY key (UTF8);
            REQUIRED BINARY raw;
        }";
        let props = WriterProperties::builder()
            .set_writer_version(version)
            .set_dictionary_enabled(false)
            .set_compression(Compression::SNAPPY)
            // Pages of 700 rows: batches of the decoder cross page boundaries.
            .set_data_page_row_count_limit(700)
            .set_write_batch_size(100)
            .set_max_row_group_row_count(Some(3000))
            .set_column_encoding(ColumnPath::from("key"), Encoding::DELTA_BYTE_ARRAY)
            .set_column_encoding(ColumnPath::from("raw"), Encoding::DELTA_BYTE_ARRAY)
            .build();
        let schema = Arc::new(parse_message_type(schema).unwrap());
        let mut buf = Vec::new();
        let mut w = SerializedFileWriter::new(&mut buf, schema, Arc::new(props)).unwrap();
        for group in [0..3000, 3000..ROWS] {
            let mut rg = w.next_row_group().unwrap();
            let ids: Vec<i64> = group.clone().map(|i| i as i64).collect();
            let keys: Vec<ByteArray> = group.clone().map(|i| key(i).as_str().into()).collect();
            let raws: Vec<ByteArray> = group.map(|i| raw(i).into()).collect();
            let mut c = rg.next_column().unwrap().unwrap();
            c.typed::<Int64Type>()
                .write_batch(&ids, None, None)
                .unwrap();
            c.close().unwrap();
            for values in [&keys, &raws] {
                let mut c = rg.next_column().unwrap().unwrap();
                c.typed::<ByteArrayType>()
                    .write_batch(values, None, None)
                    .unwrap();
                c.close().unwrap();
            }
            rg.close().unwrap();
        }
        w.close().unwrap();
        buf
    }

    fn expected() -> Vec<Owned> {
        (0..ROWS)
            .map(|i| Owned {
                id: i as i64,
                key: key(i),
                raw: raw(i),
            })
            .collect()
    }

    #[test]
    fn owned_and_borrowed_fields_read_the_same_values() {
        for version in [WriterVersion::PARQUET_1_0, WriterVersion::PARQUET_2_0] {
            let bytes = write(version);
            let file = ParquetFile::from_bytes(bytes).unwrap();
            let expected = expected();
            assert_eq!(
                file.rows::<Owned>().collect().unwrap(),
                expected,
                "{version:?}"
            );
            assert_eq!(
                file.rows::<Owned>().threads(0).collect().unwrap(),
                expected,
                "{version:?}"
            );
            let boxed: Vec<Boxed> = file.rows().collect().unwrap();
            assert!(boxed.iter().zip(&expected).all(|(b, e)| *b.key == e.key));

            let pages = file.load::<Borrowed>().unwrap();
            // Owned first: streamed, no arena is built...
            assert_eq!(pages.rows::<Owned>().unwrap(), expected, "{version:?}");
            // ...so borrowing rebuilds each page from its first value,
            let borrowed = pages.rows::<Borrowed>().unwrap();
            assert_eq!(borrowed.len(), ROWS);
            for (b, e) in borrowed.iter().zip(&expected) {
                assert_eq!((b.id, b.key, b.raw), (e.id, e.key.as_str(), &e.raw[..]));
            }
            // ...and owned fields then copy from the arenas that exist.
            assert_eq!(pages.rows::<Owned>().unwrap(), expected, "{version:?}");
            let mixed = pages.rows::<Mixed>().unwrap();
            assert!(mixed
                .iter()
                .zip(&expected)
                .all(|(m, e)| m.key == e.key && m.raw == e.raw));
        }
    }
}
