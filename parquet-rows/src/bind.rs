//! Binding: matching a struct's fields to a file's columns, once per file.
//!
//! The derive describes each field as a [`FieldSpec`]; [`bind`] looks every one
//! up by column name, checks repetition and type, and either returns the leaf
//! column index of each field or one [`SchemaError`] listing *every* mismatch.
//! The row loop never looks up a name.

use std::fmt;

use parquet::schema::types::SchemaDescriptor;
use parquet_rows_rules::{self as rules, message, Problem, Repetition};

use crate::field::rules::schema as rules_schema;
use crate::nested::bind::At;
use crate::nested::{self, Bound, Shape};

/// One field of a derived struct, as the derive describes it.
#[doc(hidden)]
#[derive(Debug, Clone)]
pub struct FieldSpec {
    /// The Rust field name.
    pub field: &'static str,
    /// The column it reads (after `rename` / `rename_all`), a child of the
    /// struct's group (the schema root for the row struct).
    pub column: &'static str,
    /// The field's type as written, for messages.
    pub rust_type: &'static str,
    /// What the field's type binds to (`ParquetNode::shape`).
    pub shape: Shape,
}

/// What the derive says about a struct for binding: its fields, and the
/// schema declared with `#[parquet(schema = ...)]` or `schema_file`.
#[doc(hidden)]
#[derive(Debug, Clone)]
pub struct Fields {
    /// The fields that read columns (skipped fields excluded), in declaration order.
    pub specs: Vec<FieldSpec>,
    /// The declared schema as message-type text, if the struct declares one.
    pub declared_schema: Option<&'static str>,
}

/// The result of binding: for each field, the columns it reads and their levels.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Binding {
    /// Per field, in field order.
    pub(crate) fields: Vec<Bound>,
    /// Every leaf column read, sorted, without duplicates.
    pub(crate) leaves: Vec<usize>,
}

/// A struct does not match a file's schema. Lists every mismatch.
///
/// Its `Display` is the message a user sees, one line per mismatch:
///
/// ```text
/// struct `Tick` does not match the file's schema (2 mismatches):
///   field `bid: f32` cannot read column `bid` (REQUIRED DOUBLE): `f32` reads FLOAT; use `f64`
///   field `venue: &'a str`: the file has no column `venue`; its columns are `ts`, `symbol`, `bid`, `ask`
/// ```
///
/// When the struct declares its schema (`#[parquet(schema = "...")]` or
/// `schema_file`), the compiler already checked the struct against it, so a
/// mismatch means the file differs from the declared schema; the message says
/// so and shows what was declared for each column:
///
/// ```text
/// struct `Tick` does not match the file's schema (1 mismatch); the file differs from the schema declared on the struct:
///   field `bid: f64` cannot read column `bid` (REQUIRED BYTE_ARRAY (UTF8)): `f64` reads DOUBLE or FLOAT; use `&str` or `String`; the struct declares `bid` as REQUIRED DOUBLE
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SchemaError {
    /// The struct's name.
    pub struct_name: &'static str,
    /// Every mismatch, in field order.
    pub mismatches: Vec<Mismatch>,
    /// The schema declared on the struct (message-type text), if any.
    pub declared_schema: Option<&'static str>,
}

/// One field that cannot read its column.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Mismatch {
    /// The Rust field, a dotted path inside nested structs (`customer.name`;
    /// `tags[]` is an element of the list `tags`, `fills[].price` a field of
    /// its elements, `attributes.key` a map's key).
    pub field: String,
    /// The field's type as written (a list element's or map key's own type).
    pub rust_type: String,
    /// The column the field was bound to, a dotted path
    /// (`fills.list.element.price`).
    pub column: String,
    /// What is wrong.
    pub kind: MismatchKind,
}

/// What is wrong with one field.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum MismatchKind {
    /// The file has no such column.
    MissingColumn {
        /// The top-level columns the file does have.
        available: Vec<String>,
        /// A column whose name is close (different case, a typo).
        closest: Option<String>,
    },
    /// The column's type is not one the field reads.
    WrongType {
        /// What the field reads.
        expected: &'static str,
        /// The column, e.g. `REQUIRED DOUBLE`.
        found: String,
        /// The field types that would read the column, best first, as plain
        /// type names (`["parquet_rows::Timestamp", "i64"]`; the message adds
        /// the backticks); `None` when no field type reads it.
        suggestion: Option<&'static [&'static str]>,
    },
    /// A non-`Option` field inside a nested field (a struct, list element or
    /// map value) bound to an OPTIONAL node. Top-level fields of leaf types
    /// read OPTIONAL columns whatever their type, and meet nulls as decoding
    /// errors.
    Nullable {
        /// The column, e.g. `OPTIONAL INT32`.
        found: String,
    },
    /// The column's shape is not the field's: a group or list read by a single
    /// value, a `Vec` on a column that is not a list, a struct on a single value.
    Nested {
        /// The column, e.g. `REPEATED INT32` or `OPTIONAL group (LIST)`.
        found: String,
        /// What reads the column, e.g. "the column is a LIST; read it with `Vec<_>`".
        hint: String,
    },
}

impl fmt::Display for SchemaError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = self.mismatches.len();
        write!(
            f,
            "struct `{}` does not match the file's schema ({n} mismatch{})",
            self.struct_name,
            if n == 1 { "" } else { "es" }
        )?;
        // The derive checked the struct against this text, so it parses.
        let declared = self
            .declared_schema
            .and_then(|text| rules::parse(text).ok());
        if declared.is_some() {
            write!(
                f,
                "; the file differs from the schema declared on the struct"
            )?;
        }
        write!(f, ":")?;
        for m in &self.mismatches {
            write!(f, "\n  {m}")?;
            if let Some(declared) = &declared {
                match declared.find(&m.column) {
                    Some((_, node)) => write!(
                        f,
                        "; the struct declares `{}` as {}",
                        m.column,
                        describe_node(node)
                    )?,
                    None => write!(
                        f,
                        "; the declared schema has no column `{}` either",
                        m.column
                    )?,
                }
            }
        }
        Ok(())
    }
}

/// `REQUIRED DOUBLE`, `OPTIONAL group`.
fn describe_node(node: &rules::Node) -> String {
    match node {
        rules::Node::Primitive { column, .. } => column.describe(),
        rules::Node::Group { repetition, .. } => format!("{repetition} group"),
    }
}

impl fmt::Display for Mismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (field, ty, column) = (
            self.field.as_str(),
            self.rust_type.as_str(),
            self.column.as_str(),
        );
        let text = match &self.kind {
            MismatchKind::MissingColumn { available, closest } => {
                let available: Vec<&str> = available.iter().map(String::as_str).collect();
                message::missing_column(
                    field,
                    ty,
                    column,
                    "the file",
                    closest.as_deref(),
                    &available,
                )
            }
            MismatchKind::WrongType {
                expected,
                found,
                suggestion,
            } => message::wrong_type(field, ty, column, found, expected, *suggestion),
            MismatchKind::Nullable { found } => message::nullable(field, ty, column, found),
            MismatchKind::Nested { found, hint } => message::nested(field, ty, column, found, hint),
        };
        f.write_str(&text)
    }
}

impl std::error::Error for SchemaError {}

/// Binds `fields` of struct `struct_name` to `schema`. A field of a leaf type
/// on a top-level flat column gets the verdict of the shared rules
/// (`parquet_rows_rules::Schema::bind`), the same the derive reaches at compile
/// time on a declared schema; nested fields are bound node by node.
pub(crate) fn bind(
    struct_name: &'static str,
    fields: &Fields,
    schema: &SchemaDescriptor,
) -> Result<Binding, SchemaError> {
    let model = rules_schema(schema);
    let mut bound = Vec::with_capacity(fields.specs.len());
    let mut mismatches = Vec::new();
    for spec in &fields.specs {
        let mismatch = |kind| Mismatch {
            field: spec.field.to_owned(),
            rust_type: spec.rust_type.to_owned(),
            column: spec.column.to_owned(),
            kind,
        };
        let Some((leaf, node)) = model.find(spec.column) else {
            let names: Vec<&str> = model.top_level_names().collect();
            mismatches.push(mismatch(MismatchKind::MissingColumn {
                available: names.iter().map(|n| (*n).to_owned()).collect(),
                closest: rules::closest_name(spec.column, &names).map(str::to_owned),
            }));
            continue;
        };
        let flat_column = matches!(node, rules::Node::Primitive { column, .. } if column.repetition != Repetition::Repeated);
        if let (Some((kind, nullable)), true) = (spec.shape.flat(), flat_column) {
            let field = rules::Field::known(kind, nullable);
            let kind = match model.bind(spec.column, field) {
                Ok(leaf) => {
                    let def = u32::from(node.repetition() == Repetition::Optional);
                    let leaf_bound = Bound {
                        leaf,
                        def,
                        rep: 0,
                        children: Vec::new(),
                    };
                    // `Option<T>` of a leaf: the flat reader takes the leaf
                    // from the `Option`'s node.
                    bound.push(if nullable {
                        Bound {
                            leaf,
                            def,
                            rep: 0,
                            children: vec![leaf_bound],
                        }
                    } else {
                        leaf_bound
                    });
                    continue;
                }
                Err(Problem::MissingColumn { closest }) => MismatchKind::MissingColumn {
                    available: model.top_level_names().map(str::to_owned).collect(),
                    closest,
                },
                Err(Problem::Nested { found, hint }) => MismatchKind::Nested { found, hint },
                Err(Problem::WrongType {
                    expected,
                    found,
                    suggestion,
                }) => MismatchKind::WrongType {
                    expected,
                    found,
                    suggestion,
                },
            };
            mismatches.push(mismatch(kind));
            continue;
        }
        let at = At::top(leaf, node, spec.field, spec.rust_type);
        if let Some(b) = nested::bind::bind(&spec.shape, node, &at, &mut mismatches) {
            bound.push(b);
        }
    }
    if mismatches.is_empty() {
        let mut leaves = Vec::new();
        for b in &bound {
            b.leaves(&mut leaves);
        }
        leaves.sort_unstable();
        leaves.dedup();
        Ok(Binding {
            fields: bound,
            leaves,
        })
    } else {
        Err(SchemaError {
            struct_name,
            mismatches,
            declared_schema: fields.declared_schema,
        })
    }
}

#[cfg(test)]
mod tests {
    use crate::{Error, ParquetRow};

    /// Declares `bid` as text, but the file has DOUBLE: the compiler accepted
    /// the struct, the binder rejects the file and says it differs from the
    /// declaration.
    #[derive(ParquetRow, Debug)]
    #[allow(dead_code)] // only ever fails to bind
    #[parquet(crate = "crate")]
    #[parquet(schema = "message schema {
        REQUIRED INT64 ts (TIMESTAMP_MICROS);
        REQUIRED BINARY bid (UTF8);
    }")]
    struct Declared {
        ts: i64,
        bid: String,
    }

    #[derive(ParquetRow, Debug)]
    #[allow(dead_code)] // only ever fails to bind
    #[parquet(crate = "crate")]
    struct Undeclared {
        bid: String,
    }

    fn schema_error<T: crate::OwnedRow + std::fmt::Debug>() -> String {
        let bytes = crate::doc_support::tick_file(2).unwrap();
        match crate::from_bytes::<T>(bytes) {
            Err(Error::Schema(e)) => e.to_string(),
            other => panic!("expected a schema error, got {other:?}"),
        }
    }

    #[test]
    fn a_file_that_differs_from_the_declared_schema() {
        assert_eq!(
            Declared::DECLARED_SCHEMA.map(|s| s.contains("BINARY bid (UTF8)")),
            Some(true)
        );
        assert_eq!(
            schema_error::<Declared>(),
            "struct `Declared` does not match the file's schema (1 mismatch); \
             the file differs from the schema declared on the struct:\n  \
             field `bid: String` cannot read column `bid` (REQUIRED DOUBLE): `String` reads \
             BYTE_ARRAY annotated STRING, ENUM or JSON; use `f64`; \
             the struct declares `bid` as REQUIRED BYTE_ARRAY (UTF8)"
        );
        // Without a declaration, the message is as before.
        assert_eq!(
            schema_error::<Undeclared>(),
            "struct `Undeclared` does not match the file's schema (1 mismatch):\n  \
             field `bid: String` cannot read column `bid` (REQUIRED DOUBLE): `String` reads \
             BYTE_ARRAY annotated STRING, ENUM or JSON; use `f64`"
        );
    }
}
