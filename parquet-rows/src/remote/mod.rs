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
//! Every read starts from the builder, [`RemoteFile::rows`]: a filter,
//! a window and row groups narrow what is fetched (only the row groups and
//! pages that may hold rows of the read), and the read ends in owned rows
//! (`collect`), borrowed pages (`load`), a stream of rows (`stream`) or of
//! row groups (`batches`), each async with a `_blocking` twin.
//!
//! | read | round trips (the footer's included) |
//! |---|---|
//! | open | 1 (2 for a footer longer than [`FetchOptions::footer_guess`]) |
//! | `collect`, `load` without a filter | 1 more: every chunk read, in one wave |
//! | with a filter | 1 more when the page indexes are in the bytes read at open and no dictionary or bloom filter is probed; 2 otherwise (the probes, then the pages) |
//! | `stream`, `batches` | per row group, the same, two row groups in flight |
//!
//! The file is read through an [`AsyncReadAt`]: [`RemoteFile::open`] makes an
//! [`ObjectStoreSource`], [`RemoteFile::from_source`] takes any other (your
//! own HTTP client, a cache). The object-store source asks every request
//! after the open for the ETag the open saw (`If-Match`) and checks the
//! size, ETag and version the store returns: an object rewritten after
//! [`RemoteFile::open`] is an `Err` ("the object ... changed since it was
//! opened"), never the new object's rows. Ranges longer than
//! [`FetchOptions::max_request_bytes`] (8 MiB) are cut into requests of that
//! size, fetched concurrently. The page indexes and bloom filters inside the
//! bytes read at open are served from them, not fetched again.
//!
//! Every future is `Send` (it can be `tokio::spawn`ed). Each async method
//! has a blocking twin (`open_blocking`, `fetch_blocking`,
//! `fetch_row_groups_blocking`, `collect_blocking`, `stream_blocking`, ...)
//! that runs it on a runtime of its own.

pub(crate) mod fetch;
pub(crate) mod plan;
pub(crate) mod query;

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
use crate::footer::{Footer, FOOTER_GUESS};
use crate::options::ReadOptions;
use crate::partition::Partitions;
use crate::row::ParquetRow;
use crate::source::AsyncReadAt;

pub use fetch::ObjectStoreSource;

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
    /// 32 requests at once, gaps of up to 1 MiB crossed while they add at
    /// most 10% to the bytes fetched, a first request of 64 KiB, requests
    /// of at most 8 MiB.
    fn default() -> Self {
        FetchOptions {
            concurrency: 32,
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

/// A Parquet file on an [`ObjectStore`] (or any [`AsyncReadAt`]) whose
/// footer is read; see the [module docs](self).
#[derive(Clone)]
pub struct RemoteFile {
    source: Arc<dyn AsyncReadAt>,
    object: Option<fetch::Object>, // an object store's location, size, ETag and version at open
    tail: bytes::Bytes, // the last bytes of the file, read at open (the footer and before)
    footer: Footer,
    options: ReadOptions,
    fetch: FetchOptions,
    partitions: Arc<Partitions>, // what `#[parquet(partition)]` fields are filled from
}

impl std::fmt::Debug for RemoteFile {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RemoteFile")
            .field("object", &self.object)
            .field("len", &self.len())
            .field("row_groups", &self.num_row_groups())
            .field("options", &self.options)
            .field("fetch", &self.fetch)
            .finish_non_exhaustive()
    }
}

impl RemoteFile {
    /// Reads the footer of `location` in one request (two for a footer
    /// longer than [`FetchOptions::footer_guess`]), through an
    /// [`ObjectStoreSource`].
    pub async fn open(store: Arc<dyn ObjectStore>, location: Path) -> Result<Self> {
        Self::open_with(store, location, FetchOptions::default()).await
    }

    /// Like [`RemoteFile::open`], fetching as `fetch` says.
    pub async fn open_with(
        store: Arc<dyn ObjectStore>,
        location: Path,
        fetch: FetchOptions,
    ) -> Result<Self> {
        let source = ObjectStoreSource::open(store, location, fetch).await?;
        let object = source.object().clone();
        let mut file = Self::from_source_with(Arc::new(source), fetch).await?;
        file.object = Some(object);
        Ok(file)
    }

    /// Reads the footer of the file `source` serves (its last
    /// [`FetchOptions::footer_guess`] bytes, and more for a longer footer):
    /// a file on any storage, read with the requests of your own client.
    ///
    /// ```
    /// # use std::ops::Range;
    /// # use std::sync::Arc;
    /// # use bytes::Bytes;
    /// use parquet_rows::remote::RemoteFile;
    /// use parquet_rows::source::{AsyncReadAt, ReadFuture};
    /// # use parquet_rows::ParquetRow;
    ///
    /// /// A client of some storage service (here: bytes in memory).
    /// struct Client { file: Bytes }
    ///
    /// impl AsyncReadAt for Client {
    ///     fn read_at(&self, range: Range<u64>) -> ReadFuture<'_> {
    ///         let file = self.file.clone();
    ///         Box::pin(async move { Ok(file.slice(range.start as usize..range.end as usize)) })
    ///     }
    ///     fn len(&self) -> u64 {
    ///         self.file.len() as u64
    ///     }
    /// }
    ///
    /// #[derive(ParquetRow)]
    /// struct Tick { ts: i64, bid: f64 }
    ///
    /// # fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// # let file = parquet_rows::doc_support::tick_file(10)?;
    /// # tokio::runtime::Builder::new_current_thread().build()?.block_on(async {
    /// let remote = RemoteFile::from_source(Arc::new(Client { file })).await?;
    /// let ticks: Vec<Tick> = remote.rows::<Tick>().collect().await?;
    /// assert_eq!(ticks.len(), 10);
    /// # Ok::<_, Box<dyn std::error::Error>>(()) })?;
    /// # Ok(()) }
    /// ```
    pub async fn from_source(source: Arc<dyn AsyncReadAt>) -> Result<Self> {
        Self::from_source_with(source, FetchOptions::default()).await
    }

    /// Like [`RemoteFile::from_source`], fetching as `fetch` says.
    pub async fn from_source_with(
        source: Arc<dyn AsyncReadAt>,
        fetch: FetchOptions,
    ) -> Result<Self> {
        let (footer, tail) = fetch::footer(&*source, fetch.footer_guess).await?;
        Ok(RemoteFile {
            source,
            object: None,
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
    /// let partitions = Partitions::from_path(remote.location().map_or("", |l| l.as_ref()));
    /// let remote = remote.with_partitions(partitions);
    /// # remote }
    /// ```
    #[must_use]
    pub fn with_partitions(mut self, partitions: Partitions) -> Self {
        self.partitions = Arc::new(partitions);
        self
    }

    /// Where the file is in its store (`None` for a file opened
    /// [`RemoteFile::from_source`]).
    pub fn location(&self) -> Option<&Path> {
        self.object.as_ref().map(|o| &o.location)
    }

    /// The file's length in bytes.
    pub fn len(&self) -> u64 {
        self.source.len()
    }

    /// Whether the file has no bytes (never true of a file that opened).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The object's ETag when it was opened, if the store gives one: every
    /// later request asks for it, and a changed object is an error.
    pub fn e_tag(&self) -> Option<&str> {
        self.object.as_ref()?.e_tag.as_deref()
    }

    /// The object's version when it was opened, if the store gives one.
    pub fn version(&self) -> Option<&str> {
        self.object.as_ref()?.version.as_deref()
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
