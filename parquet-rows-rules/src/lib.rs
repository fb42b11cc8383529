//! Which Rust field types can read which Parquet columns: the one copy of the
//! rules that `parquet-rows` checks when it opens a file and that
//! `#[derive(ParquetRow)]` checks at compile time against a declared schema.
//!
//! This crate is an implementation detail of `parquet-rows`, released in
//! lockstep with it and its derive. It has no dependencies, so that the derive
//! stays cheap to compile.
//!
//! - [`Column`] models one column (physical type, logical and converted
//!   annotations, repetition), [`Schema`] a message type.
//! - [`FieldKind`] is one supported Rust field type; [`check`] says whether it
//!   reads a column, [`suggest`] which type would.
//! - [`Schema::bind`] is the whole verdict for one field: missing column (with
//!   the closest name), nested column, wrong type.
//! - [`check_shape`] checks a nested field type ([`TypeShape`]: `Option`,
//!   `Vec`, maps, pairs around leaves) against a node, as the runtime binds it.
//! - [`recognize`] maps a field type's tokens to a kind, for the derive.
//! - [`parse`] reads message-type text (`message m { REQUIRED INT64 ts; }`),
//!   [`read_schema`] the footer of a Parquet file, [`check_schema`] checks a
//!   footer's schema list, [`page_header`] reads a page header.
//! - [`message`] holds the text of mismatch messages.
//!
//! ```
//! use parquet_rows_rules::{parse, recognize, Problem};
//!
//! let schema = parse("message m { REQUIRED DOUBLE bid; }").unwrap();
//! let field = recognize("f32", "parquet_rows");
//! let Err(Problem::WrongType { expected, found, suggestion }) = schema.bind("bid", field) else {
//!     panic!()
//! };
//! assert_eq!((expected, found.as_str(), suggestion), ("FLOAT", "REQUIRED DOUBLE", Some(&["f64"][..])));
//! ```
#![deny(missing_docs)]

mod column;
mod counts;
mod footer;
mod kind;
pub mod message;
pub mod page_header;
mod parse;
mod schema;
mod shape;
mod syntax;
mod write;

pub use column::{Column, Converted, Logical, Physical, Repetition, TimeUnit};
pub use counts::sound_statistics;
pub use footer::{
    check_schema, drop_refused_annotations, read_schema, schema_from_metadata, DroppedAnnotation,
    FooterError, Sanitized, MAX_SCHEMA_DEPTH,
};
pub use kind::{check, expected, suggest, FieldKind};
pub use parse::{parse, ParseError};
pub use schema::{closest_name, edit_distance, Field, Node, Problem, Schema};
pub use shape::{check_shape, list_hint, ShapeProblem, ShapeProblemKind, TypeShape, MAP_HINT};
pub use syntax::recognize;
pub use write::{decimal_bytes, WriteParams, MAX_DECIMAL_PRECISION};
