//! PLAIN encoding: values back to back, little-endian.
//!
//! Spec: <https://github.com/apache/parquet-format/blob/master/Encodings.md#plain-plain--0>
//!
//! ```text
//! BOOLEAN              bit-packed, LSB first
//! INT32 / FLOAT        4 bytes little-endian
//! INT64 / DOUBLE       8 bytes little-endian
//! BYTE_ARRAY           4-byte little-endian length, then the bytes
//! FIXED_LEN_BYTE_ARRAY the bytes (length from the schema)
//! ```
//!
//! Dictionary pages are PLAIN too, so the same decoder fills dictionaries.

mod decode;

pub(crate) use decode::{Bools, ByteArrays, Fixed, FixedLen, PlainDecoder};
