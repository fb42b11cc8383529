//! A file's schema as a tree, and binding one field to it: the whole verdict
//! (missing, nested, wrong type) that the derive reports at compile
//! time and the runtime at open time.

use std::fmt;

use crate::column::{Column, Converted, Logical, Repetition};
use crate::kind::{check, suggest, FieldKind};

/// A message type: the root of a schema.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Schema {
    /// The message's name (`schema` in `message schema { ... }`).
    pub name: String,
    /// The top-level fields.
    pub fields: Vec<Node>,
}

/// One field of a schema: a leaf column or a group of fields.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Node {
    /// A leaf column.
    Primitive {
        /// The field's name.
        name: String,
        /// Its type and repetition.
        column: Column,
        /// The field id, if set.
        id: Option<i32>,
    },
    /// A group (struct, LIST, MAP).
    Group {
        /// The field's name.
        name: String,
        /// Its repetition.
        repetition: Repetition,
        /// Its logical annotation (LIST, MAP), if any.
        logical: Option<Logical>,
        /// Its legacy converted annotation.
        converted: Converted,
        /// The field id, if set.
        id: Option<i32>,
        /// The group's fields.
        fields: Vec<Node>,
    },
}

impl Node {
    /// The field's name.
    pub fn name(&self) -> &str {
        match self {
            Node::Primitive { name, .. } | Node::Group { name, .. } => name,
        }
    }

    /// The field's repetition.
    pub fn repetition(&self) -> Repetition {
        match self {
            Node::Primitive { column, .. } => column.repetition,
            Node::Group { repetition, .. } => *repetition,
        }
    }

    /// `REQUIRED DOUBLE`, `OPTIONAL group (LIST)`, `REPEATED INT32`.
    pub fn describe(&self) -> String {
        match self {
            Node::Primitive { column, .. } => column.describe(),
            Node::Group {
                repetition,
                logical,
                converted,
                ..
            } => match logical.as_ref().and_then(Logical::to_schema_text) {
                Some(text) => format!("{repetition} group ({text})"),
                None if *converted != Converted::None => {
                    format!("{repetition} group ({})", converted.name())
                }
                None => format!("{repetition} group"),
            },
        }
    }

    /// Whether the node is a group annotated LIST.
    pub fn is_list(&self) -> bool {
        matches!(
            self,
            Node::Group {
                logical: Some(Logical::List),
                ..
            }
        ) || matches!(
            self,
            Node::Group {
                converted: Converted::List,
                ..
            }
        )
    }

    /// Whether the node is a group annotated MAP (or the legacy MAP_KEY_VALUE).
    pub fn is_map(&self) -> bool {
        matches!(
            self,
            Node::Group {
                logical: Some(Logical::Map),
                ..
            }
        ) || matches!(
            self,
            Node::Group {
                converted: Converted::Map | Converted::MapKeyValue,
                ..
            }
        )
    }

    /// Whether the node is a VARIANT group: annotated `VARIANT`, or (for
    /// writers that drop the annotation) a group whose children are exactly
    /// `metadata` and `value`, both BYTE_ARRAY, and optionally `typed_value`
    /// (parquet-format `VariantEncoding.md`, "Variant in Parquet").
    pub fn is_variant(&self) -> bool {
        let Node::Group {
            logical, fields, ..
        } = self
        else {
            return false;
        };
        if matches!(logical, Some(Logical::Other(name)) if name.starts_with("VARIANT")) {
            return true;
        }
        let bytes = |name: &str| {
            fields.iter().any(|f| {
                matches!(f, Node::Primitive { name: n, column, .. }
                    if n == name && column.physical == crate::column::Physical::ByteArray)
            })
        };
        let typed = fields.iter().any(|f| f.name() == "typed_value");
        bytes("metadata") && bytes("value") && fields.len() == 2 + usize::from(typed)
    }

    /// Which Rust field types read this node, for messages about a field that
    /// cannot read it.
    pub fn hint(&self) -> &'static str {
        if self.repetition() == Repetition::Repeated {
            "the column is REPEATED; read it with `Vec<_>`"
        } else if self.is_list() {
            "the column is a LIST; read it with `Vec<T>`, `T` a type that reads its elements"
        } else if self.is_map() {
            "the column is a MAP; read it with `HashMap<K, V>`, `BTreeMap<K, V>` or `Vec<(K, V)>`"
        } else if self.is_variant() {
            "the column is a VARIANT; read it with `parquet_rows::variant::OwnedVariant` or `Variant<'a>`"
        } else if matches!(self, Node::Group { .. }) {
            "the column is a group; read it with a struct that derives `ParquetRow`"
        } else {
            "the column holds single values, not a group or a list"
        }
    }

    /// How many leaf columns the field has.
    pub fn leaves(&self) -> usize {
        match self {
            Node::Primitive { .. } => 1,
            Node::Group { fields, .. } => fields.iter().map(Node::leaves).sum(),
        }
    }
}

/// A Rust field as the rules see it. `None` means "not known": the derive
/// cannot always tell a type from its tokens (see [`crate::recognize`]), and
/// then leaves that part of the check to the runtime.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Field {
    /// The field type's kind.
    pub kind: Option<FieldKind>,
    /// Whether the field is an `Option<_>`.
    pub nullable: Option<bool>,
}

impl Field {
    /// A field whose type is fully known (the runtime's case).
    pub const fn known(kind: FieldKind, nullable: bool) -> Self {
        Field {
            kind: Some(kind),
            nullable: Some(nullable),
        }
    }
}

/// Why a field cannot read the column it is bound to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Problem {
    /// The schema has no top-level field of that name.
    MissingColumn {
        /// A top-level field whose name is close (different case, a typo).
        closest: Option<String>,
    },
    /// The field is a group or repeated, and the Rust field a single value;
    /// or the field is a list, map or struct and the column something else.
    Nested {
        /// The field, e.g. `REPEATED INT32` or `OPTIONAL group (LIST)`.
        found: String,
        /// What reads it, e.g. "the column is a LIST; read it with `Vec<T>`, `T` a type that reads its elements".
        hint: String,
    },
    /// The schema has several top-level fields of that name (duckdb writes a
    /// file with two columns `column`) and the field does not say which it
    /// reads (`#[parquet(nth = ...)]`), or says one that is not there.
    Ambiguous {
        /// How many top-level fields have the name.
        count: usize,
        /// The field's `nth`, if it has one (then `nth >= count`).
        nth: Option<usize>,
    },
    /// The column's type is not one the field reads.
    WrongType {
        /// What the field reads.
        expected: &'static str,
        /// The column, e.g. `REQUIRED DOUBLE`.
        found: String,
        /// The field types that would read the column, best first, as plain
        /// type names (`["f64"]`); `None` when no field type reads it.
        suggestion: Option<&'static [&'static str]>,
    },
}

impl Schema {
    /// The names of the top-level fields, in order.
    pub fn top_level_names(&self) -> impl Iterator<Item = &str> {
        self.fields.iter().map(Node::name)
    }

    /// The top-level field named `name` and the index of its first leaf column.
    pub fn find(&self, name: &str) -> Option<(usize, &Node)> {
        let mut leaf = 0;
        for node in &self.fields {
            if node.name() == name {
                return Some((leaf, node));
            }
            leaf += node.leaves();
        }
        None
    }

    /// The `nth` (counting from 0) top-level field named `name` and the
    /// index of its first leaf column; with `nth` `None`, the only field of
    /// that name. A name that several fields have is never bound to one of
    /// them silently: it is [`Problem::Ambiguous`] unless `nth` says which.
    pub fn find_nth(&self, name: &str, nth: Option<usize>) -> Result<(usize, &Node), Problem> {
        let mut leaf = 0;
        let mut found = Vec::new();
        for node in &self.fields {
            if node.name() == name {
                found.push((leaf, node));
            }
            leaf += node.leaves();
        }
        let count = found.len();
        match (nth, count) {
            (_, 0) => {
                let names: Vec<&str> = self.top_level_names().collect();
                Err(Problem::MissingColumn {
                    closest: closest_name(name, &names).map(str::to_owned),
                })
            }
            (None, 1) => Ok(found[0]),
            (Some(nth), _) if nth < count => Ok(found[nth]),
            (nth, count) => Err(Problem::Ambiguous { count, nth }),
        }
    }

    /// Binds a field to the top-level column `name`: the index of its (first)
    /// leaf column, or why it cannot read it. The checks, in order: the column
    /// exists; a group or REPEATED column needs a field whose type is not a
    /// single value (a struct, `Vec`, map: those are checked by the runtime,
    /// the `kind` of such a field is unknown here); the column has a type the
    /// field reads. Any repetition but REPEATED binds, whether the field is an
    /// `Option` or not: a null read into a non-`Option` field is a decoding
    /// error, not a binding one.
    pub fn bind(&self, name: &str, field: Field) -> Result<usize, Problem> {
        self.bind_nth(name, None, field)
    }

    /// [`Schema::bind`] to the `nth` top-level field named `name` (see
    /// [`Schema::find_nth`]).
    pub fn bind_nth(&self, name: &str, nth: Option<usize>, field: Field) -> Result<usize, Problem> {
        let (leaf, node) = self.find_nth(name, nth)?;
        let column = match node {
            Node::Primitive { column, .. } if column.repetition != Repetition::Repeated => column,
            _ if field.kind.is_none() => return Ok(leaf),
            _ => {
                return Err(Problem::Nested {
                    found: node.describe(),
                    hint: node.hint().to_owned(),
                })
            }
        };
        if let Some(kind) = field.kind {
            if let Err(expected) = check(kind, column) {
                return Err(Problem::WrongType {
                    expected,
                    found: column.describe(),
                    suggestion: suggest(column),
                });
            }
        }
        // A non-`Option` field reads an OPTIONAL column too: writers such as
        // pyarrow, duckdb, polars and Spark mark every column OPTIONAL, nulls
        // or not. A null met while decoding is then an error naming the row.
        Ok(leaf)
    }

    /// The leaf column of the top-level primitive field `name`.
    pub fn column(&self, name: &str) -> Option<&Column> {
        match self.find(name)?.1 {
            Node::Primitive { column, .. } => Some(column),
            Node::Group { .. } => None,
        }
    }
}

/// Prints the schema as message-type text that [`crate::parse`] reads back.
impl fmt::Display for Schema {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "message {} {{", self.name)?;
        for node in &self.fields {
            write_node(f, node, 1)?;
        }
        write!(f, "}}")
    }
}

fn write_node(f: &mut fmt::Formatter<'_>, node: &Node, depth: usize) -> fmt::Result {
    let indent = "  ".repeat(depth);
    match node {
        Node::Primitive { name, column, id } => {
            write!(f, "{indent}{} {}", column.repetition, column.physical)?;
            if column.physical == crate::Physical::FixedLenByteArray {
                write!(f, "({})", column.length)?;
            }
            write!(f, " {name}")?;
            if let Some(annotation) = column.annotation_text() {
                write!(f, " ({annotation})")?;
            }
            if let Some(id) = id {
                write!(f, " = {id}")?;
            }
            writeln!(f, ";")
        }
        Node::Group {
            name,
            repetition,
            logical,
            converted,
            id,
            fields,
        } => {
            write!(f, "{indent}{repetition} group {name}")?;
            let annotation = match logical.as_ref().and_then(Logical::to_schema_text) {
                Some(text) => Some(text),
                None if *converted != Converted::None => Some(converted.name().to_owned()),
                None => None,
            };
            if let Some(annotation) = annotation {
                write!(f, " ({annotation})")?;
            }
            if let Some(id) = id {
                write!(f, " = {id}")?;
            }
            writeln!(f, " {{")?;
            for child in fields {
                write_node(f, child, depth + 1)?;
            }
            writeln!(f, "{indent}}}")
        }
    }
}

/// The available name closest to `wanted`: equal ignoring case and `_`/`-`, or
/// within an edit distance of 2 (for names of 4+ characters).
pub fn closest_name<'a>(wanted: &str, available: &[&'a str]) -> Option<&'a str> {
    let fold = |s: &str| -> String {
        s.chars()
            .filter(|c| *c != '_' && *c != '-')
            .flat_map(char::to_lowercase)
            .collect()
    };
    let wanted_folded = fold(wanted);
    if let Some(same) = available.iter().find(|a| fold(a) == wanted_folded) {
        return Some(same);
    }
    if wanted.chars().count() < 4 {
        return None;
    }
    available
        .iter()
        .map(|a| (edit_distance(&wanted_folded, &fold(a)), *a))
        .filter(|(d, _)| *d <= 2)
        .min_by_key(|(d, _)| *d)
        .map(|(_, a)| a)
}

/// Levenshtein distance between two short names.
pub fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (j, &cb) in b.iter().enumerate() {
            let above = row[j + 1];
            row[j + 1] = (above + 1)
                .min(row[j] + 1)
                .min(diagonal + usize::from(ca != cb));
            diagonal = above;
        }
    }
    row[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn closest_names() {
        let cols = ["ts", "symbol", "bid_price", "Ask"];
        assert_eq!(closest_name("ask", &cols), Some("Ask"));
        assert_eq!(closest_name("bidprice", &cols), Some("bid_price"));
        assert_eq!(closest_name("symbl", &cols), Some("symbol"));
        assert_eq!(closest_name("venue", &cols), None);
        assert_eq!(edit_distance("kitten", "sitting"), 3);
    }

    #[test]
    fn bind_reports_in_order() {
        let schema = crate::parse(
            "message m { REQUIRED INT32 a; OPTIONAL group g { REQUIRED INT32 x; REQUIRED INT32 y; }
             OPTIONAL DOUBLE b; REPEATED INT32 r; }",
        )
        .unwrap();
        assert_eq!(schema.bind("a", Field::known(FieldKind::I32, false)), Ok(0));
        assert_eq!(schema.bind("b", Field::known(FieldKind::F64, true)), Ok(3));
        // A plain field binds to an OPTIONAL column; a null is a decoding error.
        assert_eq!(schema.bind("b", Field::known(FieldKind::F64, false)), Ok(3));
        // The type is checked before the repetition.
        assert!(matches!(
            schema.bind("b", Field::known(FieldKind::F32, false)),
            Err(Problem::WrongType { .. })
        ));
        assert_eq!(
            schema.bind("g", Field::known(FieldKind::I32, false)),
            Err(Problem::Nested {
                found: "OPTIONAL group".into(),
                hint: "the column is a group; read it with a struct that derives `ParquetRow`"
                    .into()
            })
        );
        assert_eq!(
            schema.bind("r", Field::known(FieldKind::I32, false)),
            Err(Problem::Nested {
                found: "REPEATED INT32".into(),
                hint: "the column is REPEATED; read it with `Vec<_>`".into()
            })
        );
        assert_eq!(
            schema.bind("A", Field::known(FieldKind::I32, false)),
            Err(Problem::MissingColumn {
                closest: Some("a".into())
            })
        );
        // Unknown types: only what does not depend on the type is checked.
        let unknown = Field {
            kind: None,
            nullable: None,
        };
        assert_eq!(schema.bind("b", unknown), Ok(3));
        // A struct, `Vec` or map (unknown to the rules) on a group: left to the runtime.
        assert_eq!(schema.bind("g", unknown), Ok(1));
    }

    #[test]
    fn duplicate_names_bind_by_nth() {
        let schema = crate::parse(
            "message m { OPTIONAL INT32 column; OPTIONAL group g { REQUIRED INT32 x; REQUIRED INT32 y; }
             OPTIONAL BYTE_ARRAY column (UTF8); }",
        )
        .unwrap();
        let int = Field::known(FieldKind::I32, true);
        let text = Field::known(FieldKind::String, true);
        assert_eq!(
            schema.bind("column", int),
            Err(Problem::Ambiguous {
                count: 2,
                nth: None
            })
        );
        assert_eq!(schema.bind_nth("column", Some(0), int), Ok(0));
        // The second `column` is leaf 3: `g` has two leaves.
        assert_eq!(schema.bind_nth("column", Some(1), text), Ok(3));
        assert!(matches!(
            schema.bind_nth("column", Some(1), int),
            Err(Problem::WrongType { .. })
        ));
        assert_eq!(
            schema.bind_nth("column", Some(2), int),
            Err(Problem::Ambiguous {
                count: 2,
                nth: Some(2)
            })
        );
        // `nth = 0` of a name the schema has once is that field.
        assert_eq!(
            schema.bind_nth(
                "g",
                Some(0),
                Field {
                    kind: None,
                    nullable: None
                }
            ),
            Ok(1)
        );
        assert!(matches!(
            schema.bind_nth("nope", Some(0), int),
            Err(Problem::MissingColumn { .. })
        ));
    }
}
