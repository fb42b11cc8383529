//! Gathering rows decoded in parallel, one part per row group, into one `Vec`.

use std::mem::MaybeUninit;

use rayon::prelude::*;

use crate::error::{Error, Location, Result};
use crate::sink::RowSink;

/// Decodes `counts.len()` parts in parallel, part `i` (of `counts[i]` rows)
/// by `decode(i, region)` straight into its own region of one output `Vec`.
///
/// Decoding into per-part `Vec`s and concatenating them afterwards cost one
/// extra allocation per part (page faults on every call, as rayon's workers
/// allocate from their own malloc arenas) and one extra copy of every row:
/// `bench-report run tick50-4rg-zstd rows-par-decode-1t` measured 22 ns/row
/// that way against 15 for the sequential decode.
///
/// The caller bounds `counts` (a hostile footer must not make us reserve
/// terabytes); the reservation itself is fallible.
pub(crate) fn decode_in_regions<T, F>(counts: &[usize], decode: F) -> Result<Vec<T>>
where
    T: Send,
    F: Fn(usize, &mut Region<'_, T>) -> Result<()> + Sync,
{
    let total = counts
        .iter()
        .try_fold(0usize, |sum, &n| sum.checked_add(n))
        .ok_or_else(|| too_many("the row groups' row counts overflow"))?;
    let mut out: Vec<T> = Vec::new();
    out.try_reserve_exact(total)
        .map_err(|_| too_many(&format!("no memory for {total} rows")))?;
    let mut regions = Vec::with_capacity(counts.len());
    let mut spare = &mut out.spare_capacity_mut()[..total];
    for &n in counts {
        let (slots, rest) = spare.split_at_mut(n);
        regions.push(Region {
            slots,
            filled: 0,
            overflow: false,
        });
        spare = rest;
    }
    let filled: Vec<Region<'_, T>> = regions
        .into_par_iter()
        .enumerate()
        .map(|(i, mut region)| {
            decode(i, &mut region)?;
            if region.overflow || region.filled != region.slots.len() {
                return Err(Error::OutOfSpec {
                    location: Location {
                        row_group: Some(i),
                        ..Location::default()
                    },
                    message: format!(
                        "row group {i} decoded to {} rows, but its metadata says {}",
                        if region.overflow {
                            "more".to_string()
                        } else {
                            region.filled.to_string()
                        },
                        region.slots.len()
                    ),
                });
            }
            Ok(region)
        })
        // On an error, the regions already filled are dropped here, and drop
        // their rows; `out` is still empty, so nothing is dropped twice.
        .collect::<Result<_>>()?;
    for region in filled {
        region.commit();
    }
    // SAFETY: the regions partition `out`'s first `total` spare slots, and
    // each was checked above to have written every one of its slots
    // (`filled == slots.len()`, and `Region::place` and `Region::append`
    // write slots in order
    // from the start, counting them). `commit` forgot each region without
    // dropping its rows, so each row now has one owner: `out`.
    unsafe { out.set_len(total) };
    Ok(out)
}

fn too_many(message: &str) -> Error {
    Error::Unsupported {
        location: Location::default(),
        message: message.to_string(),
    }
}

/// One task's part of the output: slots `..filled` are initialised rows, the
/// rest are not. Dropping a region drops its rows (a task failed); `commit`
/// hands them to the output `Vec` instead.
pub(crate) struct Region<'a, T> {
    slots: &'a mut [MaybeUninit<T>],
    filled: usize,  // invariant: <= slots.len(); slots[..filled] are initialised
    overflow: bool, // the decoder produced more rows than the region holds
}

impl<T> Region<'_, T> {
    /// Gives the rows to the output: they will not be dropped with the region.
    fn commit(self) {
        std::mem::forget(self);
    }
}

impl<T> Drop for Region<'_, T> {
    fn drop(&mut self) {
        for slot in &mut self.slots[..self.filled] {
            // SAFETY: `slots[..filled]` were written by `place` or `append` and not yet
            // handed on (a committed region is forgotten, not dropped), so each
            // is an initialised row dropped exactly once here.
            unsafe { slot.assume_init_drop() };
        }
    }
}

impl<T> RowSink<T> for Region<'_, T> {
    fn reserve_rows(&mut self, _rows: usize) -> Result<(), std::collections::TryReserveError> {
        Ok(())
    }

    #[inline]
    fn place(&mut self, n: usize, mut placeholder: impl FnMut() -> T) -> &mut [T] {
        let free = self.slots.len() - self.filled;
        // More rows than the row group's metadata gave the region: a
        // metadata/decoder disagreement, reported once the task returns.
        if n > free {
            self.overflow = true;
        }
        let placed = &mut self.slots[self.filled..][..n.min(free)];
        for slot in placed.iter_mut() {
            slot.write(placeholder());
        }
        self.filled += placed.len();
        let (start, len) = (placed.as_mut_ptr().cast::<T>(), placed.len());
        // SAFETY: the `len` slots at `start` were all written just above (and
        // counted in `filled`, so the region drops them if it is dropped); the
        // slice borrows `self` mutably, so nothing else reads or writes them
        // while it lives.
        unsafe { std::slice::from_raw_parts_mut(start, len) }
    }

    #[inline]
    fn append<I: Iterator<Item = T>>(&mut self, rows: I) {
        let free = &mut self.slots[self.filled..];
        // The decoder's batches are exact-size iterators; one that claims more
        // rows than the region has left is a metadata/decoder disagreement.
        if rows.size_hint().1.is_none_or(|most| most > free.len()) {
            self.overflow = true;
            return;
        }
        let mut written = 0;
        for (slot, row) in free.iter_mut().zip(rows) {
            slot.write(row);
            written += 1;
        }
        self.filled += written;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::Arc;

    /// A row that counts how often it is dropped, in a counter of its own test.
    #[derive(Debug)]
    struct Counted(String, Arc<AtomicUsize>);
    impl Drop for Counted {
        fn drop(&mut self) {
            self.1.fetch_add(1, Ordering::Relaxed);
        }
    }

    /// Places `n` rows named `part/i` in batches of 7, as a decoder would:
    /// placeholders first (counted drops too), then each row's field written.
    fn fill(region: &mut Region<'_, Counted>, part: usize, n: usize, drops: &Arc<AtomicUsize>) {
        let mut i = 0;
        while i < n {
            let k = 7.min(n - i);
            let rows = region.place(k, || Counted(String::new(), drops.clone()));
            for (j, row) in rows.iter_mut().enumerate() {
                row.0 = format!("{part}/{}", i + j);
            }
            i += k;
        }
    }

    #[test]
    fn regions_come_out_in_order_and_each_row_is_dropped_once() {
        let drops = Arc::new(AtomicUsize::new(0));
        let counts = [3usize, 0, 1000, 1, 57];
        let out = decode_in_regions(&counts, |i, region| {
            fill(region, i, counts[i], &drops);
            Ok(())
        })
        .unwrap();
        let expected: Vec<String> = counts
            .iter()
            .enumerate()
            .flat_map(|(p, &n)| (0..n).map(move |i| format!("{p}/{i}")))
            .collect();
        assert_eq!(out.len(), expected.len());
        assert!(out.iter().zip(&expected).all(|(a, b)| a.0 == *b));
        assert_eq!(
            drops.load(Ordering::Relaxed),
            0,
            "nothing dropped while decoding"
        );
        drop(out);
        assert_eq!(drops.load(Ordering::Relaxed), expected.len());
        assert!(decode_in_regions::<u8, _>(&[], |_, _| Ok(()))
            .unwrap()
            .is_empty());
    }

    #[test]
    fn a_failing_part_drops_every_row_written_and_returns_its_error() {
        let drops = Arc::new(AtomicUsize::new(0));
        let counts = [50usize, 40, 30, 20];
        let written = AtomicUsize::new(0);
        let result = decode_in_regions(&counts, |i, region| {
            // Part 2 stops half-way with an error; the others finish.
            let n = if i == 2 { 15 } else { counts[i] };
            fill(region, i, n, &drops);
            written.fetch_add(n, Ordering::Relaxed);
            if i == 2 {
                return Err(too_many("part 2 failed"));
            }
            Ok(())
        });
        let err = result.unwrap_err().to_string();
        assert!(err.contains("part 2 failed"), "{err}");
        assert_eq!(
            drops.load(Ordering::Relaxed),
            written.load(Ordering::Relaxed)
        );
    }

    #[test]
    fn too_few_or_too_many_rows_are_errors_not_uninitialised_memory() {
        let drops = Arc::new(AtomicUsize::new(0));
        let err = decode_in_regions(&[10, 10], |i, region| {
            fill(region, i, if i == 1 { 9 } else { 10 }, &drops);
            Ok(())
        })
        .unwrap_err()
        .to_string();
        assert!(
            err.contains("row group 1 decoded to 9 rows, but its metadata says 10"),
            "{err}"
        );
        assert_eq!(drops.load(Ordering::Relaxed), 19);

        let drops = Arc::new(AtomicUsize::new(0));
        let err = decode_in_regions(&[10], |_, region| {
            fill(region, 0, 14, &drops);
            Ok(())
        })
        .unwrap_err()
        .to_string();
        assert!(err.contains("decoded to more rows"), "{err}");
        // The second batch of 7 got the 3 slots left: 10 rows placed, each
        // dropped once with the region.
        assert_eq!(drops.load(Ordering::Relaxed), 10);
    }
}
