//! The holder of decompressed pages that borrowed rows point into.

mod kept;
pub(crate) mod select;

#[cfg(feature = "rayon")]
use std::ops::Range;

use parquet::schema::types::SchemaDescPtr;

use crate::bind::{bind, Binding};
use crate::chunk::LoadedPage;
use crate::error::{Error, Location, Result};
use crate::filter::{Selection, Window};
use crate::group::{LoadedRowGroup, RowGroup};
use crate::partition::Partitions;
use crate::row::ParquetRow;
use crate::sink::RowSink;
use select::Runs;

/// The pages of the columns a struct reads, for one or more row groups.
///
/// Made by [`ParquetFile::load`](crate::ParquetFile::load) (all row groups) or a
/// builder's `load` ([`ParquetFile::rows`](crate::ParquetFile::rows): filtered,
/// windowed, some row groups, on several threads).
/// [`Pages::rows`] decodes them into `Vec<T>`; `&str` and `&[u8]` fields of `T`
/// borrow these pages, so the rows live as long as the `Pages`. Page buffers
/// are reference-counted [`bytes::Bytes`]: nothing is copied.
///
/// Each page is decompressed when a decode first opens it, so that its
/// values are decoded while they are in the cache, and a page no row needs
/// is never decompressed: a page that fails to decompress fails the decode
/// that opens it, with the error loading it would have given. Pages of
/// byte arrays (that rows may borrow) stay decompressed for the next decode
/// of the same `Pages`; on one thread, pages whose values are copied into
/// the rows are freed as the decode leaves them. [`Pages::par_rows`]
/// decompresses pages on the threads that decode them (a row group of a
/// few MiB on all of them before its decode starts), and keeps them.
/// Pages loaded on several threads with a filter, a window or chosen row
/// groups are decompressed by the load, on its threads: their parallel
/// decode takes a row group per task.
///
/// ```no_run
/// use parquet_rows::{ParquetFile, ParquetRow};
///
/// #[derive(ParquetRow)]
/// struct Tick<'a> { ts: i64, symbol: &'a str, bid: f64, ask: f64 }
///
/// # fn main() -> parquet_rows::Result<()> {
/// let file = ParquetFile::open("ticks.parquet")?;
/// let pages = file.load::<Tick>()?;
/// let ticks: Vec<Tick<'_>> = pages.rows()?;
/// # Ok(()) }
/// ```
///
/// # Why `rows` needs the row type again
///
/// `Pages` does not remember the struct it was loaded for, so `pages.rows()`
/// needs the type from the binding (`let ticks: Vec<Tick<'_>> = ...`) or a
/// turbofish (`pages.rows::<Tick>()`). Remembering it is possible (a
/// `Pages<Tick<'x>>` shrinks to the lifetime of each borrow), but the struct's
/// lifetime would then be part of the `Pages`' own type: a function returning
/// `Pages` or a struct holding one would have to name it, as
/// `Pages<Tick<'static>>` for rows that are not `'static`. And one `Pages` can
/// decode into several structs that read some of its columns
/// (`pages.rows::<Prices>()` after `file.load::<Tick>()`), which a fixed type
/// would turn into a second method. Rust cannot default a method's type
/// parameter to one remembered by its receiver, so the row type is written
/// once at each call.
///
/// `Debug` shows the row groups, columns and bytes held (`bytes`: every
/// page decompressed; `decompressed`: the pages decompressed now and kept),
/// not the pages.
pub struct Pages {
    pub(crate) schema: SchemaDescPtr,
    pub(crate) row_groups: Vec<LoadedRowGroup>,
    pub(crate) options: crate::options::ReadOptions, // the file's limits
    pub(crate) filter: Option<std::sync::Arc<Filtered>>, // rows returned are those that match
    pub(crate) partitions: std::sync::Arc<Partitions>, // what `#[parquet(partition)]` fields are filled from
}

/// Below this many bytes of pages, a row group decoded in parts has its
/// pages decompressed on the pool first, a task per page; above, each
/// part decompresses the pages it opens. Parts of a small row group share
/// most of its pages (a writer's 1 MiB pages hold more rows than a part),
/// so a part would wait for the one decompressing them, while the pages
/// stay in cache either way; a large row group's pages do not, and a part
/// that decompresses its own decodes them while they are in its core's
/// cache. Measured on 2 threads: a 370k-row ZSTD tick file of 4.2 MB of
/// pages read 10 % faster decompressed first, a 1M-row file of 12 MB
/// 15-20 % faster decompressed by its parts (docs/performance.md).
#[cfg(feature = "rayon")]
const SMALL_GROUP_BYTES: usize = 8 << 20;

/// The query pages were loaded for: `rows` returns only the rows matching
/// it, of the struct it was written for.
#[derive(Debug)]
pub(crate) struct Filtered {
    pub(crate) selection: crate::filter::Selection,
    pub(crate) struct_name: &'static str, // the struct whose fields the predicates number
}

impl std::fmt::Debug for Pages {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // Every row group holds the same columns (those of one binding).
        let columns: Vec<&str> = self.row_groups.first().map_or(Vec::new(), |rg| {
            rg.columns.iter().map(|c| c.path.as_str()).collect()
        });
        let pages = || {
            self.row_groups
                .iter()
                .flat_map(|rg| &rg.columns)
                .flat_map(|c| &c.pages)
        };
        let bytes: usize = pages().map(LoadedPage::len).sum();
        let decompressed: usize = pages()
            .filter(|p| p.opened().is_some())
            .map(LoadedPage::len)
            .sum();
        f.debug_struct("Pages")
            .field("row_groups", &self.row_groups.len())
            .field("rows", &self.num_rows())
            .field("columns", &columns)
            .field("bytes", &bytes)
            .field("decompressed", &decompressed)
            .finish_non_exhaustive()
    }
}

impl Pages {
    /// Decodes every loaded row group into a new `Vec<T>` borrowing these pages.
    ///
    /// Fails if `T` does not match the schema, or if a column it reads was not
    /// loaded (load with the same struct, or one reading a superset of columns).
    pub fn rows<'p, T: ParquetRow<'p>>(&'p self) -> Result<Vec<T>> {
        let mut out = Vec::new();
        self.rows_into(&mut out)?;
        Ok(out)
    }

    /// Like [`Pages::rows`], appending to `out` (reuse one `Vec` across row
    /// groups). On an error, `out` keeps only the rows it had before the call.
    pub fn rows_into<'p, T: ParquetRow<'p>>(&'p self, out: &mut Vec<T>) -> Result<()> {
        let binding = bind(T::STRUCT_NAME, &T::fields(), &self.schema)?;
        let Some(selection) = self.selection::<T>()? else {
            return self.decode_into(&binding, out);
        };
        self.options
            .check_output::<T>(planned_rows(selection, self.num_rows()))?;
        // Every row group's rows are selected before any is decoded, so
        // that `out` grows once, to the rows taken: growing it a row group
        // at a time copied the rows decoded so far at each step and touched
        // fresh memory for them (on a 10M-row file with half its rows
        // taken, most of the read's page faults).
        let mut window = Window::of(selection);
        let mut picked = Vec::new();
        for group in &self.row_groups {
            if window.full() {
                break;
            }
            let runs = self.select::<T>(group, &binding, selection, &mut window)?;
            picked.push((group, runs));
        }
        let taken = picked
            .iter()
            .fold(0usize, |sum, (_, runs)| sum.saturating_add(runs.selected()));
        // One batch more: a row group decoded row by row compacts each
        // batch at the end of `out` (`kept::Kept`).
        out.reserve_rows(taken.saturating_add(crate::runtime::BATCH))
            .map_err(|_| Error::Limit {
                location: Location::default(),
                message: format!("no memory for the {taken} rows selected"),
            })?;
        let before = out.len();
        for (group, runs) in &picked {
            if let Err(e) = self.decode_runs(group, &binding, selection, runs, out) {
                out.truncate(before);
                return Err(e);
            }
        }
        Ok(())
    }

    /// The query these pages were loaded for (by
    /// a builder's `load` with a filter or a window), if any;
    /// an error when `T` is not the struct it was written for.
    fn selection<'p, T: ParquetRow<'p>>(&self) -> Result<Option<&Selection>> {
        let Some(filtered) = &self.filter else {
            return Ok(None);
        };
        if filtered.struct_name != T::STRUCT_NAME {
            return Err(Error::Unsupported {
                location: Location::default(),
                message: format!(
                    "these pages were loaded with a filter of `{}`; decode them into `{}`",
                    filtered.struct_name, filtered.struct_name
                ),
            });
        }
        Ok(Some(&filtered.selection))
    }

    /// Appends to `out` the rows of `group` that match `selection` and that
    /// `window` lets through, using up `window` as much. The predicate
    /// columns are decoded and tested first, then the struct's columns for
    /// the matching rows (`pages::select`): flat fields skip the other rows
    /// undecoded, nested fields skip their records unassembled. On an
    /// error, `out` keeps only the rows it had.
    pub(crate) fn decode_where<'p, T: ParquetRow<'p>>(
        &'p self,
        group: &'p LoadedRowGroup,
        binding: &Binding,
        selection: &Selection,
        window: &mut Window,
        out: &mut Vec<T>,
    ) -> Result<()> {
        let before = out.len();
        let result = self
            .select::<T>(group, binding, selection, window)
            .and_then(|runs| self.decode_runs(group, binding, selection, &runs, out));
        if result.is_err() {
            out.truncate(before);
        }
        result
    }

    /// The rows of `group` that match `selection` and that `window` lets
    /// through, found by decoding the predicate columns only.
    pub(crate) fn select<'p, T: ParquetRow<'p>>(
        &'p self,
        group: &'p LoadedRowGroup,
        binding: &Binding,
        selection: &Selection,
        window: &mut Window,
    ) -> Result<Runs> {
        self.check_loaded(group, binding)?;
        let rows = 0..group.num_rows;
        let whole = RowGroup::new(group, &binding.fields, &self.partitions, self.options, rows);
        select::select::<T>(&whole, selection, window, true)
    }

    /// Appends to `out` the rows of `group` that `runs` takes: decoding
    /// those only, every column skipping the others, or when the runs are
    /// too short for that to pay ([`Runs::row_level`]) and `T` has no drop
    /// glue, decoding every row a batch at a time and keeping the taken
    /// ones of each batch ([`kept::Kept`]); or when `runs` leaves the
    /// choice to the rows ([`Runs::tested_on_rows`]), decoding every row and
    /// keeping those that pass `selection`'s predicates. A failed batch may
    /// leave placeholder rows.
    pub(crate) fn decode_runs<'p, T: ParquetRow<'p>>(
        &'p self,
        group: &'p LoadedRowGroup,
        binding: &Binding,
        selection: &Selection,
        runs: &Runs,
        out: &mut Vec<T>,
    ) -> Result<()> {
        if runs.selected() == 0 {
            return Ok(());
        }
        // Every taken row was decoded in the predicate columns (for runs
        // left to the rows, the first batch was): the count is backed by
        // the pages, not only by the footer. Decoding every row
        // ([`kept::Kept`]) needs room for one batch more.
        let on_rows = runs.tested_on_rows();
        let every = on_rows || !(std::mem::needs_drop::<T>() || runs.row_level());
        let room = runs.selected() + if every { crate::runtime::BATCH } else { 0 };
        out.reserve_rows(room).map_err(|_| Error::Limit {
            location: Location {
                column: String::new(),
                row_group: Some(group.index),
                page: None,
            },
            message: format!("no memory for the {} rows selected", runs.selected()),
        })?;
        if every {
            self.check_loaded(group, binding)?;
            let all_rows = RowGroup::new(
                group,
                &binding.fields,
                &self.partitions,
                self.options,
                0..group.num_rows,
            );
            let before = out.len();
            let decoded = if on_rows {
                let tests = kept::Tested(&selection.predicates);
                decode_kept(&all_rows, kept::Kept::new(out, tests))
            } else {
                let pairs = kept::Pairs::new(runs.pairs());
                decode_kept(&all_rows, kept::Kept::new(out, pairs))
            };
            if decoded.is_ok() {
                return decoded;
            }
            // A rejected row may hold what its field refuses (a null in a
            // plain field, a value out of a narrow integer's range), which a
            // filtered read never decodes (docs/filters.md): decode again,
            // taking only the selected rows, whose errors are the query's.
            out.truncate(before);
            if on_rows {
                let window = &mut Window::of(selection);
                let runs = select::select::<T>(&all_rows, selection, window, false)?;
                return self.decode_selected(group, binding, &runs, out);
            }
        }
        self.decode_selected(group, binding, runs, out)
    }

    /// Appends to `out` the rows of `group` that `runs` takes, every column
    /// skipping the others.
    fn decode_selected<'p, T: ParquetRow<'p>>(
        &'p self,
        group: &'p LoadedRowGroup,
        binding: &Binding,
        runs: &Runs,
        out: &mut Vec<T>,
    ) -> Result<()> {
        let rows = RowGroup::selected(
            group,
            &binding.fields,
            &self.partitions,
            self.options,
            runs.pairs(),
        );
        T::decode(&rows, out)
    }

    /// Total rows of the loaded row groups, from their metadata.
    pub fn num_rows(&self) -> usize {
        self.row_groups
            .iter()
            .fold(0, |sum, rg| sum.saturating_add(rg.num_rows))
    }

    /// Like [`Pages::rows`], decoding in parallel on rayon's pool; the rows
    /// come out in file order, identical to [`Pages::rows`].
    ///
    /// Each row group is a task, or when the row groups are too few for the
    /// pool's threads (a file with one row group of a million rows, as
    /// pyarrow writes by default), several tasks each decoding a range of
    /// its rows, of at least [`ReadOptions::min_task_rows`](crate::ReadOptions::min_task_rows)
    /// rows. Every task writes its rows straight into its own part of the
    /// output. The rows before a range are skipped without being decoded:
    /// flat fields skip values, nested and list fields skip whole records
    /// by their repetition and definition levels.
    ///
    /// The one parallel decode of borrowed rows: a builder's
    /// `threads(n).load()` plans and reads row groups in parallel, and its
    /// rows borrow the [`Pages`] it returns, so their decompression and
    /// decode are this call's: each task decompresses the pages its rows
    /// lie in (owned rows decode on the builder's threads in its
    /// `collect`).
    ///
    /// ```
    /// # use parquet_rows::{ParquetFile, ParquetRow};
    /// # #[derive(ParquetRow)] struct Tick<'a> { ts: i64, symbol: &'a str }
    /// # fn main() -> parquet_rows::Result<()> {
    /// # let file = ParquetFile::from_bytes(parquet_rows::doc_support::tick_file(10)?)?;
    /// let pages = file.rows::<Tick>().threads(2).load()?;
    /// let ticks: Vec<Tick<'_>> = pages.par_rows()?;
    /// # assert_eq!(ticks.len(), 10);
    /// # Ok(()) }
    /// ```
    #[cfg(feature = "rayon")]
    pub fn par_rows<'p, T: ParquetRow<'p> + Send>(&'p self) -> Result<Vec<T>> {
        let binding = bind(T::STRUCT_NAME, &T::fields(), &self.schema)?;
        if let Some(selection) = self.selection::<T>()? {
            self.options
                .check_output::<T>(planned_rows(selection, self.num_rows()))?;
            return self.par_rows_where(&binding, selection);
        }
        self.options.check_output::<T>(self.num_rows())?;
        let counts: Vec<usize> = self.row_groups.iter().map(|rg| rg.num_rows).collect();
        // The same bound as `decode_groups`: when the footer claims more rows
        // than the loaded bytes can hold, decode on one thread, where the
        // output grows as rows really arrive.
        let rows: usize = counts.iter().fold(0, |sum, &n| sum.saturating_add(n));
        let bytes: usize = self
            .row_groups
            .iter()
            .fold(0, |sum, rg| sum.saturating_add(rg.bytes(&binding.leaves)));
        if rows > plausible_rows(bytes) {
            let mut out = Vec::new();
            self.decode_into(&binding, &mut out)?;
            return Ok(out);
        }
        let parts = split(&counts, &self.options);
        let describe = |i: usize| group_name(self.row_groups[i].index);
        crate::parallel::decode_in_regions(&counts, &describe, |i, region| {
            self.decode_parts(&self.row_groups[i], &binding, &parts[i], region)
        })
    }

    /// [`Pages::par_rows`] of pages loaded for a query, one row group per
    /// task: the predicate columns of every row group are tested in
    /// parallel, the query's offset and limit applied in file order, then
    /// the selected rows decoded in parallel (row groups after the limit
    /// not at all).
    #[cfg(feature = "rayon")]
    fn par_rows_where<'p, T: ParquetRow<'p> + Send>(
        &'p self,
        binding: &Binding,
        selection: &Selection,
    ) -> Result<Vec<T>> {
        use rayon::prelude::*;
        let groups = &self.row_groups;
        let mut runs = groups
            .par_iter()
            .map(|group| self.select::<T>(group, binding, selection, &mut Window::all()))
            .collect::<Result<Vec<Runs>>>()?;
        let mut window = Window::of(selection);
        for runs in &mut runs {
            runs.restrict(&mut window);
        }
        let parts: Vec<Vec<T>> = groups
            .par_iter()
            .zip(&runs)
            .map(|(group, runs)| {
                let mut rows = Vec::new();
                self.decode_runs(group, binding, selection, runs, &mut rows)?;
                Ok(rows)
            })
            .collect::<Result<_>>()?;
        Ok(crate::sink::concat(parts))
    }

    /// Decodes `group` into `region`: in one go, or in the row ranges
    /// `parts` decoded in parallel, each into its part of the region.
    #[cfg(feature = "rayon")]
    pub(crate) fn decode_parts<'p, T: ParquetRow<'p> + Send>(
        &'p self,
        group: &'p LoadedRowGroup,
        binding: &Binding,
        parts: &[Range<usize>],
        region: &mut crate::parallel::Region<'_, T>,
    ) -> Result<()> {
        if parts.len() <= 1 || parts.last().map(|r| r.end) != Some(group.num_rows) {
            return self.decode_groups(std::slice::from_ref(group), binding, region);
        }
        self.check_loaded(group, binding)?;
        if group.bytes(&binding.leaves) < SMALL_GROUP_BYTES {
            group.open_on_pool();
        }
        let counts: Vec<usize> = parts.iter().map(ExactSizeIterator::len).collect();
        let describe = |p: usize| {
            let (row_group, name) = group_name(group.index);
            (row_group, format!("rows {:?} of {name}", parts[p]))
        };
        region.decode_parts(&counts, &describe, |p, part| {
            T::decode(
                &RowGroup::new(
                    group,
                    &binding.fields,
                    &self.partitions,
                    self.options,
                    parts[p].clone(),
                ),
                part,
            )
        })
    }

    pub(crate) fn decode_into<'p, T: ParquetRow<'p>>(
        &'p self,
        binding: &Binding,
        out: &mut Vec<T>,
    ) -> Result<()> {
        self.options.check_output::<T>(self.num_rows())?;
        // A failed batch leaves placeholder rows behind (see `RowSink::place`):
        // on an error `out` goes back to the rows it had.
        let before = out.len();
        let result = self.decode_groups(&self.row_groups, binding, out);
        if result.is_err() {
            out.truncate(before);
        }
        result
    }

    /// Decodes `groups` (some of `self.row_groups`) into `out`.
    pub(crate) fn decode_groups<'p, T: ParquetRow<'p>, S: RowSink<T>>(
        &'p self,
        groups: &'p [LoadedRowGroup],
        binding: &Binding,
        out: &mut S,
    ) -> Result<()> {
        // Size the output from row-group metadata, but never beyond what the loaded
        // bytes and the page headers can justify: a hostile footer must not make us
        // reserve terabytes. Any value in a data page takes at least one bit, except
        // in RLE runs, so this bound only falls short for columns that are nearly
        // all one value, where the `Vec` then grows as usual.
        let (mut rows, mut bytes, mut values) = (0usize, 0usize, 0usize);
        for group in groups {
            rows = rows.saturating_add(group.num_rows);
            bytes = bytes.saturating_add(group.bytes(&binding.leaves));
            values = values.saturating_add(group.values(&binding.leaves));
        }
        let reserve = rows.min(plausible_rows(bytes)).min(values);
        out.reserve_rows(reserve).map_err(|_| Error::Limit {
            location: Location {
                column: String::new(),
                row_group: groups.first().map(|g| g.index),
                page: None,
            },
            message: format!("no memory for the {reserve} rows the row groups hold"),
        })?;
        for group in groups {
            self.check_loaded(group, binding)?;
            T::decode(
                &RowGroup::new(
                    group,
                    &binding.fields,
                    &self.partitions,
                    self.options,
                    0..group.num_rows,
                ),
                out,
            )?;
        }
        Ok(())
    }

    /// Checks that every column `binding` reads was loaded in `group`.
    fn check_loaded(&self, group: &LoadedRowGroup, binding: &Binding) -> Result<()> {
        for &leaf in &binding.leaves {
            if group
                .columns
                .binary_search_by_key(&leaf, |c| c.leaf)
                .is_err()
            {
                return Err(Error::Unsupported {
                    location: Location {
                        column: self.schema.column(leaf).path().string(),
                        row_group: Some(group.index),
                        page: None,
                    },
                    message:
                        "this column was not loaded; load the pages with the struct you decode into"
                            .into(),
                });
            }
        }
        Ok(())
    }
}

/// The row ranges a parallel reader decodes row groups of `rows` rows in:
/// ranges of one row group when the pool has threads to spare (see
/// `parallel::split`). Every field can start a range mid-row-group: flat
/// fields skip rows undecoded, nested fields skip whole records by their
/// levels (`ParquetNode::skip_records`).
#[cfg(feature = "rayon")]
pub(crate) fn split(
    rows: &[usize],
    options: &crate::options::ReadOptions,
) -> Vec<Vec<Range<usize>>> {
    crate::parallel::split(rows, rayon::current_num_threads(), options.task_rows())
}

/// Decodes every row of `rows` into `kept`, which keeps those it marks.
fn decode_kept<'p, T: ParquetRow<'p>, M: kept::Marks<T>>(
    rows: &RowGroup<'_, 'p>,
    mut kept: kept::Kept<'_, T, M>,
) -> Result<()> {
    let result = T::decode(rows, &mut kept);
    kept.finish();
    result
}

/// Row group `index`, as the parallel readers' errors name it.
#[cfg(feature = "rayon")]
pub(crate) fn group_name(index: usize) -> (usize, String) {
    (index, format!("row group {index}"))
}

/// The most rows a read of `loaded` rows for `selection` may return: the
/// rows loaded are those planned, the query's limit caps them (as
/// `ReadPlan::rows` counts them before loading).
fn planned_rows(selection: &Selection, loaded: usize) -> usize {
    selection.limit.map_or(loaded, |l| l.min(loaded))
}

/// The most rows that `bytes` bytes of pages (or of a file) can plausibly
/// hold: a value takes at least one bit outside RLE runs. Output is reserved
/// up to this, never up to what a (possibly hostile) footer claims.
pub(crate) fn plausible_rows(bytes: usize) -> usize {
    bytes.saturating_mul(8).saturating_add(1024)
}
