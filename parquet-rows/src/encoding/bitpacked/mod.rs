//! Reading single values of 0 to 64 bits from LSB-first bit-packed bytes.
//!
//! Bit-packed runs of the RLE hybrid and DELTA_BINARY_PACKED miniblocks both pack
//! values LSB first: value `i` of width `w` occupies bits `i*w .. (i+1)*w` of the
//! little-endian bit stream. See
//! <https://github.com/apache/parquet-format/blob/master/Encodings.md#bit-packed-deprecated-bit_packed--4>
//! for the (different) MSB-first legacy layout, which no reader we compare
//! with follows: BIT_PACKED levels are read LSB first too (see
//! `column/page.rs` and `docs/writer-quirks.md`).

/// Reads the `width`-bit value (`width <= 64`) that starts at bit `bit` of `data`.
///
/// Bytes past the end of `data` read as zero: callers check that the values
/// they ask for lie inside `data` (a truncated final group is handled there).
#[inline]
pub(crate) fn read_lsb(data: &[u8], bit: usize, width: u32) -> u64 {
    if width == 0 {
        return 0;
    }
    let byte = bit / 8;
    let shift = (bit % 8) as u32;
    // A value of up to 64 bits starting at bit `shift` spans at most 9 bytes.
    let mut word: u128 = 0;
    match data.get(byte..byte + 16) {
        Some(sixteen) => {
            let mut le = [0u8; 16];
            le.copy_from_slice(sixteen);
            word = u128::from_le_bytes(le);
        }
        None => {
            for (i, &b) in data.get(byte..).unwrap_or(&[]).iter().take(16).enumerate() {
                word |= u128::from(b) << (8 * i);
            }
        }
    }
    let mask = if width == 64 {
        u64::MAX
    } else {
        (1u64 << width) - 1
    };
    ((word >> shift) as u64) & mask
}

/// Unpacks whole groups of 8 LSB-first values of `width <= 32` bits from the
/// start of `bytes` into `out`: as many groups as `out` has room for (`out.len() / 8`)
/// and `bytes` holds (a group of 8 values takes exactly `width` bytes). Returns
/// the number of values written, a multiple of 8.
///
/// Dispatches once per call to a kernel specialised for the width, whose
/// offsets inside a group are all constants: no per-value bounds check or
/// variable shift. Callers pass whole runs (hundreds of values), so the
/// dispatch is paid once per run, not per group.
///
/// # Panics
/// If `width > 32` (callers check it when they read the width).
#[inline]
pub(crate) fn unpack(bytes: &[u8], width: u32, out: &mut [u32]) -> usize {
    macro_rules! dispatch {
        ($($w:literal)*) => {
            match width {
                0 => {
                    let n = out.len() / 8 * 8;
                    out[..n].fill(0);
                    n
                }
                $($w => unpack_const::<$w>(bytes, out),)*
                _ => panic!("bit width {width} is larger than 32"),
            }
        };
    }
    dispatch!(1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32)
}

/// Bytes a group's kernel may look at: the last value of a 32-bit group starts
/// at byte 28 and is read with an 8-byte load.
const WINDOW: usize = 40;

/// [`unpack`] for a width known at compile time.
fn unpack_const<const W: usize>(bytes: &[u8], out: &mut [u32]) -> usize {
    let groups = (out.len() / 8).min(bytes.len() / W);
    // Groups whose whole window lies inside `bytes` are read in place; the last
    // few are copied into a zero-padded window first.
    let in_place = if bytes.len() >= WINDOW {
        ((bytes.len() - WINDOW) / W + 1).min(groups)
    } else {
        0
    };
    let mut chunks = out.chunks_exact_mut(8);
    for (g, eight) in (0..in_place).zip(&mut chunks) {
        let window: &[u8; WINDOW] = bytes[g * W..g * W + WINDOW]
            .try_into()
            .expect("window length");
        unpack_group::<W>(window, eight);
    }
    for (g, eight) in (in_place..groups).zip(&mut chunks) {
        let mut window = [0u8; WINDOW];
        window[..W].copy_from_slice(&bytes[g * W..g * W + W]);
        unpack_group::<W>(&window, eight);
    }
    groups * 8
}

/// Unpacks the group of 8 values at the start of `window` into `out[..8]`.
#[inline]
fn unpack_group<const W: usize>(window: &[u8; WINDOW], out: &mut [u32]) {
    let mask = if W == 32 {
        u64::from(u32::MAX)
    } else {
        (1u64 << W) - 1
    };
    for (i, o) in out[..8].iter_mut().enumerate() {
        let bit = i * W;
        let word: [u8; 8] = window[bit / 8..bit / 8 + 8].try_into().expect("8 bytes");
        *o = ((u64::from_le_bytes(word) >> (bit % 8)) & mask) as u32;
    }
}

/// Unpacks one group of 8 values of `width <= 32` bits from `bytes[..width]`.
///
/// # Panics
/// If `width > 32` or `bytes.len() < width` (callers check both).
#[cfg(test)]
pub(crate) fn unpack8(bytes: &[u8], width: u32, out: &mut [u32; 8]) {
    assert!(bytes.len() >= width as usize);
    assert_eq!(unpack(bytes, width, out), 8);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lsb_values_of_every_width() {
        for width in 1..=64u32 {
            let mask = if width == 64 {
                u64::MAX
            } else {
                (1u64 << width) - 1
            };
            let values: Vec<u64> = (0..40u64)
                .map(|i| i.wrapping_mul(0x9e37_79b9_7f4a_7c15) & mask)
                .collect();
            // Pack them with a simple reference loop, bit by bit.
            let mut data = vec![0u8; (values.len() * width as usize).div_ceil(8)];
            for (i, v) in values.iter().enumerate() {
                for b in 0..width as usize {
                    if v >> b & 1 == 1 {
                        let bit = i * width as usize + b;
                        data[bit / 8] |= 1 << (bit % 8);
                    }
                }
            }
            for (i, v) in values.iter().enumerate() {
                assert_eq!(
                    read_lsb(&data, i * width as usize, width),
                    *v,
                    "width {width} value {i}"
                );
            }
        }
    }

    #[test]
    fn unpack8_matches_read_lsb_for_every_width() {
        let data: Vec<u8> = (0..64u32)
            .map(|i| (i.wrapping_mul(151) ^ 0x5a) as u8)
            .collect();
        for width in 0..=32u32 {
            let mut out = [0u32; 8];
            unpack8(&data, width, &mut out);
            for (i, v) in out.iter().enumerate() {
                assert_eq!(
                    u64::from(*v),
                    read_lsb(&data, i * width as usize, width),
                    "width {width} value {i}"
                );
            }
        }
    }

    #[test]
    fn unpack_runs_match_read_lsb_for_every_width_and_length() {
        // Lengths around the in-place window (40 bytes) and partial groups at
        // the end of `bytes`: the kernel must switch to the padded copy exactly
        // where an in-place load would run past the end.
        let data: Vec<u8> = (0..400u32)
            .map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8)
            .collect();
        for width in 0..=32u32 {
            for len in [0, 1, 7, 8, 31, 39, 40, 41, 63, 64, 65, 100, 257, 400] {
                let bytes = &data[..len];
                for room in [0, 7, 8, 16, 64, 1024] {
                    let mut out = vec![u32::MAX; room];
                    let n = unpack(bytes, width, &mut out);
                    let groups = if width == 0 {
                        room / 8
                    } else {
                        (room / 8).min(len / width as usize)
                    };
                    assert_eq!(n, groups * 8, "width {width} len {len} room {room}");
                    for (i, v) in out[..n].iter().enumerate() {
                        assert_eq!(
                            u64::from(*v),
                            read_lsb(bytes, i * width as usize, width),
                            "width {width} len {len} room {room} value {i}"
                        );
                    }
                    assert!(out[n..].iter().all(|&v| v == u32::MAX), "wrote past {n}");
                }
            }
        }
    }
}
