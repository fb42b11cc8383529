//! Numbers, strings and byte arrays.

use std::sync::Arc;

use parquet_rows_rules::FieldKind;

use super::{field, ColumnContext, ParquetField};
use crate::error::Result;
use crate::physical::{Boolean, ByteArray, Double, Float, Int32, Int64, Utf8};

/// Converts an integer that the column's annotation promises fits, or explains.
fn narrow<T: TryFrom<i64>>(value: i64, ty: &str) -> Result<T, String> {
    T::try_from(value).map_err(|_| format!("{value} does not fit `{ty}`"))
}

/// `v` read as the column's integer annotation says: the low 8 or 16 bits,
/// signed or not, or the 32 bits unsigned (see the note above `i8`).
#[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)] // keeping the low bits is the point
fn annotated(v: i32, cx: &ColumnContext) -> i64 {
    match cx.integer {
        Some((8, true)) => i64::from(v as i8),
        Some((8, false)) => i64::from(v as u8),
        Some((16, true)) => i64::from(v as i16),
        Some((16, false)) => i64::from(v as u16),
        Some((_, false)) => i64::from(v as u32),
        _ => i64::from(v),
    }
}

field!(identity bool, Boolean, FieldKind::Bool);
field!(identity f32, Float, FieldKind::F32);
field!(identity f64, Double, FieldKind::F64);
field!(identity i32, Int32, FieldKind::I32);
field!(identity i64, Int64, FieldKind::I64);
field!(identity &'p str, Utf8, FieldKind::Str);
field!(identity &'p [u8], ByteArray, FieldKind::ByteSlice);

// A narrow annotation (INT(8|16, signed|unsigned), UINT_32) is read from the
// value's low bits, as pyarrow reads it: Arrow C++'s `TransferInt`
// (`cpp/src/parquet/arrow/reader_internal.cc`) converts the stored INT32 to
// the annotated C type with `std::copy`, which keeps the low bits. Drill
// wrote `UINT_8` 255 as the INT32 -1 (its sign-extended byte); read it as
// 255, as pyarrow, duckdb and polars do. A stored value outside the
// annotation's range (300 in an `INT_8` column) is not an error either: it
// reads as its low bits (44), the value pyarrow gives.
field!(i8, Int32, FieldKind::I8, |v, cx| narrow(
    annotated(v, cx),
    "i8"
));
field!(i16, Int32, FieldKind::I16, |v, cx| narrow(
    annotated(v, cx),
    "i16"
));
field!(not_listed u8, Int32, FieldKind::U8, |v, cx| narrow(
    annotated(v, cx),
    "u8"
));
field!(u16, Int32, FieldKind::U16, |v, cx| narrow(
    annotated(v, cx),
    "u16"
));
#[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)] // unsigned, at most 32 bits
fn to_u32(v: i64) -> u32 {
    v as u32
}
field!(u32, Int32, FieldKind::U32, |v, cx| Ok(to_u32(annotated(
    v, cx
))));
// INT32 unsigned columns arrive zero-extended (see `physical::Int64`).
// A narrower unsigned annotation keeps its low bits, as above.
field!(u64, Int64, FieldKind::U64, |v, cx| Ok(match cx.integer {
    Some((bits @ 1..=63, false)) => v as u64 & ((1 << bits) - 1),
    _ => v as u64,
}));
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
