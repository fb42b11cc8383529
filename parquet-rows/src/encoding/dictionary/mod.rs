//! Dictionary encoding (RLE_DICTIONARY, and PLAIN_DICTIONARY of format 1.0):
//! a dictionary page of PLAIN values, then data pages of indices into it.
//!
//! Spec: <https://github.com/apache/parquet-format/blob/master/Encodings.md#dictionary-encoding-plain_dictionary--2-and-rle_dictionary--8>
//!
//! ```text
//! dictionary page := <PLAIN values>
//! data page values := <bit width: 1 byte> <indices: RLE / bit-packing hybrid, no length prefix>
//! ```
//!
//! The indices are decoded by [`RleBpDecoder`]; this module looks them up.

use crate::encoding::rle_bp::RleBpDecoder;
use crate::encoding::{too_few, ValueDecoder, ValueOut};
use crate::error::DecodeError;

/// The values of a dictionary-encoded section: each index looked up in `dict`.
#[derive(Debug)]
pub(crate) struct DictionaryDecoder<'i, 'a, 'd, T> {
    pub(crate) indices: &'i mut RleBpDecoder<'a>, // the section's indices
    pub(crate) dict: &'d [T],                     // the chunk's dictionary
}

impl<T: Clone> ValueDecoder for DictionaryDecoder<'_, '_, '_, T> {
    type Item = T;

    /// Gathers the entries: see [`RleBpDecoder::gather`]; an index out of
    /// the dictionary is an error.
    fn decode(&mut self, n: usize, out: &mut impl ValueOut<T>) -> Result<(), DecodeError> {
        let got = self.indices.gather(n, self.dict, out)?;
        if got < n {
            return Err(too_few(got, n));
        }
        Ok(())
    }

    /// Skips the indices (runs by arithmetic, bit-packed groups by moving
    /// the bit position); skipped indices are not checked against the
    /// dictionary.
    fn skip(&mut self, n: usize) -> Result<(), DecodeError> {
        self.indices.skip(n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::encoding::rle_bp::encode::encode;
    use crate::encoding::testing::{check_skips, Rng};

    #[test]
    fn skips_match_a_full_decode() {
        let mut rng = Rng::new(4);
        let dict: Vec<u64> = (0..300).map(|_| rng.next_u64()).collect();
        for total in [0, 1, 8, 9, 100, 3000] {
            let mut indices = Vec::new();
            while indices.len() < total {
                let run = (1 + rng.below(30)).min(total - indices.len());
                let index = rng.below(dict.len()) as u32;
                if rng.below(2) == 0 {
                    indices.extend(std::iter::repeat_n(index, run));
                } else {
                    indices.extend((0..run).map(|_| rng.below(dict.len()) as u32));
                }
            }
            let mut data = Vec::new();
            encode(&indices, 9, &mut data);
            let expected: Vec<u64> = indices.iter().map(|&i| dict[i as usize]).collect();
            // Padding of a last bit-packed group reads as index 0: an entry.
            let mut capacity = 0;
            let mut d = RleBpDecoder::new(&data, 9).unwrap();
            while let Ok(got @ 1..) = d.get_batch(&mut [0; 64]) {
                capacity += got;
            }
            check_skips(
                || Owned(RleBpDecoder::new(&data, 9).unwrap(), &dict),
                &expected,
                capacity,
                &mut rng,
            );
        }
    }

    #[test]
    fn an_index_out_of_the_dictionary_is_an_error_unless_skipped() {
        let mut data = Vec::new();
        encode(
            &[1, 1, 1, 1, 1, 1, 1, 1, 7, 0, 0, 0, 0, 0, 0, 0],
            3,
            &mut data,
        );
        let dict = [10u8, 11];
        let mut indices = RleBpDecoder::new(&data, 3).unwrap();
        let mut d = DictionaryDecoder {
            indices: &mut indices,
            dict: &dict,
        };
        d.skip(9).unwrap();
        let mut out = Vec::new();
        d.decode(7, &mut out).unwrap();
        assert_eq!(out, [10; 7]);
        let mut indices = RleBpDecoder::new(&data, 3).unwrap();
        let mut d = DictionaryDecoder {
            indices: &mut indices,
            dict: &dict,
        };
        assert!(d.decode(9, &mut out).is_err());
        assert!(d.skip(100).is_err(), "past the end");
    }

    /// A dictionary decoder that owns its indices, for [`check_skips`].
    struct Owned<'a, 'd>(RleBpDecoder<'a>, &'d [u64]);

    impl ValueDecoder for Owned<'_, '_> {
        type Item = u64;
        fn decode(&mut self, n: usize, out: &mut impl ValueOut<u64>) -> Result<(), DecodeError> {
            let (indices, dict) = (&mut self.0, self.1);
            DictionaryDecoder { indices, dict }.decode(n, out)
        }
        fn skip(&mut self, n: usize) -> Result<(), DecodeError> {
            let (indices, dict) = (&mut self.0, self.1);
            DictionaryDecoder { indices, dict }.skip(n)
        }
    }
}
