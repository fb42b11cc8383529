//! Filtered reads of a remote file: what to fetch for a query.
//!
//! Three round trips at most, whatever the number of row groups and
//! columns: the footer (at open), then the probes of the row groups the
//! statistics keep (dictionary pages and bloom filters of `eq` predicates'
//! columns, page indexes), then the pages those prove may match. Row groups
//! ruled out by statistics, dictionaries or bloom filters, and pages ruled
//! out by the page index, are never fetched. The fetched bytes become a
//! [`ParquetFile`] on which the local filtered read runs: it plans each row
//! group again from the same bytes, so it reads exactly what was fetched.

use std::ops::Range;
use std::sync::Arc;

use futures_util::stream::{self, Stream, StreamExt};

use parquet::basic::ColumnOrder;

use super::{fetch, plan, RemoteFile};
use crate::bind::bind;
use crate::chunk::{Fetched, Source};
use crate::error::{Error, Location, Result};
use crate::file::ParquetFile;
use crate::filter::plan::{chunk_ranges, plan as plan_group, probe_ranges, Input};
use crate::filter::prune::row_group_may_match;
use crate::filter::{Query, Selection, Window};
use crate::row::{OwnedRow, ParquetRow};

impl RemoteFile {
    /// Fetches what rows of `T` matching `selection` need and returns the
    /// file of the row groups that may hold one.
    ///
    /// `row_groups` narrows the row groups considered (a dataset's
    /// row-group predicate); `None` considers every one.
    pub(crate) async fn fetch_selected<'p, T: ParquetRow<'p>>(
        &self,
        selection: &Selection,
        row_groups: Option<&[usize]>,
    ) -> Result<ParquetFile> {
        let binding = bind(T::STRUCT_NAME, &T::fields(), self.schema())?;
        // Predicates on partition fields are decided by the file's path:
        // a file they rule out costs no request.
        let Some(selection) = selection.for_partitions::<T::Filter>(&self.partitions)? else {
            return Ok(self.file_of(&[], Vec::new()));
        };
        let selection = &selection;
        let meta = self.footer.metadata();
        let file_meta = meta.file_metadata();
        // A footer may list fewer column orders than columns.
        let orders = |leaf: usize| {
            file_meta
                .column_orders()
                .and_then(|orders| orders.get(leaf).copied())
                .unwrap_or(ColumnOrder::UNDEFINED)
        };
        let all: Vec<usize>;
        let considered = match row_groups {
            Some(groups) => groups,
            None => {
                all = (0..self.num_row_groups()).collect();
                &all
            }
        };
        let kept: Vec<usize> = considered
            .iter()
            .copied()
            .filter(|&g| g < self.num_row_groups())
            .filter(|&g| {
                row_group_may_match(meta.row_group(g), &orders, &binding, &selection.predicates)
            })
            .collect();

        // Round trip 2: what planning reads.
        let nothing = Source::Fetched(Arc::new(Fetched::default()));
        let input = |g: usize, source| Input {
            meta: meta.row_group(g),
            orders: &orders,
            source,
            file_len: self.len(),
            options: self.options,
        };
        let probe_ranges_wanted: Vec<Range<u64>> = kept
            .iter()
            .flat_map(|&g| probe_ranges(&input(g, &nothing), &binding, selection))
            .collect();
        let probed = self.fetch_around_tail(probe_ranges_wanted).await?;
        let probe_source = Source::Fetched(Arc::new(Fetched::merged(probed.clone())));

        // Round trip 3: the pages of the row groups that may match.
        let mut survivors = Vec::new();
        let mut wanted = Vec::new();
        for &g in &kept {
            let group = meta.row_group(g);
            let rows = usize::try_from(group.num_rows()).map_err(|_| Error::OutOfSpec {
                location: Location {
                    row_group: Some(g),
                    ..Location::default()
                },
                message: format!(
                    "the footer gives a negative row count ({})",
                    group.num_rows()
                ),
            })?;
            let Some(group_plan) = plan_group(&input(g, &probe_source), &binding, selection, rows)
            else {
                continue;
            };
            // The whole chunks checked against the file and the limits, as
            // an unfiltered fetch checks them.
            plan::chunk_ranges(meta, &[g], &binding.leaves, self.len(), &self.options)?;
            for (k, &leaf) in binding.leaves.iter().enumerate() {
                let chunk = group.column(leaf);
                let start = chunk
                    .dictionary_page_offset()
                    .unwrap_or(chunk.data_page_offset());
                let (Ok(start), Ok(len)) =
                    (u64::try_from(start), u64::try_from(chunk.compressed_size()))
                else {
                    continue; // refused by the check above
                };
                if len == 0 {
                    continue;
                }
                let (ranges, _, _) =
                    chunk_ranges(Some(&group_plan), k, chunk, start..start + len, rows);
                wanted.extend(ranges);
            }
            survivors.push(g);
        }
        let mut fetched = self.fetch_ranges(wanted).await?;
        fetched.extend(probed);
        Ok(self.file_of(&survivors, Fetched::merged(fetched).ranges))
    }

    /// The owned rows of every row group, one `Vec` per row group, in
    /// file order: a row group's chunks are fetched while the previous one
    /// is decoded, so at most two row groups are in memory at once
    /// (whatever the file's size).
    ///
    /// ```
    /// # use std::sync::Arc;
    /// # use futures_util::TryStreamExt;
    /// # use parquet_rows::remote::RemoteFile;
    /// # use parquet_rows::ParquetRow;
    /// # use object_store::{memory::InMemory, path::Path, ObjectStore, ObjectStoreExt};
    /// #[derive(ParquetRow)]
    /// struct Quote { ts: i64, symbol: String }
    ///
    /// # fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// # let bytes = parquet_rows::doc_support::tick_file(100)?;
    /// # let store: Arc<dyn ObjectStore> = Arc::new(InMemory::new());
    /// # let location = Path::from("ticks.parquet");
    /// # tokio::runtime::Builder::new_current_thread().build()?.block_on(async {
    /// # store.put(&location, bytes.into()).await?;
    /// let remote = RemoteFile::open(store, location).await?;
    /// let mut groups = std::pin::pin!(remote.stream::<Quote>());
    /// let mut rows = 0;
    /// while let Some(quotes) = groups.try_next().await? {
    ///     rows += quotes.len();
    /// }
    /// assert_eq!(rows, 100);
    /// # Ok::<_, Box<dyn std::error::Error>>(()) })?;
    /// # Ok(()) }
    /// ```
    pub fn stream<'a, T: OwnedRow + 'a>(&'a self) -> impl Stream<Item = Result<Vec<T>>> + 'a {
        stream::iter(0..self.num_row_groups())
            .map(move |g| async move { self.fetch_row_groups::<T>(&[g]).await?.read::<T>() })
            .buffered(2)
    }

    /// [`RemoteFile::stream`] of the rows matching `query`: each row group
    /// fetched as [`RemoteFile::load_where`] fetches it (row groups that
    /// cannot match give no item and cost no request beyond their probes),
    /// the query's offset and limit applied across row groups; the stream
    /// ends once the limit is reached.
    pub fn stream_where<'a, T: OwnedRow + 'a>(
        &'a self,
        query: impl Into<Query<<T as ParquetRow<'static>>::Filter>>,
    ) -> impl Stream<Item = Result<Vec<T>>> + 'a {
        let query = query.into();
        let mut window = Window::of(&query.clone().erase());
        // Each row group's matching rows, unwindowed: the window is the file's.
        let mut per_group = query;
        (per_group.offset, per_group.limit) = (0, None);
        let selection = per_group.clone().erase();
        let (per_group, selection) = (Arc::new(per_group), Arc::new(selection));
        stream::iter(0..self.num_row_groups())
            .map(move |g| {
                let (per_group, selection) = (Arc::clone(&per_group), Arc::clone(&selection));
                async move {
                    let file = self.fetch_selected::<T>(&selection, Some(&[g])).await?;
                    if file.num_row_groups() == 0 {
                        return Ok(Vec::new());
                    }
                    file.read_where::<T>((*per_group).clone())
                }
            })
            .buffered(2)
            .map(move |rows| {
                let mut rows = rows?;
                window.retain(&mut rows, 0, |_| true);
                Ok((rows, window.full()))
            })
            .scan(false, |done, item: Result<(Vec<T>, bool)>| {
                if *done {
                    return std::future::ready(None);
                }
                let item = item.map(|(rows, full)| {
                    *done = full;
                    rows
                });
                *done |= item.is_err();
                std::future::ready(Some(item))
            })
            .filter(|item| std::future::ready(!matches!(item, Ok(rows) if rows.is_empty())))
    }

    /// Fetches `ranges` coalesced as the fetch options say: one round trip.
    pub(super) async fn fetch_ranges(
        &self,
        ranges: Vec<Range<u64>>,
    ) -> Result<Vec<(u64, bytes::Bytes)>> {
        if ranges.is_empty() {
            return Ok(Vec::new());
        }
        let ranges = plan::coalesce(ranges, self.fetch.max_gap, self.fetch.overfetch_percent);
        fetch::ranges(
            &*self.store,
            &self.object,
            ranges,
            self.fetch.concurrency_limit(),
            self.fetch.request_bytes_limit(),
        )
        .await
    }

    /// Like [`RemoteFile::fetch_ranges`], serving the ranges that lie in the
    /// bytes read at open (the footer and what precedes it: page indexes and
    /// bloom filters, usually) from them, with no request.
    async fn fetch_around_tail(&self, ranges: Vec<Range<u64>>) -> Result<Vec<(u64, bytes::Bytes)>> {
        let tail_start = self.len() - self.tail.len() as u64;
        let (inside, outside): (Vec<_>, Vec<_>) = ranges
            .into_iter()
            .partition(|r| r.start >= tail_start && r.end <= self.len());
        let mut fetched = self.fetch_ranges(outside).await?;
        if !inside.is_empty() {
            fetched.push((tail_start, self.tail.clone()));
        }
        Ok(fetched)
    }

    /// [`RemoteFile::stream`], blocking: an iterator that fetches each row
    /// group (and decodes the one before it) on a runtime of its own.
    ///
    /// ```
    /// # use std::sync::Arc;
    /// # use parquet_rows::remote::RemoteFile;
    /// # use parquet_rows::ParquetRow;
    /// # use object_store::{memory::InMemory, path::Path, ObjectStore, ObjectStoreExt};
    /// #[derive(ParquetRow)]
    /// struct Quote { ts: i64, symbol: String }
    ///
    /// # fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// # let bytes = parquet_rows::doc_support::tick_file(100)?;
    /// # let store: Arc<dyn ObjectStore> = Arc::new(InMemory::new());
    /// # let location = Path::from("ticks.parquet");
    /// # tokio::runtime::Builder::new_current_thread().build()?
    /// #     .block_on(store.put(&location, bytes.into()))?;
    /// let remote = RemoteFile::open_blocking(store, location)?;
    /// let mut rows = 0;
    /// for quotes in remote.stream_blocking::<Quote>()? {
    ///     rows += quotes?.len();
    /// }
    /// assert_eq!(rows, 100);
    /// # Ok(()) }
    /// ```
    ///
    /// # Panics
    ///
    /// When iterated from inside a tokio runtime (use the async method there).
    pub fn stream_blocking<'a, T: OwnedRow + 'a>(
        &'a self,
    ) -> Result<impl Iterator<Item = Result<Vec<T>>> + 'a> {
        super::Blocking::new(self.stream::<T>())
    }

    /// [`RemoteFile::stream_where`], blocking (see
    /// [`RemoteFile::stream_blocking`]).
    ///
    /// # Panics
    ///
    /// When iterated from inside a tokio runtime (use the async method there).
    pub fn stream_where_blocking<'a, T: OwnedRow + 'a>(
        &'a self,
        query: impl Into<Query<<T as ParquetRow<'static>>::Filter>>,
    ) -> Result<impl Iterator<Item = Result<Vec<T>>> + 'a> {
        super::Blocking::new(self.stream_where::<T>(query))
    }
}
