//! Shredding: a value tree that mirrors the schema ([`Dyn`]), cut into
//! repetition and definition levels per leaf column (Dremel's algorithm).

use parquet::basic::Repetition;
use parquet::schema::types::Type;

/// One value of a field, shaped like the field's schema node: a leaf for a
/// primitive, `Group` (one value per child) for a group, `Rep` (the
/// occurrences) for a REPEATED field, `Null` for an absent OPTIONAL field.
#[derive(Debug, Clone, PartialEq)]
pub enum Dyn {
    Null,
    Bool(bool),
    I32(i32),
    I64(i64),
    F32(f32),
    F64(f64),
    Bytes(Vec<u8>),
    Group(Vec<Dyn>),
    Rep(Vec<Dyn>),
}

/// A string leaf.
pub fn s(v: &str) -> Dyn {
    Dyn::Bytes(v.as_bytes().to_vec())
}

/// An OPTIONAL field: `Null` for `None`, else `f` of the value.
#[allow(clippy::ref_option)] // callers pass the fields of the Rust values as they are
pub fn opt<T>(v: &Option<T>, f: impl FnOnce(&T) -> Dyn) -> Dyn {
    v.as_ref().map_or(Dyn::Null, f)
}

/// The standard 3-level LIST: `group (LIST) { repeated group list { element } }`.
pub fn list3(items: impl IntoIterator<Item = Dyn>) -> Dyn {
    Dyn::Group(vec![Dyn::Rep(
        items.into_iter().map(|e| Dyn::Group(vec![e])).collect(),
    )])
}

/// A legacy 2-level LIST: `group (LIST) { repeated <element> }`.
pub fn list2(items: impl IntoIterator<Item = Dyn>) -> Dyn {
    Dyn::Group(vec![Dyn::Rep(items.into_iter().collect())])
}

/// A MAP: `group (MAP) { repeated group key_value { key; value; } }`.
pub fn map(entries: impl IntoIterator<Item = (Dyn, Dyn)>) -> Dyn {
    Dyn::Group(vec![Dyn::Rep(
        entries
            .into_iter()
            .map(|(k, v)| Dyn::Group(vec![k, v]))
            .collect(),
    )])
}

/// An un-annotated REPEATED field.
pub fn rep(items: impl IntoIterator<Item = Dyn>) -> Dyn {
    Dyn::Rep(items.into_iter().collect())
}

/// One leaf column: its values (non-null only) and levels.
#[derive(Debug, Clone, Default)]
pub struct Shredded {
    /// The non-null values, in order.
    pub values: Vec<Dyn>,
    /// One definition level per value or absence.
    pub def: Vec<i16>,
    /// One repetition level per value or absence.
    pub rep: Vec<i16>,
}

fn leaves(field: &Type) -> usize {
    if field.is_primitive() {
        1
    } else {
        field.get_fields().iter().map(|f| leaves(f)).sum()
    }
}

/// Shreds `rows` (one value per top-level field each) into one [`Shredded`]
/// per leaf column of `schema`, in schema order (Dremel's algorithm).
pub fn shred(schema: &Type, rows: &[Vec<Dyn>]) -> Vec<Shredded> {
    let mut cols = vec![Shredded::default(); leaves(schema)];
    for row in rows {
        shred_group(schema, row, 0, 0, 0, &mut cols);
    }
    cols
}

/// The children of group `node` with values `values`; `r` is the repetition
/// level of the first value written, `d` the definition level reached so far,
/// `depth` the number of REPEATED ancestors.
fn shred_group(node: &Type, values: &[Dyn], r: i16, d: i16, depth: i16, cols: &mut [Shredded]) {
    let children = node.get_fields();
    assert_eq!(
        children.len(),
        values.len(),
        "group `{}` has {} fields, the value {values:?}",
        node.name(),
        children.len()
    );
    let mut offset = 0;
    for (child, value) in children.iter().zip(values) {
        let n = leaves(child);
        shred_field(child, value, r, d, depth, &mut cols[offset..offset + n]);
        offset += n;
    }
}

fn shred_field(field: &Type, value: &Dyn, r: i16, d: i16, depth: i16, cols: &mut [Shredded]) {
    match field.get_basic_info().repetition() {
        Repetition::REQUIRED => shred_present(field, value, r, d, depth, cols),
        Repetition::OPTIONAL => match value {
            Dyn::Null => absent(cols, r, d),
            v => shred_present(field, v, r, d + 1, depth, cols),
        },
        Repetition::REPEATED => {
            let Dyn::Rep(items) = value else {
                panic!(
                    "REPEATED `{}` needs a Dyn::Rep, got {value:?}",
                    field.name()
                )
            };
            if items.is_empty() {
                absent(cols, r, d);
            }
            for (i, item) in items.iter().enumerate() {
                let r = if i == 0 { r } else { depth + 1 };
                shred_present(field, item, r, d + 1, depth + 1, cols);
            }
        }
    }
}

fn shred_present(field: &Type, value: &Dyn, r: i16, d: i16, depth: i16, cols: &mut [Shredded]) {
    if field.is_primitive() {
        assert!(
            !matches!(value, Dyn::Null | Dyn::Group(_) | Dyn::Rep(_)),
            "leaf `{}` needs a leaf value, got {value:?}",
            field.name()
        );
        cols[0].values.push(value.clone());
        cols[0].def.push(d);
        cols[0].rep.push(r);
    } else {
        let Dyn::Group(children) = value else {
            panic!("group `{}` needs a Dyn::Group, got {value:?}", field.name())
        };
        shred_group(field, children, r, d, depth, cols);
    }
}

/// An absent value (null or empty list) for every leaf under a field.
fn absent(cols: &mut [Shredded], r: i16, d: i16) {
    for c in cols {
        c.def.push(d);
        c.rep.push(r);
    }
}
