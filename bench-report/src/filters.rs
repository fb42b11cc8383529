//! Issue 17's queries: a 1 % `ts` range of a 10M-row tick file sorted by
//! `ts` (20 row groups, statistics and page index), and one symbol of a
//! 50-symbol dictionary-encoded file; parquet-rows' filtered reads against
//! its full read and arrow's `RowFilter` + `RowSelection` in the same run.
//!
//! Then row-level queries no statistics can prune: `bid` below a price that
//! 1 % (and 20 %) of the 50-symbol file's rows are under, scattered over
//! every page, where only decoding the predicate column first saves work.
//!
//! `bench-report filters [--rounds N]` prints, per query and variant, the
//! median and min milliseconds and the ratio to parquet-rows' full read of
//! the same file. Every variant's row count is checked before timing.

use std::hint::black_box;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Instant;

use arrow_array::cast::AsArray;
use arrow_array::types::{Float64Type, Int64Type as ArrowInt64};
use arrow_array::{BooleanArray, RecordBatch};
use bytes::Bytes;
use parquet::arrow::arrow_reader::{
    ArrowPredicateFn, ArrowReaderMetadata, ArrowReaderOptions, ParquetRecordBatchReaderBuilder,
    RowFilter, RowSelection, RowSelector,
};
use parquet::arrow::ProjectionMask;
use parquet::basic::{Compression, ZstdLevel};
use parquet::data_type::{ByteArray, ByteArrayType, DoubleType, Int64Type};
use parquet::file::metadata::{PageIndexPolicy, ParquetMetaData};
use parquet::file::page_index::column_index::ColumnIndexMetaData;
use parquet::file::properties::WriterProperties;
use parquet::file::statistics::Statistics;
use parquet::file::writer::SerializedFileWriter;
use parquet::schema::parser::parse_message_type;
use parquet_rows::{ParquetFile, ParquetRow, RowFilter as _};

use crate::common::{fixtures_dir, Rng};

const SCHEMA: &str = "message ticks {
    REQUIRED INT64 ts;
    REQUIRED BINARY symbol (UTF8);
    REQUIRED DOUBLE bid;
    REQUIRED DOUBLE ask;
}";

/// The sorted tick file: rows and row groups.
pub const TICK_ROWS: usize = 10_000_000;
const TICK_GROUPS: usize = 20;
/// The 50-symbol file: rows, row groups (each holds two symbols).
const SYM_ROWS: usize = 2_000_000;
const SYM_GROUPS: usize = 25;

#[derive(ParquetRow, Debug, Clone, Copy, PartialEq)]
pub struct Tick<'a> {
    pub ts: i64,
    pub symbol: &'a str,
    pub bid: f64,
    pub ask: f64,
}

#[derive(ParquetRow, Debug, Clone, PartialEq)]
pub struct TickOwned {
    pub ts: i64,
    pub symbol: String,
    pub bid: f64,
    pub ask: f64,
}

/// The tick rows with `ts` as `parquet-rows struct` writes it for a
/// pyarrow or duckdb timestamp column.
#[derive(ParquetRow, Debug, Clone, Copy, PartialEq)]
pub struct TickTs<'a> {
    pub ts: parquet_rows::Timestamp,
    pub symbol: &'a str,
    pub bid: f64,
    pub ask: f64,
}

#[derive(ParquetRow, Debug, Clone, PartialEq)]
pub struct TickTsOwned {
    pub ts: Option<parquet_rows::Timestamp>,
    pub symbol: Option<String>,
    pub bid: Option<f64>,
    pub ask: Option<f64>,
}

/// The tick file's schema with `ts` annotated TIMESTAMP(MICROS, UTC).
const TS_SCHEMA: &str = "message ticks {
    REQUIRED INT64 ts (TIMESTAMP(MICROS, true));
    REQUIRED BINARY symbol (UTF8);
    REQUIRED DOUBLE bid;
    REQUIRED DOUBLE ask;
}";

fn ts_of(i: usize) -> i64 {
    1_774_000_000_000_000 + i as i64 * 137
}

fn symbols() -> Vec<String> {
    let ccy = ["EUR", "USD", "GBP", "JPY", "CHF", "AUD", "CAD", "NZD"];
    let mut out: Vec<String> = ccy
        .iter()
        .flat_map(|a| {
            ccy.iter()
                .filter(move |b| *b != a)
                .map(move |b| format!("{a}{b}"))
        })
        .take(50)
        .collect();
    out.sort();
    out
}

/// Writes `groups` row groups, each of the rows `rows(g)` gives
/// (ts, symbol index, bid), with the `parquet` writer's defaults (page
/// statistics, offset index, dictionary), ZSTD.
fn write(
    path: &PathBuf,
    schema: &str,
    groups: usize,
    symbols: &[String],
    mut rows: impl FnMut(usize) -> Vec<(i64, usize, f64)>,
) {
    let props = WriterProperties::builder()
        .set_compression(Compression::ZSTD(ZstdLevel::default()))
        .set_max_row_group_row_count(None)
        .build();
    let schema = Arc::new(parse_message_type(schema).expect("schema"));
    let tmp = path.with_extension(format!("{}.tmp", std::process::id()));
    let file = std::fs::File::create(&tmp).expect("create fixture");
    let mut writer = SerializedFileWriter::new(file, schema, Arc::new(props)).expect("writer");
    let names: Vec<ByteArray> = symbols
        .iter()
        .map(|s| ByteArray::from(s.as_str()))
        .collect();
    for g in 0..groups {
        let group = rows(g);
        let mut rg = writer.next_row_group().expect("row group");
        let ts: Vec<i64> = group.iter().map(|r| r.0).collect();
        let sym: Vec<ByteArray> = group.iter().map(|r| names[r.1].clone()).collect();
        let bid: Vec<f64> = group.iter().map(|r| r.2).collect();
        let ask: Vec<f64> = bid.iter().map(|b| b + 0.0002).collect();
        let mut col = rg.next_column().expect("ts").expect("ts");
        col.typed::<Int64Type>()
            .write_batch(&ts, None, None)
            .expect("ts");
        col.close().expect("ts");
        let mut col = rg.next_column().expect("symbol").expect("symbol");
        col.typed::<ByteArrayType>()
            .write_batch(&sym, None, None)
            .expect("symbol");
        col.close().expect("symbol");
        for values in [&bid, &ask] {
            let mut col = rg.next_column().expect("price").expect("price");
            col.typed::<DoubleType>()
                .write_batch(values, None, None)
                .expect("price");
            col.close().expect("price");
        }
        rg.close().expect("row group");
    }
    writer.close().expect("close");
    std::fs::rename(&tmp, path).expect("rename fixture");
}

/// 10M ticks sorted by `ts`, 20 row groups of 500k, 5 symbols at random.
fn tick_file() -> PathBuf {
    let path = fixtures_dir().join("bench-filter-ticks-10m-v1.parquet");
    if !path.exists() {
        let syms = symbols();
        let per = TICK_ROWS / TICK_GROUPS;
        let mut rng = Rng(17);
        write(&path, SCHEMA, TICK_GROUPS, &syms, |g| {
            (g * per..(g + 1) * per)
                .map(|i| {
                    (
                        ts_of(i),
                        rng.below(5) as usize,
                        1.1 + rng.below(1000) as f64 * 1e-5,
                    )
                })
                .collect()
        });
    }
    path
}

/// The sorted tick file again, `ts` annotated TIMESTAMP(MICROS, UTC).
fn tick_ts_file() -> PathBuf {
    let path = fixtures_dir().join("bench-filter-ticks-ts-10m-v1.parquet");
    if !path.exists() {
        let syms = symbols();
        let per = TICK_ROWS / TICK_GROUPS;
        let mut rng = Rng(17);
        write(&path, TS_SCHEMA, TICK_GROUPS, &syms, |g| {
            (g * per..(g + 1) * per)
                .map(|i| {
                    (
                        ts_of(i),
                        rng.below(5) as usize,
                        1.1 + rng.below(1000) as f64 * 1e-5,
                    )
                })
                .collect()
        });
    }
    path
}

/// 2M ticks of 50 symbols; row group `g` holds symbols `g` and `g + 25`
/// (sorted names) in time order: a symbol's rows (2 %) are in one row group,
/// and the min/max of 8 others span it, so only their dictionaries rule
/// them out.
fn symbol_file() -> PathBuf {
    let path = fixtures_dir().join("bench-filter-sym50-v1.parquet");
    if !path.exists() {
        let syms = symbols();
        let per = SYM_ROWS / SYM_GROUPS;
        let mut rng = Rng(50);
        write(&path, SCHEMA, SYM_GROUPS, &syms, |g| {
            (g * per..(g + 1) * per)
                .map(|i| {
                    let s = if rng.percent(50) { g } else { g + SYM_GROUPS };
                    (ts_of(i), s, 1.0 + rng.below(1000) as f64 * 1e-5)
                })
                .collect()
        });
    }
    path
}

/// Row groups whose statistics of column `col` may hold values in `lo..=hi`
/// (what an arrow user writes by hand).
fn groups_by_stats(
    meta: &ParquetMetaData,
    col: usize,
    keep: impl Fn(&Statistics) -> bool,
) -> Vec<usize> {
    (0..meta.num_row_groups())
        .filter(|&g| meta.row_group(g).column(col).statistics().is_none_or(&keep))
        .collect()
}

/// A `RowSelection` over `groups` from the page index of the `ts` column:
/// the pages whose min/max meet `lo..hi`.
fn ts_selection(meta: &ParquetMetaData, groups: &[usize], lo: i64, hi: i64) -> RowSelection {
    let mut selectors = Vec::new();
    for &g in groups {
        let rows = meta.row_group(g).num_rows() as usize;
        let page_index = meta.page_index_for_row_group(g);
        let locations = page_index
            .offset_index(0)
            .expect("offset index")
            .page_locations();
        let Some(ColumnIndexMetaData::INT64(index)) = page_index.column_index(0) else {
            panic!("ts column index")
        };
        for (p, loc) in locations.iter().enumerate() {
            let start = loc.first_row_index as usize;
            let end = locations
                .get(p + 1)
                .map_or(rows, |l| l.first_row_index as usize);
            let hit = match (index.min_value(p), index.max_value(p)) {
                (Some(&min), Some(&max)) => min < hi && max >= lo,
                _ => true,
            };
            selectors.push(if hit {
                RowSelector::select(end - start)
            } else {
                RowSelector::skip(end - start)
            });
        }
    }
    RowSelection::from(selectors)
}

/// Rows of arrow batches as borrowed ticks (as the `arrow-borrowed` variants).
fn ticks_of(batches: &[RecordBatch]) -> Vec<Tick<'_>> {
    let mut out = Vec::with_capacity(batches.iter().map(RecordBatch::num_rows).sum());
    for b in batches {
        let ts = b.column(0).as_primitive::<ArrowInt64>();
        let sym = b.column(1).as_string::<i32>();
        let bid = b.column(2).as_primitive::<Float64Type>();
        let ask = b.column(3).as_primitive::<Float64Type>();
        for i in 0..b.num_rows() {
            out.push(Tick {
                ts: ts.value(i),
                symbol: sym.value(i),
                bid: bid.value(i),
                ask: ask.value(i),
            });
        }
    }
    out
}

/// arrow: row groups by statistics, pages by `selection`, rows by `predicate`
/// on column `col`.
fn arrow_query(
    bytes: &Bytes,
    meta: &ArrowReaderMetadata,
    groups: Vec<usize>,
    selection: Option<RowSelection>,
    col: usize,
    predicate: impl FnMut(RecordBatch) -> Result<BooleanArray, arrow_schema::ArrowError>
        + Send
        + 'static,
) -> usize {
    let builder = ParquetRecordBatchReaderBuilder::new_with_metadata(bytes.clone(), meta.clone());
    let mask = ProjectionMask::leaves(builder.parquet_schema(), [col]);
    let filter = RowFilter::new(vec![Box::new(ArrowPredicateFn::new(mask, predicate))]);
    let mut builder = builder.with_row_groups(groups).with_row_filter(filter);
    if let Some(selection) = selection {
        builder = builder.with_row_selection(selection);
    }
    let batches: Vec<RecordBatch> = builder
        .build()
        .expect("arrow reader")
        .collect::<Result<_, _>>()
        .expect("batches");
    let rows = ticks_of(&batches);
    black_box(&rows);
    rows.len()
}

struct Query<'a> {
    name: &'static str,
    expected: usize,
    variants: Vec<(&'static str, Box<dyn FnMut() -> usize + 'a>)>,
}

/// The worst ratio so far of a parquet-rows filtered read to its full
/// read of the same file and ownership (query, variant, ratio).
static WORST: std::sync::Mutex<Option<(String, String, f64)>> = std::sync::Mutex::new(None);

/// Whether variant `name` is a parquet-rows filtered read on one thread
/// (not a full read, a peer, a read filtered by hand or a parallel one).
fn ours_filtered(name: &str) -> bool {
    !(name.starts_with("full")
        || name.starts_with("arrow")
        || name.contains("by-hand")
        || name.ends_with("-2t"))
}

fn time(q: &mut Query<'_>, rounds: usize) -> Vec<f64> {
    // FILTERS_LOOP=VARIANT:SECONDS runs one variant of the selected queries
    // over and over instead (for `perf record` or callgrind), timing nothing.
    if let Ok(spec) = std::env::var("FILTERS_LOOP") {
        let (variant, seconds) = spec.split_once(':').expect("FILTERS_LOOP=VARIANT:SECONDS");
        let seconds: f64 = seconds.parse().expect("FILTERS_LOOP seconds");
        let run = &mut q.variants.iter_mut().find(|(n, _)| *n == variant).expect("variant").1;
        let (t0, mut reads) = (Instant::now(), 0u32);
        while reads == 0 || t0.elapsed().as_secs_f64() < seconds {
            black_box(run());
            reads += 1;
        }
        let ms = t0.elapsed().as_secs_f64() * 1e3 / f64::from(reads);
        eprintln!("{} {variant}: {reads} reads, {ms:.2} ms each", q.name);
        return vec![f64::NAN; q.variants.len()];
    }
    for (name, run) in &mut q.variants {
        let n = run();
        let want = if name.starts_with("full") {
            n
        } else {
            q.expected
        };
        assert_eq!(n, want, "{} {name}: rows", q.name);
    }
    let k = q.variants.len();
    let mut samples = vec![Vec::new(); k];
    for round in 0..rounds {
        for j in 0..k {
            let i = (j + round) % k;
            // One untimed read of the same variant first: freeing ten
            // million `String`s leaves glibc work (consolidating and
            // trimming the heap) that the next allocations pay, so a timed
            // read that followed another variant paid for that variant (a
            // full read's median moved from about 230 to over 1,000 ms).
            // Timed after itself, each variant is in the steady state of a
            // loop of the same read, as the peers' script times them.
            black_box((q.variants[i].1)());
            let t0 = Instant::now();
            black_box((q.variants[i].1)());
            if round > 0 {
                samples[i].push(t0.elapsed().as_secs_f64() * 1e3);
            }
        }
    }
    for s in &mut samples {
        s.sort_by(f64::total_cmp);
    }
    let median = |s: &[f64]| s[s.len() / 2];
    let full = median(&samples[0]);
    let full_owned = q
        .variants
        .iter()
        .position(|(n, _)| *n == "full-owned")
        .map(|i| median(&samples[i]));
    let mut medians = Vec::with_capacity(k);
    for (i, (name, _)) in q.variants.iter().enumerate() {
        let m = median(&samples[i]);
        medians.push(m);
        println!(
            "{:<14} {:<24} {:>9} {:>10.2} {:>10.2} {:>8.2}%",
            q.name,
            name,
            q.expected,
            m,
            samples[i][0],
            100.0 * m / full
        );
        if ours_filtered(name) {
            // An owned read against the owned full read when the query has
            // one: both pay for the same strings.
            let base = match full_owned {
                Some(f) if name.contains("owned") => f,
                _ => full,
            };
            let ratio = m / base;
            let mut worst = WORST.lock().expect("worst");
            if worst.as_ref().is_none_or(|w| ratio > w.2) {
                *worst = Some((q.name.to_owned(), (*name).to_owned(), ratio));
            }
        }
    }
    medians
}

/// The 1 % `ts` range again, with `ts` a TIMESTAMP(MICROS) column read
/// into `parquet_rows::Timestamp` (what `parquet-rows struct` writes for a
/// pyarrow timestamp): the bounds in micros and in millis (another unit
/// than the column's), and by hand over the full owned read. Alone with
/// `FILTERS_ONLY=timestamp`.
fn ts_timestamp(rounds: usize) {
    let (lo, hi) = (ts_of(4_950_000), ts_of(5_050_000));
    let bytes = Bytes::from(std::fs::read(tick_ts_file()).expect("read fixture"));
    let file = ParquetFile::from_bytes(bytes).expect("footer");
    let at = |value, unit| parquet_rows::Timestamp {
        value,
        unit,
        utc: true,
    };
    let (lo_us, hi_us) = (
        at(lo, parquet_rows::Unit::Micros),
        at(hi, parquet_rows::Unit::Micros),
    );
    // 4.95M * 137 µs is a whole number of milliseconds: the same rows.
    let (lo_ms, hi_ms) = (
        at(lo / 1_000, parquet_rows::Unit::Millis),
        at(hi / 1_000, parquet_rows::Unit::Millis),
    );
    assert_eq!((lo % 1_000, hi % 1_000), (0, 0));
    let mut q = Query {
        name: "ts-1pct-Timestamp",
        expected: 100_000,
        variants: vec![
            (
                "full-borrowed",
                Box::new(|| {
                    file.load::<TickTs>()
                        .expect("load")
                        .rows::<TickTs>()
                        .expect("rows")
                        .len()
                }),
            ),
            (
                "rows-filtered-borrowed",
                Box::new(|| {
                    let pages = file
                        .rows::<TickTs>().filter(TickTs::filter().ts().in_range(lo_us..hi_us)).load()
                        .expect("load_where");
                    pages.rows::<TickTs>().expect("rows").len()
                }),
            ),
            (
                "rows-filtered-millis",
                Box::new(|| {
                    let pages = file
                        .rows::<TickTs>().filter(TickTs::filter().ts().in_range(lo_ms..hi_ms)).load()
                        .expect("load_where");
                    pages.rows::<TickTs>().expect("rows").len()
                }),
            ),
            (
                "rows-filtered-owned",
                Box::new(|| {
                    file.rows::<TickTsOwned>().filter(TickTsOwned::filter().ts().in_range(lo_us..hi_us)).collect()
                    .expect("read_where")
                    .len()
                }),
            ),
            (
                "owned-full-then-by-hand",
                Box::new(|| {
                    let key = |t: &parquet_rows::Timestamp| t.to_unit(parquet_rows::Unit::Micros);
                    file.rows::<TickTsOwned>().collect()
                        .expect("read")
                        .into_iter()
                        .filter(|t| {
                            t.ts.as_ref()
                                .and_then(key)
                                .is_some_and(|v| (lo..hi).contains(&v))
                        })
                        .count()
                }),
            ),
        ],
    };
    eprintln!("ts-1pct-Timestamp: {} rows", file.num_rows());
    time(&mut q, rounds);
    drop(q);
}

pub fn run(rounds: usize) {
    println!("# {rounds} interleaved rounds, the first discarded, each read timed after an untimed read of the same variant; milliseconds per query");
    println!(
        "{:<14} {:<24} {:>9} {:>10} {:>10} {:>9}",
        "query", "variant", "rows", "median_ms", "min_ms", "of_full"
    );
    match std::env::var("FILTERS_ONLY").as_deref() {
        Ok("timestamp") => {
            ts_timestamp(rounds);
            return;
        }
        Ok("spread") => {
            spread(rounds);
            print_worst();
            return;
        }
        _ => {}
    }

    // 1 % of the sorted file: rows 4.95M..5.05M, across two row groups.
    let bytes = Bytes::from(std::fs::read(tick_file()).expect("read fixture"));
    let file = ParquetFile::from_bytes(bytes.clone()).expect("footer");
    let (lo, hi) = (ts_of(4_950_000), ts_of(5_050_000));
    // The footer and page index parsed once, outside the timers (parquet-rows
    // reads its page index inside them, for the row groups it reads).
    let arrow_meta = ArrowReaderMetadata::load(
        &bytes,
        ArrowReaderOptions::new().with_page_index_policy(PageIndexPolicy::Optional),
    )
    .expect("arrow metadata");
    let meta = arrow_meta.metadata().clone();
    let mut q = Query {
        name: "ts-1pct",
        expected: 100_000,
        variants: vec![
            (
                "full-borrowed",
                Box::new(|| {
                    file.load::<Tick>()
                        .expect("load")
                        .rows::<Tick>()
                        .expect("rows")
                        .len()
                }),
            ),
            (
                "rows-filtered-borrowed",
                Box::new(|| {
                    let pages = file
                        .rows::<Tick>().filter(Tick::filter().ts().in_range(lo..hi)).load()
                        .expect("load_where");
                    pages.rows::<Tick>().expect("rows").len()
                }),
            ),
            (
                "rows-filtered-owned",
                Box::new(|| {
                    file.rows::<TickOwned>().filter(TickOwned::filter().ts().in_range(lo..hi)).collect()
                        .expect("read_where")
                        .len()
                }),
            ),
            (
                "arrow-rowfilter-selection",
                Box::new(|| {
                    let groups = groups_by_stats(&meta, 0, |s| match s {
                        Statistics::Int64(s) => {
                            s.min_opt().is_none_or(|&m| m < hi)
                                && s.max_opt().is_none_or(|&m| m >= lo)
                        }
                        _ => true,
                    });
                    let selection = ts_selection(&meta, &groups, lo, hi);
                    arrow_query(&bytes, &arrow_meta, groups, Some(selection), 0, move |b| {
                        let ts = b.column(0).as_primitive::<ArrowInt64>();
                        Ok(ts.iter().map(|v| v.map(|v| v >= lo && v < hi)).collect())
                    })
                }),
            ),
        ],
    };
    eprintln!(
        "ts-1pct: {} rows, {} row groups",
        file.num_rows(),
        file.num_row_groups()
    );
    time(&mut q, rounds);
    drop(q);

    // The last 1,000 rows by position (`offset`, no predicate): the window
    // is planned from the footer's row counts and the offset index, so only
    // the last pages of the last row group are read; the same rows by a
    // `ts` predicate for comparison (the file is sorted by `ts`).
    let tail = TICK_ROWS - 1000;
    let check = file
        .rows::<TickOwned>().filter(TickOwned::filter().offset(tail)).collect()
        .expect("read_where");
    assert!(
        check.len() == 1000 && check[0].ts == ts_of(tail),
        "tail-1000: the last 1,000 rows"
    );
    let mut q = Query {
        name: "tail-1000",
        expected: 1000,
        variants: vec![
            (
                "full-borrowed",
                Box::new(|| {
                    file.load::<Tick>()
                        .expect("load")
                        .rows::<Tick>()
                        .expect("rows")
                        .len()
                }),
            ),
            (
                "offset-borrowed",
                Box::new(|| {
                    let pages = file
                        .rows::<Tick>().filter(Tick::filter().offset(tail)).load()
                        .expect("load_where");
                    pages.rows::<Tick>().expect("rows").len()
                }),
            ),
            (
                "offset-owned",
                Box::new(|| {
                    file.rows::<TickOwned>().filter(TickOwned::filter().offset(tail)).collect()
                        .expect("read_where")
                        .len()
                }),
            ),
            (
                "ts-ge-owned",
                Box::new(|| {
                    file.rows::<TickOwned>().filter(TickOwned::filter().ts().ge(ts_of(tail))).collect()
                        .expect("read_where")
                        .len()
                }),
            ),
        ],
    };
    time(&mut q, rounds);
    drop(q);
    ts_timestamp(rounds);

    // One symbol of 50 (2 % of the rows).
    let bytes = Bytes::from(std::fs::read(symbol_file()).expect("read fixture"));
    let file = ParquetFile::from_bytes(bytes.clone()).expect("footer");
    let want = symbols()[7].clone();
    // The footer and page index parsed once, outside the timers (parquet-rows
    // reads its page index inside them, for the row groups it reads).
    let arrow_meta = ArrowReaderMetadata::load(
        &bytes,
        ArrowReaderOptions::new().with_page_index_policy(PageIndexPolicy::Optional),
    )
    .expect("arrow metadata");
    let meta = arrow_meta.metadata().clone();
    let expected = file
        .rows::<TickOwned>().filter(TickOwned::filter().symbol().eq(want.as_str())).collect()
        .expect("read_where")
        .len();
    let full = file.rows::<TickOwned>().collect().expect("read");
    assert_eq!(
        expected,
        full.iter().filter(|t| t.symbol == want).count(),
        "symbol rows"
    );
    drop(full);
    let w = want.clone();
    let mut q = Query {
        name: "symbol-1of50",
        expected,
        variants: vec![
            (
                "full-borrowed",
                Box::new(|| {
                    file.load::<Tick>()
                        .expect("load")
                        .rows::<Tick>()
                        .expect("rows")
                        .len()
                }),
            ),
            (
                "rows-filtered-borrowed",
                Box::new(|| {
                    let pages = file
                        .rows::<Tick>().filter(Tick::filter().symbol().eq(w.as_str())).load()
                        .expect("load_where");
                    pages.rows::<Tick>().expect("rows").len()
                }),
            ),
            (
                "rows-filtered-owned",
                Box::new(|| {
                    file.rows::<TickOwned>().filter(TickOwned::filter().symbol().eq(w.as_str())).collect()
                        .expect("read_where")
                        .len()
                }),
            ),
            (
                "arrow-rowfilter",
                Box::new(|| {
                    let want = want.clone();
                    let groups = groups_by_stats(&meta, 1, |s| match s {
                        Statistics::ByteArray(s) => {
                            s.min_opt().is_none_or(|m| m.data() <= want.as_bytes())
                                && s.max_opt().is_none_or(|m| m.data() >= want.as_bytes())
                        }
                        _ => true,
                    });
                    arrow_query(&bytes, &arrow_meta, groups, None, 1, move |b| {
                        let sym = b.column(0).as_string::<i32>();
                        Ok(sym.iter().map(|v| v.map(|v| v == want)).collect())
                    })
                }),
            ),
        ],
    };
    eprintln!(
        "symbol-1of50: {} rows, {} row groups, symbol {}",
        file.num_rows(),
        file.num_row_groups(),
        symbols()[7]
    );
    time(&mut q, rounds);
    drop(q);

    // `bid` is uniform over 1000 steps in every row group and page: nothing
    // is pruned, every row is tested.
    for (name, steps) in [("bid-1pct", 10), ("bid-20pct", 200)] {
        let below = 1.0 + f64::from(steps) * 1e-5 - 1e-7;
        bid_query(name, &bytes, &file, &arrow_meta, below, rounds);
    }
    drop(file);
    spread(rounds);
    print_worst();
}

fn print_worst() {
    if let Some((query, variant, ratio)) = WORST.lock().expect("worst").take() {
        println!(
            "# worst filtered read against its full read: {query} {variant} {:.1}%",
            100.0 * ratio
        );
    }
}

/// The spread-symbol file as pyarrow writes it (see [`spread_file`]).
const PYARROW_SPREAD: &str = "bench-filter-spread50-10m-pyarrow.parquet";

/// The spread-symbol file: rows, row groups.
const SPREAD_ROWS: usize = 10_000_000;
const SPREAD_GROUPS: usize = 20;

/// 10M ticks sorted by `ts`, 20 row groups of 500k, each row's symbol one
/// of 50 at random: every row group and page holds every symbol, so
/// neither statistics nor dictionaries rule anything out.
///
/// With `FILTERS_SPREAD=pyarrow`, the same rows as pyarrow writes them with
/// its defaults (SNAPPY, row groups of 1Mi rows, dictionary on every
/// column): the file issue 25 measured on, written by
/// `peers/filters.py --write-pyarrow-spread` from this one.
fn spread_file() -> PathBuf {
    if std::env::var("FILTERS_SPREAD").as_deref() == Ok("pyarrow") {
        let path = fixtures_dir().join(PYARROW_SPREAD);
        assert!(
            path.exists(),
            "{} is missing: run `bench-report filters` once (FILTERS_ONLY=spread), then \
             `target/peers-venv/bin/python bench-report/peers/filters.py --root . \
             --write-pyarrow-spread`",
            path.display()
        );
        return path;
    }
    let path = fixtures_dir().join("bench-filter-spread50-10m-v1.parquet");
    if !path.exists() {
        let syms = symbols();
        let per = SPREAD_ROWS / SPREAD_GROUPS;
        let mut rng = Rng(2550);
        write(&path, SCHEMA, SPREAD_GROUPS, &syms, |g| {
            (g * per..(g + 1) * per)
                .map(|i| {
                    (
                        ts_of(i),
                        rng.below(50) as usize,
                        1.0 + rng.below(1000) as f64 * 1e-5,
                    )
                })
                .collect()
        });
    }
    path
}

/// Queries nothing prunes on the spread-symbol file (issue 25 part 3): one
/// symbol of 50 (2 %), three of 50, `bid` under its 1 % and 50 % points,
/// and a disjunction across fields; each borrowed, owned, and owned on two
/// threads (its ratio to one thread printed after).
fn spread(rounds: usize) {
    let path = spread_file();
    let bytes = Bytes::from(std::fs::read(&path).expect("read fixture"));
    let ser = &parquet::file::serialized_reader::SerializedFileReader::new(bytes.clone())
        .expect("footer");
    let file = &ParquetFile::from_bytes(bytes).expect("footer");
    let syms = symbols();
    let want = syms[7].clone();
    let three = [syms[7].clone(), syms[19].clone(), syms[33].clone()];
    let full = file.rows::<TickOwned>().collect().expect("full read");
    eprintln!(
        "spread ({}): {} rows, {} row groups",
        path.display(),
        file.num_rows(),
        file.num_row_groups()
    );
    type Q = parquet_rows::Query<parquet_rows::FilterOf<TickOwned>>;
    type B = parquet_rows::Query<parquet_rows::FilterOf<Tick<'static>>>;
    let bid1 = 1.0 + 10.0 * 1e-5 - 1e-7;
    let bid50 = 1.0 + 500.0 * 1e-5 - 1e-7;
    let cases: Vec<(&'static str, Q, B, Box<dyn Fn(&TickOwned) -> bool>)> = vec![
        (
            "spread-sym-eq",
            TickOwned::filter().symbol().eq(want.as_str()).into(),
            Tick::filter().symbol().eq(want.as_str()).into(),
            Box::new({
                let w = want.clone();
                move |t: &TickOwned| t.symbol == w
            }),
        ),
        (
            "spread-sym-in3",
            TickOwned::filter().symbol().is_in(three.clone()).into(),
            Tick::filter().symbol().is_in(three.clone()).into(),
            Box::new({
                let three = three.clone();
                move |t: &TickOwned| three.contains(&t.symbol)
            }),
        ),
        (
            "spread-bid-1pct",
            TickOwned::filter().bid().lt(bid1).into(),
            Tick::filter().bid().lt(bid1).into(),
            Box::new(move |t: &TickOwned| t.bid < bid1),
        ),
        (
            "spread-bid-50pct",
            TickOwned::filter().bid().lt(bid50).into(),
            Tick::filter().bid().lt(bid50).into(),
            Box::new(move |t: &TickOwned| t.bid < bid50),
        ),
    ];
    let only = std::env::var("FILTERS_CASE").ok();
    for (name, owned, borrowed, by_hand) in cases {
        if only.as_deref().is_some_and(|o| o != name) {
            continue;
        }
        let expected = full.iter().filter(|t| by_hand(t)).count();
        let (o1, o2, b) = (owned.clone(), owned, borrowed);
        let mut q = Query {
            name,
            expected,
            variants: vec![
                (
                    "full-borrowed",
                    Box::new(move || {
                        file.rows::<Tick>()
                            .load()
                            .expect("load")
                            .rows::<Tick>()
                            .expect("rows")
                            .len()
                    }),
                ),
                (
                    "rows-filtered-borrowed",
                    Box::new(move || {
                        file.rows::<Tick>()
                            .filter(b.clone())
                            .load()
                            .expect("load")
                            .rows::<Tick>()
                            .expect("rows")
                            .len()
                    }),
                ),
                (
                    "full-owned",
                    Box::new(move || file.rows::<TickOwned>().collect().expect("read").len()),
                ),
                (
                    "rows-filtered-owned",
                    Box::new(move || {
                        file.rows::<TickOwned>()
                            .filter(o1.clone())
                            .collect()
                            .expect("read")
                            .len()
                    }),
                ),
                (
                    "filtered-owned-2t",
                    Box::new(move || {
                        file.rows::<TickOwned>()
                            .filter(o2.clone())
                            .threads(2)
                            .collect()
                            .expect("read")
                            .len()
                    }),
                ),
                (
                    // Every page read and decompressed (by `parquet`'s page
                    // reader), no value decoded: the floor of any read of
                    // this file where every page holds a wanted row. (Our
                    // own `load` decompresses a page when a reader first
                    // opens it, so it is no floor.)
                    "full-page-floor",
                    Box::new(move || {
                        crate::common::floor(ser);
                        0
                    }),
                ),
            ],
        };
        let m = time(&mut q, rounds);
        println!(
            "# {name}: two threads {:.2}x faster than one (owned, filtered)",
            m[3] / m[4]
        );
    }
}

/// `bid < below` on the 50-symbol file: parquet-rows borrowed and owned,
/// and arrow's `RowFilter` on the `bid` column.
fn bid_query(
    name: &'static str,
    bytes: &Bytes,
    file: &ParquetFile,
    arrow_meta: &ArrowReaderMetadata,
    below: f64,
    rounds: usize,
) {
    let full = file.rows::<TickOwned>().collect().expect("read");
    let expected = full.iter().filter(|t| t.bid < below).count();
    drop(full);
    let groups: Vec<usize> = (0..file.num_row_groups()).collect();
    let mut q = Query {
        name,
        expected,
        variants: vec![
            (
                "full-borrowed",
                Box::new(|| {
                    file.load::<Tick>()
                        .expect("load")
                        .rows::<Tick>()
                        .expect("rows")
                        .len()
                }),
            ),
            (
                "rows-filtered-borrowed",
                Box::new(|| {
                    let pages = file
                        .rows::<Tick>().filter(Tick::filter().bid().lt(below)).load()
                        .expect("load_where");
                    pages.rows::<Tick>().expect("rows").len()
                }),
            ),
            (
                "rows-filtered-owned",
                Box::new(|| {
                    file.rows::<TickOwned>().filter(TickOwned::filter().bid().lt(below)).collect()
                        .expect("read_where")
                        .len()
                }),
            ),
            (
                "full-owned",
                Box::new(|| file.rows::<TickOwned>().collect().expect("read").len()),
            ),
            (
                "arrow-rowfilter",
                Box::new(move || {
                    arrow_query(bytes, arrow_meta, groups.clone(), None, 2, move |b| {
                        let bid = b.column(0).as_primitive::<Float64Type>();
                        Ok(bid.iter().map(|v| v.map(|v| v < below)).collect())
                    })
                }),
            ),
        ],
    };
    eprintln!("{name}: bid < {below}, {expected} rows");
    time(&mut q, rounds);
}
