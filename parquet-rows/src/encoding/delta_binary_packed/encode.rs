//! A test-only DELTA_BINARY_PACKED encoder for round trips.

use crate::encoding::uleb128;

fn zigzag(v: i64, out: &mut Vec<u8>) {
    uleb128::encode(((v << 1) ^ (v >> 63)) as u64, out);
}

/// Encodes `values` with the given block size and miniblock count.
pub(crate) fn encode(values: &[i64], block_size: usize, miniblocks: usize) -> Vec<u8> {
    let mut out = Vec::new();
    uleb128::encode(block_size as u64, &mut out);
    uleb128::encode(miniblocks as u64, &mut out);
    uleb128::encode(values.len() as u64, &mut out);
    zigzag(values.first().copied().unwrap_or(0), &mut out);
    let per_mini = block_size / miniblocks;
    let deltas: Vec<i64> = values.windows(2).map(|w| w[1].wrapping_sub(w[0])).collect();
    for block in deltas.chunks(block_size) {
        let min = block.iter().copied().min().unwrap_or(0);
        zigzag(min, &mut out);
        let minis: Vec<&[i64]> = block.chunks(per_mini).collect();
        let widths: Vec<u32> = (0..miniblocks)
            .map(|m| {
                minis.get(m).map_or(0, |mini| {
                    let max = mini
                        .iter()
                        .map(|d| d.wrapping_sub(min) as u64)
                        .max()
                        .unwrap_or(0);
                    64 - max.leading_zeros()
                })
            })
            .collect();
        out.extend(widths.iter().map(|&w| w as u8));
        for (mini, &width) in minis.iter().zip(&widths) {
            let mut bits = vec![0u8; per_mini * width as usize / 8];
            for (i, d) in mini.iter().enumerate() {
                let v = d.wrapping_sub(min) as u64;
                for b in 0..width as usize {
                    if v >> b & 1 == 1 {
                        let bit = i * width as usize + b;
                        bits[bit / 8] |= 1 << (bit % 8);
                    }
                }
            }
            out.extend(bits);
        }
    }
    out
}
