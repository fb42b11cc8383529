//! Decoder for DELTA_BINARY_PACKED (see the module docs for the grammar).

use crate::encoding::bitpacked::{read_lsb, unpack};
use crate::encoding::{decode_in_batches, too_few, uleb128, ValueDecoder, ValueOut};
use crate::error::DecodeError;

/// Decodes DELTA_BINARY_PACKED values as `i64` (INT32 columns truncate: the
/// arithmetic wraps, so the low 32 bits are exact).
#[derive(Debug, Clone)]
pub(crate) struct DeltaBinaryPackedDecoder<'a> {
    data: &'a [u8],              // the encoded stream
    pos: usize,                  // invariant: pos <= data.len(); next unread byte
    values_per_miniblock: usize, // invariant: > 0 and a multiple of 8
    miniblocks_per_block: usize, // invariant: > 0
    left: usize,                 // values not yet returned (header's total minus returned)
    first: bool,                 // the header's first value has not been returned yet
    last: i64,                   // the previous value
    min_delta: i64,              // of the current block
    widths: &'a [u8],            // bit widths of the current block's miniblocks
    miniblock: usize,            // index of the current miniblock in `widths`
    mini_data: &'a [u8],         // the section from the current miniblock's first byte on
    mini_width: u32,             // invariant: <= 64; bit width of the current miniblock
    mini_next: usize,            // values of the current miniblock already returned
    mini_left: usize,            // values of the current miniblock not yet returned
}

fn uleb(data: &[u8], pos: &mut usize) -> Result<u64, DecodeError> {
    let (v, len) = uleb128::decode(&data[*pos..])?;
    *pos += len;
    Ok(v)
}

fn zigzag(data: &[u8], pos: &mut usize) -> Result<i64, DecodeError> {
    let v = uleb(data, pos)?;
    Ok((v >> 1) as i64 ^ -((v & 1) as i64))
}

impl ValueDecoder for DeltaBinaryPackedDecoder<'_> {
    type Item = i64;

    fn decode(&mut self, n: usize, out: &mut impl ValueOut<i64>) -> Result<(), DecodeError> {
        if n > self.left {
            return Err(too_few(self.left, n));
        }
        decode_in_batches(n, out, |buf| self.get_batch(buf))
    }

    /// See [`DeltaBinaryPackedDecoder::skip_values`].
    fn skip(&mut self, n: usize) -> Result<(), DecodeError> {
        self.skip_values(n)
    }
}

impl<'a> DeltaBinaryPackedDecoder<'a> {
    /// Reads the header at the start of `data`.
    pub(crate) fn new(data: &'a [u8]) -> Result<Self, DecodeError> {
        let mut pos = 0;
        let block_size = uleb(data, &mut pos)?;
        let miniblocks = uleb(data, &mut pos)?;
        let total = uleb(data, &mut pos)?;
        let first = zigzag(data, &mut pos)?;
        if block_size == 0 || miniblocks == 0 || block_size % miniblocks != 0 {
            return Err(DecodeError::oos(format!(
                "DELTA_BINARY_PACKED block size {block_size} with {miniblocks} miniblocks"
            )));
        }
        let values_per_miniblock = block_size / miniblocks;
        // The spec requires multiples of 128 and 32; only a multiple of 8 is
        // needed to decode, and bounding the sizes keeps the arithmetic small.
        if values_per_miniblock % 8 != 0 || block_size > 1 << 20 {
            return Err(DecodeError::oos(format!(
                "DELTA_BINARY_PACKED block size {block_size} with {miniblocks} miniblocks is not supported by the format"
            )));
        }
        Ok(DeltaBinaryPackedDecoder {
            data,
            pos,
            values_per_miniblock: values_per_miniblock as usize,
            miniblocks_per_block: miniblocks as usize,
            left: usize::try_from(total).unwrap_or(usize::MAX),
            first: total > 0,
            last: first,
            min_delta: 0,
            widths: &[],
            miniblock: 0,
            mini_data: &[],
            mini_width: 0,
            mini_next: 0,
            mini_left: 0,
        })
    }

    /// Values the header says are left.
    pub(crate) fn remaining(&self) -> usize {
        self.left
    }

    /// Bytes consumed so far: after the last value is read, the end of the stream
    /// (where DELTA_LENGTH_BYTE_ARRAY's data begins).
    pub(crate) fn consumed(&self) -> usize {
        self.pos
    }

    /// Fills `out` with the next values; returns how many were written (fewer
    /// only when the header's total count is reached).
    pub(crate) fn get_batch(&mut self, out: &mut [i64]) -> Result<usize, DecodeError> {
        let want = out.len().min(self.left);
        let mut written = 0;
        if want > 0 && self.first {
            out[0] = self.last;
            self.first = false;
            written = 1;
        }
        while written < want {
            if self.mini_left == 0 {
                self.next_miniblock()?;
            }
            let n = self.mini_left.min(want - written);
            let width = self.mini_width;
            let mut bit = self.mini_next * width as usize;
            let mut done = 0;
            // Whole groups of 8 that start on a group boundary (then on a byte
            // boundary) go through the width-specialised kernel; measured on
            // the DELTA fixture of `bench-report` (3 DELTA_BINARY_PACKED int
            // columns and the lengths of 2 string columns).
            if width <= 32 && self.mini_next % 8 == 0 {
                let mut packed = [0u32; 128];
                while n - done >= 8 {
                    let groups = &mut packed[..((n - done) / 8 * 8).min(128)];
                    let bytes = self.mini_data.get(bit / 8..).unwrap_or(&[]);
                    let got = unpack(bytes, width, groups);
                    let start = written + done;
                    for (o, &p) in out[start..start + got].iter_mut().zip(&groups[..got]) {
                        self.last = self
                            .last
                            .wrapping_add(self.min_delta)
                            .wrapping_add(i64::from(p));
                        *o = self.last;
                    }
                    done += got;
                    bit += got * width as usize;
                    if got < groups.len() {
                        break; // a truncated miniblock: the rest value by value
                    }
                }
            }
            for o in &mut out[written + done..written + n] {
                let packed = read_lsb(self.mini_data, bit, width);
                bit += width as usize;
                self.last = self
                    .last
                    .wrapping_add(self.min_delta)
                    .wrapping_add(packed as i64);
                *o = self.last;
            }
            self.mini_next += n;
            self.mini_left -= n;
            written += n;
        }
        self.left -= written;
        Ok(written)
    }

    /// Moves past the next `n` values without storing them. Each skipped
    /// value's packed delta is still read (the value after a skip is the
    /// previous one plus every delta in between) but only summed: a stretch
    /// of a miniblock adds `k * min_delta` and the sum of its packed deltas.
    fn skip_values(&mut self, n: usize) -> Result<(), DecodeError> {
        if n > self.left {
            return Err(too_few(self.left, n));
        }
        let mut done = 0;
        if n > 0 && self.first {
            self.first = false;
            done = 1;
        }
        while done < n {
            if self.mini_left == 0 {
                self.next_miniblock()?;
            }
            let k = self.mini_left.min(n - done);
            let width = self.mini_width;
            let mut sum = 0i64;
            if width > 0 {
                let mut bit = self.mini_next * width as usize;
                for _ in 0..k {
                    sum = sum.wrapping_add(read_lsb(self.mini_data, bit, width) as i64);
                    bit += width as usize;
                }
            }
            self.last = self
                .last
                .wrapping_add(self.min_delta.wrapping_mul(k as i64))
                .wrapping_add(sum);
            self.mini_next += k;
            self.mini_left -= k;
            done += k;
        }
        self.left -= n;
        Ok(())
    }

    /// Moves to the next miniblock, reading a block header when needed.
    fn next_miniblock(&mut self) -> Result<(), DecodeError> {
        self.miniblock += 1;
        if self.miniblock >= self.widths.len() {
            self.min_delta = zigzag(self.data, &mut self.pos)?;
            let end = self.pos + self.miniblocks_per_block;
            let Some(widths) = self.data.get(self.pos..end) else {
                return Err(DecodeError::oos(
                    "DELTA_BINARY_PACKED block header runs past the end of the page",
                ));
            };
            self.widths = widths;
            self.pos = end;
            self.miniblock = 0;
        }
        let width = u32::from(self.widths[self.miniblock]);
        if width > 64 {
            return Err(DecodeError::oos(format!(
                "DELTA_BINARY_PACKED miniblock bit width {width} is larger than 64"
            )));
        }
        let bytes = self.values_per_miniblock * width as usize / 8;
        let rest = &self.data[self.pos..];
        // The last miniblock may be cut short by a writer; the values it needs
        // must still be there (checked against what is left to read).
        let needed_values = self.values_per_miniblock.min(self.left);
        let needed_bytes = (needed_values * width as usize).div_ceil(8);
        if rest.len() < needed_bytes {
            return Err(DecodeError::oos(format!(
                "DELTA_BINARY_PACKED miniblock needs {needed_bytes} bytes but the page has {} left",
                rest.len()
            )));
        }
        let take = bytes.min(rest.len());
        // Keep the rest of the section, not just this miniblock: values are read
        // with wide loads, and a slice cut at the miniblock's end sent the last
        // values of every miniblock down the byte-by-byte path (measured: DELTA
        // fixture 93 ns/row). The bits outside the value are masked off.
        self.mini_data = rest;
        self.pos += take;
        self.mini_width = width;
        self.mini_next = 0;
        self.mini_left = self.values_per_miniblock;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::encoding::delta_binary_packed::encode::encode;
    use crate::encoding::testing::{check_skips, Rng};

    fn decode_all(data: &[u8]) -> Vec<i64> {
        let mut d = DeltaBinaryPackedDecoder::new(data).unwrap();
        let mut out = vec![0; d.remaining()];
        let n = d.get_batch(&mut out).unwrap();
        assert_eq!(n, out.len());
        assert_eq!(
            d.consumed(),
            data.len(),
            "the decoder ends where the stream ends"
        );
        out
    }

    #[test]
    fn skips_match_a_full_decode() {
        let mut rng = Rng::new(5);
        for (block, miniblocks) in [(128, 4), (32, 1), (256, 8)] {
            for total in [0, 1, 2, 31, 32, 33, 129, 1000, 5000] {
                // Widths that change from miniblock to miniblock.
                let mut v = 0i64;
                let values: Vec<i64> = (0..total)
                    .map(|i| {
                        let width = (i / 16 % 5) * 9;
                        let delta = (rng.next_u64() & ((1u64 << width) - 1)) as i64;
                        v = v.wrapping_add(delta - 100);
                        v
                    })
                    .collect();
                let data = encode(&values, block, miniblocks);
                let make = || DeltaBinaryPackedDecoder::new(&data).unwrap();
                check_skips(make, &values, total, &mut rng);
            }
        }
    }

    #[test]
    fn skipping_a_truncated_miniblock_is_an_error() {
        let values: Vec<i64> = (0..200).map(|i| i * i).collect();
        let data = encode(&values, 128, 4);
        for cut in [data.len() / 2, data.len() - 1, 6] {
            let mut d = DeltaBinaryPackedDecoder::new(&data[..cut]).unwrap();
            assert!(d.skip(200).is_err(), "cut at {cut}");
        }
        // A header claiming more values than the stream holds.
        let mut d =
            DeltaBinaryPackedDecoder::new(&[0x80, 0x01, 0x04, 0xff, 0xff, 0xff, 0xff, 0x0f, 0x02])
                .unwrap();
        assert!(d.skip(1000).is_err());
    }

    #[test]
    fn spec_example_1() {
        // Encodings.md example 1: 1, 2, 3, 4, 5 -> deltas 1 1 1 1, min delta 1,
        // all bit widths 0. Block size 128, 4 miniblocks, 5 values, first 1.
        let data = [0x80, 0x01, 0x04, 0x05, 0x02, 0x02, 0, 0, 0, 0];
        assert_eq!(decode_all(&data), [1, 2, 3, 4, 5]);
    }

    /// Miniblocks of every width the 8-at-a-time kernel handles (0..=32) and
    /// just past it, read in batches that start on and off group boundaries.
    #[test]
    fn every_miniblock_width_in_uneven_batches() {
        let mut seed = 0x9e37_79b9_7f4a_7c15_u64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        for width in 0..=34u32 {
            let mut v = 1_000i64;
            let values: Vec<i64> = (0..700)
                .map(|_| {
                    let delta = if width == 0 {
                        0
                    } else {
                        next() % (1u64 << width)
                    };
                    v = v.wrapping_add(delta as i64);
                    v
                })
                .collect();
            let data = encode(&values, 128, 4);
            for batch in [1usize, 5, 8, 13, 64, 256] {
                let mut d = DeltaBinaryPackedDecoder::new(&data).unwrap();
                let mut got = Vec::new();
                let mut buf = vec![0i64; batch];
                loop {
                    let n = d.get_batch(&mut buf).unwrap();
                    if n == 0 {
                        break;
                    }
                    got.extend_from_slice(&buf[..n]);
                }
                assert_eq!(got, values, "width {width}, batches of {batch}");
            }
        }
    }

    #[test]
    fn round_trips() {
        let cases: Vec<Vec<i64>> = vec![
            vec![],
            vec![42],
            vec![7, 5, 3, 1, 2, 3, 4, 5],
            (0..1000).map(|i| i * i - 300 * i).collect(),
            (0..300)
                .map(|i| if i % 2 == 0 { i64::MAX } else { i64::MIN })
                .collect(),
            (0..129).map(|i| (i * 7919) % 13).collect(),
        ];
        for values in cases {
            let data = encode(&values, 128, 4);
            assert_eq!(decode_all(&data), values);
            // In small batches too.
            let mut d = DeltaBinaryPackedDecoder::new(&data).unwrap();
            let mut got = Vec::new();
            let mut buf = [0i64; 7];
            loop {
                let n = d.get_batch(&mut buf).unwrap();
                if n == 0 {
                    break;
                }
                got.extend_from_slice(&buf[..n]);
            }
            assert_eq!(got, values);
        }
    }

    #[test]
    fn int32_wrapping() {
        let values: Vec<i64> = [i32::MAX, i32::MIN, 0, i32::MIN, i32::MAX]
            .map(i64::from)
            .to_vec();
        let data = encode(&values, 128, 4);
        let got: Vec<i32> = decode_all(&data).into_iter().map(|v| v as i32).collect();
        assert_eq!(got, [i32::MAX, i32::MIN, 0, i32::MIN, i32::MAX]);
    }

    #[test]
    fn malformed() {
        assert!(DeltaBinaryPackedDecoder::new(&[]).is_err());
        // Zero miniblocks.
        assert!(DeltaBinaryPackedDecoder::new(&[0x80, 0x01, 0x00, 0x05, 0x02]).is_err());
        // A block whose miniblock data is missing.
        let mut d =
            DeltaBinaryPackedDecoder::new(&[0x80, 0x01, 0x04, 0x05, 0x02, 0x02, 8]).unwrap();
        assert!(d.get_batch(&mut [0; 5]).is_err());
        // A bit width above 64.
        let mut d =
            DeltaBinaryPackedDecoder::new(&[0x80, 0x01, 0x04, 0x05, 0x02, 0x02, 65, 0, 0, 0])
                .unwrap();
        assert!(d.get_batch(&mut [0; 5]).is_err());
        // A huge declared count allocates nothing and fails when data runs out.
        let mut d =
            DeltaBinaryPackedDecoder::new(&[0x80, 0x01, 0x04, 0xff, 0xff, 0xff, 0xff, 0x0f, 0x02])
                .unwrap();
        assert!(d.get_batch(&mut [0; 64]).is_err());
    }
}
