//! The `parquet-rows` command line tool, as a library: each subcommand is a
//! module with one job, and `main.rs` only parses arguments and prints.
//!
//! - [`structgen`]: `parquet-rows struct FILE [--owned] [--name Tick]` prints a
//!   `#[derive(ParquetRow)]` struct that reads the file, ready to paste.
//! - [`inspect`]: `parquet-rows inspect FILE` prints the schema, the row groups
//!   and every column chunk's encodings, codec, sizes and statistics.
//! - [`check`]: `parquet-rows check FILES...` decodes every page of every file
//!   and prints one verdict per file.

use std::fmt;

pub mod check;
pub mod inspect;
pub mod structgen;

/// A failure of a subcommand, as the tool prints it: one sentence that names
/// the file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Error(String);

impl Error {
    /// An error with this message.
    pub fn new(message: impl Into<String>) -> Self {
        Error(message.into())
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Error {}
