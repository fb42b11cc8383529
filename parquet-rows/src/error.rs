//! The crate's one error type, [`Error`], and the context it carries.

use std::fmt;
use std::path::{Path, PathBuf};

use crate::schema_error::SchemaError;

/// Everything that can go wrong while opening, binding or decoding a file.
///
/// Variants are grouped by cause, so callers can tell "my struct is wrong"
/// ([`Error::Schema`]) from "the file is broken" ([`Error::OutOfSpec`]) from "this
/// crate cannot do that yet" ([`Error::Unsupported`]).
///
/// ```
/// # use parquet_rows::Error;
/// fn explain(e: &Error) -> &'static str {
///     match e {
///         Error::Schema(_) => "fix the struct",
///         Error::OutOfSpec { .. } | Error::Parquet(_) => "the file is corrupt",
///         Error::Value { .. } => "a value does not fit the field",
///         _ => "something else",
///     }
/// }
/// ```
///
/// `Debug` prints the same message as `Display`, so `fn main() ->
/// parquet_rows::Result<()>` shows the sentence, not a struct dump; `{:#?}`
/// shows the variant and its fields.
#[non_exhaustive]
pub enum Error {
    /// Reading the file failed.
    Io(std::io::Error),
    /// The `parquet` crate rejected the footer (page headers and pages are
    /// this crate's own: their errors are [`Error::OutOfSpec`] with a location).
    Parquet(parquet::errors::ParquetError),
    /// The struct and the file's schema disagree; lists every mismatch at once.
    Schema(SchemaError),
    /// Page bytes break the Parquet format (truncated page, index out of range, ...).
    OutOfSpec {
        /// Where in the file.
        location: Location,
        /// What is wrong.
        message: String,
    },
    /// Valid Parquet that this version of the crate cannot decode.
    Unsupported {
        /// Where in the file.
        location: Location,
        /// What is not supported.
        message: String,
    },
    /// The file may be valid, but reading it would go past a memory limit of
    /// the crate (a page of more values, or a row group of more rows, than can
    /// be held); the message names the limit.
    Limit {
        /// Where in the file.
        location: Location,
        /// Which limit, and what the file asked for.
        message: String,
    },
    /// A value that cannot be represented by the field: invalid UTF-8 for a `&str`,
    /// an out-of-range integer for a narrow field.
    Value {
        /// Where in the file.
        location: Location,
        /// What the value was and why it does not fit.
        message: String,
    },
    /// Writing a file failed: the `parquet` crate's column writers or the
    /// sink (an I/O error is the source's source). The file is incomplete.
    Write {
        /// The column and row group being written (empty for the file's
        /// start and footer).
        location: Location,
        /// What failed.
        source: parquet::errors::ParquetError,
    },
}

/// Where a decoding error happened: column path, row group and page (when known).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Location {
    /// Dotted column path, e.g. `symbol`.
    pub column: String,
    /// Row group index, from 0.
    pub row_group: Option<usize>,
    /// Page index inside the column chunk, from 0 (dictionary page included).
    pub page: Option<usize>,
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut parts = Vec::new();
        if !self.column.is_empty() {
            parts.push(format!("column `{}`", self.column));
        }
        if let Some(rg) = self.row_group {
            parts.push(format!("row group {rg}"));
        }
        if let Some(page) = self.page {
            parts.push(format!("page {page}"));
        }
        if parts.is_empty() {
            parts.push("file".to_owned());
        }
        f.write_str(&parts.join(", "))
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Io(e) => write!(f, "i/o error: {e}"),
            // `ParquetError`'s own text already starts with "Parquet error".
            Error::Parquet(e) => e.fmt(f),
            Error::Schema(e) => e.fmt(f),
            Error::OutOfSpec { location, message } => {
                write!(f, "corrupt file ({location}): {message}")
            }
            Error::Unsupported { location, message } => {
                write!(f, "unsupported ({location}): {message}")
            }
            Error::Value { location, message } => write!(f, "bad value ({location}): {message}"),
            Error::Limit { location, message } => {
                write!(f, "over a limit ({location}): {message}")
            }
            Error::Write { location, source } => {
                write!(f, "writing failed ({location}): {source}")
            }
        }
    }
}

impl fmt::Debug for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if !f.alternate() {
            // What `main` prints when it returns this error.
            return fmt::Display::fmt(self, f);
        }
        match self {
            Error::Io(e) => f.debug_tuple("Io").field(e).finish(),
            Error::Parquet(e) => f.debug_tuple("Parquet").field(e).finish(),
            Error::Schema(e) => f.debug_tuple("Schema").field(e).finish(),
            Error::OutOfSpec { location, message } => f
                .debug_struct("OutOfSpec")
                .field("location", location)
                .field("message", message)
                .finish(),
            Error::Unsupported { location, message } => f
                .debug_struct("Unsupported")
                .field("location", location)
                .field("message", message)
                .finish(),
            Error::Limit { location, message } => f
                .debug_struct("Limit")
                .field("location", location)
                .field("message", message)
                .finish(),
            Error::Value { location, message } => f
                .debug_struct("Value")
                .field("location", location)
                .field("message", message)
                .finish(),
            Error::Write { location, source } => f
                .debug_struct("Write")
                .field("location", location)
                .field("source", source)
                .finish(),
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Error::Io(e) => Some(e),
            Error::Parquet(e) => Some(e),
            Error::Schema(e) => Some(e),
            Error::Write { source, .. } => Some(source),
            _ => None,
        }
    }
}

impl From<std::io::Error> for Error {
    fn from(e: std::io::Error) -> Self {
        Error::Io(e)
    }
}

impl From<parquet::errors::ParquetError> for Error {
    fn from(e: parquet::errors::ParquetError) -> Self {
        Error::Parquet(e)
    }
}

impl From<SchemaError> for Error {
    fn from(e: SchemaError) -> Self {
        Error::Schema(e)
    }
}

impl Error {
    /// An I/O error on the file at `path`, e.g. ``cannot open `nope.parquet`:
    /// No such file or directory``. It stays an [`Error::Io`] of the same
    /// [`std::io::ErrorKind`], with the original error as its source.
    pub(crate) fn io_at(action: &'static str, path: &Path, source: std::io::Error) -> Error {
        Error::Io(std::io::Error::new(
            source.kind(),
            PathError {
                action,
                path: path.to_owned(),
                source,
            },
        ))
    }
}

/// What [`Error::io_at`] wraps: the path and what was being done to it.
#[derive(Debug)]
struct PathError {
    action: &'static str, // "open", "read"
    path: PathBuf,
    source: std::io::Error,
}

impl fmt::Display for PathError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "cannot {} `{}`: {}",
            self.action,
            self.path.display(),
            self.source
        )
    }
}

impl std::error::Error for PathError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&self.source)
    }
}

/// A decoding failure without its location; the column reader adds the location.
///
/// Decoders in [`crate::encoding`] know bytes, not columns, so they return this
/// small type and [`crate::column`] turns it into an [`Error`] naming the column,
/// row group and page.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum DecodeError {
    /// The bytes break the format.
    OutOfSpec(String),
    /// Valid but not implemented.
    Unsupported(String),
    /// A value that does not fit the field.
    Value(String),
    /// Decoding would take more memory than a limit of the crate allows.
    Limit(String),
}

impl DecodeError {
    /// Shorthand for [`DecodeError::OutOfSpec`].
    pub(crate) fn oos(message: impl Into<String>) -> Self {
        DecodeError::OutOfSpec(message.into())
    }

    /// Attaches a location, turning this into the public [`Error`].
    pub(crate) fn at(self, location: Location) -> Error {
        match self {
            DecodeError::OutOfSpec(message) => Error::OutOfSpec { location, message },
            DecodeError::Unsupported(message) => Error::Unsupported { location, message },
            DecodeError::Value(message) => Error::Value { location, message },
            DecodeError::Limit(message) => Error::Limit { location, message },
        }
    }
}

/// The crate's result type.
pub type Result<T, E = Error> = std::result::Result<T, E>;
