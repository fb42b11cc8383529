//! Decoder for the RLE / bit-packing hybrid (see the module docs for the grammar).

use crate::encoding::{bitpacked, uleb128};
use crate::encoding::{decode_in_batches, too_few, ValueDecoder, ValueOut};
use crate::error::DecodeError;

/// Largest bit width the hybrid encoding allows for levels and dictionary indices.
pub(crate) const MAX_BIT_WIDTH: u32 = 32;

/// What [`RleBpDecoder::skip_counting`] saw of the values it skipped.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Tally {
    pub(crate) skipped: usize, // values skipped
    pub(crate) equal: usize,   // invariant: <= skipped; how many equal the value asked about
    pub(crate) max: u32,       // the largest value skipped (0 when none)
}

impl ValueDecoder for RleBpDecoder<'_> {
    type Item = u32;

    fn decode(&mut self, n: usize, out: &mut impl ValueOut<u32>) -> Result<(), DecodeError> {
        decode_in_batches(n, out, |buf| self.get_batch(buf))
    }

    /// See [`RleBpDecoder::skip_up_to`].
    fn skip(&mut self, n: usize) -> Result<(), DecodeError> {
        let skipped = self.skip_up_to(n)?;
        if skipped < n {
            return Err(too_few(skipped, n));
        }
        Ok(())
    }
}

/// Decodes a stream of runs into `u32` values.
#[derive(Debug, Clone)]
pub(crate) struct RleBpDecoder<'a> {
    data: &'a [u8],     // the whole encoded stream, without any length prefix
    pos: usize,         // invariant: pos <= data.len(); next run header starts here
    bit_width: u32,     // invariant: <= MAX_BIT_WIDTH
    rle_left: usize,    // values left in the current RLE run
    rle_value: u32,     // value of the current RLE run; invariant: fits in bit_width bits
    packed: &'a [u8],   // bytes of the current bit-packed run (already truncated to what exists)
    packed_bit: usize,  // bit offset of the next value in `packed`
    packed_left: usize, // invariant: packed_bit + packed_left * bit_width <= packed.len() * 8
}

impl<'a> RleBpDecoder<'a> {
    /// A decoder over `data` (no length prefix) with values of `bit_width` bits.
    pub(crate) fn new(data: &'a [u8], bit_width: u32) -> Result<Self, DecodeError> {
        if bit_width > MAX_BIT_WIDTH {
            return Err(DecodeError::oos(format!(
                "bit width {bit_width} is larger than the maximum of {MAX_BIT_WIDTH}"
            )));
        }
        Ok(RleBpDecoder {
            data,
            pos: 0,
            bit_width,
            rle_left: 0,
            rle_value: 0,
            packed: &[],
            packed_bit: 0,
            packed_left: 0,
        })
    }

    /// Fills `out` with the next values; returns how many were written.
    ///
    /// Fewer than `out.len()` means the stream ended; the caller decides whether
    /// that is an error (it knows how many values the page must hold).
    pub(crate) fn get_batch(&mut self, out: &mut [u32]) -> Result<usize, DecodeError> {
        let mut written = 0;
        while written < out.len() {
            if self.rle_left > 0 {
                let n = self.rle_left.min(out.len() - written);
                out[written..written + n].fill(self.rle_value);
                self.rle_left -= n;
                written += n;
            } else if self.packed_left > 0 {
                let n = self.packed_left.min(out.len() - written);
                self.unpack(&mut out[written..written + n]);
                written += n;
            } else if !self.next_run()? {
                break;
            }
        }
        Ok(written)
    }

    /// Appends `dict[i]` for each of the next `n` indices (fewer if the stream
    /// ends; returns how many), in one pass: RLE runs clone one entry `k` times,
    /// bit-packed groups are unpacked 8 at a time and gathered straight away.
    ///
    /// An index out of range is an error.
    pub(crate) fn gather<T: Clone>(
        &mut self,
        n: usize,
        dict: &[T],
        out: &mut impl ValueOut<T>,
    ) -> Result<usize, DecodeError> {
        let out_of_range = |i: u32| {
            DecodeError::oos(format!(
                "dictionary index {i} is out of range (the dictionary has {} entries)",
                dict.len()
            ))
        };
        // Scratch for unpacked indices, zeroed once per call and only when a
        // bit-packed run comes (a page of RLE runs never needs it). A short
        // stretch (a filtered read takes runs of a row or a few between
        // skips) uses a small buffer instead: zeroing 1 KiB for one index
        // was a third of the instructions of gathering it (callgrind, one
        // symbol of 50 spread at random, docs/filters.md).
        let mut scratch: Option<[u32; 256]> = None;
        let mut small = [0u32; 16];
        let mut written = 0;
        while written < n {
            if self.rle_left > 0 {
                let k = self.rle_left.min(n - written);
                let value = dict
                    .get(self.rle_value as usize)
                    .ok_or_else(|| out_of_range(self.rle_value))?;
                out.put_all(std::iter::repeat_n(value, k).cloned());
                self.rle_left -= k;
                written += k;
            } else if self.packed_left > 0 && n - written == 1 {
                // One index (a filtered read's run of one row): read where
                // it lies, checked by `get`. The stretch path below costs
                // about four times as many instructions for one index
                // (a scratch buffer, the group arithmetic of `unpack`,
                // the stretch check; callgrind, docs/filters.md).
                let i = bitpacked::read_lsb(self.packed, self.packed_bit, self.bit_width) as u32;
                self.packed_bit += self.bit_width as usize;
                self.packed_left -= 1;
                let value = dict.get(i as usize).ok_or_else(|| out_of_range(i))?;
                out.put_all(std::iter::once(value.clone()));
                written += 1;
            } else if self.packed_left > 0 {
                let k = self.packed_left.min(n - written);
                // Unpack a stretch of indices with the width-specialised kernel,
                // check them all at once (not one branch per value),
                // then gather: three tight loops instead of one that does all.
                let indices: &mut [u32] = if k <= small.len() {
                    &mut small
                } else {
                    scratch.get_or_insert([0; 256])
                };
                let mut left = k;
                while left > 0 {
                    let m = left.min(indices.len());
                    let indices = &mut indices[..m];
                    self.unpack(indices);
                    // Every stretch is checked, even where `bit_width` bits
                    // cannot reach past the dictionary (8 symbols in 3
                    // bits): the check is what makes `lookup` sound, and it
                    // must not rest on the unpacking kernels masking their
                    // values. The largest index is found only for the error.
                    let Some(values) = lookup(dict, indices) else {
                        let max = indices.iter().copied().max().unwrap_or(0);
                        return Err(out_of_range(max));
                    };
                    out.put_all(values);
                    left -= m;
                }
                written += k;
            } else if !self.next_run()? {
                break;
            }
        }
        Ok(written)
    }

    /// Reads the next `keep.len()` indices (fewer if the stream ends; returns
    /// how many) and clears `keep[i]` where `table[index]` is `false`: a
    /// predicate decided once per dictionary entry, applied to the indices
    /// without looking an entry up.
    ///
    /// An RLE run is one lookup, whatever its length (a rejected run is one
    /// `fill`); bit-packed groups are unpacked 256 at a time into a buffer on
    /// the stack, checked against the table's length all at once, and
    /// looked up. An index out of the table is an error, as in [`gather`](Self::gather).
    pub(crate) fn select(
        &mut self,
        table: &[bool],
        keep: &mut [bool],
    ) -> Result<usize, DecodeError> {
        let out_of_range = |i: u32| {
            DecodeError::oos(format!(
                "dictionary index {i} is out of range (the dictionary has {} entries)",
                table.len()
            ))
        };
        let last = u32::try_from(table.len().saturating_sub(1)).unwrap_or(u32::MAX);
        let checked = (1u64 << self.bit_width) > table.len() as u64;
        // A table of at most 256 entries (most dictionaries a predicate
        // probes) padded to 256: once the indices are checked below its
        // length, `i as u8` is the index and the lookup has no bounds check
        // (a compare and a branch per row, most of the lookup's cost).
        let mut padded = [false; 256];
        let small = table.len() <= padded.len();
        if small {
            padded[..table.len()].copy_from_slice(table);
        }
        let mut indices = [0u32; 256];
        let n = keep.len();
        let mut written = 0;
        while written < n {
            if self.rle_left > 0 {
                let k = self.rle_left.min(n - written);
                let verdict = *table
                    .get(self.rle_value as usize)
                    .ok_or_else(|| out_of_range(self.rle_value))?;
                if !verdict {
                    keep[written..written + k].fill(false);
                }
                self.rle_left -= k;
                written += k;
            } else if self.packed_left > 0 {
                let k = self.packed_left.min(n - written).min(indices.len());
                let indices = &mut indices[..k];
                self.unpack(indices);
                if checked && (table.is_empty() || any_above(indices, last)) {
                    let max = indices.iter().copied().max().unwrap_or(0);
                    return Err(out_of_range(max));
                }
                // In range: checked above (or the width cannot pass the table).
                let keep = keep[written..written + k].iter_mut().zip(indices.iter());
                if small {
                    // Below the table's length, at most 256: `as u8` keeps it.
                    keep.for_each(|(keep, &i)| *keep &= padded[usize::from(i as u8)]);
                } else {
                    keep.for_each(|(keep, &i)| *keep &= table[i as usize]);
                }
                written += k;
            } else if !self.next_run()? {
                break;
            }
        }
        Ok(written)
    }

    /// Consumes up to `max` values if the stream is at an RLE run of `value`,
    /// and returns how many; 0 (consuming nothing) if the next value is not
    /// in such a run (a bit-packed run, a run of another value, the end).
    ///
    /// Levels are read a run at a time with it: a page of an OPTIONAL column
    /// without nulls holds one RLE run of the maximum definition level, and
    /// the column reader then decodes its values as if the column were
    /// REQUIRED, without writing or reading one level per value.
    pub(crate) fn take_run(&mut self, value: u32, max: usize) -> Result<usize, DecodeError> {
        if self.rle_left == 0 && self.packed_left == 0 && !self.next_run()? {
            return Ok(0);
        }
        if self.rle_left == 0 || self.rle_value != value {
            return Ok(0);
        }
        let k = self.rle_left.min(max);
        self.rle_left -= k;
        Ok(k)
    }

    /// How many values are left in the current run, loading the next run
    /// when the current one is done; 0 at the end of the stream.
    pub(crate) fn run_left(&mut self) -> Result<usize, DecodeError> {
        if self.rle_left == 0 && self.packed_left == 0 && !self.next_run()? {
            return Ok(0);
        }
        Ok(self.rle_left.max(self.packed_left))
    }

    /// Skips up to `n` values without writing them; returns how many were
    /// skipped (fewer when the stream ends). RLE runs are skipped by
    /// arithmetic, bit-packed runs by moving the bit position: no value is
    /// unpacked.
    pub(crate) fn skip_up_to(&mut self, n: usize) -> Result<usize, DecodeError> {
        let mut skipped = 0;
        while skipped < n {
            if self.rle_left > 0 {
                let k = self.rle_left.min(n - skipped);
                self.rle_left -= k;
                skipped += k;
            } else if self.packed_left > 0 {
                let k = self.packed_left.min(n - skipped);
                self.packed_left -= k;
                self.packed_bit += k * self.bit_width as usize;
                skipped += k;
            } else if !self.next_run()? {
                break;
            }
        }
        Ok(skipped)
    }

    /// Skips up to `n` values (fewer when the stream ends) and tallies them:
    /// how many were skipped, how many equal `value`, and the largest.
    ///
    /// Definition levels are skipped with it: the column reader must know
    /// how many of the skipped slots hold a value (level `value`, the
    /// maximum) to skip as many values, and a level above the maximum is
    /// an error even in skipped rows. RLE runs are tallied by arithmetic;
    /// bit-packed ones are unpacked into a small buffer, never stored.
    pub(crate) fn skip_counting(&mut self, n: usize, value: u32) -> Result<Tally, DecodeError> {
        let mut tally = Tally::default();
        let mut buf = [0u32; 256];
        while tally.skipped < n {
            if self.rle_left > 0 {
                let k = self.rle_left.min(n - tally.skipped);
                self.rle_left -= k;
                tally.skipped += k;
                tally.equal += if self.rle_value == value { k } else { 0 };
                tally.max = tally.max.max(self.rle_value);
            } else if self.packed_left > 0 {
                let k = self.packed_left.min(n - tally.skipped).min(buf.len());
                let levels = &mut buf[..k];
                self.unpack(levels);
                tally.skipped += k;
                tally.equal += levels.iter().filter(|&&l| l == value).count();
                tally.max = levels.iter().copied().fold(tally.max, u32::max);
            } else if !self.next_run()? {
                break;
            }
        }
        Ok(tally)
    }

    /// Reads the next run header; `false` when the stream has ended.
    fn next_run(&mut self) -> Result<bool, DecodeError> {
        let rest = &self.data[self.pos..];
        if rest.is_empty() {
            return Ok(false);
        }
        let (header, header_len) = uleb128::decode(rest)?;
        let rest = &rest[header_len..];
        self.pos += header_len;
        let count = usize::try_from(header >> 1)
            .map_err(|_| DecodeError::oos("run length does not fit in memory"))?;
        if header & 1 == 1 {
            // Bit-packed: `count` groups of 8 values, `bit_width` bytes per group.
            let declared_bytes = count.saturating_mul(self.bit_width as usize);
            // Writers such as parquet-mr and fastparquet may end the stream inside the
            // last group (https://github.com/apache/arrow-rs/blob/main/parquet/src/encodings/rle.rs,
            // "Handle writers which truncate the final block"): keep what exists.
            let bytes = declared_bytes.min(rest.len());
            let values = if self.bit_width == 0 {
                count.saturating_mul(8)
            } else {
                (bytes * 8 / self.bit_width as usize).min(count.saturating_mul(8))
            };
            self.packed = &rest[..bytes];
            self.packed_bit = 0;
            self.packed_left = values;
            self.pos += bytes;
        } else {
            let width = self.bit_width.div_ceil(8) as usize;
            if rest.len() < width {
                return Err(DecodeError::oos(
                    "RLE run value runs past the end of the page",
                ));
            }
            let mut value = 0u32;
            for (i, &b) in rest[..width].iter().enumerate() {
                value |= u32::from(b) << (8 * i);
            }
            if self.bit_width < 32 && value >> self.bit_width != 0 {
                return Err(DecodeError::oos(format!(
                    "RLE run value {value} does not fit in {} bits",
                    self.bit_width
                )));
            }
            self.rle_value = value;
            self.rle_left = count;
            self.pos += width;
        }
        Ok(true)
    }

    /// Unpacks `out.len()` values from the current bit-packed run.
    ///
    /// Values before the next group boundary (a batch may have stopped inside a
    /// group) and in a truncated last group are read one by one; every whole
    /// group in between goes through the width-specialised kernel.
    ///
    /// # Panics
    /// If `out.len() > self.packed_left` (a caller bug: `get_batch` never does that).
    fn unpack(&mut self, out: &mut [u32]) {
        assert!(out.len() <= self.packed_left);
        let width = self.bit_width as usize;
        if width == 0 {
            out.fill(0);
            self.packed_left -= out.len();
            return;
        }
        // `packed_bit` is a multiple of `width`, so this is a whole number of values.
        let group_bits = 8 * width;
        let to_boundary = (group_bits - self.packed_bit % group_bits) % group_bits / width;
        let head = to_boundary.min(out.len());
        let (head_out, rest) = out.split_at_mut(head);
        self.unpack_one_by_one(head_out);
        let mut done = 0;
        if !rest.is_empty() {
            // Now on a group boundary, hence on a byte boundary.
            let bytes = self.packed.get(self.packed_bit / 8..).unwrap_or(&[]);
            done = bitpacked::unpack(bytes, self.bit_width, rest);
            self.packed_bit += done * width;
        }
        self.unpack_one_by_one(&mut rest[done..]);
        self.packed_left -= out.len();
    }

    /// Reads `out.len()` values of the current run one at a time (the caller
    /// updates `packed_left`).
    fn unpack_one_by_one(&mut self, out: &mut [u32]) {
        for o in out {
            *o = bitpacked::read_lsb(self.packed, self.packed_bit, self.bit_width) as u32;
            self.packed_bit += self.bit_width as usize;
        }
    }
}

/// `dict[i]` for each of `indices`, or `None` (nothing looked up) when one
/// of them is out of range.
///
/// The whole stretch is checked first, by one vectorised compare
/// ([`any_above`]), and then looked up without a check per value: with a
/// bounds check per value (a compare and a branch the compiler cannot drop,
/// as it cannot see the check of the stretch) the gather loop costs more
/// instructions per value and is not unrolled (measured in
/// `docs/performance-nullable.md`, "A gather without a check per value").
#[allow(unsafe_code)] // one unchecked lookup per index, see the SAFETY comment
#[inline]
fn lookup<'d, T: Clone>(
    dict: &'d [T],
    indices: &'d [u32],
) -> Option<impl ExactSizeIterator<Item = T> + 'd> {
    // A dictionary longer than `u32::MAX` entries holds every index.
    let last = u32::try_from(dict.len().checked_sub(1)?).unwrap_or(u32::MAX);
    if any_above(indices, last) {
        return None;
    }
    Some(indices.iter().map(move |&i| {
        // SAFETY: no index of `indices` is above `last`, checked just above,
        // and `last < dict.len()`: `dict.len() - 1`, or `u32::MAX` when the
        // dictionary is longer than that. Both slices are shared borrows
        // held by this iterator, so neither changes after the check.
        unsafe { dict.get_unchecked(i as usize) }.clone()
    }))
}

/// Whether any of `indices` is above `last`: one flag or-ed over all of
/// them, which compiles to a vectorised compare per four indices, where a
/// `max` of `u32` takes several instructions per four on x86-64's baseline
/// (SSE2 has no unsigned `max`), and `>` takes two fewer per eight than
/// `>=` (no flip of the signed compare's result); see
/// `docs/performance-nullable.md`.
#[allow(clippy::needless_bitwise_bool)] // `||` would stop at the first: one branch per index
fn any_above(indices: &[u32], last: u32) -> bool {
    indices.iter().fold(false, |up, &i| up | (i > last))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::encoding::rle_bp::encode::{encode, encode_packed, encode_rle};
    use crate::encoding::testing::{check_skips, Rng};

    /// A naive reference: every value, one at a time, through `get_batch` of 1.
    fn decode_one_by_one(data: &[u8], bit_width: u32, n: usize) -> Vec<u32> {
        let mut d = RleBpDecoder::new(data, bit_width).unwrap();
        let mut out = Vec::new();
        let mut one = [0u32];
        while out.len() < n && d.get_batch(&mut one).unwrap() == 1 {
            out.push(one[0]);
        }
        out
    }

    #[test]
    fn mixed_runs_match_reference_for_every_width() {
        // A deterministic pseudo-random mix of repeated and scattered values.
        let mut state = 0x2545_f491_4f6c_dd1d_u64;
        for width in 1..=32u32 {
            let max = if width == 32 {
                u32::MAX
            } else {
                (1u32 << width) - 1
            };
            let mut values = Vec::new();
            while values.len() < 1000 {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                let v = (state as u32) & max;
                let repeat = if state % 5 == 0 {
                    (state % 40) as usize + 8
                } else {
                    1
                };
                values.extend(std::iter::repeat_n(v, repeat));
            }
            let mut data = Vec::new();
            encode(&values, width, &mut data);
            let n = values.len();
            assert_eq!(decode_all(&data, width, n), values, "width {width}");
            assert_eq!(decode_one_by_one(&data, width, n), values, "width {width}");
        }
    }

    fn decode_all(data: &[u8], bit_width: u32, n: usize) -> Vec<u32> {
        let mut d = RleBpDecoder::new(data, bit_width).unwrap();
        let mut out = vec![0; n];
        let got = d.get_batch(&mut out).unwrap();
        out.truncate(got);
        out
    }

    #[test]
    fn spec_example_bit_packed() {
        // Encodings.md: values 0..=7 with bit width 3.
        // header: 1 group -> (1 << 1) | 1 = 0x03
        // bits (LSB first): 10001000 11000110 11111010
        let data = [0x03, 0b1000_1000, 0b1100_0110, 0b1111_1010];
        assert_eq!(decode_all(&data, 3, 8), (0..8).collect::<Vec<_>>());
    }

    #[test]
    fn runs_are_taken_whole_or_not_at_all() {
        // RLE 5 x 1, bit-packed 8 values, RLE 3 x 1.
        let mut data = Vec::new();
        encode_rle(1, 5, 1, &mut data);
        encode_packed(&[1, 0, 1, 1, 0, 1, 1, 1], 1, &mut data);
        encode_rle(1, 3, 1, &mut data);
        let mut d = RleBpDecoder::new(&data, 1).unwrap();
        assert_eq!(d.run_left().unwrap(), 5);
        assert_eq!(
            d.take_run(0, 10).unwrap(),
            0,
            "a run of 1s is not a run of 0s"
        );
        assert_eq!(d.take_run(1, 2).unwrap(), 2);
        assert_eq!(d.take_run(1, 10).unwrap(), 3);
        // Bit-packed values are never taken as a run, even when they match.
        assert_eq!(d.take_run(1, 10).unwrap(), 0);
        assert_eq!(d.run_left().unwrap(), 8);
        let mut packed = [0u32; 8];
        assert_eq!(d.get_batch(&mut packed).unwrap(), 8);
        assert_eq!(packed, [1, 0, 1, 1, 0, 1, 1, 1]);
        assert_eq!(d.take_run(1, 10).unwrap(), 3);
        assert_eq!((d.take_run(1, 10).unwrap(), d.run_left().unwrap()), (0, 0));
    }

    /// Random mixes of RLE and bit-packed runs, for a few widths.
    fn random_runs(rng: &mut Rng, width: u32, total: usize) -> (Vec<u32>, Vec<u8>) {
        let max = if width == 32 {
            u32::MAX
        } else {
            (1 << width) - 1
        };
        let mut values = Vec::new();
        while values.len() < total {
            let value = rng.next_u64() as u32 & max;
            let run = (1 + rng.below(40)).min(total - values.len());
            if rng.below(2) == 0 {
                values.extend(std::iter::repeat_n(value, run));
            } else {
                values.extend((0..run).map(|_| rng.next_u64() as u32 & max));
            }
        }
        let mut data = Vec::new();
        encode(&values, width, &mut data);
        (values, data)
    }

    #[test]
    fn skips_match_a_full_decode() {
        let mut rng = Rng::new(2);
        for width in [0, 1, 3, 8, 13, 32] {
            for total in [0, 1, 8, 9, 100, 2000] {
                let (values, data) = random_runs(&mut rng, width, total);
                // The encoder pads a last bit-packed group to 8 values.
                let mut d = RleBpDecoder::new(&data, width).unwrap();
                let mut capacity = 0;
                loop {
                    match d.get_batch(&mut [0; 64]).unwrap() {
                        0 => break,
                        got => capacity += got,
                    }
                }
                let make = || RleBpDecoder::new(&data, width).unwrap();
                check_skips(make, &values, capacity, &mut rng);
            }
        }
    }

    #[test]
    fn skip_counting_tallies_what_a_decode_would_see() {
        let mut rng = Rng::new(3);
        for width in [1, 2, 5] {
            let (values, data) = random_runs(&mut rng, width, 3000);
            let mut d = RleBpDecoder::new(&data, width).unwrap();
            let mut at = 0;
            while at < values.len() {
                let k = rng.below(700).min(values.len() - at);
                let tally = d.skip_counting(k, 1).unwrap();
                let seen = &values[at..at + k];
                assert_eq!(tally.skipped, k);
                assert_eq!(tally.equal, seen.iter().filter(|&&v| v == 1).count());
                assert_eq!(tally.max, seen.iter().copied().max().unwrap_or(0));
                at += k;
                // Decoding goes on where the skip stopped.
                let mut next = [0u32; 1];
                if at < values.len() && d.get_batch(&mut next).unwrap() == 1 {
                    assert_eq!(next[0], values[at]);
                    at += 1;
                }
            }
            // Past the end: a short tally, not an error or a panic.
            let end = d.skip_counting(100, 1).unwrap();
            assert!(end.skipped < 8, "only padding is left: {end:?}");
        }
    }

    #[test]
    fn skipping_malformed_runs_is_an_error() {
        // A run header that ends inside its varint, and an RLE value cut short.
        for data in [&[0x80][..], &[0x0a][..], &[0x0a, 0x07][..]] {
            let mut d = RleBpDecoder::new(data, 9).unwrap();
            assert!(ValueDecoder::skip(&mut d, 3).is_err(), "{data:?}");
            let mut d = RleBpDecoder::new(data, 9).unwrap();
            assert!(d.skip_counting(3, 0).is_err(), "{data:?}");
        }
    }

    #[test]
    fn the_quick_index_check_flags_exactly_the_indices_past_the_last_entry() {
        assert!(!any_above(&[], 0));
        assert!(!any_above(&[0, 7, 3, 6, 1, 2, 5, 4, 7], 7));
        assert!(any_above(&[0, 7, 3, 6, 1, 2, 5, 4, 8], 7));
        assert!(any_above(&[u32::MAX], 1 << 31), "compared unsigned");
        assert!(!any_above(&[1 << 31, u32::MAX], u32::MAX));
    }

    #[test]
    fn rle_run() {
        // header: 5 << 1 = 0x0a, value 7 in one byte
        assert_eq!(decode_all(&[0x0a, 0x07], 3, 10), vec![7; 5]);
    }

    #[test]
    fn round_trip_every_width() {
        for width in 0..=32u32 {
            let max = if width == 32 {
                u32::MAX
            } else {
                (1u32 << width) - 1
            };
            let packed: Vec<u32> = (0..24u32)
                .map(|i| i.wrapping_mul(2_654_435_761) & max)
                .collect();
            let mut data = Vec::new();
            encode_rle(max, 13, width, &mut data);
            encode_packed(&packed, width, &mut data);
            encode_rle(0, 3, width, &mut data);
            let mut expected = vec![max; 13];
            expected.extend(&packed);
            expected.extend([0, 0, 0]);
            assert_eq!(decode_all(&data, width, 100), expected, "width {width}");

            // The same through small batches and skips.
            let mut d = RleBpDecoder::new(&data, width).unwrap();
            assert_eq!(d.skip_up_to(10).unwrap(), 10);
            let mut buf = [0u32; 7];
            assert_eq!(d.get_batch(&mut buf).unwrap(), 7);
            assert_eq!(&buf[..], &expected[10..17]);
            assert_eq!(d.skip_up_to(1000).unwrap(), expected.len() - 17);
        }
    }

    #[test]
    fn gather_matches_get_batch_then_lookup() {
        let dict: Vec<u64> = (0..300).map(|i| i * 10).collect();
        let mut values: Vec<u32> = (0..500u32).map(|i| (i * 37) % 300).collect();
        values.extend(std::iter::repeat_n(299, 40));
        values.extend((0..13u32).map(|i| i % 7));
        let mut data = Vec::new();
        encode(&values, 9, &mut data);
        for batch in [1, 5, 8, 64, 1000] {
            let mut d = RleBpDecoder::new(&data, 9).unwrap();
            let mut out = Vec::new();
            while out.len() < values.len() {
                let want = batch.min(values.len() - out.len());
                assert_eq!(d.gather(want, &dict, &mut out).unwrap(), want);
            }
            let expected: Vec<u64> = values.iter().map(|&i| dict[i as usize]).collect();
            assert_eq!(out, expected, "batch {batch}");
        }
        // An index beyond the dictionary is an error, in a run and in a group.
        let mut d = RleBpDecoder::new(&data, 9).unwrap();
        assert!(d
            .gather(values.len(), &dict[..100], &mut Vec::new())
            .is_err());
        let mut rle = Vec::new();
        encode_rle(5, 10, 3, &mut rle);
        let mut d = RleBpDecoder::new(&rle, 3).unwrap();
        assert!(d.gather(10, &dict[..5], &mut Vec::new()).is_err());
        let mut d = RleBpDecoder::new(&rle, 3).unwrap();
        assert!(d.gather(10, &[] as &[u64], &mut Vec::new()).is_err());
    }

    /// Long bit-packed runs (many groups: kernel windows in place and
    /// padded) between RLE runs, of indices into a dictionary of `entries`.
    fn packed_stream(rng: &mut Rng, width: u32, entries: usize) -> (Vec<u32>, Vec<u8>) {
        let (mut values, mut data) = (Vec::new(), Vec::new());
        for groups in [37, 2, 1, 200] {
            let run: Vec<u32> = (0..8 * groups).map(|_| rng.below(entries) as u32).collect();
            encode_packed(&run, width, &mut data);
            values.extend(&run);
            let v = rng.below(entries) as u32;
            encode_rle(v, 11, width, &mut data);
            values.extend(std::iter::repeat_n(v, 11));
        }
        (values, data)
    }

    #[test]
    fn gather_matches_a_naive_lookup_for_every_width() {
        let mut rng = Rng::new(13);
        for width in 1..=32u32 {
            let entries = if width >= 9 { 300 } else { 1 << width };
            let dict: Vec<u64> = (0..entries as u64).map(|i| i * 7 + 3).collect();
            let (values, data) = packed_stream(&mut rng, width, entries);
            let expected: Vec<u64> = values.iter().map(|&i| dict[i as usize]).collect();
            // Batches that start and stop inside groups, on their boundaries,
            // and across runs.
            for sizes in [[1usize, 7, 8, 9, 64, 3], [1000, 5, 2, 333, 17, 8]] {
                let mut d = RleBpDecoder::new(&data, width).unwrap();
                let mut got = Vec::new();
                for size in sizes.iter().cycle() {
                    let want = (*size).min(values.len() - got.len());
                    if want == 0 {
                        break;
                    }
                    assert_eq!(d.gather(want, &dict, &mut got).unwrap(), want);
                }
                assert_eq!(got, expected, "width {width} sizes {sizes:?}");
                assert_eq!(d.gather(5, &dict, &mut got).unwrap(), 0, "the end");
            }
        }
    }

    #[test]
    fn gather_of_one_index_between_skips_matches_a_naive_lookup() {
        // A filtered read's short runs: skip a few, gather one, anywhere in
        // a group, in RLE runs and across runs.
        let mut rng = Rng::new(29);
        for width in 1..=32u32 {
            let entries = if width >= 9 { 300 } else { 1 << width };
            let dict: Vec<u64> = (0..entries as u64).map(|i| i * 7 + 3).collect();
            let (values, data) = packed_stream(&mut rng, width, entries);
            let mut d = RleBpDecoder::new(&data, width).unwrap();
            let (mut at, mut got, mut expected) = (0, Vec::new(), Vec::new());
            while at < values.len() {
                let skip = rng.below(12).min(values.len() - at - 1);
                assert_eq!(d.skip_up_to(skip).unwrap(), skip);
                at += skip;
                assert_eq!(d.gather(1, &dict, &mut got).unwrap(), 1);
                expected.push(dict[values[at] as usize]);
                at += 1;
            }
            assert_eq!(got, expected, "width {width}");
        }
        // One index out of the dictionary, read alone, is the error.
        let mut data = Vec::new();
        encode_packed(&[0, 1, 2, 3, 4, 5, 6, 7], 3, &mut data);
        let mut d = RleBpDecoder::new(&data, 3).unwrap();
        let dict = [10u8, 11, 12];
        let mut got = Vec::new();
        d.skip_up_to(2).unwrap();
        assert_eq!(d.gather(1, &dict, &mut got).unwrap(), 1);
        let err = d.gather(1, &dict, &mut got).unwrap_err();
        let err = format!("{err:?}");
        assert!(err.contains("dictionary index 3 is out of range"), "{err}");
        assert_eq!(got, [12]);
    }

    #[test]
    fn select_matches_a_naive_lookup_for_every_width() {
        let mut rng = Rng::new(17);
        // Tables over 256 entries, and of at most 256 (looked up padded)
        // under indices of every width.
        let cases = (1..=32u32).flat_map(|w| [(w, if w >= 9 { 300 } else { 1 << w }), (w, 200)]);
        for (width, entries) in cases.filter(|&(w, e)| e <= 1usize << w.min(31)) {
            let table: Vec<bool> = (0..entries).map(|_| rng.below(10) < 3).collect();
            let (values, data) = packed_stream(&mut rng, width, entries);
            // Rows another predicate rejected already stay rejected.
            let before: Vec<bool> = values.iter().map(|_| rng.below(10) != 0).collect();
            let expected: Vec<bool> = values
                .iter()
                .zip(&before)
                .map(|(&i, &b)| b && table[i as usize])
                .collect();
            for sizes in [[1usize, 7, 8, 9, 64, 3], [1000, 5, 2, 333, 17, 8]] {
                let mut d = RleBpDecoder::new(&data, width).unwrap();
                let mut keep = before.clone();
                let mut done = 0;
                for size in sizes.iter().cycle() {
                    let want = (*size).min(values.len() - done);
                    if want == 0 {
                        break;
                    }
                    let got = d.select(&table, &mut keep[done..done + want]).unwrap();
                    assert_eq!(got, want);
                    done += want;
                }
                assert_eq!(
                    keep, expected,
                    "width {width}, {entries} entries, sizes {sizes:?}"
                );
                assert_eq!(d.select(&table, &mut [true; 5]).unwrap(), 0, "the end");
            }
        }
    }

    #[test]
    fn select_finds_an_index_out_of_the_table_in_a_run_and_in_a_group() {
        let table = [true, false, true];
        let message = "dictionary index 3 is out of range (the dictionary has 3 entries)";
        for width in [2, 5, 9, 32] {
            for bad_at in [0, 7, 8, 399] {
                let mut run = vec![1u32; 400];
                run[bad_at] = 3;
                let mut data = Vec::new();
                encode_packed(&run, width, &mut data);
                let mut d = RleBpDecoder::new(&data, width).unwrap();
                let err = d.select(&table, &mut [true; 400]).unwrap_err();
                assert_eq!(err, DecodeError::oos(message), "width {width} at {bad_at}");
            }
            // An RLE run of index 3, whether its rows are kept or not.
            let mut rle = Vec::new();
            encode_rle(3, 10, width, &mut rle);
            let mut d = RleBpDecoder::new(&rle, width).unwrap();
            let err = d.select(&table, &mut [false; 10]).unwrap_err();
            assert_eq!(err, DecodeError::oos(message), "width {width}, a run");
        }
        // No dictionary at all: every index is out of it.
        let mut rle = Vec::new();
        encode_rle(0, 4, 1, &mut rle);
        let mut d = RleBpDecoder::new(&rle, 1).unwrap();
        assert!(d.select(&[], &mut [true; 4]).is_err());
    }

    #[test]
    fn gather_finds_an_index_out_of_range_anywhere_in_a_run() {
        let dict = [10u32, 11, 12];
        for width in [2, 5, 9, 17, 32] {
            for bad_at in [0, 3, 7, 8, 100, 399] {
                let mut run = vec![1u32; 400];
                run[bad_at] = 3;
                let mut data = Vec::new();
                encode_packed(&run, width, &mut data);
                // Off a group boundary first, or not.
                for first in [0, 5] {
                    let mut d = RleBpDecoder::new(&data, width).unwrap();
                    let mut out = Vec::new();
                    let result = d
                        .gather(first, &dict, &mut out)
                        .and_then(|_| d.gather(400 - first, &dict, &mut out));
                    let err = result.expect_err("index 3 is out of a dictionary of 3");
                    assert_eq!(
                        err,
                        DecodeError::oos(
                            "dictionary index 3 is out of range (the dictionary has 3 entries)"
                        ),
                        "width {width} at {bad_at} first {first}"
                    );
                    assert!(out.len() <= bad_at, "no value at or past the bad index");
                    assert!(out.iter().all(|&v| v == 11));
                }
            }
        }
    }

    #[test]
    fn lookup_checks_the_whole_stretch_before_any_value() {
        let dict = [10u64, 11, 12];
        let got: Vec<u64> = lookup(&dict, &[2, 0, 1, 2]).unwrap().collect();
        assert_eq!(got, [12, 10, 11, 12]);
        assert_eq!(lookup(&dict, &[]).unwrap().len(), 0);
        // One index at the length, first, last or in the middle of a stretch.
        for bad_at in [0, 5, 255] {
            let mut indices = [1u32; 256];
            indices[bad_at] = 3;
            assert!(lookup(&dict, &indices).is_none(), "at {bad_at}");
        }
        assert!(lookup(&dict, &[u32::MAX]).is_none(), "compared unsigned");
        // An empty dictionary holds no index, not even 0.
        assert!(lookup(&[] as &[u64], &[0]).is_none());
        assert!(lookup(&[] as &[u64], &[]).is_none());
    }

    #[test]
    fn gather_checks_indices_whatever_the_dictionary_size() {
        // A dictionary of `2^width` entries or more (every index fits) and
        // one of fewer, with bit-packed stretches that start and stop across
        // the 256-index scratch and its groups of 8, between RLE runs.
        let mut rng = Rng::new(29);
        for width in [1u32, 3, 8] {
            let full = 1usize << width;
            for entries in [full, full + 5, 300] {
                let dict: Vec<u64> = (0..entries as u64).map(|i| i * 3 + 1).collect();
                let (values, data) = packed_stream(&mut rng, width, full.min(entries));
                let expected: Vec<u64> = values.iter().map(|&i| dict[i as usize]).collect();
                for size in [255usize, 256, 257, 1024] {
                    let mut d = RleBpDecoder::new(&data, width).unwrap();
                    let mut got = Vec::new();
                    while got.len() < values.len() {
                        let want = size.min(values.len() - got.len());
                        assert_eq!(d.gather(want, &dict, &mut got).unwrap(), want);
                    }
                    assert_eq!(got, expected, "width {width} entries {entries} size {size}");
                }
            }
            // The dictionary one entry short of the largest index: an error,
            // and no value at or past the first such index is written.
            let (values, data) = packed_stream(&mut rng, width, full);
            let max = *values.iter().max().unwrap();
            let first = values.iter().position(|&v| v == max).unwrap();
            let dict: Vec<u64> = (0..u64::from(max)).collect();
            let mut d = RleBpDecoder::new(&data, width).unwrap();
            let mut out = Vec::new();
            let err = d.gather(values.len(), &dict, &mut out).unwrap_err();
            assert_eq!(
                err,
                DecodeError::oos(format!(
                    "dictionary index {max} is out of range (the dictionary has {max} entries)"
                ))
            );
            assert!(out.len() <= first, "width {width}: {} values", out.len());
            let before: Vec<u64> = values[..out.len()].iter().map(|&i| u64::from(i)).collect();
            assert_eq!(out, before);
        }
    }

    #[test]
    fn gather_of_a_truncated_run_keeps_what_exists() {
        let dict: Vec<u16> = (0..300).collect();
        for width in [3, 9, 17, 32] {
            let entries = if width < 9 { 1 << width } else { 300 };
            let run: Vec<u32> = (0..400).map(|i| (i * 7) % entries).collect();
            let mut data = Vec::new();
            encode_packed(&run, width, &mut data);
            let header = data.len() - 400 * width as usize / 8;
            for cut in [
                0,
                1,
                width as usize,
                41,
                47 * width as usize + 3,
                399 * width as usize / 8,
            ] {
                let bytes = &data[..header + cut];
                let whole = cut * 8 / width as usize;
                let mut d = RleBpDecoder::new(bytes, width).unwrap();
                let mut out = Vec::new();
                assert_eq!(d.gather(400, &dict, &mut out).unwrap(), whole, "cut {cut}");
                let expected: Vec<u16> = run[..whole].iter().map(|&i| i as u16).collect();
                assert_eq!(out, expected, "width {width} cut {cut}");
                // Through the dictionary decoder, too few values is an error.
                let mut indices = RleBpDecoder::new(bytes, width).unwrap();
                let mut dd = crate::encoding::dictionary::DictionaryDecoder {
                    indices: &mut indices,
                    dict: &dict,
                };
                assert!(dd.decode(400, &mut Vec::new()).is_err(), "cut {cut}");
            }
        }
    }

    #[test]
    fn uneven_batches_match_reference_for_every_width() {
        // Batches that stop inside groups, so the next batch starts off a group
        // boundary (the kernel must catch up value by value), with long
        // bit-packed runs (the kernel's in-place and padded paths) and RLE runs.
        let mut state = 0x9e37_79b9_7f4a_7c15_u64;
        for width in 0..=32u32 {
            let max = if width == 32 {
                u32::MAX
            } else {
                (1u32 << width) - 1
            };
            let mut values = Vec::new();
            while values.len() < 3000 {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                if state % 9 == 0 {
                    values.extend(std::iter::repeat_n((state >> 20) as u32 & max, 37));
                } else {
                    values.extend(
                        (0..(state % 700) as usize).map(|i| (i as u32).wrapping_mul(40_503) & max),
                    );
                }
            }
            let mut data = Vec::new();
            encode(&values, width, &mut data);
            let dict: Vec<u64> = if width <= 12 {
                (0..=u64::from(max)).map(|i| i * 3 + 1).collect()
            } else {
                Vec::new()
            };
            for sizes in [[3usize, 1, 13, 8, 300, 7], [1024, 5, 256, 255, 9, 1]] {
                let mut d = RleBpDecoder::new(&data, width).unwrap();
                let mut g = RleBpDecoder::new(&data, width).unwrap();
                let mut got = Vec::new();
                let mut gathered = Vec::new();
                for size in sizes.iter().cycle() {
                    let want = (*size).min(values.len() - got.len());
                    if want == 0 {
                        break;
                    }
                    let mut buf = vec![0u32; want];
                    assert_eq!(d.get_batch(&mut buf).unwrap(), want);
                    got.extend_from_slice(&buf);
                    if !dict.is_empty() {
                        assert_eq!(g.gather(want, &dict, &mut gathered).unwrap(), want);
                    }
                }
                assert_eq!(got, values, "width {width} sizes {sizes:?}");
                if !dict.is_empty() {
                    let expected: Vec<u64> = values.iter().map(|&i| dict[i as usize]).collect();
                    assert_eq!(gathered, expected, "gather width {width} sizes {sizes:?}");
                }
            }
        }
    }

    #[test]
    fn truncated_final_group_keeps_what_exists() {
        // One group declared (8 values of 8 bits) but only 3 bytes present.
        let data = [0x03, 1, 2, 3];
        assert_eq!(decode_all(&data, 8, 8), vec![1, 2, 3]);
    }

    #[test]
    fn malformed_input_is_an_error() {
        assert!(RleBpDecoder::new(&[], 33).is_err());
        // RLE run whose value byte is missing.
        let mut d = RleBpDecoder::new(&[0x0a], 8).unwrap();
        assert!(d.get_batch(&mut [0; 4]).is_err());
        // RLE value wider than the bit width.
        let mut d = RleBpDecoder::new(&[0x0a, 0x05], 1).unwrap();
        assert!(d.get_batch(&mut [0; 4]).is_err());
        // Over-long varint header.
        let mut d = RleBpDecoder::new(&[0xff; 12], 1).unwrap();
        assert!(d.get_batch(&mut [0; 4]).is_err());
    }

    #[test]
    fn huge_declared_runs_do_not_allocate() {
        // An RLE run claiming 2^40 values: counting, not allocating.
        let mut data = Vec::new();
        encode_rle(1, 1 << 40, 1, &mut data);
        let mut d = RleBpDecoder::new(&data, 1).unwrap();
        let mut out = [0u32; 16];
        assert_eq!(d.get_batch(&mut out).unwrap(), 16);
        assert_eq!(out, [1; 16]);
    }
}
