//! The one place where a page's encoding picks its decoder.
//!
//! PLAIN and dictionary-encoded values, which every column may have, are
//! opened by the column reader itself (`column::page`). Every other encoding
//! is one line of the [`encodings!`] table below: the encoding, the column
//! types it opens on, the decoder (a [`ValueDecoder`]), the *kind* of value
//! it yields, and the function that opens it on a page's values section.
//!
//! Readers never name an encoding: they say what they make of each kind
//! ([`Kinds`]), and [`Encoded::read`] hands them the page's decoder through
//! the method of its kind. Every decoder and every conversion is a type
//! parameter there, so the decoding loop is compiled once per decoder and
//! field, with no dynamic dispatch; the one `match` on the variant runs once
//! per batch.

use std::sync::OnceLock;

use parquet::basic::{Encoding, Type};

use super::byte_stream_split::Split;
use super::byte_values::ByteValues;
use super::delta_binary_packed::DeltaBinaryPackedDecoder;
use super::delta_byte_array::{self, Incremental};
use super::rle_bool::RleBools;
use super::{byte_stream_split, delta_length_byte_array, Arena, ValueDecoder};
use crate::error::DecodeError;

/// A data page's values section, as a decoder's `open` function gets it.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Section<'p> {
    /// The section's bytes (after the levels), borrowing the page.
    pub(crate) data: &'p [u8],
    /// The page's value count, nulls included: an upper bound on the values
    /// in the section, which bounds what opening it may allocate.
    pub(crate) num_values: usize,
    /// The width of a FIXED_LEN_BYTE_ARRAY column; `None` for other types.
    pub(crate) fixed_len: Option<usize>,
    /// The page's arena slot, for values that must be rebuilt to be borrowed.
    pub(crate) arena: &'p OnceLock<Arena>,
    /// The most bytes the page's values may rebuild to (DELTA_BYTE_ARRAY):
    /// `ReadOptions::max_page_bytes`.
    pub(crate) max_rebuilt: usize,
}

/// What a reader makes of each kind of value a decoder can yield: one method
/// per kind, called by [`Encoded::read`] with the page's decoder. Physical
/// types implement it (`physical::Physical::read_ints`, ...); a kind they
/// cannot hold is an error there, not here.
pub(crate) trait Kinds<'p> {
    /// Integers, as DELTA_BINARY_PACKED yields them (INT32 values too).
    fn ints(self, decoder: &mut impl ValueDecoder<Item = i64>) -> Result<(), DecodeError>;
    /// 4-byte little-endian numbers (INT32, FLOAT).
    fn le4(self, decoder: &mut impl ValueDecoder<Item = [u8; 4]>) -> Result<(), DecodeError>;
    /// 8-byte little-endian numbers (INT64, DOUBLE).
    fn le8(self, decoder: &mut impl ValueDecoder<Item = [u8; 8]>) -> Result<(), DecodeError>;
    /// Booleans.
    fn bools(self, decoder: &mut impl ValueDecoder<Item = bool>) -> Result<(), DecodeError>;
    /// Byte arrays borrowing the page or its arena (a concrete type, not any
    /// decoder of slices: UTF-8 readers validate its values once per page).
    fn bytes(self, values: &mut ByteValues<'p>) -> Result<(), DecodeError>;
}

/// The `Encoded::streaming` arm of a table line: values of the `bytes` kind
/// may be a stream; no other kind is.
macro_rules! streaming {
    (bytes, $decoder:ident) => {
        $decoder.streaming()
    };
    ($kind:ident, $decoder:ident) => {{
        let _ = $decoder;
        None
    }};
}

/// Declares [`Encoded`], with one variant per line, and the three `match`es
/// on it: [`Encoded::open`], [`Encoded::read`] and [`Encoded::skip`].
macro_rules! encodings {
    ($(
        $(#[$doc:meta])*
        ($encoding:ident, $($column:ident)|+) => $variant:ident($decoder:ty) as $kind:ident = $open:expr;
    )*) => {
        /// The decoder of a data page's values in an encoding of the table.
        #[derive(Debug)]
        #[doc(hidden)] // appears in `Physical`'s hidden methods; not nameable outside
        #[allow(private_interfaces)] // holds the crate's own decoders, as that method does
        pub enum Encoded<'p> {
            $($(#[$doc])* $variant($decoder),)*
        }

        impl<'p> Encoded<'p> {
            /// Opens the decoder of `encoding` on a column of physical type
            /// `column`; `None` if the table has no line for the pair.
            pub(crate) fn open(
                encoding: Encoding,
                column: Type,
                section: Section<'p>,
            ) -> Result<Option<Self>, DecodeError> {
                match (encoding, column) {
                    $((Encoding::$encoding, $(Type::$column)|+) => {
                        let open: fn(Section<'p>) -> Result<$decoder, DecodeError> = $open;
                        open(section).map(|decoder| Some(Encoded::$variant(decoder)))
                    })*
                    _ => Ok(None),
                }
            }

            /// Hands the decoder to the method of `kinds` for what it yields.
            pub(crate) fn read(&mut self, kinds: impl Kinds<'p>) -> Result<(), DecodeError> {
                match self {
                    $(Encoded::$variant(decoder) => kinds.$kind(decoder),)*
                }
            }

            /// Moves past the next `n` values with the decoder's
            /// [`ValueDecoder::skip`].
            pub(crate) fn skip(&mut self, n: usize) -> Result<(), DecodeError> {
                match self {
                    $(Encoded::$variant(decoder) => decoder.skip(n),)*
                }
            }

            /// DELTA_BYTE_ARRAY values not rebuilt yet, for a reader that
            /// copies each value (see [`ByteValues::Incremental`]).
            pub(crate) fn streaming(&mut self) -> Option<&mut Incremental<'p>> {
                match self {
                    $(Encoded::$variant(decoder) => streaming!($kind, decoder),)*
                }
            }
        }
    };
}

encodings! {
    /// DELTA_BINARY_PACKED integers.
    (DELTA_BINARY_PACKED, INT32 | INT64) => Delta(DeltaBinaryPackedDecoder<'p>) as ints =
        |section| DeltaBinaryPackedDecoder::new(section.data);
    /// BYTE_STREAM_SPLIT numbers of 4 bytes.
    (BYTE_STREAM_SPLIT, INT32 | FLOAT) => Split4(Split<'p, 4>) as le4 = Split::open;
    /// BYTE_STREAM_SPLIT numbers of 8 bytes.
    (BYTE_STREAM_SPLIT, INT64 | DOUBLE) => Split8(Split<'p, 8>) as le8 = Split::open;
    /// BYTE_STREAM_SPLIT FIXED_LEN_BYTE_ARRAY values, reassembled.
    (BYTE_STREAM_SPLIT, FIXED_LEN_BYTE_ARRAY) => SplitFixed(ByteValues<'p>) as bytes =
        byte_stream_split::open_fixed_len;
    /// RLE booleans.
    (RLE, BOOLEAN) => RleBool(RleBools<'p>) as bools = RleBools::open;
    /// DELTA_LENGTH_BYTE_ARRAY values, in the page.
    (DELTA_LENGTH_BYTE_ARRAY, BYTE_ARRAY) => DeltaLength(ByteValues<'p>) as bytes =
        delta_length_byte_array::open;
    /// DELTA_BYTE_ARRAY values, streamed or rebuilt.
    (DELTA_BYTE_ARRAY, BYTE_ARRAY) => DeltaBytes(ByteValues<'p>) as bytes =
        delta_byte_array::open;
    /// DELTA_BYTE_ARRAY FIXED_LEN_BYTE_ARRAY values, rebuilt.
    (DELTA_BYTE_ARRAY, FIXED_LEN_BYTE_ARRAY) => DeltaBytesFixed(ByteValues<'p>) as bytes =
        delta_byte_array::open_fixed_len;
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Records which kind a decoder yields, and reads `n` values of it as text.
    struct Probe<'o> {
        n: usize,
        seen: &'o mut Vec<String>,
    }

    impl<'p> Kinds<'p> for Probe<'_> {
        fn ints(self, decoder: &mut impl ValueDecoder<Item = i64>) -> Result<(), DecodeError> {
            let mut out = Vec::new();
            decoder.decode(self.n, &mut out)?;
            self.seen.push(format!("ints {out:?}"));
            Ok(())
        }
        fn le4(self, decoder: &mut impl ValueDecoder<Item = [u8; 4]>) -> Result<(), DecodeError> {
            let mut out = Vec::new();
            decoder.decode(self.n, &mut out)?;
            let out: Vec<i32> = out.into_iter().map(i32::from_le_bytes).collect();
            self.seen.push(format!("le4 {out:?}"));
            Ok(())
        }
        fn le8(self, decoder: &mut impl ValueDecoder<Item = [u8; 8]>) -> Result<(), DecodeError> {
            let mut out = Vec::new();
            decoder.decode(self.n, &mut out)?;
            let out: Vec<i64> = out.into_iter().map(i64::from_le_bytes).collect();
            self.seen.push(format!("le8 {out:?}"));
            Ok(())
        }
        fn bools(self, decoder: &mut impl ValueDecoder<Item = bool>) -> Result<(), DecodeError> {
            let mut out = Vec::new();
            decoder.decode(self.n, &mut out)?;
            self.seen.push(format!("bools {out:?}"));
            Ok(())
        }
        fn bytes(self, values: &mut ByteValues<'p>) -> Result<(), DecodeError> {
            let mut out: Vec<&[u8]> = Vec::new();
            values.decode(self.n, &mut out)?;
            let out: Vec<_> = out.iter().map(|v| String::from_utf8_lossy(v)).collect();
            self.seen.push(format!("bytes {out:?}"));
            Ok(())
        }
    }

    /// Opens `data` as `encoding` of `column`, skips one value and reads the
    /// next two through [`Kinds`]: what it yielded, as text.
    fn read(encoding: Encoding, column: Type, fixed_len: Option<usize>, data: &[u8]) -> String {
        let arena = OnceLock::new();
        let section = Section {
            data,
            num_values: 3,
            fixed_len,
            arena: &arena,
            max_rebuilt: usize::MAX,
        };
        let mut decoder = Encoded::open(encoding, column, section)
            .unwrap()
            .expect("a line of the table");
        decoder.skip(1).unwrap();
        let mut seen = Vec::new();
        decoder
            .read(Probe {
                n: 2,
                seen: &mut seen,
            })
            .unwrap();
        assert!(decoder.skip(1).is_err(), "past the page's values");
        seen.concat()
    }

    /// `values` split into streams of their bytes (BYTE_STREAM_SPLIT).
    fn split<const W: usize>(values: &[[u8; W]]) -> Vec<u8> {
        (0..W)
            .flat_map(|b| values.iter().map(move |v| v[b]))
            .collect()
    }

    #[test]
    fn every_line_opens_its_decoder_and_reads_its_kind() {
        use crate::encoding::delta_binary_packed::encode::encode as delta;
        use crate::encoding::delta_byte_array::encode::encode as incremental;
        use crate::encoding::delta_length_byte_array::encode::encode as lengths;
        use Encoding::{
            BYTE_STREAM_SPLIT as BSS, DELTA_BINARY_PACKED as DBP, DELTA_BYTE_ARRAY as DBA,
            DELTA_LENGTH_BYTE_ARRAY as DLBA, RLE,
        };
        use Type::{
            BOOLEAN, BYTE_ARRAY, DOUBLE, FIXED_LEN_BYTE_ARRAY as FLBA, FLOAT, INT32, INT64,
        };

        let ints = delta(&[7, -3, 1 << 40], 128, 4);
        let words: [&[u8]; 3] = [b"ab", b"abc", b"b"];
        let fixed: [&[u8]; 3] = [b"ab", b"ac", b"bc"];
        let lengths = lengths(&words);
        let split4 = split(&[1i32, -2, 3].map(i32::to_le_bytes));
        let split8 = split(&[1i64, -2, 3 << 40].map(i64::to_le_bytes));
        let split_fixed = split(&[*b"ab", *b"ac", *b"bc"]);
        // RLE booleans: a 4-byte length, then a run of 3 `true`s (header
        // 3 << 1, the value in one byte).
        let bools = [2, 0, 0, 0, 3 << 1, 1];
        let (words, fixed) = (incremental(&words), incremental(&fixed));
        let cases = [
            (DBP, INT32, None, &ints[..], "ints [-3, 1099511627776]"),
            (DBP, INT64, None, &ints, "ints [-3, 1099511627776]"),
            (BSS, INT32, None, &split4, "le4 [-2, 3]"),
            (BSS, FLOAT, None, &split4, "le4 [-2, 3]"),
            (BSS, INT64, None, &split8, "le8 [-2, 3298534883328]"),
            (BSS, DOUBLE, None, &split8, "le8 [-2, 3298534883328]"),
            (BSS, FLBA, Some(2), &split_fixed, r#"bytes ["ac", "bc"]"#),
            (RLE, BOOLEAN, None, &bools, "bools [true, true]"),
            (DLBA, BYTE_ARRAY, None, &lengths, r#"bytes ["abc", "b"]"#),
            (DBA, BYTE_ARRAY, None, &words, r#"bytes ["abc", "b"]"#),
            (DBA, FLBA, Some(2), &fixed, r#"bytes ["ac", "bc"]"#),
        ];
        for (encoding, column, fixed_len, data, expected) in cases {
            let got = read(encoding, column, fixed_len, data);
            assert_eq!(got, expected, "{encoding} on {column}");
        }
    }

    #[test]
    fn a_pair_the_table_lacks_opens_nothing() {
        let arena = OnceLock::new();
        let section = Section {
            data: &[],
            num_values: 0,
            fixed_len: None,
            arena: &arena,
            max_rebuilt: usize::MAX,
        };
        for (encoding, column) in [
            (Encoding::DELTA_BINARY_PACKED, Type::DOUBLE),
            (Encoding::RLE, Type::INT32),
            (Encoding::DELTA_BYTE_ARRAY, Type::INT64),
            (Encoding::BYTE_STREAM_SPLIT, Type::INT96),
            (Encoding::PLAIN, Type::INT32),
        ] {
            assert!(
                Encoded::open(encoding, column, section).unwrap().is_none(),
                "{encoding} on {column}"
            );
        }
    }

    #[test]
    fn only_unrebuilt_byte_arrays_stream() {
        let arena = OnceLock::new();
        let section = |data| Section {
            data,
            num_values: 1,
            fixed_len: None,
            arena: &arena,
            max_rebuilt: usize::MAX,
        };
        let words = crate::encoding::delta_byte_array::encode::encode(&[b"a"]);
        let mut incremental = Encoded::open(
            Encoding::DELTA_BYTE_ARRAY,
            Type::BYTE_ARRAY,
            section(&words),
        )
        .unwrap()
        .unwrap();
        assert!(incremental.streaming().is_some());
        let ints = crate::encoding::delta_binary_packed::encode::encode(&[1], 128, 4);
        let mut delta = Encoded::open(Encoding::DELTA_BINARY_PACKED, Type::INT64, section(&ints))
            .unwrap()
            .unwrap();
        assert!(delta.streaming().is_none());
    }
}
