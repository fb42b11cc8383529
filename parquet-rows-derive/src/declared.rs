//! Loading the schema a struct declares: `#[parquet(schema = "message ...")]`
//! (parsed here) or `#[parquet(schema_file = "path")]` (the footer of a sample
//! Parquet file, read at compile time).

use std::path::PathBuf;

use parquet_rows_rules::{self as rules, Schema};

use crate::attr::SchemaSource;
use crate::ctxt::Ctxt;

/// A declared schema that loaded.
pub struct Declared {
    pub schema: Schema,
    /// Message-type text of the schema, for `ParquetRow::DECLARED_SCHEMA`.
    pub text: String,
    /// What the messages call it: "the declared schema", "`tests/data/x.parquet`".
    pub name: String,
    /// For `schema_file`: the absolute path, so the expansion can
    /// `include_bytes!` it and the crate is rebuilt when the file changes.
    pub file: Option<String>,
}

/// Parses or reads the declared schema; `None` (with an error in `cx`) if it
/// does not load.
pub fn load(cx: &Ctxt, source: &SchemaSource) -> Option<Declared> {
    match source {
        SchemaSource::Text(lit) => match rules::parse(&lit.value()) {
            Ok(schema) => Some(Declared {
                schema,
                text: lit.value(),
                name: "the declared schema".to_owned(),
                file: None,
            }),
            Err(err) => {
                cx.error_spanned_by(lit, format!("invalid Parquet schema: {err}"));
                None
            }
        },
        SchemaSource::File(lit) => load_file(cx, lit),
    }
}

fn load_file(cx: &Ctxt, lit: &syn::LitStr) -> Option<Declared> {
    let relative = lit.value();
    // Relative to the crate being compiled, as `include_bytes!` is relative to
    // the source file: the crate's directory is what a user can see in its
    // Cargo.toml.
    let path = match std::env::var_os("CARGO_MANIFEST_DIR") {
        Some(dir) => PathBuf::from(dir).join(&relative),
        None => PathBuf::from(&relative),
    };
    let bytes = match std::fs::read(&path) {
        Ok(bytes) => bytes,
        Err(err) => {
            cx.error_spanned_by(
                lit,
                format!(
                    "cannot read schema_file `{relative}` (paths are relative to the crate's directory, CARGO_MANIFEST_DIR): {err}"
                ),
            );
            return None;
        }
    };
    match rules::read_schema(&bytes) {
        Ok(schema) => {
            let absolute = std::fs::canonicalize(&path).unwrap_or(path);
            Some(Declared {
                text: schema.to_string(),
                schema,
                name: format!("`{relative}`"),
                file: absolute.to_str().map(str::to_owned),
            })
        }
        Err(err) => {
            cx.error_spanned_by(
                lit,
                format!("cannot read the schema of schema_file `{relative}`: {err}"),
            );
            None
        }
    }
}
