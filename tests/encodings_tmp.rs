//! Round trips for every (encoding x physical type) pair the `parquet` writer can
//! produce, with nulls and several pages, in data page v1 and v2.

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
    (i * 31 + column * 7) % 11 == 0 || (1000..1300).contains(&i)
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
        assert_eq!(row.f32, opt(2).then(|| i as f32 * 0.25 - 3.0), "row {i}");
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
