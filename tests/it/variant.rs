//! VARIANT columns: files written with the `parquet` crate from values
//! encoded by `OwnedValue::encode`, unshredded and shredded (the shredding
//! below follows parquet-format `VariantShredding.md`), read back into
//! `Variant<'a>` and `OwnedVariant` and compared with the values written.

use bytes::Bytes;
use parquet::file::properties::WriterProperties;
use parquet_rows::variant::{OwnedValue, OwnedVariant, Variant, VariantMetadata};
use parquet_rows::{Error, ParquetFile, ParquetRow, ReadOptions};
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

#[derive(ParquetRow, Debug)]
struct BorrowedAll<'a> {
    id: i32,
    plain: Option<Variant<'a>>,
    shredded: Option<Variant<'a>>,
}

/// Borrowed rows against the values written (by `id`) and against the
/// owned read of the same rows: equal as values and as JSON.
fn check_borrowed(rows: &[BorrowedAll<'_>], ids: &[usize], what: &str) {
    let expected = expected();
    let owned: Vec<Owned> = parquet_rows::from_bytes(file()).expect("owned read");
    let got: Vec<usize> = rows.iter().map(|r| r.id as usize).collect();
    assert_eq!(got, ids, "{what}: ids");
    for row in rows {
        let id = row.id as usize;
        let want = expected[id].as_ref().map(OwnedVariant::as_variant);
        assert_eq!(row.plain, want, "{what}: row {id} plain");
        assert_eq!(row.shredded, want, "{what}: row {id} shredded");
        let from_owned = owned[id].shredded.as_ref().map(OwnedVariant::as_variant);
        assert_eq!(
            row.shredded, from_owned,
            "{what}: row {id} borrowed vs owned"
        );
        assert_eq!(
            row.shredded.map(|v| v.to_json()),
            from_owned.map(|v| v.to_json()),
            "{what}: row {id} json"
        );
    }
}

#[test]
fn borrowed_variants_read_shredded_columns_on_every_read_path() {
    let n = values().len();
    let all: Vec<usize> = (0..n).collect();
    let file = ParquetFile::from_bytes(file()).expect("open");

    let pages = file.load::<BorrowedAll>().expect("load");
    let first: Vec<BorrowedAll<'_>> = pages.rows().expect("rows");
    check_borrowed(&first, &all, "load + rows");
    // A second read finds the values the first rebuilt: the same bytes.
    let second: Vec<BorrowedAll<'_>> = pages.rows().expect("rows again");
    check_borrowed(&second, &all, "rows again");
    for (a, b) in first.iter().zip(&second) {
        if let (Some(a), Some(b)) = (a.shredded, b.shredded) {
            assert!(
                std::ptr::eq(a.value_bytes(), b.value_bytes()),
                "row {}: rebuilt twice",
                a.to_json()
            );
        }
    }

    // A filter on another field, a window, one row group.
    let pages = file
        .rows::<BorrowedAll>()
        .filter(BorrowedAll::filter().id().ge(3))
        .load()
        .expect("filtered load");
    let rows: Vec<BorrowedAll<'_>> = pages.rows().expect("filtered rows");
    check_borrowed(&rows, &all[3..], "filter id >= 3");
    let pages = file
        .rows::<BorrowedAll>()
        .offset(2)
        .limit(5)
        .load()
        .expect("window");
    let rows: Vec<BorrowedAll<'_>> = pages.rows().expect("window rows");
    check_borrowed(&rows, &all[2..7], "offset 2 limit 5");
    let pages = file
        .rows::<BorrowedAll>()
        .row_groups([1])
        .load()
        .expect("row group 1");
    let rows: Vec<BorrowedAll<'_>> = pages.rows().expect("row group rows");
    check_borrowed(&rows, &all[4..], "row group 1");

    // Two threads, each row group cut into ranges of two rows: cursors
    // start inside a row group and skip to their range.
    let options = ReadOptions::default().min_task_rows(2);
    let pages = file
        .rows::<BorrowedAll>()
        .options(options)
        .threads(2)
        .load()
        .expect("parallel load");
    let rows: Vec<BorrowedAll<'_>> = pages.par_rows().expect("par_rows");
    check_borrowed(&rows, &all, "threads(2) + par_rows");
    let rows: Vec<BorrowedAll<'_>> = pages.rows().expect("rows after par_rows");
    check_borrowed(&rows, &all, "rows after par_rows");
    let pages = file
        .rows::<BorrowedAll>()
        .options(options)
        .filter(BorrowedAll::filter().id().ge(1))
        .threads(2)
        .load()
        .expect("parallel filtered load");
    let rows: Vec<BorrowedAll<'_>> = pages.rows().expect("parallel filtered rows");
    check_borrowed(&rows, &all[1..], "threads(2) + filter");

    // Owned streams and batches over the same columns.
    let owned: Vec<Owned> = file
        .rows::<Owned>()
        .stream()
        .expect("stream")
        .map(|r| r.expect("row"))
        .collect();
    let batches: Vec<Owned> = file
        .rows::<Owned>()
        .batches()
        .expect("batches")
        .flat_map(|b| b.expect("batch"))
        .collect();
    let want = expected();
    for (k, rows) in [("stream", &owned), ("batches", &batches)] {
        let got: Vec<_> = rows.iter().map(|r| r.shredded.clone()).collect();
        assert_eq!(got, want, "{k}");
    }
}

#[test]
fn borrowed_variants_read_shredded_columns_remotely() {
    use object_store::memory::InMemory;
    use object_store::path::Path;
    use object_store::{ObjectStore, ObjectStoreExt};
    use parquet_rows::remote::RemoteFile;

    let store: std::sync::Arc<dyn ObjectStore> = std::sync::Arc::new(InMemory::new());
    let location = Path::from("variants.parquet");
    crate::remote::runtime()
        .block_on(store.put(&location, file().into()))
        .expect("put");
    let remote = RemoteFile::open_blocking(store, location).expect("open");
    let pages = remote
        .rows::<BorrowedAll>()
        .filter(BorrowedAll::filter().id().ge(2))
        .load_blocking()
        .expect("remote load");
    let rows: Vec<BorrowedAll<'_>> = pages.rows().expect("rows");
    let all: Vec<usize> = (0..values().len()).collect();
    check_borrowed(&rows, &all[2..], "remote, filter id >= 2");
}

/// A file of 40 rows of an `id` and a LIST of variants shredded as DOUBLE,
/// in two row groups, and the lists it holds.
fn shredded_lists() -> (Bytes, Vec<Option<Vec<Option<OwnedVariant>>>>) {
    const LIST_SCHEMA: &str = "
    message lists {
      required int32 id;
      optional group vs (LIST) {
        repeated group list {
          optional group element {
            required binary metadata;
            optional binary value;
            optional double typed_value;
          }
        }
      }
    }";
    let item = |i: u16| -> Option<OwnedValue> {
        match i % 4 {
            0 => Some(OwnedValue::Double(f64::from(i) + 0.5)),
            1 => Some(s(&format!("s{i}"))),
            2 => None,
            _ => Some(obj(vec![("k", OwnedValue::Int64(i64::from(i)))])),
        }
    };
    let lists: Vec<Option<Vec<Option<OwnedValue>>>> = (0..40u16)
        .map(|r| match r % 5 {
            0 => None,
            1 => Some(vec![]),
            k => Some((0..k * 2).map(|e| item(r * 10 + e)).collect()),
        })
        .collect();
    let rows: Vec<Vec<Dyn>> = lists
        .iter()
        .enumerate()
        .map(|(r, list)| {
            let vs = list.as_ref().map_or(Dyn::Null, |items| {
                list3(items.iter().map(|item| {
                    item.as_ref().map_or(Dyn::Null, |v| {
                        let (m, e) = v.encode().expect("encode");
                        match v {
                            OwnedValue::Double(d) => {
                                Dyn::Group(vec![Dyn::Bytes(m), Dyn::Null, Dyn::F64(*d)])
                            }
                            _ => Dyn::Group(vec![Dyn::Bytes(m), Dyn::Bytes(e), Dyn::Null]),
                        }
                    })
                }))
            });
            vec![Dyn::I32(i32::try_from(r).expect("small")), vs]
        })
        .collect();
    let bytes = write_nested(
        LIST_SCHEMA,
        WriterProperties::builder().build(),
        &[&rows[..25], &rows[25..]],
    );
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
    (bytes, want)
}

/// A LIST of shredded variants: borrowed and owned reads agree, whole and
/// from inside a row group, where skipping records of the list counts the
/// variants they hold.
#[test]
fn lists_of_shredded_variants() {
    #[derive(ParquetRow, Debug)]
    struct Owned {
        id: i32,
        vs: Option<Vec<Option<OwnedVariant>>>,
    }
    #[derive(ParquetRow, Debug)]
    struct Borrowed<'a> {
        id: i32,
        vs: Option<Vec<Option<Variant<'a>>>>,
    }
    let (bytes, want) = shredded_lists();
    let owned: Vec<Owned> = parquet_rows::from_bytes(bytes.clone()).expect("owned");
    let got: Vec<_> = owned.into_iter().map(|r| r.vs).collect();
    assert_eq!(got, want, "owned");

    let file = ParquetFile::from_bytes(bytes).expect("open");
    let check = |rows: &[Borrowed<'_>], from: usize, what: &str| {
        assert_eq!(rows.len(), want.len() - from, "{what}");
        for (row, want) in rows.iter().zip(&want[from..]) {
            let want: Option<Vec<Option<Variant<'_>>>> = want.as_ref().map(|l| {
                l.iter()
                    .map(|v| v.as_ref().map(OwnedVariant::as_variant))
                    .collect()
            });
            assert_eq!(row.vs, want, "{what}: row {}", row.id);
        }
    };
    let pages = file.load::<Borrowed>().expect("load");
    let rows: Vec<Borrowed<'_>> = pages.rows().expect("rows");
    check(&rows, 0, "whole");
    // Windows that start inside each row group, on fresh pages (every
    // value rebuilt after the skip) and on the pages read whole above.
    for offset in [3, 7, 26, 33] {
        let pages = file
            .rows::<Borrowed>()
            .offset(offset)
            .load()
            .expect("window");
        let rows: Vec<Borrowed<'_>> = pages.rows().expect("window rows");
        check(&rows, offset, &format!("offset {offset}"));
    }
    let options = ReadOptions::default().min_task_rows(3);
    let pages = file
        .rows::<Borrowed>()
        .options(options)
        .threads(2)
        .load()
        .expect("parallel");
    let rows: Vec<Borrowed<'_>> = pages.par_rows().expect("par_rows");
    check(&rows, 0, "threads(2), ranges of 3 rows");
    let rows: Vec<Borrowed<'_>> = pages.rows().expect("rows after par_rows");
    check(&rows, 0, "rows after par_rows");
}

/// A file of one row: a null `plain` variant and the `shredded` group given.
fn one_row(shredded: Dyn) -> Bytes {
    let (metadata, encoded) = OwnedValue::Null.encode().expect("encode");
    let rows = vec![vec![
        Dyn::I32(0),
        Dyn::Group(vec![Dyn::Bytes(metadata), Dyn::Bytes(encoded)]),
        shredded,
    ]];
    write_nested(SCHEMA, WriterProperties::builder().build(), &[&rows])
}

/// Shredded columns that contradict themselves or ask for too much: an
/// `Err` for the borrowed and the owned read alike, never a panic.
#[test]
fn hostile_shredded_variants_are_errors() {
    fn both(bytes: &Bytes, options: ReadOptions, what: &str) -> (String, String) {
        let file = ParquetFile::from_bytes(bytes.clone()).expect("open");
        let owned = file
            .rows::<Owned>()
            .options(options)
            .collect()
            .expect_err(what)
            .to_string();
        let borrowed = match file.rows::<BorrowedAll>().options(options).load() {
            Err(e) => e.to_string(),
            Ok(pages) => pages.rows::<BorrowedAll>().expect_err(what).to_string(),
        };
        (owned, borrowed)
    }
    let one = one_row;
    let price_tags = |price: Dyn, tags: Dyn| Dyn::Group(vec![price, tags]);
    let missing = || Dyn::Group(vec![Dyn::Null, Dyn::Null]);
    let value = obj(vec![("price", OwnedValue::Double(1.0))]);
    let (metadata, encoded) = value.encode().expect("encode");

    // `value` and a non-object `typed_value` both set in a field.
    let bytes = one(Dyn::Group(vec![
        Dyn::Bytes(metadata.clone()),
        Dyn::Null,
        price_tags(
            Dyn::Group(vec![Dyn::Bytes(vec![0x00]), Dyn::F64(1.0)]),
            missing(),
        ),
    ]));
    for e in <[String; 2]>::from(both(&bytes, ReadOptions::default(), "both set")) {
        assert!(e.contains("non-object") && e.contains("shredded"), "{e}");
    }
    // A typed object whose `value` is not an object (a partially shredded
    // object of another type).
    let number = OwnedValue::Int64(5)
        .encode_with(VariantMetadata::new(&metadata).unwrap())
        .unwrap();
    let bytes = one(Dyn::Group(vec![
        Dyn::Bytes(metadata.clone()),
        Dyn::Bytes(number),
        price_tags(Dyn::Group(vec![Dyn::Null, Dyn::F64(1.0)]), missing()),
    ]));
    for e in <[String; 2]>::from(both(&bytes, ReadOptions::default(), "value not an object")) {
        assert!(e.contains("not an object"), "{e}");
    }
    // A field both shredded and in the object's `value`.
    let bytes = one(Dyn::Group(vec![
        Dyn::Bytes(metadata.clone()),
        Dyn::Bytes(encoded.clone()),
        price_tags(Dyn::Group(vec![Dyn::Null, Dyn::F64(2.0)]), missing()),
    ]));
    for e in <[String; 2]>::from(both(&bytes, ReadOptions::default(), "field twice")) {
        assert!(e.contains("`price` is both shredded"), "{e}");
    }
    // A field's `value` nested 200 arrays deep (each level: header 0x07,
    // an array with 2-byte offsets; 1 element; offsets 0 and the child's
    // length), deeper than `MAX_DEPTH`.
    let mut deep = vec![0x00]; // a null
    for _ in 0..200 {
        let len = u16::try_from(deep.len()).unwrap().to_le_bytes();
        deep = [vec![0x07, 1, 0, 0, len[0], len[1]], deep].concat();
    }
    let bytes = one(Dyn::Group(vec![
        Dyn::Bytes(metadata.clone()),
        Dyn::Null,
        price_tags(Dyn::Group(vec![Dyn::Bytes(deep), Dyn::Null]), missing()),
    ]));
    for e in <[String; 2]>::from(both(&bytes, ReadOptions::default(), "deep")) {
        assert!(e.contains("deep"), "{e}");
    }
    // An array longer than `max_list_elements`.
    let tags: Vec<Dyn> = (0..50)
        .map(|i| Dyn::Group(vec![Dyn::Null, Dyn::Bytes(format!("t{i}").into_bytes())]))
        .collect();
    let bytes = one(Dyn::Group(vec![
        Dyn::Bytes(metadata.clone()),
        Dyn::Null,
        price_tags(
            missing(),
            Dyn::Group(vec![Dyn::Null, list3(tags.into_iter())]),
        ),
    ]));
    let strict = ReadOptions::default().max_list_elements(49);
    for e in <[String; 2]>::from(both(&bytes, strict, "long array")) {
        assert!(
            e.contains("more than 49 elements") && e.contains("max_list_elements"),
            "{e}"
        );
    }
    let read: Vec<Owned> = parquet_rows::from_bytes(bytes).expect("50 elements within the default");
    assert_eq!(
        read[0]
            .shredded
            .as_ref()
            .unwrap()
            .as_variant()
            .get("tags")
            .and_then(|t| t.as_array())
            .map(|a| a.len()),
        Some(50)
    );
}

/// The values rebuilt for borrowed rows count against `max_output_bytes`
/// (per column chunk): a read whose rows fit but whose rebuilt values do
/// not is an `Err`.
#[test]
fn rebuilt_values_are_held_to_the_output_budget() {
    // One row whose shredded tags hold a string of 10,000 bytes.
    let (metadata, _) = obj(vec![("tags", OwnedValue::Null)])
        .encode()
        .expect("encode");
    let long = Dyn::Group(vec![Dyn::Null, Dyn::Bytes(vec![b'x'; 10_000])]);
    let bytes = one_row(Dyn::Group(vec![
        Dyn::Bytes(metadata),
        Dyn::Null,
        Dyn::Group(vec![
            Dyn::Group(vec![Dyn::Null, Dyn::Null]),
            Dyn::Group(vec![Dyn::Null, list3(std::iter::once(long))]),
        ]),
    ]));
    let file = ParquetFile::from_bytes(bytes).expect("open");
    let rows_size = std::mem::size_of::<BorrowedAll<'_>>();
    let tight = ReadOptions::default().max_output_bytes(rows_size + 5_000);
    let pages = file
        .rows::<BorrowedAll>()
        .options(tight)
        .load()
        .expect("load");
    let e = pages
        .rows::<BorrowedAll>()
        .expect_err("over budget")
        .to_string();
    assert!(
        e.contains("max_output_bytes") && e.contains("rebuilt"),
        "{e}"
    );
    let roomy = ReadOptions::default().max_output_bytes(rows_size + 20_000);
    let pages = file
        .rows::<BorrowedAll>()
        .options(roomy)
        .load()
        .expect("load");
    let rows: Vec<BorrowedAll<'_>> = pages.rows().expect("within budget");
    let tags = rows[0].shredded.and_then(|v| v.get("tags")).expect("tags");
    assert_eq!(
        tags.index(0).and_then(|t| t.as_str()).map(str::len),
        Some(10_000)
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
