//! A 20-column file: ints, doubles, floats, strings (dictionary and PLAIN),
//! booleans, an INT(16) and a TIMESTAMP column, 9 of them OPTIONAL; 2 row
//! groups, SNAPPY.

use std::path::PathBuf;

use arrow_array::cast::AsArray;
use arrow_array::types::{
    Float32Type, Float64Type, Int16Type, Int32Type as AInt32, Int64Type as AInt64,
    TimestampMicrosecondType,
};
use arrow_array::Array;
use parquet::basic::Compression;
use parquet::data_type::{
    BoolType, ByteArray, ByteArrayType, DoubleType, FloatType, Int32Type, Int64Type,
};
use parquet::file::properties::WriterProperties;
use parquet::file::reader::FileReader;
use parquet::record::Field;
use parquet::schema::types::ColumnPath;
use parquet_rows::ParquetRow;

use crate::common::{
    arrow_batches, as_str, fixtures_dir, floor, opt, read_col, record_api_rows, to_string,
    write_parquet, Col, Loaded, Rng,
};
use crate::harness::{execute, output, variant, Kind, Measured, Mode};

pub const NAME: &str = "mixed20-snappy";
const ROWS: usize = 120_000;
const GROUPS: usize = 2;

const SCHEMA: &str = "message mixed {
    REQUIRED INT64 id;
    REQUIRED INT32 qty;
    OPTIONAL INT32 qty_opt;
    REQUIRED INT64 seq;
    OPTIONAL INT64 seq_opt;
    REQUIRED DOUBLE price;
    REQUIRED DOUBLE price2;
    OPTIONAL DOUBLE price_opt;
    REQUIRED FLOAT ratio;
    OPTIONAL FLOAT ratio_opt;
    REQUIRED BINARY venue (UTF8);
    OPTIONAL BINARY venue_opt (UTF8);
    REQUIRED BINARY account (UTF8);
    REQUIRED BINARY order_id (UTF8);
    OPTIONAL BINARY comment (UTF8);
    REQUIRED BOOLEAN flag;
    OPTIONAL BOOLEAN flag_opt;
    REQUIRED INT32 small (INTEGER(16,true));
    REQUIRED INT64 ts (TIMESTAMP(MICROS,true));
    OPTIONAL BINARY tag (UTF8);
}";

#[derive(ParquetRow, Debug, Clone, Copy, PartialEq)]
pub struct Mixed<'a> {
    pub id: i64,
    pub qty: i32,
    pub qty_opt: Option<i32>,
    pub seq: i64,
    pub seq_opt: Option<i64>,
    pub price: f64,
    pub price2: f64,
    pub price_opt: Option<f64>,
    pub ratio: f32,
    pub ratio_opt: Option<f32>,
    pub venue: &'a str,
    pub venue_opt: Option<&'a str>,
    pub account: &'a str,
    pub order_id: &'a str,
    pub comment: Option<&'a str>,
    pub flag: bool,
    pub flag_opt: Option<bool>,
    pub small: i16,
    pub ts: i64,
    pub tag: Option<&'a str>,
}

#[derive(ParquetRow, Debug, Clone, PartialEq)]
pub struct MixedOwned {
    pub id: i64,
    pub qty: i32,
    pub qty_opt: Option<i32>,
    pub seq: i64,
    pub seq_opt: Option<i64>,
    pub price: f64,
    pub price2: f64,
    pub price_opt: Option<f64>,
    pub ratio: f32,
    pub ratio_opt: Option<f32>,
    pub venue: String,
    pub venue_opt: Option<String>,
    pub account: String,
    pub order_id: String,
    pub comment: Option<String>,
    pub flag: bool,
    pub flag_opt: Option<bool>,
    pub small: i16,
    pub ts: i64,
    pub tag: Option<String>,
}

fn canon(m: &Mixed<'_>) -> MixedOwned {
    MixedOwned {
        id: m.id,
        qty: m.qty,
        qty_opt: m.qty_opt,
        seq: m.seq,
        seq_opt: m.seq_opt,
        price: m.price,
        price2: m.price2,
        price_opt: m.price_opt,
        ratio: m.ratio,
        ratio_opt: m.ratio_opt,
        venue: m.venue.to_owned(),
        venue_opt: m.venue_opt.map(str::to_owned),
        account: m.account.to_owned(),
        order_id: m.order_id.to_owned(),
        comment: m.comment.map(str::to_owned),
        flag: m.flag,
        flag_opt: m.flag_opt,
        small: m.small,
        ts: m.ts,
        tag: m.tag.map(str::to_owned),
    }
}

fn generate() -> Vec<MixedOwned> {
    const VENUES: [&str; 8] = [
        "XNAS", "XNYS", "ARCX", "BATS", "IEXG", "EDGX", "XLON", "XETR",
    ];
    const TAGS: [&str; 5] = ["hedge", "client", "prop", "mm", "test"];
    const WORDS: [&str; 8] = [
        "partial", "fill", "cancel", "amend", "late", "manual", "review", "ok",
    ];
    let mut r = Rng(20);
    (0..ROWS)
        .map(|i| {
            let comment = (!r.percent(30)).then(|| {
                let n = r.below(6) as usize;
                (0..n)
                    .map(|_| WORDS[r.below(8) as usize])
                    .collect::<Vec<_>>()
                    .join(" ")
            });
            MixedOwned {
                id: i as i64,
                qty: r.below(1000) as i32,
                qty_opt: (!r.percent(10)).then(|| r.below(100_000) as i32 - 50_000),
                seq: r.next() as i64,
                seq_opt: (!r.percent(20)).then(|| r.below(1 << 40) as i64),
                price: 100.0 + r.below(100_000) as f64 / 100.0,
                price2: r.below(1 << 30) as f64 / 7.0,
                price_opt: (!r.percent(10)).then(|| r.below(10_000) as f64 / 4.0),
                ratio: r.below(1000) as f32 / 1000.0,
                ratio_opt: (!r.percent(50)).then(|| r.below(100) as f32 / 8.0),
                venue: VENUES[r.below(8) as usize].to_owned(),
                venue_opt: (!r.percent(10)).then(|| format!("V{:02}", r.below(30))),
                account: format!("ACC-{:05}", r.below(1000)),
                order_id: format!("ord-{:010}-{:08x}", i, r.next() as u32),
                comment,
                flag: r.percent(50),
                flag_opt: (!r.percent(10)).then(|| r.percent(30)),
                small: (r.below(60_000) as i32 - 30_000) as i16,
                ts: 1_774_000_000_000_000 + i as i64 * 1000 + r.below(1000) as i64,
                tag: (!r.percent(50)).then(|| TAGS[r.below(5) as usize].to_owned()),
            }
        })
        .collect()
}

fn file(rows: &[MixedOwned]) -> PathBuf {
    let path = fixtures_dir().join("bench-mixed20-v1.parquet");
    if !path.exists() {
        let props = WriterProperties::builder()
            .set_compression(Compression::SNAPPY)
            .set_max_row_group_row_count(Some(ROWS / GROUPS))
            // Unique and free-text strings: PLAIN, as a writer would pick them.
            .set_column_dictionary_enabled(ColumnPath::from("order_id"), false)
            .set_column_dictionary_enabled(ColumnPath::from("comment"), false)
            .build();
        let groups: Vec<Vec<Col>> = rows
            .chunks(ROWS / GROUPS)
            .map(|g| {
                let s = |f: fn(&MixedOwned) -> Option<String>| Col::Str(g.iter().map(f).collect());
                vec![
                    Col::I64(g.iter().map(|m| Some(m.id)).collect()),
                    Col::I32(g.iter().map(|m| Some(m.qty)).collect()),
                    Col::I32(g.iter().map(|m| m.qty_opt).collect()),
                    Col::I64(g.iter().map(|m| Some(m.seq)).collect()),
                    Col::I64(g.iter().map(|m| m.seq_opt).collect()),
                    Col::F64(g.iter().map(|m| Some(m.price)).collect()),
                    Col::F64(g.iter().map(|m| Some(m.price2)).collect()),
                    Col::F64(g.iter().map(|m| m.price_opt).collect()),
                    Col::F32(g.iter().map(|m| Some(m.ratio)).collect()),
                    Col::F32(g.iter().map(|m| m.ratio_opt).collect()),
                    s(|m| Some(m.venue.clone())),
                    s(|m| m.venue_opt.clone()),
                    s(|m| Some(m.account.clone())),
                    s(|m| Some(m.order_id.clone())),
                    s(|m| m.comment.clone()),
                    Col::Bool(g.iter().map(|m| Some(m.flag)).collect()),
                    Col::Bool(g.iter().map(|m| m.flag_opt).collect()),
                    Col::I32(g.iter().map(|m| Some(i32::from(m.small))).collect()),
                    Col::I64(g.iter().map(|m| Some(m.ts)).collect()),
                    s(|m| m.tag.clone()),
                ]
            })
            .collect();
        write_parquet(&path, SCHEMA, props, &groups);
    }
    path
}

// ---------------------------------------------------------------------------
// The record API: walk each row's fields in schema order.

fn long(f: &Field) -> i64 {
    match f {
        Field::Long(v) | Field::TimestampMicros(v) => *v,
        f => panic!("expected a long, found {f:?}"),
    }
}
fn int(f: &Field) -> i32 {
    match f {
        Field::Int(v) => *v,
        f => panic!("expected an int, found {f:?}"),
    }
}
fn double(f: &Field) -> f64 {
    match f {
        Field::Double(v) => *v,
        f => panic!("expected a double, found {f:?}"),
    }
}
fn float(f: &Field) -> f32 {
    match f {
        Field::Float(v) => *v,
        f => panic!("expected a float, found {f:?}"),
    }
}
fn string(f: &Field) -> String {
    match f {
        Field::Str(v) => v.clone(),
        f => panic!("expected a string, found {f:?}"),
    }
}
fn boolean(f: &Field) -> bool {
    match f {
        Field::Bool(v) => *v,
        f => panic!("expected a bool, found {f:?}"),
    }
}
fn short(f: &Field) -> i16 {
    match f {
        Field::Short(v) => *v,
        f => panic!("expected a short, found {f:?}"),
    }
}
fn nullable<T>(f: &Field, get: fn(&Field) -> T) -> Option<T> {
    match f {
        Field::Null => None,
        f => Some(get(f)),
    }
}

fn record_api(l: &Loaded) -> Vec<MixedOwned> {
    let mut out = Vec::with_capacity(l.rows());
    for row in l.ser.get_row_iter(None).expect("row iterator") {
        let row = row.expect("row");
        let mut it = row.get_column_iter().map(|(_, f)| f);
        let mut next = || it.next().expect("column");
        out.push(MixedOwned {
            id: long(next()),
            qty: int(next()),
            qty_opt: nullable(next(), int),
            seq: long(next()),
            seq_opt: nullable(next(), long),
            price: double(next()),
            price2: double(next()),
            price_opt: nullable(next(), double),
            ratio: float(next()),
            ratio_opt: nullable(next(), float),
            venue: string(next()),
            venue_opt: nullable(next(), string),
            account: string(next()),
            order_id: string(next()),
            comment: nullable(next(), string),
            flag: boolean(next()),
            flag_opt: nullable(next(), boolean),
            small: short(next()),
            ts: long(next()),
            tag: nullable(next(), string),
        });
    }
    out
}

// ---------------------------------------------------------------------------
// The column API.

type Levels = Vec<i16>;

struct Cols {
    id: Vec<i64>,
    qty: Vec<i32>,
    qty_opt: (Vec<i32>, Levels),
    seq: Vec<i64>,
    seq_opt: (Vec<i64>, Levels),
    price: Vec<f64>,
    price2: Vec<f64>,
    price_opt: (Vec<f64>, Levels),
    ratio: Vec<f32>,
    ratio_opt: (Vec<f32>, Levels),
    venue: Vec<ByteArray>,
    venue_opt: (Vec<ByteArray>, Levels),
    account: Vec<ByteArray>,
    order_id: Vec<ByteArray>,
    comment: (Vec<ByteArray>, Levels),
    flag: Vec<bool>,
    flag_opt: (Vec<bool>, Levels),
    small: Vec<i32>,
    ts: Vec<i64>,
    tag: (Vec<ByteArray>, Levels),
}

fn cols(l: &Loaded) -> Cols {
    let s = &l.ser;
    Cols {
        id: read_col::<Int64Type>(s, 0).0,
        qty: read_col::<Int32Type>(s, 1).0,
        qty_opt: read_col::<Int32Type>(s, 2),
        seq: read_col::<Int64Type>(s, 3).0,
        seq_opt: read_col::<Int64Type>(s, 4),
        price: read_col::<DoubleType>(s, 5).0,
        price2: read_col::<DoubleType>(s, 6).0,
        price_opt: read_col::<DoubleType>(s, 7),
        ratio: read_col::<FloatType>(s, 8).0,
        ratio_opt: read_col::<FloatType>(s, 9),
        venue: read_col::<ByteArrayType>(s, 10).0,
        venue_opt: read_col::<ByteArrayType>(s, 11),
        account: read_col::<ByteArrayType>(s, 12).0,
        order_id: read_col::<ByteArrayType>(s, 13).0,
        comment: read_col::<ByteArrayType>(s, 14),
        flag: read_col::<BoolType>(s, 15).0,
        flag_opt: read_col::<BoolType>(s, 16),
        small: read_col::<Int32Type>(s, 17).0,
        ts: read_col::<Int64Type>(s, 18).0,
        tag: read_col::<ByteArrayType>(s, 19),
    }
}

fn column_api_owned(l: &Loaded) -> Vec<MixedOwned> {
    let c = cols(l);
    let n = c.id.len();
    let mut id = c.id.into_iter();
    let mut qty = c.qty.into_iter();
    let mut qty_opt = opt(c.qty_opt.0.into_iter(), c.qty_opt.1);
    let mut seq = c.seq.into_iter();
    let mut seq_opt = opt(c.seq_opt.0.into_iter(), c.seq_opt.1);
    let mut price = c.price.into_iter();
    let mut price2 = c.price2.into_iter();
    let mut price_opt = opt(c.price_opt.0.into_iter(), c.price_opt.1);
    let mut ratio = c.ratio.into_iter();
    let mut ratio_opt = opt(c.ratio_opt.0.into_iter(), c.ratio_opt.1);
    let mut venue = c.venue.iter();
    let mut venue_opt = opt(c.venue_opt.0.iter(), c.venue_opt.1);
    let mut account = c.account.iter();
    let mut order_id = c.order_id.iter();
    let mut comment = opt(c.comment.0.iter(), c.comment.1);
    let mut flag = c.flag.into_iter();
    let mut flag_opt = opt(c.flag_opt.0.into_iter(), c.flag_opt.1);
    let mut small = c.small.into_iter();
    let mut ts = c.ts.into_iter();
    let mut tag = opt(c.tag.0.iter(), c.tag.1);
    let mut out = Vec::with_capacity(n);
    for _ in 0..n {
        out.push(MixedOwned {
            id: id.next().expect("id"),
            qty: qty.next().expect("qty"),
            qty_opt: qty_opt.next().expect("qty_opt"),
            seq: seq.next().expect("seq"),
            seq_opt: seq_opt.next().expect("seq_opt"),
            price: price.next().expect("price"),
            price2: price2.next().expect("price2"),
            price_opt: price_opt.next().expect("price_opt"),
            ratio: ratio.next().expect("ratio"),
            ratio_opt: ratio_opt.next().expect("ratio_opt"),
            venue: to_string(venue.next().expect("venue")),
            venue_opt: venue_opt.next().expect("venue_opt").map(to_string),
            account: to_string(account.next().expect("account")),
            order_id: to_string(order_id.next().expect("order_id")),
            comment: comment.next().expect("comment").map(to_string),
            flag: flag.next().expect("flag"),
            flag_opt: flag_opt.next().expect("flag_opt"),
            small: i16::try_from(small.next().expect("small")).expect("INT(16)"),
            ts: ts.next().expect("ts"),
            tag: tag.next().expect("tag").map(to_string),
        });
    }
    out
}

fn column_api_borrowed(c: &Cols) -> Vec<Mixed<'_>> {
    let n = c.id.len();
    let mut qty_opt = opt(c.qty_opt.0.iter().copied(), c.qty_opt.1.clone());
    let mut seq_opt = opt(c.seq_opt.0.iter().copied(), c.seq_opt.1.clone());
    let mut price_opt = opt(c.price_opt.0.iter().copied(), c.price_opt.1.clone());
    let mut ratio_opt = opt(c.ratio_opt.0.iter().copied(), c.ratio_opt.1.clone());
    let mut venue_opt = opt(c.venue_opt.0.iter(), c.venue_opt.1.clone());
    let mut comment = opt(c.comment.0.iter(), c.comment.1.clone());
    let mut flag_opt = opt(c.flag_opt.0.iter().copied(), c.flag_opt.1.clone());
    let mut tag = opt(c.tag.0.iter(), c.tag.1.clone());
    let mut out = Vec::with_capacity(n);
    for i in 0..n {
        out.push(Mixed {
            id: c.id[i],
            qty: c.qty[i],
            qty_opt: qty_opt.next().expect("qty_opt"),
            seq: c.seq[i],
            seq_opt: seq_opt.next().expect("seq_opt"),
            price: c.price[i],
            price2: c.price2[i],
            price_opt: price_opt.next().expect("price_opt"),
            ratio: c.ratio[i],
            ratio_opt: ratio_opt.next().expect("ratio_opt"),
            venue: as_str(&c.venue[i]),
            venue_opt: venue_opt.next().expect("venue_opt").map(as_str),
            account: as_str(&c.account[i]),
            order_id: as_str(&c.order_id[i]),
            comment: comment.next().expect("comment").map(as_str),
            flag: c.flag[i],
            flag_opt: flag_opt.next().expect("flag_opt"),
            small: i16::try_from(c.small[i]).expect("INT(16)"),
            ts: c.ts[i],
            tag: tag.next().expect("tag").map(as_str),
        });
    }
    out
}

// ---------------------------------------------------------------------------
// Arrow.

fn arrow_owned(l: &Loaded) -> Vec<MixedOwned> {
    let mut out = Vec::with_capacity(l.rows());
    for batch in l.arrow_reader() {
        let b = batch.expect("batch");
        let c = |i: usize| b.column(i);
        let id = c(0).as_primitive::<AInt64>();
        let qty = c(1).as_primitive::<AInt32>();
        let qty_opt = c(2).as_primitive::<AInt32>();
        let seq = c(3).as_primitive::<AInt64>();
        let seq_opt = c(4).as_primitive::<AInt64>();
        let price = c(5).as_primitive::<Float64Type>();
        let price2 = c(6).as_primitive::<Float64Type>();
        let price_opt = c(7).as_primitive::<Float64Type>();
        let ratio = c(8).as_primitive::<Float32Type>();
        let ratio_opt = c(9).as_primitive::<Float32Type>();
        let venue = c(10).as_string::<i32>();
        let venue_opt = c(11).as_string::<i32>();
        let account = c(12).as_string::<i32>();
        let order_id = c(13).as_string::<i32>();
        let comment = c(14).as_string::<i32>();
        let flag = c(15).as_boolean();
        let flag_opt = c(16).as_boolean();
        let small = c(17).as_primitive::<Int16Type>();
        let ts = c(18).as_primitive::<TimestampMicrosecondType>();
        let tag = c(19).as_string::<i32>();
        for i in 0..b.num_rows() {
            out.push(MixedOwned {
                id: id.value(i),
                qty: qty.value(i),
                qty_opt: qty_opt.is_valid(i).then(|| qty_opt.value(i)),
                seq: seq.value(i),
                seq_opt: seq_opt.is_valid(i).then(|| seq_opt.value(i)),
                price: price.value(i),
                price2: price2.value(i),
                price_opt: price_opt.is_valid(i).then(|| price_opt.value(i)),
                ratio: ratio.value(i),
                ratio_opt: ratio_opt.is_valid(i).then(|| ratio_opt.value(i)),
                venue: venue.value(i).to_owned(),
                venue_opt: venue_opt.is_valid(i).then(|| venue_opt.value(i).to_owned()),
                account: account.value(i).to_owned(),
                order_id: order_id.value(i).to_owned(),
                comment: comment.is_valid(i).then(|| comment.value(i).to_owned()),
                flag: flag.value(i),
                flag_opt: flag_opt.is_valid(i).then(|| flag_opt.value(i)),
                small: small.value(i),
                ts: ts.value(i),
                tag: tag.is_valid(i).then(|| tag.value(i).to_owned()),
            });
        }
    }
    out
}

pub fn run(mode: &Mode, only: &dyn Fn(&str) -> bool) -> Vec<Measured> {
    if !only(NAME) {
        return Vec::new();
    }
    let expected = generate();
    let l = Loaded::new(&file(&expected));
    eprintln!("{}", l.describe(NAME));
    let preloaded = l.file.load::<Mixed>().expect("load");
    let variants = vec![
        variant("floor", Kind::Floor, |_| (floor(&l.ser), None)),
        variant("rows-borrowed", Kind::RowsBorrowed, |check| {
            let pages = l.file.load::<Mixed>().expect("load");
            output(&pages.rows::<Mixed>().expect("rows"), check, canon)
        }),
        variant("rows-owned", Kind::RowsOwned, |check| {
            output(
                &l.file.rows::<MixedOwned>().collect().expect("read"),
                check,
                Clone::clone,
            )
        }),
        variant("rows-decode-only", Kind::RowsInfo, |check| {
            output(&preloaded.rows::<Mixed>().expect("rows"), check, canon)
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
        variant("arrow-batches", Kind::NoVec, |_| (arrow_batches(&l), None)),
    ];
    execute(NAME, &expected, variants, mode)
}
