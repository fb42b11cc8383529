//! Gathering rows decoded in parallel, one part per row group, into one `Vec`.

use rayon::prelude::*;

/// Concatenates `parts` into one `Vec`, each part moved into its own region
/// of the output by its own rayon task.
///
/// `Vec::append` part after part copies every row on one thread after the
/// parallel decode, which measured as most of what kept two threads from
/// scaling (see the README's Performance section).
pub(crate) fn concat<T: Send>(parts: Vec<Vec<T>>) -> Vec<T> {
    if parts.len() <= 1 {
        return parts.into_iter().next().unwrap_or_default();
    }
    // The parts are decoded rows, so their total fits in memory already.
    let total: usize = parts.iter().map(Vec::len).sum();
    let mut out: Vec<T> = Vec::with_capacity(total);
    let mut regions = Vec::with_capacity(parts.len());
    let mut spare = &mut out.spare_capacity_mut()[..total];
    for part in &parts {
        let (region, rest) = spare.split_at_mut(part.len());
        regions.push(region);
        spare = rest;
    }
    regions
        .into_par_iter()
        .zip(parts.into_par_iter())
        .for_each(|(region, mut part)| {
            for (slot, row) in region.iter_mut().zip(part.drain(..)) {
                slot.write(row);
            }
        });
    // SAFETY: `regions` partition `out`'s first `total` spare slots, region i
    // is exactly as long as part i, and each task wrote every slot of its
    // region (the zip covers both to the end): all `total` slots are
    // initialised. `for_each` returns only when every task has finished (a
    // panicking task propagates before this line, leaking the written rows,
    // never exposing uninitialised ones).
    unsafe { out.set_len(total) };
    out
}

#[cfg(test)]
mod tests {
    use super::concat;

    #[test]
    fn concatenates_in_order_and_drops_each_value_once() {
        use std::sync::atomic::{AtomicUsize, Ordering};
        use std::sync::Arc;
        static DROPS: AtomicUsize = AtomicUsize::new(0);
        #[derive(Debug, PartialEq)]
        struct Counted(Arc<String>);
        impl Drop for Counted {
            fn drop(&mut self) {
                DROPS.fetch_add(1, Ordering::Relaxed);
            }
        }
        let sizes = [3usize, 0, 1000, 1, 57];
        let parts: Vec<Vec<Counted>> = sizes
            .iter()
            .enumerate()
            .map(|(p, &n)| {
                (0..n)
                    .map(|i| Counted(Arc::new(format!("{p}/{i}"))))
                    .collect()
            })
            .collect();
        let out = concat(parts);
        let expected: Vec<String> = sizes
            .iter()
            .enumerate()
            .flat_map(|(p, &n)| (0..n).map(move |i| format!("{p}/{i}")))
            .collect();
        assert_eq!(out.len(), expected.len());
        assert!(out.iter().zip(&expected).all(|(a, b)| *a.0 == *b));
        assert_eq!(
            DROPS.load(Ordering::Relaxed),
            0,
            "nothing dropped while moving"
        );
        drop(out);
        assert_eq!(DROPS.load(Ordering::Relaxed), expected.len());
        assert!(concat::<u8>(Vec::new()).is_empty());
        assert_eq!(concat(vec![vec![1, 2]]), [1, 2]);
    }
}
