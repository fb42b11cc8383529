//! Where a file's bytes come from: [`ReadAt`], reads by position.
//!
//! A reader of a Parquet file asks for byte ranges: the footer at the end,
//! then the column chunks a struct binds, possibly from several threads at
//! once (a read with [`threads`](crate::RowsBuilder::threads), or one
//! [`ParquetFile`](crate::ParquetFile) shared between threads). A source that
//! reads by position has no cursor to share, so it needs no lock and no
//! second handle: `std::fs::File` reads with `pread` (`FileExt::read_exact_at`
//! on Unix, `seek_read` on Windows), `Bytes` slices, and any type of the
//! user's (a memory map, a cache, a network client) implements the trait.
//!
//! ```
//! use std::ops::Range;
//! use bytes::Bytes;
//! use parquet_rows::source::ReadAt;
//! use parquet_rows::{ParquetFile, ParquetRow};
//!
//! /// A file whose bytes are served by some other system.
//! struct Served(Bytes);
//!
//! impl ReadAt for Served {
//!     fn read_at(&self, range: Range<u64>) -> std::io::Result<Bytes> {
//!         Ok(self.0.slice(range.start as usize..range.end as usize))
//!     }
//!     fn len(&self) -> std::io::Result<u64> {
//!         Ok(self.0.len() as u64)
//!     }
//! }
//!
//! #[derive(ParquetRow)]
//! struct Tick { ts: i64, bid: f64 }
//!
//! # fn main() -> parquet_rows::Result<()> {
//! # let bytes = parquet_rows::doc_support::tick_file(10)?;
//! let file = ParquetFile::from_source(Served(bytes))?;
//! assert_eq!(file.rows::<Tick>().collect()?.len(), 10);
//! # Ok(()) }
//! ```

use std::io;
use std::ops::Range;
use std::sync::Arc;

use bytes::Bytes;
use parquet::file::reader::ChunkReader;

/// A source of a file's bytes, read by position (no cursor), so that one
/// value serves reads from several threads at once.
///
/// The readers of this crate ask only for ranges inside `0..len()`, and
/// check that the bytes returned are as many as asked for (a short read is
/// an `Err`, never a shorter chunk).
#[allow(clippy::len_without_is_empty)] // an empty source is never a Parquet file
pub trait ReadAt: Send + Sync {
    /// The bytes of `range` (`range.start <= range.end`, both inside the
    /// source); fewer bytes than asked for only at an error.
    fn read_at(&self, range: Range<u64>) -> io::Result<Bytes>;

    /// The source's length in bytes (asked for once, when the file is opened).
    fn len(&self) -> io::Result<u64>;
}

/// The length of `range`, as a buffer size.
fn buffer_len(range: &Range<u64>) -> io::Result<usize> {
    range
        .end
        .checked_sub(range.start)
        .and_then(|n| usize::try_from(n).ok())
        .ok_or_else(|| {
            io::Error::new(
                io::ErrorKind::InvalidInput,
                format!("a byte range {}..{} cannot be read", range.start, range.end),
            )
        })
}

/// Positional reads (`pread`): the file's cursor is neither used nor moved,
/// so a handle shared by threads needs no lock.
#[cfg(unix)]
impl ReadAt for std::fs::File {
    fn read_at(&self, range: Range<u64>) -> io::Result<Bytes> {
        let mut buf = vec![0; buffer_len(&range)?];
        std::os::unix::fs::FileExt::read_exact_at(self, &mut buf, range.start)?;
        Ok(Bytes::from(buf))
    }

    fn len(&self) -> io::Result<u64> {
        Ok(self.metadata()?.len())
    }
}

/// Positional reads (`ReadFile` with an offset): `seek_read` moves the
/// file's cursor, which no read of this crate uses, and reads from the
/// offset given, so reads from several threads do not mix.
#[cfg(windows)]
impl ReadAt for std::fs::File {
    fn read_at(&self, range: Range<u64>) -> io::Result<Bytes> {
        let mut buf = vec![0; buffer_len(&range)?];
        let mut filled = 0;
        while filled < buf.len() {
            let at = range.start + filled as u64;
            match std::os::windows::fs::FileExt::seek_read(self, &mut buf[filled..], at) {
                Ok(0) => {
                    return Err(io::Error::new(
                        io::ErrorKind::UnexpectedEof,
                        format!("the file ends at {at}, inside the range {range:?}"),
                    ))
                }
                Ok(n) => filled += n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
        Ok(Bytes::from(buf))
    }

    fn len(&self) -> io::Result<u64> {
        Ok(self.metadata()?.len())
    }
}

/// Slices of the bytes: nothing is copied.
impl ReadAt for Bytes {
    fn read_at(&self, range: Range<u64>) -> io::Result<Bytes> {
        let start = usize::try_from(range.start).unwrap_or(usize::MAX);
        let end = usize::try_from(range.end).unwrap_or(usize::MAX);
        if start > end || end > Bytes::len(self) {
            return Err(io::Error::new(
                io::ErrorKind::UnexpectedEof,
                format!(
                    "the range {range:?} is not inside the {} bytes",
                    Bytes::len(self)
                ),
            ));
        }
        Ok(self.slice(start..end))
    }

    fn len(&self) -> io::Result<u64> {
        Ok(Bytes::len(self) as u64)
    }
}

impl<T: ReadAt + ?Sized> ReadAt for Arc<T> {
    fn read_at(&self, range: Range<u64>) -> io::Result<Bytes> {
        (**self).read_at(range)
    }

    fn len(&self) -> io::Result<u64> {
        (**self).len()
    }
}

impl<T: ReadAt + ?Sized> ReadAt for Box<T> {
    fn read_at(&self, range: Range<u64>) -> io::Result<Bytes> {
        (**self).read_at(range)
    }

    fn len(&self) -> io::Result<u64> {
        (**self).len()
    }
}

/// A `parquet` crate [`ChunkReader`] as a [`ReadAt`]: ranges are its
/// `get_bytes`, the length its `len`. (`std::fs::File` and `Bytes` are
/// `ChunkReader`s too, but read by position directly as [`ReadAt`]s: the
/// `ChunkReader` of a `File` seeks a cursor that its clones share.)
///
/// ```
/// use parquet_rows::source::ChunkReaderAt;
/// # use parquet_rows::{ParquetFile, ParquetRow};
/// # #[derive(ParquetRow)] struct Tick { ts: i64 }
/// # fn main() -> parquet_rows::Result<()> {
/// # let bytes = parquet_rows::doc_support::tick_file(10)?;
/// let file = ParquetFile::from_source(ChunkReaderAt(bytes))?;
/// assert_eq!(file.rows::<Tick>().collect()?.len(), 10);
/// # Ok(()) }
/// ```
#[derive(Debug, Clone)]
pub struct ChunkReaderAt<C>(pub C);

impl<C: ChunkReader> ReadAt for ChunkReaderAt<C> {
    fn read_at(&self, range: Range<u64>) -> io::Result<Bytes> {
        let len = buffer_len(&range)?;
        self.0.get_bytes(range.start, len).map_err(|e| match e {
            parquet::errors::ParquetError::External(e) => match e.downcast::<io::Error>() {
                Ok(e) => *e,
                Err(e) => io::Error::other(e),
            },
            e => io::Error::other(e),
        })
    }

    fn len(&self) -> io::Result<u64> {
        Ok(parquet::file::reader::Length::len(&self.0))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bytes_serve_slices_inside_them_only() {
        let bytes = Bytes::from_static(b"0123456789");
        assert_eq!(&bytes.read_at(3..7).unwrap()[..], b"3456");
        assert_eq!(ReadAt::len(&bytes).unwrap(), 10);
        assert!(bytes.read_at(8..12).is_err());
        #[allow(clippy::reversed_empty_ranges)] // a caller's bad range: an `Err`
        let backwards = bytes.read_at(5..2);
        assert!(backwards.is_err());
        assert!(bytes.read_at(u64::MAX - 1..u64::MAX).is_err());
    }

    #[cfg(any(unix, windows))]
    #[test]
    fn a_file_reads_ranges_by_position_and_fails_past_its_end() {
        use std::io::Write;
        let path =
            std::env::temp_dir().join(format!("parquet-rows-read-at-{}", std::process::id()));
        std::fs::File::create(&path)
            .unwrap()
            .write_all(b"0123456789")
            .unwrap();
        let file = std::fs::File::open(&path).unwrap();
        std::fs::remove_file(&path).ok();
        assert_eq!(ReadAt::len(&file).unwrap(), 10);
        // Reads in any order: no cursor.
        assert_eq!(&file.read_at(6..9).unwrap()[..], b"678");
        assert_eq!(&file.read_at(0..2).unwrap()[..], b"01");
        assert_eq!(&file.read_at(6..9).unwrap()[..], b"678");
        assert!(file.read_at(8..12).is_err());
    }

    #[test]
    fn a_chunk_reader_reads_its_ranges() {
        let reader = ChunkReaderAt(Bytes::from_static(b"abcdef"));
        assert_eq!(&reader.read_at(1..4).unwrap()[..], b"bcd");
        assert_eq!(reader.len().unwrap(), 6);
        let shared: Arc<dyn ReadAt> = Arc::new(reader);
        assert_eq!(&shared.read_at(4..6).unwrap()[..], b"ef");
    }
}
