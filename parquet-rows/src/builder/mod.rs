//! One builder for every read: [`RowsBuilder`], made by
//! [`ParquetFile::rows`](crate::ParquetFile::rows) (and, with feature
//! `object_store`, `RemoteFile::rows`, `Dataset::rows` and `SplitFile::rows`).
//!
//! A builder describes one read: which rows (a typed filter, an offset and
//! a limit, row groups), with which limits ([`ReadOptions`]) and how many
//! threads. Every option composes with every other; the ending says what
//! comes back:
//!
//! | ending | returns | rows |
//! |---|---|---|
//! | `collect` | `Vec<T>` | owned |
//! | `load` | [`Pages`](crate::Pages), then `pages.rows::<T>()` | borrowed from the pages |
//! | `stream` | an iterator of rows, one row group in memory | owned |
//! | `batches` | an iterator of one `Vec<T>` per row group | owned |
//!
//! Remote sources end in futures (`collect().await`), each with a
//! `_blocking` twin. Each ending runs the planned read of the source
//! (`docs/plan.md`): the window and the filter prune row groups and pages
//! before any page is read, limits are checked once against the plan, and
//! errors name the file's row group and page.
//!
//! ```
//! use parquet_rows::{ParquetFile, ParquetRow};
//!
//! #[derive(ParquetRow, Debug, PartialEq)]
//! struct Tick { ts: i64, symbol: String, bid: f64, ask: f64 }
//!
//! # fn main() -> parquet_rows::Result<()> {
//! # let file = ParquetFile::from_bytes(parquet_rows::doc_support::tick_file(100)?)?;
//! let ticks: Vec<Tick> = file.rows::<Tick>().filter(Tick::filter().symbol().eq("EURUSD")).threads(2).collect()?;
//! assert!(ticks.iter().all(|t| t.symbol == "EURUSD"));
//! # Ok(()) }
//! ```

mod local;
#[cfg(feature = "object_store")]
mod remote;
mod spec;
mod stream;
#[cfg(feature = "rayon")]
pub(crate) mod threads;

use std::marker::PhantomData;

use crate::filter::Query;
use crate::options::ReadOptions;
use crate::row::ParquetRow;
use spec::Spec;

pub use stream::{Batches, RowStream};

/// A read of rows of `T` from a source `S` ([`ParquetFile`](crate::ParquetFile),
/// `RemoteFile`, `Dataset`, a `Split`), narrowed by its options and run by
/// its ending; see the [module docs](self).
///
/// `M` is [`Serial`] until [`RowsBuilder::threads`] makes it [`Parallel`]
/// (which asks `T: Send` there, not on every read).
#[must_use = "a builder reads nothing until it ends (`collect`, `load`, `stream`, ...)"]
pub struct RowsBuilder<'s, S, T, M = Serial> {
    source: &'s S,
    spec: Spec,
    row: PhantomData<fn() -> (T, M)>,
}

impl<S, T, M> std::fmt::Debug for RowsBuilder<'_, S, T, M> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RowsBuilder")
            .field("row", &std::any::type_name::<T>())
            .field("spec", &self.spec)
            .finish_non_exhaustive()
    }
}

/// The mode of a builder that reads on the calling thread (the default).
#[derive(Debug, Clone, Copy)]
pub struct Serial;

/// The mode of a builder that reads on several threads; see
/// [`RowsBuilder::threads`].
#[derive(Debug, Clone, Copy)]
pub struct Parallel;

impl<'s, S, T> RowsBuilder<'s, S, T> {
    pub(crate) fn new(source: &'s S) -> Self {
        RowsBuilder {
            source,
            spec: Spec::default(),
            row: PhantomData,
        }
    }

    /// Reads on `n` threads of a rayon pool (feature `rayon`): row groups
    /// are planned, read, decompressed and decoded in parallel, and the
    /// rows come out in file order, identical to a read on one thread.
    ///
    /// `n = 0` runs on rayon's current pool (all its threads); `n = 1`
    /// reads on the calling thread; `n >= 2` on a pool of `n` threads (the
    /// current one when it has `n`, otherwise one made for the read).
    /// Streams (`stream`, `batches`) read on the calling thread.
    ///
    /// ```
    /// # use parquet_rows::{ParquetFile, ParquetRow};
    /// # #[derive(ParquetRow)] struct Tick { ts: i64, bid: f64 }
    /// # fn main() -> parquet_rows::Result<()> {
    /// # let file = ParquetFile::from_bytes(parquet_rows::doc_support::tick_file(100)?)?;
    /// let ticks: Vec<Tick> = file.rows::<Tick>().threads(2).collect()?;
    /// assert_eq!(ticks.len(), 100);
    /// # Ok(()) }
    /// ```
    #[cfg(feature = "rayon")]
    pub fn threads(self, n: usize) -> RowsBuilder<'s, S, T, Parallel>
    where
        T: Send,
    {
        let mut spec = self.spec;
        spec.threads = n;
        RowsBuilder {
            source: self.source,
            spec,
            row: PhantomData,
        }
    }
}

impl<S, T, M> RowsBuilder<'_, S, T, M> {
    /// Keeps the rows matching `query`: a typed filter (`T::filter()...`)
    /// or a [`Query`] with its own offset and limit. Row groups and pages
    /// that statistics, dictionaries, bloom filters or the page index
    /// prove cannot match are not read (see [`crate::filter`]). A second
    /// call replaces the first.
    pub fn filter<'p>(mut self, query: impl Into<Query<<T as ParquetRow<'p>>::Filter>>) -> Self
    where
        T: ParquetRow<'p>,
    {
        self.spec.query = query.into().erase();
        self
    }

    /// Skips the first `n` rows (of those the filter keeps, after the
    /// filter's own offset and limit). Without a filter the window is by
    /// position: row groups and pages before it are not read.
    pub fn offset(mut self, n: usize) -> Self {
        self.spec.offset = n;
        self
    }

    /// Returns at most `n` rows (of those the filter keeps, after the
    /// offset).
    pub fn limit(mut self, n: usize) -> Self {
        self.spec.limit = Some(n);
        self
    }

    /// Reads only the row groups `groups` (indexes in the file's footer,
    /// in any order; the rows come in file order). The offset and limit
    /// count the rows of these row groups. An index the file does not
    /// have (or, for a file fetched from a remote one, did not fetch) is
    /// an error when the read ends.
    ///
    /// ```
    /// # use parquet_rows::{ParquetFile, ParquetRow};
    /// # #[derive(ParquetRow)] struct Tick { ts: i64 }
    /// # fn main() -> parquet_rows::Result<()> {
    /// # let file = ParquetFile::from_bytes(parquet_rows::doc_support::tick_file(10)?)?;
    /// let ticks: Vec<Tick> = file.rows::<Tick>().row_groups([0]).collect()?;
    /// # assert_eq!(ticks.len(), 10);
    /// assert!(file.rows::<Tick>().row_groups(5..6).collect().is_err());
    /// # Ok(()) }
    /// ```
    pub fn row_groups(mut self, groups: impl IntoIterator<Item = usize>) -> Self {
        self.spec.row_groups = Some(groups.into_iter().collect());
        self
    }

    /// Reads with the limits of `options` instead of the source's.
    pub fn options(mut self, options: ReadOptions) -> Self {
        self.spec.options = Some(options);
        self
    }
}
