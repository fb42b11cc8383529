//! The tick file of issue #2 (ts, symbol, bid, ask; one row group): ZSTD at
//! 370,000 and 65,000 rows, and the same data uncompressed.

use std::path::PathBuf;
use std::sync::Arc;

use arrow_array::cast::AsArray;
use arrow_array::types::{Float64Type, TimestampMicrosecondType};
use arrow_array::RecordBatch;
use parquet::basic::Compression;
use parquet::data_type::{ByteArray, ByteArrayType, DoubleType, Int64Type};
use parquet::file::properties::WriterProperties;
use parquet::file::reader::FileReader;
use parquet::record::{RecordReader, RowAccessor};
use parquet_derive::ParquetRecordReader;
use parquet_rows::ParquetRow;
use parquet_rows_suite::{tick_file, tick_values, write_ticks_with, Tick, TickOwned};

use crate::common::{
    arrow_batches, as_str, fixtures_dir, floor, read_col, record_api_rows, to_string, Loaded,
};
use crate::harness::{execute, output, variant, Kind, Measured, Mode};

/// Owned rows sharing one `Arc<str>` per dictionary entry.
#[derive(ParquetRow, Debug, Clone, PartialEq)]
pub struct TickArc {
    pub ts: i64,
    pub symbol: Arc<str>,
    pub bid: f64,
    pub ask: f64,
}

/// The tick for `#[derive(ParquetRecordReader)]` (owned only: it cannot hold `&str`).
#[derive(ParquetRecordReader, Debug, Default, Clone, PartialEq)]
pub struct TickDerive {
    pub ts: i64,
    pub symbol: String,
    pub bid: f64,
    pub ask: f64,
}

fn canon_borrowed(t: &Tick<'_>) -> TickOwned {
    TickOwned {
        ts: t.ts,
        symbol: t.symbol.to_owned(),
        bid: t.bid,
        ask: t.ask,
    }
}

/// The 370,000-row file uncompressed, written like `tick_file` but without ZSTD.
fn uncompressed_file(rows: usize) -> PathBuf {
    let path = fixtures_dir().join(format!("bench-ticks-{rows}-uncompressed.parquet"));
    if !path.exists() {
        let tmp = path.with_extension(format!("{}.tmp", std::process::id()));
        let props = WriterProperties::builder()
            .set_compression(Compression::UNCOMPRESSED)
            .set_max_row_group_row_count(Some(rows))
            .build();
        write_ticks_with(std::fs::File::create(&tmp).expect("create"), rows, props)
            .expect("write ticks");
        std::fs::rename(&tmp, &path).expect("rename");
    }
    path
}

/// The column API: one `Vec` per column.
struct TickCols {
    ts: Vec<i64>,
    symbol: Vec<ByteArray>,
    bid: Vec<f64>,
    ask: Vec<f64>,
}

fn tick_cols(l: &Loaded) -> TickCols {
    // `get_typed_column_reader` panics on a type mismatch: check first.
    let schema = l.ser.metadata().file_metadata().schema_descr();
    for (i, name) in ["ts", "symbol", "bid", "ask"].into_iter().enumerate() {
        assert_eq!(schema.column(i).name(), name);
    }
    TickCols {
        ts: read_col::<Int64Type>(&l.ser, 0).0,
        symbol: read_col::<ByteArrayType>(&l.ser, 1).0,
        bid: read_col::<DoubleType>(&l.ser, 2).0,
        ask: read_col::<DoubleType>(&l.ser, 3).0,
    }
}

fn column_api_owned(l: &Loaded) -> Vec<TickOwned> {
    let c = tick_cols(l);
    c.ts.into_iter()
        .zip(&c.symbol)
        .zip(c.bid)
        .zip(c.ask)
        .map(|(((ts, s), bid), ask)| TickOwned {
            ts,
            symbol: to_string(s),
            bid,
            ask,
        })
        .collect()
}

fn column_api_borrowed(c: &TickCols) -> Vec<Tick<'_>> {
    c.ts.iter()
        .zip(&c.symbol)
        .zip(&c.bid)
        .zip(&c.ask)
        .map(|(((&ts, s), &bid), &ask)| Tick {
            ts,
            symbol: as_str(s),
            bid,
            ask,
        })
        .collect()
}

fn record_api(l: &Loaded) -> Vec<TickOwned> {
    let mut out = Vec::with_capacity(l.rows());
    for row in l.ser.get_row_iter(None).expect("row iterator") {
        let row = row.expect("row");
        out.push(TickOwned {
            // `ts` is TIMESTAMP_MICROS: `get_long(0)` is an error on it.
            ts: row.get_timestamp_micros(0).expect("ts"),
            symbol: row.get_string(1).expect("symbol").clone(),
            bid: row.get_double(2).expect("bid"),
            ask: row.get_double(3).expect("ask"),
        });
    }
    out
}

fn derive(l: &Loaded) -> Vec<TickDerive> {
    let mut out = Vec::with_capacity(l.rows());
    for g in 0..l.ser.num_row_groups() {
        let mut rg = l.ser.get_row_group(g).expect("row group");
        let n = rg.metadata().num_rows() as usize;
        // `read_from_row_group` overwrites `records[..n]` of the `Vec` it is
        // given: each row group needs a fresh `Vec`.
        let mut part: Vec<TickDerive> = Vec::with_capacity(n);
        part.read_from_row_group(&mut *rg, n)
            .expect("parquet_derive");
        out.append(&mut part);
    }
    out
}

fn arrow_owned(l: &Loaded) -> Vec<TickOwned> {
    let mut out = Vec::with_capacity(l.rows());
    for batch in l.arrow_reader() {
        let b = batch.expect("batch");
        let ts = b.column(0).as_primitive::<TimestampMicrosecondType>();
        let sym = b.column(1).as_string::<i32>();
        let bid = b.column(2).as_primitive::<Float64Type>();
        let ask = b.column(3).as_primitive::<Float64Type>();
        for i in 0..b.num_rows() {
            out.push(TickOwned {
                ts: ts.value(i),
                symbol: sym.value(i).to_owned(),
                bid: bid.value(i),
                ask: ask.value(i),
            });
        }
    }
    out
}

fn arrow_borrowed(batches: &[RecordBatch]) -> Vec<Tick<'_>> {
    let mut out = Vec::with_capacity(batches.iter().map(RecordBatch::num_rows).sum());
    for b in batches {
        let ts = b.column(0).as_primitive::<TimestampMicrosecondType>();
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

/// The three tick fixtures.
pub fn run(mode: &Mode, only: &dyn Fn(&str) -> bool) -> Vec<Measured> {
    let mut all = Vec::new();
    let files = [
        ("tick-370k-zstd", tick_file(370_000)),
        ("tick-65k-zstd", tick_file(65_000)),
        ("tick-370k-plain", uncompressed_file(370_000)),
    ];
    // `par_load` + `par_rows` on pools of 1 and 2 threads: one row group,
    // decompressed by page and decoded in row ranges on both threads.
    let pools: Vec<rayon::ThreadPool> = [1, 2]
        .into_iter()
        .map(|n| {
            rayon::ThreadPoolBuilder::new()
                .num_threads(n)
                .build()
                .expect("thread pool")
        })
        .collect();
    for (name, path) in files {
        if !only(name) {
            continue;
        }
        let l = Loaded::new(&path);
        eprintln!("{}", l.describe(name));
        let expected: Vec<TickOwned> = (0..l.rows())
            .map(|i| {
                let (ts, s, bid, ask) = tick_values(i);
                TickOwned {
                    ts,
                    symbol: s.to_owned(),
                    bid,
                    ask,
                }
            })
            .collect();
        let preloaded = l.file.load::<Tick>().expect("load");
        let variants = vec![
            variant("floor", Kind::Floor, |_| (floor(&l.ser), None)),
            variant("rows-borrowed", Kind::RowsBorrowed, |check| {
                let pages = l.file.load::<Tick>().expect("load");
                let rows = pages.rows::<Tick>().expect("rows");
                output(&rows, check, canon_borrowed)
            }),
            variant("rows-owned", Kind::RowsOwned, |check| {
                let rows = l.file.rows::<TickOwned>().collect().expect("read");
                output(&rows, check, Clone::clone)
            }),
            variant("rows-arc", Kind::RowsOwned, |check| {
                let rows = l.file.rows::<TickArc>().collect().expect("read");
                output(&rows, check, |t| TickOwned {
                    ts: t.ts,
                    symbol: t.symbol.to_string(),
                    bid: t.bid,
                    ask: t.ask,
                })
            }),
            variant("rows-decode-only", Kind::RowsInfo, |check| {
                let rows = preloaded.rows::<Tick>().expect("rows");
                output(&rows, check, canon_borrowed)
            }),
            variant("rows-par-1t", Kind::RowsInfo, |check| {
                pools[0].install(|| {
                    let pages = l.file.rows::<Tick>().threads(0).load().expect("par_load");
                    output(
                        &pages.par_rows::<Tick>().expect("par_rows"),
                        check,
                        canon_borrowed,
                    )
                })
            }),
            variant("rows-par-2t", Kind::RowsInfo, |check| {
                pools[1].install(|| {
                    let pages = l.file.rows::<Tick>().threads(0).load().expect("par_load");
                    output(
                        &pages.par_rows::<Tick>().expect("par_rows"),
                        check,
                        canon_borrowed,
                    )
                })
            }),
            variant("record-api", Kind::OtherOwned, |check| {
                output(&record_api(&l), check, Clone::clone)
            }),
            variant("record-api-rows", Kind::NoVec, |_| {
                (record_api_rows(&l.ser), None)
            }),
            variant("column-api", Kind::OtherOwned, |check| {
                output(&column_api_owned(&l), check, Clone::clone)
            }),
            variant("column-api-borrowed", Kind::OtherBorrowed, |check| {
                let cols = tick_cols(&l);
                let rows = column_api_borrowed(&cols);
                output(&rows, check, canon_borrowed)
            }),
            variant("parquet_derive", Kind::OtherOwned, |check| {
                output(&derive(&l), check, |t| TickOwned {
                    ts: t.ts,
                    symbol: t.symbol.clone(),
                    bid: t.bid,
                    ask: t.ask,
                })
            }),
            variant("arrow", Kind::OtherOwned, |check| {
                output(&arrow_owned(&l), check, Clone::clone)
            }),
            variant("arrow-borrowed", Kind::OtherBorrowed, |check| {
                let batches: Vec<RecordBatch> =
                    l.arrow_reader().collect::<Result<_, _>>().expect("batches");
                let rows = arrow_borrowed(&batches);
                output(&rows, check, canon_borrowed)
            }),
            variant("arrow-batches", Kind::NoVec, |_| (arrow_batches(&l), None)),
        ];
        all.extend(execute(name, &expected, variants, mode));
    }
    all
}
