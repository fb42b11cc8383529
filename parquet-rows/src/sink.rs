//! Where a generated decoder puts its rows: the end of a `Vec`, or (parallel
//! decoding) a region of one that a task of its own fills.

use crate::prefetch::prefetch_rows;

/// The destination of decoded rows. Implemented for `Vec<T>` (append) and for
/// the regions that parallel decoding hands to each task.
///
/// Part of the derive's plumbing: not public API.
#[doc(hidden)]
pub trait RowSink<T> {
    /// Room for `rows` rows (a whole row group), bounded by the caller.
    fn reserve_rows(&mut self, rows: usize);
    /// Called before a batch of `n` rows is decoded.
    fn prepare_batch(&mut self, n: usize);
    /// Appends one decoded batch.
    fn append<I: Iterator<Item = T>>(&mut self, rows: I);
}

impl<T> RowSink<T> for Vec<T> {
    fn reserve_rows(&mut self, rows: usize) {
        self.reserve(rows);
    }
    #[inline]
    fn prepare_batch(&mut self, n: usize) {
        prefetch_rows(self, n);
    }
    #[inline]
    fn append<I: Iterator<Item = T>>(&mut self, rows: I) {
        // A zip of `Drain`s mapped into structs is `TrustedLen`: one capacity
        // check per batch and no length store per row.
        self.extend(rows);
    }
}
