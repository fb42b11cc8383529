//! What a worker computes from its split's rows: a summary that combines
//! exactly (sums of integers, counts, minima and maxima), so the summaries
//! of all splits must equal the summary of the whole dataset, whatever the
//! order the cluster ran them in.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::Tick;

/// Counts, sums, minima and maxima of some ticks.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Summary {
    /// How many ticks.
    pub rows: u64,
    /// The sum of `size`.
    pub size_sum: i64,
    /// The first and last `ts` (none for no rows).
    pub ts_min: Option<i64>,
    /// See `ts_min`.
    pub ts_max: Option<i64>,
    /// The lowest and highest `bid` (exact: no arithmetic on floats).
    pub bid_min: Option<f64>,
    /// See `bid_min`.
    pub bid_max: Option<f64>,
    /// Ticks per `date`: the partition field, set from the file's path.
    pub rows_by_date: BTreeMap<String, u64>,
    /// Ticks per `symbol`: a string column.
    pub rows_by_symbol: BTreeMap<String, u64>,
}

impl Summary {
    /// The summary of `ticks`.
    #[must_use]
    pub fn of(ticks: &[Tick]) -> Self {
        let mut s = Summary::default();
        for t in ticks {
            s.rows += 1;
            s.size_sum += t.size;
            s.ts_min = Some(s.ts_min.map_or(t.ts, |m| m.min(t.ts)));
            s.ts_max = Some(s.ts_max.map_or(t.ts, |m| m.max(t.ts)));
            s.bid_min = Some(s.bid_min.map_or(t.bid, |m| m.min(t.bid)));
            s.bid_max = Some(s.bid_max.map_or(t.bid, |m| m.max(t.bid)));
            *s.rows_by_date.entry(t.date.clone()).or_default() += 1;
            *s.rows_by_symbol.entry(t.symbol.clone()).or_default() += 1;
        }
        s
    }

    /// The summary of the rows of `self` and `other` together (what
    /// `ray_job.py` does in Python).
    #[must_use]
    pub fn combine(mut self, other: &Summary) -> Self {
        fn pick<T: Copy>(a: Option<T>, b: Option<T>, f: fn(T, T) -> T) -> Option<T> {
            match (a, b) {
                (Some(a), Some(b)) => Some(f(a, b)),
                (a, b) => a.or(b),
            }
        }
        self.rows += other.rows;
        self.size_sum += other.size_sum;
        self.ts_min = pick(self.ts_min, other.ts_min, i64::min);
        self.ts_max = pick(self.ts_max, other.ts_max, i64::max);
        self.bid_min = pick(self.bid_min, other.bid_min, f64::min);
        self.bid_max = pick(self.bid_max, other.bid_max, f64::max);
        for (date, n) in &other.rows_by_date {
            *self.rows_by_date.entry(date.clone()).or_default() += n;
        }
        for (symbol, n) in &other.rows_by_symbol {
            *self.rows_by_symbol.entry(symbol.clone()).or_default() += n;
        }
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tick(ts: i64, bid: f64, date: &str) -> Tick {
        Tick {
            ts,
            symbol: "EURUSD".into(),
            bid,
            ask: bid + 1e-4,
            size: ts * 10,
            date: date.into(),
        }
    }

    #[test]
    fn summaries_of_parts_combine_to_the_summary_of_the_whole() {
        let ticks: Vec<Tick> = (0..10)
            .map(|i| {
                tick(
                    i,
                    1.0 + f64::from(i32::try_from(i % 4).unwrap()),
                    ["a", "b"][usize::try_from(i % 2).unwrap()],
                )
            })
            .collect();
        let whole = Summary::of(&ticks);
        assert_eq!(whole.rows, 10);
        assert_eq!(whole.size_sum, 450);
        assert_eq!((whole.ts_min, whole.ts_max), (Some(0), Some(9)));
        assert_eq!((whole.bid_min, whole.bid_max), (Some(1.0), Some(4.0)));
        assert_eq!(whole.rows_by_date.get("b"), Some(&5));
        for cut in 0..=ticks.len() {
            let (a, b) = ticks.split_at(cut);
            assert_eq!(
                Summary::of(b).combine(&Summary::of(a)),
                whole,
                "cut at {cut}"
            );
        }
        let json = serde_json::to_string(&whole).unwrap();
        assert_eq!(serde_json::from_str::<Summary>(&json).unwrap(), whole);
    }
}
