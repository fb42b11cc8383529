//! Test support shared by the decoders' unit tests: a seeded generator and
//! the property every [`ValueDecoder::skip`] must have.

use std::fmt::Debug;

use super::ValueDecoder;

/// A small seeded generator (splitmix64): reproducible data without a
/// dependency.
#[derive(Debug, Clone)]
pub(crate) struct Rng(u64);

impl Rng {
    pub(crate) fn new(seed: u64) -> Self {
        Rng(seed)
    }

    pub(crate) fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (0 when `n` is 0).
    pub(crate) fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            (self.next_u64() % n as u64) as usize
        }
    }

    /// A length to skip or decode: often small, sometimes up to `left`,
    /// sometimes exactly `left`.
    fn stretch(&mut self, left: usize) -> usize {
        match self.below(6) {
            0 => 0,
            1 => left,
            2 => self.below(left + 1),
            _ => self.below(left.min(40) + 1),
        }
    }
}

/// Checks [`ValueDecoder::skip`] on decoders that `make` opens over one
/// section of `expected.len()` values:
/// - a full decode gives `expected`;
/// - `decode(n)` after `skip(k)` gives `expected[k..k + n]`, and so does
///   every step of random walks of skips and decodes (which cross the
///   encoding's runs, miniblocks or groups wherever they fall);
/// - skipping or decoding past the end is an error, not a panic. The end
///   is `capacity` values (at least `expected.len()`): encodings that pad
///   to a group of 8 (bit-packed runs, PLAIN booleans) hold more values than
///   were written, and only the page's value count tells them apart.
pub(crate) fn check_skips<D: ValueDecoder>(
    make: impl Fn() -> D,
    expected: &[D::Item],
    capacity: usize,
    rng: &mut Rng,
) where
    D::Item: PartialEq + Debug,
{
    let total = expected.len();
    let mut all = Vec::new();
    make().decode(total, &mut all).expect("full decode");
    assert_eq!(all, expected, "full decode");

    for _ in 0..20 {
        let k = rng.below(total + 1);
        let n = rng.below(total - k + 1);
        let mut decoder = make();
        decoder.skip(k).expect("skip within the section");
        let mut got = Vec::new();
        decoder.decode(n, &mut got).expect("decode after a skip");
        assert_eq!(got, &expected[k..k + n], "decode({n}) after skip({k})");
    }

    for _ in 0..10 {
        let mut decoder = make();
        let mut at = 0;
        let mut steps = Vec::new();
        while at < total {
            let m = rng.stretch(total - at);
            if rng.below(2) == 0 {
                decoder.skip(m).expect("skip within the section");
                steps.push(format!("skip({m})"));
            } else {
                let mut got = Vec::new();
                decoder
                    .decode(m, &mut got)
                    .expect("decode within the section");
                steps.push(format!("decode({m})"));
                assert_eq!(got, &expected[at..at + m], "after {steps:?}");
            }
            at += m;
        }
        assert!(decoder.skip(0).is_ok(), "skip(0) at the end");
        assert!(
            decoder.skip(capacity - total + 1).is_err(),
            "skip past the end"
        );
    }
    assert!(make().skip(capacity + 1).is_err(), "skip past the end");
    assert!(make().skip(usize::MAX).is_err(), "skip of usize::MAX");
    let mut past = make();
    past.skip(capacity).expect("skip to the end");
    assert!(
        past.decode(1, &mut Vec::new()).is_err(),
        "decode past the end"
    );
}
