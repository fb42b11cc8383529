//! [`UploadWriter`]: a [`Writer`] whose file goes to an object store by
//! multipart upload (feature `object_store`).
//!
//! The writer encodes into an in-memory sink (a `BytesMut`); after each slice
//! of rows the bytes at its front are cut into parts of
//! [`UploadOptions::part_size`] and handed to the store's
//! [`MultipartUpload`], at most [`UploadOptions::parts_in_flight`] at a time.
//! Rows are fed to the writer so that at most one row group is encoded
//! between two such cuts, which bounds the memory: the writer's buffered
//! values (as for any sink), one row group's encoded bytes waiting to become
//! parts, and the parts in flight. Nothing here touches column encoding: the
//! upload sees only the bytes the writer produces.

use std::fmt;
use std::sync::Arc;

use bytes::{Bytes, BytesMut};
use futures_util::future::BoxFuture;
use futures_util::stream::FuturesUnordered;
use futures_util::StreamExt;
use object_store::path::Path;
use object_store::{MultipartUpload, ObjectStore, PutMultipartOptions, PutPayload};
use parquet::errors::ParquetError;

use super::{FileSummary, ParquetWrite, WriteOptions, Writer, CHUNK_ROWS};
use crate::error::{Error, Location, Result};

/// The smallest part S3 accepts (every part but the last): 5 MiB.
pub const MIN_PART_BYTES: usize = 5 << 20;

/// The largest part S3 accepts: 5 GiB.
const MAX_PART_BYTES: usize = 5 << 30;

/// How an [`UploadWriter`] cuts the file into parts and how many it sends at
/// once. The file itself is shaped by [`WriteOptions`].
///
/// ```
/// use parquet_rows::writer::UploadOptions;
///
/// let options = UploadOptions::default().part_size(16 << 20).parts_in_flight(8);
/// assert_eq!((options.part_size_limit(), options.parts_in_flight_limit()), (16 << 20, 8));
/// ```
#[derive(Debug, Clone)]
pub struct UploadOptions {
    part_size: usize,       // bytes of every part but the last
    parts_in_flight: usize, // parts sent and not yet acknowledged, >= 1
    put: PutMultipartOptions,
}

impl Default for UploadOptions {
    /// Parts of 8 MiB, 4 in flight: at most 32 MiB of parts held besides the
    /// row group being cut.
    fn default() -> Self {
        UploadOptions {
            part_size: 8 << 20,
            parts_in_flight: 4,
            put: PutMultipartOptions::default(),
        }
    }
}

impl UploadOptions {
    /// Every part but the last holds `bytes` bytes. At least
    /// [`MIN_PART_BYTES`] (5 MiB, S3's minimum) and at most 5 GiB (S3's
    /// maximum); other values are an error when the writer is created. S3
    /// takes at most 10,000 parts, so parts of `bytes` bytes make files of at
    /// most 10,000 x `bytes`.
    #[must_use]
    pub fn part_size(mut self, bytes: usize) -> Self {
        self.part_size = bytes;
        self
    }

    /// At most `parts` parts sent and not yet acknowledged (at least 1):
    /// writing waits for one to finish before it sends another.
    #[must_use]
    pub fn parts_in_flight(mut self, parts: usize) -> Self {
        self.parts_in_flight = parts.max(1);
        self
    }

    /// Tags and attributes of the object (content type, cache control...),
    /// as `object_store` takes them.
    #[must_use]
    pub fn put_options(mut self, put: PutMultipartOptions) -> Self {
        self.put = put;
        self
    }

    /// The bytes of every part but the last.
    pub fn part_size_limit(&self) -> usize {
        self.part_size
    }

    /// The most parts in flight at once.
    pub fn parts_in_flight_limit(&self) -> usize {
        self.parts_in_flight
    }
}

/// Writes rows of `T` into a Parquet object on an [`ObjectStore`] by
/// multipart upload: the async twin of a [`Writer`], each method with a
/// `_blocking` twin.
///
/// The object appears only when [`close`](Self::close) returns `Ok`: it
/// writes the last row group and the footer, sends the last parts and
/// completes the upload. Any error on the way (a value the writer refuses,
/// a part the store refuses) aborts the multipart upload, so no object
/// appears, and the writer is stopped: later calls return an error naming
/// the first one.
///
/// **Dropping the writer without `close` aborts the upload** (no object
/// appears): on the writer's own runtime for a writer used through the
/// `_blocking` methods, as a task spawned on the current tokio runtime in
/// async code (the abort runs when that runtime gets to it), or on a
/// runtime of its own when no runtime is current. A process that exits
/// first leaves the parts sent on the store, as any interrupted multipart
/// upload does (S3 removes them by a lifecycle rule).
///
/// Memory: the values of the row group being buffered (see
/// [`WriteOptions::row_group_bytes`]), the encoded bytes of at most one row
/// group waiting to be cut into parts, and
/// [`parts_in_flight`](UploadOptions::parts_in_flight) parts.
///
/// Encoding a row group is synchronous work on the calling task; with a
/// multi-threaded runtime the parts already sent keep going meanwhile (they
/// are spawned on the current tokio runtime; without one they progress only
/// while the writer awaits them).
///
/// ```
/// use std::sync::Arc;
/// use object_store::{memory::InMemory, path::Path, ObjectStore};
/// use parquet_rows::remote::RemoteFile;
/// use parquet_rows::writer::UploadWriter;
/// use parquet_rows::{ParquetRow, WriteOptions};
///
/// #[derive(ParquetRow, Debug, PartialEq)]
/// struct Tick {
///     ts: i64,
///     symbol: String,
/// }
///
/// # fn main() -> Result<(), Box<dyn std::error::Error>> {
/// let store: Arc<dyn ObjectStore> = Arc::new(InMemory::new());
/// let location = Path::from("ticks/2026-01-02.parquet");
/// # tokio::runtime::Builder::new_current_thread().build()?.block_on(async {
/// let mut writer =
///     UploadWriter::<Tick>::create(store.clone(), location.clone(), WriteOptions::default())
///         .await?;
/// writer.write(&[Tick { ts: 1, symbol: "EURUSD".into() }]).await?;
/// writer.extend((2..100).map(|ts| Tick { ts, symbol: "USDJPY".into() })).await?;
/// let summary = writer.close().await?; // the object appears here
/// assert_eq!(summary.rows, 99);
///
/// let remote = RemoteFile::open(store, location).await?;
/// let late: Vec<Tick> = remote.rows().filter(Tick::filter().ts().ge(98)).collect().await?;
/// assert_eq!(late.len(), 2);
/// # Ok::<_, Box<dyn std::error::Error>>(()) })?;
/// # Ok(()) }
/// ```
pub struct UploadWriter<T: ParquetWrite> {
    writer: Option<Writer<T, Parts>>, // `None` once closed or stopped
    upload: Option<Upload>,           // `None` once completed or aborted
    failed: Option<String>,           // the first error, once one happened
    runtime: Option<tokio::runtime::Runtime>, // the `_blocking` methods' own
}

impl<T: ParquetWrite> fmt::Debug for UploadWriter<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("UploadWriter")
            .field("writer", &self.writer)
            .field("upload", &self.upload)
            .field("failed", &self.failed)
            .finish_non_exhaustive()
    }
}

impl<T: ParquetWrite> UploadWriter<T> {
    /// Starts a multipart upload to `location` and a writer of rows of `T`
    /// into it, with the default [`UploadOptions`].
    pub async fn create(
        store: Arc<dyn ObjectStore>,
        location: Path,
        options: WriteOptions,
    ) -> Result<Self> {
        Self::create_with(store, location, options, UploadOptions::default()).await
    }

    /// As [`create`](Self::create), with `upload` options.
    pub async fn create_with(
        store: Arc<dyn ObjectStore>,
        location: Path,
        options: WriteOptions,
        upload: UploadOptions,
    ) -> Result<Self> {
        if !(MIN_PART_BYTES..=MAX_PART_BYTES).contains(&upload.part_size) {
            return Err(Error::Unsupported {
                location: Location::default(),
                message: format!(
                    "a part size of {} bytes: S3 takes parts of 5 MiB ({MIN_PART_BYTES} bytes) to 5 GiB \
                     (`UploadOptions::part_size`)",
                    upload.part_size
                ),
            });
        }
        // The writer first: options it refuses start no upload.
        let writer = Writer::new(Parts(BytesMut::new()), options)?;
        let multipart = store
            .put_multipart_opts(&location, upload.put.clone())
            .await
            .map_err(|e| upload_error(&location, "starting the multipart upload of", e))?;
        Ok(UploadWriter {
            writer: Some(writer),
            upload: Some(Upload {
                multipart,
                in_flight: FuturesUnordered::new(),
                location,
                part_size: upload.part_size,
                parts_in_flight: upload.parts_in_flight,
                parts: 0,
            }),
            failed: None,
            runtime: None,
        })
    }

    /// Writes `rows`, in order: row groups that fill up are encoded, and
    /// their bytes sent as parts of the upload.
    pub async fn write<R: ParquetWrite<Shape = T::Shape>>(&mut self, rows: &[R]) -> Result<()> {
        let mut rows = rows;
        while !rows.is_empty() {
            let writer = self.running()?;
            // At most one row group is encoded per slice, so at most one
            // row group's bytes wait to be cut into parts.
            let room = writer.row_group_rows - writer.buffered;
            let (now, rest) = rows.split_at(rows.len().min(room).min(CHUNK_ROWS));
            let written = writer.write(now);
            self.after(written).await?;
            rows = rest;
        }
        Ok(())
    }

    /// Writes one row.
    pub async fn write_row<R: ParquetWrite<Shape = T::Shape>>(&mut self, row: &R) -> Result<()> {
        self.write(std::slice::from_ref(row)).await
    }

    /// Writes every row of `rows`, a thousand at a time.
    pub async fn extend<R: ParquetWrite<Shape = T::Shape>>(
        &mut self,
        rows: impl IntoIterator<Item = R>,
    ) -> Result<()> {
        let mut batch: Vec<R> = Vec::with_capacity(1024);
        for row in rows {
            batch.push(row);
            if batch.len() == batch.capacity() {
                self.write(&batch).await?;
                batch.clear();
            }
        }
        self.write(&batch).await
    }

    /// Writes the buffered rows as a row group now, and sends the parts
    /// that are full.
    pub async fn flush(&mut self) -> Result<()> {
        let flushed = self.running()?.flush();
        self.after(flushed).await
    }

    /// Writes the last row group and the footer, sends the last parts and
    /// completes the upload: the object appears. On an error the upload is
    /// aborted instead.
    pub async fn close(mut self) -> Result<FileSummary> {
        self.running()?;
        // Both present while running (`after` drops both on an error).
        let (Some(writer), Some(mut upload)) = (self.writer.take(), self.upload.take()) else {
            return Err(self.running().err().unwrap_or_else(|| Error::Unsupported {
                location: Location::default(),
                message: "the upload is closed".to_owned(),
            }));
        };
        let finished = writer.finish();
        let result =
            async {
                let (summary, Parts(mut bytes)) = finished?;
                while bytes.len() > upload.part_size {
                    upload
                        .send(bytes.split_to(upload.part_size).freeze())
                        .await?;
                }
                upload.send(bytes.freeze()).await?;
                upload.wait_for_capacity(0).await?;
                let location = upload.location.clone();
                upload.multipart.complete().await.map_err(|e| {
                    upload_error(&location, "completing the multipart upload of", e)
                })?;
                Ok(summary)
            }
            .await;
        match result {
            Ok(summary) => Ok(summary),
            Err(e) => Err(abort_after(upload, e).await),
        }
    }

    /// Stops writing and aborts the upload: no object appears. The error is
    /// the store's, if aborting failed.
    pub async fn abort(mut self) -> Result<()> {
        self.writer = None;
        match self.upload.take() {
            Some(upload) => upload.abort().await,
            None => Ok(()),
        }
    }

    /// Parts sent so far (each acknowledged or in flight).
    pub fn parts_sent(&self) -> usize {
        self.upload.as_ref().map_or(0, |u| u.parts)
    }

    /// Encoded bytes waiting to be sent, less than one part plus one row
    /// group's.
    pub fn pending_bytes(&self) -> usize {
        let sink = self.writer.as_ref().and_then(|w| w.file.as_ref());
        sink.map_or(0, |file| file.inner().inner.0.len())
    }

    /// Rows buffered for the row group not written yet.
    pub fn buffered_rows(&self) -> usize {
        self.writer.as_ref().map_or(0, Writer::buffered_rows)
    }

    /// [`create`](Self::create), blocking: the writer keeps a current-thread
    /// runtime of its own for its `_blocking` methods.
    ///
    /// # Panics
    /// When called from inside a tokio runtime (use the async methods there).
    pub fn create_blocking(
        store: Arc<dyn ObjectStore>,
        location: Path,
        options: WriteOptions,
    ) -> Result<Self> {
        Self::create_with_blocking(store, location, options, UploadOptions::default())
    }

    /// [`create_with`](Self::create_with), blocking.
    ///
    /// # Panics
    /// When called from inside a tokio runtime (use the async methods there).
    pub fn create_with_blocking(
        store: Arc<dyn ObjectStore>,
        location: Path,
        options: WriteOptions,
        upload: UploadOptions,
    ) -> Result<Self> {
        let runtime = runtime()?;
        let mut writer = runtime.block_on(Self::create_with(store, location, options, upload))?;
        writer.runtime = Some(runtime);
        Ok(writer)
    }

    /// [`write`](Self::write), blocking.
    ///
    /// # Panics
    /// When called from inside a tokio runtime (use the async methods there).
    pub fn write_blocking<R: ParquetWrite<Shape = T::Shape>>(&mut self, rows: &[R]) -> Result<()> {
        let runtime = self.take_runtime()?;
        let result = runtime.block_on(self.write(rows));
        self.runtime = Some(runtime);
        result
    }

    /// [`write_row`](Self::write_row), blocking.
    ///
    /// # Panics
    /// When called from inside a tokio runtime (use the async methods there).
    pub fn write_row_blocking<R: ParquetWrite<Shape = T::Shape>>(&mut self, row: &R) -> Result<()> {
        self.write_blocking(std::slice::from_ref(row))
    }

    /// [`extend`](Self::extend), blocking.
    ///
    /// # Panics
    /// When called from inside a tokio runtime (use the async methods there).
    pub fn extend_blocking<R: ParquetWrite<Shape = T::Shape>>(
        &mut self,
        rows: impl IntoIterator<Item = R>,
    ) -> Result<()> {
        let runtime = self.take_runtime()?;
        let result = runtime.block_on(self.extend(rows));
        self.runtime = Some(runtime);
        result
    }

    /// [`flush`](Self::flush), blocking.
    ///
    /// # Panics
    /// When called from inside a tokio runtime (use the async methods there).
    pub fn flush_blocking(&mut self) -> Result<()> {
        let runtime = self.take_runtime()?;
        let result = runtime.block_on(self.flush());
        self.runtime = Some(runtime);
        result
    }

    /// [`close`](Self::close), blocking.
    ///
    /// # Panics
    /// When called from inside a tokio runtime (use the async methods there).
    pub fn close_blocking(mut self) -> Result<FileSummary> {
        let runtime = self.take_runtime()?;
        runtime.block_on(self.close())
    }

    /// [`abort`](Self::abort), blocking.
    ///
    /// # Panics
    /// When called from inside a tokio runtime (use the async methods there).
    pub fn abort_blocking(mut self) -> Result<()> {
        let runtime = self.take_runtime()?;
        runtime.block_on(self.abort())
    }

    fn take_runtime(&mut self) -> Result<tokio::runtime::Runtime> {
        match self.runtime.take() {
            Some(runtime) => Ok(runtime),
            None => runtime(),
        }
    }

    /// The writer, or the error that stopped it.
    fn running(&mut self) -> Result<&mut Writer<T, Parts>> {
        match &mut self.writer {
            Some(writer) => Ok(writer),
            None => Err(Error::Unsupported {
                location: Location::default(),
                message: match &self.failed {
                    Some(first) => {
                        format!("the upload stopped at an earlier error ({first}); it was aborted")
                    }
                    None => "the upload is closed".to_owned(),
                },
            }),
        }
    }

    /// After the writer wrote (`result`): the full parts are sent, or on an
    /// error the upload is aborted and the writer stopped.
    async fn after(&mut self, result: Result<()>) -> Result<()> {
        let result = match result {
            Ok(()) => self.send_full_parts().await,
            Err(e) => Err(e),
        };
        let Err(e) = result else {
            return Ok(());
        };
        self.writer = None;
        let e = match self.upload.take() {
            Some(upload) => abort_after(upload, e).await,
            None => e,
        };
        self.failed = Some(e.to_string());
        Err(e)
    }

    /// Sends every full part at the front of the writer's sink.
    async fn send_full_parts(&mut self) -> Result<()> {
        let (Some(writer), Some(upload)) = (&mut self.writer, &mut self.upload) else {
            return Ok(());
        };
        loop {
            let Some(Parts(sink)) = writer.sink_mut() else {
                return Ok(());
            };
            if sink.len() < upload.part_size {
                return Ok(());
            }
            let part = sink.split_to(upload.part_size).freeze();
            upload.send(part).await?;
        }
    }
}

impl<T: ParquetWrite> Drop for UploadWriter<T> {
    /// An upload neither completed nor aborted is aborted (see the type's
    /// docs): no object appears.
    fn drop(&mut self) {
        let own = self.runtime.take();
        let current = tokio::runtime::Handle::try_current().ok();
        if let Some(upload) = self.upload.take() {
            match (&current, &own) {
                (Some(handle), _) => drop(handle.spawn(async move { drop(upload.abort().await) })),
                (None, Some(runtime)) => drop(runtime.block_on(upload.abort())),
                (None, None) => {
                    if let Ok(runtime) = runtime() {
                        drop(runtime.block_on(upload.abort()));
                    }
                }
            }
        }
        // A runtime cannot be dropped where blocking is not allowed (a
        // blocking writer dropped in async code): shut it down in the
        // background there.
        if let (Some(runtime), Some(_)) = (own, current) {
            runtime.shutdown_background();
        }
    }
}

/// The writer's sink: the encoded bytes not yet sent as parts.
#[derive(Debug, Default)]
struct Parts(BytesMut);

impl std::io::Write for Parts {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// The multipart upload and its parts in flight.
struct Upload {
    multipart: Box<dyn MultipartUpload>,
    in_flight: FuturesUnordered<BoxFuture<'static, object_store::Result<()>>>,
    location: Path,
    part_size: usize,
    parts_in_flight: usize,
    parts: usize, // parts sent
}

impl fmt::Debug for Upload {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Upload")
            .field("location", &self.location)
            .field("parts", &self.parts)
            .field("in_flight", &self.in_flight.len())
            .finish_non_exhaustive()
    }
}

impl Upload {
    /// Sends `part` once fewer than `parts_in_flight` parts are in flight.
    async fn send(&mut self, part: Bytes) -> Result<()> {
        self.wait_for_capacity(self.parts_in_flight - 1).await?;
        let sent = self.multipart.put_part(PutPayload::from(part));
        self.parts += 1;
        // Spawned on the current runtime, a part progresses while the rows
        // of the next one are encoded; without a runtime it progresses when
        // awaited here.
        let sent: BoxFuture<'static, object_store::Result<()>> =
            match tokio::runtime::Handle::try_current() {
                Ok(handle) => {
                    let task = handle.spawn(sent);
                    Box::pin(async move {
                        task.await.map_err(|e| object_store::Error::Generic {
                            store: "parquet-rows upload",
                            source: Box::new(e),
                        })?
                    })
                }
                Err(_) => sent,
            };
        self.in_flight.push(sent);
        Ok(())
    }

    /// Waits until at most `parts` parts are in flight; the first part the
    /// store refused is the error.
    async fn wait_for_capacity(&mut self, parts: usize) -> Result<()> {
        while self.in_flight.len() > parts {
            if let Some(Err(e)) = self.in_flight.next().await {
                return Err(upload_error(&self.location, "uploading a part of", e));
            }
        }
        Ok(())
    }

    /// Waits for the parts in flight (their errors no longer matter), then
    /// aborts the multipart upload: a part finishing after the abort could
    /// otherwise stay on the store.
    async fn abort(mut self) -> Result<()> {
        while self.in_flight.next().await.is_some() {}
        let location = self.location.clone();
        self.multipart
            .abort()
            .await
            .map_err(|e| upload_error(&location, "aborting the multipart upload of", e))
    }
}

/// Aborts `upload` after `error`; the error says whether the abort failed too.
async fn abort_after(upload: Upload, error: Error) -> Error {
    match upload.abort().await {
        Ok(()) => error,
        Err(abort) => Error::Write {
            location: Location::default(),
            source: ParquetError::External(Box::new(UploadError {
                what: format!("{error}; aborting the upload failed too"),
                source: Box::new(abort),
            })),
        },
    }
}

/// A store's error, with what the upload was doing.
#[derive(Debug)]
struct UploadError {
    what: String,
    source: Box<dyn std::error::Error + Send + Sync>,
}

impl fmt::Display for UploadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.what, self.source)
    }
}

impl std::error::Error for UploadError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&*self.source)
    }
}

fn upload_error(location: &Path, doing: &str, e: object_store::Error) -> Error {
    Error::Write {
        location: Location::default(),
        source: ParquetError::External(Box::new(UploadError {
            what: format!("{doing} `{location}`"),
            source: Box::new(e),
        })),
    }
}

fn runtime() -> Result<tokio::runtime::Runtime> {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| Error::Io(std::io::Error::other(format!("a tokio runtime: {e}"))))
}
