//! Decode Apache Parquet files straight into your own structs.
//!
//! `#[derive(ParquetRow)]` on a struct generates a decoder for it. Fields are
//! matched to columns by name once per file (all mismatches reported in one
//! error), only the columns the struct reads are loaded, and pages are decoded
//! straight into `Vec<T>`: `&str` and `&[u8]` fields borrow the decompressed
//! pages, with no allocation per row. No arrow.
//!
//! ```
//! use parquet_rows::{ParquetFile, ParquetRow};
//!
//! #[derive(ParquetRow)]
//! struct Tick<'a> {
//!     ts: i64,         // INT64 (TIMESTAMP_MICROS)
//!     symbol: &'a str, // BYTE_ARRAY (UTF8): borrowed from the dictionary page
//!     bid: f64,
//!     ask: f64,
//! }
//!
//! #[derive(ParquetRow)]
//! #[parquet(rename_all = "snake_case")]
//! struct Quote {
//!     symbol: String,
//!     #[parquet(rename = "ask")]
//!     offer: f64,
//! }
//!
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! # let bytes = parquet_rows::doc_support::tick_file(3)?;
//! // `bytes` holds a Parquet file with columns ts, symbol, bid, ask.
//! let file = ParquetFile::from_bytes(bytes.clone())?;
//! let pages = file.load::<Tick>()?; // read + decompress the four columns
//! let ticks: Vec<Tick<'_>> = pages.rows()?; // rows borrow `pages`
//! assert_eq!(ticks[0].symbol, "EURUSD");
//!
//! // Owned rows in one call (also `from_path` and `from_file`).
//! let quotes: Vec<Quote> = parquet_rows::from_bytes(bytes)?;
//! assert_eq!(quotes.len(), 3);
//! # Ok(()) }
//! ```
//!
//! # Field types
//!
//! | Rust field | Parquet column |
//! |---|---|
//! | `bool` | BOOLEAN |
//! | `i8`, `i16`, `i32`, `u8`, `u16`, `u32` | INT32 whose INT(bits, signed) annotation fits the field; `i32` also reads un-annotated INT32, DATE and TIME(MILLIS) as raw values |
//! | `i64`, `u64` | INT64 (`i64`: un-annotated, INT(64, signed), TIMESTAMP, TIME(MICROS/NANOS) as raw values; `u64`: INT(64, unsigned)) |
//! | `f32`, `f64` | FLOAT, DOUBLE |
//! | `&'a str`, `String` | BYTE_ARRAY annotated STRING (UTF8), ENUM or JSON |
//! | `&'a [u8]`, `Vec<u8>` | BYTE_ARRAY, FIXED_LEN_BYTE_ARRAY |
//! | `Option<T>` | an OPTIONAL (or REQUIRED) column that `T` reads; nulls are `None` |
//!
//! A non-`Option` field bound to an OPTIONAL column is an error when binding,
//! never a silent default.
//!
//! # Attributes
//!
//! - `#[parquet(rename = "col")]` on a field: read column `col`.
//! - `#[parquet(rename_all = "...")]` on the struct: serde's spellings
//!   (`lowercase`, `UPPERCASE`, `PascalCase`, `camelCase`, `snake_case`,
//!   `SCREAMING_SNAKE_CASE`, `kebab-case`, `SCREAMING-KEBAB-CASE`).
//! - `#[parquet(skip)]` on a field: not read; set to `Default::default()`.
//! - `#[parquet(crate = "path")]` on the struct: where to find this crate when
//!   it is renamed or re-exported.
//!
//! # Errors
//!
//! Every failure is an [`Error`]: a [`SchemaError`] listing each field that
//! cannot read its column, or a decoding error naming the column, row group and
//! page. Corrupt input is an `Err`, never a panic.
#![deny(missing_docs)]

mod bind;
mod column;
mod encoding;
mod error;
mod field;
mod file;
mod pages;
pub mod physical;
mod row;
mod types;

#[doc(hidden)]
pub mod doc_support;

pub use bind::{Mismatch, MismatchKind, SchemaError};
pub use column::ColumnReader;
pub use error::{Error, Location, Result};
pub use field::{ColumnContext, ParquetField};
pub use file::{from_bytes, from_file, from_path, ParquetFile, RowGroups};
pub use pages::Pages;
pub use row::ParquetRow;
pub use types::{Date, Decimal, Int96, Time, Timestamp, Unit};

/// Derives [`ParquetRow`] for a struct with named fields; see the crate docs.
pub use parquet_rows_derive::ParquetRow;

/// The `parquet` crate this crate reads with, for schema types in the API.
pub use parquet;

/// What the derive-generated code uses. Not public API.
#[doc(hidden)]
pub mod __private {
    pub use crate::bind::FieldSpec;
    pub use crate::column::ColumnReader;
    pub use crate::error::Result;
    pub use crate::field::ParquetField;
    pub use crate::pages::RowGroup;
    pub use crate::physical::Physical;
    pub use crate::row::ParquetRow;
    pub use core::default::Default;
    pub use core::iter::Iterator;
    pub use core::option::Option;
    pub use core::result::Result::Ok;
    pub use std::vec::Vec;

    /// Rows decoded per batch: small enough that a batch of every field's
    /// values stays in L1/L2 cache, large enough to amortise per-batch work.
    pub const BATCH: usize = 1024;
}
