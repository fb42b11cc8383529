//! Which Rust field types can read which Parquet columns, and how values convert.
//!
//! Each supported field type implements [`ParquetField`]: it names the physical
//! type it decodes from, checks a column's type once per file (at bind time), and
//! converts decoded values. The table in the crate docs is generated from the
//! `expected` strings below, so the docs and the checks cannot drift apart.

use parquet::basic::{ConvertedType, IntType, LogicalType, TimeType, TimeUnit, Type};
use parquet::schema::types::ColumnDescriptor;

use crate::column::ColumnReader;
use crate::error::Result;
use crate::physical::{Boolean, ByteArray, Double, Float, Int32, Int64, Physical, Utf8};

/// A Rust type that can be a field of a `#[derive(ParquetRow)]` struct.
///
/// `'p` is the lifetime of the decompressed pages: borrowed types (`&'p str`,
/// `&'p [u8]`) point into them. Implemented for `bool`, `i8`–`i64`, `u8`–`u64`,
/// `f32`, `f64`, `&str`, `String`, `&[u8]`, `Vec<u8>` and `Option<T>` of each.
///
/// The methods are used by the code `#[derive(ParquetRow)]` generates; you do not
/// call them yourself.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be a field of a `#[derive(ParquetRow)]` struct",
    label = "unsupported field type",
    note = "supported field types: bool, i8, i16, i32, i64, u8, u16, u32, u64, f32, f64, &str, String, &[u8], Vec<u8>, and Option<_> of each",
    note = "borrowed fields (`&str`, `&[u8]`) must use the struct's lifetime parameter; use #[parquet(skip)] for a field that is not in the file"
)]
pub trait ParquetField<'p>: Sized {
    /// The physical type this field decodes from.
    type Physical: Physical;
    /// Whether the field can hold a null (only `Option<_>`).
    const NULLABLE: bool = false;
    /// Checks, once per file, that this field can read `column`; on a mismatch
    /// returns what the field expected (e.g. `"DOUBLE"`).
    ///
    /// Repetition is checked by the binder; this checks types only.
    fn check(column: &ColumnDescriptor) -> Result<(), &'static str>;
    /// Converts one decoded value, or says why it does not fit.
    fn convert(value: <Self::Physical as Physical>::Value<'p>) -> Result<Self, String>;
    /// Appends exactly `n` values from `reader` to `out`.
    fn read(
        reader: &mut ColumnReader<'p, Self::Physical>,
        n: usize,
        out: &mut Vec<Self>,
    ) -> Result<()> {
        reader.read_map(n, out, Self::convert)
    }
}

impl<'p, T: ParquetField<'p>> ParquetField<'p> for Option<T> {
    type Physical = T::Physical;
    const NULLABLE: bool = true;
    fn check(column: &ColumnDescriptor) -> Result<(), &'static str> {
        if T::NULLABLE {
            return Err("a non-`Option` inner type (`Option<Option<_>>` is not supported)");
        }
        T::check(column)
    }
    fn convert(value: <T::Physical as Physical>::Value<'p>) -> Result<Self, String> {
        T::convert(value).map(Some)
    }
    fn read(
        reader: &mut ColumnReader<'p, T::Physical>,
        n: usize,
        out: &mut Vec<Self>,
    ) -> Result<()> {
        reader.read_optional(n, out, T::convert)
    }
}

/// The integer annotation of an INT32/INT64 column: (bits, signed).
///
/// Un-annotated INT32 is a signed 32-bit integer, INT64 a signed 64-bit one.
/// `None` for annotations that are not plain integers (dates, decimals, ...).
fn integer_annotation(column: &ColumnDescriptor) -> Option<(u8, bool)> {
    let plain_bits = if column.physical_type() == Type::INT64 {
        64
    } else {
        32
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

/// Whether a field of `bits`/`signed` holds every value of the column's integer
/// annotation without loss: same signedness and no more bits, or an unsigned
/// column into a strictly wider signed field.
fn integer_fits(column: &ColumnDescriptor, physical: Type, bits: u8, signed: bool) -> bool {
    if column.physical_type() != physical {
        return false;
    }
    match integer_annotation(column) {
        Some((col_bits, col_signed)) => {
            (col_signed == signed && col_bits <= bits) || (!col_signed && signed && col_bits < bits)
        }
        None => false,
    }
}

/// Dates and times stored in INT32 that `i32` reads as raw values.
fn is_int32_temporal(column: &ColumnDescriptor) -> bool {
    match column.logical_type_ref() {
        Some(LogicalType::Date) => true,
        Some(LogicalType::Time(TimeType { unit, .. })) => matches!(unit, TimeUnit::MILLIS),
        Some(_) => false,
        None => matches!(
            column.converted_type(),
            ConvertedType::DATE | ConvertedType::TIME_MILLIS
        ),
    }
}

/// Timestamps and times stored in INT64 that `i64` reads as raw values in the column's unit.
fn is_int64_temporal(column: &ColumnDescriptor) -> bool {
    match column.logical_type_ref() {
        Some(LogicalType::Timestamp { .. }) => true,
        Some(LogicalType::Time(TimeType { unit, .. })) => !matches!(unit, TimeUnit::MILLIS),
        Some(_) => false,
        None => matches!(
            column.converted_type(),
            ConvertedType::TIMESTAMP_MILLIS
                | ConvertedType::TIMESTAMP_MICROS
                | ConvertedType::TIME_MICROS
        ),
    }
}

/// Whether a BYTE_ARRAY column holds UTF-8 text (STRING/UTF8, ENUM or JSON).
fn is_text(column: &ColumnDescriptor) -> bool {
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

/// Implements `ParquetField` for a type whose value is exactly the physical value.
macro_rules! identity_field {
    ($ty:ty, $physical:ty, $expected:expr, |$col:ident| $check:expr) => {
        impl<'p> ParquetField<'p> for $ty {
            type Physical = $physical;
            fn check($col: &ColumnDescriptor) -> Result<(), &'static str> {
                if $check {
                    Ok(())
                } else {
                    Err($expected)
                }
            }
            #[inline]
            fn convert(value: $ty) -> Result<Self, String> {
                Ok(value)
            }
            fn read(
                reader: &mut ColumnReader<'p, $physical>,
                n: usize,
                out: &mut Vec<Self>,
            ) -> Result<()> {
                reader.read(n, out)
            }
        }
    };
}

/// Implements `ParquetField` for a type converted from the physical value.
macro_rules! converted_field {
    ($ty:ty, $physical:ty, $expected:expr, |$col:ident| $check:expr, |$v:ident| $convert:expr) => {
        impl<'p> ParquetField<'p> for $ty {
            type Physical = $physical;
            fn check($col: &ColumnDescriptor) -> Result<(), &'static str> {
                if $check {
                    Ok(())
                } else {
                    Err($expected)
                }
            }
            #[inline]
            fn convert($v: <$physical as Physical>::Value<'p>) -> Result<Self, String> {
                $convert
            }
        }
    };
}

/// Converts an integer that the column's annotation promises fits, or explains.
fn narrow<T: TryFrom<i64>>(value: i64, ty: &str) -> Result<T, String> {
    T::try_from(value).map_err(|_| format!("{value} does not fit `{ty}`"))
}

/// What each field type reads; used in mismatch messages and the docs.
pub(crate) mod expected {
    pub const BOOL: &str = "BOOLEAN";
    pub const I8: &str = "INT32 annotated INT(8, signed)";
    pub const I16: &str = "INT32 annotated INT(8|16, signed) or INT(8, unsigned)";
    pub const I32: &str =
        "INT32, plain or annotated INT(8|16|32, signed), INT(8|16, unsigned), DATE or TIME(MILLIS)";
    pub const I64: &str =
        "INT64, plain or annotated INT(64, signed), TIMESTAMP or TIME(MICROS|NANOS)";
    pub const U8: &str = "INT32 annotated INT(8, unsigned)";
    pub const U16: &str = "INT32 annotated INT(8|16, unsigned)";
    pub const U32: &str = "INT32 annotated INT(8|16|32, unsigned)";
    pub const U64: &str = "INT64 annotated INT(64, unsigned)";
    pub const F32: &str = "FLOAT";
    pub const F64: &str = "DOUBLE";
    pub const STR: &str = "BYTE_ARRAY annotated STRING, ENUM or JSON";
    pub const BYTES: &str = "BYTE_ARRAY or FIXED_LEN_BYTE_ARRAY";
}

identity_field!(bool, Boolean, expected::BOOL, |c| c.physical_type()
    == Type::BOOLEAN);
identity_field!(f32, Float, expected::F32, |c| c.physical_type()
    == Type::FLOAT);
identity_field!(f64, Double, expected::F64, |c| c.physical_type()
    == Type::DOUBLE);
identity_field!(i32, Int32, expected::I32, |c| integer_fits(
    c,
    Type::INT32,
    32,
    true
) || (c.physical_type()
    == Type::INT32
    && is_int32_temporal(c)));
identity_field!(i64, Int64, expected::I64, |c| integer_fits(
    c,
    Type::INT64,
    64,
    true
) || (c.physical_type()
    == Type::INT64
    && is_int64_temporal(c)));
identity_field!(&'p str, Utf8, expected::STR, |c| is_text(c));
identity_field!(&'p [u8], ByteArray, expected::BYTES, |c| matches!(
    c.physical_type(),
    Type::BYTE_ARRAY | Type::FIXED_LEN_BYTE_ARRAY
));

converted_field!(
    i8,
    Int32,
    expected::I8,
    |c| integer_fits(c, Type::INT32, 8, true),
    |v| narrow(i64::from(v), "i8")
);
converted_field!(
    i16,
    Int32,
    expected::I16,
    |c| integer_fits(c, Type::INT32, 16, true),
    |v| narrow(i64::from(v), "i16")
);
// Unsigned annotations store the value's bit pattern in the signed physical type:
// reinterpret with `as`, then check the range the annotation promises.
converted_field!(
    u8,
    Int32,
    expected::U8,
    |c| integer_fits(c, Type::INT32, 8, false),
    |v| narrow(i64::from(v as u32), "u8")
);
converted_field!(
    u16,
    Int32,
    expected::U16,
    |c| integer_fits(c, Type::INT32, 16, false),
    |v| narrow(i64::from(v as u32), "u16")
);
converted_field!(
    u32,
    Int32,
    expected::U32,
    |c| integer_fits(c, Type::INT32, 32, false),
    |v| Ok(v as u32)
);
converted_field!(
    u64,
    Int64,
    expected::U64,
    |c| integer_fits(c, Type::INT64, 64, false),
    |v| Ok(v as u64)
);
converted_field!(String, Utf8, expected::STR, |c| is_text(c), |v| Ok(
    v.to_owned()
));
converted_field!(
    Vec<u8>,
    ByteArray,
    expected::BYTES,
    |c| matches!(
        c.physical_type(),
        Type::BYTE_ARRAY | Type::FIXED_LEN_BYTE_ARRAY
    ),
    |v| Ok(v.to_vec())
);

/// A field type that reads `column`, to suggest in mismatch messages.
pub(crate) fn suggest(column: &ColumnDescriptor) -> Option<&'static str> {
    Some(match column.physical_type() {
        Type::BOOLEAN => "bool",
        Type::FLOAT => "f32",
        Type::DOUBLE => "f64",
        Type::BYTE_ARRAY if is_text(column) => "&str` or `String",
        Type::BYTE_ARRAY | Type::FIXED_LEN_BYTE_ARRAY => "&[u8]` or `Vec<u8>",
        Type::INT32 if is_int32_temporal(column) => "i32",
        Type::INT64 if is_int64_temporal(column) => "i64",
        Type::INT32 | Type::INT64 => match integer_annotation(column)? {
            (8, true) => "i8",
            (16, true) => "i16",
            (32, true) => "i32",
            (64, true) => "i64",
            (8, false) => "u8",
            (16, false) => "u16",
            (32, false) => "u32",
            (64, false) => "u64",
            _ => return None,
        },
        Type::INT96 => return None,
    })
}
