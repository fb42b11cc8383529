//! DELTA_BINARY_PACKED: integers as bit-packed deltas from a running value.
//!
//! Spec: <https://github.com/apache/parquet-format/blob/master/Encodings.md#delta-encoding-delta_binary_packed--5>
//!
//! ```text
//! delta-binary-packed := <header> <block>*
//! header  := <block size in values> <miniblocks per block> <total value count> <first value>
//!            (ULEB128 each; the first value zigzag-encoded)
//! block   := <min delta> <bit width of each miniblock, 1 byte each> <miniblocks>
//!            (min delta zigzag ULEB128; each miniblock holds block_size / miniblocks
//!             values of its bit width, LSB first)
//! value[i] = value[i-1] + min_delta + packed[i]   (wrapping arithmetic)
//! ```
//!
//! In the last block, miniblocks that hold no value are absent (their bit
//! widths are present and may be anything).

mod decode;
#[cfg(test)]
pub(crate) mod encode;

pub(crate) use decode::DeltaBinaryPackedDecoder;
