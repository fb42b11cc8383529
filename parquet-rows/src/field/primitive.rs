//! Numbers, strings and byte arrays.

use std::sync::Arc;

use parquet_rows_rules::FieldKind;

use super::{field, ParquetField};
use crate::error::Result;
use crate::physical::{Boolean, ByteArray, Double, Float, Int32, Int64, Utf8};

/// Converts an integer that the column's annotation promises fits, or explains.
fn narrow<T: TryFrom<i64>>(value: i64, ty: &str) -> Result<T, String> {
    T::try_from(value).map_err(|_| format!("{value} does not fit `{ty}`"))
}

field!(identity bool, Boolean, FieldKind::Bool);
field!(identity f32, Float, FieldKind::F32);
field!(identity f64, Double, FieldKind::F64);
field!(identity i32, Int32, FieldKind::I32);
field!(identity i64, Int64, FieldKind::I64);
field!(identity &'p str, Utf8, FieldKind::Str);
field!(identity &'p [u8], ByteArray, FieldKind::ByteSlice);

field!(i8, Int32, FieldKind::I8, |v, _| narrow(i64::from(v), "i8"));
field!(i16, Int32, FieldKind::I16, |v, _| narrow(
    i64::from(v),
    "i16"
));
// Unsigned annotations store the value's bit pattern in the signed physical type:
// reinterpret with `as`, then check the range the annotation promises.
field!(not_listed u8, Int32, FieldKind::U8, |v, _| narrow(
    i64::from(v as u32),
    "u8"
));
field!(u16, Int32, FieldKind::U16, |v, _| narrow(
    i64::from(v as u32),
    "u16"
));
field!(u32, Int32, FieldKind::U32, |v, _| Ok(v as u32));
// INT32 unsigned columns arrive zero-extended (see `physical::Int64`).
field!(u64, Int64, FieldKind::U64, |v, _| Ok(v as u64));
field!(
    String,
    Utf8,
    FieldKind::String,
    |v, _| Ok(v.to_owned()),
    copy = |values| values.next_text().map(str::to_owned)
);
field!(
    Box<str>,
    Utf8,
    FieldKind::BoxStr,
    |v, _| Ok(Box::from(v)),
    copy = |values| values.next_text().map(Box::from)
);
field!(
    Vec<u8>,
    ByteArray,
    FieldKind::ByteVec,
    |v, _| Ok(v.to_vec()),
    copy = |values| values.next_value().map(<[u8]>::to_vec)
);

super::leaf!(Arc<str>);

/// `Arc<str>`: one allocation per dictionary entry, shared by every row that
/// holds it (one per value for PLAIN pages).
impl<'p> ParquetField<'p> for Arc<str> {
    type Physical = Utf8;
    const KIND: FieldKind = FieldKind::ArcStr;
    const RUST_TYPE: &'static str = "Arc<str>";
    /// The empty `Arc<str>` std keeps in a static: no allocation, but a
    /// reference count update each time, on a count all threads share.
    fn placeholder() -> Self {
        Arc::default()
    }
    const CHEAP_PLACEHOLDER: bool = false;
    fn convert(value: &'p str, _: &super::ColumnContext) -> Result<Self, String> {
        Ok(Arc::from(value))
    }
    super::reads!(crate::column::Shared(Self::convert));
}
