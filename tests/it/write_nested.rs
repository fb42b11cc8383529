//! The writer's nested shapes: structs in structs, `Option` groups, `Vec` as
//! a 3-level LIST (of leaves, `Option`s, structs and lists), `Option<Vec>`,
//! maps (`BTreeMap`, `HashMap`, with `Option` values and list values).
//! Random rows (several seeds) written under pages v1/v2 x dictionary on/off,
//! with small pages and row groups so records span both, read back equal by
//! parquet-rows (owned, and borrowed rows written from borrowed structs) and
//! by the `parquet` crate's record API; the schema is the standard forms;
//! statistics, column index and bloom filters of nested leaves; shapes the
//! reader cannot bind are errors at creation naming the field.

use std::collections::{BTreeMap, HashMap};

use bytes::Bytes;
use parquet::file::reader::FileReader;
use parquet::file::serialized_reader::{ReadOptionsBuilder, SerializedFileReader};
use parquet::record::{Field, Row};
use parquet_rows::writer::{PageVersion, Statistics};
use parquet_rows::{Date, Decimal, ParquetFile, ParquetRow, Timestamp, Unit, WriteOptions, Writer};
use parquet_rows_suite::record::{
    boolean, bytes, double, entries, f_list, get, group, int, list, long, record_api, req, string,
};
use parquet_rows_suite::rng::{generate, Rng};

#[derive(ParquetRow, Debug, Clone, PartialEq)]
struct Point {
    x: i32,
    label: Option<String>,
}

#[derive(ParquetRow, Debug, Clone, PartialEq)]
struct Line {
    #[parquet(rename = "line_name")]
    name: String,
    points: Vec<Point>,
    weight: Option<f64>,
}

/// Every nested shape the writer writes.
#[derive(ParquetRow, Debug, Clone, PartialEq)]
struct Nested {
    id: i64,
    point: Point,
    o_point: Option<Point>,
    tags: Vec<String>,
    o_ints: Vec<Option<i32>>,
    maybe_list: Option<Vec<u64>>,
    lines: Vec<Line>,
    o_lines: Option<Vec<Option<Line>>>,
    matrix: Vec<Vec<f64>>,
    o_matrix: Option<Vec<Option<Vec<Option<i16>>>>>,
    counts: BTreeMap<String, i64>,
    o_map: Option<HashMap<i32, Option<String>>>,
    map_of_lists: BTreeMap<String, Vec<Option<bool>>>,
    list_of_maps: Vec<BTreeMap<u16, Point>>,
    blobs: Vec<Vec<u8>>,
    fixed: Vec<[u8; 4]>,
    days: Option<Vec<Date>>,
    raw: Vec<u8>,
}

/// Leaf types with attributes (a unit, a precision) inside lists and maps;
/// read back by parquet-rows only (the record API test converts the plain
/// types).
#[derive(ParquetRow, Debug, Clone, PartialEq)]
struct Annotated {
    #[parquet(precision = 9, scale = 2)]
    prices: Vec<Option<Decimal>>,
    #[parquet(unit = "millis")]
    stamps: BTreeMap<String, Timestamp>,
    #[parquet(precision = 30, scale = 4)]
    big: Option<Vec<Decimal>>,
}

fn point(rng: &mut Rng) -> Point {
    Point {
        x: rng.i32(),
        label: rng.maybe(30, Rng::word),
    }
}

fn line(rng: &mut Rng) -> Line {
    Line {
        name: rng.word(),
        points: rng.vec(3, point),
        weight: rng.maybe(30, Rng::f64),
    }
}

fn nested(rng: &mut Rng, i: usize) -> Nested {
    Nested {
        id: i as i64,
        point: point(rng),
        o_point: rng.maybe(30, point),
        tags: rng.vec(4, Rng::word),
        o_ints: rng.vec(4, |r| r.maybe(30, Rng::i32)),
        maybe_list: rng.maybe(30, |r| {
            r.vec(3, |r| match r.below(4) {
                0 => u64::MAX,
                1 => 0,
                _ => r.next_u64(),
            })
        }),
        lines: rng.vec(2, line),
        o_lines: rng.maybe(30, |r| r.vec(2, |r| r.maybe(30, line))),
        matrix: rng.vec(3, |r| r.vec(3, Rng::f64)),
        o_matrix: rng.maybe(30, |r| {
            r.vec(2, |r| {
                r.maybe(30, |r| {
                    r.vec(3, |r| {
                        r.maybe(30, |r| match r.below(5) {
                            0 => i16::MIN,
                            1 => i16::MAX,
                            _ => r.below(100) as i16,
                        })
                    })
                })
            })
        }),
        counts: rng.vec(4, |r| (r.word(), r.i64())).into_iter().collect(),
        o_map: rng.maybe(30, |r| {
            r.vec(3, |r| (r.i32(), r.maybe(30, Rng::word)))
                .into_iter()
                .collect()
        }),
        map_of_lists: rng
            .vec(2, |r| {
                (r.word(), r.vec(3, |r| r.maybe(30, |r| r.chance(50))))
            })
            .into_iter()
            .collect(),
        list_of_maps: rng.vec(2, |r| {
            r.vec(2, |r| (r.below(65536) as u16, point(r)))
                .into_iter()
                .collect()
        }),
        blobs: rng.vec(3, |r| {
            let mut b = r.word().into_bytes();
            if r.chance(20) {
                b.extend([0xff, 0x00]); // not UTF-8
            }
            b
        }),
        fixed: rng.vec(2, |r| [r.below(256) as u8, 0, 255, 7]),
        days: rng.maybe(30, |r| {
            r.vec(2, |r| Date {
                days: match r.below(5) {
                    0 => i32::MIN,
                    1 => i32::MAX,
                    _ => r.i32(),
                },
            })
        }),
        raw: rng.word().into_bytes(),
    }
}

fn decimal(rng: &mut Rng, precision: u32, scale: i8) -> Decimal {
    let most = 10i128.pow(precision) - 1;
    let unscaled = match rng.below(6) {
        0 => most,
        1 => -most,
        _ => i128::from(rng.next_u64()) % most,
    };
    Decimal {
        unscaled,
        precision: precision as u8,
        scale,
    }
}

fn annotated(rng: &mut Rng, _: usize) -> Annotated {
    Annotated {
        prices: rng.vec(3, |r| r.maybe(30, |r| decimal(r, 9, 2))),
        stamps: rng
            .vec(3, |r| {
                let value = (r.next_u64() >> 20) as i64 - (1 << 43);
                (
                    r.word(),
                    Timestamp {
                        value,
                        unit: Unit::Millis,
                        utc: true,
                    },
                )
            })
            .into_iter()
            .collect(),
        big: rng.maybe(30, |r| r.vec(2, |r| decimal(r, 30, 4))),
    }
}

/// [`Point`], borrowing its string.
#[derive(ParquetRow, Debug, PartialEq)]
struct PointRef<'a> {
    x: i32,
    label: Option<&'a str>,
}

/// Some of [`Nested`]'s fields, borrowing every string and byte array:
/// written from borrowed rows, read back borrowed from the pages.
#[derive(ParquetRow, Debug, PartialEq)]
struct NestedRef<'a> {
    id: i64,
    point: PointRef<'a>,
    o_point: Option<PointRef<'a>>,
    tags: Vec<&'a str>,
    o_map: Option<BTreeMap<i32, Option<&'a str>>>,
    list_of_maps: Vec<BTreeMap<u16, PointRef<'a>>>,
    blobs: Vec<&'a [u8]>,
    raw: &'a [u8],
}

impl<'a> PointRef<'a> {
    fn of(p: &'a Point) -> Self {
        PointRef {
            x: p.x,
            label: p.label.as_deref(),
        }
    }
}

impl<'a> NestedRef<'a> {
    fn of(row: &'a Nested) -> Self {
        NestedRef {
            id: row.id,
            point: PointRef::of(&row.point),
            o_point: row.o_point.as_ref().map(PointRef::of),
            tags: row.tags.iter().map(String::as_str).collect(),
            o_map: row.o_map.as_ref().map(|m| {
                m.iter()
                    .map(|(k, v)| (*k, v.as_deref()))
                    .collect::<BTreeMap<_, _>>()
            }),
            list_of_maps: row
                .list_of_maps
                .iter()
                .map(|m| m.iter().map(|(k, p)| (*k, PointRef::of(p))).collect())
                .collect(),
            blobs: row.blobs.iter().map(Vec::as_slice).collect(),
            raw: &row.raw,
        }
    }
}

/// The settings each seed is written under: page versions, dictionary on
/// and off, pages of a few hundred bytes and row groups of a few hundred
/// rows, so records span pages and row groups.
fn settings() -> Vec<(String, WriteOptions)> {
    let mut out = Vec::new();
    for version in [PageVersion::V1, PageVersion::V2] {
        for dictionary in [true, false] {
            let options = WriteOptions::default()
                .page_version(version)
                .dictionary(dictionary)
                .row_group_rows(if dictionary { 700 } else { 450 })
                .page_bytes(300);
            out.push((format!("{version:?} dictionary {dictionary}"), options));
        }
    }
    out
}

fn write<T: parquet_rows::ParquetWrite>(rows: &[T], options: WriteOptions) -> Bytes {
    let mut writer = Writer::<T, _>::new(Vec::new(), options).unwrap();
    // Rows arrive in slices of several sizes.
    for chunk in rows.chunks(333) {
        writer.write(chunk).unwrap();
    }
    let (summary, bytes) = writer.finish().unwrap();
    assert_eq!(summary.rows, rows.len() as u64);
    Bytes::from(bytes)
}

const SEEDS: [u64; 3] = [26, 2026, 7];
const ROWS: usize = 2000;

#[test]
fn random_nested_rows_read_back_equal_owned_and_borrowed() {
    for seed in SEEDS {
        let rows = generate(seed, ROWS, nested);
        let borrowed: Vec<NestedRef<'_>> = rows.iter().map(NestedRef::of).collect();
        for (what, options) in settings() {
            let what = format!("seed {seed}, {what}");
            let file = write(&rows, options.clone());
            let back: Vec<Nested> = parquet_rows::from_bytes(file.clone()).unwrap();
            assert_eq!(back.len(), rows.len(), "{what}");
            for (i, (b, r)) in back.iter().zip(&rows).enumerate() {
                assert_eq!(b, r, "{what}: row {i}");
            }
            let reader = SerializedFileReader::new(file.clone()).unwrap();
            assert!(reader.metadata().num_row_groups() > 2, "{what}");

            // Borrowed rows written, then read back borrowed.
            let file = write(&borrowed, options);
            let parquet = ParquetFile::from_bytes(file).unwrap();
            let pages = parquet.load::<NestedRef>().unwrap();
            let back = pages.rows::<NestedRef>().unwrap();
            assert_eq!(back.len(), borrowed.len(), "{what}");
            for (i, (b, r)) in back.iter().zip(&borrowed).enumerate() {
                assert_eq!(b, r, "borrowed, {what}: row {i}");
            }
        }
    }
}

#[test]
fn random_annotated_leaves_in_lists_and_maps_read_back_equal() {
    for seed in SEEDS {
        let rows = generate(seed, ROWS, annotated);
        for (what, options) in settings() {
            let file = write(&rows, options);
            let back: Vec<Annotated> = parquet_rows::from_bytes(file).unwrap();
            assert_eq!(back, rows, "seed {seed}, {what}");
        }
    }
}

fn point_of(row: &Row) -> Point {
    Point {
        x: req(int(get(row, "x"))),
        label: string(get(row, "label")),
    }
}

fn line_of(row: &Row) -> Line {
    Line {
        name: req(string(get(row, "line_name"))),
        points: f_list(get(row, "points"))
            .iter()
            .map(|f| point_of(req(group(f))))
            .collect(),
        weight: double(get(row, "weight")),
    }
}

fn ulong(f: &Field) -> u64 {
    match f {
        Field::ULong(v) => *v,
        other => panic!("expected ULong, got {other:?}"),
    }
}

fn ushort(f: &Field) -> u16 {
    match f {
        Field::UShort(v) => *v,
        other => panic!("expected UShort, got {other:?}"),
    }
}

fn short(f: &Field) -> Option<i16> {
    match f {
        Field::Null => None,
        Field::Short(v) => Some(*v),
        other => panic!("expected Short, got {other:?}"),
    }
}

fn day(f: &Field) -> Date {
    match f {
        Field::Date(days) => Date { days: *days },
        other => panic!("expected Date, got {other:?}"),
    }
}

/// One row of the record API as a [`Nested`].
fn nested_of(row: &Row) -> Nested {
    let g = |name| get(row, name);
    Nested {
        id: req(long(g("id"))),
        point: point_of(req(group(g("point")))),
        o_point: group(g("o_point")).map(point_of),
        tags: f_list(g("tags")).iter().map(|f| req(string(f))).collect(),
        o_ints: f_list(g("o_ints")).iter().map(int).collect(),
        maybe_list: list(g("maybe_list")).map(|l| l.iter().map(ulong).collect()),
        lines: f_list(g("lines"))
            .iter()
            .map(|f| line_of(req(group(f))))
            .collect(),
        o_lines: list(g("o_lines")).map(|l| l.iter().map(|f| group(f).map(line_of)).collect()),
        matrix: f_list(g("matrix"))
            .iter()
            .map(|l| f_list(l).iter().map(|f| req(double(f))).collect())
            .collect(),
        o_matrix: list(g("o_matrix")).map(|l| {
            l.iter()
                .map(|l| list(l).map(|l| l.iter().map(short).collect()))
                .collect()
        }),
        counts: req(entries(g("counts")))
            .iter()
            .map(|(k, v)| (req(string(k)), req(long(v))))
            .collect(),
        o_map: entries(g("o_map"))
            .map(|e| e.iter().map(|(k, v)| (req(int(k)), string(v))).collect()),
        map_of_lists: req(entries(g("map_of_lists")))
            .iter()
            .map(|(k, v)| (req(string(k)), f_list(v).iter().map(boolean).collect()))
            .collect(),
        list_of_maps: f_list(g("list_of_maps"))
            .iter()
            .map(|m| {
                req(entries(m))
                    .iter()
                    .map(|(k, v)| (ushort(k), point_of(req(group(v)))))
                    .collect()
            })
            .collect(),
        blobs: f_list(g("blobs")).iter().map(|f| req(bytes(f))).collect(),
        fixed: f_list(g("fixed"))
            .iter()
            .map(|f| req(bytes(f)).try_into().unwrap())
            .collect(),
        days: list(g("days")).map(|l| l.iter().map(day).collect()),
        raw: req(bytes(g("raw"))),
    }
}

#[test]
fn the_record_api_reads_nested_files_to_the_same_values() {
    let rows = generate(99, 1500, nested);
    for (what, options) in settings() {
        let file = write(&rows, options);
        let back = record_api(&file, nested_of);
        assert_eq!(back.len(), rows.len(), "{what}");
        for (i, (b, r)) in back.iter().zip(&rows).enumerate() {
            assert_eq!(b, r, "record API, {what}: row {i}");
        }
    }
}

#[test]
fn the_schema_is_the_standard_list_and_map_forms() {
    let rows = generate(1, 10, nested);
    let file = write(&rows, WriteOptions::default());
    let reader = SerializedFileReader::new(file).unwrap();
    let mut printed = Vec::new();
    parquet::schema::printer::print_schema(
        &mut printed,
        reader.metadata().file_metadata().schema(),
    );
    let printed = String::from_utf8(printed).unwrap();
    for part in [
        "REQUIRED group point {\n    REQUIRED INT32 x;\n    OPTIONAL BYTE_ARRAY label (STRING);",
        "OPTIONAL group o_point {",
        "REQUIRED group tags (LIST) {\n    REPEATED group list {\n      REQUIRED BYTE_ARRAY element (STRING);",
        "REQUIRED group o_ints (LIST) {\n    REPEATED group list {\n      OPTIONAL INT32 element;",
        "OPTIONAL group maybe_list (LIST) {\n    REPEATED group list {\n      REQUIRED INT64 element (INTEGER(64,false));",
        "REQUIRED group matrix (LIST) {\n    REPEATED group list {\n      REQUIRED group element (LIST) {\n        REPEATED group list {\n          REQUIRED DOUBLE element;",
        "REQUIRED group counts (MAP) {\n    REPEATED group key_value {\n      REQUIRED BYTE_ARRAY key (STRING);\n      REQUIRED INT64 value;",
        "OPTIONAL group o_map (MAP) {\n    REPEATED group key_value {\n      REQUIRED INT32 key;\n      OPTIONAL BYTE_ARRAY value (STRING);",
        "REQUIRED group blobs (LIST) {\n    REPEATED group list {\n      REQUIRED BYTE_ARRAY element;",
        "REQUIRED BYTE_ARRAY raw;",
    ] {
        assert!(printed.contains(part), "{part}\nin\n{printed}");
    }
}

/// Statistics count nulls at the leaf (an entry below the maximum
/// definition level: a null element, an empty or null list), the column
/// index has each page, and a bloom filter is written for a nested leaf.
#[test]
fn statistics_and_indexes_of_nested_leaves() {
    #[derive(ParquetRow, Debug, Clone, PartialEq)]
    struct Small {
        #[parquet(bloom_filter)]
        tags: Option<Vec<Option<String>>>,
        point: Option<Point>,
    }
    let rows = vec![
        Small {
            tags: None,
            point: None,
        },
        Small {
            tags: Some(vec![]),
            point: Some(Point { x: 5, label: None }),
        },
        Small {
            tags: Some(vec![None, Some("b".into()), Some("a".into())]),
            point: Some(Point {
                x: -3,
                label: Some("z".into()),
            }),
        },
    ];
    let options = WriteOptions::default()
        .statistics(Statistics::Page)
        .bloom_filter("point.label");
    let file = write(&rows, options);
    let back: Vec<Small> = parquet_rows::from_bytes(file.clone()).unwrap();
    assert_eq!(back, rows);
    let reader = SerializedFileReader::new_with_options(
        file,
        ReadOptionsBuilder::new().with_page_index().build(),
    )
    .unwrap();
    let group = reader.metadata().row_group(0);
    let tags = group.column(0);
    assert_eq!(tags.column_path().string(), "tags.list.element");
    let stats = tags.statistics().unwrap();
    // Entries: null list, empty list, null element, "b", "a".
    assert_eq!(stats.null_count_opt(), Some(3));
    assert_eq!(stats.min_bytes_opt(), Some(&b"a"[..]));
    assert_eq!(stats.max_bytes_opt(), Some(&b"b"[..]));
    let x = group.column(1).statistics().unwrap();
    assert_eq!(x.null_count_opt(), Some(1));
    assert_eq!(x.min_bytes_opt(), Some(&(-3i32).to_le_bytes()[..]));
    let index = reader.metadata().page_index_for_row_group(0);
    for leaf in 0..3 {
        let pages = index.column_index(leaf).expect("a column index per leaf");
        assert_eq!(pages.null_count(0), Some([3, 1, 2][leaf]), "leaf {leaf}");
    }
    // The attribute's leaf and the option's leaf have bloom filters.
    assert!(group.column(0).bloom_filter_offset().is_some());
    assert!(group.column(1).bloom_filter_offset().is_none());
    assert!(group.column(2).bloom_filter_offset().is_some());
}

/// A value a nested leaf refuses is an error naming the leaf's path and the
/// row; options naming nested columns wrongly are errors at creation.
#[test]
fn errors_name_the_nested_field_and_row() {
    #[derive(ParquetRow, Debug)]
    struct Priced {
        id: i32,
        #[parquet(precision = 4, scale = 2)]
        prices: BTreeMap<String, Vec<Decimal>>,
    }
    let ok = |unscaled| Decimal {
        unscaled,
        precision: 4,
        scale: 2,
    };
    let rows: Vec<Priced> = (0..10)
        .map(|i| Priced {
            id: i,
            prices: BTreeMap::from([(
                "a".to_owned(),
                vec![ok(1), ok(if i == 7 { 100_000 } else { 2 })],
            )]),
        })
        .collect();
    let mut writer = Writer::<Priced, _>::new(Vec::new(), WriteOptions::default()).unwrap();
    let e = writer.write(&rows).unwrap_err().to_string();
    assert!(
        e.contains("column `prices.key_value.value.list.element`"),
        "{e}"
    );
    assert!(e.contains("field `Priced::prices.value[]`, row 7:"), "{e}");
    assert!(writer.close().is_err());

    let sorted =
        WriteOptions::default().sorted_by("prices", parquet_rows::writer::SortOrder::Ascending);
    let e = Writer::<Priced, _>::new(Vec::new(), sorted)
        .unwrap_err()
        .to_string();
    assert!(e.contains("a group, list or map"), "{e}");
    let bloom = WriteOptions::default().bloom_filter("prices");
    let e = Writer::<Priced, _>::new(Vec::new(), bloom)
        .unwrap_err()
        .to_string();
    assert!(e.contains("dotted path"), "{e}");
}

/// Shapes the reader cannot bind are refused when the writer is created,
/// naming the field: `Option<Option<_>>` in a list, a nullable map key. (A
/// struct without columns does not derive.)
#[test]
#[allow(clippy::option_option)] // the shape under test
fn shapes_the_reader_cannot_bind_are_errors_at_creation() {
    #[derive(ParquetRow, Debug)]
    struct Twice {
        id: i32,
        values: Vec<Option<Option<i32>>>,
    }
    #[derive(ParquetRow, Debug)]
    struct NullKey {
        map: HashMap<Option<i32>, i32>,
    }
    let e = Writer::<Twice, _>::new(Vec::new(), WriteOptions::default())
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("field `Twice::values[]` cannot be written: `Option<Option<_>>`"),
        "{e}"
    );
    let e = Writer::<NullKey, _>::new(Vec::new(), WriteOptions::default())
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("field `NullKey::map` cannot be written: a map's key is REQUIRED"),
        "{e}"
    );
}
