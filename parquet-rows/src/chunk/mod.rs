//! The pages of one column chunk, read from its bytes: page headers by the
//! rules crate's bounded Thrift reader, every size checked against the chunk
//! and the reader's limits before anything is allocated, and pages
//! decompressed into buffers that stop at their declared size.
//!
//! Layout (<https://github.com/apache/parquet-format#file-format>):
//!
//! ```text
//! column chunk := (page header, page bytes)*     the dictionary page first, if any
//! DATA_PAGE_V2 page bytes := rep levels, def levels (never compressed), values (compressed
//!                            unless `is_compressed` is false)
//! ```

mod decompress;
mod loaded;
mod pool;
mod rebuilt;
mod source;

#[cfg(feature = "object_store")]
pub(crate) use source::Fetched;
pub(crate) use source::{Seeker, Source};

use std::sync::Arc;

use bytes::Bytes;
use parquet::basic::{Compression, Encoding};
use parquet::column::page::Page;
use parquet_rows_rules::page_header::{
    read_page_header, PageHeader, DATA_PAGE, DATA_PAGE_V2, DICTIONARY_PAGE, INDEX_PAGE,
};
use parquet_rows_rules::FooterError;

pub(crate) use loaded::{LoadedColumn, LoadedPage, Opened, PageNumbers};
pub(crate) use pool::PagePool;
pub(crate) use rebuilt::{Rebuilt, RebuiltError, Slot, MAX_ENTRIES as MAX_REBUILT_ENTRIES};

use crate::error::DecodeError;
use crate::options::ReadOptions;

/// Decompressed bytes a row group's pages may still take (shared by its chunks).
#[derive(Debug)]
pub(crate) struct Budget {
    pub(crate) left: usize,
    pub(crate) options: ReadOptions,
}

/// Reads every page of a column chunk whose bytes are `chunk`, compressed
/// with `codec`. On an error, returns the index of the page it happened in.
pub(crate) fn read_pages(
    chunk: &Bytes,
    codec: Compression,
    budget: &mut Budget,
) -> Result<Vec<Page>, (usize, DecodeError)> {
    let scan = scan_pages(chunk, codec, budget, None);
    let mut codecs = decompress::Codecs::default();
    let mut pages = Vec::with_capacity(scan.pending.len());
    for (index, pending) in scan.pending.into_iter().enumerate() {
        pages.push(
            pending
                .decompress(&mut codecs, None)
                .map_err(|e| (index, e))?,
        );
    }
    match scan.failure {
        Some(failure) => Err(failure),
        None => Ok(pages),
    }
}

/// The pages of a column chunk whose headers were read and checked, not
/// decompressed yet, so that decompression can run on several threads while
/// headers, sizes and the budget are checked in file order on one.
#[derive(Debug)]
pub(crate) struct Scan {
    /// The pages before the first failure, in order.
    pub(crate) pending: Vec<Pending>,
    /// The first page that failed its checks, and why. The pages after it
    /// were not read; the errors of the pages before it (met when they are
    /// decompressed) come first, as they would reading page by page.
    pub(crate) failure: Option<(usize, DecodeError)>,
}

/// Checks that the footer's offsets lie in the column chunk's bytes
/// `start..start + len` (`start` is the dictionary page's offset, else the
/// first data page's): the first data page must start inside them. A
/// dictionary offset pointing elsewhere (another row group's dictionary)
/// would otherwise read another chunk's pages as this chunk's, with no
/// error. Returns what is inconsistent.
pub(crate) fn check_offsets(
    chunk: &parquet::file::metadata::ColumnChunkMetaData,
    start: u64,
    len: u64,
) -> Result<(), String> {
    let data = chunk.data_page_offset();
    // 0 (the file's magic, never a page) is a data page offset left unset:
    // parquet-testing's `column_chunk_key_value_metadata.parquet`
    // (parquet-cpp 17) has it beside a dictionary offset that starts the
    // chunk. The chunk is then read from `start`, as before this check.
    if data == 0 && chunk.dictionary_page_offset().is_some() {
        return Ok(());
    }
    if u64::try_from(data).is_ok_and(|d| d >= start && d - start < len.max(1)) {
        return Ok(());
    }
    Err(format!(
        "the footer puts the first data page at offset {data}, outside the column chunk's {len} bytes from offset {start} (the dictionary page's offset, when there is one)"
    ))
}

/// One page: its checked header and its bytes as stored.
#[derive(Debug, Clone)]
pub(crate) struct Pending {
    header: PageHeader,
    body: Bytes,
    codec: Compression,
    levels: usize, // a v2 page's level bytes, stored uncompressed before the values
    declared: Option<usize>, // `Some(size once decompressed)` when the bytes are compressed
}

impl Pending {
    /// Data pages' values (nulls included), for the checks made before decoding.
    pub(crate) fn data_values(&self) -> Option<u32> {
        let data = matches!(self.header.page_type, DATA_PAGE | DATA_PAGE_V2);
        // The count was checked non-negative when the page was scanned.
        data.then(|| u32::try_from(self.header.num_values).unwrap_or(0))
    }

    /// The page, decompressed; with a `pool`, into one of its buffers,
    /// which goes back to it once the page is dropped (if the pool then
    /// keeps at most its limit).
    fn decompress(
        self,
        codecs: &mut decompress::Codecs,
        pool: Option<(&Arc<PagePool>, usize)>,
    ) -> Result<Page, DecodeError> {
        let Pending {
            header: h,
            body,
            codec,
            levels,
            declared,
        } = self;
        let buffer = |len| pool.map_or_else(Vec::new, |(pool, _)| pool.take(len));
        let bytes = |buf| match pool {
            Some((pool, limit)) => pool.bytes(buf, limit),
            None => Bytes::from(buf),
        };
        let buf = match declared {
            // No values to decompress: an all-null page (parquet-format's
            // README, "data pages"), whose compressed section may be empty.
            Some(declared) if declared <= levels => bytes(body[..levels].to_vec()),
            Some(declared) if levels == 0 => {
                // Every v1 page: the decompressed buffer is the page, not copied
                // (the copy was 4% of the instructions of `bench-report run
                // tick-370k-zstd rows-borrowed` under callgrind).
                bytes(codecs.decompress_into(codec, &body, declared, buffer(declared))?)
            }
            Some(declared) => {
                let values = codecs.decompress_into(
                    codec,
                    &body[levels..],
                    declared - levels,
                    Vec::new(),
                )?;
                let mut out = buffer(declared);
                out.clear();
                out.extend_from_slice(&body[..levels]);
                out.extend_from_slice(&values);
                bytes(out)
            }
            None => body,
        };
        page(&h, buf)
    }
}

/// Decompresses `pending`, in order; with `parallel`, on rayon's pool, one
/// task per page (each worker keeps its own codec state). The pages and
/// errors come back in the order of `pending` either way.
pub(crate) fn decompress_all(
    pending: Vec<Pending>,
    parallel: bool,
) -> Vec<Result<Page, DecodeError>> {
    #[cfg(feature = "rayon")]
    if parallel && pending.len() > 1 {
        use rayon::prelude::*;
        return pending
            .into_par_iter()
            // One page per task: pages are large (writers cut them at about
            // 1 MiB), so a task costs nothing beside decompressing its page.
            .with_max_len(1)
            .map_init(decompress::Codecs::default, |codecs, p| {
                p.decompress(codecs, None)
            })
            .collect();
    }
    #[cfg(not(feature = "rayon"))]
    let _ = parallel;
    let mut codecs = decompress::Codecs::default();
    pending
        .into_iter()
        .map(|p| p.decompress(&mut codecs, None))
        .collect()
}

/// Reads and checks the page headers of a column chunk whose bytes are
/// `chunk`, taking each page's decompressed size from `budget`; stops at the
/// first page that fails a check.
///
/// With `values`, also stops once the data pages hold that many values: a
/// chunk read past its footer's size (`quirks::pad_chunks`, PARQUET-816)
/// ends before its bytes do, as Arrow C++'s page reader stops at the chunk's
/// value count.
pub(crate) fn scan_pages(
    chunk: &Bytes,
    codec: Compression,
    budget: &mut Budget,
    values: Option<u64>,
) -> Scan {
    let mut pending = Vec::new();
    let mut at = 0;
    let mut failure = None;
    let mut seen = 0u64;
    while at < chunk.len() && values.is_none_or(|n| seen < n) {
        match next_page(chunk, &mut at, codec, budget) {
            Ok(Some(page)) => {
                seen += u64::from(page.data_values().unwrap_or(0));
                pending.push(page);
            }
            Ok(None) => {}
            Err(e) => {
                failure = Some((pending.len(), e));
                break;
            }
        }
    }
    Scan { pending, failure }
}

/// Why the page header of a column chunk with `left` bytes from it could not
/// be read. The header reader is the footer's, whose errors say "its footer":
/// this names the page header instead.
fn page_header_error(e: &FooterError, left: usize) -> DecodeError {
    let why = match e {
        FooterError::Corrupt(why) | FooterError::NotParquet(why) => why.as_str(),
        FooterError::Encrypted => "it is encrypted",
    };
    DecodeError::oos(format!(
        "page header: {why} (the column chunk had {left} bytes left)"
    ))
}

/// The page at `*at` of `chunk`, checked, and `*at` moved past it; `None`
/// for an index page (skipped).
fn next_page(
    chunk: &Bytes,
    at: &mut usize,
    codec: Compression,
    budget: &mut Budget,
) -> Result<Option<Pending>, DecodeError> {
    let (header, header_len) =
        read_page_header(&chunk[*at..]).map_err(|e| page_header_error(&e, chunk.len() - *at))?;
    *at += header_len;
    let left = chunk.len() - *at;
    let size = usize::try_from(header.compressed_size)
        .ok()
        .filter(|&n| n <= left)
        .ok_or_else(|| {
            DecodeError::oos(format!(
                "a page of {} bytes in the {left} bytes left of its column chunk",
                header.compressed_size
            ))
        })?;
    let body = chunk.slice(*at..*at + size);
    *at += size;
    if header.page_type == INDEX_PAGE {
        return Ok(None);
    }
    if budget.options.verifies_checksums() {
        verify_checksum(&header, &body)?;
    }
    check(header, body, codec, budget).map(Some)
}

/// Checks a page's header against its bytes and the limits, and takes its
/// decompressed size from `budget`.
fn check(
    h: PageHeader,
    body: Bytes,
    codec: Compression,
    budget: &mut Budget,
) -> Result<Pending, DecodeError> {
    count(h.num_values, "value count")?;
    if !h.has_type_header {
        return Err(DecodeError::oos(format!(
            "a page of type {} without its type's header",
            h.page_type
        )));
    }
    // A v2 page's levels precede its values and are never compressed.
    let levels = if h.page_type == DATA_PAGE_V2 {
        let rep = count(h.rep_levels_len, "repetition levels' length")? as usize;
        let def = count(h.def_levels_len, "definition levels' length")? as usize;
        rep + def
    } else {
        0
    };
    let compressed =
        codec != Compression::UNCOMPRESSED && (h.page_type != DATA_PAGE_V2 || h.is_compressed);
    let declared = if compressed {
        let declared = count(h.uncompressed_size, "uncompressed size")? as usize;
        take(budget, declared)?;
        if levels > declared || levels > body.len() {
            return Err(DecodeError::oos(format!(
                "levels of {levels} bytes in a page of {declared}"
            )));
        }
        Some(declared)
    } else {
        take(budget, body.len())?;
        None
    };
    Ok(Pending {
        header: h,
        body,
        codec,
        levels,
        declared,
    })
}

/// A count from a page header, which must not be negative.
fn count(n: i32, what: &str) -> Result<u32, DecodeError> {
    u32::try_from(n).map_err(|_| DecodeError::oos(format!("a page header's {what} is {n}")))
}

/// One page from its checked header and its decompressed bytes.
fn page(h: &PageHeader, buf: Bytes) -> Result<Page, DecodeError> {
    let num_values = count(h.num_values, "value count")?;
    let encoding = |e: i32| {
        encoding(e).ok_or_else(|| DecodeError::Unsupported(format!("encoding number {e}")))
    };
    match h.page_type {
        DICTIONARY_PAGE => Ok(Page::DictionaryPage {
            buf,
            num_values,
            encoding: encoding(h.encoding)?,
            is_sorted: h.is_sorted,
        }),
        DATA_PAGE => Ok(Page::DataPage {
            buf,
            num_values,
            encoding: encoding(h.encoding)?,
            def_level_encoding: encoding(h.def_encoding)?,
            rep_level_encoding: encoding(h.rep_encoding)?,
            statistics: None,
        }),
        DATA_PAGE_V2 => Ok(Page::DataPageV2 {
            buf,
            num_values,
            encoding: encoding(h.encoding)?,
            num_nulls: 0,
            num_rows: 0,
            def_levels_byte_len: h.def_levels_len as u32,
            rep_levels_byte_len: h.rep_levels_len as u32,
            is_compressed: h.is_compressed,
            statistics: None,
        }),
        other => Err(DecodeError::Unsupported(format!("page type {other}"))),
    }
}

/// Checks a page's bytes as stored (compressed, levels included) against the
/// CRC32 in its header, when the writer put one there (parquet-format's
/// `PageHeader.crc`).
fn verify_checksum(h: &PageHeader, body: &[u8]) -> Result<(), DecodeError> {
    match h.crc {
        Some(expected) => {
            let actual = crc32fast::hash(body);
            if actual == expected {
                Ok(())
            } else {
                Err(DecodeError::oos(format!(
                    "the page's checksum does not match: its bytes give CRC32 {actual:#010x}, \
                     its header says {expected:#010x}"
                )))
            }
        }
        None => Ok(()),
    }
}

/// Takes `bytes` from the page and row-group limits, or says which is passed.
fn take(budget: &mut Budget, bytes: usize) -> Result<(), DecodeError> {
    let max = budget.options.page_bytes();
    if bytes > max {
        return Err(DecodeError::Limit(format!(
            "a page of {bytes} bytes decompressed, over the limit of {max} (raise `ReadOptions::max_page_bytes`)"
        )));
    }
    if bytes > budget.left {
        return Err(DecodeError::Limit(format!(
            "the row group's pages take more than {} bytes decompressed (raise `ReadOptions::max_row_group_bytes`)",
            budget.options.row_group_bytes()
        )));
    }
    budget.left -= bytes;
    Ok(())
}

/// The `parquet` crate's `Encoding` for a Thrift encoding number.
fn encoding(number: i32) -> Option<Encoding> {
    #[allow(deprecated)]
    Some(match number {
        0 => Encoding::PLAIN,
        2 => Encoding::PLAIN_DICTIONARY,
        3 => Encoding::RLE,
        4 => Encoding::BIT_PACKED,
        5 => Encoding::DELTA_BINARY_PACKED,
        6 => Encoding::DELTA_LENGTH_BYTE_ARRAY,
        7 => Encoding::DELTA_BYTE_ARRAY,
        8 => Encoding::RLE_DICTIONARY,
        9 => Encoding::BYTE_STREAM_SPLIT,
        _ => return None,
    })
}
