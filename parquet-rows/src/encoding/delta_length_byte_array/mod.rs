//! DELTA_LENGTH_BYTE_ARRAY: all lengths (DELTA_BINARY_PACKED), then all bytes.
//!
//! Spec: <https://github.com/apache/parquet-format/blob/master/Encodings.md#delta-length-byte-array-delta_length_byte_array--6>
//!
//! ```text
//! delta-length-byte-array := <lengths: DELTA_BINARY_PACKED> <value bytes, concatenated>
//! ```
//!
//! Values stay in the page: decoding yields the end offset of each value, and
//! `&[u8]` / `&str` fields borrow the page bytes.

use crate::encoding::byte_values::ByteValues;
use crate::encoding::delta_binary_packed::DeltaBinaryPackedDecoder;
use crate::encoding::table::Section;
use crate::encoding::{too_few, Arena, ValueDecoder, ValueOut};
use crate::error::DecodeError;

/// The most values of one DELTA_LENGTH_BYTE_ARRAY or DELTA_BYTE_ARRAY page:
/// their bounds take a word each in memory whatever the page's size (writers
/// cut pages at about 1 MiB or 20,000 values).
pub(crate) const MAX_PAGE_VALUES: usize = 1 << 25;

/// The values of one page: `data[ends[i-1]..ends[i]]` is value `i`.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub(crate) struct Slices {
    /// Where the values' bytes start in the section.
    pub(crate) data_start: usize,
    /// End offset of each value, relative to `data_start`; non-decreasing.
    pub(crate) ends: Vec<usize>,
}

/// Byte arrays whose bounds are known, one after the other: value `i` is
/// `data[ends[i-1]..ends[i]]`. DELTA_LENGTH_BYTE_ARRAY values are read in
/// their page with it, and values rebuilt into an arena (DELTA_BYTE_ARRAY,
/// BYTE_STREAM_SPLIT of FIXED_LEN_BYTE_ARRAY) in the arena.
#[derive(Debug, Clone, Copy)]
pub(crate) struct SliceCursor<'a> {
    pub(crate) data: &'a [u8],    // the values' bytes
    pub(crate) ends: &'a [usize], // invariant: non-decreasing, last <= data.len()
    pub(crate) next: usize,       // invariant: <= ends.len(); index of the next value
}

impl<'a> SliceCursor<'a> {
    /// A cursor at the first value.
    pub(crate) fn new(data: &'a [u8], ends: &'a [usize]) -> Self {
        SliceCursor {
            data,
            ends,
            next: 0,
        }
    }

    /// Takes the bounds (in `data`) of the next `n` values, or fails if the
    /// section has fewer.
    pub(crate) fn take_ranges(
        &mut self,
        n: usize,
    ) -> Result<impl Iterator<Item = std::ops::Range<usize>> + 'a, DecodeError> {
        let (ends, start) = (self.ends, self.next);
        if ends.len() - start < n {
            return Err(too_few(ends.len() - start, n));
        }
        self.next += n;
        Ok((start..start + n).map(move |i| {
            let from = if i == 0 { 0 } else { ends[i - 1] };
            from..ends[i]
        }))
    }
}

impl<'a> ValueDecoder for SliceCursor<'a> {
    type Item = &'a [u8];
    fn decode(&mut self, n: usize, out: &mut impl ValueOut<&'a [u8]>) -> Result<(), DecodeError> {
        let data = self.data;
        out.put_all(self.take_ranges(n)?.map(move |r| &data[r]));
        Ok(())
    }
    /// Moves the index: the bounds are known.
    fn skip(&mut self, n: usize) -> Result<(), DecodeError> {
        self.take_ranges(n).map(drop)
    }
}

/// Opens a section: its lengths are decoded into the page's arena once (every
/// reader of the page shares them), and the values are read in the page.
pub(crate) fn open(section: Section<'_>) -> Result<ByteValues<'_>, DecodeError> {
    let arena = Arena::fill(section.arena, || {
        let bounds = decode(section.data, section.num_values)?;
        Ok(Arena {
            data: Vec::new(),
            ends: bounds.ends,
            data_start: bounds.data_start,
        })
    })?;
    Ok(ByteValues::slices(
        &section.data[arena.data_start..],
        &arena.ends,
    ))
}

/// Decodes the lengths of a DELTA_LENGTH_BYTE_ARRAY section holding at most
/// `max_values` values (the page's value count: bounds every allocation).
pub(crate) fn decode(section: &[u8], max_values: usize) -> Result<Slices, DecodeError> {
    let (mut ends, data_start) = decode_non_negative(section, max_values, "value length")?;
    let available = section.len() - data_start;
    // The lengths become end offsets in place: no second vector.
    let mut end = 0usize;
    for len in &mut ends {
        end = end.saturating_add(*len);
        *len = end;
    }
    if end > available {
        return Err(DecodeError::oos(format!(
            "DELTA_LENGTH_BYTE_ARRAY lengths add up to {end} bytes but the page has {available}"
        )));
    }
    Ok(Slices { data_start, ends })
}

/// Decodes a DELTA_BINARY_PACKED run of non-negative integers (lengths) at the
/// start of `section`; returns them and the offset where the run ends.
pub(crate) fn decode_non_negative(
    section: &[u8],
    max_values: usize,
    what: &str,
) -> Result<(Vec<usize>, usize), DecodeError> {
    let mut decoder = DeltaBinaryPackedDecoder::new(section)?;
    let count = decoder.remaining();
    if count > max_values {
        return Err(DecodeError::oos(format!(
            "{count} {what}s in a page of {max_values} values"
        )));
    }
    // Lengths may take no bits at all (a miniblock of width 0), so the page's
    // bytes do not bound their count: the header's count and a fixed limit do.
    if count > MAX_PAGE_VALUES {
        return Err(DecodeError::Limit(format!(
            "{count} {what}s in one page; at most {MAX_PAGE_VALUES} are decoded"
        )));
    }
    let mut out = Vec::new();
    out.try_reserve_exact(count).map_err(|_| {
        DecodeError::Limit(format!("no memory for the {count} {what}s of one page"))
    })?;
    let mut buf = [0i64; 256];
    while out.len() < count {
        let n = decoder.get_batch(&mut buf)?;
        if n == 0 {
            break;
        }
        let batch = &buf[..n];
        // One check for the batch (the sign bits or-ed together), then a
        // plain copy: both vectorise, where a conversion that may fail per
        // value does not.
        if batch.iter().fold(0, |signs, &v| signs | v) < 0 {
            let v = batch.iter().find(|&&v| v < 0).copied().unwrap_or_default();
            return Err(DecodeError::oos(format!("negative {what} {v}")));
        }
        out.extend(batch.iter().map(|&v| v as usize));
    }
    Ok((out, decoder.consumed()))
}

#[cfg(test)]
pub(crate) mod encode {
    use crate::encoding::delta_binary_packed::encode::encode as delta;

    /// Encodes `values` as DELTA_LENGTH_BYTE_ARRAY.
    pub(crate) fn encode(values: &[&[u8]]) -> Vec<u8> {
        let lengths: Vec<i64> = values.iter().map(|v| v.len() as i64).collect();
        let mut out = delta(&lengths, 128, 4);
        for v in values {
            out.extend_from_slice(v);
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::encoding::testing::{check_skips, Rng};

    #[test]
    fn skips_match_a_full_decode() {
        let mut rng = Rng::new(7);
        for total in [0, 1, 127, 128, 129, 1000] {
            let values: Vec<Vec<u8>> = (0..total)
                .map(|_| (0..rng.below(20)).map(|_| rng.next_u64() as u8).collect())
                .collect();
            let borrowed: Vec<&[u8]> = values.iter().map(Vec::as_slice).collect();
            let section = encode::encode(&borrowed);
            let slices = decode(&section, total).unwrap();
            let data = &section[slices.data_start..];
            let make = || SliceCursor::new(data, &slices.ends);
            check_skips(make, &borrowed, total, &mut rng);
        }
    }

    #[test]
    fn spec_example() {
        // Encodings.md: "Hello", "World", "Foobar", "ABCDEF"
        let values: [&[u8]; 4] = [b"Hello", b"World", b"Foobar", b"ABCDEF"];
        let section = encode::encode(&values);
        let slices = decode(&section, 4).unwrap();
        let data = &section[slices.data_start..];
        let mut start = 0;
        for (value, &end) in values.iter().zip(&slices.ends) {
            assert_eq!(&data[start..end], *value);
            start = end;
        }
    }

    #[test]
    fn malformed() {
        let values: [&[u8]; 2] = [b"ab", b"cd"];
        let section = encode::encode(&values);
        // Data cut short.
        assert!(decode(&section[..section.len() - 1], 2).is_err());
        // More values than the page can hold.
        assert!(decode(&section, 1).is_err());
        // A negative length.
        let bad = crate::encoding::delta_binary_packed::encode::encode(&[-1], 128, 4);
        assert!(decode(&bad, 1).is_err());
    }
}
