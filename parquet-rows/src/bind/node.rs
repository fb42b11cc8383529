//! Binding a field's [`Shape`] to a node of the schema, at any depth: which
//! leaf columns it reads and at which levels its nodes are defined.
//!
//! Lists follow the backward-compatibility rules of the Parquet format
//! (<https://github.com/apache/parquet-format/blob/master/LogicalTypes.md#lists>):
//! in a LIST group, the single REPEATED child is the list; it is the element
//! itself when it is a primitive, a group of several fields, or a group of one
//! field named `array` or `<list>_tuple` (the legacy 2-level forms); otherwise
//! its one child is the element (the standard 3-level form). A REPEATED field
//! outside a LIST group is a list of itself.

use parquet_rows_rules::{self as rules, Node, Repetition};

use parquet_rows_rules::FieldKind;

use super::{Mismatch, MismatchKind};

#[path = "variant.rs"]
mod variant;
use crate::nested::{Bound, FieldSpec, Shape};

/// Where binding is: the node's first leaf, the levels of its parent, the
/// node's repetition still to account for, and the paths for messages.
#[derive(Debug, Clone)]
pub(crate) struct At {
    pub(crate) leaf: usize,
    pub(crate) def: u32,               // definition level of the parent
    pub(crate) rep: u32,               // repetition level of the parent
    pub(crate) repetition: Repetition, // of the node, until a shape consumes it
    pub(crate) column: String,         // dotted column path
    pub(crate) field: String,          // dotted Rust path
    pub(crate) rust_type: String,      // the type at `field`, for messages
}

impl At {
    /// A top-level field bound to `node`, whose first leaf is `leaf`.
    pub(crate) fn top(leaf: usize, node: &Node, field: &str, rust_type: &str) -> Self {
        At {
            leaf,
            def: 0,
            rep: 0,
            repetition: node.repetition(),
            column: node.name().to_owned(),
            field: field.to_owned(),
            rust_type: rust_type.to_owned(),
        }
    }

    /// The node's levels, after its repetition: an OPTIONAL node adds a
    /// definition level, a REPEATED one a definition and a repetition level.
    fn entered(&self) -> (u32, u32) {
        match self.repetition {
            Repetition::Required => (self.def, self.rep),
            Repetition::Optional => (self.def + 1, self.rep),
            Repetition::Repeated => (self.def + 1, self.rep + 1),
        }
    }

    /// Child `index` of a group whose children are `fields`, as seen from
    /// inside the group.
    fn child(&self, fields: &[Node], index: usize, field: String, rust_type: String) -> At {
        let (def, rep) = self.entered();
        let leaf = self.leaf + fields[..index].iter().map(Node::leaves).sum::<usize>();
        let child = &fields[index];
        At {
            leaf,
            def,
            rep,
            repetition: child.repetition(),
            column: format!("{}.{}", self.column, child.name()),
            field,
            rust_type,
        }
    }

    /// The same node, its repetition accounted for.
    fn inside(&self) -> At {
        let (def, rep) = self.entered();
        At {
            def,
            rep,
            repetition: Repetition::Required,
            ..self.clone()
        }
    }

    fn mismatch(&self, kind: MismatchKind) -> Mismatch {
        Mismatch {
            field: self.field.clone(),
            rust_type: self.rust_type.clone(),
            column: self.column.clone(),
            kind,
        }
    }
}

/// What a map field reads, for messages.
const MAP_HINT: &str =
    "a map field reads a MAP column (a group of one REPEATED group of a key and a value)";

/// Binds `shape` to `node`; every mismatch under it goes to `out`.
pub(crate) fn bind(shape: &Shape, node: &Node, at: &At, out: &mut Vec<Mismatch>) -> Option<Bound> {
    match shape {
        Shape::Option(inner) => bind_option(inner, node, at, out),
        Shape::Leaf { kind, .. } => bind_leaf(*kind, node, at, out),
        Shape::List(element) => bind_list(element, None, node, at, out),
        Shape::Map(key, value) => bind_map(key, value, node, at, out),
        Shape::Pair(key, value) => bind_pair(key, value, node, at, out),
        Shape::Struct { fields, .. } => bind_struct(*fields, node, at, out),
        Shape::Variant { .. } => variant::bind_variant(node, at, out),
    }
}

/// A shape mismatch at `node`.
fn nested(node: &Node, hint: &str) -> MismatchKind {
    MismatchKind::Nested {
        found: describe(node),
        hint: hint.to_owned(),
    }
}

fn bind_option(inner: &Shape, node: &Node, at: &At, out: &mut Vec<Mismatch>) -> Option<Bound> {
    // On a REQUIRED (or REPEATED) node an `Option` is always `Some`.
    let defined = if at.repetition == Repetition::Optional {
        at.def + 1
    } else {
        at.def
    };
    let inner_at = if at.repetition == Repetition::Optional {
        at.inside()
    } else {
        at.clone()
    };
    if matches!(inner, Shape::Option(_)) {
        out.push(at.mismatch(MismatchKind::WrongType {
            expected: rules::expected::NESTED_OPTION,
            found: describe(node),
            suggestion: None,
        }));
        return None;
    }
    let inner = bind(inner, node, &inner_at, out)?;
    Some(Bound {
        leaf: at.leaf,
        def: defined,
        rep: at.rep,
        children: vec![inner],
    })
}

fn bind_leaf(kind: FieldKind, node: &Node, at: &At, out: &mut Vec<Mismatch>) -> Option<Bound> {
    // The order of the shared rules: shape, type, then nullability.
    let column = match node {
        Node::Primitive { column, .. } if at.repetition != Repetition::Repeated => column,
        _ => {
            out.push(at.mismatch(nested(node, node_hint(node, at.repetition))));
            return None;
        }
    };
    if let Err(expected) = rules::check(kind, column) {
        out.push(at.mismatch(MismatchKind::WrongType {
            expected,
            found: describe(node),
            suggestion: rules::suggest(column),
        }));
        return None;
    }
    if nullable(at, node, out) {
        return None;
    }
    Some(Bound {
        leaf: at.leaf,
        def: at.def,
        rep: at.rep,
        children: Vec::new(),
    })
}

fn bind_map(
    key: &Shape,
    value: &Shape,
    node: &Node,
    at: &At,
    out: &mut Vec<Mismatch>,
) -> Option<Bound> {
    if !node.is_map() && !looks_like_map(node, at.repetition) {
        out.push(at.mismatch(nested(node, MAP_HINT)));
        return None;
    }
    if nullable(at, node, out) {
        return None;
    }
    bind_list(key, Some(value), node, at, out)
}

fn bind_pair(
    key: &Shape,
    value: &Shape,
    node: &Node,
    at: &At,
    out: &mut Vec<Mismatch>,
) -> Option<Bound> {
    let fields = match node {
        Node::Group { fields, .. }
            if at.repetition != Repetition::Repeated && fields.len() == 2 =>
        {
            fields
        }
        _ => {
            out.push(at.mismatch(nested(
                node,
                "a pair `(K, V)` reads a group of two fields (a map's key and value)",
            )));
            return None;
        }
    };
    if nullable(at, node, out) {
        return None;
    }
    let mut children = Vec::with_capacity(2);
    for (i, (shape, part)) in [(key, "key"), (value, "value")].into_iter().enumerate() {
        let child_at = at.child(fields, i, format!("{}.{part}", at.field), rust_type(shape));
        children.push(bind(shape, &fields[i], &child_at, out));
    }
    let children: Option<Vec<Bound>> = children.into_iter().collect();
    Some(Bound {
        leaf: at.leaf,
        def: at.def,
        rep: at.rep,
        children: children?,
    })
}

fn bind_struct(
    fields: fn() -> Vec<FieldSpec>,
    node: &Node,
    at: &At,
    out: &mut Vec<Mismatch>,
) -> Option<Bound> {
    let children = match node {
        Node::Group { fields, .. }
            if at.repetition != Repetition::Repeated && !node.is_list() && !node.is_map() =>
        {
            fields
        }
        _ => {
            let hint = match node_hint(node, at.repetition) {
                h if matches!(node, Node::Group { .. })
                    || at.repetition == Repetition::Repeated =>
                {
                    h
                }
                _ => "the column is a single value; a struct reads a group",
            };
            out.push(at.mismatch(nested(node, hint)));
            return None;
        }
    };
    if nullable(at, node, out) {
        return None;
    }
    let mut bound = Vec::new();
    let mut ok = true;
    for spec in fields() {
        // Children of the name; `nth` picks one of several (a group may
        // repeat a name as a duckdb top level does).
        let same_name: Vec<usize> = (0..children.len())
            .filter(|&i| children[i].name() == spec.column)
            .collect();
        let index = match (spec.nth, same_name.len()) {
            (None, 1) => same_name[0],
            (Some(nth), count) if nth < count => same_name[nth],
            (nth, count) => {
                let names: Vec<&str> = children.iter().map(Node::name).collect();
                let kind = if count == 0 {
                    MismatchKind::MissingColumn {
                        available: names.iter().map(|n| (*n).to_owned()).collect(),
                        closest: rules::closest_name(spec.column, &names).map(str::to_owned),
                    }
                } else {
                    MismatchKind::Ambiguous { count, nth }
                };
                out.push(Mismatch {
                    field: format!("{}.{}", at.field, spec.field),
                    rust_type: spec.rust_type.to_owned(),
                    column: format!("{}.{}", at.column, spec.column),
                    kind,
                });
                ok = false;
                continue;
            }
        };
        let child_at = at.child(
            children,
            index,
            format!("{}.{}", at.field, spec.field),
            spec.rust_type.to_owned(),
        );
        match bind(&spec.shape, &children[index], &child_at, out) {
            Some(b) => bound.push(b),
            None => ok = false,
        }
    }
    ok.then_some(Bound {
        leaf: at.leaf,
        def: at.def,
        rep: at.rep,
        children: bound,
    })
}

/// Binds a list (`value` is `None`) or a map (`element` is the key) to `node`.
fn bind_list(
    element: &Shape,
    value: Option<&Shape>,
    node: &Node,
    at: &At,
    out: &mut Vec<Mismatch>,
) -> Option<Bound> {
    // The REPEATED node, and where binding stands on it.
    let (repeated, repeated_at) = if at.repetition == Repetition::Repeated {
        // A REPEATED field outside a LIST group: a list of itself.
        (node, at.clone())
    } else {
        match node {
            Node::Group { fields, .. }
                if fields.len() == 1 && fields[0].repetition() == Repetition::Repeated =>
            {
                let child_at = at.child(fields, 0, at.field.clone(), at.rust_type.clone());
                (&fields[0], child_at)
            }
            _ => {
                let hint = if value.is_some() {
                    MAP_HINT
                } else {
                    "`Vec<_>` reads a LIST or a REPEATED column"
                };
                out.push(at.mismatch(nested(node, hint)));
                return None;
            }
        }
    };
    if nullable(at, node, out) {
        return None;
    }
    let (def, rep) = repeated_at.entered();
    let inside = repeated_at.inside();
    let mut children = Vec::new();
    if let Some(value) = value {
        // A map: the repeated group holds the key and the value.
        let Node::Group { fields, .. } = repeated else {
            out.push(at.mismatch(nested(node, MAP_HINT)));
            return None;
        };
        let shapes = [element, value];
        let mut pair = Vec::new();
        let mut ok = fields.len() == 2;
        if !ok {
            out.push(at.mismatch(nested(
                node,
                "a map's key-value group must have exactly two fields, a key and a value",
            )));
            return None;
        }
        for (i, part) in ["key", "value"].into_iter().enumerate() {
            let child_at = inside.child(
                fields,
                i,
                format!("{}.{part}", at.field),
                rust_type(shapes[i]),
            );
            match bind(shapes[i], &fields[i], &child_at, out) {
                Some(b) => pair.push(b),
                None => ok = false,
            }
        }
        if !ok {
            return None;
        }
        children.push(Bound {
            leaf: inside.leaf,
            def,
            rep,
            children: pair,
        });
    } else {
        let element_at = |inner: At| At {
            field: format!("{}[]", at.field),
            rust_type: rust_type(element),
            ..inner
        };
        // The standard 3-level form: the repeated group's one child is the
        // element, unless the group has a legacy 2-level name.
        let three_level = match repeated {
            Node::Group { fields, name, .. }
                if fields.len() == 1
                    && at.repetition != Repetition::Repeated
                    && name != "array"
                    && *name != format!("{}_tuple", node.name()) =>
            {
                Some(fields)
            }
            _ => None,
        };
        let bound = match three_level {
            Some(fields) => {
                let child_at = inside.child(fields, 0, String::new(), String::new());
                bind(element, &fields[0], &element_at(child_at), out)?
            }
            None => bind(element, repeated, &element_at(inside.clone()), out)?,
        };
        children.push(bound);
    }
    Some(Bound {
        leaf: at.leaf,
        def,
        rep,
        children,
    })
}

/// A non-`Option` field on an OPTIONAL node: records the mismatch.
fn nullable(at: &At, node: &Node, out: &mut Vec<Mismatch>) -> bool {
    if at.repetition != Repetition::Optional {
        return false;
    }
    out.push(at.mismatch(MismatchKind::Nullable {
        found: describe(node),
    }));
    true
}

/// A map without annotation: a group of one REPEATED group of two fields.
fn looks_like_map(node: &Node, repetition: Repetition) -> bool {
    match node {
        Node::Group { fields, .. } if repetition != Repetition::Repeated => {
            matches!(fields.as_slice(), [Node::Group { repetition: Repetition::Repeated, fields, .. }] if fields.len() == 2)
        }
        _ => false,
    }
}

/// `OPTIONAL group (LIST)`, `REQUIRED DOUBLE`.
fn describe(node: &Node) -> String {
    node.describe()
}

/// Why a single value cannot read `node`.
fn node_hint(node: &Node, repetition: Repetition) -> &'static str {
    if repetition == Repetition::Repeated {
        "the column is REPEATED; read it with `Vec<_>`"
    } else {
        node.hint()
    }
}

/// The Rust type a shape stands for, for messages (lifetimes left out).
fn rust_type(shape: &Shape) -> String {
    match shape {
        Shape::Leaf { rust_type, .. } => rust_type.replace("'p ", ""),
        Shape::Option(inner) => format!("Option<{}>", rust_type(inner)),
        Shape::List(inner) => format!("Vec<{}>", rust_type(inner)),
        Shape::Map(k, v) => format!("Map<{}, {}>", rust_type(k), rust_type(v)),
        Shape::Pair(k, v) => format!("({}, {})", rust_type(k), rust_type(v)),
        Shape::Struct { name, .. } => (*name).to_owned(),
        Shape::Variant { rust_type, .. } => (*rust_type).to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use crate::{Error, ParquetRow};

    #[derive(ParquetRow, Debug)]
    #[allow(dead_code)] // only ever fails to bind
    #[parquet(crate = "crate")]
    struct Fill {
        price: f32,
        qty: i32,
        venue: String,
    }

    #[derive(ParquetRow, Debug)]
    #[allow(dead_code)] // only ever fails to bind
    #[parquet(crate = "crate")]
    struct Order {
        fills: Option<Vec<Fill>>, // price is DOUBLE; no venue
        tags: Vec<i32>,           // strings
        customer: i64,            // a group
        id: Vec<i64>,             // not a list
        attributes: HashMap<String, i64>,
        scores: Vec<f64>, // nullable elements
    }

    fn mismatches<T: crate::OwnedRow + std::fmt::Debug>() -> Vec<String> {
        let bytes = crate::doc_support::order_file().unwrap();
        match crate::from_bytes::<T>(bytes) {
            Err(Error::Schema(e)) => e.mismatches.iter().map(ToString::to_string).collect(),
            other => panic!("expected a schema error, got {other:?}"),
        }
    }

    #[test]
    fn nested_mismatches_name_the_full_paths() {
        let m = mismatches::<Order>();
        let expected = [
            "field `fills[].price: f32` cannot read column `fills.list.element.price` (REQUIRED DOUBLE): `f32` reads FLOAT; use `f64`",
            "field `fills[].venue: String`: the file has no column `fills.list.element.venue`; its columns are `price`, `qty`",
            "field `tags[]: i32` cannot read column `tags.list.element` (REQUIRED BYTE_ARRAY (UTF8)): `i32` reads INT32, plain or annotated INT(8|16|32, signed), INT(8|16, unsigned), DATE or TIME(MILLIS); use `&str` or `String`",
            "field `customer: i64` cannot read column `customer` (REQUIRED group): the column is a group; read it with a struct that derives `ParquetRow`",
            "field `id: Vec<i64>` cannot read column `id` (REQUIRED INT64): `Vec<_>` reads a LIST or a REPEATED column",
            "field `scores[]: f64` cannot read column `scores.list.element` (OPTIONAL DOUBLE): the column may hold nulls; use `Option<f64>`",
        ];
        assert_eq!(m, expected);
    }
}

#[cfg(test)]
mod attribute_tests {
    use std::collections::HashMap;

    use crate::ParquetRow;

    #[derive(ParquetRow, Debug, PartialEq)]
    #[parquet(crate = "crate", rename_all = "lowercase")]
    struct Client {
        #[parquet(skip)]
        note: String,
        #[parquet(rename = "name")]
        person: String,
        region: Option<String>,
    }

    #[derive(ParquetRow, Debug, PartialEq)]
    #[parquet(crate = "crate")]
    struct Order {
        #[parquet(rename = "customer")]
        client: Client,
        #[parquet(skip)]
        cache: HashMap<String, i64>,
        attributes: HashMap<String, i64>,
    }

    /// `skip`, `rename` and `rename_all` work inside nested structs, and a
    /// skipped field of a nested type is `Default`.
    #[test]
    fn attributes_inside_nested_structs() {
        let bytes = crate::doc_support::order_file().unwrap();
        let rows: Vec<Order> = crate::from_bytes(bytes).unwrap();
        assert_eq!(
            rows[0].client,
            Client {
                note: String::new(),
                person: "ada".into(),
                region: Some("eu".into())
            }
        );
        assert_eq!(rows[1].client.region, None);
        assert!(rows[0].cache.is_empty());
        assert_eq!(rows[0].attributes.get("channel"), Some(&3));
        assert!(rows[1].attributes.is_empty());
    }
}
