//! The physical types a field decodes from, and how their PLAIN values are read.
//!
//! Each Rust field type names one of these as
//! [`ParquetField::Physical`](crate::ParquetField::Physical): the column reader is
//! generic over it, so the hot loop is monomorphised per physical type with no
//! dispatch per value. The trait is sealed; the set of physical types is the
//! Parquet format's.

// The trait is sealed and its `#[doc(hidden)]` methods take the crate's own
// decoder types: they are an implementation detail shared with `column`, not API.
#![allow(private_interfaces)]

use parquet::basic::Type;

use crate::encoding::byte_stream_split::ByteStreamSplitDecoder;
use crate::encoding::delta_binary_packed::DeltaBinaryPackedDecoder;
use crate::encoding::plain::PlainDecoder;
use crate::encoding::rle_bp::RleBpDecoder;
use crate::error::DecodeError;

mod sealed {
    pub trait Sealed {}
}

/// What a column reader needs to know about the column to decode its values.
#[derive(Debug, Clone, Copy)]
#[doc(hidden)]
pub struct PlainShape {
    /// The column's physical type.
    pub physical: Type,
    /// Width of a FIXED_LEN_BYTE_ARRAY value; `None` for every other type.
    pub fixed_len: Option<usize>,
}

/// Values of a data page in an encoding other than PLAIN or dictionary.
#[derive(Debug)]
#[doc(hidden)]
pub enum Encoded<'p> {
    /// DELTA_BINARY_PACKED integers.
    Delta(DeltaBinaryPackedDecoder<'p>),
    /// BYTE_STREAM_SPLIT numbers.
    ByteStreamSplit(ByteStreamSplitDecoder<'p>),
    /// RLE-encoded booleans (bit width 1).
    RleBool(RleBpDecoder<'p>),
    /// Byte arrays whose bounds were decoded when the page was opened
    /// (DELTA_LENGTH_BYTE_ARRAY, DELTA_BYTE_ARRAY, BYTE_STREAM_SPLIT of
    /// FIXED_LEN_BYTE_ARRAY): value `i` is `data[ends[i-1]..ends[i]]`.
    Slices {
        /// The values' bytes (the page, or the page's arena).
        data: &'p [u8],
        /// End offset of each value in `data`; non-decreasing, last `<= data.len()`.
        ends: &'p [usize],
        /// Index of the next value.
        next: usize,
    },
}

impl<'p> Encoded<'p> {
    /// Takes the next `n` byte slices, or fails if the page has fewer.
    fn slices(&mut self, n: usize) -> Result<impl Iterator<Item = &'p [u8]> + 'p, DecodeError> {
        let Encoded::Slices { data, ends, next } = self else {
            return Err(mismatched_encoding());
        };
        let (data, ends, start) = (*data, *ends, *next);
        if ends.len() - start < n {
            return Err(DecodeError::oos(format!(
                "the page ends after {} of {n} values",
                ends.len() - start
            )));
        }
        *next += n;
        Ok((start..start + n).map(move |i| {
            let from = if i == 0 { 0 } else { ends[i - 1] };
            &data[from..ends[i]]
        }))
    }
}

fn mismatched_encoding() -> DecodeError {
    DecodeError::Unsupported("this encoding cannot hold values of this physical type".into())
}

/// Appends `n` DELTA_BINARY_PACKED values, each through `convert`.
fn read_delta<T>(
    values: &mut Encoded<'_>,
    n: usize,
    out: &mut Vec<T>,
    convert: impl Fn(i64) -> T,
) -> Result<(), DecodeError> {
    let Encoded::Delta(decoder) = values else {
        return Err(mismatched_encoding());
    };
    let mut buf = [0i64; 256];
    let mut left = n;
    while left > 0 {
        let k = left.min(buf.len());
        let got = decoder.get_batch(&mut buf[..k])?;
        if got < k {
            return Err(DecodeError::oos(format!(
                "the page ends after {} of {n} values",
                n - left + got
            )));
        }
        out.extend(buf[..k].iter().map(|&v| convert(v)));
        left -= k;
    }
    Ok(())
}

/// Appends `n` BYTE_STREAM_SPLIT values of `W` bytes.
fn read_split<const W: usize, T>(
    values: &mut Encoded<'_>,
    n: usize,
    out: &mut Vec<T>,
    from_le: fn([u8; W]) -> T,
) -> Result<(), DecodeError> {
    let Encoded::ByteStreamSplit(decoder) = values else {
        return Err(mismatched_encoding());
    };
    if decoder.remaining() < n {
        return Err(DecodeError::oos(format!(
            "the page ends after {} of {n} values",
            decoder.remaining()
        )));
    }
    decoder.read_with(n, out, from_le);
    Ok(())
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
    /// Appends `n` values in another encoding ([`Encoded`]) to `out`.
    #[doc(hidden)]
    fn read_encoded<'p>(
        values: &mut Encoded<'p>,
        n: usize,
        out: &mut Vec<Self::Value<'p>>,
    ) -> Result<(), DecodeError> {
        let _ = (values, n, out);
        Err(mismatched_encoding())
    }
    /// Appends `n` PLAIN values to `out`.
    #[doc(hidden)]
    fn read_plain<'p>(
        decoder: &mut PlainDecoder<'p>,
        shape: PlainShape,
        n: usize,
        out: &mut Vec<Self::Value<'p>>,
    ) -> Result<(), DecodeError>;
}

macro_rules! fixed_width {
    ($(#[$doc:meta])* $name:ident, $ty:ty, $parquet:ident, $width:literal, $delta:expr) => {
        $(#[$doc])*
        #[derive(Debug, Clone, Copy)]
        pub struct $name;
        impl sealed::Sealed for $name {}
        impl Physical for $name {
            type Value<'p> = $ty;
            fn accepts(t: Type) -> bool {
                t == Type::$parquet
            }
                    fn read_plain(
                decoder: &mut PlainDecoder<'_>,
                _shape: PlainShape,
                n: usize,
                out: &mut Vec<$ty>,
            ) -> Result<(), DecodeError> {
                decoder.read_fixed(n, out, <$ty>::from_le_bytes)
            }
            fn read_encoded(
                values: &mut Encoded<'_>,
                n: usize,
                out: &mut Vec<$ty>,
            ) -> Result<(), DecodeError> {
                match values {
                    Encoded::ByteStreamSplit(_) => {
                        read_split::<$width, $ty>(values, n, out, <$ty>::from_le_bytes)
                    }
                    _ => {
                        let delta: Option<fn(i64) -> $ty> = $delta;
                        match delta {
                            Some(convert) => read_delta(values, n, out, convert),
                            None => Err(mismatched_encoding()),
                        }
                    }
                }
            }
        }
    };
}

fixed_width!(
    /// INT32, read as `i32`.
    Int32, i32, INT32, 4, Some(|v| v as i32)
);
fixed_width!(
    /// INT64, read as `i64`.
    Int64, i64, INT64, 8, Some(|v| v)
);
fixed_width!(
    /// FLOAT, read as `f32`.
    Float, f32, FLOAT, 4, None
);
fixed_width!(
    /// DOUBLE, read as `f64`.
    Double, f64, DOUBLE, 8, None
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
    fn read_plain(
        decoder: &mut PlainDecoder<'_>,
        _shape: PlainShape,
        n: usize,
        out: &mut Vec<bool>,
    ) -> Result<(), DecodeError> {
        decoder.read_bools(n, out)
    }
    fn read_encoded(
        values: &mut Encoded<'_>,
        n: usize,
        out: &mut Vec<bool>,
    ) -> Result<(), DecodeError> {
        let Encoded::RleBool(decoder) = values else {
            return Err(mismatched_encoding());
        };
        let mut buf = [0u32; 256];
        let mut left = n;
        while left > 0 {
            let k = left.min(buf.len());
            let got = decoder.get_batch(&mut buf[..k])?;
            if got < k {
                return Err(DecodeError::oos(format!(
                    "the page ends after {} of {n} booleans",
                    n - left + got
                )));
            }
            out.extend(buf[..k].iter().map(|&v| v != 0));
            left -= k;
        }
        Ok(())
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
    fn read_encoded<'p>(
        values: &mut Encoded<'p>,
        n: usize,
        out: &mut Vec<&'p [u8]>,
    ) -> Result<(), DecodeError> {
        out.extend(values.slices(n)?);
        Ok(())
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
    fn read_plain<'p>(
        decoder: &mut PlainDecoder<'p>,
        _shape: PlainShape,
        n: usize,
        out: &mut Vec<&'p str>,
    ) -> Result<(), DecodeError> {
        decoder.read_byte_arrays(n, out, utf8)
    }
    fn read_encoded<'p>(
        values: &mut Encoded<'p>,
        n: usize,
        out: &mut Vec<&'p str>,
    ) -> Result<(), DecodeError> {
        out.reserve(n);
        for bytes in values.slices(n)? {
            out.push(utf8(bytes)?);
        }
        Ok(())
    }
}

/// Checks that a string value is UTF-8.
fn utf8(bytes: &[u8]) -> Result<&str, DecodeError> {
    std::str::from_utf8(bytes)
        .map_err(|e| DecodeError::Value(format!("invalid UTF-8 in a string value: {e}")))
}
