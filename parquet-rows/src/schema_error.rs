//! The error of a struct that does not match a file's schema: what binding
//! ([`bind`](crate::bind)) returns, kept below it so that [`Error`](crate::Error)
//! can hold it without importing the binder.

use std::fmt;

use parquet_rows_rules::{self as rules, message};

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
    /// The file has several columns of the field's name at its level (duckdb
    /// writes two top-level columns `column`) and the field does not say
    /// which one it reads with `#[parquet(nth = ...)]`, or says one that is
    /// not there.
    Ambiguous {
        /// How many columns have the name.
        count: usize,
        /// The field's `nth`, if it has one (then `nth >= count`).
        nth: Option<usize>,
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
            MismatchKind::Ambiguous { count, nth } => {
                message::ambiguous(field, ty, column, "the file", *count, *nth)
            }
        };
        f.write_str(&text)
    }
}

impl std::error::Error for SchemaError {}

impl MismatchKind {
    /// The shared rules' verdict, with the names of `schema`'s top-level
    /// columns for a missing one.
    pub(crate) fn from_problem(problem: rules::Problem, schema: &rules::Schema) -> Self {
        match problem {
            rules::Problem::MissingColumn { closest } => MismatchKind::MissingColumn {
                available: schema.top_level_names().map(str::to_owned).collect(),
                closest,
            },
            rules::Problem::Ambiguous { count, nth } => MismatchKind::Ambiguous { count, nth },
            rules::Problem::Nested { found, hint } => MismatchKind::Nested { found, hint },
            rules::Problem::WrongType {
                expected,
                found,
                suggestion,
            } => MismatchKind::WrongType {
                expected,
                found,
                suggestion,
            },
        }
    }
}
