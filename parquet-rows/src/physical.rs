//! The physical types a field decodes from, and how their values are made:
//! from PLAIN values, and from each kind of value the decoders of the other
//! encodings yield (`encoding::table`), never from a named encoding.
//!
//! Each Rust field type names one of these as
//! [`ParquetField::Physical`](crate::ParquetField::Physical): the column reader is
//! generic over it, so the hot loop is monomorphised per physical type with no
//! dispatch per value. The trait is sealed; the set of physical types is the
//! Parquet format's.

// The trait is sealed and its `#[doc(hidden)]` methods take the crate's own
// decoder types and traits: they are an implementation detail shared with
// `column`, not API.
#![allow(private_interfaces, private_bounds)]

use std::marker::PhantomData;

use parquet::basic::Type;

use crate::encoding::byte_values::ByteValues;
use crate::encoding::plain::PlainDecoder;
use crate::encoding::table::{Encoded, Kinds};
use crate::encoding::{Mapped, ValueDecoder, ValueOut};
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
    /// An INT32 column annotated unsigned: widened with zero extension.
    pub unsigned: bool,
    /// An INT32 column annotated INT(8|16, signed|unsigned): its values are
    /// read as the annotation's width says, into every integer field (see
    /// [`low_bits`]); `None` for every other column.
    pub narrow: Option<(u8, bool)>,
}

/// A stored INT32 of a column annotated `(bits, signed)` as the annotation
/// says: its low 8 or 16 bits, sign- or zero-extended. Drill wrote `UINT_8`
/// 255 as -1; Arrow C++'s `TransferInt`
/// (`cpp/src/parquet/arrow/reader_internal.cc`) copies the stored INT32
/// into the annotated C type, keeping the low bits, so pyarrow reads 255:
/// so does every integer field here (`docs/writer-quirks.md`).
#[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)] // the low bits are the point
#[inline]
pub(crate) fn low_bits(v: i32, (bits, signed): (u8, bool)) -> i32 {
    match (bits, signed) {
        (8, true) => i32::from(v as i8),
        (8, false) => i32::from(v as u8),
        (16, true) => i32::from(v as i16),
        (16, false) => i32::from(v as u16),
        _ => v,
    }
}

/// The error of a kind a physical type cannot be made from.
fn mismatched_encoding() -> DecodeError {
    DecodeError::Unsupported("this encoding cannot hold values of this physical type".into())
}

/// A Parquet physical type as decoded by this crate (sealed): what one value
/// is, and how it is made from what each encoding's decoder yields.
///
/// The column reader opens a page's decoder once, when the page is opened
/// (`column::page::values`). PLAIN values, and dictionary pages, go to
/// [`Physical::read_plain`]; dictionary indices are looked up by the reader;
/// values in any other encoding go through [`Physical::read_encoded`] to
/// the method for the *kind* of value their decoder yields (integers,
/// little-endian bytes, booleans, byte arrays: see `encoding::table`). A
/// physical type implements the kinds it can be made from and never names an
/// encoding; a kind it cannot hold keeps the default, an error. Every method
/// puts exactly `n` values into any `ValueOut` (a buffer, or a field of each
/// row) or fails.
pub trait Physical: sealed::Sealed + 'static {
    /// One decoded value; `'p` is the lifetime of the page buffers it may borrow.
    type Value<'p>: Copy;
    /// Whether this decoder reads columns of physical type `t`.
    #[doc(hidden)]
    fn accepts(t: Type) -> bool;
    /// Whether dictionary-encoded pages can hold this type (not BOOLEAN).
    #[doc(hidden)]
    const DICTIONARY: bool = true;
    /// Whether every value is copied out of the page (`Value<'p>` borrows
    /// nothing): a reader of such a type may then free each page it leaves
    /// (`ColumnReader::ensure_page`). Only byte arrays borrow. Soundness
    /// rests on it, so it is checked by `values_of_owning_types_borrow_nothing`.
    #[doc(hidden)]
    const OWNS_VALUES: bool = false;
    /// Puts `n` PLAIN values into `out`.
    #[doc(hidden)]
    fn read_plain<'p>(
        decoder: &mut PlainDecoder<'p>,
        shape: PlainShape,
        n: usize,
        out: &mut impl ValueOut<Self::Value<'p>>,
    ) -> Result<(), DecodeError>;
    /// Puts `n` values of a decoder of the table ([`Encoded`]) into `out`,
    /// through the method for the kind it yields. Not overridden.
    #[doc(hidden)]
    fn read_encoded<'p>(
        values: &mut Encoded<'p>,
        shape: PlainShape,
        n: usize,
        out: &mut impl ValueOut<Self::Value<'p>>,
    ) -> Result<(), DecodeError> {
        values.read(Reader::<Self, _> {
            shape,
            n,
            out,
            physical: PhantomData,
        })
    }
    /// Puts `n` integers of `decoder` (DELTA_BINARY_PACKED) into `out`.
    #[doc(hidden)]
    fn read_ints<'p>(
        decoder: &mut impl ValueDecoder<Item = i64>,
        shape: PlainShape,
        n: usize,
        out: &mut impl ValueOut<Self::Value<'p>>,
    ) -> Result<(), DecodeError> {
        let _ = (decoder, shape, n, out);
        Err(mismatched_encoding())
    }
    /// Puts `n` 4-byte little-endian numbers of `decoder` into `out`.
    #[doc(hidden)]
    fn read_le4<'p>(
        decoder: &mut impl ValueDecoder<Item = [u8; 4]>,
        shape: PlainShape,
        n: usize,
        out: &mut impl ValueOut<Self::Value<'p>>,
    ) -> Result<(), DecodeError> {
        let _ = (decoder, shape, n, out);
        Err(mismatched_encoding())
    }
    /// Puts `n` 8-byte little-endian numbers of `decoder` into `out`.
    #[doc(hidden)]
    fn read_le8<'p>(
        decoder: &mut impl ValueDecoder<Item = [u8; 8]>,
        shape: PlainShape,
        n: usize,
        out: &mut impl ValueOut<Self::Value<'p>>,
    ) -> Result<(), DecodeError> {
        let _ = (decoder, shape, n, out);
        Err(mismatched_encoding())
    }
    /// Puts `n` booleans of `decoder` into `out`.
    #[doc(hidden)]
    fn read_bools<'p>(
        decoder: &mut impl ValueDecoder<Item = bool>,
        shape: PlainShape,
        n: usize,
        out: &mut impl ValueOut<Self::Value<'p>>,
    ) -> Result<(), DecodeError> {
        let _ = (decoder, shape, n, out);
        Err(mismatched_encoding())
    }
    /// Puts `n` byte arrays of `values` into `out`.
    #[doc(hidden)]
    fn read_bytes<'p>(
        values: &mut ByteValues<'p>,
        shape: PlainShape,
        n: usize,
        out: &mut impl ValueOut<Self::Value<'p>>,
    ) -> Result<(), DecodeError> {
        let _ = (values, shape, n, out);
        Err(mismatched_encoding())
    }
}

/// A read of `n` values of physical type `P` into `out`, as [`Kinds`]: each
/// kind goes to `P`'s method for it.
struct Reader<'o, P: ?Sized, O> {
    shape: PlainShape,
    n: usize,
    out: &'o mut O,
    physical: PhantomData<fn() -> P>,
}

impl<'p, P: Physical + ?Sized, O: ValueOut<P::Value<'p>>> Kinds<'p> for Reader<'_, P, O> {
    fn ints(self, decoder: &mut impl ValueDecoder<Item = i64>) -> Result<(), DecodeError> {
        P::read_ints(decoder, self.shape, self.n, self.out)
    }
    fn le4(self, decoder: &mut impl ValueDecoder<Item = [u8; 4]>) -> Result<(), DecodeError> {
        P::read_le4(decoder, self.shape, self.n, self.out)
    }
    fn le8(self, decoder: &mut impl ValueDecoder<Item = [u8; 8]>) -> Result<(), DecodeError> {
        P::read_le8(decoder, self.shape, self.n, self.out)
    }
    fn bools(self, decoder: &mut impl ValueDecoder<Item = bool>) -> Result<(), DecodeError> {
        P::read_bools(decoder, self.shape, self.n, self.out)
    }
    fn bytes(self, values: &mut ByteValues<'p>) -> Result<(), DecodeError> {
        P::read_bytes(values, self.shape, self.n, self.out)
    }
}

macro_rules! fixed_width {
    ($(#[$doc:meta])* $name:ident, $ty:ty, $parquet:ident $(, delta = $delta:expr)?) => {
        $(#[$doc])*
        #[derive(Debug, Clone, Copy)]
        pub struct $name;
        impl sealed::Sealed for $name {}
        impl Physical for $name {
            type Value<'p> = $ty;
            const OWNS_VALUES: bool = true;
            fn accepts(t: Type) -> bool {
                t == Type::$parquet
            }
            fn read_plain<'p>(
                decoder: &mut PlainDecoder<'p>,
                _shape: PlainShape,
                n: usize,
                out: &mut impl ValueOut<Self::Value<'p>>,
            ) -> Result<(), DecodeError> {
                decoder.read_fixed(n, out, <$ty>::from_le_bytes)
            }
            fn read_le4<'p>(
                decoder: &mut impl ValueDecoder<Item = [u8; 4]>,
                _shape: PlainShape,
                n: usize,
                out: &mut impl ValueOut<Self::Value<'p>>,
            ) -> Result<(), DecodeError> {
                decoder.decode(n, &mut Mapped(out, <$ty>::from_le_bytes))
            }
            $(
            fn read_ints<'p>(
                decoder: &mut impl ValueDecoder<Item = i64>,
                _shape: PlainShape,
                n: usize,
                out: &mut impl ValueOut<Self::Value<'p>>,
            ) -> Result<(), DecodeError> {
                // A closure, not a `fn` pointer: called per value.
                decoder.decode(n, &mut Mapped(out, $delta))
            }
            )?
        }
    };
}

/// INT32, read as `i32`; a column annotated INT(8|16, _) as its width says
/// ([`low_bits`]).
#[derive(Debug, Clone, Copy)]
pub struct Int32;
impl sealed::Sealed for Int32 {}
impl Physical for Int32 {
    type Value<'p> = i32;
    const OWNS_VALUES: bool = true;
    fn accepts(t: Type) -> bool {
        t == Type::INT32
    }
    fn read_plain<'p>(
        decoder: &mut PlainDecoder<'p>,
        shape: PlainShape,
        n: usize,
        out: &mut impl ValueOut<Self::Value<'p>>,
    ) -> Result<(), DecodeError> {
        // One branch per batch: the common column keeps its plain copy.
        match shape.narrow {
            Some(width) => {
                decoder.read_fixed(n, out, move |b| low_bits(i32::from_le_bytes(b), width))
            }
            None => decoder.read_fixed(n, out, i32::from_le_bytes),
        }
    }
    fn read_le4<'p>(
        decoder: &mut impl ValueDecoder<Item = [u8; 4]>,
        shape: PlainShape,
        n: usize,
        out: &mut impl ValueOut<Self::Value<'p>>,
    ) -> Result<(), DecodeError> {
        match shape.narrow {
            Some(width) => decoder.decode(
                n,
                &mut Mapped(out, move |b| low_bits(i32::from_le_bytes(b), width)),
            ),
            None => decoder.decode(n, &mut Mapped(out, i32::from_le_bytes)),
        }
    }
    #[allow(clippy::cast_possible_truncation)] // INT32 values, delta-decoded in 64 bits
    fn read_ints<'p>(
        decoder: &mut impl ValueDecoder<Item = i64>,
        shape: PlainShape,
        n: usize,
        out: &mut impl ValueOut<Self::Value<'p>>,
    ) -> Result<(), DecodeError> {
        // A closure, not a `fn` pointer: called per value.
        match shape.narrow {
            Some(width) => decoder.decode(n, &mut Mapped(out, move |v| low_bits(v as i32, width))),
            None => decoder.decode(n, &mut Mapped(out, |v| v as i32)),
        }
    }
}
fixed_width!(
    /// FLOAT, read as `f32`.
    Float, f32, FLOAT
);

/// BOOLEAN, read as `bool`.
#[derive(Debug, Clone, Copy)]
pub struct Boolean;
impl sealed::Sealed for Boolean {}
impl Physical for Boolean {
    type Value<'p> = bool;
    const OWNS_VALUES: bool = true;
    const DICTIONARY: bool = false;
    fn accepts(t: Type) -> bool {
        t == Type::BOOLEAN
    }
    fn read_plain<'p>(
        decoder: &mut PlainDecoder<'p>,
        _shape: PlainShape,
        n: usize,
        out: &mut impl ValueOut<Self::Value<'p>>,
    ) -> Result<(), DecodeError> {
        decoder.read_bools(n, out)
    }
    fn read_bools<'p>(
        decoder: &mut impl ValueDecoder<Item = bool>,
        _shape: PlainShape,
        n: usize,
        out: &mut impl ValueOut<Self::Value<'p>>,
    ) -> Result<(), DecodeError> {
        decoder.decode(n, out)
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
        out: &mut impl ValueOut<Self::Value<'p>>,
    ) -> Result<(), DecodeError> {
        match shape.fixed_len {
            Some(width) => decoder.read_fixed_len(n, width, out),
            None => decoder.read_byte_arrays(n, out, Ok),
        }
    }
    fn read_bytes<'p>(
        values: &mut ByteValues<'p>,
        _shape: PlainShape,
        n: usize,
        out: &mut impl ValueOut<Self::Value<'p>>,
    ) -> Result<(), DecodeError> {
        values.decode(n, out)
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
        out: &mut impl ValueOut<Self::Value<'p>>,
    ) -> Result<(), DecodeError> {
        decoder.read_byte_arrays(n, out, utf8)
    }
    #[allow(unsafe_code)] // one `from_utf8_unchecked`, see the SAFETY comment
    fn read_bytes<'p>(
        values: &mut ByteValues<'p>,
        _shape: PlainShape,
        n: usize,
        out: &mut impl ValueOut<Self::Value<'p>>,
    ) -> Result<(), DecodeError> {
        if let Some(text) = values.as_text() {
            let bytes = text.as_bytes();
            let ranges = values.ranges(n)?;
            out.put_all(ranges.map(|range| {
                // `ends` never decrease (see `Arena`); `get` keeps even a
                // broken invariant from panicking.
                let value = bytes.get(range).unwrap_or_default();
                // SAFETY: `as_text` validated `text` as UTF-8 and checked that
                // every value's end (so every start: the previous end, or 0)
                // is a character boundary of it, so `value` is UTF-8. Slicing
                // the `str` instead checks both boundaries again by reading
                // the bytes there: a cache miss per value on pages larger
                // than the cache, for rows that only borrow the text
                // (`bench-report run delta-plain rows-borrowed`, see the
                // README).
                unsafe { std::str::from_utf8_unchecked(value) }
            }));
            return Ok(());
        }
        // Not valid as a whole: find the bad value, per value.
        for value in values.take(n)? {
            out.put_all(std::iter::once(utf8(value)?));
        }
        Ok(())
    }
}

/// Checks that a string value is UTF-8.
#[inline] // per PLAIN value, as `PlainDecoder::take` (see there)
fn utf8(bytes: &[u8]) -> Result<&str, DecodeError> {
    std::str::from_utf8(bytes)
        .map_err(|e| DecodeError::Value(format!("invalid UTF-8 in a string value: {e}")))
}

/// INT64, or INT32 widened without loss (sign- or zero-extended as the column's
/// annotation says), read as `i64`.
#[derive(Debug, Clone, Copy)]
pub struct Int64;
impl sealed::Sealed for Int64 {}

/// Widens one INT32 value to `i64` as the column's signedness says.
fn widen(v: i32, shape: PlainShape) -> i64 {
    if let Some(width) = shape.narrow {
        i64::from(low_bits(v, width))
    } else if shape.unsigned {
        i64::from(v as u32)
    } else {
        i64::from(v)
    }
}

impl Physical for Int64 {
    type Value<'p> = i64;
    const OWNS_VALUES: bool = true;
    fn accepts(t: Type) -> bool {
        matches!(t, Type::INT64 | Type::INT32)
    }
    fn read_plain<'p>(
        decoder: &mut PlainDecoder<'p>,
        shape: PlainShape,
        n: usize,
        out: &mut impl ValueOut<Self::Value<'p>>,
    ) -> Result<(), DecodeError> {
        if shape.physical == Type::INT32 {
            decoder.read_fixed(n, out, |b| widen(i32::from_le_bytes(b), shape))
        } else {
            decoder.read_fixed(n, out, i64::from_le_bytes)
        }
    }
    fn read_le4<'p>(
        decoder: &mut impl ValueDecoder<Item = [u8; 4]>,
        shape: PlainShape,
        n: usize,
        out: &mut impl ValueOut<Self::Value<'p>>,
    ) -> Result<(), DecodeError> {
        decoder.decode(n, &mut Mapped(out, |b| widen(i32::from_le_bytes(b), shape)))
    }
    fn read_le8<'p>(
        decoder: &mut impl ValueDecoder<Item = [u8; 8]>,
        _shape: PlainShape,
        n: usize,
        out: &mut impl ValueOut<Self::Value<'p>>,
    ) -> Result<(), DecodeError> {
        decoder.decode(n, &mut Mapped(out, i64::from_le_bytes))
    }
    fn read_ints<'p>(
        decoder: &mut impl ValueDecoder<Item = i64>,
        shape: PlainShape,
        n: usize,
        out: &mut impl ValueOut<Self::Value<'p>>,
    ) -> Result<(), DecodeError> {
        if shape.physical == Type::INT32 {
            decoder.decode(n, &mut Mapped(out, |v| widen(v as i32, shape)))
        } else {
            decoder.decode(n, out)
        }
    }
}

/// DOUBLE, or FLOAT widened without loss, read as `f64`.
#[derive(Debug, Clone, Copy)]
pub struct Double;
impl sealed::Sealed for Double {}
impl Physical for Double {
    type Value<'p> = f64;
    const OWNS_VALUES: bool = true;
    fn accepts(t: Type) -> bool {
        matches!(t, Type::DOUBLE | Type::FLOAT)
    }
    fn read_plain<'p>(
        decoder: &mut PlainDecoder<'p>,
        shape: PlainShape,
        n: usize,
        out: &mut impl ValueOut<Self::Value<'p>>,
    ) -> Result<(), DecodeError> {
        if shape.physical == Type::FLOAT {
            decoder.read_fixed(n, out, |b| f64::from(f32::from_le_bytes(b)))
        } else {
            decoder.read_fixed(n, out, f64::from_le_bytes)
        }
    }
    fn read_le4<'p>(
        decoder: &mut impl ValueDecoder<Item = [u8; 4]>,
        _shape: PlainShape,
        n: usize,
        out: &mut impl ValueOut<Self::Value<'p>>,
    ) -> Result<(), DecodeError> {
        decoder.decode(n, &mut Mapped(out, |b| f64::from(f32::from_le_bytes(b))))
    }
    fn read_le8<'p>(
        decoder: &mut impl ValueDecoder<Item = [u8; 8]>,
        _shape: PlainShape,
        n: usize,
        out: &mut impl ValueOut<Self::Value<'p>>,
    ) -> Result<(), DecodeError> {
        decoder.decode(n, &mut Mapped(out, f64::from_le_bytes))
    }
}

/// INT96 (legacy Impala/Spark timestamps), read as its 12 raw bytes: the
/// physical type of [`Int96`](crate::Int96) fields is the field type itself,
/// so the crate has one type of that name.
impl sealed::Sealed for crate::types::Int96 {}
impl Physical for crate::types::Int96 {
    type Value<'p> = [u8; 12];
    const OWNS_VALUES: bool = true;
    fn accepts(t: Type) -> bool {
        t == Type::INT96
    }
    fn read_plain<'p>(
        decoder: &mut PlainDecoder<'p>,
        _shape: PlainShape,
        n: usize,
        out: &mut impl ValueOut<Self::Value<'p>>,
    ) -> Result<(), DecodeError> {
        decoder.read_fixed(n, out, |b| b)
    }
}

/// The unscaled value of a DECIMAL column, whatever its physical type (INT32,
/// INT64, or big-endian two's complement BYTE_ARRAY / FIXED_LEN_BYTE_ARRAY of
/// up to 16 significant bytes), read as `i128`.
#[derive(Debug, Clone, Copy)]
pub struct Unscaled;
impl sealed::Sealed for Unscaled {}

/// A big-endian two's complement integer as `i128`; wider values must be a sign
/// extension of one that fits.
fn be_i128(bytes: &[u8]) -> Result<i128, DecodeError> {
    let negative = bytes.first().is_some_and(|b| b & 0x80 != 0);
    let fill = if negative { 0xff } else { 0x00 };
    let (head, tail) = bytes.split_at(bytes.len().saturating_sub(16));
    if head.iter().any(|&b| b != fill) {
        return Err(DecodeError::Value(format!(
            "a decimal of {} bytes does not fit in 128 bits",
            bytes.len()
        )));
    }
    let mut be = [fill; 16];
    be[16 - tail.len()..].copy_from_slice(tail);
    Ok(i128::from_be_bytes(be))
}

impl Physical for Unscaled {
    type Value<'p> = i128;
    const OWNS_VALUES: bool = true;
    fn accepts(t: Type) -> bool {
        matches!(
            t,
            Type::INT32 | Type::INT64 | Type::BYTE_ARRAY | Type::FIXED_LEN_BYTE_ARRAY
        )
    }
    fn read_plain<'p>(
        decoder: &mut PlainDecoder<'p>,
        shape: PlainShape,
        n: usize,
        out: &mut impl ValueOut<Self::Value<'p>>,
    ) -> Result<(), DecodeError> {
        match shape.physical {
            Type::INT32 => decoder.read_fixed(n, out, |b| i128::from(i32::from_le_bytes(b))),
            Type::INT64 => decoder.read_fixed(n, out, |b| i128::from(i64::from_le_bytes(b))),
            _ => {
                let mut bytes = Vec::new();
                ByteArray::read_plain(decoder, shape, n, &mut bytes)?;
                for b in bytes {
                    out.put_all(std::iter::once(be_i128(b)?));
                }
                Ok(())
            }
        }
    }
    fn read_le4<'p>(
        decoder: &mut impl ValueDecoder<Item = [u8; 4]>,
        _shape: PlainShape,
        n: usize,
        out: &mut impl ValueOut<Self::Value<'p>>,
    ) -> Result<(), DecodeError> {
        decoder.decode(n, &mut Mapped(out, |b| i128::from(i32::from_le_bytes(b))))
    }
    fn read_le8<'p>(
        decoder: &mut impl ValueDecoder<Item = [u8; 8]>,
        _shape: PlainShape,
        n: usize,
        out: &mut impl ValueOut<Self::Value<'p>>,
    ) -> Result<(), DecodeError> {
        decoder.decode(n, &mut Mapped(out, |b| i128::from(i64::from_le_bytes(b))))
    }
    fn read_ints<'p>(
        decoder: &mut impl ValueDecoder<Item = i64>,
        shape: PlainShape,
        n: usize,
        out: &mut impl ValueOut<Self::Value<'p>>,
    ) -> Result<(), DecodeError> {
        if shape.physical == Type::INT32 {
            decoder.decode(n, &mut Mapped(out, |v| i128::from(v as i32)))
        } else {
            decoder.decode(n, &mut Mapped(out, i128::from))
        }
    }
    fn read_bytes<'p>(
        values: &mut ByteValues<'p>,
        _shape: PlainShape,
        n: usize,
        out: &mut impl ValueOut<Self::Value<'p>>,
    ) -> Result<(), DecodeError> {
        for b in values.take(n)? {
            out.put_all(std::iter::once(be_i128(b)?));
        }
        Ok(())
    }
}

/// A point in time: INT64 (raw, in the column's unit) or INT96 (converted to
/// nanoseconds since the epoch), read as `i64`.
#[derive(Debug, Clone, Copy)]
pub struct Instant;
impl sealed::Sealed for Instant {}

/// Nanoseconds since 1970-01-01 of an INT96 value (8 bytes nanoseconds of the
/// day, then 4 bytes Julian day, little-endian), or an error if it does not fit.
pub(crate) fn int96_nanos(b: [u8; 12]) -> Result<i64, DecodeError> {
    const JULIAN_UNIX_EPOCH: i64 = 2_440_588;
    const NANOS_PER_DAY: i64 = 86_400_000_000_000;
    let nanos = i64::from_le_bytes([b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7]]);
    let day = i64::from(i32::from_le_bytes([b[8], b[9], b[10], b[11]]));
    (day - JULIAN_UNIX_EPOCH)
        .checked_mul(NANOS_PER_DAY)
        .and_then(|d| d.checked_add(nanos))
        .ok_or_else(|| {
            DecodeError::Value(format!(
                "INT96 timestamp (Julian day {day}, {nanos} ns) does not fit in i64 nanoseconds; read it as `Int96`"
            ))
        })
}

impl Physical for Instant {
    type Value<'p> = i64;
    const OWNS_VALUES: bool = true;
    fn accepts(t: Type) -> bool {
        matches!(t, Type::INT64 | Type::INT96)
    }
    /// INT64 instants go straight from the page into the rows, as `i64`
    /// does: a `Timestamp` field then costs what an `i64` one does. INT96
    /// needs a fallible conversion per value.
    fn read_plain<'p>(
        decoder: &mut PlainDecoder<'p>,
        shape: PlainShape,
        n: usize,
        out: &mut impl ValueOut<Self::Value<'p>>,
    ) -> Result<(), DecodeError> {
        if shape.physical == Type::INT96 {
            let mut raw = Vec::new();
            decoder.read_fixed::<12, [u8; 12]>(n, &mut raw, |b| b)?;
            for b in raw {
                out.put_all(std::iter::once(int96_nanos(b)?));
            }
            Ok(())
        } else {
            decoder.read_fixed(n, out, i64::from_le_bytes)
        }
    }
    fn read_le8<'p>(
        decoder: &mut impl ValueDecoder<Item = [u8; 8]>,
        _shape: PlainShape,
        n: usize,
        out: &mut impl ValueOut<Self::Value<'p>>,
    ) -> Result<(), DecodeError> {
        decoder.decode(n, &mut Mapped(out, i64::from_le_bytes))
    }
    fn read_ints<'p>(
        decoder: &mut impl ValueDecoder<Item = i64>,
        _shape: PlainShape,
        n: usize,
        out: &mut impl ValueOut<Self::Value<'p>>,
    ) -> Result<(), DecodeError> {
        decoder.decode(n, out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Compiles only for types whose values hold no borrow of any page.
    fn borrows_nothing<P: Physical>() -> bool
    where
        for<'p> P::Value<'p>: 'static,
    {
        P::OWNS_VALUES
    }

    #[test]
    fn values_of_owning_types_borrow_nothing() {
        // Every physical type: those that say they own their values must
        // pass `borrows_nothing` (a compile-time check); byte arrays borrow.
        let owning = [
            borrows_nothing::<Boolean>(),
            borrows_nothing::<Int32>(),
            borrows_nothing::<Int64>(),
            borrows_nothing::<Float>(),
            borrows_nothing::<Double>(),
            borrows_nothing::<crate::types::Int96>(),
            borrows_nothing::<Unscaled>(),
            borrows_nothing::<Instant>(),
        ];
        assert!(owning.iter().all(|&owns| owns));
        const { assert!(!ByteArray::OWNS_VALUES && !Utf8::OWNS_VALUES) };
    }

    #[test]
    fn big_endian_decimals() {
        assert_eq!(be_i128(&[]).unwrap(), 0);
        assert_eq!(be_i128(&[0x04, 0xd2]).unwrap(), 1234);
        assert_eq!(be_i128(&[0xfb, 0x2e]).unwrap(), -1234);
        let mut wide = vec![0xff; 20];
        wide[19] = 0xfe;
        assert_eq!(be_i128(&wide).unwrap(), -2);
        assert!(be_i128(&[0x01; 17]).is_err());
    }

    fn shape() -> PlainShape {
        PlainShape {
            physical: Type::BYTE_ARRAY,
            fixed_len: None,
            unsigned: false,
            narrow: None,
        }
    }

    fn read_text<'p>(data: &'p [u8], ends: &'p [usize]) -> Result<Vec<&'p str>, DecodeError> {
        let mut values = ByteValues::slices(data, ends);
        let mut out = Vec::new();
        Utf8::read_bytes(&mut values, shape(), 1, &mut out)?;
        Utf8::read_bytes(&mut values, shape(), ends.len() - 1, &mut out)?;
        Ok(out)
    }

    #[test]
    fn utf8_slices_are_checked_once_per_page_and_exactly() {
        assert_eq!(
            read_text("abécd".as_bytes(), &[2, 4, 6]).unwrap(),
            ["ab", "é", "cd"]
        );
        // Valid as a whole, but a value boundary splits `é`: each value is invalid.
        assert!(read_text("aé".as_bytes(), &[2, 3]).is_err());
        // One invalid value among valid ones.
        assert!(read_text(b"ab\xffcd", &[2, 3, 5]).is_err());
        // Too few values left.
        let mut values = ByteValues::slices(b"ab", &[2]);
        assert!(Utf8::read_bytes(&mut values, shape(), 2, &mut Vec::new()).is_err());
    }

    #[test]
    fn incremental_values_are_read_from_the_arena_where_the_stream_stopped() {
        use crate::encoding::delta_byte_array::encode::encode;
        use crate::encoding::delta_byte_array::Incremental;
        let section = encode(&[b"axis", b"axle", b"babble", b"babyhood"]);
        let slot = std::sync::OnceLock::new();
        let mut values = ByteValues::Incremental {
            values: Incremental::new(&section, 4).unwrap(),
            arena: &slot,
        };
        assert_eq!(values.streaming().unwrap().next_value().unwrap(), b"axis");
        let mut out = Vec::new();
        Utf8::read_bytes(&mut values, shape(), 3, &mut out).unwrap();
        assert_eq!(out, ["axle", "babble", "babyhood"]);
        assert!(Utf8::read_bytes(&mut values, shape(), 1, &mut out).is_err());
    }

    /// A kind a physical type cannot be made from is an error, not a wrong
    /// value: numbers of 8 bytes read as `Int32`, integers read as `Float`.
    #[test]
    fn a_kind_the_type_cannot_hold_is_an_error() {
        use crate::encoding::byte_stream_split::Split;
        use crate::encoding::delta_binary_packed::encode::encode;
        use crate::encoding::delta_binary_packed::DeltaBinaryPackedDecoder;
        use crate::encoding::table::Section;
        let arena = std::sync::OnceLock::new();
        let bytes = [0u8; 16];
        let section = Section {
            data: &bytes,
            num_values: 2,
            fixed_len: None,
            arena: &arena,
            max_rebuilt: usize::MAX,
        };
        let mut split8 = Split::<8>::open(section).unwrap();
        assert!(Int32::read_le8(&mut split8, shape(), 1, &mut Vec::new()).is_err());
        let mut out = Vec::new();
        Int64::read_le8(&mut split8, shape(), 2, &mut out).unwrap();
        assert_eq!(out, [0, 0]);
        let ints = encode(&[1, 2], 128, 4);
        let mut delta = DeltaBinaryPackedDecoder::new(&ints).unwrap();
        assert!(Float::read_ints(&mut delta, shape(), 1, &mut Vec::new()).is_err());
    }

    #[test]
    fn int96_epoch() {
        // Julian day 2440588 is 1970-01-01; 1 ns into it.
        let mut b = [0u8; 12];
        b[0] = 1;
        b[8..].copy_from_slice(&2_440_588i32.to_le_bytes());
        assert_eq!(int96_nanos(b).unwrap(), 1);
        b[8..].copy_from_slice(&i32::MAX.to_le_bytes());
        assert!(int96_nanos(b).is_err());
    }
}
