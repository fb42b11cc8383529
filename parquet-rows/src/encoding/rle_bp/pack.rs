//! Bit-packing of the RLE / bit-packed hybrid, shared by the writer's own
//! encoders (`writer/encode.rs`) and the test-only encoder (`encode.rs`).

/// Appends one group of 8 values bit-packed at `bit_width` bits (LSB first,
/// as parquet-format's hybrid packs): exactly `bit_width` bytes. Values
/// must fit `bit_width` bits (at most 32).
///
/// The group is assembled in registers (one `u64` up to 8 bits a value,
/// one `u128` up to 16) or in a stack array, and appended with one copy,
/// instead of a `Vec::push` per output byte; that copy is of the whole
/// register or array, a fixed size the compiler turns into a few stores,
/// where a copy of `bit_width` bytes would be a `memcpy` call per group.
#[inline]
pub(crate) fn pack_group(values: &[u32; 8], bit_width: u32, out: &mut Vec<u8>) {
    debug_assert!(bit_width <= 32, "bit width {bit_width} over 32");
    let width = bit_width as usize;
    if bit_width <= 8 {
        let mut acc = 0u64;
        for (k, &v) in values.iter().enumerate() {
            acc |= u64::from(v) << (k as u32 * bit_width);
        }
        push_prefix(out, acc.to_le_bytes(), width);
    } else if bit_width <= 16 {
        let mut acc = 0u128;
        for (k, &v) in values.iter().enumerate() {
            acc |= u128::from(v) << (k as u32 * bit_width);
        }
        push_prefix(out, acc.to_le_bytes(), width);
    } else {
        // Two halves of 4 values (at most 128 bits each); the first half
        // ends on a byte boundary only for even widths, so carry its
        // leftover bits into the second.
        let mut bytes = [0u8; 32];
        let mut acc = 0u128;
        let mut bits = 0u32;
        let mut at = 0;
        for half in values.chunks_exact(4) {
            for &v in half {
                acc |= u128::from(v) << bits;
                bits += bit_width;
            }
            let whole = (bits / 8) as usize;
            bytes[at..at + whole].copy_from_slice(&acc.to_le_bytes()[..whole]);
            at += whole;
            // At 32 bits a half is exactly 128 bits: shifting a `u128` by
            // 128 overflows (and in release would shift by 0, keeping the
            // bits), so the whole accumulator is consumed instead.
            acc = acc.checked_shr(whole as u32 * 8).unwrap_or(0);
            bits -= whole as u32 * 8;
        }
        debug_assert_eq!((at, bits), (width, 0));
        push_prefix(out, bytes, width);
    }
}

/// Appends the first `len` bytes of `bytes` (copies them all, then cuts
/// the rest off: see [`pack_group`]).
#[inline]
fn push_prefix<const N: usize>(out: &mut Vec<u8>, bytes: [u8; N], len: usize) {
    out.extend_from_slice(&bytes);
    out.truncate(out.len() - (N - len));
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The bit-at-a-time reference: value `k`'s bit `b` is bit
    /// `k * width + b` of the output.
    fn reference(values: &[u32; 8], width: u32) -> Vec<u8> {
        let mut out = vec![0u8; width as usize];
        for (k, &v) in values.iter().enumerate() {
            for b in 0..width {
                if v >> b & 1 == 1 {
                    let bit = k as u32 * width + b;
                    out[(bit / 8) as usize] |= 1 << (bit % 8);
                }
            }
        }
        out
    }

    #[test]
    fn pack_group_matches_the_bitwise_layout() {
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        for width in 0..=32u32 {
            for _ in 0..50 {
                let mask = if width == 32 {
                    u32::MAX
                } else {
                    (1u32 << width) - 1
                };
                let values: [u32; 8] = std::array::from_fn(|_| {
                    seed ^= seed << 13;
                    seed ^= seed >> 7;
                    seed ^= seed << 17;
                    (seed as u32) & mask
                });
                let mut out = vec![0xAA]; // appends after what is there
                pack_group(&values, width, &mut out);
                assert_eq!(out[0], 0xAA);
                assert_eq!(out[1..], reference(&values, width), "width {width}");
            }
        }
    }
}
