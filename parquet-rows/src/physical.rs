//! The physical types a field decodes from, and how their PLAIN values are read.
//!
//! Each Rust field type names one of these as
//! [`ParquetField::Physical`](crate::ParquetField::Physical): the column reader is
//! generic over it, so the hot loop is monomorphised per physical type with no
//! dispatch per value. The trait is sealed; the set of physical types is the
//! Parquet format's.

use parquet::basic::Type;

use crate::encoding::plain::PlainDecoder;
use crate::error::DecodeError;

mod sealed {
    pub trait Sealed {}
}

/// What a column reader needs to know about the column to decode PLAIN values.
#[derive(Debug, Clone, Copy)]
#[doc(hidden)]
pub struct PlainShape {
    /// Width of a FIXED_LEN_BYTE_ARRAY value; `None` for every other type.
    pub fixed_len: Option<usize>,
}

/// A Parquet physical type as decoded by this crate (sealed).
pub trait Physical: sealed::Sealed + 'static {
    /// One decoded value; `'p` is the lifetime of the page buffers it may borrow.
    type Value<'p>: Copy;
    /// Whether this decoder reads columns of physical type `t`.
    #[doc(hidden)]
    fn accepts(t: Type) -> bool;
    /// Whether dictionary-encoded pages can hold this type (not BOOLEAN).
    #[doc(hidden)]
    const DICTIONARY: bool = true;
    /// Appends `n` PLAIN values to `out`.
    #[doc(hidden)]
    #[allow(private_interfaces)]
    fn read_plain<'p>(
        decoder: &mut PlainDecoder<'p>,
        shape: PlainShape,
        n: usize,
        out: &mut Vec<Self::Value<'p>>,
    ) -> Result<(), DecodeError>;
}

macro_rules! fixed_width {
    ($(#[$doc:meta])* $name:ident, $ty:ty, $parquet:ident) => {
        $(#[$doc])*
        #[derive(Debug, Clone, Copy)]
        pub struct $name;
        impl sealed::Sealed for $name {}
        impl Physical for $name {
            type Value<'p> = $ty;
            fn accepts(t: Type) -> bool {
                t == Type::$parquet
            }
            #[allow(private_interfaces)]
            fn read_plain(
                decoder: &mut PlainDecoder<'_>,
                _shape: PlainShape,
                n: usize,
                out: &mut Vec<$ty>,
            ) -> Result<(), DecodeError> {
                decoder.read_fixed(n, out, <$ty>::from_le_bytes)
            }
        }
    };
}

fixed_width!(
    /// INT32, read as `i32`.
    Int32, i32, INT32
);
fixed_width!(
    /// INT64, read as `i64`.
    Int64, i64, INT64
);
fixed_width!(
    /// FLOAT, read as `f32`.
    Float, f32, FLOAT
);
fixed_width!(
    /// DOUBLE, read as `f64`.
    Double, f64, DOUBLE
);

/// BOOLEAN, read as `bool`.
#[derive(Debug, Clone, Copy)]
pub struct Boolean;
impl sealed::Sealed for Boolean {}
impl Physical for Boolean {
    type Value<'p> = bool;
    const DICTIONARY: bool = false;
    fn accepts(t: Type) -> bool {
        t == Type::BOOLEAN
    }
    #[allow(private_interfaces)]
    fn read_plain(
        decoder: &mut PlainDecoder<'_>,
        _shape: PlainShape,
        n: usize,
        out: &mut Vec<bool>,
    ) -> Result<(), DecodeError> {
        decoder.read_bools(n, out)
    }
}

/// BYTE_ARRAY or FIXED_LEN_BYTE_ARRAY, read as `&'p [u8]` borrowing the page.
#[derive(Debug, Clone, Copy)]
pub struct ByteArray;
impl sealed::Sealed for ByteArray {}
impl Physical for ByteArray {
    type Value<'p> = &'p [u8];
    fn accepts(t: Type) -> bool {
        matches!(t, Type::BYTE_ARRAY | Type::FIXED_LEN_BYTE_ARRAY)
    }
    #[allow(private_interfaces)]
    fn read_plain<'p>(
        decoder: &mut PlainDecoder<'p>,
        shape: PlainShape,
        n: usize,
        out: &mut Vec<&'p [u8]>,
    ) -> Result<(), DecodeError> {
        match shape.fixed_len {
            Some(width) => decoder.read_fixed_len(n, width, out),
            None => decoder.read_byte_arrays(n, out, Ok),
        }
    }
}

/// BYTE_ARRAY holding UTF-8, read as `&'p str` borrowing the page.
///
/// UTF-8 is checked here, when a value is decoded: once per dictionary entry for
/// dictionary-encoded pages (the dictionary is decoded with this same function),
/// once per value for PLAIN pages, and never again per row.
#[derive(Debug, Clone, Copy)]
pub struct Utf8;
impl sealed::Sealed for Utf8 {}
impl Physical for Utf8 {
    type Value<'p> = &'p str;
    fn accepts(t: Type) -> bool {
        t == Type::BYTE_ARRAY
    }
    #[allow(private_interfaces)]
    fn read_plain<'p>(
        decoder: &mut PlainDecoder<'p>,
        _shape: PlainShape,
        n: usize,
        out: &mut Vec<&'p str>,
    ) -> Result<(), DecodeError> {
        decoder.read_byte_arrays(n, out, |bytes| {
            std::str::from_utf8(bytes)
                .map_err(|e| DecodeError::Value(format!("invalid UTF-8 in a string value: {e}")))
        })
    }
}
