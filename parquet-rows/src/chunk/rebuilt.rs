//! Values rebuilt from several columns, kept as long as the pages so that
//! borrowed rows can point into them (a shredded variant read as
//! `Variant<'a>`: its `value` / `typed_value` columns are encoded again).
//!
//! One slot per entry (level) of the column that owns the store, filled by
//! the first read that needs it and kept: a second read of the same pages,
//! or another thread reading another range of the row group, finds the
//! slot filled, so the store never holds more than one value per entry.
//! Slots are found by the entry's index in three levels of [`FAN`] (a radix
//! tree of `OnceLock`s), each allocated when first touched: a read that
//! skips most of a row group allocates nothing for the entries it skips,
//! and no level is sized by a count a page header claims. Everything here
//! is safe code: a `OnceLock` hands out `&T` for as long as it lives, which
//! is what lets rows borrow a slot filled after the pages were loaded.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::OnceLock;

/// Bits of the entry index each level of the tree takes.
const BITS: u32 = 10;
/// Children of one node of the tree.
const FAN: usize = 1 << BITS;
/// Entries one store can hold: 2^30 per column chunk, beyond any row group
/// a reader holds at once (2^30 variants take at least 16 GiB as rows).
pub(crate) const MAX_ENTRIES: usize = 1 << (3 * BITS);

/// One rebuilt value: its buffers (for a variant, `metadata` then `value`).
#[derive(Debug)]
pub(crate) struct Slot {
    pub(crate) metadata: Box<[u8]>,
    pub(crate) value: Box<[u8]>,
}

type Leaves = Box<[OnceLock<Slot>]>;
type Mid = Box<[OnceLock<Leaves>]>;

/// The rebuilt values of one column chunk, by entry.
#[derive(Debug)]
pub(crate) struct Rebuilt {
    top: Box<[OnceLock<Mid>]>, // invariant: FAN nodes, each of FAN nodes of FAN slots
    bytes: AtomicUsize,        // bytes held by filled slots; never above `max_bytes`
    max_bytes: usize,          // the budget (`ReadOptions::max_output_bytes`)
}

/// Why a slot could not be filled.
#[derive(Debug)]
pub(crate) enum RebuiltError {
    /// The entry index is past [`MAX_ENTRIES`].
    Entries(usize),
    /// The values would take more than the budget (bytes held, budget).
    Bytes(usize, usize),
    /// Building the value failed.
    Build(crate::Error),
}

fn cells<T>() -> Box<[OnceLock<T>]> {
    (0..FAN).map(|_| OnceLock::new()).collect()
}

impl Rebuilt {
    /// An empty store whose slots may hold `max_bytes` in all.
    pub(crate) fn new(max_bytes: usize) -> Self {
        Rebuilt {
            top: cells(),
            bytes: AtomicUsize::new(0),
            max_bytes,
        }
    }

    /// The slot of `entry`, filled by `build` if it is empty. A slot filled
    /// by an earlier read is returned as it is (`build` is not called): the
    /// value of an entry depends on the columns alone.
    pub(crate) fn fill(
        &self,
        entry: usize,
        build: impl FnOnce() -> crate::Result<Slot>,
    ) -> Result<&Slot, RebuiltError> {
        if entry >= MAX_ENTRIES {
            return Err(RebuiltError::Entries(entry));
        }
        let mid = self.top[entry >> (2 * BITS)].get_or_init(cells);
        let leaves = mid[(entry >> BITS) & (FAN - 1)].get_or_init(cells);
        let cell = &leaves[entry & (FAN - 1)];
        if let Some(slot) = cell.get() {
            return Ok(slot);
        }
        let slot = build().map_err(RebuiltError::Build)?;
        let size = slot.metadata.len() + slot.value.len();
        let held = self.bytes.fetch_add(size, Ordering::Relaxed);
        if held.saturating_add(size) > self.max_bytes {
            self.bytes.fetch_sub(size, Ordering::Relaxed);
            return Err(RebuiltError::Bytes(held, self.max_bytes));
        }
        let mut stored = false;
        let got = cell.get_or_init(|| {
            stored = true;
            slot
        });
        if !stored {
            // Another thread filled the slot first: ours was dropped.
            self.bytes.fetch_sub(size, Ordering::Relaxed);
        }
        Ok(got)
    }

    /// Bytes held by the filled slots.
    #[cfg(test)]
    pub(crate) fn bytes(&self) -> usize {
        self.bytes.load(Ordering::Relaxed)
    }
}

#[cfg(test)]
mod tests {
    use super::{Rebuilt, RebuiltError, Slot, FAN, MAX_ENTRIES};

    fn slot(n: u8) -> Slot {
        Slot {
            metadata: vec![1, 0, 0].into_boxed_slice(),
            value: vec![n; 4].into_boxed_slice(),
        }
    }

    #[test]
    fn a_filled_slot_is_kept_and_shared() {
        let store = Rebuilt::new(1 << 20);
        let first = store.fill(5, || Ok(slot(1))).unwrap();
        assert_eq!(&*first.value, &[1; 4]);
        // A second fill of the entry finds the first value, without building.
        let again = store
            .fill(5, || panic!("the slot was filled already"))
            .unwrap();
        assert!(std::ptr::eq(first, again));
        assert_eq!(store.bytes(), 7);
        // Entries far apart, across every level of the tree.
        for entry in [0, FAN - 1, FAN, FAN * FAN + 3, MAX_ENTRIES - 1] {
            let got = store.fill(entry, || Ok(slot(2))).unwrap();
            assert_eq!(&*got.value, &[2; 4], "entry {entry}");
        }
        assert!(matches!(
            store.fill(MAX_ENTRIES, || Ok(slot(3))),
            Err(RebuiltError::Entries(e)) if e == MAX_ENTRIES
        ));
    }

    #[test]
    fn the_budget_holds_and_a_refused_value_is_not_counted() {
        let store = Rebuilt::new(20);
        store.fill(0, || Ok(slot(0))).unwrap();
        store.fill(1, || Ok(slot(1))).unwrap();
        assert_eq!(store.bytes(), 14);
        assert!(matches!(
            store.fill(2, || Ok(slot(2))),
            Err(RebuiltError::Bytes(14, 20))
        ));
        assert_eq!(store.bytes(), 14);
        // A build that fails leaves the slot empty.
        let failed = store.fill(3, || {
            Err(crate::Error::OutOfSpec {
                location: crate::Location::default(),
                message: "bad".into(),
            })
        });
        assert!(matches!(failed, Err(RebuiltError::Build(_))));
        assert!(store.fill(3, || Ok(slot(3))).is_err()); // still over budget with 7 more
    }

    #[test]
    fn threads_share_one_store() {
        let store = Rebuilt::new(1 << 20);
        std::thread::scope(|s| {
            for t in 0..4u8 {
                let store = &store;
                s.spawn(move || {
                    for entry in 0..3000 {
                        let got = store.fill(entry, || Ok(slot(t))).unwrap();
                        assert_eq!(got.value.len(), 4);
                    }
                });
            }
        });
        // One value per entry, whichever thread filled it.
        assert_eq!(store.bytes(), 3000 * 7);
    }
}
