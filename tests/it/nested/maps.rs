//! MAPs into `HashMap`, `BTreeMap` and `Vec<(K, V)>`, legacy MAP annotations.

use super::*;

// ---------------------------------------------------------------------------
// MAPs into HashMap, BTreeMap and Vec<(K, V)>
// ---------------------------------------------------------------------------

const MAPS_SCHEMA: &str = "message maps {
    REQUIRED INT32 id;
    REQUIRED group attrs (MAP) {
        REPEATED group key_value {
            REQUIRED BINARY key (UTF8);
            REQUIRED INT64 value;
        }
    }
    OPTIONAL group scores (MAP) {
        REPEATED group key_value {
            REQUIRED INT32 key;
            OPTIONAL DOUBLE value;
        }
    }
    OPTIONAL group counts (MAP) {
        REPEATED group key_value {
            REQUIRED BINARY key (UTF8);
            OPTIONAL INT64 value;
        }
    }
    REQUIRED group pairs (MAP) {
        REPEATED group key_value {
            REQUIRED BINARY key (UTF8);
            REQUIRED BINARY value (UTF8);
        }
    }
}";

/// The maps in file order, duplicates kept (`pairs` has duplicate keys, the
/// others never do).
#[derive(Debug, Clone, PartialEq, ParquetRow)]
struct MapsPairs {
    id: i32,
    attrs: Vec<(String, i64)>,
    scores: Option<Vec<(i32, Option<f64>)>>,
    counts: Option<Vec<(String, Option<i64>)>>,
    pairs: Vec<(String, String)>,
}

#[derive(Debug, Clone, PartialEq, ParquetRow)]
struct MapsHash {
    id: i32,
    attrs: HashMap<String, i64>,
    scores: Option<HashMap<i32, Option<f64>>>,
    counts: Option<HashMap<String, Option<i64>>>,
    pairs: Vec<(String, String)>,
}

#[derive(Debug, Clone, PartialEq, ParquetRow)]
struct MapsBTree {
    id: i32,
    attrs: BTreeMap<String, i64>,
    scores: Option<BTreeMap<i32, Option<f64>>>,
    counts: Option<BTreeMap<String, Option<i64>>>,
    pairs: Vec<(String, String)>,
}

#[derive(Debug, Clone, PartialEq, ParquetRow)]
struct MapsRef<'a> {
    id: i32,
    attrs: BTreeMap<&'a str, i64>,
    scores: Option<Vec<(i32, Option<f64>)>>,
    counts: Option<HashMap<&'a str, Option<i64>>>,
    pairs: Vec<(&'a str, &'a str)>,
}

impl From<&MapsPairs> for MapsHash {
    fn from(m: &MapsPairs) -> Self {
        MapsHash {
            id: m.id,
            attrs: m.attrs.iter().cloned().collect(),
            scores: m.scores.as_ref().map(|v| v.iter().copied().collect()),
            counts: m.counts.as_ref().map(|v| v.iter().cloned().collect()),
            pairs: m.pairs.clone(),
        }
    }
}

impl From<&MapsPairs> for MapsBTree {
    fn from(m: &MapsPairs) -> Self {
        MapsBTree {
            id: m.id,
            attrs: m.attrs.iter().cloned().collect(),
            scores: m.scores.as_ref().map(|v| v.iter().copied().collect()),
            counts: m.counts.as_ref().map(|v| v.iter().cloned().collect()),
            pairs: m.pairs.clone(),
        }
    }
}

impl From<&MapsRef<'_>> for MapsBTree {
    fn from(m: &MapsRef<'_>) -> Self {
        MapsBTree {
            id: m.id,
            attrs: m.attrs.iter().map(|(k, v)| (owned_str(k), *v)).collect(),
            scores: m.scores.as_ref().map(|v| v.iter().copied().collect()),
            counts: m
                .counts
                .as_ref()
                .map(|c| c.iter().map(|(k, v)| (owned_str(k), *v)).collect()),
            pairs: m
                .pairs
                .iter()
                .map(|(k, v)| (owned_str(k), owned_str(v)))
                .collect(),
        }
    }
}

const KEY_POOL: [&str; 10] = [
    "k0",
    "k1",
    "",
    "é",
    "日本",
    "k5",
    "k6",
    "🦀",
    "k8",
    "longer key 9",
];

fn gen_maps(n: usize) -> Vec<MapsPairs> {
    let key_pool: Vec<String> = KEY_POOL.iter().map(|k| owned_str(k)).collect();
    let int_pool: Vec<i32> = (-5..20).chain([i32::MIN, i32::MAX]).collect();
    generate(4, n, |r, i| MapsPairs {
        id: i as i32,
        attrs: r
            .keys(&key_pool, 4)
            .into_iter()
            .map(|k| (k, r.i64()))
            .collect(),
        scores: r.maybe(25, |r| {
            r.keys(&int_pool, 5)
                .into_iter()
                .map(|k| (k, r.maybe(30, Rng::f64)))
                .collect()
        }),
        counts: r.maybe(25, |r| {
            r.keys(&key_pool, 3)
                .into_iter()
                .map(|k| (k, r.maybe(30, Rng::i64)))
                .collect()
        }),
        // Few distinct keys: duplicates in most long maps.
        pairs: r.vec(4, |r| (owned_str(KEY_POOL[r.below(3)]), r.word())),
    })
}

fn maps_dyn(m: &MapsPairs) -> Vec<Dyn> {
    vec![
        Dyn::I32(m.id),
        map(m.attrs.iter().map(|(k, v)| (s(k), Dyn::I64(*v)))),
        opt(&m.scores, |sc| {
            map(sc
                .iter()
                .map(|(k, v)| (Dyn::I32(*k), opt(v, |v| Dyn::F64(*v)))))
        }),
        opt(&m.counts, |c| {
            map(c.iter().map(|(k, v)| (s(k), opt(v, |v| Dyn::I64(*v)))))
        }),
        map(m.pairs.iter().map(|(k, v)| (s(k), s(v)))),
    ]
}

fn maps_from_record(row: &Row) -> MapsPairs {
    MapsPairs {
        id: req(int(get(row, "id"))),
        attrs: req(entries(get(row, "attrs")))
            .iter()
            .map(|(k, v)| (req(string(k)), req(long(v))))
            .collect(),
        scores: entries(get(row, "scores"))
            .map(|e| e.iter().map(|(k, v)| (req(int(k)), double(v))).collect()),
        counts: entries(get(row, "counts"))
            .map(|e| e.iter().map(|(k, v)| (req(string(k)), long(v))).collect()),
        pairs: req(entries(get(row, "pairs")))
            .iter()
            .map(|(k, v)| (req(string(k)), req(string(v))))
            .collect(),
    }
}

#[test]
fn maps_into_hashmap_btreemap_and_pairs() {
    let rows = gen_maps(1200);
    assert!(rows.iter().any(|m| m.scores.is_none()));
    assert!(rows
        .iter()
        .any(|m| m.scores.as_ref().is_some_and(Vec::is_empty)));
    assert!(rows.iter().any(|m| m
        .counts
        .as_ref()
        .is_some_and(|c| c.iter().any(|(_, v)| v.is_none()))));
    assert!(rows.iter().any(|m| {
        let keys: std::collections::HashSet<&String> = m.pairs.iter().map(|(k, _)| k).collect();
        keys.len() < m.pairs.len()
    }));
    let hashed: Vec<MapsHash> = rows.iter().map(MapsHash::from).collect();
    let sorted: Vec<MapsBTree> = rows.iter().map(MapsBTree::from).collect();
    let shredded: Vec<Vec<Dyn>> = rows.iter().map(maps_dyn).collect();
    for (what, file) in files(MAPS_SCHEMA, &shredded) {
        same_rows(
            &format!("{what}, record API"),
            &record_api(&file, maps_from_record),
            &rows,
        );
        check_owned(&format!("{what}, Vec<(K, V)>"), &file, &rows);
        check_owned(&format!("{what}, HashMap"), &file, &hashed);
        check_owned(&format!("{what}, BTreeMap"), &file, &sorted);
        check_borrowed!(&what, &file, MapsRef, MapsBTree, &sorted);
    }
}

/// The legacy forms of the spec's backward-compatibility rules: a MAP whose
/// repeated group is annotated MAP_KEY_VALUE, and a group annotated
/// MAP_KEY_VALUE itself (older parquet-mr).
const LEGACY_MAPS_SCHEMA: &str = "message legacy_maps {
    REQUIRED group m1 (MAP) {
        REPEATED group map (MAP_KEY_VALUE) {
            REQUIRED BINARY key (UTF8);
            OPTIONAL INT32 value;
        }
    }
    OPTIONAL group m2 (MAP_KEY_VALUE) {
        REPEATED group map {
            REQUIRED INT32 key;
            REQUIRED BINARY value (UTF8);
        }
    }
}";

#[derive(Debug, Clone, PartialEq, ParquetRow)]
struct LegacyMap1 {
    m1: BTreeMap<String, Option<i32>>,
}

#[derive(Debug, Clone, PartialEq, ParquetRow)]
struct LegacyMap2 {
    m2: Option<Vec<(i32, String)>>,
}

#[test]
fn legacy_map_key_value_annotations() {
    let key_pool: Vec<String> = KEY_POOL.iter().map(|k| owned_str(k)).collect();
    let int_pool: Vec<i32> = (0..30).collect();
    let rows: Vec<(LegacyMap1, LegacyMap2)> = generate(5, 900, |r, _| {
        (
            LegacyMap1 {
                m1: r
                    .keys(&key_pool, 4)
                    .into_iter()
                    .map(|k| (k, r.maybe(30, Rng::i32)))
                    .collect(),
            },
            LegacyMap2 {
                m2: r.maybe(30, |r| {
                    r.keys(&int_pool, 4)
                        .into_iter()
                        .map(|k| (k, r.word()))
                        .collect()
                }),
            },
        )
    });
    let shredded: Vec<Vec<Dyn>> = rows
        .iter()
        .map(|(a, b)| {
            vec![
                map(a.m1.iter().map(|(k, v)| (s(k), opt(v, |v| Dyn::I32(*v))))),
                opt(&b.m2, |m| map(m.iter().map(|(k, v)| (Dyn::I32(*k), s(v))))),
            ]
        })
        .collect();
    let from_record = |row: &Row| {
        (
            LegacyMap1 {
                m1: req(entries(get(row, "m1")))
                    .iter()
                    .map(|(k, v)| (req(string(k)), int(v)))
                    .collect(),
            },
            LegacyMap2 {
                m2: entries(get(row, "m2")).map(|e| {
                    e.iter()
                        .map(|(k, v)| (req(int(k)), req(string(v))))
                        .collect()
                }),
            },
        )
    };
    let m1: Vec<LegacyMap1> = rows.iter().map(|(a, _)| a.clone()).collect();
    let m2: Vec<LegacyMap2> = rows.iter().map(|(_, b)| b.clone()).collect();
    assert!(m2.iter().any(|m| m.m2.is_none()));
    for (what, file) in files(LEGACY_MAPS_SCHEMA, &shredded) {
        same_rows(
            &format!("{what}, record API"),
            &record_api(&file, from_record),
            &rows,
        );
        check_owned(&format!("{what}, MAP + MAP_KEY_VALUE"), &file, &m1);
        check_owned(&format!("{what}, MAP_KEY_VALUE group"), &file, &m2);
    }
}
