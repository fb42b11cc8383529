//! Requests to an object store: the footer by one suffix request, column
//! chunks by ranges, a bounded number at a time, each cut at a bounded size
//! and each checked to come from the object that was opened.

use std::ops::Range;

use bytes::{Bytes, BytesMut};
use futures_util::{StreamExt, TryStreamExt};
use object_store::path::Path;
use object_store::{GetOptions, GetRange, ObjectMeta, ObjectStore};

use crate::error::{Error, Result};
use crate::footer::{missing, Footer};

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

/// Reads the footer of `location` with one suffix request of `guess` bytes
/// (which also gives the object's length, ETag and version), and a second
/// for the rest of a longer footer. Returns the footer, the object, and
/// the bytes read from the end of the object (the footer and whatever
/// precedes it in the request: often the page indexes and bloom filters).
pub(crate) async fn footer(
    store: &dyn ObjectStore,
    location: &Path,
    guess: u64,
) -> Result<(Footer, Object, Bytes)> {
    let options = GetOptions {
        range: Some(GetRange::Suffix(guess.max(8))),
        ..GetOptions::default()
    };
    let result = store
        .get_opts(location, options)
        .await
        .map_err(store_error)?;
    let object = Object::of(location, &result.meta);
    let len = object.size;
    let mut tail = result.bytes().await.map_err(store_error)?;
    if tail.len() as u64 != len.min(guess.max(8)) {
        return Err(short_read(len.min(guess.max(8)), tail.len()));
    }
    if let Some(need) = missing(&tail, len) {
        let rest = fetch_exact(store, &object, len - need..len - tail.len() as u64).await?;
        let mut whole = BytesMut::with_capacity(rest.len() + tail.len());
        whole.extend_from_slice(&rest);
        whole.extend_from_slice(&tail);
        tail = whole.freeze();
    }
    Ok((Footer::decode(tail.clone(), len)?, object, tail))
}

/// Fetches `ranges` of `object`, each cut into requests of at most
/// `max_request` bytes, at most `concurrency` requests at a time; the
/// result is one `Bytes` per range, in the order of `ranges`.
pub(crate) async fn ranges(
    store: &dyn ObjectStore,
    object: &Object,
    ranges: Vec<Range<u64>>,
    concurrency: usize,
    max_request: u64,
) -> Result<Vec<(u64, Bytes)>> {
    let pieces: Vec<(usize, Range<u64>)> = ranges
        .iter()
        .enumerate()
        .flat_map(|(i, r)| pieces(r.clone(), max_request).map(move |p| (i, p)))
        .collect();
    let fetched: Vec<(usize, Bytes)> =
        futures_util::stream::iter(pieces)
            .map(|(i, piece)| async move {
                Ok::<_, Error>((i, fetch_exact(store, object, piece).await?))
            })
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
        let bytes = if parts.len() == 1 {
            parts.swap_remove(0)
        } else {
            let mut joined = BytesMut::with_capacity(parts.iter().map(Bytes::len).sum());
            for part in &parts {
                joined.extend_from_slice(part);
            }
            joined.freeze()
        };
        out.push((range.start, bytes));
    }
    Ok(out)
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
