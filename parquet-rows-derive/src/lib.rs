//! `#[derive(ParquetRow)]`, the proc macro of `parquet-rows`.
//!
//! Use it through `parquet_rows::ParquetRow`; this crate is an implementation
//! detail, released in lockstep with the runtime. The stages live in their own
//! modules: `ast` (syn to our model), `attr` (`#[parquet(...)]`),
//! `declared` (the schema a struct declares), `check` (rules across fields
//! and against the declared schema), `expand` (code generation), `filter` (the typed filter's code), `write` (the writer's code). Which field
//! types read which columns is decided by `parquet-rows-rules`, the crate the
//! runtime checks files with.

mod ast;
mod attr;
mod case;
mod check;
mod ctxt;
mod declared;
mod expand;
mod filter;
mod nested_check;
mod symbol;
mod write;

use proc_macro::TokenStream;
use syn::{parse_macro_input, DeriveInput};

/// Derives `parquet_rows::ParquetRow`; see the `parquet_rows` crate docs.
#[proc_macro_derive(ParquetRow, attributes(parquet))]
pub fn derive_parquet_row(input: TokenStream) -> TokenStream {
    let input = parse_macro_input!(input as DeriveInput);
    expand::derive(&input).into()
}
