//! What a column *is*, in the terms the field rules use: integer annotations,
//! temporal annotations, text, decimals. Every rule reads the column's logical
//! type first and falls back to the legacy converted type.

use parquet::basic::{
    ConvertedType, IntType, LogicalType, TimeType, TimeUnit, TimestampType, Type,
};
use parquet::schema::types::ColumnDescriptor;

use crate::types::Unit;

/// The integer annotation of an INT32/INT64 column: (bits, signed).
///
/// Un-annotated INT32 is a signed 32-bit integer, INT64 a signed 64-bit one.
/// `None` for other physical types and for annotations that are not plain
/// integers (dates, decimals, ...).
pub(crate) fn integer_annotation(column: &ColumnDescriptor) -> Option<(u8, bool)> {
    let plain_bits = match column.physical_type() {
        Type::INT32 => 32,
        Type::INT64 => 64,
        _ => return None,
    };
    match column.logical_type_ref() {
        Some(LogicalType::Integer(IntType {
            bit_width,
            is_signed,
        })) => return u8::try_from(*bit_width).ok().map(|b| (b, *is_signed)),
        Some(_) => return None,
        None => {}
    }
    match column.converted_type() {
        ConvertedType::NONE => Some((plain_bits, true)),
        ConvertedType::INT_8 => Some((8, true)),
        ConvertedType::INT_16 => Some((16, true)),
        ConvertedType::INT_32 => Some((32, true)),
        ConvertedType::INT_64 => Some((64, true)),
        ConvertedType::UINT_8 => Some((8, false)),
        ConvertedType::UINT_16 => Some((16, false)),
        ConvertedType::UINT_32 => Some((32, false)),
        ConvertedType::UINT_64 => Some((64, false)),
        _ => None,
    }
}

/// Whether the column is annotated as an unsigned integer.
pub(crate) fn is_unsigned(column: &ColumnDescriptor) -> bool {
    integer_annotation(column).is_some_and(|(_, signed)| !signed)
}

/// Whether a field of `bits`/`signed` holds every value of the column's integer
/// annotation without loss: same signedness and no more bits, or an unsigned
/// column into a strictly wider signed field. `physical` lists the physical
/// types the field's decoder reads.
pub(crate) fn integer_fits(
    column: &ColumnDescriptor,
    physical: &[Type],
    bits: u8,
    signed: bool,
) -> bool {
    if !physical.contains(&column.physical_type()) {
        return false;
    }
    match integer_annotation(column) {
        Some((col_bits, col_signed)) => {
            (col_signed == signed && col_bits <= bits) || (!col_signed && signed && col_bits < bits)
        }
        None => false,
    }
}

/// Dates stored in INT32 (days since the epoch).
pub(crate) fn is_date(column: &ColumnDescriptor) -> bool {
    column.physical_type() == Type::INT32
        && match column.logical_type_ref() {
            Some(logical) => matches!(logical, LogicalType::Date),
            None => column.converted_type() == ConvertedType::DATE,
        }
}

/// The unit of a TIME column: INT32 for milliseconds, INT64 for micro- and nanoseconds.
pub(crate) fn time_unit(column: &ColumnDescriptor) -> Option<Unit> {
    let unit = match column.logical_type_ref() {
        Some(LogicalType::Time(TimeType { unit, .. })) => Unit::from(unit),
        Some(_) => return None,
        None => match column.converted_type() {
            ConvertedType::TIME_MILLIS => Unit::Millis,
            ConvertedType::TIME_MICROS => Unit::Micros,
            _ => return None,
        },
    };
    let physical = if unit == Unit::Millis {
        Type::INT32
    } else {
        Type::INT64
    };
    (column.physical_type() == physical).then_some(unit)
}

/// The unit and UTC flag of an INT64 TIMESTAMP column (legacy converted types
/// are UTC-adjusted), or nanoseconds and not adjusted for INT96.
pub(crate) fn timestamp_unit(column: &ColumnDescriptor) -> Option<(Unit, bool)> {
    match column.physical_type() {
        Type::INT96 => return Some((Unit::Nanos, false)),
        Type::INT64 => {}
        _ => return None,
    }
    match column.logical_type_ref() {
        Some(LogicalType::Timestamp(TimestampType {
            is_adjusted_to_u_t_c,
            unit,
        })) => Some((Unit::from(unit), *is_adjusted_to_u_t_c)),
        Some(_) => None,
        None => match column.converted_type() {
            ConvertedType::TIMESTAMP_MILLIS => Some((Unit::Millis, true)),
            ConvertedType::TIMESTAMP_MICROS => Some((Unit::Micros, true)),
            _ => None,
        },
    }
}

/// Whether a BYTE_ARRAY column holds UTF-8 text (STRING/UTF8, ENUM or JSON).
pub(crate) fn is_text(column: &ColumnDescriptor) -> bool {
    if column.physical_type() != Type::BYTE_ARRAY {
        return false;
    }
    match column.logical_type_ref() {
        Some(LogicalType::String | LogicalType::Enum | LogicalType::Json) => true,
        Some(_) => false,
        None => matches!(
            column.converted_type(),
            ConvertedType::UTF8 | ConvertedType::ENUM | ConvertedType::JSON
        ),
    }
}

/// Whether a column is BYTE_ARRAY or FIXED_LEN_BYTE_ARRAY.
pub(crate) fn is_bytes(column: &ColumnDescriptor) -> bool {
    matches!(
        column.physical_type(),
        Type::BYTE_ARRAY | Type::FIXED_LEN_BYTE_ARRAY
    )
}

/// Whether a column is a DECIMAL on one of the physical types that can hold one.
pub(crate) fn is_decimal(column: &ColumnDescriptor) -> bool {
    let annotated = match column.logical_type_ref() {
        Some(logical) => matches!(logical, LogicalType::Decimal(_)),
        None => column.converted_type() == ConvertedType::DECIMAL,
    };
    annotated
        && matches!(
            column.physical_type(),
            Type::INT32 | Type::INT64 | Type::BYTE_ARRAY | Type::FIXED_LEN_BYTE_ARRAY
        )
}

/// Whether a column is FIXED_LEN_BYTE_ARRAY of exactly `n` bytes.
pub(crate) fn is_fixed(column: &ColumnDescriptor, n: usize) -> bool {
    column.physical_type() == Type::FIXED_LEN_BYTE_ARRAY
        && usize::try_from(column.type_length()) == Ok(n)
}

/// Whether a column is FLOAT16 (FIXED_LEN_BYTE_ARRAY(2)).
#[cfg_attr(not(feature = "half"), allow(dead_code))]
pub(crate) fn is_float16(column: &ColumnDescriptor) -> bool {
    is_fixed(column, 2) && matches!(column.logical_type_ref(), Some(LogicalType::Float16))
}

impl From<&TimeUnit> for Unit {
    fn from(unit: &TimeUnit) -> Self {
        match unit {
            TimeUnit::MILLIS => Unit::Millis,
            TimeUnit::MICROS => Unit::Micros,
            TimeUnit::NANOS => Unit::Nanos,
        }
    }
}
