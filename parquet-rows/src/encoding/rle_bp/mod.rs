//! The RLE / bit-packing hybrid: definition levels, dictionary indices, RLE booleans.
//!
//! Spec: <https://github.com/apache/parquet-format/blob/master/Encodings.md#run-length-encoding--bit-packing-hybrid-rle--3>
//!
//! ```text
//! rle-bit-packed-hybrid: <length> <encoded-data>   (length: 4-byte LE, only in some places)
//! encoded-data := <run>*
//! run := <bit-packed-run> | <rle-run>
//! bit-packed-run := <bit-packed-header> <bit-packed-values>
//! bit-packed-header := varint-encode(<bit-pack-scaled-run-len> << 1 | 1)
//!     // we always bit-pack a multiple of 8 values at a time, so we only store the number of values / 8
//! bit-pack-scaled-run-len := (bit-packed-run-len) / 8
//! bit-packed-values := *see 1 below*     (LSB first, groups of 8 values in bit_width bytes)
//! rle-run := <rle-header> <repeated-value>
//! rle-header := varint-encode( (rle-run-len) << 1)
//! repeated-value := value that is repeated, using a fixed-width of round-up-to-next-byte(bit-width)
//! ```
//!
//! [`RleBpDecoder::get_batch`] is the main API: it fills a slice and says how many
//! values it wrote; [`RleBpDecoder::skip_up_to`] advances without writing.

mod decode;
#[cfg(test)]
pub(crate) mod encode;
mod pack;

pub(crate) use decode::{RleBpDecoder, Tally};
pub(crate) use pack::pack_group;
