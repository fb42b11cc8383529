//! Filtered reads (`load_where`, `read_where`, `stream_where`,
//! `par_read_where`) return exactly the rows of the full read that match:
//! random files (sorted and unsorted `ts`, with and without statistics and
//! page index, dictionary or plain, nulls, several row groups and pages)
//! against random conjunctions, and pruning actually skips.

use std::sync::Arc;

use bytes::Bytes;
use parquet::basic::Compression;
use parquet::data_type::{BoolType, ByteArray, ByteArrayType, DoubleType, Int32Type, Int64Type};
use parquet::file::properties::{EnabledStatistics, WriterProperties, WriterVersion};
use parquet::file::writer::SerializedFileWriter;
use parquet::schema::parser::parse_message_type;
use parquet_rows::{Cond, FilterOf, ParquetFile, ParquetRow, RowFilter};
use parquet_rows_suite::rng::Rng;
use parquet_rows_suite::{write_columns, ColumnValues};

const SCHEMA: &str = "message m {
    REQUIRED INT64 ts;
    OPTIONAL BINARY symbol (UTF8);
    OPTIONAL INT32 size;
    REQUIRED DOUBLE px;
    REQUIRED BOOLEAN flag;
    OPTIONAL INT32 count (INTEGER(32, false));
}";

const SYMBOLS: [&str; 6] = ["AUDUSD", "EURUSD", "GBPUSD", "USDJPY", "XAUUSD", "é🦀"];

#[derive(ParquetRow, Debug, Clone, PartialEq)]
struct Row {
    ts: i64,
    symbol: Option<String>,
    size: Option<i32>,
    px: f64,
    flag: bool,
    count: Option<u32>,
}

#[derive(ParquetRow, Debug, Clone, Copy, PartialEq)]
struct RowRef<'a> {
    ts: i64,
    symbol: Option<&'a str>,
    size: Option<i32>,
}

/// How a random file is laid out.
#[derive(Debug, Clone, Copy)]
struct Layout {
    rows: usize,
    sorted: bool,
    stats: EnabledStatistics,
    offset_index: bool,
    dictionary: bool,
    group_rows: usize,
    page_rows: usize,
    version: WriterVersion, // v1 or v2 data pages
}

fn layout(rng: &mut Rng) -> Layout {
    let stats = [
        EnabledStatistics::None,
        EnabledStatistics::Chunk,
        EnabledStatistics::Page,
    ][rng.below(3)];
    Layout {
        rows: rng.below(3000),
        sorted: rng.chance(50),
        stats,
        offset_index: rng.chance(70),
        dictionary: rng.chance(50),
        group_rows: 1 + rng.below(1200),
        page_rows: 1 + rng.below(300),
        version: if rng.chance(50) {
            WriterVersion::PARQUET_2_0
        } else {
            WriterVersion::PARQUET_1_0
        },
    }
}

fn rows(rng: &mut Rng, l: &Layout) -> Vec<Row> {
    let mut ts: Vec<i64> = (0..l.rows)
        .map(|_| i64::try_from(rng.below(10_000)).unwrap() - 5_000)
        .collect();
    if l.sorted {
        ts.sort_unstable();
    }
    ts.into_iter()
        .map(|ts| Row {
            ts,
            symbol: rng
                .maybe(85, |r| SYMBOLS[r.below(SYMBOLS.len() - 1)])
                .map(String::from),
            size: rng.maybe(70, |r| i32::try_from(r.below(1000)).unwrap() - 100),
            px: if rng.chance(2) {
                f64::NAN
            } else {
                f64::from(u32::try_from(rng.below(1000)).unwrap()) / 8.0 - 10.0
            },
            flag: rng.chance(30),
            count: rng.maybe(80, |r| {
                if r.chance(10) {
                    u32::MAX - u32::try_from(r.below(5)).unwrap()
                } else {
                    u32::try_from(r.below(500)).unwrap()
                }
            }),
        })
        .collect()
}

fn write(l: &Layout, rows: &[Row]) -> Bytes {
    write_with(l, rows, 1 << 20)
}

/// [`write`], with dictionary pages of at most `dictionary_limit` bytes: a
/// chunk whose dictionary fills up goes on in PLAIN pages.
fn write_with(l: &Layout, rows: &[Row], dictionary_limit: usize) -> Bytes {
    let props = WriterProperties::builder()
        .set_dictionary_page_size_limit(dictionary_limit)
        .set_compression(Compression::SNAPPY)
        .set_statistics_enabled(l.stats)
        .set_offset_index_disabled(!l.offset_index)
        .set_dictionary_enabled(l.dictionary)
        .set_max_row_group_row_count(Some(l.group_rows))
        .set_data_page_row_count_limit(l.page_rows)
        .set_write_batch_size(l.page_rows)
        .set_writer_version(l.version)
        .build();
    let schema = Arc::new(parse_message_type(SCHEMA).unwrap());
    let mut buf = Vec::new();
    let mut writer = SerializedFileWriter::new(&mut buf, schema, Arc::new(props)).unwrap();
    for group in rows.chunks(l.group_rows) {
        let mut rg = writer.next_row_group().unwrap();
        let defs = |present: &dyn Fn(&Row) -> bool| -> Vec<i16> {
            group.iter().map(|r| i16::from(present(r))).collect()
        };
        let mut col = rg.next_column().unwrap().unwrap();
        let ts: Vec<i64> = group.iter().map(|r| r.ts).collect();
        col.typed::<Int64Type>()
            .write_batch(&ts, None, None)
            .unwrap();
        col.close().unwrap();
        let mut col = rg.next_column().unwrap().unwrap();
        let symbols: Vec<ByteArray> = group
            .iter()
            .filter_map(|r| r.symbol.as_deref().map(ByteArray::from))
            .collect();
        let d = defs(&|r| r.symbol.is_some());
        col.typed::<ByteArrayType>()
            .write_batch(&symbols, Some(&d), None)
            .unwrap();
        col.close().unwrap();
        let mut col = rg.next_column().unwrap().unwrap();
        let sizes: Vec<i32> = group.iter().filter_map(|r| r.size).collect();
        let d = defs(&|r| r.size.is_some());
        col.typed::<Int32Type>()
            .write_batch(&sizes, Some(&d), None)
            .unwrap();
        col.close().unwrap();
        let mut col = rg.next_column().unwrap().unwrap();
        let px: Vec<f64> = group.iter().map(|r| r.px).collect();
        col.typed::<DoubleType>()
            .write_batch(&px, None, None)
            .unwrap();
        col.close().unwrap();
        let mut col = rg.next_column().unwrap().unwrap();
        let flags: Vec<bool> = group.iter().map(|r| r.flag).collect();
        col.typed::<BoolType>()
            .write_batch(&flags, None, None)
            .unwrap();
        col.close().unwrap();
        let mut col = rg.next_column().unwrap().unwrap();
        let counts: Vec<i32> = group
            .iter()
            .filter_map(|r| r.count)
            .map(|c| i32::from_le_bytes(c.to_le_bytes()))
            .collect();
        let d = defs(&|r| r.count.is_some());
        col.typed::<Int32Type>()
            .write_batch(&counts, Some(&d), None)
            .unwrap();
        col.close().unwrap();
        rg.close().unwrap();
    }
    writer.close().unwrap();
    Bytes::from(buf)
}

/// The filter `#[derive(ParquetRow)]` generated for `Row`.
type RowFilterT = parquet_rows::FilterOf<Row>;

#[derive(Debug, Clone, Copy)]
enum Op {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
}

/// One random predicate, as data: applied to the typed filter and, by a
/// naive reference, to the rows of the full read.
#[derive(Debug, Clone)]
enum Pred {
    Ts(Op, i64),
    TsRange(i64, i64),
    Symbol(Op, String),
    Size(Op, i32),
    SizeNull(bool),
    Px(Op, f64),
    Flag(bool),
    Count(Op, u32),
}

fn op(rng: &mut Rng) -> Op {
    [Op::Eq, Op::Ne, Op::Lt, Op::Le, Op::Gt, Op::Ge][rng.below(6)]
}

fn pred(rng: &mut Rng) -> Pred {
    match rng.below(8) {
        0 => Pred::Ts(op(rng), i64::try_from(rng.below(11_000)).unwrap() - 5_500),
        1 => {
            let start = i64::try_from(rng.below(10_000)).unwrap() - 5_000;
            Pred::TsRange(start, start + i64::try_from(rng.below(800)).unwrap())
        }
        2 => Pred::Symbol(
            if rng.chance(70) { Op::Eq } else { op(rng) },
            SYMBOLS[rng.below(SYMBOLS.len())].to_owned(),
        ),
        3 => Pred::Size(op(rng), i32::try_from(rng.below(1100)).unwrap() - 150),
        4 => Pred::SizeNull(rng.chance(50)),
        5 => Pred::Px(
            op(rng),
            f64::from(u32::try_from(rng.below(1000)).unwrap()) / 8.0 - 10.0,
        ),
        6 => Pred::Flag(rng.chance(50)),
        _ => Pred::Count(
            op(rng),
            if rng.chance(20) {
                u32::MAX - 2
            } else {
                u32::try_from(rng.below(600)).unwrap()
            },
        ),
    }
}

fn cmp<T: PartialOrd>(op: Op, a: &T, b: &T) -> bool {
    match op {
        Op::Eq => a == b,
        Op::Ne => a != b,
        Op::Lt => a < b,
        Op::Le => a <= b,
        Op::Gt => a > b,
        Op::Ge => a >= b,
    }
}

impl Pred {
    fn matches(&self, r: &Row) -> bool {
        match self {
            Pred::Ts(op, v) => cmp(*op, &r.ts, v),
            Pred::TsRange(a, b) => (*a..*b).contains(&r.ts),
            Pred::Symbol(op, v) => r.symbol.as_ref().is_some_and(|s| cmp(*op, s, v)),
            Pred::Size(op, v) => r.size.is_some_and(|s| cmp(*op, &s, v)),
            Pred::SizeNull(null) => r.size.is_none() == *null,
            Pred::Px(op, v) => cmp(*op, &r.px, v),
            Pred::Flag(v) => r.flag == *v,
            Pred::Count(op, v) => r.count.is_some_and(|c| cmp(*op, &c, v)),
        }
    }

    fn apply(&self, f: RowFilterT) -> RowFilterT {
        fn by<V>(c: parquet_rows::Column<RowFilterT, V>, op: Op, v: V) -> RowFilterT
        where
            V: parquet_rows::FilterValue,
        {
            match op {
                Op::Eq => c.eq(v),
                Op::Ne => c.ne(v),
                Op::Lt => c.lt(v),
                Op::Le => c.le(v),
                Op::Gt => c.gt(v),
                Op::Ge => c.ge(v),
            }
        }
        match self {
            Pred::Ts(op, v) => by(f.ts(), *op, *v),
            Pred::TsRange(a, b) => f.ts().in_range(*a..*b),
            Pred::Symbol(op, v) => by(f.symbol(), *op, v.clone()),
            Pred::Size(op, v) => by(f.size(), *op, *v),
            Pred::SizeNull(true) => f.size().is_null(),
            Pred::SizeNull(false) => f.size().is_not_null(),
            Pred::Px(op, v) => by(f.px(), *op, *v),
            Pred::Flag(v) => f.flag().eq(*v),
            Pred::Count(op, v) => by(f.count(), *op, *v),
        }
    }
}

#[test]
#[allow(clippy::too_many_lines)] // one list of every filtered path
fn filtered_reads_equal_the_full_read_filtered() {
    let mut checked = 0;
    let mut pruned = 0;
    // Queries matching under 5 % of a file's rows (decoded with skips) and
    // over half of them (many short runs: every row decoded).
    let (mut sparse, mut dense) = (0, 0);
    for seed in 0..80u64 {
        let mut rng = Rng::new(seed);
        let l = layout(&mut rng);
        let all = rows(&mut rng, &l);
        let bytes = write(&l, &all);
        let file = ParquetFile::from_bytes(bytes.clone()).unwrap();
        let full: Vec<Row> = file.rows().collect().unwrap();
        assert_eq!(full.len(), all.len());
        for _ in 0..8 {
            let preds: Vec<Pred> = (0..=rng.below(3)).map(|_| pred(&mut rng)).collect();
            let filter = preds.iter().fold(Row::filter(), |f, p| p.apply(f));
            let want: Vec<&Row> = full
                .iter()
                .filter(|r| preds.iter().all(|p| p.matches(r)))
                .collect();
            let context = format!("seed {seed} {l:?} {preds:?}");
            if !want.is_empty() && want.len() * 20 < full.len() {
                sparse += 1;
            }
            if want.len() * 2 > full.len() {
                dense += 1;
            }

            let got: Vec<Row> = file.rows().filter(filter.clone()).collect().unwrap();
            same(
                &got.iter().collect::<Vec<_>>(),
                &want,
                &format!("read_where: {context}"),
            );
            let streamed: Vec<Row> = file
                .rows::<Row>()
                .filter(filter.clone())
                .stream()
                .unwrap()
                .collect::<parquet_rows::Result<_>>()
                .unwrap();
            same(&streamed, &got, &format!("stream_where: {context}"));
            let parallel: Vec<Row> = file
                .rows()
                .filter(filter.clone())
                .threads(0)
                .collect()
                .unwrap();
            same(&parallel, &got, &format!("par_read_where: {context}"));

            let (offset, limit) = (rng.below(20), rng.below(30));
            let window: Vec<Row> = file
                .rows()
                .filter(filter.clone().offset(offset).limit(limit))
                .collect()
                .unwrap();
            let expected: Vec<&Row> = want.iter().copied().skip(offset).take(limit).collect();
            same(
                &window.iter().collect::<Vec<_>>(),
                &expected,
                &format!("window {offset} {limit}: {context}"),
            );

            // Borrowed rows: only the three columns of `RowRef`.
            let ref_filter = preds.iter().filter(|p| {
                matches!(
                    p,
                    Pred::Ts(..)
                        | Pred::TsRange(..)
                        | Pred::Symbol(..)
                        | Pred::Size(..)
                        | Pred::SizeNull(_)
                )
            });
            let mut f = RowRef::filter();
            let mut kept = Vec::new();
            for p in ref_filter {
                kept.push(p.clone());
                f = apply_ref(p, f);
            }
            let pages = file.rows::<RowRef>().filter(f.clone()).load().unwrap();
            if pages.num_rows() < full.len() {
                pruned += 1;
            }
            let borrowed: Vec<RowRef<'_>> = pages.rows().unwrap();
            let expected: Vec<RowRef<'_>> = full
                .iter()
                .filter(|r| kept.iter().all(|p| p.matches(r)))
                .map(|r| RowRef {
                    ts: r.ts,
                    symbol: r.symbol.as_deref(),
                    size: r.size,
                })
                .collect();
            same(&borrowed, &expected, &format!("load_where: {context}"));
            let parallel: Vec<RowRef<'_>> = pages.par_rows().unwrap();
            same(&parallel, &expected, &format!("par_rows: {context}"));
            let pages = file
                .rows::<RowRef>()
                .filter(f.offset(offset).limit(limit))
                .load()
                .unwrap();
            let expected: Vec<RowRef<'_>> = expected.into_iter().skip(offset).take(limit).collect();
            let window: Vec<RowRef<'_>> = pages.rows().unwrap();
            same(&window, &expected, &format!("load_where window: {context}"));
            let parallel: Vec<RowRef<'_>> = pages.par_rows().unwrap();
            same(&parallel, &expected, &format!("par_rows window: {context}"));
            checked += 1;
        }
    }
    assert_eq!(checked, 640);
    assert!(sparse > 40 && dense > 40, "sparse {sparse}, dense {dense}");
    // Statistics and page indexes prune in a good share of the cases.
    assert!(pruned > 60, "only {pruned} borrowed loads read fewer rows");
}

/// Asserts equal row lists, showing the first difference only (NaN rows
/// compare by their bits).
pub(crate) fn same<T: std::fmt::Debug>(got: &[T], want: &[T], context: &str) {
    let show = |r: Option<&T>| r.map(|r| format!("{r:?}"));
    let first = (0..got.len().max(want.len())).find(|&i| show(got.get(i)) != show(want.get(i)));
    if let Some(i) = first {
        panic!(
            "{context}: {} rows, {} expected; row {i}: {:?} vs {:?}",
            got.len(),
            want.len(),
            show(got.get(i)),
            show(want.get(i))
        );
    }
}

fn apply_ref(p: &Pred, f: FilterOf<RowRef<'static>>) -> FilterOf<RowRef<'static>> {
    match p {
        Pred::Ts(Op::Lt, v) => f.ts().lt(*v),
        Pred::Ts(Op::Le, v) => f.ts().le(*v),
        Pred::Ts(Op::Gt, v) => f.ts().gt(*v),
        Pred::Ts(Op::Ge, v) => f.ts().ge(*v),
        Pred::Ts(Op::Eq, v) => f.ts().eq(*v),
        Pred::Ts(Op::Ne, v) => f.ts().ne(*v),
        Pred::TsRange(a, b) => f.ts().in_range(*a..*b),
        Pred::Symbol(Op::Eq, v) => f.symbol().eq(v.as_str()),
        Pred::Symbol(Op::Ne, v) => f.symbol().ne(v.as_str()),
        Pred::Symbol(Op::Lt, v) => f.symbol().lt(v.as_str()),
        Pred::Symbol(Op::Le, v) => f.symbol().le(v.as_str()),
        Pred::Symbol(Op::Gt, v) => f.symbol().gt(v.as_str()),
        Pred::Symbol(Op::Ge, v) => f.symbol().ge(v.as_str()),
        Pred::Size(Op::Eq, v) => f.size().eq(*v),
        Pred::Size(Op::Ne, v) => f.size().ne(*v),
        Pred::Size(Op::Lt, v) => f.size().lt(*v),
        Pred::Size(Op::Le, v) => f.size().le(*v),
        Pred::Size(Op::Gt, v) => f.size().gt(*v),
        Pred::Size(Op::Ge, v) => f.size().ge(*v),
        Pred::SizeNull(true) => f.size().is_null(),
        Pred::SizeNull(false) => f.size().is_not_null(),
        _ => f,
    }
}

/// A sorted tick file with statistics and the page index: a narrow `ts`
/// range reads a few pages of one row group, and a symbol absent from the
/// dictionaries reads nothing.
#[test]
fn sorted_ranges_read_few_rows_and_absent_symbols_none() {
    let l = Layout {
        rows: 20_000,
        sorted: true,
        stats: EnabledStatistics::Page,
        offset_index: true,
        dictionary: true,
        group_rows: 5_000,
        page_rows: 500,
        version: WriterVersion::PARQUET_1_0,
    };
    let mut rng = Rng::new(7);
    let all = rows(&mut rng, &l);
    let file = ParquetFile::from_bytes(write(&l, &all)).unwrap();
    let (lo, hi) = (all[7_100].ts, all[7_300].ts);
    let pages = file
        .rows::<RowRef>()
        .filter(RowRef::filter().ts().in_range(lo..hi))
        .load()
        .unwrap();
    // At most the pages around the range: 3 pages of 500 rows per column.
    assert!(pages.num_rows() <= 1_500, "{pages:?}");
    let got: Vec<RowRef<'_>> = pages.rows().unwrap();
    let want = all.iter().filter(|r| (lo..hi).contains(&r.ts)).count();
    assert_eq!(got.len(), want);

    let none = file
        .rows::<RowRef>()
        .filter(RowRef::filter().symbol().eq("NZDUSD"))
        .load()
        .unwrap();
    assert_eq!(none.num_rows(), 0, "{none:?}");
    let some = file
        .rows::<RowRef>()
        .filter(RowRef::filter().symbol().eq("EURUSD"))
        .load()
        .unwrap();
    assert_eq!(some.num_rows(), 20_000);
}

/// Pages loaded with a filter of one struct refuse to decode into another
/// (its predicates number that struct's fields).
#[test]
fn filtered_pages_decode_only_their_struct() {
    let l = Layout {
        rows: 100,
        sorted: true,
        stats: EnabledStatistics::Chunk,
        offset_index: true,
        dictionary: false,
        group_rows: 100,
        page_rows: 100,
        version: WriterVersion::PARQUET_1_0,
    };
    let mut rng = Rng::new(1);
    let file = ParquetFile::from_bytes(write(&l, &rows(&mut rng, &l))).unwrap();
    let pages = file
        .rows::<Row>()
        .filter(Row::filter().ts().gt(0))
        .load()
        .unwrap();
    let err = pages.rows::<RowRef>().unwrap_err().to_string();
    assert!(err.contains("decode them into `Row`"), "{err}");
}

const SCHEMA_EVENTS: &str = "message m {
    REQUIRED INT64 id;
    REQUIRED BINARY name (UTF8);
    REQUIRED INT32 kind (INTEGER(32, false));
}";

/// A file whose ids and names are spread over every row group (statistics
/// cannot prune) and not dictionary-encoded (dictionaries cannot either),
/// with a bloom filter per column chunk: an equality reads only the row
/// groups whose filter may hold the value. Also read with the filters
/// stripped from the footer, which must give the same rows by scanning.
#[test]
fn bloom_filters_skip_row_groups_without_the_value() {
    #[derive(ParquetRow, Debug, Clone, PartialEq)]
    struct Event {
        id: i64,
        name: String,
        kind: u32,
    }
    let (groups, per_group) = (4usize, 2_000usize);
    let mut rng = Rng::new(11);
    // The ids of group g are g mod 4, so every group's min/max spans
    // almost the whole range; names are the ids in hex.
    let rows: Vec<Event> = (0..groups * per_group)
        .map(|i| {
            let g = i / per_group;
            let id = (rng.below(1_000_000) as i64) * 4 + g as i64;
            Event {
                id,
                name: format!("{id:x}-n"),
                kind: (id as u32) | 0x8000_0000,
            }
        })
        .collect();
    let write = |bloom: bool| -> Bytes {
        let mut props = WriterProperties::builder()
            .set_dictionary_enabled(false)
            .set_max_row_group_row_count(Some(per_group));
        if bloom {
            // Setting the rate also turns the filters on.
            props = props.set_bloom_filter_fpp(0.001);
        }
        let groups: Vec<Vec<ColumnValues>> = rows
            .chunks(per_group)
            .map(|group| {
                vec![
                    ColumnValues::Int64(group.iter().map(|r| Some(r.id)).collect()),
                    ColumnValues::Bytes(
                        group
                            .iter()
                            .map(|r| Some(r.name.clone().into_bytes()))
                            .collect(),
                    ),
                    ColumnValues::Int32(group.iter().map(|r| Some(r.kind as i32)).collect()),
                ]
            })
            .collect();
        write_columns(SCHEMA_EVENTS, props.build(), &groups).unwrap()
    };
    let with = ParquetFile::from_bytes(write(true)).unwrap();
    let without = ParquetFile::from_bytes(write(false)).unwrap();
    let target = &rows[2 * per_group + 17];
    let by_id = |f: &ParquetFile, id: i64| {
        let pages = f
            .rows::<Event>()
            .filter(Event::filter().id().eq(id))
            .load()
            .unwrap();
        let n = pages.num_rows();
        (n, pages.rows::<Event>().unwrap())
    };
    // The value's own group only (other groups' filters say "absent",
    // at 0.1% false positives each).
    let (n, got) = by_id(&with, target.id);
    assert_eq!(n, per_group, "rows loaded for one id");
    assert_eq!(got, std::slice::from_ref(target));
    let (n, got) = by_id(&without, target.id);
    assert_eq!(n, groups * per_group, "without filters every group is read");
    assert_eq!(got, std::slice::from_ref(target));
    // An id inside every group's range that no row has: nothing is read.
    let inside = (1..1_000)
        .map(|k| target.id + 4 * k)
        .find(|id| rows.iter().all(|r| r.id != *id))
        .unwrap();
    assert!(rows.iter().any(|r| r.id > inside) && rows.iter().any(|r| r.id < inside));
    assert_eq!(by_id(&with, inside).0, 0);
    // Strings and unsigned integers are hashed as the writer hashed them.
    let pages = with
        .rows::<Event>()
        .filter(Event::filter().name().eq(target.name.as_str()))
        .load()
        .unwrap();
    assert_eq!(pages.num_rows(), per_group);
    assert_eq!(pages.rows::<Event>().unwrap(), std::slice::from_ref(target));
    let pages = with
        .rows::<Event>()
        .filter(Event::filter().kind().eq(target.kind))
        .load()
        .unwrap();
    assert_eq!(pages.num_rows(), per_group);
    assert_eq!(pages.rows::<Event>().unwrap(), std::slice::from_ref(target));
}

const SCHEMA_SPARSE: &str = "message m {
    REQUIRED INT32 kind;
    OPTIONAL BINARY name (UTF8);
    OPTIONAL INT32 size;
    REQUIRED BINARY label (UTF8);
}";

/// 10 000 rows in pages of 100, dictionary or plain, v1 or v2 pages:
/// `kind` is 1 in every 100th row and 0 elsewhere; `name` and `size` are
/// null except in those rows; `label` is never null.
fn sparse_file(dictionary: bool, version: WriterVersion) -> Bytes {
    sparse_file_of(dictionary, version, |i| i % 100 == 37)
}

/// [`sparse_file`] with `kind` 1 where `hit` says.
fn sparse_file_of(dictionary: bool, version: WriterVersion, hit: fn(usize) -> bool) -> Bytes {
    let rows = 10_000;
    let props = WriterProperties::builder()
        .set_dictionary_enabled(dictionary)
        .set_writer_version(version)
        .set_max_row_group_row_count(Some(4_000))
        .set_data_page_row_count_limit(100)
        .set_write_batch_size(100)
        .build();
    let groups: Vec<Vec<ColumnValues>> = (0..rows)
        .collect::<Vec<usize>>()
        .chunks(4_000)
        .map(|group| {
            vec![
                ColumnValues::Int32(group.iter().map(|&i| Some(i32::from(hit(i)))).collect()),
                ColumnValues::Bytes(
                    group
                        .iter()
                        .map(|&i| hit(i).then(|| format!("n{i}").into_bytes()))
                        .collect(),
                ),
                ColumnValues::Int32(
                    group
                        .iter()
                        .map(|&i| hit(i).then(|| i32::try_from(i).unwrap()))
                        .collect(),
                ),
                ColumnValues::Bytes(
                    group
                        .iter()
                        .map(|&i| Some(format!("l{i}").into_bytes()))
                        .collect(),
                ),
            ]
        })
        .collect();
    write_columns(SCHEMA_SPARSE, props, &groups).unwrap()
}

/// The rows of [`sparse_file`]: `name` and `size` are plain fields, so a
/// null in a row is an error when that row is decoded.
#[derive(ParquetRow, Debug, Clone, PartialEq)]
struct Strict {
    kind: i32,
    name: String,
    size: i32,
}

/// [`Strict`], borrowed.
#[derive(ParquetRow, Debug, Clone, Copy, PartialEq)]
struct StrictRef<'a> {
    kind: i32,
    name: &'a str,
    size: i32,
}

/// Rows the predicates reject are never decoded in the other columns:
/// `name` and `size` are fields that refuse nulls (a null decoded into
/// them is an error), and every rejected row holds nulls there. The full
/// read fails; a query for the rows with values succeeds on every path.
#[test]
fn rejected_rows_are_skipped_in_the_other_columns() {
    for (dictionary, version) in LAYOUTS {
        let context = format!("dictionary {dictionary}, {version:?}");
        let file = ParquetFile::from_bytes(sparse_file(dictionary, version)).unwrap();
        assert!(
            file.rows::<Strict>().collect().is_err(),
            "full read: {context}"
        );
        let want: Vec<Strict> = (0..10_000)
            .filter(|i| i % 100 == 37)
            .map(|i| Strict {
                kind: 1,
                name: format!("n{i}"),
                size: i,
            })
            .collect();
        let filter = || Strict::filter().kind().eq(1);
        assert_eq!(
            file.rows::<Strict>().filter(filter()).collect().unwrap(),
            want,
            "{context}"
        );
        assert_eq!(
            file.rows::<Strict>()
                .filter(filter())
                .threads(0)
                .collect()
                .unwrap(),
            want,
            "{context}"
        );
        let streamed: Vec<Strict> = file
            .rows::<Strict>()
            .filter(filter().offset(3).limit(40))
            .stream()
            .unwrap()
            .collect::<parquet_rows::Result<_>>()
            .unwrap();
        assert_eq!(streamed, want[3..43], "{context}");
        let pages = file
            .rows::<StrictRef>()
            .filter(StrictRef::filter().kind().eq(1))
            .load()
            .unwrap();
        let borrowed: Vec<StrictRef<'_>> = pages.rows().unwrap();
        assert_eq!(borrowed.len(), want.len(), "{context}");
        assert!(borrowed
            .iter()
            .zip(&want)
            .all(|(b, w)| b.name == w.name && b.size == w.size));
        assert_eq!(pages.par_rows::<StrictRef>().unwrap(), borrowed);
        // The rows with nulls, selected, are decoded, and fail.
        assert!(file
            .rows::<Strict>()
            .filter(Strict::filter().kind().eq(0))
            .collect()
            .is_err());
    }
}

/// A selection dense enough for every row to be decoded and the rejected
/// ones dropped (tested on the rows, or marked by the runs) still never
/// fails on a rejected row: the row group is decoded again, taking the
/// selected rows only.
#[test]
fn rejected_rows_of_dense_selections_do_not_fail_the_read() {
    for (dictionary, version) in LAYOUTS {
        let context = format!("dictionary {dictionary}, {version:?}");
        // Two rows in three, the third null in `name` and `size`.
        let file =
            ParquetFile::from_bytes(sparse_file_of(dictionary, version, |i| i % 3 != 0)).unwrap();
        assert!(file.rows::<Strict>().collect().is_err(), "{context}");
        let want: Vec<Strict> = (0..10_000)
            .filter(|i| i % 3 != 0)
            .map(|i| Strict {
                kind: 1,
                name: format!("n{i}"),
                size: i,
            })
            .collect();
        let filter = || Strict::filter().kind().eq(1);
        let got = file.rows::<Strict>().filter(filter()).collect().unwrap();
        assert_eq!(got, want, "collect, {context}");
        let got = file.rows::<Strict>().filter(filter()).threads(2).collect();
        assert_eq!(got.unwrap(), want, "threads(2), {context}");
        let pages = file
            .rows::<StrictRef>()
            .filter(StrictRef::filter().kind().eq(1))
            .load()
            .unwrap();
        for (way, borrowed) in [("rows", pages.rows()), ("par_rows", pages.par_rows())] {
            let borrowed: Vec<StrictRef<'_>> = borrowed.unwrap();
            let got: Vec<(&str, i32)> = borrowed.iter().map(|r| (r.name, r.size)).collect();
            let want: Vec<(&str, i32)> = want.iter().map(|r| (r.name.as_str(), r.size)).collect();
            assert_eq!(got, want, "{way}, {context}");
        }
        // A window: every row decoded, the runs' rows kept.
        let pages = file
            .rows::<StrictRef>()
            .filter(StrictRef::filter().kind().eq(1).offset(5).limit(5_000))
            .load()
            .unwrap();
        let sizes: Vec<i32> = pages
            .rows::<StrictRef>()
            .unwrap()
            .iter()
            .map(|r| r.size)
            .collect();
        let want: Vec<i32> = want[5..5_005].iter().map(|r| r.size).collect();
        assert_eq!(sizes, want, "window, {context}");
    }
}

/// A newtype made from the `label` column, counting the values converted
/// on this thread.
#[derive(Debug, PartialEq)]
struct Label(String);

thread_local! {
    static LABELS: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

impl From<&str> for Label {
    fn from(value: &str) -> Self {
        LABELS.with(|n| n.set(n.get() + 1));
        Label(value.to_owned())
    }
}

/// A sparse query converts (and allocates) the other columns' values of the
/// matching rows only; a limit stops it early.
#[test]
fn sparse_queries_convert_only_the_matching_rows() {
    #[derive(ParquetRow, Debug, PartialEq)]
    struct Labelled {
        kind: i32,
        #[parquet(from = "&str")]
        label: Label,
    }
    let file = ParquetFile::from_bytes(sparse_file(true, WriterVersion::PARQUET_1_0)).unwrap();
    let converted = |read: &dyn Fn() -> Vec<Labelled>| {
        LABELS.with(|n| n.set(0));
        let rows = read();
        (rows.len(), LABELS.with(std::cell::Cell::get))
    };
    assert_eq!(
        converted(&|| file.rows::<Labelled>().collect().unwrap()),
        (10_000, 10_000)
    );
    let sparse = || Labelled::filter().kind().eq(1);
    assert_eq!(
        converted(&|| file.rows::<Labelled>().filter(sparse()).collect().unwrap()),
        (100, 100)
    );
    assert_eq!(
        converted(&|| file
            .rows::<Labelled>()
            .filter(sparse().offset(10).limit(5))
            .collect()
            .unwrap()),
        (5, 5)
    );
    // A limit alone decodes the rows it returns.
    assert_eq!(
        converted(&|| file
            .rows::<Labelled>()
            .filter(Labelled::filter().limit(7))
            .collect()
            .unwrap()),
        (7, 7)
    );
}

/// String predicates on a dictionary column remember their verdict per
/// dictionary entry (`pages::select`): a chunk whose dictionary fills up
/// falls back to PLAIN pages mid-chunk, so one probe sees values inside
/// and outside the dictionary page, with nulls, across row groups and
/// pages; every path returns the full read's matching rows.
/// A query and the same test by hand.
type Case = (FilterOf<Row>, Box<dyn Fn(&Row) -> bool>);

/// 6,000 rows in 3 row groups whose `symbol` dictionary overflows into
/// PLAIN pages, and the rows.
fn fallback_file() -> (ParquetFile, Vec<Row>) {
    let rows = 6_000;
    let props = WriterProperties::builder()
        .set_dictionary_enabled(true)
        // A few hundred entries fill the dictionary: later pages are PLAIN.
        .set_dictionary_page_size_limit(2_000)
        .set_max_row_group_row_count(Some(2_500))
        .set_data_page_row_count_limit(170)
        .set_write_batch_size(170)
        .build();
    let mut rng = Rng::new(25);
    let symbol = |rng: &mut Rng, i: usize| -> Option<String> {
        match rng.below(10) {
            0 => None,
            1..=6 => Some(SYMBOLS[rng.below(SYMBOLS.len())].to_owned()),
            // Many distinct values, to overflow the dictionary.
            _ => Some(format!("S{}", i % 900)),
        }
    };
    let all: Vec<Row> = (0..rows)
        .map(|i| Row {
            ts: i as i64,
            symbol: symbol(&mut rng, i),
            size: Some(i32::try_from(i % 7).unwrap()),
            px: f64::from(i32::try_from(i).unwrap()),
            flag: i % 3 == 0,
            count: None,
        })
        .collect();
    let groups: Vec<Vec<ColumnValues>> = all
        .chunks(2_500)
        .map(|g| {
            vec![
                ColumnValues::Int64(g.iter().map(|r| Some(r.ts)).collect()),
                ColumnValues::Bytes(
                    g.iter()
                        .map(|r| r.symbol.clone().map(String::into_bytes))
                        .collect(),
                ),
                ColumnValues::Int32(g.iter().map(|r| r.size).collect()),
                ColumnValues::Double(g.iter().map(|r| Some(r.px)).collect()),
                ColumnValues::Bool(g.iter().map(|r| Some(r.flag)).collect()),
                ColumnValues::Int32(g.iter().map(|_| None).collect()),
            ]
        })
        .collect();
    let bytes = write_columns(SCHEMA, props, &groups).unwrap();
    // The layout the test is for: a dictionary page, then PLAIN data pages.
    let meta = parquet::file::reader::FileReader::metadata(
        &parquet::file::reader::SerializedFileReader::new(bytes.clone()).unwrap(),
    )
    .clone();
    let dictionary_then_plain = (0..meta.num_row_groups()).any(|g| {
        let c = meta.row_group(g).column(1);
        c.dictionary_page_offset().is_some()
            && c.page_encoding_stats_mask().is_some_and(|m| {
                !m.is_only(parquet::basic::Encoding::RLE_DICTIONARY)
                    && !m.is_only(parquet::basic::Encoding::PLAIN_DICTIONARY)
            })
    });
    assert!(dictionary_then_plain, "no chunk falls back to PLAIN");
    (ParquetFile::from_bytes(bytes).unwrap(), all)
}

#[test]
fn dictionary_verdicts_match_the_full_read_across_a_plain_fallback() {
    let (file, all) = fallback_file();
    assert_eq!(file.rows::<Row>().collect().unwrap(), all);
    let cases: Vec<Case> = vec![
        (
            Row::filter().symbol().eq("EURUSD"),
            Box::new(|r: &Row| r.symbol.as_deref() == Some("EURUSD")),
        ),
        (
            Row::filter().symbol().is_in(["GBPUSD", "S17", "é🦀"]),
            Box::new(|r: &Row| matches!(r.symbol.as_deref(), Some("GBPUSD" | "S17" | "é🦀"))),
        ),
        (
            Row::filter().symbol().not().eq("AUDUSD"),
            Box::new(|r: &Row| r.symbol.as_deref() != Some("AUDUSD")),
        ),
        (
            Row::filter().symbol().ge("S5").size().lt(3),
            Box::new(|r: &Row| r.symbol.as_deref().is_some_and(|s| s >= "S5") && r.size < Some(3)),
        ),
        (
            Row::filter().symbol().eq("no such symbol"),
            Box::new(|_: &Row| false),
        ),
    ];
    for (i, (filter, by_hand)) in cases.into_iter().enumerate() {
        let want: Vec<Row> = all.iter().filter(|r| by_hand(r)).cloned().collect();
        let query = parquet_rows::Query::from_filter(filter);
        let owned = file.rows::<Row>().filter(query.clone()).collect().unwrap();
        assert_eq!(owned, want, "case {i}: owned");
        let par = file
            .rows::<Row>()
            .filter(query.clone())
            .threads(2)
            .collect()
            .unwrap();
        assert_eq!(par, want, "case {i}: two threads");
        let streamed: Vec<Row> = file
            .rows::<Row>()
            .filter(query.clone())
            .stream()
            .unwrap()
            .collect::<parquet_rows::Result<_>>()
            .unwrap();
        assert_eq!(streamed, want, "case {i}: stream");
        let windowed = file
            .rows::<Row>()
            .filter(query.clone())
            .offset(3)
            .limit(50)
            .collect()
            .unwrap();
        let window: Vec<Row> = want.iter().skip(3).take(50).cloned().collect();
        assert_eq!(windowed, window, "case {i}: window");
    }
    // Borrowed rows, the symbol as `&str` straight from the pages.
    let pages = file
        .rows::<RowRef>()
        .filter(RowRef::filter().symbol().is_in(["EURUSD", "S3"]))
        .load()
        .unwrap();
    let got: Vec<RowRef<'_>> = pages.rows().unwrap();
    let want: Vec<i64> = all
        .iter()
        .filter(|r| matches!(r.symbol.as_deref(), Some("EURUSD" | "S3")))
        .map(|r| r.ts)
        .collect();
    assert_eq!(got.iter().map(|r| r.ts).collect::<Vec<_>>(), want);
    assert!(!want.is_empty());
}

/// A random condition on one field, as data: applied to the typed filter
/// (`Column::matches`) and, by a naive reference, to the field's value.
#[derive(Debug, Clone)]
enum Tree<V> {
    Cmp(Op, V),
    In(Vec<V>),
    IsNull,
    Not(Box<Tree<V>>),
    Or(Box<Tree<V>>, Box<Tree<V>>),
    And(Box<Tree<V>>, Box<Tree<V>>),
}

impl<V: PartialOrd + Clone + parquet_rows::FilterValue> Tree<V> {
    fn random(rng: &mut Rng, depth: usize, value: &mut dyn FnMut(&mut Rng) -> V) -> Self {
        let pick = if depth == 0 {
            rng.below(3)
        } else {
            rng.below(6)
        };
        let mut sub = |rng: &mut Rng| Box::new(Tree::random(rng, depth - 1, value));
        match pick {
            0 => Tree::Cmp(op(rng), value(rng)),
            1 => Tree::In((0..rng.below(4)).map(|_| value(rng)).collect()),
            2 if rng.chance(30) => Tree::IsNull,
            2 => Tree::Cmp(Op::Eq, value(rng)),
            3 => Tree::Not(sub(rng)),
            4 => Tree::Or(sub(rng), sub(rng)),
            _ => Tree::And(sub(rng), sub(rng)),
        }
    }

    /// The reference: a comparison or `is_in` fails on a null, `not` of
    /// anything matches what it does not.
    fn eval(&self, v: Option<&V>) -> bool {
        match self {
            Tree::Cmp(op, w) => v.is_some_and(|v| cmp(*op, v, w)),
            Tree::In(ws) => v.is_some_and(|v| ws.iter().any(|w| v == w)),
            Tree::IsNull => v.is_none(),
            Tree::Not(t) => !t.eval(v),
            Tree::Or(a, b) => a.eval(v) || b.eval(v),
            Tree::And(a, b) => a.eval(v) && b.eval(v),
        }
    }

    fn cond(&self) -> parquet_rows::Cond<V> {
        use parquet_rows::Cond;
        match self {
            Tree::Cmp(Op::Eq, w) => Cond::eq(w.clone()),
            Tree::Cmp(Op::Ne, w) => Cond::ne(w.clone()),
            Tree::Cmp(Op::Lt, w) => Cond::lt(w.clone()),
            Tree::Cmp(Op::Le, w) => Cond::le(w.clone()),
            Tree::Cmp(Op::Gt, w) => Cond::gt(w.clone()),
            Tree::Cmp(Op::Ge, w) => Cond::ge(w.clone()),
            Tree::In(ws) => Cond::is_in(ws.clone()),
            Tree::IsNull => Cond::is_null(),
            Tree::Not(t) => !t.cond(),
            Tree::Or(a, b) => a.cond().or(b.cond()),
            Tree::And(a, b) => a.cond().and(b.cond()),
        }
    }
}

/// One random condition on one of `Row`'s dictionary-encodable fields.
#[derive(Debug, Clone)]
enum FieldTree {
    Symbol(Tree<String>),
    Size(Tree<i32>),
    Count(Tree<u32>),
    Px(Tree<f64>),
    Ts(Tree<i64>),
}

impl FieldTree {
    fn random(rng: &mut Rng) -> Self {
        let depth = rng.below(3);
        match rng.below(5) {
            0 => FieldTree::Symbol(Tree::random(rng, depth, &mut |r: &mut Rng| {
                SYMBOLS[r.below(SYMBOLS.len())].to_owned()
            })),
            1 => FieldTree::Size(Tree::random(rng, depth, &mut |r: &mut Rng| {
                i32::try_from(r.below(1100)).unwrap() - 150
            })),
            2 => FieldTree::Count(Tree::random(rng, depth, &mut |r: &mut Rng| {
                if r.chance(20) {
                    u32::MAX - u32::try_from(r.below(5)).unwrap()
                } else {
                    u32::try_from(r.below(600)).unwrap()
                }
            })),
            3 => FieldTree::Px(Tree::random(rng, depth, &mut |r: &mut Rng| {
                f64::from(u32::try_from(r.below(1000)).unwrap()) / 8.0 - 10.0
            })),
            _ => FieldTree::Ts(Tree::random(rng, depth, &mut |r: &mut Rng| {
                i64::try_from(r.below(11_000)).unwrap() - 5_500
            })),
        }
    }

    fn matches(&self, r: &Row) -> bool {
        match self {
            FieldTree::Symbol(t) => t.eval(r.symbol.as_ref()),
            FieldTree::Size(t) => t.eval(r.size.as_ref()),
            FieldTree::Count(t) => t.eval(r.count.as_ref()),
            FieldTree::Px(t) => t.eval(Some(&r.px)),
            FieldTree::Ts(t) => t.eval(Some(&r.ts)),
        }
    }

    fn apply(&self, f: RowFilterT) -> RowFilterT {
        match self {
            FieldTree::Symbol(t) => f.symbol().matches(t.cond()),
            FieldTree::Size(t) => f.size().matches(t.cond()),
            FieldTree::Count(t) => f.count().matches(t.cond()),
            FieldTree::Px(t) => f.px().matches(t.cond()),
            FieldTree::Ts(t) => f.ts().matches(t.cond()),
        }
    }
}

/// Predicates on dictionary-encoded columns are decided once per
/// dictionary entry and then applied to the indices (`column::verdicts`):
/// random dictionary-encoded files (a dictionary small enough, at times,
/// that chunks fall back to PLAIN pages part-way; nulls; v1 and v2 pages;
/// several row groups and pages) and random conditions (comparisons,
/// `is_in`, `is_null`, `not`, `or`, `and`; strings, signed and unsigned
/// integers widened from INT32, doubles with NaN) give the full read's
/// matching rows on every path: one thread, two, a stream, batches, and
/// borrowed rows.
#[test]
fn dictionary_index_verdicts_equal_the_full_read_filtered() {
    let (mut checked, mut fell_back) = (0, 0);
    for seed in 0..60u64 {
        let mut rng = Rng::new(1_000 + seed);
        let mut l = layout(&mut rng);
        l.dictionary = true;
        l.rows = 200 + rng.below(3000);
        let all = rows(&mut rng, &l);
        let limit = [64, 1_000, 1 << 20][rng.below(3)];
        let bytes = write_with(&l, &all, limit);
        let file = ParquetFile::from_bytes(bytes.clone()).unwrap();
        let meta = file.metadata();
        fell_back += usize::from((0..meta.num_row_groups()).any(|g| {
            (1..6).any(|c| {
                meta.row_group(g)
                    .column(c)
                    .page_encoding_stats_mask()
                    .is_some_and(|m| {
                        !m.is_only(parquet::basic::Encoding::RLE_DICTIONARY)
                            && !m.is_only(parquet::basic::Encoding::PLAIN_DICTIONARY)
                    })
            })
        }));
        let full: Vec<Row> = file.rows().collect().unwrap();
        same(&full, &all, &format!("full read, seed {seed}"));
        for _ in 0..6 {
            let trees: Vec<FieldTree> = (0..=rng.below(2))
                .map(|_| FieldTree::random(&mut rng))
                .collect();
            let filter = trees.iter().fold(Row::filter(), |f, t| t.apply(f));
            let want: Vec<Row> = full
                .iter()
                .filter(|r| trees.iter().all(|t| t.matches(r)))
                .cloned()
                .collect();
            let context = format!("seed {seed} limit {limit} {l:?} {trees:?}");
            let got: Vec<Row> = file.rows().filter(filter.clone()).collect().unwrap();
            same(&got, &want, &format!("collect: {context}"));
            let two: Vec<Row> = file
                .rows()
                .filter(filter.clone())
                .threads(2)
                .collect()
                .unwrap();
            same(&two, &want, &format!("threads(2): {context}"));
            let streamed: Vec<Row> = file
                .rows::<Row>()
                .filter(filter.clone())
                .stream()
                .unwrap()
                .collect::<parquet_rows::Result<_>>()
                .unwrap();
            same(&streamed, &want, &format!("stream: {context}"));
            let batched: Vec<Row> = file
                .rows::<Row>()
                .filter(filter.clone())
                .batches()
                .unwrap()
                .collect::<parquet_rows::Result<Vec<Vec<Row>>>>()
                .unwrap()
                .concat();
            same(&batched, &want, &format!("batches: {context}"));
            // Borrowed: the symbol as `&str` of the dictionary page.
            if let FieldTree::Symbol(t) = &trees[0] {
                let pages = file
                    .rows::<RowRef>()
                    .filter(RowRef::filter().symbol().matches(t.cond()))
                    .load()
                    .unwrap();
                let borrowed: Vec<i64> = pages
                    .rows::<RowRef>()
                    .unwrap()
                    .iter()
                    .map(|r| r.ts)
                    .collect();
                let expected: Vec<i64> = full
                    .iter()
                    .filter(|r| t.eval(r.symbol.as_ref()))
                    .map(|r| r.ts)
                    .collect();
                assert_eq!(borrowed, expected, "load: {context}");
            }
            checked += 1;
        }
    }
    assert_eq!(checked, 360);
    assert!(fell_back > 5, "only {fell_back} files fall back to PLAIN");
}

const SCHEMA_RUNS: &str = "message m {
    REQUIRED INT32 key;
    REQUIRED INT64 id;
    OPTIONAL INT32 size;
    OPTIONAL BINARY name (UTF8);
    REQUIRED DOUBLE px;
}";

/// Page layouts the run tests write every file in: dictionary-encoded or
/// PLAIN, v1 or v2 data pages.
const LAYOUTS: [(bool, WriterVersion); 4] = [
    (true, WriterVersion::PARQUET_1_0),
    (false, WriterVersion::PARQUET_1_0),
    (true, WriterVersion::PARQUET_2_0),
    (false, WriterVersion::PARQUET_2_0),
];

/// 60 000 rows in `groups` row groups of equal size, pages of 97 rows:
/// `key` is 1 in every 41st row and in rows 20 000 to 21 499 (a run longer
/// than a batch), 0 elsewhere; `size` and `name` are null in every third
/// and fifth row.
fn runs_file(dictionary: bool, version: WriterVersion, groups: usize) -> Bytes {
    let props = WriterProperties::builder()
        .set_dictionary_enabled(dictionary)
        .set_writer_version(version)
        .set_max_row_group_row_count(None)
        .set_data_page_row_count_limit(97)
        .set_write_batch_size(97)
        .build();
    let n = 60_000usize;
    let hit = |i: usize| i.is_multiple_of(41) || (20_000..21_500).contains(&i);
    let group = |rows: std::ops::Range<usize>| {
        vec![
            ColumnValues::Int32(rows.clone().map(|i| Some(i32::from(hit(i)))).collect()),
            ColumnValues::Int64(rows.clone().map(|i| Some(i as i64 * 3)).collect()),
            ColumnValues::Int32(
                rows.clone()
                    .map(|i| (i % 3 != 0).then_some((i % 500) as i32))
                    .collect(),
            ),
            ColumnValues::Bytes(
                rows.clone()
                    .map(|i| (i % 5 != 0).then(|| format!("n{}", i % 300).into_bytes()))
                    .collect(),
            ),
            ColumnValues::Double(
                rows.map(|i| Some(f64::from(u32::try_from(i).unwrap()) / 4.0))
                    .collect(),
            ),
        ]
    };
    let size = n / groups;
    let all: Vec<_> = (0..groups)
        .map(|g| group(g * size..(g + 1) * size))
        .collect();
    write_columns(SCHEMA_RUNS, props, &all).unwrap()
}

/// A sparse selection's runs go to each column a batch at a time
/// (`Step::FillRuns`): runs that cross page boundaries and batch
/// boundaries (more than 1024 taken rows, and one run of 1500), on
/// REQUIRED and OPTIONAL columns, dictionary-encoded or PLAIN, v1 or v2
/// pages, decoded in place, into buffers (an `Arc<str>` field) and owned,
/// give the full read's rows filtered by hand on every path.
#[test]
fn batches_of_runs_cross_pages_and_batches() {
    #[derive(ParquetRow, Debug, Clone, Copy, PartialEq)]
    struct Ref<'a> {
        key: i32,
        id: i64,
        size: Option<i32>,
        name: Option<&'a str>,
        px: f64,
    }
    #[derive(ParquetRow, Debug, Clone, PartialEq)]
    struct Owned {
        key: i32,
        id: i64,
        size: Option<i32>,
        name: Option<String>,
        px: f64,
    }
    #[derive(ParquetRow, Debug, Clone, PartialEq)]
    struct Shared {
        key: i32,
        id: i64,
        size: Option<i32>,
        name: Option<Arc<str>>,
        px: f64,
    }
    for (dictionary, version) in LAYOUTS {
        let context = format!("dictionary {dictionary}, {version:?}");
        let file = ParquetFile::from_bytes(runs_file(dictionary, version, 1)).unwrap();
        let all = file.rows::<Owned>().collect().unwrap();
        let want: Vec<Owned> = all.iter().filter(|r| r.key == 1).cloned().collect();
        assert_eq!(want.len(), 1464 + 1500 - 37, "{context}");
        let owned = file
            .rows::<Owned>()
            .filter(Owned::filter().key().eq(1))
            .collect()
            .unwrap();
        assert_eq!(owned, want, "{context}");
        let parallel = file
            .rows::<Owned>()
            .filter(Owned::filter().key().eq(1))
            .threads(2)
            .collect()
            .unwrap();
        assert_eq!(parallel, want, "{context}");
        let shared = file
            .rows::<Shared>()
            .filter(Shared::filter().key().eq(1))
            .collect()
            .unwrap();
        assert!(
            shared.len() == want.len()
                && shared.iter().zip(&want).all(|(s, w)| s.id == w.id
                    && s.size == w.size
                    && s.name.as_deref() == w.name.as_deref()),
            "{context}"
        );
        let pages = file
            .rows::<Ref>()
            .filter(Ref::filter().key().eq(1))
            .load()
            .unwrap();
        let borrowed: Vec<Ref<'_>> = pages.rows().unwrap();
        assert!(
            borrowed.len() == want.len()
                && borrowed.iter().zip(&want).all(|(b, w)| b.id == w.id
                    && b.size == w.size
                    && b.name == w.name.as_deref()
                    && b.px.to_bits() == w.px.to_bits()),
            "{context}"
        );
        // A window that starts and ends inside batches.
        let streamed: Vec<Owned> = file
            .rows::<Owned>()
            .filter(Owned::filter().key().eq(1).offset(700).limit(1900))
            .stream()
            .unwrap()
            .collect::<parquet_rows::Result<_>>()
            .unwrap();
        assert_eq!(streamed, want[700..2600], "{context}");
    }
}

/// `$query()` read into `$ty` by `collect`, `threads(2)` and `stream` gives
/// `$want`, and with an offset and a limit, the rows `$window` of it. A
/// macro: a generic function cannot name the filter type of `$ty` for the
/// builder's lifetime.
macro_rules! owned_paths_agree {
    ($file:expr, $ty:ty, $query:expr, $want:expr, $window:expr, $context:expr) => {{
        let (file, query, window, context) = ($file, $query, $window, $context);
        let want: &[$ty] = $want;
        let got = file.rows::<$ty>().filter(query()).collect().unwrap();
        assert_eq!(got, want, "collect, {context}");
        let got = file.rows::<$ty>().filter(query()).threads(2).collect();
        assert_eq!(got.unwrap(), want, "threads(2), {context}");
        let got: Vec<$ty> = file
            .rows::<$ty>()
            .filter(query())
            .stream()
            .unwrap()
            .collect::<parquet_rows::Result<_>>()
            .unwrap();
        assert_eq!(got, want, "stream, {context}");
        let (offset, limit) = (window.start, window.len());
        let got = file
            .rows::<$ty>()
            .filter(query().offset(offset).limit(limit));
        assert_eq!(got.collect().unwrap(), want[window], "window, {context}");
    }};
}

/// A dense selection of rows without drop glue decodes every row and keeps
/// the taken ones a batch at a time (`Kept`), the output reserved ahead of
/// the row groups: on several row groups, owned and borrowed, on one and
/// two threads, streamed, windowed, it gives the full read's rows filtered
/// by hand.
#[test]
fn dense_selections_keep_the_taken_rows_of_every_path() {
    #[derive(ParquetRow, Debug, Clone, Copy, PartialEq)]
    struct Plain<'a> {
        key: i32,
        id: i64,
        size: Option<i32>,
        name: Option<&'a str>,
        px: f64,
    }
    #[derive(ParquetRow, Debug, Clone, Copy, PartialEq)]
    struct Numbers {
        key: i32,
        id: i64,
        size: Option<i32>,
        px: f64,
    }
    for (dictionary, version) in LAYOUTS {
        let context = format!("dictionary {dictionary}, {version:?}");
        let file = ParquetFile::from_bytes(runs_file(dictionary, version, 3)).unwrap();
        assert_eq!(file.num_row_groups(), 3, "{context}");
        let all = file.rows::<Numbers>().collect().unwrap();
        // `key == 0` takes 40 rows in 41 outside one block: gaps of one row,
        // decoded row by row; `size` null or under 250 about two in three.
        let dense = || Numbers::filter().key().eq(0);
        let want: Vec<Numbers> = all.iter().filter(|r| r.key == 0).copied().collect();
        assert!(want.len() > 55_000, "{context}");
        owned_paths_agree!(&file, Numbers, dense, &want, 19_000..42_000, &context);
        let mixed: Vec<Numbers> = all
            .iter()
            .filter(|r| r.key == 0 && r.size.is_none_or(|s| s < 250))
            .copied()
            .collect();
        let got = file
            .rows::<Numbers>()
            .filter(dense().size().matches(Cond::lt(250).or(Cond::is_null())))
            .collect()
            .unwrap();
        assert_eq!(got, mixed, "two predicates, {context}");

        let pages = file
            .rows::<Plain>()
            .filter(Plain::filter().key().eq(0))
            .load()
            .unwrap();
        let borrowed: Vec<Plain<'_>> = pages.rows().unwrap();
        let every = file.rows::<Plain>().load().unwrap();
        let full: Vec<Plain<'_>> = every.rows().unwrap();
        let want: Vec<(i64, Option<&str>)> = full
            .iter()
            .filter(|r| r.key == 0)
            .map(|r| (r.id, r.name))
            .collect();
        let got: Vec<(i64, Option<&str>)> = borrowed.iter().map(|r| (r.id, r.name)).collect();
        assert_eq!(got, want, "borrowed, {context}");
        let parallel: Vec<Plain<'_>> = pages.par_rows().unwrap();
        assert_eq!(parallel, borrowed, "par_rows, {context}");
        let pages = file
            .rows::<Plain>()
            .filter(Plain::filter().key().eq(0).offset(5).limit(40_000))
            .load()
            .unwrap();
        let window: Vec<(i64, Option<&str>)> = pages
            .rows::<Plain>()
            .unwrap()
            .iter()
            .map(|r| (r.id, r.name))
            .collect();
        assert_eq!(window, want[5..40_005], "borrowed window, {context}");
    }
}

/// A newtype the crate knows nothing of: a converted field's predicates
/// compare in the source type, which the decoded row no longer holds.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Price(f64);

impl From<f64> for Price {
    fn from(value: f64) -> Self {
        Price(value)
    }
}

/// A row group whose first batch keeps rows all over is decoded whole and
/// its predicates tested on the rows, unless a predicate compares strings
/// or tests a converted field, or the query has a window: rows with and
/// without drop glue, numbers, nulls, strings and converted fields, on
/// every path, give the full read's rows filtered by hand. Row group 1 of
/// 3 starts with 1,500 rows that `key == 0` rejects, so a read mixes the
/// two ways.
#[test]
fn scattered_selections_tested_on_rows_or_on_columns_agree() {
    #[derive(ParquetRow, Debug, Clone, PartialEq)]
    struct Named {
        key: i32,
        id: i64,
        size: Option<i32>,
        name: Option<String>,
        #[parquet(from = "f64")]
        px: Price,
    }
    #[derive(ParquetRow, Debug, Clone, Copy, PartialEq)]
    struct Converted {
        key: i32,
        size: Option<i32>,
        #[parquet(from = "f64")]
        px: Price,
    }
    type Query = fn() -> FilterOf<Named>;
    type ByHand = fn(&Named) -> bool;
    let queries: [(&str, Query, ByHand); 5] = [
        ("key", || Named::filter().key().eq(0), |r| r.key == 0),
        (
            "key and size",
            || Named::filter().key().eq(0).size().lt(400),
            |r| r.key == 0 && r.size.is_some_and(|s| s < 400),
        ),
        (
            "name is not null",
            || Named::filter().name().is_not_null().id().ge(30_000),
            |r| r.name.is_some() && r.id >= 30_000,
        ),
        (
            "string",
            || Named::filter().name().ne("n7"),
            |r| r.name.as_deref().is_some_and(|n| n != "n7"),
        ),
        (
            "converted",
            || Named::filter().key().eq(0).px().ge(1000.0),
            |r| r.key == 0 && r.px.0 >= 1000.0,
        ),
    ];
    for (dictionary, version) in LAYOUTS {
        let file = ParquetFile::from_bytes(runs_file(dictionary, version, 3)).unwrap();
        let all = file.rows::<Named>().collect().unwrap();
        for (name, query, keep) in &queries {
            let context = format!("{name}, dictionary {dictionary}, {version:?}");
            let want: Vec<Named> = all.iter().filter(|r| keep(r)).cloned().collect();
            assert!(want.len() > 20_000, "{context}: {} rows", want.len());
            owned_paths_agree!(&file, Named, query, &want, 1_001..18_001, &context);
        }
        let all = file.rows::<Converted>().collect().unwrap();
        let want: Vec<Converted> = all
            .iter()
            .filter(|r| r.key == 0 && r.px.0 < 9000.0)
            .copied()
            .collect();
        let query = || Converted::filter().key().eq(0).px().lt(9000.0);
        let got = file.rows::<Converted>().filter(query()).collect().unwrap();
        assert_eq!(got, want, "converted, {dictionary}, {version:?}");
        let pages = file.rows::<Converted>().filter(query()).load().unwrap();
        assert_eq!(pages.rows::<Converted>().unwrap(), want);
        assert_eq!(pages.par_rows::<Converted>().unwrap(), want);
    }
}
