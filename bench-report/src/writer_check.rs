//! `bench-report writer-check DIR`: files written by `parquet_rows::Writer`
//! for the other readers to read back (issue 26, "other readers read our
//! files value-identical").
//!
//! One struct holds every plain field type the writer writes, plain and in an
//! `Option`, and timestamps, a time, decimals (INT32, INT64, FLBA) and a UUID; its random rows (seeded, with extremes, nulls, NaN, -0.0 and
//! non-ASCII text) are written once per codec x data page v1/v2 x dictionary
//! on/off, into `DIR/<codec>-<v1|v2>-<dict|plain>.parquet`. `DIR/expected.json`
//! holds the values each column must read as, in a form every reader's
//! Python values convert to (`bench-report/peers/readback.py` says how), and
//! the list of files. `bench-report/peers/readback.sh DIR` reads every file
//! with pyarrow, duckdb and polars and compares. The nested shapes (structs,
//! lists, maps) go to `DIR/nested/` with an `expected.json` of their own
//! (`nested.rs`).

use std::fmt::Write as _;
use std::path::Path;
use std::sync::Arc;

use bytes::Bytes;
use parquet_rows::uuid::Uuid;
use parquet_rows::writer::{Compression, PageVersion};
use parquet_rows::{Date, Decimal, ParquetRow, Time, Timestamp, Unit, WriteOptions, Writer};
use parquet_rows_suite::rng::{generate, Rng};

mod nested;

/// Every field type the writer writes, plain and in an `Option`.
#[derive(ParquetRow, Debug, Clone)]
struct Every {
    flag: bool,
    tiny: i8,
    small: i16,
    int: i32,
    long: i64,
    ubyte: u8,
    ushort: u16,
    uint: u32,
    ulong: u64,
    float: f32,
    double: f64,
    text: String,
    boxed: Box<str>,
    shared: Arc<str>,
    raw: Vec<u8>,
    bytes: Bytes,
    fixed: [u8; 4],
    uuid_like: [u8; 16],
    day: Date,
    o_flag: Option<bool>,
    o_tiny: Option<i8>,
    o_ushort: Option<u16>,
    o_uint: Option<u32>,
    o_ulong: Option<u64>,
    o_long: Option<i64>,
    o_double: Option<f64>,
    o_float: Option<f32>,
    o_text: Option<String>,
    o_raw: Option<Vec<u8>>,
    o_fixed: Option<[u8; 3]>,
    o_day: Option<Date>,
    at: Timestamp,
    #[parquet(unit = "millis", utc = false)]
    o_local_ms: Option<Timestamp>,
    clock: Time,
    #[parquet(precision = 5, scale = 2)]
    price: Decimal,
    #[parquet(precision = 18, scale = 4)]
    o_amount: Option<Decimal>,
    #[parquet(precision = 38, scale = 10)]
    wide: Decimal,
    id: Uuid,
}

/// A value as `expected.json` holds it.
enum Json {
    Null,
    Int(i128),
    /// A float's bits (`f64::to_bits`, or `f32::to_bits` for FLOAT columns):
    /// NaN and -0.0 survive, which JSON numbers would lose.
    Bits(u64),
    Str(String),
    /// Bytes as lowercase hex.
    Hex(String),
    /// A list, a struct's fields in order, a map's `[key, value]` pairs.
    List(Vec<Json>),
}

impl Json {
    fn write(&self, out: &mut String) {
        match self {
            Json::Null => out.push_str("null"),
            Json::Int(v) => write!(out, "{v}").unwrap(),
            Json::Bits(v) => write!(out, "{v}").unwrap(),
            Json::Str(s) | Json::Hex(s) => string(out, s),
            Json::List(items) => {
                out.push('[');
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    item.write(out);
                }
                out.push(']');
            }
        }
    }
}

fn string(out: &mut String, s: &str) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if u32::from(c) < 0x20 => write!(out, "\\u{:04x}", u32::from(c)).unwrap(),
            c => out.push(c),
        }
    }
    out.push('"');
}

fn hex(bytes: &[u8]) -> Json {
    Json::Hex(bytes.iter().fold(String::new(), |mut s, b| {
        write!(s, "{b:02x}").unwrap();
        s
    }))
}

/// One column of the expected values: its name, how readback.py converts
/// what a reader returns (`int`, `f32`, `f64`, `str`, `bytes`, `date`), and
/// a value per row.
struct Expected {
    name: &'static str,
    kind: &'static str,
    values: Vec<Json>,
}

fn column<'a, T>(
    rows: &'a [Every],
    name: &'static str,
    kind: &'static str,
    get: impl Fn(&'a Every) -> Option<T>,
    json: impl Fn(T) -> Json,
) -> Expected {
    Expected {
        name,
        kind,
        values: rows
            .iter()
            .map(|row| get(row).map_or(Json::Null, &json))
            .collect(),
    }
}

fn expected(rows: &[Every]) -> Vec<Expected> {
    let int = |v: i128| Json::Int(v);
    let date = |d: Date| Json::Int(i128::from(d.days));
    let f32b = |v: f32| Json::Bits(u64::from(v.to_bits()));
    let f64b = |v: f64| Json::Bits(v.to_bits());
    let text = |s: &str| Json::Str(s.to_owned());
    vec![
        column(rows, "flag", "int", |r| Some(i128::from(r.flag)), int),
        column(rows, "tiny", "int", |r| Some(i128::from(r.tiny)), int),
        column(rows, "small", "int", |r| Some(i128::from(r.small)), int),
        column(rows, "int", "int", |r| Some(i128::from(r.int)), int),
        column(rows, "long", "int", |r| Some(i128::from(r.long)), int),
        column(rows, "ubyte", "int", |r| Some(i128::from(r.ubyte)), int),
        column(rows, "ushort", "int", |r| Some(i128::from(r.ushort)), int),
        column(rows, "uint", "int", |r| Some(i128::from(r.uint)), int),
        column(rows, "ulong", "int", |r| Some(i128::from(r.ulong)), int),
        column(rows, "float", "f32", |r| Some(r.float), f32b),
        column(rows, "double", "f64", |r| Some(r.double), f64b),
        column(rows, "text", "str", |r| Some(&*r.text), text),
        column(rows, "boxed", "str", |r| Some(&*r.boxed), text),
        column(rows, "shared", "str", |r| Some(&*r.shared), text),
        column(rows, "raw", "bytes", |r| Some(&*r.raw), hex),
        column(rows, "bytes", "bytes", |r| Some(&*r.bytes), hex),
        column(rows, "fixed", "bytes", |r| Some(&r.fixed[..]), hex),
        column(rows, "uuid_like", "bytes", |r| Some(&r.uuid_like[..]), hex),
        column(rows, "day", "date", |r| Some(r.day), date),
        column(rows, "o_flag", "int", |r| r.o_flag.map(i128::from), int),
        column(rows, "o_tiny", "int", |r| r.o_tiny.map(i128::from), int),
        column(rows, "o_ushort", "int", |r| r.o_ushort.map(i128::from), int),
        column(rows, "o_uint", "int", |r| r.o_uint.map(i128::from), int),
        column(rows, "o_ulong", "int", |r| r.o_ulong.map(i128::from), int),
        column(rows, "o_long", "int", |r| r.o_long.map(i128::from), int),
        column(rows, "o_double", "f64", |r| r.o_double, f64b),
        column(rows, "o_float", "f32", |r| r.o_float, f32b),
        column(rows, "o_text", "str", |r| r.o_text.as_deref(), text),
        column(rows, "o_raw", "bytes", |r| r.o_raw.as_deref(), hex),
        column(
            rows,
            "o_fixed",
            "bytes",
            |r| r.o_fixed.as_ref().map(|f| &f[..]),
            hex,
        ),
        column(rows, "o_day", "date", |r| r.o_day, date),
        column(
            rows,
            "at",
            "micros",
            |r| Some(r.at.value),
            |v| int(v.into()),
        ),
        column(
            rows,
            "o_local_ms",
            "micros",
            |r| r.o_local_ms.map(|t| t.value * 1000),
            |v| int(v.into()),
        ),
        column(
            rows,
            "clock",
            "time_micros",
            |r| Some(r.clock.value),
            |v| int(v.into()),
        ),
        column(
            rows,
            "price",
            "decimal",
            |r| Some(r.price),
            |d| Json::Str(d.to_string()),
        ),
        column(
            rows,
            "o_amount",
            "decimal",
            |r| r.o_amount,
            |d| Json::Str(d.to_string()),
        ),
        column(
            rows,
            "wide",
            "decimal",
            |r| Some(r.wide),
            |d| Json::Str(d.to_string()),
        ),
        column(rows, "id", "uuid", |r| Some(r.id), |u| hex(u.as_bytes())),
    ]
}

fn pick<T: Copy>(rng: &mut Rng, edges: &[T], other: impl FnOnce(&mut Rng) -> T) -> T {
    if rng.chance(15) {
        edges[rng.below(edges.len())]
    } else {
        other(rng)
    }
}

fn any_bytes(rng: &mut Rng) -> Vec<u8> {
    let mut word = rng.word().into_bytes();
    if rng.chance(10) {
        word.extend([0xff, 0x00, 0xfe]); // not UTF-8
    }
    word
}

/// Days of 0001-01-01 and 9999-12-31: the dates Python's `datetime.date`
/// holds, which every reader converts DATE values to.
const FIRST_DAY: i32 = -719_162;
const LAST_DAY: i32 = 2_932_896;

fn every(rng: &mut Rng, i: usize) -> Every {
    let double_edges = [f64::NAN, -0.0, f64::MAX, f64::MIN, f64::NEG_INFINITY];
    let float_edges = [f32::NAN, -0.0, f32::MIN, f32::MIN_POSITIVE];
    let mut uuid = [0u8; 16];
    uuid.iter_mut().for_each(|b| {
        *b = if rng.chance(30) {
            0
        } else {
            rng.below(256) as u8
        }
    });
    Every {
        flag: rng.chance(50),
        tiny: pick(rng, &[i8::MIN, i8::MAX], |r| r.below(100) as i8),
        small: pick(rng, &[i16::MIN, i16::MAX], |r| r.below(1000) as i16 - 500),
        int: rng.i32(),
        long: rng.i64(),
        ubyte: pick(rng, &[0, u8::MAX], |r| r.below(256) as u8),
        ushort: pick(rng, &[0, u16::MAX], |r| r.below(65536) as u16),
        uint: pick(rng, &[0, u32::MAX, 1 << 31], |r| r.next_u64() as u32),
        ulong: pick(rng, &[0, u64::MAX, 1 << 63], Rng::next_u64),
        float: pick(rng, &float_edges, Rng::f32),
        double: pick(rng, &double_edges, Rng::f64),
        text: rng.word(),
        boxed: rng.word().into(),
        shared: rng.word().into(),
        raw: any_bytes(rng),
        bytes: Bytes::from(any_bytes(rng)),
        fixed: [rng.below(256) as u8, 0, 255, (i % 256) as u8],
        uuid_like: uuid,
        day: Date {
            days: pick(rng, &[FIRST_DAY, LAST_DAY, 0], |r| {
                r.below(40_000) as i32 - 20_000
            }),
        },
        o_flag: rng.maybe(70, |r| r.chance(50)),
        o_tiny: rng.maybe(70, |r| r.below(256) as u8 as i8),
        o_ushort: rng.maybe(70, |r| r.below(65536) as u16),
        o_uint: rng.maybe(70, |r| pick(r, &[u32::MAX], |r| r.next_u64() as u32)),
        o_ulong: rng.maybe(70, |r| pick(r, &[u64::MAX], Rng::next_u64)),
        o_long: rng.maybe(70, Rng::i64),
        o_double: rng.maybe(70, |r| pick(r, &double_edges, Rng::f64)),
        o_float: rng.maybe(70, |r| pick(r, &float_edges, Rng::f32)),
        o_text: rng.maybe(70, Rng::word),
        o_raw: rng.maybe(70, any_bytes),
        o_fixed: rng.maybe(70, |r| [r.below(256) as u8, 1, 2]),
        o_day: rng.maybe(70, |r| Date {
            days: r.below(1000) as i32,
        }),
        // Years 1700 to 2240: Python's datetime holds them.
        at: Timestamp {
            value: micros(rng),
            unit: Unit::Micros,
            utc: true,
        },
        o_local_ms: rng.maybe(70, |r| Timestamp {
            value: micros(r) / 1000,
            unit: Unit::Millis,
            utc: false,
        }),
        clock: Time {
            value: rng.below(86_400_000_000) as i64,
            unit: Unit::Micros,
        },
        price: decimal(rng, 5, 2),
        o_amount: rng.maybe(70, |r| decimal(r, 18, 4)),
        wide: decimal(rng, 38, 10),
        id: Uuid::from_u128(u128::from(rng.next_u64()) << 64 | u128::from(rng.next_u64())),
    }
}

fn micros(rng: &mut Rng) -> i64 {
    (rng.next_u64() % 17_000_000_000_000_000) as i64 - 8_500_000_000_000_000
}

/// A decimal of at most `precision` digits at `scale`, extremes included.
fn decimal(rng: &mut Rng, precision: u32, scale: i8) -> Decimal {
    let most = 10i128.pow(precision) - 1;
    let unscaled = match rng.below(10) {
        0 => most,
        1 => -most,
        2 => 0,
        _ => (i128::from(rng.next_u64()) << 64 | i128::from(rng.next_u64())) % most,
    };
    Decimal {
        unscaled,
        precision: precision as u8,
        scale,
    }
}

const CODECS: [(&str, Compression); 7] = [
    ("uncompressed", Compression::Uncompressed),
    ("snappy", Compression::Snappy),
    ("gzip", Compression::Gzip(6)),
    ("brotli", Compression::Brotli(1)),
    ("lz4", Compression::Lz4),
    ("lz4raw", Compression::Lz4Raw),
    ("zstd", Compression::Zstd(3)),
];

/// Rows per file: several row groups and, with small pages, several pages
/// per chunk (and dictionaries that fall back).
/// More than a dictionary's trial (8,192 values), so that the one-row-group
/// files' dictionaries of unique values stop after it.
const ROWS: usize = 10_000;

/// Writes the files and `expected.json` into `dir`.
pub fn run(dir: &Path) {
    std::fs::create_dir_all(dir).unwrap_or_else(|e| panic!("creating {}: {e}", dir.display()));
    let rows = generate(2026, ROWS, every);
    let mut files = Vec::new();
    for (codec_name, codec) in CODECS {
        // One row group, pages of the default 1 MiB: the columns of unique
        // values end their dictionary after its trial, mid-chunk.
        let name = format!("{codec_name}-v1-dict-trial.parquet");
        let options = WriteOptions::default()
            .compression(codec)
            .row_group_rows(ROWS);
        let path = dir.join(&name);
        let summary = Writer::<Every>::create(&path, options)
            .and_then(|mut writer| {
                writer.write(&rows)?;
                writer.close()
            })
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(summary.row_groups, 1);
        files.push(name);
        for (version_name, version) in [("v1", PageVersion::V1), ("v2", PageVersion::V2)] {
            for dictionary in [true, false] {
                let name = format!(
                    "{codec_name}-{version_name}-{}.parquet",
                    if dictionary { "dict" } else { "plain" }
                );
                let options = WriteOptions::default()
                    .compression(codec)
                    .page_version(version)
                    .dictionary(dictionary)
                    .row_group_rows(1100)
                    .page_bytes(4096);
                let path = dir.join(&name);
                let mut writer = Writer::<Every>::create(&path, options)
                    .unwrap_or_else(|e| panic!("{name}: {e}"));
                writer
                    .write(&rows)
                    .unwrap_or_else(|e| panic!("{name}: {e}"));
                let summary = writer.close().unwrap_or_else(|e| panic!("{name}: {e}"));
                assert_eq!(summary.rows, ROWS as u64);
                files.push(name);
            }
        }
    }
    // Our own reader first: the values are the rows.
    for name in &files {
        let back: Vec<Every> = parquet_rows::from_path(dir.join(name))
            .unwrap_or_else(|e| panic!("reading {name} back: {e}"));
        assert_eq!(format!("{back:?}"), format!("{rows:?}"), "{name}");
    }
    let mut out = String::from("{\"rows\": ");
    write!(out, "{ROWS}, \"files\": [").unwrap();
    for (i, name) in files.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        string(&mut out, name);
    }
    out.push_str("],\n\"columns\": [\n");
    for (i, column) in expected(&rows).iter().enumerate() {
        if i > 0 {
            out.push_str(",\n");
        }
        out.push_str("{\"name\": ");
        string(&mut out, column.name);
        out.push_str(", \"kind\": ");
        string(&mut out, column.kind);
        out.push_str(", \"values\": [");
        for (j, value) in column.values.iter().enumerate() {
            if j > 0 {
                out.push(',');
            }
            value.write(&mut out);
        }
        out.push_str("]}");
    }
    out.push_str("\n]}\n");
    let json = dir.join("expected.json");
    std::fs::write(&json, out).unwrap_or_else(|e| panic!("writing {}: {e}", json.display()));
    println!(
        "{} files of {ROWS} rows and {} written (read back equal by parquet-rows)",
        files.len(),
        json.display()
    );
    nested::run(&dir.join("nested"));
}
