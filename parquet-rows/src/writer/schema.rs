//! The file's schema from the struct's fields: each field's column as the
//! shared rules say it writes ([`FieldKind::writes`]), turned into the
//! `parquet` crate's schema types.

use std::sync::Arc;

use parquet::basic::{LogicalType, Repetition, TimeUnit, Type as PhysicalType};
use parquet::schema::types::Type;
use parquet_rows_rules as rules;

use crate::error::{Error, Location, Result};

/// One field the derive-generated code writes: the field, its column's name
/// (after `rename`), the shape of its type, and its attributes.
#[doc(hidden)]
#[derive(Debug, Clone)]
pub struct WriteSpec {
    /// The Rust field's name.
    pub field: &'static str,
    /// The column's name in the file (a child of the struct's group).
    pub column: &'static str,
    /// What the field's type writes ([`WriteField::write_shape`](super::WriteField)).
    pub shape: WriteShape,
    /// What the field's attributes say of its leaf columns (a unit, a
    /// precision).
    pub params: rules::WriteParams,
    /// The field's `encoding` attribute, for every leaf column under it.
    pub encoding: Option<super::ColumnEncoding>,
    /// The field's `bloom_filter` attribute.
    pub bloom_filter: bool,
    /// The field's `compression` attribute (the file's codec otherwise).
    pub compression: Option<super::Compression>,
}

/// What a field type writes: a tree whose leaves are columns.
#[doc(hidden)]
#[derive(Debug, Clone)]
pub enum WriteShape {
    /// One value of a leaf column, of the kind the rules name.
    Leaf(rules::FieldKind),
    /// `Option<T>`: the node of `T`, OPTIONAL.
    Option(Box<WriteShape>),
    /// `Vec<T>`: a 3-level LIST (`<name> (LIST) { repeated group list {
    /// element } }`).
    List(Box<WriteShape>),
    /// A map: a MAP (`<name> (MAP) { repeated group key_value { key; value
    /// } }`), the key REQUIRED.
    Map(Box<WriteShape>, Box<WriteShape>),
    /// A struct that derives `ParquetRow`: a group of its fields.
    Struct {
        /// The struct's name.
        name: &'static str,
        /// Its fields (`ParquetWrite::write_specs`).
        fields: Vec<WriteSpec>,
    },
}

/// One leaf column the writer writes, found walking the fields' shapes.
#[derive(Debug, Clone)]
pub(crate) struct Leaf {
    /// The Rust path for messages: `items[].price`, `attrs.value`.
    pub(crate) field: String,
    /// The column path, from the top-level field's column.
    pub(crate) path: Vec<String>,
    /// The column as the rules see it, its repetition as in the file.
    pub(crate) column: rules::Column,
    pub(crate) max_def: i16,
    pub(crate) max_rep: i16,
    /// The attributes of the field the leaf is under.
    pub(crate) encoding: Option<super::ColumnEncoding>,
    pub(crate) bloom_filter: bool,
    pub(crate) compression: Option<super::Compression>,
}

impl Leaf {
    /// The dotted column path (`items.list.element.price`).
    pub(crate) fn dotted(&self) -> String {
        self.path.join(".")
    }
}

/// The file's schema from the struct's fields: the message type, every leaf
/// column in the file's order, and where each top-level field's leaves
/// start (one more entry: the number of leaves).
pub(crate) struct Layout {
    pub(crate) message: Type,
    pub(crate) leaves: Vec<Leaf>,
    pub(crate) starts: Vec<usize>,
}

/// Builds the [`Layout`] of the fields `specs` of `struct_name`; a field
/// that cannot be written (a kind without its attributes, an
/// `Option<Option<_>>`, a nullable map key, a struct without fields) is an
/// error naming it.
pub(crate) fn layout(struct_name: &str, specs: &[WriteSpec]) -> Result<Layout> {
    let mut leaves = Vec::new();
    let mut starts = Vec::with_capacity(specs.len() + 1);
    let mut fields = Vec::with_capacity(specs.len());
    for spec in specs {
        starts.push(leaves.len());
        let mut walk = Walk {
            struct_name,
            spec,
            params: spec.params,
            leaves: &mut leaves,
        };
        let at = Place {
            field: spec.field.to_owned(),
            path: vec![spec.column.to_owned()],
            def: 0,
            rep: 0,
        };
        fields.push(Arc::new(walk.node(
            spec.column,
            &spec.shape,
            Repetition::REQUIRED,
            at,
        )?));
    }
    starts.push(leaves.len());
    let message = Type::group_type_builder("schema")
        .with_fields(fields)
        .build()?;
    Ok(Layout {
        message,
        leaves,
        starts,
    })
}

/// Where the walk stands: the Rust path, the column path, the levels of the
/// node's parent.
#[derive(Clone)]
struct Place {
    field: String,
    path: Vec<String>,
    def: i16,
    rep: i16,
}

impl Place {
    fn child(&self, field: String, column: &str, def: i16, rep: i16) -> Place {
        let mut path = self.path.clone();
        path.push(column.to_owned());
        Place {
            field,
            path,
            def,
            rep,
        }
    }
}

struct Walk<'a> {
    struct_name: &'a str,
    spec: &'a WriteSpec, // the field whose attributes apply
    /// The field's `unit`, `precision`, ... for the leaves under it but a
    /// map's key (a `BTreeMap<String, Decimal>`'s precision is the value's).
    params: rules::WriteParams,
    leaves: &'a mut Vec<Leaf>,
}

impl Walk<'_> {
    fn error(&self, at: &Place, why: &str) -> Error {
        Error::Unsupported {
            location: Location {
                column: at.path.join("."),
                ..Location::default()
            },
            message: format!(
                "field `{}::{}` cannot be written: {why}",
                self.struct_name, at.field
            ),
        }
    }

    /// The node `name` of `shape`, with `repetition` (REQUIRED unless an
    /// `Option` made it OPTIONAL); `at.def`/`at.rep` include this node's
    /// own level.
    fn node(
        &mut self,
        name: &str,
        shape: &WriteShape,
        repetition: Repetition,
        at: Place,
    ) -> Result<Type> {
        match shape {
            WriteShape::Option(inner) => {
                if matches!(**inner, WriteShape::Option(_)) {
                    return Err(self.error(
                        &at,
                        "`Option<Option<_>>` has no column that reads it back (one OPTIONAL node holds one null)",
                    ));
                }
                let inside = Place {
                    def: at.def + 1,
                    ..at
                };
                self.node(name, inner, Repetition::OPTIONAL, inside)
            }
            WriteShape::Leaf(kind) => {
                let mut column = kind
                    .writes_with(&self.params)
                    .map_err(|why| self.error(&at, &why))?;
                if repetition == Repetition::OPTIONAL {
                    column.repetition = rules::Repetition::Optional;
                }
                let ty = primitive(name, &column)?;
                self.leaves.push(Leaf {
                    field: at.field,
                    path: at.path,
                    column,
                    max_def: at.def,
                    max_rep: at.rep,
                    encoding: self.spec.encoding,
                    bloom_filter: self.spec.bloom_filter,
                    compression: self.spec.compression,
                });
                Ok(ty)
            }
            WriteShape::List(element) => {
                let (def, rep) = (at.def + 1, at.rep + 1);
                let list = at.child(at.field.clone(), "list", def, rep);
                let element_at = list.child(format!("{}[]", at.field), "element", def, rep);
                let element = self.node("element", element, Repetition::REQUIRED, element_at)?;
                let repeated = Type::group_type_builder("list")
                    .with_repetition(Repetition::REPEATED)
                    .with_fields(vec![Arc::new(element)])
                    .build()?;
                Ok(Type::group_type_builder(name)
                    .with_repetition(repetition)
                    .with_logical_type(Some(LogicalType::List))
                    .with_fields(vec![Arc::new(repeated)])
                    .build()?)
            }
            WriteShape::Map(key, value) => {
                if matches!(**key, WriteShape::Option(_)) {
                    return Err(self.error(
                        &at,
                        "a map's key is REQUIRED (parquet-format LogicalTypes.md#maps): use a key type that is not an `Option`",
                    ));
                }
                let (def, rep) = (at.def + 1, at.rep + 1);
                let pairs = at.child(at.field.clone(), "key_value", def, rep);
                let key_at = pairs.child(format!("{}.key", at.field), "key", def, rep);
                let value_at = pairs.child(format!("{}.value", at.field), "value", def, rep);
                let params = std::mem::take(&mut self.params);
                let key = self.node("key", key, Repetition::REQUIRED, key_at);
                self.params = params;
                let key = key?;
                let value = self.node("value", value, Repetition::REQUIRED, value_at)?;
                let repeated = Type::group_type_builder("key_value")
                    .with_repetition(Repetition::REPEATED)
                    .with_fields(vec![Arc::new(key), Arc::new(value)])
                    .build()?;
                Ok(Type::group_type_builder(name)
                    .with_repetition(repetition)
                    .with_logical_type(Some(LogicalType::Map))
                    .with_fields(vec![Arc::new(repeated)])
                    .build()?)
            }
            WriteShape::Struct { name: ty, fields } => {
                self.group(name, ty, fields, repetition, &at)
            }
        }
    }

    /// A struct's group: its fields, each with its own attributes.
    fn group(
        &mut self,
        name: &str,
        ty: &str,
        fields: &[WriteSpec],
        repetition: Repetition,
        at: &Place,
    ) -> Result<Type> {
        if fields.is_empty() {
            return Err(self.error(
                at,
                &format!("`{ty}` writes no column, and a Parquet group needs one"),
            ));
        }
        let mut children = Vec::with_capacity(fields.len());
        for spec in fields {
            let child = at.child(
                format!("{}.{}", at.field, spec.field),
                spec.column,
                at.def,
                at.rep,
            );
            let mut walk = Walk {
                struct_name: self.struct_name,
                spec,
                params: spec.params,
                leaves: self.leaves,
            };
            children.push(Arc::new(walk.node(
                spec.column,
                &spec.shape,
                Repetition::REQUIRED,
                child,
            )?));
        }
        Ok(Type::group_type_builder(name)
            .with_repetition(repetition)
            .with_fields(children)
            .build()?)
    }
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
        // Static names (a `WriteSpec` holds `&'static str`): leaked
        // strings failed the tests under LeakSanitizer.
        let names: [&'static str; 24] = [
            "c0", "c1", "c2", "c3", "c4", "c5", "c6", "c7", "c8", "c9", "c10", "c11", "c12", "c13",
            "c14", "c15", "c16", "c17", "c18", "c19", "c20", "c21", "c22", "c23",
        ];
        assert!(kinds.len() <= names.len(), "a name for every kind");
        let specs: Vec<WriteSpec> = kinds
            .iter()
            .zip(names)
            .map(|(&(kind, params), column)| {
                let leaf = WriteShape::Leaf(kind);
                spec(
                    column,
                    if column == "c2" {
                        WriteShape::Option(Box::new(leaf))
                    } else {
                        leaf
                    },
                    params,
                )
            })
            .collect();
        let layout = layout("S", &specs).unwrap();
        let descr = SchemaDescriptor::new(Arc::new(layout.message));
        for (i, leaf) in layout.leaves.iter().enumerate() {
            assert_eq!(
                crate::schema_rules::column(&descr.column(i)),
                leaf.column,
                "{:?}",
                kinds[i]
            );
        }
    }

    fn spec(column: &'static str, shape: WriteShape, params: rules::WriteParams) -> WriteSpec {
        WriteSpec {
            field: column,
            column,
            shape,
            params,
            encoding: None,
            bloom_filter: false,
            compression: None,
        }
    }

    /// Nested shapes write the standard forms (3-level LIST with
    /// `list`/`element`, MAP with `key_value`/`key`/`value`), with the
    /// levels the spec gives each leaf.
    #[test]
    fn nested_shapes_write_the_standard_forms_and_levels() {
        let none = rules::WriteParams::default();
        let leaf = |k| Box::new(WriteShape::Leaf(k));
        let option = |s| Box::new(WriteShape::Option(s));
        let inner = WriteShape::Struct {
            name: "Inner",
            fields: vec![
                spec("a", WriteShape::Leaf(FieldKind::I32), none),
                spec("b", WriteShape::Option(leaf(FieldKind::String)), none),
            ],
        };
        let specs = vec![
            spec(
                "tags",
                WriteShape::Option(Box::new(WriteShape::List(option(leaf(FieldKind::Str))))),
                none,
            ),
            spec(
                "attrs",
                WriteShape::Map(leaf(FieldKind::String), option(leaf(FieldKind::I64))),
                none,
            ),
            spec("items", WriteShape::List(Box::new(inner.clone())), none),
            spec("inner", WriteShape::Option(Box::new(inner)), none),
        ];
        let layout = layout("S", &specs).unwrap();
        let mut printed = Vec::new();
        parquet::schema::printer::print_schema(&mut printed, &layout.message);
        let printed = String::from_utf8(printed).unwrap();
        let expected = "message schema {
  OPTIONAL group tags (LIST) {
    REPEATED group list {
      OPTIONAL BYTE_ARRAY element (STRING);
    }
  }
  REQUIRED group attrs (MAP) {
    REPEATED group key_value {
      REQUIRED BYTE_ARRAY key (STRING);
      OPTIONAL INT64 value;
    }
  }
  REQUIRED group items (LIST) {
    REPEATED group list {
      REQUIRED group element {
        REQUIRED INT32 a;
        OPTIONAL BYTE_ARRAY b (STRING);
      }
    }
  }
  OPTIONAL group inner {
    REQUIRED INT32 a;
    OPTIONAL BYTE_ARRAY b (STRING);
  }
}
";
        assert_eq!(printed, expected);
        let levels: Vec<(String, i16, i16, &str)> = layout
            .leaves
            .iter()
            .map(|l| (l.dotted(), l.max_def, l.max_rep, l.field.as_str()))
            .collect();
        let expected = [
            ("tags.list.element", 3, 1, "tags[]"),
            ("attrs.key_value.key", 1, 1, "attrs.key"),
            ("attrs.key_value.value", 2, 1, "attrs.value"),
            ("items.list.element.a", 1, 1, "items[].a"),
            ("items.list.element.b", 2, 1, "items[].b"),
            ("inner.a", 1, 0, "inner.a"),
            ("inner.b", 2, 0, "inner.b"),
        ];
        let expected: Vec<_> = expected
            .iter()
            .map(|&(p, d, r, f)| (p.to_owned(), d, r, f))
            .collect();
        assert_eq!(levels, expected);
        assert_eq!(layout.starts, [0, 1, 3, 5, 7]);
        // The levels the `parquet` crate derives from the schema agree.
        let descr = SchemaDescriptor::new(Arc::new(layout.message));
        for (i, leaf) in layout.leaves.iter().enumerate() {
            let column = descr.column(i);
            assert_eq!(
                (column.max_def_level(), column.max_rep_level()),
                (leaf.max_def, leaf.max_rep),
                "{}",
                leaf.dotted()
            );
        }
    }

    #[test]
    fn shapes_the_reader_cannot_bind_are_errors_naming_the_field() {
        let none = rules::WriteParams::default();
        let leaf = |k| Box::new(WriteShape::Leaf(k));
        let cases = [
            (
                WriteShape::List(Box::new(WriteShape::Option(Box::new(WriteShape::Option(
                    leaf(FieldKind::I32),
                ))))),
                "`S::f[]` cannot be written: `Option<Option<_>>`",
            ),
            (
                WriteShape::Map(
                    Box::new(WriteShape::Option(leaf(FieldKind::I32))),
                    leaf(FieldKind::I32),
                ),
                "`S::f` cannot be written: a map's key is REQUIRED",
            ),
            (
                WriteShape::Option(Box::new(WriteShape::Struct {
                    name: "Empty",
                    fields: Vec::new(),
                })),
                "`S::f` cannot be written: `Empty` writes no column",
            ),
            (
                WriteShape::List(leaf(FieldKind::Decimal)),
                "`S::f[]` cannot be written: ",
            ),
        ];
        for (shape, expected) in cases {
            let Err(e) = layout("S", &[spec("f", shape, none)]) else {
                panic!("{expected}: no error");
            };
            let message = e.to_string();
            assert!(message.contains(expected), "{message}");
        }
    }

    #[test]
    fn kinds_not_writable_yet_are_errors_naming_the_field() {
        let spec = WriteSpec {
            field: "at",
            ..spec(
                "ts",
                WriteShape::Leaf(FieldKind::Decimal),
                rules::WriteParams::default(),
            )
        };
        let Err(e) = layout("Tick", &[spec]) else {
            panic!("no error")
        };
        let message = e.to_string();
        assert!(message.contains("precision = P, scale = S"), "{message}");
        assert!(message.contains("`Tick::at`"), "{message}");
        assert!(message.contains("column `ts`"), "{message}");
    }
}
