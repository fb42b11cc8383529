//! Binding errors of nested fields.

use parquet::file::properties::WriterProperties;
use parquet_rows_suite::nested_writer::write_nested;

use super::*;

// ---------------------------------------------------------------------------
// Binding errors
// ---------------------------------------------------------------------------

const BIND_SCHEMA: &str = "message bind {
    REQUIRED INT32 plain;
    REQUIRED group xs (LIST) {
        REPEATED group list {
            REQUIRED INT32 element;
        }
    }
    REQUIRED group ys (LIST) {
        REPEATED group list {
            OPTIONAL INT32 element;
        }
    }
    OPTIONAL group customer {
        REQUIRED BINARY name (UTF8);
        OPTIONAL BINARY region (UTF8);
    }
    OPTIONAL group fills (LIST) {
        REPEATED group list {
            REQUIRED group element {
                REQUIRED DOUBLE price;
                REQUIRED INT64 qty;
            }
        }
    }
    REQUIRED group attrs (MAP) {
        REPEATED group key_value {
            REQUIRED BINARY key (UTF8);
            REQUIRED INT64 value;
        }
    }
}";

/// The struct that matches [`BIND_SCHEMA`]: the control for the error tests.
#[derive(Debug, Clone, PartialEq, ParquetRow)]
struct BindOk {
    plain: i32,
    xs: Vec<i32>,
    ys: Vec<Option<i32>>,
    customer: Option<CustomerOk>,
    fills: Option<Vec<FillOk>>,
    attrs: HashMap<String, i64>,
}

#[derive(Debug, Clone, PartialEq, ParquetRow)]
struct CustomerOk {
    name: String,
    region: Option<String>,
}

#[derive(Debug, Clone, PartialEq, ParquetRow)]
struct FillOk {
    price: f64,
    qty: i64,
}

fn bind_rows() -> Vec<BindOk> {
    generate(13, 50, |r, i| BindOk {
        plain: i as i32,
        xs: r.vec(3, Rng::i32),
        ys: r.vec(3, |r| r.maybe(30, Rng::i32)),
        customer: r.maybe(30, |r| CustomerOk {
            name: r.word(),
            region: r.maybe(30, Rng::word),
        }),
        fills: r.maybe(30, |r| {
            r.vec(3, |r| FillOk {
                price: r.f64(),
                qty: r.i64(),
            })
        }),
        attrs: r
            .keys(&["a", "b", "c"].map(owned_str), 2)
            .into_iter()
            .map(|k| (k, r.i64()))
            .collect(),
    })
}

fn bind_file() -> Bytes {
    let rows = bind_rows();
    let shredded: Vec<Vec<Dyn>> = rows
        .iter()
        .map(|b| {
            vec![
                Dyn::I32(b.plain),
                list3(b.xs.iter().map(|v| Dyn::I32(*v))),
                list3(b.ys.iter().map(|v| opt(v, |v| Dyn::I32(*v)))),
                opt(&b.customer, |c| {
                    Dyn::Group(vec![s(&c.name), opt(&c.region, |r| s(r))])
                }),
                opt(&b.fills, |f| {
                    list3(
                        f.iter()
                            .map(|f| Dyn::Group(vec![Dyn::F64(f.price), Dyn::I64(f.qty)])),
                    )
                }),
                map(b.attrs.iter().map(|(k, v)| (s(k), Dyn::I64(*v)))),
            ]
        })
        .collect();
    write_nested(
        BIND_SCHEMA,
        WriterProperties::builder().build(),
        &[&shredded[..20], &shredded[20..]],
    )
}

/// The schema error `T` gets on the bind file, the same from every entry point.
fn schema_error<T: parquet_rows::OwnedRow>() -> SchemaError {
    let file = bind_file();
    let parquet = ParquetFile::from_bytes(file.clone()).expect("open");
    let results = [
        parquet.load::<T>().map(drop),
        parquet.rows::<T>().row_groups([0]).load().map(drop),
        parquet.rows::<T>().collect().map(drop),
        parquet_rows::from_bytes::<T>(file).map(drop),
    ];
    let mut first: Option<SchemaError> = None;
    for result in results {
        match result {
            Err(Error::Schema(e)) => match &first {
                Some(f) => assert_eq!(*f, e, "every entry point reports the same mismatches"),
                None => first = Some(e),
            },
            Err(other) => panic!("expected a schema error, got {other}"),
            Ok(()) => panic!("expected a schema error, the struct was bound"),
        }
    }
    first.expect("four results")
}

/// Whether `field` names the element of list `list`, or a field `rest` of
/// it: `fills.price` as the `Mismatch` docs write it, or `fills[].price` as
/// 2-level lists get it (`tags[]` is the element of `tags`).
fn is_element_path(field: &str, list: &str, rest: &str) -> bool {
    let dotted = if rest.is_empty() {
        list.to_owned()
    } else {
        format!("{list}.{rest}")
    };
    let bracketed = if rest.is_empty() {
        format!("{list}[]")
    } else {
        format!("{list}[].{rest}")
    };
    field == dotted || field == bracketed
}

/// The one mismatch of `T`: (field path, column path, full error text).
fn one_mismatch<T: parquet_rows::OwnedRow>() -> (String, String, String) {
    let e = schema_error::<T>();
    assert_eq!(e.mismatches.len(), 1, "{e}");
    let m = &e.mismatches[0];
    let text = e.to_string();
    assert!(text.contains(&m.to_string()), "{text}");
    (m.field.clone(), m.column.clone(), text)
}

#[test]
fn bind_control_struct_reads_the_bind_file() {
    let rows = bind_rows();
    let file = bind_file();
    let from_record = |row: &Row| BindOk {
        plain: req(int(get(row, "plain"))),
        xs: f_list(get(row, "xs")).iter().map(|v| req(int(v))).collect(),
        ys: f_list(get(row, "ys")).iter().map(int).collect(),
        customer: group(get(row, "customer")).map(|c| CustomerOk {
            name: req(string(get(c, "name"))),
            region: string(get(c, "region")),
        }),
        fills: list(get(row, "fills")).map(|l| {
            l.iter()
                .map(|f| {
                    let f = req(group(f));
                    FillOk {
                        price: req(double(get(f, "price"))),
                        qty: req(long(get(f, "qty"))),
                    }
                })
                .collect()
        }),
        attrs: req(entries(get(row, "attrs")))
            .iter()
            .map(|(k, v)| (req(string(k)), req(long(v))))
            .collect(),
    };
    same_rows(
        "bind file, record API",
        &record_api(&file, from_record),
        &rows,
    );
    check_owned("bind file", &file, &rows);
}

#[test]
fn bind_vec_on_a_required_primitive() {
    #[derive(ParquetRow)]
    #[allow(dead_code)] // only bound, never decoded
    struct S {
        plain: Vec<i32>,
    }
    let (field, column, _) = one_mismatch::<S>();
    assert_eq!(field, "plain");
    assert_eq!(column, "plain");
}

#[test]
fn bind_primitive_on_a_list() {
    #[derive(ParquetRow)]
    #[allow(dead_code)] // only bound, never decoded
    struct S {
        xs: i32,
    }
    let (field, column, text) = one_mismatch::<S>();
    assert_eq!(field, "xs");
    assert_eq!(column, "xs");
    assert!(text.contains("LIST"), "{text}");
}

#[test]
fn bind_struct_on_a_primitive() {
    #[derive(ParquetRow)]
    #[allow(dead_code)] // only bound, never decoded
    struct Inner {
        a: i32,
    }
    #[derive(ParquetRow)]
    #[allow(dead_code)] // only bound, never decoded
    struct S {
        plain: Inner,
    }
    let (field, column, _) = one_mismatch::<S>();
    assert_eq!(field, "plain");
    assert_eq!(column, "plain");
}

#[test]
fn bind_struct_elements_on_a_list_of_primitives() {
    #[derive(ParquetRow)]
    #[allow(dead_code)] // only bound, never decoded
    struct Inner {
        a: i32,
    }
    #[derive(ParquetRow)]
    #[allow(dead_code)] // only bound, never decoded
    struct S {
        xs: Vec<Inner>,
    }
    let (field, column, _) = one_mismatch::<S>();
    assert!(is_element_path(&field, "xs", ""), "{field}");
    assert_eq!(column, "xs.list.element");
}

#[test]
fn bind_misspelled_nested_field() {
    #[derive(ParquetRow)]
    #[allow(dead_code)] // only bound, never decoded
    struct CustomerTypo {
        nmae: String,
        region: Option<String>,
    }
    #[derive(ParquetRow)]
    #[allow(dead_code)] // only bound, never decoded
    struct S {
        customer: Option<CustomerTypo>,
    }
    let (field, column, text) = one_mismatch::<S>();
    assert_eq!(field, "customer.nmae");
    assert_eq!(column, "customer.nmae");
    assert!(text.contains("nmae"), "{text}");
}

#[test]
fn bind_wrong_leaf_type_inside_a_list_of_structs() {
    #[derive(ParquetRow)]
    #[allow(dead_code)] // only bound, never decoded
    struct FillBad {
        price: i64,
        qty: i64,
    }
    #[derive(ParquetRow)]
    #[allow(dead_code)] // only bound, never decoded
    struct S {
        fills: Option<Vec<FillBad>>,
    }
    let (field, column, text) = one_mismatch::<S>();
    assert!(is_element_path(&field, "fills", "price"), "{field}");
    assert_eq!(column, "fills.list.element.price");
    assert!(text.contains("DOUBLE"), "{text}");
}

#[test]
fn bind_required_struct_on_an_optional_group() {
    #[derive(ParquetRow)]
    #[allow(dead_code)] // only bound, never decoded
    struct S {
        customer: CustomerOk,
    }
    let (field, column, text) = one_mismatch::<S>();
    assert_eq!(field, "customer");
    assert_eq!(column, "customer");
    assert!(text.contains("OPTIONAL"), "{text}");
}

#[test]
fn bind_non_option_elements_on_nullable_elements() {
    #[derive(ParquetRow)]
    #[allow(dead_code)] // only bound, never decoded
    struct S {
        ys: Vec<i32>,
    }
    let (field, column, text) = one_mismatch::<S>();
    assert!(is_element_path(&field, "ys", ""), "{field}");
    assert_eq!(column, "ys.list.element");
    assert!(text.contains("OPTIONAL"), "{text}");
}

#[test]
fn bind_wrong_map_key_type() {
    #[derive(ParquetRow)]
    #[allow(dead_code)] // only bound, never decoded
    struct S {
        attrs: HashMap<i32, i64>,
    }
    let (field, column, _) = one_mismatch::<S>();
    assert!(field == "attrs.key" || field == "attrs", "{field}");
    assert_eq!(column, "attrs.key_value.key");
}

#[test]
fn bind_every_nested_mismatch_in_one_error() {
    #[derive(ParquetRow)]
    #[allow(dead_code)] // only bound, never decoded
    struct FillBad {
        price: i64,
        qty: i64,
    }
    #[derive(ParquetRow)]
    #[allow(dead_code)] // only bound, never decoded
    struct CustomerTypo {
        nmae: String,
    }
    #[derive(ParquetRow)]
    #[allow(dead_code)] // only bound, never decoded
    struct S {
        plain: Vec<i32>,
        xs: i32,
        ys: Vec<Option<i32>>, // matches
        fills: Option<Vec<FillBad>>,
        customer: Option<CustomerTypo>,
    }
    let e = schema_error::<S>();
    let fields: Vec<String> = e.mismatches.iter().map(|m| m.field.clone()).collect();
    assert_eq!(fields.len(), 4, "{e}");
    assert_eq!(fields[..2], ["plain", "xs"], "{e}");
    assert!(is_element_path(&fields[2], "fills", "price"), "{e}");
    assert_eq!(fields[3], "customer.nmae", "{e}");
    let columns: Vec<&str> = e.mismatches.iter().map(|m| m.column.as_str()).collect();
    assert_eq!(
        columns,
        ["plain", "xs", "fills.list.element.price", "customer.nmae"],
        "{e}"
    );
    // One line per mismatch after the header.
    let text = e.to_string();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 1 + e.mismatches.len(), "{text}");
    for (line, m) in lines[1..].iter().zip(&e.mismatches) {
        assert!(line.contains(m.column.as_str()), "{line}");
    }
}
