//! RLE-encoded BOOLEAN values: the RLE / bit-packing hybrid with bit width 1,
//! after a 4-byte length, as data pages v2 write booleans.
//!
//! Spec: <https://github.com/apache/parquet-format/blob/master/Encodings.md#run-length-encoding--bit-packing-hybrid-rle--3>
//!
//! ```text
//! rle-booleans := <length: 4 bytes little endian> <encoded-data: hybrid runs, bit width 1>
//! ```

use super::rle_bp::RleBpDecoder;
use super::table::Section;
use super::{length_prefixed, Mapped, ValueDecoder, ValueOut};
use crate::error::DecodeError;

/// RLE booleans of one page.
#[derive(Debug)]
pub(crate) struct RleBools<'a>(RleBpDecoder<'a>);

impl<'a> RleBools<'a> {
    /// Opens a values section: its length prefix, then the runs.
    pub(crate) fn open(section: Section<'a>) -> Result<Self, DecodeError> {
        let (runs, _) = length_prefixed(section.data, "RLE booleans")?;
        Ok(RleBools(RleBpDecoder::new(runs, 1)?))
    }
}

impl ValueDecoder for RleBools<'_> {
    type Item = bool;
    fn decode(&mut self, n: usize, out: &mut impl ValueOut<bool>) -> Result<(), DecodeError> {
        self.0.decode(n, &mut Mapped(out, |v: u32| v != 0))
    }
    /// Skips runs by arithmetic (see the hybrid's [`ValueDecoder::skip`]).
    fn skip(&mut self, n: usize) -> Result<(), DecodeError> {
        self.0.skip(n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::encoding::rle_bp::encode::encode;
    use crate::encoding::testing::{check_skips, Rng};

    #[test]
    fn skips_match_a_full_decode() {
        let mut rng = Rng::new(5);
        // Stretches of random bits and runs of `true`, so both kinds of run
        // appear; the last is a run, so the section holds exactly the values.
        let bits: Vec<u32> = (0..1000)
            .map(|i| match (i / 100) % 2 {
                0 => u32::from(rng.below(2) == 1),
                _ => 1,
            })
            .collect();
        let mut runs = Vec::new();
        encode(&bits, 1, &mut runs);
        let mut section = u32::try_from(runs.len()).unwrap().to_le_bytes().to_vec();
        section.extend_from_slice(&runs);
        let expected: Vec<bool> = bits.iter().map(|&b| b == 1).collect();
        let arena = std::sync::OnceLock::new();
        let open = || {
            RleBools::open(Section {
                data: &section,
                num_values: expected.len(),
                fixed_len: None,
                arena: &arena,
                max_rebuilt: usize::MAX,
            })
            .unwrap()
        };
        check_skips(open, &expected, expected.len(), &mut rng);
    }

    #[test]
    fn a_length_past_the_section_is_an_error() {
        let arena = std::sync::OnceLock::new();
        let section = |data| Section {
            data,
            num_values: 8,
            fixed_len: None,
            arena: &arena,
            max_rebuilt: usize::MAX,
        };
        assert!(RleBools::open(section(&[9, 0, 0, 0, 2, 1])).is_err());
        assert!(RleBools::open(section(&[1, 0])).is_err());
    }
}
