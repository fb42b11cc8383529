//! A row sink that keeps only a selection's taken rows, batch by batch.
//!
//! When a selection's runs are too short for skipping to pay
//! ([`Runs::row_level`](super::select::Runs::row_level)), every row of the
//! row group is decoded and the rejected ones dropped. Decoding the whole
//! row group into the output first and compacting it after touches a row
//! group's worth of fresh output memory (40 MB for a million 40-byte rows)
//! to keep half of it: on a 10M-row file with half its rows taken that was
//! about 90,000 page faults per read, more than the decode itself. This sink
//! decodes each batch at the end of the output and compacts it there while
//! it is in cache: the output holds the rows kept and at most one batch
//! more (the caller reserves that much).
//!
//! Which rows a batch keeps comes from a [`Marks`]: the selection's runs
//! ([`Pairs`], found by testing the predicate columns first) or the
//! predicates tested on the decoded rows themselves ([`Tested`]), which
//! spares the predicate columns a second decode when most batches keep
//! rows all over.

use crate::filter::Predicate;
use crate::row::ParquetRow;
use crate::sink::RowSink;

/// Says which rows of each decoded batch are kept.
pub(crate) trait Marks<T> {
    /// Sets `marks[i]` (one per row of `batch`, all `false` on entry) for
    /// each row of `batch` that is kept.
    fn mark(&mut self, batch: &[T], marks: &mut [bool]);
}

/// The rows a selection's pairs of (rows to skip, rows to take) take, in
/// order; rows past the last pair (a footer that counts more rows than the
/// selection covers) are dropped.
pub(crate) struct Pairs<'a> {
    left: std::slice::Iter<'a, (usize, usize)>, // the pairs not yet begun
    skip: usize,                                // rows of the current pair still to skip
    take: usize,                                // then rows of it still to take
}

impl<'a> Pairs<'a> {
    pub(crate) fn new(pairs: &'a [(usize, usize)]) -> Self {
        Pairs {
            left: pairs.iter(),
            skip: 0,
            take: 0,
        }
    }
}

impl<T> Marks<T> for Pairs<'_> {
    fn mark(&mut self, batch: &[T], marks: &mut [bool]) {
        let n = batch.len();
        let mut at = 0;
        while at < n {
            if self.skip > 0 {
                let s = self.skip.min(n - at);
                (at, self.skip) = (at + s, self.skip - s);
            } else if self.take > 0 {
                let t = self.take.min(n - at);
                marks[at..at + t].fill(true);
                (at, self.take) = (at + t, self.take - t);
            } else if let Some(&(s, t)) = self.left.next() {
                (self.skip, self.take) = (s, t);
            } else {
                break;
            }
        }
    }
}

/// The rows that pass every predicate, tested on the rows
/// ([`ParquetRow::mark`]); each predicate's field must be one the row
/// tests ([`ParquetRow::tests_rows`]).
pub(crate) struct Tested<'a>(pub(crate) &'a [Predicate]);

impl<'p, T: ParquetRow<'p>> Marks<T> for Tested<'_> {
    fn mark(&mut self, batch: &[T], marks: &mut [bool]) {
        marks.fill(true);
        // A predicate at a time over the batch: its field, operator and
        // kind are the same on every row. `mark` tests every field
        // `tests_rows` accepts, the only ones `select` leaves to the rows.
        for p in self.0 {
            T::mark(batch, p, marks);
        }
    }
}

/// Receives every row of a row group in order and appends to `out` only
/// those that `marks` keeps. Call [`Kept::finish`] after the decode for the
/// last batch's rows.
pub(crate) struct Kept<'a, T, M> {
    out: &'a mut Vec<T>,
    start: usize,     // where the batch decoded last begins in `out`
    marks: Vec<bool>, // which rows of that batch are kept
    marker: M,
}

impl<'a, T, M: Marks<T>> Kept<'a, T, M> {
    /// A sink appending to `out` the rows `marker` keeps.
    pub(crate) fn new(out: &'a mut Vec<T>, marker: M) -> Self {
        let start = out.len();
        Kept {
            out,
            start,
            marks: Vec::new(),
            marker,
        }
    }

    /// Keeps only the marked rows of the batch decoded last.
    pub(crate) fn finish(&mut self) {
        let batch = &mut self.out[self.start..];
        self.marks.clear();
        self.marks.resize(batch.len(), false);
        self.marker.mark(batch, &mut self.marks);
        // Kept rows to the front of the batch, in order, without a branch
        // per row: each row is swapped into the next free place and the
        // place moves on only if the row is kept. A branch per row (as in
        // `retain`) is mispredicted on every other row of a selection that
        // takes rows at random.
        let mut kept = 0;
        for (row, &taken) in self.marks.iter().enumerate() {
            batch.swap(kept, row);
            kept += usize::from(taken);
        }
        self.out.truncate(self.start + kept);
        self.start = self.out.len();
    }
}

impl<T, M: Marks<T>> RowSink<T> for Kept<'_, T, M> {
    fn reserve_rows(&mut self, _rows: usize) -> Result<(), std::collections::TryReserveError> {
        // The caller reserves the output for the taken rows and one batch.
        Ok(())
    }

    fn place(&mut self, n: usize, placeholder: impl FnMut() -> T) -> &mut [T] {
        self.finish();
        self.out.resize_with(self.start + n, placeholder);
        &mut self.out[self.start..]
    }

    fn append<I: Iterator<Item = T>>(&mut self, rows: I) {
        self.finish();
        self.out.extend(rows);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_the_taken_rows_across_batches() {
        // Rows 0..23 in batches of 5, 5, 5, 8; pairs crossing batches.
        let pairs = [(2, 3), (0, 1), (4, 7), (3, 0)];
        let mut out = vec![100];
        let mut sink = Kept::new(&mut out, Pairs::new(&pairs));
        let mut next = 0..;
        for n in [5, 5, 5] {
            for row in sink.place(n, || 0) {
                *row = next.next().unwrap();
            }
        }
        sink.append((0..8).map(|_| next.next().unwrap()));
        sink.finish();
        let want: Vec<i32> = [100].into_iter().chain(2..6).chain(10..17).collect();
        assert_eq!(out, want);
    }

    #[test]
    fn drops_rows_beyond_the_pairs() {
        let pairs = [(1, 1)];
        let mut out = Vec::new();
        let mut sink = Kept::new(&mut out, Pairs::new(&pairs));
        sink.append(0..10);
        sink.finish();
        sink.finish(); // a second finish moves nothing
        assert_eq!(out, [1]);
    }
}
