//! Deterministic values for the nested tests: a seeded SplitMix64 with
//! helpers for nulls, list lengths, words and edge-case numbers.

use std::ops::Range;

/// Rows in which everything nullable is null and every list is empty or null,
/// at every level: with the tiny pages of
/// [`files`](crate::nested_writer::files) whole pages hold nothing but nulls.
pub const NULL_RUN: Range<usize> = 300..420;

const WORDS: [&str; 12] = [
    "",
    "a",
    "é",
    "日本",
    "🦀 crab",
    "alpha",
    "beta",
    "gamma delta",
    "nul \0 inside",
    "x",
    "a long word, longer than the others, to grow the pages",
    "Ünïcödé",
];

/// SplitMix64, seeded per test.
#[derive(Debug)]
pub struct Rng {
    state: u64,
    /// In [`NULL_RUN`]: `maybe` gives `None` and `len` gives 0.
    null_run: bool,
}

impl Rng {
    /// A generator seeded with `seed`, outside the null run.
    pub fn new(seed: u64) -> Self {
        Rng {
            state: seed,
            null_run: false,
        }
    }

    /// Moves to row `i` (sets the null-run flag).
    pub fn row(&mut self, i: usize) {
        self.null_run = NULL_RUN.contains(&i);
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n`.
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }

    /// `true` with probability `percent` %.
    pub fn chance(&mut self, percent: u64) -> bool {
        self.next_u64() % 100 < percent
    }

    /// `None` with probability `percent` % (always in the null run).
    pub fn maybe<T>(&mut self, percent: u64, f: impl FnOnce(&mut Self) -> T) -> Option<T> {
        if self.null_run || self.chance(percent) {
            None
        } else {
            Some(f(self))
        }
    }

    /// A list length: 0 often, 1 often, sometimes up to `4 * max` (0 in the
    /// null run).
    pub fn len(&mut self, max: usize) -> usize {
        if self.null_run {
            return 0;
        }
        match self.below(10) {
            0 | 1 => 0,
            2 => 1,
            9 => self.below(4 * max + 1),
            _ => self.below(max + 1),
        }
    }

    /// A list of [`len`](Self::len)`(max)` values made by `f`.
    pub fn vec<T>(&mut self, max: usize, mut f: impl FnMut(&mut Self) -> T) -> Vec<T> {
        let n = self.len(max);
        (0..n).map(|_| f(self)).collect()
    }

    /// A word: a few repeat often (dictionary-friendly), some are unique.
    pub fn word(&mut self) -> String {
        if self.chance(20) {
            format!("w{}", self.below(5000))
        } else {
            WORDS[self.below(WORDS.len())].to_owned()
        }
    }

    /// An `i32`: the extremes, zero, or a small number.
    pub fn i32(&mut self) -> i32 {
        match self.below(20) {
            0 => i32::MIN,
            1 => i32::MAX,
            2 => 0,
            _ => self.below(2000) as i32 - 1000,
        }
    }

    /// An `i64`: the extremes, -1, or a number of any magnitude.
    pub fn i64(&mut self) -> i64 {
        match self.below(20) {
            0 => i64::MIN,
            1 => i64::MAX,
            2 => -1,
            _ => self.next_u64() as i64 >> self.below(64),
        }
    }

    /// A float without NaN (rows are compared with `==`): exact eighths.
    pub fn f64(&mut self) -> f64 {
        match self.below(20) {
            0 => -0.0,
            1 => f64::INFINITY,
            2 => f64::MIN_POSITIVE,
            _ => f64::from(self.below(80_000) as i32 - 40_000) / 8.0,
        }
    }

    /// An `f32` without NaN: an infinity, the maximum, or exact quarters.
    pub fn f32(&mut self) -> f32 {
        match self.below(20) {
            0 => f32::NEG_INFINITY,
            1 => f32::MAX,
            _ => f32::from(self.below(4000) as i16 - 2000) / 4.0,
        }
    }

    /// `len` distinct keys from `pool`, in a random order.
    pub fn keys<T: Clone>(&mut self, pool: &[T], max: usize) -> Vec<T> {
        let mut all: Vec<T> = pool.to_vec();
        for i in (1..all.len()).rev() {
            let j = self.below(i + 1);
            all.swap(i, j);
        }
        let n = self.len(max).min(all.len());
        all.truncate(n);
        all
    }
}

/// `n` rows made by `row(rng, i)`, with the rng moved to each row first.
pub fn generate<T>(seed: u64, n: usize, mut row: impl FnMut(&mut Rng, usize) -> T) -> Vec<T> {
    let mut rng = Rng::new(seed);
    (0..n)
        .map(|i| {
            rng.row(i);
            row(&mut rng, i)
        })
        .collect()
}
