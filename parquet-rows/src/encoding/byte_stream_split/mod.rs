//! BYTE_STREAM_SPLIT: byte `b` of every value stored together, stream after stream.
//!
//! Spec: <https://github.com/apache/parquet-format/blob/master/Encodings.md#byte-stream-split-byte_stream_split--9>
//!
//! ```text
//! For N values of W bytes each, the page holds W streams of N bytes:
//!   stream b = byte b of value 0, byte b of value 1, ..., byte b of value N-1
//! value i = [stream 0][i], [stream 1][i], ..., [stream W-1][i]   (little-endian for numbers)
//! ```

use crate::encoding::byte_values::ByteValues;
use crate::encoding::table::Section;
use crate::encoding::{too_few, Arena, ValueDecoder, ValueOut};
use crate::error::DecodeError;

/// Decodes BYTE_STREAM_SPLIT values of a fixed width.
#[derive(Debug, Clone)]
pub(crate) struct ByteStreamSplitDecoder<'a> {
    data: &'a [u8], // invariant: data.len() == width * count
    width: usize,   // invariant: > 0
    count: usize,   // values in the page
    next: usize,    // invariant: next <= count
}

impl<'a> ByteStreamSplitDecoder<'a> {
    /// A decoder over a values section holding values of `width` bytes.
    pub(crate) fn new(data: &'a [u8], width: usize) -> Result<Self, DecodeError> {
        if width == 0 || data.len() % width != 0 {
            return Err(DecodeError::oos(format!(
                "BYTE_STREAM_SPLIT section of {} bytes is not a whole number of {width}-byte values",
                data.len()
            )));
        }
        Ok(ByteStreamSplitDecoder {
            data,
            width,
            count: data.len() / width,
            next: 0,
        })
    }

    /// Values not yet read.
    pub(crate) fn remaining(&self) -> usize {
        self.count - self.next
    }

    /// Puts the next `n` values (at most `remaining()`) into `out`, each
    /// reassembled from its `W` streams and converted with `from_le`.
    ///
    /// Values are reassembled `BLOCK` at a time, one stream after the other:
    /// each stream is then read sequentially through a slice whose bounds
    /// are checked once, where reading the `W` bytes of one value at a time
    /// checked every byte's index.
    pub(crate) fn read_with<const W: usize, T>(
        &mut self,
        n: usize,
        out: &mut impl ValueOut<T>,
        from_le: impl Fn([u8; W]) -> T,
    ) {
        const BLOCK: usize = 64;
        debug_assert_eq!(W, self.width);
        let end = (self.next + n).min(self.count);
        let mut block = [[0u8; W]; BLOCK];
        let mut at = self.next;
        while at < end {
            let m = (end - at).min(BLOCK);
            for (b, stream) in self.data.chunks_exact(self.count).take(W).enumerate() {
                for (value, &byte) in block[..m].iter_mut().zip(&stream[at..at + m]) {
                    value[b] = byte;
                }
            }
            out.put_all(block[..m].iter().map(|&bytes| from_le(bytes)));
            at += m;
        }
        self.next = end;
    }

    /// Moves past the next `n` values: an index moves, nothing is read.
    pub(crate) fn skip(&mut self, n: usize) -> Result<(), DecodeError> {
        if n > self.remaining() {
            return Err(too_few(self.remaining(), n));
        }
        self.next += n;
        Ok(())
    }

    /// Appends the next `n` values (`n <= remaining()`) as byte vectors of
    /// `width` bytes, reassembled into `arena` (FIXED_LEN_BYTE_ARRAY values
    /// cannot borrow the page: their bytes are not contiguous there).
    pub(crate) fn reassemble_into(&mut self, n: usize, arena: &mut Vec<u8>) {
        let end = (self.next + n).min(self.count);
        for i in self.next..end {
            for b in 0..self.width {
                arena.push(self.data[b * self.count + i]);
            }
        }
        self.next = end;
    }
}

/// BYTE_STREAM_SPLIT values of `W` bytes as their little-endian bytes.
#[derive(Debug)]
pub(crate) struct Split<'a, const W: usize>(pub(crate) ByteStreamSplitDecoder<'a>);

impl<'a, const W: usize> Split<'a, W> {
    /// Opens a section of numbers of `W` bytes.
    pub(crate) fn open(section: Section<'a>) -> Result<Self, DecodeError> {
        Ok(Split(ByteStreamSplitDecoder::new(section.data, W)?))
    }
}

/// Opens a section of FIXED_LEN_BYTE_ARRAY values: their bytes are not
/// contiguous in the page, so they are reassembled into the page's arena
/// once, and read from there.
pub(crate) fn open_fixed_len(section: Section<'_>) -> Result<ByteValues<'_>, DecodeError> {
    let width = section.fixed_len.unwrap_or(0);
    let arena = Arena::fill(section.arena, || {
        reassemble(section.data, width, section.num_values)
    })?;
    Ok(ByteValues::rebuilt(arena))
}

/// The values of a section of FIXED_LEN_BYTE_ARRAY(`width`) values, reassembled.
fn reassemble(data: &[u8], width: usize, num_values: usize) -> Result<Arena, DecodeError> {
    let mut decoder = ByteStreamSplitDecoder::new(data, width)?;
    let count = decoder.remaining();
    // The header's count (nulls included) bounds the values: the page's
    // length alone would let a decompressed page of zeros claim billions.
    if count > num_values {
        return Err(DecodeError::oos(format!(
            "BYTE_STREAM_SPLIT section of {} bytes holds {count} values of {width} bytes but the page has {num_values}",
            data.len()
        )));
    }
    let mut bytes = Vec::with_capacity(data.len());
    decoder.reassemble_into(count, &mut bytes);
    Ok(Arena {
        data: bytes,
        ends: (1..=count).map(|i| i * width).collect(),
        data_start: 0,
    })
}

impl<const W: usize> ValueDecoder for Split<'_, W> {
    type Item = [u8; W];
    fn decode(&mut self, n: usize, out: &mut impl ValueOut<[u8; W]>) -> Result<(), DecodeError> {
        if self.0.width != W {
            return Err(DecodeError::oos(format!(
                "BYTE_STREAM_SPLIT values of {} bytes read as {W} bytes",
                self.0.width
            )));
        }
        if n > self.0.remaining() {
            return Err(too_few(self.0.remaining(), n));
        }
        self.0.read_with(n, out, |b| b);
        Ok(())
    }
    fn skip(&mut self, n: usize) -> Result<(), DecodeError> {
        self.0.skip(n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::encoding::testing::{check_skips, Rng};

    #[test]
    fn skips_match_a_full_decode() {
        let mut rng = Rng::new(6);
        for total in [0, 1, 63, 64, 65, 1000] {
            let values: Vec<[u8; 4]> = (0..total)
                .map(|_| (rng.next_u64() as u32).to_le_bytes())
                .collect();
            let mut data = vec![0u8; total * 4];
            for (i, v) in values.iter().enumerate() {
                for (b, &byte) in v.iter().enumerate() {
                    data[b * total + i] = byte;
                }
            }
            let make = || Split::<4>(ByteStreamSplitDecoder::new(&data, 4).unwrap());
            check_skips(make, &values, total, &mut rng);
        }
    }

    #[test]
    fn spec_layout() {
        // Two f32 values 1.0 (00 00 80 3f) and -2.0 (00 00 00 c0), split in 4 streams.
        let data = [0x00, 0x00, 0x00, 0x00, 0x80, 0x00, 0x3f, 0xc0];
        let mut d = ByteStreamSplitDecoder::new(&data, 4).unwrap();
        let mut out = Vec::new();
        d.read_with(1, &mut out, f32::from_le_bytes);
        d.read_with(1, &mut out, f32::from_le_bytes);
        assert_eq!(out, [1.0, -2.0]);
        assert_eq!(d.remaining(), 0);
    }

    #[test]
    fn reassemble_fixed_len() {
        // Three 2-byte values "ab", "cd", "ef": streams "ace" and "bdf".
        let mut d = ByteStreamSplitDecoder::new(b"acebdf", 2).unwrap();
        let mut arena = Vec::new();
        d.reassemble_into(3, &mut arena);
        assert_eq!(arena, b"abcdef");
    }

    #[test]
    fn ragged_section_is_an_error() {
        assert!(ByteStreamSplitDecoder::new(&[1, 2, 3], 2).is_err());
        assert!(ByteStreamSplitDecoder::new(&[], 0).is_err());
    }
}
