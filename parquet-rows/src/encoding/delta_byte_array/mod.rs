//! DELTA_BYTE_ARRAY (incremental encoding): each value shares a prefix with the previous.
//!
//! Spec: <https://github.com/apache/parquet-format/blob/master/Encodings.md#delta-strings-delta_byte_array--7>
//!
//! ```text
//! delta-byte-array := <prefix lengths: DELTA_BINARY_PACKED> <suffixes: DELTA_LENGTH_BYTE_ARRAY>
//! value[i] = value[i-1][..prefix_length[i]] ++ suffix[i]
//! ```
//!
//! The values do not exist contiguously in the page, so they are rebuilt into
//! an arena owned by the page holder ([`Pages`](crate::Pages)); `&str` fields
//! borrow the arena.

use crate::encoding::delta_length_byte_array::{self, decode_non_negative, Slices};
use crate::error::DecodeError;

/// Rebuilt values can be much larger than the page (long shared prefixes); this
/// bounds what a hostile page can make us allocate.
pub(crate) const MAX_REBUILT_BYTES: usize = 1 << 30;

/// Decodes a DELTA_BYTE_ARRAY section of at most `max_values` values into
/// `arena` (the rebuilt bytes) and returns their end offsets in it.
pub(crate) fn decode(
    section: &[u8],
    max_values: usize,
    arena: &mut Vec<u8>,
) -> Result<Vec<usize>, DecodeError> {
    let (prefixes, suffix_start) = decode_non_negative(section, max_values, "prefix length")?;
    let suffixes_section = &section[suffix_start..];
    let Slices { data_start, ends } =
        delta_length_byte_array::decode(suffixes_section, max_values)?;
    if ends.len() != prefixes.len() {
        return Err(DecodeError::oos(format!(
            "DELTA_BYTE_ARRAY has {} prefix lengths but {} suffixes",
            prefixes.len(),
            ends.len()
        )));
    }
    let suffix_data = &suffixes_section[data_start..];
    // The rebuilt size is known up front (every prefix plus every suffix):
    // reserve it once instead of growing the arena by doubling (measured: the
    // reallocation copies were 10% of decoding a DELTA_BYTE_ARRAY column).
    let total = prefixes
        .iter()
        .fold(ends.last().copied().unwrap_or(0), |sum, &p| {
            sum.saturating_add(p)
        });
    if total > MAX_REBUILT_BYTES {
        return Err(DecodeError::oos(format!(
            "DELTA_BYTE_ARRAY values rebuild to more than {MAX_REBUILT_BYTES} bytes"
        )));
    }
    arena.reserve(total);
    let mut out_ends = Vec::with_capacity(ends.len());
    let (mut prev_start, mut prev_end) = (arena.len(), arena.len());
    let mut suffix_start = 0;
    for (&prefix, &suffix_end) in prefixes.iter().zip(&ends) {
        if prefix > prev_end - prev_start {
            return Err(DecodeError::oos(format!(
                "DELTA_BYTE_ARRAY prefix length {prefix} is longer than the previous value ({} bytes)",
                prev_end - prev_start
            )));
        }
        let suffix = &suffix_data[suffix_start..suffix_end];
        if arena.len() + prefix + suffix.len() > MAX_REBUILT_BYTES {
            return Err(DecodeError::oos(format!(
                "DELTA_BYTE_ARRAY values rebuild to more than {MAX_REBUILT_BYTES} bytes"
            )));
        }
        let start = arena.len();
        arena.extend_from_within(prev_start..prev_start + prefix);
        arena.extend_from_slice(suffix);
        (prev_start, prev_end) = (start, arena.len());
        out_ends.push(arena.len());
        suffix_start = suffix_end;
    }
    Ok(out_ends)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::encoding::delta_binary_packed::encode::encode as delta;
    use crate::encoding::delta_length_byte_array::encode::encode as dlba;

    fn encode(values: &[&[u8]]) -> Vec<u8> {
        let mut prefixes = Vec::new();
        let mut suffixes: Vec<&[u8]> = Vec::new();
        let mut prev: &[u8] = b"";
        for v in values {
            let p = prev
                .iter()
                .zip(v.iter())
                .take_while(|(a, b)| a == b)
                .count();
            prefixes.push(p as i64);
            suffixes.push(&v[p..]);
            prev = v;
        }
        let mut out = delta(&prefixes, 128, 4);
        out.extend(dlba(&suffixes));
        out
    }

    #[test]
    fn spec_example() {
        // Encodings.md: "axis", "axle", "babble", "babyhood"
        // -> prefix lengths 0 2 0 3, suffixes "axis" "le" "babble" "yhood"
        let values: [&[u8]; 4] = [b"axis", b"axle", b"babble", b"babyhood"];
        let section = encode(&values);
        let mut arena = Vec::new();
        let ends = decode(&section, 4, &mut arena).unwrap();
        assert_eq!(ends, [4, 8, 14, 22]);
        assert_eq!(arena, b"axisaxlebabblebabyhood");
    }

    #[test]
    fn prefix_longer_than_previous_is_an_error() {
        let mut section = delta(&[0, 5], 128, 4);
        section.extend(dlba(&[b"ab", b"c"]));
        assert!(decode(&section, 2, &mut Vec::new()).is_err());
    }
}
