//! Gathering rows decoded in parallel into one `Vec`: one part per row
//! group, or several row ranges per row group when there are too few row
//! groups to keep the pool's threads busy.

use std::mem::MaybeUninit;
use std::ops::Range;

use rayon::prelude::*;

use crate::error::{Error, Location, Result};
use crate::sink::RowSink;

/// Parts to aim for per thread of the pool: more than one, so a thread that
/// finishes early (a cheaper range, or a core shared with another process)
/// takes over work instead of waiting.
const PARTS_PER_THREAD: usize = 4;

/// The row ranges to decode row groups of `rows` rows in, on `threads`
/// threads, each range of at least `min_rows` rows (but never less than a
/// whole row group in one): per row group, ranges that partition `0..rows[i]`.
///
/// A row group gets more than one range only when the file's rows, cut
/// into `PARTS_PER_THREAD` parts per thread, give parts smaller than the
/// group: a file of as many equal row groups as parts keeps one part per
/// group, a file of one row group is cut into that many. A row group cut
/// into at least `threads` ranges gets a multiple of `threads`.
pub(crate) fn split(rows: &[usize], threads: usize, min_rows: usize) -> Vec<Vec<Range<usize>>> {
    let total = rows.iter().fold(0usize, |sum, &n| sum.saturating_add(n));
    let parts = threads.saturating_mul(PARTS_PER_THREAD);
    let target = total.div_ceil(parts.max(1)).max(min_rows).max(1);
    rows.iter()
        .map(|&n| {
            let k = if threads > 1 {
                let k = n.div_ceil(target).min(n / min_rows.max(1));
                // A whole number of ranges per thread: 5 equal ranges on 2
                // threads take as long as 6 (one thread decodes 3).
                if k >= threads {
                    k / threads * threads
                } else {
                    k.max(1)
                }
            } else {
                1
            };
            // `k` ranges of `n / k` rows, the first `n % k` one row longer.
            let (size, longer) = (n / k, n % k);
            let mut start = 0;
            (0..k)
                .map(|i| {
                    let end = start + size + usize::from(i < longer);
                    let range = start..end;
                    start = end;
                    range
                })
                .collect()
        })
        .collect()
}

/// Decodes `counts.len()` parts in parallel, part `i` (of `counts[i]` rows)
/// by `decode(i, region)` straight into its own region of one output `Vec`.
/// `describe(i)` names part `i` for errors: its row group, and how the
/// message calls it (`row group 3`).
///
/// Decoding into per-part `Vec`s and concatenating them afterwards cost one
/// extra allocation per part (page faults on every call, as rayon's workers
/// allocate from their own malloc arenas) and one extra copy of every row:
/// `bench-report run tick50-4rg-zstd rows-par-decode-1t` measured 22 ns/row
/// that way against 15 for the sequential decode.
///
/// The caller bounds `counts` (a hostile footer must not make us reserve
/// terabytes); the reservation itself is fallible. When several parts fail,
/// the error of the first is returned.
pub(crate) fn decode_in_regions<T, F>(
    counts: &[usize],
    describe: &(dyn Fn(usize) -> (usize, String) + Sync),
    decode: F,
) -> Result<Vec<T>>
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
    // As for sequential decoding (`RowSink for Vec`): fewer page faults
    // while the tasks write their rows.
    crate::huge_pages::advise(out.spare_capacity_mut());
    let regions = Region::split(&mut out.spare_capacity_mut()[..total], counts);
    let filled = fill(regions, describe, decode)?;
    for region in filled {
        region.commit();
    }
    // SAFETY: the regions partition `out`'s first `total` spare slots, and
    // each was checked by `fill` to have written every one of its slots
    // (`filled == slots.len()`, and `Region::place` and `Region::append`
    // write slots in order
    // from the start, counting them). `commit` forgot each region without
    // dropping its rows, so each row now has one owner: `out`.
    unsafe { out.set_len(total) };
    Ok(out)
}

/// Runs `decode` on each region in parallel and checks that it filled its
/// region exactly.
fn fill<'a, T, F>(
    regions: Vec<Region<'a, T>>,
    describe: &(dyn Fn(usize) -> (usize, String) + Sync),
    decode: F,
) -> Result<Vec<Region<'a, T>>>
where
    T: Send,
    F: Fn(usize, &mut Region<'_, T>) -> Result<()> + Sync,
{
    let results: Vec<Result<Region<'a, T>>> = regions
        .into_par_iter()
        // One region per task: a region is a row group or a range of tens of
        // thousands of rows.
        .with_max_len(1)
        .enumerate()
        .map(|(i, mut region)| {
            decode(i, &mut region)?;
            if region.overflow || region.filled != region.slots.len() {
                let (row_group, what) = describe(i);
                return Err(Error::OutOfSpec {
                    location: Location {
                        row_group: Some(row_group),
                        ..Location::default()
                    },
                    message: format!(
                        "{what} decoded to {} rows, but its metadata says {}",
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
        .collect();
    // The first error in part order, so that a file with several faults
    // fails the same way on every run. On an error, the regions filled are
    // dropped with `results`, and drop their rows; the output is still
    // empty, so nothing is dropped twice.
    results.into_iter().collect()
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

impl<'a, T> Region<'a, T> {
    /// Regions of `counts[i]` slots each, in order, from the start of `spare`.
    fn split(mut spare: &'a mut [MaybeUninit<T>], counts: &[usize]) -> Vec<Self> {
        let mut regions = Vec::with_capacity(counts.len());
        for &n in counts {
            let (slots, rest) = spare.split_at_mut(n);
            regions.push(Region {
                slots,
                filled: 0,
                overflow: false,
            });
            spare = rest;
        }
        regions
    }

    /// Gives the rows to the output: they will not be dropped with the region.
    fn commit(self) {
        std::mem::forget(self);
    }
}

impl<T: Send> Region<'_, T> {
    /// Fills this (empty) region in parts decoded in parallel: part `p`, of
    /// `counts[p]` rows, by `decode(p, part)`, into the slots after those of
    /// the parts before it. `describe` names a part for errors, as in
    /// [`decode_in_regions`].
    ///
    /// # Errors
    /// The first failing part's error; unsupported when `counts` do not add
    /// up to the region's rows or rows were placed already.
    pub(crate) fn decode_parts<F>(
        &mut self,
        counts: &[usize],
        describe: &(dyn Fn(usize) -> (usize, String) + Sync),
        decode: F,
    ) -> Result<()>
    where
        F: Fn(usize, &mut Region<'_, T>) -> Result<()> + Sync,
    {
        let rows = counts.iter().try_fold(0usize, |sum, &n| sum.checked_add(n));
        if self.filled != 0 || rows != Some(self.slots.len()) {
            return Err(too_many(&format!(
                "parts of {rows:?} rows for a region of {} rows, {} of them placed",
                self.slots.len(),
                self.filled
            )));
        }
        let parts = Region::split(&mut self.slots[..], counts);
        for part in fill(parts, describe, decode)? {
            part.commit();
        }
        // Every part wrote all its slots (checked by `fill`) and was
        // forgotten without dropping its rows: they are this region's now,
        // dropped with it unless it is committed in turn.
        self.filled = self.slots.len();
        Ok(())
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
    fn place_rows(
        region: &mut Region<'_, Counted>,
        part: usize,
        n: usize,
        drops: &Arc<AtomicUsize>,
    ) {
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

    /// Errors name part `i` as row group `i`, as the readers of whole row
    /// groups do.
    fn group(i: usize) -> (usize, String) {
        (i, format!("row group {i}"))
    }

    #[test]
    fn regions_come_out_in_order_and_each_row_is_dropped_once() {
        let drops = Arc::new(AtomicUsize::new(0));
        let counts = [3usize, 0, 1000, 1, 57];
        let out = decode_in_regions(&counts, &group, |i, region| {
            place_rows(region, i, counts[i], &drops);
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
        assert!(decode_in_regions::<u8, _>(&[], &group, |_, _| Ok(()))
            .unwrap()
            .is_empty());
    }

    #[test]
    fn a_failing_part_drops_every_row_written_and_returns_its_error() {
        let drops = Arc::new(AtomicUsize::new(0));
        let counts = [50usize, 40, 30, 20];
        let written = AtomicUsize::new(0);
        let result = decode_in_regions(&counts, &group, |i, region| {
            // Part 2 stops half-way with an error; the others finish.
            let n = if i == 2 { 15 } else { counts[i] };
            place_rows(region, i, n, &drops);
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
        let err = decode_in_regions(&[10, 10], &group, |i, region| {
            place_rows(region, i, if i == 1 { 9 } else { 10 }, &drops);
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
        let err = decode_in_regions(&[10], &group, |_, region| {
            place_rows(region, 0, 14, &drops);
            Ok(())
        })
        .unwrap_err()
        .to_string();
        assert!(err.contains("decoded to more rows"), "{err}");
        // The second batch of 7 got the 3 slots left: 10 rows placed, each
        // dropped once with the region.
        assert_eq!(drops.load(Ordering::Relaxed), 10);
    }

    #[test]
    fn parts_of_a_region_fill_it_in_order_and_fail_as_one() {
        // Row group 1 of 100 rows in parts of 30, 30, 40; the others whole.
        let drops = Arc::new(AtomicUsize::new(0));
        let counts = [5usize, 100, 7];
        let parts = [30usize, 30, 40];
        let out = decode_in_regions(&counts, &group, |i, region| {
            if i != 1 {
                place_rows(region, i, counts[i], &drops);
                return Ok(());
            }
            let part = |p: usize| (1, format!("part {p} of row group 1"));
            region.decode_parts(&parts, &part, |p, sub| {
                place_rows(sub, 10 + p, parts[p], &drops);
                Ok(())
            })
        })
        .unwrap();
        let names: Vec<&str> = out.iter().map(|r| r.0.as_str()).collect();
        assert_eq!(names.len(), 112);
        assert_eq!(names[4..7], ["0/4", "10/0", "10/1"]);
        assert_eq!(names[34..36], ["10/29", "11/0"]);
        assert_eq!(names[104..107], ["12/39", "2/0", "2/1"]);
        assert_eq!(drops.load(Ordering::Relaxed), 0);
        drop(out);
        assert_eq!(drops.load(Ordering::Relaxed), 112);

        // A part one row short: the error names it, and every row placed
        // (in the other parts and row groups too) is dropped once.
        let drops = Arc::new(AtomicUsize::new(0));
        let err = decode_in_regions(&counts, &group, |i, region| {
            if i != 1 {
                place_rows(region, i, counts[i], &drops);
                return Ok(());
            }
            let part = |p: usize| (1, format!("part {p} of row group 1"));
            region.decode_parts(&parts, &part, |p, sub| {
                place_rows(sub, p, parts[p] - usize::from(p == 1), &drops);
                Ok(())
            })
        })
        .unwrap_err();
        assert!(
            err.to_string()
                .contains("part 1 of row group 1 decoded to 29 rows, but its metadata says 30"),
            "{err}"
        );
        assert_eq!(drops.load(Ordering::Relaxed), 5 + 30 + 29 + 40 + 7);

        // Parts that do not add up to the region are refused before any
        // row is placed.
        let err = decode_in_regions::<u8, _>(&[10], &group, |_, region| {
            region.decode_parts(&[4, 4], &group, |_, _| Ok(()))
        })
        .unwrap_err();
        assert!(
            err.to_string()
                .contains("parts of Some(8) rows for a region of 10 rows"),
            "{err}"
        );
    }

    #[test]
    fn the_first_failing_part_is_the_error_returned() {
        for _ in 0..20 {
            let err = decode_in_regions::<u8, _>(&[1, 1, 1, 1, 1, 1], &group, |i, _| {
                Err(too_many(&format!("part {i} failed")))
            })
            .unwrap_err();
            assert!(err.to_string().contains("part 0 failed"), "{err}");
        }
    }

    #[test]
    fn row_groups_are_split_only_when_there_are_too_few() {
        let lens = |plan: &[Vec<Range<usize>>]| -> Vec<Vec<usize>> {
            plan.iter()
                .map(|g| g.iter().map(ExactSizeIterator::len).collect())
                .collect()
        };
        // One row group of 1M rows on 2 threads: 8 parts, in order, covering it.
        let plan = split(&[1_000_000], 2, 1 << 16);
        assert_eq!(lens(&plan), [vec![125_000; 8]]);
        assert_eq!(plan[0][0], 0..125_000);
        assert_eq!(plan[0][7], 875_000..1_000_000);
        // 8 row groups of 125,000: one part each.
        assert_eq!(
            lens(&split(&[125_000; 8], 2, 1 << 16)),
            vec![vec![125_000]; 8]
        );
        // One thread: never split.
        assert_eq!(lens(&split(&[1_000_000], 1, 1 << 16)), [vec![1_000_000]]);
        // Parts never under the minimum (370,000 rows would make 8 of
        // 46,250, the minimum allows 5), and a multiple of the threads: 4
        // of 92,500.
        assert_eq!(lens(&split(&[370_000], 2, 1 << 16)), [vec![92_500; 4]]);
        assert_eq!(
            lens(&split(&[370_000], 3, 1 << 16)),
            [vec![123_334, 123_333, 123_333]]
        );
        // Fewer ranges than threads when the minimum allows no more.
        assert_eq!(lens(&split(&[100_000], 4, 1 << 16)), [vec![100_000]]);
        assert_eq!(lens(&split(&[140_000], 4, 1 << 16)), [vec![70_000; 2]]);
        // A large row group among small ones is split; the small ones are
        // not, and an empty one keeps its one empty part.
        let plan = split(&[10, 0, 1_000_000, 10], 2, 1 << 16);
        assert_eq!(lens(&plan)[..2], [vec![10], vec![0]]);
        assert_eq!(plan[2].len(), 8);
        assert_eq!(
            plan[2].iter().map(ExactSizeIterator::len).sum::<usize>(),
            1_000_000
        );
        // Uneven division: the first ranges are one row longer.
        assert_eq!(lens(&split(&[11], 3, 3)), [vec![4, 4, 3]]);
        assert!(split(&[], 2, 1).is_empty());
    }
}
