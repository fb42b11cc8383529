//! Value and level encodings, each decoded by this crate's own code.
//!
//! Decoders here work on byte slices and know nothing about columns; they return
//! [`DecodeError`](crate::error::DecodeError) and the column reader adds the location.
//! Every decoder treats its input as untrusted: it returns an error on truncated or
//! malformed bytes and never allocates more than its caller asked to write.

pub(crate) mod bitpacked;
pub(crate) mod byte_stream_split;
pub(crate) mod delta_binary_packed;
pub(crate) mod delta_byte_array;
pub(crate) mod delta_length_byte_array;
pub(crate) mod plain;
pub(crate) mod rle_bp;
pub(crate) mod uleb128;
