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
//! | `i64` | INT64 (un-annotated, INT(64, signed), TIMESTAMP, TIME(MICROS/NANOS) as raw values), and INT32 widened (any signed or unsigned integer, DATE, TIME(MILLIS)) |
//! | `u64` | INT64 annotated INT(64, unsigned), and INT32 annotated INT(_, unsigned), widened |
//! | `f32` | FLOAT |
//! | `f64` | DOUBLE, and FLOAT widened |
//! | `&'a str`, `String`, `Box<str>`, `Arc<str>` | BYTE_ARRAY annotated STRING (UTF8), ENUM or JSON; `Arc<str>` is allocated once per dictionary entry and shared by the rows that hold it |
//! | `&'a [u8]`, `Vec<u8>`, `bytes::Bytes` | BYTE_ARRAY, FIXED_LEN_BYTE_ARRAY; `Bytes` slices the page buffer (no copy) |
//! | `[u8; N]` | FIXED_LEN_BYTE_ARRAY(N), e.g. UUID for N = 16 |
//! | [`Decimal`], `i128` (unscaled) | DECIMAL on INT32, INT64, FIXED_LEN_BYTE_ARRAY or BYTE_ARRAY (up to 128 bits) |
//! | [`Timestamp`] (value, unit, UTC flag) | TIMESTAMP(MILLIS/MICROS/NANOS) on INT64; legacy INT96 (as nanoseconds) |
//! | [`Int96`] | INT96, raw (for dates outside the nanosecond range) |
//! | [`Date`] | DATE |
//! | [`Time`] (value, unit) | TIME(MILLIS) on INT32, TIME(MICROS/NANOS) on INT64 |
//! | `chrono::DateTime<Utc>`, `chrono::NaiveDateTime` (feature `chrono`) | TIMESTAMP (UTC-adjusted only for `DateTime<Utc>`), INT96 |
//! | `chrono::NaiveDate`, `chrono::NaiveTime` (feature `chrono`) | DATE, TIME |
//! | `rust_decimal::Decimal` (feature `rust_decimal`) | DECIMAL with scale <= 28 |
//! | `half::f16` (feature `half`) | FIXED_LEN_BYTE_ARRAY(2) annotated FLOAT16 |
//! | `uuid::Uuid` (feature `uuid`) | FIXED_LEN_BYTE_ARRAY(16) |
//! | `compact_str::CompactString` (feature `compact_str`) | as `String`; up to 24 bytes inline: converted once per dictionary entry and copied into each row, no allocation per row for short strings |
//! | `Option<T>` | an OPTIONAL (or REQUIRED) column or group that `T` reads; nulls are `None` |
//! | a struct that derives [`ParquetRow`] | a group, its fields by name (at any depth) |
//! | `Vec<T>` | a LIST (3-level, or the legacy 2-level forms), or a REPEATED field; `T` reads the elements |
//! | `HashMap<K, V>`, `BTreeMap<K, V>`, `Vec<(K, V)>` | a MAP (or legacy MAP_KEY_VALUE); `Vec<(K, V)>` keeps the file's order and duplicate keys |
//! | [`variant::Variant`], [`variant::OwnedVariant`] | a VARIANT group (`metadata`, `value`), shredded ones (`typed_value`) too; `Variant<'a>` borrows the pages (a shredded value is rebuilt once into a store the pages own); see [`variant`] |
//!
//! Widening that cannot lose information is allowed (INT32 into `i64`, FLOAT
//! into `f64`, INT(8) into `i16`, INT(16, unsigned) into `i32`); narrowing never
//! is. Unsigned annotations read into unsigned types bit for bit (`u64::MAX`
//! round-trips).
//!
//! # Nullable columns
//!
//! pyarrow, pandas, duckdb, polars and Spark mark every column OPTIONAL, nulls
//! or not. A plain field (`ts: i64`, `symbol: &'a str`) reads such a column:
//! a null met while decoding is an [`Error::Value`] that names the column, the
//! row group and the row, and says which `Option` type to use; it is never
//! filled with a default. An `Option<T>` field reads the nulls as `None`.
//! Either way, definition levels are read a run at a time: a page (or a
//! stretch of one) without nulls is decoded as fast as a REQUIRED column.
//! Inside nested fields (struct members, list elements, map values) an
//! OPTIONAL node still needs an `Option` field.
//!
//! ```
//! use parquet_rows::{Error, ParquetRow};
//!
//! #[derive(ParquetRow, Debug)]
//! struct Size {
//!     size: i32, // the column is OPTIONAL INT32; row 1 is null
//! }
//!
//! #[derive(ParquetRow, Debug)]
//! struct MaybeSize {
//!     size: Option<i32>,
//! }
//!
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! # let bytes = parquet_rows::doc_support::optional_sizes(&[Some(5), None, Some(7)])?;
//! let err = parquet_rows::from_bytes::<Size>(bytes.clone()).unwrap_err();
//! assert!(matches!(err, Error::Value { .. }));
//! assert!(err.to_string().contains("null at row 1 of the row group"));
//! assert!(err.to_string().contains("use `Option<i32>`"));
//!
//! let sizes: Vec<MaybeSize> = parquet_rows::from_bytes(bytes)?;
//! assert_eq!(sizes.iter().map(|s| s.size).collect::<Vec<_>>(), [Some(5), None, Some(7)]);
//! # Ok(()) }
//! ```
//!
//! # Nested data
//!
//! Structs that derive [`ParquetRow`] nest: a field of such a type reads a
//! group (`Option<_>` of it an OPTIONAL group), `Vec<T>` reads a list and the
//! map types read a MAP, to any depth, with `rename` at every level.
//!
//! ```
//! use std::collections::BTreeMap;
//! use parquet_rows::{ParquetFile, ParquetRow};
//!
//! #[derive(ParquetRow, Debug, PartialEq)]
//! struct Order<'a> {
//!     id: i64,
//!     customer: Customer<'a>,            // REQUIRED group
//!     tags: Vec<&'a str>,                // LIST of strings, borrowed
//!     fills: Option<Vec<Fill>>,          // OPTIONAL LIST of groups
//!     attributes: BTreeMap<String, i64>, // MAP
//!     scores: Vec<Option<f64>>,          // LIST with nullable elements
//! }
//!
//! #[derive(ParquetRow, Debug, PartialEq)]
//! struct Customer<'a> {
//!     name: &'a str,
//!     region: Option<&'a str>,
//! }
//!
//! #[derive(ParquetRow, Debug, PartialEq)]
//! struct Fill {
//!     price: f64,
//!     qty: i32,
//! }
//!
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! # let bytes = parquet_rows::doc_support::order_file()?;
//! let file = ParquetFile::from_bytes(bytes)?;
//! let pages = file.load::<Order>()?;
//! let orders: Vec<Order<'_>> = pages.rows()?;
//! assert_eq!(orders[0].customer, Customer { name: "ada", region: Some("eu") });
//! assert_eq!(orders[0].tags, ["new", "vip"]);
//! assert_eq!(orders[0].fills.as_deref().map(<[Fill]>::len), Some(2));
//! assert_eq!(orders[0].attributes["channel"], 3);
//! assert_eq!(orders[0].scores, [Some(0.5), None]);
//! // An empty list and a null list are told apart.
//! assert_eq!((orders[1].tags.len(), &orders[1].fills), (0, &None));
//! # Ok(()) }
//! ```
//!
//! Top-level fields of leaf types keep the batch path of flat structs; each
//! nested field is assembled record by record from its columns' repetition
//! and definition levels, read 1,024 at a time. Every `Vec` value (and map) is
//! one allocation, which no decoder of `Vec<T>` fields can avoid; `&str`
//! elements still borrow the pages. A key that appears twice in one map keeps
//! its last value in `HashMap` and `BTreeMap` (read `Vec<(K, V)>` to see both).
//! Lists follow the backward-compatibility rules of the Parquet format: in a
//! LIST group, a REPEATED primitive, a REPEATED group of several fields, or one
//! named `array` or `<list>_tuple` is the element itself (2-level lists), and a
//! REPEATED field outside a LIST group is a list of itself. A mismatch inside a
//! nested field names the full column path, e.g. field `fills[].price: f32`
//! cannot read column `fills.list.element.price`.
//!
//! # Filters
//!
//! The derive also generates a typed filter, `Tick::filter()`, with one
//! method per field of a scalar type; each comparison takes a value of the
//! field's type, so a predicate of the wrong type does not compile. Row
//! groups and pages that statistics, dictionaries, bloom filters or the page
//! index prove cannot match are not read (see [`filter`]).
//!
//! ```
//! # use parquet_rows::{ParquetFile, ParquetRow};
//! # #[derive(ParquetRow)] struct Tick<'a> { ts: i64, symbol: &'a str, bid: f64, ask: f64 }
//! # fn main() -> parquet_rows::Result<()> {
//! # let file = ParquetFile::from_bytes(parquet_rows::doc_support::tick_file(100)?)?;
//! # let (t0, t1) = (0, i64::MAX);
//! let pages = file.rows::<Tick>().filter(Tick::filter().ts().in_range(t0..t1).symbol().eq("EURUSD")).load()?;
//! let ticks: Vec<Tick<'_>> = pages.rows()?;
//! # assert_eq!(ticks.len(), 100);
//! # Ok(()) }
//! ```
//!
//! # Encodings
//!
//! PLAIN, PLAIN_DICTIONARY / RLE_DICTIONARY (including a chunk that falls back
//! to PLAIN part-way), DELTA_BINARY_PACKED, DELTA_LENGTH_BYTE_ARRAY,
//! DELTA_BYTE_ARRAY, BYTE_STREAM_SPLIT, RLE booleans, RLE and legacy BIT_PACKED
//! repetition and definition levels; data pages v1 and v2; every codec of the `parquet` crate.
//! Values rebuilt by DELTA_BYTE_ARRAY (and BYTE_STREAM_SPLIT fixed-length
//! arrays) live in an arena owned by [`Pages`], so `&str` fields borrow them too.
//! `String`, `Box<str>` and `Vec<u8>` fields of a REQUIRED DELTA_BYTE_ARRAY
//! column copy each value as it is rebuilt instead, so no arena is built for
//! them.
//!
//! # Features
//!
//! `chrono`, `rust_decimal`, `half`, `uuid`, `compact_str`: the field types of those crates in
//! the table above. Each crate is re-exported under its name
//! (`parquet_rows::half::f16`), so enabling the feature is enough. `rayon`: `file.rows::<T>().threads(n)`
//! and `Pages::par_rows` read, decompress and decode
//! in parallel: row groups, pages, and ranges of a large row group's rows. `object_store`: `remote::RemoteFile` reads a file on any
//! `object_store::ObjectStore` (one request for the footer, the bound column
//! chunks in coalesced ranges, a bounded number of requests at once) and
//! `dataset::Dataset` reads many (hive partitions, globs, splits for a
//! cluster); async, with blocking twins. `serde`: `dataset::Split` is
//! serialisable. `write-brotli`: the writer compresses with BROTLI.
//!
//! # Writing
//!
//! The same struct writes files: [`Writer`] (to a path or any
//! `std::io::Write`, streaming, row groups cut by rows or estimated bytes),
//! [`to_path`] and [`to_writer`]; the schema comes from the struct by the
//! rules the reader binds with, so what is written reads back. Flat structs
//! of the scalar, string and byte types, `Date`, and `Option`s of them are
//! writable so far; see the [`writer`] module.
//!
//! # Sources
//!
//! A path ([`ParquetFile::open`]), a `std::fs::File`, `Bytes`, any
//! `Read + Seek` ([`ParquetFile::from_reader`]), the `parquet` crate's
//! `ChunkReader` ([`ParquetFile::from_chunk_reader`]), any reader by position
//! of your own ([`ParquetFile::from_source`] with a [`source::ReadAt`]), or
//! an object store (feature `object_store`). Every one reads only the footer
//! and the column chunks the struct binds, and every footer passes the same
//! checks. Files are read by position (`pread`), so threads sharing one
//! [`ParquetFile`] read through one handle, with no lock; a remote file
//! checks on every request that the object is still the one it opened.
//!
//! # Attributes
//!
//! - `#[parquet(rename = "col")]` on a field: read column `col`.
//! - `#[parquet(rename_all = "...")]` on the struct: serde's spellings
//!   (`lowercase`, `UPPERCASE`, `PascalCase`, `camelCase`, `snake_case`,
//!   `SCREAMING_SNAKE_CASE`, `kebab-case`, `SCREAMING-KEBAB-CASE`).
//! - `#[parquet(skip)]` on a field: not read; set to `Default::default()`.
//! - `#[parquet(partition)]` on a field: not read from a column; filled from
//!   the file's hive-style path directory `name=value` (`name` after `rename`
//!   / `rename_all`), parsed into the field's type ([`PartitionField`]:
//!   `String`, integers, `bool`, ..., and their `Option`s). A
//!   `dataset::Dataset` (feature `object_store`) gives each file its path's
//!   values and prunes whole files by the typed filter's predicates on these
//!   fields; a file read on its own gets them from
//!   [`ParquetFile::with_partitions`]. See [`Partitions`].
//! - `#[parquet(from = "T")]` / `#[parquet(try_from = "T")]` on a field: the
//!   column is read as `T`, then converted into the field's own type with
//!   `From<T>` / `TryFrom<T>`; see [Your own field types](#your-own-field-types).
//! - `#[parquet(crate = "path")]` on the struct: where to find this crate when
//!   it is renamed or re-exported.
//! - `#[parquet(schema = "message m { ... }")]` on the struct: declares the
//!   schema (Parquet's message-type text), and the compiler checks every field
//!   against it, with the same rules as [`ParquetFile::load`] and friends:
//!   a wrong type or a missing column (with the closest name) is a compile
//!   error at the field, all of them in one compile. Types the derive cannot tell from their tokens (aliases,
//!   bare imported names such as `Timestamp`; write `parquet_rows::Timestamp`)
//!   are left to the check when a file is opened.
//! - `#[parquet(schema_file = "tests/data/sample.parquet")]` on the struct: the
//!   same, with the schema read from the footer of a sample file (relative to
//!   the crate's `Cargo.toml`; the crate is rebuilt when the file changes, so
//!   point it at a small sample).
//!
//! # Your own field types
//!
//! A field of a type of yours (a newtype, an enum kept as text) names the
//! supported type its column is read as, and the conversion from it:
//!
//! ```
//! use parquet_rows::ParquetRow;
//!
//! struct Price(f64);
//! impl From<f64> for Price {
//!     fn from(value: f64) -> Self {
//!         Price(value)
//!     }
//! }
//!
//! #[derive(Debug, PartialEq)]
//! enum Pair { EurUsd, GbpUsd }
//! impl TryFrom<&str> for Pair {
//!     type Error = String;
//!     fn try_from(value: &str) -> Result<Self, String> {
//!         match value {
//!             "EURUSD" => Ok(Pair::EurUsd),
//!             "GBPUSD" => Ok(Pair::GbpUsd),
//!             other => Err(format!("unknown pair `{other}`")),
//!         }
//!     }
//! }
//!
//! #[derive(ParquetRow)]
//! struct Tick {
//!     #[parquet(try_from = "&str")] // `&str` borrows the page for the conversion only
//!     symbol: Pair,
//!     #[parquet(from = "f64")]
//!     bid: Price,
//!     #[parquet(from = "f64")] // an `Option` field converts its present values
//!     ask: Option<Price>,
//! }
//!
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! # let bytes = parquet_rows::doc_support::tick_file(3)?;
//! let ticks: Vec<Tick> = parquet_rows::from_bytes(bytes)?;
//! assert_eq!(ticks[0].symbol, Pair::EurUsd);
//! assert!(ticks[0].bid.0 > 1.0 && ticks[0].ask.is_some());
//! # Ok(()) }
//! ```
//!
//! - The binding, the compile-time schema check and the messages see the
//!   source type: `from = "f64"` on `Option<Price>` reads an `Option<f64>`.
//!   A source that is itself an `Option` (`from = "Option<f64>"`) hands nulls
//!   to the conversion.
//! - A value `TryFrom` refuses is an [`Error::Value`] naming the column, the
//!   row group and the row within it, with the conversion error's `Display`.
//! - A source borrows without a lifetime (`&str`, `&[u8]`), in owned and
//!   borrowed structs alike.
//! - Why attributes and not a trait to implement: the source is one of the
//!   supported types, so the rules of binding, of the schema check and of
//!   null handling stay those of that type, and the conversion is the
//!   standard `From` / `TryFrom` a type often has already.
//! - Not yet: a struct with a converted field cannot be a field of another
//!   struct (only a row), and the typed filter (`Tick::filter()`) has no
//!   method for a converted field.
//!
//! A struct that declares its schema is still checked against every file it
//! reads, and a [`SchemaError`] then says that the file differs from the
//! declared schema:
//!
//! ```compile_fail
//! # use parquet_rows::ParquetRow;
//! #[derive(ParquetRow)]
//! #[parquet(schema = "message schema {
//!     REQUIRED INT64 ts (TIMESTAMP_MICROS);
//!     REQUIRED BINARY symbol (UTF8);
//!     REQUIRED DOUBLE bid;
//! }")]
//! struct Tick<'a> {
//!     ts: i64,
//!     symbol: &'a str,
//!     bid: f32, // error: field `bid: f32` cannot read column `bid` (REQUIRED DOUBLE): `f32` reads FLOAT; use `f64`
//! }
//! ```
//!
//! # Errors
//!
//! Every failure is an [`Error`]: a [`SchemaError`] listing each field that
//! cannot read its column, or a decoding error naming the column, row group and
//! page. Corrupt input is an `Err`, never a panic.
#![deny(missing_docs)]

mod bind;
pub mod builder;
mod chunk;
mod column;
mod convert;
#[cfg(feature = "object_store")]
pub mod dataset;
mod encoding;
mod error;
mod field;
mod file;
pub mod filter;
mod footer;
mod group;
mod huge_pages;
#[cfg(test)]
mod layering;
mod load;
mod nested;
mod options;
mod out;
mod pages;
#[cfg(feature = "rayon")]
#[allow(unsafe_code)] // regions of the output `Vec` and one `set_len`, see `parallel`
mod parallel;
mod partition;
mod physical;
mod quirks;
#[cfg(feature = "object_store")]
pub mod remote;
mod row;
mod runtime;
mod schema_error;
mod schema_rules;
mod shape;
mod sink;
pub mod source;
mod types;
pub mod variant;
mod wide;
pub mod writer;

#[cfg(feature = "doc-support")]
#[doc(hidden)]
pub mod doc_support;

/// The README's Rust snippets, compiled (and run, unless marked `no_run`) as
/// doctests exactly as they are written there.
#[doc = include_str!("../../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;

pub use builder::RowsBuilder;
pub use error::{Error, Location, Result};
pub use field::{ColumnContext, ParquetField};
pub use file::{from_bytes, from_file, from_path, ParquetFile};
pub use filter::{
    Column, Cond, FilterField, FilterOf, FilterValue, IntoFilterValue, Query, RowFilter,
};
pub use nested::ParquetNode;
pub use options::ReadOptions;
pub use pages::Pages;
pub use partition::{PartitionField, Partitions};
pub use row::{OwnedRow, ParquetRow};
pub use schema_error::{Mismatch, MismatchKind, SchemaError};
pub use types::{Date, Decimal, Int96, Time, Timestamp, Unit};
pub use writer::{to_path, to_writer, ParquetWrite, WriteField, WriteOptions, Writer};

/// Derives [`ParquetRow`] for a struct with named fields; see the crate docs.
pub use parquet_rows_derive::ParquetRow;

/// The `parquet` crate this crate reads with, for schema types in the API.
pub use parquet;

/// The `chrono` crate whose types fields may have (feature `chrono`), so a
/// struct can use `parquet_rows::chrono::NaiveDateTime` without a dependency
/// of its own.
#[cfg(feature = "chrono")]
pub use chrono;
/// The `compact_str` crate whose `CompactString` fields may have (feature
/// `compact_str`): owned strings without an allocation per row.
#[cfg(feature = "compact_str")]
pub use compact_str;
/// The `half` crate whose `f16` fields may have (feature `half`).
#[cfg(feature = "half")]
pub use half;
/// The `rust_decimal` crate whose `Decimal` fields may have (feature
/// `rust_decimal`).
#[cfg(feature = "rust_decimal")]
pub use rust_decimal;
/// The `uuid` crate whose `Uuid` fields may have (feature `uuid`).
#[cfg(feature = "uuid")]
pub use uuid;

/// What the derive-generated code uses that is not public API: the row
/// loop's runtime ([`runtime::decode`]) and the pieces a struct's column
/// readers are made of. Everything public is reached by its public path and
/// `core`/`std` items by theirs. The version in the name changes when the
/// generated code and this module stop matching, so that a derive of another
/// version fails to compile instead of misbehaving.
#[doc(hidden)]
pub mod __private_v1 {
    pub use crate::bind::Fields;
    pub use crate::convert::Converter;
    pub use crate::filter::{discard, NoFilter, Predicate, Predicates};
    pub use crate::group::RowGroup;
    pub use crate::nested::{Assembled, BatchReader, Bound, FieldSpec, ListElement, Shape};
    pub use crate::pages::select::{probe, ProbeNode};
    pub use crate::partition::PartitionNode;
    pub use crate::row::Probe;
    pub use crate::runtime::{decode, Step};
    pub use crate::sink::RowSink;
    pub use crate::wide::{column, decode_columns, probes, Column, FieldOf, Open, OpenProbe};
    pub use crate::writer::{
        push_column, ColumnBuffer, ColumnBuffers, ColumnEncoding, Leaves, Levels, Push,
        PushInOrder, PushOnThreads, Rows, WriteShape, WriteSpec,
    };
    pub use parquet_rows_rules::{TimeUnit, WriteParams};
}
