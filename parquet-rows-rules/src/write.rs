//! The writing direction of the rules: the column each field type writes
//! ([`FieldKind::writes`]).
//!
//! Every column written here is one that the same field type reads back
//! ([`FieldKind::reads`]); the tests below check that for every kind. A kind
//! whose column needs more than the type says (a `Timestamp`'s unit, a
//! `Decimal`'s precision and scale) is not writable yet: `writes` returns
//! `None` for it.

use crate::column::{Column, Converted, Logical, Physical, Repetition};
use crate::kind::FieldKind;

impl FieldKind {
    /// The column a field of this kind writes, REQUIRED (an `Option<T>`
    /// field writes `T`'s column as OPTIONAL), with the logical type and the
    /// converted type old readers look for; `None` for kinds the writer does
    /// not write yet.
    ///
    /// ```
    /// use parquet_rows_rules::{FieldKind, Logical, Physical};
    ///
    /// let column = FieldKind::U16.writes().unwrap();
    /// assert_eq!(column.physical, Physical::Int32);
    /// assert_eq!(column.logical, Some(Logical::Integer { bits: 16, signed: false }));
    /// assert!(FieldKind::U16.reads(&column));
    /// ```
    pub fn writes(self) -> Option<Column> {
        let integer =
            |physical, bits, signed| annotated(physical, Logical::Integer { bits, signed });
        Some(match self {
            FieldKind::Bool => Column::new(Physical::Boolean, Repetition::Required),
            FieldKind::F32 => Column::new(Physical::Float, Repetition::Required),
            FieldKind::F64 => Column::new(Physical::Double, Repetition::Required),
            FieldKind::I8 => integer(Physical::Int32, 8, true),
            FieldKind::I16 => integer(Physical::Int32, 16, true),
            // Plain INT32 and INT64, as pyarrow writes them: every reader
            // takes them for signed integers of their width.
            FieldKind::I32 => Column::new(Physical::Int32, Repetition::Required),
            FieldKind::I64 => Column::new(Physical::Int64, Repetition::Required),
            FieldKind::U8 => integer(Physical::Int32, 8, false),
            FieldKind::U16 => integer(Physical::Int32, 16, false),
            FieldKind::U32 => integer(Physical::Int32, 32, false),
            FieldKind::U64 => integer(Physical::Int64, 64, false),
            FieldKind::Str
            | FieldKind::String
            | FieldKind::BoxStr
            | FieldKind::ArcStr
            | FieldKind::CompactString => annotated(Physical::ByteArray, Logical::String),
            FieldKind::ByteSlice | FieldKind::ByteVec | FieldKind::Bytes => {
                Column::new(Physical::ByteArray, Repetition::Required)
            }
            FieldKind::FixedBytes(n) => Column {
                length: i32::try_from(n).ok()?,
                ..Column::new(Physical::FixedLenByteArray, Repetition::Required)
            },
            FieldKind::Date => annotated(Physical::Int32, Logical::Date),
            // Not yet: the unit (TIMESTAMP, TIME) or precision and scale
            // (DECIMAL) would come from an attribute; INT96 is deprecated;
            // the feature types wait for the first ones.
            FieldKind::Timestamp
            | FieldKind::Time
            | FieldKind::Int96
            | FieldKind::Decimal
            | FieldKind::I128
            | FieldKind::ChronoDateTimeUtc
            | FieldKind::ChronoNaiveDateTime
            | FieldKind::ChronoNaiveDate
            | FieldKind::ChronoNaiveTime
            | FieldKind::RustDecimal
            | FieldKind::F16
            | FieldKind::Uuid
            | FieldKind::NestedOption => return None,
        })
    }
}

/// A REQUIRED column of `physical` annotated `logical` (and its converted type).
fn annotated(physical: Physical, logical: Logical) -> Column {
    Column {
        converted: Converted::from_logical(&logical),
        logical: Some(logical),
        ..Column::new(physical, Repetition::Required)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kind::{NAMES, RUNTIME_NAMES};

    /// Every kind the rules know, with a few array lengths.
    fn every_kind() -> Vec<FieldKind> {
        let mut kinds: Vec<FieldKind> = NAMES
            .iter()
            .chain(RUNTIME_NAMES)
            .map(|&(_, kind)| kind)
            .collect();
        kinds.extend([
            FieldKind::Str,
            FieldKind::ByteSlice,
            FieldKind::FixedBytes(1),
            FieldKind::FixedBytes(16),
            FieldKind::NestedOption,
        ]);
        let mut distinct = Vec::new();
        for kind in kinds {
            if !distinct.contains(&kind) {
                distinct.push(kind);
            }
        }
        distinct
    }

    #[test]
    fn whatever_a_kind_writes_it_reads() {
        let mut writable = 0;
        for kind in every_kind() {
            let Some(column) = kind.writes() else {
                continue;
            };
            writable += 1;
            assert!(kind.reads(&column), "{kind:?} writes {}", column.describe());
            let optional = Column {
                repetition: Repetition::Optional,
                ..column
            };
            assert!(
                kind.reads(&optional),
                "{kind:?} writes {}",
                optional.describe()
            );
            // And a schema of that column binds the field, as the reader
            // binds a file's, also once printed and parsed back.
            let schema = crate::Schema {
                name: "m".to_owned(),
                fields: vec![crate::Node::Primitive {
                    name: "f".to_owned(),
                    column: optional,
                    id: None,
                }],
            };
            let reparsed = crate::parse(&schema.to_string()).unwrap();
            assert_eq!(reparsed, schema);
            assert!(
                schema.bind("f", crate::Field::known(kind, true)).is_ok(),
                "{kind:?}"
            );
        }
        // bool, eight integers, two floats, five strings, three byte arrays,
        // two array lengths and DATE.
        assert_eq!(writable, 22);
    }

    #[test]
    fn integers_keep_their_width_and_sign() {
        for (kind, bits, signed) in [
            (FieldKind::I8, 8, true),
            (FieldKind::I16, 16, true),
            (FieldKind::U8, 8, false),
            (FieldKind::U16, 16, false),
            (FieldKind::U32, 32, false),
            (FieldKind::U64, 64, false),
        ] {
            let column = kind.writes().unwrap();
            assert_eq!(column.integer(), Some((bits, signed)), "{kind:?}");
            // Each reads its own column and no narrower field does.
            assert!(kind.reads(&column));
        }
        assert!(!FieldKind::I8.reads(&FieldKind::I16.writes().unwrap()));
        assert!(!FieldKind::U32.reads(&FieldKind::I32.writes().unwrap()));
    }
}
