//! Pushing a slice of rows into the column buffers, one field at a time:
//! on the writer's threads when it has more than one and the rows can be
//! shared between threads (`Sync`), in the schema's order otherwise.
//!
//! Each field writes its own leaf buffers, so the fields of one slice of
//! rows can be pushed at the same time without any other coordination: the
//! buffers end up exactly as one thread leaves them. Pushing the rows
//! (reading each field of every row and appending it to its column) was a
//! quarter of a one-row-group write of 1M ticks on one thread, the part
//! the parallel encoding of the columns left on one core.
//!
//! The derive cannot know whether a struct is `Sync` (a field it does not
//! write may hold an `Rc`), and a `Sync` bound on `Writer::write` would
//! refuse such rows. So the generated `push_columns` calls
//! `(&Rows(rows)).push_fields(..)`: method lookup takes
//! [`PushOnThreads::push_fields`], whose receiver is `Rows<R>` itself, when
//! `R: Sync` holds, and otherwise goes on to [`PushInOrder::push_fields`],
//! whose receiver is `&Rows<R>` (one more reference away). The derive
//! refuses type parameters, so `R` is a concrete struct (up to lifetimes,
//! which do not change whether it is `Sync`) and the choice is exact.

use super::field::{ColumnBuffer, ColumnBuffers};

/// Writes one field of every row into its column buffers (the field's
/// leaves; `writer::push_column` with the field's accessor).
#[doc(hidden)]
pub type Push<R> = fn(&[R], &mut [ColumnBuffer]);

/// Rows to push, wrapped so that method lookup can tell `Sync` rows from
/// the others (see the module's documentation).
#[doc(hidden)]
#[derive(Debug)]
pub struct Rows<'r, R>(pub &'r [R]);

/// Pushing `Sync` rows: the fields on the writer's threads.
#[doc(hidden)]
pub trait PushOnThreads<R> {
    /// Pushes field `i` of every row with `pushes[i]`, the fields in
    /// parallel when the buffers have threads.
    fn push_fields(&self, columns: &mut ColumnBuffers, pushes: &[Push<R>]);
}

/// Pushing rows that cannot be shared between threads: in order.
#[doc(hidden)]
pub trait PushInOrder<R> {
    /// Pushes field `i` of every row with `pushes[i]`, one after another.
    fn push_fields(&self, columns: &mut ColumnBuffers, pushes: &[Push<R>]);
}

impl<R: Sync> PushOnThreads<R> for Rows<'_, R> {
    fn push_fields(&self, columns: &mut ColumnBuffers, pushes: &[Push<R>]) {
        #[cfg(feature = "rayon")]
        if let Some(pool) = columns.pool.clone() {
            if pushes.len() > 1 && self.0.len() >= MIN_PARALLEL_ROWS {
                let rows = self.0;
                let fields = columns.fields_mut();
                pool.install(|| {
                    use rayon::prelude::*;
                    fields
                        .into_par_iter()
                        .zip(pushes)
                        .with_max_len(1)
                        .for_each(|(field, push)| push(rows, field));
                });
                return;
            }
        }
        in_order(self.0, columns, pushes);
    }
}

impl<R> PushInOrder<R> for &Rows<'_, R> {
    fn push_fields(&self, columns: &mut ColumnBuffers, pushes: &[Push<R>]) {
        in_order(self.0, columns, pushes);
    }
}

/// Rows below which the fields are pushed on the calling thread: handing
/// the fields of a few rows to the pool costs more than pushing them
/// (`Writer::extend` writes 1,024 rows at a time).
#[cfg(feature = "rayon")]
const MIN_PARALLEL_ROWS: usize = 4096;

/// Rows whose fields are pushed one after another on one thread: the rows
/// stay in the core's cache from one field to the next (1M ticks of 48
/// bytes: 13.5 ms in parts of 4,096 rows, 18 ms in parts of 65,536).
const LOCAL_ROWS: usize = 4096;

/// Pushes every field, a part of [`LOCAL_ROWS`] rows at a time; a value
/// refused stops the push with its row counted from the start of `rows`.
fn in_order<R>(rows: &[R], columns: &mut ColumnBuffers, pushes: &[Push<R>]) {
    for (k, part) in rows.chunks(LOCAL_ROWS).enumerate() {
        for (i, push) in pushes.iter().enumerate() {
            push(part, columns.field(i));
        }
        if columns.shift_refused(k * LOCAL_ROWS) {
            return;
        }
    }
}

#[cfg(test)]
mod tests {
    // The calls below are written as the derive writes them: the `&` is
    // what lets lookup go on to `PushInOrder` for rows that are not `Sync`.
    #![allow(clippy::needless_borrow)]

    use super::*;

    /// Whether `push_first` ran on a thread of a pool.
    #[cfg(feature = "rayon")]
    static ON_POOL: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

    /// Pushes the row's value into its one leaf (`ints`).
    fn push_first(rows: &[(i32, i32)], column: &mut [ColumnBuffer]) {
        #[cfg(feature = "rayon")]
        if rayon::current_thread_index().is_some() {
            ON_POOL.store(true, std::sync::atomic::Ordering::Relaxed);
        }
        column[0].ints.extend(rows.iter().map(|r| r.0));
    }
    fn push_second(rows: &[(i32, i32)], column: &mut [ColumnBuffer]) {
        column[0].ints.extend(rows.iter().map(|r| r.1));
    }

    fn buffers(threads: usize) -> ColumnBuffers {
        let leaves = vec![ColumnBuffer::default(), ColumnBuffer::default()];
        ColumnBuffers::new(leaves, vec![0, 1, 2], threads).unwrap()
    }

    #[test]
    fn sync_rows_on_threads_fill_the_buffers_as_in_order() {
        let rows: Vec<(i32, i32)> = (0..5000).map(|i| (i, -i)).collect();
        let pushes: [Push<(i32, i32)>; 2] = [push_first, push_second];
        let mut alone = buffers(1);
        (&Rows(&rows[..])).push_fields(&mut alone, &pushes);
        #[cfg(feature = "rayon")]
        assert!(!ON_POOL.load(std::sync::atomic::Ordering::Relaxed));
        let mut shared = buffers(2);
        (&Rows(&rows[..])).push_fields(&mut shared, &pushes);
        #[cfg(feature = "rayon")]
        assert!(
            ON_POOL.load(std::sync::atomic::Ordering::Relaxed),
            "pushed on the pool"
        );
        assert_eq!(alone.buffers[0].ints, (0..5000).collect::<Vec<_>>());
        assert_eq!(
            alone.buffers[1].ints,
            (0..5000).map(|i| -i).collect::<Vec<_>>()
        );
        assert_eq!(shared.buffers[0].ints, alone.buffers[0].ints);
        assert_eq!(shared.buffers[1].ints, alone.buffers[1].ints);
    }

    #[test]
    fn rows_that_are_not_sync_are_pushed_in_order() {
        use std::cell::Cell;
        fn push(rows: &[Cell<i32>], column: &mut [ColumnBuffer]) {
            column[0].ints.extend(rows.iter().map(Cell::get));
        }
        // `Cell` is not `Sync`: lookup goes on to `PushInOrder`.
        let rows: Vec<Cell<i32>> = (0..5000).map(Cell::new).collect();
        let mut columns = buffers(2);
        (&Rows(&rows[..])).push_fields(&mut columns, &[push, push]);
        assert_eq!(columns.buffers[0].ints.len(), 5000);
        assert_eq!(columns.buffers[1].ints[4999], 4999);
    }
}
