//! Binding: matching a struct's fields to a file's columns, once per file.
//!
//! The derive describes each field as a [`FieldSpec`]; [`bind`] looks every one
//! up by column name, checks repetition and type, and either returns the leaf
//! column index of each field or one [`SchemaError`] listing *every* mismatch.
//! The row loop never looks up a name.

use std::fmt::{self, Write as _};

use parquet::basic::{DecimalType, IntType, LogicalType, Repetition, TimeType, TimestampType};
use parquet::schema::types::{ColumnDescriptor, SchemaDescriptor};

use crate::field::suggest;

/// One field of a derived struct, as the derive describes it.
#[doc(hidden)]
#[derive(Debug, Clone, Copy)]
pub struct FieldSpec {
    /// The Rust field name.
    pub field: &'static str,
    /// The column it reads (after `rename` / `rename_all`).
    pub column: &'static str,
    /// The field's type as written, for messages.
    pub rust_type: &'static str,
    /// Whether the field is an `Option<_>`.
    pub nullable: bool,
    /// The type rule of the field's type (`ParquetField::check`).
    pub check: fn(&ColumnDescriptor) -> Result<(), &'static str>,
}

/// The result of binding: for each field, the leaf column it reads.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Binding {
    /// Leaf column index per field, in field order.
    pub(crate) leaves: Vec<usize>,
}

/// A struct does not match a file's schema. Lists every mismatch.
///
/// Its `Display` is the message a user sees, one line per mismatch:
///
/// ```text
/// struct `Tick` does not match the file's schema (2 mismatches):
///   field `bid: f32` cannot read column `bid` (REQUIRED DOUBLE): expected FLOAT; use `f64`
///   field `venue: &'a str`: the file has no column `venue`; its columns are `ts`, `symbol`, `bid`, `ask`
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SchemaError {
    /// The struct's name.
    pub struct_name: &'static str,
    /// Every mismatch, in field order.
    pub mismatches: Vec<Mismatch>,
}

/// One field that cannot read its column.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Mismatch {
    /// The Rust field name.
    pub field: &'static str,
    /// The field's type as written.
    pub rust_type: &'static str,
    /// The column the field was bound to.
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
        /// A field type that would read the column.
        suggestion: Option<&'static str>,
    },
    /// A non-`Option` field bound to an OPTIONAL column.
    Nullable {
        /// The column, e.g. `OPTIONAL INT32`.
        found: String,
    },
    /// The column is a group or repeated; nested data is not supported yet.
    Nested {
        /// The column, e.g. `REPEATED INT32` or `OPTIONAL group`.
        found: String,
    },
}

impl fmt::Display for SchemaError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = self.mismatches.len();
        write!(
            f,
            "struct `{}` does not match the file's schema ({n} mismatch{}):",
            self.struct_name,
            if n == 1 { "" } else { "es" }
        )?;
        for m in &self.mismatches {
            write!(f, "\n  {m}")?;
        }
        Ok(())
    }
}

impl fmt::Display for Mismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (field, ty, column) = (self.field, self.rust_type, &self.column);
        match &self.kind {
            MismatchKind::MissingColumn { available, closest } => {
                write!(f, "field `{field}: {ty}`: the file has no column `{column}`")?;
                if let Some(closest) = closest {
                    write!(f, "; did you mean `{closest}`? (use #[parquet(rename = \"{closest}\")])")?;
                }
                let list: Vec<String> = available.iter().map(|c| format!("`{c}`")).collect();
                write!(f, "; its columns are {}", list.join(", "))
            }
            MismatchKind::WrongType {
                expected,
                found,
                suggestion,
            } => {
                write!(
                    f,
                    "field `{field}: {ty}` cannot read column `{column}` ({found}): `{ty}` reads {expected}"
                )?;
                match suggestion {
                    Some(s) => write!(f, "; use `{s}`"),
                    None => write!(f, "; no field type reads this column yet"),
                }
            }
            MismatchKind::Nullable { found } => write!(
                f,
                "field `{field}: {ty}` cannot read column `{column}` ({found}): the column may hold nulls; use `Option<{ty}>`"
            ),
            MismatchKind::Nested { found } => write!(
                f,
                "field `{field}: {ty}` cannot read column `{column}` ({found}): nested and repeated columns are not supported yet"
            ),
        }
    }
}

impl std::error::Error for SchemaError {}

/// Describes a column for messages: `OPTIONAL INT64 (TIMESTAMP(MICROS, UTC))`.
pub(crate) fn describe(column: &ColumnDescriptor) -> String {
    let repetition = column.self_type().get_basic_info().repetition();
    let mut s = format!("{repetition} {}", column.physical_type());
    if column.physical_type() == parquet::basic::Type::FIXED_LEN_BYTE_ARRAY {
        let _ = write!(s, "({})", column.type_length());
    }
    match column.logical_type_ref() {
        Some(logical) => {
            let _ = write!(s, " ({})", describe_logical(logical));
        }
        None if column.converted_type() != parquet::basic::ConvertedType::NONE => {
            let _ = write!(s, " ({})", column.converted_type());
        }
        None => {}
    }
    s
}

fn describe_logical(logical: &LogicalType) -> String {
    match logical {
        LogicalType::Integer(IntType {
            bit_width,
            is_signed,
        }) => format!(
            "INT({bit_width}, {})",
            if *is_signed { "signed" } else { "unsigned" }
        ),
        LogicalType::Timestamp(TimestampType {
            is_adjusted_to_u_t_c,
            unit,
        }) => format!(
            "TIMESTAMP({unit:?}, {})",
            if *is_adjusted_to_u_t_c {
                "UTC"
            } else {
                "local"
            }
        ),
        LogicalType::Time(TimeType { unit, .. }) => format!("TIME({unit:?})"),
        LogicalType::Decimal(DecimalType { scale, precision }) => {
            format!("DECIMAL({precision}, {scale})")
        }
        other => format!("{other:?}").to_uppercase(),
    }
}

/// Binds `fields` of struct `struct_name` to `schema`.
pub(crate) fn bind(
    struct_name: &'static str,
    fields: &[FieldSpec],
    schema: &SchemaDescriptor,
) -> Result<Binding, SchemaError> {
    let top_level = schema.root_schema().get_fields();
    let mut leaves = Vec::with_capacity(fields.len());
    let mut mismatches = Vec::new();
    for spec in fields {
        let mismatch = |kind| Mismatch {
            field: spec.field,
            rust_type: spec.rust_type,
            column: spec.column.to_owned(),
            kind,
        };
        let Some(top) = top_level.iter().find(|t| t.name() == spec.column) else {
            let available: Vec<String> = top_level.iter().map(|t| t.name().to_owned()).collect();
            let closest = closest_name(spec.column, &available);
            mismatches.push(mismatch(MismatchKind::MissingColumn { available, closest }));
            continue;
        };
        let repetition = top.get_basic_info().repetition();
        if top.is_group() || repetition == Repetition::REPEATED {
            let kind = if top.is_group() {
                "group".to_owned()
            } else {
                top.get_physical_type().to_string()
            };
            mismatches.push(mismatch(MismatchKind::Nested {
                found: format!("{repetition} {kind}"),
            }));
            continue;
        }
        // A top-level primitive is exactly one leaf, whose path is its name.
        let Some(leaf) = (0..schema.num_columns()).find(|&i| {
            let column = schema.column(i);
            let parts = column.path().parts();
            parts.len() == 1 && parts[0] == spec.column
        }) else {
            mismatches.push(mismatch(MismatchKind::MissingColumn {
                available: Vec::new(),
                closest: None,
            }));
            continue;
        };
        let column = schema.column(leaf);
        if let Err(expected) = (spec.check)(&column) {
            mismatches.push(mismatch(MismatchKind::WrongType {
                expected,
                found: describe(&column),
                suggestion: suggest(&column),
            }));
        } else if repetition == Repetition::OPTIONAL && !spec.nullable {
            mismatches.push(mismatch(MismatchKind::Nullable {
                found: describe(&column),
            }));
        }
        leaves.push(leaf);
    }
    if mismatches.is_empty() {
        Ok(Binding { leaves })
    } else {
        Err(SchemaError {
            struct_name,
            mismatches,
        })
    }
}

/// The available name closest to `wanted`: equal ignoring case and `_`/`-`, or
/// within an edit distance of 2 (for names of 4+ characters).
fn closest_name(wanted: &str, available: &[String]) -> Option<String> {
    let fold = |s: &str| -> String {
        s.chars()
            .filter(|c| *c != '_' && *c != '-')
            .flat_map(char::to_lowercase)
            .collect()
    };
    let wanted_folded = fold(wanted);
    if let Some(same) = available.iter().find(|a| fold(a) == wanted_folded) {
        return Some(same.clone());
    }
    if wanted.chars().count() < 4 {
        return None;
    }
    available
        .iter()
        .map(|a| (edit_distance(&wanted_folded, &fold(a)), a))
        .filter(|(d, _)| *d <= 2)
        .min_by_key(|(d, _)| *d)
        .map(|(_, a)| a.clone())
}

/// Levenshtein distance between two short names.
fn edit_distance(a: &str, b: &str) -> usize {
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
        let cols: Vec<String> = ["ts", "symbol", "bid_price", "Ask"]
            .map(String::from)
            .to_vec();
        assert_eq!(closest_name("ask", &cols).as_deref(), Some("Ask"));
        assert_eq!(
            closest_name("bidprice", &cols).as_deref(),
            Some("bid_price")
        );
        assert_eq!(closest_name("symbl", &cols).as_deref(), Some("symbol"));
        assert_eq!(closest_name("venue", &cols), None);
        assert_eq!(edit_distance("kitten", "sitting"), 3);
    }
}
