//! LISTs of strings and byte arrays, OPTIONAL LISTs of structs.

use super::*;

// ---------------------------------------------------------------------------
// LIST of strings (and of byte arrays; `Vec<u8>` stays a BYTE_ARRAY leaf)
// ---------------------------------------------------------------------------

const TAGGED_SCHEMA: &str = "message tagged {
    REQUIRED INT32 id;
    REQUIRED group tags (LIST) {
        REPEATED group list {
            REQUIRED BINARY element (UTF8);
        }
    }
    OPTIONAL group labels (LIST) {
        REPEATED group list {
            REQUIRED BINARY element (STRING);
        }
    }
    REQUIRED group blobs (LIST) {
        REPEATED group list {
            REQUIRED BINARY element;
        }
    }
    REQUIRED BINARY payload;
}";

#[derive(Debug, Clone, PartialEq, ParquetRow)]
struct Tagged {
    id: i32,
    tags: Vec<String>,
    labels: Option<Vec<String>>,
    blobs: Vec<Vec<u8>>,
    payload: Vec<u8>,
}

#[derive(Debug, Clone, PartialEq, ParquetRow)]
struct TaggedRef<'a> {
    id: i32,
    tags: Vec<&'a str>,
    labels: Option<Vec<&'a str>>,
    blobs: Vec<&'a [u8]>,
    payload: &'a [u8],
}

impl From<&TaggedRef<'_>> for Tagged {
    fn from(t: &TaggedRef<'_>) -> Self {
        Tagged {
            id: t.id,
            tags: t.tags.iter().map(|s| owned_str(s)).collect(),
            labels: t
                .labels
                .as_ref()
                .map(|l| l.iter().map(|s| owned_str(s)).collect()),
            blobs: t.blobs.iter().map(|b| b.to_vec()).collect(),
            payload: t.payload.to_vec(),
        }
    }
}

fn gen_blob(r: &mut Rng) -> Vec<u8> {
    let n = r.below(12);
    (0..n).map(|_| r.next_u64() as u8).collect()
}

fn gen_tagged(n: usize) -> Vec<Tagged> {
    generate(2, n, |r, i| Tagged {
        id: i as i32,
        tags: r.vec(6, Rng::word),
        labels: r.maybe(30, |r| r.vec(4, Rng::word)),
        blobs: r.vec(3, gen_blob),
        payload: gen_blob(r),
    })
}

fn tagged_dyn(t: &Tagged) -> Vec<Dyn> {
    vec![
        Dyn::I32(t.id),
        list3(t.tags.iter().map(|v| s(v))),
        opt(&t.labels, |l| list3(l.iter().map(|v| s(v)))),
        list3(t.blobs.iter().map(|b| Dyn::Bytes(b.clone()))),
        Dyn::Bytes(t.payload.clone()),
    ]
}

fn tagged_from_record(row: &Row) -> Tagged {
    let strings = |f: &Field| -> Vec<String> { f_list(f).iter().map(|e| req(string(e))).collect() };
    Tagged {
        id: req(int(get(row, "id"))),
        tags: strings(get(row, "tags")),
        labels: list(get(row, "labels")).map(|l| l.iter().map(|e| req(string(e))).collect()),
        blobs: req(list(get(row, "blobs")))
            .iter()
            .map(|e| req(bytes(e)))
            .collect(),
        payload: req(bytes(get(row, "payload"))),
    }
}

#[test]
fn list_of_strings() {
    let rows = gen_tagged(1200);
    assert!(rows.iter().any(|t| t.tags.is_empty()));
    assert!(rows.iter().any(|t| t.tags.len() > 8));
    assert!(rows.iter().any(|t| t.labels.is_none()));
    assert!(rows
        .iter()
        .any(|t| t.labels.as_ref().is_some_and(Vec::is_empty)));
    let shredded: Vec<Vec<Dyn>> = rows.iter().map(tagged_dyn).collect();
    for (what, file) in files(TAGGED_SCHEMA, &shredded) {
        check_record_api_and_owned(&what, &file, &rows, tagged_from_record);
        check_borrowed!(&what, &file, TaggedRef, Tagged, &rows);
    }
}

/// Range reads of a struct with list fields: the rows a window (offset,
/// limit) and predicates on `id` leave out are skipped by the list fields
/// record by record, under every writer setting (tiny pages, v1 and v2,
/// several row groups); the rows are those of the full read that match.
#[test]
fn list_of_strings_read_in_ranges() {
    use parquet_rows::RowFilter;
    let rows = gen_tagged(1200);
    let shredded: Vec<Vec<Dyn>> = rows.iter().map(tagged_dyn).collect();
    let mut rng = Rng::new(77);
    for (what, file) in files(TAGGED_SCHEMA, &shredded) {
        let parquet = ParquetFile::from_bytes(file.clone()).expect("open");
        for round in 0..10 {
            let (offset, limit) = (rng.below(1300), rng.below(400));
            let (lo, hi) = (rng.below(1200) as i32, rng.below(1200) as i32);
            let (lo, hi) = (lo.min(hi), lo.max(hi));
            let gaps: Vec<i32> = (0..rng.below(6)).map(|_| rng.below(1200) as i32).collect();
            let every = round % 3 == 0;
            let (mut filter, mut ref_filter) = (Tagged::filter(), TaggedRef::filter());
            if !every {
                filter = filter.id().between(lo, hi);
                ref_filter = ref_filter.id().between(lo, hi);
                for &gap in &gaps {
                    filter = filter.id().ne(gap);
                    ref_filter = ref_filter.id().ne(gap);
                }
            }
            let want: Vec<Tagged> = rows
                .iter()
                .filter(|t| every || (lo..=hi).contains(&t.id) && !gaps.contains(&t.id))
                .skip(offset)
                .take(limit)
                .cloned()
                .collect();
            let context = format!("{what}: ids {lo}..={hi} but {gaps:?} (all: {every}), offset {offset}, limit {limit}");
            let filter = filter.offset(offset).limit(limit);
            let got: Vec<Tagged> = parquet
                .rows()
                .filter(filter.clone())
                .collect()
                .unwrap_or_else(|e| panic!("{context}: read_where: {e}"));
            same_rows(&format!("{context}, read_where"), &got, &want);
            let got: Vec<Tagged> = parquet
                .rows()
                .filter(filter.clone())
                .threads(0)
                .collect()
                .unwrap_or_else(|e| panic!("{context}: par_read_where: {e}"));
            same_rows(&format!("{context}, par_read_where"), &got, &want);
            let pages = parquet
                .rows::<TaggedRef>()
                .filter(ref_filter.offset(offset).limit(limit))
                .load()
                .unwrap_or_else(|e| panic!("{context}: load_where: {e}"));
            let got: Vec<TaggedRef<'_>> = pages
                .rows()
                .unwrap_or_else(|e| panic!("{context}: rows: {e}"));
            let got: Vec<Tagged> = got.iter().map(Tagged::from).collect();
            same_rows(&format!("{context}, load_where + rows"), &got, &want);
        }
    }
}

// ---------------------------------------------------------------------------
// OPTIONAL LIST of structs (with a list and a struct inside), LIST of
// nullable structs
// ---------------------------------------------------------------------------

pub(super) const TRADES_SCHEMA: &str = "message trades {
    REQUIRED INT64 id;
    OPTIONAL group fills (LIST) {
        REPEATED group list {
            REQUIRED group element {
                REQUIRED DOUBLE px;
                REQUIRED INT64 qty;
                OPTIONAL BINARY venue (UTF8);
                REQUIRED group marks (LIST) {
                    REPEATED group list {
                        OPTIONAL INT32 element;
                    }
                }
                OPTIONAL group fee {
                    REQUIRED DOUBLE amount;
                    OPTIONAL BINARY currency (UTF8);
                }
            }
        }
    }
    REQUIRED group legs (LIST) {
        REPEATED group list {
            OPTIONAL group element {
                REQUIRED INT32 n;
                OPTIONAL BINARY side (UTF8);
            }
        }
    }
}";

#[derive(Debug, Clone, PartialEq, ParquetRow)]
pub(super) struct Trade {
    id: i64,
    fills: Option<Vec<Fill>>,
    legs: Vec<Option<Leg>>,
}

#[derive(Debug, Clone, PartialEq, ParquetRow)]
pub(super) struct Fill {
    #[parquet(rename = "px")]
    price: f64,
    qty: i64,
    venue: Option<String>,
    marks: Vec<Option<i32>>,
    fee: Option<Fee>,
}

#[derive(Debug, Clone, PartialEq, ParquetRow)]
pub(super) struct Fee {
    amount: f64,
    currency: Option<String>,
}

#[derive(Debug, Clone, PartialEq, ParquetRow)]
pub(super) struct Leg {
    n: i32,
    side: Option<String>,
}

#[derive(Debug, Clone, PartialEq, ParquetRow)]
pub(super) struct TradeRef<'a> {
    id: i64,
    fills: Option<Vec<FillRef<'a>>>,
    legs: Vec<Option<Leg>>,
}

#[derive(Debug, Clone, PartialEq, ParquetRow)]
pub(super) struct FillRef<'a> {
    #[parquet(rename = "px")]
    price: f64,
    qty: i64,
    venue: Option<&'a str>,
    marks: Vec<Option<i32>>,
    fee: Option<Fee>,
}

impl From<&TradeRef<'_>> for Trade {
    fn from(t: &TradeRef<'_>) -> Self {
        Trade {
            id: t.id,
            fills: t.fills.as_ref().map(|fills| {
                fills
                    .iter()
                    .map(|f| Fill {
                        price: f.price,
                        qty: f.qty,
                        venue: owned_opt_str(f.venue),
                        marks: f.marks.clone(),
                        fee: f.fee.clone(),
                    })
                    .collect()
            }),
            legs: t.legs.clone(),
        }
    }
}

pub(super) fn gen_trades(seed: u64, n: usize) -> Vec<Trade> {
    generate(seed, n, |r, i| Trade {
        id: i as i64,
        fills: r.maybe(25, |r| {
            r.vec(4, |r| Fill {
                price: r.f64(),
                qty: r.i64(),
                venue: r.maybe(30, Rng::word),
                marks: r.vec(3, |r| r.maybe(30, Rng::i32)),
                fee: r.maybe(40, |r| Fee {
                    amount: r.f64(),
                    currency: r.maybe(50, Rng::word),
                }),
            })
        }),
        legs: r.vec(3, |r| {
            r.maybe(30, |r| Leg {
                n: r.i32(),
                side: r.maybe(30, Rng::word),
            })
        }),
    })
}

pub(super) fn trade_dyn(t: &Trade) -> Vec<Dyn> {
    vec![
        Dyn::I64(t.id),
        opt(&t.fills, |fills| {
            list3(fills.iter().map(|f| {
                Dyn::Group(vec![
                    Dyn::F64(f.price),
                    Dyn::I64(f.qty),
                    opt(&f.venue, |v| s(v)),
                    list3(f.marks.iter().map(|m| opt(m, |m| Dyn::I32(*m)))),
                    opt(&f.fee, |fee| {
                        Dyn::Group(vec![Dyn::F64(fee.amount), opt(&fee.currency, |c| s(c))])
                    }),
                ])
            }))
        }),
        list3(t.legs.iter().map(|l| {
            opt(l, |l| {
                Dyn::Group(vec![Dyn::I32(l.n), opt(&l.side, |v| s(v))])
            })
        })),
    ]
}

pub(super) fn trade_from_record(row: &Row) -> Trade {
    Trade {
        id: req(long(get(row, "id"))),
        fills: list(get(row, "fills")).map(|fills| {
            fills
                .iter()
                .map(|e| {
                    let f = req(group(e));
                    Fill {
                        price: req(double(get(f, "px"))),
                        qty: req(long(get(f, "qty"))),
                        venue: string(get(f, "venue")),
                        marks: f_list(get(f, "marks")).iter().map(int).collect(),
                        fee: group(get(f, "fee")).map(|fee| Fee {
                            amount: req(double(get(fee, "amount"))),
                            currency: string(get(fee, "currency")),
                        }),
                    }
                })
                .collect()
        }),
        legs: f_list(get(row, "legs"))
            .iter()
            .map(|e| {
                group(e).map(|l| Leg {
                    n: req(int(get(l, "n"))),
                    side: string(get(l, "side")),
                })
            })
            .collect(),
    }
}

#[test]
fn optional_list_of_structs() {
    let rows = gen_trades(3, 1200);
    assert!(rows.iter().any(|t| t.fills.is_none()));
    assert!(rows
        .iter()
        .any(|t| t.fills.as_ref().is_some_and(Vec::is_empty)));
    assert!(rows.iter().any(|t| t.legs.contains(&None)));
    let shredded: Vec<Vec<Dyn>> = rows.iter().map(trade_dyn).collect();
    for (what, file) in files(TRADES_SCHEMA, &shredded) {
        check_record_api_and_owned(&what, &file, &rows, trade_from_record);
        check_borrowed!(&what, &file, TradeRef, Trade, &rows);
    }
}
