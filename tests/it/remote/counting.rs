//! An object store that counts the requests and bytes that pass through it,
//! the most requests in flight at once, and the round trips.
//!
//! A round trip is a wave of requests: a request issued while none is in
//! flight starts a new one (it waited for every request before it, so its
//! latency adds to theirs); a request issued while others are in flight
//! joins theirs (it overlaps them). Behind a store with a fixed latency
//! per request (`ThrottledStore`), the requests one read makes at once are
//! in flight together, and every dependent step (the footer, then what it
//! points to) is a wave of its own.

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
    /// Requests issued while none was in flight: the round trips.
    pub waves: AtomicUsize,
    /// Every request's issue and completion, in order: `(true, n)` when
    /// the `n`th request (from 0) was issued, `(false, n)` when it returned.
    pub events: std::sync::Mutex<Vec<(bool, usize)>>,
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
    pub fn waves(&self) -> usize {
        self.waves.load(Ordering::SeqCst)
    }
    /// The round trips recomputed from the log of issues and completions
    /// (as `waves`, from the order of events alone).
    pub fn waves_from_events(&self) -> usize {
        let mut in_flight = 0usize;
        let mut waves = 0;
        for &(issued, _) in self.events.lock().unwrap().iter() {
            if issued {
                waves += usize::from(in_flight == 0);
                in_flight += 1;
            } else {
                in_flight -= 1;
            }
        }
        waves
    }
    pub fn reset(&self) {
        self.waves.store(0, Ordering::SeqCst);
        self.events.lock().unwrap().clear();
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
        let n = c.gets.fetch_add(1, Ordering::SeqCst);
        c.locations.lock().unwrap().push(location.to_string());
        let before = {
            // Under the lock of the log, so the log's order is the counter's.
            let mut events = c.events.lock().unwrap();
            events.push((true, n));
            c.in_flight.fetch_add(1, Ordering::SeqCst)
        };
        if before == 0 {
            c.waves.fetch_add(1, Ordering::SeqCst);
        }
        c.max_in_flight.fetch_max(before + 1, Ordering::SeqCst);
        let result = self.inner.get_opts(location, options).await;
        {
            let mut events = c.events.lock().unwrap();
            events.push((false, n));
            c.in_flight.fetch_sub(1, Ordering::SeqCst);
        }
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
