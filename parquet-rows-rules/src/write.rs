//! The writing direction of the rules: the column each field type writes
//! ([`FieldKind::writes_with`]).
//!
//! Every column written here is one that the same field type reads back
//! ([`FieldKind::reads`]); the tests below check that for every kind. What a
//! type does not say about its column (a `Timestamp`'s unit, a `Decimal`'s
//! precision and scale) comes from the field's attributes, [`WriteParams`],
//! or a default.

use crate::column::{Column, Converted, Logical, Physical, Repetition, TimeUnit};
use crate::kind::FieldKind;

/// What a field's attributes say about the column it writes, beyond its
/// type: `#[parquet(unit = "millis", utc = false, precision = 10, scale = 2)]`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct WriteParams {
    /// The unit of a TIMESTAMP or TIME column (default: microseconds).
    pub unit: Option<TimeUnit>,
    /// `isAdjustedToUTC` of a TIMESTAMP or TIME column (default: `true` for
    /// `Timestamp` and `chrono::DateTime<Utc>`, `false` for the local
    /// `chrono::NaiveDateTime`, `Time` and `chrono::NaiveTime`).
    pub utc: Option<bool>,
    /// A DECIMAL's precision, 1 to 38 (no default: the type says nothing).
    pub precision: Option<u8>,
    /// A DECIMAL's scale, 0 to the precision (no default).
    pub scale: Option<u8>,
}

/// The most digits a DECIMAL the writer writes holds: 38, the most of a
/// 16-byte FIXED_LEN_BYTE_ARRAY (and of the `i128` its values are).
pub const MAX_DECIMAL_PRECISION: u8 = 38;

impl FieldKind {
    /// The column a field of this kind writes with no attributes, REQUIRED;
    /// `None` for kinds the writer does not write, or that need an attribute
    /// (a DECIMAL's precision and scale). See [`writes_with`](Self::writes_with).
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
        self.writes_with(&WriteParams::default()).ok()
    }

    /// The column a field of this kind writes, REQUIRED (an `Option<T>`
    /// field writes `T`'s column as OPTIONAL), with the logical type and the
    /// converted type old readers look for; the error says why the kind
    /// cannot be written, or which attribute it needs or refuses.
    ///
    /// ```
    /// use parquet_rows_rules::{FieldKind, Logical, Physical, TimeUnit, WriteParams};
    ///
    /// let params = WriteParams { unit: Some(TimeUnit::Nanos), ..WriteParams::default() };
    /// let column = FieldKind::Timestamp.writes_with(&params).unwrap();
    /// assert_eq!(column.logical, Some(Logical::Timestamp { unit: TimeUnit::Nanos, utc: true }));
    ///
    /// let price = WriteParams { precision: Some(10), scale: Some(2), ..WriteParams::default() };
    /// let column = FieldKind::Decimal.writes_with(&price).unwrap();
    /// assert_eq!((column.physical, column.precision, column.scale), (Physical::Int64, 10, 2));
    /// assert!(FieldKind::Decimal.writes_with(&WriteParams::default()).is_err());
    /// ```
    pub fn writes_with(self, params: &WriteParams) -> Result<Column, String> {
        let integer =
            |physical, bits, signed| annotated(physical, Logical::Integer { bits, signed });
        let time_kind = matches!(
            self,
            FieldKind::Timestamp
                | FieldKind::ChronoDateTimeUtc
                | FieldKind::ChronoNaiveDateTime
                | FieldKind::Time
                | FieldKind::ChronoNaiveTime
        );
        let decimal_kind = matches!(
            self,
            FieldKind::Decimal | FieldKind::I128 | FieldKind::RustDecimal
        );
        if !time_kind && (params.unit.is_some() || params.utc.is_some()) {
            return Err(format!(
                "`unit` and `utc` are for timestamps and times, not {}",
                self.rust_name()
            ));
        }
        if !decimal_kind && (params.precision.is_some() || params.scale.is_some()) {
            return Err(format!(
                "`precision` and `scale` are for decimals, not {}",
                self.rust_name()
            ));
        }
        let unit = params.unit.unwrap_or(TimeUnit::Micros);
        Ok(match self {
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
            FieldKind::FixedBytes(n) => fixed(n)?,
            FieldKind::Date | FieldKind::ChronoNaiveDate => {
                annotated(Physical::Int32, Logical::Date)
            }
            FieldKind::Timestamp | FieldKind::ChronoDateTimeUtc => {
                let utc = params.utc.unwrap_or(true);
                if self == FieldKind::ChronoDateTimeUtc && !utc {
                    return Err("`chrono::DateTime<Utc>` is an instant: its column is \
                                adjusted to UTC (`utc = false` is for `NaiveDateTime`)"
                        .to_owned());
                }
                annotated(Physical::Int64, Logical::Timestamp { unit, utc })
            }
            FieldKind::ChronoNaiveDateTime => {
                let utc = params.utc.unwrap_or(false);
                annotated(Physical::Int64, Logical::Timestamp { unit, utc })
            }
            FieldKind::Time | FieldKind::ChronoNaiveTime => {
                // TIME(MILLIS) is INT32, the finer units INT64.
                let physical = if unit == TimeUnit::Millis {
                    Physical::Int32
                } else {
                    Physical::Int64
                };
                let utc = params.utc.unwrap_or(false);
                annotated(physical, Logical::Time { unit, utc })
            }
            FieldKind::Decimal | FieldKind::I128 | FieldKind::RustDecimal => {
                decimal(self, *params)?
            }
            FieldKind::F16 => Column {
                length: 2,
                ..annotated(Physical::FixedLenByteArray, Logical::Float16)
            },
            FieldKind::Uuid => Column {
                length: 16,
                ..annotated(Physical::FixedLenByteArray, Logical::Uuid)
            },
            // INT96 is deprecated (parquet-format): timestamps write TIMESTAMP.
            FieldKind::Int96 => {
                return Err("INT96 is deprecated; write a `Timestamp` (TIMESTAMP) instead".into())
            }
            FieldKind::NestedOption => return Err("`Option<Option<_>>` has no column".to_owned()),
        })
    }

    /// The type's name in messages.
    fn rust_name(self) -> String {
        format!("{self:?}")
    }
}

fn fixed(n: usize) -> Result<Column, String> {
    Ok(Column {
        length: i32::try_from(n).map_err(|_| format!("[u8; {n}] is too long for a column"))?,
        ..Column::new(Physical::FixedLenByteArray, Repetition::Required)
    })
}

/// A DECIMAL of the attributes' precision and scale, stored as parquet-format
/// recommends: INT32 up to 9 digits, INT64 up to 18, beyond in the fewest
/// bytes of a FIXED_LEN_BYTE_ARRAY that hold the precision.
fn decimal(kind: FieldKind, params: WriteParams) -> Result<Column, String> {
    let (Some(precision), Some(scale)) = (params.precision, params.scale) else {
        return Err(format!(
            "a {} field writes a DECIMAL whose precision and scale the type does not say: \
             add #[parquet(precision = P, scale = S)] (1 <= P <= {MAX_DECIMAL_PRECISION}, 0 <= S <= P)",
            kind.rust_name()
        ));
    };
    if !(1..=MAX_DECIMAL_PRECISION).contains(&precision) || scale > precision {
        return Err(format!(
            "DECIMAL({precision}, {scale}) is not a decimal the writer writes: \
             1 <= precision <= {MAX_DECIMAL_PRECISION}, 0 <= scale <= precision"
        ));
    }
    if kind == FieldKind::RustDecimal && scale > 28 {
        return Err(format!(
            "`rust_decimal::Decimal` holds at most 28 digits after the point, not scale {scale}"
        ));
    }
    let logical = Logical::Decimal {
        precision: i32::from(precision),
        scale: i32::from(scale),
    };
    let (physical, length) = match precision {
        1..=9 => (Physical::Int32, -1),
        10..=18 => (Physical::Int64, -1),
        _ => (Physical::FixedLenByteArray, decimal_bytes(precision)),
    };
    Ok(Column {
        length,
        precision: i32::from(precision),
        scale: i32::from(scale),
        ..annotated(physical, logical)
    })
}

/// The fewest bytes of a two's complement integer that hold every value of
/// `precision` digits: the least `n` with `10^precision - 1 <= 2^(8n-1) - 1`.
pub fn decimal_bytes(precision: u8) -> i32 {
    let most = 10i128.pow(u32::from(precision)) - 1; // precision <= 38 fits
    let mut n = 1;
    while n < 16 && most > (1i128 << (8 * n - 1)) - 1 {
        n += 1;
    }
    n
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

    /// The attributes each kind is written with in the tests: none, and
    /// for the kinds that take them, each unit, both UTC flags and decimals
    /// of each physical type.
    fn params_of(kind: FieldKind) -> Vec<WriteParams> {
        let none = WriteParams::default();
        let decimals = [(1, 0), (9, 2), (18, 18), (19, 4), (28, 28), (38, 10)];
        match kind {
            FieldKind::Timestamp
            | FieldKind::ChronoNaiveDateTime
            | FieldKind::Time
            | FieldKind::ChronoNaiveTime => {
                let mut all = vec![none];
                for unit in [TimeUnit::Millis, TimeUnit::Micros, TimeUnit::Nanos] {
                    for utc in [true, false] {
                        all.push(WriteParams {
                            unit: Some(unit),
                            utc: Some(utc),
                            ..none
                        });
                    }
                }
                all
            }
            FieldKind::ChronoDateTimeUtc => vec![
                none,
                WriteParams {
                    unit: Some(TimeUnit::Nanos),
                    ..none
                },
            ],
            FieldKind::Decimal | FieldKind::I128 | FieldKind::RustDecimal => decimals
                .iter()
                .map(|&(precision, scale)| WriteParams {
                    precision: Some(precision),
                    scale: Some(scale),
                    ..none
                })
                .collect(),
            _ => vec![none],
        }
    }

    #[test]
    fn whatever_a_kind_writes_it_reads() {
        let mut writable = 0;
        for (kind, params) in every_kind()
            .into_iter()
            .flat_map(|kind| params_of(kind).into_iter().map(move |p| (kind, p)))
        {
            let Ok(column) = kind.writes_with(&params) else {
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
        // two array lengths, DATE and chrono's date; Timestamp, NaiveDateTime,
        // Time and NaiveTime by default and with each unit and flag (4 x 7),
        // DateTime<Utc> twice, three decimal kinds with six precisions each,
        // FLOAT16 and UUID.
        assert_eq!(writable, 23 + 28 + 2 + 18 + 2);
    }

    #[test]
    fn attributes_a_kind_cannot_use_are_errors() {
        let unit = WriteParams {
            unit: Some(TimeUnit::Millis),
            ..WriteParams::default()
        };
        assert!(FieldKind::I64.writes_with(&unit).is_err());
        let local = WriteParams {
            utc: Some(false),
            ..WriteParams::default()
        };
        assert!(FieldKind::ChronoDateTimeUtc.writes_with(&local).is_err());
        let wide = |precision, scale| WriteParams {
            precision: Some(precision),
            scale: Some(scale),
            ..WriteParams::default()
        };
        assert!(FieldKind::Decimal.writes_with(&wide(39, 0)).is_err());
        assert!(FieldKind::Decimal.writes_with(&wide(0, 0)).is_err());
        assert!(FieldKind::Decimal.writes_with(&wide(5, 6)).is_err());
        assert!(FieldKind::F64.writes_with(&wide(5, 2)).is_err());
        let message = FieldKind::I128
            .writes_with(&WriteParams::default())
            .unwrap_err();
        assert!(message.contains("precision = P, scale = S"), "{message}");
        assert!(FieldKind::Int96.writes().is_none());
    }

    #[test]
    fn decimals_take_the_fewest_bytes_of_their_precision() {
        // parquet-format's table of the most digits n bytes hold.
        for (precision, bytes) in [
            (1, 1),
            (2, 1),
            (3, 2),
            (4, 2),
            (9, 4),
            (18, 8),
            (19, 9),
            (38, 16),
        ] {
            assert_eq!(decimal_bytes(precision), bytes, "precision {precision}");
        }
        let wide = WriteParams {
            precision: Some(20),
            scale: Some(3),
            ..WriteParams::default()
        };
        let column = FieldKind::Decimal.writes_with(&wide).unwrap();
        assert_eq!(
            (column.physical, column.length),
            (Physical::FixedLenByteArray, 9)
        );
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
