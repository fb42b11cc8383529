//! A row sink that keeps only a selection's taken rows, batch by batch.
//!
//! When a selection's runs are too short for skipping to pay
//! ([`Runs::row_level`](super::select::Runs::row_level)), every row of the
//! row group is decoded and the rejected ones dropped. Decoding the whole
//! row group into the output first and compacting it after touches a row
//! group's worth of fresh output memory (40 MB for a million 40-byte rows)
//! to keep half of it: on a 10M-row file with half its rows taken that was
//! about 90,000 page faults per read, more than the decode itself. This sink
//! decodes each batch into a small buffer that stays in cache and moves the
//! taken rows of the batch to the output, which holds only the rows kept.

use crate::sink::RowSink;

/// Receives every row of a row group in order and appends to `out` only
/// those that `pairs` (rows to skip, rows to take) takes. Call
/// [`Kept::finish`] after the decode for the last batch's rows.
pub(crate) struct Kept<'a, T> {
    out: &'a mut Vec<T>,
    batch: Vec<T>,
    marks: Vec<bool>, // which rows of `batch` are taken
    pairs: std::slice::Iter<'a, (usize, usize)>,
    skip: usize, // rows of the current pair still to skip
    take: usize, // then rows of it still to take
}

impl<'a, T> Kept<'a, T> {
    /// A sink for the rows `pairs` covers, in order, appending to `out`.
    pub(crate) fn new(out: &'a mut Vec<T>, pairs: &'a [(usize, usize)]) -> Self {
        Kept {
            out,
            batch: Vec::new(),
            marks: Vec::new(),
            pairs: pairs.iter(),
            skip: 0,
            take: 0,
        }
    }

    /// Moves the taken rows of the batch decoded last to `out`.
    pub(crate) fn finish(&mut self) {
        // Which rows of the batch are taken, marked span by span from the
        // pairs; then one `retain` pass reads the marks (a per-row walk of
        // the pairs inside `retain` cost four times as much). Rows past the
        // last pair (a footer that counts more rows than the selection
        // covers) are dropped.
        let n = self.batch.len();
        self.marks.clear();
        self.marks.resize(n, false);
        let mut at = 0;
        while at < n {
            if self.skip > 0 {
                let s = self.skip.min(n - at);
                (at, self.skip) = (at + s, self.skip - s);
            } else if self.take > 0 {
                let t = self.take.min(n - at);
                self.marks[at..at + t].fill(true);
                (at, self.take) = (at + t, self.take - t);
            } else if let Some(&(s, t)) = self.pairs.next() {
                (self.skip, self.take) = (s, t);
            } else {
                break;
            }
        }
        // Taken rows to the front of the batch, in order, without a branch
        // per row: each row is swapped into the next free place and the
        // place moves on only if the row is taken. A branch per row (as in
        // `retain`) is mispredicted on every other row of a selection that
        // takes rows at random.
        let mut kept = 0;
        for (row, &taken) in self.marks.iter().enumerate() {
            self.batch.swap(kept, row);
            kept += usize::from(taken);
        }
        self.out.extend(self.batch.drain(..kept));
        self.batch.clear();
    }
}

impl<T> RowSink<T> for Kept<'_, T> {
    fn reserve_rows(&mut self, _rows: usize) -> Result<(), std::collections::TryReserveError> {
        // The output is reserved for the taken rows by the caller; a batch
        // is at most `BATCH` rows and grows to that once.
        Ok(())
    }

    fn place(&mut self, n: usize, placeholder: impl FnMut() -> T) -> &mut [T] {
        self.finish();
        self.batch.resize_with(n, placeholder);
        &mut self.batch
    }

    fn append<I: Iterator<Item = T>>(&mut self, rows: I) {
        self.finish();
        self.batch.extend(rows);
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
        let mut sink = Kept::new(&mut out, &pairs);
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
        let mut sink = Kept::new(&mut out, &pairs);
        sink.append(0..10);
        sink.finish();
        sink.finish(); // a second finish moves nothing
        assert_eq!(out, [1]);
    }
}
