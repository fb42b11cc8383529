//! Parquet files written by hand, in Thrift's compact protocol, for footers
//! and page headers that lie in ways the `parquet` writer cannot be made to:
//! child counts, value counts, sizes.
//!
//! Format: <https://github.com/apache/parquet-format/blob/master/src/main/thrift/parquet.thrift>;
//! protocol: <https://github.com/apache/thrift/blob/master/doc/specs/thrift-compact-protocol.md>.

/// Thrift `Type` of a column.
pub mod physical {
    pub const INT32: i32 = 1;
    pub const INT64: i32 = 2;
    pub const BYTE_ARRAY: i32 = 6;
    pub const FIXED_LEN_BYTE_ARRAY: i32 = 7;
}

/// Thrift `Encoding` of a page.
pub mod encoding {
    pub const PLAIN: i32 = 0;
    pub const RLE: i32 = 3;
    /// The deprecated level encoding.
    pub const BIT_PACKED: i32 = 4;
    pub const DELTA_LENGTH_BYTE_ARRAY: i32 = 6;
    pub const DELTA_BYTE_ARRAY: i32 = 7;
    pub const RLE_DICTIONARY: i32 = 8;
    pub const BYTE_STREAM_SPLIT: i32 = 9;
}

/// Thrift `CompressionCodec`.
pub mod codec {
    pub const UNCOMPRESSED: i32 = 0;
    pub const SNAPPY: i32 = 1;
    pub const ZSTD: i32 = 6;
    pub const LZ4_RAW: i32 = 7;
}

/// Thrift `FieldRepetitionType::REQUIRED`.
pub const REQUIRED: i32 = 0;
/// Thrift `FieldRepetitionType::OPTIONAL`.
pub const OPTIONAL: i32 = 1;

/// Thrift `ConvertedType`.
pub mod converted {
    pub const UTF8: i32 = 0;
    pub const UINT_8: i32 = 11;
    pub const UINT_16: i32 = 12;
    pub const UINT_32: i32 = 13;
    pub const INT_8: i32 = 15;
    pub const INT_16: i32 = 16;
    pub const INTERVAL: i32 = 21;
}

const I32: u8 = 5;
const I64: u8 = 6;
const BINARY: u8 = 8;
const LIST: u8 = 9;
const STRUCT: u8 = 12;

/// A compact-protocol writer that tracks field ids itself.
#[derive(Debug, Default)]
pub struct Thrift {
    /// The bytes written so far.
    pub bytes: Vec<u8>,
    last: Vec<i16>, // the last field id of each open struct, innermost last
}

impl Thrift {
    fn varint(&mut self, mut v: u64) {
        while v >= 0x80 {
            self.bytes.push((v as u8) | 0x80);
            v >>= 7;
        }
        self.bytes.push(v as u8);
    }

    fn zigzag(&mut self, v: i64) {
        self.varint(((v << 1) ^ (v >> 63)) as u64);
    }

    fn header(&mut self, id: i16, kind: u8) {
        let last = self.last.last().copied().unwrap_or(0);
        let delta = id - last;
        if (1..=15).contains(&delta) {
            self.bytes.push((delta as u8) << 4 | kind);
        } else {
            self.bytes.push(kind);
            self.zigzag(i64::from(id));
        }
        if let Some(l) = self.last.last_mut() {
            *l = id;
        }
    }

    /// An i32 field.
    pub fn i32(&mut self, id: i16, v: i32) -> &mut Self {
        self.header(id, I32);
        self.zigzag(i64::from(v));
        self
    }

    /// An i64 field.
    pub fn i64(&mut self, id: i16, v: i64) -> &mut Self {
        self.header(id, I64);
        self.zigzag(v);
        self
    }

    /// A binary (string) field.
    pub fn binary(&mut self, id: i16, v: &[u8]) -> &mut Self {
        self.header(id, BINARY);
        self.varint(v.len() as u64);
        self.bytes.extend_from_slice(v);
        self
    }

    fn list_header(&mut self, id: i16, kind: u8, len: usize) {
        self.header(id, LIST);
        if len < 15 {
            self.bytes.push((len as u8) << 4 | kind);
        } else {
            self.bytes.push(0xf0 | kind);
            self.varint(len as u64);
        }
    }

    /// A `list<i32>` field.
    pub fn i32s(&mut self, id: i16, values: &[i32]) -> &mut Self {
        self.list_header(id, I32, values.len());
        for &v in values {
            self.zigzag(i64::from(v));
        }
        self
    }

    /// A `list<binary>` field.
    pub fn binaries(&mut self, id: i16, values: &[&str]) -> &mut Self {
        self.list_header(id, BINARY, values.len());
        for v in values {
            self.varint(v.len() as u64);
            self.bytes.extend_from_slice(v.as_bytes());
        }
        self
    }

    /// A `list<struct>` field whose `len` elements `element` writes (each
    /// between `begin` and `end`).
    pub fn structs<T>(&mut self, id: i16, items: &[T], mut element: impl FnMut(&mut Self, &T)) {
        self.list_header(id, STRUCT, items.len());
        for item in items {
            self.begin();
            element(self, item);
            self.end();
        }
    }

    /// A struct field: call `end` after its fields.
    pub fn field_struct(&mut self, id: i16) -> &mut Self {
        self.header(id, STRUCT);
        self.begin();
        self
    }

    /// Opens a struct (top level, or an element of a list).
    pub fn begin(&mut self) -> &mut Self {
        self.last.push(0);
        self
    }

    /// Closes the innermost struct.
    pub fn end(&mut self) -> &mut Self {
        self.bytes.push(0);
        self.last.pop();
        self
    }
}

/// One `SchemaElement`.
#[derive(Debug, Clone)]
pub struct Element {
    /// Field name.
    pub name: String,
    /// Thrift `Type`, for a leaf.
    pub physical: Option<i32>,
    /// FIXED_LEN_BYTE_ARRAY length.
    pub type_length: Option<i32>,
    /// Thrift `FieldRepetitionType` (none for the root).
    pub repetition: Option<i32>,
    /// Children of a group.
    pub num_children: Option<i32>,
    /// Thrift `ConvertedType`.
    pub converted_type: Option<i32>,
    /// The member of the Thrift `LogicalType` union, written as an empty
    /// struct (UNKNOWN is 11).
    pub logical_type: Option<i16>,
}

impl Element {
    /// The root of a schema with `children` top-level fields.
    pub fn root(children: i32) -> Self {
        Element {
            name: "m".into(),
            physical: None,
            type_length: None,
            repetition: None,
            num_children: Some(children),
            converted_type: None,
            logical_type: None,
        }
    }

    /// A REQUIRED group with `children` fields.
    pub fn group(name: &str, children: i32) -> Self {
        Element {
            repetition: Some(REQUIRED),
            name: name.into(),
            ..Element::root(children)
        }
    }

    /// A REQUIRED leaf column.
    pub fn leaf(name: &str, physical: i32, type_length: Option<i32>) -> Self {
        Element {
            name: name.into(),
            physical: Some(physical),
            type_length,
            repetition: Some(REQUIRED),
            num_children: None,
            converted_type: None,
            logical_type: None,
        }
    }

    /// An OPTIONAL leaf column.
    pub fn optional(name: &str, physical: i32) -> Self {
        Element {
            repetition: Some(OPTIONAL),
            ..Element::leaf(name, physical, None)
        }
    }
}

/// One page: its header's fields and its (possibly compressed) body.
#[derive(Debug, Clone)]
pub struct Page {
    /// A dictionary page (else a v1 data page).
    pub dictionary: bool,
    /// The header's value count.
    pub num_values: i32,
    /// The values' encoding.
    pub encoding: i32,
    /// The header's uncompressed size; the body's length when `None`.
    pub uncompressed_size: Option<i32>,
    /// The header's compressed size; the body's length when `None`.
    pub compressed_size: Option<i32>,
    /// The encoding of a data page's levels (RLE unless set).
    pub level_encoding: i32,
    /// The bytes after the header.
    pub body: Vec<u8>,
}

impl Page {
    /// A v1 data page (levels encoded RLE when present).
    pub fn data(num_values: i32, encoding: i32, body: Vec<u8>) -> Self {
        Page {
            dictionary: false,
            num_values,
            encoding,
            uncompressed_size: None,
            compressed_size: None,
            level_encoding: encoding::RLE,
            body,
        }
    }

    /// A PLAIN dictionary page.
    pub fn dictionary(num_values: i32, body: Vec<u8>) -> Self {
        Page {
            dictionary: true,
            ..Page::data(num_values, encoding::PLAIN, body)
        }
    }

    /// The header's bytes.
    pub fn header(&self) -> Vec<u8> {
        let mut out = Vec::new();
        self.write(&mut out);
        out.truncate(out.len() - self.body.len());
        out
    }

    fn write(&self, out: &mut Vec<u8>) {
        let mut t = Thrift::default();
        let len = i32::try_from(self.body.len()).unwrap_or(i32::MAX);
        t.begin()
            .i32(1, if self.dictionary { 2 } else { 0 })
            .i32(2, self.uncompressed_size.unwrap_or(len))
            .i32(3, self.compressed_size.unwrap_or(len));
        if self.dictionary {
            t.field_struct(7)
                .i32(1, self.num_values)
                .i32(2, self.encoding)
                .end();
        } else {
            t.field_struct(5)
                .i32(1, self.num_values)
                .i32(2, self.encoding)
                .i32(3, self.level_encoding)
                .i32(4, self.level_encoding)
                .end();
        }
        t.end();
        out.extend_from_slice(&t.bytes);
        out.extend_from_slice(&self.body);
    }
}

/// One column chunk of a row group.
#[derive(Debug, Clone)]
pub struct Chunk {
    /// Path of the leaf column.
    pub path: Vec<String>,
    /// Thrift `Type` of the column.
    pub physical: i32,
    /// Thrift `CompressionCodec` of the pages.
    pub codec: i32,
    /// The pages, in order.
    pub pages: Vec<Page>,
}

impl Chunk {
    /// An uncompressed chunk of the top-level column `name`.
    pub fn new(name: &str, physical: i32, pages: Vec<Page>) -> Self {
        Chunk {
            path: vec![name.to_owned()],
            physical,
            codec: codec::UNCOMPRESSED,
            pages,
        }
    }
}

/// What a writer puts in the footer besides the schema and the chunks.
#[derive(Debug, Clone, Default)]
pub struct Writer {
    /// `FileMetaData.created_by`.
    pub created_by: Option<String>,
    /// Leave the dictionary page's header out of the chunks'
    /// `total_compressed_size` and `total_uncompressed_size`, as parquet-mr
    /// up to 1.2.8 did (PARQUET-816).
    pub sizes_without_dictionary_header: bool,
}

/// A whole file: `schema` (depth first, root first), and row groups of
/// (row count, one chunk per leaf column).
pub fn file(schema: &[Element], row_groups: &[(i64, Vec<Chunk>)]) -> Vec<u8> {
    file_by(&Writer::default(), schema, row_groups)
}

/// [`file()`], with the footer's quirks of `writer`.
pub fn file_by(writer: &Writer, schema: &[Element], row_groups: &[(i64, Vec<Chunk>)]) -> Vec<u8> {
    let mut out = b"PAR1".to_vec();
    // (num_rows, per chunk: (offset, size, chunk))
    let mut placed = Vec::new();
    for (rows, chunks) in row_groups {
        let mut group = Vec::new();
        for chunk in chunks {
            let start = out.len();
            for page in &chunk.pages {
                page.write(&mut out);
            }
            group.push((start as i64, (out.len() - start) as i64, chunk));
        }
        placed.push((*rows, group));
    }
    let mut t = Thrift::default();
    t.begin().i32(1, 2);
    t.structs(2, schema, |t, e| {
        if let Some(p) = e.physical {
            t.i32(1, p);
        }
        if let Some(l) = e.type_length {
            t.i32(2, l);
        }
        if let Some(r) = e.repetition {
            t.i32(3, r);
        }
        t.binary(4, e.name.as_bytes());
        if let Some(n) = e.num_children {
            t.i32(5, n);
        }
        if let Some(c) = e.converted_type {
            t.i32(6, c);
        }
        if let Some(member) = e.logical_type {
            t.field_struct(10).field_struct(member).end().end();
        }
    });
    let total = placed
        .iter()
        .fold(0i64, |sum, (rows, _)| sum.saturating_add(*rows));
    t.i64(3, total);
    t.structs(4, &placed, |t, (rows, group)| {
        t.structs(1, group, |t, &(offset, size, chunk)| {
            t.i64(2, offset).field_struct(3);
            let dictionary = chunk.pages.first().is_some_and(|p| p.dictionary);
            let data_offset = if dictionary {
                let mut first = Vec::new();
                chunk.pages[0].write(&mut first);
                offset + first.len() as i64
            } else {
                offset
            };
            let paths: Vec<&str> = chunk.path.iter().map(String::as_str).collect();
            let size = if dictionary && writer.sizes_without_dictionary_header {
                size - chunk.pages[0].header().len() as i64
            } else {
                size
            };
            t.i32(1, chunk.physical)
                .i32s(2, &[encoding::PLAIN, encoding::RLE])
                .binaries(3, &paths)
                .i32(4, chunk.codec)
                .i64(
                    5,
                    chunk
                        .pages
                        .iter()
                        .filter(|p| !p.dictionary)
                        .map(|p| i64::from(p.num_values))
                        .sum(),
                )
                .i64(6, size)
                .i64(7, size)
                .i64(9, data_offset);
            if dictionary {
                t.i64(11, offset);
            }
            t.end();
        });
        let bytes: i64 = group.iter().map(|&(_, size, _)| size).sum();
        t.i64(2, bytes).i64(3, *rows);
    });
    if let Some(created_by) = &writer.created_by {
        t.binary(6, created_by.as_bytes());
    }
    t.end();
    out.extend_from_slice(&t.bytes);
    out.extend_from_slice(&(t.bytes.len() as u32).to_le_bytes());
    out.extend_from_slice(b"PAR1");
    out
}

/// A zstd frame that inflates to `len` copies of `byte` (a multiple of
/// 128 KiB) from 4 bytes per 128 KiB: RLE blocks
/// (<https://github.com/facebook/zstd/blob/dev/doc/zstd_compression_format.md>).
///
/// # Panics
/// If `len` is not a positive multiple of 128 KiB.
pub fn zstd_bomb(byte: u8, len: usize) -> Vec<u8> {
    const BLOCK: usize = 128 << 10;
    assert!(
        len.is_multiple_of(BLOCK) && len > 0,
        "a whole number of 128 KiB blocks"
    );
    // Magic; frame header: no content size, no checksum, no dictionary;
    // window 2^(10 + 7) = 128 KiB.
    let mut out = vec![0x28, 0xb5, 0x2f, 0xfd, 0x00, 7 << 3];
    let blocks = len / BLOCK;
    for i in 0..blocks {
        let last = u32::from(i + 1 == blocks);
        let header = (BLOCK as u32) << 3 | 1 << 1 | last; // RLE block of BLOCK bytes
        out.extend_from_slice(&header.to_le_bytes()[..3]);
        out.push(byte);
    }
    out
}

/// `values` in DELTA_BINARY_PACKED: blocks of 128 deltas in 4 miniblocks of
/// 32, each miniblock packed LSB first at the width its largest delta needs
/// (<https://github.com/apache/parquet-format/blob/master/Encodings.md#delta-encoding-delta_binary_packed--5>).
pub fn delta_binary_packed(values: &[i64]) -> Vec<u8> {
    fn varint(out: &mut Vec<u8>, mut v: u64) {
        while v >= 0x80 {
            out.push((v as u8) | 0x80);
            v >>= 7;
        }
        out.push(v as u8);
    }
    let zigzag = |v: i64| ((v << 1) ^ (v >> 63)) as u64;
    let mut out = Vec::new();
    varint(&mut out, 128);
    varint(&mut out, 4);
    varint(&mut out, values.len() as u64);
    varint(&mut out, zigzag(values.first().copied().unwrap_or(0)));
    let deltas: Vec<i64> = values.windows(2).map(|w| w[1].wrapping_sub(w[0])).collect();
    for block in deltas.chunks(128) {
        let min = block.iter().copied().min().unwrap_or(0);
        varint(&mut out, zigzag(min));
        let minis: Vec<Vec<u64>> = block
            .chunks(32)
            .map(|m| m.iter().map(|&d| d.wrapping_sub(min) as u64).collect())
            .collect();
        let widths: Vec<u32> = (0..4)
            .map(|i| {
                minis.get(i).map_or(0, |m| {
                    64 - m.iter().copied().max().unwrap_or(0).leading_zeros()
                })
            })
            .collect();
        out.extend(widths.iter().map(|&w| w as u8));
        for (mini, &width) in minis.iter().zip(&widths) {
            let mut bits = vec![0u8; 32 * width as usize / 8];
            for (i, &v) in mini.iter().enumerate() {
                for b in 0..width as usize {
                    if v >> b & 1 == 1 {
                        let bit = i * width as usize + b;
                        bits[bit / 8] |= 1 << (bit % 8);
                    }
                }
            }
            out.extend(bits);
        }
    }
    out
}
