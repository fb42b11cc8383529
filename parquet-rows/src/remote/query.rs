//! Filtered reads of a remote file: what to fetch for a query.
//!
//! Three round trips at most, whatever the number of row groups and
//! columns: the footer (at open), then the probes of the row groups the
//! statistics keep (dictionary pages and bloom filters of `eq` predicates'
//! columns, page indexes; none when they all lie in the bytes read at
//! open), then the pages those prove may match. Row groups
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
use crate::filter::plan::{
    chunk_ranges, plan as plan_group, probe_ranges, window_rows, GroupWindows, Input,
};
use crate::filter::prune::row_group_may_match;
use crate::filter::{Selection, Window};
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
        let (considered, windows) = self.considered(selection, row_groups)?;
        // Each row group that may match: its index, rows, and the rows a
        // positional window keeps of it.
        let mut kept: Vec<(usize, usize, Range<usize>)> = Vec::new();
        for (k, &g) in considered.iter().enumerate() {
            let rows = self.group_rows(g)?;
            let within = windows.as_ref().map_or(0..rows, |w| w[k].clone());
            let group = meta.row_group(g);
            if !within.is_empty()
                && row_group_may_match(group, &orders, &binding, &selection.predicates)
            {
                kept.push((g, rows, within));
            }
        }

        // Round trip 2: what planning reads.
        let nothing = Source::Fetched(Arc::new(Fetched::default()));
        let input = |g: usize, source| Input {
            meta: meta.row_group(g),
            orders: &orders,
            source,
            file_len: self.len(),
            options: self.options,
        };
        let mut probe_ranges_wanted: Vec<Range<u64>> = Vec::new();
        for (g, rows, within) in &kept {
            probe_ranges_wanted.extend(probe_ranges(
                &input(*g, &nothing),
                &binding,
                selection,
                *rows,
                within,
            ));
        }
        let probed = self.fetch_around_tail(probe_ranges_wanted).await?;
        let probe_source = Source::Fetched(Arc::new(Fetched::merged(probed.clone())));

        // Round trip 3: the pages of the row groups that may match.
        let mut wanted = Vec::new();
        for (g, rows, within) in kept {
            let group = meta.row_group(g);
            let Some(group_plan) =
                plan_group(&input(g, &probe_source), &binding, selection, rows, within)
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
                let read = chunk_ranges(Some(&group_plan), k, chunk, start..start + len, rows);
                wanted.extend(read.ranges);
            }
        }
        let mut fetched = self.fetch_ranges(wanted).await?;
        fetched.extend(probed);
        // The file reads every row group considered, by its index in the
        // footer: those not fetched are ruled out again by the same plan
        // (statistics, the probes fetched, the window's row counts) before
        // a page of theirs is asked for.
        Ok(self.file_of(&considered, Fetched::merged(fetched).ranges))
    }

    /// The row groups a query considers (`row_groups`, those that exist,
    /// or every one), and for a window without predicates the rows of each
    /// it keeps by position (as the local read of the fetched file plans
    /// them).
    fn considered(
        &self,
        selection: &Selection,
        row_groups: Option<&[usize]>,
    ) -> Result<(Vec<usize>, Option<GroupWindows>)> {
        let considered: Vec<usize> = match row_groups {
            Some(groups) => groups
                .iter()
                .copied()
                .filter(|&g| g < self.num_row_groups())
                .collect(),
            None => (0..self.num_row_groups()).collect(),
        };
        if !selection.positional() {
            return Ok((considered, None));
        }
        let counts = considered
            .iter()
            .map(|&g| self.group_rows(g))
            .collect::<Result<Vec<usize>>>()?;
        let windows = window_rows(&counts, selection.offset, selection.limit);
        Ok((considered, Some(windows)))
    }

    /// The rows of row group `g` in the footer, checked.
    fn group_rows(&self, g: usize) -> Result<usize> {
        let rows = self.footer.metadata().row_group(g).num_rows();
        usize::try_from(rows).map_err(|_| Error::OutOfSpec {
            location: Location {
                row_group: Some(g),
                ..Location::default()
            },
            message: format!("the footer gives a negative row count ({rows})"),
        })
    }

    /// The stream of the rows of `selection` in row groups `groups`
    /// (existing ones, in file order), owning the remote file: a builder's
    /// `batches`.
    pub(crate) fn stream_selection<'a, T: OwnedRow + 'a>(
        self: Arc<Self>,
        selection: Selection,
        groups: &[usize],
    ) -> impl Stream<Item = Result<Vec<T>>> + 'a {
        stream_selection::<T, _>(self, selection, groups)
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
            &*self.source,
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
}

/// The rows of `whole` in the row groups `groups` of `remote`, one `Vec`
/// per row group that holds any: each row group fetched as
/// `RemoteFile::fetch_selected` fetches it, two at a time, the window
/// applied across row groups (by position from the footer's row counts
/// when it has no predicate: row groups outside it are neither probed nor
/// fetched).
fn stream_selection<'a, T, R>(
    remote: R,
    whole: Selection,
    groups: &[usize],
) -> impl Stream<Item = Result<Vec<T>>> + 'a
where
    T: OwnedRow + 'a,
    R: std::ops::Deref<Target = RemoteFile> + Clone + Send + 'a,
{
    // (A negative row count leaves the window to the reads, whose plan
    // reports it.)
    let meta = remote.footer.metadata();
    let counts: Option<Vec<usize>> = groups
        .iter()
        .map(|&g| usize::try_from(meta.row_group(g).num_rows()).ok())
        .collect();
    let windows: Option<Vec<std::ops::Range<usize>>> = counts
        .filter(|_| whole.positional())
        .map(|counts| window_rows(&counts, whole.offset, whole.limit));
    let window = match windows {
        Some(_) => Window::of(&Selection::default()),
        None => Window::of(&whole),
    };
    // Each row group's matching rows, unwindowed: the window is the
    // file's (or, by position, each row group's part of it).
    let mut per_group = whole;
    (per_group.offset, per_group.limit) = (0, None);
    let kept: Vec<(usize, Option<std::ops::Range<usize>>)> = groups
        .iter()
        .enumerate()
        .map(|(k, &g)| (g, windows.as_ref().map(|w| w[k].clone())))
        .filter(|(_, w)| w.as_ref().is_none_or(|w| !w.is_empty()))
        .collect();
    let batches = stream::iter(kept)
        .map(move |(g, within)| {
            let mut selection = per_group.clone();
            if let Some(w) = within {
                (selection.offset, selection.limit) = (w.start, Some(w.len()));
            }
            let remote = remote.clone();
            async move {
                let file = remote.fetch_selected::<T>(&selection, Some(&[g])).await?;
                let binding = file.bind::<T>()?;
                file.read_selection::<T>(&binding, &selection)
            }
        })
        .buffered(2);
    windowed(batches, window)
}

/// Batches of rows, each unwindowed, narrowed to `window` across them: the
/// stream ends after the batch that fills the window or the first error,
/// and batches left empty are not yielded.
pub(crate) fn windowed<'a, T: 'a>(
    batches: impl Stream<Item = Result<Vec<T>>> + 'a,
    mut window: Window,
) -> impl Stream<Item = Result<Vec<T>>> + 'a {
    batches
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
