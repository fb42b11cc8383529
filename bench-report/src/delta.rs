//! DELTA encodings, dictionary off, data page v2, uncompressed, 2 row groups:
//! DELTA_BINARY_PACKED ints, DELTA_BYTE_ARRAY and DELTA_LENGTH_BYTE_ARRAY
//! strings, BYTE_STREAM_SPLIT doubles.

use std::path::PathBuf;

use arrow_array::cast::AsArray;
use arrow_array::types::{Float64Type, Int32Type as AInt32, Int64Type as AInt64};
use parquet::basic::{Compression, Encoding};
use parquet::data_type::{ByteArray, ByteArrayType, DoubleType, Int32Type, Int64Type};
use parquet::file::properties::{WriterProperties, WriterVersion};
use parquet::file::reader::FileReader;
use parquet::record::{RecordReader, RowAccessor};
use parquet::schema::types::ColumnPath;
use parquet_derive::ParquetRecordReader;
use parquet_rows::ParquetRow;

use crate::common::{
    arrow_batches, as_str, fixtures_dir, floor, read_col, record_api_rows, to_string,
    write_parquet, Col, Loaded, Rng,
};
use crate::harness::{execute, output, variant, Kind, Measured, Mode};

pub const NAME: &str = "delta-plain";
const ROWS: usize = 200_000;
const GROUPS: usize = 2;

const SCHEMA: &str = "message delta {
    REQUIRED INT64 id;
    REQUIRED INT64 ts;
    REQUIRED INT32 qty;
    REQUIRED BINARY key (UTF8);
    REQUIRED BINARY note (UTF8);
    REQUIRED DOUBLE px;
}";

#[derive(ParquetRow, Debug, Clone, Copy, PartialEq)]
pub struct Delta<'a> {
    pub id: i64,
    pub ts: i64,
    pub qty: i32,
    pub key: &'a str,
    pub note: &'a str,
    pub px: f64,
}

#[derive(ParquetRow, ParquetRecordReader, Debug, Default, Clone, PartialEq)]
pub struct DeltaOwned {
    pub id: i64,
    pub ts: i64,
    pub qty: i32,
    pub key: String,
    pub note: String,
    pub px: f64,
}

fn canon(d: &Delta<'_>) -> DeltaOwned {
    DeltaOwned {
        id: d.id,
        ts: d.ts,
        qty: d.qty,
        key: d.key.to_owned(),
        note: d.note.to_owned(),
        px: d.px,
    }
}

fn generate() -> Vec<DeltaOwned> {
    const MARKETS: [&str; 4] = ["XNAS", "XNYS", "XLON", "XETR"];
    let mut r = Rng(7);
    let mut ts = 1_774_000_000_000_000i64;
    (0..ROWS)
        .map(|i| {
            ts += 1 + r.below(2000) as i64;
            // Keys sorted-ish with long shared prefixes: what DELTA_BYTE_ARRAY is for.
            let key = format!(
                "instrument/{}/EQ/{:05}/{:03}",
                MARKETS[i * 4 / ROWS],
                i / 40,
                r.below(1000)
            );
            let note = "x".repeat(r.below(24) as usize);
            DeltaOwned {
                id: 1_000_000 + i as i64,
                ts,
                qty: r.below(10_000) as i32 - 100,
                key,
                note,
                px: 100.0 + r.below(100_000) as f64 / 128.0,
            }
        })
        .collect()
}

fn file(rows: &[DeltaOwned]) -> PathBuf {
    let path = fixtures_dir().join("bench-delta-v1.parquet");
    if !path.exists() {
        let col = |name: &str| ColumnPath::from(name);
        let props = WriterProperties::builder()
            .set_writer_version(WriterVersion::PARQUET_2_0)
            .set_compression(Compression::UNCOMPRESSED)
            .set_dictionary_enabled(false)
            .set_max_row_group_row_count(Some(ROWS / GROUPS))
            .set_column_encoding(col("id"), Encoding::DELTA_BINARY_PACKED)
            .set_column_encoding(col("ts"), Encoding::DELTA_BINARY_PACKED)
            .set_column_encoding(col("qty"), Encoding::DELTA_BINARY_PACKED)
            .set_column_encoding(col("key"), Encoding::DELTA_BYTE_ARRAY)
            .set_column_encoding(col("note"), Encoding::DELTA_LENGTH_BYTE_ARRAY)
            .set_column_encoding(col("px"), Encoding::BYTE_STREAM_SPLIT)
            .build();
        let groups: Vec<Vec<Col>> = rows
            .chunks(ROWS / GROUPS)
            .map(|g| {
                vec![
                    Col::I64(g.iter().map(|d| Some(d.id)).collect()),
                    Col::I64(g.iter().map(|d| Some(d.ts)).collect()),
                    Col::I32(g.iter().map(|d| Some(d.qty)).collect()),
                    Col::Str(g.iter().map(|d| Some(d.key.clone())).collect()),
                    Col::Str(g.iter().map(|d| Some(d.note.clone())).collect()),
                    Col::F64(g.iter().map(|d| Some(d.px)).collect()),
                ]
            })
            .collect();
        write_parquet(&path, SCHEMA, props, &groups);
    }
    path
}

fn record_api(l: &Loaded) -> Vec<DeltaOwned> {
    let mut out = Vec::with_capacity(l.rows());
    for row in l.ser.get_row_iter(None).expect("row iterator") {
        let row = row.expect("row");
        out.push(DeltaOwned {
            id: row.get_long(0).expect("id"),
            ts: row.get_long(1).expect("ts"),
            qty: row.get_int(2).expect("qty"),
            key: row.get_string(3).expect("key").clone(),
            note: row.get_string(4).expect("note").clone(),
            px: row.get_double(5).expect("px"),
        });
    }
    out
}

struct Cols {
    id: Vec<i64>,
    ts: Vec<i64>,
    qty: Vec<i32>,
    key: Vec<ByteArray>,
    note: Vec<ByteArray>,
    px: Vec<f64>,
}

fn cols(l: &Loaded) -> Cols {
    let s = &l.ser;
    Cols {
        id: read_col::<Int64Type>(s, 0).0,
        ts: read_col::<Int64Type>(s, 1).0,
        qty: read_col::<Int32Type>(s, 2).0,
        key: read_col::<ByteArrayType>(s, 3).0,
        note: read_col::<ByteArrayType>(s, 4).0,
        px: read_col::<DoubleType>(s, 5).0,
    }
}

fn column_api_owned(l: &Loaded) -> Vec<DeltaOwned> {
    let c = cols(l);
    (0..c.id.len())
        .map(|i| DeltaOwned {
            id: c.id[i],
            ts: c.ts[i],
            qty: c.qty[i],
            key: to_string(&c.key[i]),
            note: to_string(&c.note[i]),
            px: c.px[i],
        })
        .collect()
}

fn column_api_borrowed(c: &Cols) -> Vec<Delta<'_>> {
    (0..c.id.len())
        .map(|i| Delta {
            id: c.id[i],
            ts: c.ts[i],
            qty: c.qty[i],
            key: as_str(&c.key[i]),
            note: as_str(&c.note[i]),
            px: c.px[i],
        })
        .collect()
}

/// `parquet_derive`, one fresh `Vec` per row group (see [`derive_one_vec`]).
fn derive(l: &Loaded) -> Vec<DeltaOwned> {
    let mut out = Vec::with_capacity(l.rows());
    for g in 0..l.ser.num_row_groups() {
        let mut rg = l.ser.get_row_group(g).expect("row group");
        let n = rg.metadata().num_rows() as usize;
        let mut part: Vec<DeltaOwned> = Vec::with_capacity(n);
        part.read_from_row_group(&mut *rg, n)
            .expect("parquet_derive");
        out.append(&mut part);
    }
    out
}

/// `parquet_derive` the obvious way: every row group into the same `Vec`.
fn derive_one_vec(l: &Loaded) -> Vec<DeltaOwned> {
    let mut out: Vec<DeltaOwned> = Vec::with_capacity(l.rows());
    for g in 0..l.ser.num_row_groups() {
        let mut rg = l.ser.get_row_group(g).expect("row group");
        let n = rg.metadata().num_rows() as usize;
        out.read_from_row_group(&mut *rg, n)
            .expect("parquet_derive");
    }
    out
}

fn arrow_owned(l: &Loaded) -> Vec<DeltaOwned> {
    let mut out = Vec::with_capacity(l.rows());
    for batch in l.arrow_reader() {
        let b = batch.expect("batch");
        let id = b.column(0).as_primitive::<AInt64>();
        let ts = b.column(1).as_primitive::<AInt64>();
        let qty = b.column(2).as_primitive::<AInt32>();
        let key = b.column(3).as_string::<i32>();
        let note = b.column(4).as_string::<i32>();
        let px = b.column(5).as_primitive::<Float64Type>();
        for i in 0..b.num_rows() {
            out.push(DeltaOwned {
                id: id.value(i),
                ts: ts.value(i),
                qty: qty.value(i),
                key: key.value(i).to_owned(),
                note: note.value(i).to_owned(),
                px: px.value(i),
            });
        }
    }
    out
}

/// What the run found out about `parquet_derive` beyond the timings.
pub fn derive_probe() -> Option<String> {
    let expected = generate();
    let l = Loaded::new(&file(&expected));
    let got = derive_one_vec(&l);
    (got != expected).then(|| {
        let first = got.iter().zip(&expected).position(|(a, b)| a != b);
        format!(
            "parquet_derive: reading {GROUPS} row groups into one Vec with read_from_row_group \
             gives WRONG rows ({} rows, first wrong row {first:?}): each call overwrites \
             records[..n] from the start of the Vec, so each row group needs a fresh Vec",
            got.len()
        )
    })
}

pub fn run(mode: &Mode, only: &dyn Fn(&str) -> bool) -> Vec<Measured> {
    if !only(NAME) {
        return Vec::new();
    }
    let expected = generate();
    let l = Loaded::new(&file(&expected));
    eprintln!("{}", l.describe(NAME));
    // No `rows-decode-only` here: pages keep the values DELTA_BYTE_ARRAY
    // rebuilds (per-page arenas), so decoding preloaded pages a second time
    // skips that work.
    let variants = vec![
        variant("floor", Kind::Floor, |_| (floor(&l.ser), None)),
        variant("rows-borrowed", Kind::RowsBorrowed, |check| {
            let pages = l.file.load::<Delta>().expect("load");
            output(&pages.rows::<Delta>().expect("rows"), check, canon)
        }),
        variant("rows-owned", Kind::RowsOwned, |check| {
            output(
                &l.file.rows::<DeltaOwned>().collect().expect("read"),
                check,
                Clone::clone,
            )
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
        variant("parquet_derive", Kind::OtherOwned, |check| {
            output(&derive(&l), check, Clone::clone)
        }),
        variant("arrow", Kind::OtherOwned, |check| {
            output(&arrow_owned(&l), check, Clone::clone)
        }),
        variant("arrow-batches", Kind::NoVec, |_| (arrow_batches(&l), None)),
    ];
    execute(NAME, &expected, variants, mode)
}
