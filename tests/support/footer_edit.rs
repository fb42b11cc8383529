//! Files whose footer lies: a file written by the `parquet` writer, its
//! footer decoded, edited through `parquet`'s metadata builders and written
//! again after the file's pages (and any bytes added after them, such as an
//! offset index written by hand). For the lies the writer never tells: a
//! dictionary offset into another row group, min above max, a page index
//! that leaves a page out.

use bytes::Bytes;
use parquet::file::metadata::{
    PageIndexPolicy, ParquetMetaData, ParquetMetaDataReader, ParquetMetaDataWriter,
};
use parquet::file::page_index::offset_index::PageLocation;

use crate::handmade::Thrift;

/// `file` with its footer replaced: `extra` is appended after the pages,
/// at the offset handed to `edit` (with the footer's metadata, read without
/// its page indexes, whose locations are kept as they are unless `edit`
/// changes them).
///
/// # Panics
///
/// If `file` is not a Parquet file `parquet` reads, or `edit`'s metadata
/// does not write.
pub fn rewrite_footer(
    file: &[u8],
    extra: &[u8],
    edit: impl FnOnce(ParquetMetaData, u64) -> ParquetMetaData,
) -> Bytes {
    let footer_len = u32::from_le_bytes(file[file.len() - 8..file.len() - 4].try_into().unwrap());
    let body = &file[..file.len() - 8 - footer_len as usize];
    let metadata = ParquetMetaDataReader::new()
        .with_page_index_policy(PageIndexPolicy::Skip)
        .parse_and_finish(&Bytes::copy_from_slice(file))
        .unwrap();
    let metadata = edit(metadata, (body.len()) as u64);
    let mut out = body.to_vec();
    out.extend_from_slice(extra);
    ParquetMetaDataWriter::new(&mut out, &metadata)
        .finish()
        .unwrap();
    Bytes::from(out)
}

/// An OffsetIndex in the compact protocol (Thrift struct `OffsetIndex`,
/// field 1: the page locations).
pub fn offset_index(pages: &[PageLocation]) -> Vec<u8> {
    let mut t = Thrift::default();
    t.begin();
    t.structs(1, pages, |t, p| {
        t.i64(1, p.offset)
            .i32(2, p.compressed_page_size)
            .i64(3, p.first_row_index);
    });
    t.end();
    t.bytes
}

/// The page locations of the OffsetIndex at `offset..offset + len` of `file`.
///
/// # Panics
///
/// If those bytes are not in `file` or are not an OffsetIndex.
pub fn page_locations(file: &[u8], offset: i64, len: i32) -> Vec<PageLocation> {
    let bytes = &file[offset as usize..offset as usize + len as usize];
    parquet::file::page_index::index_reader::decode_offset_index(bytes)
        .unwrap()
        .page_locations()
        .clone()
}

/// `file` with the first occurrence of `from` after byte `after` replaced by
/// `to` (of the same length): a patch of a footer field whose encoding
/// `parquet`'s types cannot express (a negative null count).
///
/// # Panics
///
/// If `from` and `to` differ in length or `from` is not found.
pub fn patch(file: &[u8], after: usize, from: &[u8], to: &[u8]) -> Bytes {
    assert_eq!(from.len(), to.len());
    let at = file[after..]
        .windows(from.len())
        .position(|w| w == from)
        .expect("the bytes to patch")
        + after;
    let mut out = file.to_vec();
    out[at..at + to.len()].copy_from_slice(to);
    Bytes::from(out)
}

/// A ULEB128 varint, as the compact protocol writes integers (after zigzag).
pub fn varint(mut v: u64) -> Vec<u8> {
    let mut out = Vec::new();
    while v >= 0x80 {
        out.push((v as u8) | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
    out
}
