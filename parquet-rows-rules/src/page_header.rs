//! Reads a page header (Thrift `PageHeader`, compact protocol) with the same
//! bounded reader as the footer: nothing is allocated (statistics are
//! skipped, not copied), nesting is bounded, and malformed bytes are an
//! `Err`.
//!
//! ```text
//! PageHeader           := 1: type, 2: uncompressed_page_size, 3: compressed_page_size, 4: crc,
//!                         5: DataPageHeader, 6: IndexPageHeader, 7: DictionaryPageHeader,
//!                         8: DataPageHeaderV2                               (i32 unless named)
//! DataPageHeader       := 1: num_values, 2: encoding, 3: definition_level_encoding,
//!                         4: repetition_level_encoding, 5: statistics
//! DictionaryPageHeader := 1: num_values, 2: encoding, 3: is_sorted (bool)
//! DataPageHeaderV2     := 1: num_values, 2: num_nulls, 3: num_rows, 4: encoding,
//!                         5: definition_levels_byte_length, 6: repetition_levels_byte_length,
//!                         7: is_compressed (bool, default true), 8: statistics
//! ```
//! (<https://github.com/apache/parquet-format/blob/master/src/main/thrift/parquet.thrift>)

use crate::footer::{corrupt, ty, FooterError, Reader};

/// Thrift `PageType`: a data page (v1).
pub const DATA_PAGE: i32 = 0;
/// Thrift `PageType`: an index page (never written; skipped by readers).
pub const INDEX_PAGE: i32 = 1;
/// Thrift `PageType`: a dictionary page.
pub const DICTIONARY_PAGE: i32 = 2;
/// Thrift `PageType`: a data page (v2).
pub const DATA_PAGE_V2: i32 = 3;

/// The fields of a page header that decoding needs, as in the file.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PageHeader {
    /// Thrift `PageType`.
    pub page_type: i32,
    /// Bytes of the page once decompressed (v2: levels included).
    pub uncompressed_size: i32,
    /// Bytes of the page in the file, after the header.
    pub compressed_size: i32,
    /// Values (nulls included) of a data or dictionary page.
    pub num_values: i32,
    /// Thrift `Encoding` of the values.
    pub encoding: i32,
    /// Thrift `Encoding` of a v1 page's definition levels.
    pub def_encoding: i32,
    /// Thrift `Encoding` of a v1 page's repetition levels.
    pub rep_encoding: i32,
    /// A v2 page's definition levels' bytes.
    pub def_levels_len: i32,
    /// A v2 page's repetition levels' bytes.
    pub rep_levels_len: i32,
    /// A v2 page's values are compressed (the default when the field is absent).
    pub is_compressed: bool,
    /// A dictionary page says its entries are sorted.
    pub is_sorted: bool,
    /// Which of the page-type headers (5, 7 or 8) the header held.
    pub has_type_header: bool,
    /// The CRC32 of the page's bytes as stored (after the header), if the
    /// writer computed one.
    pub crc: Option<u32>,
}

/// Reads the page header at the start of `bytes`; returns it and its length.
pub fn read_page_header(bytes: &[u8]) -> Result<(PageHeader, usize), FooterError> {
    let mut r = Reader { buf: bytes, pos: 0 };
    let mut h = PageHeader {
        is_compressed: true,
        ..PageHeader::default()
    };
    let (mut seen_type, mut seen_sizes) = (false, 0);
    let mut last = 0;
    while let Some((id, kind)) = r.field(&mut last)? {
        match (id, kind) {
            (1, ty::I32) => (h.page_type, seen_type) = (r.i32()?, true),
            (2, ty::I32) => (h.uncompressed_size, seen_sizes) = (r.i32()?, seen_sizes | 1),
            (3, ty::I32) => (h.compressed_size, seen_sizes) = (r.i32()?, seen_sizes | 2),
            // Thrift has no unsigned integers: the CRC's 32 bits are an i32.
            (4, ty::I32) => h.crc = Some(r.i32()? as u32),
            (5, ty::STRUCT) => {
                h.has_type_header = true;
                let mut last = 0;
                while let Some((id, kind)) = r.field(&mut last)? {
                    match (id, kind) {
                        (1, ty::I32) => h.num_values = r.i32()?,
                        (2, ty::I32) => h.encoding = r.i32()?,
                        (3, ty::I32) => h.def_encoding = r.i32()?,
                        (4, ty::I32) => h.rep_encoding = r.i32()?,
                        _ => r.skip(kind, 1)?,
                    }
                }
            }
            (7, ty::STRUCT) => {
                h.has_type_header = true;
                let mut last = 0;
                while let Some((id, kind)) = r.field(&mut last)? {
                    match (id, kind) {
                        (1, ty::I32) => h.num_values = r.i32()?,
                        (2, ty::I32) => h.encoding = r.i32()?,
                        (3, ty::TRUE | ty::FALSE) => h.is_sorted = kind == ty::TRUE,
                        _ => r.skip(kind, 1)?,
                    }
                }
            }
            (8, ty::STRUCT) => {
                h.has_type_header = true;
                let mut last = 0;
                while let Some((id, kind)) = r.field(&mut last)? {
                    match (id, kind) {
                        (1, ty::I32) => h.num_values = r.i32()?,
                        (4, ty::I32) => h.encoding = r.i32()?,
                        (5, ty::I32) => h.def_levels_len = r.i32()?,
                        (6, ty::I32) => h.rep_levels_len = r.i32()?,
                        (7, ty::TRUE | ty::FALSE) => h.is_compressed = kind == ty::TRUE,
                        _ => r.skip(kind, 1)?,
                    }
                }
            }
            _ => r.skip(kind, 0)?,
        }
    }
    if !seen_type || seen_sizes != 3 {
        return Err(corrupt("a page header lacks its type or one of its sizes"));
    }
    Ok((h, r.pos))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_a_v1_header_and_skips_statistics() {
        // type 0, sizes 10 / 10, DataPageHeader { 100 values, PLAIN, RLE, RLE,
        // statistics { max: 3 bytes } }
        let bytes = [
            0x15, 0x00, 0x15, 0x14, 0x15, 0x14, 0x2c, 0x15, 0xc8, 0x01, 0x15, 0x00, 0x15, 0x06,
            0x15, 0x06, 0x1c, 0x18, 0x03, b'a', b'b', b'c', 0x00, 0x00, 0x00, 0xff,
        ];
        let (h, len) = read_page_header(&bytes).unwrap();
        assert_eq!(len, bytes.len() - 1);
        assert_eq!(
            (
                h.page_type,
                h.uncompressed_size,
                h.compressed_size,
                h.num_values
            ),
            (DATA_PAGE, 10, 10, 100)
        );
        assert_eq!((h.encoding, h.def_encoding, h.rep_encoding), (0, 3, 3));
        assert!(h.has_type_header && h.is_compressed);
    }

    #[test]
    fn hostile_headers_are_errors() {
        // Cut short, a binary longer than the bytes, no sizes.
        assert!(read_page_header(&[0x15, 0x00, 0x15]).is_err());
        assert!(read_page_header(&[0x15, 0x00, 0x28, 0xff, 0xff, 0xff, 0xff, 0x0f]).is_err());
        assert!(read_page_header(&[0x15, 0x00, 0x00]).is_err());
        // Structs nested far too deep inside an unknown field.
        let mut deep = vec![0x15, 0x00, 0x15, 0x00, 0x15, 0x00];
        deep.extend(std::iter::repeat_n(0x1c, 10_000));
        assert!(read_page_header(&deep).is_err());
    }
}
