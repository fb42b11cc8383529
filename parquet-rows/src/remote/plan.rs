//! Which byte ranges of a file to fetch: the column chunks a struct binds,
//! checked against the file, then coalesced into fewer requests.
//!
//! Coalescing trades bytes for requests. Two ranges are merged when the gap
//! between them is at most [`FetchOptions::max_gap`](super::FetchOptions::max_gap),
//! smallest gaps first, while the bytes of all merged gaps stay within
//! [`FetchOptions::max_overfetch_percent`](super::FetchOptions::max_overfetch_percent)
//! of the bytes the struct needs: the fetched bytes are at most that much
//! more than the bound column chunks, whatever the file's layout.

use std::ops::Range;

use parquet::file::metadata::ParquetMetaData;

use crate::error::{Error, Location, Result};
use crate::options::ReadOptions;

/// The byte ranges of the column chunks `leaves` of row groups `groups`,
/// each checked to lie inside the file and within the row-group limit.
pub(crate) fn chunk_ranges(
    meta: &ParquetMetaData,
    groups: &[usize],
    leaves: &[usize],
    file_len: u64,
    options: &ReadOptions,
) -> Result<Vec<Range<u64>>> {
    let mut ranges = Vec::with_capacity(groups.len() * leaves.len());
    for &g in groups {
        let group = meta.row_groups().get(g).ok_or_else(|| Error::Unsupported {
            location: Location::default(),
            message: format!(
                "row group {g} does not exist; the file has {}",
                meta.num_row_groups()
            ),
        })?;
        for &leaf in leaves {
            let chunk = group.column(leaf);
            let location = || Location {
                column: chunk.column_descr().path().string(),
                row_group: Some(g),
                page: None,
            };
            let start = chunk
                .dictionary_page_offset()
                .unwrap_or(chunk.data_page_offset());
            let (Ok(start), Ok(len)) =
                (u64::try_from(start), u64::try_from(chunk.compressed_size()))
            else {
                return Err(Error::OutOfSpec {
                    location: location(),
                    message: format!(
                        "the footer gives the column chunk a negative byte range (offset {start}, size {})",
                        chunk.compressed_size()
                    ),
                });
            };
            crate::chunk::check_offsets(chunk, start, len).map_err(|message| Error::OutOfSpec {
                location: location(),
                message,
            })?;
            if start.saturating_add(len) > file_len {
                return Err(Error::OutOfSpec {
                    location: location(),
                    message: format!(
                        "the column chunk's {len} bytes from offset {start} run past the end of the file ({file_len} bytes)"
                    ),
                });
            }
            if len > options.row_group_bytes() as u64 {
                return Err(Error::Limit {
                    location: location(),
                    message: format!(
                        "a column chunk of {len} bytes, over the limit of {} (raise `ReadOptions::max_row_group_bytes`)",
                        options.row_group_bytes()
                    ),
                });
            }
            if len > 0 {
                ranges.push(start..start + len);
            }
        }
    }
    Ok(ranges)
}

/// Merges `ranges` into fewer, sorted, disjoint ranges: overlapping and
/// touching ones always; across a gap of at most `max_gap` bytes while the
/// gaps taken add up to at most `overfetch_percent` of the bytes of `ranges`.
pub(crate) fn coalesce(
    mut ranges: Vec<Range<u64>>,
    max_gap: u64,
    overfetch_percent: u64,
) -> Vec<Range<u64>> {
    ranges.sort_unstable_by_key(|r| (r.start, r.end));
    let mut merged: Vec<Range<u64>> = Vec::with_capacity(ranges.len());
    for r in ranges {
        match merged.last_mut() {
            Some(last) if r.start <= last.end => last.end = last.end.max(r.end),
            _ => merged.push(r),
        }
    }
    let needed: u64 = merged.iter().map(|r| r.end - r.start).sum();
    let mut budget = needed.saturating_mul(overfetch_percent) / 100;
    // Gap i lies between merged[i] and merged[i + 1]; take the smallest first.
    let mut gaps: Vec<(u64, usize)> = merged
        .windows(2)
        .enumerate()
        .map(|(i, w)| (w[1].start - w[0].end, i))
        .filter(|&(gap, _)| gap <= max_gap)
        .collect();
    gaps.sort_unstable();
    let mut join = vec![false; merged.len()];
    for (gap, i) in gaps {
        if gap > budget {
            break;
        }
        budget -= gap;
        join[i] = true;
    }
    let mut out: Vec<Range<u64>> = Vec::with_capacity(merged.len());
    let mut joined_to_previous = false;
    for (i, r) in merged.into_iter().enumerate() {
        match out.last_mut() {
            Some(last) if joined_to_previous => last.end = r.end,
            _ => out.push(r),
        }
        joined_to_previous = join[i];
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn total(ranges: &[Range<u64>]) -> u64 {
        ranges.iter().map(|r| r.end - r.start).sum()
    }

    #[test]
    fn touching_and_overlapping_ranges_are_one() {
        let out = coalesce(vec![10..20, 0..10, 15..30, 40..50], 0, 0);
        assert_eq!(out, [0..30, 40..50]);
    }

    #[test]
    fn small_gaps_are_crossed_within_the_overfetch_budget() {
        // 4 ranges of 100 bytes, gaps of 5, 30 and 8: 10% of 400 is 40, so
        // the gaps of 5 and 8 are crossed (13), then 30 would pass 40.
        let out = coalesce(vec![0..100, 105..205, 235..335, 343..443], 1 << 20, 10);
        assert_eq!(out, [0..205, 235..443]);
        assert!(total(&out) <= 400 + 40);
    }

    #[test]
    fn gaps_over_the_limit_are_never_crossed() {
        let out = coalesce(vec![0..1000, 1010..2000], 5, 100);
        assert_eq!(out, [0..1000, 1010..2000]);
    }

    #[test]
    fn fetched_bytes_stay_within_the_budget_for_any_layout() {
        let mut state = 7u64;
        let mut next = move || {
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1);
            state >> 33
        };
        for _ in 0..200 {
            let mut at = 0;
            let ranges: Vec<_> = (0..20)
                .map(|_| {
                    at += next() % 50;
                    let r = at..at + 1 + next() % 100;
                    at = r.end;
                    r
                })
                .collect();
            let out = coalesce(ranges.clone(), 1 << 20, 10);
            assert!(total(&out) * 10 <= total(&ranges) * 11);
            // Every range asked for is inside one fetched range.
            for r in &ranges {
                assert!(out.iter().any(|o| o.start <= r.start && r.end <= o.end));
            }
        }
    }
}
