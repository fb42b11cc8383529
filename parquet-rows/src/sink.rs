//! Where a generated decoder puts its rows: the end of a `Vec`, or (parallel
//! decoding) a region of one that a task of its own fills.

/// The destination of decoded rows. Implemented for `Vec<T>` (append) and for
/// the regions that parallel decoding hands to each task.
///
/// Part of the derive's plumbing: not public API.
#[doc(hidden)]
pub trait RowSink<T> {
    /// Room for `rows` rows (a whole row group), bounded by the caller; an
    /// error when there is no memory for them.
    ///
    /// # Errors
    /// When the allocator refuses the room.
    fn reserve_rows(&mut self, rows: usize) -> Result<(), std::collections::TryReserveError>;
    /// Places `n` rows made by `placeholder` after the rows placed so far and
    /// returns them, for the batch's columns to be decoded into their fields.
    /// A region returns fewer when it has no room for `n` (and remembers it:
    /// the decoder produced more rows than the row group has).
    fn place(&mut self, n: usize, placeholder: impl FnMut() -> T) -> &mut [T];
    /// Appends one batch of whole rows (structs with a field whose
    /// placeholder is not cheap, see `ParquetNode::CHEAP_PLACEHOLDER`).
    fn append<I: Iterator<Item = T>>(&mut self, rows: I);
}

impl<T> RowSink<T> for Vec<T> {
    fn reserve_rows(&mut self, rows: usize) -> Result<(), std::collections::TryReserveError> {
        self.try_reserve(rows)?;
        crate::huge_pages::advise(self.spare_capacity_mut());
        Ok(())
    }
    #[inline]
    fn place(&mut self, n: usize, placeholder: impl FnMut() -> T) -> &mut [T] {
        // Writing the placeholders is the first touch of the batch's memory,
        // in one sequential pass; the columns then write into rows in cache.
        let start = self.len();
        self.resize_with(start + n, placeholder);
        &mut self[start..]
    }
    #[inline]
    fn append<I: Iterator<Item = T>>(&mut self, rows: I) {
        // A zip of `Drain`s mapped into structs is `TrustedLen`: one capacity
        // check per batch and no length store per row.
        self.extend(rows);
    }
}

/// The rows to reserve for `rows` rows of which a share `taken` / `of` is
/// expected to be kept: that share with a margin of an eighth, at most
/// `rows`. Only reserved, so the margin costs address space,
/// not memory; without it, a read that keeps a hair more than projected
/// reallocates at its end, copying every row kept so far.
pub(crate) fn projected(taken: usize, of: usize, rows: usize) -> usize {
    let share = match rows.checked_mul(taken) {
        Some(n) => n / of.max(1),
        None => rows,
    };
    share.saturating_add(share / 8).min(rows)
}

/// The rows of `parts`, in order, in one `Vec` allocated once: collecting a
/// `flatten` grows the `Vec` by doubling (its size hint is not exact),
/// copying the rows so far at each step.
#[cfg(feature = "rayon")]
pub(crate) fn concat<T>(parts: Vec<Vec<T>>) -> Vec<T> {
    let total = parts.iter().map(Vec::len).sum();
    let mut out = Vec::with_capacity(total);
    for mut part in parts {
        out.append(&mut part);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn projections_keep_a_margin_and_stay_within_the_rows() {
        // Half of what was seen: half of what is left, an eighth more.
        assert_eq!(projected(500, 1000, 8000), 4000 + 500);
        // Never more than the rows left.
        assert_eq!(projected(1000, 1000, 8000), 8000);
        assert_eq!(projected(0, 1000, 8000), 0);
        // Nothing seen, or a product past `usize`: every row.
        assert_eq!(projected(5, 0, 100), 100);
        assert_eq!(projected(usize::MAX, usize::MAX, usize::MAX), usize::MAX);
    }
}
