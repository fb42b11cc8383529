//! Where a file's bytes come from: memory or a file handle.

use std::io::{Read, Seek, SeekFrom};
use std::sync::Arc;

use bytes::Bytes;

/// The bytes of an open file, read by range.
#[derive(Debug, Clone)]
pub(crate) enum Source {
    /// A file held in memory: ranges are slices, nothing is copied.
    Bytes(Bytes),
    /// A file on disk. Clones of a `std::fs::File` share one cursor, so a
    /// handle is read by one thread at a time (parallel readers open their own).
    File(Arc<std::fs::File>),
}

impl Source {
    /// The `len` bytes from `start`, which the caller checked lie inside the
    /// file (so the buffer is bounded by the file's real size).
    pub(crate) fn read(&self, start: u64, len: u64) -> std::io::Result<Bytes> {
        match self {
            Source::Bytes(bytes) => {
                let start = usize::try_from(start).unwrap_or(usize::MAX);
                let end = start.saturating_add(usize::try_from(len).unwrap_or(usize::MAX));
                bytes
                    .get(start..end)
                    .map(|_| bytes.slice(start..end))
                    .ok_or_else(|| {
                        std::io::Error::new(
                            std::io::ErrorKind::UnexpectedEof,
                            "a range past the end of the bytes",
                        )
                    })
            }
            Source::File(file) => {
                let mut reader = &**file;
                reader.seek(SeekFrom::Start(start))?;
                let mut buf = vec![0; usize::try_from(len).unwrap_or(usize::MAX)];
                reader.read_exact(&mut buf)?;
                Ok(Bytes::from(buf))
            }
        }
    }
}
