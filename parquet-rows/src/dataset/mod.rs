//! Datasets of many files on an [`ObjectStore`] (feature `object_store`): a
//! prefix (a directory, for `LocalFileSystem`), narrowed by a glob, with
//! hive-style partition directories (`date=2026-01-02/symbol=EURUSD/`).
//!
//! Listing the prefix costs list requests only. A partition predicate
//! ([`Dataset::prune`]) drops files by their path, so they are never opened;
//! every other file is opened once (one request for its footer), and a
//! row-group predicate ([`Dataset::keep_row_groups`], given the footer's
//! statistics) decides which of its row groups are fetched: a file with
//! none left costs no further request. [`Dataset::read_where`] takes the
//! struct's typed filter instead, and fetches only the pages that may match.
//! Rows come in file order (files sorted by path), row groups in file order.
//!
//! ```
//! use std::sync::Arc;
//! use object_store::{memory::InMemory, path::Path, ObjectStore, ObjectStoreExt};
//! use parquet_rows::dataset::{partition_eq, Dataset};
//! use parquet_rows::ParquetRow;
//!
//! #[derive(ParquetRow)]
//! struct Tick {
//!     ts: i64,
//!     bid: f64,
//!     #[parquet(skip)]
//!     date: String, // from the `date=` directory
//! }
//! parquet_rows::partition_fields!(Tick { date });
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
//! let ticks: Vec<Tick> = dataset
//!     .prune(&partition_eq("date", "2026-01-03"))
//!     .read_partitioned()
//!     .await?;
//! assert_eq!(ticks.len(), 10);
//! assert_eq!(ticks[0].date, "2026-01-03");
//! # Ok::<_, Box<dyn std::error::Error>>(()) })?;
//! # Ok(()) }
//! ```

mod partition;
mod split;

use std::sync::Arc;

use futures_util::{StreamExt, TryStreamExt};
use object_store::path::Path;
use object_store::ObjectStore;
use parquet::file::metadata::RowGroupMetaData;

use crate::error::{Error, Location, Result};
use crate::filter::Query;
use crate::options::ReadOptions;
use crate::remote::{block_on, fetch::store_error, FetchOptions, RemoteFile};
use crate::row::{OwnedRow, ParquetRow};

pub use partition::{partition_eq, PartitionPredicate, Partitioned, Partitions};
pub use split::Split;

/// One file of a [`Dataset`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DataFile {
    /// Where the file is in the store.
    pub location: Path,
    /// Its length in bytes, as listed.
    pub size: u64,
    /// The values of its partition directories.
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

    /// Keeps the files whose partition values `predicate` may match: the
    /// others are never opened.
    #[must_use]
    pub fn prune(mut self, predicate: &impl PartitionPredicate) -> Self {
        self.files.retain(|f| predicate.may_match(&f.partitions));
        self
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

    /// Every row of every file into owned rows, in file order.
    pub async fn read<T: OwnedRow>(&self) -> Result<Vec<T>> {
        self.read_with(|_, _| Ok(())).await
    }

    /// Like [`Dataset::read`], with the partition fields of each row set
    /// from its file's path.
    pub async fn read_partitioned<T: OwnedRow + Partitioned>(&self) -> Result<Vec<T>> {
        self.read_with(|rows, file| T::set_partitions(rows, &file.partitions))
            .await
    }

    /// The owned rows matching `query` in every file, in file order: each
    /// file is read as [`RemoteFile::read_where`] reads it (row groups and
    /// pages that cannot match are never fetched), within the row groups
    /// [`Dataset::keep_row_groups`] keeps. The query's `offset` and `limit`
    /// apply to the dataset's matching rows, not to each file's.
    ///
    /// ```
    /// # use std::sync::Arc;
    /// # use object_store::{memory::InMemory, path::Path, ObjectStore, ObjectStoreExt};
    /// # use parquet_rows::dataset::Dataset;
    /// # use parquet_rows::{ParquetRow, RowFilter};
    /// #[derive(ParquetRow)]
    /// struct Quote { ts: i64, bid: f64 }
    ///
    /// # fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// # let bytes = parquet_rows::doc_support::tick_file(100)?;
    /// # let store: Arc<dyn ObjectStore> = Arc::new(InMemory::new());
    /// # tokio::runtime::Builder::new_current_thread().build()?.block_on(async {
    /// # for day in ["01", "02"] {
    /// #     store.put(&Path::from(format!("ticks/{day}.parquet")), bytes.clone().into()).await?;
    /// # }
    /// let dataset = Dataset::open(store, "ticks").await?;
    /// let t0 = 1_774_000_000_000_000; // the files' ticks are 137 µs apart from t0
    /// let quotes: Vec<Quote> = dataset
    ///     .read_where(Quote::filter().ts().lt(t0 + 10 * 137).limit(15))
    ///     .await?;
    /// assert_eq!(quotes.len(), 15); // 10 from the first file, 5 from the second
    /// # Ok::<_, Box<dyn std::error::Error>>(()) })?;
    /// # Ok(()) }
    /// ```
    pub async fn read_where<T: OwnedRow>(
        &self,
        query: impl Into<Query<<T as ParquetRow<'static>>::Filter>>,
    ) -> Result<Vec<T>> {
        let query = query.into();
        let (offset, limit) = (query.offset, query.limit);
        // Each file's matching rows, unwindowed: the window is the dataset's.
        let mut per_file = query;
        (per_file.offset, per_file.limit) = (0, None);
        let selection = per_file.clone().erase();
        let (per_file, selection) = (&per_file, &selection);
        let files: Vec<Vec<T>> = futures_util::stream::iter(&self.files)
            .map(|file| async move {
                let remote = self.open_file(file).await?;
                let groups = self.row_groups_of(file, &remote);
                if groups.is_empty() {
                    return Ok::<_, Error>(Vec::new());
                }
                remote
                    .fetch_selected::<T>(selection, Some(&groups))
                    .await?
                    .read_where::<T>(per_file.clone())
                    .map_err(|e| in_file(e, file))
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

    /// [`Dataset::read_where`], blocking.
    ///
    /// # Panics
    ///
    /// When called from inside a tokio runtime (use the async method there).
    pub fn read_where_blocking<T: OwnedRow>(
        &self,
        query: impl Into<Query<<T as ParquetRow<'static>>::Filter>>,
    ) -> Result<Vec<T>> {
        block_on(self.read_where::<T>(query))?
    }

    /// [`Dataset::read`], blocking.
    ///
    /// # Panics
    ///
    /// When called from inside a tokio runtime (use the async method there).
    pub fn read_blocking<T: OwnedRow>(&self) -> Result<Vec<T>> {
        block_on(self.read::<T>())?
    }

    /// [`Dataset::read_partitioned`], blocking.
    ///
    /// # Panics
    ///
    /// When called from inside a tokio runtime (use the async method there).
    pub fn read_partitioned_blocking<T: OwnedRow + Partitioned>(&self) -> Result<Vec<T>> {
        block_on(self.read_partitioned::<T>())?
    }

    /// Like [`Dataset::read_partitioned_blocking`], with decoding spread
    /// over rayon's pool (feature `rayon`): the files' chunks are fetched
    /// first (`files_at_once` files at a time, on a runtime of its own), then
    /// every file's row groups are decoded in parallel. The rows are the
    /// same, in the same order; memory holds every file's bound chunks at
    /// once.
    ///
    /// # Panics
    ///
    /// When called from inside a tokio runtime.
    #[cfg(feature = "rayon")]
    pub fn par_read_partitioned<T>(&self) -> Result<Vec<T>>
    where
        T: OwnedRow + Partitioned + Send,
    {
        use rayon::prelude::*;
        let fetched: Vec<(crate::ParquetFile, &DataFile)> = block_on(
            futures_util::stream::iter(&self.files)
                .map(|file| async move {
                    let remote = self.open_file(file).await?;
                    let groups = self.row_groups_of(file, &remote);
                    let fetched = remote.fetch_row_groups::<T>(&groups).await?;
                    Ok::<_, Error>((fetched, file))
                })
                .buffered(self.files_at_once)
                .try_collect(),
        )??;
        let per_file: Vec<Vec<T>> = fetched
            .par_iter()
            .map(|(fetched, file)| {
                let mut rows: Vec<T> = fetched.par_read().map_err(|e| in_file(e, file))?;
                T::set_partitions(&mut rows, &file.partitions).map_err(|e| in_file(e, file))?;
                Ok(rows)
            })
            .collect::<Result<_>>()?;
        Ok(per_file.into_iter().flatten().collect())
    }

    async fn read_with<T: OwnedRow>(
        &self,
        finish: impl Fn(&mut [T], &DataFile) -> Result<()>,
    ) -> Result<Vec<T>> {
        let finish = &finish;
        let per_file: Vec<Vec<T>> = futures_util::stream::iter(&self.files)
            .map(|file| async move {
                let remote = self.open_file(file).await?;
                let groups = self.row_groups_of(file, &remote);
                if groups.is_empty() {
                    return Ok::<_, Error>(Vec::new());
                }
                let mut rows: Vec<T> = remote
                    .fetch_row_groups::<T>(&groups)
                    .await?
                    .read()
                    .map_err(|e| in_file(e, file))?;
                finish(&mut rows, file).map_err(|e| in_file(e, file))?;
                Ok(rows)
            })
            .buffered(self.files_at_once)
            .try_collect()
            .await?;
        Ok(per_file.into_iter().flatten().collect())
    }

    /// Opens `file`: one request for its footer.
    async fn open_file(&self, file: &DataFile) -> Result<RemoteFile> {
        let remote =
            RemoteFile::open_with(Arc::clone(&self.store), file.location.clone(), self.fetch)
                .await
                .map_err(|e| in_file(e, file))?;
        Ok(remote.with_options(self.options))
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
