//! A test-only encoder for round trips (never used to decode anything).

use crate::encoding::uleb128;

/// Appends an RLE run of `count` copies of `value`.
pub(crate) fn encode_rle(value: u32, count: usize, bit_width: u32, out: &mut Vec<u8>) {
    uleb128::encode((count as u64) << 1, out);
    let width = bit_width.div_ceil(8) as usize;
    out.extend_from_slice(&value.to_le_bytes()[..width]);
}

/// Appends a bit-packed run; `values.len()` must be a multiple of 8.
pub(crate) fn encode_packed(values: &[u32], bit_width: u32, out: &mut Vec<u8>) {
    assert_eq!(values.len() % 8, 0, "bit-packed runs hold groups of 8");
    uleb128::encode(((values.len() / 8) as u64) << 1 | 1, out);
    for group in values.chunks_exact(8) {
        super::pack_group(group.try_into().expect("8 values"), bit_width, out);
    }
}

/// Appends `values` as a stream of runs: RLE where a value repeats 8+ times,
/// bit-packed otherwise (padded with zeros to a group of 8).
pub(crate) fn encode(values: &[u32], bit_width: u32, out: &mut Vec<u8>) {
    let mut i = 0;
    while i < values.len() {
        let run = values[i..].iter().take_while(|&&v| v == values[i]).count();
        if run >= 8 {
            encode_rle(values[i], run, bit_width, out);
            i += run;
        } else {
            let end = (i + 8).min(values.len());
            let mut group = values[i..end].to_vec();
            group.resize(8, 0);
            encode_packed(&group, bit_width, out);
            i = end;
        }
    }
}
