//! Skipping records of nested fields ([`BatchReader::skip`] on
//! [`Assembled`](super::Assembled)) against a full read: files written by the
//! `parquet` crate in tiny pages, data page v1 and v2, with and without
//! dictionaries; lists of ints and strings with nulls and empty lists, maps,
//! and a struct inside a list.

use std::collections::BTreeMap;
use std::sync::Arc;

use bytes::Bytes;
use parquet::column::writer::ColumnWriter;
use parquet::data_type::ByteArray;
use parquet::file::properties::{WriterProperties, WriterVersion};
use parquet::file::reader::{FileReader, SerializedFileReader};
use parquet::file::writer::SerializedFileWriter;
use parquet::schema::parser::parse_message_type;

use super::{BatchReader, ParquetNode};
use crate::bind::bind;
use crate::encoding::testing::Rng;
use crate::group::RowGroup;
use crate::{ParquetFile, ParquetRow};

/// One leaf column's levels and non-null values, as written.
struct Leaf {
    defs: Vec<i16>,
    reps: Vec<i16>,
    ints: Vec<i32>,
    texts: Vec<ByteArray>,
}

impl Leaf {
    fn new() -> Self {
        Leaf {
            defs: Vec::new(),
            reps: Vec::new(),
            ints: Vec::new(),
            texts: Vec::new(),
        }
    }
    fn entry(&mut self, rep: i16, def: i16) {
        self.reps.push(rep);
        self.defs.push(def);
    }
}

/// A value of a leaf column.
#[derive(Clone)]
enum Value {
    Int(i32),
    Text(String),
}

/// Shreds `Option<Vec<E>>` rows (a three-level LIST or a MAP, defined at
/// level 1, its entries at 2) into leaf columns: `element` gives, for each
/// leaf, the definition level below the entry (0 for a null at the entry's
/// level) and the value, if any.
fn shred<E>(
    rows: &[Option<Vec<E>>],
    leaves: usize,
    element: impl Fn(&E, usize) -> (i16, Option<Value>),
) -> Vec<Leaf> {
    let mut out: Vec<Leaf> = (0..leaves).map(|_| Leaf::new()).collect();
    for row in rows {
        for (l, leaf) in out.iter_mut().enumerate() {
            match row {
                None => leaf.entry(0, 0),
                Some(items) if items.is_empty() => leaf.entry(0, 1),
                Some(items) => {
                    for (j, item) in items.iter().enumerate() {
                        let (extra, value) = element(item, l);
                        leaf.entry(i16::from(j > 0), 2 + extra);
                        match value {
                            Some(Value::Int(v)) => leaf.ints.push(v),
                            Some(Value::Text(v)) => leaf.texts.push(ByteArray::from(v.as_str())),
                            None => {}
                        }
                    }
                }
            }
        }
    }
    out
}

/// Writes `leaves` as the one row group of a file of `schema`.
fn write(schema: &str, leaves: &[Leaf], props: WriterProperties) -> Bytes {
    let schema = Arc::new(parse_message_type(schema).unwrap());
    let mut buf = Vec::new();
    let mut writer = SerializedFileWriter::new(&mut buf, schema, Arc::new(props)).unwrap();
    let mut rg = writer.next_row_group().unwrap();
    for leaf in leaves {
        let mut col = rg.next_column().unwrap().unwrap();
        let (defs, reps) = (Some(&leaf.defs[..]), Some(&leaf.reps[..]));
        match col.untyped() {
            ColumnWriter::Int32ColumnWriter(w) => w.write_batch(&leaf.ints, defs, reps),
            ColumnWriter::ByteArrayColumnWriter(w) => w.write_batch(&leaf.texts, defs, reps),
            _ => unreachable!("the tests' columns are INT32 or BYTE_ARRAY"),
        }
        .unwrap();
        col.close().unwrap();
    }
    rg.close().unwrap();
    writer.close().unwrap();
    Bytes::from(buf)
}

/// Every writer setting: data page v1 and v2, dictionary or not, pages of
/// a few levels.
fn settings() -> Vec<(String, WriterProperties)> {
    let mut out = Vec::new();
    for version in [WriterVersion::PARQUET_1_0, WriterVersion::PARQUET_2_0] {
        for dictionary in [false, true] {
            let props = WriterProperties::builder()
                .set_writer_version(version)
                .set_dictionary_enabled(dictionary)
                .set_data_page_row_count_limit(7)
                .set_write_batch_size(5)
                .set_data_page_size_limit(64)
                .build();
            out.push((format!("{version:?} dictionary {dictionary}"), props));
        }
    }
    out
}

/// Data pages in the chunks of the file's first row group, per column.
fn data_pages(file: &Bytes) -> Vec<usize> {
    let reader = SerializedFileReader::new(file.clone()).unwrap();
    let group = reader.get_row_group(0).unwrap();
    (0..group.num_columns())
        .map(|c| {
            let pages = group.get_column_page_reader(c).unwrap();
            pages
                .filter(|p| {
                    p.as_ref().unwrap().page_type() != parquet::basic::PageType::DICTIONARY_PAGE
                })
                .count()
        })
        .collect()
}

/// Skips and reads of field `a` of `R` (of type `T`) against its full read.
fn check<R, T>(file: &Bytes, what: &str, rng: &mut Rng)
where
    R: for<'p> ParquetRow<'p>,
    T: for<'p> ParquetNode<'p> + Clone + PartialEq + std::fmt::Debug,
{
    let pages = data_pages(file);
    assert!(
        pages.iter().all(|&p| p >= 4),
        "{what}: data pages {pages:?}"
    );
    let parquet = ParquetFile::from_bytes(file.clone()).unwrap();
    let loaded = parquet.load::<R>().unwrap();
    let binding = bind(R::STRUCT_NAME, &R::fields(), parquet.schema()).unwrap();
    let group = &loaded.row_groups[0];
    let total = group.num_rows;
    let rows = RowGroup::new(
        group,
        &binding.fields,
        &loaded.partitions,
        crate::ReadOptions::default()
            .max_output_bytes(usize::MAX)
            .max_list_elements(usize::MAX),
        0..total,
    );
    let open = || T::reader(&rows, &binding.fields[0]).unwrap();

    let mut full = Vec::new();
    let mut reader = open();
    reader.read(total, &mut full).unwrap();
    reader.finish().unwrap();
    assert!(full.iter().any(|v| *v != full[0]), "{what}: rows differ");

    let mut cuts: Vec<usize> = (0..=total.min(40)).collect();
    cuts.extend([total - 1, total]);
    cuts.extend((0..20).map(|_| rng.below(total + 1)));
    for k in cuts {
        let mut reader = open();
        reader.skip(k).unwrap();
        let mut tail = Vec::new();
        reader.read(total - k, &mut tail).unwrap();
        assert_eq!(tail, &full[k..], "{what}: read after skip({k})");
        reader.finish().unwrap();
        assert!(
            reader.skip(1).is_err(),
            "{what}: skip past the end after skip({k})"
        );
    }

    for walk in 0..12 {
        let mut reader = open();
        let mut at = 0;
        while at < total {
            let m = (1 + rng.below(if walk % 2 == 0 { 6 } else { 40 })).min(total - at);
            if rng.below(2) == 0 {
                reader.skip(m).unwrap();
            } else {
                let mut got = Vec::new();
                reader.read(m, &mut got).unwrap();
                assert_eq!(got, &full[at..at + m], "{what}: walk {walk} at {at}");
            }
            at += m;
        }
        reader.finish().unwrap();
    }
    for k in [total + 1, total + 20] {
        let err = open().skip(k).unwrap_err().to_string();
        assert!(err.contains("fewer records"), "{what}: skip({k}): {err}");
    }
    let mut reader = open();
    reader.skip(total / 2).unwrap();
    assert!(
        reader.skip(total - total / 2 + 1).is_err(),
        "{what}: skip past the end midway"
    );
}

/// `Option<Vec<E>>` rows: some null, some empty, lists of up to 12.
fn lists<E>(n: usize, rng: &mut Rng, element: impl Fn(&mut Rng) -> E) -> Vec<Option<Vec<E>>> {
    (0..n)
        .map(|_| match rng.below(8) {
            0 => None,
            1 => Some(Vec::new()),
            _ => {
                let len = rng.below(13);
                Some((0..len).map(|_| element(rng)).collect())
            }
        })
        .collect()
}

fn maybe<T>(rng: &mut Rng, value: impl FnOnce(&mut Rng) -> T) -> Option<T> {
    (rng.below(5) != 0).then(|| value(rng))
}

const LIST_OF_INTS: &str =
    "message m { optional group a (LIST) { repeated group list { optional int32 element; } } }";
const LIST_OF_TEXTS: &str = "message m { optional group a (LIST) { repeated group list { optional binary element (UTF8); } } }";
const MAP: &str = "message m { optional group a (MAP) { repeated group key_value { required binary key (UTF8); optional int32 value; } } }";
const STRUCTS: &str = "message m { optional group a (LIST) { repeated group list { optional group element { required int32 x; optional binary y (UTF8); } } } }";

#[derive(ParquetRow)]
#[parquet(crate = "crate")]
struct Ints {
    #[allow(dead_code)]
    a: Option<Vec<Option<i32>>>,
}

#[derive(ParquetRow)]
#[parquet(crate = "crate")]
struct Texts {
    #[allow(dead_code)]
    a: Option<Vec<Option<String>>>,
}

#[derive(ParquetRow)]
#[parquet(crate = "crate")]
struct Map {
    #[allow(dead_code)]
    a: Option<BTreeMap<String, Option<i32>>>,
}

#[derive(ParquetRow, Clone, PartialEq, Debug)]
#[parquet(crate = "crate")]
struct Inner {
    x: i32,
    y: Option<String>,
}

#[derive(ParquetRow)]
#[parquet(crate = "crate")]
struct Structs {
    #[allow(dead_code)]
    a: Option<Vec<Option<Inner>>>,
}

#[test]
fn skipping_records_of_lists_gives_the_tail_of_a_full_read() {
    let mut rng = Rng::new(41);
    let ints = lists(300, &mut rng, |rng| {
        maybe(rng, |rng| rng.below(1000) as i32 - 500)
    });
    let int_leaves = shred(&ints, 1, |e: &Option<i32>, _| match e {
        Some(v) => (1, Some(Value::Int(*v))),
        None => (0, None),
    });
    let texts = lists(300, &mut rng, |rng| {
        maybe(rng, |rng| format!("t{}", rng.below(30)))
    });
    let text_leaves = shred(&texts, 1, |e: &Option<String>, _| match e {
        Some(v) => (1, Some(Value::Text(v.clone()))),
        None => (0, None),
    });
    for (name, props) in settings() {
        let file = write(LIST_OF_INTS, &int_leaves, props.clone());
        check::<Ints, Option<Vec<Option<i32>>>>(&file, &format!("ints, {name}"), &mut rng);
        let file = write(LIST_OF_TEXTS, &text_leaves, props);
        check::<Texts, Option<Vec<Option<String>>>>(&file, &format!("texts, {name}"), &mut rng);
    }
}

#[test]
fn skipping_records_of_maps_and_structs_in_lists_gives_the_tail_of_a_full_read() {
    let mut rng = Rng::new(42);
    let maps = lists(300, &mut rng, |rng| {
        (
            format!("k{}", rng.below(1000)),
            maybe(rng, |rng| rng.below(100) as i32),
        )
    });
    let map_leaves = shred(&maps, 2, |(k, v): &(String, Option<i32>), leaf| {
        match (leaf, v) {
            (0, _) => (0, Some(Value::Text(k.clone()))),
            (_, Some(v)) => (1, Some(Value::Int(*v))),
            (_, None) => (0, None),
        }
    });
    let structs = lists(300, &mut rng, |rng| {
        maybe(rng, |rng| Inner {
            x: rng.below(1000) as i32,
            y: maybe(rng, |rng| format!("y{}", rng.below(50))),
        })
    });
    let struct_leaves = shred(&structs, 2, |e: &Option<Inner>, leaf| match (e, leaf) {
        (None, _) => (0, None),
        (Some(inner), 0) => (1, Some(Value::Int(inner.x))),
        (Some(Inner { y: Some(y), .. }), _) => (2, Some(Value::Text(y.clone()))),
        (Some(_), _) => (1, None),
    });
    for (name, props) in settings() {
        let file = write(MAP, &map_leaves, props.clone());
        check::<Map, Option<BTreeMap<String, Option<i32>>>>(
            &file,
            &format!("map, {name}"),
            &mut rng,
        );
        let file = write(STRUCTS, &struct_leaves, props);
        check::<Structs, Option<Vec<Option<Inner>>>>(&file, &format!("structs, {name}"), &mut rng);
    }
}

#[derive(ParquetRow)]
#[parquet(crate = "crate")]
struct Group {
    #[allow(dead_code)]
    a: Option<Inner>,
}

const GROUP: &str =
    "message m { optional group a { required int32 x; optional binary y (UTF8); } }";

/// A nested struct without lists: its columns have no repetition levels,
/// every level starts a record.
#[test]
fn skipping_records_of_a_nested_struct_gives_the_tail_of_a_full_read() {
    let mut rng = Rng::new(43);
    let rows: Vec<Option<Inner>> = (0..300)
        .map(|_| {
            maybe(&mut rng, |rng| Inner {
                x: rng.below(1000) as i32,
                y: maybe(rng, |rng| format!("y{}", rng.below(50))),
            })
        })
        .collect();
    let mut leaves = [Leaf::new(), Leaf::new()];
    for row in &rows {
        match row {
            None => leaves.iter_mut().for_each(|leaf| leaf.entry(0, 0)),
            Some(inner) => {
                leaves[0].entry(0, 1);
                leaves[0].ints.push(inner.x);
                match &inner.y {
                    Some(y) => {
                        leaves[1].entry(0, 2);
                        leaves[1].texts.push(ByteArray::from(y.as_str()));
                    }
                    None => leaves[1].entry(0, 1),
                }
            }
        }
    }
    for (name, props) in settings() {
        let file = write(GROUP, &leaves, props);
        check::<Group, Option<Inner>>(&file, &format!("struct, {name}"), &mut rng);
    }
}
