//! Datasets of many files on an [`ObjectStore`] (feature `object_store`): a
//! prefix (a directory, for `LocalFileSystem`), narrowed by a glob, with
//! hive-style partition directories (`date=2026-01-02/symbol=EURUSD/`).
//!
//! A struct field marked `#[parquet(partition)]` is filled from the file's
//! `key=value` directory of the field's name (after `rename` /
//! `rename_all`), parsed into the field's type; it reads no column (when
//! the file also holds a column of that name, the path's value wins and the
//! column is not read). The typed filter has methods for partition fields
//! too: in a read's filter (`dataset.rows::<T>().filter(..)`), a predicate
//! on one prunes whole files by their path, before any request. [`Dataset::prune`] does the same for
//! every read, and for [`Dataset::splits`].
//!
//! Listing the prefix costs list requests only. A file pruned by its path is
//! never opened; every other file is opened once (one request for its
//! footer), and a row-group predicate ([`Dataset::keep_row_groups`], given
//! the footer's statistics) or the typed filter's column predicates decide
//! which of its row groups and pages are fetched: a file with none left
//! costs no further request. Rows come in file order (files sorted by
//! path), row groups in file order.
//!
//! ```
//! use std::sync::Arc;
//! use object_store::{memory::InMemory, path::Path, ObjectStore, ObjectStoreExt};
//! use parquet_rows::dataset::Dataset;
//! use parquet_rows::ParquetRow;
//!
//! #[derive(ParquetRow)]
//! struct Tick {
//!     ts: i64,
//!     bid: f64,
//!     #[parquet(partition)] // from the `date=` directory
//!     date: String,
//! }
//!
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! # let bytes = parquet_rows::doc_support::tick_file(10)?;
//! let store: Arc<dyn ObjectStore> = Arc::new(InMemory::new());
//! # tokio::runtime::Builder::new_current_thread().build()?.block_on(async {
//! for date in ["2026-01-02", "2026-01-03"] {
//!     let path = Path::from(format!("ticks/date={date}/part-0.parquet"));
//!     store.put(&path, bytes.clone().into()).await?;
//! }
//! let dataset = Dataset::open(store, "ticks").await?;
//! // The files of 2026-01-02 are never opened.
//! let ticks: Vec<Tick> = dataset
//!     .rows::<Tick>()
//!     .filter(Tick::filter().date().eq("2026-01-03"))
//!     .collect()
//!     .await?;
//! assert_eq!(ticks.len(), 10);
//! assert_eq!(ticks[0].date, "2026-01-03");
//! # Ok::<_, Box<dyn std::error::Error>>(()) })?;
//! # Ok(()) }
//! ```

mod split;

use std::sync::Arc;

use futures_util::{StreamExt, TryStreamExt};
use object_store::path::Path;
use object_store::ObjectStore;
use parquet::file::metadata::RowGroupMetaData;

use crate::error::{Error, Location, Result};
use crate::filter::{FilterOf, RowFilter, Selection};
use crate::options::ReadOptions;
use crate::partition::Partitions;
use crate::remote::{block_on, fetch::store_error, FetchOptions, RemoteFile};
use crate::row::OwnedRow;

pub use split::{Split, SplitFile};

/// One file of a [`Dataset`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DataFile {
    /// Where the file is in the store.
    pub location: Path,
    /// Its length in bytes, as listed.
    pub size: u64,
    /// The values of its partition directories, below the dataset's prefix.
    pub partitions: Partitions,
}

/// Which row groups of a file to read, from the footer's row-group metadata
/// (statistics, row counts); see [`Dataset::keep_row_groups`].
type RowGroupFilter = Arc<dyn Fn(&DataFile, &RowGroupMetaData) -> bool + Send + Sync>;

/// Many Parquet files read as one; see the [module docs](self).
#[derive(Clone)]
pub struct Dataset {
    store: Arc<dyn ObjectStore>,
    prefix: Path,         // what partitions and globs are relative to
    files: Vec<DataFile>, // invariant: sorted by location
    keep: Option<RowGroupFilter>,
    fetch: FetchOptions,
    options: ReadOptions,
    files_at_once: usize, // >= 1
}

impl std::fmt::Debug for Dataset {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Dataset")
            .field("files", &self.files.len())
            .field("fetch", &self.fetch)
            .finish_non_exhaustive()
    }
}

impl Dataset {
    /// Lists the files under `prefix` (recursively), in path order. Names
    /// starting with `_` or `.` (`_SUCCESS`, `.crc` files) are left out.
    pub async fn open(store: Arc<dyn ObjectStore>, prefix: impl Into<Path>) -> Result<Self> {
        let prefix = prefix.into();
        let listed: Vec<_> = store
            .list(Some(&prefix))
            .try_collect()
            .await
            .map_err(store_error)?;
        let mut files: Vec<DataFile> = listed
            .into_iter()
            .filter(|meta| {
                meta.location
                    .filename()
                    .is_some_and(|name| !name.starts_with(['_', '.']))
            })
            .map(|meta| {
                let relative = relative(&prefix, &meta.location);
                DataFile {
                    partitions: Partitions::from_path(&relative),
                    location: meta.location,
                    size: meta.size,
                }
            })
            .collect();
        files.sort_by(|a, b| a.location.cmp(&b.location));
        Ok(Dataset {
            store,
            prefix,
            files,
            keep: None,
            fetch: FetchOptions::default(),
            options: ReadOptions::default(),
            files_at_once: 8,
        })
    }

    /// [`Dataset::open`], blocking.
    ///
    /// # Panics
    ///
    /// When called from inside a tokio runtime (use the async method there).
    pub fn open_blocking(store: Arc<dyn ObjectStore>, prefix: impl Into<Path>) -> Result<Self> {
        block_on(Self::open(store, prefix))?
    }

    /// Keeps the files whose path below the prefix matches `pattern` (glob
    /// syntax: `*`, `?`, `[a-z]`, `**`; `*` does not cross `/`).
    ///
    /// ```
    /// # use std::sync::Arc;
    /// # use parquet_rows::dataset::Dataset;
    /// # fn main() -> parquet_rows::Result<()> {
    /// # let store = Arc::new(object_store::memory::InMemory::new());
    /// let dataset = Dataset::open_blocking(store, "ticks")?.glob("date=2026-01-*/*.parquet")?;
    /// # Ok(()) }
    /// ```
    pub fn glob(mut self, pattern: &str) -> Result<Self> {
        let pattern = glob::Pattern::new(pattern).map_err(|e| Error::Unsupported {
            location: Location::default(),
            message: format!("glob pattern `{pattern}`: {e}"),
        })?;
        let options = glob::MatchOptions {
            require_literal_separator: true,
            ..glob::MatchOptions::new()
        };
        let prefix = &self.prefix;
        self.files
            .retain(|f| pattern.matches_with(&relative(prefix, &f.location), options));
        Ok(self)
    }

    /// Keeps the files whose partition values match `filter`, a typed
    /// filter whose every predicate is on a `#[parquet(partition)]` field:
    /// the others are never opened, by any read or by [`Dataset::splits`].
    ///
    /// An error when a predicate is on a column (those are for a read's
    /// filter, [`Dataset::rows`], which prunes by partitions too), or when a
    /// file's partition value does not parse as the field's type.
    ///
    /// ```
    /// # use std::sync::Arc;
    /// # use parquet_rows::dataset::Dataset;
    /// # use parquet_rows::ParquetRow;
    /// #[derive(ParquetRow)]
    /// struct Tick {
    ///     ts: i64,
    ///     #[parquet(partition)]
    ///     date: String,
    /// }
    ///
    /// # fn main() -> parquet_rows::Result<()> {
    /// # let store = Arc::new(object_store::memory::InMemory::new());
    /// let dataset = Dataset::open_blocking(store, "ticks")?
    ///     .prune(Tick::filter().date().ge("2026-01-02"))?;
    /// let splits = dataset.splits_blocking::<Tick>(64 << 20)?;
    /// # Ok(()) }
    /// ```
    pub fn prune<F: RowFilter>(mut self, filter: F) -> Result<Self> {
        let predicates = filter.into_predicate_list().all;
        let mut kept = Vec::with_capacity(self.files.len());
        for file in self.files {
            let mut matches = true;
            for p in &predicates {
                match F::partition_test(p, &file.partitions) {
                    Some(Ok(true)) => {}
                    Some(Ok(false)) => matches = false,
                    Some(Err(e)) => return Err(in_file(e, &file)),
                    None => return Err(Error::Unsupported {
                        location: Location::default(),
                        message:
                            "`Dataset::prune` takes predicates on `#[parquet(partition)]` fields; \
                                      filter on columns with `dataset.rows::<T>().filter(..)`"
                                .to_owned(),
                    }),
                }
            }
            if matches {
                kept.push(file);
            }
        }
        self.files = kept;
        Ok(self)
    }

    /// Reads only the row groups for which `keep` is true, given the file
    /// and the row group's metadata (its statistics): the others are never
    /// fetched, and a file with none left costs only its footer request.
    #[must_use]
    pub fn keep_row_groups(
        mut self,
        keep: impl Fn(&DataFile, &RowGroupMetaData) -> bool + Send + Sync + 'static,
    ) -> Self {
        self.keep = Some(Arc::new(keep));
        self
    }

    /// Fetches as `fetch` says (per file), with at most `files` files in
    /// flight at once (at least 1; 8 by default).
    #[must_use]
    pub fn with_fetch_options(mut self, fetch: FetchOptions, files: usize) -> Self {
        self.fetch = fetch;
        self.files_at_once = files.max(1);
        self
    }

    /// Reads each file with the memory limits of `options`.
    #[must_use]
    pub fn with_options(mut self, options: ReadOptions) -> Self {
        self.options = options;
        self
    }

    /// The files, in path order.
    pub fn files(&self) -> &[DataFile] {
        &self.files
    }

    /// The rows of `query` in every file (of each file the row groups
    /// `only` lists, among those [`Dataset::keep_row_groups`] keeps), each
    /// file's fetched rows decoded by `decode`; the window is the
    /// dataset's, applied in file order.
    pub(crate) async fn read_selection<T: OwnedRow>(
        &self,
        query: Selection,
        only: Option<&[usize]>,
        decode: fn(&crate::ParquetFile, &Selection) -> Result<Vec<T>>,
    ) -> Result<Vec<T>> {
        let (offset, limit) = (query.offset, query.limit);
        // Each file's matching rows, unwindowed: the window is the dataset's.
        let mut selection = query;
        (selection.offset, selection.limit) = (0, None);
        // The files the partition predicates keep, decided before any request.
        let mut kept = Vec::with_capacity(self.files.len());
        for file in &self.files {
            if let Some(selection) = selection
                .for_partitions::<FilterOf<T>>(&file.partitions)
                .map_err(|e| in_file(e, file))?
            {
                kept.push((file, selection));
            }
        }
        let (per_file, kept) = (&selection, &kept);
        // By index, not by `&DataFile`: a closure taking a reference makes
        // the future not `Send` ("implementation of `FnOnce` is not general
        // enough", rust-lang/rust#64552).
        let files: Vec<Vec<T>> = futures_util::stream::iter(0..kept.len())
            .map(|k| async move {
                let (file, selection) = &kept[k];
                let remote = self.open_file(file).await?;
                let mut groups = self.row_groups_of(file, &remote);
                if let Some(only) = only {
                    groups.retain(|g| only.contains(g));
                }
                if groups.is_empty() {
                    return Ok::<_, Error>(Vec::new());
                }
                let fetched = remote.fetch_selected::<T>(selection, Some(&groups)).await?;
                decode(&fetched, per_file).map_err(|e| in_file(e, file))
            })
            .buffered(self.files_at_once)
            .try_collect()
            .await?;
        let rows = files.into_iter().flatten().skip(offset);
        Ok(match limit {
            Some(n) => rows.take(n).collect(),
            None => rows.collect(),
        })
    }

    /// The rows of `query` in every file, one `Vec` per row group that
    /// holds any, in file order: the files are opened one after the other
    /// as the stream reaches them, each streamed as a `RemoteFile`'s
    /// `batches` stream it (two row groups in flight); the window is the
    /// dataset's, and the stream ends (opening no further file) once its
    /// limit is reached.
    pub(crate) fn stream_selection<'a, T: OwnedRow + 'a>(
        self,
        query: Selection,
        only: Option<Vec<usize>>,
    ) -> impl futures_util::Stream<Item = Result<Vec<T>>> + 'a {
        let window = crate::filter::Window::of(&query);
        // Each file's matching rows, unwindowed: the window is the dataset's.
        let mut per_file = query;
        (per_file.offset, per_file.limit) = (0, None);
        let dataset = Arc::new(self);
        let batches = futures_util::stream::iter(0..dataset.files.len())
            .then(move |i| {
                let (dataset, per_file, only) =
                    (Arc::clone(&dataset), per_file.clone(), only.clone());
                async move {
                    dataset
                        .file_stream::<T>(i, &per_file, only.as_deref())
                        .await
                }
            })
            .try_filter_map(|stream| std::future::ready(Ok(stream)))
            .try_flatten();
        crate::remote::query::windowed(batches, window)
    }

    /// The stream of file `i`'s rows of `selection` (of its row groups
    /// `only` lists, among those [`Dataset::keep_row_groups`] keeps);
    /// `None` for a file its partition values rule out (never opened) or
    /// with no row group left.
    async fn file_stream<'a, T: OwnedRow + 'a>(
        &self,
        i: usize,
        selection: &Selection,
        only: Option<&[usize]>,
    ) -> Result<Option<impl futures_util::Stream<Item = Result<Vec<T>>> + 'a>> {
        let file = &self.files[i];
        let Some(selection) = selection
            .for_partitions::<FilterOf<T>>(&file.partitions)
            .map_err(|e| in_file(e, file))?
        else {
            return Ok(None);
        };
        let remote = self.open_file(file).await?;
        let mut groups = self.row_groups_of(file, &remote);
        if let Some(only) = only {
            groups.retain(|g| only.contains(g));
        }
        if groups.is_empty() {
            return Ok(None);
        }
        let file = file.clone();
        Ok(Some(
            RemoteFile::stream_selection::<T>(Arc::new(remote), selection, &groups)
                .map(move |rows| rows.map_err(|e| in_file(e, &file))),
        ))
    }

    /// Opens `file`: one request for its footer.
    async fn open_file(&self, file: &DataFile) -> Result<RemoteFile> {
        let remote =
            RemoteFile::open_with(Arc::clone(&self.store), file.location.clone(), self.fetch)
                .await
                .map_err(|e| in_file(e, file))?;
        Ok(remote
            .with_options(self.options)
            .with_partitions(file.partitions.clone()))
    }

    /// The row groups of `file` that [`Dataset::keep_row_groups`] keeps.
    fn row_groups_of(&self, file: &DataFile, remote: &RemoteFile) -> Vec<usize> {
        let groups = remote.metadata().row_groups().iter().enumerate();
        match &self.keep {
            Some(keep) => groups
                .filter(|(_, g)| keep(file, g))
                .map(|(i, _)| i)
                .collect(),
            None => groups.map(|(i, _)| i).collect(),
        }
    }
}

/// The rows of `selection` in a file fetched for it, on this thread.
pub(crate) fn read_file<T: OwnedRow>(
    file: &crate::ParquetFile,
    selection: &Selection,
) -> Result<Vec<T>> {
    let binding = file.bind::<T>()?;
    file.read_selection(&binding, selection)
}

/// `location` relative to `prefix`, `/`-separated.
fn relative(prefix: &Path, location: &Path) -> String {
    match location.prefix_match(prefix) {
        Some(parts) => parts
            .map(|p| p.as_ref().to_owned())
            .collect::<Vec<_>>()
            .join("/"),
        None => location.as_ref().to_owned(),
    }
}

/// `e`, saying which file it happened in (for errors without a location in
/// the file, the file's path is the location that matters).
fn in_file(e: Error, file: &DataFile) -> Error {
    match e {
        Error::Io(io) => Error::Io(std::io::Error::new(
            io.kind(),
            format!("`{}`: {io}", file.location),
        )),
        Error::Value { location, message } => Error::Value {
            location,
            message: format!("in `{}`: {message}", file.location),
        },
        other => other,
    }
}
