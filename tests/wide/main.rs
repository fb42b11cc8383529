//! A struct of 1,000 fields derives `ParquetRow` without raising
//! `recursion_limit` (the generated code's type depth does not grow with the
//! number of fields), compiles in time linear in its fields (the derive's
//! wide shape, see docs/pipeline.md, Wide structs), and round-trips a file
//! that `parquet` wrote, in a borrowed struct (every field decoded in place)
//! and an owned one with `Arc<str>` fields; the derived writer writes the
//! rows back and the derived filter selects rows on its fields.
//!
//! The structs are written by the suite's build script
//! (`tests/wide/build.rs`) into `OUT_DIR`; `WIDE_FIELDS=n` builds them with
//! `n` fields (at least 97: the filter test names field `c96`).

use std::sync::Arc;

use parquet::file::properties::WriterProperties;
use parquet_rows::ParquetFile;
use parquet_rows_suite::{write_columns, ColumnValues};

include!(concat!(env!("OUT_DIR"), "/wide.rs"));

/// Rows per row group, and row groups: more rows than one batch (1,024)
/// in the second, so a batch boundary falls inside a row group.
const ROW_GROUPS: [usize; 2] = [3, 1030];

/// The value of column `c` in row `r`, as text: the one source both the
/// file and the expected rows are made from.
fn text(c: usize, r: usize) -> String {
    format!("v{c}-{}", r % 7)
}

/// Whether the nullable columns hold a null in row `r` of column `c`.
fn null(c: usize, r: usize) -> bool {
    (c + r).is_multiple_of(3)
}

fn column(c: usize, rows: std::ops::Range<usize>) -> ColumnValues {
    let i64_of = |r: usize| (c * 1_000_003 + r) as i64;
    match c % 6 {
        0 => ColumnValues::Int64(rows.map(|r| Some(i64_of(r))).collect()),
        1 => ColumnValues::Double(
            rows.map(|r| Some(f64::from(u32::try_from(c * 1_000 + r).expect("small")) / 4.0))
                .collect(),
        ),
        2 => ColumnValues::Int32(
            rows.map(|r| (!null(c, r)).then_some(i64_of(r) as i32))
                .collect(),
        ),
        3 => ColumnValues::Bytes(rows.map(|r| Some(text(c, r).into_bytes())).collect()),
        4 => ColumnValues::Bool(rows.map(|r| Some((c + r).is_multiple_of(2))).collect()),
        _ => ColumnValues::Bytes(
            rows.map(|r| (!null(c, r)).then(|| text(c, r).into_bytes()))
                .collect(),
        ),
    }
}

/// The wide file, written once for the four tests (1,000 columns take a
/// while in a debug build).
fn wide_file() -> bytes::Bytes {
    static FILE: std::sync::OnceLock<bytes::Bytes> = std::sync::OnceLock::new();
    FILE.get_or_init(write_wide_file).clone()
}

fn write_wide_file() -> bytes::Bytes {
    let mut start = 0;
    let row_groups: Vec<Vec<ColumnValues>> = ROW_GROUPS
        .iter()
        .map(|&n| {
            let rows = start..start + n;
            start += n;
            (0..FIELDS).map(|c| column(c, rows.clone())).collect()
        })
        .collect();
    write_columns(SCHEMA, WriterProperties::builder().build(), &row_groups).expect("write")
}

/// Every value of row `r` of the owned struct, checked field by field
/// through its `Debug` text against the columns (a field out of place, or
/// two fields swapped, changes it).
fn expected_debug(r: usize) -> String {
    static ROWS: std::sync::OnceLock<Vec<String>> = std::sync::OnceLock::new();
    let rows = ROWS.get_or_init(|| (0..ROW_GROUPS.iter().sum()).map(expected_row).collect());
    rows[r].clone()
}

fn expected_row(r: usize) -> String {
    let fields: Vec<String> = (0..FIELDS)
        .map(|c| {
            let value = match column(c, r..r + 1) {
                ColumnValues::Int64(v) => format!("{}", v[0].expect("required")),
                ColumnValues::Double(v) => format!("{:?}", v[0].expect("required")),
                ColumnValues::Int32(v) => format!("{:?}", v[0]),
                ColumnValues::Bool(v) => format!("{}", v[0].expect("required")),
                ColumnValues::Bytes(_) if c % 6 == 3 => format!("{:?}", text(c, r)),
                ColumnValues::Bytes(v) => {
                    format!("{:?}", v[0].as_ref().map(|_| text(c, r)))
                }
                ColumnValues::Float(_) => unreachable!("no FLOAT column"),
            };
            format!("c{c}: {value}")
        })
        .collect();
    format!("WideOwned {{ {} }}", fields.join(", "))
}

#[test]
fn wide_struct_borrowed() {
    let file = ParquetFile::from_bytes(wide_file()).expect("open");
    let pages = file.load::<Wide<'_>>().expect("load");
    let rows: Vec<Wide<'_>> = pages.rows().expect("rows");
    assert_eq!(rows.len(), ROW_GROUPS.iter().sum::<usize>());
    for (r, row) in rows.iter().enumerate() {
        let owned = format!("{row:?}").replacen("Wide ", "WideOwned ", 1);
        assert_eq!(owned, expected_debug(r), "row {r}");
    }
}

#[test]
fn wide_struct_owned() {
    let rows: Vec<WideOwned> = parquet_rows::from_bytes(wide_file()).expect("read");
    assert_eq!(rows.len(), ROW_GROUPS.iter().sum::<usize>());
    for (r, row) in rows.iter().enumerate() {
        assert_eq!(format!("{row:?}"), expected_debug(r), "row {r}");
    }
    // The `Arc<str>` fields are what sends this struct down the buffered path.
    assert_eq!(rows[8].c3, Arc::from(text(3, 8).as_str()));
}

/// The derived writer (one push function per field, in a slice) writes the
/// wide rows back: read again, they are the rows written.
#[test]
fn wide_struct_written() {
    let rows: Vec<WideOwned> = parquet_rows::from_bytes(wide_file()).expect("read");
    let (_, bytes) = parquet_rows::to_writer(Vec::new(), &rows).expect("write");
    let bytes = bytes::Bytes::from(bytes);
    let back: Vec<WideOwned> = parquet_rows::from_bytes(bytes.clone()).expect("read back");
    assert_eq!(back, rows);
    let file = ParquetFile::from_bytes(bytes).expect("open");
    let pages = file.load::<Wide<'_>>().expect("load");
    let borrowed: Vec<Wide<'_>> = pages.rows().expect("rows");
    assert_eq!(borrowed.len(), rows.len());
    for (r, row) in borrowed.iter().enumerate() {
        let owned = format!("{row:?}").replacen("Wide ", "WideOwned ", 1);
        assert_eq!(owned, expected_debug(r), "row {r}");
    }
}

/// Predicates on a wide struct's fields (the probes, one function per
/// field in a slice) select the rows they say: on `c0` and on `c96`, an
/// `i64` column far from the first (`c{i}` holds `i * 1_000_003 + row`).
#[test]
fn wide_struct_filtered() {
    let file = ParquetFile::from_bytes(wide_file()).expect("open");
    let c96 = 96 * 1_000_003;
    let rows: Vec<WideOwned> = file
        .rows::<WideOwned>()
        .filter(WideOwned::filter().c0().ge(2).c96().lt(c96 + 1025))
        .collect()
        .expect("filtered read");
    assert_eq!(rows.len(), 1023, "rows 2..1025");
    for (k, row) in rows.iter().enumerate() {
        assert_eq!(format!("{row:?}"), expected_debug(k + 2), "row {}", k + 2);
    }
}
