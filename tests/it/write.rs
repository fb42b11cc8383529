//! The writer (`parquet_rows::Writer`): random rows of every writable field
//! type written under every codec, page version and dictionary setting, read
//! back with parquet-rows (owned and borrowed) and with the `parquet` crate's
//! record API, equal; the file's metadata (schema, `created_by`, key-value
//! pairs, statistics, indexes, bloom filters); row groups cut by rows and by
//! bytes; an I/O error mid-write.

use std::io::Write;
use std::sync::Arc;

use bytes::Bytes;
use parquet::file::reader::FileReader;
use parquet::file::serialized_reader::{ReadOptionsBuilder, SerializedFileReader};
use parquet::record::{Field, Row};
use parquet_rows::writer::{Compression, PageVersion, Statistics};
use parquet_rows::{Date, Error, ParquetFile, ParquetRow, WriteOptions, Writer};
use parquet_rows_suite::record::{get, record_api};
use parquet_rows_suite::rng::{generate, Rng};

/// Every field type the writer writes, plain and in an `Option`.
#[derive(ParquetRow, Debug, Clone)]
struct Every {
    flag: bool,
    tiny: i8,
    small: i16,
    int: i32,
    long: i64,
    ubyte: u8,
    ushort: u16,
    uint: u32,
    ulong: u64,
    float: f32,
    double: f64,
    #[parquet(rename = "name")]
    text: String,
    boxed: Box<str>,
    shared: Arc<str>,
    raw: Vec<u8>,
    bytes: Bytes,
    fixed: [u8; 4],
    day: Date,
    o_flag: Option<bool>,
    o_tiny: Option<i8>,
    o_uint: Option<u32>,
    o_ulong: Option<u64>,
    o_long: Option<i64>,
    o_double: Option<f64>,
    o_float: Option<f32>,
    o_text: Option<String>,
    o_raw: Option<Vec<u8>>,
    o_fixed: Option<[u8; 3]>,
    o_day: Option<Date>,
}

/// The rows compare by their `Debug` text: floats by what they print, so
/// NaN equals NaN and -0.0 differs from 0.0.
fn same<T: std::fmt::Debug>(found: &[T], expected: &[T], what: &str) {
    assert_eq!(found.len(), expected.len(), "{what}: row count");
    for (i, (f, e)) in found.iter().zip(expected).enumerate() {
        assert_eq!(format!("{f:?}"), format!("{e:?}"), "{what}: row {i}");
    }
}

fn pick<T: Copy>(rng: &mut Rng, edges: &[T], other: impl FnOnce(&mut Rng) -> T) -> T {
    if rng.chance(15) {
        edges[rng.below(edges.len())]
    } else {
        other(rng)
    }
}

fn any_double(rng: &mut Rng) -> f64 {
    pick(
        rng,
        &[f64::NAN, -0.0, f64::MAX, f64::MIN, f64::NEG_INFINITY],
        Rng::f64,
    )
}

fn any_float(rng: &mut Rng) -> f32 {
    pick(
        rng,
        &[f32::NAN, -0.0, f32::MIN, f32::MIN_POSITIVE],
        Rng::f32,
    )
}

fn any_bytes(rng: &mut Rng) -> Vec<u8> {
    let mut word = rng.word().into_bytes();
    if rng.chance(10) {
        word.extend([0xff, 0x00, 0xfe]); // not UTF-8
    }
    word
}

fn every(rng: &mut Rng, i: usize) -> Every {
    let fixed = [rng.below(256) as u8, 0, 255, (i % 256) as u8];
    Every {
        flag: rng.chance(50),
        tiny: pick(rng, &[i8::MIN, i8::MAX], |r| r.below(100) as i8),
        small: pick(rng, &[i16::MIN, i16::MAX], |r| r.below(1000) as i16 - 500),
        int: rng.i32(),
        long: rng.i64(),
        ubyte: pick(rng, &[0, u8::MAX], |r| r.below(256) as u8),
        ushort: pick(rng, &[0, u16::MAX], |r| r.below(65536) as u16),
        uint: pick(rng, &[0, u32::MAX, 1 << 31], |r| r.next_u64() as u32),
        ulong: pick(rng, &[0, u64::MAX, 1 << 63], Rng::next_u64),
        float: any_float(rng),
        double: any_double(rng),
        text: rng.word(),
        boxed: rng.word().into(),
        shared: rng.word().into(),
        raw: any_bytes(rng),
        bytes: Bytes::from(any_bytes(rng)),
        fixed,
        day: Date {
            days: pick(rng, &[i32::MIN, i32::MAX, 0], |r| {
                r.below(40_000) as i32 - 20_000
            }),
        },
        o_flag: rng.maybe(70, |r| r.chance(50)),
        o_tiny: rng.maybe(70, |r| r.below(256) as u8 as i8),
        o_uint: rng.maybe(70, |r| pick(r, &[u32::MAX], |r| r.next_u64() as u32)),
        o_ulong: rng.maybe(70, |r| pick(r, &[u64::MAX], Rng::next_u64)),
        o_long: rng.maybe(70, Rng::i64),
        o_double: rng.maybe(70, any_double),
        o_float: rng.maybe(70, any_float),
        o_text: rng.maybe(70, Rng::word),
        o_raw: rng.maybe(70, any_bytes),
        o_fixed: rng.maybe(70, |r| [r.below(256) as u8, 1, 2]),
        o_day: rng.maybe(70, |r| Date {
            days: r.below(1000) as i32,
        }),
    }
}

/// Some of [`Every`]'s columns, borrowed from the pages.
#[derive(ParquetRow, Debug)]
struct Borrowed<'a> {
    #[parquet(rename = "name")]
    text: &'a str,
    raw: &'a [u8],
    o_text: Option<&'a str>,
    o_raw: Option<&'a [u8]>,
    long: i64,
}

impl<'a> Borrowed<'a> {
    fn of(row: &'a Every) -> Self {
        Borrowed {
            text: &row.text,
            raw: &row.raw,
            o_text: row.o_text.as_deref(),
            o_raw: row.o_raw.as_deref(),
            long: row.long,
        }
    }
}

fn write_all(rows: &[Every], options: WriteOptions) -> (parquet_rows::writer::FileSummary, Bytes) {
    let mut writer = Writer::<Every, _>::new(Vec::new(), options).unwrap();
    // Rows arrive in slices of every size, one by one and from an iterator.
    let (head, rest) = rows.split_at(rows.len() / 3);
    writer.write(head).unwrap();
    for row in &rest[..10] {
        writer.write_row(row).unwrap();
    }
    writer.extend(rest[10..].iter().cloned()).unwrap();
    let (summary, bytes) = writer.finish().unwrap();
    (summary, Bytes::from(bytes))
}

/// An accessor of the record API's field of one kind: its value, or a panic
/// naming the field found.
macro_rules! accessor {
    ($name:ident, $variant:ident, $ty:ty, |$v:ident| $convert:expr) => {
        fn $name(f: &Field) -> $ty {
            match f {
                Field::$variant($v) => $convert,
                other => panic!("expected {}, got {other:?}", stringify!($variant)),
            }
        }
    };
}

accessor!(flag, Bool, bool, |v| *v);
accessor!(tiny, Byte, i8, |v| *v);
accessor!(small, Short, i16, |v| *v);
accessor!(int, Int, i32, |v| *v);
accessor!(long, Long, i64, |v| *v);
accessor!(ubyte, UByte, u8, |v| *v);
accessor!(ushort, UShort, u16, |v| *v);
accessor!(uint, UInt, u32, |v| *v);
accessor!(ulong, ULong, u64, |v| *v);
accessor!(float, Float, f32, |v| *v);
accessor!(double, Double, f64, |v| *v);
accessor!(text, Str, String, |v| v.clone());
accessor!(raw, Bytes, Vec<u8>, |v| v.data().to_vec());
accessor!(day, Date, Date, |days| Date { days: *days });

/// Converts one row of the record API back into [`Every`].
fn from_record(row: &Row) -> Every {
    let g = |name| get(row, name);
    let opt = |name| match get(row, name) {
        Field::Null => None,
        other => Some(other),
    };
    Every {
        flag: flag(g("flag")),
        tiny: tiny(g("tiny")),
        small: small(g("small")),
        int: int(g("int")),
        long: long(g("long")),
        ubyte: ubyte(g("ubyte")),
        ushort: ushort(g("ushort")),
        uint: uint(g("uint")),
        ulong: ulong(g("ulong")),
        float: float(g("float")),
        double: double(g("double")),
        text: text(g("name")),
        boxed: text(g("boxed")).into(),
        shared: text(g("shared")).into(),
        raw: raw(g("raw")),
        bytes: Bytes::from(raw(g("bytes"))),
        fixed: raw(g("fixed")).try_into().unwrap(),
        day: day(g("day")),
        o_flag: opt("o_flag").map(flag),
        o_tiny: opt("o_tiny").map(tiny),
        o_uint: opt("o_uint").map(uint),
        o_ulong: opt("o_ulong").map(ulong),
        o_long: opt("o_long").map(long),
        o_double: opt("o_double").map(double),
        o_float: opt("o_float").map(float),
        o_text: opt("o_text").map(text),
        o_raw: opt("o_raw").map(raw),
        o_fixed: opt("o_fixed").map(|f| raw(f).try_into().unwrap()),
        o_day: opt("o_day").map(day),
    }
}

const CODECS: [Compression; 7] = [
    Compression::Uncompressed,
    Compression::Snappy,
    Compression::Gzip(6),
    Compression::Brotli(1),
    Compression::Lz4,
    Compression::Lz4Raw,
    Compression::Zstd(3),
];

#[test]
fn random_rows_read_back_equal_under_every_setting() {
    let rows = generate(26, 2500, every);
    let borrowed: Vec<Borrowed<'_>> = rows.iter().map(Borrowed::of).collect();
    for (n, codec) in CODECS.into_iter().enumerate() {
        for version in [PageVersion::V1, PageVersion::V2] {
            for dictionary in [true, false] {
                let what = format!("{codec:?} {version:?} dictionary {dictionary}");
                let options = WriteOptions::default()
                    .compression(codec)
                    .page_version(version)
                    .dictionary(dictionary)
                    .row_group_rows(700 + 100 * n)
                    .page_bytes(512);
                let (summary, file) = write_all(&rows, options);
                assert_eq!(summary.rows, 2500, "{what}");
                assert_eq!(
                    summary.row_groups,
                    2500usize.div_ceil(700 + 100 * n),
                    "{what}"
                );
                assert_eq!(summary.bytes, file.len() as u64, "{what}");

                let back: Vec<Every> = parquet_rows::from_bytes(file.clone()).unwrap();
                same(&back, &rows, &what);
                let parquet = ParquetFile::from_bytes(file.clone()).unwrap();
                let pages = parquet.load::<Borrowed>().unwrap();
                same(&pages.rows::<Borrowed>().unwrap(), &borrowed, &what);
                same(
                    &record_api(&file, from_record),
                    &rows,
                    &format!("record API, {what}"),
                );

                // Several pages per column chunk (the offset index lists them).
                let reader = SerializedFileReader::new_with_options(
                    file,
                    ReadOptionsBuilder::new().with_page_index().build(),
                )
                .unwrap();
                let index = reader.metadata().page_index_for_row_group(0);
                let name = reader.metadata().file_metadata().schema_descr().column(11);
                assert_eq!(name.name(), "name");
                let pages = index.offset_index(11).unwrap().page_locations().len();
                assert!(pages > 1, "{what}: {pages} page");
            }
        }
    }
}

#[test]
fn borrowed_rows_write_from_a_refilled_buffer() {
    let rows = generate(7, 300, every);
    let mut writer = Writer::<Borrowed, _>::new(Vec::new(), WriteOptions::default()).unwrap();
    for row in &rows {
        // A buffer that lives for one row only: the writer keeps no borrow.
        let text = row.text.clone();
        let line = Borrowed {
            text: &text,
            ..Borrowed::of(row)
        };
        writer.write_row(&line).unwrap();
    }
    let (_, bytes) = writer.finish().unwrap();
    let file = ParquetFile::from_bytes(bytes).unwrap();
    let pages = file.load::<Borrowed>().unwrap();
    let expected: Vec<Borrowed<'_>> = rows.iter().map(Borrowed::of).collect();
    same(&pages.rows::<Borrowed>().unwrap(), &expected, "borrowed");
}

#[test]
fn the_file_says_what_wrote_it_and_carries_indexes() {
    let rows = generate(3, 1000, every);
    let options = WriteOptions::default()
        .bloom_filter("name")
        .metadata("origin", "tests")
        .statistics(Statistics::Page);
    let (_, file) = write_all(&rows, options);
    let reader = SerializedFileReader::new_with_options(
        file.clone(),
        ReadOptionsBuilder::new().with_page_index().build(),
    )
    .unwrap();
    let meta = reader.metadata();
    let created_by = meta.file_metadata().created_by().unwrap();
    assert_eq!(
        created_by,
        concat!("parquet-rows version ", env!("CARGO_PKG_VERSION"))
    );
    let pairs = meta.file_metadata().key_value_metadata().unwrap();
    assert!(pairs
        .iter()
        .any(|kv| kv.key == "origin" && kv.value.as_deref() == Some("tests")));
    let group = meta.row_group(0);
    let names: Vec<String> = group
        .columns()
        .iter()
        .map(|c| c.column_path().string())
        .collect();
    let name = names.iter().position(|n| n == "name").unwrap();
    assert!(group.column(name).bloom_filter_offset().is_some());
    assert!(group.column(0).bloom_filter_offset().is_none());
    // Statistics of every chunk, and the column index of every page.
    let long = names.iter().position(|n| n == "long").unwrap();
    let stats = group.column(long).statistics().unwrap();
    let min = rows.iter().map(|r| r.long).min().unwrap();
    assert_eq!(stats.min_bytes_opt(), Some(&min.to_le_bytes()[..]));
    assert!(meta
        .page_index_for_row_group(0)
        .column_index(long)
        .is_some());
    // Unsigned columns order as unsigned: `u64::MAX` is the maximum.
    let ulong = names.iter().position(|n| n == "ulong").unwrap();
    let max = group
        .column(ulong)
        .statistics()
        .unwrap()
        .max_bytes_opt()
        .unwrap();
    assert_eq!(max, &u64::MAX.to_le_bytes()[..]);
    // The schema is the rules' (a REQUIRED INT32 with INT(8, signed), ...).
    let schema = ParquetFile::from_bytes(file).unwrap();
    let column = schema.schema().column(1);
    assert_eq!(
        format!(
            "{:?} {:?}",
            column.physical_type(),
            column.logical_type_ref()
        ),
        "INT32 Some(Integer(IntType { bit_width: 8, is_signed: true }))"
    );
}

#[test]
fn row_groups_close_at_a_row_count_or_an_estimate_of_bytes() {
    let rows = generate(5, 3000, every);
    let by_rows = WriteOptions::default().row_group_rows(1000);
    assert_eq!(write_all(&rows, by_rows).0.row_groups, 3);

    // The estimate bounds what is buffered: a row group is cut as soon as
    // it reaches the limit.
    let mut writer = Writer::<Every, _>::new(
        Vec::new(),
        WriteOptions::default().row_group_bytes(64 << 10),
    )
    .unwrap();
    for row in &rows {
        writer.write_row(row).unwrap();
        assert!(writer.estimated_bytes() < 64 << 10);
    }
    let (summary, bytes) = writer.finish().unwrap();
    assert!(summary.row_groups > 3, "{summary:?}");
    let back: Vec<Every> = parquet_rows::from_bytes(bytes).unwrap();
    same(&back, &rows, "row groups by bytes");
}

#[test]
fn an_empty_writer_writes_a_file_without_rows() {
    let (summary, bytes) = parquet_rows::to_writer::<Every, _>(Vec::new(), &[]).unwrap();
    assert_eq!((summary.rows, summary.row_groups), (0, 0));
    let back: Vec<Every> = parquet_rows::from_bytes(bytes).unwrap();
    assert!(back.is_empty());
}

/// A sink that fails once `left` bytes are written.
struct Failing {
    written: Vec<u8>,
    left: usize,
}

impl Write for Failing {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        if buf.len() > self.left {
            return Err(std::io::Error::other("disk full"));
        }
        self.left -= buf.len();
        self.written.extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

#[test]
fn an_io_error_mid_write_is_an_err_and_leaves_no_footer() {
    let rows = generate(9, 3000, every);
    let sink = Failing {
        written: Vec::new(),
        left: 20_000,
    };
    let options = WriteOptions::default()
        .row_group_rows(1000)
        .compression(Compression::Uncompressed);
    let mut writer = Writer::<Every, _>::new(sink, options).unwrap();
    let err = writer.write(&rows).unwrap_err();
    let message = err.to_string();
    assert!(matches!(err, Error::Write { .. }), "{err:?}");
    assert!(message.starts_with("writing failed (column `"), "{message}");
    assert!(message.contains("row group 0"), "{message}");
    assert!(message.contains("disk full"), "{message}");
    // The writer stays stopped, and closing does not complete the file.
    let again = writer.write(&rows[..1]).unwrap_err().to_string();
    assert!(again.contains("stopped at an earlier error"), "{again}");
    assert!(writer.close().is_err());
}

#[test]
fn a_dropped_writer_leaves_no_footer() {
    let rows = generate(11, 100, every);
    let path = std::env::temp_dir().join(format!(
        "parquet-rows-dropped-{}.parquet",
        std::process::id()
    ));
    let mut writer = Writer::<Every>::create(&path, WriteOptions::default()).unwrap();
    writer.write(&rows).unwrap();
    writer.flush().unwrap();
    drop(writer);
    let written = std::fs::read(&path).unwrap();
    std::fs::remove_file(&path).unwrap();
    assert!(written.starts_with(b"PAR1") && !written.ends_with(b"PAR1"));
    assert!(parquet_rows::from_bytes::<Every>(written).is_err());
}

#[test]
fn options_the_file_cannot_have_are_errors_at_creation() {
    let err = Writer::<Every, _>::new(Vec::new(), WriteOptions::default().bloom_filter("nope"))
        .unwrap_err()
        .to_string();
    assert!(err.contains("column `nope`"), "{err}");
    let err = Writer::<Every, _>::new(
        Vec::new(),
        WriteOptions::default().compression(Compression::Zstd(99)),
    )
    .unwrap_err()
    .to_string();
    assert!(err.contains("zstd(99)"), "{err}");
}

/// FIXED_LEN_BYTE_ARRAY columns are PLAIN (or dictionary) in v2 files too:
/// the `parquet` crate's v2 default, DELTA_BYTE_ARRAY, is one polars
/// refuses for that type. Strings keep the v2 fallback.
#[test]
fn fixed_length_columns_are_plain_in_v2_files() {
    use parquet::basic::Encoding;
    let rows = generate(5, 600, every);
    for dictionary in [true, false] {
        let options = WriteOptions::default()
            .page_version(PageVersion::V2)
            .dictionary(dictionary)
            .page_bytes(256);
        let (_, file) = write_all(&rows, options);
        let reader = SerializedFileReader::new(file).unwrap();
        let chunks = reader.metadata().row_group(0).columns();
        let encodings = |name: &str| {
            let chunk = chunks
                .iter()
                .find(|c| c.column_path().string() == name)
                .unwrap();
            chunk.encodings().collect::<Vec<_>>()
        };
        for name in ["fixed", "o_fixed"] {
            let found = encodings(name);
            assert!(found.contains(&Encoding::PLAIN), "{name}: {found:?}");
            assert!(
                !found.contains(&Encoding::DELTA_BYTE_ARRAY),
                "{name}: {found:?}"
            );
        }
        if !dictionary {
            assert!(encodings("name").contains(&Encoding::DELTA_BYTE_ARRAY));
        }
    }
}
