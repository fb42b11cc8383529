//! Nested data: structs in structs, LISTs (standard 3-level, the legacy
//! 2-level forms, un-annotated `repeated` fields), MAPs, and combinations.
//!
//! Every test generates Rust values deterministically (a seeded PRNG), with
//! nulls and empty lists at every level, shreds them here into repetition and
//! definition levels ([`shred`], driven by the file's schema), writes them with
//! the `parquet` crate's low-level column writers under several writer settings
//! ([`variants`]: page v1 and v2, dictionary on and off, tiny pages, several
//! row groups), then:
//!
//! 1. reads the file back with the `parquet` crate's record API and converts
//!    its rows to the Rust values with code that shares nothing with the
//!    shredder, so each file is known right independently of parquet-rows;
//! 2. decodes it with parquet-rows (owned rows, and borrowed rows where the
//!    struct borrows; whole file and row group by row group) and compares.
//!
//! The `parquet` writer (60.1) cuts pages only at record boundaries, so files
//! in which a list straddles a page boundary (allowed in data page v1) are
//! written with hand-encoded pages ([`write_hand_paged`]); the same writer
//! makes files with invalid levels for the error tests.

use std::collections::{BTreeMap, HashMap};
use std::fmt::Debug;
use std::ops::Range;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::{mpsc, Arc, Once};
use std::time::Duration;

use bytes::Bytes;
use parquet::basic::{Compression, Encoding, Repetition, ZstdLevel};
use parquet::column::page::{CompressedPage, Page, PageWriter};
use parquet::column::writer::{ColumnCloseResult, ColumnWriter};
use parquet::data_type::ByteArray;
use parquet::file::metadata::ColumnChunkMetaData;
use parquet::file::properties::{WriterProperties, WriterPropertiesBuilder, WriterVersion};
use parquet::file::reader::{FileReader, SerializedFileReader};
use parquet::file::writer::{SerializedFileWriter, SerializedPageWriter, TrackedWrite};
use parquet::record::{Field, Row};
use parquet::schema::parser::parse_message_type;
use parquet::schema::types::{SchemaDescriptor, Type};
use parquet_rows::{Error, ParquetFile, ParquetRow, SchemaError};
use parquet_rows_suite::{all_pages, file_metadata};

// ---------------------------------------------------------------------------
// Deterministic values
// ---------------------------------------------------------------------------

/// Rows in which everything nullable is null and every list is empty or null,
/// at every level: with the tiny pages of [`variants`] whole pages hold nothing
/// but nulls.
const NULL_RUN: Range<usize> = 300..420;

const WORDS: [&str; 12] = [
    "",
    "a",
    "é",
    "日本",
    "🦀 crab",
    "alpha",
    "beta",
    "gamma delta",
    "nul \0 inside",
    "x",
    "a long word, longer than the others, to grow the pages",
    "Ünïcödé",
];

/// SplitMix64, seeded per test.
struct Rng {
    state: u64,
    /// In [`NULL_RUN`]: `maybe` gives `None` and `len` gives 0.
    null_run: bool,
}

impl Rng {
    fn new(seed: u64) -> Self {
        Rng {
            state: seed,
            null_run: false,
        }
    }

    /// Moves to row `i` (sets the null-run flag).
    fn row(&mut self, i: usize) {
        self.null_run = NULL_RUN.contains(&i);
    }

    fn next(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn chance(&mut self, percent: u64) -> bool {
        self.next() % 100 < percent
    }

    /// `None` with probability `percent` % (always in the null run).
    fn maybe<T>(&mut self, percent: u64, f: impl FnOnce(&mut Self) -> T) -> Option<T> {
        if self.null_run || self.chance(percent) {
            None
        } else {
            Some(f(self))
        }
    }

    /// A list length: 0 often, 1 often, sometimes up to `4 * max` (0 in the
    /// null run).
    fn len(&mut self, max: usize) -> usize {
        if self.null_run {
            return 0;
        }
        match self.below(10) {
            0 | 1 => 0,
            2 => 1,
            9 => self.below(4 * max + 1),
            _ => self.below(max + 1),
        }
    }

    fn vec<T>(&mut self, max: usize, mut f: impl FnMut(&mut Self) -> T) -> Vec<T> {
        let n = self.len(max);
        (0..n).map(|_| f(self)).collect()
    }

    /// A word: a few repeat often (dictionary-friendly), some are unique.
    fn word(&mut self) -> String {
        if self.chance(20) {
            format!("w{}", self.below(5000))
        } else {
            WORDS[self.below(WORDS.len())].to_owned()
        }
    }

    fn i32(&mut self) -> i32 {
        match self.below(20) {
            0 => i32::MIN,
            1 => i32::MAX,
            2 => 0,
            _ => self.below(2000) as i32 - 1000,
        }
    }

    fn i64(&mut self) -> i64 {
        match self.below(20) {
            0 => i64::MIN,
            1 => i64::MAX,
            2 => -1,
            _ => self.next() as i64 >> self.below(64),
        }
    }

    /// A float without NaN (rows are compared with `==`): exact eighths.
    fn f64(&mut self) -> f64 {
        match self.below(20) {
            0 => -0.0,
            1 => f64::INFINITY,
            2 => f64::MIN_POSITIVE,
            _ => f64::from(self.below(80_000) as i32 - 40_000) / 8.0,
        }
    }

    fn f32(&mut self) -> f32 {
        match self.below(20) {
            0 => f32::NEG_INFINITY,
            1 => f32::MAX,
            _ => f32::from(self.below(4000) as i16 - 2000) / 4.0,
        }
    }

    /// `len` distinct keys from `pool`, in a random order.
    fn keys<T: Clone>(&mut self, pool: &[T], max: usize) -> Vec<T> {
        let mut all: Vec<T> = pool.to_vec();
        for i in (1..all.len()).rev() {
            let j = self.below(i + 1);
            all.swap(i, j);
        }
        let n = self.len(max).min(all.len());
        all.truncate(n);
        all
    }
}

/// `n` rows made by `row(rng, i)`, with the rng moved to each row first.
fn generate<T>(seed: u64, n: usize, mut row: impl FnMut(&mut Rng, usize) -> T) -> Vec<T> {
    let mut rng = Rng::new(seed);
    (0..n)
        .map(|i| {
            rng.row(i);
            row(&mut rng, i)
        })
        .collect()
}

// ---------------------------------------------------------------------------
// Shredding: a value tree that mirrors the schema, into levels
// ---------------------------------------------------------------------------

/// One value of a field, shaped like the field's schema node: a leaf for a
/// primitive, `Group` (one value per child) for a group, `Rep` (the
/// occurrences) for a REPEATED field, `Null` for an absent OPTIONAL field.
#[derive(Debug, Clone, PartialEq)]
enum Dyn {
    Null,
    Bool(bool),
    I32(i32),
    I64(i64),
    F32(f32),
    F64(f64),
    Bytes(Vec<u8>),
    Group(Vec<Dyn>),
    Rep(Vec<Dyn>),
}

fn s(v: &str) -> Dyn {
    Dyn::Bytes(v.as_bytes().to_vec())
}

#[allow(clippy::ref_option)] // callers pass the fields of the Rust values as they are
fn opt<T>(v: &Option<T>, f: impl FnOnce(&T) -> Dyn) -> Dyn {
    v.as_ref().map_or(Dyn::Null, f)
}

/// The standard 3-level LIST: `group (LIST) { repeated group list { element } }`.
fn list3(items: impl IntoIterator<Item = Dyn>) -> Dyn {
    Dyn::Group(vec![Dyn::Rep(
        items.into_iter().map(|e| Dyn::Group(vec![e])).collect(),
    )])
}

/// A legacy 2-level LIST: `group (LIST) { repeated <element> }`.
fn list2(items: impl IntoIterator<Item = Dyn>) -> Dyn {
    Dyn::Group(vec![Dyn::Rep(items.into_iter().collect())])
}

/// A MAP: `group (MAP) { repeated group key_value { key; value; } }`.
fn map(entries: impl IntoIterator<Item = (Dyn, Dyn)>) -> Dyn {
    Dyn::Group(vec![Dyn::Rep(
        entries
            .into_iter()
            .map(|(k, v)| Dyn::Group(vec![k, v]))
            .collect(),
    )])
}

/// An un-annotated REPEATED field.
fn rep(items: impl IntoIterator<Item = Dyn>) -> Dyn {
    Dyn::Rep(items.into_iter().collect())
}

/// One leaf column: its values (non-null only) and levels.
#[derive(Debug, Clone, Default)]
struct Shredded {
    values: Vec<Dyn>,
    def: Vec<i16>,
    rep: Vec<i16>,
}

fn leaves(field: &Type) -> usize {
    if field.is_primitive() {
        1
    } else {
        field.get_fields().iter().map(|f| leaves(f)).sum()
    }
}

/// Shreds `rows` (one value per top-level field each) into one [`Shredded`]
/// per leaf column of `schema`, in schema order (Dremel's algorithm).
fn shred(schema: &Type, rows: &[Vec<Dyn>]) -> Vec<Shredded> {
    let mut cols = vec![Shredded::default(); leaves(schema)];
    for row in rows {
        shred_group(schema, row, 0, 0, 0, &mut cols);
    }
    cols
}

/// The children of group `node` with values `values`; `r` is the repetition
/// level of the first value written, `d` the definition level reached so far,
/// `depth` the number of REPEATED ancestors.
fn shred_group(node: &Type, values: &[Dyn], r: i16, d: i16, depth: i16, cols: &mut [Shredded]) {
    let children = node.get_fields();
    assert_eq!(
        children.len(),
        values.len(),
        "group `{}` has {} fields, the value {values:?}",
        node.name(),
        children.len()
    );
    let mut offset = 0;
    for (child, value) in children.iter().zip(values) {
        let n = leaves(child);
        shred_field(child, value, r, d, depth, &mut cols[offset..offset + n]);
        offset += n;
    }
}

fn shred_field(field: &Type, value: &Dyn, r: i16, d: i16, depth: i16, cols: &mut [Shredded]) {
    match field.get_basic_info().repetition() {
        Repetition::REQUIRED => shred_present(field, value, r, d, depth, cols),
        Repetition::OPTIONAL => match value {
            Dyn::Null => absent(cols, r, d),
            v => shred_present(field, v, r, d + 1, depth, cols),
        },
        Repetition::REPEATED => {
            let Dyn::Rep(items) = value else {
                panic!(
                    "REPEATED `{}` needs a Dyn::Rep, got {value:?}",
                    field.name()
                )
            };
            if items.is_empty() {
                absent(cols, r, d);
            }
            for (i, item) in items.iter().enumerate() {
                let r = if i == 0 { r } else { depth + 1 };
                shred_present(field, item, r, d + 1, depth + 1, cols);
            }
        }
    }
}

fn shred_present(field: &Type, value: &Dyn, r: i16, d: i16, depth: i16, cols: &mut [Shredded]) {
    if field.is_primitive() {
        assert!(
            !matches!(value, Dyn::Null | Dyn::Group(_) | Dyn::Rep(_)),
            "leaf `{}` needs a leaf value, got {value:?}",
            field.name()
        );
        cols[0].values.push(value.clone());
        cols[0].def.push(d);
        cols[0].rep.push(r);
    } else {
        let Dyn::Group(children) = value else {
            panic!("group `{}` needs a Dyn::Group, got {value:?}", field.name())
        };
        shred_group(field, children, r, d, depth, cols);
    }
}

/// An absent value (null or empty list) for every leaf under a field.
fn absent(cols: &mut [Shredded], r: i16, d: i16) {
    for c in cols {
        c.def.push(d);
        c.rep.push(r);
    }
}

// ---------------------------------------------------------------------------
// Writing
// ---------------------------------------------------------------------------

/// Writes one shredded column with the typed column writer, in one
/// `write_batch` call (the writer cuts it into pages).
fn write_leaf(writer: &mut ColumnWriter<'_>, col: &Shredded, max_def: i16, max_rep: i16) {
    let def = (max_def > 0).then_some(col.def.as_slice());
    let rep = (max_rep > 0).then_some(col.rep.as_slice());
    macro_rules! typed {
        ($w:expr, $variant:ident, $convert:expr) => {{
            let values: Vec<_> = col
                .values
                .iter()
                .map(|v| match v {
                    Dyn::$variant(x) => $convert(x),
                    other => panic!("{other:?} in a {} column", stringify!($variant)),
                })
                .collect();
            $w.write_batch(&values, def, rep).expect("write_batch");
        }};
    }
    match writer {
        ColumnWriter::BoolColumnWriter(w) => typed!(w, Bool, |x: &bool| *x),
        ColumnWriter::Int32ColumnWriter(w) => typed!(w, I32, |x: &i32| *x),
        ColumnWriter::Int64ColumnWriter(w) => typed!(w, I64, |x: &i64| *x),
        ColumnWriter::FloatColumnWriter(w) => typed!(w, F32, |x: &f32| *x),
        ColumnWriter::DoubleColumnWriter(w) => typed!(w, F64, |x: &f64| *x),
        ColumnWriter::ByteArrayColumnWriter(w) => {
            typed!(w, Bytes, |x: &Vec<u8>| ByteArray::from(x.clone()));
        }
        _ => panic!("no physical type of the tests"),
    }
}

/// Writes a file in memory: one row group per entry of `row_groups`.
fn write_nested(schema: &str, props: WriterProperties, row_groups: &[&[Vec<Dyn>]]) -> Bytes {
    let schema = Arc::new(parse_message_type(schema).expect("schema"));
    let descr = SchemaDescriptor::new(schema.clone());
    let mut buf = Vec::new();
    let mut writer =
        SerializedFileWriter::new(&mut buf, schema.clone(), Arc::new(props)).expect("writer");
    for rows in row_groups {
        let cols = shred(&schema, rows);
        let mut rg = writer.next_row_group().expect("row group");
        for (i, col) in cols.iter().enumerate() {
            let c = descr.column(i);
            let mut w = rg.next_column().expect("column").expect("one per leaf");
            write_leaf(w.untyped(), col, c.max_def_level(), c.max_rep_level());
            w.close().expect("close column");
        }
        rg.close().expect("close row group");
    }
    writer.close().expect("close file");
    Bytes::from(buf)
}

/// One set of writer settings.
struct Variant {
    name: &'static str,
    props: WriterProperties,
    version: WriterVersion,
    dictionary: bool,
    /// Tiny pages: some column chunk must hold many data pages.
    tiny: bool,
    /// One row group instead of [`split`].
    one_group: bool,
}

fn tiny(builder: WriterPropertiesBuilder) -> WriterPropertiesBuilder {
    builder
        .set_write_batch_size(5)
        .set_data_page_row_count_limit(8)
        .set_data_page_size_limit(300)
        .set_dictionary_page_size_limit(600)
}

/// The writer settings every shape is written with.
fn variants() -> Vec<Variant> {
    let v1 = || {
        WriterProperties::builder()
            .set_max_row_group_row_count(None)
            .set_writer_version(WriterVersion::PARQUET_1_0)
    };
    let v2 = || {
        WriterProperties::builder()
            .set_max_row_group_row_count(None)
            .set_writer_version(WriterVersion::PARQUET_2_0)
    };
    vec![
        Variant {
            name: "page v1, dictionary, tiny pages",
            props: tiny(v1()).set_dictionary_enabled(true).build(),
            version: WriterVersion::PARQUET_1_0,
            dictionary: true,
            tiny: true,
            one_group: false,
        },
        Variant {
            name: "page v1, plain, tiny pages, snappy",
            props: tiny(v1())
                .set_dictionary_enabled(false)
                .set_compression(Compression::SNAPPY)
                .build(),
            version: WriterVersion::PARQUET_1_0,
            dictionary: false,
            tiny: true,
            one_group: false,
        },
        Variant {
            name: "page v2, dictionary, tiny pages, zstd",
            props: tiny(v2())
                .set_dictionary_enabled(true)
                .set_compression(Compression::ZSTD(ZstdLevel::default()))
                .build(),
            version: WriterVersion::PARQUET_2_0,
            dictionary: true,
            tiny: true,
            one_group: false,
        },
        Variant {
            name: "page v2, plain, tiny pages",
            props: tiny(v2())
                .set_dictionary_enabled(false)
                .set_encoding(Encoding::PLAIN)
                .build(),
            version: WriterVersion::PARQUET_2_0,
            dictionary: false,
            tiny: true,
            one_group: false,
        },
        Variant {
            // Without dictionary and encoding, the v2 writer picks DELTA_BINARY_PACKED,
            // DELTA_BYTE_ARRAY and RLE booleans.
            name: "page v2, delta encodings, tiny pages",
            props: tiny(v2()).set_dictionary_enabled(false).build(),
            version: WriterVersion::PARQUET_2_0,
            dictionary: false,
            tiny: true,
            one_group: false,
        },
        Variant {
            name: "page v1, default pages, one row group",
            props: v1().build(),
            version: WriterVersion::PARQUET_1_0,
            dictionary: true,
            tiny: false,
            one_group: true,
        },
    ]
}

/// Uneven row groups: one row, a third, the rest.
fn split(n: usize) -> Vec<Range<usize>> {
    vec![0..1, 1..n / 3, n / 3..n]
}

/// Checks that `file` was written as `variant` says, so every variant really
/// exercises what it claims to.
fn check_layout(variant: &Variant, file: &Bytes, rows: usize) {
    let what = variant.name;
    let metadata = file_metadata(file);
    let groups = if variant.one_group { 1 } else { 3 };
    assert_eq!(metadata.num_row_groups(), groups, "{what}: row groups");
    assert_eq!(
        metadata.file_metadata().num_rows(),
        rows as i64,
        "{what}: rows"
    );
    let pages = all_pages(file);
    let mut most_data_pages = 0;
    let mut dictionary_pages = 0;
    for chunk in pages.iter().flatten() {
        let data: Vec<&Page> = chunk.iter().filter(|p| p.is_data_page()).collect();
        most_data_pages = most_data_pages.max(data.len());
        for page in data {
            assert_eq!(
                matches!(page, Page::DataPageV2 { .. }),
                variant.version == WriterVersion::PARQUET_2_0,
                "{what}: data page version"
            );
        }
        dictionary_pages += chunk
            .iter()
            .filter(|p| matches!(p, Page::DictionaryPage { .. }))
            .count();
    }
    if variant.tiny {
        assert!(
            most_data_pages >= 8,
            "{what}: at most {most_data_pages} data pages in a column chunk"
        );
    }
    assert_eq!(
        dictionary_pages > 0,
        variant.dictionary,
        "{what}: {dictionary_pages} dictionary pages"
    );
}

/// `rows` written as every variant: (variant name, file).
fn files(schema: &str, rows: &[Vec<Dyn>]) -> Vec<(String, Bytes)> {
    variants()
        .into_iter()
        .map(|variant| {
            let groups: Vec<&[Vec<Dyn>]> = if variant.one_group {
                vec![rows]
            } else {
                split(rows.len()).into_iter().map(|r| &rows[r]).collect()
            };
            let file = write_nested(schema, variant.props.clone(), &groups);
            check_layout(&variant, &file, rows.len());
            (variant.name.to_owned(), file)
        })
        .collect()
}

// ---------------------------------------------------------------------------
// Hand-encoded v1 pages: lists across page boundaries, invalid levels
// ---------------------------------------------------------------------------

fn uleb128(mut v: usize, out: &mut Vec<u8>) {
    loop {
        let byte = (v & 0x7f) as u8;
        v >>= 7;
        if v == 0 {
            out.push(byte);
            return;
        }
        out.push(byte | 0x80);
    }
}

/// A v1 level section: 4-byte length, then the RLE/bit-packed hybrid with RLE
/// runs only (`varint(run << 1)`, then the value in `ceil(width / 8)` bytes).
fn level_section(levels: &[i16], max: i16) -> Vec<u8> {
    let width = 16 - (max as u16).leading_zeros() as usize;
    let value_bytes = width.div_ceil(8);
    let mut runs = Vec::new();
    let mut i = 0;
    while i < levels.len() {
        let mut j = i;
        while j < levels.len() && levels[j] == levels[i] {
            j += 1;
        }
        uleb128((j - i) << 1, &mut runs);
        runs.extend_from_slice(&(levels[i] as u16).to_le_bytes()[..value_bytes]);
        i = j;
    }
    let mut out = (runs.len() as u32).to_le_bytes().to_vec();
    out.extend(runs);
    out
}

/// PLAIN values.
fn plain(values: &[Dyn]) -> Vec<u8> {
    let mut out = Vec::new();
    let mut bools = Vec::new();
    for v in values {
        match v {
            Dyn::Bool(b) => bools.push(*b),
            Dyn::I32(x) => out.extend(x.to_le_bytes()),
            Dyn::I64(x) => out.extend(x.to_le_bytes()),
            Dyn::F32(x) => out.extend(x.to_le_bytes()),
            Dyn::F64(x) => out.extend(x.to_le_bytes()),
            Dyn::Bytes(b) => {
                out.extend((b.len() as u32).to_le_bytes());
                out.extend(b);
            }
            other => panic!("not a leaf value: {other:?}"),
        }
    }
    for chunk in bools.chunks(8) {
        out.push(
            chunk
                .iter()
                .enumerate()
                .fold(0, |byte, (i, &b)| byte | (u8::from(b) << i)),
        );
    }
    out
}

/// Writes a file whose data pages are v1, PLAIN, uncompressed, encoded here,
/// each holding `cut` levels, so pages start in the middle of lists.
/// `tamper(column, levels)` may change a column before it is encoded (the
/// invalid-level tests); the level counts stay those of the untampered column.
fn write_hand_paged(
    schema: &str,
    row_groups: &[&[Vec<Dyn>]],
    cut: usize,
    tamper: impl Fn(usize, &mut Shredded),
) -> Bytes {
    let schema = Arc::new(parse_message_type(schema).expect("schema"));
    let descr = SchemaDescriptor::new(schema.clone());
    let mut buf = Vec::new();
    let props = Arc::new(WriterProperties::builder().build());
    let mut writer = SerializedFileWriter::new(&mut buf, schema.clone(), props).expect("writer");
    for rows in row_groups {
        let mut cols = shred(&schema, rows);
        let mut rg = writer.next_row_group().expect("row group");
        for (i, col) in cols.iter_mut().enumerate() {
            let c = descr.column(i);
            let (max_def, max_rep) = (c.max_def_level(), c.max_rep_level());
            tamper(i, col);
            let mut sink = TrackedWrite::new(Vec::new());
            let mut page_writer = SerializedPageWriter::new(&mut sink);
            let mut next_value = 0;
            for start in (0..col.def.len()).step_by(cut.max(1)) {
                let end = (start + cut).min(col.def.len());
                let mut page = Vec::new();
                if max_rep > 0 {
                    page.extend(level_section(&col.rep[start..end], max_rep));
                }
                if max_def > 0 {
                    page.extend(level_section(&col.def[start..end], max_def));
                }
                let n = col.def[start..end]
                    .iter()
                    .filter(|&&d| d == max_def)
                    .count();
                let n = n.min(col.values.len().saturating_sub(next_value));
                page.extend(plain(&col.values[next_value..next_value + n]));
                next_value += n;
                let len = page.len();
                let page = Page::DataPage {
                    buf: Bytes::from(page),
                    num_values: (end - start) as u32,
                    encoding: Encoding::PLAIN,
                    def_level_encoding: Encoding::RLE,
                    rep_level_encoding: Encoding::RLE,
                    statistics: None,
                };
                page_writer
                    .write_page(CompressedPage::new(page, len))
                    .expect("write page");
            }
            page_writer.close().expect("close pages");
            let chunk = sink.into_inner().expect("chunk bytes");
            let size = chunk.len() as i64;
            let metadata = ColumnChunkMetaData::builder(c)
                .set_compression(Compression::UNCOMPRESSED)
                .set_encodings(vec![Encoding::PLAIN, Encoding::RLE])
                .set_num_values(col.def.len() as i64)
                .set_total_compressed_size(size)
                .set_total_uncompressed_size(size)
                .set_data_page_offset(0)
                .build()
                .expect("column chunk metadata");
            let close = ColumnCloseResult {
                bytes_written: size as u64,
                rows_written: rows.len() as u64,
                metadata,
                bloom_filter: None,
                column_index: None,
                offset_index: None,
            };
            rg.append_column(&Bytes::from(chunk), close)
                .expect("append column");
        }
        rg.close().expect("close row group");
    }
    writer.close().expect("close file");
    Bytes::from(buf)
}

// ---------------------------------------------------------------------------
// The record API, as an independent reader
// ---------------------------------------------------------------------------

/// Every row of `file` through the `parquet` crate's record API, converted.
fn record_api<T>(file: &Bytes, convert: impl Fn(&Row) -> T) -> Vec<T> {
    let reader = SerializedFileReader::new(file.clone()).expect("footer");
    reader
        .get_row_iter(None)
        .expect("record API")
        .map(|row| convert(&row.expect("record API row")))
        .collect()
}

fn get<'r>(row: &'r Row, name: &str) -> &'r Field {
    row.get_column_iter()
        .find(|(n, _)| *n == name)
        .map_or_else(|| panic!("no field `{name}` in {row}"), |(_, f)| f)
}

fn req<T>(v: Option<T>) -> T {
    v.expect("a null where the schema says REQUIRED")
}

macro_rules! record_accessor {
    ($name:ident, $variant:ident, $ty:ty, $convert:expr) => {
        fn $name(f: &Field) -> Option<$ty> {
            match f {
                Field::Null => None,
                Field::$variant(v) => Some($convert(v)),
                other => panic!("expected {} or null, got {other:?}", stringify!($variant)),
            }
        }
    };
}

record_accessor!(boolean, Bool, bool, |v: &bool| *v);
record_accessor!(int, Int, i32, |v: &i32| *v);
record_accessor!(long, Long, i64, |v: &i64| *v);
record_accessor!(float, Float, f32, |v: &f32| *v);
record_accessor!(double, Double, f64, |v: &f64| *v);
record_accessor!(string, Str, String, String::clone);
record_accessor!(bytes, Bytes, Vec<u8>, |v: &ByteArray| v.data().to_vec());

fn group(f: &Field) -> Option<&Row> {
    match f {
        Field::Null => None,
        Field::Group(r) => Some(r),
        other => panic!("expected a group or null, got {other:?}"),
    }
}

fn list(f: &Field) -> Option<&[Field]> {
    match f {
        Field::Null => None,
        Field::ListInternal(l) => Some(l.elements()),
        other => panic!("expected a list or null, got {other:?}"),
    }
}

fn entries(f: &Field) -> Option<&[(Field, Field)]> {
    match f {
        Field::Null => None,
        Field::MapInternal(m) => Some(m.entries()),
        other => panic!("expected a map or null, got {other:?}"),
    }
}

// ---------------------------------------------------------------------------
// Comparing
// ---------------------------------------------------------------------------

/// Fails on the first row that differs (not a dump of thousands of rows).
fn same_rows<T: PartialEq + Debug>(what: &str, got: &[T], want: &[T]) {
    if let Some(i) = (0..got.len().min(want.len())).find(|&i| got[i] != want[i]) {
        panic!(
            "{what}: row {i} differs\n  got:  {:?}\n  want: {:?}",
            got[i], want[i]
        );
    }
    assert_eq!(got.len(), want.len(), "{what}: number of rows");
}

/// Decodes `file` into owned rows four ways (`from_bytes`, `read`,
/// `load` + `rows`, `row_groups` + `rows_into`) and compares each with `want`.
/// The file read by the `parquet` record API (through `convert`, which shares
/// nothing with the shredder) holds `want`, and parquet-rows' owned paths
/// read the same rows.
fn check_record_api_and_owned<T>(what: &str, file: &Bytes, want: &[T], convert: fn(&Row) -> T)
where
    T: parquet_rows::OwnedRow + PartialEq + Debug,
{
    same_rows(
        &format!("{what}, record API"),
        &record_api(file, convert),
        want,
    );
    check_owned(what, file, want);
}

fn check_owned<T>(what: &str, file: &Bytes, want: &[T])
where
    T: parquet_rows::OwnedRow + PartialEq + Debug,
{
    let got: Vec<T> = parquet_rows::from_bytes(file.clone())
        .unwrap_or_else(|e| panic!("{what}: from_bytes: {e}"));
    same_rows(&format!("{what}, from_bytes"), &got, want);

    let parquet = ParquetFile::from_bytes(file.clone()).expect("open");
    let got: Vec<T> = parquet
        .read()
        .unwrap_or_else(|e| panic!("{what}: read: {e}"));
    same_rows(&format!("{what}, read"), &got, want);

    let pages = parquet
        .load::<T>()
        .unwrap_or_else(|e| panic!("{what}: load: {e}"));
    let got: Vec<T> = pages.rows().unwrap_or_else(|e| panic!("{what}: rows: {e}"));
    same_rows(&format!("{what}, load + rows"), &got, want);

    let mut streamed = Vec::new();
    for pages in parquet
        .row_groups::<T>()
        .unwrap_or_else(|e| panic!("{what}: row_groups: {e}"))
    {
        let pages = pages.unwrap_or_else(|e| panic!("{what}: row group: {e}"));
        pages
            .rows_into(&mut streamed)
            .unwrap_or_else(|e| panic!("{what}: rows_into: {e}"));
    }
    same_rows(&format!("{what}, row_groups"), &streamed, want);
}

/// Decodes `$file` into borrowed rows of `$ty<'_>` (whole file, then row group
/// by row group), converts them with `$owned::from(&row)` and compares them
/// with `$want`.
macro_rules! check_borrowed {
    ($what:expr, $file:expr, $ty:ident, $owned:ty, $want:expr) => {{
        let what: &str = $what;
        let want: &[$owned] = $want;
        let parquet = ParquetFile::from_bytes($file.clone()).expect("open");
        let pages = parquet
            .load::<$ty>()
            .unwrap_or_else(|e| panic!("{what}: load (borrowed): {e}"));
        let rows: Vec<$ty<'_>> = pages
            .rows()
            .unwrap_or_else(|e| panic!("{what}: rows (borrowed): {e}"));
        let got: Vec<$owned> = rows.iter().map(<$owned>::from).collect();
        same_rows(&format!("{what}, borrowed"), &got, want);

        let mut got: Vec<$owned> = Vec::new();
        for pages in parquet
            .row_groups::<$ty>()
            .unwrap_or_else(|e| panic!("{what}: row_groups (borrowed): {e}"))
        {
            let pages = pages.unwrap_or_else(|e| panic!("{what}: row group (borrowed): {e}"));
            let rows: Vec<$ty<'_>> = pages
                .rows()
                .unwrap_or_else(|e| panic!("{what}: rows of a row group (borrowed): {e}"));
            got.extend(rows.iter().map(<$owned>::from));
        }
        same_rows(&format!("{what}, borrowed, row_groups"), &got, want);
    }};
}

fn owned_str(v: &str) -> String {
    v.to_owned()
}

fn owned_opt_str(v: Option<&str>) -> Option<String> {
    v.map(str::to_owned)
}

// ---------------------------------------------------------------------------
// Structs in structs: REQUIRED and OPTIONAL groups, two levels deep
// ---------------------------------------------------------------------------

const ORDERS_SCHEMA: &str = "message orders {
    REQUIRED INT64 id;
    REQUIRED group customer {
        REQUIRED BINARY name (UTF8);
        OPTIONAL BINARY region (UTF8);
        OPTIONAL group address {
            REQUIRED BINARY city (UTF8);
            OPTIONAL INT32 zip;
        }
    }
    OPTIONAL group shipping {
        REQUIRED DOUBLE cost;
        REQUIRED group dims {
            REQUIRED FLOAT w;
            OPTIONAL FLOAT h;
        }
        OPTIONAL group carrier {
            REQUIRED BINARY code (UTF8);
            OPTIONAL INT64 tracking;
            REQUIRED BOOLEAN express;
        }
    }
    OPTIONAL BINARY note (UTF8);
}";

#[derive(Debug, Clone, PartialEq, ParquetRow)]
struct OrderOwned {
    id: i64,
    customer: CustomerOwned,
    shipping: Option<Shipping>,
    note: Option<String>,
}

#[derive(Debug, Clone, PartialEq, ParquetRow)]
struct CustomerOwned {
    name: String,
    region: Option<String>,
    address: Option<AddressOwned>,
}

#[derive(Debug, Clone, PartialEq, ParquetRow)]
struct AddressOwned {
    city: String,
    #[parquet(rename = "zip")]
    postcode: Option<i32>,
}

/// Fields in another order than the schema's.
#[derive(Debug, Clone, PartialEq, ParquetRow)]
struct Shipping {
    carrier: Option<Carrier>,
    dims: Dims,
    cost: f64,
}

#[derive(Debug, Clone, PartialEq, ParquetRow)]
struct Dims {
    w: f32,
    h: Option<f32>,
}

#[derive(Debug, Clone, PartialEq, ParquetRow)]
struct Carrier {
    code: String,
    tracking: Option<i64>,
    express: bool,
}

#[derive(Debug, Clone, PartialEq, ParquetRow)]
struct Order<'a> {
    id: i64,
    customer: Customer<'a>,
    shipping: Option<Shipping>,
    note: Option<&'a str>,
}

#[derive(Debug, Clone, PartialEq, ParquetRow)]
struct Customer<'a> {
    name: &'a str,
    region: Option<&'a str>,
    address: Option<Address<'a>>,
}

#[derive(Debug, Clone, PartialEq, ParquetRow)]
struct Address<'a> {
    city: &'a str,
    #[parquet(rename = "zip")]
    postcode: Option<i32>,
}

impl From<&Order<'_>> for OrderOwned {
    fn from(o: &Order<'_>) -> Self {
        OrderOwned {
            id: o.id,
            customer: CustomerOwned {
                name: owned_str(o.customer.name),
                region: owned_opt_str(o.customer.region),
                address: o.customer.address.as_ref().map(|a| AddressOwned {
                    city: owned_str(a.city),
                    postcode: a.postcode,
                }),
            },
            shipping: o.shipping.clone(),
            note: owned_opt_str(o.note),
        }
    }
}

fn gen_orders(n: usize) -> Vec<OrderOwned> {
    generate(1, n, |r, i| OrderOwned {
        id: i as i64 * 7 - 300,
        customer: CustomerOwned {
            name: r.word(),
            region: r.maybe(30, Rng::word),
            address: r.maybe(25, |r| AddressOwned {
                city: r.word(),
                postcode: r.maybe(40, Rng::i32),
            }),
        },
        shipping: r.maybe(30, |r| Shipping {
            carrier: r.maybe(35, |r| Carrier {
                code: r.word(),
                tracking: r.maybe(50, Rng::i64),
                express: r.chance(50),
            }),
            dims: Dims {
                w: r.f32(),
                h: r.maybe(20, Rng::f32),
            },
            cost: r.f64(),
        }),
        note: r.maybe(60, Rng::word),
    })
}

fn order_dyn(o: &OrderOwned) -> Vec<Dyn> {
    vec![
        Dyn::I64(o.id),
        Dyn::Group(vec![
            s(&o.customer.name),
            opt(&o.customer.region, |v| s(v)),
            opt(&o.customer.address, |a| {
                Dyn::Group(vec![s(&a.city), opt(&a.postcode, |z| Dyn::I32(*z))])
            }),
        ]),
        opt(&o.shipping, |sh| {
            Dyn::Group(vec![
                Dyn::F64(sh.cost),
                Dyn::Group(vec![Dyn::F32(sh.dims.w), opt(&sh.dims.h, |h| Dyn::F32(*h))]),
                opt(&sh.carrier, |c| {
                    Dyn::Group(vec![
                        s(&c.code),
                        opt(&c.tracking, |t| Dyn::I64(*t)),
                        Dyn::Bool(c.express),
                    ])
                }),
            ])
        }),
        opt(&o.note, |v| s(v)),
    ]
}

fn order_from_record(row: &Row) -> OrderOwned {
    let c = req(group(get(row, "customer")));
    OrderOwned {
        id: req(long(get(row, "id"))),
        customer: CustomerOwned {
            name: req(string(get(c, "name"))),
            region: string(get(c, "region")),
            address: group(get(c, "address")).map(|a| AddressOwned {
                city: req(string(get(a, "city"))),
                postcode: int(get(a, "zip")),
            }),
        },
        shipping: group(get(row, "shipping")).map(|sh| {
            let d = req(group(get(sh, "dims")));
            Shipping {
                carrier: group(get(sh, "carrier")).map(|c| Carrier {
                    code: req(string(get(c, "code"))),
                    tracking: long(get(c, "tracking")),
                    express: req(boolean(get(c, "express"))),
                }),
                dims: Dims {
                    w: req(float(get(d, "w"))),
                    h: float(get(d, "h")),
                },
                cost: req(double(get(sh, "cost"))),
            }
        }),
        note: string(get(row, "note")),
    }
}

/// A projection that reads one leaf deep inside optional groups: whether
/// `address` and `carrier` are null must come from that leaf's levels alone.
#[derive(Debug, Clone, PartialEq, ParquetRow)]
struct OrderDeepLeaves {
    customer: CustomerZip,
    shipping: Option<ShippingExpress>,
}

#[derive(Debug, Clone, PartialEq, ParquetRow)]
struct CustomerZip {
    address: Option<Zip>,
}

#[derive(Debug, Clone, PartialEq, ParquetRow)]
struct Zip {
    zip: Option<i32>,
}

#[derive(Debug, Clone, PartialEq, ParquetRow)]
struct ShippingExpress {
    carrier: Option<Express>,
}

#[derive(Debug, Clone, PartialEq, ParquetRow)]
struct Express {
    express: bool,
}

#[test]
fn nested_structs_required_and_optional_two_levels() {
    let rows = gen_orders(1500);
    assert!(rows.iter().any(|o| o.shipping.is_none()));
    assert!(rows
        .iter()
        .any(|o| o.shipping.as_ref().is_some_and(|s| s.carrier.is_none())));
    let shredded: Vec<Vec<Dyn>> = rows.iter().map(order_dyn).collect();
    for (what, file) in files(ORDERS_SCHEMA, &shredded) {
        check_record_api_and_owned(&what, &file, &rows, order_from_record);
        check_borrowed!(&what, &file, Order, OrderOwned, &rows);
        let deep: Vec<OrderDeepLeaves> = rows
            .iter()
            .map(|o| OrderDeepLeaves {
                customer: CustomerZip {
                    address: o.customer.address.as_ref().map(|a| Zip { zip: a.postcode }),
                },
                shipping: o.shipping.as_ref().map(|s| ShippingExpress {
                    carrier: s.carrier.as_ref().map(|c| Express { express: c.express }),
                }),
            })
            .collect();
        check_owned(&format!("{what}, projection"), &file, &deep);
    }
}

// ---------------------------------------------------------------------------
// LIST of strings (and of byte arrays; `Vec<u8>` stays a BYTE_ARRAY leaf)
// ---------------------------------------------------------------------------

const TAGGED_SCHEMA: &str = "message tagged {
    REQUIRED INT32 id;
    REQUIRED group tags (LIST) {
        REPEATED group list {
            REQUIRED BINARY element (UTF8);
        }
    }
    OPTIONAL group labels (LIST) {
        REPEATED group list {
            REQUIRED BINARY element (STRING);
        }
    }
    REQUIRED group blobs (LIST) {
        REPEATED group list {
            REQUIRED BINARY element;
        }
    }
    REQUIRED BINARY payload;
}";

#[derive(Debug, Clone, PartialEq, ParquetRow)]
struct Tagged {
    id: i32,
    tags: Vec<String>,
    labels: Option<Vec<String>>,
    blobs: Vec<Vec<u8>>,
    payload: Vec<u8>,
}

#[derive(Debug, Clone, PartialEq, ParquetRow)]
struct TaggedRef<'a> {
    id: i32,
    tags: Vec<&'a str>,
    labels: Option<Vec<&'a str>>,
    blobs: Vec<&'a [u8]>,
    payload: &'a [u8],
}

impl From<&TaggedRef<'_>> for Tagged {
    fn from(t: &TaggedRef<'_>) -> Self {
        Tagged {
            id: t.id,
            tags: t.tags.iter().map(|s| owned_str(s)).collect(),
            labels: t
                .labels
                .as_ref()
                .map(|l| l.iter().map(|s| owned_str(s)).collect()),
            blobs: t.blobs.iter().map(|b| b.to_vec()).collect(),
            payload: t.payload.to_vec(),
        }
    }
}

fn gen_blob(r: &mut Rng) -> Vec<u8> {
    let n = r.below(12);
    (0..n).map(|_| r.next() as u8).collect()
}

fn gen_tagged(n: usize) -> Vec<Tagged> {
    generate(2, n, |r, i| Tagged {
        id: i as i32,
        tags: r.vec(6, Rng::word),
        labels: r.maybe(30, |r| r.vec(4, Rng::word)),
        blobs: r.vec(3, gen_blob),
        payload: gen_blob(r),
    })
}

fn tagged_dyn(t: &Tagged) -> Vec<Dyn> {
    vec![
        Dyn::I32(t.id),
        list3(t.tags.iter().map(|v| s(v))),
        opt(&t.labels, |l| list3(l.iter().map(|v| s(v)))),
        list3(t.blobs.iter().map(|b| Dyn::Bytes(b.clone()))),
        Dyn::Bytes(t.payload.clone()),
    ]
}

fn tagged_from_record(row: &Row) -> Tagged {
    let strings = |f: &Field| -> Vec<String> { f_list(f).iter().map(|e| req(string(e))).collect() };
    Tagged {
        id: req(int(get(row, "id"))),
        tags: strings(get(row, "tags")),
        labels: list(get(row, "labels")).map(|l| l.iter().map(|e| req(string(e))).collect()),
        blobs: req(list(get(row, "blobs")))
            .iter()
            .map(|e| req(bytes(e)))
            .collect(),
        payload: req(bytes(get(row, "payload"))),
    }
}

/// A REQUIRED list.
fn f_list(f: &Field) -> &[Field] {
    req(list(f))
}

#[test]
fn list_of_strings() {
    let rows = gen_tagged(1200);
    assert!(rows.iter().any(|t| t.tags.is_empty()));
    assert!(rows.iter().any(|t| t.tags.len() > 8));
    assert!(rows.iter().any(|t| t.labels.is_none()));
    assert!(rows
        .iter()
        .any(|t| t.labels.as_ref().is_some_and(Vec::is_empty)));
    let shredded: Vec<Vec<Dyn>> = rows.iter().map(tagged_dyn).collect();
    for (what, file) in files(TAGGED_SCHEMA, &shredded) {
        check_record_api_and_owned(&what, &file, &rows, tagged_from_record);
        check_borrowed!(&what, &file, TaggedRef, Tagged, &rows);
    }
}

// ---------------------------------------------------------------------------
// OPTIONAL LIST of structs (with a list and a struct inside), LIST of
// nullable structs
// ---------------------------------------------------------------------------

const TRADES_SCHEMA: &str = "message trades {
    REQUIRED INT64 id;
    OPTIONAL group fills (LIST) {
        REPEATED group list {
            REQUIRED group element {
                REQUIRED DOUBLE px;
                REQUIRED INT64 qty;
                OPTIONAL BINARY venue (UTF8);
                REQUIRED group marks (LIST) {
                    REPEATED group list {
                        OPTIONAL INT32 element;
                    }
                }
                OPTIONAL group fee {
                    REQUIRED DOUBLE amount;
                    OPTIONAL BINARY currency (UTF8);
                }
            }
        }
    }
    REQUIRED group legs (LIST) {
        REPEATED group list {
            OPTIONAL group element {
                REQUIRED INT32 n;
                OPTIONAL BINARY side (UTF8);
            }
        }
    }
}";

#[derive(Debug, Clone, PartialEq, ParquetRow)]
struct Trade {
    id: i64,
    fills: Option<Vec<Fill>>,
    legs: Vec<Option<Leg>>,
}

#[derive(Debug, Clone, PartialEq, ParquetRow)]
struct Fill {
    #[parquet(rename = "px")]
    price: f64,
    qty: i64,
    venue: Option<String>,
    marks: Vec<Option<i32>>,
    fee: Option<Fee>,
}

#[derive(Debug, Clone, PartialEq, ParquetRow)]
struct Fee {
    amount: f64,
    currency: Option<String>,
}

#[derive(Debug, Clone, PartialEq, ParquetRow)]
struct Leg {
    n: i32,
    side: Option<String>,
}

#[derive(Debug, Clone, PartialEq, ParquetRow)]
struct TradeRef<'a> {
    id: i64,
    fills: Option<Vec<FillRef<'a>>>,
    legs: Vec<Option<Leg>>,
}

#[derive(Debug, Clone, PartialEq, ParquetRow)]
struct FillRef<'a> {
    #[parquet(rename = "px")]
    price: f64,
    qty: i64,
    venue: Option<&'a str>,
    marks: Vec<Option<i32>>,
    fee: Option<Fee>,
}

impl From<&TradeRef<'_>> for Trade {
    fn from(t: &TradeRef<'_>) -> Self {
        Trade {
            id: t.id,
            fills: t.fills.as_ref().map(|fills| {
                fills
                    .iter()
                    .map(|f| Fill {
                        price: f.price,
                        qty: f.qty,
                        venue: owned_opt_str(f.venue),
                        marks: f.marks.clone(),
                        fee: f.fee.clone(),
                    })
                    .collect()
            }),
            legs: t.legs.clone(),
        }
    }
}

fn gen_trades(seed: u64, n: usize) -> Vec<Trade> {
    generate(seed, n, |r, i| Trade {
        id: i as i64,
        fills: r.maybe(25, |r| {
            r.vec(4, |r| Fill {
                price: r.f64(),
                qty: r.i64(),
                venue: r.maybe(30, Rng::word),
                marks: r.vec(3, |r| r.maybe(30, Rng::i32)),
                fee: r.maybe(40, |r| Fee {
                    amount: r.f64(),
                    currency: r.maybe(50, Rng::word),
                }),
            })
        }),
        legs: r.vec(3, |r| {
            r.maybe(30, |r| Leg {
                n: r.i32(),
                side: r.maybe(30, Rng::word),
            })
        }),
    })
}

fn trade_dyn(t: &Trade) -> Vec<Dyn> {
    vec![
        Dyn::I64(t.id),
        opt(&t.fills, |fills| {
            list3(fills.iter().map(|f| {
                Dyn::Group(vec![
                    Dyn::F64(f.price),
                    Dyn::I64(f.qty),
                    opt(&f.venue, |v| s(v)),
                    list3(f.marks.iter().map(|m| opt(m, |m| Dyn::I32(*m)))),
                    opt(&f.fee, |fee| {
                        Dyn::Group(vec![Dyn::F64(fee.amount), opt(&fee.currency, |c| s(c))])
                    }),
                ])
            }))
        }),
        list3(t.legs.iter().map(|l| {
            opt(l, |l| {
                Dyn::Group(vec![Dyn::I32(l.n), opt(&l.side, |v| s(v))])
            })
        })),
    ]
}

fn trade_from_record(row: &Row) -> Trade {
    Trade {
        id: req(long(get(row, "id"))),
        fills: list(get(row, "fills")).map(|fills| {
            fills
                .iter()
                .map(|e| {
                    let f = req(group(e));
                    Fill {
                        price: req(double(get(f, "px"))),
                        qty: req(long(get(f, "qty"))),
                        venue: string(get(f, "venue")),
                        marks: f_list(get(f, "marks")).iter().map(int).collect(),
                        fee: group(get(f, "fee")).map(|fee| Fee {
                            amount: req(double(get(fee, "amount"))),
                            currency: string(get(fee, "currency")),
                        }),
                    }
                })
                .collect()
        }),
        legs: f_list(get(row, "legs"))
            .iter()
            .map(|e| {
                group(e).map(|l| Leg {
                    n: req(int(get(l, "n"))),
                    side: string(get(l, "side")),
                })
            })
            .collect(),
    }
}

#[test]
fn optional_list_of_structs() {
    let rows = gen_trades(3, 1200);
    assert!(rows.iter().any(|t| t.fills.is_none()));
    assert!(rows
        .iter()
        .any(|t| t.fills.as_ref().is_some_and(Vec::is_empty)));
    assert!(rows.iter().any(|t| t.legs.contains(&None)));
    let shredded: Vec<Vec<Dyn>> = rows.iter().map(trade_dyn).collect();
    for (what, file) in files(TRADES_SCHEMA, &shredded) {
        check_record_api_and_owned(&what, &file, &rows, trade_from_record);
        check_borrowed!(&what, &file, TradeRef, Trade, &rows);
    }
}

// ---------------------------------------------------------------------------
// MAPs into HashMap, BTreeMap and Vec<(K, V)>
// ---------------------------------------------------------------------------

const MAPS_SCHEMA: &str = "message maps {
    REQUIRED INT32 id;
    REQUIRED group attrs (MAP) {
        REPEATED group key_value {
            REQUIRED BINARY key (UTF8);
            REQUIRED INT64 value;
        }
    }
    OPTIONAL group scores (MAP) {
        REPEATED group key_value {
            REQUIRED INT32 key;
            OPTIONAL DOUBLE value;
        }
    }
    OPTIONAL group counts (MAP) {
        REPEATED group key_value {
            REQUIRED BINARY key (UTF8);
            OPTIONAL INT64 value;
        }
    }
    REQUIRED group pairs (MAP) {
        REPEATED group key_value {
            REQUIRED BINARY key (UTF8);
            REQUIRED BINARY value (UTF8);
        }
    }
}";

/// The maps in file order, duplicates kept (`pairs` has duplicate keys, the
/// others never do).
#[derive(Debug, Clone, PartialEq, ParquetRow)]
struct MapsPairs {
    id: i32,
    attrs: Vec<(String, i64)>,
    scores: Option<Vec<(i32, Option<f64>)>>,
    counts: Option<Vec<(String, Option<i64>)>>,
    pairs: Vec<(String, String)>,
}

#[derive(Debug, Clone, PartialEq, ParquetRow)]
struct MapsHash {
    id: i32,
    attrs: HashMap<String, i64>,
    scores: Option<HashMap<i32, Option<f64>>>,
    counts: Option<HashMap<String, Option<i64>>>,
    pairs: Vec<(String, String)>,
}

#[derive(Debug, Clone, PartialEq, ParquetRow)]
struct MapsBTree {
    id: i32,
    attrs: BTreeMap<String, i64>,
    scores: Option<BTreeMap<i32, Option<f64>>>,
    counts: Option<BTreeMap<String, Option<i64>>>,
    pairs: Vec<(String, String)>,
}

#[derive(Debug, Clone, PartialEq, ParquetRow)]
struct MapsRef<'a> {
    id: i32,
    attrs: BTreeMap<&'a str, i64>,
    scores: Option<Vec<(i32, Option<f64>)>>,
    counts: Option<HashMap<&'a str, Option<i64>>>,
    pairs: Vec<(&'a str, &'a str)>,
}

impl From<&MapsPairs> for MapsHash {
    fn from(m: &MapsPairs) -> Self {
        MapsHash {
            id: m.id,
            attrs: m.attrs.iter().cloned().collect(),
            scores: m.scores.as_ref().map(|v| v.iter().copied().collect()),
            counts: m.counts.as_ref().map(|v| v.iter().cloned().collect()),
            pairs: m.pairs.clone(),
        }
    }
}

impl From<&MapsPairs> for MapsBTree {
    fn from(m: &MapsPairs) -> Self {
        MapsBTree {
            id: m.id,
            attrs: m.attrs.iter().cloned().collect(),
            scores: m.scores.as_ref().map(|v| v.iter().copied().collect()),
            counts: m.counts.as_ref().map(|v| v.iter().cloned().collect()),
            pairs: m.pairs.clone(),
        }
    }
}

impl From<&MapsRef<'_>> for MapsBTree {
    fn from(m: &MapsRef<'_>) -> Self {
        MapsBTree {
            id: m.id,
            attrs: m.attrs.iter().map(|(k, v)| (owned_str(k), *v)).collect(),
            scores: m.scores.as_ref().map(|v| v.iter().copied().collect()),
            counts: m
                .counts
                .as_ref()
                .map(|c| c.iter().map(|(k, v)| (owned_str(k), *v)).collect()),
            pairs: m
                .pairs
                .iter()
                .map(|(k, v)| (owned_str(k), owned_str(v)))
                .collect(),
        }
    }
}

const KEY_POOL: [&str; 10] = [
    "k0",
    "k1",
    "",
    "é",
    "日本",
    "k5",
    "k6",
    "🦀",
    "k8",
    "longer key 9",
];

fn gen_maps(n: usize) -> Vec<MapsPairs> {
    let key_pool: Vec<String> = KEY_POOL.iter().map(|k| owned_str(k)).collect();
    let int_pool: Vec<i32> = (-5..20).chain([i32::MIN, i32::MAX]).collect();
    generate(4, n, |r, i| MapsPairs {
        id: i as i32,
        attrs: r
            .keys(&key_pool, 4)
            .into_iter()
            .map(|k| (k, r.i64()))
            .collect(),
        scores: r.maybe(25, |r| {
            r.keys(&int_pool, 5)
                .into_iter()
                .map(|k| (k, r.maybe(30, Rng::f64)))
                .collect()
        }),
        counts: r.maybe(25, |r| {
            r.keys(&key_pool, 3)
                .into_iter()
                .map(|k| (k, r.maybe(30, Rng::i64)))
                .collect()
        }),
        // Few distinct keys: duplicates in most long maps.
        pairs: r.vec(4, |r| (owned_str(KEY_POOL[r.below(3)]), r.word())),
    })
}

fn maps_dyn(m: &MapsPairs) -> Vec<Dyn> {
    vec![
        Dyn::I32(m.id),
        map(m.attrs.iter().map(|(k, v)| (s(k), Dyn::I64(*v)))),
        opt(&m.scores, |sc| {
            map(sc
                .iter()
                .map(|(k, v)| (Dyn::I32(*k), opt(v, |v| Dyn::F64(*v)))))
        }),
        opt(&m.counts, |c| {
            map(c.iter().map(|(k, v)| (s(k), opt(v, |v| Dyn::I64(*v)))))
        }),
        map(m.pairs.iter().map(|(k, v)| (s(k), s(v)))),
    ]
}

fn maps_from_record(row: &Row) -> MapsPairs {
    MapsPairs {
        id: req(int(get(row, "id"))),
        attrs: req(entries(get(row, "attrs")))
            .iter()
            .map(|(k, v)| (req(string(k)), req(long(v))))
            .collect(),
        scores: entries(get(row, "scores"))
            .map(|e| e.iter().map(|(k, v)| (req(int(k)), double(v))).collect()),
        counts: entries(get(row, "counts"))
            .map(|e| e.iter().map(|(k, v)| (req(string(k)), long(v))).collect()),
        pairs: req(entries(get(row, "pairs")))
            .iter()
            .map(|(k, v)| (req(string(k)), req(string(v))))
            .collect(),
    }
}

#[test]
fn maps_into_hashmap_btreemap_and_pairs() {
    let rows = gen_maps(1200);
    assert!(rows.iter().any(|m| m.scores.is_none()));
    assert!(rows
        .iter()
        .any(|m| m.scores.as_ref().is_some_and(Vec::is_empty)));
    assert!(rows.iter().any(|m| m
        .counts
        .as_ref()
        .is_some_and(|c| c.iter().any(|(_, v)| v.is_none()))));
    assert!(rows.iter().any(|m| {
        let keys: std::collections::HashSet<&String> = m.pairs.iter().map(|(k, _)| k).collect();
        keys.len() < m.pairs.len()
    }));
    let hashed: Vec<MapsHash> = rows.iter().map(MapsHash::from).collect();
    let sorted: Vec<MapsBTree> = rows.iter().map(MapsBTree::from).collect();
    let shredded: Vec<Vec<Dyn>> = rows.iter().map(maps_dyn).collect();
    for (what, file) in files(MAPS_SCHEMA, &shredded) {
        same_rows(
            &format!("{what}, record API"),
            &record_api(&file, maps_from_record),
            &rows,
        );
        check_owned(&format!("{what}, Vec<(K, V)>"), &file, &rows);
        check_owned(&format!("{what}, HashMap"), &file, &hashed);
        check_owned(&format!("{what}, BTreeMap"), &file, &sorted);
        check_borrowed!(&what, &file, MapsRef, MapsBTree, &sorted);
    }
}

/// The legacy forms of the spec's backward-compatibility rules: a MAP whose
/// repeated group is annotated MAP_KEY_VALUE, and a group annotated
/// MAP_KEY_VALUE itself (older parquet-mr).
const LEGACY_MAPS_SCHEMA: &str = "message legacy_maps {
    REQUIRED group m1 (MAP) {
        REPEATED group map (MAP_KEY_VALUE) {
            REQUIRED BINARY key (UTF8);
            OPTIONAL INT32 value;
        }
    }
    OPTIONAL group m2 (MAP_KEY_VALUE) {
        REPEATED group map {
            REQUIRED INT32 key;
            REQUIRED BINARY value (UTF8);
        }
    }
}";

#[derive(Debug, Clone, PartialEq, ParquetRow)]
struct LegacyMap1 {
    m1: BTreeMap<String, Option<i32>>,
}

#[derive(Debug, Clone, PartialEq, ParquetRow)]
struct LegacyMap2 {
    m2: Option<Vec<(i32, String)>>,
}

#[test]
fn legacy_map_key_value_annotations() {
    let key_pool: Vec<String> = KEY_POOL.iter().map(|k| owned_str(k)).collect();
    let int_pool: Vec<i32> = (0..30).collect();
    let rows: Vec<(LegacyMap1, LegacyMap2)> = generate(5, 900, |r, _| {
        (
            LegacyMap1 {
                m1: r
                    .keys(&key_pool, 4)
                    .into_iter()
                    .map(|k| (k, r.maybe(30, Rng::i32)))
                    .collect(),
            },
            LegacyMap2 {
                m2: r.maybe(30, |r| {
                    r.keys(&int_pool, 4)
                        .into_iter()
                        .map(|k| (k, r.word()))
                        .collect()
                }),
            },
        )
    });
    let shredded: Vec<Vec<Dyn>> = rows
        .iter()
        .map(|(a, b)| {
            vec![
                map(a.m1.iter().map(|(k, v)| (s(k), opt(v, |v| Dyn::I32(*v))))),
                opt(&b.m2, |m| map(m.iter().map(|(k, v)| (Dyn::I32(*k), s(v))))),
            ]
        })
        .collect();
    let from_record = |row: &Row| {
        (
            LegacyMap1 {
                m1: req(entries(get(row, "m1")))
                    .iter()
                    .map(|(k, v)| (req(string(k)), int(v)))
                    .collect(),
            },
            LegacyMap2 {
                m2: entries(get(row, "m2")).map(|e| {
                    e.iter()
                        .map(|(k, v)| (req(int(k)), req(string(v))))
                        .collect()
                }),
            },
        )
    };
    let m1: Vec<LegacyMap1> = rows.iter().map(|(a, _)| a.clone()).collect();
    let m2: Vec<LegacyMap2> = rows.iter().map(|(_, b)| b.clone()).collect();
    assert!(m2.iter().any(|m| m.m2.is_none()));
    for (what, file) in files(LEGACY_MAPS_SCHEMA, &shredded) {
        same_rows(
            &format!("{what}, record API"),
            &record_api(&file, from_record),
            &rows,
        );
        check_owned(&format!("{what}, MAP + MAP_KEY_VALUE"), &file, &m1);
        check_owned(&format!("{what}, MAP_KEY_VALUE group"), &file, &m2);
    }
}

// ---------------------------------------------------------------------------
// LISTs with nullable elements, nested LISTs, OPTIONAL LISTs of nullable
// elements
// ---------------------------------------------------------------------------

const NULLABLE_SCHEMA: &str = "message nullable {
    REQUIRED group ints (LIST) {
        REPEATED group list {
            OPTIONAL INT32 element;
        }
    }
    REQUIRED group words (LIST) {
        REPEATED group list {
            OPTIONAL BINARY element (UTF8);
        }
    }
    REQUIRED group flags (LIST) {
        REPEATED group list {
            OPTIONAL BOOLEAN element;
        }
    }
}";

#[derive(Debug, Clone, PartialEq, ParquetRow)]
struct Nullable {
    ints: Vec<Option<i32>>,
    words: Vec<Option<String>>,
    flags: Vec<Option<bool>>,
}

#[derive(Debug, Clone, PartialEq, ParquetRow)]
struct NullableRef<'a> {
    ints: Vec<Option<i32>>,
    words: Vec<Option<&'a str>>,
    flags: Vec<Option<bool>>,
}

impl From<&NullableRef<'_>> for Nullable {
    fn from(n: &NullableRef<'_>) -> Self {
        Nullable {
            ints: n.ints.clone(),
            words: n.words.iter().map(|v| owned_opt_str(*v)).collect(),
            flags: n.flags.clone(),
        }
    }
}

#[test]
fn list_with_nullable_elements() {
    let rows = generate(6, 1500, |r, _| Nullable {
        ints: r.vec(6, |r| r.maybe(30, Rng::i32)),
        words: r.vec(5, |r| r.maybe(30, Rng::word)),
        // Long runs of one value, for the RLE boolean encoding.
        flags: r.vec(12, |r| r.maybe(20, |r| r.chance(80))),
    });
    assert!(rows.iter().any(|n| n.ints.contains(&None)));
    assert!(rows.iter().any(|n| n.words.is_empty()));
    let shredded: Vec<Vec<Dyn>> = rows
        .iter()
        .map(|n| {
            vec![
                list3(n.ints.iter().map(|v| opt(v, |v| Dyn::I32(*v)))),
                list3(n.words.iter().map(|v| opt(v, |v| s(v)))),
                list3(n.flags.iter().map(|v| opt(v, |v| Dyn::Bool(*v)))),
            ]
        })
        .collect();
    let from_record = |row: &Row| Nullable {
        ints: f_list(get(row, "ints")).iter().map(int).collect(),
        words: f_list(get(row, "words")).iter().map(string).collect(),
        flags: f_list(get(row, "flags")).iter().map(boolean).collect(),
    };
    for (what, file) in files(NULLABLE_SCHEMA, &shredded) {
        check_record_api_and_owned(&what, &file, &rows, from_record);
        check_borrowed!(&what, &file, NullableRef, Nullable, &rows);
    }
}

const MATRICES_SCHEMA: &str = "message matrices {
    REQUIRED INT32 id;
    REQUIRED group matrix (LIST) {
        REPEATED group list {
            REQUIRED group element (LIST) {
                REPEATED group list {
                    REQUIRED INT64 element;
                }
            }
        }
    }
    OPTIONAL group ragged (LIST) {
        REPEATED group list {
            OPTIONAL group element (LIST) {
                REPEATED group list {
                    OPTIONAL BINARY element (UTF8);
                }
            }
        }
    }
}";

#[derive(Debug, Clone, PartialEq, ParquetRow)]
struct Matrices {
    id: i32,
    matrix: Vec<Vec<i64>>,
    ragged: Option<Vec<Option<Vec<Option<String>>>>>,
}

#[derive(Debug, Clone, PartialEq, ParquetRow)]
struct MatricesRef<'a> {
    id: i32,
    matrix: Vec<Vec<i64>>,
    ragged: Option<Vec<Option<Vec<Option<&'a str>>>>>,
}

impl From<&MatricesRef<'_>> for Matrices {
    fn from(m: &MatricesRef<'_>) -> Self {
        Matrices {
            id: m.id,
            matrix: m.matrix.clone(),
            ragged: m.ragged.as_ref().map(|outer| {
                outer
                    .iter()
                    .map(|inner| {
                        inner
                            .as_ref()
                            .map(|inner| inner.iter().map(|v| owned_opt_str(*v)).collect())
                    })
                    .collect()
            }),
        }
    }
}

fn gen_matrices(seed: u64, n: usize) -> Vec<Matrices> {
    generate(seed, n, |r, i| Matrices {
        id: i as i32,
        matrix: r.vec(3, |r| r.vec(4, Rng::i64)),
        ragged: r.maybe(25, |r| {
            r.vec(3, |r| r.maybe(30, |r| r.vec(3, |r| r.maybe(30, Rng::word))))
        }),
    })
}

fn matrices_dyn(m: &Matrices) -> Vec<Dyn> {
    vec![
        Dyn::I32(m.id),
        list3(
            m.matrix
                .iter()
                .map(|row| list3(row.iter().map(|v| Dyn::I64(*v)))),
        ),
        opt(&m.ragged, |outer| {
            list3(
                outer
                    .iter()
                    .map(|inner| opt(inner, |inner| list3(inner.iter().map(|v| opt(v, |v| s(v)))))),
            )
        }),
    ]
}

fn matrices_from_record(row: &Row) -> Matrices {
    Matrices {
        id: req(int(get(row, "id"))),
        matrix: f_list(get(row, "matrix"))
            .iter()
            .map(|inner| f_list(inner).iter().map(|v| req(long(v))).collect())
            .collect(),
        ragged: list(get(row, "ragged")).map(|outer| {
            outer
                .iter()
                .map(|inner| list(inner).map(|inner| inner.iter().map(string).collect()))
                .collect()
        }),
    }
}

#[test]
fn nested_lists() {
    let rows = gen_matrices(7, 1200);
    assert!(rows.iter().any(|m| m.matrix.iter().any(Vec::is_empty)));
    assert!(rows
        .iter()
        .any(|m| m.ragged.as_ref().is_some_and(|o| o.contains(&None))));
    assert!(rows.iter().any(|m| m
        .ragged
        .as_ref()
        .is_some_and(|o| o.iter().flatten().any(|i| i.contains(&None)))));
    let shredded: Vec<Vec<Dyn>> = rows.iter().map(matrices_dyn).collect();
    for (what, file) in files(MATRICES_SCHEMA, &shredded) {
        check_record_api_and_owned(&what, &file, &rows, matrices_from_record);
        check_borrowed!(&what, &file, MatricesRef, Matrices, &rows);
    }
}

const SPARSE_SCHEMA: &str = "message sparse {
    OPTIONAL group prices (LIST) {
        REPEATED group list {
            OPTIONAL DOUBLE element;
        }
    }
    OPTIONAL group names (LIST) {
        REPEATED group list {
            OPTIONAL BINARY element (UTF8);
        }
    }
    OPTIONAL group sizes (LIST) {
        REPEATED group list {
            OPTIONAL FLOAT element;
        }
    }
    OPTIONAL group ids (LIST) {
        REPEATED group list {
            OPTIONAL INT64 element;
        }
    }
}";

#[derive(Debug, Clone, PartialEq, ParquetRow)]
struct Sparse {
    prices: Option<Vec<Option<f64>>>,
    names: Option<Vec<Option<String>>>,
    sizes: Option<Vec<Option<f32>>>,
    ids: Option<Vec<Option<i64>>>,
}

#[test]
fn optional_list_of_optional_elements() {
    let rows = generate(8, 1500, |r, _| Sparse {
        prices: r.maybe(30, |r| r.vec(5, |r| r.maybe(30, Rng::f64))),
        names: r.maybe(30, |r| r.vec(5, |r| r.maybe(30, Rng::word))),
        sizes: r.maybe(30, |r| r.vec(5, |r| r.maybe(30, Rng::f32))),
        ids: r.maybe(30, |r| r.vec(5, |r| r.maybe(30, Rng::i64))),
    });
    assert!(rows.iter().any(|s| s.prices.is_none()));
    assert!(rows
        .iter()
        .any(|s| s.prices.as_ref().is_some_and(Vec::is_empty)));
    assert!(rows
        .iter()
        .any(|s| s.prices.as_ref().is_some_and(|p| p.contains(&None))));
    let shredded: Vec<Vec<Dyn>> = rows
        .iter()
        .map(|sp| {
            vec![
                opt(&sp.prices, |l| {
                    list3(l.iter().map(|v| opt(v, |v| Dyn::F64(*v))))
                }),
                opt(&sp.names, |l| list3(l.iter().map(|v| opt(v, |v| s(v))))),
                opt(&sp.sizes, |l| {
                    list3(l.iter().map(|v| opt(v, |v| Dyn::F32(*v))))
                }),
                opt(&sp.ids, |l| {
                    list3(l.iter().map(|v| opt(v, |v| Dyn::I64(*v))))
                }),
            ]
        })
        .collect();
    let from_record = |row: &Row| Sparse {
        prices: list(get(row, "prices")).map(|l| l.iter().map(double).collect()),
        names: list(get(row, "names")).map(|l| l.iter().map(string).collect()),
        sizes: list(get(row, "sizes")).map(|l| l.iter().map(float).collect()),
        ids: list(get(row, "ids")).map(|l| l.iter().map(long).collect()),
    };
    for (what, file) in files(SPARSE_SCHEMA, &shredded) {
        check_record_api_and_owned(&what, &file, &rows, from_record);
    }
}

// ---------------------------------------------------------------------------
// Legacy 2-level LISTs and un-annotated REPEATED fields
// ---------------------------------------------------------------------------

/// One column per backward-compatibility rule of the spec (LogicalTypes.md,
/// "Lists"): a repeated primitive is the element; a repeated group with
/// several fields is the element; a repeated group with one field named
/// `array` or `<list name>_tuple` is the element.
const LEGACY_LISTS_SCHEMA: &str = "message legacy_lists {
    REQUIRED group nums (LIST) {
        REPEATED INT32 element;
    }
    OPTIONAL group strs (LIST) {
        REPEATED BINARY str (UTF8);
    }
    REQUIRED group points (LIST) {
        REPEATED group element {
            REQUIRED INT32 x;
            OPTIONAL INT32 y;
        }
    }
    OPTIONAL group wrapped (LIST) {
        REPEATED group array {
            REQUIRED INT64 v;
        }
    }
    REQUIRED group tuples (LIST) {
        REPEATED group tuples_tuple {
            REQUIRED BINARY s (UTF8);
        }
    }
}";

#[derive(Debug, Clone, PartialEq, ParquetRow)]
struct LegacyLists {
    nums: Vec<i32>,
    strs: Option<Vec<String>>,
    points: Vec<Point>,
    wrapped: Option<Vec<Wrapped>>,
    tuples: Vec<Tuple>,
}

#[derive(Debug, Clone, PartialEq, ParquetRow)]
struct Point {
    x: i32,
    y: Option<i32>,
}

#[derive(Debug, Clone, PartialEq, ParquetRow)]
struct Wrapped {
    v: i64,
}

#[derive(Debug, Clone, PartialEq, ParquetRow)]
struct Tuple {
    s: String,
}

#[derive(Debug, Clone, PartialEq, ParquetRow)]
struct LegacyListsRef<'a> {
    nums: Vec<i32>,
    strs: Option<Vec<&'a str>>,
    points: Vec<Point>,
    wrapped: Option<Vec<Wrapped>>,
    tuples: Vec<TupleRef<'a>>,
}

#[derive(Debug, Clone, PartialEq, ParquetRow)]
struct TupleRef<'a> {
    s: &'a str,
}

impl From<&LegacyListsRef<'_>> for LegacyLists {
    fn from(l: &LegacyListsRef<'_>) -> Self {
        LegacyLists {
            nums: l.nums.clone(),
            strs: l
                .strs
                .as_ref()
                .map(|v| v.iter().map(|s| owned_str(s)).collect()),
            points: l.points.clone(),
            wrapped: l.wrapped.clone(),
            tuples: l
                .tuples
                .iter()
                .map(|t| Tuple { s: owned_str(t.s) })
                .collect(),
        }
    }
}

/// A legacy 2-level LIST as the record API of `parquet` 60.1 returns it: `[]`
/// when empty, and a one-element list holding the elements otherwise (its
/// reader wraps the repeated field's own list reader in a second one).
fn legacy_list(f: &Field) -> Option<&[Field]> {
    let outer = list(f)?;
    match outer {
        [] => Some(outer),
        [inner] => Some(req(list(inner))),
        _ => panic!("the record API's 2-level list has changed shape: {f:?}"),
    }
}

#[test]
fn legacy_two_level_lists() {
    let rows = generate(9, 1200, |r, _| LegacyLists {
        nums: r.vec(6, Rng::i32),
        strs: r.maybe(30, |r| r.vec(4, Rng::word)),
        points: r.vec(3, |r| Point {
            x: r.i32(),
            y: r.maybe(30, Rng::i32),
        }),
        wrapped: r.maybe(30, |r| r.vec(3, |r| Wrapped { v: r.i64() })),
        tuples: r.vec(3, |r| Tuple { s: r.word() }),
    });
    assert!(rows.iter().any(|l| l.strs.is_none()));
    assert!(rows
        .iter()
        .any(|l| l.strs.as_ref().is_some_and(Vec::is_empty)));
    let shredded: Vec<Vec<Dyn>> = rows
        .iter()
        .map(|l| {
            vec![
                list2(l.nums.iter().map(|v| Dyn::I32(*v))),
                opt(&l.strs, |v| list2(v.iter().map(|v| s(v)))),
                list2(
                    l.points
                        .iter()
                        .map(|p| Dyn::Group(vec![Dyn::I32(p.x), opt(&p.y, |y| Dyn::I32(*y))])),
                ),
                opt(&l.wrapped, |w| {
                    list2(w.iter().map(|w| Dyn::Group(vec![Dyn::I64(w.v)])))
                }),
                list2(l.tuples.iter().map(|t| Dyn::Group(vec![s(&t.s)]))),
            ]
        })
        .collect();
    let from_record = |row: &Row| LegacyLists {
        nums: req(legacy_list(get(row, "nums")))
            .iter()
            .map(|v| req(int(v)))
            .collect(),
        strs: legacy_list(get(row, "strs")).map(|l| l.iter().map(|v| req(string(v))).collect()),
        points: req(legacy_list(get(row, "points")))
            .iter()
            .map(|p| {
                let p = req(group(p));
                Point {
                    x: req(int(get(p, "x"))),
                    y: int(get(p, "y")),
                }
            })
            .collect(),
        wrapped: legacy_list(get(row, "wrapped")).map(|l| {
            l.iter()
                .map(|w| Wrapped {
                    v: req(long(get(req(group(w)), "v"))),
                })
                .collect()
        }),
        tuples: req(legacy_list(get(row, "tuples")))
            .iter()
            .map(|t| Tuple {
                s: req(string(get(req(group(t)), "s"))),
            })
            .collect(),
    };
    for (what, file) in files(LEGACY_LISTS_SCHEMA, &shredded) {
        check_record_api_and_owned(&what, &file, &rows, from_record);
        check_borrowed!(&what, &file, LegacyListsRef, LegacyLists, &rows);
    }
}

const REPEATED_SCHEMA: &str = "message repeated {
    REQUIRED INT32 id;
    REPEATED INT32 nums;
    REPEATED BINARY names (UTF8);
    REPEATED group points {
        REQUIRED DOUBLE x;
        OPTIONAL DOUBLE y;
        REPEATED INT64 tags;
    }
}";

#[derive(Debug, Clone, PartialEq, ParquetRow)]
struct Repeated {
    id: i32,
    nums: Vec<i32>,
    names: Vec<String>,
    points: Vec<Pt>,
}

#[derive(Debug, Clone, PartialEq, ParquetRow)]
struct Pt {
    x: f64,
    y: Option<f64>,
    tags: Vec<i64>,
}

#[derive(Debug, Clone, PartialEq, ParquetRow)]
struct RepeatedRef<'a> {
    id: i32,
    nums: Vec<i32>,
    names: Vec<&'a str>,
    points: Vec<Pt>,
}

impl From<&RepeatedRef<'_>> for Repeated {
    fn from(r: &RepeatedRef<'_>) -> Self {
        Repeated {
            id: r.id,
            nums: r.nums.clone(),
            names: r.names.iter().map(|s| owned_str(s)).collect(),
            points: r.points.clone(),
        }
    }
}

#[test]
fn unannotated_repeated_primitive_and_group() {
    let rows = generate(10, 1200, |r, i| Repeated {
        id: i as i32,
        nums: r.vec(5, Rng::i32),
        names: r.vec(4, Rng::word),
        points: r.vec(3, |r| Pt {
            x: r.f64(),
            y: r.maybe(30, Rng::f64),
            tags: r.vec(3, Rng::i64),
        }),
    });
    assert!(rows.iter().any(|r| r.points.is_empty()));
    assert!(rows
        .iter()
        .any(|r| r.points.iter().any(|p| p.tags.is_empty())));
    let shredded: Vec<Vec<Dyn>> = rows
        .iter()
        .map(|r| {
            vec![
                Dyn::I32(r.id),
                rep(r.nums.iter().map(|v| Dyn::I32(*v))),
                rep(r.names.iter().map(|v| s(v))),
                rep(r.points.iter().map(|p| {
                    Dyn::Group(vec![
                        Dyn::F64(p.x),
                        opt(&p.y, |y| Dyn::F64(*y)),
                        rep(p.tags.iter().map(|t| Dyn::I64(*t))),
                    ])
                })),
            ]
        })
        .collect();
    let from_record = |row: &Row| Repeated {
        id: req(int(get(row, "id"))),
        nums: f_list(get(row, "nums"))
            .iter()
            .map(|v| req(int(v)))
            .collect(),
        names: f_list(get(row, "names"))
            .iter()
            .map(|v| req(string(v)))
            .collect(),
        points: f_list(get(row, "points"))
            .iter()
            .map(|p| {
                let p = req(group(p));
                Pt {
                    x: req(double(get(p, "x"))),
                    y: double(get(p, "y")),
                    tags: f_list(get(p, "tags"))
                        .iter()
                        .map(|t| req(long(t)))
                        .collect(),
                }
            })
            .collect(),
    };
    for (what, file) in files(REPEATED_SCHEMA, &shredded) {
        check_record_api_and_owned(&what, &file, &rows, from_record);
        check_borrowed!(&what, &file, RepeatedRef, Repeated, &rows);
    }
}

// ---------------------------------------------------------------------------
// Lists across page boundaries (hand-written v1 pages)
// ---------------------------------------------------------------------------

/// Pages of `cut` levels each, so that records start and end in the middle
/// of pages, and one record's lists run over several pages.
#[test]
fn lists_across_v1_page_boundaries() {
    let trades = gen_trades(11, 400);
    let matrices = gen_matrices(12, 400);
    let trades_shredded: Vec<Vec<Dyn>> = trades.iter().map(trade_dyn).collect();
    let matrices_shredded: Vec<Vec<Dyn>> = matrices.iter().map(matrices_dyn).collect();
    for cut in [1, 2, 7, 50] {
        fn groups(rows: &[Vec<Dyn>]) -> [&[Vec<Dyn>]; 2] {
            [&rows[..150], &rows[150..]]
        }
        let what = format!("trades, pages of {cut} levels");
        let file = write_hand_paged(TRADES_SCHEMA, &groups(&trades_shredded), cut, |_, _| {});
        // The pages really do start inside records.
        let pages = all_pages(&file);
        assert!(pages[0].iter().any(|chunk| chunk.len() > 3), "{what}");
        check_record_api_and_owned(&what, &file, &trades, trade_from_record);
        check_borrowed!(&what, &file, TradeRef, Trade, &trades);

        let what = format!("matrices, pages of {cut} levels");
        let file = write_hand_paged(MATRICES_SCHEMA, &groups(&matrices_shredded), cut, |_, _| {});
        check_record_api_and_owned(&what, &file, &matrices, matrices_from_record);
        check_borrowed!(&what, &file, MatricesRef, Matrices, &matrices);
    }
}

// ---------------------------------------------------------------------------
// Binding errors
// ---------------------------------------------------------------------------

const BIND_SCHEMA: &str = "message bind {
    REQUIRED INT32 plain;
    REQUIRED group xs (LIST) {
        REPEATED group list {
            REQUIRED INT32 element;
        }
    }
    REQUIRED group ys (LIST) {
        REPEATED group list {
            OPTIONAL INT32 element;
        }
    }
    OPTIONAL group customer {
        REQUIRED BINARY name (UTF8);
        OPTIONAL BINARY region (UTF8);
    }
    OPTIONAL group fills (LIST) {
        REPEATED group list {
            REQUIRED group element {
                REQUIRED DOUBLE price;
                REQUIRED INT64 qty;
            }
        }
    }
    REQUIRED group attrs (MAP) {
        REPEATED group key_value {
            REQUIRED BINARY key (UTF8);
            REQUIRED INT64 value;
        }
    }
}";

/// The struct that matches [`BIND_SCHEMA`]: the control for the error tests.
#[derive(Debug, Clone, PartialEq, ParquetRow)]
struct BindOk {
    plain: i32,
    xs: Vec<i32>,
    ys: Vec<Option<i32>>,
    customer: Option<CustomerOk>,
    fills: Option<Vec<FillOk>>,
    attrs: HashMap<String, i64>,
}

#[derive(Debug, Clone, PartialEq, ParquetRow)]
struct CustomerOk {
    name: String,
    region: Option<String>,
}

#[derive(Debug, Clone, PartialEq, ParquetRow)]
struct FillOk {
    price: f64,
    qty: i64,
}

fn bind_rows() -> Vec<BindOk> {
    generate(13, 50, |r, i| BindOk {
        plain: i as i32,
        xs: r.vec(3, Rng::i32),
        ys: r.vec(3, |r| r.maybe(30, Rng::i32)),
        customer: r.maybe(30, |r| CustomerOk {
            name: r.word(),
            region: r.maybe(30, Rng::word),
        }),
        fills: r.maybe(30, |r| {
            r.vec(3, |r| FillOk {
                price: r.f64(),
                qty: r.i64(),
            })
        }),
        attrs: r
            .keys(&["a", "b", "c"].map(owned_str), 2)
            .into_iter()
            .map(|k| (k, r.i64()))
            .collect(),
    })
}

fn bind_file() -> Bytes {
    let rows = bind_rows();
    let shredded: Vec<Vec<Dyn>> = rows
        .iter()
        .map(|b| {
            vec![
                Dyn::I32(b.plain),
                list3(b.xs.iter().map(|v| Dyn::I32(*v))),
                list3(b.ys.iter().map(|v| opt(v, |v| Dyn::I32(*v)))),
                opt(&b.customer, |c| {
                    Dyn::Group(vec![s(&c.name), opt(&c.region, |r| s(r))])
                }),
                opt(&b.fills, |f| {
                    list3(
                        f.iter()
                            .map(|f| Dyn::Group(vec![Dyn::F64(f.price), Dyn::I64(f.qty)])),
                    )
                }),
                map(b.attrs.iter().map(|(k, v)| (s(k), Dyn::I64(*v)))),
            ]
        })
        .collect();
    write_nested(
        BIND_SCHEMA,
        WriterProperties::builder().build(),
        &[&shredded[..20], &shredded[20..]],
    )
}

/// The schema error `T` gets on the bind file, the same from every entry point.
fn schema_error<T: parquet_rows::OwnedRow>() -> SchemaError {
    let file = bind_file();
    let parquet = ParquetFile::from_bytes(file.clone()).expect("open");
    let results = [
        parquet.load::<T>().map(drop),
        parquet.row_groups::<T>().map(drop),
        parquet.read::<T>().map(drop),
        parquet_rows::from_bytes::<T>(file).map(drop),
    ];
    let mut first: Option<SchemaError> = None;
    for result in results {
        match result {
            Err(Error::Schema(e)) => match &first {
                Some(f) => assert_eq!(*f, e, "every entry point reports the same mismatches"),
                None => first = Some(e),
            },
            Err(other) => panic!("expected a schema error, got {other}"),
            Ok(()) => panic!("expected a schema error, the struct was bound"),
        }
    }
    first.expect("four results")
}

/// Whether `field` names the element of list `list`, or a field `rest` of
/// it: `fills.price` as the `Mismatch` docs write it, or `fills[].price` as
/// 2-level lists get it (`tags[]` is the element of `tags`).
fn is_element_path(field: &str, list: &str, rest: &str) -> bool {
    let dotted = if rest.is_empty() {
        list.to_owned()
    } else {
        format!("{list}.{rest}")
    };
    let bracketed = if rest.is_empty() {
        format!("{list}[]")
    } else {
        format!("{list}[].{rest}")
    };
    field == dotted || field == bracketed
}

/// The one mismatch of `T`: (field path, column path, full error text).
fn one_mismatch<T: parquet_rows::OwnedRow>() -> (String, String, String) {
    let e = schema_error::<T>();
    assert_eq!(e.mismatches.len(), 1, "{e}");
    let m = &e.mismatches[0];
    let text = e.to_string();
    assert!(text.contains(&m.to_string()), "{text}");
    (m.field.clone(), m.column.clone(), text)
}

#[test]
fn bind_control_struct_reads_the_bind_file() {
    let rows = bind_rows();
    let file = bind_file();
    let from_record = |row: &Row| BindOk {
        plain: req(int(get(row, "plain"))),
        xs: f_list(get(row, "xs")).iter().map(|v| req(int(v))).collect(),
        ys: f_list(get(row, "ys")).iter().map(int).collect(),
        customer: group(get(row, "customer")).map(|c| CustomerOk {
            name: req(string(get(c, "name"))),
            region: string(get(c, "region")),
        }),
        fills: list(get(row, "fills")).map(|l| {
            l.iter()
                .map(|f| {
                    let f = req(group(f));
                    FillOk {
                        price: req(double(get(f, "price"))),
                        qty: req(long(get(f, "qty"))),
                    }
                })
                .collect()
        }),
        attrs: req(entries(get(row, "attrs")))
            .iter()
            .map(|(k, v)| (req(string(k)), req(long(v))))
            .collect(),
    };
    same_rows(
        "bind file, record API",
        &record_api(&file, from_record),
        &rows,
    );
    check_owned("bind file", &file, &rows);
}

#[test]
fn bind_vec_on_a_required_primitive() {
    #[derive(ParquetRow)]
    #[allow(dead_code)] // only bound, never decoded
    struct S {
        plain: Vec<i32>,
    }
    let (field, column, _) = one_mismatch::<S>();
    assert_eq!(field, "plain");
    assert_eq!(column, "plain");
}

#[test]
fn bind_primitive_on_a_list() {
    #[derive(ParquetRow)]
    #[allow(dead_code)] // only bound, never decoded
    struct S {
        xs: i32,
    }
    let (field, column, text) = one_mismatch::<S>();
    assert_eq!(field, "xs");
    assert_eq!(column, "xs");
    assert!(text.contains("LIST"), "{text}");
}

#[test]
fn bind_struct_on_a_primitive() {
    #[derive(ParquetRow)]
    #[allow(dead_code)] // only bound, never decoded
    struct Inner {
        a: i32,
    }
    #[derive(ParquetRow)]
    #[allow(dead_code)] // only bound, never decoded
    struct S {
        plain: Inner,
    }
    let (field, column, _) = one_mismatch::<S>();
    assert_eq!(field, "plain");
    assert_eq!(column, "plain");
}

#[test]
fn bind_struct_elements_on_a_list_of_primitives() {
    #[derive(ParquetRow)]
    #[allow(dead_code)] // only bound, never decoded
    struct Inner {
        a: i32,
    }
    #[derive(ParquetRow)]
    #[allow(dead_code)] // only bound, never decoded
    struct S {
        xs: Vec<Inner>,
    }
    let (field, column, _) = one_mismatch::<S>();
    assert!(is_element_path(&field, "xs", ""), "{field}");
    assert_eq!(column, "xs.list.element");
}

#[test]
fn bind_misspelled_nested_field() {
    #[derive(ParquetRow)]
    #[allow(dead_code)] // only bound, never decoded
    struct CustomerTypo {
        nmae: String,
        region: Option<String>,
    }
    #[derive(ParquetRow)]
    #[allow(dead_code)] // only bound, never decoded
    struct S {
        customer: Option<CustomerTypo>,
    }
    let (field, column, text) = one_mismatch::<S>();
    assert_eq!(field, "customer.nmae");
    assert_eq!(column, "customer.nmae");
    assert!(text.contains("nmae"), "{text}");
}

#[test]
fn bind_wrong_leaf_type_inside_a_list_of_structs() {
    #[derive(ParquetRow)]
    #[allow(dead_code)] // only bound, never decoded
    struct FillBad {
        price: i64,
        qty: i64,
    }
    #[derive(ParquetRow)]
    #[allow(dead_code)] // only bound, never decoded
    struct S {
        fills: Option<Vec<FillBad>>,
    }
    let (field, column, text) = one_mismatch::<S>();
    assert!(is_element_path(&field, "fills", "price"), "{field}");
    assert_eq!(column, "fills.list.element.price");
    assert!(text.contains("DOUBLE"), "{text}");
}

#[test]
fn bind_required_struct_on_an_optional_group() {
    #[derive(ParquetRow)]
    #[allow(dead_code)] // only bound, never decoded
    struct S {
        customer: CustomerOk,
    }
    let (field, column, text) = one_mismatch::<S>();
    assert_eq!(field, "customer");
    assert_eq!(column, "customer");
    assert!(text.contains("OPTIONAL"), "{text}");
}

#[test]
fn bind_non_option_elements_on_nullable_elements() {
    #[derive(ParquetRow)]
    #[allow(dead_code)] // only bound, never decoded
    struct S {
        ys: Vec<i32>,
    }
    let (field, column, text) = one_mismatch::<S>();
    assert!(is_element_path(&field, "ys", ""), "{field}");
    assert_eq!(column, "ys.list.element");
    assert!(text.contains("OPTIONAL"), "{text}");
}

#[test]
fn bind_wrong_map_key_type() {
    #[derive(ParquetRow)]
    #[allow(dead_code)] // only bound, never decoded
    struct S {
        attrs: HashMap<i32, i64>,
    }
    let (field, column, _) = one_mismatch::<S>();
    assert!(field == "attrs.key" || field == "attrs", "{field}");
    assert_eq!(column, "attrs.key_value.key");
}

#[test]
fn bind_every_nested_mismatch_in_one_error() {
    #[derive(ParquetRow)]
    #[allow(dead_code)] // only bound, never decoded
    struct FillBad {
        price: i64,
        qty: i64,
    }
    #[derive(ParquetRow)]
    #[allow(dead_code)] // only bound, never decoded
    struct CustomerTypo {
        nmae: String,
    }
    #[derive(ParquetRow)]
    #[allow(dead_code)] // only bound, never decoded
    struct S {
        plain: Vec<i32>,
        xs: i32,
        ys: Vec<Option<i32>>, // matches
        fills: Option<Vec<FillBad>>,
        customer: Option<CustomerTypo>,
    }
    let e = schema_error::<S>();
    let fields: Vec<String> = e.mismatches.iter().map(|m| m.field.clone()).collect();
    assert_eq!(fields.len(), 4, "{e}");
    assert_eq!(fields[..2], ["plain", "xs"], "{e}");
    assert!(is_element_path(&fields[2], "fills", "price"), "{e}");
    assert_eq!(fields[3], "customer.nmae", "{e}");
    let columns: Vec<&str> = e.mismatches.iter().map(|m| m.column.as_str()).collect();
    assert_eq!(
        columns,
        ["plain", "xs", "fills.list.element.price", "customer.nmae"],
        "{e}"
    );
    // One line per mismatch after the header.
    let text = e.to_string();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 1 + e.mismatches.len(), "{text}");
    for (line, m) in lines[1..].iter().zip(&e.mismatches) {
        assert!(line.contains(m.column.as_str()), "{line}");
    }
}

// ---------------------------------------------------------------------------
// Corrupt files: Err, never a panic or a hang
// ---------------------------------------------------------------------------

fn quiet_panics_in_quiet_threads() {
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

/// What decoding a file gave: `Ok(rows)` / `Err(text)`, or the panic message.
type Outcome = std::result::Result<std::result::Result<usize, String>, String>;

/// Runs `decode` on every case on a thread named `quiet-<name>` (panics
/// caught, and kept out of the test output), failing if the batch hangs.
fn run_cases(
    name: &str,
    cases: Vec<(String, Bytes)>,
    decode: fn(Bytes) -> std::result::Result<usize, String>,
) -> Vec<(String, Outcome)> {
    quiet_panics_in_quiet_threads();
    let (tx, rx) = mpsc::channel();
    std::thread::Builder::new()
        .name(format!("quiet-{name}"))
        .spawn(move || {
            let outcomes: Vec<(String, Outcome)> = cases
                .into_iter()
                .map(|(label, bytes)| {
                    let outcome = catch_unwind(AssertUnwindSafe(|| decode(bytes)))
                        .map_err(|p| panic_message(p.as_ref()));
                    (label, outcome)
                })
                .collect();
            tx.send(outcomes).expect("send outcomes");
        })
        .expect("spawn");
    // Not a performance assertion: only a decoder stuck in a loop gets near it.
    #[allow(clippy::duration_suboptimal_units)]
    // `Duration::from_mins` needs Rust 1.91; the workspace supports 1.85
    let limit = Duration::from_secs(5 * 60);
    rx.recv_timeout(limit)
        .unwrap_or_else(|_| panic!("{name}: no result after 5 minutes: decoding hangs or died"))
}

/// Decodes trades owned (`from_bytes`) and borrowed (`load` + `rows`).
fn decode_trades(bytes: Bytes) -> std::result::Result<usize, String> {
    let owned: Vec<Trade> = parquet_rows::from_bytes(bytes.clone()).map_err(|e| e.to_string())?;
    let file = ParquetFile::from_bytes(bytes).map_err(|e| e.to_string())?;
    let pages = file.load::<TradeRef>().map_err(|e| e.to_string())?;
    let borrowed: Vec<TradeRef<'_>> = pages.rows().map_err(|e| e.to_string())?;
    Ok(owned.len() + borrowed.len())
}

/// Decodes matrices owned (`from_bytes`) and borrowed (`load` + `rows`).
fn decode_matrices(bytes: Bytes) -> std::result::Result<usize, String> {
    let owned: Vec<Matrices> =
        parquet_rows::from_bytes(bytes.clone()).map_err(|e| e.to_string())?;
    let file = ParquetFile::from_bytes(bytes).map_err(|e| e.to_string())?;
    let pages = file.load::<MatricesRef>().map_err(|e| e.to_string())?;
    let borrowed: Vec<MatricesRef<'_>> = pages.rows().map_err(|e| e.to_string())?;
    Ok(owned.len() + borrowed.len())
}

/// The byte range of the pages: after the magic, before the footer.
fn page_region(file: &Bytes) -> Range<usize> {
    let n = file.len();
    let footer = u32::from_le_bytes(file[n - 8..n - 4].try_into().expect("4 bytes")) as usize;
    4..n - 8 - footer
}

/// Each of about `per_file` offsets of the page region of every file set to
/// 0x00, to 0xff and xor-ed with 0x55, in turn.
fn corruptions(files: &[(String, Bytes)], per_file: usize) -> Vec<(String, Bytes)> {
    let mut cases = Vec::new();
    for (what, file) in files {
        let region = page_region(file);
        let step = (region.len() / per_file).max(1);
        for offset in region.step_by(step) {
            for how in 0..3 {
                let mut bytes = file.to_vec();
                let before = bytes[offset];
                bytes[offset] = match how {
                    0 => 0x00,
                    1 => 0xff,
                    _ => before ^ 0x55,
                };
                let label = format!(
                    "{what}: byte {offset} {before:#04x} -> {:#04x}",
                    bytes[offset]
                );
                cases.push((label, Bytes::from(bytes)));
            }
        }
    }
    cases
}

#[test]
fn corrupt_nested_pages_never_panic() {
    let trades: Vec<Vec<Dyn>> = gen_trades(14, 300).iter().map(trade_dyn).collect();
    let matrices: Vec<Vec<Dyn>> = gen_matrices(15, 300).iter().map(matrices_dyn).collect();
    // Variants 0 (v1, dictionary), 1 (v1, snappy), 3 (v2, plain), 4 (v2, delta).
    let pick = |files: Vec<(String, Bytes)>, which: [usize; 2]| -> Vec<(String, Bytes)> {
        files
            .into_iter()
            .enumerate()
            .filter(|(i, _)| which.contains(i))
            .map(|(_, f)| f)
            .collect()
    };
    let mut trade_files = pick(files(TRADES_SCHEMA, &trades), [0, 4]);
    trade_files.push((
        "hand-written pages".into(),
        write_hand_paged(TRADES_SCHEMA, &[&trades], 7, |_, _| {}),
    ));
    let matrix_files = pick(files(MATRICES_SCHEMA, &matrices), [1, 3]);
    let trade_cases = corruptions(&trade_files, 150);
    let matrix_cases = corruptions(&matrix_files, 150);
    assert!(trade_cases.len() > 1200 && matrix_cases.len() > 800);
    let mut outcomes = run_cases("nested-trades", trade_cases, decode_trades);
    outcomes.extend(run_cases("nested-matrices", matrix_cases, decode_matrices));
    let panics: Vec<String> = outcomes
        .iter()
        .filter_map(|(label, o)| o.as_ref().err().map(|p| format!("{label}: {p}")))
        .collect();
    let errors = outcomes
        .iter()
        .filter(|(_, o)| matches!(o, Ok(Err(_))))
        .count();
    assert!(
        panics.is_empty(),
        "{} of {} corrupt files panicked (first 10):\n{}",
        panics.len(),
        outcomes.len(),
        panics[..panics.len().min(10)].join("\n")
    );
    // Most flips land in values (any value is valid); enough must hit
    // headers and levels to show the corruption was noticed at all.
    assert!(errors > 0, "no corrupt file gave an error");
}

/// A change to one leaf column (its index) before it is encoded.
type Tamper = Box<dyn Fn(usize, &mut Shredded)>;

/// Levels no valid file holds, written into hand-encoded pages: each must
/// give `Err` (not rows, not a panic).
#[test]
fn invalid_levels_are_errors() {
    let rows: Vec<Vec<Dyn>> = gen_trades(16, 200).iter().map(trade_dyn).collect();
    // Leaf columns of TRADES_SCHEMA: 0 id, 1 px, 2 qty, 3 venue, 4 marks,
    // 5 fee.amount, 6 fee.currency, 7 legs.n, 8 legs.side.
    let descr = SchemaDescriptor::new(Arc::new(parse_message_type(TRADES_SCHEMA).expect("schema")));
    let levels = |c: usize| {
        let c = descr.column(c);
        (c.max_def_level(), c.max_rep_level())
    };
    assert_eq!(levels(1), (2, 1), "px");
    assert_eq!(levels(2), (2, 1), "qty");
    assert_eq!(levels(4), (4, 2), "marks");
    let first_with = |col: &Shredded, def: i16| {
        col.def
            .iter()
            .position(|&d| d == def)
            .expect("a level with that definition")
    };
    let cases: Vec<(&str, Tamper)> = vec![
        (
            "repetition level above the maximum",
            Box::new(|c, col: &mut Shredded| {
                if c == 1 {
                    let i = col.rep.iter().position(|&r| r == 1).expect("a list");
                    col.rep[i] = 3;
                }
            }),
        ),
        (
            "definition level above the maximum",
            Box::new(move |c, col: &mut Shredded| {
                if c == 4 {
                    let i = first_with(col, 4);
                    col.def[i] = 7;
                }
            }),
        ),
        (
            "column chunk starting inside a list",
            Box::new(|c, col: &mut Shredded| {
                if c == 1 {
                    col.rep[0] = 1;
                }
            }),
        ),
        (
            "fewer values than the definition levels say",
            Box::new(|c, col: &mut Shredded| {
                if c == 3 {
                    col.values.pop();
                }
            }),
        ),
        (
            "sibling columns of one struct disagree on a list's length",
            Box::new(move |c, col: &mut Shredded| {
                if c == 2 {
                    // One more `qty` than `px` in the first non-empty list of fills.
                    let i = first_with(col, 2);
                    col.def.insert(i + 1, 2);
                    col.rep.insert(i + 1, 1);
                    col.values.insert(0, Dyn::I64(42));
                }
            }),
        ),
    ];
    let mut files = Vec::new();
    for (what, tamper) in &cases {
        for cut in [3, 1000] {
            let file = write_hand_paged(TRADES_SCHEMA, &[&rows], cut, |c, col| tamper(c, col));
            files.push((format!("{what}, pages of {cut} levels"), file));
        }
    }
    assert_eq!(files.len(), 10);
    let outcomes = run_cases("nested-levels", files, decode_trades);
    let wrong: Vec<String> = outcomes
        .iter()
        .filter_map(|(label, o)| match o {
            Ok(Err(_)) => None,
            Ok(Ok(n)) => Some(format!("{label}: Ok ({n} rows)")),
            Err(p) => Some(format!("{label}: panic: {p}")),
        })
        .collect();
    assert!(wrong.is_empty(), "expected Err:\n{}", wrong.join("\n"));
}

/// `qty`, a sibling of `px` in the struct of the `fills` list, with a column
/// chunk that starts inside a list: its repetition levels repeat those of
/// `px`, so a reader that takes the list's shape from `px` may ignore them,
/// but then the rows must be exact.
#[test]
fn sibling_column_starting_inside_a_list_is_err_or_exact() {
    let trades = gen_trades(16, 200);
    let rows: Vec<Vec<Dyn>> = trades.iter().map(trade_dyn).collect();
    let file = write_hand_paged(TRADES_SCHEMA, &[&rows], 3, |c, col| {
        if c == 2 {
            col.rep[0] = 1;
        }
    });
    quiet_panics_in_quiet_threads();
    let outcome = std::thread::Builder::new()
        .name("quiet-nested-sibling".into())
        .spawn(move || parquet_rows::from_bytes::<Trade>(file))
        .expect("spawn")
        .join();
    match outcome {
        Err(p) => panic!(
            "sibling starting inside a list: panic: {}",
            panic_message(p.as_ref())
        ),
        Ok(Err(_)) => {}
        Ok(Ok(got)) => same_rows("sibling starting inside a list", &got, &trades),
    }
}
