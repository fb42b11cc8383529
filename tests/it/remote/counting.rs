//! An object store that counts the requests and bytes that pass through it,
//! and the most requests in flight at once.

use std::fmt;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::Arc;

use async_trait::async_trait;
use futures_util::stream::BoxStream;
use object_store::path::Path;
use object_store::{
    CopyOptions, GetOptions, GetResult, ListResult, MultipartUpload, ObjectMeta, ObjectStore,
    PutMultipartOptions, PutOptions, PutPayload, PutResult, Result,
};

/// What a [`Counting`] store saw.
#[derive(Debug, Default)]
pub struct Counts {
    pub gets: AtomicUsize,
    pub bytes: AtomicU64,
    in_flight: AtomicUsize,
    pub max_in_flight: AtomicUsize,
    /// The location of every `get`, in order.
    pub locations: std::sync::Mutex<Vec<String>>,
    /// The byte range each `get` returned, in the order they returned.
    pub ranges: std::sync::Mutex<Vec<std::ops::Range<u64>>>,
}

impl Counts {
    pub fn gets(&self) -> usize {
        self.gets.load(Ordering::SeqCst)
    }
    pub fn bytes(&self) -> u64 {
        self.bytes.load(Ordering::SeqCst)
    }
    pub fn max_in_flight(&self) -> usize {
        self.max_in_flight.load(Ordering::SeqCst)
    }
    pub fn locations(&self) -> Vec<String> {
        self.locations.lock().unwrap().clone()
    }
    pub fn ranges(&self) -> Vec<std::ops::Range<u64>> {
        self.ranges.lock().unwrap().clone()
    }
    pub fn reset(&self) {
        self.locations.lock().unwrap().clear();
        self.ranges.lock().unwrap().clear();
        self.gets.store(0, Ordering::SeqCst);
        self.bytes.store(0, Ordering::SeqCst);
        self.max_in_flight.store(0, Ordering::SeqCst);
    }
}

/// Counts the `get` requests made to `inner` and the bytes they return.
#[derive(Debug)]
pub struct Counting<S> {
    pub inner: S,
    pub counts: Arc<Counts>,
}

impl<S> fmt::Display for Counting<S> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Counting")
    }
}

#[async_trait]
impl<S: ObjectStore> ObjectStore for Counting<S> {
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
        self.inner.put_multipart_opts(location, opts).await
    }

    async fn get_opts(&self, location: &Path, options: GetOptions) -> Result<GetResult> {
        let c = &self.counts;
        c.gets.fetch_add(1, Ordering::SeqCst);
        c.locations.lock().unwrap().push(location.to_string());
        let now = c.in_flight.fetch_add(1, Ordering::SeqCst) + 1;
        c.max_in_flight.fetch_max(now, Ordering::SeqCst);
        let result = self.inner.get_opts(location, options).await;
        c.in_flight.fetch_sub(1, Ordering::SeqCst);
        let result = result?;
        c.ranges.lock().unwrap().push(result.range.clone());
        c.bytes
            .fetch_add(result.range.end - result.range.start, Ordering::SeqCst);
        Ok(result)
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
