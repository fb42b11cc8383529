//! 50 symbols, an OPTIONAL INT32 `size` (~10 % nulls), 4 row groups, ZSTD:
//! the parallel (rayon) comparison runs here.

use std::path::PathBuf;
use std::sync::Arc;

use arrow_array::cast::AsArray;
use arrow_array::types::{Float64Type, Int32Type as ArrowInt32, TimestampMicrosecondType};
use arrow_array::{Array, RecordBatch};
use parquet::basic::{Compression, ZstdLevel};
use parquet::data_type::{ByteArray, ByteArrayType, DoubleType, Int32Type, Int64Type};
use parquet::file::properties::WriterProperties;
use parquet::file::reader::FileReader;
use parquet::record::{Field, RowAccessor};
use parquet_rows::ParquetRow;

use crate::common::{
    arrow_batches, as_str, fixtures_dir, floor, opt, read_col, record_api_rows, to_string,
    write_parquet, Col, Loaded, Rng,
};
use crate::harness::{execute, output, variant, Kind, Measured, Mode};

pub const ROWS: usize = 400_000;
pub const GROUPS: usize = 4;

const SCHEMA: &str = "message tick50 {
    REQUIRED INT64 ts (TIMESTAMP_MICROS);
    REQUIRED BINARY symbol (UTF8);
    REQUIRED DOUBLE bid;
    REQUIRED DOUBLE ask;
    OPTIONAL INT32 size;
}";

#[derive(ParquetRow, Debug, Clone, Copy, PartialEq)]
pub struct Tick50<'a> {
    pub ts: i64,
    pub symbol: &'a str,
    pub bid: f64,
    pub ask: f64,
    pub size: Option<i32>,
}

#[derive(ParquetRow, Debug, Clone, PartialEq)]
pub struct Tick50Owned {
    pub ts: i64,
    pub symbol: String,
    pub bid: f64,
    pub ask: f64,
    pub size: Option<i32>,
}

#[derive(ParquetRow, Debug, Clone, PartialEq)]
pub struct Tick50Arc {
    pub ts: i64,
    pub symbol: Arc<str>,
    pub bid: f64,
    pub ask: f64,
    pub size: Option<i32>,
}

fn canon(t: &Tick50<'_>) -> Tick50Owned {
    Tick50Owned {
        ts: t.ts,
        symbol: t.symbol.to_owned(),
        bid: t.bid,
        ask: t.ask,
        size: t.size,
    }
}

fn symbols() -> Vec<String> {
    let ccy = ["EUR", "USD", "GBP", "JPY", "CHF", "AUD", "CAD", "NZD"];
    let mut out = Vec::new();
    for a in ccy {
        for b in ccy {
            if a != b && out.len() < 50 {
                out.push(format!("{a}{b}"));
            }
        }
    }
    out
}

/// The fixture's rows, generated (deterministically) again for the check.
fn generate() -> Vec<Tick50Owned> {
    let syms = symbols();
    let mut rng = Rng(50);
    let mut mid = vec![1.0f64; syms.len()];
    (0..ROWS)
        .map(|i| {
            let s = rng.below(syms.len() as u64) as usize;
            mid[s] += (rng.below(21) as f64 - 10.0) * 1e-5;
            let bid = (mid[s] * 1e5).round() / 1e5;
            Tick50Owned {
                ts: 1_774_000_000_000_000 + i as i64 * 53 + rng.below(50) as i64,
                symbol: syms[s].clone(),
                bid,
                ask: bid + 0.0001 * (1 + rng.below(3)) as f64,
                size: (!rng.percent(10)).then(|| 1 + rng.below(1000) as i32),
            }
        })
        .collect()
}

fn file(rows: &[Tick50Owned]) -> PathBuf {
    let path = fixtures_dir().join("bench-tick50-4rg-v1.parquet");
    if !path.exists() {
        let props = WriterProperties::builder()
            .set_compression(Compression::ZSTD(ZstdLevel::default()))
            .set_max_row_group_row_count(Some(ROWS / GROUPS))
            .build();
        let groups: Vec<Vec<Col>> = rows
            .chunks(ROWS / GROUPS)
            .map(|g| {
                vec![
                    Col::I64(g.iter().map(|t| Some(t.ts)).collect()),
                    Col::Str(g.iter().map(|t| Some(t.symbol.clone())).collect()),
                    Col::F64(g.iter().map(|t| Some(t.bid)).collect()),
                    Col::F64(g.iter().map(|t| Some(t.ask)).collect()),
                    Col::I32(g.iter().map(|t| t.size).collect()),
                ]
            })
            .collect();
        write_parquet(&path, SCHEMA, props, &groups);
    }
    path
}

struct Cols {
    ts: Vec<i64>,
    symbol: Vec<ByteArray>,
    bid: Vec<f64>,
    ask: Vec<f64>,
    size: (Vec<i32>, Vec<i16>),
}

fn cols(l: &Loaded) -> Cols {
    let schema = l.ser.metadata().file_metadata().schema_descr();
    for (i, name) in ["ts", "symbol", "bid", "ask", "size"]
        .into_iter()
        .enumerate()
    {
        assert_eq!(schema.column(i).name(), name);
    }
    Cols {
        ts: read_col::<Int64Type>(&l.ser, 0).0,
        symbol: read_col::<ByteArrayType>(&l.ser, 1).0,
        bid: read_col::<DoubleType>(&l.ser, 2).0,
        ask: read_col::<DoubleType>(&l.ser, 3).0,
        size: read_col::<Int32Type>(&l.ser, 4),
    }
}

fn column_api_owned(l: &Loaded) -> Vec<Tick50Owned> {
    let c = cols(l);
    let (size, defs) = c.size;
    c.ts.into_iter()
        .zip(&c.symbol)
        .zip(c.bid)
        .zip(c.ask)
        .zip(opt(size.into_iter(), defs))
        .map(|((((ts, s), bid), ask), size)| Tick50Owned {
            ts,
            symbol: to_string(s),
            bid,
            ask,
            size,
        })
        .collect()
}

fn column_api_borrowed(c: &Cols) -> Vec<Tick50<'_>> {
    c.ts.iter()
        .zip(&c.symbol)
        .zip(&c.bid)
        .zip(&c.ask)
        .zip(opt(c.size.0.iter().copied(), c.size.1.clone()))
        .map(|((((&ts, s), &bid), &ask), size)| Tick50 {
            ts,
            symbol: as_str(s),
            bid,
            ask,
            size,
        })
        .collect()
}

fn record_api(l: &Loaded) -> Vec<Tick50Owned> {
    let mut out = Vec::with_capacity(l.rows());
    for row in l.ser.get_row_iter(None).expect("row iterator") {
        let row = row.expect("row");
        // No accessor returns `Option`: `get_int` on a null is an `Err` (with a
        // formatted message), so look at the `Field`.
        let size = match row.get_column_iter().nth(4).map(|(_, f)| f) {
            Some(Field::Int(v)) => Some(*v),
            Some(Field::Null) => None,
            other => panic!("size: {other:?}"),
        };
        out.push(Tick50Owned {
            ts: row.get_timestamp_micros(0).expect("ts"),
            symbol: row.get_string(1).expect("symbol").clone(),
            bid: row.get_double(2).expect("bid"),
            ask: row.get_double(3).expect("ask"),
            size,
        });
    }
    out
}

fn size_at(a: &arrow_array::PrimitiveArray<ArrowInt32>, i: usize) -> Option<i32> {
    a.is_valid(i).then(|| a.value(i))
}

fn arrow_owned(l: &Loaded) -> Vec<Tick50Owned> {
    let mut out = Vec::with_capacity(l.rows());
    for batch in l.arrow_reader() {
        let b = batch.expect("batch");
        let ts = b.column(0).as_primitive::<TimestampMicrosecondType>();
        let sym = b.column(1).as_string::<i32>();
        let bid = b.column(2).as_primitive::<Float64Type>();
        let ask = b.column(3).as_primitive::<Float64Type>();
        let size = b.column(4).as_primitive::<ArrowInt32>();
        for i in 0..b.num_rows() {
            out.push(Tick50Owned {
                ts: ts.value(i),
                symbol: sym.value(i).to_owned(),
                bid: bid.value(i),
                ask: ask.value(i),
                size: size_at(size, i),
            });
        }
    }
    out
}

fn arrow_borrowed(batches: &[RecordBatch]) -> Vec<Tick50<'_>> {
    let mut out = Vec::with_capacity(batches.iter().map(RecordBatch::num_rows).sum());
    for b in batches {
        let ts = b.column(0).as_primitive::<TimestampMicrosecondType>();
        let sym = b.column(1).as_string::<i32>();
        let bid = b.column(2).as_primitive::<Float64Type>();
        let ask = b.column(3).as_primitive::<Float64Type>();
        let size = b.column(4).as_primitive::<ArrowInt32>();
        for i in 0..b.num_rows() {
            out.push(Tick50 {
                ts: ts.value(i),
                symbol: sym.value(i),
                bid: bid.value(i),
                ask: ask.value(i),
                size: size_at(size, i),
            });
        }
    }
    out
}

pub const NAME: &str = "tick50-4rg-zstd";

pub fn run(mode: &Mode, only: &dyn Fn(&str) -> bool) -> Vec<Measured> {
    if !only(NAME) {
        return Vec::new();
    }
    let expected = generate();
    let l = Loaded::new(&file(&expected));
    eprintln!("{}", l.describe(NAME));
    let preloaded = l.file.load::<Tick50>().expect("load");
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
    let variants = vec![
        variant("floor", Kind::Floor, |_| (floor(&l.ser), None)),
        variant("rows-borrowed", Kind::RowsBorrowed, |check| {
            let pages = l.file.load::<Tick50>().expect("load");
            let rows = pages.rows::<Tick50>().expect("rows");
            output(&rows, check, canon)
        }),
        variant("rows-owned", Kind::RowsOwned, |check| {
            output(
                &l.file.rows::<Tick50Owned>().collect().expect("read"),
                check,
                Clone::clone,
            )
        }),
        variant("rows-arc", Kind::RowsOwned, |check| {
            let rows = l.file.rows::<Tick50Arc>().collect().expect("read");
            output(&rows, check, |t| Tick50Owned {
                ts: t.ts,
                symbol: t.symbol.to_string(),
                bid: t.bid,
                ask: t.ask,
                size: t.size,
            })
        }),
        variant("rows-decode-only", Kind::RowsInfo, |check| {
            output(&preloaded.rows::<Tick50>().expect("rows"), check, canon)
        }),
        // load (sequential) + par_rows, in a pool of 1 and of 2 threads.
        variant("rows-par-1t", Kind::RowsInfo, |check| {
            p1.install(|| {
                let pages = l.file.rows::<Tick50>().threads(0).load().expect("par_load");
                output(&pages.par_rows::<Tick50>().expect("par_rows"), check, canon)
            })
        }),
        variant("rows-par-2t", Kind::RowsInfo, |check| {
            p2.install(|| {
                let pages = l.file.rows::<Tick50>().threads(0).load().expect("par_load");
                output(&pages.par_rows::<Tick50>().expect("par_rows"), check, canon)
            })
        }),
        // par_rows on pages loaded outside the timer: the decode alone.
        variant("rows-par-decode-1t", Kind::RowsInfo, |check| {
            p1.install(|| {
                output(
                    &preloaded.par_rows::<Tick50>().expect("par_rows"),
                    check,
                    canon,
                )
            })
        }),
        variant("rows-par-decode-2t", Kind::RowsInfo, |check| {
            p2.install(|| {
                output(
                    &preloaded.par_rows::<Tick50>().expect("par_rows"),
                    check,
                    canon,
                )
            })
        }),
        // `ParquetFile::par_read`: owned rows (one `String` per row).
        variant("rows-par-owned-1t", Kind::RowsInfo, |check| {
            p1.install(|| {
                output(
                    &l.file.rows::<Tick50Owned>().threads(0).collect().expect("par_read"),
                    check,
                    Clone::clone,
                )
            })
        }),
        variant("rows-par-owned-2t", Kind::RowsInfo, |check| {
            p2.install(|| {
                output(
                    &l.file.rows::<Tick50Owned>().threads(0).collect().expect("par_read"),
                    check,
                    Clone::clone,
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
            let c = cols(&l);
            output(&column_api_borrowed(&c), check, canon)
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
    execute(NAME, &expected, variants, mode)
}
