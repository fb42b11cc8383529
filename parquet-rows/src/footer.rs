//! A file's footer: found in the last bytes of the file, checked by the rules
//! crate's bounded reader, then parsed by the `parquet` crate.
//!
//! Every source reads the footer the same way, so the checks of
//! `docs/hostile-input.md` hold for all of them: the caller fetches the last
//! [`FOOTER_GUESS`] bytes (or the whole file, if smaller), [`missing`] says
//! whether the footer is longer than that and how many bytes to fetch instead,
//! and [`Footer::decode`] checks and parses them.

use std::sync::Arc;

use bytes::Bytes;
use parquet::errors::ParquetError;
use parquet::file::metadata::{
    ParquetMetaData, ParquetMetaDataOptions, ParquetMetaDataReader, ParquetStatisticsPolicy,
};
use parquet::file::reader::{ChunkReader, Length};

use parquet_rows_rules::DroppedAnnotation;

use crate::error::{Error, Location, Result};

/// How many bytes at the end of a file are fetched first: the footer of a
/// file of a few hundred columns and row groups fits, so one request usually
/// brings the whole footer.
pub(crate) const FOOTER_GUESS: u64 = 64 << 10;

/// The parsed footer of a file, shared by the readers of the file (and by
/// the splits made from it).
///
/// It has the two methods of the `parquet` crate's `FileReader` that the load
/// paths use, so they read the footer the same way whatever the source.
#[derive(Debug, Clone)]
pub(crate) struct Footer {
    metadata: Arc<ParquetMetaData>,
    dropped: Arc<[DroppedAnnotation]>, // annotations taken out before `parquet` parsed the footer
}

impl Footer {
    /// Checks and parses the footer found at the end of `tail`, the last
    /// `tail.len()` bytes of a file of `file_len` bytes. `tail` holds the
    /// whole footer unless [`missing`] said otherwise; the `parquet` crate
    /// then reports the truncated footer.
    pub(crate) fn decode(tail: Bytes, file_len: u64) -> Result<Self> {
        check_magic(&tail, file_len)?;
        let serialized = serialized_metadata(&tail, file_len);
        let mut sanitized = None;
        if let Some(metadata) = serialized {
            check_footer(metadata)?;
            sanitized = drop_refused(metadata)?;
        }
        // A negative null or NaN count makes `parquet` refuse the whole
        // footer; those counts only ever served pruning, so the statistics
        // of the columns that have one are dropped (pruning then reads
        // them) and the file is read.
        let statistics = |metadata: &[u8]| {
            parquet_rows_rules::sound_statistics(metadata)
                .ok()
                .flatten()
                .map(|keep| {
                    ParquetMetaDataOptions::new()
                        .with_column_stats_policy(ParquetStatisticsPolicy::skip_except(&keep))
                })
        };
        let (metadata, dropped) = match sanitized {
            Some((bytes, dropped)) => {
                let options = statistics(&bytes);
                let metadata =
                    ParquetMetaDataReader::decode_metadata_with_options(&bytes, options.as_ref())?;
                (metadata, dropped)
            }
            None => {
                let options = serialized.and_then(statistics);
                let tail = Tail {
                    file_len,
                    offset: file_len.saturating_sub(tail.len() as u64),
                    bytes: tail,
                };
                let metadata = ParquetMetaDataReader::new()
                    .with_metadata_options(options)
                    .parse_and_finish(&tail)?;
                (metadata, Vec::new())
            }
        };
        let metadata = crate::quirks::pad_chunks(metadata, file_len);
        Ok(Footer {
            metadata: Arc::new(metadata),
            dropped: dropped.into(),
        })
    }

    /// The parsed metadata.
    pub(crate) fn metadata(&self) -> &ParquetMetaData {
        &self.metadata
    }

    /// The annotations taken out of the schema before `parquet` parsed it
    /// (see [`drop_refused`]).
    pub(crate) fn dropped(&self) -> &[DroppedAnnotation] {
        &self.dropped
    }

    /// Number of row groups.
    pub(crate) fn num_row_groups(&self) -> usize {
        self.metadata.num_row_groups()
    }
}

/// Reads the footer of a file of `len` bytes through `read(start, len)`:
/// one read of the last [`FOOTER_GUESS`] bytes, a second only for a longer
/// footer.
pub(crate) fn read_footer(len: u64, read: impl Fn(u64, u64) -> Result<Bytes>) -> Result<Footer> {
    let guess = len.min(FOOTER_GUESS);
    let mut tail = read(len - guess, guess)?;
    if let Some(need) = missing(&tail, len) {
        tail = read(len - need, need)?;
    }
    Footer::decode(tail, len)
}

/// When `tail` (the last bytes of a file of `file_len` bytes) ends with a
/// footer longer than itself that still fits in the file, the number of
/// bytes at the end of the file that hold it.
pub(crate) fn missing(tail: &[u8], file_len: u64) -> Option<u64> {
    let (_, last) = tail.split_last_chunk::<8>()?;
    if &last[4..] != b"PAR1" {
        return None;
    }
    let need = u64::from(u32::from_le_bytes([last[0], last[1], last[2], last[3]])) + 8;
    (need > tail.len() as u64 && need + 4 <= file_len).then_some(need)
}

/// The serialized `FileMetaData` at the end of `tail`, or `None` when the
/// file does not end like a Parquet file (the `parquet` crate then says why).
fn serialized_metadata(tail: &[u8], file_len: u64) -> Option<&[u8]> {
    let (rest, last) = tail.split_last_chunk::<8>()?;
    if &last[4..] != b"PAR1" {
        return None;
    }
    let footer_len = u32::from_le_bytes([last[0], last[1], last[2], last[3]]) as usize;
    let fits = footer_len as u64 <= file_len.saturating_sub(12) && footer_len <= rest.len();
    fits.then(|| &rest[rest.len() - footer_len..])
}

/// Refuses what is not a Parquet file at all (too short, or not ending with
/// the magic `PAR1`) with a message that says so, rather than the `parquet`
/// crate's "corrupt footer". `tail` is the file's last bytes.
fn check_magic(tail: &[u8], file_len: u64) -> Result<()> {
    let message = if file_len < 12 {
        format!("not a Parquet file: {file_len} bytes, fewer than the 12 of the smallest one")
    } else if !tail.ends_with(b"PAR1") {
        "not a Parquet file: it does not end with the magic bytes `PAR1`".to_owned()
    } else {
        return Ok(());
    };
    Err(Error::OutOfSpec {
        location: Location::default(),
        message,
    })
}

/// Checks the footer's schema with this crate's own bounded reader before the
/// `parquet` crate builds a tree from it: `parquet` reserves each group's
/// claimed child count and recurses once per level, so a lying footer could
/// abort the process or overflow a thread's stack (see `docs/hostile-input.md`).
fn check_footer(metadata: &[u8]) -> Result<()> {
    parquet_rows_rules::check_schema(metadata, parquet_rows_rules::MAX_SCHEMA_DEPTH).map_err(|e| {
        let message = match e {
            parquet_rows_rules::FooterError::Corrupt(why) => format!("footer: {why}"),
            other => format!("footer: {other}"),
        };
        Error::OutOfSpec {
            location: Location::default(),
            message,
        }
    })
}

/// The footer's bytes without the schema annotations the `parquet` crate
/// refuses to open a file with, which pyarrow and duckdb read (an undefined
/// converted type, an UNKNOWN logical type beside a converted type: see
/// `docs/writer-quirks.md`), and what was dropped; `None` when nothing was.
/// A column that is not read must not make a file unreadable; binding a
/// field to one whose annotation was dropped is an error
/// ([`Footer::dropped`]).
fn drop_refused(metadata: &[u8]) -> Result<Option<parquet_rows_rules::Sanitized>> {
    parquet_rows_rules::drop_refused_annotations(metadata).map_err(|e| Error::OutOfSpec {
        location: Location::default(),
        message: format!("footer: {e}"),
    })
}

/// An error when one of `leaves` (the columns a struct binds) had its
/// annotation dropped by [`drop_refused`]: its values cannot be given the
/// meaning the writer meant.
pub(crate) fn check_dropped(
    footer: &Footer,
    leaves: &[usize],
    schema: &parquet::schema::types::SchemaDescriptor,
) -> Result<()> {
    let Some((leaf, why)) = footer.dropped().iter().find_map(|d| {
        let leaf = d.leaf.filter(|l| leaves.contains(l))?;
        Some((leaf, &d.why))
    }) else {
        return Ok(());
    };
    Err(Error::Unsupported {
        location: Location {
            column: schema.column(leaf).path().string(),
            ..Location::default()
        },
        message: format!(
            "the column's annotation is not supported ({why}): the footer's `parquet` parser \
             refuses it, so it was dropped to open the file; other columns can be read"
        ),
    })
}

/// The last bytes of a file, as the `parquet` crate's footer reader reads a
/// file: it asks only for the footer, which `bytes` holds.
struct Tail {
    file_len: u64,
    offset: u64, // invariant: offset + bytes.len() == file_len
    bytes: Bytes,
}

impl Tail {
    fn slice(&self, start: u64, len: Option<usize>) -> parquet::errors::Result<Bytes> {
        let from = start
            .checked_sub(self.offset)
            .and_then(|from| usize::try_from(from).ok())
            .filter(|&from| from <= self.bytes.len());
        let Some(from) = from else {
            return Err(ParquetError::EOF(format!(
                "byte {start} is before the {} bytes read at the end of the file",
                self.bytes.len()
            )));
        };
        let to = len.map_or(Some(self.bytes.len()), |len| from.checked_add(len));
        match to {
            Some(to) if to <= self.bytes.len() => Ok(self.bytes.slice(from..to)),
            _ => Err(ParquetError::EOF("a range past the end of the file".into())),
        }
    }
}

impl Length for Tail {
    fn len(&self) -> u64 {
        self.file_len
    }
}

impl ChunkReader for Tail {
    type T = bytes::buf::Reader<Bytes>;

    fn get_read(&self, start: u64) -> parquet::errors::Result<Self::T> {
        use bytes::Buf;
        Ok(self.slice(start, None)?.reader())
    }

    fn get_bytes(&self, start: u64, length: usize) -> parquet::errors::Result<Bytes> {
        self.slice(start, Some(length))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tail(footer_len: u32) -> Vec<u8> {
        let mut t = vec![0u8; 16];
        t.extend_from_slice(&footer_len.to_le_bytes());
        t.extend_from_slice(b"PAR1");
        t
    }

    #[test]
    fn a_footer_longer_than_the_tail_asks_for_exactly_its_bytes() {
        // 20 bytes of metadata in a tail of 24: 4 bytes + 8 of the tail end
        // are missing; the file is large enough to hold them.
        assert_eq!(missing(&tail(100), 1000), Some(108));
        assert_eq!(missing(&tail(16), 1000), None);
        // A footer longer than the file is the `parquet` crate's error, not a fetch.
        assert_eq!(missing(&tail(2000), 1000), None);
        assert_eq!(missing(b"not parquet at all", 1000), None);
    }

    #[test]
    fn reads_outside_the_tail_are_errors() {
        let t = Tail {
            file_len: 100,
            offset: 90,
            bytes: Bytes::from(vec![7u8; 10]),
        };
        assert_eq!(t.get_bytes(95, 5).unwrap().len(), 5);
        assert!(t.get_bytes(80, 5).is_err());
        assert!(t.get_bytes(95, 6).is_err());
        assert!(t.get_bytes(u64::MAX, usize::MAX).is_err());
    }
}
