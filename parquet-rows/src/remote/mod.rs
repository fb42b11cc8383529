//! Files on an [`ObjectStore`] (feature `object_store`): S3, GCS, Azure, HTTP
//! or a local directory, read by byte range.
//!
//! Opening a [`RemoteFile`] costs one request: a suffix request for the last
//! 64 KiB (see [`FetchOptions::footer_guess`]), which brings the footer and
//! the object's length; a second request only when the footer is longer.
//! Reading a struct then fetches only the column chunks the struct binds, of
//! only the row groups asked for, coalesced into few ranges (see
//! [`FetchOptions`]) and fetched at most [`FetchOptions::concurrency`] at a time.
//! The fetched ranges become a [`ParquetFile`], read by the same code as a
//! local file: every check of the footer and the pages holds, and decoding
//! costs the same.
//!
//! ```
//! use std::sync::Arc;
//! use parquet_rows::remote::RemoteFile;
//! use parquet_rows::ParquetRow;
//! use object_store::{memory::InMemory, path::Path, ObjectStore, ObjectStoreExt};
//!
//! #[derive(ParquetRow)]
//! struct Tick<'a> { ts: i64, symbol: &'a str }
//!
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! # let bytes = parquet_rows::doc_support::tick_file(10)?;
//! let store: Arc<dyn ObjectStore> = Arc::new(InMemory::new());
//! let location = Path::from("ticks/2026-01-02.parquet");
//! # tokio::runtime::Builder::new_current_thread().build()?.block_on(async {
//! store.put(&location, bytes.into()).await?;
//!
//! let remote = RemoteFile::open(store, location).await?; // one request
//! let file = remote.fetch::<Tick>().await?; // the ts and symbol chunks
//! let pages = file.load::<Tick>()?;
//! let ticks: Vec<Tick<'_>> = pages.rows()?;
//! assert_eq!(ticks.len(), 10);
//! # Ok::<_, Box<dyn std::error::Error>>(()) })?;
//! # Ok(()) }
//! ```
//!
//! Filtered reads ([`RemoteFile::load_where`], [`RemoteFile::read_where`])
//! take the typed filters of [`crate::filter`] and fetch only the row
//! groups and pages that may match, in two more round trips at most.
//! [`RemoteFile::stream`] and [`RemoteFile::stream_where`] give owned rows
//! one row group at a time, with at most two row groups in memory.
//!
//! Every request after the open asks for the ETag the open saw (`If-Match`)
//! and checks the size, ETag and version the store returns: an object
//! rewritten after [`RemoteFile::open`] is an `Err` ("the object ... changed
//! since it was opened"), never the new object's rows. Ranges longer than
//! [`FetchOptions::max_request_bytes`] (8 MiB) are cut into requests of that
//! size, fetched concurrently. The page indexes and bloom filters inside the
//! bytes read at open are served from them, not fetched again.
//!
//! Every future is `Send` (it can be `tokio::spawn`ed). Each async method
//! has a blocking twin (`open_blocking`, `fetch_blocking`,
//! `fetch_row_groups_blocking`, `read_blocking`, `stream_blocking`, ...)
//! that runs it on a runtime of its own.

pub(crate) mod fetch;
pub(crate) mod plan;
mod query;

use std::future::Future;
use std::sync::Arc;

use object_store::path::Path;
use object_store::ObjectStore;
use parquet::file::metadata::ParquetMetaData;
use parquet::schema::types::SchemaDescriptor;

use crate::bind::bind;
use crate::chunk::{Fetched, Source};
use crate::error::{Error, Result};
use crate::file::ParquetFile;
use crate::filter::Query;
use crate::footer::{Footer, FOOTER_GUESS};
use crate::options::ReadOptions;
use crate::pages::Pages;
use crate::partition::Partitions;
use crate::row::{OwnedRow, ParquetRow};

/// How a [`RemoteFile`] fetches: request sizes, coalescing, concurrency.
///
/// ```
/// use parquet_rows::remote::FetchOptions;
///
/// let options = FetchOptions::default().concurrency(32).max_overfetch_percent(5);
/// assert_eq!(options.concurrency_limit(), 32);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FetchOptions {
    concurrency: usize,                // requests in flight at once, >= 1
    pub(crate) max_gap: u64,           // the largest gap crossed to merge two ranges
    pub(crate) overfetch_percent: u64, // bytes of gaps crossed, in % of the bytes needed
    footer_guess: u64,                 // bytes of the first (suffix) request
    max_request: u64,                  // the most bytes one request asks for, >= 1
}

impl Default for FetchOptions {
    /// 16 requests at once, gaps of up to 1 MiB crossed while they add at
    /// most 10% to the bytes fetched, a first request of 64 KiB, requests
    /// of at most 8 MiB.
    fn default() -> Self {
        FetchOptions {
            concurrency: 16,
            max_gap: 1 << 20,
            overfetch_percent: 10,
            footer_guess: FOOTER_GUESS,
            max_request: 8 << 20,
        }
    }
}

impl FetchOptions {
    /// At most `requests` range requests in flight at once (at least 1).
    #[must_use]
    pub fn concurrency(mut self, requests: usize) -> Self {
        self.concurrency = requests.max(1);
        self
    }

    /// Two ranges are fetched as one only across a gap of at most `bytes`.
    #[must_use]
    pub fn max_gap(mut self, bytes: u64) -> Self {
        self.max_gap = bytes;
        self
    }

    /// The gaps crossed to merge ranges add at most `percent` % to the bytes
    /// of the column chunks read (0: never fetch a byte not needed).
    #[must_use]
    pub fn max_overfetch_percent(mut self, percent: u64) -> Self {
        self.overfetch_percent = percent;
        self
    }

    /// The first request asks for the last `bytes` of the file: a footer
    /// that fits needs no second request.
    #[must_use]
    pub fn footer_guess(mut self, bytes: u64) -> Self {
        self.footer_guess = bytes.max(8);
        self
    }

    /// A range longer than `bytes` (at least 1) is fetched as several
    /// requests of at most `bytes`, in flight at once (within
    /// [`FetchOptions::concurrency`]): a large read is neither one unbounded
    /// response nor one stream's bandwidth. 8 MiB by default.
    ///
    /// ```
    /// use parquet_rows::remote::FetchOptions;
    ///
    /// let options = FetchOptions::default().max_request_bytes(4 << 20);
    /// assert_eq!(options.request_bytes_limit(), 4 << 20);
    /// ```
    #[must_use]
    pub fn max_request_bytes(mut self, bytes: u64) -> Self {
        self.max_request = bytes.max(1);
        self
    }

    /// See [`FetchOptions::max_request_bytes`].
    pub fn request_bytes_limit(&self) -> u64 {
        self.max_request
    }

    /// See [`FetchOptions::concurrency`].
    pub fn concurrency_limit(&self) -> usize {
        self.concurrency
    }
}

/// A Parquet file on an [`ObjectStore`] whose footer is read; see the
/// [module docs](self).
#[derive(Debug, Clone)]
pub struct RemoteFile {
    store: Arc<dyn ObjectStore>,
    object: fetch::Object, // location, size, ETag and version at open
    tail: bytes::Bytes,    // the last bytes of the object, read at open (the footer and before)
    footer: Footer,
    options: ReadOptions,
    fetch: FetchOptions,
    partitions: Arc<Partitions>, // what `#[parquet(partition)]` fields are filled from
}

impl RemoteFile {
    /// Reads the footer of `location` in one request (two for a footer
    /// longer than [`FetchOptions::footer_guess`]).
    pub async fn open(store: Arc<dyn ObjectStore>, location: Path) -> Result<Self> {
        Self::open_with(store, location, FetchOptions::default()).await
    }

    /// Like [`RemoteFile::open`], fetching as `fetch` says.
    pub async fn open_with(
        store: Arc<dyn ObjectStore>,
        location: Path,
        fetch: FetchOptions,
    ) -> Result<Self> {
        let (footer, object, tail) = fetch::footer(&*store, &location, fetch.footer_guess).await?;
        Ok(RemoteFile {
            store,
            object,
            tail,
            footer,
            options: ReadOptions::default(),
            fetch,
            partitions: Arc::default(),
        })
    }

    /// [`RemoteFile::open`], blocking.
    ///
    /// # Panics
    ///
    /// When called from inside a tokio runtime (use the async method there).
    pub fn open_blocking(store: Arc<dyn ObjectStore>, location: Path) -> Result<Self> {
        block_on(Self::open(store, location))?
    }

    /// [`RemoteFile::open_with`], blocking.
    ///
    /// # Panics
    ///
    /// When called from inside a tokio runtime (use the async method there).
    pub fn open_with_blocking(
        store: Arc<dyn ObjectStore>,
        location: Path,
        fetch: FetchOptions,
    ) -> Result<Self> {
        block_on(Self::open_with(store, location, fetch))?
    }

    /// Reads with the memory limits of `options` (also applied to the column
    /// chunks before they are fetched).
    #[must_use]
    pub fn with_options(mut self, options: ReadOptions) -> Self {
        self.options = options;
        self
    }

    /// Fetches as `fetch` says.
    #[must_use]
    pub fn with_fetch_options(mut self, fetch: FetchOptions) -> Self {
        self.fetch = fetch;
        self
    }

    /// Fills the `#[parquet(partition)]` fields of the rows read from this
    /// file from `partitions` (see [`ParquetFile::with_partitions`]); a
    /// query whose partition predicates rule them out fetches nothing.
    /// A [`Dataset`](crate::dataset::Dataset) gives each of its files the
    /// values of its path; a file opened on its own has none unless given:
    ///
    /// ```
    /// # use std::sync::Arc;
    /// # use parquet_rows::{remote::RemoteFile, Partitions};
    /// # fn open(remote: RemoteFile) -> RemoteFile {
    /// let partitions = Partitions::from_path(remote.location().as_ref());
    /// let remote = remote.with_partitions(partitions);
    /// # remote }
    /// ```
    #[must_use]
    pub fn with_partitions(mut self, partitions: Partitions) -> Self {
        self.partitions = Arc::new(partitions);
        self
    }

    /// Where the file is in its store.
    pub fn location(&self) -> &Path {
        &self.object.location
    }

    /// The file's length in bytes.
    pub fn len(&self) -> u64 {
        self.object.size
    }

    /// Whether the file has no bytes (never true of a file that opened).
    pub fn is_empty(&self) -> bool {
        self.object.size == 0
    }

    /// The object's ETag when it was opened, if the store gives one: every
    /// later request asks for it, and a changed object is an error.
    pub fn e_tag(&self) -> Option<&str> {
        self.object.e_tag.as_deref()
    }

    /// The object's version when it was opened, if the store gives one.
    pub fn version(&self) -> Option<&str> {
        self.object.version.as_deref()
    }

    /// The file's schema.
    pub fn schema(&self) -> &SchemaDescriptor {
        self.footer.metadata().file_metadata().schema_descr()
    }

    /// The footer: row groups, their statistics, column chunks' ranges.
    pub fn metadata(&self) -> &ParquetMetaData {
        self.footer.metadata()
    }

    /// Number of row groups.
    pub fn num_row_groups(&self) -> usize {
        self.footer.num_row_groups()
    }

    /// Fetches the column chunks `T` binds, of every row group, and returns
    /// them as a [`ParquetFile`] to load or read `T` from.
    pub async fn fetch<'p, T: ParquetRow<'p>>(&self) -> Result<ParquetFile> {
        let all: Vec<usize> = (0..self.num_row_groups()).collect();
        self.fetch_row_groups::<T>(&all).await
    }

    /// Fetches the column chunks `T` binds of the row groups `row_groups`
    /// (a split's, or those a predicate kept), in that order: the returned
    /// [`ParquetFile`] reads only those row groups, in that order, named by
    /// their index in the file (as errors name them), and holds their
    /// chunks in memory.
    pub async fn fetch_row_groups<'p, T: ParquetRow<'p>>(
        &self,
        row_groups: &[usize],
    ) -> Result<ParquetFile> {
        let binding = bind(T::STRUCT_NAME, &T::fields(), self.schema())?;
        let meta = self.footer.metadata();
        let chunks =
            plan::chunk_ranges(meta, row_groups, &binding.leaves, self.len(), &self.options)?;
        let fetched = self.fetch_ranges(chunks).await?;
        Ok(self.file_of(row_groups, fetched))
    }

    /// [`RemoteFile::fetch_row_groups`], blocking.
    ///
    /// # Panics
    ///
    /// When called from inside a tokio runtime (use the async method there).
    pub fn fetch_row_groups_blocking<'p, T: ParquetRow<'p>>(
        &self,
        row_groups: &[usize],
    ) -> Result<ParquetFile> {
        block_on(self.fetch_row_groups::<T>(row_groups))?
    }

    /// [`RemoteFile::fetch`], blocking.
    ///
    /// # Panics
    ///
    /// When called from inside a tokio runtime (use the async method there).
    pub fn fetch_blocking<'p, T: ParquetRow<'p>>(&self) -> Result<ParquetFile> {
        block_on(self.fetch::<T>())?
    }

    /// Fetches the column chunks `T` binds and decodes every row.
    pub async fn read<T: OwnedRow>(&self) -> Result<Vec<T>> {
        self.fetch::<T>().await?.rows::<T>().collect()
    }

    /// [`RemoteFile::read`], blocking.
    ///
    /// # Panics
    ///
    /// When called from inside a tokio runtime (use the async method there).
    pub fn read_blocking<T: OwnedRow>(&self) -> Result<Vec<T>> {
        block_on(self.read::<T>())?
    }

    /// The pages of the rows of `T` matching `query`, like
    /// a filtered `load` of a local file ([`ParquetFile::rows`]): [`Pages::rows`] returns
    /// exactly the matching rows.
    ///
    /// Fetches in two round trips: first what proves row groups and pages
    /// unable to match (the dictionary pages and bloom filters of `eq`
    /// predicates' columns, the page indexes) for the row groups the
    /// footer's statistics keep, then only the pages that may match. Row
    /// groups and pages ruled out are never fetched.
    ///
    /// ```
    /// # use std::sync::Arc;
    /// # use parquet_rows::remote::RemoteFile;
    /// # use parquet_rows::{ParquetRow, RowFilter};
    /// # use object_store::{memory::InMemory, path::Path, ObjectStore, ObjectStoreExt};
    /// #[derive(ParquetRow)]
    /// struct Tick<'a> { ts: i64, symbol: &'a str }
    ///
    /// # fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// # let bytes = parquet_rows::doc_support::tick_file(100)?;
    /// # let store: Arc<dyn ObjectStore> = Arc::new(InMemory::new());
    /// # let location = Path::from("ticks.parquet");
    /// # tokio::runtime::Builder::new_current_thread().build()?.block_on(async {
    /// # store.put(&location, bytes.into()).await?;
    /// let remote = RemoteFile::open(store, location).await?;
    /// let t0 = 1_774_000_000_000_000; // the file's ticks are 137 µs apart from t0
    /// let query = Tick::filter().ts().in_range(t0 + 20 * 137..t0 + 30 * 137);
    /// let pages = remote.load_where::<Tick>(query).await?;
    /// let ticks: Vec<Tick<'_>> = pages.rows()?;
    /// assert_eq!(ticks.len(), 10);
    /// # Ok::<_, Box<dyn std::error::Error>>(()) })?;
    /// # Ok(()) }
    /// ```
    pub async fn load_where<'p, T: ParquetRow<'p>>(
        &self,
        query: impl Into<Query<T::Filter>>,
    ) -> Result<Pages> {
        self.rows::<T>().filter(query).load().await
    }

    /// [`RemoteFile::load_where`], blocking.
    ///
    /// # Panics
    ///
    /// When called from inside a tokio runtime (use the async method there).
    pub fn load_where_blocking<'p, T: ParquetRow<'p>>(
        &self,
        query: impl Into<Query<T::Filter>>,
    ) -> Result<Pages> {
        block_on(self.load_where::<T>(query))?
    }

    /// The owned rows matching `query`, in file order, fetching only what
    /// [`RemoteFile::load_where`] fetches.
    pub async fn read_where<T: OwnedRow>(
        &self,
        query: impl Into<Query<<T as ParquetRow<'static>>::Filter>>,
    ) -> Result<Vec<T>> {
        self.rows::<T>().filter(query).collect().await
    }

    /// [`RemoteFile::read_where`], blocking.
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

    /// A [`ParquetFile`] over the fetched ranges that reads the row groups
    /// `row_groups`, in that order, each named by its index in the footer
    /// (errors name the file's row group, not a renumbered one).
    fn file_of(&self, row_groups: &[usize], fetched: Vec<(u64, bytes::Bytes)>) -> ParquetFile {
        let all = row_groups.len() == self.num_row_groups()
            && row_groups.iter().enumerate().all(|(i, &g)| i == g);
        let source = Source::Fetched(Arc::new(Fetched { ranges: fetched }));
        ParquetFile::from_parts(self.footer.clone(), source, self.len())
            .with_options(self.options)
            .with_partitions((*self.partitions).clone())
            .with_groups((!all).then(|| row_groups.to_vec()))
    }
}

/// Runs `future` to completion on a current-thread runtime of its own.
pub(crate) fn block_on<F: Future>(future: F) -> Result<F::Output> {
    Ok(runtime()?.block_on(future))
}

fn runtime() -> Result<tokio::runtime::Runtime> {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| Error::Io(std::io::Error::other(format!("a tokio runtime: {e}"))))
}

/// A stream's items, each awaited on a current-thread runtime of the
/// iterator's own: the blocking twin of a stream.
pub(crate) struct Blocking<S> {
    runtime: tokio::runtime::Runtime,
    stream: std::pin::Pin<Box<S>>,
}

impl<S: futures_util::Stream> Blocking<S> {
    pub(crate) fn new(stream: S) -> Result<Self> {
        Ok(Blocking {
            runtime: runtime()?,
            stream: Box::pin(stream),
        })
    }
}

impl<S: futures_util::Stream> Iterator for Blocking<S> {
    type Item = S::Item;

    fn next(&mut self) -> Option<S::Item> {
        use futures_util::StreamExt;
        self.runtime.block_on(self.stream.next())
    }
}
