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

use parquet::basic::ColumnOrder;

use super::{fetch, plan, RemoteFile};
use crate::bind::bind;
use crate::chunk::{Fetched, Source};
use crate::error::{Error, Location, Result};
use crate::file::ParquetFile;
use crate::filter::plan::{chunk_ranges, plan as plan_group, probe_ranges, Input};
use crate::filter::prune::row_group_may_match;
use crate::filter::Selection;
use crate::row::ParquetRow;

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
        let nothing = Source::Shared(Arc::new(Fetched::default()));
        let input = |g: usize, source| Input {
            meta: meta.row_group(g),
            orders: &orders,
            source,
            file_len: self.len,
            options: self.options,
        };
        let probe_ranges_wanted: Vec<Range<u64>> = kept
            .iter()
            .flat_map(|&g| probe_ranges(&input(g, &nothing), &binding, selection))
            .collect();
        let probed = self.fetch_ranges(probe_ranges_wanted).await?;
        let probe_source = Source::Shared(Arc::new(Fetched::merged(probed.clone())));

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
            plan::chunk_ranges(meta, &[g], &binding.leaves, self.len, &self.options)?;
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

    /// Fetches `ranges` coalesced as the fetch options say: one round trip.
    async fn fetch_ranges(&self, ranges: Vec<Range<u64>>) -> Result<Vec<(u64, bytes::Bytes)>> {
        if ranges.is_empty() {
            return Ok(Vec::new());
        }
        let ranges = plan::coalesce(ranges, self.fetch.max_gap, self.fetch.overfetch_percent);
        fetch::ranges(&*self.store, &self.location, ranges, self.fetch.concurrency).await
    }
}
