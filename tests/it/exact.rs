//! Pruning never loses a row: for every (field type, column type) pair the
//! binding accepts for a field that filters, and every pruning stage
//! (row-group statistics, dictionary, bloom filter, column index), filtered
//! reads on every path equal the full read filtered row by row. Values sit
//! at the boundaries of both types (2^31, 2^32, `i64::MIN`, `u64::MAX`,
//! `-0.0`, NaN, the empty string), where a value of the field's type and the
//! column's stored value do not map one to one.
//!
//! The pairs come from the rule table itself (`FieldKind::reads` over a
//! list of column declarations), so a widening added there is tested here
//! or this test fails.

use std::sync::Arc;

use bytes::Bytes;
use object_store::memory::InMemory;
use object_store::path::Path;
use object_store::{ObjectStore, ObjectStoreExt};
use parquet::file::properties::{EnabledStatistics, WriterProperties, WriterVersion};
use parquet_rows::remote::RemoteFile;
use parquet_rows::{Column, Cond, FilterValue, ParquetFile, ParquetRow, RowFilter};
use parquet_rows_rules::{Column as RuleColumn, FieldKind, Physical, TimeUnit};
use parquet_rows_suite::rng::Rng;
use parquet_rows_suite::{write_columns, ColumnValues};

use crate::filter::same;

/// Every column a scalar field may read, and some none reads (to check
/// that the table of pairs below is what the rules say).
const DECLARATIONS: &[&str] = &[
    "BOOLEAN v",
    "INT32 v",
    "INT32 v (INTEGER(8, true))",
    "INT32 v (INTEGER(16, true))",
    "INT32 v (INTEGER(32, true))",
    "INT32 v (INTEGER(8, false))",
    "INT32 v (INTEGER(16, false))",
    "INT32 v (INTEGER(32, false))",
    "INT32 v (INT_8)",
    "INT32 v (INT_16)",
    "INT32 v (UINT_8)",
    "INT32 v (UINT_16)",
    "INT32 v (UINT_32)",
    "INT32 v (DATE)",
    "INT32 v (TIME(MILLIS, true))",
    "INT32 v (TIME_MILLIS)",
    "INT32 v (DECIMAL(9, 2))",
    "INT64 v",
    "INT64 v (INTEGER(64, true))",
    "INT64 v (INTEGER(64, false))",
    "INT64 v (INT_64)",
    "INT64 v (UINT_64)",
    "INT64 v (TIME(MICROS, false))",
    "INT64 v (TIME(NANOS, true))",
    "INT64 v (TIME_MICROS)",
    "INT64 v (TIMESTAMP(MILLIS, true))",
    "INT64 v (TIMESTAMP(MICROS, false))",
    "INT64 v (TIMESTAMP(NANOS, true))",
    "INT64 v (TIMESTAMP_MICROS)",
    "FLOAT v",
    "DOUBLE v",
    "BINARY v (UTF8)",
    "BINARY v (STRING)",
    "BINARY v (ENUM)",
    "BINARY v (JSON)",
    "BINARY v",
    "FIXED_LEN_BYTE_ARRAY (4) v",
];

/// The field kinds that have predicates, with the module testing each.
const FILTERABLE: &[FieldKind] = &[
    FieldKind::Bool,
    FieldKind::I8,
    FieldKind::I16,
    FieldKind::I32,
    FieldKind::I64,
    FieldKind::U8,
    FieldKind::U16,
    FieldKind::U32,
    FieldKind::U64,
    FieldKind::F32,
    FieldKind::F64,
    FieldKind::Str,
    FieldKind::String,
    FieldKind::BoxStr,
    FieldKind::ArcStr,
];

/// The values a column holds, as the column's logical values.
#[derive(Debug, Clone, Copy)]
enum Domain {
    Bool,
    /// Integers in `lo..=hi`, stored in INT64 (else INT32); an unsigned
    /// column stores the bits of the unsigned value.
    Int {
        lo: i128,
        hi: i128,
        int64: bool,
        /// An INT32 column annotated INT(8|16, _): some values are stored
        /// out of the annotation's range (Drill's `UINT_8` 255 as -1, 44 as
        /// 300), and read from their low bits.
        narrow: Option<u8>,
    },
    Float,
    Double,
    Str,
}

fn domain(c: &RuleColumn) -> Domain {
    let int64 = c.physical == Physical::Int64;
    let (lo, hi) = match c.physical {
        Physical::Boolean => return Domain::Bool,
        Physical::Float => return Domain::Float,
        Physical::Double => return Domain::Double,
        Physical::ByteArray => return Domain::Str,
        _ => match (c.integer(), c.time_unit()) {
            (Some((bits, true)), _) => (-(1i128 << (bits - 1)), (1i128 << (bits - 1)) - 1),
            (Some((bits, false)), _) => (0, (1i128 << bits) - 1),
            (None, Some(unit)) => {
                let per_second: i128 = match unit {
                    TimeUnit::Millis => 1_000,
                    TimeUnit::Micros => 1_000_000,
                    TimeUnit::Nanos => 1_000_000_000,
                };
                (0, 86_400 * per_second - 1)
            }
            (None, None) if int64 => (i128::from(i64::MIN), i128::from(i64::MAX)),
            (None, None) => (i128::from(i32::MIN), i128::from(i32::MAX)),
        },
    };
    Domain::Int {
        lo,
        hi,
        int64,
        narrow: c.narrow_int32().map(|(bits, _)| bits),
    }
}

/// Integers where a field's type and a column's type part ways.
fn int_boundaries() -> Vec<i128> {
    let mut out = vec![
        0,
        1,
        -1,
        2,
        127,
        128,
        -128,
        -129,
        255,
        256,
        32_767,
        32_768,
        -32_768,
        65_535,
        65_536,
        (1 << 31) - 1,
        1 << 31,
        2_147_583_648, // pyarrow's `uint32` that an `i64` field lost
        -(1 << 31),
        -(1 << 31) - 1,
        (1 << 32) - 1,
        1 << 32,
        i128::from(i64::MAX),
        i128::from(i64::MIN),
        i128::from(i64::MIN) + 1,
        1 << 63,
        i128::from(u64::MAX),
        86_399_999,
    ];
    out.extend(out.clone().iter().map(|v| v + 1));
    out
}

const FLOATS: &[f64] = &[
    0.0,
    -0.0,
    f64::NAN,
    f64::INFINITY,
    f64::NEG_INFINITY,
    1.5,
    -2.25,
    0.1,
    3.0e38,
    -3.5e38,
    1.0e-40,
    f64::MAX,
    f64::MIN,
    f64::MIN_POSITIVE,
];

const WORDS: &[&str] = &[
    "",
    "a",
    "a\0",
    "aa",
    "b",
    "é",
    "日本",
    "zz",
    "\u{10FFFF}",
    "EURUSD",
];

/// Moves some values of a column annotated INT(8|16, _) of `narrow` bits
/// to other stored values that read as the same value: a whole number of
/// 2^bits away (Drill's `UINT_8` 255 as -1), which may also break the sort
/// order the statistics see.
fn displace(rng: &mut Rng, values: &mut [Option<i128>], narrow: Option<u8>) {
    let Some(bits) = narrow else { return };
    for v in values.iter_mut().flatten() {
        if rng.chance(15) {
            let away = if rng.chance(50) { -1 } else { 1 } * (1i128 << bits);
            let moved = *v + away;
            if i32::try_from(moved).is_ok() {
                *v = moved;
            }
        }
    }
}

/// A column of `rows` random values of `domain`, nulls included, sorted by
/// value when `sorted` (nulls first), as the writer takes it.
fn column_values(rng: &mut Rng, d: Domain, rows: usize, sorted: bool) -> ColumnValues {
    fn finish<T: PartialOrd>(mut v: Vec<Option<T>>, sorted: bool) -> Vec<Option<T>> {
        // NaNs last among values: a total order, as `sort_by` requires.
        let key = |x: &Option<T>| match x {
            None => 0,
            Some(x) if x.partial_cmp(x).is_none() => 2,
            Some(_) => 1,
        };
        if sorted {
            v.sort_by(|a, b| {
                key(a)
                    .cmp(&key(b))
                    .then_with(|| a.partial_cmp(b).unwrap_or(std::cmp::Ordering::Equal))
            });
        }
        v
    }
    match d {
        Domain::Bool => ColumnValues::Bool(finish(
            (0..rows).map(|_| rng.maybe(90, |r| r.chance(30))).collect(),
            sorted,
        )),
        Domain::Int {
            lo,
            hi,
            int64,
            narrow,
        } => {
            let edges: Vec<i128> = int_boundaries()
                .into_iter()
                .chain([lo, hi, lo + 1, hi - 1])
                .filter(|v| (lo..=hi).contains(v))
                .collect();
            let span = (hi - lo + 1) as u128;
            let value = |r: &mut Rng| {
                if r.chance(40) {
                    edges[r.below(edges.len())]
                } else if r.chance(50) {
                    // Near zero, where most data is.
                    (i128::from(r.next_u64() % 1000) - 100).clamp(lo, hi)
                } else {
                    let wide = u128::from(r.next_u64()) << 64 | u128::from(r.next_u64());
                    lo + (wide % span) as i128
                }
            };
            let mut values: Vec<Option<i128>> =
                finish((0..rows).map(|_| rng.maybe(90, value)).collect(), sorted);
            displace(rng, &mut values, narrow);
            // Stored as the column's physical type: unsigned values as
            // their bits.
            if int64 {
                ColumnValues::Int64(
                    values
                        .iter()
                        .map(|v| v.map(|v| i64::try_from(v).unwrap_or(v as u64 as i64)))
                        .collect(),
                )
            } else {
                ColumnValues::Int32(
                    values
                        .iter()
                        .map(|v| v.map(|v| i32::try_from(v).unwrap_or(v as u32 as i32)))
                        .collect(),
                )
            }
        }
        Domain::Float | Domain::Double => {
            let value = |r: &mut Rng| {
                if r.chance(40) {
                    FLOATS[r.below(FLOATS.len())]
                } else {
                    f64::from(u32::try_from(r.below(4000)).unwrap()) / 8.0 - 100.0
                }
            };
            let values = finish((0..rows).map(|_| rng.maybe(90, value)).collect(), sorted);
            if matches!(d, Domain::Float) {
                ColumnValues::Float(values.iter().map(|v| v.map(|v| v as f32)).collect())
            } else {
                ColumnValues::Double(values)
            }
        }
        Domain::Str => {
            let values = (0..rows)
                .map(|_| {
                    rng.maybe(90, |r| {
                        if r.chance(50) {
                            WORDS[r.below(WORDS.len())].to_owned()
                        } else {
                            r.word()
                        }
                    })
                })
                .collect();
            ColumnValues::Bytes(
                finish(values, sorted)
                    .into_iter()
                    .map(|v| v.map(String::into_bytes))
                    .collect(),
            )
        }
    }
}

/// How a file is written: each layout leaves one or more pruning stages on.
#[derive(Debug, Clone, Copy)]
struct Layout {
    stats: EnabledStatistics,
    dictionary: bool,
    bloom: bool,
    version: WriterVersion,
}

const LAYOUTS: [Layout; 6] = [
    // Every stage.
    Layout {
        stats: EnabledStatistics::Page,
        dictionary: true,
        bloom: true,
        version: WriterVersion::PARQUET_1_0,
    },
    // Row-group statistics alone.
    Layout {
        stats: EnabledStatistics::Chunk,
        dictionary: false,
        bloom: false,
        version: WriterVersion::PARQUET_1_0,
    },
    // The dictionary alone.
    Layout {
        stats: EnabledStatistics::None,
        dictionary: true,
        bloom: false,
        version: WriterVersion::PARQUET_2_0,
    },
    // The bloom filter alone.
    Layout {
        stats: EnabledStatistics::None,
        dictionary: false,
        bloom: true,
        version: WriterVersion::PARQUET_1_0,
    },
    // Statistics and the column index, plain pages.
    Layout {
        stats: EnabledStatistics::Page,
        dictionary: false,
        bloom: false,
        version: WriterVersion::PARQUET_2_0,
    },
    // Every stage, v2 pages.
    Layout {
        stats: EnabledStatistics::Page,
        dictionary: true,
        bloom: true,
        version: WriterVersion::PARQUET_2_0,
    },
];

const GROUPS: usize = 3;
const GROUP_ROWS: usize = 96;
const PAGE_ROWS: usize = 16;
/// Predicates per file and field type.
const QUERIES: usize = 16;

fn write(declaration: &str, layout: Layout, groups: &[Vec<ColumnValues>]) -> Bytes {
    let props = WriterProperties::builder()
        .set_statistics_enabled(layout.stats)
        .set_dictionary_enabled(layout.dictionary)
        .set_bloom_filter_enabled(layout.bloom)
        .set_writer_version(layout.version)
        .set_data_page_row_count_limit(PAGE_ROWS)
        .set_write_batch_size(PAGE_ROWS)
        .build();
    write_columns(
        &format!("message m {{ OPTIONAL {declaration}; REQUIRED INT32 id; }}"),
        props,
        groups,
    )
    .unwrap()
}

/// A predicate, as data: applied to the typed filter and, by a naive
/// reference, to the rows of the full read.
#[derive(Debug, Clone)]
enum Pred<T> {
    Eq(T),
    Ne(T),
    Lt(T),
    Le(T),
    Gt(T),
    Ge(T),
    Range(T, T),
    Between(T, T),
    /// `is_in`.
    In(Vec<T>),
    /// `not()` then the inner predicate (a simple one).
    Not(Box<Pred<T>>),
    /// `any_of` two simple predicates.
    Or(Box<Pred<T>>, Box<Pred<T>>),
}

impl<T: PartialOrd> Pred<T> {
    fn matches(&self, v: Option<&T>) -> bool {
        match self {
            // A negated test lets through what the test does not, nulls included.
            Pred::Not(p) => return !p.matches(v),
            Pred::Or(a, b) => return a.matches(v) || b.matches(v),
            _ => {}
        }
        let Some(v) = v else { return false };
        match self {
            Pred::Eq(x) => v == x,
            Pred::Ne(x) => v != x,
            Pred::Lt(x) => v < x,
            Pred::Le(x) => v <= x,
            Pred::Gt(x) => v > x,
            Pred::Ge(x) => v >= x,
            Pred::Range(a, b) => a <= v && v < b,
            Pred::Between(a, b) => a <= v && v <= b,
            Pred::In(xs) => xs.iter().any(|x| v == x),
            Pred::Not(_) | Pred::Or(..) => unreachable!(),
        }
    }
}

impl<T> Pred<T> {
    /// The same predicate on `f` of the values (a reference order).
    fn map<K>(&self, f: &impl Fn(&T) -> K) -> Pred<K> {
        match self {
            Pred::Eq(x) => Pred::Eq(f(x)),
            Pred::Ne(x) => Pred::Ne(f(x)),
            Pred::Lt(x) => Pred::Lt(f(x)),
            Pred::Le(x) => Pred::Le(f(x)),
            Pred::Gt(x) => Pred::Gt(f(x)),
            Pred::Ge(x) => Pred::Ge(f(x)),
            Pred::Range(a, b) => Pred::Range(f(a), f(b)),
            Pred::Between(a, b) => Pred::Between(f(a), f(b)),
            Pred::In(xs) => Pred::In(xs.iter().map(f).collect()),
            Pred::Not(p) => Pred::Not(Box::new(p.map(f))),
            Pred::Or(a, b) => Pred::Or(Box::new(a.map(f)), Box::new(b.map(f))),
        }
    }
}

/// `p` as a [`Cond`], for `any_of`.
fn cond<V: FilterValue + Clone>(p: &Pred<V>) -> Cond<V> {
    match p.clone() {
        Pred::Eq(x) => Cond::eq(x),
        Pred::Ne(x) => Cond::ne(x),
        Pred::Lt(x) => Cond::lt(x),
        Pred::Le(x) => Cond::le(x),
        Pred::Gt(x) => Cond::gt(x),
        Pred::Ge(x) => Cond::ge(x),
        Pred::Range(a, b) => Cond::in_range(a..b),
        Pred::Between(a, b) => Cond::between(a, b),
        Pred::In(xs) => Cond::is_in(xs),
        Pred::Not(p) => !cond(&p),
        Pred::Or(a, b) => cond(&a).or(cond(&b)),
    }
}

/// `p` on the field of `column`.
fn apply<F: RowFilter, V: FilterValue + Clone>(column: Column<F, V>, p: &Pred<V>) -> F {
    match p.clone() {
        Pred::Eq(x) => column.eq(x),
        Pred::Ne(x) => column.ne(x),
        Pred::Lt(x) => column.lt(x),
        Pred::Le(x) => column.le(x),
        Pred::Gt(x) => column.gt(x),
        Pred::Ge(x) => column.ge(x),
        Pred::Range(a, b) => column.in_range(a..b),
        Pred::Between(a, b) => column.between(a, b),
        Pred::In(xs) => column.is_in(xs),
        Pred::Not(p) => apply(column.not(), &p),
        Pred::Or(a, b) => column.any_of([cond(&a), cond(&b)]),
    }
}

/// `n` predicates on values of `candidates` (edges) or, half the time,
/// of `present` (values in the file: an equality that should find rows);
/// a fifth of them `is_in`, `not` or `any_of`.
fn preds<T: Clone>(rng: &mut Rng, candidates: &[T], present: &[T], n: usize) -> Vec<Pred<T>> {
    let pick = |rng: &mut Rng| {
        if present.is_empty() || rng.chance(50) {
            candidates[rng.below(candidates.len())].clone()
        } else {
            present[rng.below(present.len())].clone()
        }
    };
    let simple = |rng: &mut Rng| {
        let v = pick(rng);
        let w = pick(rng);
        match rng.below(8) {
            0 | 1 => Pred::Eq(v),
            2 => Pred::Ne(v),
            3 => Pred::Lt(v),
            4 => Pred::Le(v),
            5 => Pred::Gt(v),
            6 => Pred::Ge(v),
            _ if rng.chance(50) => Pred::Range(v, w),
            _ => Pred::Between(v, w),
        }
    };
    (0..n)
        .map(|_| match rng.below(15) {
            0 => Pred::In((0..rng.below(4)).map(|_| pick(rng)).collect()),
            1 => Pred::Not(Box::new(simple(rng))),
            2 => Pred::Or(Box::new(simple(rng)), Box::new(simple(rng))),
            _ => simple(rng),
        })
        .collect()
}

/// The values a field of type `Self` is compared with on a column of
/// `domain`: its own type's edges and the column's.
trait Candidates: Sized + Clone + PartialOrd + std::fmt::Debug {
    fn candidates(domain: Domain) -> Vec<Self>;
}

macro_rules! int_candidates {
    ($($t:ty),*) => {$(
        impl Candidates for $t {
            fn candidates(domain: Domain) -> Vec<Self> {
                let mut all = int_boundaries();
                all.extend([i128::from(<$t>::MIN), i128::from(<$t>::MAX)]);
                if let Domain::Int { lo, hi, .. } = domain {
                    all.extend([lo - 1, lo, hi, hi + 1]);
                }
                all.into_iter().filter_map(|v| <$t>::try_from(v).ok()).collect()
            }
        }
    )*};
}
int_candidates!(i8, i16, i32, i64, u8, u16, u32, u64);

impl Candidates for f32 {
    fn candidates(_: Domain) -> Vec<Self> {
        let mut out: Vec<f32> = FLOATS.iter().map(|&v| v as f32).collect();
        out.extend([f32::MAX, f32::MIN, -1.0e-45]);
        out
    }
}

impl Candidates for f64 {
    fn candidates(_: Domain) -> Vec<Self> {
        // Values an f32 column cannot hold exactly, next to ones it can.
        let mut out: Vec<f64> = FLOATS.to_vec();
        out.extend(FLOATS.iter().map(|&v| f64::from(v as f32)));
        out.extend([f64::from(f32::MAX), f64::from(f32::MAX) * 2.0]);
        out
    }
}

impl Candidates for bool {
    fn candidates(_: Domain) -> Vec<Self> {
        vec![false, true]
    }
}

impl Candidates for String {
    fn candidates(_: Domain) -> Vec<Self> {
        WORDS.iter().map(|&w| w.to_owned()).collect()
    }
}

/// Counts of what the checks did.
#[derive(Debug, Default)]
struct Tally {
    queries: usize,
    /// Per layout: borrowed loads that held fewer rows than the file.
    pruned: [usize; LAYOUTS.len()],
}

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread()
        .build()
        .unwrap()
}

/// A file on an `InMemory` store.
fn remote(bytes: &Bytes) -> RemoteFile {
    let store: Arc<dyn ObjectStore> = Arc::new(InMemory::new());
    let location = Path::from("v.parquet");
    runtime()
        .block_on(store.put(&location, bytes.clone().into()))
        .unwrap();
    RemoteFile::open_blocking(store, location).unwrap()
}

/// For each field type: a struct reading column `v` into `Option<$t>`, and
/// the check of every filtered path against the full read.
macro_rules! field_types {
    ($($kind:ident => $m:ident: $t:ty as $value:ty, $probe:expr;)*) => {
        $(
            mod $m {
                use super::*;

                #[derive(ParquetRow, Debug, Clone, PartialEq)]
                pub(super) struct R {
                    pub(super) v: Option<$t>,
                    pub(super) id: i32,
                }

                pub(super) fn check(
                    rng: &mut Rng,
                    bytes: &Bytes,
                    domain: Domain,
                    layout: usize,
                    tally: &mut Tally,
                    context: &str,
                ) {
                    let probe: fn(&$t) -> $value = $probe;
                    let file = ParquetFile::from_bytes(bytes.clone()).unwrap();
                    let full: Vec<R> = file.rows().collect().unwrap();
                    assert_eq!(full.len(), GROUPS * GROUP_ROWS, "{context}");
                    let present: Vec<$value> =
                        full.iter().filter_map(|r| r.v.as_ref().map(probe)).collect();
                    let candidates = <$value as Candidates>::candidates(domain);
                    let remote = remote(bytes);
                    for p in preds(rng, &candidates, &present, QUERIES) {
                        let context = format!("{context} {p:?}");
                        let want: Vec<&R> = full
                            .iter()
                            .filter(|r| p.matches(r.v.as_ref().map(probe).as_ref()))
                            .collect();
                        let filter = apply(R::filter().v(), &p);
                        let got: Vec<R> = file.rows().filter(filter.clone()).collect().unwrap();
                        same(&got.iter().collect::<Vec<_>>(), &want, &format!("read_where: {context}"));
                        let streamed: Vec<R> = file
                            .rows::<R>().filter(filter.clone()).stream()
                            .unwrap()
                            .collect::<parquet_rows::Result<_>>()
                            .unwrap();
                        same(&streamed, &got, &format!("stream_where: {context}"));
                        let parallel: Vec<R> = file.rows().filter(filter.clone()).threads(0).collect().unwrap();
                        same(&parallel, &got, &format!("par_read_where: {context}"));
                        let pages = file.rows::<R>().filter(filter.clone()).load().unwrap();
                        if pages.num_rows() < full.len() {
                            tally.pruned[layout] += 1;
                        }
                        let loaded: Vec<R> = pages.rows().unwrap();
                        same(&loaded, &got, &format!("load_where: {context}"));
                        let far: Vec<R> = remote.rows().filter(filter).collect_blocking().unwrap();
                        same(&far, &got, &format!("remote read_where: {context}"));
                        tally.queries += 1;
                    }
                }
            }
        )*

        fn check(
            kind: FieldKind,
            rng: &mut Rng,
            bytes: &Bytes,
            domain: Domain,
            layout: usize,
            tally: &mut Tally,
            context: &str,
        ) {
            match kind {
                $(FieldKind::$kind => $m::check(rng, bytes, domain, layout, tally, context),)*
                _ => panic!("no test for {kind:?}"),
            }
        }
    };
}

field_types! {
    Bool => bool_field: bool as bool, |v| *v;
    I8 => i8_field: i8 as i8, |v| *v;
    I16 => i16_field: i16 as i16, |v| *v;
    I32 => i32_field: i32 as i32, |v| *v;
    I64 => i64_field: i64 as i64, |v| *v;
    U8 => u8_field: u8 as u8, |v| *v;
    U16 => u16_field: u16 as u16, |v| *v;
    U32 => u32_field: u32 as u32, |v| *v;
    U64 => u64_field: u64 as u64, |v| *v;
    F32 => f32_field: f32 as f32, |v| *v;
    F64 => f64_field: f64 as f64, |v| *v;
    String => string_field: String as String, String::clone;
    BoxStr => box_str_field: Box<str> as String, |v| v.to_string();
    ArcStr => arc_str_field: std::sync::Arc<str> as String, |v| v.to_string();
}

/// `&str` fields bind as `String` does (one rule, `is_text`); the borrowed
/// struct is checked through `load_where` in `string_field`'s columns.
#[derive(ParquetRow, Debug, Clone, PartialEq)]
struct Borrowed<'a> {
    v: Option<&'a str>,
}

#[test]
fn every_pruning_stage_keeps_every_row_for_every_binding() {
    let mut tally = Tally::default();
    let mut pairs = Vec::new();
    for (d, declaration) in DECLARATIONS.iter().enumerate() {
        let text = format!("message m {{ OPTIONAL {declaration}; }}");
        let schema = parquet_rows_rules::parse(&text).unwrap_or_else(|e| panic!("{text}: {e}"));
        let column = schema.column("v").unwrap().clone();
        let domain = domain(&column);
        for (k, &kind) in FILTERABLE.iter().enumerate() {
            if !kind.reads(&column) {
                continue;
            }
            pairs.push((kind, *declaration));
            for (l, &layout) in LAYOUTS.iter().enumerate() {
                let seed = ((d * 100 + l) * 100 + k) as u64;
                let mut rng = Rng::new(seed);
                let sorted = rng.chance(60);
                let groups: Vec<Vec<ColumnValues>> = (0..GROUPS)
                    .map(|g| {
                        let ids = (0..GROUP_ROWS)
                            .map(|r| Some(i32::try_from(g * GROUP_ROWS + r).unwrap()))
                            .collect();
                        vec![
                            column_values(&mut rng, domain, GROUP_ROWS, sorted),
                            ColumnValues::Int32(ids),
                        ]
                    })
                    .collect();
                let bytes = write(declaration, layout, &groups);
                let context = format!("{kind:?} <- {declaration}, {layout:?}, seed {seed}");
                if kind == FieldKind::Str {
                    check_borrowed(&mut rng, &bytes, &context);
                    continue;
                }
                check(kind, &mut rng, &bytes, domain, l, &mut tally, &context);
            }
        }
    }
    // Every scalar field type is tested, on every column the rules let it read.
    for kind in FILTERABLE {
        assert!(
            pairs.iter().any(|(k, _)| k == kind),
            "{kind:?} reads no column"
        );
    }
    assert_eq!(pairs.len(), 86, "{pairs:?}");
    assert!(pairs.contains(&(FieldKind::I64, "INT32 v (INTEGER(32, false))")));
    assert_eq!(tally.queries, (pairs.len() - 4) * LAYOUTS.len() * QUERIES);
    // Each stage prunes somewhere (a test that never prunes proves nothing).
    for (l, pruned) in tally.pruned.iter().enumerate() {
        assert!(
            *pruned > 20,
            "layout {:?} pruned {pruned} loads",
            LAYOUTS[l]
        );
    }
}

fn check_borrowed(rng: &mut Rng, bytes: &Bytes, context: &str) {
    let file = ParquetFile::from_bytes(bytes.clone()).unwrap();
    let pages = file.load::<Borrowed>().unwrap();
    let full: Vec<Borrowed<'_>> = pages.rows().unwrap();
    let present: Vec<String> = full.iter().filter_map(|r| r.v.map(str::to_owned)).collect();
    let candidates = String::candidates(Domain::Str);
    for p in preds(rng, &candidates, &present, QUERIES) {
        let want: Vec<&Borrowed<'_>> = full
            .iter()
            .filter(|r| p.matches(r.v.map(str::to_owned).as_ref()))
            .collect();
        let f = apply(Borrowed::filter().v(), &p);
        let pages = file.rows::<Borrowed>().filter(f).load().unwrap();
        let got: Vec<Borrowed<'_>> = pages.rows().unwrap();
        same(
            &got.iter().collect::<Vec<_>>(),
            &want,
            &format!("{context} {p:?}"),
        );
    }
}

/// pyarrow's `uint32`: INT32 annotated INT(32, false), dictionary-encoded,
/// read into an `i64`. 2147583648 is past `i32::MAX`: the dictionary stores
/// its bits, which as an `i32` are negative.
#[test]
fn an_unsigned_dictionary_column_read_into_i64_finds_values_past_i32_max() {
    #[derive(ParquetRow, Debug, Clone, PartialEq)]
    struct U {
        u: Option<i64>,
    }
    let values: Vec<Option<i32>> = [1u32, 2_147_583_648, 7, u32::MAX, 2_147_583_648]
        .iter()
        .map(|&v| Some(v as i32))
        .chain([None])
        .collect();
    for stats in [EnabledStatistics::None, EnabledStatistics::Page] {
        let props = WriterProperties::builder()
            .set_dictionary_enabled(true)
            .set_bloom_filter_enabled(true)
            .set_statistics_enabled(stats)
            .build();
        let bytes = write_columns(
            "message m { OPTIONAL INT32 u (INTEGER(32, false)); }",
            props,
            &[vec![ColumnValues::Int32(values.clone())]],
        )
        .unwrap();
        let file = ParquetFile::from_bytes(bytes.clone()).unwrap();
        let want = vec![
            U {
                u: Some(2_147_583_648)
            };
            2
        ];
        let query = || U::filter().u().eq(2_147_583_648);
        let got: Vec<U> = file.rows().filter(query()).collect().unwrap();
        assert_eq!(got, want, "read_where, {stats:?}");
        let got: Vec<U> = file.rows().filter(query()).threads(0).collect().unwrap();
        assert_eq!(got, want, "par_read_where, {stats:?}");
        let got: Vec<U> = file
            .rows::<U>()
            .filter(query())
            .stream()
            .unwrap()
            .collect::<parquet_rows::Result<_>>()
            .unwrap();
        assert_eq!(got, want, "stream_where, {stats:?}");
        let got: Vec<U> = file
            .rows::<U>()
            .filter(query())
            .load()
            .unwrap()
            .rows()
            .unwrap();
        assert_eq!(got, want, "load_where, {stats:?}");
        let got: Vec<U> = remote(&bytes)
            .rows()
            .filter(query())
            .collect_blocking()
            .unwrap();
        assert_eq!(got, want, "remote, {stats:?}");
        let max: Vec<U> = file
            .rows()
            .filter(U::filter().u().ge(i64::from(u32::MAX)))
            .collect()
            .unwrap();
        assert_eq!(
            max,
            vec![U {
                u: Some(i64::from(u32::MAX))
            }]
        );
        let none: Vec<U> = file
            .rows()
            .filter(U::filter().u().eq(-2_147_383_648))
            .collect()
            .unwrap();
        assert!(none.is_empty());
    }
}

/// The field types compared through a unit or a scale (timestamps, times,
/// dates, decimals) or bytewise (`[u8; N]`, `Vec<u8>`): every stage on
/// every path keeps every row, with values in other units and scales than
/// the column's (an instant in nanoseconds against a column of millis, a
/// decimal at scale 3 against a column at scale 2), where no stored value
/// may be concluded from the predicate's.
mod units_and_scales {
    use super::*;
    use parquet_rows::{Date, Decimal, FilterOf, OwnedRow, Query, Time, Timestamp, Unit};

    #[derive(ParquetRow, Debug, Clone, PartialEq)]
    struct Ts {
        v: Option<parquet_rows::Timestamp>,
        id: i32,
    }

    #[derive(ParquetRow, Debug, Clone, PartialEq)]
    struct Tm {
        v: Option<parquet_rows::Time>,
        id: i32,
    }

    #[derive(ParquetRow, Debug, Clone, PartialEq)]
    struct Dt {
        v: Option<parquet_rows::Date>,
        id: i32,
    }

    #[derive(ParquetRow, Debug, Clone, PartialEq)]
    struct Dec {
        v: Option<parquet_rows::Decimal>,
        id: i32,
    }

    #[derive(ParquetRow, Debug, Clone, PartialEq)]
    struct Fixed {
        v: Option<[u8; 4]>,
        id: i32,
    }

    #[derive(ParquetRow, Debug, Clone, PartialEq)]
    struct Bin {
        v: Option<Vec<u8>>,
        id: i32,
    }

    const UNITS: [Unit; 3] = [Unit::Millis, Unit::Micros, Unit::Nanos];

    fn per_nano(unit: Unit) -> i128 {
        match unit {
            Unit::Millis => 1_000_000,
            Unit::Micros => 1_000,
            Unit::Nanos => 1,
        }
    }

    /// A column's random values, for the declarations whose values are
    /// not integers the `Domain`s describe: 4-byte arrays from a small
    /// alphabet (so equalities find rows).
    fn fixed_values(rng: &mut Rng, rows: usize, sorted: bool) -> ColumnValues {
        let alphabet = [0u8, 1, 127, 128, 255];
        let mut v: Vec<Option<Vec<u8>>> = (0..rows)
            .map(|_| {
                rng.maybe(90, |rng| {
                    (0..4)
                        .map(|_| alphabet[rng.below(alphabet.len())])
                        .collect()
                })
            })
            .collect();
        if sorted {
            v.sort();
        }
        ColumnValues::Bytes(v)
    }

    /// Writes each declaration in each layout, then checks `QUERIES`
    /// predicates on every path against the full read filtered by the
    /// reference order `key`.
    #[allow(clippy::too_many_arguments)]
    fn run<R, V, K>(
        declarations: &[&str],
        seed: u64,
        column: fn() -> Column<FilterOf<R>, V>,
        field: fn(&R) -> Option<&V>,
        candidates: &[V],
        also: impl Fn(&V) -> Vec<V>,
        key: impl Fn(&V) -> K,
        pruned: &mut [usize; LAYOUTS.len()],
    ) where
        R: OwnedRow + Send + std::fmt::Debug + PartialEq + Clone,
        V: FilterValue + Clone + std::fmt::Debug,
        K: PartialOrd,
    {
        for (d, declaration) in declarations.iter().enumerate() {
            let text = format!("message m {{ OPTIONAL {declaration}; }}");
            let schema = parquet_rows_rules::parse(&text).unwrap();
            let rule = schema.column("v").unwrap().clone();
            for (l, &layout) in LAYOUTS.iter().enumerate() {
                let mut rng = Rng::new(seed * 1_000 + (d * 10 + l) as u64);
                let sorted = rng.chance(60);
                let groups: Vec<Vec<ColumnValues>> = (0..GROUPS)
                    .map(|g| {
                        let ids = (0..GROUP_ROWS)
                            .map(|r| Some(i32::try_from(g * GROUP_ROWS + r).unwrap()))
                            .collect();
                        let values = if rule.physical == Physical::FixedLenByteArray {
                            fixed_values(&mut rng, GROUP_ROWS, sorted)
                        } else {
                            column_values(&mut rng, domain(&rule), GROUP_ROWS, sorted)
                        };
                        vec![values, ColumnValues::Int32(ids)]
                    })
                    .collect();
                let bytes = write(declaration, layout, &groups);
                let file = ParquetFile::from_bytes(bytes.clone()).unwrap();
                let far = remote(&bytes);
                let full: Vec<R> = file.rows().collect().unwrap();
                let present: Vec<V> = full
                    .iter()
                    .filter_map(field)
                    .flat_map(|v| {
                        let mut all = also(v);
                        all.push(v.clone());
                        all
                    })
                    .collect();
                for p in preds(&mut rng, candidates, &present, QUERIES) {
                    let context = format!("{declaration}, {layout:?}: {p:?}");
                    let reference = p.map(&key);
                    let want: Vec<&R> = full
                        .iter()
                        .filter(|r| reference.matches(field(r).map(&key).as_ref()))
                        .collect();
                    let query = Query::from_filter(apply(column(), &p));
                    let got: Vec<R> = file.rows().filter(query.clone()).collect().unwrap();
                    same(
                        &got.iter().collect::<Vec<_>>(),
                        &want,
                        &format!("read_where: {context}"),
                    );
                    let streamed: Vec<R> = file
                        .rows::<R>()
                        .filter(query.clone())
                        .stream()
                        .unwrap()
                        .collect::<parquet_rows::Result<_>>()
                        .unwrap();
                    same(&streamed, &got, &format!("stream_where: {context}"));
                    let parallel: Vec<R> = file
                        .rows()
                        .filter(query.clone())
                        .threads(0)
                        .collect()
                        .unwrap();
                    same(&parallel, &got, &format!("par_read_where: {context}"));
                    let pages = file.rows::<R>().filter(query.clone()).load().unwrap();
                    if pages.num_rows() < full.len() {
                        pruned[l] += 1;
                    }
                    let remote: Vec<R> = far.rows().filter(query).collect_blocking().unwrap();
                    same(&remote, &got, &format!("remote read_where: {context}"));
                }
            }
        }
    }

    fn i64_edges() -> Vec<i64> {
        int_boundaries()
            .into_iter()
            .filter_map(|v| i64::try_from(v).ok())
            .collect()
    }

    #[test]
    fn every_stage_keeps_every_row_through_units() {
        let mut pruned = [0; LAYOUTS.len()];
        // Instants: edges in every unit; present values again in nanoseconds
        // (equal instants, other bits) and one nanosecond later (no stored
        // value of a coarser column).
        let ts = |value, unit| Timestamp {
            value,
            unit,
            utc: true,
        };
        let candidates: Vec<Timestamp> = i64_edges()
            .into_iter()
            .flat_map(|v| UNITS.map(|u| ts(v, u)))
            .collect();
        run(
            &[
                "INT64 v (TIMESTAMP(MILLIS, true))",
                "INT64 v (TIMESTAMP(MICROS, false))",
                "INT64 v (TIMESTAMP(NANOS, true))",
                "INT64 v (TIMESTAMP_MICROS)",
            ],
            1,
            || Ts::filter().v(),
            |r: &Ts| r.v.as_ref(),
            &candidates,
            |t: &Timestamp| {
                let nanos = t.to_unit(Unit::Nanos);
                nanos
                    .into_iter()
                    .flat_map(|n| [ts(n, Unit::Nanos), ts(n.saturating_add(1), Unit::Nanos)])
                    .collect()
            },
            |t: &Timestamp| i128::from(t.value) * per_nano(t.unit),
            &mut pruned,
        );
        let time = |value, unit| Time { value, unit };
        let candidates: Vec<Time> = i64_edges()
            .into_iter()
            .flat_map(|v| UNITS.map(|u| time(v, u)))
            .collect();
        run(
            &[
                "INT32 v (TIME(MILLIS, true))",
                "INT32 v (TIME_MILLIS)",
                "INT64 v (TIME(MICROS, false))",
                "INT64 v (TIME(NANOS, true))",
                "INT64 v (TIME_MICROS)",
            ],
            2,
            || Tm::filter().v(),
            |r: &Tm| r.v.as_ref(),
            &candidates,
            |t: &Time| {
                let n = i64::try_from(i128::from(t.value) * per_nano(t.unit)).unwrap();
                vec![time(n, Unit::Nanos), time(n + 1, Unit::Nanos)]
            },
            |t: &Time| i128::from(t.value) * per_nano(t.unit),
            &mut pruned,
        );
        let candidates: Vec<Date> = int_boundaries()
            .into_iter()
            .filter_map(|v| i32::try_from(v).ok())
            .map(|days| Date { days })
            .collect();
        run(
            &["INT32 v (DATE)"],
            3,
            || Dt::filter().v(),
            |r: &Dt| r.v.as_ref(),
            &candidates,
            |_| Vec::new(),
            |d: &Date| d.days,
            &mut pruned,
        );
        // Decimals: edges at several scales; present values again one
        // digit finer (equal values, other unscaled numbers) and a tenth
        // of a unit off (no stored value at the column's scale).
        for (l, pruned) in pruned.iter().enumerate() {
            assert!(*pruned > 5, "layout {:?} pruned {pruned} loads", LAYOUTS[l]);
        }
    }

    #[test]
    fn every_stage_keeps_every_row_through_scales_and_bytes() {
        let mut pruned = [0; LAYOUTS.len()];
        let dec = |unscaled, scale| Decimal {
            unscaled,
            precision: 38,
            scale,
        };
        let candidates: Vec<Decimal> = int_boundaries()
            .into_iter()
            .flat_map(|v| [0, 2, 3, 5].map(|s| dec(v, s)))
            .collect();
        run(
            &["INT32 v (DECIMAL(9, 2))", "INT64 v (DECIMAL(18, 3))"],
            4,
            || Dec::filter().v(),
            |r: &Dec| r.v.as_ref(),
            &candidates,
            |d: &Decimal| {
                vec![
                    dec(d.unscaled * 10, d.scale + 1),
                    dec(d.unscaled * 10 + 1, d.scale + 1),
                ]
            },
            |d: &Decimal| d.unscaled * 10i128.pow(u32::try_from(12 - d.scale).unwrap()),
            &mut pruned,
        );
        let candidates = [
            [0; 4],
            [255; 4],
            [0, 0, 0, 1],
            [128, 0, 0, 0],
            [127, 255, 255, 255],
        ];
        run(
            &["FIXED_LEN_BYTE_ARRAY (4) v"],
            5,
            || Fixed::filter().v(),
            |r: &Fixed| r.v.as_ref(),
            &candidates,
            |_| Vec::new(),
            |v: &[u8; 4]| *v,
            &mut pruned,
        );
        let mut candidates: Vec<Vec<u8>> = WORDS.iter().map(|w| w.as_bytes().to_vec()).collect();
        candidates.extend([vec![0xff], vec![0x80, 0]]);
        run(
            &["BINARY v", "BINARY v (UTF8)"],
            6,
            || Bin::filter().v(),
            |r: &Bin| r.v.as_ref(),
            &candidates,
            |_| Vec::new(),
            Vec::clone,
            &mut pruned,
        );
        for (l, pruned) in pruned.iter().enumerate() {
            assert!(
                *pruned > 10,
                "layout {:?} pruned {pruned} loads",
                LAYOUTS[l]
            );
        }
    }
}
