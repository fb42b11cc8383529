//! A nested file: orders with a struct, a list of strings, an OPTIONAL list
//! of structs and a list with nullable elements (ZSTD, 2 row groups).
//!
//! `parquet_derive` cannot read nested columns and the column API hands out
//! levels (assembling records from them is what this crate does), so the
//! comparison is with the record API and arrow.

use std::path::PathBuf;
use std::sync::Arc;

use arrow_array::cast::AsArray;
use arrow_array::types::{Float64Type, Int32Type as AInt32, Int64Type as AInt64};
use arrow_array::Array;
use parquet::basic::Compression;
use parquet::data_type::{ByteArray, ByteArrayType, DataType, DoubleType, Int32Type, Int64Type};
use parquet::file::properties::WriterProperties;
use parquet::file::reader::FileReader;
use parquet::file::writer::{SerializedFileWriter, SerializedRowGroupWriter};
use parquet::record::{Field, List, Row};
use parquet::schema::parser::parse_message_type;
use parquet_rows::ParquetRow;

use crate::common::{arrow_batches, fixtures_dir, floor, record_api_rows, Loaded, Rng};
use crate::harness::{execute, output, variant, Kind, Measured, Mode};

pub const NAME: &str = "orders-nested-zstd";
const ROWS: usize = 200_000;
const GROUPS: usize = 2;

const SCHEMA: &str = "message orders {
    REQUIRED INT64 id;
    REQUIRED group customer { REQUIRED BINARY name (UTF8); OPTIONAL BINARY region (UTF8); }
    REQUIRED group tags (LIST) { REPEATED group list { REQUIRED BINARY element (UTF8); } }
    OPTIONAL group fills (LIST) {
        REPEATED group list { REQUIRED group element { REQUIRED DOUBLE price; REQUIRED INT32 qty; } }
    }
    REQUIRED group scores (LIST) { REPEATED group list { OPTIONAL DOUBLE element; } }
}";

#[derive(ParquetRow, Debug, Clone, PartialEq)]
pub struct Order<'a> {
    pub id: i64,
    pub customer: Customer<'a>,
    pub tags: Vec<&'a str>,
    pub fills: Option<Vec<Fill>>,
    pub scores: Vec<Option<f64>>,
}

#[derive(ParquetRow, Debug, Clone, PartialEq)]
pub struct Customer<'a> {
    pub name: &'a str,
    pub region: Option<&'a str>,
}

#[derive(ParquetRow, Debug, Clone, Copy, PartialEq)]
pub struct Fill {
    pub price: f64,
    pub qty: i32,
}

#[derive(ParquetRow, Debug, Clone, PartialEq)]
pub struct OrderOwned {
    pub id: i64,
    pub customer: CustomerOwned,
    pub tags: Vec<String>,
    pub fills: Option<Vec<Fill>>,
    pub scores: Vec<Option<f64>>,
}

#[derive(ParquetRow, Debug, Clone, PartialEq)]
pub struct CustomerOwned {
    pub name: String,
    pub region: Option<String>,
}

fn canon(o: &Order<'_>) -> OrderOwned {
    OrderOwned {
        id: o.id,
        customer: CustomerOwned {
            name: o.customer.name.to_owned(),
            region: o.customer.region.map(str::to_owned),
        },
        tags: o.tags.iter().map(|t| (*t).to_owned()).collect(),
        fills: o.fills.clone(),
        scores: o.scores.clone(),
    }
}

fn generate() -> Vec<OrderOwned> {
    const TAGS: [&str; 6] = ["new", "vip", "retail", "algo", "block", "dark"];
    const REGIONS: [&str; 3] = ["eu", "us", "apac"];
    let mut r = Rng(11);
    (0..ROWS)
        .map(|i| OrderOwned {
            id: 5_000_000 + i as i64,
            customer: CustomerOwned {
                name: format!("client-{:04}", r.below(2000)),
                region: (!r.percent(10)).then(|| REGIONS[r.below(3) as usize].to_owned()),
            },
            tags: (0..r.below(4))
                .map(|_| TAGS[r.below(6) as usize].to_owned())
                .collect(),
            fills: (!r.percent(20)).then(|| {
                (0..r.below(5))
                    .map(|_| Fill {
                        price: 100.0 + r.below(10_000) as f64 / 64.0,
                        qty: 1 + r.below(500) as i32,
                    })
                    .collect()
            }),
            scores: (0..r.below(3))
                .map(|_| (!r.percent(25)).then(|| r.below(1000) as f64 / 8.0))
                .collect(),
        })
        .collect()
}

/// Values, definition and repetition levels of one leaf column.
struct Leaf<T> {
    values: Vec<T>,
    defs: Vec<i16>,
    reps: Vec<i16>,
}

impl<T> Leaf<T> {
    fn new() -> Self {
        Leaf {
            values: Vec::new(),
            defs: Vec::new(),
            reps: Vec::new(),
        }
    }
    /// One entry: a value at `def`, or a null/empty at a lower level.
    fn push(&mut self, value: Option<T>, def: i16, rep: i16) {
        self.values.extend(value);
        self.defs.push(def);
        self.reps.push(rep);
    }
}

fn write<T: DataType>(rg: &mut SerializedRowGroupWriter<'_, std::fs::File>, leaf: &Leaf<T::T>) {
    let mut col = rg.next_column().expect("column").expect("schema column");
    col.typed::<T>()
        .write_batch(&leaf.values, Some(&leaf.defs), Some(&leaf.reps))
        .expect("write");
    col.close().expect("close column");
}

/// Shreds `rows` into the leaf columns of [`SCHEMA`] by hand.
fn write_group(rg: &mut SerializedRowGroupWriter<'_, std::fs::File>, rows: &[OrderOwned]) {
    let text = |s: &str| ByteArray::from(s);
    let (mut id, mut name, mut region) = (Leaf::new(), Leaf::new(), Leaf::new());
    let (mut tags, mut price, mut qty, mut scores) =
        (Leaf::new(), Leaf::new(), Leaf::new(), Leaf::new());
    for o in rows {
        id.push(Some(o.id), 0, 0);
        name.push(Some(text(&o.customer.name)), 0, 0);
        match &o.customer.region {
            Some(r) => region.push(Some(text(r)), 1, 0),
            None => region.push(None, 0, 0),
        }
        if o.tags.is_empty() {
            tags.push(None, 0, 0);
        }
        for (i, t) in o.tags.iter().enumerate() {
            tags.push(Some(text(t)), 1, i16::from(i > 0));
        }
        match &o.fills {
            None => {
                price.push(None, 0, 0);
                qty.push(None, 0, 0);
            }
            Some(f) if f.is_empty() => {
                price.push(None, 1, 0);
                qty.push(None, 1, 0);
            }
            Some(f) => {
                for (i, fill) in f.iter().enumerate() {
                    price.push(Some(fill.price), 2, i16::from(i > 0));
                    qty.push(Some(fill.qty), 2, i16::from(i > 0));
                }
            }
        }
        if o.scores.is_empty() {
            scores.push(None, 0, 0);
        }
        for (i, s) in o.scores.iter().enumerate() {
            scores.push(*s, if s.is_some() { 2 } else { 1 }, i16::from(i > 0));
        }
    }
    write::<Int64Type>(rg, &id);
    write::<ByteArrayType>(rg, &name);
    write::<ByteArrayType>(rg, &region);
    write::<ByteArrayType>(rg, &tags);
    write::<DoubleType>(rg, &price);
    write::<Int32Type>(rg, &qty);
    write::<DoubleType>(rg, &scores);
}

fn file(rows: &[OrderOwned]) -> PathBuf {
    let path = fixtures_dir().join("bench-orders-nested-v1.parquet");
    if !path.exists() {
        let tmp = path.with_extension("tmp");
        let props = WriterProperties::builder()
            .set_compression(Compression::ZSTD(Default::default()))
            .build();
        let schema = Arc::new(parse_message_type(SCHEMA).expect("schema"));
        let out = std::fs::File::create(&tmp).expect("create fixture");
        let mut writer = SerializedFileWriter::new(out, schema, Arc::new(props)).expect("writer");
        for group in rows.chunks(ROWS / GROUPS) {
            let mut rg = writer.next_row_group().expect("row group");
            write_group(&mut rg, group);
            rg.close().expect("close row group");
        }
        writer.close().expect("close file");
        std::fs::rename(&tmp, &path).expect("rename fixture");
    }
    path
}

/// The record API: `get_row_iter` and a walk over each `Row`'s fields.
fn record_api(l: &Loaded) -> Vec<OrderOwned> {
    fn list(field: &Field) -> Option<&List> {
        match field {
            Field::ListInternal(list) => Some(list),
            _ => None,
        }
    }
    fn text(field: &Field) -> Option<String> {
        match field {
            Field::Str(s) => Some(s.clone()),
            _ => None,
        }
    }
    fn fill(field: &Field) -> Fill {
        let Field::Group(g) = field else {
            panic!("fill: {field:?}")
        };
        let mut f = g.get_column_iter().map(|(_, v)| v);
        let (Some(Field::Double(price)), Some(Field::Int(qty))) = (f.next(), f.next()) else {
            panic!("fill: {g:?}")
        };
        Fill {
            price: *price,
            qty: *qty,
        }
    }
    fn order(row: &Row) -> OrderOwned {
        let f: Vec<&Field> = row.get_column_iter().map(|(_, v)| v).collect();
        let Field::Group(customer) = f[1] else {
            panic!("customer: {:?}", f[1])
        };
        let c: Vec<&Field> = customer.get_column_iter().map(|(_, v)| v).collect();
        OrderOwned {
            id: match f[0] {
                Field::Long(v) => *v,
                other => panic!("id: {other:?}"),
            },
            customer: CustomerOwned {
                name: text(c[0]).expect("name"),
                region: text(c[1]),
            },
            tags: list(f[2])
                .map(|l| l.elements().iter().map(|e| text(e).expect("tag")).collect())
                .unwrap_or_default(),
            fills: list(f[3]).map(|l| l.elements().iter().map(fill).collect()),
            scores: list(f[4])
                .map(|l| {
                    l.elements()
                        .iter()
                        .map(|e| match e {
                            Field::Double(v) => Some(*v),
                            _ => None,
                        })
                        .collect()
                })
                .unwrap_or_default(),
        }
    }
    let mut out = Vec::with_capacity(l.rows());
    for row in l.ser.get_row_iter(None).expect("row iterator") {
        out.push(order(&row.expect("row")));
    }
    out
}

/// Arrow's batches converted by hand.
fn arrow_owned(l: &Loaded) -> Vec<OrderOwned> {
    let mut out = Vec::with_capacity(l.rows());
    for batch in l.arrow_reader() {
        let b = batch.expect("batch");
        let id = b.column(0).as_primitive::<AInt64>();
        let customer = b.column(1).as_struct();
        let name = customer.column(0).as_string::<i32>();
        let region = customer.column(1).as_string::<i32>();
        let tags = b.column(2).as_list::<i32>();
        let tag_values = tags.values().as_string::<i32>();
        let fills = b.column(3).as_list::<i32>();
        let fill_values = fills.values().as_struct();
        let price = fill_values.column(0).as_primitive::<Float64Type>();
        let qty = fill_values.column(1).as_primitive::<AInt32>();
        let scores = b.column(4).as_list::<i32>();
        let score_values = scores.values().as_primitive::<Float64Type>();
        let (tag_offsets, fill_offsets, score_offsets) = (
            tags.value_offsets(),
            fills.value_offsets(),
            scores.value_offsets(),
        );
        for i in 0..b.num_rows() {
            let range = |o: &[i32]| o[i] as usize..o[i + 1] as usize;
            out.push(OrderOwned {
                id: id.value(i),
                customer: CustomerOwned {
                    name: name.value(i).to_owned(),
                    region: region.is_valid(i).then(|| region.value(i).to_owned()),
                },
                tags: range(tag_offsets)
                    .map(|j| tag_values.value(j).to_owned())
                    .collect(),
                fills: fills.is_valid(i).then(|| {
                    range(fill_offsets)
                        .map(|j| Fill {
                            price: price.value(j),
                            qty: qty.value(j),
                        })
                        .collect()
                }),
                scores: range(score_offsets)
                    .map(|j| score_values.is_valid(j).then(|| score_values.value(j)))
                    .collect(),
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
    let preloaded = l.file.load::<Order>().expect("load");
    let variants = vec![
        variant("floor", Kind::Floor, |_| (floor(&l.ser), None)),
        variant("rows-borrowed", Kind::RowsBorrowed, |check| {
            let pages = l.file.load::<Order>().expect("load");
            output(&pages.rows::<Order>().expect("rows"), check, canon)
        }),
        variant("rows-owned", Kind::RowsOwned, |check| {
            output(
                &l.file.rows::<OrderOwned>().collect().expect("read"),
                check,
                Clone::clone,
            )
        }),
        variant("rows-decode-only", Kind::RowsInfo, |check| {
            output(&preloaded.rows::<Order>().expect("rows"), check, canon)
        }),
        variant("record-api", Kind::OtherOwned, |check| {
            output(&record_api(&l), check, Clone::clone)
        }),
        variant("record-api-rows", Kind::NoVec, |_| {
            (record_api_rows(&l.ser), None)
        }),
        variant("arrow", Kind::OtherOwned, |check| {
            output(&arrow_owned(&l), check, Clone::clone)
        }),
        variant("arrow-batches", Kind::NoVec, |_| (arrow_batches(&l), None)),
    ];
    execute(NAME, &expected, variants, mode)
}
