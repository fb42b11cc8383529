//! The file's schema from the struct's fields: each field's column as the
//! shared rules say it writes ([`FieldKind::writes`]), turned into the
//! `parquet` crate's schema types.

use std::sync::Arc;

use parquet::basic::{LogicalType, Repetition, TimeUnit, Type as PhysicalType};
use parquet::schema::types::Type;
use parquet_rows_rules as rules;

use crate::error::{Error, Location, Result};

/// One column the derive-generated code writes: the field, its column's name
/// (after `rename`), and what the rules call its type.
#[doc(hidden)]
#[derive(Debug, Clone, Copy)]
pub struct WriteSpec {
    /// The Rust field's name.
    pub field: &'static str,
    /// The column's name in the file.
    pub column: &'static str,
    /// The field type's kind (`Option<T>` has `T`'s).
    pub kind: rules::FieldKind,
    /// Whether the field is an `Option` (an OPTIONAL column).
    pub nullable: bool,
    /// What the field's attributes say of its column (a unit, a precision).
    pub params: rules::WriteParams,
    /// The field's `encoding` attribute.
    pub encoding: Option<super::ColumnEncoding>,
    /// The field's `bloom_filter` attribute.
    pub bloom_filter: bool,
    /// The field's `compression` attribute (the file's codec otherwise).
    pub compression: Option<super::Compression>,
}

impl WriteSpec {
    /// The column the field writes, as the rules see it.
    pub(crate) fn column(&self, struct_name: &str) -> Result<rules::Column> {
        let mut column = self
            .kind
            .writes_with(&self.params)
            .map_err(|why| Error::Unsupported {
                location: Location {
                    column: self.column.to_owned(),
                    ..Location::default()
                },
                message: format!(
                    "field `{struct_name}::{}` cannot be written: {why}",
                    self.field
                ),
            })?;
        if self.nullable {
            column.repetition = rules::Repetition::Optional;
        }
        Ok(column)
    }
}

/// The message type of the columns `specs` write, each column as `columns`
/// (the rules' verdicts, in the same order) says.
pub(crate) fn message(specs: &[WriteSpec], columns: &[rules::Column]) -> Result<Type> {
    let fields = specs
        .iter()
        .zip(columns)
        .map(|(spec, column)| primitive(spec.column, column).map(Arc::new))
        .collect::<Result<Vec<_>>>()?;
    Ok(Type::group_type_builder("schema")
        .with_fields(fields)
        .build()?)
}

fn primitive(name: &str, column: &rules::Column) -> Result<Type> {
    let unsupported = || Error::Unsupported {
        location: Location {
            column: name.to_owned(),
            ..Location::default()
        },
        message: format!("the writer cannot declare a column {}", column.describe()),
    };
    let physical = match column.physical {
        rules::Physical::Boolean => PhysicalType::BOOLEAN,
        rules::Physical::Int32 => PhysicalType::INT32,
        rules::Physical::Int64 => PhysicalType::INT64,
        rules::Physical::Int96 => PhysicalType::INT96,
        rules::Physical::Float => PhysicalType::FLOAT,
        rules::Physical::Double => PhysicalType::DOUBLE,
        rules::Physical::ByteArray => PhysicalType::BYTE_ARRAY,
        rules::Physical::FixedLenByteArray => PhysicalType::FIXED_LEN_BYTE_ARRAY,
    };
    let logical = match &column.logical {
        None => None,
        Some(rules::Logical::String) => Some(LogicalType::String),
        Some(rules::Logical::Date) => Some(LogicalType::Date),
        Some(rules::Logical::Integer { bits, signed }) => {
            Some(LogicalType::integer(*bits, *signed))
        }
        Some(rules::Logical::Timestamp { unit, utc }) => {
            Some(LogicalType::timestamp(*utc, time_unit(*unit)))
        }
        Some(rules::Logical::Time { unit, utc }) => Some(LogicalType::time(*utc, time_unit(*unit))),
        Some(rules::Logical::Decimal { precision, scale }) => {
            Some(LogicalType::decimal(*scale, *precision))
        }
        Some(rules::Logical::Uuid) => Some(LogicalType::Uuid),
        Some(rules::Logical::Float16) => Some(LogicalType::Float16),
        Some(_) => return Err(unsupported()),
    };
    let repetition = match column.repetition {
        rules::Repetition::Required => Repetition::REQUIRED,
        rules::Repetition::Optional => Repetition::OPTIONAL,
        rules::Repetition::Repeated => return Err(unsupported()),
    };
    // The converted type follows from the logical one (the builder derives
    // it for old readers), as the rules' column has it.
    let mut builder = Type::primitive_type_builder(name, physical)
        .with_repetition(repetition)
        .with_logical_type(logical);
    if column.physical == rules::Physical::FixedLenByteArray {
        builder = builder.with_length(column.length);
    }
    if let Some(rules::Logical::Decimal { precision, scale }) = column.logical {
        builder = builder.with_precision(precision).with_scale(scale);
    }
    Ok(builder.build()?)
}

fn time_unit(unit: rules::TimeUnit) -> TimeUnit {
    match unit {
        rules::TimeUnit::Millis => TimeUnit::MILLIS,
        rules::TimeUnit::Micros => TimeUnit::MICROS,
        rules::TimeUnit::Nanos => TimeUnit::NANOS,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use parquet::schema::types::SchemaDescriptor;
    use rules::FieldKind;

    /// The columns declared are the rules' columns, converted type included,
    /// as the reader sees them again.
    #[test]
    fn declared_columns_are_the_rules_columns() {
        let none = rules::WriteParams::default();
        let unit = |unit, utc| rules::WriteParams {
            unit: Some(unit),
            utc: Some(utc),
            ..none
        };
        let decimal = |precision, scale| rules::WriteParams {
            precision: Some(precision),
            scale: Some(scale),
            ..none
        };
        let kinds = [
            (FieldKind::Bool, none),
            (FieldKind::I8, none),
            (FieldKind::U16, none),
            (FieldKind::U64, none),
            (FieldKind::F32, none),
            (FieldKind::String, none),
            (FieldKind::Bytes, none),
            (FieldKind::FixedBytes(7), none),
            (FieldKind::Date, none),
            (FieldKind::Timestamp, none),
            (FieldKind::Timestamp, unit(rules::TimeUnit::Nanos, false)),
            (FieldKind::Time, unit(rules::TimeUnit::Millis, false)),
            (FieldKind::Time, unit(rules::TimeUnit::Nanos, true)),
            (FieldKind::Decimal, decimal(5, 2)),
            (FieldKind::Decimal, decimal(18, 0)),
            (FieldKind::I128, decimal(38, 38)),
            (FieldKind::Uuid, none),
            (FieldKind::F16, none),
        ];
        let names: Vec<String> = (0..kinds.len()).map(|i| format!("c{i}")).collect();
        let specs: Vec<WriteSpec> = kinds
            .iter()
            .zip(&names)
            .map(|(&(kind, params), column)| WriteSpec {
                field: "f",
                column: Box::leak(column.clone().into_boxed_str()),
                kind,
                nullable: column == "c2",
                params,
                encoding: None,
                bloom_filter: false,
                compression: None,
            })
            .collect();
        let columns: Vec<_> = specs.iter().map(|s| s.column("S").unwrap()).collect();
        let descr = SchemaDescriptor::new(Arc::new(message(&specs, &columns).unwrap()));
        for (i, expected) in columns.iter().enumerate() {
            assert_eq!(
                &crate::schema_rules::column(&descr.column(i)),
                expected,
                "{:?}",
                kinds[i]
            );
        }
    }

    #[test]
    fn kinds_not_writable_yet_are_errors_naming_the_field() {
        let spec = WriteSpec {
            field: "at",
            column: "ts",
            kind: FieldKind::Decimal,
            nullable: false,
            params: rules::WriteParams::default(),
            encoding: None,
            bloom_filter: false,
            compression: None,
        };
        let message = spec.column("Tick").unwrap_err().to_string();
        assert!(message.contains("precision = P, scale = S"), "{message}");
        assert!(message.contains("`Tick::at`"), "{message}");
        assert!(message.contains("column `ts`"), "{message}");
    }
}
