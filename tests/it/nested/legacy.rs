//! Legacy 2-level LISTs and un-annotated REPEATED fields.

use super::*;

// ---------------------------------------------------------------------------
// Legacy 2-level LISTs and un-annotated REPEATED fields
// ---------------------------------------------------------------------------

/// One column per backward-compatibility rule of the spec (LogicalTypes.md,
/// "Lists"): a repeated primitive is the element; a repeated group with
/// several fields is the element; a repeated group with one field named
/// `array` or `<list name>_tuple` is the element.
const LEGACY_LISTS_SCHEMA: &str = "message legacy_lists {
    REQUIRED group nums (LIST) {
        REPEATED INT32 element;
    }
    OPTIONAL group strs (LIST) {
        REPEATED BINARY str (UTF8);
    }
    REQUIRED group points (LIST) {
        REPEATED group element {
            REQUIRED INT32 x;
            OPTIONAL INT32 y;
        }
    }
    OPTIONAL group wrapped (LIST) {
        REPEATED group array {
            REQUIRED INT64 v;
        }
    }
    REQUIRED group tuples (LIST) {
        REPEATED group tuples_tuple {
            REQUIRED BINARY s (UTF8);
        }
    }
}";

#[derive(Debug, Clone, PartialEq, ParquetRow)]
struct LegacyLists {
    nums: Vec<i32>,
    strs: Option<Vec<String>>,
    points: Vec<Point>,
    wrapped: Option<Vec<Wrapped>>,
    tuples: Vec<Tuple>,
}

#[derive(Debug, Clone, PartialEq, ParquetRow)]
struct Point {
    x: i32,
    y: Option<i32>,
}

#[derive(Debug, Clone, PartialEq, ParquetRow)]
struct Wrapped {
    v: i64,
}

#[derive(Debug, Clone, PartialEq, ParquetRow)]
struct Tuple {
    s: String,
}

#[derive(Debug, Clone, PartialEq, ParquetRow)]
struct LegacyListsRef<'a> {
    nums: Vec<i32>,
    strs: Option<Vec<&'a str>>,
    points: Vec<Point>,
    wrapped: Option<Vec<Wrapped>>,
    tuples: Vec<TupleRef<'a>>,
}

#[derive(Debug, Clone, PartialEq, ParquetRow)]
struct TupleRef<'a> {
    s: &'a str,
}

impl From<&LegacyListsRef<'_>> for LegacyLists {
    fn from(l: &LegacyListsRef<'_>) -> Self {
        LegacyLists {
            nums: l.nums.clone(),
            strs: l
                .strs
                .as_ref()
                .map(|v| v.iter().map(|s| owned_str(s)).collect()),
            points: l.points.clone(),
            wrapped: l.wrapped.clone(),
            tuples: l
                .tuples
                .iter()
                .map(|t| Tuple { s: owned_str(t.s) })
                .collect(),
        }
    }
}

/// A legacy 2-level LIST as the record API of `parquet` 60.1 returns it: `[]`
/// when empty, and a one-element list holding the elements otherwise (its
/// reader wraps the repeated field's own list reader in a second one).
fn legacy_list(f: &Field) -> Option<&[Field]> {
    let outer = list(f)?;
    match outer {
        [] => Some(outer),
        [inner] => Some(req(list(inner))),
        _ => panic!("the record API's 2-level list has changed shape: {f:?}"),
    }
}

#[test]
fn legacy_two_level_lists() {
    let rows = generate(9, 1200, |r, _| LegacyLists {
        nums: r.vec(6, Rng::i32),
        strs: r.maybe(30, |r| r.vec(4, Rng::word)),
        points: r.vec(3, |r| Point {
            x: r.i32(),
            y: r.maybe(30, Rng::i32),
        }),
        wrapped: r.maybe(30, |r| r.vec(3, |r| Wrapped { v: r.i64() })),
        tuples: r.vec(3, |r| Tuple { s: r.word() }),
    });
    assert!(rows.iter().any(|l| l.strs.is_none()));
    assert!(rows
        .iter()
        .any(|l| l.strs.as_ref().is_some_and(Vec::is_empty)));
    let shredded: Vec<Vec<Dyn>> = rows
        .iter()
        .map(|l| {
            vec![
                list2(l.nums.iter().map(|v| Dyn::I32(*v))),
                opt(&l.strs, |v| list2(v.iter().map(|v| s(v)))),
                list2(
                    l.points
                        .iter()
                        .map(|p| Dyn::Group(vec![Dyn::I32(p.x), opt(&p.y, |y| Dyn::I32(*y))])),
                ),
                opt(&l.wrapped, |w| {
                    list2(w.iter().map(|w| Dyn::Group(vec![Dyn::I64(w.v)])))
                }),
                list2(l.tuples.iter().map(|t| Dyn::Group(vec![s(&t.s)]))),
            ]
        })
        .collect();
    let from_record = |row: &Row| LegacyLists {
        nums: req(legacy_list(get(row, "nums")))
            .iter()
            .map(|v| req(int(v)))
            .collect(),
        strs: legacy_list(get(row, "strs")).map(|l| l.iter().map(|v| req(string(v))).collect()),
        points: req(legacy_list(get(row, "points")))
            .iter()
            .map(|p| {
                let p = req(group(p));
                Point {
                    x: req(int(get(p, "x"))),
                    y: int(get(p, "y")),
                }
            })
            .collect(),
        wrapped: legacy_list(get(row, "wrapped")).map(|l| {
            l.iter()
                .map(|w| Wrapped {
                    v: req(long(get(req(group(w)), "v"))),
                })
                .collect()
        }),
        tuples: req(legacy_list(get(row, "tuples")))
            .iter()
            .map(|t| Tuple {
                s: req(string(get(req(group(t)), "s"))),
            })
            .collect(),
    };
    for (what, file) in files(LEGACY_LISTS_SCHEMA, &shredded) {
        check_record_api_and_owned(&what, &file, &rows, from_record);
        check_borrowed!(&what, &file, LegacyListsRef, LegacyLists, &rows);
    }
}

const REPEATED_SCHEMA: &str = "message repeated {
    REQUIRED INT32 id;
    REPEATED INT32 nums;
    REPEATED BINARY names (UTF8);
    REPEATED group points {
        REQUIRED DOUBLE x;
        OPTIONAL DOUBLE y;
        REPEATED INT64 tags;
    }
}";

#[derive(Debug, Clone, PartialEq, ParquetRow)]
struct Repeated {
    id: i32,
    nums: Vec<i32>,
    names: Vec<String>,
    points: Vec<Pt>,
}

#[derive(Debug, Clone, PartialEq, ParquetRow)]
struct Pt {
    x: f64,
    y: Option<f64>,
    tags: Vec<i64>,
}

#[derive(Debug, Clone, PartialEq, ParquetRow)]
struct RepeatedRef<'a> {
    id: i32,
    nums: Vec<i32>,
    names: Vec<&'a str>,
    points: Vec<Pt>,
}

impl From<&RepeatedRef<'_>> for Repeated {
    fn from(r: &RepeatedRef<'_>) -> Self {
        Repeated {
            id: r.id,
            nums: r.nums.clone(),
            names: r.names.iter().map(|s| owned_str(s)).collect(),
            points: r.points.clone(),
        }
    }
}

#[test]
fn unannotated_repeated_primitive_and_group() {
    let rows = generate(10, 1200, |r, i| Repeated {
        id: i as i32,
        nums: r.vec(5, Rng::i32),
        names: r.vec(4, Rng::word),
        points: r.vec(3, |r| Pt {
            x: r.f64(),
            y: r.maybe(30, Rng::f64),
            tags: r.vec(3, Rng::i64),
        }),
    });
    assert!(rows.iter().any(|r| r.points.is_empty()));
    assert!(rows
        .iter()
        .any(|r| r.points.iter().any(|p| p.tags.is_empty())));
    let shredded: Vec<Vec<Dyn>> = rows
        .iter()
        .map(|r| {
            vec![
                Dyn::I32(r.id),
                rep(r.nums.iter().map(|v| Dyn::I32(*v))),
                rep(r.names.iter().map(|v| s(v))),
                rep(r.points.iter().map(|p| {
                    Dyn::Group(vec![
                        Dyn::F64(p.x),
                        opt(&p.y, |y| Dyn::F64(*y)),
                        rep(p.tags.iter().map(|t| Dyn::I64(*t))),
                    ])
                })),
            ]
        })
        .collect();
    let from_record = |row: &Row| Repeated {
        id: req(int(get(row, "id"))),
        nums: f_list(get(row, "nums"))
            .iter()
            .map(|v| req(int(v)))
            .collect(),
        names: f_list(get(row, "names"))
            .iter()
            .map(|v| req(string(v)))
            .collect(),
        points: f_list(get(row, "points"))
            .iter()
            .map(|p| {
                let p = req(group(p));
                Pt {
                    x: req(double(get(p, "x"))),
                    y: double(get(p, "y")),
                    tags: f_list(get(p, "tags"))
                        .iter()
                        .map(|t| req(long(t)))
                        .collect(),
                }
            })
            .collect(),
    };
    for (what, file) in files(REPEATED_SCHEMA, &shredded) {
        check_record_api_and_owned(&what, &file, &rows, from_record);
        check_borrowed!(&what, &file, RepeatedRef, Repeated, &rows);
    }
}
