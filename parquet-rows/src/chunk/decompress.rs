//! Decompression of one page into a buffer that stops at the header's
//! declared size: a page that inflates to more, or less, is an error, and
//! nothing is allocated beyond the declared size (itself checked against the
//! reader's limit by the caller).
//!
//! Codecs (<https://github.com/apache/parquet-format/blob/master/Compression.md>)
//! come from the crates the `parquet` crate uses, at the same versions; on
//! wasm32, where zstd's C library does not build, ZSTD pages are read by the
//! pure-Rust `ruzstd` decoder instead.

use std::io::Read;

use parquet::basic::Compression;

use crate::error::DecodeError;

/// LZ4 turns a byte of input into at most 255 bytes of output (one literal
/// length byte per 255 repeated bytes): a declared size past this bound is a
/// lie, refused before the output is zero-filled.
const LZ4_MAX_RATIO: usize = 255;

/// Decompressors with state worth keeping from one page to the next (a
/// ZSTD context, as `parquet` keeps one per column chunk).
#[derive(Default)]
pub(crate) struct Codecs {
    #[cfg(not(target_arch = "wasm32"))]
    zstd: Option<zstd::bulk::Decompressor<'static>>,
}

impl std::fmt::Debug for Codecs {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Codecs").finish_non_exhaustive()
    }
}

impl Codecs {
    /// Decompresses `input` into exactly `declared` bytes with `codec`.
    #[cfg(test)]
    pub(crate) fn decompress(
        &mut self,
        codec: Compression,
        input: &[u8],
        declared: usize,
    ) -> Result<Vec<u8>, DecodeError> {
        self.decompress_into(codec, input, declared, Vec::new())
    }

    /// Decompresses `input` into exactly `declared` bytes with `codec`,
    /// reusing `buf`'s allocation where the codec writes into a buffer
    /// (SNAPPY, ZSTD, LZ4_RAW): its bytes are overwritten, and only those
    /// past its length zeroed where the codec needs them initialised.
    pub(crate) fn decompress_into(
        &mut self,
        codec: Compression,
        input: &[u8],
        declared: usize,
        buf: Vec<u8>,
    ) -> Result<Vec<u8>, DecodeError> {
        match codec {
            #[cfg(not(target_arch = "wasm32"))]
            Compression::ZSTD(_) => {
                let zstd = match &mut self.zstd {
                    Some(zstd) => zstd,
                    none => none.insert(
                        zstd::bulk::Decompressor::new()
                            .map_err(|e| DecodeError::oos(format!("ZSTD: {e}")))?,
                    ),
                };
                // One call into a buffer of the declared capacity: zstd
                // stops with an error where the output would pass it (or
                // a reused buffer's larger capacity: then the length
                // check below says so).
                let mut buf = buf;
                buf.clear();
                buf.reserve(declared);
                zstd.decompress_to_buffer(input, &mut buf).map_err(|e| {
                    DecodeError::oos(format!("ZSTD: {e} (the page header says {declared} bytes)"))
                })?;
                exact(buf, declared)
            }
            Compression::SNAPPY => exact(snappy(input, declared, buf)?, declared),
            Compression::LZ4_RAW => exact(lz4_raw(input, declared, buf)?, declared),
            _ => decompress(codec, input, declared),
        }
    }
}

/// Decompresses `input` into exactly `declared` bytes with `codec`.
pub(crate) fn decompress(
    codec: Compression,
    input: &[u8],
    declared: usize,
) -> Result<Vec<u8>, DecodeError> {
    let out = match codec {
        Compression::UNCOMPRESSED => input.to_vec(),
        Compression::SNAPPY => snappy(input, declared, Vec::new())?,
        Compression::GZIP(_) => bounded_read(flate2::read::MultiGzDecoder::new(input), declared)?,
        Compression::BROTLI(_) => bounded_read(
            brotli_decompressor::Decompressor::new(input, 4096),
            declared,
        )?,
        Compression::ZSTD(_) => zstd_stream(input, declared)?,
        Compression::LZ4_RAW => lz4_raw(input, declared, Vec::new())?,
        Compression::LZ4 => lz4_hadoop(input, declared)
            .or_else(|_| bounded_read(lz4_flex::frame::FrameDecoder::new(input), declared))
            .or_else(|_| lz4_raw(input, declared, Vec::new()))?,
        other @ Compression::LZO => {
            return Err(DecodeError::Unsupported(format!(
                "pages compressed with {other}"
            )))
        }
    };
    exact(out, declared)
}

/// A ZSTD page through zstd's streaming decoder, bounded by `declared`.
#[cfg(not(target_arch = "wasm32"))]
fn zstd_stream(input: &[u8], declared: usize) -> Result<Vec<u8>, DecodeError> {
    let decoder = zstd::stream::read::Decoder::with_buffer(input)
        .map_err(|e| DecodeError::oos(format!("ZSTD: {e}")))?;
    bounded_read(decoder, declared)
}

/// A ZSTD page through `ruzstd` (pure Rust: wasm32 has no C compiler for
/// zstd's library), bounded by `declared`. One frame per page, as every
/// writer makes them.
#[cfg(target_arch = "wasm32")]
fn zstd_stream(input: &[u8], declared: usize) -> Result<Vec<u8>, DecodeError> {
    ruzstd_stream(input, declared)
}

/// The wasm32 ZSTD path, also compiled in native tests, which compare it
/// with zstd's.
#[cfg(any(target_arch = "wasm32", test))]
fn ruzstd_stream(mut input: &[u8], declared: usize) -> Result<Vec<u8>, DecodeError> {
    let decoder = ruzstd::decoding::StreamingDecoder::new(&mut input)
        .map_err(|e| DecodeError::oos(format!("ZSTD: {e}")))?;
    bounded_read(decoder, declared)
}

/// `out`, if it has exactly the `declared` bytes.
fn exact(out: Vec<u8>, declared: usize) -> Result<Vec<u8>, DecodeError> {
    if out.len() != declared {
        return Err(DecodeError::oos(format!(
            "the page decompresses to {} bytes but its header says {declared}",
            out.len()
        )));
    }
    Ok(out)
}

/// Reads `reader` to its end, or to one byte past `declared` (then an error).
fn bounded_read(reader: impl Read, declared: usize) -> Result<Vec<u8>, DecodeError> {
    let mut out = Vec::with_capacity(declared);
    reader
        .take(declared as u64 + 1)
        .read_to_end(&mut out)
        .map_err(|e| DecodeError::oos(format!("the page does not decompress: {e}")))?;
    if out.len() > declared {
        return Err(DecodeError::oos(format!(
            "the page decompresses to more than the {declared} bytes its header says"
        )));
    }
    Ok(out)
}

/// Snappy states its decompressed length up front: it must be the header's.
/// Decompressed into `out` (a buffer reused: only the bytes past its length
/// are zeroed; the decompression overwrites every byte or fails).
fn snappy(input: &[u8], declared: usize, mut out: Vec<u8>) -> Result<Vec<u8>, DecodeError> {
    let len =
        snap::raw::decompress_len(input).map_err(|e| DecodeError::oos(format!("SNAPPY: {e}")))?;
    if len != declared {
        return Err(DecodeError::oos(format!(
            "the page decompresses to {len} bytes but its header says {declared}"
        )));
    }
    out.resize(len, 0);
    snap::raw::Decoder::new()
        .decompress(input, &mut out)
        .map_err(|e| DecodeError::oos(format!("SNAPPY: {e}")))?;
    Ok(out)
}

/// Checks that `input` can inflate to `declared` bytes of LZ4 output.
fn lz4_plausible(input: usize, declared: usize) -> Result<(), DecodeError> {
    if declared > input.saturating_mul(LZ4_MAX_RATIO).saturating_add(16) {
        return Err(DecodeError::oos(format!(
            "{input} bytes of LZ4 cannot decompress to the {declared} bytes the page header says"
        )));
    }
    Ok(())
}

/// An LZ4 block, into `out` (reused as [`snappy`] reuses it).
fn lz4_raw(input: &[u8], declared: usize, mut out: Vec<u8>) -> Result<Vec<u8>, DecodeError> {
    lz4_plausible(input.len(), declared)?;
    out.resize(declared, 0);
    let n = lz4_flex::block::decompress_into(input, &mut out)
        .map_err(|e| DecodeError::oos(format!("LZ4_RAW: {e}")))?;
    out.truncate(n);
    Ok(out)
}

/// Hadoop's LZ4 framing: blocks of (decompressed size: u32 BE, compressed
/// size: u32 BE, LZ4 block), as parquet-mr and Arrow C++ wrote `LZ4`.
fn lz4_hadoop(mut input: &[u8], declared: usize) -> Result<Vec<u8>, DecodeError> {
    lz4_plausible(input.len(), declared)?;
    let mut out = vec![0; declared];
    let mut at = 0usize;
    while !input.is_empty() {
        let (Some(head), rest) = (input.first_chunk::<8>(), input.get(8..).unwrap_or(&[])) else {
            return Err(DecodeError::oos("LZ4: a block header is cut short"));
        };
        let size = u32::from_be_bytes([head[0], head[1], head[2], head[3]]) as usize;
        let compressed = u32::from_be_bytes([head[4], head[5], head[6], head[7]]) as usize;
        let (Some(block), Some(target)) = (
            rest.get(..compressed),
            out.get_mut(at..at.saturating_add(size)),
        ) else {
            return Err(DecodeError::oos("LZ4: a block runs past the page"));
        };
        let n = lz4_flex::block::decompress_into(block, target)
            .map_err(|e| DecodeError::oos(format!("LZ4: {e}")))?;
        if n != size {
            return Err(DecodeError::oos("LZ4: a block's size is not its header's"));
        }
        at += n;
        input = &rest[compressed..];
    }
    out.truncate(at);
    Ok(out)
}

#[cfg(test)]
mod tests {
    use std::io::Write;

    use parquet::basic::{BrotliLevel, GzipLevel, ZstdLevel};

    use super::*;

    fn gzip(data: &[u8]) -> Vec<u8> {
        let mut w = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
        w.write_all(data).unwrap();
        w.finish().unwrap()
    }

    /// 8 MiB of zeros, compressed by the `brotli` crate (quality 5, window
    /// 22). Written out rather than compressed here: the library depends on
    /// the decompressor alone, and a dev-dependency on the encoder would be
    /// compiled into every example build too.
    const BROTLI_ZEROS: [u8; 14] = [203, 255, 255, 63, 0, 36, 0, 226, 177, 64, 114, 239, 255, 6];

    /// The pure-Rust decoder of wasm32 reads what zstd writes, at every
    /// level, and refuses a page that inflates past the declared size, a
    /// short page and bytes that are not ZSTD.
    #[test]
    fn ruzstd_reads_zstd_pages_as_zstd_does() {
        let data: Vec<u8> = (0..100_000u32)
            .map(|i| ((i % 251) ^ (i / 7)) as u8)
            .collect();
        for level in [1, 3, 9, 19] {
            let bytes = zstd::bulk::compress(&data, level).unwrap();
            assert_eq!(
                ruzstd_stream(&bytes, data.len()).unwrap(),
                data,
                "level {level}"
            );
            assert_eq!(
                zstd_stream(&bytes, data.len()).unwrap(),
                data,
                "level {level}"
            );
            assert!(
                ruzstd_stream(&bytes, data.len() - 1).is_err(),
                "level {level}"
            );
            assert!(ruzstd_stream(&bytes[..bytes.len() / 2], data.len()).is_err());
        }
        assert!(ruzstd_stream(b"not a zstd frame", 10).is_err());
        assert_eq!(
            ruzstd_stream(&zstd::bulk::compress(&[], 3).unwrap(), 0).unwrap(),
            b""
        );
    }

    #[test]
    fn round_trips_at_the_declared_size() {
        let data: Vec<u8> = (0..10_000u32).map(|i| (i % 251) as u8).collect();
        let snappy = snap::raw::Encoder::new().compress_vec(&data).unwrap();
        let lz4 = lz4_flex::block::compress(&data);
        let zstd = zstd::bulk::compress(&data, 3).unwrap();
        let zeros = vec![0u8; 8 << 20];
        for (codec, bytes, data) in [
            (Compression::SNAPPY, snappy, &data),
            (Compression::GZIP(GzipLevel::default()), gzip(&data), &data),
            (
                Compression::BROTLI(BrotliLevel::default()),
                BROTLI_ZEROS.to_vec(),
                &zeros,
            ),
            (Compression::ZSTD(ZstdLevel::default()), zstd, &data),
            (Compression::LZ4_RAW, lz4.clone(), &data),
            (Compression::LZ4, lz4, &data),
        ] {
            assert_eq!(
                &decompress(codec, &bytes, data.len()).unwrap(),
                data,
                "{codec}"
            );
            let mut codecs = Codecs::default();
            let again = codecs.decompress(codec, &bytes, data.len()).unwrap();
            assert_eq!(&again, data, "{codec}");
            assert!(
                codecs.decompress(codec, &bytes, data.len() - 1).is_err(),
                "{codec}"
            );
            assert!(
                codecs.decompress(codec, &bytes, data.len() + 1).is_err(),
                "{codec}"
            );
            // One byte more or less than the data is: an error, not a
            // buffer of the declared size.
            assert!(
                decompress(codec, &bytes, data.len() - 1).is_err(),
                "{codec}"
            );
            assert!(
                decompress(codec, &bytes, data.len() + 1).is_err(),
                "{codec}"
            );
        }
    }

    #[test]
    fn bombs_stop_at_the_declared_size() {
        let zeros = vec![0u8; 8 << 20];
        for (codec, bytes) in [
            (Compression::GZIP(GzipLevel::default()), gzip(&zeros)),
            (
                Compression::BROTLI(BrotliLevel::default()),
                BROTLI_ZEROS.to_vec(),
            ),
        ] {
            assert!(bytes.len() < 64 << 10, "{codec}: {} bytes", bytes.len());
            let err = decompress(codec, &bytes, 1000).unwrap_err();
            assert_eq!(
                err,
                DecodeError::oos(
                    "the page decompresses to more than the 1000 bytes its header says"
                )
            );
        }
        // LZ4 cannot inflate 100 bytes to 1 GiB: refused before zero-filling.
        let err = decompress(Compression::LZ4_RAW, &[0; 100], 1 << 30).unwrap_err();
        assert!(matches!(err, DecodeError::OutOfSpec(m) if m.contains("cannot decompress")));
    }
}
