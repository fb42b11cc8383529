//! Writing to an object store by multipart upload (`writer::UploadWriter`),
//! then reading the object back with `RemoteFile` and the builder: parts of
//! the configured size, a bounded number in flight, the upload aborted (no
//! object) on any error or on drop, completed by `close`.

use std::fmt;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use async_trait::async_trait;
use futures_util::stream::BoxStream;
use object_store::memory::InMemory;
use object_store::path::Path;
use object_store::{
    CopyOptions, GetOptions, GetResult, ListResult, MultipartUpload, ObjectMeta, ObjectStore,
    ObjectStoreExt, PutMultipartOptions, PutOptions, PutPayload, PutResult, Result, UploadPart,
};
use parquet_rows::remote::RemoteFile;
use parquet_rows::writer::{Compression, SortOrder, UploadOptions, UploadWriter, MIN_PART_BYTES};
use parquet_rows::{ParquetRow, WriteOptions};

#[derive(ParquetRow, Debug, Clone, PartialEq)]
struct Event {
    ts: i64,
    kind: Option<String>,
    /// 192 bytes of hex, so that a few tens of thousands of rows make
    /// several parts of 5 MiB.
    payload: String,
}

fn event(ts: i64) -> Event {
    let mut x = (ts as u64).wrapping_add(0x9E37_79B9_7F4A_7C15);
    x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    Event {
        ts,
        kind: (ts % 7 != 0).then(|| ["open", "close", "trade"][ts as usize % 3].to_owned()),
        payload: format!("{:016x}", x ^ (x >> 31)).repeat(12),
    }
}

/// Uncompressed, no dictionary: the file's size follows the rows' bytes.
fn options() -> WriteOptions {
    WriteOptions::default()
        .compression(Compression::Uncompressed)
        .dictionary(false)
        .row_group_rows(10_000)
}

/// What a [`Parted`] store saw of its multipart uploads.
#[derive(Debug, Default)]
struct Seen {
    uploads: AtomicUsize,
    part_sizes: Mutex<Vec<usize>>,
    in_flight: AtomicUsize,
    max_in_flight: AtomicUsize,
    completed: AtomicUsize,
    aborted: AtomicUsize,
}

/// An in-memory store whose multipart uploads record their parts and how
/// many are in flight (each part takes a few polls), and fail on request:
/// the `fail_part`th part (from 0) or the completion.
#[derive(Debug)]
struct Parted {
    inner: InMemory,
    seen: Arc<Seen>,
    fail_part: Option<usize>,
    fail_complete: bool,
}

impl Parted {
    fn new() -> (Arc<Self>, Arc<Seen>) {
        Self::failing(None, false)
    }

    fn failing(fail_part: Option<usize>, fail_complete: bool) -> (Arc<Self>, Arc<Seen>) {
        let seen = Arc::new(Seen::default());
        let store = Parted {
            inner: InMemory::new(),
            seen: seen.clone(),
            fail_part,
            fail_complete,
        };
        (Arc::new(store), seen)
    }
}

impl fmt::Display for Parted {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Parted")
    }
}

#[derive(Debug)]
struct PartedUpload {
    inner: Box<dyn MultipartUpload>,
    seen: Arc<Seen>,
    parts: usize,
    fail_part: Option<usize>,
    fail_complete: bool,
}

fn injected(what: &str) -> object_store::Error {
    object_store::Error::Generic {
        store: "Parted",
        source: format!("injected failure: {what}").into(),
    }
}

#[async_trait]
impl MultipartUpload for PartedUpload {
    fn put_part(&mut self, data: PutPayload) -> UploadPart {
        let n = self.parts;
        self.parts += 1;
        let seen = self.seen.clone();
        seen.part_sizes.lock().unwrap().push(data.content_length());
        let before = seen.in_flight.fetch_add(1, Ordering::SeqCst);
        seen.max_in_flight.fetch_max(before + 1, Ordering::SeqCst);
        let fail = self.fail_part == Some(n);
        let sent = self.inner.put_part(data);
        Box::pin(async move {
            // A part takes a few polls, as a request would: others can be
            // sent meanwhile.
            for _ in 0..3 {
                tokio::task::yield_now().await;
            }
            let result = if fail {
                Err(injected("part"))
            } else {
                sent.await
            };
            seen.in_flight.fetch_sub(1, Ordering::SeqCst);
            result
        })
    }

    async fn complete(&mut self) -> Result<PutResult> {
        if self.fail_complete {
            return Err(injected("complete"));
        }
        self.seen.completed.fetch_add(1, Ordering::SeqCst);
        self.inner.complete().await
    }

    async fn abort(&mut self) -> Result<()> {
        self.seen.aborted.fetch_add(1, Ordering::SeqCst);
        self.inner.abort().await
    }
}

#[async_trait]
impl ObjectStore for Parted {
    async fn put_opts(
        &self,
        location: &Path,
        payload: PutPayload,
        opts: PutOptions,
    ) -> Result<PutResult> {
        self.inner.put_opts(location, payload, opts).await
    }

    async fn put_multipart_opts(
        &self,
        location: &Path,
        opts: PutMultipartOptions,
    ) -> Result<Box<dyn MultipartUpload>> {
        self.seen.uploads.fetch_add(1, Ordering::SeqCst);
        Ok(Box::new(PartedUpload {
            inner: self.inner.put_multipart_opts(location, opts).await?,
            seen: self.seen.clone(),
            parts: 0,
            fail_part: self.fail_part,
            fail_complete: self.fail_complete,
        }))
    }

    async fn get_opts(&self, location: &Path, options: GetOptions) -> Result<GetResult> {
        self.inner.get_opts(location, options).await
    }

    fn delete_stream(
        &self,
        locations: BoxStream<'static, Result<Path>>,
    ) -> BoxStream<'static, Result<Path>> {
        self.inner.delete_stream(locations)
    }

    fn list(&self, prefix: Option<&Path>) -> BoxStream<'static, Result<ObjectMeta>> {
        self.inner.list(prefix)
    }

    async fn list_with_delimiter(&self, prefix: Option<&Path>) -> Result<ListResult> {
        self.inner.list_with_delimiter(prefix).await
    }

    async fn copy_opts(&self, from: &Path, to: &Path, options: CopyOptions) -> Result<()> {
        self.inner.copy_opts(from, to, options).await
    }
}

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap()
}

async fn absent(store: &dyn ObjectStore, location: &Path) -> bool {
    matches!(
        store.head(location).await,
        Err(object_store::Error::NotFound { .. })
    )
}

const ROWS: i64 = 70_000; // about 14 MiB: three parts of 5 MiB

#[test]
fn an_upload_of_several_row_groups_reads_back_filtered() {
    runtime().block_on(async {
        let (store, seen) = Parted::new();
        let location = Path::from("events/upload.parquet");
        let upload = UploadOptions::default()
            .part_size(MIN_PART_BYTES)
            .parts_in_flight(2);
        let mut writer = UploadWriter::<Event>::create_with(
            store.clone(),
            location.clone(),
            options().statistics(parquet_rows::writer::Statistics::Page),
            upload,
        )
        .await
        .unwrap();
        let rows: Vec<Event> = (0..ROWS).map(event).collect();
        let mut most_pending = 0;
        // Every entry point: a slice, one row, an iterator.
        for chunk in rows[..30_000].chunks(7_000) {
            writer.write(chunk).await.unwrap();
            most_pending = most_pending.max(writer.pending_bytes());
        }
        writer.write_row(&rows[30_000]).await.unwrap();
        writer.extend(rows[30_001..].iter().cloned()).await.unwrap();
        most_pending = most_pending.max(writer.pending_bytes());
        assert!(writer.parts_sent() >= 2, "parts were sent before close");
        assert!(absent(&*store, &location).await, "no object before close");
        let summary = writer.close().await.unwrap();
        assert_eq!(summary.rows, ROWS as u64);
        assert_eq!(summary.row_groups, 7);

        // Parts: every one but the last exactly the part size, in all the file.
        let sizes = seen.part_sizes.lock().unwrap().clone();
        assert!(sizes.len() >= 3, "{sizes:?}");
        let (last, full) = sizes.split_last().unwrap();
        assert!(full.iter().all(|&s| s == MIN_PART_BYTES), "{sizes:?}");
        assert!(*last > 0 && *last <= MIN_PART_BYTES, "{sizes:?}");
        assert_eq!(sizes.iter().sum::<usize>() as u64, summary.bytes);
        let max_in_flight = seen.max_in_flight.load(Ordering::SeqCst);
        assert!(
            (1..=2).contains(&max_in_flight),
            "{max_in_flight} parts in flight"
        );
        assert_eq!(seen.completed.load(Ordering::SeqCst), 1);
        assert_eq!(seen.aborted.load(Ordering::SeqCst), 0);
        // At most one part plus one row group waited between writes (a row
        // group here is about 2 MiB).
        assert!(
            most_pending < MIN_PART_BYTES + (summary.bytes / 7 + (256 << 10)) as usize,
            "{most_pending} bytes pending"
        );

        // The object, read back through the remote builder.
        let meta = store.head(&location).await.unwrap();
        assert_eq!(meta.size, summary.bytes);
        let remote = RemoteFile::open(store.clone(), location.clone())
            .await
            .unwrap();
        assert_eq!(remote.metadata().num_row_groups(), 7);
        let picked: Vec<Event> = remote
            .rows()
            .filter(Event::filter().ts().in_range(41_000..43_500))
            .collect()
            .await
            .unwrap();
        assert_eq!(picked, rows[41_000..43_500]);
        let closes: Vec<Event> = remote
            .rows()
            .filter(Event::filter().kind().eq("close"))
            .collect()
            .await
            .unwrap();
        let want: Vec<Event> = rows
            .iter()
            .filter(|e| e.kind.as_deref() == Some("close"))
            .cloned()
            .collect();
        assert_eq!(closes, want);
        let all: Vec<Event> = remote.rows().collect().await.unwrap();
        assert_eq!(all, rows);
    });
}

#[test]
fn the_blocking_twin_uploads_a_small_file_in_one_part() {
    let (store, seen) = Parted::new();
    let location = Path::from("small.parquet");
    let mut writer =
        UploadWriter::<Event>::create_blocking(store.clone(), location.clone(), options()).unwrap();
    let rows: Vec<Event> = (0..2_500).map(event).collect();
    writer.write_blocking(&rows[..1_000]).unwrap();
    writer.write_row_blocking(&rows[1_000]).unwrap();
    writer.flush_blocking().unwrap();
    writer
        .extend_blocking(rows[1_001..].iter().cloned())
        .unwrap();
    let summary = writer.close_blocking().unwrap();
    assert_eq!((summary.rows, summary.row_groups), (2_500, 2));
    assert_eq!(
        *seen.part_sizes.lock().unwrap(),
        [summary.bytes as usize],
        "a file smaller than a part is one part"
    );
    let remote = RemoteFile::open_blocking(store, location).unwrap();
    let picked: Vec<Event> = remote
        .rows()
        .filter(Event::filter().ts().ge(2_400))
        .collect_blocking()
        .unwrap();
    assert_eq!(picked, rows[2_400..]);
}

#[test]
fn an_empty_upload_is_a_file_of_no_rows() {
    let (store, seen) = Parted::new();
    let location = Path::from("empty.parquet");
    let writer =
        UploadWriter::<Event>::create_blocking(store.clone(), location.clone(), options()).unwrap();
    let summary = writer.close_blocking().unwrap();
    assert_eq!((summary.rows, summary.row_groups), (0, 0));
    assert_eq!(seen.part_sizes.lock().unwrap().len(), 1);
    let remote = RemoteFile::open_blocking(store, location).unwrap();
    assert_eq!(remote.metadata().file_metadata().num_rows(), 0);
    let rows: Vec<Event> = remote
        .rows()
        .filter(Event::filter().ts().ge(0))
        .collect_blocking()
        .unwrap();
    assert!(rows.is_empty());
}

#[test]
fn a_part_the_store_refuses_aborts_the_upload() {
    runtime().block_on(async {
        let (store, seen) = Parted::failing(Some(0), false);
        let location = Path::from("refused.parquet");
        let upload = UploadOptions::default()
            .part_size(MIN_PART_BYTES)
            .parts_in_flight(1);
        let mut writer =
            UploadWriter::<Event>::create_with(store.clone(), location.clone(), options(), upload)
                .await
                .unwrap();
        let rows: Vec<Event> = (0..ROWS).map(event).collect();
        let error = writer.write(&rows).await.unwrap_err();
        let message = error.to_string();
        assert!(
            message.contains("uploading a part of `refused.parquet`")
                && message.contains("injected failure: part"),
            "{message}"
        );
        assert_eq!(seen.aborted.load(Ordering::SeqCst), 1);
        assert_eq!(seen.completed.load(Ordering::SeqCst), 0);
        assert!(absent(&*store, &location).await);
        // Stopped: later calls name the first error; close completes nothing.
        let again = writer.write(&rows[..1]).await.unwrap_err().to_string();
        assert!(
            again.contains("stopped at an earlier error") && again.contains("injected failure"),
            "{again}"
        );
        assert!(writer.close().await.is_err());
        assert_eq!(seen.completed.load(Ordering::SeqCst), 0);
        assert_eq!(seen.aborted.load(Ordering::SeqCst), 1);
        assert!(absent(&*store, &location).await);
    });
}

#[test]
fn a_completion_the_store_refuses_aborts_the_upload() {
    let (store, seen) = Parted::failing(None, true);
    let location = Path::from("incomplete.parquet");
    let mut writer =
        UploadWriter::<Event>::create_blocking(store.clone(), location.clone(), options()).unwrap();
    writer
        .write_blocking(&(0..100).map(event).collect::<Vec<_>>())
        .unwrap();
    let message = writer.close_blocking().unwrap_err().to_string();
    assert!(
        message.contains("completing the multipart upload of `incomplete.parquet`"),
        "{message}"
    );
    assert_eq!(seen.aborted.load(Ordering::SeqCst), 1);
    assert!(runtime().block_on(absent(&*store, &location)));
}

#[test]
fn a_row_the_writer_refuses_mid_upload_aborts_it() {
    runtime().block_on(async {
        let (store, seen) = Parted::new();
        let location = Path::from("unsorted.parquet");
        let upload = UploadOptions::default().part_size(MIN_PART_BYTES);
        let options = options().sorted_by("ts", SortOrder::Ascending);
        let mut writer =
            UploadWriter::<Event>::create_with(store.clone(), location.clone(), options, upload)
                .await
                .unwrap();
        let mut rows: Vec<Event> = (0..ROWS).map(event).collect();
        rows[60_000].ts = 5; // out of order, after parts were sent
        let message = writer.write(&rows).await.unwrap_err().to_string();
        assert!(message.contains("row 60000"), "{message}");
        assert!(
            !seen.part_sizes.lock().unwrap().is_empty(),
            "parts were sent"
        );
        assert_eq!(seen.aborted.load(Ordering::SeqCst), 1);
        assert!(absent(&*store, &location).await);
    });
}

#[test]
fn a_dropped_writer_aborts_its_upload() {
    // Blocking: aborted on the writer's own runtime, at once.
    let (store, seen) = Parted::new();
    let location = Path::from("dropped.parquet");
    let upload = UploadOptions::default().part_size(MIN_PART_BYTES);
    let mut writer = UploadWriter::<Event>::create_with_blocking(
        store.clone(),
        location.clone(),
        options(),
        upload,
    )
    .unwrap();
    writer
        .write_blocking(&(0..30_000).map(event).collect::<Vec<_>>())
        .unwrap();
    assert!(writer.parts_sent() > 0);
    drop(writer);
    assert_eq!(seen.aborted.load(Ordering::SeqCst), 1);
    assert_eq!(seen.completed.load(Ordering::SeqCst), 0);
    assert!(runtime().block_on(absent(&*store, &location)));

    // Async: the abort is spawned on the current runtime.
    runtime().block_on(async {
        let (store, seen) = Parted::new();
        let mut writer = UploadWriter::<Event>::create(store.clone(), location.clone(), options())
            .await
            .unwrap();
        writer.write_row(&event(1)).await.unwrap();
        drop(writer);
        for _ in 0..10 {
            tokio::task::yield_now().await;
        }
        assert_eq!(seen.aborted.load(Ordering::SeqCst), 1);
        assert!(absent(&*store, &location).await);
    });
}

#[test]
fn a_part_smaller_than_s3_takes_is_refused_before_any_upload() {
    let (store, seen) = Parted::new();
    let upload = UploadOptions::default().part_size(MIN_PART_BYTES - 1);
    let message = UploadWriter::<Event>::create_with_blocking(
        store,
        Path::from("x.parquet"),
        options(),
        upload,
    )
    .unwrap_err()
    .to_string();
    assert!(message.contains("part size of 5242879 bytes"), "{message}");
    assert_eq!(seen.uploads.load(Ordering::SeqCst), 0);
}

#[test]
fn upload_futures_are_send() {
    fn send<F: std::future::Future + Send>(_: &F) {}
    let store: Arc<dyn ObjectStore> = Arc::new(InMemory::new());
    let create = UploadWriter::<Event>::create(store, Path::from("s.parquet"), options());
    send(&create);
    drop(create);
    runtime().block_on(async {
        let store: Arc<dyn ObjectStore> = Arc::new(InMemory::new());
        let mut writer = UploadWriter::<Event>::create(store, Path::from("s.parquet"), options())
            .await
            .unwrap();
        let rows = [event(1)];
        let write = writer.write(&rows);
        send(&write);
        write.await.unwrap();
        let close = writer.close();
        send(&close);
        close.await.unwrap();
    });
}
