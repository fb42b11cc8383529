//! LISTs with nullable elements, nested LISTs, OPTIONAL LISTs of nullable elements.

use super::*;

// ---------------------------------------------------------------------------
// LISTs with nullable elements, nested LISTs, OPTIONAL LISTs of nullable
// elements
// ---------------------------------------------------------------------------

const NULLABLE_SCHEMA: &str = "message nullable {
    REQUIRED group ints (LIST) {
        REPEATED group list {
            OPTIONAL INT32 element;
        }
    }
    REQUIRED group words (LIST) {
        REPEATED group list {
            OPTIONAL BINARY element (UTF8);
        }
    }
    REQUIRED group flags (LIST) {
        REPEATED group list {
            OPTIONAL BOOLEAN element;
        }
    }
}";

#[derive(Debug, Clone, PartialEq, ParquetRow)]
struct Nullable {
    ints: Vec<Option<i32>>,
    words: Vec<Option<String>>,
    flags: Vec<Option<bool>>,
}

#[derive(Debug, Clone, PartialEq, ParquetRow)]
struct NullableRef<'a> {
    ints: Vec<Option<i32>>,
    words: Vec<Option<&'a str>>,
    flags: Vec<Option<bool>>,
}

impl From<&NullableRef<'_>> for Nullable {
    fn from(n: &NullableRef<'_>) -> Self {
        Nullable {
            ints: n.ints.clone(),
            words: n.words.iter().map(|v| owned_opt_str(*v)).collect(),
            flags: n.flags.clone(),
        }
    }
}

#[test]
fn list_with_nullable_elements() {
    let rows = generate(6, 1500, |r, _| Nullable {
        ints: r.vec(6, |r| r.maybe(30, Rng::i32)),
        words: r.vec(5, |r| r.maybe(30, Rng::word)),
        // Long runs of one value, for the RLE boolean encoding.
        flags: r.vec(12, |r| r.maybe(20, |r| r.chance(80))),
    });
    assert!(rows.iter().any(|n| n.ints.contains(&None)));
    assert!(rows.iter().any(|n| n.words.is_empty()));
    let shredded: Vec<Vec<Dyn>> = rows
        .iter()
        .map(|n| {
            vec![
                list3(n.ints.iter().map(|v| opt(v, |v| Dyn::I32(*v)))),
                list3(n.words.iter().map(|v| opt(v, |v| s(v)))),
                list3(n.flags.iter().map(|v| opt(v, |v| Dyn::Bool(*v)))),
            ]
        })
        .collect();
    let from_record = |row: &Row| Nullable {
        ints: f_list(get(row, "ints")).iter().map(int).collect(),
        words: f_list(get(row, "words")).iter().map(string).collect(),
        flags: f_list(get(row, "flags")).iter().map(boolean).collect(),
    };
    for (what, file) in files(NULLABLE_SCHEMA, &shredded) {
        check_record_api_and_owned(&what, &file, &rows, from_record);
        check_borrowed!(&what, &file, NullableRef, Nullable, &rows);
    }
}

pub(super) const MATRICES_SCHEMA: &str = "message matrices {
    REQUIRED INT32 id;
    REQUIRED group matrix (LIST) {
        REPEATED group list {
            REQUIRED group element (LIST) {
                REPEATED group list {
                    REQUIRED INT64 element;
                }
            }
        }
    }
    OPTIONAL group ragged (LIST) {
        REPEATED group list {
            OPTIONAL group element (LIST) {
                REPEATED group list {
                    OPTIONAL BINARY element (UTF8);
                }
            }
        }
    }
}";

#[derive(Debug, Clone, PartialEq, ParquetRow)]
pub(super) struct Matrices {
    id: i32,
    matrix: Vec<Vec<i64>>,
    ragged: Option<Vec<Option<Vec<Option<String>>>>>,
}

#[derive(Debug, Clone, PartialEq, ParquetRow)]
pub(super) struct MatricesRef<'a> {
    id: i32,
    matrix: Vec<Vec<i64>>,
    ragged: Option<Vec<Option<Vec<Option<&'a str>>>>>,
}

impl From<&MatricesRef<'_>> for Matrices {
    fn from(m: &MatricesRef<'_>) -> Self {
        Matrices {
            id: m.id,
            matrix: m.matrix.clone(),
            ragged: m.ragged.as_ref().map(|outer| {
                outer
                    .iter()
                    .map(|inner| {
                        inner
                            .as_ref()
                            .map(|inner| inner.iter().map(|v| owned_opt_str(*v)).collect())
                    })
                    .collect()
            }),
        }
    }
}

pub(super) fn gen_matrices(seed: u64, n: usize) -> Vec<Matrices> {
    generate(seed, n, |r, i| Matrices {
        id: i as i32,
        matrix: r.vec(3, |r| r.vec(4, Rng::i64)),
        ragged: r.maybe(25, |r| {
            r.vec(3, |r| r.maybe(30, |r| r.vec(3, |r| r.maybe(30, Rng::word))))
        }),
    })
}

pub(super) fn matrices_dyn(m: &Matrices) -> Vec<Dyn> {
    vec![
        Dyn::I32(m.id),
        list3(
            m.matrix
                .iter()
                .map(|row| list3(row.iter().map(|v| Dyn::I64(*v)))),
        ),
        opt(&m.ragged, |outer| {
            list3(
                outer
                    .iter()
                    .map(|inner| opt(inner, |inner| list3(inner.iter().map(|v| opt(v, |v| s(v)))))),
            )
        }),
    ]
}

pub(super) fn matrices_from_record(row: &Row) -> Matrices {
    Matrices {
        id: req(int(get(row, "id"))),
        matrix: f_list(get(row, "matrix"))
            .iter()
            .map(|inner| f_list(inner).iter().map(|v| req(long(v))).collect())
            .collect(),
        ragged: list(get(row, "ragged")).map(|outer| {
            outer
                .iter()
                .map(|inner| list(inner).map(|inner| inner.iter().map(string).collect()))
                .collect()
        }),
    }
}

#[test]
fn nested_lists() {
    let rows = gen_matrices(7, 1200);
    assert!(rows.iter().any(|m| m.matrix.iter().any(Vec::is_empty)));
    assert!(rows
        .iter()
        .any(|m| m.ragged.as_ref().is_some_and(|o| o.contains(&None))));
    assert!(rows.iter().any(|m| m
        .ragged
        .as_ref()
        .is_some_and(|o| o.iter().flatten().any(|i| i.contains(&None)))));
    let shredded: Vec<Vec<Dyn>> = rows.iter().map(matrices_dyn).collect();
    for (what, file) in files(MATRICES_SCHEMA, &shredded) {
        check_record_api_and_owned(&what, &file, &rows, matrices_from_record);
        check_borrowed!(&what, &file, MatricesRef, Matrices, &rows);
    }
}

const SPARSE_SCHEMA: &str = "message sparse {
    OPTIONAL group prices (LIST) {
        REPEATED group list {
            OPTIONAL DOUBLE element;
        }
    }
    OPTIONAL group names (LIST) {
        REPEATED group list {
            OPTIONAL BINARY element (UTF8);
        }
    }
    OPTIONAL group sizes (LIST) {
        REPEATED group list {
            OPTIONAL FLOAT element;
        }
    }
    OPTIONAL group ids (LIST) {
        REPEATED group list {
            OPTIONAL INT64 element;
        }
    }
}";

#[derive(Debug, Clone, PartialEq, ParquetRow)]
struct Sparse {
    prices: Option<Vec<Option<f64>>>,
    names: Option<Vec<Option<String>>>,
    sizes: Option<Vec<Option<f32>>>,
    ids: Option<Vec<Option<i64>>>,
}

#[test]
fn optional_list_of_optional_elements() {
    let rows = generate(8, 1500, |r, _| Sparse {
        prices: r.maybe(30, |r| r.vec(5, |r| r.maybe(30, Rng::f64))),
        names: r.maybe(30, |r| r.vec(5, |r| r.maybe(30, Rng::word))),
        sizes: r.maybe(30, |r| r.vec(5, |r| r.maybe(30, Rng::f32))),
        ids: r.maybe(30, |r| r.vec(5, |r| r.maybe(30, Rng::i64))),
    });
    assert!(rows.iter().any(|s| s.prices.is_none()));
    assert!(rows
        .iter()
        .any(|s| s.prices.as_ref().is_some_and(Vec::is_empty)));
    assert!(rows
        .iter()
        .any(|s| s.prices.as_ref().is_some_and(|p| p.contains(&None))));
    let shredded: Vec<Vec<Dyn>> = rows
        .iter()
        .map(|sp| {
            vec![
                opt(&sp.prices, |l| {
                    list3(l.iter().map(|v| opt(v, |v| Dyn::F64(*v))))
                }),
                opt(&sp.names, |l| list3(l.iter().map(|v| opt(v, |v| s(v))))),
                opt(&sp.sizes, |l| {
                    list3(l.iter().map(|v| opt(v, |v| Dyn::F32(*v))))
                }),
                opt(&sp.ids, |l| {
                    list3(l.iter().map(|v| opt(v, |v| Dyn::I64(*v))))
                }),
            ]
        })
        .collect();
    let from_record = |row: &Row| Sparse {
        prices: list(get(row, "prices")).map(|l| l.iter().map(double).collect()),
        names: list(get(row, "names")).map(|l| l.iter().map(string).collect()),
        sizes: list(get(row, "sizes")).map(|l| l.iter().map(float).collect()),
        ids: list(get(row, "ids")).map(|l| l.iter().map(long).collect()),
    };
    for (what, file) in files(SPARSE_SCHEMA, &shredded) {
        check_record_api_and_owned(&what, &file, &rows, from_record);
    }
}
