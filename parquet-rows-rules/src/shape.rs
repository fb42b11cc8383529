//! Nested shapes: whether a field type made of `Option`, `Vec`, maps and
//! pairs around leaf types can read a node of the schema, at any depth.
//!
//! The walk follows the runtime binder (`parquet-rows` `bind/node.rs`) node
//! for node: the same list forms (the backward-compatibility rules of
//! parquet-format `LogicalTypes.md#lists`: a LIST group's one REPEATED child
//! is the list; it is the element itself when it is a primitive, a group of
//! several fields, or a group named `array` or `<list>_tuple`, else its one
//! child is), the same map forms (a MAP group, or a group of one REPEATED
//! group of two fields), the same order of checks (shape, type, then
//! nullability), so a declared schema fails to compile exactly where the
//! file would fail to open. The derive uses it at compile time
//! ([`check_shape`]); the hints are the runtime's words.
//!
//! Types the derive cannot tell from their tokens (a nested struct, an
//! alias) are [`TypeShape::Unknown`]: they are accepted anywhere, except
//! that no type but an `Option` reads an OPTIONAL group (every shape the
//! runtime binds to a group refuses one that may be null).

use crate::column::Repetition;
use crate::kind::{check, suggest, FieldKind};
use crate::schema::Node;

/// A field type as far as its shape goes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TypeShape {
    /// A leaf type (`f64`, `&str`, `Vec<u8>`).
    Leaf(FieldKind),
    /// `Option<T>`.
    Option(Box<TypeShape>),
    /// `Vec<T>` (not `Vec<u8>`, a leaf).
    List(Box<TypeShape>),
    /// `HashMap<K, V>`, `BTreeMap<K, V>`.
    Map(Box<TypeShape>, Box<TypeShape>),
    /// `(K, V)`.
    Pair(Box<TypeShape>, Box<TypeShape>),
    /// A type not recognised from its tokens: a struct, an alias, a variant.
    Unknown,
}

impl TypeShape {
    /// Whether the shape is one leaf, or `Option` of one (or of an
    /// `Option`): those bind through [`crate::Schema::bind`].
    pub fn is_flat(&self) -> bool {
        match self {
            TypeShape::Leaf(_) | TypeShape::Unknown => true,
            TypeShape::Option(inner) => {
                matches!(**inner, TypeShape::Leaf(_) | TypeShape::Option(_))
            }
            _ => false,
        }
    }

    /// The type as messages print it (`Vec<Option<i64>>`); `T` for an
    /// unknown type, leaf kinds by their common name.
    pub fn rust_type(&self) -> String {
        match self {
            TypeShape::Leaf(kind) => kind_name(*kind),
            TypeShape::Option(inner) => format!("Option<{}>", inner.rust_type()),
            TypeShape::List(inner) => format!("Vec<{}>", inner.rust_type()),
            TypeShape::Map(k, v) => format!("Map<{}, {}>", k.rust_type(), v.rust_type()),
            TypeShape::Pair(k, v) => format!("({}, {})", k.rust_type(), v.rust_type()),
            TypeShape::Unknown => "T".to_owned(),
        }
    }
}

/// A leaf kind's name in messages.
fn kind_name(kind: FieldKind) -> String {
    crate::kind::NAMES
        .iter()
        .find(|(_, k)| *k == kind)
        .map_or_else(
            || match kind {
                FieldKind::Str => "&str".to_owned(),
                FieldKind::ByteSlice => "&[u8]".to_owned(),
                FieldKind::FixedBytes(n) => format!("[u8; {n}]"),
                other => format!("{other:?}"),
            },
            |(n, _)| (*n).to_owned(),
        )
}

/// One mismatch under a nested field.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ShapeProblem {
    /// The Rust path: `tags[]`, `attributes.key`.
    pub field: String,
    /// The type at that path, as written or rebuilt (`Option<i64>`).
    pub rust_type: String,
    /// The column path: `tags.list.element`.
    pub column: String,
    /// What is wrong.
    pub kind: ShapeProblemKind,
}

/// What is wrong at one node.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ShapeProblemKind {
    /// The node has another shape (a group for a leaf, a leaf for a list).
    Nested {
        /// The node, e.g. `REQUIRED DOUBLE`.
        found: String,
        /// What reads it.
        hint: String,
    },
    /// The leaf column has a type the leaf field does not read.
    WrongType {
        /// What the field reads.
        expected: &'static str,
        /// The column, e.g. `REQUIRED BYTE_ARRAY (UTF8)`.
        found: String,
        /// The field types that read the column.
        suggestion: Option<&'static [&'static str]>,
    },
    /// The node is OPTIONAL and the type not an `Option`.
    Nullable {
        /// The node.
        found: String,
    },
}

/// What a map field reads (the runtime's words).
pub const MAP_HINT: &str =
    "a map field reads a MAP column (a group of one REPEATED group of a key and a value)";

/// Why `Vec<_>` cannot read `node`, with what to write instead.
pub fn list_hint(node: &Node) -> String {
    let base = "`Vec<_>` reads a LIST or a REPEATED column";
    match node {
        Node::Primitive { column, .. } => match suggest(column) {
            Some(types) => {
                let types: Vec<String> = types.iter().map(|t| format!("`{t}`")).collect();
                format!(
                    "{base}; the column holds single values: use {}",
                    types.join(" or ")
                )
            }
            None => base.to_owned(),
        },
        Node::Group { .. } => format!("{base}; {}", node.hint()),
    }
}

/// Where the walk stands: the node's repetition still to account for, and
/// the paths for messages.
#[derive(Clone)]
struct At {
    repetition: Repetition,
    column: String,
    field: String,
    rust_type: String,
}

impl At {
    fn problem(&self, kind: ShapeProblemKind) -> ShapeProblem {
        ShapeProblem {
            field: self.field.clone(),
            rust_type: self.rust_type.clone(),
            column: self.column.clone(),
            kind,
        }
    }

    fn child(&self, node: &Node, field: String, rust_type: String) -> At {
        At {
            repetition: node.repetition(),
            column: format!("{}.{}", self.column, node.name()),
            field,
            rust_type,
        }
    }

    fn inside(&self) -> At {
        At {
            repetition: Repetition::Required,
            ..self.clone()
        }
    }
}

/// Checks that a field `field` of type `rust_type` and shape `shape` can
/// read the top-level node `node`; every mismatch found, in the order the
/// runtime binder reports them (empty: the shapes agree).
pub fn check_shape(
    node: &Node,
    shape: &TypeShape,
    field: &str,
    rust_type: &str,
) -> Vec<ShapeProblem> {
    let at = At {
        repetition: node.repetition(),
        column: node.name().to_owned(),
        field: field.to_owned(),
        rust_type: rust_type.to_owned(),
    };
    let mut out = Vec::new();
    walk(shape, node, &at, &mut out);
    out
}

fn nested(node: &Node, hint: impl Into<String>) -> ShapeProblemKind {
    ShapeProblemKind::Nested {
        found: node.describe(),
        hint: hint.into(),
    }
}

/// A non-`Option` type on an OPTIONAL node: records it.
fn nullable(at: &At, node: &Node, out: &mut Vec<ShapeProblem>) -> bool {
    if at.repetition != Repetition::Optional {
        return false;
    }
    out.push(at.problem(ShapeProblemKind::Nullable {
        found: node.describe(),
    }));
    true
}

fn walk(shape: &TypeShape, node: &Node, at: &At, out: &mut Vec<ShapeProblem>) {
    match shape {
        TypeShape::Option(inner) => {
            if matches!(**inner, TypeShape::Option(_)) {
                out.push(at.problem(ShapeProblemKind::WrongType {
                    expected: crate::kind::expected::NESTED_OPTION,
                    found: node.describe(),
                    suggestion: None,
                }));
                return;
            }
            let inner_at = if at.repetition == Repetition::Optional {
                at.inside()
            } else {
                at.clone()
            };
            walk(inner, node, &inner_at, out);
        }
        TypeShape::Leaf(kind) => leaf(*kind, node, at, out),
        TypeShape::List(element) => list(element, None, node, at, out),
        TypeShape::Map(key, value) => {
            if !node.is_map() && !looks_like_map(node, at.repetition) {
                let hint = if at.repetition == Repetition::Repeated {
                    format!("{MAP_HINT}; the column is REPEATED; read it with `Vec<_>`")
                } else {
                    format!("{MAP_HINT}; {}", node.hint())
                };
                out.push(at.problem(nested(node, hint)));
                return;
            }
            if nullable(at, node, out) {
                return;
            }
            list(key, Some(value), node, at, out);
        }
        TypeShape::Pair(key, value) => {
            let fields = match node {
                Node::Group { fields, .. }
                    if at.repetition != Repetition::Repeated && fields.len() == 2 =>
                {
                    fields
                }
                _ => {
                    out.push(at.problem(nested(
                        node,
                        "a pair `(K, V)` reads a group of two fields (a map's key and value)",
                    )));
                    return;
                }
            };
            if nullable(at, node, out) {
                return;
            }
            for (i, (shape, part)) in [(key, "key"), (value, "value")].into_iter().enumerate() {
                let child = at.child(
                    &fields[i],
                    format!("{}.{part}", at.field),
                    shape.rust_type(),
                );
                walk(shape, &fields[i], &child, out);
            }
        }
        // A struct, an alias or a variant: the derive cannot see inside.
        // Every shape that reads a group refuses an OPTIONAL one.
        TypeShape::Unknown => {
            if matches!(node, Node::Group { .. }) {
                nullable(at, node, out);
            }
        }
    }
}

fn leaf(kind: FieldKind, node: &Node, at: &At, out: &mut Vec<ShapeProblem>) {
    let column = match node {
        Node::Primitive { column, .. } if at.repetition != Repetition::Repeated => column,
        _ => {
            let hint = if at.repetition == Repetition::Repeated {
                "the column is REPEATED; read it with `Vec<_>`"
            } else {
                node.hint()
            };
            out.push(at.problem(nested(node, hint)));
            return;
        }
    };
    if let Err(expected) = check(kind, column) {
        out.push(at.problem(ShapeProblemKind::WrongType {
            expected,
            found: node.describe(),
            suggestion: suggest(column),
        }));
        return;
    }
    nullable(at, node, out);
}

/// A list (`value` `None`) or a map (`element` is the key).
fn list(
    element: &TypeShape,
    value: Option<&TypeShape>,
    node: &Node,
    at: &At,
    out: &mut Vec<ShapeProblem>,
) {
    let (repeated, repeated_at) = if at.repetition == Repetition::Repeated {
        (node, at.clone())
    } else {
        match node {
            Node::Group { fields, .. }
                if fields.len() == 1 && fields[0].repetition() == Repetition::Repeated =>
            {
                (
                    &fields[0],
                    at.child(&fields[0], at.field.clone(), at.rust_type.clone()),
                )
            }
            _ => {
                let hint = if value.is_some() {
                    MAP_HINT.to_owned()
                } else {
                    list_hint(node)
                };
                out.push(at.problem(nested(node, hint)));
                return;
            }
        }
    };
    if nullable(at, node, out) {
        return;
    }
    let inside = repeated_at.inside();
    if let Some(value) = value {
        let Node::Group { fields, .. } = repeated else {
            out.push(at.problem(nested(node, MAP_HINT)));
            return;
        };
        if fields.len() != 2 {
            out.push(at.problem(nested(
                node,
                "a map's key-value group must have exactly two fields, a key and a value",
            )));
            return;
        }
        for (i, (shape, part)) in [(element, "key"), (value, "value")].into_iter().enumerate() {
            let child = inside.child(
                &fields[i],
                format!("{}.{part}", at.field),
                shape.rust_type(),
            );
            walk(shape, &fields[i], &child, out);
        }
        return;
    }
    let field = format!("{}[]", at.field);
    let three_level = match repeated {
        Node::Group { fields, name, .. }
            if fields.len() == 1
                && at.repetition != Repetition::Repeated
                && name != "array"
                && *name != format!("{}_tuple", node.name()) =>
        {
            Some(&fields[0])
        }
        _ => None,
    };
    match three_level {
        Some(child) => {
            let child_at = inside.child(child, field, element.rust_type());
            walk(element, child, &child_at, out);
        }
        None => {
            let element_at = At {
                field,
                rust_type: element.rust_type(),
                ..inside
            };
            walk(element, repeated, &element_at, out);
        }
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    fn problems(schema: &str, name: &str, shape: &TypeShape) -> Vec<String> {
        let schema = crate::parse(schema).unwrap();
        let node = schema.find(name).unwrap().1;
        check_shape(node, shape, name, &shape.rust_type())
            .into_iter()
            .map(|p| format!("{} {} {} {:?}", p.field, p.rust_type, p.column, p.kind))
            .collect()
    }

    #[allow(clippy::unnecessary_box_returns)] // every use is a boxed child
    fn leaf(kind: FieldKind) -> Box<TypeShape> {
        Box::new(TypeShape::Leaf(kind))
    }

    #[test]
    fn lists_in_every_form_and_their_elements() {
        let three = "message m { OPTIONAL group t (LIST) { REPEATED group list { OPTIONAL BINARY element (UTF8); } } }";
        let strings = TypeShape::Option(Box::new(TypeShape::List(Box::new(TypeShape::Option(
            leaf(FieldKind::String),
        )))));
        assert!(problems(three, "t", &strings).is_empty());
        // Elements of another type.
        let ints = TypeShape::Option(Box::new(TypeShape::List(Box::new(TypeShape::Option(
            leaf(FieldKind::I64),
        )))));
        let found = problems(three, "t", &ints);
        assert_eq!(found.len(), 1);
        assert!(
            found[0].starts_with("t[] Option<i64> t.list.element WrongType"),
            "{found:?}"
        );
        // No `Option` on the OPTIONAL list, nor on its OPTIONAL elements.
        let bare = TypeShape::List(leaf(FieldKind::String));
        assert!(problems(three, "t", &bare)[0].contains("Nullable"));
        let inner = TypeShape::Option(Box::new(TypeShape::List(leaf(FieldKind::String))));
        assert!(problems(three, "t", &inner)[0].starts_with("t[] String t.list.element Nullable"));
        // Legacy 2-level and a bare REPEATED field.
        let two = "message m { REQUIRED group t (LIST) { REPEATED INT32 array; } }";
        assert!(problems(two, "t", &TypeShape::List(leaf(FieldKind::I32))).is_empty());
        let repeated = "message m { REPEATED INT32 t; }";
        assert!(problems(repeated, "t", &TypeShape::List(leaf(FieldKind::I32))).is_empty());
        // A single value is no list; the hint says what reads it.
        let flat = "message m { REQUIRED DOUBLE t; }";
        let found = problems(flat, "t", &TypeShape::List(leaf(FieldKind::F64)));
        assert!(found[0].contains("use `f64`"), "{found:?}");
    }

    #[test]
    fn maps_pairs_and_groups() {
        let map = "message m { REQUIRED group a (MAP) { REPEATED group key_value { REQUIRED BINARY key (UTF8); OPTIONAL INT64 value; } } }";
        let ok = TypeShape::Map(
            leaf(FieldKind::String),
            Box::new(TypeShape::Option(leaf(FieldKind::I64))),
        );
        assert!(problems(map, "a", &ok).is_empty());
        let bad = TypeShape::Map(leaf(FieldKind::I32), leaf(FieldKind::I64));
        let found = problems(map, "a", &bad);
        assert_eq!(found.len(), 2, "{found:?}");
        assert!(found[0].starts_with("a.key i32 a.key_value.key WrongType"));
        assert!(found[1].starts_with("a.value i64 a.key_value.value Nullable"));
        let pairs = TypeShape::List(Box::new(TypeShape::Pair(
            leaf(FieldKind::String),
            Box::new(TypeShape::Option(leaf(FieldKind::I64))),
        )));
        assert!(problems(map, "a", &pairs).is_empty());
        let group = "message m { OPTIONAL group g { REQUIRED INT32 x; } }";
        assert!(problems(group, "g", &TypeShape::Unknown)[0].contains("Nullable"));
        assert!(problems(group, "g", &TypeShape::Option(Box::new(TypeShape::Unknown))).is_empty());
        assert!(problems(group, "g", &TypeShape::List(leaf(FieldKind::I32)))[0].contains("Nested"));
    }
}
