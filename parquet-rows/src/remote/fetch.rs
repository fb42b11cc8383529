//! Reads of a remote file: the object-store source (one suffix request at
//! open, then ranges, each checked to come from the object that was
//! opened), the footer, and ranges of any [`AsyncReadAt`], a bounded number
//! at a time, each cut at a bounded size.

use std::ops::Range;
use std::sync::Arc;

use bytes::{Bytes, BytesMut};
use futures_util::{StreamExt, TryStreamExt};
use object_store::path::Path;
use object_store::{GetOptions, GetRange, ObjectMeta, ObjectStore};

use super::FetchOptions;
use crate::error::{Error, Result};
use crate::footer::{missing, Footer};
use crate::source::{AsyncReadAt, ReadFuture};

/// An object store's error as this crate's I/O error (`object_store` maps
/// its not-found and permission errors to the matching `io::ErrorKind`).
pub(crate) fn store_error(e: object_store::Error) -> Error {
    Error::Io(e.into())
}

/// The object a file was opened from: its location, and the size, ETag and
/// version the store gave at open. Every later request asks for that ETag
/// (`If-Match`) and checks what the store answers, so that a file rewritten
/// after the open is an error, never another file's bytes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Object {
    pub(crate) location: Path,
    pub(crate) size: u64,
    pub(crate) e_tag: Option<String>,
    pub(crate) version: Option<String>,
}

impl Object {
    fn of(location: &Path, meta: &ObjectMeta) -> Self {
        Object {
            location: location.clone(),
            size: meta.size,
            e_tag: meta.e_tag.clone(),
            version: meta.version.clone(),
        }
    }

    /// The options of a request for `range` of this object.
    fn options(&self, range: Range<u64>) -> GetOptions {
        GetOptions {
            range: Some(GetRange::Bounded(range)),
            // Stores that know ETags refuse the request when the object's
            // is another (`Error::Precondition`); for the others, `check`
            // compares the metadata returned.
            if_match: self.e_tag.clone(),
            ..GetOptions::default()
        }
    }

    /// Checks that `meta`, returned with a response, is this object's.
    pub(crate) fn check(&self, meta: &ObjectMeta) -> Result<()> {
        let mut changed = Vec::new();
        if meta.size != self.size {
            changed.push(format!("its size was {}, it is {}", self.size, meta.size));
        }
        if self.e_tag.is_some() && meta.e_tag.is_some() && meta.e_tag != self.e_tag {
            changed.push(format!(
                "its ETag was {}, it is {}",
                show(self.e_tag.as_deref()),
                show(meta.e_tag.as_deref())
            ));
        }
        if self.version.is_some() && meta.version.is_some() && meta.version != self.version {
            changed.push(format!(
                "its version was {}, it is {}",
                show(self.version.as_deref()),
                show(meta.version.as_deref())
            ));
        }
        if changed.is_empty() {
            Ok(())
        } else {
            Err(self.changed(&changed.join(", ")))
        }
    }

    /// The error for a request made after the object changed.
    pub(crate) fn changed(&self, what: &str) -> Error {
        Error::Io(std::io::Error::other(format!(
            "the object `{}` changed since it was opened ({what}); open it again to read the new object",
            self.location
        )))
    }

    /// `e` from a request for this object: a failed `If-Match` says the
    /// object changed.
    fn error(&self, e: object_store::Error) -> Error {
        match e {
            object_store::Error::Precondition { .. } => self.changed(&format!(
                "the store refused the ETag {} seen at open",
                show(self.e_tag.as_deref())
            )),
            e => store_error(e),
        }
    }
}

fn show(tag: Option<&str>) -> String {
    tag.map_or_else(|| "none".to_owned(), |t| format!("`{t}`"))
}

/// An [`ObjectStore`] object as an [`AsyncReadAt`]: the source of
/// [`RemoteFile::open`](super::RemoteFile::open).
///
/// [`ObjectStoreSource::open`] makes one suffix request (the last
/// [`FetchOptions::footer_guess`] bytes), which gives the object's size,
/// ETag and version; reads inside those bytes are served from them. Every
/// later read asks for the ETag seen at open (`If-Match`) and checks the
/// size, ETag and version the store returns: an object rewritten since is
/// an `Err` ("the object ... changed since it was opened"), never the new
/// object's bytes. A read longer than [`FetchOptions::max_request_bytes`]
/// is cut into requests of that size, fetched at most
/// [`FetchOptions::concurrency`] at a time.
///
/// ```
/// use std::sync::Arc;
/// use parquet_rows::remote::{FetchOptions, ObjectStoreSource, RemoteFile};
/// use parquet_rows::source::AsyncReadAt;
/// use object_store::{memory::InMemory, path::Path, ObjectStore, ObjectStoreExt};
///
/// # fn main() -> Result<(), Box<dyn std::error::Error>> {
/// # let bytes = parquet_rows::doc_support::tick_file(10)?;
/// let store: Arc<dyn ObjectStore> = Arc::new(InMemory::new());
/// let location = Path::from("ticks.parquet");
/// # tokio::runtime::Builder::new_current_thread().build()?.block_on(async {
/// store.put(&location, bytes.clone().into()).await?;
/// let source = ObjectStoreSource::open(store, location, FetchOptions::default()).await?;
/// assert_eq!(source.len(), bytes.len() as u64);
/// let remote = RemoteFile::from_source(Arc::new(source)).await?; // no second request
/// assert_eq!(remote.num_row_groups(), 1);
/// # Ok::<_, Box<dyn std::error::Error>>(()) })?;
/// # Ok(()) }
/// ```
#[derive(Debug, Clone)]
pub struct ObjectStoreSource {
    store: Arc<dyn ObjectStore>,
    object: Object,     // location, size, ETag and version at open
    tail: Bytes,        // the last bytes of the object, read at open
    concurrency: usize, // requests of one read in flight at once, >= 1
    max_request: u64,   // the most bytes one request asks for, >= 1
}

impl ObjectStoreSource {
    /// Opens `location` with one suffix request of
    /// [`FetchOptions::footer_guess`] bytes (which gives the object's size,
    /// ETag and version, and, for a Parquet file, usually its footer).
    pub async fn open(
        store: Arc<dyn ObjectStore>,
        location: Path,
        fetch: FetchOptions,
    ) -> Result<Self> {
        let guess = fetch.footer_guess.max(8);
        let options = GetOptions {
            range: Some(GetRange::Suffix(guess)),
            ..GetOptions::default()
        };
        let result = store
            .get_opts(&location, options)
            .await
            .map_err(store_error)?;
        let object = Object::of(&location, &result.meta);
        let tail = result.bytes().await.map_err(store_error)?;
        if tail.len() as u64 != object.size.min(guess) {
            return Err(short_read(object.size.min(guess), tail.len()));
        }
        Ok(ObjectStoreSource {
            store,
            object,
            tail,
            concurrency: fetch.concurrency_limit(),
            max_request: fetch.request_bytes_limit(),
        })
    }

    /// Where the object is in its store.
    pub fn location(&self) -> &Path {
        &self.object.location
    }

    /// The object's ETag at open, if the store gives one.
    pub fn e_tag(&self) -> Option<&str> {
        self.object.e_tag.as_deref()
    }

    /// The object's version at open, if the store gives one.
    pub fn version(&self) -> Option<&str> {
        self.object.version.as_deref()
    }

    /// The object's identity at open.
    pub(crate) fn object(&self) -> &Object {
        &self.object
    }

    /// `range`, served from the bytes read at open when it lies in them,
    /// otherwise fetched in pieces of at most `max_request` bytes.
    async fn read(&self, range: Range<u64>) -> Result<Bytes> {
        let size = self.object.size;
        if range.start > range.end || range.end > size {
            return Err(Error::Io(std::io::Error::new(
                std::io::ErrorKind::UnexpectedEof,
                format!(
                    "the range {range:?} is not inside the object `{}` of {size} bytes",
                    self.object.location
                ),
            )));
        }
        let tail_start = size - self.tail.len() as u64;
        if range.start >= tail_start {
            let at = |x: u64| (x - tail_start) as usize;
            return Ok(self.tail.slice(at(range.start)..at(range.end)));
        }
        let parts: Vec<Bytes> = futures_util::stream::iter(pieces(range, self.max_request))
            .map(|piece| fetch_exact(&*self.store, &self.object, piece))
            .buffered(self.concurrency)
            .try_collect()
            .await?;
        Ok(join(parts))
    }
}

impl AsyncReadAt for ObjectStoreSource {
    fn read_at(&self, range: Range<u64>) -> ReadFuture<'_> {
        Box::pin(async move { self.read(range).await.map_err(into_io) })
    }

    fn len(&self) -> u64 {
        self.object.size
    }
}

/// This crate's error as the `io::Error` of a source (an I/O error as
/// itself; `into_error` gives it back).
fn into_io(e: Error) -> std::io::Error {
    match e {
        Error::Io(e) => e,
        e => std::io::Error::other(e.to_string()),
    }
}

/// Reads the footer of `source` by reading its last `guess` bytes, and
/// the rest of a longer footer. Returns the footer and the bytes read from
/// the end of the file (the footer and whatever precedes it in the read:
/// often the page indexes and bloom filters).
pub(crate) async fn footer(source: &dyn AsyncReadAt, guess: u64) -> Result<(Footer, Bytes)> {
    let len = source.len();
    let guess = len.min(guess.max(8));
    let mut tail = read_exact(source, len - guess..len).await?;
    if let Some(need) = missing(&tail, len) {
        let rest = read_exact(source, len - need..len - tail.len() as u64).await?;
        let mut whole = BytesMut::with_capacity(rest.len() + tail.len());
        whole.extend_from_slice(&rest);
        whole.extend_from_slice(&tail);
        tail = whole.freeze();
    }
    Ok((Footer::decode(tail.clone(), len)?, tail))
}

/// Reads `ranges` of `source`, each cut into reads of at most
/// `max_request` bytes, at most `concurrency` reads at a time; the result
/// is one `Bytes` per range, in the order of `ranges`.
pub(crate) async fn ranges(
    source: &dyn AsyncReadAt,
    ranges: Vec<Range<u64>>,
    concurrency: usize,
    max_request: u64,
) -> Result<Vec<(u64, Bytes)>> {
    let pieces: Vec<(usize, Range<u64>)> = ranges
        .iter()
        .enumerate()
        .flat_map(|(i, r)| pieces(r.clone(), max_request).map(move |p| (i, p)))
        .collect();
    let fetched: Vec<(usize, Bytes)> = futures_util::stream::iter(pieces)
        .map(|(i, piece)| async move { Ok::<_, Error>((i, read_exact(source, piece).await?)) })
        .buffered(concurrency.max(1))
        .try_collect()
        .await?;
    // The pieces of a range, in order, joined again: a column chunk is read
    // from one buffer.
    let mut out: Vec<(u64, Bytes)> = Vec::with_capacity(ranges.len());
    let mut fetched = fetched.into_iter().peekable();
    for (i, range) in ranges.iter().enumerate() {
        let mut parts = Vec::new();
        while let Some((_, piece)) = fetched.next_if(|(j, _)| *j == i) {
            parts.push(piece);
        }
        out.push((range.start, join(parts)));
    }
    Ok(out)
}

/// One read of `range` of `source`, checked to be as long as the range.
async fn read_exact(source: &dyn AsyncReadAt, range: Range<u64>) -> Result<Bytes> {
    let want = range.end - range.start;
    let bytes = source.read_at(range).await.map_err(Error::Io)?;
    if bytes.len() as u64 != want {
        return Err(short_read(want, bytes.len()));
    }
    Ok(bytes)
}

/// `parts`, in order, as one buffer (the one part itself when there is one).
fn join(mut parts: Vec<Bytes>) -> Bytes {
    if parts.len() == 1 {
        return parts.swap_remove(0);
    }
    let mut joined = BytesMut::with_capacity(parts.iter().map(Bytes::len).sum());
    for part in &parts {
        joined.extend_from_slice(part);
    }
    joined.freeze()
}

/// `range` cut into consecutive pieces of at most `max` bytes (at least 1).
fn pieces(range: Range<u64>, max: u64) -> impl Iterator<Item = Range<u64>> {
    let max = max.max(1);
    let mut at = range.start;
    std::iter::from_fn(move || {
        (at < range.end).then(|| {
            let end = range.end.min(at.saturating_add(max));
            let piece = at..end;
            at = end;
            piece
        })
    })
}

/// One range request of `object`; a store that returns fewer bytes than
/// asked, or the bytes of another object than the one opened, is an error.
async fn fetch_exact(store: &dyn ObjectStore, object: &Object, range: Range<u64>) -> Result<Bytes> {
    let want = range.end - range.start;
    let result = store
        .get_opts(&object.location, object.options(range))
        .await
        .map_err(|e| object.error(e))?;
    object.check(&result.meta)?;
    let bytes = result.bytes().await.map_err(|e| object.error(e))?;
    if bytes.len() as u64 != want {
        return Err(short_read(want, bytes.len()));
    }
    Ok(bytes)
}

fn short_read(want: u64, got: usize) -> Error {
    Error::Io(std::io::Error::new(
        std::io::ErrorKind::UnexpectedEof,
        format!("the object store returned {got} bytes for a range of {want}"),
    ))
}

#[cfg(test)]
mod tests {
    use super::pieces;

    #[test]
    fn ranges_are_cut_into_pieces_of_at_most_the_request_size() {
        let cut: Vec<_> = pieces(10..35, 10).collect();
        assert_eq!(cut, [10..20, 20..30, 30..35]);
        let whole: Vec<_> = pieces(10..20, 10).collect();
        assert_eq!((whole.len(), whole[0].clone()), (1, 10..20));
        assert_eq!(pieces(5..5, 10).count(), 0);
        assert_eq!(pieces(0..3, 0).count(), 3); // a size of 0 is 1
    }
}
