//! Loading the bound column chunks of one row group: every byte range and
//! page header checked in file order on one thread; then, for a read on
//! several threads with a filter, a window or chosen row groups (whose
//! tasks decode a row group each), the pages decompressed on several
//! threads.
//!
//! Otherwise a page is decompressed when a reader first opens it
//! ([`LoadedPage`]), so that its values are decoded while they are in the
//! core's cache, and a page no row of the read needs is never
//! decompressed; a parallel decode's parts each decompress the pages they
//! open, on their own threads. A page that fails its checks fails the
//! load, as reading page by page would; a page that fails to decompress
//! fails the read that opens it, with the same error. Decompressed ahead
//! on several threads, the error reported is that of the first page (in
//! column, then page order) that fails, whether it fails its checks or its
//! decompression, and the row group's budget is taken in the same order
//! either way.

use std::sync::Arc;

use parquet::file::metadata::RowGroupMetaData;
use parquet::schema::types::ColumnDescPtr;

use crate::bind::Binding;
use crate::chunk::{decompress_all, scan_pages, Budget, Pending, Source};
use crate::chunk::{LoadedColumn, LoadedPage, PageNumbers, PagePool};
use crate::error::{Error, Location, Result};
use crate::filter::plan::{chunk_ranges, GroupPlan};
use crate::group::LoadedRowGroup;
use crate::options::ReadOptions;
use crate::quirks::Writer;

/// What loading one row group reads from, and how.
pub(crate) struct Loader<'a> {
    pub(crate) meta: &'a RowGroupMetaData,
    pub(crate) index: usize, // the row group's index in the file, for errors
    pub(crate) source: &'a Source,
    pub(crate) file_len: u64, // bounds the column chunks' byte ranges
    pub(crate) options: ReadOptions,
    pub(crate) parallel: bool, // decompress the pages on rayon's pool
    pub(crate) writer: Writer, // the quirks of the file's writer
    pub(crate) pool: &'a Arc<PagePool>, // the file's page buffers
}

/// A column chunk whose pages were read and checked, not decompressed yet.
struct Scanned {
    leaf: usize,
    descr: ColumnDescPtr,
    pages: Vec<Pending>,         // every page of the byte ranges read, in order
    ranges: Vec<usize>,          // pages per byte range
    leading: usize,              // see `LoadedColumn::leading`
    trailing: usize,             // see `LoadedColumn::trailing`
    numbering: PageNumbers,      // where the pages read are in the chunk and the row group
    failure: Option<Box<Error>>, // what stopped the scan, after `pages`
}

impl Loader<'_> {
    /// Reads the pages of the bound columns: every page, or with a `plan`
    /// those of its rows.
    pub(crate) fn load(
        &self,
        binding: &Binding,
        plan: Option<&GroupPlan>,
    ) -> Result<LoadedRowGroup> {
        let mut budget = Budget {
            left: self.options.row_group_bytes(),
            options: self.options,
        };
        let num_rows = usize::try_from(self.meta.num_rows()).map_err(|_| Error::OutOfSpec {
            location: self.location(None),
            message: format!("negative row count {}", self.meta.num_rows()),
        })?;
        // The rows to load, when a plan narrowed them.
        let narrowed = plan.filter(|p| p.rows != (0..num_rows));
        let mut columns = Vec::with_capacity(binding.leaves.len());
        let mut scanned = Vec::new();
        for (k, &leaf) in binding.leaves.iter().enumerate() {
            let column = self.scan(k, leaf, narrowed, num_rows, &mut budget);
            let failed = column.failure.is_some();
            scanned.push(column);
            if failed {
                columns.extend(self.decompress(std::mem::take(&mut scanned))?);
            }
        }
        columns.extend(self.decompress(scanned)?);
        Ok(LoadedRowGroup {
            index: self.index,
            num_rows: narrowed.map_or(num_rows, |plan| plan.rows.len()),
            columns,
        })
    }

    /// Column `leaf` (entry `k` of the binding's leaves): its byte ranges
    /// checked against the file and the limits, read, and their page headers
    /// checked.
    fn scan(
        &self,
        k: usize,
        leaf: usize,
        narrowed: Option<&GroupPlan>,
        num_rows: usize,
        budget: &mut Budget,
    ) -> Scanned {
        let chunk = self.meta.column(leaf);
        let mut scanned = Scanned {
            leaf,
            descr: chunk.column_descr_ptr(),
            pages: Vec::new(),
            ranges: Vec::new(),
            leading: 0,
            trailing: 0,
            numbering: PageNumbers::default(),
            failure: None,
        };
        if let Err(e) = self.scan_into(&mut scanned, k, narrowed, num_rows, budget) {
            scanned.failure = Some(Box::new(e));
        }
        scanned
    }

    fn scan_into(
        &self,
        scanned: &mut Scanned,
        k: usize,
        narrowed: Option<&GroupPlan>,
        num_rows: usize,
        budget: &mut Budget,
    ) -> Result<()> {
        let chunk = self.meta.column(scanned.leaf);
        let descr = &scanned.descr;
        let location = || self.location(Some(descr));
        // The `parquet` crate asserts (panics) on a negative byte range; a
        // corrupt footer must give an error instead.
        let start = chunk
            .dictionary_page_offset()
            .unwrap_or(chunk.data_page_offset());
        if start < 0 || chunk.compressed_size() < 0 {
            return Err(Error::OutOfSpec {
                location: location(),
                message: format!(
                    "the footer gives the column chunk a negative byte range (offset {start}, size {})",
                    chunk.compressed_size()
                ),
            });
        }
        // A value of no bytes would let a page claim any number of values
        // for free; the format requires a positive length.
        if descr.physical_type() == parquet::basic::Type::FIXED_LEN_BYTE_ARRAY
            && descr.type_length() <= 0
        {
            return Err(Error::OutOfSpec {
                location: location(),
                message: format!(
                    "FIXED_LEN_BYTE_ARRAY({}) column: the length must be positive",
                    descr.type_length()
                ),
            });
        }
        let (start, len) = (start as u64, chunk.compressed_size() as u64);
        crate::chunk::check_offsets(chunk, start, len).map_err(|message| Error::OutOfSpec {
            location: location(),
            message,
        })?;
        if start.saturating_add(len) > self.file_len {
            return Err(Error::OutOfSpec {
                location: location(),
                message: format!(
                    "the column chunk's {len} bytes from offset {start} run past the end of the file ({} bytes)",
                    self.file_len
                ),
            });
        }
        // A file on disk reads the chunk into a buffer of its size: the
        // same limit as its decompressed pages bounds it.
        if len > self.options.row_group_bytes() as u64 {
            return Err(Error::Limit {
                location: location(),
                message: format!(
                    "a column chunk of {len} bytes, over the limit of {} (raise `ReadOptions::max_row_group_bytes`)",
                    self.options.row_group_bytes()
                ),
            });
        }
        let read = chunk_ranges(narrowed, k, chunk, start..start + len, num_rows);
        let (ranges, leading, trailing) = (read.ranges, read.leading, read.trailing);
        (scanned.leading, scanned.trailing) = (leading, trailing);
        scanned.numbering.skipped_pages = read.skipped_pages;
        scanned.numbering.first_row = narrowed.map_or(0, |p| p.rows.start - leading);
        for (r, range) in ranges.iter().cloned().enumerate() {
            let bytes = self.source.read(range.start, range.end - range.start)?;
            // Chunks padded for PARQUET-816 end at their values, not their bytes.
            let values = self
                .writer
                .dictionary_header_outside_sizes
                .then(|| u64::try_from(chunk.num_values()).unwrap_or(0));
            let scan = scan_pages(&bytes, chunk.compression(), budget, values);
            let before = scanned.pages.len();
            scanned.ranges.push(scan.pending.len());
            scanned.pages.extend(scan.pending);
            if r == 0 && read.dictionary_range {
                // The pages before the data pages (the dictionary page):
                // the chunk's first, numbered as they are.
                scanned.numbering.leading_pages = scanned.pages.len();
            }
            if let Some((page, e)) = scan.failure {
                return Err(e.at(Location {
                    page: Some(scanned.numbering.page(before + page)),
                    ..location()
                }));
            }
        }
        let index = narrowed
            .and_then(|p| p.index.get(k))
            .and_then(Option::as_ref);
        if let Some(index) = index.filter(|_| descr.max_rep_level() == 0) {
            let values = scanned.pages.iter().filter_map(Pending::data_values);
            index
                .check_pages(&(start..start + len), &ranges, values, num_rows)
                .map_err(|message| Error::OutOfSpec {
                    location: location(),
                    message,
                })?;
        }
        let covered = narrowed.map_or(num_rows, |p| leading + p.rows.len() + trailing);
        check_value_counts(&scanned.pages, descr.max_rep_level(), covered).map_err(|message| {
            Error::OutOfSpec {
                location: location(),
                message,
            }
        })
    }

    /// Decompresses the pages of `scanned`; the first error in column, then
    /// page order, is the one returned (a column's failure comes after its
    /// pages' errors).
    fn decompress(&self, mut scanned: Vec<Scanned>) -> Result<Vec<LoadedColumn>> {
        if !self.parallel {
            return scanned.into_iter().map(|c| self.stored(c)).collect();
        }
        let pending: Vec<Pending> = scanned
            .iter_mut()
            .flat_map(|c| std::mem::take(&mut c.pages))
            .collect();
        let mut decompressed = decompress_all(pending, self.parallel).into_iter();
        let mut columns = Vec::with_capacity(scanned.len());
        for column in scanned {
            let mut pages = Vec::with_capacity(column.ranges.iter().sum());
            let count: usize = column.ranges.iter().sum();
            for (k, result) in decompressed.by_ref().take(count).enumerate() {
                pages.push(result.map_err(|e| {
                    e.at(Location {
                        page: Some(column.numbering.page(k)),
                        ..self.location(Some(&column.descr))
                    })
                })?);
            }
            let pages = pages.into_iter().map(LoadedPage::decompressed).collect();
            columns.push(self.loaded(column, pages)?);
        }
        Ok(columns)
    }

    /// The pages of `column` as stored, each decompressed when first opened;
    /// the column's failure, if its scan stopped at one.
    fn stored(&self, mut column: Scanned) -> Result<LoadedColumn> {
        let (pool, limit) = (self.pool, self.options.kept_page_bytes());
        let pages = std::mem::take(&mut column.pages)
            .into_iter()
            .map(|page| LoadedPage::stored(page, Arc::clone(pool), limit))
            .collect();
        self.loaded(column, pages)
    }

    /// The loaded column of `column`'s `pages`, or the failure its scan
    /// stopped at (after the pages' own errors, met before).
    fn loaded(&self, column: Scanned, pages: Vec<LoadedPage>) -> Result<LoadedColumn> {
        if let Some(failure) = column.failure {
            return Err(*failure);
        }
        let mut loaded = LoadedColumn::of(column.leaf, column.descr, pages);
        (loaded.leading, loaded.trailing) = (column.leading, column.trailing);
        loaded.numbering = column.numbering;
        loaded.max_rebuilt = self.options.page_bytes();
        Ok(loaded)
    }

    /// The row group, or a column of it, for errors.
    fn location(&self, column: Option<&ColumnDescPtr>) -> Location {
        Location {
            column: column.map(|d| d.path().string()).unwrap_or_default(),
            row_group: Some(self.index),
            page: None,
        }
    }
}

/// Checks the data pages' value counts against the row group's rows: a
/// column outside any list has one value (or null) per row, so its pages'
/// headers may not claim more; decoders then size what they allocate by a
/// page's count.
fn check_value_counts(
    pages: &[Pending],
    max_rep: i16,
    num_rows: usize,
) -> std::result::Result<(), String> {
    if max_rep > 0 {
        return Ok(());
    }
    let values = pages
        .iter()
        .filter_map(Pending::data_values)
        .fold(0usize, |sum, n| sum.saturating_add(n as usize));
    if values > num_rows {
        return Err(format!(
            "the column chunk has {} more values than the row group has rows",
            values - num_rows
        ));
    }
    Ok(())
}
