//! The plan of one row group for a query: skip it, or read which rows, and
//! for each column which pages.
//!
//! In order of cost: the footer's statistics (no I/O), the dictionary page of
//! a column with an equality predicate (one small read), its bloom filter
//! (one read, where the writer made one and the footer gives its length),
//! then the page index (two small reads per column) narrows the rows to
//! those of the pages that may match. The rows between are decoded and
//! filtered row by row.

use std::ops::Range;

use parquet::basic::ColumnOrder;
use parquet::column::page::Page;
use parquet::file::metadata::{ColumnChunkMetaData, RowGroupMetaData};
use parquet::file::page_index::index_reader::{decode_column_index, decode_offset_index};

use super::prune::{
    all_dictionary, bloom_bytes, bloom_lacks, dictionary_holds, leaf_of, row_group_may_match,
    PageIndex,
};
use super::Selection;
use crate::bind::Binding;
use crate::chunk::{read_pages, Budget, Source};
use crate::options::ReadOptions;

/// The most bytes a column chunk's page index may take before it is ignored
/// (it is a few bytes per page; a larger one is corrupt or hostile).
const MAX_INDEX_BYTES: u64 = 16 << 20;

/// The most bytes a column chunk's bloom filter may take before it is
/// ignored. Writers size a filter by the distinct values they expect: at
/// the usual 1% false positives that is about 1.2 bytes a value, so this
/// covers 10M distinct values in one row group; `parquet`'s largest is 128 MiB.
const MAX_BLOOM_BYTES: u64 = 16 << 20;

/// What to read of one row group.
#[derive(Debug)]
pub(crate) struct GroupPlan {
    /// The rows to decode, `0..num_rows` when nothing narrowed them.
    pub(crate) rows: Range<usize>,
    /// Per entry of `Binding::leaves`: the column's page index, when the rows
    /// were narrowed and the column has a usable one.
    pub(crate) index: Vec<Option<PageIndex>>,
}

/// The plan of one read: the row groups to load, each with its plan, in
/// file order, and the selection left to apply to the rows loaded (a
/// window by position is already applied: its selection is empty).
#[derive(Debug)]
pub(crate) struct ReadPlan {
    pub(crate) groups: Vec<(usize, GroupPlan)>, // (index in the footer, plan)
    pub(crate) selection: Selection,
}

impl ReadPlan {
    /// The most rows the read may return: the rows planned (after
    /// statistics, dictionaries, bloom filters, the page index and a
    /// window by position), and at most the query's limit. What
    /// `ReadOptions::max_output_bytes` is checked against, on every path.
    pub(crate) fn rows(&self) -> usize {
        let planned = self
            .groups
            .iter()
            .fold(0usize, |sum, (_, plan)| sum.saturating_add(plan.rows.len()));
        self.selection.limit.map_or(planned, |l| l.min(planned))
    }
}

/// Where the planner reads from.
pub(crate) struct Input<'a> {
    pub(crate) meta: &'a RowGroupMetaData,
    pub(crate) orders: &'a dyn Fn(usize) -> ColumnOrder,
    pub(crate) source: &'a Source,
    pub(crate) file_len: u64,
    pub(crate) options: ReadOptions,
}

/// The plan of a row group of `rows` rows, or `None` when it holds no
/// matching row. `within` is the rows of the row group a window keeps by
/// position alone ([`window_rows`]; `0..rows` for a query with
/// predicates, whose window counts matching rows, not positions).
pub(crate) fn plan(
    input: &Input<'_>,
    binding: &Binding,
    selection: &Selection,
    rows: usize,
    within: Range<usize>,
) -> Option<GroupPlan> {
    let whole = GroupPlan {
        rows: 0..rows,
        index: Vec::new(),
    };
    let predicates = &selection.predicates;
    if within.is_empty() {
        return None;
    }
    if predicates.is_empty() {
        if within == (0..rows) {
            return Some(whole);
        }
        // A window: the rows by position, the pages by the offset index
        // (no column index is needed to know where rows are).
        let index = if flat(input.meta, binding) {
            binding
                .leaves
                .iter()
                .map(|&leaf| offset_index(input, input.meta.column(leaf), rows))
                .collect()
        } else {
            Vec::new() // whole chunks, the rows outside skipped record by record
        };
        return Some(GroupPlan {
            rows: within,
            index,
        });
    }
    if !row_group_may_match(input.meta, input.orders, binding, predicates) {
        return None;
    }
    for p in predicates {
        let (Some(values), Some(leaf)) = (p.equals(), leaf_of(binding, p.field)) else {
            continue;
        };
        let chunk = input.meta.column(leaf);
        if dictionary_lacks(input, chunk, &values) || bloom_filter_lacks(input, chunk, &values) {
            return None;
        }
    }
    if !flat(input.meta, binding) {
        return Some(whole);
    }
    let index: Vec<Option<PageIndex>> = binding
        .leaves
        .iter()
        .map(|&leaf| page_index(input, input.meta.column(leaf), rows))
        .collect();
    let (mut lo, mut hi) = (0, rows);
    for p in predicates {
        let Some(leaf) = leaf_of(binding, p.field) else {
            continue;
        };
        let Ok(k) = binding.leaves.binary_search(&leaf) else {
            continue;
        };
        let Some(pi) = &index[k] else {
            continue;
        };
        let descr = input.meta.column(leaf).column_descr();
        if let Some(pages) = pi.matching_rows(p, descr, (input.orders)(leaf), rows) {
            (lo, hi) = (lo.max(pages.start), hi.min(pages.end));
        }
    }
    if lo >= hi {
        return None;
    }
    Some(GroupPlan {
        rows: lo..hi,
        index,
    })
}

/// Per row group read, in order: the rows a positional window keeps of it.
pub(crate) type GroupWindows = Vec<Range<usize>>;

/// The rows of each row group (of `counts` rows, in order) that a window
/// skipping `offset` rows and keeping `limit` keeps, by position: the
/// plan of a query without predicates, from the footer's row counts alone.
pub(crate) fn window_rows(counts: &[usize], offset: usize, limit: Option<usize>) -> GroupWindows {
    let end = limit.map_or(usize::MAX, |l| offset.saturating_add(l));
    let mut first = 0usize; // the row group's first row in the rows of `counts`
    counts
        .iter()
        .map(|&n| {
            let last = first.saturating_add(n);
            let lo = offset.clamp(first, last) - first;
            let hi = end.clamp(first, last) - first;
            first = last;
            lo..hi.max(lo)
        })
        .collect()
}

/// Whether every field reads one column outside any list: only then do all
/// columns have one value per row, so a row range is a value range in each.
fn flat(meta: &RowGroupMetaData, binding: &Binding) -> bool {
    (0..binding.fields.len()).all(|f| leaf_of(binding, f).is_some())
        && binding.leaves.iter().all(|&leaf| {
            leaf < meta.num_columns() && meta.column(leaf).column_descr().max_rep_level() == 0
        })
}

/// Whether the chunk's dictionary proves every one of `values` absent: every
/// data page is dictionary-encoded and the dictionary holds none of them.
/// Any doubt (no encoding statistics, an unreadable page) says no.
fn dictionary_lacks(
    input: &Input<'_>,
    chunk: &ColumnChunkMetaData,
    values: &[&super::Scalar],
) -> bool {
    let Some(range) = dictionary_range(chunk, input.file_len, input.options) else {
        return false;
    };
    let Ok(bytes) = input.source.read(range.start, range.end - range.start) else {
        return false;
    };
    let mut budget = Budget {
        left: input.options.row_group_bytes(),
        options: input.options,
    };
    let Ok(pages) = read_pages(&bytes, chunk.compression(), &mut budget) else {
        return false;
    };
    #[allow(deprecated)]
    let plain = |e| {
        matches!(
            e,
            parquet::basic::Encoding::PLAIN | parquet::basic::Encoding::PLAIN_DICTIONARY
        )
    };
    match pages.first() {
        Some(Page::DictionaryPage {
            buf,
            num_values,
            encoding,
            ..
        }) if plain(*encoding) => values.iter().all(|value| {
            dictionary_holds(buf, *num_values as usize, chunk.column_descr(), value) == Some(false)
        }),
        _ => false,
    }
}

/// Whether the chunk's bloom filter proves every one of `values` absent. The footer must
/// give the filter's length (writers since format 2.10 do): without it the
/// header would have to be parsed to learn how much to read, and a filter
/// of unknown size is not worth a second request. Any doubt says no.
fn bloom_filter_lacks(
    input: &Input<'_>,
    chunk: &ColumnChunkMetaData,
    values: &[&super::Scalar],
) -> bool {
    let hashed: Option<Vec<Vec<u8>>> = values
        .iter()
        .map(|value| bloom_bytes(chunk.column_descr(), value))
        .collect();
    let (Some(hashed), Some(range)) = (hashed, bloom_range(chunk, input.file_len)) else {
        return false;
    };
    match input.source.read(range.start, range.end - range.start) {
        Ok(bytes) => hashed.iter().all(|hashed| bloom_lacks(&bytes, hashed)),
        Err(_) => false,
    }
}

/// The bytes of the chunk's dictionary page when `plan` may read it: every
/// data page is dictionary-encoded, and the page is inside the file and
/// within the page limit.
fn dictionary_range(
    chunk: &ColumnChunkMetaData,
    file_len: u64,
    options: ReadOptions,
) -> Option<Range<u64>> {
    if !all_dictionary(chunk) {
        return None;
    }
    let start = u64::try_from(chunk.dictionary_page_offset()?).ok()?;
    let end = u64::try_from(chunk.data_page_offset()).ok()?;
    (start < end && end <= file_len && end - start <= options.page_bytes() as u64)
        .then_some(start..end)
}

/// The bytes of the chunk's bloom filter, when the footer locates it
/// inside the file and it is small enough to read.
fn bloom_range(chunk: &ColumnChunkMetaData, file_len: u64) -> Option<Range<u64>> {
    let offset = u64::try_from(chunk.bloom_filter_offset()?).ok()?;
    let len = u64::try_from(chunk.bloom_filter_length()?).ok()?;
    let end = offset.checked_add(len)?;
    (len > 0 && len <= MAX_BLOOM_BYTES && end <= file_len).then_some(offset..end)
}

/// The bytes `offset..offset + len` of the file, if they lie inside it and
/// are small enough for an index.
fn index_range(offset: Option<i64>, len: Option<i32>, file_len: u64) -> Option<Range<u64>> {
    let offset = u64::try_from(offset?).ok()?;
    let len = u64::try_from(len?).ok()?;
    let end = offset.checked_add(len)?;
    (len > 0 && len <= MAX_INDEX_BYTES && end <= file_len).then_some(offset..end)
}

/// Every byte range [`plan`] may read for the row group of `input.meta`
/// (dictionary pages and bloom filters of `eq` predicates' columns, page
/// indexes), for a caller that must fetch them before planning (from object
/// storage). Empty when the statistics already rule the row group out.
#[cfg(feature = "object_store")]
pub(crate) fn probe_ranges(
    input: &Input<'_>,
    binding: &Binding,
    selection: &Selection,
    rows: usize,
    within: &Range<usize>,
) -> Vec<Range<u64>> {
    let predicates = &selection.predicates;
    let mut ranges = Vec::new();
    if predicates.is_empty() && !within.is_empty() && *within != (0..rows) {
        // A window: the offset indexes say which pages hold its rows.
        if flat(input.meta, binding) {
            for &leaf in &binding.leaves {
                let chunk = input.meta.column(leaf);
                ranges.extend(index_range(
                    chunk.offset_index_offset(),
                    chunk.offset_index_length(),
                    input.file_len,
                ));
            }
        }
        return ranges;
    }
    if predicates.is_empty() || !row_group_may_match(input.meta, input.orders, binding, predicates)
    {
        return ranges;
    }
    for p in predicates {
        let (Some(values), Some(leaf)) = (p.equals(), leaf_of(binding, p.field)) else {
            continue;
        };
        let chunk = input.meta.column(leaf);
        ranges.extend(dictionary_range(chunk, input.file_len, input.options));
        if values
            .iter()
            .all(|value| bloom_bytes(chunk.column_descr(), value).is_some())
        {
            ranges.extend(bloom_range(chunk, input.file_len));
        }
    }
    if flat(input.meta, binding) {
        for &leaf in &binding.leaves {
            let chunk = input.meta.column(leaf);
            let (file_len, (oo, ol), (co, cl)) = (
                input.file_len,
                (chunk.offset_index_offset(), chunk.offset_index_length()),
                (chunk.column_index_offset(), chunk.column_index_length()),
            );
            ranges.extend(index_range(oo, ol, file_len));
            ranges.extend(index_range(co, cl, file_len));
        }
    }
    ranges
}

/// The bytes `offset..offset + len` of the file, if they lie inside it and
/// are small enough for an index.
fn read_index(input: &Input<'_>, offset: Option<i64>, len: Option<i32>) -> Option<bytes::Bytes> {
    let range = index_range(offset, len, input.file_len)?;
    input.source.read(range.start, range.end - range.start).ok()
}

/// The chunk's offset index (without its column index), if it has a
/// usable one: where its pages' rows start.
fn offset_index(input: &Input<'_>, chunk: &ColumnChunkMetaData, rows: usize) -> Option<PageIndex> {
    let offsets = read_index(
        input,
        chunk.offset_index_offset(),
        chunk.offset_index_length(),
    )?;
    let offsets = decode_offset_index(&offsets).ok()?;
    PageIndex::checked(offsets, None, rows)
}

/// The chunk's page index, if it has a usable one.
fn page_index(input: &Input<'_>, chunk: &ColumnChunkMetaData, rows: usize) -> Option<PageIndex> {
    let offsets = read_index(
        input,
        chunk.offset_index_offset(),
        chunk.offset_index_length(),
    )?;
    let offsets = decode_offset_index(&offsets).ok()?;
    let columns = read_index(
        input,
        chunk.column_index_offset(),
        chunk.column_index_length(),
    )
    .and_then(|b| decode_column_index(&b, chunk.column_type()).ok());
    PageIndex::checked(offsets, columns, rows)
}

/// Which bytes of a column chunk to read for rows `rows` of its row group
/// of `total` rows, and how many rows before and after them those pages hold.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct Span {
    /// The dictionary page's bytes, if any: `dictionary_page_offset` up to
    /// the first data page.
    pub(crate) dictionary: Option<Range<u64>>,
    /// The data pages overlapping `rows`, contiguous.
    pub(crate) data: Range<u64>,
    /// Rows of those pages before `rows.start`.
    pub(crate) leading: usize,
    /// Rows of those pages after `rows.end`.
    pub(crate) trailing: usize,
    /// The first data page read, by its place in the offset index.
    pub(crate) first_page: usize,
}

/// What to read of one column chunk for a plan: its byte ranges, and
/// where the pages they hold are in the chunk and the row group.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct ChunkRead {
    /// The byte ranges, in order: the dictionary page's (if any) then the
    /// data pages', or the whole chunk.
    pub(crate) ranges: Vec<Range<u64>>,
    /// Rows of the pages read before the plan's rows.
    pub(crate) leading: usize,
    /// Rows of the pages read after the plan's rows.
    pub(crate) trailing: usize,
    /// Data pages of the chunk before the first one read (by the offset
    /// index); 0 when the whole chunk is read.
    pub(crate) skipped_pages: usize,
    /// Whether the first range holds the pages before the data pages (the
    /// dictionary page) and the data pages' range follows it.
    pub(crate) dictionary_range: bool,
}

/// The byte ranges of column chunk `meta` (entry `k` of the binding's
/// leaves, its bytes `chunk`) to read for `plan`, how many rows the pages
/// read hold before and after the plan's rows (to be skipped), and where
/// those pages are in the chunk. Without a plan, or without a usable page
/// index, the whole chunk.
pub(crate) fn chunk_ranges(
    plan: Option<&GroupPlan>,
    k: usize,
    meta: &ColumnChunkMetaData,
    chunk: Range<u64>,
    total: usize,
) -> ChunkRead {
    let whole = |leading, trailing| ChunkRead {
        ranges: vec![chunk.clone()],
        leading,
        trailing,
        skipped_pages: 0,
        dictionary_range: false,
    };
    let Some(plan) = plan else {
        return whole(0, 0);
    };
    let spanned = plan
        .index
        .get(k)
        .and_then(Option::as_ref)
        .and_then(|pi| span(pi, meta, chunk.clone(), &plan.rows, total));
    match spanned {
        Some(span) => ChunkRead {
            dictionary_range: span.dictionary.is_some(),
            ranges: span.dictionary.into_iter().chain([span.data]).collect(),
            leading: span.leading,
            trailing: span.trailing,
            skipped_pages: span.first_page,
        },
        None => whole(plan.rows.start, total - plan.rows.end),
    }
}

/// The span of `rows` in a chunk whose bytes are `chunk` (start, end), or
/// `None` when the index points outside the chunk (the whole chunk is then
/// read).
fn span(
    pi: &PageIndex,
    meta: &ColumnChunkMetaData,
    chunk: Range<u64>,
    rows: &Range<usize>,
    total: usize,
) -> Option<Span> {
    let pages = pi.pages();
    // The last page starting at or before `rows.start`, the last before `rows.end`.
    let first = (0..pages)
        .rev()
        .find(|&i| pi.page_start(i, total) <= rows.start)?;
    let last = (0..pages)
        .rev()
        .find(|&i| pi.page_start(i, total) < rows.end)?;
    let locations = pi.offsets.page_locations();
    let begin = u64::try_from(locations[first].offset).ok()?;
    let end = u64::try_from(locations[last].offset)
        .ok()?
        .checked_add(u64::try_from(locations[last].compressed_page_size).ok()?)?;
    if begin < chunk.start || end > chunk.end || begin >= end {
        return None;
    }
    let first_data = u64::try_from(locations[0].offset).ok()?;
    let dictionary = match meta.dictionary_page_offset() {
        Some(d) => {
            let d = u64::try_from(d).ok()?;
            (d < first_data && d >= chunk.start).then_some(d..first_data)
        }
        None if first_data > chunk.start => Some(chunk.start..first_data),
        None => None,
    };
    Some(Span {
        dictionary,
        data: begin..end,
        leading: rows.start - pi.page_start(first, total),
        trailing: pi.page_start(last + 1, total) - rows.end,
        first_page: first,
    })
}

#[cfg(test)]
mod tests {
    use super::window_rows;

    #[test]
    fn windows_cut_row_groups_by_position() {
        let counts = [100, 0, 50, 200];
        // Rows 90..160: the last 10 of the first group, none of the empty
        // one, all 50 of the third, 10 of the fourth.
        assert_eq!(
            window_rows(&counts, 90, Some(70)),
            [90..100, 0..0, 0..50, 0..10]
        );
        // No limit: everything from the offset.
        assert_eq!(
            window_rows(&counts, 149, None),
            [100..100, 0..0, 49..50, 0..200]
        );
        // Past the end, and a limit that overflows.
        assert!(window_rows(&counts, 351, None)
            .iter()
            .all(std::ops::Range::is_empty));
        assert_eq!(
            window_rows(&counts, usize::MAX, Some(usize::MAX)),
            [100..100, 0..0, 50..50, 200..200]
        );
        assert_eq!(window_rows(&counts, 0, Some(0)), [0..0, 0..0, 0..0, 0..0]);
    }
}
