//! Which Rust field types read which columns: [`FieldKind`], [`check`] and
//! [`suggest`].

use crate::column::{Column, Physical};

/// A supported Rust field type, as far as the rules care: one variant per type
/// (`Option<T>` is `T`'s kind plus nullability, see [`crate::Field`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum FieldKind {
    /// `bool`
    Bool,
    /// `i8`
    I8,
    /// `i16`
    I16,
    /// `i32`
    I32,
    /// `i64`
    I64,
    /// `u8`
    U8,
    /// `u16`
    U16,
    /// `u32`
    U32,
    /// `u64`
    U64,
    /// `i128` (a DECIMAL's unscaled value)
    I128,
    /// `f32`
    F32,
    /// `f64`
    F64,
    /// `&str`
    Str,
    /// `String`
    String,
    /// `Box<str>`
    BoxStr,
    /// `Arc<str>`
    ArcStr,
    /// `compact_str::CompactString` (feature `compact_str` of parquet-rows)
    CompactString,
    /// `&[u8]`
    ByteSlice,
    /// `Vec<u8>`
    ByteVec,
    /// `bytes::Bytes`
    Bytes,
    /// `[u8; N]`
    FixedBytes(usize),
    /// `parquet_rows::Timestamp`
    Timestamp,
    /// `parquet_rows::Date`
    Date,
    /// `parquet_rows::Time`
    Time,
    /// `parquet_rows::Int96`
    Int96,
    /// `parquet_rows::Decimal`
    Decimal,
    /// `chrono::DateTime<chrono::Utc>`
    ChronoDateTimeUtc,
    /// `chrono::NaiveDateTime`
    ChronoNaiveDateTime,
    /// `chrono::NaiveDate`
    ChronoNaiveDate,
    /// `chrono::NaiveTime`
    ChronoNaiveTime,
    /// `rust_decimal::Decimal`
    RustDecimal,
    /// `half::f16`
    F16,
    /// `uuid::Uuid`
    Uuid,
    /// `Option<Option<_>>`: reads nothing.
    NestedOption,
}

/// How each field type is spelled in source, for the derive's compile-time
/// check ([`crate::recognize`]): names that cannot mean anything else in
/// practice, written without whitespace. `&str`, `&[u8]`, `[u8; N]` and
/// `Option<_>` are recognised by their shape instead.
///
/// A new built-in field type adds its variant above, its row here, its arm in
/// [`FieldKind::reads`] and its text in [`expected`]: everything the rules
/// know about a type lives in this file.
pub(crate) const NAMES: &[(&str, FieldKind)] = &[
    ("bool", FieldKind::Bool),
    ("i8", FieldKind::I8),
    ("i16", FieldKind::I16),
    ("i32", FieldKind::I32),
    ("i64", FieldKind::I64),
    ("u8", FieldKind::U8),
    ("u16", FieldKind::U16),
    ("u32", FieldKind::U32),
    ("u64", FieldKind::U64),
    ("i128", FieldKind::I128),
    ("f32", FieldKind::F32),
    ("f64", FieldKind::F64),
    ("String", FieldKind::String),
    ("std::string::String", FieldKind::String),
    ("alloc::string::String", FieldKind::String),
    ("Box<str>", FieldKind::BoxStr),
    ("std::boxed::Box<str>", FieldKind::BoxStr),
    ("alloc::boxed::Box<str>", FieldKind::BoxStr),
    ("Arc<str>", FieldKind::ArcStr),
    ("std::sync::Arc<str>", FieldKind::ArcStr),
    ("alloc::sync::Arc<str>", FieldKind::ArcStr),
    ("CompactString", FieldKind::CompactString),
    ("compact_str::CompactString", FieldKind::CompactString),
    ("Vec<u8>", FieldKind::ByteVec),
    ("std::vec::Vec<u8>", FieldKind::ByteVec),
    ("alloc::vec::Vec<u8>", FieldKind::ByteVec),
    ("bytes::Bytes", FieldKind::Bytes),
    (
        "chrono::DateTime<chrono::Utc>",
        FieldKind::ChronoDateTimeUtc,
    ),
    ("chrono::DateTime<Utc>", FieldKind::ChronoDateTimeUtc),
    (
        "chrono::DateTime<chrono::offset::Utc>",
        FieldKind::ChronoDateTimeUtc,
    ),
    ("chrono::NaiveDateTime", FieldKind::ChronoNaiveDateTime),
    (
        "chrono::naive::NaiveDateTime",
        FieldKind::ChronoNaiveDateTime,
    ),
    ("chrono::NaiveDate", FieldKind::ChronoNaiveDate),
    ("chrono::naive::NaiveDate", FieldKind::ChronoNaiveDate),
    ("chrono::NaiveTime", FieldKind::ChronoNaiveTime),
    ("chrono::naive::NaiveTime", FieldKind::ChronoNaiveTime),
    ("rust_decimal::Decimal", FieldKind::RustDecimal),
    ("half::f16", FieldKind::F16),
    ("uuid::Uuid", FieldKind::Uuid),
];

/// The runtime crate's own field types, spelled after its path
/// (`parquet_rows::Timestamp`, or the path `#[parquet(crate = "...")]` gives).
pub(crate) const RUNTIME_NAMES: &[(&str, FieldKind)] = &[
    ("Timestamp", FieldKind::Timestamp),
    ("Date", FieldKind::Date),
    ("Time", FieldKind::Time),
    ("Int96", FieldKind::Int96),
    ("Decimal", FieldKind::Decimal),
];

/// What each field type reads; the `expected` part of mismatch messages.
pub mod expected {
    #![allow(missing_docs)] // each constant is named after its field type
    pub const BOOL: &str = "BOOLEAN";
    pub const I8: &str = "INT32 annotated INT(8, signed)";
    pub const I16: &str = "INT32 annotated INT(8|16, signed) or INT(8, unsigned)";
    pub const I32: &str =
        "INT32, plain or annotated INT(8|16|32, signed), INT(8|16, unsigned), DATE or TIME(MILLIS)";
    pub const I64: &str =
        "INT64 or INT32 holding integers that fit (not INT(64, unsigned)), TIMESTAMP, DATE or TIME";
    pub const U8: &str = "INT32 annotated INT(8, unsigned)";
    pub const U16: &str = "INT32 annotated INT(8|16, unsigned)";
    pub const U32: &str = "INT32 annotated INT(8|16|32, unsigned)";
    pub const U64: &str = "INT64 or INT32 annotated INT(_, unsigned)";
    pub const F32: &str = "FLOAT";
    pub const F64: &str = "DOUBLE or FLOAT";
    pub const STR: &str = "BYTE_ARRAY annotated STRING, ENUM or JSON";
    pub const BYTES: &str = "BYTE_ARRAY or FIXED_LEN_BYTE_ARRAY";
    pub const TIMESTAMP: &str = "INT64 annotated TIMESTAMP, or INT96";
    pub const DATE: &str = "INT32 annotated DATE";
    pub const TIME: &str = "INT32 annotated TIME(MILLIS) or INT64 annotated TIME(MICROS|NANOS)";
    pub const INT96: &str = "INT96";
    pub const DECIMAL: &str = "DECIMAL (on INT32, INT64, BYTE_ARRAY or FIXED_LEN_BYTE_ARRAY)";
    pub const FIXED: &str = "FIXED_LEN_BYTE_ARRAY of the array's length";
    pub const CHRONO_INSTANT: &str = "INT64 annotated TIMESTAMP(isAdjustedToUTC = true), or INT96";
    pub const CHRONO_LOCAL: &str = "INT64 annotated TIMESTAMP, or INT96";
    pub const CHRONO_DATE: &str = "INT32 annotated DATE";
    pub const CHRONO_TIME: &str = "TIME";
    pub const RUST_DECIMAL: &str = "DECIMAL with scale <= 28 and values within 96 bits";
    pub const F16: &str = "FIXED_LEN_BYTE_ARRAY(2) annotated FLOAT16";
    pub const UUID: &str = "FIXED_LEN_BYTE_ARRAY(16), annotated UUID or not";
    pub const NESTED_OPTION: &str =
        "a non-`Option` inner type (`Option<Option<_>>` is not supported)";
}

const INT32: &[Physical] = &[Physical::Int32];
const INT_ANY: &[Physical] = &[Physical::Int32, Physical::Int64];

impl FieldKind {
    /// Whether a field of this kind can read `column`'s values (repetition is
    /// checked separately, see [`crate::Schema::bind`]).
    pub fn reads(self, c: &Column) -> bool {
        if c.logical == Some(crate::Logical::Unknown) {
            // UNKNOWN (Arrow's null type): every value is null, so any field
            // that reads the plain physical type reads it (as `None`s).
            let plain = Column {
                logical: None,
                converted: crate::Converted::None,
                ..c.clone()
            };
            return self.reads(&plain);
        }
        match self {
            FieldKind::Bool => c.physical == Physical::Boolean,
            FieldKind::F32 => c.physical == Physical::Float,
            FieldKind::F64 => matches!(c.physical, Physical::Double | Physical::Float),
            FieldKind::I8 => c.integer_fits(INT32, 8, true),
            FieldKind::I16 => c.integer_fits(INT32, 16, true),
            FieldKind::I32 => {
                c.integer_fits(INT32, 32, true)
                    || c.is_date()
                    || c.time_unit().is_some() && c.physical == Physical::Int32
            }
            FieldKind::I64 => {
                c.integer_fits(INT_ANY, 64, true)
                    || c.is_date()
                    || c.time_unit().is_some()
                    || c.timestamp().is_some() && c.physical == Physical::Int64
            }
            FieldKind::U8 => c.integer_fits(INT32, 8, false),
            FieldKind::U16 => c.integer_fits(INT32, 16, false),
            FieldKind::U32 => c.integer_fits(INT32, 32, false),
            FieldKind::U64 => c.integer_fits(INT_ANY, 64, false),
            FieldKind::Str
            | FieldKind::String
            | FieldKind::BoxStr
            | FieldKind::ArcStr
            | FieldKind::CompactString => c.is_text(),
            FieldKind::ByteSlice | FieldKind::ByteVec | FieldKind::Bytes => c.is_bytes(),
            FieldKind::FixedBytes(n) => c.is_fixed(n),
            FieldKind::Timestamp | FieldKind::ChronoNaiveDateTime => c.timestamp().is_some(),
            FieldKind::Date | FieldKind::ChronoNaiveDate => c.is_date(),
            FieldKind::Time | FieldKind::ChronoNaiveTime => c.time_unit().is_some(),
            FieldKind::Int96 => c.physical == Physical::Int96,
            FieldKind::Decimal | FieldKind::I128 => c.is_decimal(),
            // INT96 has no UTC flag but Spark, Hive and Impala wrote instants with it.
            FieldKind::ChronoDateTimeUtc => c
                .timestamp()
                .is_some_and(|(_, utc)| utc || c.physical == Physical::Int96),
            FieldKind::RustDecimal => c.is_decimal() && (0..=28).contains(&c.scale),
            FieldKind::F16 => c.is_float16(),
            FieldKind::Uuid => c.is_fixed(16),
            FieldKind::NestedOption => false,
        }
    }

    /// What a field of this kind reads, for messages.
    pub const fn expected(self) -> &'static str {
        match self {
            FieldKind::Bool => expected::BOOL,
            FieldKind::I8 => expected::I8,
            FieldKind::I16 => expected::I16,
            FieldKind::I32 => expected::I32,
            FieldKind::I64 => expected::I64,
            FieldKind::U8 => expected::U8,
            FieldKind::U16 => expected::U16,
            FieldKind::U32 => expected::U32,
            FieldKind::U64 => expected::U64,
            FieldKind::F32 => expected::F32,
            FieldKind::F64 => expected::F64,
            FieldKind::Str
            | FieldKind::String
            | FieldKind::BoxStr
            | FieldKind::ArcStr
            | FieldKind::CompactString => expected::STR,
            FieldKind::ByteSlice | FieldKind::ByteVec | FieldKind::Bytes => expected::BYTES,
            FieldKind::FixedBytes(_) => expected::FIXED,
            FieldKind::Timestamp => expected::TIMESTAMP,
            FieldKind::Date => expected::DATE,
            FieldKind::Time => expected::TIME,
            FieldKind::Int96 => expected::INT96,
            FieldKind::Decimal | FieldKind::I128 => expected::DECIMAL,
            FieldKind::ChronoDateTimeUtc => expected::CHRONO_INSTANT,
            FieldKind::ChronoNaiveDateTime => expected::CHRONO_LOCAL,
            FieldKind::ChronoNaiveDate => expected::CHRONO_DATE,
            FieldKind::ChronoNaiveTime => expected::CHRONO_TIME,
            FieldKind::RustDecimal => expected::RUST_DECIMAL,
            FieldKind::F16 => expected::F16,
            FieldKind::Uuid => expected::UUID,
            FieldKind::NestedOption => expected::NESTED_OPTION,
        }
    }
}

/// Checks that a field of `kind` can read `column`'s values; on a mismatch,
/// returns what the field reads (e.g. `"FLOAT"`).
///
/// Repetition is not checked here (see [`crate::Schema::bind`]).
pub fn check(kind: FieldKind, column: &Column) -> Result<(), &'static str> {
    if kind.reads(column) {
        Ok(())
    } else {
        Err(kind.expected())
    }
}

/// The field types that read `column`, best first, to suggest in mismatch
/// messages: plain type names (`["parquet_rows::Timestamp", "i64"]`), which
/// the messages put between backticks. `None` when no field type reads it.
pub fn suggest(column: &Column) -> Option<&'static [&'static str]> {
    if column.is_decimal() {
        return Some(&["parquet_rows::Decimal"]);
    }
    if column.timestamp().is_some() {
        return Some(if column.physical == Physical::Int96 {
            &["parquet_rows::Timestamp", "parquet_rows::Int96"]
        } else {
            &["parquet_rows::Timestamp", "i64"]
        });
    }
    Some(match column.physical {
        Physical::Boolean => &["bool"],
        Physical::Float => &["f32"],
        Physical::Double => &["f64"],
        Physical::ByteArray if column.is_text() => &["&str", "String"],
        Physical::ByteArray => &["&[u8]", "Vec<u8>"],
        Physical::FixedLenByteArray => &["&[u8]", "Vec<u8>", "[u8; N]"],
        Physical::Int32 if column.is_date() => &["parquet_rows::Date", "i32"],
        Physical::Int32 | Physical::Int64 if column.time_unit().is_some() => {
            &["parquet_rows::Time", "i64"]
        }
        Physical::Int32 | Physical::Int64 => match column.integer()? {
            (8, true) => &["i8"],
            (16, true) => &["i16"],
            (32, true) => &["i32"],
            (64, true) => &["i64"],
            (8, false) => &["u8"],
            (16, false) => &["u16"],
            (32, false) => &["u32"],
            (64, false) => &["u64"],
            _ => return None,
        },
        Physical::Int96 => &["parquet_rows::Timestamp", "parquet_rows::Int96"],
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::column::{Converted, Logical, Repetition, TimeUnit};

    #[test]
    fn suggestion_reads_the_column() {
        let double = Column::new(Physical::Double, Repetition::Required);
        assert_eq!(check(FieldKind::F32, &double), Err("FLOAT"));
        assert_eq!(suggest(&double), Some(&["f64"][..]));
        assert_eq!(check(FieldKind::F64, &double), Ok(()));

        let mut local = Column::new(Physical::Int64, Repetition::Required);
        local.logical = Some(Logical::Timestamp {
            unit: TimeUnit::Micros,
            utc: false,
        });
        local.converted = Converted::TimestampMicros;
        assert_eq!(
            suggest(&local),
            Some(&["parquet_rows::Timestamp", "i64"][..])
        );
        assert!(FieldKind::I64.reads(&local));
        assert!(FieldKind::Timestamp.reads(&local));
        assert!(!FieldKind::Int96.reads(&local));
    }
}
