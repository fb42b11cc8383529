//! Opening a file and loading the column chunks a struct reads.

use std::ops::Range;
use std::path::Path;
use std::sync::Arc;

use bytes::Bytes;
use parquet::basic::ColumnOrder;
use parquet::file::reader::ChunkReader;
use parquet::schema::types::SchemaDescriptor;

use crate::bind::{bind, Binding};
use crate::chunk::{PagePool, Seeker, Source};
use crate::error::{Error, Location, Result};
use crate::filter::plan::{plan, window_rows, GroupPlan, GroupWindows, Input, ReadPlan};
use crate::filter::{FilterOf, Selection, Window};
use crate::footer::{read_footer, Footer};
use crate::group::LoadedRowGroup;
use crate::load::Loader;
use crate::options::ReadOptions;
#[cfg(feature = "rayon")]
use crate::pages::{group_name, split};
use crate::pages::{Filtered, Pages};
use crate::partition::Partitions;
use crate::row::{OwnedRow, ParquetRow};

/// An open Parquet file: its footer is read, no page yet.
///
/// ```no_run
/// use parquet_rows::{ParquetFile, ParquetRow};
///
/// #[derive(ParquetRow)]
/// struct Tick<'a> { ts: i64, symbol: &'a str, bid: f64, ask: f64 }
///
/// # fn main() -> parquet_rows::Result<()> {
/// let file = ParquetFile::open("ticks.parquet")?;
/// // Borrowed rows: load the pages, then decode rows that point into them.
/// let pages = file.load::<Tick>()?;
/// let ticks: Vec<Tick<'_>> = pages.rows()?;
///
/// // One row group at a time: its pages, then its rows.
/// for group in 0..file.num_row_groups() {
///     let pages = file.rows::<Tick>().row_groups([group]).load()?;
///     let ticks: Vec<Tick<'_>> = pages.rows()?;
/// }
/// # Ok(()) }
/// ```
#[derive(Clone)] // cheap: the footer, the source and the partitions are shared
pub struct ParquetFile {
    // The parsed footer (named for the `parquet` `FileReader` it replaced,
    // whose `metadata` and `num_row_groups` it keeps): every source reads it
    // through `footer::read_footer`, so every source gets the same checks.
    reader: Footer,
    // The file's length in bytes: bounds what row counts from the footer may
    // make us reserve, and the column chunks' byte ranges.
    len: u64,
    // The file's bytes, read by column chunk: every source reads by
    // position (or takes turns behind a lock), so threads share it.
    source: Source,
    // Memory limits.
    options: ReadOptions,
    // The values `#[parquet(partition)]` fields are filled from.
    partitions: Arc<Partitions>,
    // The row groups read, in order, by their index in the footer: every
    // one (`None`), or those a remote file fetched. Never renumbered, so
    // errors name the row group of the file.
    groups: Option<Arc<[usize]>>,
    // The buffers of decompressed pages, kept for the next pages read
    // (shared by the file's clones: one memory bound for them all).
    pool: Arc<PagePool>,
}

impl std::fmt::Debug for ParquetFile {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ParquetFile")
            .field("row_groups", &self.num_row_groups())
            .field("rows", &self.num_rows())
            .finish_non_exhaustive()
    }
}

impl ParquetFile {
    /// Opens the file at `path` and reads its footer. An I/O error names the
    /// path.
    pub fn open(path: impl AsRef<Path>) -> Result<Self> {
        let path = path.as_ref();
        let handle = std::fs::File::open(path).map_err(|e| Error::io_at("open", path, e))?;
        Self::from_file(handle).map_err(|e| match e {
            Error::Io(e) => Error::io_at("read", path, e),
            // Nothing was decoded yet, so no column or row group says where:
            // the path does.
            Error::OutOfSpec { location, message } => Error::OutOfSpec {
                location,
                message: format!("`{}`: {message}", path.display()),
            },
            Error::Parquet(e) => Error::Parquet(parquet::errors::ParquetError::General(format!(
                "`{}`: {}",
                path.display(),
                e.to_string().trim_start_matches("Parquet error: ")
            ))),
            e => e,
        })
    }

    /// Reads the footer of an open file. The handle is read by position
    /// (see [`ReadAt`](crate::source::ReadAt)): threads sharing the
    /// [`ParquetFile`] read through it at once, with no lock and no second
    /// handle.
    pub fn from_file(file: std::fs::File) -> Result<Self> {
        #[cfg(any(unix, windows))]
        return Self::from_source(file);
        // No positional reads on this platform: reads take turns on the
        // handle's cursor, as for `from_reader`.
        #[cfg(not(any(unix, windows)))]
        return Self::from_reader(file);
    }

    /// Reads the footer of a file read through `source`, any reader by
    /// position: a file, a memory map, a cache or a network client of your
    /// own (see [`crate::source`]). Only the footer and the column chunks a
    /// struct binds are read, from as many threads at once as read the file.
    ///
    /// ```
    /// # use parquet_rows::{ParquetFile, ParquetRow};
    /// # #[derive(ParquetRow)] struct Tick { ts: i64, bid: f64 }
    /// # fn main() -> parquet_rows::Result<()> {
    /// # let bytes = parquet_rows::doc_support::tick_file(10)?;
    /// // `Bytes`, `std::fs::File`, `Arc<impl ReadAt>` are sources.
    /// let file = ParquetFile::from_source(bytes)?;
    /// assert_eq!(file.rows::<Tick>().collect()?.len(), 10);
    /// # Ok(()) }
    /// ```
    pub fn from_source(source: impl crate::source::ReadAt + 'static) -> Result<Self> {
        let len = source.len()?;
        Self::read_from(Source::Shared(Arc::new(source)), len)
    }

    /// Reads the footer of a file held in memory.
    pub fn from_bytes(bytes: impl Into<Bytes>) -> Result<Self> {
        let bytes: Bytes = bytes.into();
        let len = bytes.len() as u64;
        Self::read_from(Source::Bytes(bytes), len)
    }

    /// Reads the footer of a file read through any `Read + Seek` (a file
    /// inside an archive, a network stream with range support, a
    /// `Cursor<Vec<u8>>`). Only the footer and the column chunks a struct
    /// binds are read; reads take turns on the one cursor (a reader by
    /// position needs no turns: see [`ParquetFile::from_source`]), so row groups
    /// loaded in parallel are decompressed and decoded in parallel, not read.
    ///
    /// ```
    /// # use parquet_rows::{ParquetFile, ParquetRow};
    /// # #[derive(ParquetRow)] struct Tick { ts: i64, bid: f64 }
    /// # fn main() -> parquet_rows::Result<()> {
    /// # let bytes = parquet_rows::doc_support::tick_file(10)?;
    /// let reader = std::io::Cursor::new(bytes.to_vec());
    /// let ticks: Vec<Tick> = ParquetFile::from_reader(reader)?.rows().collect()?;
    /// assert_eq!(ticks.len(), 10);
    /// # Ok(()) }
    /// ```
    pub fn from_reader<R>(reader: R) -> Result<Self>
    where
        R: std::io::Read + std::io::Seek + Send + 'static,
    {
        Self::from_source(Seeker(std::sync::Mutex::new(reader)))
    }

    /// Reads the footer of a file behind the `parquet` crate's
    /// [`ChunkReader`] (the trait its own `SerializedFileReader` reads
    /// through), asking it for the footer's and the bound column chunks'
    /// byte ranges only. The same as [`ParquetFile::from_source`] with
    /// [`ChunkReaderAt`](crate::source::ChunkReaderAt).
    ///
    /// ```
    /// # use parquet_rows::{ParquetFile, ParquetRow};
    /// # #[derive(ParquetRow)] struct Tick { ts: i64, bid: f64 }
    /// # fn main() -> parquet_rows::Result<()> {
    /// # let bytes = parquet_rows::doc_support::tick_file(10)?;
    /// // `bytes::Bytes` and `std::fs::File` are `ChunkReader`s, like any
    /// // reader of the `parquet` crate's users.
    /// let file = ParquetFile::from_chunk_reader(bytes)?;
    /// assert_eq!(file.rows::<Tick>().collect()?.len(), 10);
    /// # Ok(()) }
    /// ```
    pub fn from_chunk_reader<C: ChunkReader + 'static>(reader: C) -> Result<Self> {
        Self::from_source(crate::source::ChunkReaderAt(reader))
    }

    /// Reads the footer from `source`, a file of `len` bytes.
    fn read_from(source: Source, len: u64) -> Result<Self> {
        let reader = read_footer(len, |start, n| source.read(start, n))?;
        Ok(Self::from_parts(reader, source, len))
    }

    /// A file whose footer was read already (from an object store, or a
    /// split's row groups), read through `source`.
    pub(crate) fn from_parts(reader: Footer, source: Source, len: u64) -> Self {
        ParquetFile {
            reader,
            len,
            source,
            options: ReadOptions::default(),
            partitions: Arc::default(),
            groups: None,
            pool: Arc::default(),
        }
    }

    /// Reads only the row groups `groups` (indexes in the footer), in that
    /// order: a remote file's fetched row groups.
    #[cfg(feature = "object_store")]
    pub(crate) fn with_groups(mut self, groups: Option<Vec<usize>>) -> Self {
        self.groups = groups.map(Arc::from);
        self
    }

    /// This file reading only the row groups `groups` (indexes in the
    /// footer, among those it reads; kept in file order) with `options`:
    /// a builder's narrowing, sharing the footer and the source.
    pub(crate) fn scoped(
        &self,
        groups: Option<&[usize]>,
        options: Option<ReadOptions>,
    ) -> Result<ParquetFile> {
        let mut file = self.clone();
        if let Some(options) = options {
            file.options = options;
        }
        if let Some(groups) = groups {
            let list = self.group_list();
            for &g in groups {
                if !list.contains(&g) {
                    let message = match &self.groups {
                        None => format!(
                            "row group {g} does not exist; the file has {}",
                            self.num_row_groups()
                        ),
                        Some(fetched) => {
                            format!("row group {g} was not fetched (row groups {fetched:?} were)")
                        }
                    };
                    return Err(Error::Unsupported {
                        location: Location::default(),
                        message,
                    });
                }
            }
            let kept: Vec<usize> = list.into_iter().filter(|g| groups.contains(g)).collect();
            file.groups = Some(Arc::from(kept));
        }
        Ok(file)
    }

    /// The row groups this file reads, in order, by their index in the footer.
    pub(crate) fn group_list(&self) -> Vec<usize> {
        match &self.groups {
            Some(groups) => groups.to_vec(),
            None => (0..self.reader.num_row_groups()).collect(),
        }
    }

    /// Fills the `#[parquet(partition)]` fields of the rows read from this
    /// file from `partitions`, as a `dataset::Dataset` fills
    /// them from each file's path; predicates on them are decided once for
    /// the file. Without it a file has no partition values: a partition field
    /// that is an `Option` reads `None`, any other is an error.
    ///
    /// ```
    /// # use parquet_rows::{ParquetFile, ParquetRow, Partitions};
    /// #[derive(ParquetRow)]
    /// struct Quote {
    ///     ts: i64,
    ///     #[parquet(partition)]
    ///     date: String,
    /// }
    ///
    /// # fn main() -> parquet_rows::Result<()> {
    /// # let bytes = parquet_rows::doc_support::tick_file(10)?;
    /// let file = ParquetFile::from_bytes(bytes)?
    ///     .with_partitions(Partitions::from_path("ticks/date=2026-01-02/part-0.parquet"));
    /// let quotes: Vec<Quote> = file.rows().collect()?;
    /// assert!(quotes.iter().all(|q| q.date == "2026-01-02"));
    /// # Ok(()) }
    /// ```
    #[must_use]
    pub fn with_partitions(mut self, partitions: Partitions) -> Self {
        self.partitions = Arc::new(partitions);
        self
    }

    /// The partition values rows read from this file are filled from.
    pub fn partitions(&self) -> &Partitions {
        &self.partitions
    }

    /// Reads with the memory limits of `options` instead of the defaults.
    ///
    /// ```
    /// # use parquet_rows::{ParquetFile, ReadOptions};
    /// # fn main() -> parquet_rows::Result<()> {
    /// # let bytes = parquet_rows::doc_support::tick_file(10)?;
    /// let file = ParquetFile::from_bytes(bytes)?
    ///     .with_options(ReadOptions::default().max_page_bytes(16 << 20));
    /// # Ok(()) }
    /// ```
    #[must_use]
    pub fn with_options(mut self, options: ReadOptions) -> Self {
        self.options = options;
        self
    }

    /// The file's schema.
    pub fn schema(&self) -> &SchemaDescriptor {
        self.reader.metadata().file_metadata().schema_descr()
    }

    /// The footer: schema, row groups, their column chunks and statistics,
    /// as the `parquet` crate's metadata types (checked when the file was
    /// opened).
    ///
    /// ```no_run
    /// let file = parquet_rows::ParquetFile::open("ticks.parquet")?;
    /// for group in file.metadata().row_groups() {
    ///     println!("{} rows, {} bytes", group.num_rows(), group.compressed_size());
    /// }
    /// # Ok::<(), parquet_rows::Error>(())
    /// ```
    pub fn metadata(&self) -> &parquet::file::metadata::ParquetMetaData {
        self.reader.metadata()
    }

    /// Number of row groups the file reads: the footer's, or for a file
    /// fetched from a [`RemoteFile`](crate::remote::RemoteFile), those
    /// fetched (still named by their index in the footer).
    pub fn num_row_groups(&self) -> usize {
        self.groups
            .as_ref()
            .map_or(self.reader.num_row_groups(), |g| g.len())
    }

    /// Number of rows: the sum over the row groups read (the footer's
    /// total can be wrong).
    pub fn num_rows(&self) -> usize {
        let meta = self.reader.metadata();
        self.group_list()
            .into_iter()
            .map(|g| usize::try_from(meta.row_group(g).num_rows()).unwrap_or(0))
            .fold(0, usize::saturating_add)
    }

    /// Checks that `T` matches the schema; returns its binding.
    pub(crate) fn bind<'p, T: ParquetRow<'p>>(&self) -> Result<Binding> {
        let binding = bind(T::STRUCT_NAME, &T::fields(), self.schema())?;
        crate::footer::check_dropped(&self.reader, &binding.leaves, self.schema())?;
        Ok(binding)
    }

    /// Reads, for every row group, the column chunks `T` reads, and checks
    /// their pages (each is decompressed when the decode first opens it:
    /// see [`Pages`]).
    ///
    /// Only those columns are read (projection is automatic). The whole file's
    /// bound columns are held in memory; for files larger than memory, load
    /// one row group at a time (`file.rows::<T>().row_groups([i]).load()`)
    /// or stream owned rows (`file.rows::<T>().stream()`). The one-line form
    /// of `file.rows::<T>().load()` ([`ParquetFile::rows`]).
    pub fn load<'p, T: ParquetRow<'p>>(&self) -> Result<Pages> {
        self.rows::<T>().load()
    }

    /// [`ParquetFile::load`]: every row group read, in order.
    pub(crate) fn load_all<'p, T: ParquetRow<'p>>(&self) -> Result<Pages> {
        let binding = self.bind::<T>()?;
        let row_groups = self
            .group_list()
            .into_iter()
            .map(|i| self.load_group(i, &binding))
            .collect::<Result<_>>()?;
        Ok(self.pages(row_groups))
    }

    /// Every row group read, a task per row group on rayon's pool: the
    /// builder's `threads(n).load()`. The pages are not decompressed here:
    /// the parallel decode cuts a row group into parts, and each part's task
    /// decompresses the pages it opens, so that their values are decoded
    /// while they are in its core's cache (a row group of a few MiB is
    /// decompressed on the pool as its decode starts, see
    /// `Pages::decode_parts`). Decompressed on the pool here, every page
    /// came back from memory (docs/performance.md, "Pages decompressed by
    /// the parts that read them").
    #[cfg(feature = "rayon")]
    pub(crate) fn par_load_all<'p, T: ParquetRow<'p>>(&self) -> Result<Pages> {
        use rayon::prelude::*;
        let binding = self.bind::<T>()?;
        let row_groups = self
            .group_list()
            .into_par_iter()
            .map(|i| self.load_group(i, &binding))
            .collect::<Result<_>>()?;
        Ok(self.pages(row_groups))
    }

    /// Every row, row groups read and decoded one at a time: the builder's
    /// `collect()` without a filter or a window.
    pub(crate) fn read_all<T>(&self) -> Result<Vec<T>>
    where
        T: OwnedRow,
    {
        let binding = self.bind::<T>()?;
        self.options.check_output::<T>(self.num_rows())?;
        let mut out = Vec::new();
        // One reservation for the whole file, so row groups after the first do
        // not grow (and copy) the rows decoded so far; measured on the DELTA
        // fixture of `bench-report` (2 row groups, owned rows): 121.7 -> 113.5
        // ns/row. The footer's row count is believed only as far as the file's
        // size can hold rows (a value takes at least a bit outside RLE runs),
        // and a failed reservation just leaves the `Vec` to grow as it decodes.
        let rows = self.num_rows();
        let plausible =
            crate::pages::plausible_rows(usize::try_from(self.len).unwrap_or(usize::MAX));
        let _ = out.try_reserve(rows.min(plausible));
        for i in self.group_list() {
            let pages = self.pages(vec![self.load_group(i, &binding)?]);
            pages.decode_into(&binding, &mut out)?;
        }
        Ok(out)
    }

    /// The pages of the rows of `selection`: every row group planned, then
    /// loaded in order, or with `parallel` (feature `rayon`) planned and
    /// loaded a task per row group, its pages decompressed on rayon's pool.
    pub(crate) fn load_selection<'p, T: ParquetRow<'p>>(
        &self,
        query: &Selection,
        parallel: bool,
    ) -> Result<Pages> {
        let binding = self.bind::<T>()?;
        let filtered = |selection: Selection| {
            Some(std::sync::Arc::new(Filtered {
                selection,
                struct_name: T::STRUCT_NAME,
            }))
        };
        let Some(selection) = query.for_partitions::<T::Filter>(&self.partitions)? else {
            let mut pages = self.pages(Vec::new());
            pages.filter = filtered(query.clone());
            return Ok(pages);
        };
        let plan = self.plan_read(&binding, &selection, parallel)?;
        // `par_rows` decodes a selection a task per row group: its pages
        // are decompressed on the pool first, so that a file of one row
        // group still uses every thread.
        let load = |(i, group): &(usize, GroupPlan)| {
            self.load_columns(*i, &binding, &self.source, Some(group), parallel)
        };
        #[cfg(feature = "rayon")]
        let row_groups = if parallel {
            use rayon::prelude::*;
            plan.groups.par_iter().map(load).collect::<Result<_>>()?
        } else {
            plan.groups.iter().map(load).collect::<Result<_>>()?
        };
        #[cfg(not(feature = "rayon"))]
        let row_groups = plan.groups.iter().map(load).collect::<Result<_>>()?;
        let mut pages = self.pages(row_groups);
        pages.filter = filtered(plan.selection);
        Ok(pages)
    }

    /// The rows of `selection`: every row group planned first, the output
    /// checked once against the rows planned, then the row groups loaded
    /// and decoded one at a time until the window is full.
    pub(crate) fn read_selection<T: OwnedRow>(
        &self,
        binding: &Binding,
        selection: &Selection,
    ) -> Result<Vec<T>> {
        let Some(selection) = selection.for_partitions::<FilterOf<T>>(&self.partitions)? else {
            return Ok(Vec::new()); // no row of the file can match
        };
        let plan = self.plan_read(binding, &selection, false)?;
        self.options.check_output::<T>(plan.rows())?;
        let mut window = Window::of(&plan.selection);
        let mut out = Vec::new();
        let (mut seen, mut left) = (0usize, plan.rows());
        for (i, group) in &plan.groups {
            if window.full() {
                break;
            }
            reserve_projected(&mut out, seen, left.min(window.take.unwrap_or(usize::MAX)));
            seen = seen.saturating_add(group.rows.len());
            left = left.saturating_sub(group.rows.len());
            let group = self.load_columns(*i, binding, &self.source, Some(group), false)?;
            let pages = self.pages(vec![group]);
            let group = &pages.row_groups[0];
            pages.decode_where(group, binding, &plan.selection, &mut window, &mut out)?;
        }
        Ok(out)
    }

    /// The plan of a read of `selection` (its partition predicates
    /// decided) over the row groups the file reads: each row group by
    /// statistics, dictionaries, bloom filters and page index, or for a
    /// window without predicates by position. With `parallel`, the row
    /// groups are planned on rayon's pool.
    fn plan_read(
        &self,
        binding: &Binding,
        selection: &Selection,
        parallel: bool,
    ) -> Result<ReadPlan> {
        let list = self.group_list();
        let (windows, selection) = self.windows(selection, &list)?;
        let plan_one = |k: usize, source: &Source| -> Result<Option<(usize, GroupPlan)>> {
            let within = windows.as_ref().map(|w| w[k].clone());
            let plan = self.plan_group(list[k], binding, &selection, within, source)?;
            Ok(plan.map(|plan| (list[k], plan)))
        };
        #[cfg(feature = "rayon")]
        let planned: Vec<Option<(usize, GroupPlan)>> = if parallel {
            use rayon::prelude::*;
            (0..list.len())
                .into_par_iter()
                .map(|k| self.with_task_source(|source| plan_one(k, source)))
                .collect::<Result<_>>()?
        } else {
            (0..list.len())
                .map(|k| plan_one(k, &self.source))
                .collect::<Result<_>>()?
        };
        #[cfg(not(feature = "rayon"))]
        let planned: Vec<Option<(usize, GroupPlan)>> = {
            let _ = parallel;
            (0..list.len())
                .map(|k| plan_one(k, &self.source))
                .collect::<Result<_>>()?
        };
        Ok(ReadPlan {
            groups: planned.into_iter().flatten().collect(),
            selection,
        })
    }

    /// The rows of row group `index` (within the rows `within` of a
    /// positional window) that `selection` and what is left of `window`
    /// keep, planned, loaded and decoded: a stream's next row group. The
    /// output is checked against the rows the plan may return, at most what
    /// the window has left (a stream holds one row group's rows at a time).
    pub(crate) fn read_group<T: OwnedRow>(
        &self,
        index: usize,
        within: Option<Range<usize>>,
        binding: &Binding,
        selection: &Selection,
        window: &mut Window,
    ) -> Result<Vec<T>> {
        let mut rows = Vec::new();
        let Some(plan) = self.plan_group(index, binding, selection, within, &self.source)? else {
            return Ok(rows);
        };
        let most = window
            .take
            .map_or(plan.rows.len(), |t| t.min(plan.rows.len()));
        self.options.check_output::<T>(most)?;
        let group = self.load_columns(index, binding, &self.source, Some(&plan), false)?;
        let pages = self.pages(vec![group]);
        let group = &pages.row_groups[0];
        pages.decode_where(group, binding, selection, window, &mut rows)?;
        Ok(rows)
    }

    /// The rows of `query`, planned, loaded and decoded a task per row
    /// group on rayon's pool; the window applied in file order.
    #[cfg(feature = "rayon")]
    pub(crate) fn par_read_selection<T>(
        &self,
        binding: &Binding,
        query: &Selection,
    ) -> Result<Vec<T>>
    where
        T: OwnedRow + Send,
    {
        use rayon::prelude::*;
        let Some(selection) = query.for_partitions::<FilterOf<T>>(&self.partitions)? else {
            return Ok(Vec::new());
        };
        let plan = self.plan_read(binding, &selection, true)?;
        self.options.check_output::<T>(plan.rows())?;
        let selection = &plan.selection;
        // Each row group returns at most the window's end: no more of its
        // rows can be kept, whatever the row groups before it hold.
        let mut each = Window::all();
        each.take = selection.limit.map(|l| l.saturating_add(selection.offset));
        let groups = plan
            .groups
            .par_iter()
            .map(|(i, group)| {
                // A row group's rows are decoded in this one task: its
                // pages are decompressed on the pool first, so that a file
                // of one row group still uses every thread.
                let loaded = self.with_task_source(|source| {
                    self.load_columns(*i, binding, source, Some(group), true)
                })?;
                let mut rows = Vec::new();
                let pages = self.pages(vec![loaded]);
                let loaded = &pages.row_groups[0];
                pages.decode_where(loaded, binding, selection, &mut { each }, &mut rows)?;
                Ok(rows)
            })
            .collect::<Result<Vec<Vec<T>>>>()?;
        let mut out = crate::sink::concat(groups);
        Window::of(selection).retain(&mut out, 0, |_| true);
        Ok(out)
    }

    /// Every row, decoded on rayon's current pool: the builder's
    /// `threads(n).collect()` without a filter or a window.
    #[cfg(feature = "rayon")]
    pub(crate) fn par_read_all<T>(&self) -> Result<Vec<T>>
    where
        T: OwnedRow + Send,
    {
        let binding = self.bind::<T>()?;
        self.options.check_output::<T>(self.num_rows())?;
        let meta = self.reader.metadata();
        let list = self.group_list();
        let counts: Vec<usize> = list
            .iter()
            .map(|&g| usize::try_from(meta.row_group(g).num_rows()).unwrap_or(0))
            .collect();
        // As in `read`: rows the file's bytes cannot hold are not reserved up
        // front; such a file is read on one thread, its output growing as rows
        // really arrive.
        let rows: usize = counts.iter().fold(0, |sum, &n| sum.saturating_add(n));
        let plausible =
            crate::pages::plausible_rows(usize::try_from(self.len).unwrap_or(usize::MAX));
        if rows > plausible {
            return self.read_all();
        }
        // The split depends only on the row counts, known before loading.
        let parts = split(&counts, &self.options);
        let describe = |k: usize| group_name(list[k]);
        crate::parallel::decode_in_regions(&counts, &describe, |k, region| {
            let pages = self.pages(vec![self.load_group(list[k], &binding)?]);
            pages.decode_parts(&pages.row_groups[0], &binding, &parts[k], region)
        })
    }

    fn pages(&self, row_groups: Vec<LoadedRowGroup>) -> Pages {
        Pages {
            schema: self.reader.metadata().file_metadata().schema_descr_ptr(),
            row_groups,
            options: self.options,
            filter: None,
            partitions: Arc::clone(&self.partitions),
        }
    }

    /// Reads and decompresses the bound column chunks of row group `index`.
    fn load_group(&self, index: usize, binding: &Binding) -> Result<LoadedRowGroup> {
        self.load_columns(index, binding, &self.source, None, false)
    }

    /// The rows of row group `index` in the footer, checked.
    fn group_rows(&self, index: usize) -> Result<usize> {
        let rows = self.reader.metadata().row_group(index).num_rows();
        usize::try_from(rows).map_err(|_| Error::OutOfSpec {
            location: Location {
                row_group: Some(index),
                ..Location::default()
            },
            message: format!("negative row count {rows}"),
        })
    }

    /// A query's window resolved by position, when it has no predicate:
    /// the rows each of row groups `groups` keeps (by the footer's row
    /// counts), and the selection left for the rows loaded (every one).
    /// `None` and `selection` itself otherwise: its window counts matching
    /// rows, known only once they are tested.
    pub(crate) fn windows(
        &self,
        selection: &Selection,
        groups: &[usize],
    ) -> Result<(Option<GroupWindows>, Selection)> {
        if !selection.positional() {
            return Ok((None, selection.clone()));
        }
        let counts = groups
            .iter()
            .map(|&g| self.group_rows(g))
            .collect::<Result<Vec<usize>>>()?;
        let windows = window_rows(&counts, selection.offset, selection.limit);
        Ok((Some(windows), Selection::default()))
    }

    /// What to read of row group `index` for `selection` (within the rows
    /// `within` of a positional window); `None` when it holds no matching row.
    fn plan_group(
        &self,
        index: usize,
        binding: &Binding,
        selection: &Selection,
        within: Option<Range<usize>>,
        source: &Source,
    ) -> Result<Option<GroupPlan>> {
        let rows = self.group_rows(index)?;
        let metadata = self.reader.metadata();
        let file_meta = metadata.file_metadata();
        // A footer may list fewer column orders than columns: the missing
        // ones are undefined (`column_order` would panic).
        let orders = |leaf: usize| {
            file_meta
                .column_orders()
                .and_then(|orders| orders.get(leaf).copied())
                .unwrap_or(ColumnOrder::UNDEFINED)
        };
        let input = Input {
            meta: metadata.row_group(index),
            orders: &orders,
            source,
            file_len: self.len,
            options: self.options,
        };
        let within = within.unwrap_or(0..rows);
        Ok(plan(&input, binding, selection, rows, within))
    }

    /// Runs `f` with the source a parallel task reads from: the file's own,
    /// as positional reads share one handle without a lock.
    #[cfg(feature = "rayon")]
    fn with_task_source<R>(&self, f: impl FnOnce(&Source) -> Result<R>) -> Result<R> {
        f(&self.source)
    }

    /// Reads the pages of the bound columns of row group `index` from
    /// `source`: every page, or with a `plan` those of its rows. With
    /// `parallel`, the pages are decompressed on rayon's pool.
    fn load_columns(
        &self,
        index: usize,
        binding: &Binding,
        source: &Source,
        plan: Option<&GroupPlan>,
        parallel: bool,
    ) -> Result<LoadedRowGroup> {
        Loader {
            meta: self.reader.metadata().row_group(index),
            index,
            source,
            file_len: self.len,
            options: self.options,
            parallel,
            writer: crate::quirks::Writer::of(self.reader.metadata().file_metadata().created_by()),
            pool: &self.pool,
        }
        .load(binding, plan)
    }
}

/// Reads every row of the Parquet file at `path` into owned rows.
///
/// ```no_run
/// use parquet_rows::ParquetRow;
///
/// #[derive(ParquetRow)]
/// struct Quote { symbol: String, ask: f64, size: Option<i32> }
///
/// # fn main() -> parquet_rows::Result<()> {
/// let quotes: Vec<Quote> = parquet_rows::from_path("quotes.parquet")?;
/// # Ok(()) }
/// ```
pub fn from_path<T>(path: impl AsRef<Path>) -> Result<Vec<T>>
where
    T: OwnedRow,
{
    ParquetFile::open(path)?.rows::<T>().collect()
}

/// Reads every row of an open Parquet file into owned rows.
pub fn from_file<T>(file: std::fs::File) -> Result<Vec<T>>
where
    T: OwnedRow,
{
    ParquetFile::from_file(file)?.rows::<T>().collect()
}

/// Reads every row of a Parquet file held in memory into owned rows.
pub fn from_bytes<T>(bytes: impl Into<Bytes>) -> Result<Vec<T>>
where
    T: OwnedRow,
{
    ParquetFile::from_bytes(bytes)?.rows::<T>().collect()
}

/// Before the next row group of a filtered read: room in `out` for the rows
/// the row groups left (`left` planned rows at most) are expected to add,
/// at the rate the `seen` planned rows so far were taken, with a margin
/// ([`sink::projected`](crate::sink::projected)). A row group at a
/// time, `out` grew by doubling: each step copied the rows so far and
/// touched fresh memory for them (on a 10M-row file with half its rows
/// taken, most of the read's page faults). The room is only reserved: a
/// row group that takes fewer rows than projected leaves it untouched.
/// A refusal is ignored (each row group reserves what it takes, and
/// reports that).
fn reserve_projected<T>(out: &mut Vec<T>, seen: usize, left: usize) {
    if seen == 0 || out.is_empty() {
        return;
    }
    let expected = crate::sink::projected(out.len(), seen, left);
    if expected > out.capacity() - out.len() {
        let _ = crate::sink::RowSink::reserve_rows(out, expected);
    }
}
