//! The bytes of an open file, read by range: memory, any public
//! [`ReadAt`](crate::source::ReadAt) source (files, `ChunkReader`s, the
//! user's own), a `Read + Seek` behind a lock, or the ranges fetched from an
//! object store.

use std::io::{Read, Seek, SeekFrom};
use std::sync::{Arc, Mutex};

use bytes::Bytes;

use crate::error::Result;
use crate::source::ReadAt;

/// The bytes of an open file, read by range.
#[derive(Clone)]
pub(crate) enum Source {
    /// A file held in memory: ranges are slices, nothing is copied.
    Bytes(Bytes),
    /// Any reader by position (see [`ReadAt`]): a file on disk (`pread`,
    /// so threads share one handle), a `ChunkReader`, a `Read + Seek`
    /// behind a lock, the user's own.
    Shared(Arc<dyn ReadAt>),
    /// Ranges fetched ahead of decoding (from an object store): a read
    /// outside them is an error that says so.
    #[cfg(feature = "object_store")]
    Fetched(Arc<Fetched>),
}

impl std::fmt::Debug for Source {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Source::Bytes(bytes) => write!(f, "Bytes({} bytes)", bytes.len()),
            Source::Shared(_) => f.write_str("Shared"),
            #[cfg(feature = "object_store")]
            Source::Fetched(fetched) => write!(f, "Fetched({} ranges)", fetched.ranges.len()),
        }
    }
}

impl Source {
    /// The `len` bytes from `start`, which the caller checked lie inside the
    /// file (so the buffer is bounded by the file's real size).
    pub(crate) fn read(&self, start: u64, len: u64) -> Result<Bytes> {
        match self {
            Source::Bytes(bytes) => {
                let start = usize::try_from(start).unwrap_or(usize::MAX);
                let end = start.saturating_add(usize::try_from(len).unwrap_or(usize::MAX));
                bytes
                    .get(start..end)
                    .map(|_| bytes.slice(start..end))
                    .ok_or_else(|| past_the_end().into())
            }
            Source::Shared(reader) => {
                let end = start.checked_add(len).ok_or_else(past_the_end)?;
                let bytes = reader.read_at(start..end)?;
                // A source of the user's may return fewer (or more) bytes
                // than asked for; the page reader relies on the length.
                if bytes.len() as u64 != len {
                    return Err(std::io::Error::new(
                        std::io::ErrorKind::UnexpectedEof,
                        format!(
                            "the source gave {} bytes for the range {start}..{end}",
                            bytes.len()
                        ),
                    )
                    .into());
                }
                Ok(bytes)
            }
            #[cfg(feature = "object_store")]
            Source::Fetched(fetched) => fetched.read_at(start, len),
        }
    }
}

fn past_the_end() -> std::io::Error {
    std::io::Error::new(
        std::io::ErrorKind::UnexpectedEof,
        "a range past the end of the bytes",
    )
}

/// Reads `len` bytes from `start` of `reader`.
fn read_seek(reader: &mut (impl Read + Seek), start: u64, len: u64) -> std::io::Result<Bytes> {
    reader.seek(SeekFrom::Start(start))?;
    let mut buf = vec![0; usize::try_from(len).map_err(|_| past_the_end())?];
    reader.read_exact(&mut buf)?;
    Ok(Bytes::from(buf))
}

/// A `Read + Seek` reader: one cursor, so reads take turns. Its length is
/// found once, by seeking to the end, when the file is opened.
pub(crate) struct Seeker<R>(pub(crate) Mutex<R>);

impl<R: Read + Seek + Send> ReadAt for Seeker<R> {
    fn read_at(&self, range: std::ops::Range<u64>) -> std::io::Result<Bytes> {
        // A reader that panicked mid-read left its cursor anywhere, and every
        // read seeks first: the poisoned lock's reader is still usable.
        let mut reader = self
            .0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        read_seek(
            &mut *reader,
            range.start,
            range.end.saturating_sub(range.start),
        )
    }

    fn len(&self) -> std::io::Result<u64> {
        let mut reader = self
            .0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        reader.seek(SeekFrom::End(0))
    }
}

/// Byte ranges of a file fetched ahead of decoding (from an object store),
/// sorted by start and not overlapping.
#[cfg(any(test, feature = "object_store"))]
#[derive(Debug, Default)]
pub(crate) struct Fetched {
    pub(crate) ranges: Vec<(u64, Bytes)>, // invariant: sorted by start, disjoint
}

#[cfg(any(test, feature = "object_store"))]
impl Fetched {
    /// Ranges fetched in several rounds as one source: sorted, a range
    /// inside another dropped, overlapping ones joined.
    pub(crate) fn merged(mut parts: Vec<(u64, Bytes)>) -> Fetched {
        parts.sort_by_key(|(start, bytes)| (*start, std::cmp::Reverse(bytes.len())));
        let mut ranges: Vec<(u64, Bytes)> = Vec::with_capacity(parts.len());
        for (start, bytes) in parts {
            let end = start.saturating_add(bytes.len() as u64);
            if let Some((last_start, last)) = ranges.last_mut() {
                let last_end = *last_start + last.len() as u64;
                if start < last_end {
                    if end > last_end {
                        // `start >= last_start`: the new range's tail extends it.
                        let tail = usize::try_from(last_end - start).unwrap_or(usize::MAX);
                        let mut joined = Vec::with_capacity(last.len() + bytes.len() - tail);
                        joined.extend_from_slice(last);
                        joined.extend_from_slice(&bytes[tail..]);
                        *last = Bytes::from(joined);
                    }
                    continue;
                }
            }
            ranges.push((start, bytes));
        }
        Fetched { ranges }
    }
}

#[cfg(any(test, feature = "object_store"))]
impl Fetched {
    /// The `len` bytes from `start`, if they were fetched.
    fn read_at(&self, start: u64, len: u64) -> Result<Bytes> {
        let i = self.ranges.partition_point(|(s, _)| *s <= start);
        let found = i.checked_sub(1).and_then(|i| {
            let (s, bytes) = &self.ranges[i];
            let from = usize::try_from(start - s).ok()?;
            let to = from.checked_add(usize::try_from(len).ok()?)?;
            (to <= bytes.len()).then(|| bytes.slice(from..to))
        });
        found.ok_or_else(|| crate::Error::Unsupported {
            location: crate::Location::default(),
            message: format!(
                "bytes {start}..{} of the file were not fetched (read only the row groups that were fetched)",
                start.saturating_add(len)
            ),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fetched_ranges_serve_slices_inside_them_only() {
        let fetched = Fetched {
            ranges: vec![
                (10, Bytes::from_static(b"abcdef")),
                (100, Bytes::from_static(b"xyz")),
            ],
        };
        assert_eq!(&fetched.read_at(12, 3).unwrap()[..], b"cde");
        assert_eq!(&fetched.read_at(100, 3).unwrap()[..], b"xyz");
        assert!(fetched.read_at(14, 3).is_err()); // runs past the first range
        assert!(fetched.read_at(5, 2).is_err()); // before any range
        assert!(fetched.read_at(50, 1).is_err()); // between ranges
        assert!(fetched.read_at(u64::MAX, u64::MAX).is_err());
    }

    #[test]
    fn merged_rounds_serve_every_range_of_every_round() {
        let file: Vec<u8> = (0..=255).collect();
        let part = |r: std::ops::Range<usize>| (r.start as u64, Bytes::copy_from_slice(&file[r]));
        let rounds = vec![
            part(100..120),
            part(10..20),
            part(12..15), // inside another
            part(15..30), // overlapping its end
            part(30..40), // touching
            part(200..210),
            part(100..120), // fetched twice
        ];
        let fetched = Fetched::merged(rounds.clone());
        assert!(fetched
            .ranges
            .windows(2)
            .all(|w| w[0].0 + w[0].1.len() as u64 <= w[1].0));
        for (start, bytes) in &rounds {
            let got = fetched.read_at(*start, bytes.len() as u64).unwrap();
            assert_eq!(got, *bytes, "range at {start}");
        }
        assert_eq!(&fetched.read_at(11, 15).unwrap()[..], &file[11..26]);
        assert!(fetched.read_at(40, 1).is_err());
    }

    #[test]
    fn a_seeker_reads_ranges_of_a_cursor() {
        let seeker = Seeker(Mutex::new(std::io::Cursor::new(b"0123456789".to_vec())));
        assert_eq!(&seeker.read_at(3..7).unwrap()[..], b"3456");
        assert!(seeker.read_at(8..12).is_err());
        assert_eq!(seeker.len().unwrap(), 10);
    }

    #[test]
    fn a_short_read_of_a_shared_source_is_an_error() {
        /// Gives one byte less than asked for.
        struct Short;
        impl ReadAt for Short {
            fn read_at(&self, range: std::ops::Range<u64>) -> std::io::Result<Bytes> {
                Ok(Bytes::from(vec![0; (range.end - range.start - 1) as usize]))
            }
            fn len(&self) -> std::io::Result<u64> {
                Ok(100)
            }
        }
        let err = Source::Shared(Arc::new(Short)).read(10, 20).unwrap_err();
        assert!(
            err.to_string()
                .contains("gave 19 bytes for the range 10..30"),
            "{err}"
        );
    }
}
