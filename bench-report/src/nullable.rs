//! Tick files as pyarrow, pandas and duckdb write them (issue #13): 1,000,000
//! rows, every column OPTIONAL with no null, 8 symbols in random order,
//! dictionary encoding with PLAIN fallback (the writer's defaults). Three
//! layouts: SNAPPY in one row group (pyarrow's default), SNAPPY in row groups
//! of 122,880 rows (duckdb's default), ZSTD in 8 row groups.
//!
//! The same files are read by polars, pyarrow and duckdb in `peers/`.

use std::path::PathBuf;
use std::sync::Arc;

use arrow_array::cast::AsArray;
use arrow_array::types::{
    ArrowPrimitiveType, Float64Type, Int32Type as ArrowInt32, TimestampMicrosecondType,
};
use arrow_array::{Array, PrimitiveArray, RecordBatch, StringArray};
use parquet::basic::{Compression, ZstdLevel};
use parquet::file::properties::WriterProperties;
use parquet_rows::compact_str::CompactString;
use parquet_rows::ParquetRow;

use crate::common::{arrow_batches, fixtures_dir, floor, write_parquet, Col, Loaded, Rng};
use crate::harness::{execute, output, variant, Kind, Measured, Mode};

pub const ROWS: usize = 1_000_000;

/// The one-row-group SNAPPY file (pyarrow's defaults).
pub const SNAPPY: &str = "opt-1m-snappy";
/// SNAPPY in row groups of 122,880 rows (duckdb's defaults).
pub const DUCKDB: &str = "opt-1m-duckdb";
/// ZSTD in 8 row groups.
pub const ZSTD8: &str = "opt-1m-zstd8";
/// Every fixture of this module, in report order.
pub const NAMES: [&str; 3] = [SNAPPY, DUCKDB, ZSTD8];

/// pyarrow writes a naive timestamp as `TIMESTAMP(MICROS,false)` and a string
/// as `STRING`, every column OPTIONAL.
const SCHEMA: &str = "message schema {
    OPTIONAL INT64 ts (TIMESTAMP(MICROS,false));
    OPTIONAL BINARY symbol (STRING);
    OPTIONAL DOUBLE bid;
    OPTIONAL DOUBLE ask;
    OPTIONAL INT32 size;
}";

const SYMBOLS: [&str; 8] = [
    "EURUSD", "GBPUSD", "USDJPY", "USDCHF", "AUDUSD", "USDCAD", "NZDUSD", "EURGBP",
];

/// A tick with every field `Option`, as OPTIONAL columns may hold nulls.
#[derive(ParquetRow, Debug, Clone, Copy, Default, PartialEq)]
pub struct OptTick<'a> {
    pub ts: Option<i64>,
    pub symbol: Option<&'a str>,
    pub bid: Option<f64>,
    pub ask: Option<f64>,
    pub size: Option<i32>,
}

#[derive(ParquetRow, Debug, Clone, PartialEq)]
pub struct OptTickOwned {
    pub ts: Option<i64>,
    pub symbol: Option<String>,
    pub bid: Option<f64>,
    pub ask: Option<f64>,
    pub size: Option<i32>,
}

#[derive(ParquetRow, Debug, Clone, PartialEq)]
pub struct OptTickArc {
    pub ts: Option<i64>,
    pub symbol: Option<Arc<str>>,
    pub bid: Option<f64>,
    pub ask: Option<f64>,
    pub size: Option<i32>,
}

/// Owned rows whose symbol is kept inline (`CompactString`, up to 24 bytes):
/// a copy per row, no allocation.
#[derive(ParquetRow, Debug, Clone, PartialEq)]
pub struct OptTickInline {
    pub ts: Option<i64>,
    pub symbol: Option<CompactString>,
    pub bid: Option<f64>,
    pub ask: Option<f64>,
    pub size: Option<i32>,
}

fn canon_inline(t: &OptTickInline) -> OptTickOwned {
    OptTickOwned {
        ts: t.ts,
        symbol: t.symbol.as_deref().map(str::to_owned),
        bid: t.bid,
        ask: t.ask,
        size: t.size,
    }
}

/// Plain fields on the OPTIONAL columns: binds only where the binder accepts
/// a non-`Option` field on an OPTIONAL column (issue #13, item 1).
#[derive(ParquetRow, Debug, Clone, Copy, Default, PartialEq)]
pub struct PlainTick<'a> {
    pub ts: i64,
    pub symbol: &'a str,
    pub bid: f64,
    pub ask: f64,
    pub size: i32,
}

fn canon(t: &OptTick<'_>) -> OptTickOwned {
    OptTickOwned {
        ts: t.ts,
        symbol: t.symbol.map(str::to_owned),
        bid: t.bid,
        ask: t.ask,
        size: t.size,
    }
}

fn canon_plain(t: &PlainTick<'_>) -> OptTickOwned {
    OptTickOwned {
        ts: Some(t.ts),
        symbol: Some(t.symbol.to_owned()),
        bid: Some(t.bid),
        ask: Some(t.ask),
        size: Some(t.size),
    }
}

/// The fixtures' rows, generated (deterministically) again for the check.
fn generate() -> Vec<OptTickOwned> {
    let mut rng = Rng(13);
    let mut mid = [1.0f64; SYMBOLS.len()];
    (0..ROWS)
        .map(|i| {
            let s = rng.below(SYMBOLS.len() as u64) as usize;
            mid[s] += (rng.below(21) as f64 - 10.0) * 1e-5;
            let bid = (mid[s] * 1e5).round() / 1e5;
            OptTickOwned {
                ts: Some(1_774_000_000_000_000 + i as i64 * 53 + rng.below(50) as i64),
                symbol: Some(SYMBOLS[s].to_owned()),
                bid: Some(bid),
                ask: Some(bid + 0.0001 * (1 + rng.below(3)) as f64),
                size: Some(1 + rng.below(1000) as i32),
            }
        })
        .collect()
}

/// The file of fixture `name` (`target/fixtures/bench-NAME-v1.parquet`; the
/// peers script finds it by the same name), written first when missing.
fn file(name: &str, rows: &[OptTickOwned]) -> PathBuf {
    let path = fixtures_dir().join(format!("bench-{name}-v1.parquet"));
    if path.exists() {
        return path;
    }
    let (compression, group) = match name {
        SNAPPY => (Compression::SNAPPY, ROWS),
        DUCKDB => (Compression::SNAPPY, 122_880),
        ZSTD8 => (Compression::ZSTD(ZstdLevel::default()), ROWS / 8),
        _ => unreachable!("unknown fixture {name}"),
    };
    // Everything else is the writer's default: dictionary pages with PLAIN
    // fallback once a dictionary passes 1 MiB, 1 MiB data pages, statistics.
    let props = WriterProperties::builder()
        .set_compression(compression)
        .set_max_row_group_row_count(Some(group))
        .build();
    let groups: Vec<Vec<Col>> = rows
        .chunks(group)
        .map(|g| {
            vec![
                Col::I64(g.iter().map(|t| t.ts).collect()),
                Col::Str(g.iter().map(|t| t.symbol.clone()).collect()),
                Col::F64(g.iter().map(|t| t.bid).collect()),
                Col::F64(g.iter().map(|t| t.ask).collect()),
                Col::I32(g.iter().map(|t| t.size).collect()),
            ]
        })
        .collect();
    write_parquet(&path, SCHEMA, props, &groups);
    path
}

fn at<T: ArrowPrimitiveType>(a: &PrimitiveArray<T>, i: usize) -> Option<T::Native> {
    a.is_valid(i).then(|| a.value(i))
}

fn str_at(a: &StringArray, i: usize) -> Option<&str> {
    a.is_valid(i).then(|| a.value(i))
}

/// Arrow batches into rows, by hand, as a user of arrow-rs writes it.
fn arrow_rows<'b, T>(
    batch: &'b RecordBatch,
    out: &mut Vec<T>,
    row: impl Fn(Option<i64>, Option<&'b str>, Option<f64>, Option<f64>, Option<i32>) -> T,
) {
    let ts = batch.column(0).as_primitive::<TimestampMicrosecondType>();
    let sym = batch.column(1).as_string::<i32>();
    let bid = batch.column(2).as_primitive::<Float64Type>();
    let ask = batch.column(3).as_primitive::<Float64Type>();
    let size = batch.column(4).as_primitive::<ArrowInt32>();
    for i in 0..batch.num_rows() {
        out.push(row(
            at(ts, i),
            str_at(sym, i),
            at(bid, i),
            at(ask, i),
            at(size, i),
        ));
    }
}

fn arrow_owned(l: &Loaded) -> Vec<OptTickOwned> {
    let mut out = Vec::with_capacity(l.rows());
    for batch in l.arrow_reader() {
        let b = batch.expect("batch");
        arrow_rows(&b, &mut out, |ts, symbol, bid, ask, size| OptTickOwned {
            ts,
            symbol: symbol.map(str::to_owned),
            bid,
            ask,
            size,
        });
    }
    out
}

fn arrow_borrowed(batches: &[RecordBatch]) -> Vec<OptTick<'_>> {
    let mut out = Vec::with_capacity(batches.iter().map(RecordBatch::num_rows).sum());
    for b in batches {
        arrow_rows(b, &mut out, |ts, symbol, bid, ask, size| OptTick {
            ts,
            symbol,
            bid,
            ask,
            size,
        });
    }
    out
}

/// Writes `n` default rows after `rows` as the decoders' sink places them
/// (room reserved for all, huge pages advised, placeholders written a batch
/// of 1,024 at a time) and returns how many `rows` holds: the rows' memory
/// written once, with no value decoded.
fn place_rows<T: Default>(rows: &mut Vec<T>, n: usize) -> usize {
    use parquet_rows::__private_v1::RowSink;
    rows.reserve_rows(n).expect("reserve");
    let mut left = n;
    while left > 0 {
        let k = left.min(1024);
        std::hint::black_box(rows.place(k, T::default));
        left -= k;
    }
    std::hint::black_box(rows).len()
}

/// Whether [`PlainTick`] binds to the file; `Err` for anything but a schema mismatch.
fn plain_binds(l: &Loaded, name: &str) -> bool {
    match l.file.load::<PlainTick>() {
        Ok(_) => true,
        Err(parquet_rows::Error::Schema(e)) => {
            eprintln!("{name} rows-plain does not bind: {e}");
            false
        }
        Err(e) => panic!("{name} rows-plain: {e}"),
    }
}

pub fn run(mode: &Mode, only: &dyn Fn(&str) -> bool) -> Vec<Measured> {
    if !NAMES.iter().any(|n| only(n)) {
        return Vec::new();
    }
    let expected = generate();
    let pools: Vec<rayon::ThreadPool> = [1, 2]
        .into_iter()
        .map(|n| {
            rayon::ThreadPoolBuilder::new()
                .num_threads(n)
                .build()
                .expect("thread pool")
        })
        .collect();
    let (p1, p2) = (&pools[0], &pools[1]);
    let mut all = Vec::new();
    for name in NAMES {
        if !only(name) {
            continue;
        }
        let l = Loaded::new(&file(name, &expected));
        eprintln!("{}", l.describe(name));
        let plain = plain_binds(&l, name);
        if let Mode::Run { variant, .. } = mode {
            if variant == "rows-plain" && !plain {
                println!("{name} rows-plain: n/a (does not bind)");
                continue;
            }
        }
        // `rows-reused`: the rows' `Vec` of the previous run, cleared, as a
        // streaming reader reuses one buffer (no fresh memory to fault in).
        let mut reused: Vec<OptTickInline> = Vec::new();
        let mut placed: Vec<OptTick<'static>> = Vec::new();
        let mut variants = vec![
            variant("floor", Kind::Floor, |_| (floor(&l.ser), None)),
            // What any decoder into these rows pays before decoding a value:
            // the pages decompressed, and the rows' memory written once
            // (72 bytes a row, a fresh `Vec` per call as `rows` makes).
            variant("floor-rows", Kind::NoVec, |_| {
                let n = floor(&l.ser);
                let mut rows: Vec<OptTick<'_>> = Vec::new();
                (place_rows(&mut rows, n), None)
            }),
            // The same for the 48-byte rows of plain fields.
            variant("floor-rows-plain", Kind::NoVec, |_| {
                let n = floor(&l.ser);
                let mut rows: Vec<PlainTick<'_>> = Vec::new();
                (place_rows(&mut rows, n), None)
            }),
            // The same into the rows' `Vec` of the previous run, cleared:
            // what a streaming reader (`rows_into`) pays before a value.
            variant("floor-rows-reused", Kind::NoVec, |_| {
                let n = floor(&l.ser);
                let rows = &mut placed;
                rows.clear();
                (place_rows(rows, n), None)
            }),
            variant("rows-borrowed", Kind::RowsBorrowed, |check| {
                let pages = l.file.load::<OptTick>().expect("load");
                let rows = pages.rows::<OptTick>().expect("rows");
                output(&rows, check, canon)
            }),
            variant("rows-owned", Kind::RowsOwned, |check| {
                let rows = l.file.rows::<OptTickOwned>().collect().expect("read");
                output(&rows, check, Clone::clone)
            }),
            variant("rows-arc", Kind::RowsOwned, |check| {
                let rows = l.file.rows::<OptTickArc>().collect().expect("read");
                output(&rows, check, |t| OptTickOwned {
                    ts: t.ts,
                    symbol: t.symbol.as_deref().map(str::to_owned),
                    bid: t.bid,
                    ask: t.ask,
                    size: t.size,
                })
            }),
            variant("rows-inline", Kind::RowsOwned, |check| {
                let rows = l.file.rows::<OptTickInline>().collect().expect("read");
                output(&rows, check, canon_inline)
            }),
            variant("rows-reused", Kind::RowsOwned, |check| {
                let reused = &mut reused;
                reused.clear();
                for group in 0..l.file.num_row_groups() {
                    let pages = l.file.rows::<OptTickInline>().row_groups([group]).load();
                    let pages = pages.expect("load");
                    pages.rows_into(reused).expect("rows_into");
                }
                output(reused, check, canon_inline)
            }),
            variant("rows-par-1t", Kind::RowsInfo, |check| {
                p1.install(|| {
                    let pages = l.file.rows::<OptTick>().threads(0).load().expect("par_load");
                    output(
                        &pages.par_rows::<OptTick>().expect("par_rows"),
                        check,
                        canon,
                    )
                })
            }),
            variant("rows-par-2t", Kind::RowsInfo, |check| {
                p2.install(|| {
                    let pages = l.file.rows::<OptTick>().threads(0).load().expect("par_load");
                    output(
                        &pages.par_rows::<OptTick>().expect("par_rows"),
                        check,
                        canon,
                    )
                })
            }),
            variant("rows-par-owned-2t", Kind::RowsInfo, |check| {
                p2.install(|| {
                    output(
                        &l.file.rows::<OptTickOwned>().threads(0).collect().expect("par_read"),
                        check,
                        Clone::clone,
                    )
                })
            }),
            variant("arrow", Kind::OtherOwned, |check| {
                output(&arrow_owned(&l), check, Clone::clone)
            }),
            variant("arrow-borrowed", Kind::OtherBorrowed, |check| {
                let batches: Vec<RecordBatch> =
                    l.arrow_reader().collect::<Result<_, _>>().expect("batches");
                output(&arrow_borrowed(&batches), check, canon)
            }),
            variant("arrow-batches", Kind::NoVec, |_| (arrow_batches(&l), None)),
        ];
        if plain {
            variants.insert(
                4,
                variant("rows-plain", Kind::RowsBorrowed, |check| {
                    let pages = l.file.load::<PlainTick>().expect("load");
                    let rows = pages.rows::<PlainTick>().expect("rows");
                    output(&rows, check, canon_plain)
                }),
            );
        }
        all.extend(execute(name, &expected, variants, mode));
        if !plain && matches!(mode, Mode::Report { .. }) {
            crate::harness::print_na(name, "rows-plain", l.rows(), "n/a (does not bind)");
        }
    }
    all
}

/// The columns of the issue #13 table: (heading, variant).
const TABLE: [(&str, &str); 18] = [
    ("floor", "floor"),
    ("floor + rows written", "floor-rows"),
    ("floor + reused rows written", "floor-rows-reused"),
    ("floor + plain rows written", "floor-rows-plain"),
    ("borrowed", "rows-borrowed"),
    ("owned", "rows-owned"),
    ("`Arc<str>`", "rows-arc"),
    ("`CompactString`", "rows-inline"),
    ("reused `Vec`", "rows-reused"),
    ("plain", "rows-plain"),
    ("2 threads", "rows-par-2t"),
    ("arrow batches", "arrow-batches"),
    ("polars 1t", "polars-1t"),
    ("polars 2t", "polars-2t"),
    ("pyarrow 1t", "pyarrow-1t"),
    ("pyarrow 2t", "pyarrow-2t"),
    ("duckdb 1t", "duckdb-1t"),
    ("duckdb 2t", "duckdb-2t"),
];

/// The nullable fixtures side by side with the peers (a Markdown table of
/// medians in ns/row), then the targets of issue #13.
pub fn summary(all: &[Measured]) {
    let measured: Vec<&str> = NAMES
        .into_iter()
        .filter(|n| all.iter().any(|m| m.fixture == *n))
        .collect();
    if measured.is_empty() {
        return;
    }
    println!();
    println!(
        "# nullable fixtures (issue #13): medians, ns/row; n/a = not measured or does not bind"
    );
    let mut head = String::from("| fixture |");
    let mut rule = String::from("|---|");
    for (h, _) in TABLE {
        head.push_str(&format!(" {h} |"));
        rule.push_str("---:|");
    }
    println!("{head}");
    println!("{rule}");
    for f in &measured {
        let mut line = format!("| {f} |");
        for (_, v) in TABLE {
            match crate::find(all, f, v) {
                Some(m) => line.push_str(&format!(" {:.1} |", m.median_ns)),
                None => line.push_str(" n/a |"),
            }
        }
        println!("{line}");
    }

    println!();
    println!("# targets of issue #13 (medians from this run; peers from the peers file)");
    for f in [SNAPPY, DUCKDB] {
        if !measured.contains(&f) {
            continue;
        }
        crate::ratio_target(
            all,
            f,
            &format!("{f}: rows-borrowed faster than polars 1 thread"),
            "polars-1t",
            "rows-borrowed",
            true,
            1.0,
        );
        crate::ratio_target(
            all,
            f,
            &format!("{f}: rows-owned within 2x polars 1 thread"),
            "rows-owned",
            "polars-1t",
            false,
            2.0,
        );
        crate::ratio_target(
            all,
            f,
            &format!("{f}: rows-arc within 1.3x polars 1 thread"),
            "rows-arc",
            "polars-1t",
            false,
            1.3,
        );
    }
    // Issue #28: owned rows with inline small strings within 1.3x of
    // borrowed rows, on every layout.
    for f in &measured {
        crate::ratio_target(
            all,
            f,
            &format!("{f}: rows-inline (CompactString) within 1.3x rows-borrowed"),
            "rows-inline",
            "rows-borrowed",
            false,
            1.3,
        );
    }
    let required = crate::find(all, "tick-370k-zstd", "rows-borrowed");
    for f in &measured {
        match (crate::find(all, f, "rows-plain"), required) {
            (Some(p), Some(r)) => {
                let ratio = p.median_ns / r.median_ns;
                println!(
                    "{}  {f}: rows-plain within 10% of tick-370k-zstd rows-borrowed: {ratio:.2}x \
                     ({:.2} / {:.2} ns/row)",
                    crate::verdict(ratio <= 1.1),
                    p.median_ns,
                    r.median_ns
                );
            }
            (None, _) => println!("n/a  {f}: rows-plain: does not bind"),
            (Some(_), None) => {
                println!(
                    "n/a  {f}: rows-plain against the REQUIRED tick: tick-370k-zstd not measured"
                );
            }
        }
    }
    for f in [SNAPPY, ZSTD8] {
        if !measured.contains(&f) {
            continue;
        }
        crate::ratio_target(
            all,
            f,
            &format!("{f}: 2 threads (par_load + par_rows) >= 1.6x rows-borrowed"),
            "rows-borrowed",
            "rows-par-2t",
            true,
            1.6,
        );
    }
    // The REQUIRED tick file of one row group: 2 threads beat the page floor
    // of one (reading and decompressing alone).
    const TICK: &str = "tick-370k-zstd";
    if crate::find(all, TICK, "rows-par-2t").is_some() {
        crate::ratio_target(
            all,
            TICK,
            &format!("{TICK}: 2 threads (par_load + par_rows) at or below the one-thread floor"),
            "rows-par-2t",
            "floor",
            false,
            1.0,
        );
    }
}
