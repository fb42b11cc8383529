//! Batch decoder for PLAIN values (see the module docs for the layout).

use crate::encoding::{ValueDecoder, ValueOut};
use crate::error::DecodeError;

/// A cursor over PLAIN-encoded values.
///
/// Each `read_*` method appends exactly `n` values to `out` or returns an error,
/// and checks that the bytes exist before reserving anything.
#[derive(Debug, Clone)]
pub(crate) struct PlainDecoder<'a> {
    data: &'a [u8], // the values section of one page
    pos: usize,     // invariant: pos <= data.len(); next byte to read
    bit: usize,     // invariant: bit < 8; bit offset inside data[pos] (booleans only)
}

impl<'a> PlainDecoder<'a> {
    /// A decoder over the values section of a page.
    pub(crate) fn new(data: &'a [u8]) -> Self {
        PlainDecoder {
            data,
            pos: 0,
            bit: 0,
        }
    }

    /// Bytes not consumed yet.
    fn rest(&self) -> &'a [u8] {
        &self.data[self.pos..]
    }

    /// Takes `len` bytes or fails with a message naming `what`.
    // Called per value for byte arrays; once `read_byte_arrays` wrote into
    // any `ValueOut` the compiler stopped inlining it: +9% instructions
    // reading PLAIN `Option<&str>` (callgrind, the plain-strings case of
    // docs/performance.md) until it was marked.
    #[inline]
    fn take(&mut self, len: usize, what: &str) -> Result<&'a [u8], DecodeError> {
        let rest = self.rest();
        if rest.len() < len {
            return Err(DecodeError::oos(format!(
                "{what}: {len} bytes needed but the page has {} left",
                rest.len()
            )));
        }
        self.pos += len;
        Ok(&rest[..len])
    }

    /// Appends `n` fixed-width little-endian values (INT32, INT64, FLOAT, DOUBLE).
    pub(crate) fn read_fixed<const N: usize, T>(
        &mut self,
        n: usize,
        out: &mut impl ValueOut<T>,
        from_le: impl Fn([u8; N]) -> T,
    ) -> Result<(), DecodeError> {
        let len = n
            .checked_mul(N)
            .ok_or_else(|| DecodeError::oos("value count overflows"))?;
        let bytes = self.take(len, "PLAIN values")?;
        out.put_all(bytes.chunks_exact(N).map(|chunk| {
            let mut le = [0u8; N];
            le.copy_from_slice(chunk);
            from_le(le)
        }));
        Ok(())
    }

    /// Puts `n` bit-packed booleans into `out`.
    pub(crate) fn read_bools(
        &mut self,
        n: usize,
        out: &mut impl ValueOut<bool>,
    ) -> Result<(), DecodeError> {
        let start = self.pos * 8 + self.bit;
        self.skip_bools(n)?;
        let data = self.data;
        out.put_all((start..start + n).map(|i| data[i / 8] >> (i % 8) & 1 == 1));
        Ok(())
    }

    /// Moves past `n` bit-packed booleans.
    fn skip_bools(&mut self, n: usize) -> Result<(), DecodeError> {
        let available = self.rest().len() * 8 - self.bit;
        if available < n {
            return Err(DecodeError::oos(format!(
                "PLAIN booleans: {n} values needed but the page has {available} bits left"
            )));
        }
        let end = self.pos * 8 + self.bit + n;
        (self.pos, self.bit) = (end / 8, end % 8);
        Ok(())
    }

    /// Appends `n` length-prefixed byte arrays, each passed through `map` (which
    /// borrows the page, e.g. to check UTF-8 once per value).
    pub(crate) fn read_byte_arrays<T>(
        &mut self,
        n: usize,
        out: &mut impl ValueOut<T>,
        map: impl Fn(&'a [u8]) -> Result<T, DecodeError>,
    ) -> Result<(), DecodeError> {
        // Every value takes at least its 4-byte length, which bounds the reservation.
        out.reserve(n.min(self.rest().len() / 4));
        for _ in 0..n {
            let len = self.take(4, "BYTE_ARRAY length")?;
            let len = u32::from_le_bytes([len[0], len[1], len[2], len[3]]) as usize;
            out.put_all(std::iter::once(map(self.take(len, "BYTE_ARRAY value")?)?));
        }
        Ok(())
    }

    /// Puts `n` byte arrays of `width` bytes each (FIXED_LEN_BYTE_ARRAY) into `out`.
    pub(crate) fn read_fixed_len(
        &mut self,
        n: usize,
        width: usize,
        out: &mut impl ValueOut<&'a [u8]>,
    ) -> Result<(), DecodeError> {
        let bytes = self.take_values(n, width, "FIXED_LEN_BYTE_ARRAY values")?;
        if width == 0 {
            out.put_all(std::iter::repeat_n(&bytes[..0], n));
        } else {
            out.put_all(bytes.chunks_exact(width));
        }
        Ok(())
    }

    /// Takes the bytes of `n` values of `width` bytes.
    fn take_values(&mut self, n: usize, width: usize, what: &str) -> Result<&'a [u8], DecodeError> {
        let len = n
            .checked_mul(width)
            .ok_or_else(|| DecodeError::oos("value count overflows"))?;
        self.take(len, what)
    }

    /// Moves past `n` length-prefixed byte arrays, reading only their lengths.
    fn skip_byte_arrays(&mut self, n: usize) -> Result<(), DecodeError> {
        for _ in 0..n {
            let len = self.take(4, "BYTE_ARRAY length")?;
            let len = u32::from_le_bytes([len[0], len[1], len[2], len[3]]) as usize;
            self.take(len, "BYTE_ARRAY value")?;
        }
        Ok(())
    }
}

// The views below own their cursor (three words, moved in and out by the
// column reader) so that a test can open one over a section by itself.

/// PLAIN values of `W` bytes (INT32, INT64, INT96, FLOAT, DOUBLE) as their
/// little-endian bytes.
#[derive(Debug)]
pub(crate) struct Fixed<'a, const W: usize>(pub(crate) PlainDecoder<'a>);

impl<const W: usize> ValueDecoder for Fixed<'_, W> {
    type Item = [u8; W];
    fn decode(&mut self, n: usize, out: &mut impl ValueOut<[u8; W]>) -> Result<(), DecodeError> {
        self.0.read_fixed(n, out, |b| b)
    }
    /// Advances past the values' bytes.
    fn skip(&mut self, n: usize) -> Result<(), DecodeError> {
        self.0.take_values(n, W, "PLAIN values").map(drop)
    }
}

/// PLAIN FIXED_LEN_BYTE_ARRAY values of `width` bytes, borrowing the page.
#[derive(Debug)]
pub(crate) struct FixedLen<'a> {
    pub(crate) decoder: PlainDecoder<'a>,
    pub(crate) width: usize,
}

impl<'a> ValueDecoder for FixedLen<'a> {
    type Item = &'a [u8];
    fn decode(&mut self, n: usize, out: &mut impl ValueOut<&'a [u8]>) -> Result<(), DecodeError> {
        self.decoder.read_fixed_len(n, self.width, out)
    }
    /// Advances past the values' bytes.
    fn skip(&mut self, n: usize) -> Result<(), DecodeError> {
        let what = "FIXED_LEN_BYTE_ARRAY values";
        self.decoder.take_values(n, self.width, what).map(drop)
    }
}

/// PLAIN BYTE_ARRAY values, borrowing the page.
#[derive(Debug)]
pub(crate) struct ByteArrays<'a>(pub(crate) PlainDecoder<'a>);

impl<'a> ValueDecoder for ByteArrays<'a> {
    type Item = &'a [u8];
    fn decode(&mut self, n: usize, out: &mut impl ValueOut<&'a [u8]>) -> Result<(), DecodeError> {
        for _ in 0..n {
            let len = self.0.take(4, "BYTE_ARRAY length")?;
            let len = u32::from_le_bytes([len[0], len[1], len[2], len[3]]) as usize;
            out.put_all(std::iter::once(self.0.take(len, "BYTE_ARRAY value")?));
        }
        Ok(())
    }
    /// Reads each value's length to find the next; the values' bytes are not read.
    fn skip(&mut self, n: usize) -> Result<(), DecodeError> {
        self.0.skip_byte_arrays(n)
    }
}

/// PLAIN BOOLEAN values (bit-packed, LSB first).
#[derive(Debug)]
pub(crate) struct Bools<'a>(pub(crate) PlainDecoder<'a>);

impl ValueDecoder for Bools<'_> {
    type Item = bool;
    fn decode(&mut self, n: usize, out: &mut impl ValueOut<bool>) -> Result<(), DecodeError> {
        self.0.read_bools(n, out)
    }
    /// Advances the bit position.
    fn skip(&mut self, n: usize) -> Result<(), DecodeError> {
        self.0.skip_bools(n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::encoding::testing::{check_skips, Rng};

    #[test]
    fn skips_match_a_full_decode() {
        let mut rng = Rng::new(1);
        for total in [0usize, 1, 7, 8, 9, 100, 1000] {
            let numbers: Vec<[u8; 8]> = (0..total).map(|_| rng.next_u64().to_le_bytes()).collect();
            let data = numbers.concat();
            let plain = || PlainDecoder::new(&data);
            check_skips(|| Fixed::<8>(plain()), &numbers, total, &mut rng);
            let pairs: Vec<&[u8]> = data.chunks(16).filter(|c| c.len() == 16).collect();
            let fixed_len = || FixedLen {
                decoder: plain(),
                width: 16,
            };
            check_skips(fixed_len, &pairs, pairs.len(), &mut rng);

            let arrays: Vec<Vec<u8>> = (0..total)
                .map(|_| (0..rng.below(12)).map(|_| rng.next_u64() as u8).collect())
                .collect();
            let mut data = Vec::new();
            for a in &arrays {
                data.extend((a.len() as u32).to_le_bytes());
                data.extend(a);
            }
            let expected: Vec<&[u8]> = arrays.iter().map(Vec::as_slice).collect();
            check_skips(
                || ByteArrays(PlainDecoder::new(&data)),
                &expected,
                total,
                &mut rng,
            );

            let bools: Vec<bool> = (0..total).map(|_| rng.below(2) == 1).collect();
            let mut data = vec![0u8; total.div_ceil(8)];
            for (i, &b) in bools.iter().enumerate() {
                data[i / 8] |= u8::from(b) << (i % 8);
            }
            // The last byte's padding bits read as `false`.
            let capacity = data.len() * 8;
            check_skips(
                || Bools(PlainDecoder::new(&data)),
                &bools,
                capacity,
                &mut rng,
            );
        }
    }

    #[test]
    fn skipping_a_truncated_byte_array_is_an_error() {
        let data = [2, 0, 0, 0, b'h', b'i', 9, 0, 0, 0, 1];
        let mut arrays = ByteArrays(PlainDecoder::new(&data));
        arrays.skip(1).unwrap();
        assert!(arrays.skip(1).is_err(), "a length past the page");
        let mut arrays = ByteArrays(PlainDecoder::new(&data[..2]));
        assert!(arrays.skip(1).is_err(), "a length cut short");
    }

    #[test]
    fn fixed_width() {
        let mut data = Vec::new();
        for v in [1i64, -2, i64::MAX] {
            data.extend(v.to_le_bytes());
        }
        let mut d = PlainDecoder::new(&data);
        let mut out = Vec::new();
        d.read_fixed(2, &mut out, i64::from_le_bytes).unwrap();
        d.read_fixed(1, &mut out, i64::from_le_bytes).unwrap();
        assert_eq!(out, [1, -2, i64::MAX]);
        assert!(d.read_fixed(1, &mut out, i64::from_le_bytes).is_err());
    }

    #[test]
    fn bools_lsb_first() {
        // 0b0000_0101 -> true, false, true, false...; second byte 0b1 -> true
        let mut d = PlainDecoder::new(&[0b0000_0101, 0b0000_0001]);
        let mut out = Vec::new();
        d.read_bools(3, &mut out).unwrap();
        d.read_bools(6, &mut out).unwrap();
        assert_eq!(
            out,
            [true, false, true, false, false, false, false, false, true]
        );
        assert!(d.read_bools(8, &mut out).is_err());
    }

    #[test]
    fn byte_arrays() {
        let data = [2, 0, 0, 0, b'h', b'i', 0, 0, 0, 0, 1, 0, 0, 0, 0xff];
        let mut d = PlainDecoder::new(&data);
        let mut out = Vec::new();
        d.read_byte_arrays(3, &mut out, Ok).unwrap();
        assert_eq!(out, [&b"hi"[..], b"", &[0xff]]);
        // A length that runs past the page.
        let mut d = PlainDecoder::new(&[9, 0, 0, 0, 1]);
        assert!(d.read_byte_arrays(1, &mut out, Ok).is_err());
        // A huge claimed count reserves nothing it cannot fill.
        let mut d = PlainDecoder::new(&[]);
        let mut empty: Vec<&[u8]> = Vec::new();
        assert!(d.read_byte_arrays(usize::MAX, &mut empty, Ok).is_err());
    }

    #[test]
    fn fixed_len() {
        let mut d = PlainDecoder::new(b"abcdef");
        let mut out = Vec::new();
        d.read_fixed_len(3, 2, &mut out).unwrap();
        assert_eq!(out, [&b"ab"[..], b"cd", b"ef"]);
        assert!(d.read_fixed_len(1, 2, &mut out).is_err());
        assert!(d.read_fixed_len(usize::MAX, 2, &mut out).is_err());
    }
}
