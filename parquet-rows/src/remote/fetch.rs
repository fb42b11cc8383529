//! Requests to an object store: the footer by one suffix request, column
//! chunks by ranges, a bounded number at a time.

use std::ops::Range;

use bytes::{Bytes, BytesMut};
use futures_util::{StreamExt, TryStreamExt};
use object_store::path::Path;
use object_store::{GetOptions, GetRange, ObjectStore, ObjectStoreExt};

use crate::error::{Error, Result};
use crate::footer::{missing, Footer};

/// An object store's error as this crate's I/O error (`object_store` maps
/// its not-found and permission errors to the matching `io::ErrorKind`).
pub(crate) fn store_error(e: object_store::Error) -> Error {
    Error::Io(e.into())
}

/// Reads the footer of `location` with one suffix request of `guess` bytes
/// (which also gives the object's length), and a second for the rest of a
/// longer footer. Returns the footer and the object's length.
pub(crate) async fn footer(
    store: &dyn ObjectStore,
    location: &Path,
    guess: u64,
) -> Result<(Footer, u64)> {
    let options = GetOptions {
        range: Some(GetRange::Suffix(guess.max(8))),
        ..GetOptions::default()
    };
    let result = store
        .get_opts(location, options)
        .await
        .map_err(store_error)?;
    let len = result.meta.size;
    let mut tail = result.bytes().await.map_err(store_error)?;
    if tail.len() as u64 != len.min(guess.max(8)) {
        return Err(short_read(len.min(guess.max(8)), tail.len()));
    }
    if let Some(need) = missing(&tail, len) {
        let rest = fetch_exact(store, location, len - need..len - tail.len() as u64).await?;
        let mut whole = BytesMut::with_capacity(rest.len() + tail.len());
        whole.extend_from_slice(&rest);
        whole.extend_from_slice(&tail);
        tail = whole.freeze();
    }
    Ok((Footer::decode(tail, len)?, len))
}

/// Fetches `ranges` of `location`, at most `concurrency` requests at a
/// time; the result is in the order of `ranges`.
pub(crate) async fn ranges(
    store: &dyn ObjectStore,
    location: &Path,
    ranges: Vec<Range<u64>>,
    concurrency: usize,
) -> Result<Vec<(u64, Bytes)>> {
    futures_util::stream::iter(ranges)
        .map(|range| async move {
            let start = range.start;
            Ok((start, fetch_exact(store, location, range).await?))
        })
        .buffered(concurrency.max(1))
        .try_collect()
        .await
}

/// One range request; a store that returns fewer bytes than asked (the
/// object shrank) is an error, not a short chunk.
async fn fetch_exact(store: &dyn ObjectStore, location: &Path, range: Range<u64>) -> Result<Bytes> {
    let want = range.end - range.start;
    let bytes = store
        .get_range(location, range)
        .await
        .map_err(store_error)?;
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
