//! Numbers, strings and byte arrays.

use std::sync::Arc;

use parquet::basic::Type;
use parquet::schema::types::ColumnDescriptor;

use super::rules::{
    integer_annotation, integer_fits, is_bytes, is_date, is_text, time_unit, timestamp_unit,
};
use super::{field, ParquetField};
use crate::column::ColumnReader;
use crate::error::Result;
use crate::physical::{Boolean, ByteArray, Double, Float, Int32, Int64, Utf8};

/// What each field type reads; used in mismatch messages and the docs.
pub(crate) mod expected {
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
}

const INT32: &[Type] = &[Type::INT32];
const INT_ANY: &[Type] = &[Type::INT32, Type::INT64];

/// Converts an integer that the column's annotation promises fits, or explains.
fn narrow<T: TryFrom<i64>>(value: i64, ty: &str) -> Result<T, String> {
    T::try_from(value).map_err(|_| format!("{value} does not fit `{ty}`"))
}

field!(identity bool, Boolean, expected::BOOL, |c| c.physical_type() == Type::BOOLEAN);
field!(identity f32, Float, expected::F32, |c| c.physical_type() == Type::FLOAT);
field!(identity f64, Double, expected::F64, |c| matches!(
    c.physical_type(),
    Type::DOUBLE | Type::FLOAT
));
field!(identity i32, Int32, expected::I32, |c| integer_fits(c, INT32, 32, true)
    || is_date(c)
    || time_unit(c).is_some_and(|_| c.physical_type() == Type::INT32));
field!(identity i64, Int64, expected::I64, |c| integer_fits(c, INT_ANY, 64, true)
    || is_date(c)
    || time_unit(c).is_some()
    || timestamp_unit(c).is_some_and(|_| c.physical_type() == Type::INT64));
field!(identity &'p str, Utf8, expected::STR, |c| is_text(c));
field!(identity &'p [u8], ByteArray, expected::BYTES, |c| is_bytes(c));

field!(
    i8,
    Int32,
    expected::I8,
    |c| integer_fits(c, INT32, 8, true),
    |v, _| narrow(i64::from(v), "i8")
);
field!(
    i16,
    Int32,
    expected::I16,
    |c| integer_fits(c, INT32, 16, true),
    |v, _| narrow(i64::from(v), "i16")
);
// Unsigned annotations store the value's bit pattern in the signed physical type:
// reinterpret with `as`, then check the range the annotation promises.
field!(
    u8,
    Int32,
    expected::U8,
    |c| integer_fits(c, INT32, 8, false),
    |v, _| narrow(i64::from(v as u32), "u8")
);
field!(
    u16,
    Int32,
    expected::U16,
    |c| integer_fits(c, INT32, 16, false),
    |v, _| narrow(i64::from(v as u32), "u16")
);
field!(
    u32,
    Int32,
    expected::U32,
    |c| integer_fits(c, INT32, 32, false),
    |v, _| Ok(v as u32)
);
// INT32 unsigned columns arrive zero-extended (see `physical::Int64`).
field!(
    u64,
    Int64,
    expected::U64,
    |c| integer_fits(c, INT_ANY, 64, false),
    |v, _| Ok(v as u64)
);
field!(String, Utf8, expected::STR, |c| is_text(c), |v, _| Ok(
    v.to_owned()
));
field!(Box<str>, Utf8, expected::STR, |c| is_text(c), |v, _| Ok(
    Box::from(v)
));
field!(
    Vec<u8>,
    ByteArray,
    expected::BYTES,
    |c| is_bytes(c),
    |v, _| Ok(v.to_vec())
);

/// `Arc<str>`: one allocation per dictionary entry, shared by every row that
/// holds it (one per value for PLAIN pages).
impl<'p> ParquetField<'p> for Arc<str> {
    type Physical = Utf8;
    fn check(column: &ColumnDescriptor) -> Result<(), &'static str> {
        if is_text(column) {
            Ok(())
        } else {
            Err(expected::STR)
        }
    }
    fn convert(value: &'p str, _: &super::ColumnContext) -> Result<Self, String> {
        Ok(Arc::from(value))
    }
    fn read(reader: &mut ColumnReader<'p, Utf8>, n: usize, out: &mut Vec<Self>) -> Result<()> {
        reader.read_shared(n, out, Self::convert)
    }
    fn read_optional(
        reader: &mut ColumnReader<'p, Utf8>,
        n: usize,
        out: &mut Vec<Option<Self>>,
    ) -> Result<()> {
        reader.read_optional_shared(n, out, Self::convert)
    }
}

/// A field type that reads `column`, to suggest in mismatch messages.
pub(crate) fn suggest(column: &ColumnDescriptor) -> Option<&'static str> {
    if super::rules::is_decimal(column) {
        return Some("parquet_rows::Decimal");
    }
    if let Some((_, utc)) = timestamp_unit(column) {
        return Some(if column.physical_type() == Type::INT96 || !utc {
            "parquet_rows::Timestamp` or `parquet_rows::Int96"
        } else {
            "parquet_rows::Timestamp` or `i64"
        });
    }
    Some(match column.physical_type() {
        Type::BOOLEAN => "bool",
        Type::FLOAT => "f32",
        Type::DOUBLE => "f64",
        Type::BYTE_ARRAY if is_text(column) => "&str` or `String",
        Type::BYTE_ARRAY => "&[u8]` or `Vec<u8>",
        Type::FIXED_LEN_BYTE_ARRAY => "&[u8]`, `Vec<u8>` or `[u8; N]",
        Type::INT32 if is_date(column) => "parquet_rows::Date` or `i32",
        Type::INT32 | Type::INT64 if time_unit(column).is_some() => "parquet_rows::Time` or `i64",
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
        Type::INT96 => "parquet_rows::Timestamp` or `parquet_rows::Int96",
    })
}
