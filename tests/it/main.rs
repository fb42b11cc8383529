//! Integration tests of parquet-rows (one binary, see STYLE.md):
//!
//! - `roundtrip`: files written with the `parquet` crate under many writer
//!   settings, read back and compared value by value;
//! - `corpus`: the flat files of the parquet-testing corpus, compared with
//!   their `.expected.json`;
//! - `errors`: schema mismatches, bad values, corrupt and truncated files.
//!
//! Allocation counts are in `tests/alloc.rs`, a binary of its own.

mod corpus;
mod encodings;
mod errors;
mod roundtrip;
