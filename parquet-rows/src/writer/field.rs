//! What each field type writes: [`WriteField`] pushes a field's value into
//! its column's [`ColumnBuffer`].
//!
//! The column a field type writes (physical and logical type) is decided by
//! the shared rules (`FieldKind::writes` in `parquet-rows-rules`), the same
//! table the reader binds with; here each type only says which kind it is and
//! how its value is stored.

use std::sync::Arc;

use bytes::Bytes;
use parquet_rows_rules::FieldKind;

use crate::types::Date;

/// The values of one column of the rows buffered for a row group, before
/// they are encoded. Only the vector of the column's physical type is used.
#[doc(hidden)]
#[derive(Debug, Default)]
pub struct ColumnBuffer {
    pub(crate) bools: Vec<bool>,
    pub(crate) ints: Vec<i32>,
    pub(crate) longs: Vec<i64>,
    pub(crate) floats: Vec<f32>,
    pub(crate) doubles: Vec<f64>,
    /// Byte arrays, one after the other; value `i` ends at `ends[i]`.
    pub(crate) bytes: Vec<u8>,
    pub(crate) ends: Vec<usize>, // invariant: ascending, last <= bytes.len()
    /// One definition level per row of an `Option` field (1 present, 0 null);
    /// empty for a field that is not an `Option`.
    pub(crate) defs: Vec<i16>,
}

impl ColumnBuffer {
    /// An estimate of the bytes these values take once encoded: their PLAIN
    /// size (a byte array's 4-byte length included) and one bit per level.
    /// Dictionary encoding and compression make most columns smaller, so a
    /// row group cut at this estimate is at most this large.
    pub(crate) fn estimated_bytes(&self) -> usize {
        self.bools.len().div_ceil(8)
            + 4 * self.ints.len()
            + 8 * self.longs.len()
            + 4 * self.floats.len()
            + 8 * self.doubles.len()
            + self.bytes.len()
            + 4 * self.ends.len()
            + self.defs.len().div_ceil(8)
    }

    /// Empties the buffer, keeping its capacity for the next row group.
    pub(crate) fn clear(&mut self) {
        self.bools.clear();
        self.ints.clear();
        self.longs.clear();
        self.floats.clear();
        self.doubles.clear();
        self.bytes.clear();
        self.ends.clear();
        self.defs.clear();
    }

    fn push_bytes(&mut self, value: &[u8]) {
        self.bytes.extend_from_slice(value);
        self.ends.push(self.bytes.len());
    }
}

/// A field type that the writer writes: a non-`Option` value (see
/// [`WriteField`] for `Option`).
#[doc(hidden)]
// The bound rustc reports for a field that is not writable (`WriteField`
// comes from the blanket impls over this trait), so the message is here.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be written yet",
    label = "not writable",
    note = "the writer writes fields of types bool, i8-i64, u8-u64, f32, f64, &str, String, Box<str>, Arc<str>, CompactString, &[u8], Vec<u8>, bytes::Bytes, [u8; N], Date, and Option<_> of each",
    note = "nested structs, lists, maps, timestamps and decimals are not writable yet, nor fields read with `from` / `try_from`"
)]
pub trait WriteValue {
    /// What the rules call the type; its column is `KIND.writes()`.
    const KIND: FieldKind;
    /// Appends the value to `column`.
    fn push_value(&self, column: &mut ColumnBuffer);
}

/// A type that can be a field of a struct written with
/// [`Writer`](crate::Writer): `bool`, `i8`-`i64`, `u8`-`u64`, `f32`, `f64`,
/// `&str`, `String`, `Box<str>`, `Arc<str>`, `&[u8]`, `Vec<u8>`,
/// `bytes::Bytes`, `[u8; N]`, [`Date`], and `Option<_>` of each (an
/// OPTIONAL column). The column each writes is the one the same type reads.
///
/// The methods are used by the code `#[derive(ParquetRow)]` generates; you
/// do not call them yourself.
pub trait WriteField {
    /// What the rules call the type (`Option<T>` has `T`'s kind).
    #[doc(hidden)]
    const KIND: FieldKind;
    /// Whether the column is OPTIONAL.
    #[doc(hidden)]
    const NULLABLE: bool;
    /// Appends the value (or a null) to `column`.
    #[doc(hidden)]
    fn push_field(&self, column: &mut ColumnBuffer);
}

impl<T: WriteValue> WriteField for T {
    const KIND: FieldKind = T::KIND;
    const NULLABLE: bool = false;
    #[inline]
    fn push_field(&self, column: &mut ColumnBuffer) {
        self.push_value(column);
    }
}

impl<T: WriteValue> WriteField for Option<T> {
    const KIND: FieldKind = T::KIND;
    const NULLABLE: bool = true;
    #[inline]
    fn push_field(&self, column: &mut ColumnBuffer) {
        match self {
            Some(value) => {
                column.defs.push(1);
                value.push_value(column);
            }
            None => column.defs.push(0),
        }
    }
}

/// `WriteValue` for a type stored as `$store` in the vector `$vec`.
macro_rules! value {
    ($ty:ty, $kind:expr, |$v:ident| $vec:ident.push($store:expr)) => {
        impl WriteValue for $ty {
            const KIND: FieldKind = $kind;
            #[inline]
            fn push_value(&self, column: &mut ColumnBuffer) {
                let $v = self;
                column.$vec.push($store);
            }
        }
    };
    ($ty:ty, $kind:expr, |$v:ident| bytes($store:expr)) => {
        impl WriteValue for $ty {
            const KIND: FieldKind = $kind;
            #[inline]
            fn push_value(&self, column: &mut ColumnBuffer) {
                let $v = self;
                column.push_bytes($store);
            }
        }
    };
}

value!(bool, FieldKind::Bool, |v| bools.push(*v));
value!(i8, FieldKind::I8, |v| ints.push(i32::from(*v)));
value!(i16, FieldKind::I16, |v| ints.push(i32::from(*v)));
value!(i32, FieldKind::I32, |v| ints.push(*v));
value!(i64, FieldKind::I64, |v| longs.push(*v));
// Unsigned annotations store the value's bit pattern in the signed physical
// type (parquet-format LogicalTypes.md, "Unsigned integers").
value!(u8, FieldKind::U8, |v| ints.push(i32::from(*v)));
value!(u16, FieldKind::U16, |v| ints.push(i32::from(*v)));
value!(u32, FieldKind::U32, |v| ints.push(*v as i32));
value!(u64, FieldKind::U64, |v| longs.push(*v as i64));
value!(f32, FieldKind::F32, |v| floats.push(*v));
value!(f64, FieldKind::F64, |v| doubles.push(*v));
value!(Date, FieldKind::Date, |v| ints.push(v.days));
value!(&str, FieldKind::Str, |v| bytes(v.as_bytes()));
value!(String, FieldKind::String, |v| bytes(v.as_bytes()));
value!(Box<str>, FieldKind::BoxStr, |v| bytes(v.as_bytes()));
value!(Arc<str>, FieldKind::ArcStr, |v| bytes(v.as_bytes()));
#[cfg(feature = "compact_str")]
use compact_str::CompactString;
#[cfg(feature = "compact_str")]
value!(CompactString, FieldKind::CompactString, |v| bytes(
    v.as_bytes()
));
value!(&[u8], FieldKind::ByteSlice, |v| bytes(v));
value!(Vec<u8>, FieldKind::ByteVec, |v| bytes(v));
value!(Bytes, FieldKind::Bytes, |v| bytes(v));

impl<const N: usize> WriteValue for [u8; N] {
    const KIND: FieldKind = FieldKind::FixedBytes(N);
    #[inline]
    fn push_value(&self, column: &mut ColumnBuffer) {
        column.push_bytes(self);
    }
}

/// Appends `get(row)` of every row to `column`: the loop of one field, which
/// the code `#[derive(ParquetRow)]` generates calls once per field.
#[doc(hidden)]
#[inline]
pub fn push_column<R, F: WriteField>(
    rows: &[R],
    column: &mut ColumnBuffer,
    get: impl Fn(&R) -> &F,
) {
    for row in rows {
        get(row).push_field(column);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unsigned_values_keep_their_bit_pattern() {
        let mut column = ColumnBuffer::default();
        u32::MAX.push_field(&mut column);
        u64::MAX.push_field(&mut column);
        assert_eq!(column.ints, [-1]);
        assert_eq!(column.longs, [-1]);
    }

    #[test]
    fn options_write_levels_and_present_values_only() {
        let mut column = ColumnBuffer::default();
        for value in [Some("a"), None, Some("")] {
            value.push_field(&mut column);
        }
        assert_eq!(column.defs, [1, 0, 1]);
        assert_eq!(column.ends, [1, 1]);
        assert_eq!(column.bytes, b"a");
        assert_eq!(column.estimated_bytes(), 1 + 8 + 1);
        column.clear();
        assert_eq!(column.estimated_bytes(), 0);
    }
}
