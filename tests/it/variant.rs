//! VARIANT columns: files written with the `parquet` crate from values
//! encoded by `OwnedValue::encode`, unshredded and shredded (the shredding
//! below follows parquet-format `VariantShredding.md`), read back into
//! `Variant<'a>` and `OwnedVariant` and compared with the values written.

use bytes::Bytes;
use parquet::file::properties::WriterProperties;
use parquet_rows::variant::{OwnedValue, OwnedVariant, Variant, VariantMetadata};
use parquet_rows::{Error, ParquetFile, ParquetRow};
use parquet_rows_suite::nested_writer::write_nested;
use parquet_rows_suite::shred::{list3, Dyn};

/// Unannotated groups (the `parquet` crate's schema parser has no VARIANT):
/// bound by shape, as a file of a writer that drops the annotation.
const SCHEMA: &str = "
message variants {
  required int32 id;
  optional group plain {
    required binary metadata;
    required binary value;
  }
  optional group shredded {
    required binary metadata;
    optional binary value;
    optional group typed_value {
      required group price {
        optional binary value;
        optional double typed_value;
      }
      required group tags {
        optional binary value;
        optional group typed_value (LIST) {
          repeated group list {
            required group element {
              optional binary value;
              optional binary typed_value (UTF8);
            }
          }
        }
      }
    }
  }
}
";

fn obj(fields: Vec<(&str, OwnedValue)>) -> OwnedValue {
    OwnedValue::Object(fields.into_iter().map(|(k, v)| (k.to_owned(), v)).collect())
}

fn s(v: &str) -> OwnedValue {
    OwnedValue::from(v)
}

/// The values of the test file, one per row (`None`: a null group).
fn values() -> Vec<Option<OwnedValue>> {
    vec![
        // Fully shredded: price and tags typed.
        Some(obj(vec![
            ("price", OwnedValue::Double(101.25)),
            ("tags", OwnedValue::Array(vec![s("fx"), s("spot")])),
        ])),
        // Partially shredded: extra fields stay in `value`.
        Some(obj(vec![
            ("price", OwnedValue::Double(-0.5)),
            ("venue", s("XLON")),
            ("qty", OwnedValue::Int64(300)),
            (
                "nested",
                obj(vec![("deep", OwnedValue::Array(vec![OwnedValue::Null]))]),
            ),
        ])),
        // price of another type: in the field's `value`.
        Some(obj(vec![
            ("price", s("n/a")),
            ("tags", OwnedValue::Array(vec![])),
        ])),
        // No price; tags with an element that is not a string.
        Some(obj(vec![(
            "tags",
            OwnedValue::Array(vec![s("a"), OwnedValue::Int8(7), OwnedValue::Null, s("b")]),
        )])),
        // tags not an array.
        Some(obj(vec![("tags", OwnedValue::Bool(true))])),
        // An empty object, a scalar, a JSON null, a SQL null.
        Some(obj(vec![])),
        Some(OwnedValue::Decimal {
            unscaled: 12345,
            scale: 2,
            width: 8,
        }),
        Some(OwnedValue::Null),
        None,
        Some(OwnedValue::Array(vec![s("top"), OwnedValue::Date(19724)])),
    ]
}

fn enc(value: &OwnedValue, metadata: &[u8]) -> Dyn {
    let metadata = VariantMetadata::new(metadata).expect("metadata");
    Dyn::Bytes(value.encode_with(metadata).expect("encode"))
}

/// One shredded field group: `value` or `typed_value` (`typed` says how,
/// when the value has the shredded type), both null when missing.
fn field(
    value: Option<&OwnedValue>,
    metadata: &[u8],
    typed: impl Fn(&OwnedValue) -> Option<Dyn>,
) -> Dyn {
    match value {
        None => Dyn::Group(vec![Dyn::Null, Dyn::Null]),
        Some(v) => match typed(v) {
            Some(t) => Dyn::Group(vec![Dyn::Null, t]),
            None => Dyn::Group(vec![enc(v, metadata), Dyn::Null]),
        },
    }
}

/// The `shredded` group of one value.
fn shred(value: &OwnedValue) -> Dyn {
    let (metadata, _) = value.encode().expect("encode");
    let OwnedValue::Object(fields) = value else {
        return Dyn::Group(vec![
            Dyn::Bytes(metadata.clone()),
            enc(value, &metadata),
            Dyn::Null,
        ]);
    };
    let get = |name: &str| fields.iter().find(|(k, _)| k == name).map(|(_, v)| v);
    let price = field(get("price"), &metadata, |v| match v {
        OwnedValue::Double(d) => Some(Dyn::F64(*d)),
        _ => None,
    });
    let tags = field(get("tags"), &metadata, |v| match v {
        OwnedValue::Array(items) => Some(list3(items.iter().map(|item| match item {
            OwnedValue::String(text) => {
                Dyn::Group(vec![Dyn::Null, Dyn::Bytes(text.as_bytes().to_vec())])
            }
            other => Dyn::Group(vec![enc(other, &metadata), Dyn::Null]),
        }))),
        _ => None,
    });
    let rest: Vec<_> = fields
        .iter()
        .filter(|(k, _)| k != "price" && k != "tags")
        .cloned()
        .collect();
    // An object with no field left over has a null `value`, unless it is
    // empty (then the empty object is the value).
    let residual = if rest.is_empty() && !fields.is_empty() {
        Dyn::Null
    } else {
        enc(&OwnedValue::Object(rest), &metadata)
    };
    Dyn::Group(vec![
        Dyn::Bytes(metadata.clone()),
        residual,
        Dyn::Group(vec![price, tags]),
    ])
}

fn file() -> Bytes {
    let rows: Vec<Vec<Dyn>> = values()
        .iter()
        .enumerate()
        .map(|(i, v)| {
            let plain = match v {
                Some(v) => {
                    let (metadata, value) = v.encode().expect("encode");
                    Dyn::Group(vec![Dyn::Bytes(metadata), Dyn::Bytes(value)])
                }
                None => Dyn::Null,
            };
            let shredded = v.as_ref().map_or(Dyn::Null, shred);
            vec![Dyn::I32(i as i32), plain, shredded]
        })
        .collect();
    // Two row groups, so cursors cross one.
    write_nested(
        SCHEMA,
        WriterProperties::builder().build(),
        &[&rows[..4], &rows[4..]],
    )
}

#[derive(ParquetRow, Debug)]
struct Owned {
    id: i32,
    plain: Option<OwnedVariant>,
    shredded: Option<OwnedVariant>,
}

#[derive(ParquetRow, Debug)]
struct Borrowed<'a> {
    id: i32,
    plain: Option<Variant<'a>>,
}

fn expected() -> Vec<Option<OwnedVariant>> {
    values()
        .iter()
        .map(|v| {
            v.as_ref()
                .map(|v| OwnedVariant::from_value(v).expect("encode"))
        })
        .collect()
}

#[test]
fn unshredded_and_shredded_read_back_as_written() {
    let rows: Vec<Owned> = parquet_rows::from_bytes(file()).expect("read");
    let expected = expected();
    assert_eq!(rows.len(), expected.len());
    for (row, want) in rows.iter().zip(&expected) {
        assert_eq!(row.plain, *want, "row {} plain", row.id);
        assert_eq!(row.shredded, *want, "row {} shredded", row.id);
        assert_eq!(
            row.shredded.as_ref().map(|v| v.as_variant().to_json()),
            want.as_ref().map(|v| v.as_variant().to_json()),
            "row {}",
            row.id
        );
    }
    let first = rows[0].shredded.as_ref().expect("row 0").as_variant();
    assert_eq!(first.get("price").and_then(|p| p.as_f64()), Some(101.25));
    assert_eq!(
        first
            .get("tags")
            .and_then(|t| t.index(1))
            .and_then(|t| t.as_str()),
        Some("spot")
    );
    assert_eq!(
        rows[1]
            .shredded
            .as_ref()
            .expect("row 1")
            .as_variant()
            .to_json(),
        r#"{"nested":{"deep":[null]},"price":-0.5,"qty":300,"venue":"XLON"}"#
    );
}

#[test]
fn borrowed_variants_read_unshredded_columns() {
    let file = ParquetFile::from_bytes(file()).expect("open");
    let pages = file.load::<Borrowed>().expect("load");
    let rows: Vec<Borrowed<'_>> = pages.rows().expect("rows");
    for (row, want) in rows.iter().zip(expected()) {
        assert_eq!(
            row.plain,
            want.as_ref().map(OwnedVariant::as_variant),
            "row {}",
            row.id
        );
    }
    // Row groups one at a time go through the same cursors.
    let mut by_group = Vec::new();
    for group in 0..file.num_row_groups() {
        let pages = file.rows::<Owned>().row_groups([group]).load();
        let rows: Vec<Owned> = pages.expect("row group").rows().expect("rows");
        by_group.extend(rows);
    }
    let shredded: Vec<_> = by_group.into_iter().map(|r: Owned| r.shredded).collect();
    assert_eq!(shredded, expected());
}

#[test]
fn a_borrowed_variant_on_a_shredded_column_is_a_schema_error() {
    #[derive(ParquetRow, Debug)]
    #[allow(dead_code)] // only ever fails to bind
    struct Wrong<'a> {
        shredded: Option<Variant<'a>>,
    }
    let file = ParquetFile::from_bytes(file()).expect("open");
    let Err(Error::Schema(e)) = file.load::<Wrong>() else {
        panic!("expected a schema error");
    };
    let text = e.to_string();
    assert!(
        text.contains("OwnedVariant") && text.contains("shredded"),
        "{text}"
    );
}

#[test]
fn a_plain_field_on_a_variant_column_names_the_variant_types() {
    #[derive(ParquetRow, Debug)]
    #[allow(dead_code)] // only ever fails to bind
    struct Wrong {
        plain: Option<String>,
    }
    let Err(Error::Schema(e)) = parquet_rows::from_bytes::<Wrong>(file()) else {
        panic!("expected a schema error");
    };
    let text = e.to_string();
    assert!(
        text.contains("VARIANT") && text.contains("OwnedVariant"),
        "{text}"
    );
}

#[test]
fn corrupt_variant_bytes_are_errors() {
    // A value that claims a 10-byte string in 3 bytes.
    let (metadata, _) = OwnedValue::Null.encode().expect("encode");
    let rows = vec![vec![
        Dyn::I32(0),
        Dyn::Group(vec![Dyn::Bytes(metadata), Dyn::Bytes(vec![16 << 2, 10, 0])]),
        Dyn::Null,
    ]];
    let bytes = write_nested(SCHEMA, WriterProperties::builder().build(), &[&rows]);
    let e = parquet_rows::from_bytes::<Owned>(bytes).expect_err("corrupt value");
    let text = e.to_string();
    assert!(text.contains("plain") && text.contains("variant"), "{text}");

    // `value` and a non-object `typed_value` both set.
    let value = OwnedValue::Object(vec![("price".into(), OwnedValue::Double(1.0))]);
    let (metadata, encoded) = value.encode().expect("encode");
    let both = Dyn::Group(vec![
        Dyn::Bytes(metadata.clone()),
        Dyn::Null,
        Dyn::Group(vec![
            Dyn::Group(vec![Dyn::Bytes(vec![0x00]), Dyn::F64(1.0)]),
            Dyn::Group(vec![Dyn::Null, Dyn::Null]),
        ]),
    ]);
    let rows = vec![vec![
        Dyn::I32(0),
        Dyn::Group(vec![Dyn::Bytes(metadata), Dyn::Bytes(encoded)]),
        both,
    ]];
    let bytes = write_nested(SCHEMA, WriterProperties::builder().build(), &[&rows]);
    let e = parquet_rows::from_bytes::<Owned>(bytes).expect_err("both set");
    assert!(e.to_string().contains("non-object"), "{e}");
}

#[test]
fn serde_gives_json_values() {
    let v = OwnedVariant::from_value(&obj(vec![
        ("price", OwnedValue::Double(1.5)),
        (
            "qty",
            OwnedValue::Decimal {
                unscaled: 300,
                scale: 0,
                width: 4,
            },
        ),
        (
            "rate",
            OwnedValue::Decimal {
                unscaled: 325,
                scale: 2,
                width: 4,
            },
        ),
        ("day", OwnedValue::Date(19724)),
        (
            "tags",
            OwnedValue::Array(vec![s("a"), OwnedValue::Null, OwnedValue::Bool(true)]),
        ),
    ]))
    .expect("encode");
    let json = serde_json::to_value(&v).expect("serialize");
    assert_eq!(
        json,
        serde_json::json!({
            "day": "2024-01-02",
            "price": 1.5,
            "qty": 300,
            "rate": 3.25,
            "tags": ["a", null, true],
        })
    );
    assert_eq!(
        serde_json::to_value(v.as_variant()).expect("serialize"),
        json
    );
}

#[test]
fn lists_of_variants() {
    const LIST_SCHEMA: &str = "
    message lists {
      optional group vs (LIST) {
        repeated group list {
          optional group element {
            required binary metadata;
            required binary value;
          }
        }
      }
    }";
    #[derive(ParquetRow, Debug)]
    struct Lists {
        vs: Option<Vec<Option<OwnedVariant>>>,
    }
    let lists: Vec<Option<Vec<Option<OwnedValue>>>> = vec![
        Some(vec![
            Some(OwnedValue::Int64(1)),
            None,
            Some(obj(vec![("k", s("v"))])),
        ]),
        None,
        Some(vec![]),
        Some(vec![Some(OwnedValue::Array(vec![s("x")]))]),
    ];
    let rows: Vec<Vec<Dyn>> = lists
        .iter()
        .map(|list| {
            vec![list.as_ref().map_or(Dyn::Null, |items| {
                list3(items.iter().map(|item| {
                    item.as_ref().map_or(Dyn::Null, |v| {
                        let (m, e) = v.encode().expect("encode");
                        Dyn::Group(vec![Dyn::Bytes(m), Dyn::Bytes(e)])
                    })
                }))
            })]
        })
        .collect();
    let bytes = write_nested(LIST_SCHEMA, WriterProperties::builder().build(), &[&rows]);
    let read: Vec<Lists> = parquet_rows::from_bytes(bytes).expect("read");
    let want: Vec<Option<Vec<Option<OwnedVariant>>>> = lists
        .iter()
        .map(|l| {
            l.as_ref().map(|items| {
                items
                    .iter()
                    .map(|i| {
                        i.as_ref()
                            .map(|v| OwnedVariant::from_value(v).expect("encode"))
                    })
                    .collect()
            })
        })
        .collect();
    let got: Vec<_> = read.into_iter().map(|r| r.vs).collect();
    assert_eq!(got, want);
}
