//! The model of one Parquet column: what the rules look at.
//!
//! It mirrors the footer's `SchemaElement`: a physical type, an optional
//! logical type (Parquet 2.4+), the legacy converted type, decimal precision and
//! scale, the length of a FIXED_LEN_BYTE_ARRAY, and the repetition. Both the
//! logical and the converted type are kept, because writers set either or both:
//! every rule reads the logical type first and falls back to the converted one,
//! and messages print the one that decided.

use std::fmt::{self, Write as _};

/// A column's physical (storage) type.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Physical {
    /// BOOLEAN
    Boolean,
    /// INT32
    Int32,
    /// INT64
    Int64,
    /// INT96 (legacy timestamps)
    Int96,
    /// FLOAT
    Float,
    /// DOUBLE
    Double,
    /// BYTE_ARRAY (also spelled BINARY in schema text)
    ByteArray,
    /// FIXED_LEN_BYTE_ARRAY
    FixedLenByteArray,
}

impl Physical {
    /// The name Parquet uses: `INT64`, `BYTE_ARRAY`, ...
    pub const fn name(self) -> &'static str {
        match self {
            Physical::Boolean => "BOOLEAN",
            Physical::Int32 => "INT32",
            Physical::Int64 => "INT64",
            Physical::Int96 => "INT96",
            Physical::Float => "FLOAT",
            Physical::Double => "DOUBLE",
            Physical::ByteArray => "BYTE_ARRAY",
            Physical::FixedLenByteArray => "FIXED_LEN_BYTE_ARRAY",
        }
    }

    /// Parses a name as schema text writes it (upper case; `BINARY` is `BYTE_ARRAY`).
    pub fn from_name(name: &str) -> Option<Self> {
        Some(match name {
            "BOOLEAN" => Physical::Boolean,
            "INT32" => Physical::Int32,
            "INT64" => Physical::Int64,
            "INT96" => Physical::Int96,
            "FLOAT" => Physical::Float,
            "DOUBLE" => Physical::Double,
            "BYTE_ARRAY" | "BINARY" => Physical::ByteArray,
            "FIXED_LEN_BYTE_ARRAY" => Physical::FixedLenByteArray,
            _ => return None,
        })
    }

    /// The value of the thrift enum `Type`.
    pub fn from_thrift(value: i32) -> Option<Self> {
        Some(match value {
            0 => Physical::Boolean,
            1 => Physical::Int32,
            2 => Physical::Int64,
            3 => Physical::Int96,
            4 => Physical::Float,
            5 => Physical::Double,
            6 => Physical::ByteArray,
            7 => Physical::FixedLenByteArray,
            _ => return None,
        })
    }
}

impl fmt::Display for Physical {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Whether a column is REQUIRED, OPTIONAL or REPEATED.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Repetition {
    /// Exactly one value per row.
    Required,
    /// Zero or one value per row (nulls).
    Optional,
    /// Any number of values per row.
    Repeated,
}

impl Repetition {
    /// `REQUIRED`, `OPTIONAL` or `REPEATED`.
    pub const fn name(self) -> &'static str {
        match self {
            Repetition::Required => "REQUIRED",
            Repetition::Optional => "OPTIONAL",
            Repetition::Repeated => "REPEATED",
        }
    }

    /// Parses an upper-case name.
    pub fn from_name(name: &str) -> Option<Self> {
        Some(match name {
            "REQUIRED" => Repetition::Required,
            "OPTIONAL" => Repetition::Optional,
            "REPEATED" => Repetition::Repeated,
            _ => return None,
        })
    }

    /// The value of the thrift enum `FieldRepetitionType`.
    pub fn from_thrift(value: i32) -> Option<Self> {
        Some(match value {
            0 => Repetition::Required,
            1 => Repetition::Optional,
            2 => Repetition::Repeated,
            _ => return None,
        })
    }
}

impl fmt::Display for Repetition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The unit of a TIME or TIMESTAMP column.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TimeUnit {
    /// Milliseconds.
    Millis,
    /// Microseconds.
    Micros,
    /// Nanoseconds.
    Nanos,
}

impl TimeUnit {
    /// `MILLIS`, `MICROS` or `NANOS`.
    pub const fn name(self) -> &'static str {
        match self {
            TimeUnit::Millis => "MILLIS",
            TimeUnit::Micros => "MICROS",
            TimeUnit::Nanos => "NANOS",
        }
    }

    /// Parses an upper-case name.
    pub fn from_name(name: &str) -> Option<Self> {
        Some(match name {
            "MILLIS" => TimeUnit::Millis,
            "MICROS" => TimeUnit::Micros,
            "NANOS" => TimeUnit::Nanos,
            _ => return None,
        })
    }
}

/// A logical type annotation (the footer's `LogicalType` union).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Logical {
    /// STRING (UTF-8 text).
    String,
    /// MAP (on a group).
    Map,
    /// LIST (on a group).
    List,
    /// ENUM (UTF-8 text).
    Enum,
    /// DECIMAL(precision, scale).
    Decimal {
        /// Digits in total.
        precision: i32,
        /// Digits after the point.
        scale: i32,
    },
    /// DATE (days since the epoch, INT32).
    Date,
    /// TIME(unit, isAdjustedToUTC).
    Time {
        /// The unit.
        unit: TimeUnit,
        /// `isAdjustedToUTC`.
        utc: bool,
    },
    /// TIMESTAMP(unit, isAdjustedToUTC).
    Timestamp {
        /// The unit.
        unit: TimeUnit,
        /// `isAdjustedToUTC`.
        utc: bool,
    },
    /// INT(bits, signed).
    Integer {
        /// 8, 16, 32 or 64.
        bits: i8,
        /// Whether the integer is signed.
        signed: bool,
    },
    /// UNKNOWN (the null type).
    Unknown,
    /// JSON (UTF-8 text).
    Json,
    /// BSON.
    Bson,
    /// UUID (FIXED_LEN_BYTE_ARRAY(16)).
    Uuid,
    /// FLOAT16 (FIXED_LEN_BYTE_ARRAY(2)).
    Float16,
    /// A logical type no rule looks at (VARIANT, GEOMETRY, ...), by the name
    /// messages print for it.
    Other(String),
}

impl Logical {
    /// Parses the name of a logical type as schema text writes it, before its
    /// arguments (`TIMESTAMP` in `TIMESTAMP(MICROS, true)`); `None` for names
    /// that are only converted types (`UTF8`, `INT_8`, ...). Types with
    /// arguments get placeholder arguments the parser then replaces.
    pub fn from_name(name: &str) -> Option<Self> {
        Some(match name {
            "STRING" => Logical::String,
            "MAP" => Logical::Map,
            "LIST" => Logical::List,
            "ENUM" => Logical::Enum,
            "DECIMAL" => Logical::Decimal {
                precision: -1,
                scale: -1,
            },
            "DATE" => Logical::Date,
            "TIME" => Logical::Time {
                unit: TimeUnit::Millis,
                utc: false,
            },
            "TIMESTAMP" => Logical::Timestamp {
                unit: TimeUnit::Millis,
                utc: false,
            },
            "INTEGER" => Logical::Integer {
                bits: 8,
                signed: false,
            },
            "UNKNOWN" => Logical::Unknown,
            "JSON" => Logical::Json,
            "BSON" => Logical::Bson,
            "UUID" => Logical::Uuid,
            "FLOAT16" => Logical::Float16,
            "VARIANT" | "GEOMETRY" | "GEOGRAPHY" | "FILE" => Logical::Other(name.to_owned()),
            _ => return None,
        })
    }

    /// How messages print the annotation: `INT(8, signed)`,
    /// `TIMESTAMP(MICROS, UTC)`, `DECIMAL(9, 2)`, `STRING`.
    pub fn describe(&self) -> String {
        match self {
            Logical::Integer { bits, signed } => format!(
                "INT({bits}, {})",
                if *signed { "signed" } else { "unsigned" }
            ),
            Logical::Timestamp { unit, utc } => format!(
                "TIMESTAMP({}, {})",
                unit.name(),
                if *utc { "UTC" } else { "local" }
            ),
            Logical::Time { unit, .. } => format!("TIME({})", unit.name()),
            Logical::Decimal { precision, scale } => format!("DECIMAL({precision}, {scale})"),
            Logical::String => "STRING".to_owned(),
            Logical::Map => "MAP".to_owned(),
            Logical::List => "LIST".to_owned(),
            Logical::Enum => "ENUM".to_owned(),
            Logical::Date => "DATE".to_owned(),
            Logical::Unknown => "UNKNOWN".to_owned(),
            Logical::Json => "JSON".to_owned(),
            Logical::Bson => "BSON".to_owned(),
            Logical::Uuid => "UUID".to_owned(),
            Logical::Float16 => "FLOAT16".to_owned(),
            Logical::Other(name) => name.clone(),
        }
    }

    /// How schema text writes the annotation, so that it parses back:
    /// `INTEGER(8, true)`, `TIMESTAMP(MICROS, true)`. `None` for [`Logical::Other`].
    pub fn to_schema_text(&self) -> Option<String> {
        Some(match self {
            Logical::Integer { bits, signed } => format!("INTEGER({bits}, {signed})"),
            Logical::Timestamp { unit, utc } => format!("TIMESTAMP({}, {utc})", unit.name()),
            Logical::Time { unit, utc } => format!("TIME({}, {utc})", unit.name()),
            Logical::Other(_) => return None,
            other => other.describe(),
        })
    }
}

/// A legacy converted type (the footer's `ConvertedType` enum).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[allow(missing_docs)] // the variants are Parquet's names
pub enum Converted {
    None,
    Utf8,
    Map,
    MapKeyValue,
    List,
    Enum,
    Decimal,
    Date,
    TimeMillis,
    TimeMicros,
    TimestampMillis,
    TimestampMicros,
    Uint8,
    Uint16,
    Uint32,
    Uint64,
    Int8,
    Int16,
    Int32,
    Int64,
    Json,
    Bson,
    Interval,
}

/// Every converted type with its name and thrift value, in thrift order.
const CONVERTED: [(Converted, &str); 22] = [
    (Converted::Utf8, "UTF8"),
    (Converted::Map, "MAP"),
    (Converted::MapKeyValue, "MAP_KEY_VALUE"),
    (Converted::List, "LIST"),
    (Converted::Enum, "ENUM"),
    (Converted::Decimal, "DECIMAL"),
    (Converted::Date, "DATE"),
    (Converted::TimeMillis, "TIME_MILLIS"),
    (Converted::TimeMicros, "TIME_MICROS"),
    (Converted::TimestampMillis, "TIMESTAMP_MILLIS"),
    (Converted::TimestampMicros, "TIMESTAMP_MICROS"),
    (Converted::Uint8, "UINT_8"),
    (Converted::Uint16, "UINT_16"),
    (Converted::Uint32, "UINT_32"),
    (Converted::Uint64, "UINT_64"),
    (Converted::Int8, "INT_8"),
    (Converted::Int16, "INT_16"),
    (Converted::Int32, "INT_32"),
    (Converted::Int64, "INT_64"),
    (Converted::Json, "JSON"),
    (Converted::Bson, "BSON"),
    (Converted::Interval, "INTERVAL"),
];

impl Converted {
    /// Parquet's name: `UTF8`, `TIMESTAMP_MICROS`, `INT_8`, ... (`NONE` for none).
    pub fn name(self) -> &'static str {
        CONVERTED
            .iter()
            .find(|(c, _)| *c == self)
            .map_or("NONE", |(_, name)| name)
    }

    /// Parses an upper-case name (not `NONE`).
    pub fn from_name(name: &str) -> Option<Self> {
        CONVERTED.iter().find(|(_, n)| *n == name).map(|(c, _)| *c)
    }

    /// The value of the thrift enum `ConvertedType`.
    pub fn from_thrift(value: i32) -> Option<Self> {
        let index = usize::try_from(value).ok()?;
        CONVERTED.get(index).map(|(c, _)| *c)
    }

    /// The converted type writers store next to a logical type, for old readers
    /// (as the `parquet` crate derives it); `None` when there is none.
    pub fn from_logical(logical: &Logical) -> Self {
        match logical {
            Logical::String => Converted::Utf8,
            Logical::Map => Converted::Map,
            Logical::List => Converted::List,
            Logical::Enum => Converted::Enum,
            Logical::Decimal { .. } => Converted::Decimal,
            Logical::Date => Converted::Date,
            Logical::Time { unit, .. } => match unit {
                TimeUnit::Millis => Converted::TimeMillis,
                TimeUnit::Micros => Converted::TimeMicros,
                TimeUnit::Nanos => Converted::None,
            },
            Logical::Timestamp { unit, .. } => match unit {
                TimeUnit::Millis => Converted::TimestampMillis,
                TimeUnit::Micros => Converted::TimestampMicros,
                TimeUnit::Nanos => Converted::None,
            },
            Logical::Integer { bits, signed } => match (bits, signed) {
                (8, true) => Converted::Int8,
                (16, true) => Converted::Int16,
                (32, true) => Converted::Int32,
                (64, true) => Converted::Int64,
                (8, false) => Converted::Uint8,
                (16, false) => Converted::Uint16,
                (32, false) => Converted::Uint32,
                (64, false) => Converted::Uint64,
                _ => Converted::None,
            },
            Logical::Json => Converted::Json,
            Logical::Bson => Converted::Bson,
            Logical::Unknown | Logical::Uuid | Logical::Float16 | Logical::Other(_) => {
                Converted::None
            }
        }
    }
}

/// One leaf (primitive) column, as the rules see it.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Column {
    /// The storage type.
    pub physical: Physical,
    /// The length of a FIXED_LEN_BYTE_ARRAY (meaningless for other types).
    pub length: i32,
    /// REQUIRED, OPTIONAL or REPEATED.
    pub repetition: Repetition,
    /// The logical type, if the writer set one.
    pub logical: Option<Logical>,
    /// The legacy converted type ([`Converted::None`] if the writer set none).
    pub converted: Converted,
    /// DECIMAL precision (-1 when not set).
    pub precision: i32,
    /// DECIMAL scale (-1 when not set).
    pub scale: i32,
}

impl Column {
    /// A column of `physical` type with no annotation.
    pub fn new(physical: Physical, repetition: Repetition) -> Self {
        Column {
            physical,
            length: -1,
            repetition,
            logical: None,
            converted: Converted::None,
            precision: -1,
            scale: -1,
        }
    }

    /// Describes the column for messages: `REQUIRED DOUBLE`,
    /// `OPTIONAL INT64 (TIMESTAMP(MICROS, UTC))`, `REQUIRED BYTE_ARRAY (UTF8)`,
    /// `REQUIRED FIXED_LEN_BYTE_ARRAY(16) (UUID)`.
    pub fn describe(&self) -> String {
        let mut s = format!("{} {}", self.repetition, self.physical);
        if self.physical == Physical::FixedLenByteArray {
            let _ = write!(s, "({})", self.length);
        }
        match &self.logical {
            Some(logical) => {
                let _ = write!(s, " ({})", logical.describe());
            }
            None if self.converted != Converted::None => {
                let _ = write!(s, " ({})", self.converted.name());
            }
            None => {}
        }
        s
    }

    /// The integer annotation of an INT32/INT64 column: (bits, signed).
    ///
    /// Un-annotated INT32 is a signed 32-bit integer, INT64 a signed 64-bit one.
    /// `None` for other physical types and for annotations that are not plain
    /// integers (dates, decimals, ...).
    pub fn integer(&self) -> Option<(u8, bool)> {
        let plain_bits = match self.physical {
            Physical::Int32 => 32,
            Physical::Int64 => 64,
            _ => return None,
        };
        match &self.logical {
            Some(Logical::Integer { bits, signed }) => {
                return u8::try_from(*bits).ok().map(|b| (b, *signed))
            }
            Some(_) => return None,
            None => {}
        }
        match self.converted {
            Converted::None => Some((plain_bits, true)),
            Converted::Int8 => Some((8, true)),
            Converted::Int16 => Some((16, true)),
            Converted::Int32 => Some((32, true)),
            Converted::Int64 => Some((64, true)),
            Converted::Uint8 => Some((8, false)),
            Converted::Uint16 => Some((16, false)),
            Converted::Uint32 => Some((32, false)),
            Converted::Uint64 => Some((64, false)),
            _ => None,
        }
    }

    /// Whether the column is annotated as an unsigned integer.
    pub fn is_unsigned(&self) -> bool {
        self.integer().is_some_and(|(_, signed)| !signed)
    }

    /// The annotated width and signedness of an INT32 column annotated
    /// INT(8|16, _) (`INT_8`, `UINT_16`, ...): every integer field reads its
    /// values from that many low bits, as pyarrow does. `None` otherwise.
    pub fn narrow_int32(&self) -> Option<(u8, bool)> {
        match self.integer() {
            Some((bits @ (8 | 16), signed)) if self.physical == Physical::Int32 => {
                Some((bits, signed))
            }
            _ => None,
        }
    }

    /// Whether a field of `bits`/`signed` holds every value of the column's
    /// integer annotation without loss: same signedness and no more bits, or an
    /// unsigned column into a strictly wider signed field. `physical` lists the
    /// physical types the field's decoder reads.
    pub fn integer_fits(&self, physical: &[Physical], bits: u8, signed: bool) -> bool {
        if !physical.contains(&self.physical) {
            return false;
        }
        match self.integer() {
            Some((col_bits, col_signed)) => {
                (col_signed == signed && col_bits <= bits)
                    || (!col_signed && signed && col_bits < bits)
            }
            None => false,
        }
    }

    /// Dates stored in INT32 (days since the epoch).
    pub fn is_date(&self) -> bool {
        self.physical == Physical::Int32
            && match &self.logical {
                Some(logical) => *logical == Logical::Date,
                None => self.converted == Converted::Date,
            }
    }

    /// The unit of a TIME column: INT32 for milliseconds, INT64 for micro- and
    /// nanoseconds.
    pub fn time_unit(&self) -> Option<TimeUnit> {
        let unit = match &self.logical {
            Some(Logical::Time { unit, .. }) => *unit,
            Some(_) => return None,
            None => match self.converted {
                Converted::TimeMillis => TimeUnit::Millis,
                Converted::TimeMicros => TimeUnit::Micros,
                _ => return None,
            },
        };
        let physical = if unit == TimeUnit::Millis {
            Physical::Int32
        } else {
            Physical::Int64
        };
        (self.physical == physical).then_some(unit)
    }

    /// The unit and UTC flag of an INT64 TIMESTAMP column (legacy converted
    /// types are UTC-adjusted), or nanoseconds and not adjusted for INT96.
    pub fn timestamp(&self) -> Option<(TimeUnit, bool)> {
        match self.physical {
            Physical::Int96 => return Some((TimeUnit::Nanos, false)),
            Physical::Int64 => {}
            _ => return None,
        }
        match &self.logical {
            Some(Logical::Timestamp { unit, utc }) => Some((*unit, *utc)),
            Some(_) => None,
            None => match self.converted {
                Converted::TimestampMillis => Some((TimeUnit::Millis, true)),
                Converted::TimestampMicros => Some((TimeUnit::Micros, true)),
                _ => None,
            },
        }
    }

    /// Whether a BYTE_ARRAY column holds UTF-8 text (STRING/UTF8, ENUM or JSON).
    pub fn is_text(&self) -> bool {
        if self.physical != Physical::ByteArray {
            return false;
        }
        match &self.logical {
            Some(logical) => matches!(logical, Logical::String | Logical::Enum | Logical::Json),
            None => matches!(
                self.converted,
                Converted::Utf8 | Converted::Enum | Converted::Json
            ),
        }
    }

    /// Whether the column is BYTE_ARRAY or FIXED_LEN_BYTE_ARRAY.
    pub fn is_bytes(&self) -> bool {
        matches!(
            self.physical,
            Physical::ByteArray | Physical::FixedLenByteArray
        )
    }

    /// Whether the column is a DECIMAL on one of the physical types that can
    /// hold one.
    pub fn is_decimal(&self) -> bool {
        let annotated = match &self.logical {
            Some(logical) => matches!(logical, Logical::Decimal { .. }),
            None => self.converted == Converted::Decimal,
        };
        annotated
            && matches!(
                self.physical,
                Physical::Int32
                    | Physical::Int64
                    | Physical::ByteArray
                    | Physical::FixedLenByteArray
            )
    }

    /// Whether the column is FIXED_LEN_BYTE_ARRAY of exactly `n` bytes.
    pub fn is_fixed(&self, n: usize) -> bool {
        self.physical == Physical::FixedLenByteArray && usize::try_from(self.length) == Ok(n)
    }

    /// Whether the column is FLOAT16 (FIXED_LEN_BYTE_ARRAY(2)).
    pub fn is_float16(&self) -> bool {
        self.is_fixed(2) && self.logical == Some(Logical::Float16)
    }

    /// The annotation as schema text writes it (`TIMESTAMP(MICROS, true)`,
    /// `UTF8`, `DECIMAL(9, 2)`), if any.
    pub fn annotation_text(&self) -> Option<String> {
        if let Some(text) = self.logical.as_ref().and_then(Logical::to_schema_text) {
            return Some(text);
        }
        match self.converted {
            Converted::None => None,
            Converted::Decimal => Some(format!("DECIMAL({}, {})", self.precision, self.scale)),
            other => Some(other.name().to_owned()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn describe_prints_the_annotation_that_decides() {
        let mut c = Column::new(Physical::Double, Repetition::Required);
        assert_eq!(c.describe(), "REQUIRED DOUBLE");
        c.physical = Physical::Int64;
        c.repetition = Repetition::Optional;
        c.logical = Some(Logical::Timestamp {
            unit: TimeUnit::Micros,
            utc: true,
        });
        c.converted = Converted::TimestampMicros;
        assert_eq!(c.describe(), "OPTIONAL INT64 (TIMESTAMP(MICROS, UTC))");
        c.logical = None;
        assert_eq!(c.describe(), "OPTIONAL INT64 (TIMESTAMP_MICROS)");
        let mut f = Column::new(Physical::FixedLenByteArray, Repetition::Required);
        f.length = 16;
        f.logical = Some(Logical::Uuid);
        assert_eq!(f.describe(), "REQUIRED FIXED_LEN_BYTE_ARRAY(16) (UUID)");
    }

    #[test]
    fn converted_names_round_trip() {
        for (i, (converted, name)) in CONVERTED.iter().enumerate() {
            assert_eq!(Converted::from_name(name), Some(*converted));
            assert_eq!(converted.name(), *name);
            assert_eq!(Converted::from_thrift(i as i32), Some(*converted));
        }
        assert_eq!(Converted::None.name(), "NONE");
        assert_eq!(Converted::from_thrift(22), None);
        assert_eq!(Converted::from_thrift(-1), None);
    }

    #[test]
    fn integer_annotations() {
        let mut c = Column::new(Physical::Int32, Repetition::Required);
        assert_eq!(c.integer(), Some((32, true)));
        c.converted = Converted::Uint16;
        assert_eq!(c.integer(), Some((16, false)));
        assert!(c.integer_fits(&[Physical::Int32], 32, true));
        assert!(!c.integer_fits(&[Physical::Int32], 16, true));
        assert!(c.integer_fits(&[Physical::Int32], 16, false));
        c.logical = Some(Logical::Date);
        assert_eq!(c.integer(), None);
    }
}
