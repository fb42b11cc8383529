//! Batch decoder for PLAIN values (see the module docs for the layout).

use crate::error::DecodeError;
use crate::out::ValueOut;

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

    /// Appends `n` bit-packed booleans.
    pub(crate) fn read_bools(&mut self, n: usize, out: &mut Vec<bool>) -> Result<(), DecodeError> {
        let available = self.rest().len() * 8 - self.bit;
        if available < n {
            return Err(DecodeError::oos(format!(
                "PLAIN booleans: {n} values needed but the page has {available} bits left"
            )));
        }
        out.reserve(n);
        for _ in 0..n {
            out.push(self.data[self.pos] >> self.bit & 1 == 1);
            self.bit += 1;
            if self.bit == 8 {
                self.bit = 0;
                self.pos += 1;
            }
        }
        Ok(())
    }

    /// Appends `n` length-prefixed byte arrays, each passed through `map` (which
    /// borrows the page, e.g. to check UTF-8 once per value).
    pub(crate) fn read_byte_arrays<T>(
        &mut self,
        n: usize,
        out: &mut Vec<T>,
        map: impl Fn(&'a [u8]) -> Result<T, DecodeError>,
    ) -> Result<(), DecodeError> {
        // Every value takes at least its 4-byte length, which bounds the reservation.
        out.reserve(n.min(self.rest().len() / 4));
        for _ in 0..n {
            let len = self.take(4, "BYTE_ARRAY length")?;
            let len = u32::from_le_bytes([len[0], len[1], len[2], len[3]]) as usize;
            out.push(map(self.take(len, "BYTE_ARRAY value")?)?);
        }
        Ok(())
    }

    /// Appends `n` byte arrays of `width` bytes each (FIXED_LEN_BYTE_ARRAY).
    pub(crate) fn read_fixed_len(
        &mut self,
        n: usize,
        width: usize,
        out: &mut Vec<&'a [u8]>,
    ) -> Result<(), DecodeError> {
        let len = n
            .checked_mul(width)
            .ok_or_else(|| DecodeError::oos("value count overflows"))?;
        let bytes = self.take(len, "FIXED_LEN_BYTE_ARRAY values")?;
        if width == 0 {
            out.extend(std::iter::repeat_n(&bytes[..0], n));
        } else {
            out.extend(bytes.chunks_exact(width));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
