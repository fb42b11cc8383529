//! Round trips: files written with the `parquet` crate's `SerializedFileWriter`
//! (in memory), read back with parquet-rows, compared value by value with what
//! was written, under many writer settings.
//!
//! Every value of the main file is a pure function of its row index (`v_*`
//! below), so a decoded row can be checked without keeping the written data.

use std::ops::Range;

use bytes::Bytes;
use parquet::basic::{BrotliLevel, Compression, Encoding, GzipLevel, ZstdLevel};
use parquet::column::page::Page;
use parquet::file::properties::{WriterProperties, WriterPropertiesBuilder, WriterVersion};
use parquet_rows::{Error, Pages, ParquetFile, ParquetRow};
use parquet_rows_suite::{
    all_pages, file_metadata, tick_file, tick_values, write_columns, ColumnValues, Tick, TickOwned,
};

// ---------------------------------------------------------------------------
// The all-types file
// ---------------------------------------------------------------------------

/// Every supported column type, REQUIRED (`r_*`) then OPTIONAL (`o_*`), in the
/// order of [`FIELDS`].
const ALL_SCHEMA: &str = "message all_types {
    REQUIRED BOOLEAN r_bool;
    REQUIRED INT32 r_i8 (INTEGER(8,true));
    REQUIRED INT32 r_i16 (INTEGER(16,true));
    REQUIRED INT32 r_i32;
    REQUIRED INT32 r_u8 (INTEGER(8,false));
    REQUIRED INT32 r_u16 (INTEGER(16,false));
    REQUIRED INT32 r_u32 (INTEGER(32,false));
    REQUIRED INT64 r_i64;
    REQUIRED INT64 r_u64 (INTEGER(64,false));
    REQUIRED FLOAT r_f32;
    REQUIRED DOUBLE r_f64;
    REQUIRED BINARY r_str (UTF8);
    REQUIRED BINARY r_string (STRING);
    REQUIRED BINARY r_bytes;
    REQUIRED BINARY r_byte_vec;
    REQUIRED FIXED_LEN_BYTE_ARRAY (3) r_fixed;
    OPTIONAL BOOLEAN o_bool;
    OPTIONAL INT32 o_i8 (INTEGER(8,true));
    OPTIONAL INT32 o_i16 (INTEGER(16,true));
    OPTIONAL INT32 o_i32;
    OPTIONAL INT32 o_u8 (INTEGER(8,false));
    OPTIONAL INT32 o_u16 (INTEGER(16,false));
    OPTIONAL INT32 o_u32 (INTEGER(32,false));
    OPTIONAL INT64 o_i64;
    OPTIONAL INT64 o_u64 (INTEGER(64,false));
    OPTIONAL FLOAT o_f32;
    OPTIONAL DOUBLE o_f64;
    OPTIONAL BINARY o_str (UTF8);
    OPTIONAL BINARY o_string (STRING);
    OPTIONAL BINARY o_bytes;
    OPTIONAL BINARY o_byte_vec;
    OPTIONAL FIXED_LEN_BYTE_ARRAY (3) o_fixed;
}";

/// Number of value kinds; column `k` is `r_*` and column `FIELDS + k` its `o_*` twin.
const FIELDS: usize = 16;

/// Rows in which every optional column is null: with pages of at most 64 rows
/// (see [`tiny_pages`]) several whole pages hold nothing but nulls.
const NULL_RUN: Range<usize> = 300..520;

/// Whether optional column `k` is null in row `i`: a different pattern per
/// column, plus the all-null run.
fn is_null(i: usize, k: usize) -> bool {
    NULL_RUN.contains(&i) || (i + k) % 5 == 2
}

/// `extremes[i % 97]` for the first rows of every 97, `regular(i)` otherwise,
/// so extreme values land in every page and row group.
fn pick<T: Clone>(i: usize, extremes: &[T], regular: impl Fn(usize) -> T) -> T {
    extremes.get(i % 97).cloned().unwrap_or_else(|| regular(i))
}

#[allow(clippy::manual_is_multiple_of)] // `is_multiple_of` needs Rust 1.87; the workspace supports 1.85
fn v_bool(i: usize) -> bool {
    i % 3 == 0
}
fn v_i8(i: usize) -> i8 {
    pick(i, &[i8::MIN, -1, 0, 1, i8::MAX], |i| (i % 256) as u8 as i8)
}
fn v_i16(i: usize) -> i16 {
    pick(i, &[i16::MIN, -1, 0, i16::MAX], |i| {
        (i * 37 % 65_536) as u16 as i16
    })
}
fn v_i32(i: usize) -> i32 {
    pick(i, &[i32::MIN, -1, 0, i32::MAX], |i| {
        (i as i32).wrapping_mul(-7919)
    })
}
fn v_u8(i: usize) -> u8 {
    pick(i, &[u8::MAX, 0, 127, 128], |i| (i * 7 % 256) as u8)
}
fn v_u16(i: usize) -> u16 {
    pick(i, &[u16::MAX, 0, 32_768], |i| (i * 331 % 65_536) as u16)
}
fn v_u32(i: usize) -> u32 {
    pick(i, &[u32::MAX, 0, 1 << 31, i32::MAX as u32], |i| {
        (i as u32).wrapping_mul(2_654_435_761)
    })
}
fn v_i64(i: usize) -> i64 {
    pick(i, &[i64::MIN, -1, 0, i64::MAX], |i| {
        (i as i64).wrapping_mul(-6_700_417) << 20
    })
}
fn v_u64(i: usize) -> u64 {
    pick(i, &[u64::MAX, 0, 1 << 63, i64::MAX as u64], |i| {
        (i as u64).wrapping_mul(11_400_714_819_323_198_485)
    })
}
fn v_f32(i: usize) -> f32 {
    let extremes = [
        f32::NAN,
        -0.0,
        0.0,
        f32::INFINITY,
        f32::NEG_INFINITY,
        f32::MIN_POSITIVE,
        f32::MAX,
        f32::MIN,
        f32::from_bits(1), // smallest subnormal
    ];
    pick(i, &extremes, |i| f32::from(i as u16) * 0.25 - 100.0)
}
fn v_f64(i: usize) -> f64 {
    let extremes = [
        f64::NAN,
        -0.0,
        0.0,
        f64::INFINITY,
        f64::NEG_INFINITY,
        f64::MIN_POSITIVE,
        f64::MAX,
        f64::MIN,
        f64::from_bits(1),
        f64::EPSILON,
    ];
    pick(i, &extremes, |i| f64::from(i as u32) * 1e-3 - 7.5)
}
fn v_str(i: usize) -> String {
    let extremes = [
        String::new(),
        "é".to_owned(),
        "日本".to_owned(),
        "🦀 crab ✓".to_owned(),
        "nul \0 inside".to_owned(),
        "long ".repeat(60),
    ];
    // A limited set of distinct values so that the dictionary stays useful.
    pick(i, &extremes, |i| format!("sym-{}-é", i % 40))
}
fn v_string(i: usize) -> String {
    // Unique values: these make a dictionary grow until it falls back to PLAIN.
    pick(
        i,
        &[String::new(), "Ünïcödé 日本語 🎉".to_owned()],
        |i| format!("row {i} — ü"),
    )
}
fn v_bytes(i: usize) -> Vec<u8> {
    let extremes = [vec![], vec![0], vec![0xff, 0xfe, 0x00], (0..=255).collect()];
    pick(i, &extremes, |i| i.to_le_bytes()[..i % 5].to_vec())
}
fn v_byte_vec(i: usize) -> Vec<u8> {
    pick(i, &[vec![0xc3, 0x28], vec![]], |i| {
        format!("blob{}", i % 13).into_bytes()
    })
}
fn v_fixed(i: usize) -> [u8; 3] {
    pick(i, &[[0, 0, 0], [0xff; 3]], |i| [i as u8, (i >> 8) as u8, 7])
}

/// The columns of rows `range` in schema order.
fn all_columns(range: Range<usize>) -> Vec<ColumnValues> {
    fn req<T>(range: &Range<usize>, f: impl Fn(usize) -> T) -> Vec<Option<T>> {
        range.clone().map(|i| Some(f(i))).collect()
    }

    let columns = |opt: Option<usize>| {
        // `opt`: None for the REQUIRED columns, Some(FIELDS) for the OPTIONAL ones
        // (column index offset, for `is_null`).
        let values = |k: usize, column: ColumnValues| match (opt, column) {
            (None, c) => c,
            (Some(offset), c) => null_out(c, &range, offset + k),
        };
        vec![
            values(0, ColumnValues::Bool(req(&range, v_bool))),
            values(1, ColumnValues::Int32(req(&range, |i| i32::from(v_i8(i))))),
            values(2, ColumnValues::Int32(req(&range, |i| i32::from(v_i16(i))))),
            values(3, ColumnValues::Int32(req(&range, v_i32))),
            values(4, ColumnValues::Int32(req(&range, |i| i32::from(v_u8(i))))),
            values(5, ColumnValues::Int32(req(&range, |i| i32::from(v_u16(i))))),
            // Unsigned annotations store the bit pattern in the signed physical type.
            values(6, ColumnValues::Int32(req(&range, |i| v_u32(i) as i32))),
            values(7, ColumnValues::Int64(req(&range, v_i64))),
            values(8, ColumnValues::Int64(req(&range, |i| v_u64(i) as i64))),
            values(9, ColumnValues::Float(req(&range, v_f32))),
            values(10, ColumnValues::Double(req(&range, v_f64))),
            values(
                11,
                ColumnValues::Bytes(req(&range, |i| v_str(i).into_bytes())),
            ),
            values(
                12,
                ColumnValues::Bytes(req(&range, |i| v_string(i).into_bytes())),
            ),
            values(13, ColumnValues::Bytes(req(&range, v_bytes))),
            values(14, ColumnValues::Bytes(req(&range, v_byte_vec))),
            values(
                15,
                ColumnValues::Bytes(req(&range, |i| v_fixed(i).to_vec())),
            ),
        ]
    };
    let mut all = columns(None);
    all.extend(columns(Some(FIELDS)));
    all
}

/// Replaces the values of rows where optional column `k` is null with `None`.
fn null_out(column: ColumnValues, range: &Range<usize>, k: usize) -> ColumnValues {
    fn apply<T>(values: Vec<Option<T>>, range: &Range<usize>, k: usize) -> Vec<Option<T>> {
        values
            .into_iter()
            .zip(range.clone())
            .map(|(v, i)| if is_null(i, k - FIELDS) { None } else { v })
            .collect()
    }

    match column {
        ColumnValues::Bool(v) => ColumnValues::Bool(apply(v, range, k)),
        ColumnValues::Int32(v) => ColumnValues::Int32(apply(v, range, k)),
        ColumnValues::Int64(v) => ColumnValues::Int64(apply(v, range, k)),
        ColumnValues::Float(v) => ColumnValues::Float(apply(v, range, k)),
        ColumnValues::Double(v) => ColumnValues::Double(apply(v, range, k)),
        ColumnValues::Bytes(v) => ColumnValues::Bytes(apply(v, range, k)),
    }
}

/// Writes rows `0..groups.last().end` of the all-types file, one row group per range.
fn write_all_types(props: WriterProperties, groups: &[Range<usize>]) -> Bytes {
    let row_groups: Vec<Vec<ColumnValues>> =
        groups.iter().map(|r| all_columns(r.clone())).collect();
    write_columns(ALL_SCHEMA, props, &row_groups).expect("write the all-types file")
}

/// Every field type, borrowing where it can.
#[derive(ParquetRow, Debug)]
struct AllTypes<'a> {
    r_bool: bool,
    r_i8: i8,
    r_i16: i16,
    r_i32: i32,
    r_u8: u8,
    r_u16: u16,
    r_u32: u32,
    r_i64: i64,
    r_u64: u64,
    r_f32: f32,
    r_f64: f64,
    r_str: &'a str,
    r_string: String,
    r_bytes: &'a [u8],
    r_byte_vec: Vec<u8>,
    r_fixed: &'a [u8],
    o_bool: Option<bool>,
    o_i8: Option<i8>,
    o_i16: Option<i16>,
    o_i32: Option<i32>,
    o_u8: Option<u8>,
    o_u16: Option<u16>,
    o_u32: Option<u32>,
    o_i64: Option<i64>,
    o_u64: Option<u64>,
    o_f32: Option<f32>,
    o_f64: Option<f64>,
    o_str: Option<&'a str>,
    o_string: Option<String>,
    o_bytes: Option<&'a [u8]>,
    o_byte_vec: Option<Vec<u8>>,
    o_fixed: Option<&'a [u8]>,
}

/// Every field type, owned (for `read`, `from_bytes`, ...).
#[derive(ParquetRow, Debug)]
struct AllTypesOwned {
    r_bool: bool,
    r_i8: i8,
    r_i16: i16,
    r_i32: i32,
    r_u8: u8,
    r_u16: u16,
    r_u32: u32,
    r_i64: i64,
    r_u64: u64,
    r_f32: f32,
    r_f64: f64,
    r_str: String,
    r_string: String,
    r_bytes: Vec<u8>,
    r_byte_vec: Vec<u8>,
    r_fixed: Vec<u8>,
    o_bool: Option<bool>,
    o_i8: Option<i8>,
    o_i16: Option<i16>,
    o_i32: Option<i32>,
    o_u8: Option<u8>,
    o_u16: Option<u16>,
    o_u32: Option<u32>,
    o_i64: Option<i64>,
    o_u64: Option<u64>,
    o_f32: Option<f32>,
    o_f64: Option<f64>,
    o_str: Option<String>,
    o_string: Option<String>,
    o_bytes: Option<Vec<u8>>,
    o_byte_vec: Option<Vec<u8>>,
    o_fixed: Option<Vec<u8>>,
}

/// `Option<_>` fields on the REQUIRED columns: never `None`.
#[derive(ParquetRow, Debug)]
#[allow(clippy::struct_field_names)] // the fields are the file's column names
struct RequiredAsOption<'a> {
    r_bool: Option<bool>,
    r_i8: Option<i8>,
    r_i16: Option<i16>,
    r_i32: Option<i32>,
    r_u8: Option<u8>,
    r_u16: Option<u16>,
    r_u32: Option<u32>,
    r_i64: Option<i64>,
    r_u64: Option<u64>,
    r_f32: Option<f32>,
    r_f64: Option<f64>,
    r_str: Option<&'a str>,
    r_string: Option<String>,
    r_bytes: Option<&'a [u8]>,
    r_byte_vec: Option<Vec<u8>>,
    r_fixed: Option<&'a [u8]>,
}

/// One row's values in a comparable form: owned, floats as bits (so NaN and
/// -0.0 compare exactly).
#[derive(Debug, PartialEq)]
struct Canon {
    b: bool,
    i8: i8,
    i16: i16,
    i32: i32,
    u8: u8,
    u16: u16,
    u32: u32,
    i64: i64,
    u64: u64,
    f32: u32,
    f64: u64,
    str: String,
    string: String,
    bytes: Vec<u8>,
    byte_vec: Vec<u8>,
    fixed: Vec<u8>,
}

/// The optional columns of one row; `None` is a null.
#[derive(Debug, PartialEq)]
struct CanonOpt {
    b: Option<bool>,
    i8: Option<i8>,
    i16: Option<i16>,
    i32: Option<i32>,
    u8: Option<u8>,
    u16: Option<u16>,
    u32: Option<u32>,
    i64: Option<i64>,
    u64: Option<u64>,
    f32: Option<u32>,
    f64: Option<u64>,
    str: Option<String>,
    string: Option<String>,
    bytes: Option<Vec<u8>>,
    byte_vec: Option<Vec<u8>>,
    fixed: Option<Vec<u8>>,
}

/// What row `i` of the REQUIRED columns holds.
fn want_required(i: usize) -> Canon {
    Canon {
        b: v_bool(i),
        i8: v_i8(i),
        i16: v_i16(i),
        i32: v_i32(i),
        u8: v_u8(i),
        u16: v_u16(i),
        u32: v_u32(i),
        i64: v_i64(i),
        u64: v_u64(i),
        f32: v_f32(i).to_bits(),
        f64: v_f64(i).to_bits(),
        str: v_str(i),
        string: v_string(i),
        bytes: v_bytes(i),
        byte_vec: v_byte_vec(i),
        fixed: v_fixed(i).to_vec(),
    }
}

/// What row `i` of the OPTIONAL columns holds.
fn want_optional(i: usize) -> CanonOpt {
    let some = |k: usize| !is_null(i, k);
    CanonOpt {
        b: some(0).then(|| v_bool(i)),
        i8: some(1).then(|| v_i8(i)),
        i16: some(2).then(|| v_i16(i)),
        i32: some(3).then(|| v_i32(i)),
        u8: some(4).then(|| v_u8(i)),
        u16: some(5).then(|| v_u16(i)),
        u32: some(6).then(|| v_u32(i)),
        i64: some(7).then(|| v_i64(i)),
        u64: some(8).then(|| v_u64(i)),
        f32: some(9).then(|| v_f32(i).to_bits()),
        f64: some(10).then(|| v_f64(i).to_bits()),
        str: some(11).then(|| v_str(i)),
        string: some(12).then(|| v_string(i)),
        bytes: some(13).then(|| v_bytes(i)),
        byte_vec: some(14).then(|| v_byte_vec(i)),
        fixed: some(15).then(|| v_fixed(i).to_vec()),
    }
}

impl AllTypes<'_> {
    fn canon(&self) -> (Canon, CanonOpt) {
        let req = Canon {
            b: self.r_bool,
            i8: self.r_i8,
            i16: self.r_i16,
            i32: self.r_i32,
            u8: self.r_u8,
            u16: self.r_u16,
            u32: self.r_u32,
            i64: self.r_i64,
            u64: self.r_u64,
            f32: self.r_f32.to_bits(),
            f64: self.r_f64.to_bits(),
            str: self.r_str.to_owned(),
            string: self.r_string.clone(),
            bytes: self.r_bytes.to_vec(),
            byte_vec: self.r_byte_vec.clone(),
            fixed: self.r_fixed.to_vec(),
        };
        let opt = CanonOpt {
            b: self.o_bool,
            i8: self.o_i8,
            i16: self.o_i16,
            i32: self.o_i32,
            u8: self.o_u8,
            u16: self.o_u16,
            u32: self.o_u32,
            i64: self.o_i64,
            u64: self.o_u64,
            f32: self.o_f32.map(f32::to_bits),
            f64: self.o_f64.map(f64::to_bits),
            str: self.o_str.map(str::to_owned),
            string: self.o_string.clone(),
            bytes: self.o_bytes.map(<[u8]>::to_vec),
            byte_vec: self.o_byte_vec.clone(),
            fixed: self.o_fixed.map(<[u8]>::to_vec),
        };
        (req, opt)
    }
}

impl AllTypesOwned {
    fn canon(&self) -> (Canon, CanonOpt) {
        let req = Canon {
            b: self.r_bool,
            i8: self.r_i8,
            i16: self.r_i16,
            i32: self.r_i32,
            u8: self.r_u8,
            u16: self.r_u16,
            u32: self.r_u32,
            i64: self.r_i64,
            u64: self.r_u64,
            f32: self.r_f32.to_bits(),
            f64: self.r_f64.to_bits(),
            str: self.r_str.clone(),
            string: self.r_string.clone(),
            bytes: self.r_bytes.clone(),
            byte_vec: self.r_byte_vec.clone(),
            fixed: self.r_fixed.clone(),
        };
        let opt = CanonOpt {
            b: self.o_bool,
            i8: self.o_i8,
            i16: self.o_i16,
            i32: self.o_i32,
            u8: self.o_u8,
            u16: self.o_u16,
            u32: self.o_u32,
            i64: self.o_i64,
            u64: self.o_u64,
            f32: self.o_f32.map(f32::to_bits),
            f64: self.o_f64.map(f64::to_bits),
            str: self.o_str.clone(),
            string: self.o_string.clone(),
            bytes: self.o_bytes.clone(),
            byte_vec: self.o_byte_vec.clone(),
            fixed: self.o_fixed.clone(),
        };
        (req, opt)
    }
}

impl RequiredAsOption<'_> {
    /// `None` if any field is `None` (a REQUIRED column never holds a null).
    fn canon(&self) -> Option<Canon> {
        Some(Canon {
            b: self.r_bool?,
            i8: self.r_i8?,
            i16: self.r_i16?,
            i32: self.r_i32?,
            u8: self.r_u8?,
            u16: self.r_u16?,
            u32: self.r_u32?,
            i64: self.r_i64?,
            u64: self.r_u64?,
            f32: self.r_f32?.to_bits(),
            f64: self.r_f64?.to_bits(),
            str: self.r_str?.to_owned(),
            string: self.r_string.clone()?,
            bytes: self.r_bytes?.to_vec(),
            byte_vec: self.r_byte_vec.clone()?,
            fixed: self.r_fixed?.to_vec(),
        })
    }
}

/// Checks decoded rows against rows `first..first + rows.len()`, and the count.
fn check_rows(what: &str, rows: &[(Canon, CanonOpt)], first: usize, expected_len: usize) {
    assert_eq!(rows.len(), expected_len, "{what}: number of rows");
    for (j, (req, opt)) in rows.iter().enumerate() {
        let i = first + j;
        assert_eq!(
            *req,
            want_required(i),
            "{what}: REQUIRED columns of row {i}"
        );
        assert_eq!(
            *opt,
            want_optional(i),
            "{what}: OPTIONAL columns of row {i}"
        );
    }
}

/// Decodes `file` every way the API offers and checks every row each time.
fn check_all_types_file(what: &str, file: &Bytes, rows: usize) {
    let parquet = ParquetFile::from_bytes(file.clone()).expect("open");
    assert_eq!(parquet.num_rows(), rows, "{what}: num_rows");

    // Borrowed rows, all row groups at once.
    let pages = parquet.load::<AllTypes>().expect("load");
    assert_eq!(pages.num_rows(), rows, "{what}: pages.num_rows");
    let borrowed: Vec<AllTypes<'_>> = pages
        .rows()
        .unwrap_or_else(|e| panic!("{what}: decode: {e}"));
    let canon: Vec<_> = borrowed.iter().map(AllTypes::canon).collect();
    check_rows(what, &canon, 0, rows);

    // `Option<_>` fields on REQUIRED columns.
    let pages = parquet.load::<RequiredAsOption>().expect("load");
    let required: Vec<RequiredAsOption<'_>> = pages
        .rows()
        .unwrap_or_else(|e| panic!("{what}: decode Option fields: {e}"));
    assert_eq!(
        required.len(),
        rows,
        "{what}: Option fields, number of rows"
    );
    for (i, row) in required.iter().enumerate() {
        assert_eq!(
            row.canon(),
            Some(want_required(i)),
            "{what}: Option fields on REQUIRED columns, row {i}"
        );
    }

    // Owned rows.
    let owned: Vec<AllTypesOwned> = parquet
        .rows()
        .collect()
        .unwrap_or_else(|e| panic!("{what}: read: {e}"));
    let canon: Vec<_> = owned.iter().map(AllTypesOwned::canon).collect();
    check_rows(&format!("{what} (owned)"), &canon, 0, rows);
}

/// Writer properties shared by every variant: row groups are cut by hand.
fn base() -> WriterPropertiesBuilder {
    WriterProperties::builder().set_max_row_group_row_count(None)
}

/// PARQUET_2_0 writes DELTA_* / RLE booleans when a column is not dictionary
/// encoded; those encodings are issue #3, so the v2 variants ask for PLAIN.
fn with_version(
    builder: WriterPropertiesBuilder,
    version: WriterVersion,
) -> WriterPropertiesBuilder {
    let builder = builder.set_writer_version(version);
    match version {
        WriterVersion::PARQUET_2_0 => builder.set_encoding(Encoding::PLAIN),
        WriterVersion::PARQUET_1_0 => builder,
    }
}

/// Small pages: at most 64 rows and 256 bytes each.
fn tiny_pages(builder: WriterPropertiesBuilder) -> WriterPropertiesBuilder {
    builder
        .set_write_batch_size(16)
        .set_data_page_row_count_limit(64)
        .set_data_page_size_limit(256)
}

/// Row groups of the all-types file in most tests.
const ROW_GROUPS: [Range<usize>; 3] = [0..600, 600..900, 900..1000];
const ROWS: usize = 1000;

fn data_pages(pages: &[Page]) -> impl Iterator<Item = &Page> {
    pages.iter().filter(|p| p.is_data_page())
}

/// Facts about how a variant was written, checked on the file's metadata and
/// pages so that each variant really exercises what it claims to.
fn check_layout(
    what: &str,
    file: &Bytes,
    version: WriterVersion,
    codec: Compression,
    dictionary: bool,
) {
    let metadata = file_metadata(file);
    let pages = all_pages(file);
    assert_eq!(metadata.num_row_groups(), ROW_GROUPS.len(), "{what}");
    for (g, group) in metadata.row_groups().iter().enumerate() {
        for (c, chunk) in group.columns().iter().enumerate() {
            // The footer records the codec, not its level.
            assert_eq!(
                std::mem::discriminant(&chunk.compression()),
                std::mem::discriminant(&codec),
                "{what}: codec of column {c}"
            );
            let pages = &pages[g][c];
            for page in data_pages(pages) {
                let v2 = matches!(page, Page::DataPageV2 { .. });
                assert_eq!(
                    v2,
                    version == WriterVersion::PARQUET_2_0,
                    "{what}: data page version of column {c}"
                );
            }
            let has_dictionary = pages
                .iter()
                .any(|p| matches!(p, Page::DictionaryPage { .. }));
            // BOOLEAN columns (0 and FIELDS) are never dictionary-encoded.
            let boolean = c % FIELDS == 0;
            assert_eq!(
                has_dictionary,
                dictionary && !boolean,
                "{what}: dictionary page in column {c}"
            );
        }
    }
}

#[test]
fn dictionary_on_and_off_with_page_v1_and_v2() {
    for version in [WriterVersion::PARQUET_1_0, WriterVersion::PARQUET_2_0] {
        for dictionary in [true, false] {
            let what = format!("{version:?}, dictionary {dictionary}");
            let props = with_version(base(), version)
                .set_dictionary_enabled(dictionary)
                .build();
            let file = write_all_types(props, &ROW_GROUPS);
            check_layout(&what, &file, version, Compression::UNCOMPRESSED, dictionary);
            check_all_types_file(&what, &file, ROWS);
        }
    }
}

#[test]
fn every_codec() {
    let codecs = [
        Compression::UNCOMPRESSED,
        Compression::SNAPPY,
        Compression::GZIP(GzipLevel::try_new(1).expect("gzip level")),
        Compression::ZSTD(ZstdLevel::default()),
        Compression::LZ4,
        Compression::LZ4_RAW,
        Compression::BROTLI(BrotliLevel::try_new(1).expect("brotli level")),
    ];
    for codec in codecs {
        for version in [WriterVersion::PARQUET_1_0, WriterVersion::PARQUET_2_0] {
            let what = format!("{codec:?}, {version:?}");
            let props = with_version(base(), version).set_compression(codec).build();
            let file = write_all_types(props, &ROW_GROUPS);
            check_layout(&what, &file, version, codec, true);
            check_all_types_file(&what, &file, ROWS);
        }
    }
}

#[test]
fn many_small_pages_and_all_null_pages() {
    for version in [WriterVersion::PARQUET_1_0, WriterVersion::PARQUET_2_0] {
        for dictionary in [true, false] {
            let what = format!("tiny pages, {version:?}, dictionary {dictionary}");
            let props = tiny_pages(with_version(base(), version))
                .set_dictionary_enabled(dictionary)
                .build();
            let file = write_all_types(props, &ROW_GROUPS);
            check_layout(&what, &file, version, Compression::UNCOMPRESSED, dictionary);
            let pages = all_pages(&file);
            for (g, group) in pages.iter().enumerate() {
                for (c, pages) in group.iter().enumerate() {
                    let n = data_pages(pages).count();
                    // Pages hold at most 64 rows.
                    let min = ROW_GROUPS[g].len().div_ceil(64);
                    assert!(
                        n >= min,
                        "{what}: row group {g} column {c} has {n} data pages"
                    );
                    let values: u32 = data_pages(pages).map(Page::num_values).sum();
                    assert_eq!(
                        values as usize,
                        ROW_GROUPS[g].len(),
                        "{what}: values in pages"
                    );
                }
            }
            if version == WriterVersion::PARQUET_2_0 {
                // v2 headers count nulls: prove that some pages hold only nulls (v1
                // files get the same page boundaries from the same row limits).
                for (c, pages) in pages[0].iter().enumerate().skip(FIELDS) {
                    let all_null = data_pages(pages)
                        .filter(|p| {
                            matches!(p, Page::DataPageV2 { num_nulls, num_values, .. }
                                if num_nulls == num_values)
                        })
                        .count();
                    assert!(
                        all_null >= 2,
                        "{what}: column {c} has {all_null} all-null pages"
                    );
                }
            }
            check_all_types_file(&what, &file, ROWS);
        }
    }
}

#[test]
fn dictionary_falls_back_to_plain_mid_chunk() {
    for version in [WriterVersion::PARQUET_1_0, WriterVersion::PARQUET_2_0] {
        let what = format!("dictionary fallback, {version:?}");
        let props = with_version(base(), version)
            .set_dictionary_page_size_limit(128)
            .set_write_batch_size(32)
            .set_data_page_row_count_limit(100)
            .build();
        let file = write_all_types(props, &ROW_GROUPS);
        let metadata = file_metadata(&file);
        let pages = all_pages(&file);
        // Columns whose values are (nearly) all distinct: r_i32, r_i64, r_u64,
        // r_string and their optional twins.
        for c in [3, 7, 8, 12, 3 + FIELDS, 7 + FIELDS, 12 + FIELDS] {
            let chunk = metadata.row_group(0).column(c);
            let encodings: Vec<Encoding> = chunk.encodings().collect();
            assert!(
                encodings.contains(&Encoding::PLAIN)
                    && (encodings.contains(&Encoding::PLAIN_DICTIONARY)
                        || encodings.contains(&Encoding::RLE_DICTIONARY)),
                "{what}: column {c} encodings {encodings:?}"
            );
            // PLAIN in the chunk's list may be the dictionary page's own encoding
            // (v2): the pages show the data pages themselves switching.
            let kinds: Vec<Encoding> = data_pages(&pages[0][c]).map(Page::encoding).collect();
            let first_plain = kinds.iter().position(|e| *e == Encoding::PLAIN);
            let dict =
                |e: &Encoding| matches!(e, Encoding::PLAIN_DICTIONARY | Encoding::RLE_DICTIONARY);
            assert!(
                first_plain.is_some_and(|p| p > 0 && kinds[..p].iter().all(dict)),
                "{what}: column {c} data page encodings {kinds:?}"
            );
        }
        check_all_types_file(&what, &file, ROWS);
    }
}

#[test]
fn one_row_group_per_row_and_single_row_groups() {
    // Many row groups, some of one row.
    let groups: Vec<Range<usize>> = vec![0..1, 1..2, 2..50, 50..51, 51..400, 400..401];
    let file = write_all_types(base().build(), &groups);
    assert_eq!(file_metadata(&file).num_row_groups(), groups.len());
    check_all_types_file("many row groups", &file, 401);
}

mod apis;
mod fields;
