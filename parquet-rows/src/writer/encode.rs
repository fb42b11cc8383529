//! Our own encoders for flat columns: a column chunk's pages encoded
//! straight from the row group's [`ColumnBuffer`], then spliced into the
//! file with `SerializedRowGroupWriter::append_column`.
//!
//! The `parquet` crate's column writers take values as `ByteArray`s (an
//! atomic reference count per string) and intern each one into their
//! dictionary through a generic hash table; this path hashes the buffered
//! values where they lie (a dictionary entry is the index of the value that
//! first had it, so the dictionary page is written from the buffer too),
//! computes the statistics and the page index as it encodes, and compresses
//! with the codec crates the reader already uses. `docs/writer.md` has the
//! measurements.
//!
//! It covers the columns [`supported`] says (REQUIRED or OPTIONAL leaves
//! outside lists, INT32, INT64, FLOAT, DOUBLE, BYTE_ARRAY; dictionary with
//! its PLAIN fallback, or PLAIN; data pages v1; UNCOMPRESSED, SNAPPY, GZIP,
//! LZ4_RAW, ZSTD; no bloom filter); every other column goes to the column
//! writers, so a file may mix both.

use std::io::Write;

use bytes::Bytes;
use parquet::basic::{BoundaryOrder, Compression as Codec, Encoding, LogicalType, PageType, Type};
use parquet::column::page::{CompressedPage, Page, PageWriter};
use parquet::column::writer::ColumnCloseResult;
use parquet::data_type::ByteArray;
use parquet::errors::ParquetError;
use parquet::file::metadata::{
    ColumnChunkMetaData, ColumnIndexBuilder, OffsetIndexBuilder, PageEncodingStats,
};
use parquet::file::properties::{EnabledStatistics, WriterProperties, WriterVersion};
use parquet::file::statistics::{Statistics, ValueStatistics};
use parquet::file::writer::{SerializedPageWriter, TrackedWrite};
use parquet::schema::types::{ColumnDescPtr, ColumnDescriptor};

use super::field::ColumnBuffer;
use crate::encoding::rle_bp::pack_group;

type Result<T> = std::result::Result<T, ParquetError>;

/// Levels per step of the encoder: the page size and the dictionary's size
/// are checked after each step, as the column writers check after each
/// batch of their `write_batch_size` (1024). Smaller page limits take
/// smaller steps, so that pages stay near the limit.
fn step(page_limit: usize, dictionary_limit: usize) -> usize {
    (page_limit.min(dictionary_limit) / 64).clamp(8, 1024)
}

/// Whether [`encode_chunk`] writes `descr` under `props`; the other columns
/// go to the `parquet` crate's column writers.
pub(crate) fn supported(descr: &ColumnDescriptor, props: &WriterProperties) -> bool {
    let path = descr.path();
    descr.max_rep_level() == 0
        && descr.max_def_level() <= 1
        && matches!(
            descr.physical_type(),
            Type::INT32 | Type::INT64 | Type::FLOAT | Type::DOUBLE | Type::BYTE_ARRAY
        )
        && props.writer_version() == WriterVersion::PARQUET_1_0
        && props.bloom_filter_properties(path).is_none()
        && matches!(props.encoding(path), None | Some(Encoding::PLAIN))
        && !props.write_page_header_statistics(path)
        && Compressor::supports(props.compression(path))
}

/// A codec's compressor for the pages of one chunk, kept across its pages:
/// a zstd context is allocated and its tables set up once per chunk rather
/// than once per page (what `zstd::bulk::compress` does per call), and
/// snappy's hash table likewise.
enum Compressor {
    Uncompressed,
    // Boxed: its hash table would make every variant as large. The buffer
    // is compressed into and kept across pages: `compress_vec` zeroes a new
    // buffer of the worst-case length per page, more bytes than copying
    // the compressed page out.
    Snappy(Box<snap::raw::Encoder>, Vec<u8>),
    Gzip(u32),
    Lz4Raw,
    #[cfg(not(target_arch = "wasm32"))]
    Zstd(zstd::bulk::Compressor<'static>),
}

impl Compressor {
    /// The compressor of `codec`, or `None` for a codec this path does not
    /// write (BROTLI, the Hadoop-framed LZ4, LZO).
    fn new(codec: Codec) -> Option<std::io::Result<Self>> {
        Some(Ok(match codec {
            Codec::UNCOMPRESSED => Compressor::Uncompressed,
            Codec::SNAPPY => Compressor::Snappy(Box::new(snap::raw::Encoder::new()), Vec::new()),
            Codec::GZIP(level) => Compressor::Gzip(level.compression_level()),
            Codec::LZ4_RAW => Compressor::Lz4Raw,
            #[cfg(not(target_arch = "wasm32"))]
            Codec::ZSTD(level) => match zstd::bulk::Compressor::new(level.compression_level()) {
                Ok(c) => Compressor::Zstd(c),
                Err(e) => return Some(Err(e)),
            },
            _ => return None,
        }))
    }

    /// Whether this path writes `codec`.
    fn supports(codec: Codec) -> bool {
        match codec {
            Codec::UNCOMPRESSED | Codec::SNAPPY | Codec::GZIP(_) | Codec::LZ4_RAW => true,
            #[cfg(not(target_arch = "wasm32"))]
            Codec::ZSTD(_) => true,
            _ => false,
        }
    }

    /// `data` compressed, in a buffer of its own (it becomes the page).
    fn compress(&mut self, data: &[u8]) -> std::io::Result<Vec<u8>> {
        match self {
            Compressor::Uncompressed => Ok(data.to_vec()),
            Compressor::Snappy(encoder, out) => {
                let max = snap::raw::max_compress_len(data.len());
                if out.len() < max {
                    out.resize(max, 0);
                }
                let len = encoder.compress(data, out).map_err(std::io::Error::other)?;
                Ok(out[..len].to_vec())
            }
            Compressor::Gzip(level) => {
                let mut encoder = flate2::write::GzEncoder::new(
                    Vec::with_capacity(data.len() / 2),
                    flate2::Compression::new(*level),
                );
                encoder.write_all(data)?;
                encoder.finish()
            }
            Compressor::Lz4Raw => Ok(lz4_flex::block::compress(data)),
            #[cfg(not(target_arch = "wasm32"))]
            Compressor::Zstd(compressor) => compressor.compress(data),
        }
    }
}

/// The values of one column, as the encoder reads them: hashed, compared
/// and PLAIN-encoded by index, so that neither the dictionary nor the
/// statistics copy a value.
trait Source {
    /// Values (non-null entries).
    fn len(&self) -> usize;
    /// Whether two values of key `key` are the same value (fixed widths:
    /// the key is the value's bits; byte arrays of up to 7 bytes: the key
    /// is their bytes and length), so that the dictionary does not look at
    /// the value behind an entry it finds.
    fn exact(key: u64) -> bool;
    /// Value `i`'s key in the dictionary's table: equal values, equal keys.
    fn key(&self, i: usize) -> u64;
    /// Where `key` starts probing the table (its low bits are used).
    fn spread(key: u64) -> u64;
    /// Whether values `i` and `j` are the same dictionary entry (by bits).
    fn same(&self, i: usize, j: usize) -> bool;
    /// Bytes of value `i` encoded PLAIN.
    fn plain_size(&self, i: usize) -> usize;
    fn plain(&self, range: std::ops::Range<usize>, out: &mut Vec<u8>);
    fn plain_one(&self, i: usize, out: &mut Vec<u8>) {
        self.plain(i..i + 1, out);
    }
    /// Whether value `i` takes part in min/max (not a NaN).
    fn ordered(&self, i: usize) -> bool;
    /// Whether value `i` sorts after value `j` in the column's order.
    fn greater(&self, i: usize, j: usize) -> bool;
    /// Folds the values in `range` into `min_max` (value indices of the
    /// smallest and largest ordered value) and returns how many are NaN: one
    /// pass for the statistics and the page's NaN count.
    fn scan(&self, range: std::ops::Range<usize>, min_max: &mut Option<(usize, usize)>) -> u64 {
        let mut nans = 0;
        for i in range {
            if !self.ordered(i) {
                nans += 1;
                continue;
            }
            fold(self, i, min_max);
        }
        nans
    }
    /// Whether comparing two values costs about as much as looking at a
    /// dictionary index (fixed-width values); byte arrays are compared only
    /// once per distinct value of a dictionary page instead.
    fn cheap_compare(&self) -> bool {
        true
    }
    /// The bytes of value `i` as a statistic (PLAIN without a length; a
    /// zero as -0.0 for a min and +0.0 for a max, as the spec says).
    fn stat_bytes(&self, i: usize, is_max: bool) -> Vec<u8>;
    /// The chunk's statistics from its min and max value indices.
    fn statistics(&self, min_max: Option<(usize, usize)>, nulls: u64, nans: u64) -> Statistics;
    /// Bytes of byte-array values in `range` (their unencoded size), for
    /// the size statistics; `None` for other types.
    fn variable_bytes(&self, _range: std::ops::Range<usize>) -> Option<i64> {
        None
    }
    fn truncatable(&self) -> bool {
        false
    }
}

/// Folds value `i` (ordered, not NaN) into `min_max`.
#[inline]
fn fold<S: Source + ?Sized>(source: &S, i: usize, min_max: &mut Option<(usize, usize)>) {
    match min_max {
        None => *min_max = Some((i, i)),
        Some((min, max)) => {
            if source.greater(*min, i) {
                *min = i;
            }
            if source.greater(i, *max) {
                *max = i;
            }
        }
    }
}

/// [`Source::scan`] over a slice of fixed-width values starting at value
/// `start`: the current bounds are kept as values, so each value costs two
/// comparisons in registers rather than two indexed loads.
#[inline]
fn scan_fixed<T: Fixed>(
    all: &[T],
    range: std::ops::Range<usize>,
    min_max: &mut Option<(usize, usize)>,
    gt: impl Fn(T, T) -> bool,
) -> u64 {
    let start = range.start;
    let values = &all[range];
    let mut nans = 0u64;
    let mut k = 0;
    let (mut min_i, mut max_i) = match *min_max {
        Some(bounds) => bounds,
        None => {
            // The first ordered value starts the bounds.
            while k < values.len() && values[k].nan() {
                nans += 1;
                k += 1;
            }
            if k == values.len() {
                return nans;
            }
            (start + k, start + k)
        }
    };
    let (mut min, mut max) = (all[min_i], all[max_i]);
    for (j, &v) in values.iter().enumerate().skip(k) {
        if v.nan() {
            nans += 1;
            continue;
        }
        if gt(min, v) {
            min = v;
            min_i = start + j;
        }
        if gt(v, max) {
            max = v;
            max_i = start + j;
        }
    }
    *min_max = Some((min_i, max_i));
    nans
}

/// A fixed-width value: INT32, INT64, FLOAT, DOUBLE.
trait Fixed: Copy {
    fn bits(self) -> u64;
    fn write_le(values: &[Self], out: &mut Vec<u8>);
    fn gt(self, other: Self, unsigned: bool) -> bool;
    fn nan(self) -> bool;
    fn stat(self, is_max: bool) -> Self;
    fn le_bytes(self) -> Vec<u8>;
    fn statistics(
        min_max: Option<(Self, Self)>,
        nulls: u64,
        nans: Option<u64>,
        signed: bool,
    ) -> Statistics;
}

macro_rules! fixed_int {
    ($t:ty, $u:ty) => {
        impl Fixed for $t {
            #[inline]
            fn bits(self) -> u64 {
                self as $u as u64
            }
            fn write_le(values: &[Self], out: &mut Vec<u8>) {
                out.reserve(std::mem::size_of_val(values));
                for v in values {
                    out.extend_from_slice(&v.to_le_bytes());
                }
            }
            #[inline]
            fn gt(self, other: Self, unsigned: bool) -> bool {
                if unsigned {
                    (self as $u) > (other as $u)
                } else {
                    self > other
                }
            }
            #[inline]
            fn nan(self) -> bool {
                false
            }
            fn stat(self, _is_max: bool) -> Self {
                self
            }
            fn le_bytes(self) -> Vec<u8> {
                self.to_le_bytes().to_vec()
            }
            fn statistics(
                min_max: Option<(Self, Self)>,
                nulls: u64,
                _nans: Option<u64>,
                signed: bool,
            ) -> Statistics {
                ValueStatistics::new(
                    min_max.map(|m| m.0),
                    min_max.map(|m| m.1),
                    None,
                    Some(nulls),
                    false,
                )
                .with_backwards_compatible_min_max(signed)
                .into()
            }
        }
    };
}
fixed_int!(i32, u32);
fixed_int!(i64, u64);

macro_rules! fixed_float {
    ($t:ty) => {
        impl Fixed for $t {
            #[inline]
            fn bits(self) -> u64 {
                self.to_bits() as u64
            }
            fn write_le(values: &[Self], out: &mut Vec<u8>) {
                out.reserve(std::mem::size_of_val(values));
                for v in values {
                    out.extend_from_slice(&v.to_le_bytes());
                }
            }
            #[inline]
            fn gt(self, other: Self, _unsigned: bool) -> bool {
                self > other
            }
            #[inline]
            fn nan(self) -> bool {
                self.is_nan()
            }
            fn stat(self, is_max: bool) -> Self {
                if self == 0.0 {
                    if is_max {
                        0.0
                    } else {
                        -0.0
                    }
                } else {
                    self
                }
            }
            fn le_bytes(self) -> Vec<u8> {
                self.to_le_bytes().to_vec()
            }
            fn statistics(
                min_max: Option<(Self, Self)>,
                nulls: u64,
                nans: Option<u64>,
                signed: bool,
            ) -> Statistics {
                ValueStatistics::new(
                    min_max.map(|m| m.0.stat(false)),
                    min_max.map(|m| m.1.stat(true)),
                    None,
                    Some(nulls),
                    false,
                )
                .with_nan_count(nans)
                .with_backwards_compatible_min_max(signed)
                .into()
            }
        }
    };
}
fixed_float!(f32);
fixed_float!(f64);

struct FixedSource<'a, T> {
    values: &'a [T],
    unsigned: bool,
    float: bool,
}

impl<T: Fixed> Source for FixedSource<'_, T>
where
    ValueStatistics<T>: Into<Statistics>,
{
    fn len(&self) -> usize {
        self.values.len()
    }
    #[inline]
    fn exact(_key: u64) -> bool {
        true
    }
    #[inline]
    fn key(&self, i: usize) -> u64 {
        self.values[i].bits()
    }
    #[inline]
    fn spread(key: u64) -> u64 {
        mix(key)
    }
    #[inline]
    fn same(&self, i: usize, j: usize) -> bool {
        self.values[i].bits() == self.values[j].bits()
    }
    fn plain_size(&self, _i: usize) -> usize {
        std::mem::size_of::<T>()
    }
    fn plain(&self, range: std::ops::Range<usize>, out: &mut Vec<u8>) {
        T::write_le(&self.values[range], out);
    }
    #[inline]
    fn ordered(&self, i: usize) -> bool {
        !self.values[i].nan()
    }
    #[inline]
    fn greater(&self, i: usize, j: usize) -> bool {
        self.values[i].gt(self.values[j], self.unsigned)
    }
    fn scan(&self, range: std::ops::Range<usize>, min_max: &mut Option<(usize, usize)>) -> u64 {
        // Two loops, so that the signedness is decided once, not per value.
        if self.unsigned {
            scan_fixed(self.values, range, min_max, |a, b| a.gt(b, true))
        } else {
            scan_fixed(self.values, range, min_max, |a, b| a.gt(b, false))
        }
    }
    fn stat_bytes(&self, i: usize, is_max: bool) -> Vec<u8> {
        self.values[i].stat(is_max).le_bytes()
    }
    fn statistics(&self, min_max: Option<(usize, usize)>, nulls: u64, nans: u64) -> Statistics {
        T::statistics(
            min_max.map(|(a, b)| (self.values[a], self.values[b])),
            nulls,
            self.float.then_some(nans),
            !self.unsigned,
        )
    }
}

/// BYTE_ARRAY values: one buffer, value `i` ending at `ends[i]`.
struct BytesSource<'a> {
    data: &'a [u8],
    ends: &'a [usize],
    /// The column is UTF-8 (STRING, ENUM, JSON): truncated bounds stay
    /// valid UTF-8.
    utf8: bool,
    /// Truncation of the chunk's statistics.
    truncate: Option<usize>,
}

impl BytesSource<'_> {
    /// Where value `i` lies in `data`.
    #[inline]
    fn span(&self, i: usize) -> std::ops::Range<usize> {
        let start = if i == 0 { 0 } else { self.ends[i - 1] };
        start..self.ends[i]
    }
    #[inline]
    fn get(&self, i: usize) -> &[u8] {
        &self.data[self.span(i)]
    }
}

impl Source for BytesSource<'_> {
    fn len(&self) -> usize {
        self.ends.len()
    }
    #[inline]
    fn exact(key: u64) -> bool {
        key >> 56 <= 7 // a short value's length; a hash's top byte is 0xFF
    }
    /// A value of up to 7 bytes is its own key (its bytes, its length in
    /// the top byte): symbols, codes and tickers are interned without
    /// hashing their bytes or comparing them with the entry's. Longer
    /// values are hashed, the top byte set so that no hash is a short key.
    #[inline]
    fn key(&self, i: usize) -> u64 {
        let span = self.span(i);
        let (start, len) = (span.start, span.len());
        if len <= 7 {
            // One 8-byte load where the buffer has 8 bytes from `start`,
            // masked to the value's bytes.
            let word = match self.data.get(start..start + 8) {
                Some(w) => u64::from_le_bytes(w.try_into().expect("8 bytes")),
                None => {
                    let mut w = [0u8; 8];
                    w[..len].copy_from_slice(&self.data[start..start + len]);
                    u64::from_le_bytes(w)
                }
            };
            (word & ((1u64 << (len * 8)) - 1)) | ((len as u64) << 56)
        } else {
            hash_bytes(&self.data[span]) | (0xFF << 56)
        }
    }
    #[inline]
    fn spread(key: u64) -> u64 {
        mix(key)
    }
    #[inline]
    fn same(&self, i: usize, j: usize) -> bool {
        same_bytes(self.get(i), self.get(j))
    }
    fn plain_size(&self, i: usize) -> usize {
        4 + self.get(i).len()
    }
    fn plain(&self, range: std::ops::Range<usize>, out: &mut Vec<u8>) {
        for i in range {
            let v = self.get(i);
            out.extend_from_slice(&(v.len() as u32).to_le_bytes());
            out.extend_from_slice(v);
        }
    }
    fn ordered(&self, _i: usize) -> bool {
        true
    }
    #[inline]
    fn greater(&self, i: usize, j: usize) -> bool {
        self.get(i) > self.get(j)
    }
    fn stat_bytes(&self, i: usize, _is_max: bool) -> Vec<u8> {
        self.get(i).to_vec()
    }
    fn statistics(&self, min_max: Option<(usize, usize)>, nulls: u64, _nans: u64) -> Statistics {
        let (mut min_exact, mut max_exact) = (true, true);
        let min_max = min_max.map(|(a, b)| {
            let (min, max) = (self.get(a), self.get(b));
            let min = match truncate_min(min, self.truncate, self.utf8) {
                Some(t) => {
                    min_exact = false;
                    t
                }
                None => min.to_vec(),
            };
            let max = match truncate_max(max, self.truncate, self.utf8) {
                Some(t) => {
                    max_exact = false;
                    t
                }
                None => max.to_vec(),
            };
            (ByteArray::from(min), ByteArray::from(max))
        });
        ValueStatistics::new(
            min_max.as_ref().map(|m| m.0.clone()),
            min_max.map(|m| m.1),
            None,
            Some(nulls),
            false,
        )
        .with_min_is_exact(min_exact)
        .with_max_is_exact(max_exact)
        .with_backwards_compatible_min_max(false)
        .into()
    }
    fn variable_bytes(&self, range: std::ops::Range<usize>) -> Option<i64> {
        if range.is_empty() {
            return Some(0);
        }
        let start = if range.start == 0 {
            0
        } else {
            self.ends[range.start - 1]
        };
        Some((self.ends[range.end - 1] - start) as i64)
    }
    fn truncatable(&self) -> bool {
        true
    }
    fn cheap_compare(&self) -> bool {
        false
    }
}

/// Whether two byte strings are equal. Dictionary values are mostly short
/// (symbols, codes) and almost always equal when compared (their hashes
/// matched): a byte loop inline beats a `memcmp` call up to 16 bytes.
#[inline]
fn same_bytes(a: &[u8], b: &[u8]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    if a.len() <= 16 {
        a.iter().zip(b).all(|(x, y)| x == y)
    } else {
        a == b
    }
}

/// A lower bound of `value` at most `len` bytes long, or `None` when it is
/// short enough already (UTF-8 columns cut at a character boundary).
fn truncate_min(value: &[u8], len: Option<usize>, utf8: bool) -> Option<Vec<u8>> {
    let len = len?;
    if value.len() <= len {
        return None;
    }
    let mut cut = len;
    if utf8 {
        if let Ok(s) = std::str::from_utf8(value) {
            while cut > 0 && !s.is_char_boundary(cut) {
                cut -= 1;
            }
            if cut == 0 {
                return None;
            }
        }
    }
    Some(value[..cut].to_vec())
}

/// An upper bound of `value` at most `len` bytes long: a prefix with its
/// last byte (or character, for UTF-8) incremented; `None` when the value
/// is short enough or no such bound exists (all bytes 0xFF), then the
/// exact value is kept.
fn truncate_max(value: &[u8], len: Option<usize>, utf8: bool) -> Option<Vec<u8>> {
    let len = len?;
    if value.len() <= len {
        return None;
    }
    if utf8 {
        if let Ok(s) = std::str::from_utf8(value) {
            let mut cut = len;
            while cut > 0 && !s.is_char_boundary(cut) {
                cut -= 1;
            }
            // Increment the last character that has a successor, dropping
            // the ones after it.
            let mut prefix: Vec<char> = s[..cut].chars().collect();
            while let Some(c) = prefix.pop() {
                let next = (c as u32 + 1..=char::MAX as u32).find_map(char::from_u32);
                if let Some(next) = next {
                    let mut out: String = prefix.into_iter().collect();
                    out.push(next);
                    if out.len() <= len {
                        return Some(out.into_bytes());
                    }
                    return None;
                }
            }
            return None;
        }
    }
    let mut out = value[..len].to_vec();
    while let Some(last) = out.pop() {
        if last < u8::MAX {
            out.push(last + 1);
            return Some(out);
        }
    }
    None
}

#[inline]
fn mix(bits: u64) -> u64 {
    let x = (bits ^ (bits >> 32)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    x ^ (x >> 29)
}

/// A fast hash of a byte string (8 bytes at a time), good enough for a
/// dictionary's table: equal strings hash equal, which is all correctness
/// needs; collisions cost a comparison.
#[inline]
fn hash_bytes(bytes: &[u8]) -> u64 {
    let mut h = (bytes.len() as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    let mut chunks = bytes.chunks_exact(8);
    for c in &mut chunks {
        let w = u64::from_le_bytes(c.try_into().expect("8 bytes"));
        h = (h.rotate_left(5) ^ w).wrapping_mul(0x51_7C_C1_B7_27_22_0A_95);
    }
    let rest = chunks.remainder();
    if !rest.is_empty() {
        let mut w = [0u8; 8];
        w[..rest.len()].copy_from_slice(rest);
        h = (h.rotate_left(5) ^ u64::from_le_bytes(w)).wrapping_mul(0x51_7C_C1_B7_27_22_0A_95);
    }
    mix(h)
}

/// How many values a dictionary takes before [`Dictionary::done`] judges
/// from its repeats whether it will fill up.
const TRIAL_VALUES: usize = 8192;

/// The dictionary of a chunk: each entry is the index of the value that
/// first had it, found again through an open-addressing table of keys.
struct Dictionary {
    entries: Vec<usize>, // value index of each entry, in entry order
    slots: Vec<Slot>,    // length a power of two
    plain_bytes: usize,  // the dictionary page's PLAIN size
}

/// A slot of the dictionary's table. The key is kept in the slot, so a
/// probe reads one slot, not an entry's hash then its value: for fixed
/// widths a matching key is the entry, for byte arrays (the key is a hash)
/// only then is the value compared.
#[derive(Clone, Copy)]
struct Slot {
    key: u64,
    entry: u32, // entry + 1, or 0 for an empty slot
}

impl Dictionary {
    fn new() -> Self {
        Dictionary {
            entries: Vec::new(),
            slots: vec![Slot { key: 0, entry: 0 }; 1024],
            plain_bytes: 0,
        }
    }

    /// Whether the pages after the current one are PLAIN, once the chunk's
    /// first `interned` values went through the dictionary: its page
    /// reached `limit` bytes (the column writers' rule), or it is bound to
    /// and is of no use until then. After [`TRIAL_VALUES`] values, `c`
    /// repeats among `n` values (at most one in a hundred) put the column's
    /// distinct values at about n² / 2c (the birthday estimate, for values
    /// in no particular order; ascending unique values have none). When
    /// that many entries of the present average size pass `limit`, the
    /// dictionary fills up anyway; until then it costs more than PLAIN (its
    /// page holds nearly every value once, and each value its index of 13
    /// bits or more on top), and every value pays a probe of a table that
    /// outgrows the caches: columns of timestamps and of unique ids.
    fn done(&self, limit: usize, interned: usize) -> bool {
        if self.plain_bytes >= limit {
            return true;
        }
        let (n, distinct) = (interned, self.entries.len());
        if n < TRIAL_VALUES || distinct == 0 || (n - distinct) * 100 > n {
            return false;
        }
        // estimate × (plain_bytes / distinct) >= limit, with estimate =
        // n² / 2·repeats, in integers.
        let repeats = (n - distinct).max(1) as u128;
        let (n, distinct) = (n as u128, distinct as u128);
        n * n * self.plain_bytes as u128 >= 2 * repeats * distinct * limit as u128
    }

    /// The entry of value `i`, added if new.
    #[inline]
    fn intern<S: Source>(&mut self, source: &S, i: usize) -> u32 {
        let key = source.key(i);
        let mask = self.slots.len() - 1;
        let mut at = (S::spread(key) as usize) & mask;
        loop {
            let slot = self.slots[at];
            if slot.entry == 0 {
                break;
            }
            if slot.key == key
                && (S::exact(key) || source.same(self.entries[(slot.entry - 1) as usize], i))
            {
                return slot.entry - 1;
            }
            at = (at + 1) & mask;
        }
        let entry = self.entries.len() as u32;
        self.entries.push(i);
        self.slots[at] = Slot {
            key,
            entry: entry + 1,
        };
        self.plain_bytes += source.plain_size(i);
        if self.entries.len() * 2 > self.slots.len() {
            self.grow::<S>();
        }
        entry
    }

    fn grow<S: Source>(&mut self) {
        let mut slots = vec![Slot { key: 0, entry: 0 }; self.slots.len() * 2];
        let mask = slots.len() - 1;
        for slot in self.slots.iter().filter(|s| s.entry != 0) {
            let mut at = (S::spread(slot.key) as usize) & mask;
            while slots[at].entry != 0 {
                at = (at + 1) & mask;
            }
            slots[at] = *slot;
        }
        self.slots = slots;
    }
}

/// Bits to store values up to `max`.
fn bit_width(max: u64) -> u8 {
    (64 - max.leading_zeros()) as u8
}

/// The RLE / bit-packed hybrid encoding of `values` at `width` bits
/// (parquet-format `Encodings.md`): groups of 8 equal values extend a
/// repeated run, other groups go to bit-packed runs of at most 63 groups.
///
/// A bit-packed run's header (its group count, at most 63, so one varint
/// byte) is reserved when the run starts and filled in when it ends, so
/// groups are packed straight into `out` as they come.
fn rle_hybrid(values: &[u32], width: u8, out: &mut Vec<u8>) {
    const MAX_GROUPS: u8 = 63;
    let value_bytes = usize::from(width).div_ceil(8);
    let bit_width = u32::from(width);
    let mut packed: Option<(usize, u8)> = None; // header position, groups
    let mut run: Option<(u32, usize)> = None; // pending repeated run
    let close_packed = |packed: &mut Option<(usize, u8)>, out: &mut Vec<u8>| {
        if let Some((at, groups)) = packed.take() {
            out[at] = (groups << 1) | 1;
        }
    };
    let flush_run = |run: &mut Option<(u32, usize)>, out: &mut Vec<u8>| {
        if let Some((v, n)) = run.take() {
            varint((n as u64) << 1, out);
            out.extend_from_slice(&v.to_le_bytes()[..value_bytes]);
        }
    };
    for group in values.chunks(8) {
        let first = group[0];
        // A partial last group joins a repeated run only when equal (a
        // repeated run may have any length; a bit-packed one pads).
        if group.iter().all(|&v| v == first) {
            match &mut run {
                Some((v, n)) if *v == first => *n += group.len(),
                _ => {
                    flush_run(&mut run, out);
                    close_packed(&mut packed, out);
                    run = Some((first, group.len()));
                }
            }
        } else {
            flush_run(&mut run, out);
            if packed.is_some_and(|(_, groups)| groups == MAX_GROUPS) {
                close_packed(&mut packed, out);
            }
            let (_, groups) = packed.get_or_insert_with(|| {
                out.push(0); // the header, filled in by `close_packed`
                (out.len() - 1, 0)
            });
            *groups += 1;
            if let Ok(eight) = <&[u32; 8]>::try_from(group) {
                pack_group(eight, bit_width, out);
            } else {
                // The partial last group, padded with 0 (zeroing an array
                // for every group cost a `memset` call each).
                let mut eight = [0u32; 8];
                eight[..group.len()].copy_from_slice(group);
                pack_group(&eight, bit_width, out);
            }
        }
    }
    flush_run(&mut run, out);
    close_packed(&mut packed, out);
}

fn varint(mut v: u64, out: &mut Vec<u8>) {
    while v >= 0x80 {
        out.push((v as u8) | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

/// Encodes one column chunk of a row group from `buffer`: the pages (in a
/// buffer of their own, offsets from 0) and what `append_column` needs.
pub(crate) fn encode_chunk(
    descr: &ColumnDescPtr,
    props: &WriterProperties,
    buffer: &ColumnBuffer,
) -> Result<(Bytes, ColumnCloseResult)> {
    // INT(_, false) and the other unsigned annotations order as unsigned.
    let unsigned = descr.sort_order() == parquet::basic::SortOrder::UNSIGNED;
    match descr.physical_type() {
        Type::INT32 => Chunk::new(descr, props, buffer)?.run(&FixedSource {
            values: &buffer.ints,
            unsigned,
            float: false,
        }),
        Type::INT64 => Chunk::new(descr, props, buffer)?.run(&FixedSource {
            values: &buffer.longs,
            unsigned,
            float: false,
        }),
        Type::FLOAT => Chunk::new(descr, props, buffer)?.run(&FixedSource {
            values: &buffer.floats,
            unsigned: false,
            float: true,
        }),
        Type::DOUBLE => Chunk::new(descr, props, buffer)?.run(&FixedSource {
            values: &buffer.doubles,
            unsigned: false,
            float: true,
        }),
        Type::BYTE_ARRAY => {
            let utf8 = matches!(
                descr.logical_type_ref(),
                Some(LogicalType::String | LogicalType::Enum | LogicalType::Json)
            ) || matches!(
                descr.converted_type(),
                parquet::basic::ConvertedType::UTF8
                    | parquet::basic::ConvertedType::ENUM
                    | parquet::basic::ConvertedType::JSON
            );
            Chunk::new(descr, props, buffer)?.run(&BytesSource {
                data: &buffer.bytes,
                ends: &buffer.ends,
                utf8,
                truncate: props.statistics_truncate_length(),
            })
        }
        other => Err(ParquetError::NYI(format!("own encoder for {other}"))),
    }
}

/// The state of one chunk being encoded.
struct Chunk<'a> {
    descr: &'a ColumnDescPtr,
    props: &'a WriterProperties,
    defs: &'a [i16],
    optional: bool,
    codec: Codec,
    compressor: Compressor,
    statistics: EnabledStatistics,
    row_limit: usize,
    page_limit: usize,
    dictionary_limit: usize,
    dictionary: Option<Dictionary>, // `Some` while dictionary-encoding
    had_dictionary: Option<Dictionary>,
    pages: Vec<CompressedPage>,
    page_rows: Vec<usize>,
    page_variable_bytes: Vec<Option<i64>>,
    column_index: ColumnIndexBuilder,
    ascending: bool,
    descending: bool,
    last_min_max: Option<(usize, usize)>,
    bounds: Option<(usize, usize)>,
    nulls: u64,
    nans: u64,
    variable_bytes: Option<i64>,
    /// The page being encoded, kept across pages: a new `Vec` per page grew
    /// by reallocation, copying the page several times over.
    page_buf: Vec<u8>,
}

impl<'a> Chunk<'a> {
    fn new(
        descr: &'a ColumnDescPtr,
        props: &'a WriterProperties,
        buffer: &'a ColumnBuffer,
    ) -> Result<Self> {
        let path = descr.path();
        let codec = props.compression(path);
        let statistics = props.statistics_enabled(path);
        let mut column_index = ColumnIndexBuilder::new(descr.physical_type());
        if statistics != EnabledStatistics::Page {
            column_index.to_invalid();
        }
        Ok(Chunk {
            descr,
            props,
            defs: &buffer.defs,
            optional: descr.max_def_level() > 0,
            codec,
            compressor: Compressor::new(codec)
                .ok_or_else(|| ParquetError::NYI(format!("own encoder for {codec}")))??,
            statistics,
            row_limit: props.column_data_page_row_count_limit(path).max(1),
            page_limit: props.column_data_page_size_limit(path).max(1),
            dictionary_limit: props.column_dictionary_page_size_limit(path),
            dictionary: props.dictionary_enabled(path).then(Dictionary::new),
            had_dictionary: None,
            pages: Vec::new(),
            page_rows: Vec::new(),
            page_variable_bytes: Vec::new(),
            column_index,
            ascending: true,
            descending: true,
            last_min_max: None,
            bounds: None,
            nulls: 0,
            nans: 0,
            variable_bytes: None,
            page_buf: Vec::new(),
        })
    }

    fn run<S: Source>(mut self, source: &S) -> Result<(Bytes, ColumnCloseResult)> {
        let levels = if self.optional {
            self.defs.len()
        } else {
            source.len()
        };
        let mut indices: Vec<u32> = Vec::new(); // dictionary indices of the page

        // Per dictionary entry, the last page (stamp) whose statistics took
        // it in.
        let mut seen: Vec<u32> = Vec::new();
        let mut page_stamp = 0u32;
        let mut level = 0; // first level of the page
        let mut value = 0; // first value of the page
        while level < levels {
            // One page: steps until a limit is reached.
            let (mut end_level, mut end_value) = (level, value);
            let mut min_max: Option<(usize, usize)> = None;
            let mut page_nans = 0u64;
            page_stamp += 1;
            let mut plain_bytes = 0usize;
            indices.clear();
            let dictionary_page = self.dictionary.is_some();
            while end_level < levels {
                let step_end = (end_level + step(self.page_limit, self.dictionary_limit))
                    .min(levels)
                    .min(level + self.row_limit);
                let count = if self.optional {
                    self.defs[end_level..step_end]
                        .iter()
                        .filter(|&&d| d > 0)
                        .count()
                } else {
                    step_end - end_level
                };
                let values = end_value..end_value + count;
                let stats = self.statistics != EnabledStatistics::None;
                let by_entry = stats && dictionary_page && !source.cheap_compare();
                if stats && !by_entry {
                    page_nans += source.scan(values.clone(), &mut min_max);
                }
                match (&mut self.dictionary, dictionary_page) {
                    (Some(dictionary), true) => {
                        let first = indices.len();
                        indices.extend(values.clone().map(|i| dictionary.intern(source, i)));
                        if by_entry {
                            // Byte arrays of a dictionary page: each distinct
                            // entry of the page is compared once (its first
                            // value), not every value.
                            if seen.len() < dictionary.entries.len() {
                                seen.resize(dictionary.entries.len(), 0);
                            }
                            for &e in &indices[first..] {
                                let e = e as usize;
                                if seen[e] != page_stamp {
                                    seen[e] = page_stamp;
                                    fold(source, dictionary.entries[e], &mut min_max);
                                }
                            }
                        }
                    }
                    _ => plain_bytes += values.clone().map(|i| source.plain_size(i)).sum::<usize>(),
                }
                end_level = step_end;
                end_value = values.end;
                let estimate = match &self.dictionary {
                    Some(d) if dictionary_page => {
                        indices.len() * usize::from(bit_width(d.entries.len() as u64)) / 8 + 1
                    }
                    _ => plain_bytes,
                };
                let fallback = self
                    .dictionary
                    .as_ref()
                    .is_some_and(|d| d.done(self.dictionary_limit, end_value));
                if fallback || end_level - level >= self.row_limit || estimate >= self.page_limit {
                    break;
                }
            }
            self.page(
                source,
                level..end_level,
                value..end_value,
                &indices,
                min_max,
                page_nans,
                dictionary_page,
            )?;
            if self
                .dictionary
                .as_ref()
                .is_some_and(|d| d.done(self.dictionary_limit, end_value))
            {
                // The dictionary is full, or of no use: the pages after this
                // one are PLAIN.
                self.had_dictionary = self.dictionary.take();
            }
            level = end_level;
            value = end_value;
        }
        if self.dictionary.is_some() {
            self.had_dictionary = self.dictionary.take();
        }
        self.finish(source)
    }

    /// Encodes, compresses and keeps one data page.
    #[allow(clippy::too_many_arguments)]
    fn page<S: Source>(
        &mut self,
        source: &S,
        levels: std::ops::Range<usize>,
        values: std::ops::Range<usize>,
        indices: &[u32],
        min_max: Option<(usize, usize)>,
        nans: u64,
        dictionary_page: bool,
    ) -> Result<()> {
        let mut buf = std::mem::take(&mut self.page_buf);
        buf.clear();
        if self.optional {
            let defs: Vec<u32> = self.defs[levels.clone()]
                .iter()
                .map(|&d| d as u32)
                .collect();
            buf.extend_from_slice(&[0; 4]);
            rle_hybrid(&defs, 1, &mut buf);
            let len = (buf.len() - 4) as u32;
            buf[..4].copy_from_slice(&len.to_le_bytes());
        }
        let encoding = match &self.dictionary {
            Some(d) if dictionary_page => {
                let width = bit_width(d.entries.len().saturating_sub(1) as u64);
                buf.push(width);
                rle_hybrid(indices, width, &mut buf);
                self.props.dictionary_data_page_encoding()
            }
            _ => {
                source.plain(values.clone(), &mut buf);
                Encoding::PLAIN
            }
        };
        let uncompressed = buf.len();
        let compressed = self.compressor.compress(&buf)?;
        self.page_buf = buf;
        let rows = levels.len();
        let nulls = (levels.len() - values.len()) as u64;
        self.nulls += nulls;
        // Counted by the statistics' scan (only taken when statistics are
        // on, the only time the column index is written).
        self.nans += nans;
        let nan_count = self.is_float().then_some(nans as i64);
        let variable = source.variable_bytes(values.clone());
        if let Some(v) = variable {
            *self.variable_bytes.get_or_insert(0) += v;
        }
        // Chunk min/max.
        if let Some((min, max)) = min_max {
            self.bounds = Some(match self.bounds {
                None => (min, max),
                Some((cmin, cmax)) => (
                    if source.greater(cmin, min) { min } else { cmin },
                    if source.greater(max, cmax) { max } else { cmax },
                ),
            });
        }
        // The column index entry, and the boundary order across pages.
        if self.column_index.valid() {
            if values.is_empty() {
                self.column_index
                    .append(true, vec![], vec![], nulls as i64, nan_count);
            } else if let Some((min, max)) = min_max {
                if let Some((last_min, last_max)) = self.last_min_max {
                    if source.greater(last_min, min) || source.greater(last_max, max) {
                        self.ascending = false;
                    }
                    if source.greater(min, last_min) || source.greater(max, last_max) {
                        self.descending = false;
                    }
                }
                self.last_min_max = Some((min, max));
                let truncate = self.props.column_index_truncate_length();
                let (mut lo, mut hi) =
                    (source.stat_bytes(min, false), source.stat_bytes(max, true));
                if source.truncatable() {
                    let utf8 = self.utf8();
                    if let Some(t) = truncate_min(&lo, truncate, utf8) {
                        lo = t;
                    }
                    if let Some(t) = truncate_max(&hi, truncate, utf8) {
                        hi = t;
                    }
                }
                self.column_index
                    .append(false, lo, hi, nulls as i64, nan_count);
            } else {
                // Values but no bounds (all NaN): no column index, as the
                // column writers do.
                self.column_index.to_invalid();
            }
        }
        self.page_rows.push(rows);
        self.page_variable_bytes.push(variable);
        self.pages.push(CompressedPage::new(
            Page::DataPage {
                buf: Bytes::from(compressed),
                num_values: rows as u32,
                encoding,
                def_level_encoding: Encoding::RLE,
                rep_level_encoding: Encoding::RLE,
                statistics: None,
            },
            uncompressed,
        ));
        Ok(())
    }

    fn is_float(&self) -> bool {
        matches!(self.descr.physical_type(), Type::FLOAT | Type::DOUBLE)
    }

    fn utf8(&self) -> bool {
        matches!(
            self.descr.logical_type_ref(),
            Some(LogicalType::String | LogicalType::Enum | LogicalType::Json)
        )
    }

    /// The dictionary page, PLAIN from the buffered values, compressed.
    fn dictionary_page<S: Source>(&mut self, source: &S) -> Result<Option<CompressedPage>> {
        let Some(dictionary) = &self.had_dictionary else {
            return Ok(None);
        };
        let mut buf = Vec::with_capacity(dictionary.plain_bytes);
        for &i in &dictionary.entries {
            source.plain_one(i, &mut buf);
        }
        let num_values = dictionary.entries.len() as u32;
        Ok(Some(CompressedPage::new(
            Page::DictionaryPage {
                buf: Bytes::from(self.compressor.compress(&buf)?),
                num_values,
                encoding: self.props.dictionary_page_encoding(),
                is_sorted: false,
            },
            buf.len(),
        )))
    }

    /// Writes the dictionary page (if any) and the data pages into one
    /// buffer, and the chunk's metadata, column index and offset index.
    fn finish<S: Source>(mut self, source: &S) -> Result<(Bytes, ColumnCloseResult)> {
        let mut sink = TrackedWrite::new(Vec::new());
        let mut encodings = vec![Encoding::RLE];
        let mut encoding_stats = Vec::new();
        let mut offset_index = (!self.props.offset_index_disabled()).then(OffsetIndexBuilder::new);
        let (mut uncompressed, mut compressed, mut values) = (0u64, 0u64, 0u64);
        let mut dictionary_offset = None;
        let mut data_offset = None;
        {
            let mut writer = SerializedPageWriter::new(&mut sink);
            if let Some(page) = self.dictionary_page(source)? {
                let encoding = page.encoding();
                encodings.push(encoding);
                encoding_stats.push(PageEncodingStats {
                    page_type: PageType::DICTIONARY_PAGE,
                    encoding,
                    count: 1,
                });
                let spec = writer.write_page(page)?;
                dictionary_offset = Some(spec.offset as i64);
                uncompressed += spec.uncompressed_size as u64;
                compressed += spec.compressed_size as u64;
            }
            for ((page, rows), variable) in self
                .pages
                .drain(..)
                .zip(&self.page_rows)
                .zip(&self.page_variable_bytes)
            {
                let encoding = page.encoding();
                if !encodings.contains(&encoding) {
                    encodings.push(encoding);
                }
                match encoding_stats.last_mut() {
                    Some(PageEncodingStats {
                        page_type: PageType::DATA_PAGE,
                        encoding: e,
                        count,
                    }) if *e == encoding => *count += 1,
                    _ => encoding_stats.push(PageEncodingStats {
                        page_type: PageType::DATA_PAGE,
                        encoding,
                        count: 1,
                    }),
                }
                let spec = writer.write_page(page)?;
                data_offset.get_or_insert(spec.offset as i64);
                uncompressed += spec.uncompressed_size as u64;
                compressed += spec.compressed_size as u64;
                values += u64::from(spec.num_values);
                if let Some(index) = offset_index.as_mut() {
                    index.append_offset_and_size(spec.offset as i64, spec.compressed_size as i32);
                    index.append_row_count(*rows as i64);
                    index.append_unencoded_byte_array_data_bytes(*variable);
                }
            }
            writer.close()?;
        }
        let rows: usize = self.page_rows.iter().sum();
        let mut builder = ColumnChunkMetaData::builder(self.descr.clone())
            .set_compression(self.codec)
            .set_encodings(encodings)
            .set_page_encoding_stats(encoding_stats)
            .set_total_compressed_size(compressed as i64)
            .set_total_uncompressed_size(uncompressed as i64)
            .set_num_values(values as i64)
            .set_data_page_offset(data_offset.unwrap_or(0))
            .set_dictionary_page_offset(dictionary_offset);
        if self.statistics != EnabledStatistics::None {
            builder = builder
                .set_statistics(source.statistics(self.bounds, self.nulls, self.nans))
                .set_unencoded_byte_array_data_bytes(self.variable_bytes);
        }
        let metadata = builder.build()?;
        self.column_index
            .set_boundary_order(match (self.ascending, self.descending) {
                (true, _) => BoundaryOrder::ASCENDING,
                (false, true) => BoundaryOrder::DESCENDING,
                (false, false) => BoundaryOrder::UNORDERED,
            });
        let column_index = if self.column_index.valid() {
            Some(self.column_index.build()?)
        } else {
            None
        };
        let bytes = sink.into_inner()?;
        Ok((
            Bytes::from(bytes),
            ColumnCloseResult {
                bytes_written: compressed,
                rows_written: rows as u64,
                metadata,
                bloom_filter: None,
                column_index,
                offset_index: offset_index.map(OffsetIndexBuilder::build),
            },
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn byte_arrays_of_every_short_length_are_distinct_entries() {
        // Values of 0 to 9 bytes that differ only in their length or in
        // trailing zero bytes, a buffer that ends right after the last
        // value (its key read without an 8-byte load), each twice.
        let distinct: Vec<&[u8]> = vec![
            b"",
            b"\0",
            b"\0\0",
            b"a",
            b"a\0",
            b"ab",
            b"abcdefg",
            b"abcdefg\0",
            b"abcdefgh",
            b"abcdefghi",
            b"\xff\xff\xff\xff\xff\xff\xff",
            b"x",
        ];
        let values: Vec<&[u8]> = distinct
            .iter()
            .chain(distinct.iter().rev())
            .copied()
            .collect();
        let mut data = Vec::new();
        let mut ends = Vec::new();
        for v in &values {
            data.extend_from_slice(v);
            ends.push(data.len());
        }
        let source = BytesSource {
            data: &data,
            ends: &ends,
            utf8: false,
            truncate: None,
        };
        let mut dictionary = Dictionary::new();
        let entries: Vec<u32> = (0..values.len())
            .map(|i| dictionary.intern(&source, i))
            .collect();
        assert_eq!(dictionary.entries.len(), distinct.len());
        for (i, &e) in entries.iter().enumerate() {
            assert_eq!(
                source.get(dictionary.entries[e as usize]),
                values[i],
                "value {i}"
            );
        }
    }

    /// Decodes the hybrid encoding back (the spec's grammar), to check the
    /// encoder against it.
    fn decode(mut data: &[u8], width: u8, count: usize) -> Vec<u32> {
        let mut out = Vec::new();
        let value_bytes = usize::from(width).div_ceil(8);
        while out.len() < count {
            let (mut header, mut shift) = (0u64, 0);
            loop {
                let b = data[0];
                data = &data[1..];
                header |= u64::from(b & 0x7f) << shift;
                shift += 7;
                if b < 0x80 {
                    break;
                }
            }
            if header & 1 == 1 {
                let n = (header >> 1) as usize * 8;
                let bytes = n * usize::from(width) / 8;
                let (mut acc, mut bits, mut k) = (0u64, 0u32, 0);
                for i in 0..n {
                    while bits < u32::from(width) {
                        acc |= u64::from(data[k]) << bits;
                        k += 1;
                        bits += 8;
                    }
                    let v = (acc & ((1u64 << width) - 1)) as u32;
                    acc >>= width;
                    bits -= u32::from(width);
                    if out.len() < count && i < n {
                        out.push(v);
                    }
                }
                data = &data[bytes..];
            } else {
                let n = (header >> 1) as usize;
                let mut v = [0u8; 4];
                v[..value_bytes].copy_from_slice(&data[..value_bytes]);
                data = &data[value_bytes..];
                out.extend(std::iter::repeat_n(u32::from_le_bytes(v), n));
            }
        }
        out.truncate(count);
        out
    }

    #[test]
    fn rle_hybrid_round_trips() {
        let mut seed = 7u64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        for width in [1u8, 2, 3, 7, 8, 9, 17, 32] {
            for len in [1usize, 7, 8, 9, 63 * 8 + 5, 2000] {
                let max = if width == 32 {
                    u64::from(u32::MAX)
                } else {
                    (1 << width) - 1
                };
                // Runs and noise mixed.
                let values: Vec<u32> = (0..len)
                    .map(|i| {
                        if (i / 40) % 2 == 0 {
                            (max / 2) as u32
                        } else {
                            (next() % (max + 1)) as u32
                        }
                    })
                    .collect();
                let mut out = Vec::new();
                rle_hybrid(&values, width, &mut out);
                assert_eq!(decode(&out, width, len), values, "width {width}, len {len}");
            }
        }
        // A run of one value is one repeated run: 2 bytes for 1,000 levels.
        let mut out = Vec::new();
        rle_hybrid(&[1; 1000], 1, &mut out);
        assert_eq!(out, [0xd0, 0x0f, 1]);
    }

    #[test]
    fn rle_hybrid_splits_long_bit_packed_runs() {
        // No repeats at all: bit-packed runs of 63 groups (one header byte
        // each, `(63 << 1) | 1`), then the rest, the last group padded.
        let values: Vec<u32> = (0..63 * 8 * 2 + 13).map(|i| (i * 7919) % 131_072).collect();
        let mut out = Vec::new();
        rle_hybrid(&values, 17, &mut out);
        assert_eq!(out[0], 127);
        assert_eq!(out[1 + 63 * 17], 127);
        assert_eq!(out[2 + 2 * 63 * 17], (2 << 1) | 1);
        assert_eq!(out.len(), 3 + (2 * 63 + 2) * 17);
        assert_eq!(decode(&out, 17, values.len()), values);
    }

    #[test]
    fn scan_finds_bounds_and_counts_nans() {
        let values = [f64::NAN, 2.0, f64::NAN, -0.0, 7.5, 0.0, f64::NAN, 7.5];
        let source = FixedSource {
            values: &values,
            unsigned: false,
            float: true,
        };
        // A page starting with NaN, then one continuing the bounds.
        let mut bounds = None;
        assert_eq!(source.scan(0..3, &mut bounds), 2);
        assert_eq!(bounds, Some((1, 1)));
        assert_eq!(source.scan(3..8, &mut bounds), 1);
        assert_eq!(bounds, Some((3, 4)));
        // All NaN: no bounds.
        let mut none = None;
        assert_eq!(source.scan(0..1, &mut none), 1);
        assert_eq!(none, None);
        // Unsigned order: -1 is the largest.
        let ints = [3i32, -1, 0, 5];
        let unsigned = FixedSource {
            values: &ints,
            unsigned: true,
            float: false,
        };
        let mut bounds = None;
        assert_eq!(unsigned.scan(0..4, &mut bounds), 0);
        assert_eq!(bounds, Some((2, 1)));
        let signed = FixedSource {
            unsigned: false,
            ..unsigned
        };
        let mut bounds = None;
        signed.scan(0..4, &mut bounds);
        assert_eq!(bounds, Some((1, 3)));
        // The generic scan (byte arrays) agrees on its own order.
        let data = b"pearapplezoo";
        let ends = [4, 9, 12];
        let bytes = BytesSource {
            data,
            ends: &ends,
            utf8: true,
            truncate: None,
        };
        let mut bounds = None;
        assert_eq!(bytes.scan(0..3, &mut bounds), 0);
        assert_eq!(bounds, Some((1, 2)));
    }

    #[test]
    fn dictionary_interns_by_value() {
        let data = b"abcabcxy";
        let ends = [3, 6, 6, 8, 8];
        let source = BytesSource {
            data,
            ends: &ends,
            utf8: true,
            truncate: None,
        };
        let mut d = Dictionary::new();
        let ids: Vec<u32> = (0..5).map(|i| d.intern(&source, i)).collect();
        assert_eq!(ids, [0, 0, 1, 2, 1]);
        assert_eq!(d.entries, [0, 2, 3]);
        assert_eq!(d.plain_bytes, 7 + 4 + 6);
        // Many entries: the table grows and keeps finding them.
        let longs: Vec<i64> = (0..5000).map(|i| i % 3000 - 1500).collect();
        let source = FixedSource {
            values: &longs,
            unsigned: false,
            float: false,
        };
        let mut d = Dictionary::new();
        let ids: Vec<u32> = (0..5000).map(|i| d.intern(&source, i)).collect();
        assert_eq!(d.entries.len(), 3000);
        assert!(ids.iter().enumerate().all(|(i, &e)| e as usize == i % 3000));
    }

    #[test]
    fn truncated_bounds_bound() {
        assert_eq!(truncate_min(b"abcdef", Some(3), false).unwrap(), b"abc");
        assert_eq!(truncate_max(b"abcdef", Some(3), false).unwrap(), b"abd");
        assert_eq!(truncate_max(b"ab\xff\xff", Some(3), false).unwrap(), b"ac");
        assert_eq!(truncate_max(b"\xff\xff\xff\xff", Some(3), false), None);
        assert_eq!(truncate_min(b"abc", Some(3), false), None);
        // UTF-8: cut at a character, the max's last character incremented.
        let s = "aé€z".as_bytes(); // 1 + 2 + 3 + 1 bytes
        assert_eq!(truncate_min(s, Some(4), true).unwrap(), "aé".as_bytes());
        assert_eq!(truncate_max(s, Some(4), true).unwrap(), "aê".as_bytes());
        assert!(truncate_max(s, Some(4), true).unwrap().as_slice() > s);
    }
}
