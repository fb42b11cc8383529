//! The nested files of `bench-report writer-check`: a struct with every
//! nested shape the writer writes (structs, `Option` groups, lists of
//! leaves, of `Option`s, of structs and of lists, `Option<Vec>`, maps with
//! `Option` and list values), written under 2 codecs x pages v1/v2 x
//! dictionary on/off into `DIR/nested/`, with `DIR/nested/expected.json`.
//!
//! A column's `kind` in that file is a tree: a leaf kind's name (as in the
//! flat files), `{"list": kind}`, `{"struct": [[name, kind], ...]}` (the
//! value is a JSON array of the fields in order) or `{"map": [key, value]}`
//! (the value is an array of `[key, value]` pairs; `readback.py` compares
//! them sorted by key, as readers hand maps back as dicts or lists).

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::Path;

use parquet_rows::writer::{Compression, PageVersion};
use parquet_rows::{Date, Decimal, ParquetRow, Timestamp, Unit, WriteOptions, Writer};
use parquet_rows_suite::rng::{generate, Rng};

use super::{hex, string, Json};

#[derive(ParquetRow, Debug, Clone)]
struct Leg {
    venue: String,
    qty: Option<i64>,
    px: f64,
}

/// Every nested shape the writer writes.
#[derive(ParquetRow, Debug, Clone)]
struct Deep {
    id: i64,
    leg: Leg,
    o_leg: Option<Leg>,
    tags: Vec<String>,
    o_ints: Vec<Option<i32>>,
    maybe: Option<Vec<u32>>,
    legs: Vec<Leg>,
    o_legs: Option<Vec<Option<Leg>>>,
    matrix: Vec<Vec<f64>>,
    o_matrix: Option<Vec<Option<Vec<Option<i16>>>>>,
    counts: BTreeMap<String, i64>,
    o_map: Option<BTreeMap<i32, Option<String>>>,
    map_lists: BTreeMap<String, Vec<Option<bool>>>,
    blobs: Vec<Vec<u8>>,
    days: Option<Vec<Date>>,
    #[parquet(precision = 18, scale = 4)]
    amounts: Vec<Option<Decimal>>,
    stamps: Vec<Timestamp>,
}

fn float(rng: &mut Rng) -> f64 {
    match rng.below(12) {
        0 => f64::NAN,
        1 => -0.0,
        2 => f64::MAX,
        3 => f64::NEG_INFINITY,
        _ => rng.f64(),
    }
}

fn leg(rng: &mut Rng) -> Leg {
    Leg {
        venue: rng.word(),
        qty: rng.maybe(30, Rng::i64),
        px: float(rng),
    }
}

fn deep(rng: &mut Rng, i: usize) -> Deep {
    Deep {
        id: i as i64,
        leg: leg(rng),
        o_leg: rng.maybe(30, leg),
        tags: rng.vec(4, Rng::word),
        o_ints: rng.vec(4, |r| r.maybe(30, Rng::i32)),
        maybe: rng.maybe(30, |r| r.vec(3, |r| r.next_u64() as u32)),
        legs: rng.vec(2, leg),
        o_legs: rng.maybe(30, |r| r.vec(2, |r| r.maybe(30, leg))),
        matrix: rng.vec(3, |r| r.vec(3, float)),
        o_matrix: rng.maybe(30, |r| {
            r.vec(2, |r| {
                r.maybe(30, |r| {
                    r.vec(3, |r| {
                        r.maybe(30, |r| match r.below(4) {
                            0 => i16::MIN,
                            1 => i16::MAX,
                            _ => r.below(100) as i16,
                        })
                    })
                })
            })
        }),
        counts: rng.vec(4, |r| (r.word(), r.i64())).into_iter().collect(),
        o_map: rng.maybe(30, |r| {
            r.vec(3, |r| (r.i32(), r.maybe(30, Rng::word)))
                .into_iter()
                .collect()
        }),
        map_lists: rng
            .vec(2, |r| (r.word(), r.vec(3, |r| r.maybe(30, |r| r.chance(50)))))
            .into_iter()
            .collect(),
        blobs: rng.vec(3, |r| {
            let mut b = r.word().into_bytes();
            if r.chance(20) {
                b.extend([0xff, 0x00]); // not UTF-8
            }
            b
        }),
        days: rng.maybe(30, |r| {
            r.vec(2, |r| Date {
                days: super::FIRST_DAY + r.below((super::LAST_DAY - super::FIRST_DAY) as usize + 1) as i32,
            })
        }),
        amounts: rng.vec(3, |r| r.maybe(30, |r| super::decimal(r, 18, 4))),
        stamps: rng.vec(2, |r| Timestamp {
            value: super::micros(r),
            unit: Unit::Micros,
            utc: true,
        }),
    }
}

/// A leaf kind as the `kind` tree has it.
fn leaf(kind: &str) -> String {
    format!("\"{kind}\"")
}

fn list(kind: &str) -> String {
    format!("{{\"list\": {kind}}}")
}

fn map(key: &str, value: &str) -> String {
    format!("{{\"map\": [{key}, {value}]}}")
}

fn leg_kind() -> String {
    format!(
        "{{\"struct\": [[\"venue\", {}], [\"qty\", {}], [\"px\", {}]]}}",
        leaf("str"),
        leaf("int"),
        leaf("f64")
    )
}

fn leg_json(leg: &Leg) -> Json {
    Json::List(vec![
        Json::Str(leg.venue.clone()),
        leg.qty.map_or(Json::Null, |v| Json::Int(v.into())),
        Json::Bits(leg.px.to_bits()),
    ])
}

fn opt<T>(value: Option<T>, json: impl FnOnce(T) -> Json) -> Json {
    value.map_or(Json::Null, json)
}

fn each<T>(values: impl IntoIterator<Item = T>, json: impl FnMut(T) -> Json) -> Json {
    Json::List(values.into_iter().map(json).collect())
}

fn pairs<K, V>(
    map: &BTreeMap<K, V>,
    key: impl Fn(&K) -> Json,
    value: impl Fn(&V) -> Json,
) -> Json {
    Json::List(
        map.iter()
            .map(|(k, v)| Json::List(vec![key(k), value(v)]))
            .collect(),
    )
}

/// One column: its name, its kind tree, a value per row.
struct Column {
    name: &'static str,
    kind: String,
    values: Vec<Json>,
}

fn columns(rows: &[Deep]) -> Vec<Column> {
    let col = |name, kind: String, f: &dyn Fn(&Deep) -> Json| Column {
        name,
        kind,
        values: rows.iter().map(f).collect(),
    };
    let int = |v: i128| Json::Int(v);
    let text = |s: &String| Json::Str(s.clone());
    let bits = |v: &f64| Json::Bits(v.to_bits());
    vec![
        col("id", leaf("int"), &|r| int(r.id.into())),
        col("leg", leg_kind(), &|r| leg_json(&r.leg)),
        col("o_leg", leg_kind(), &|r| opt(r.o_leg.as_ref(), leg_json)),
        col("tags", list(&leaf("str")), &|r| each(&r.tags, text)),
        col("o_ints", list(&leaf("int")), &|r| {
            each(&r.o_ints, |v| opt(*v, |v| int(v.into())))
        }),
        col("maybe", list(&leaf("int")), &|r| {
            opt(r.maybe.as_ref(), |l| each(l, |v| int((*v).into())))
        }),
        col("legs", list(&leg_kind()), &|r| each(&r.legs, leg_json)),
        col("o_legs", list(&leg_kind()), &|r| {
            opt(r.o_legs.as_ref(), |l| each(l, |v| opt(v.as_ref(), leg_json)))
        }),
        col("matrix", list(&list(&leaf("f64"))), &|r| {
            each(&r.matrix, |l| each(l, bits))
        }),
        col("o_matrix", list(&list(&leaf("int"))), &|r| {
            opt(r.o_matrix.as_ref(), |l| {
                each(l, |l| {
                    opt(l.as_ref(), |l| each(l, |v| opt(*v, |v| int(v.into()))))
                })
            })
        }),
        col("counts", map(&leaf("str"), &leaf("int")), &|r| {
            pairs(&r.counts, text, |v| int((*v).into()))
        }),
        col("o_map", map(&leaf("int"), &leaf("str")), &|r| {
            opt(r.o_map.as_ref(), |m| {
                pairs(m, |k| int((*k).into()), |v| opt(v.as_ref(), text))
            })
        }),
        col("map_lists", map(&leaf("str"), &list(&leaf("int"))), &|r| {
            pairs(&r.map_lists, text, |l| {
                each(l, |v| opt(*v, |b| int(i128::from(b))))
            })
        }),
        col("blobs", list(&leaf("bytes")), &|r| each(&r.blobs, |b| hex(b))),
        col("days", list(&leaf("date")), &|r| {
            opt(r.days.as_ref(), |l| each(l, |d| int(d.days.into())))
        }),
        col("amounts", list(&leaf("decimal")), &|r| {
            each(&r.amounts, |d| opt(d.as_ref(), |d| Json::Str(d.to_string())))
        }),
        col("stamps", list(&leaf("micros")), &|r| {
            each(&r.stamps, |t| int(t.value.into()))
        }),
    ]
}

const CODECS: [(&str, Compression); 2] = [
    ("snappy", Compression::Snappy),
    ("zstd", Compression::Zstd(3)),
];

/// Rows per file: several row groups, records across several pages.
const ROWS: usize = 2000;

/// Writes the nested files and `expected.json` into `dir`.
pub fn run(dir: &Path) {
    std::fs::create_dir_all(dir).unwrap_or_else(|e| panic!("creating {}: {e}", dir.display()));
    let rows = generate(26, ROWS, deep);
    let mut files = Vec::new();
    for (codec_name, codec) in CODECS {
        for (version_name, version) in [("v1", PageVersion::V1), ("v2", PageVersion::V2)] {
            for dictionary in [true, false] {
                let name = format!(
                    "nested-{codec_name}-{version_name}-{}.parquet",
                    if dictionary { "dict" } else { "plain" }
                );
                let options = WriteOptions::default()
                    .compression(codec)
                    .page_version(version)
                    .dictionary(dictionary)
                    .row_group_rows(700)
                    .page_bytes(2048);
                let path = dir.join(&name);
                let mut writer = Writer::<Deep>::create(&path, options)
                    .unwrap_or_else(|e| panic!("{name}: {e}"));
                writer
                    .write(&rows)
                    .unwrap_or_else(|e| panic!("{name}: {e}"));
                writer.close().unwrap_or_else(|e| panic!("{name}: {e}"));
                files.push(name);
            }
        }
    }
    for name in &files {
        let back: Vec<Deep> = parquet_rows::from_path(dir.join(name))
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
    for (i, column) in columns(&rows).iter().enumerate() {
        if i > 0 {
            out.push_str(",\n");
        }
        out.push_str("{\"name\": ");
        string(&mut out, column.name);
        write!(out, ", \"kind\": {}, \"values\": [", column.kind).unwrap();
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
        "{} nested files of {ROWS} rows and {} written (read back equal by parquet-rows)",
        files.len(),
        json.display()
    );
}
