//! Value and level encodings, each decoded by this crate's own code.
//!
//! Decoders here work on byte slices and know nothing about columns; they return
//! [`DecodeError`] and the column reader adds the location.
//! Every decoder treats its input as untrusted: it returns an error on truncated or
//! malformed bytes and never allocates more than its caller asked to write.
//!
//! Each encoding's decoder implements [`ValueDecoder`]: decode a batch of
//! values into a [`ValueOut`], or skip values without producing them. A
//! page's decoder is picked in one place, the table in [`table`] (PLAIN and
//! dictionary indices, which every column may have, by the column reader);
//! the physical type then converts what the decoder yields (an `i64`,
//! little-endian bytes, a `bool`, a slice of the page: its kind) into its value.

mod arena;
pub(crate) mod bitpacked;
pub(crate) mod byte_stream_split;
pub(crate) mod byte_values;
pub(crate) mod delta_binary_packed;
pub(crate) mod delta_byte_array;
pub(crate) mod delta_length_byte_array;
pub(crate) mod dictionary;
pub(crate) mod plain;
pub(crate) mod rle_bool;
pub(crate) mod rle_bp;
pub(crate) mod table;
pub(crate) mod uleb128;

#[cfg(test)]
pub(crate) mod testing;

pub(crate) use arena::Arena;

use crate::error::DecodeError;

/// A destination for a run of decoded values.
#[doc(hidden)] // appears in `Physical`'s hidden methods; not nameable outside
pub trait ValueOut<T> {
    /// Takes the values in order. A destination with a fixed number of slots
    /// stops taking them when it is full (callers never offer more).
    fn put_all<I: Iterator<Item = T>>(&mut self, values: I);
    /// Says that about `additional` values will follow one at a time; a
    /// buffer reserves room for them, other destinations ignore it.
    #[inline]
    fn reserve(&mut self, additional: usize) {
        let _ = additional;
    }
}

impl<T> ValueOut<T> for Vec<T> {
    #[inline]
    fn put_all<I: Iterator<Item = T>>(&mut self, values: I) {
        self.extend(values);
    }
    #[inline]
    fn reserve(&mut self, additional: usize) {
        Vec::reserve(self, additional);
    }
}

/// Values converted by `F` on their way into `O`: how a physical type
/// composes its conversion (widening, `from_le_bytes`) with a decoder's
/// [`ValueDecoder::Item`], with no buffer in between.
pub(crate) struct Mapped<'o, O, F>(pub(crate) &'o mut O, pub(crate) F);

impl<V, T, O: ValueOut<T>, F: FnMut(V) -> T> ValueOut<V> for Mapped<'_, O, F> {
    #[inline]
    fn put_all<I: Iterator<Item = V>>(&mut self, values: I) {
        self.0.put_all(values.map(&mut self.1));
    }
    #[inline]
    fn reserve(&mut self, additional: usize) {
        self.0.reserve(additional);
    }
}

/// The decoder of one page's values section in one encoding.
///
/// Both methods either do all they are asked or fail: a section that holds
/// fewer values than asked for is an error (out of spec), never a short
/// count, because the column reader always knows how many non-null values a
/// stretch of the page must hold.
pub(crate) trait ValueDecoder {
    /// One value as the encoding yields it, before a physical type converts
    /// it: the little-endian bytes of a number, an `i64`, a dictionary
    /// entry, a slice of the page.
    type Item;

    /// Puts the next `n` values into `out`.
    ///
    /// # Errors
    /// When the section holds fewer than `n` more values or is malformed;
    /// how many values reached `out` is then unspecified.
    fn decode(&mut self, n: usize, out: &mut impl ValueOut<Self::Item>) -> Result<(), DecodeError>;

    /// Moves past the next `n` values without producing them, decoding only
    /// what the encoding needs to find the value after them.
    ///
    /// # Errors
    /// When the section holds fewer than `n` more values or is malformed.
    fn skip(&mut self, n: usize) -> Result<(), DecodeError>;
}

/// [`ValueDecoder::decode`] for a decoder whose own API fills a slice
/// (`get_batch`, returning how many it filled, fewer only at the end): `n`
/// values through a stack buffer of 256 into `out`, or [`too_few`].
#[inline]
pub(crate) fn decode_in_batches<T: Copy + Default>(
    n: usize,
    out: &mut impl ValueOut<T>,
    mut get_batch: impl FnMut(&mut [T]) -> Result<usize, DecodeError>,
) -> Result<(), DecodeError> {
    let mut buf = [T::default(); 256];
    let mut done = 0;
    while done < n {
        let k = (n - done).min(buf.len());
        let got = get_batch(&mut buf[..k])?;
        out.put_all(buf[..got].iter().copied());
        done += got;
        if got < k {
            return Err(too_few(done, n));
        }
    }
    Ok(())
}

/// The error of a decoder asked for `n` values where `got` were left.
pub(crate) fn too_few(got: usize, n: usize) -> DecodeError {
    DecodeError::oos(format!("the page ends after {got} of {n} values"))
}

/// Splits a 4-byte little-endian length prefix and the bytes it covers off
/// `data` (v1 levels, RLE booleans); `what` names them in errors.
pub(crate) fn length_prefixed<'a>(
    data: &'a [u8],
    what: &str,
) -> Result<(&'a [u8], &'a [u8]), DecodeError> {
    let Some((len, rest)) = data.split_first_chunk::<4>() else {
        return Err(DecodeError::oos(format!(
            "the page ends inside the length of its {what}"
        )));
    };
    let len = u32::from_le_bytes(*len) as usize;
    if len > rest.len() {
        return Err(DecodeError::oos(format!(
            "{what} claim {len} bytes but the page has {} left",
            rest.len()
        )));
    }
    Ok(rest.split_at(len))
}
