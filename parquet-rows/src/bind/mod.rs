//! Binding: matching a struct's fields to a file's columns, once per file.
//!
//! The derive describes each field as a [`FieldSpec`]; [`bind`] looks every one
//! up by column name, checks repetition and type, and either returns the leaf
//! column index of each field or one [`SchemaError`] listing *every* mismatch.
//! The row loop never looks up a name.

use parquet::schema::types::SchemaDescriptor;
use parquet_rows_rules::{self as rules, Repetition};

mod node;

use crate::nested::{Bound, FieldSpec};
pub(crate) use crate::schema_error::{Mismatch, MismatchKind, SchemaError};
use crate::schema_rules::schema as rules_schema;
use node::At;

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
        let (leaf, node) = match model.find_nth(spec.column, spec.nth) {
            Ok(found) => found,
            Err(problem) => {
                mismatches.push(mismatch(MismatchKind::from_problem(problem, &model)));
                continue;
            }
        };
        let flat_column = matches!(node, rules::Node::Primitive { column, .. } if column.repetition != Repetition::Repeated);
        if let (Some((kind, nullable)), true) = (spec.shape.flat(), flat_column) {
            let field = rules::Field::known(kind, nullable);
            let kind = match model.bind_nth(spec.column, spec.nth, field) {
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
                Err(problem) => MismatchKind::from_problem(problem, &model),
            };
            mismatches.push(mismatch(kind));
            continue;
        }
        let at = At::top(leaf, node, spec.field, spec.rust_type);
        if let Some(b) = node::bind(&spec.shape, node, &at, &mut mismatches) {
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
