//! The endings of a read of a [`RemoteFile`] (feature `object_store`):
//! the planner runs on the footer to fetch what the read needs (probes,
//! then pages; `RemoteFile::fetch_selected`), and the local ending of the
//! same builder runs on the fetched file, which plans the same read again
//! from the fetched bytes.

use futures_util::Stream;

#[cfg(feature = "rayon")]
use super::Parallel;
use super::{RowsBuilder, Serial};
use crate::error::{Error, Location, Result};
use crate::file::ParquetFile;
use crate::pages::Pages;
use crate::remote::{block_on, Blocking, RemoteFile};
use crate::row::{OwnedRow, ParquetRow};

impl RemoteFile {
    /// A read of the rows of `T`, to narrow (filter, window, row groups)
    /// and end in owned rows, borrowed [`Pages`] or a stream, each async
    /// with a `_blocking` twin; see [`RowsBuilder`].
    ///
    /// ```
    /// # use std::sync::Arc;
    /// # use parquet_rows::remote::RemoteFile;
    /// # use parquet_rows::ParquetRow;
    /// # use object_store::{memory::InMemory, path::Path, ObjectStore, ObjectStoreExt};
    /// #[derive(ParquetRow)]
    /// struct Quote { ts: i64, symbol: String }
    ///
    /// # fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// # let bytes = parquet_rows::doc_support::tick_file(100)?;
    /// # let store: Arc<dyn ObjectStore> = Arc::new(InMemory::new());
    /// # let location = Path::from("ticks.parquet");
    /// # tokio::runtime::Builder::new_current_thread().build()?.block_on(store.put(&location, bytes.into()))?;
    /// let remote = RemoteFile::open_blocking(store, location)?;
    /// let quotes: Vec<Quote> = remote
    ///     .rows::<Quote>()
    ///     .filter(Quote::filter().symbol().eq("EURUSD"))
    ///     .limit(3)
    ///     .collect_blocking()?;
    /// assert_eq!(quotes.len(), 3);
    /// # Ok(()) }
    /// ```
    pub fn rows<T>(&self) -> RowsBuilder<'_, RemoteFile, T> {
        RowsBuilder::new(self)
    }
}

impl<'r, T, M: 'static> RowsBuilder<'r, RemoteFile, T, M> {
    /// The remote file with the builder's options.
    fn remote(&self) -> RemoteFile {
        match self.spec.options {
            Some(options) => self.source.clone().with_options(options),
            None => self.source.clone(),
        }
    }

    /// The row groups asked for, checked against the footer, in file
    /// order; `None` for every one.
    fn groups(&self) -> Result<Option<Vec<usize>>> {
        let Some(asked) = &self.spec.row_groups else {
            return Ok(None);
        };
        let n = self.source.num_row_groups();
        if let Some(g) = asked.iter().find(|&&g| g >= n) {
            return Err(Error::Unsupported {
                location: Location::default(),
                message: format!("row group {g} does not exist; the file has {n}"),
            });
        }
        Ok(Some((0..n).filter(|g| asked.contains(g)).collect()))
    }

    /// Fetches what the read needs: the row groups asked for (and of
    /// those, for a filter or a window, only the pages that may hold rows
    /// of the read). The local read of the returned file, with the
    /// builder's selection, reads the rows of the read.
    async fn fetch<'p>(&self) -> Result<ParquetFile>
    where
        T: ParquetRow<'p>,
    {
        let remote = self.remote();
        let groups = self.groups()?;
        if self.spec.everything() {
            let all: Vec<usize>;
            let groups = match &groups {
                Some(groups) => groups,
                None => {
                    all = (0..remote.num_row_groups()).collect();
                    &all
                }
            };
            return remote.fetch_row_groups::<T>(groups).await;
        }
        remote
            .fetch_selected::<T>(&self.spec.selection(), groups.as_deref())
            .await
    }

    /// The same read of the fetched file `file` (which reads only the
    /// row groups fetched, with the builder's options).
    fn local<'f>(&self, file: &'f ParquetFile) -> RowsBuilder<'f, ParquetFile, T, M> {
        let mut spec = self.spec.clone();
        (spec.row_groups, spec.options) = (None, None);
        RowsBuilder {
            source: file,
            spec,
            row: std::marker::PhantomData,
        }
    }

    /// Fetches the pages of the rows read, for rows that borrow them
    /// (`pages.rows::<T>()`): in two round trips after the footer for a
    /// filter (the probes, then the pages that may match), one otherwise.
    pub async fn load<'p>(self) -> Result<Pages>
    where
        T: ParquetRow<'p>,
    {
        let file = self.fetch().await?;
        self.local(&file).load()
    }

    /// [`RowsBuilder::load`] of a remote file, blocking.
    ///
    /// # Panics
    ///
    /// When called from inside a tokio runtime (use the async method there).
    pub fn load_blocking<'p>(self) -> Result<Pages>
    where
        T: ParquetRow<'p>,
    {
        block_on(self.load())?
    }

    /// The rows read, one `Vec` per row group that holds any, in file
    /// order: a row group is fetched (only the pages that may hold rows
    /// of the read) while the one before it is decoded, so at most two
    /// are in memory. The stream ends once the limit is reached.
    pub fn batches(self) -> impl Stream<Item = Result<Vec<T>>> + 'r
    where
        T: OwnedRow + 'r,
    {
        let (remote, groups) = (self.remote(), self.groups());
        let selection = self.spec.selection();
        async_stream(remote, groups, selection)
    }

    /// [`RowsBuilder::batches`] of a remote file, blocking: an iterator
    /// that fetches each row group on a runtime of its own.
    ///
    /// # Panics
    ///
    /// When iterated from inside a tokio runtime (use the async method there).
    pub fn batches_blocking(self) -> Result<impl Iterator<Item = Result<Vec<T>>> + 'r>
    where
        T: OwnedRow + 'r,
    {
        Blocking::new(self.batches())
    }

    /// The rows read, one by one, in file order: the rows of
    /// [`RowsBuilder::batches`] (a row group fetched while the one before
    /// is handed out; at most two in memory). An error ends the stream.
    ///
    /// ```
    /// # use std::sync::Arc;
    /// # use futures_util::TryStreamExt;
    /// # use parquet_rows::remote::RemoteFile;
    /// # use parquet_rows::ParquetRow;
    /// # use object_store::{memory::InMemory, path::Path, ObjectStore, ObjectStoreExt};
    /// #[derive(ParquetRow)]
    /// struct Quote { ts: i64, symbol: String }
    ///
    /// # fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// # let bytes = parquet_rows::doc_support::tick_file(100)?;
    /// # let store: Arc<dyn ObjectStore> = Arc::new(InMemory::new());
    /// # let location = Path::from("ticks.parquet");
    /// # tokio::runtime::Builder::new_current_thread().build()?.block_on(async {
    /// # store.put(&location, bytes.into()).await?;
    /// let remote = RemoteFile::open(store, location).await?;
    /// let mut quotes = std::pin::pin!(remote.rows::<Quote>().offset(90).stream());
    /// let mut n = 0;
    /// while let Some(quote) = quotes.try_next().await? {
    ///     n += 1;
    /// }
    /// assert_eq!(n, 10);
    /// # Ok::<_, Box<dyn std::error::Error>>(()) })?;
    /// # Ok(()) }
    /// ```
    pub fn stream(self) -> impl Stream<Item = Result<T>> + 'r
    where
        T: OwnedRow + 'r,
    {
        rows_of(self.batches())
    }

    /// [`RowsBuilder::stream`] of a remote file, blocking: an iterator of
    /// rows that fetches each row group on a runtime of its own.
    ///
    /// # Panics
    ///
    /// When iterated from inside a tokio runtime (use the async method there).
    pub fn stream_blocking(self) -> Result<impl Iterator<Item = Result<T>> + 'r>
    where
        T: OwnedRow + 'r,
    {
        Blocking::new(self.stream())
    }
}

/// The rows of a stream of batches, one by one; an error ends the stream.
fn rows_of<'r, T: 'r>(
    batches: impl Stream<Item = Result<Vec<T>>> + 'r,
) -> impl Stream<Item = Result<T>> + 'r {
    use futures_util::{StreamExt, TryStreamExt};
    batches
        .map_ok(|rows| futures_util::stream::iter(rows.into_iter().map(Ok)))
        .try_flatten()
        .scan(false, |failed, item: Result<T>| {
            if *failed {
                return std::future::ready(None);
            }
            *failed = item.is_err();
            std::future::ready(Some(item))
        })
}

/// The stream of `RowsBuilder::batches`: a stream that owns its remote
/// file (a builder's narrowing of the caller's).
fn async_stream<'r, T: OwnedRow + 'r>(
    remote: RemoteFile,
    groups: Result<Option<Vec<usize>>>,
    selection: crate::filter::Selection,
) -> impl Stream<Item = Result<Vec<T>>> + 'r {
    use futures_util::StreamExt;
    let remote = std::sync::Arc::new(remote);
    futures_util::stream::once(async move {
        let groups = groups?;
        let groups = groups.unwrap_or_else(|| (0..remote.num_row_groups()).collect());
        Ok::<_, Error>(RemoteFile::stream_selection::<T>(
            remote, selection, &groups,
        ))
    })
    .flat_map(|stream| match stream {
        Ok(stream) => stream.left_stream(),
        Err(e) => futures_util::stream::once(std::future::ready(Err(e))).right_stream(),
    })
}

impl<T: OwnedRow> RowsBuilder<'_, RemoteFile, T, Serial> {
    /// The rows read, owned, in file order: fetched as
    /// [`RowsBuilder::load`] fetches them, decoded on this thread.
    pub async fn collect(self) -> Result<Vec<T>> {
        let file = self.fetch().await?;
        self.local(&file).collect()
    }

    /// [`RowsBuilder::collect`] of a remote file, blocking.
    ///
    /// # Panics
    ///
    /// When called from inside a tokio runtime (use the async method there).
    pub fn collect_blocking(self) -> Result<Vec<T>> {
        block_on(self.collect())?
    }
}

#[cfg(feature = "rayon")]
impl<T: OwnedRow + Send> RowsBuilder<'_, RemoteFile, T, Parallel> {
    /// The rows read, owned, in file order: fetched as
    /// [`RowsBuilder::load`] fetches them, then decoded on the builder's
    /// threads (the calling task waits for them).
    pub async fn collect(self) -> Result<Vec<T>> {
        let file = self.fetch().await?;
        self.local(&file).collect()
    }

    /// [`RowsBuilder::collect`] of a remote file on several threads,
    /// blocking.
    ///
    /// # Panics
    ///
    /// When called from inside a tokio runtime (use the async method there).
    pub fn collect_blocking(self) -> Result<Vec<T>> {
        block_on(self.collect())?
    }
}

impl crate::dataset::Dataset {
    /// A read of the rows of `T` in every file, to narrow (filter,
    /// window, row groups of each file) and end in owned rows (async, with
    /// a `_blocking` twin); see [`RowsBuilder`]. The window is the
    /// dataset's (its rows in file order); `row_groups` keeps, in each
    /// file, the row groups of those indexes.
    ///
    /// ```
    /// # use std::sync::Arc;
    /// # use object_store::{memory::InMemory, path::Path, ObjectStore, ObjectStoreExt};
    /// # use parquet_rows::dataset::Dataset;
    /// # use parquet_rows::ParquetRow;
    /// #[derive(ParquetRow)]
    /// struct Quote { ts: i64, bid: f64 }
    ///
    /// # fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// # let bytes = parquet_rows::doc_support::tick_file(100)?;
    /// # let store: Arc<dyn ObjectStore> = Arc::new(InMemory::new());
    /// # let rt = tokio::runtime::Builder::new_current_thread().build()?;
    /// # for day in ["01", "02"] {
    /// #     rt.block_on(store.put(&Path::from(format!("ticks/{day}.parquet")), bytes.clone().into()))?;
    /// # }
    /// let dataset = Dataset::open_blocking(store, "ticks")?;
    /// let quotes: Vec<Quote> = dataset.rows::<Quote>().offset(95).limit(10).collect_blocking()?;
    /// assert_eq!(quotes.len(), 10); // 5 from the first file, 5 from the second
    /// # Ok(()) }
    /// ```
    pub fn rows<T>(&self) -> RowsBuilder<'_, crate::dataset::Dataset, T> {
        RowsBuilder::new(self)
    }
}

impl<T, M: 'static> RowsBuilder<'_, crate::dataset::Dataset, T, M> {
    /// The dataset with the builder's options.
    fn dataset(&self) -> crate::dataset::Dataset {
        match self.spec.options {
            Some(options) => self.source.clone().with_options(options),
            None => self.source.clone(),
        }
    }
}

impl<'d, T, M: 'static> RowsBuilder<'d, crate::dataset::Dataset, T, M> {
    /// The rows read, one `Vec` per row group that holds any, every
    /// file's in file order: a file is opened when the stream reaches it
    /// (files its partition values rule out never are), and streamed as a
    /// remote file's `batches` (two row groups in flight). The window is the
    /// dataset's; the stream ends, opening no further file, at its limit.
    ///
    /// ```
    /// # use std::sync::Arc;
    /// # use futures_util::TryStreamExt;
    /// # use object_store::{memory::InMemory, path::Path, ObjectStore, ObjectStoreExt};
    /// # use parquet_rows::dataset::Dataset;
    /// # use parquet_rows::ParquetRow;
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
    /// let groups: Vec<Vec<Quote>> = dataset.rows::<Quote>().offset(95).batches().try_collect().await?;
    /// assert_eq!(groups.iter().map(Vec::len).collect::<Vec<_>>(), [5, 100]);
    /// # Ok::<_, Box<dyn std::error::Error>>(()) })?;
    /// # Ok(()) }
    /// ```
    pub fn batches(self) -> impl Stream<Item = Result<Vec<T>>> + 'd
    where
        T: OwnedRow + 'd,
    {
        let only = self.spec.row_groups.clone();
        self.dataset()
            .stream_selection::<T>(self.spec.selection(), only)
    }

    /// [`RowsBuilder::batches`] of a dataset, blocking.
    ///
    /// # Panics
    ///
    /// When iterated from inside a tokio runtime (use the async method there).
    pub fn batches_blocking(self) -> Result<impl Iterator<Item = Result<Vec<T>>> + 'd>
    where
        T: OwnedRow + 'd,
    {
        Blocking::new(self.batches())
    }

    /// The rows of [`RowsBuilder::batches`] of a dataset, one by one.
    pub fn stream(self) -> impl Stream<Item = Result<T>> + 'd
    where
        T: OwnedRow + 'd,
    {
        rows_of(self.batches())
    }

    /// [`RowsBuilder::stream`] of a dataset, blocking.
    ///
    /// # Panics
    ///
    /// When iterated from inside a tokio runtime (use the async method there).
    pub fn stream_blocking(self) -> Result<impl Iterator<Item = Result<T>> + 'd>
    where
        T: OwnedRow + 'd,
    {
        Blocking::new(self.stream())
    }
}

impl<T: OwnedRow> RowsBuilder<'_, crate::dataset::Dataset, T, Serial> {
    /// The rows read, owned: every file's, in file order.
    pub async fn collect(self) -> Result<Vec<T>> {
        let only = self.spec.row_groups.as_deref();
        self.dataset()
            .read_selection(self.spec.selection(), only, crate::dataset::read_file::<T>)
            .await
    }

    /// [`RowsBuilder::collect`] of a dataset, blocking.
    ///
    /// # Panics
    ///
    /// When called from inside a tokio runtime (use the async method there).
    pub fn collect_blocking(self) -> Result<Vec<T>> {
        block_on(self.collect())?
    }
}

#[cfg(feature = "rayon")]
impl<T: OwnedRow + Send> RowsBuilder<'_, crate::dataset::Dataset, T, Parallel> {
    /// The rows read, owned, every file's in file order: each file's
    /// fetched row groups decoded on the builder's threads.
    pub async fn collect(self) -> Result<Vec<T>> {
        let only = self.spec.row_groups.as_deref();
        let threads = self.spec.threads;
        let dataset = self.dataset();
        if threads == 1 {
            return dataset
                .read_selection(self.spec.selection(), only, crate::dataset::read_file::<T>)
                .await;
        }
        // A fn pointer carries no thread count: the pool is entered here,
        // and each file decodes on the pool it runs in.
        let decode: fn(&ParquetFile, &crate::filter::Selection) -> Result<Vec<T>> =
            |file, selection| {
                let binding = file.bind::<T>()?;
                file.par_read_selection(&binding, selection)
            };
        let read = dataset.read_selection(self.spec.selection(), only, decode);
        if threads == 0 || threads == rayon::current_num_threads() {
            return read.await;
        }
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .map_err(|e| {
                Error::Io(std::io::Error::other(format!(
                    "a pool of {threads} threads: {e}"
                )))
            })?;
        pool.install(|| block_on(read))?
    }

    /// [`RowsBuilder::collect`] of a dataset on several threads, blocking.
    ///
    /// # Panics
    ///
    /// When called from inside a tokio runtime (use the async method there).
    pub fn collect_blocking(self) -> Result<Vec<T>> {
        block_on(self.collect())?
    }
}

impl crate::dataset::SplitFile {
    /// A read of the split's rows of `T`: its file (opened when the read
    /// ends, checked against the split's length and ETag) and its row
    /// groups, to narrow (filter, window, row groups among the split's)
    /// and end as a [`RemoteFile`]'s read ends; see [`RowsBuilder`].
    ///
    /// ```
    /// # use std::sync::Arc;
    /// # use object_store::{memory::InMemory, path::Path, ObjectStore, ObjectStoreExt};
    /// # use parquet_rows::dataset::Dataset;
    /// # use parquet_rows::ParquetRow;
    /// #[derive(ParquetRow)]
    /// struct Quote { ts: i64, bid: f64 }
    ///
    /// # fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// # let bytes = parquet_rows::doc_support::tick_file(100)?;
    /// # let store: Arc<dyn ObjectStore> = Arc::new(InMemory::new());
    /// # tokio::runtime::Builder::new_current_thread().build()?
    /// #     .block_on(store.put(&Path::from("ticks/01.parquet"), bytes.into()))?;
    /// let dataset = Dataset::open_blocking(Arc::clone(&store), "ticks")?;
    /// let splits = dataset.splits_blocking::<Quote>(64 << 20)?;
    /// // On a worker, with its own handle to the store:
    /// let quotes: Vec<Quote> = splits[0].with_store(store).rows::<Quote>().limit(5).collect_blocking()?;
    /// assert_eq!(quotes.len(), 5);
    /// # Ok(()) }
    /// ```
    pub fn rows<T>(&self) -> RowsBuilder<'_, crate::dataset::SplitFile, T> {
        RowsBuilder::new(self)
    }
}

impl<'s, T, M: 'static> RowsBuilder<'s, crate::dataset::SplitFile, T, M> {
    /// The split's file, opened and checked against the split.
    async fn open(&self) -> Result<RemoteFile> {
        let split = &self.source.split;
        split
            .open_file(std::sync::Arc::clone(&self.source.store))
            .await
    }

    /// The same read of the split's file `remote`: the builder's row
    /// groups (each one of the split's), or the split's.
    fn on<'f>(&self, remote: &'f RemoteFile) -> Result<RowsBuilder<'f, RemoteFile, T, M>> {
        on_split(&self.source.split, &self.spec, remote)
    }

    /// [`RowsBuilder::load`] of the split's rows.
    pub async fn load<'p>(self) -> Result<Pages>
    where
        T: ParquetRow<'p>,
    {
        let remote = self.open().await?;
        let split = &self.source.split;
        self.on(&remote)?
            .load()
            .await
            .map_err(|e| split.in_split(e))
    }

    /// [`RowsBuilder::load`] of the split's rows, blocking.
    ///
    /// # Panics
    ///
    /// When called from inside a tokio runtime (use the async method there).
    pub fn load_blocking<'p>(self) -> Result<Pages>
    where
        T: ParquetRow<'p>,
    {
        block_on(self.load())?
    }

    /// [`RowsBuilder::batches`] of the split's rows: the file is opened
    /// when the stream is first polled.
    pub fn batches(self) -> impl Stream<Item = Result<Vec<T>>> + 's
    where
        T: OwnedRow + 's,
    {
        use futures_util::StreamExt;
        let (split, store, spec) = (
            self.source.split.clone(),
            std::sync::Arc::clone(&self.source.store),
            self.spec,
        );
        futures_util::stream::once(async move {
            let remote = split.open_file(store).await?;
            let read = on_split::<T, M>(&split, &spec, &remote)?;
            let (remote, groups) = (read.remote(), read.groups());
            Ok::<_, Error>(async_stream::<T>(remote, groups, read.spec.selection()))
        })
        .flat_map(|stream| match stream {
            Ok(stream) => stream.left_stream(),
            Err(e) => futures_util::stream::once(std::future::ready(Err(e))).right_stream(),
        })
    }

    /// [`RowsBuilder::batches`] of the split's rows, blocking.
    ///
    /// # Panics
    ///
    /// When iterated from inside a tokio runtime (use the async method there).
    pub fn batches_blocking(self) -> Result<impl Iterator<Item = Result<Vec<T>>> + 's>
    where
        T: OwnedRow + 's,
    {
        Blocking::new(self.batches())
    }

    /// [`RowsBuilder::stream`] of the split's rows, one by one.
    pub fn stream(self) -> impl Stream<Item = Result<T>> + 's
    where
        T: OwnedRow + 's,
    {
        rows_of(self.batches())
    }

    /// [`RowsBuilder::stream`] of the split's rows, blocking.
    ///
    /// # Panics
    ///
    /// When iterated from inside a tokio runtime (use the async method there).
    pub fn stream_blocking(self) -> Result<impl Iterator<Item = Result<T>> + 's>
    where
        T: OwnedRow + 's,
    {
        Blocking::new(self.stream())
    }
}

/// The read `spec` of `split` on its file `remote`: the builder's row
/// groups (each one of the split's), or the split's.
fn on_split<'f, T, M>(
    split: &crate::dataset::Split,
    spec: &super::spec::Spec,
    remote: &'f RemoteFile,
) -> Result<RowsBuilder<'f, RemoteFile, T, M>> {
    let groups = match &spec.row_groups {
        None => split.row_groups.clone(),
        Some(asked) => {
            if let Some(g) = asked.iter().find(|g| !split.row_groups.contains(g)) {
                return Err(Error::Unsupported {
                    location: Location::default(),
                    message: format!(
                        "row group {g} is not one of the split's ({:?})",
                        split.row_groups
                    ),
                });
            }
            asked.clone()
        }
    };
    let mut spec = spec.clone();
    spec.row_groups = Some(groups);
    Ok(RowsBuilder {
        source: remote,
        spec,
        row: std::marker::PhantomData,
    })
}

impl<T: OwnedRow> RowsBuilder<'_, crate::dataset::SplitFile, T, Serial> {
    /// The split's rows, owned, in file order.
    pub async fn collect(self) -> Result<Vec<T>> {
        let remote = self.open().await?;
        let split = &self.source.split;
        self.on(&remote)?
            .collect()
            .await
            .map_err(|e| split.in_split(e))
    }

    /// [`RowsBuilder::collect`] of a split, blocking.
    ///
    /// # Panics
    ///
    /// When called from inside a tokio runtime (use the async method there).
    pub fn collect_blocking(self) -> Result<Vec<T>> {
        block_on(self.collect())?
    }
}

#[cfg(feature = "rayon")]
impl<T: OwnedRow + Send> RowsBuilder<'_, crate::dataset::SplitFile, T, Parallel> {
    /// The split's rows, owned, in file order, decoded on the builder's
    /// threads.
    pub async fn collect(self) -> Result<Vec<T>> {
        let remote = self.open().await?;
        let split = &self.source.split;
        self.on(&remote)?
            .collect()
            .await
            .map_err(|e| split.in_split(e))
    }

    /// [`RowsBuilder::collect`] of a split on several threads, blocking.
    ///
    /// # Panics
    ///
    /// When called from inside a tokio runtime (use the async method there).
    pub fn collect_blocking(self) -> Result<Vec<T>> {
        block_on(self.collect())?
    }
}
