//! Nested data: structs in structs, LISTs (standard 3-level, the legacy
//! 2-level forms, un-annotated `repeated` fields), MAPs, and combinations.
//!
//! Every test generates Rust values deterministically (a seeded PRNG), with
//! nulls and empty lists at every level, shreds them into repetition and
//! definition levels ([`shred`], driven by the file's schema), writes them with
//! the `parquet` crate's low-level column writers under several writer settings
//! ([`files`]: page v1 and v2, dictionary on and off, tiny pages, several
//! row groups), then:
//!
//! 1. reads the file back with the `parquet` crate's record API and converts
//!    its rows to the Rust values with code that shares nothing with the
//!    shredder, so each file is known right independently of parquet-rows;
//! 2. decodes it with parquet-rows (owned rows, and borrowed rows where the
//!    struct borrows; whole file and row group by row group) and compares.
//!
//! The `parquet` writer (60.1) cuts pages only at record boundaries, so files
//! in which a list straddles a page boundary (allowed in data page v1) are
//! written with hand-encoded pages ([`write_hand_paged`]); the same writer
//! makes files with invalid levels for the error tests.
//!
//! That machinery is in the suite library (`tests/support/`: `rng`, `shred`,
//! `nested_writer`, `pagewriter`, `record`); the tests are split by shape.

use std::collections::{BTreeMap, HashMap};
use std::fmt::Debug;
use std::ops::Range;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::{mpsc, Arc};
use std::time::Duration;

use bytes::Bytes;
use parquet::record::{Field, Row};
use parquet::schema::parser::parse_message_type;
use parquet::schema::types::SchemaDescriptor;
use parquet_rows::{Error, ParquetFile, ParquetRow, SchemaError};
use parquet_rows_suite::all_pages;
use parquet_rows_suite::nested_writer::files;
use parquet_rows_suite::pagewriter::write_hand_paged;
use parquet_rows_suite::panics::{panic_message, quiet_panics_in_quiet_threads};
use parquet_rows_suite::record::*;
use parquet_rows_suite::rng::*;
use parquet_rows_suite::shred::*;

// ---------------------------------------------------------------------------
// Comparing
// ---------------------------------------------------------------------------

/// Fails on the first row that differs (not a dump of thousands of rows).
fn same_rows<T: PartialEq + Debug>(what: &str, got: &[T], want: &[T]) {
    if let Some(i) = (0..got.len().min(want.len())).find(|&i| got[i] != want[i]) {
        panic!(
            "{what}: row {i} differs\n  got:  {:?}\n  want: {:?}",
            got[i], want[i]
        );
    }
    assert_eq!(got.len(), want.len(), "{what}: number of rows");
}

/// Decodes `file` into owned rows four ways (`from_bytes`, `read`,
/// `load` + `rows`, `row_groups` + `rows_into`) and compares each with `want`.
/// The file read by the `parquet` record API (through `convert`, which shares
/// nothing with the shredder) holds `want`, and parquet-rows' owned paths
/// read the same rows.
fn check_record_api_and_owned<T>(what: &str, file: &Bytes, want: &[T], convert: fn(&Row) -> T)
where
    T: parquet_rows::OwnedRow + PartialEq + Debug,
{
    same_rows(
        &format!("{what}, record API"),
        &record_api(file, convert),
        want,
    );
    check_owned(what, file, want);
}

fn check_owned<T>(what: &str, file: &Bytes, want: &[T])
where
    T: parquet_rows::OwnedRow + PartialEq + Debug,
{
    let got: Vec<T> = parquet_rows::from_bytes(file.clone())
        .unwrap_or_else(|e| panic!("{what}: from_bytes: {e}"));
    same_rows(&format!("{what}, from_bytes"), &got, want);

    let parquet = ParquetFile::from_bytes(file.clone()).expect("open");
    let got: Vec<T> = parquet
        .rows()
        .collect()
        .unwrap_or_else(|e| panic!("{what}: read: {e}"));
    same_rows(&format!("{what}, read"), &got, want);

    let pages = parquet
        .load::<T>()
        .unwrap_or_else(|e| panic!("{what}: load: {e}"));
    let got: Vec<T> = pages.rows().unwrap_or_else(|e| panic!("{what}: rows: {e}"));
    same_rows(&format!("{what}, load + rows"), &got, want);

    let mut streamed = Vec::new();
    for group in 0..parquet.num_row_groups() {
        let pages = parquet
            .rows::<T>()
            .row_groups([group])
            .load()
            .unwrap_or_else(|e| panic!("{what}: row group: {e}"));
        pages
            .rows_into(&mut streamed)
            .unwrap_or_else(|e| panic!("{what}: rows_into: {e}"));
    }
    same_rows(&format!("{what}, row_groups"), &streamed, want);
}

/// Decodes `$file` into borrowed rows of `$ty<'_>` (whole file, then row group
/// by row group), converts them with `$owned::from(&row)` and compares them
/// with `$want`.
macro_rules! check_borrowed {
    ($what:expr, $file:expr, $ty:ident, $owned:ty, $want:expr) => {{
        let what: &str = $what;
        let want: &[$owned] = $want;
        let parquet = ParquetFile::from_bytes($file.clone()).expect("open");
        let pages = parquet
            .load::<$ty>()
            .unwrap_or_else(|e| panic!("{what}: load (borrowed): {e}"));
        let rows: Vec<$ty<'_>> = pages
            .rows()
            .unwrap_or_else(|e| panic!("{what}: rows (borrowed): {e}"));
        let got: Vec<$owned> = rows.iter().map(<$owned>::from).collect();
        same_rows(&format!("{what}, borrowed"), &got, want);

        let mut got: Vec<$owned> = Vec::new();
        for group in 0..parquet.num_row_groups() {
            let pages = parquet
                .rows::<$ty>()
                .row_groups([group])
                .load()
                .unwrap_or_else(|e| panic!("{what}: row group (borrowed): {e}"));
            let rows: Vec<$ty<'_>> = pages
                .rows()
                .unwrap_or_else(|e| panic!("{what}: rows of a row group (borrowed): {e}"));
            got.extend(rows.iter().map(<$owned>::from));
        }
        same_rows(&format!("{what}, borrowed, row_groups"), &got, want);
    }};
}

fn owned_str(v: &str) -> String {
    v.to_owned()
}

fn owned_opt_str(v: Option<&str>) -> Option<String> {
    v.map(str::to_owned)
}

mod bind;
mod legacy;
mod lists;
mod maps;
mod nullable;
mod pages;
mod structs;
