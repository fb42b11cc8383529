//! The parquet-testing corpus (`../shared/parquet-testing`, or
//! `PARQUET_TEST_DATA`), file by file.
//!
//! - Every file of `data/` is decoded into a struct written for it, all row
//!   groups at once (`load`) and row group by row group (`row_groups`), and
//!   every column is compared value by value with `<name>.expected.json`
//!   (pyarrow's decoding; the format is described in the corpus README.md).
//!   Nested columns are compared whole: a list is a JSON array, a struct an
//!   object keyed by the Parquet field names, a map an array of
//!   `{"key", "value"}` objects in file order (read into `Vec<(K, V)>`, which
//!   keeps that order; the `HashMap`/`BTreeMap` readings are compared with
//!   every map sorted by key, see [`MapOrder`]).
//!   Many columns are also read into a second field type (INT96 as
//!   `Int96` and chrono, decimals as `i128` and `rust_decimal::Decimal`,
//!   widened integers and floats, `Bytes`, `[u8; N]`...) and compared with the
//!   same expected values.
//! - The BYTE_STREAM_SPLIT columns are also compared with their PLAIN twins,
//!   and the DELTA files with upstream's own `*_expect.csv` (written
//!   independently of pyarrow).
//! - A file that only a bug of the `parquet` crate keeps us from reading has a
//!   test asserting that exact failure ([`BLOCKED_UPSTREAM`]), so that the fix
//!   upstream shows up as a failing test.
//! - `bad_data/` is checked in `errors/corrupt.rs` (`every_bad_data_file_is_an_error`:
//!   an `Err`, never a panic), except `ARROW-GH-43605`, which is readable and
//!   compared here.
//! - [`every_corpus_file_is_covered`] lists every `*.parquet` of the corpus and
//!   fails on a file that is on none of the lists [`COMPARED`],
//!   [`BLOCKED_UPSTREAM`], [`MUST_FAIL`] and [`OUT_OF_SCOPE`].

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use parquet_rows::{Decimal, Error, Int96, ParquetFile, ParquetRow, Timestamp, Unit};
use serde_json::Value;

#[macro_use]
mod expected;
#[macro_use]
mod compare;

mod complex;
mod encodings;
mod lists;
mod maps;
mod pages;
mod strict;
mod structs;
mod types;

use compare::*;
use expected::*;

// ---------------------------------------------------------------------------
// What is covered, and how
// ---------------------------------------------------------------------------

/// Files decoded and compared with their expected values, each with its test
/// (taking the test's address makes a listed file without a test a compile
/// error). Every column of each file is compared. `incorrect_map_schema` has
/// no expected file (pyarrow refuses its OPTIONAL map key): it is compared
/// with the content upstream's README gives.
const COMPARED: &[(&str, fn())] = &[
    ("bad_data/ARROW-GH-43605.parquet", pages::arrow_gh_43605),
    (
        "data/alltypes_dictionary.parquet",
        types::alltypes_dictionary,
    ),
    ("data/alltypes_plain.parquet", types::alltypes_plain),
    (
        "data/alltypes_plain.snappy.parquet",
        types::alltypes_plain_snappy,
    ),
    (
        "data/alltypes_tiny_pages.parquet",
        types::alltypes_tiny_pages,
    ),
    (
        "data/alltypes_tiny_pages_plain.parquet",
        types::alltypes_tiny_pages_plain,
    ),
    ("data/binary.parquet", types::binary),
    (
        "data/binary_truncated_min_max.parquet",
        types::binary_truncated_min_max,
    ),
    (
        "data/byte_array_decimal.parquet",
        encodings::byte_array_decimal,
    ),
    (
        "data/byte_stream_split.zstd.parquet",
        encodings::byte_stream_split_zstd,
    ),
    (
        "data/byte_stream_split_extended.gzip.parquet",
        encodings::byte_stream_split_extended_gzip,
    ),
    (
        "data/column_chunk_key_value_metadata.parquet",
        pages::column_chunk_key_value_metadata,
    ),
    (
        "data/concatenated_gzip_members.parquet",
        pages::concatenated_gzip_members,
    ),
    (
        "data/data_index_bloom_encoding_stats.parquet",
        types::data_index_bloom_encoding_stats,
    ),
    (
        "data/data_index_bloom_encoding_with_length.parquet",
        types::data_index_bloom_encoding_with_length,
    ),
    (
        "data/datapage_v1-corrupt-checksum.parquet",
        pages::datapage_v1_corrupt_checksum,
    ),
    (
        "data/datapage_v1-snappy-compressed-checksum.parquet",
        pages::datapage_v1_snappy_compressed_checksum,
    ),
    (
        "data/datapage_v1-uncompressed-checksum.parquet",
        pages::datapage_v1_uncompressed_checksum,
    ),
    ("data/datapage_v2.snappy.parquet", pages::datapage_v2_snappy),
    (
        "data/datapage_v2_empty_datapage.snappy.parquet",
        pages::datapage_v2_empty_datapage_snappy,
    ),
    (
        "data/delta_binary_packed.parquet",
        encodings::delta_binary_packed,
    ),
    ("data/delta_byte_array.parquet", encodings::delta_byte_array),
    (
        "data/delta_encoding_optional_column.parquet",
        encodings::delta_encoding_optional_column,
    ),
    (
        "data/delta_encoding_required_column.parquet",
        encodings::delta_encoding_required_column,
    ),
    (
        "data/delta_length_byte_array.parquet",
        encodings::delta_length_byte_array,
    ),
    (
        "data/fixed_length_byte_array.parquet",
        types::fixed_length_byte_array,
    ),
    (
        "data/fixed_length_decimal.parquet",
        encodings::fixed_length_decimal,
    ),
    (
        "data/fixed_length_decimal_legacy.parquet",
        encodings::fixed_length_decimal_legacy,
    ),
    (
        "data/float16_nonzeros_and_nans.parquet",
        encodings::float16_nonzeros_and_nans,
    ),
    (
        "data/float16_zeros_and_nans.parquet",
        encodings::float16_zeros_and_nans,
    ),
    (
        "data/floating_orders_nan_count.parquet",
        pages::floating_orders_nan_count,
    ),
    (
        "data/hadoop_lz4_compressed.parquet",
        pages::hadoop_lz4_compressed,
    ),
    (
        "data/hadoop_lz4_compressed_larger.parquet",
        pages::hadoop_lz4_compressed_larger,
    ),
    (
        "data/incorrect_map_schema.parquet",
        maps::incorrect_map_schema,
    ),
    ("data/int32_decimal.parquet", encodings::int32_decimal),
    (
        "data/int32_with_null_pages.parquet",
        pages::int32_with_null_pages,
    ),
    ("data/int64_decimal.parquet", encodings::int64_decimal),
    ("data/int96_from_spark.parquet", types::int96_from_spark),
    ("data/list_columns.parquet", lists::list_columns),
    ("data/null_list.parquet", lists::null_list),
    ("data/lz4_raw_compressed.parquet", pages::lz4_raw_compressed),
    (
        "data/lz4_raw_compressed_larger.parquet",
        pages::lz4_raw_compressed_larger,
    ),
    ("data/map_no_value.parquet", maps::map_no_value),
    ("data/nan_in_stats.parquet", pages::nan_in_stats),
    (
        "data/nation.dict-malformed.parquet",
        pages::nation_dict_malformed,
    ),
    (
        "data/nested_lists.snappy.parquet",
        lists::nested_lists_snappy,
    ),
    ("data/nested_maps.snappy.parquet", maps::nested_maps_snappy),
    (
        "data/nested_structs.rust.parquet",
        structs::nested_structs_rust,
    ),
    (
        "data/non_hadoop_lz4_compressed.parquet",
        pages::non_hadoop_lz4_compressed,
    ),
    (
        "data/nonnullable.impala.parquet",
        complex::nonnullable_impala,
    ),
    ("data/nullable.impala.parquet", complex::nullable_impala),
    ("data/nulls.snappy.parquet", structs::nulls_snappy),
    ("data/old_list_structure.parquet", lists::old_list_structure),
    (
        "data/overflow_i16_page_cnt.parquet",
        pages::overflow_i16_page_cnt,
    ),
    (
        "data/page_v2_empty_compressed.parquet",
        pages::page_v2_empty_compressed,
    ),
    (
        "data/plain-dict-uncompressed-checksum.parquet",
        pages::plain_dict_uncompressed_checksum,
    ),
    (
        "data/repeated_no_annotation.parquet",
        lists::repeated_no_annotation,
    ),
    (
        "data/repeated_primitive_no_list.parquet",
        lists::repeated_primitive_no_list,
    ),
    (
        "data/rle-dict-snappy-checksum.parquet",
        pages::rle_dict_snappy_checksum,
    ),
    (
        "data/rle-dict-uncompressed-corrupt-checksum.parquet",
        pages::rle_dict_uncompressed_corrupt_checksum,
    ),
    (
        "data/rle_boolean_encoding.parquet",
        encodings::rle_boolean_encoding,
    ),
    ("data/single_nan.parquet", pages::single_nan),
    ("data/sort_columns.parquet", pages::sort_columns),
    (
        "data/unknown-logical-type.parquet",
        types::unknown_logical_type,
    ),
];

/// Files that a bug of the `parquet` crate (footer or page-header parsing, which
/// parquet-rows leaves to it) keeps from being read; each test asserts that
/// exact failure and fails, saying what to do, once the bug is fixed.
const BLOCKED_UPSTREAM: &[(&str, fn())] = &[(
    "data/dict-page-offset-zero.parquet",
    dict_page_offset_zero_blocked_upstream,
)];

/// Malformed files: each must be an `Err`, never a panic. Checked by
/// `errors::corrupt::every_bad_data_file_is_an_error`, which itself fails if its cases
/// and `bad_data/` (less ARROW-GH-43605) differ.
const MUST_FAIL: &[&str] = &[
    "bad_data/ARROW-GH-41317.parquet",
    "bad_data/ARROW-GH-41321.parquet",
    "bad_data/ARROW-GH-45185.parquet",
    "bad_data/ARROW-GH-47662.parquet",
    "bad_data/ARROW-RS-GH-6229-DICTHEADER.parquet",
    "bad_data/ARROW-RS-GH-6229-LEVELS.parquet",
    "bad_data/PARQUET-1481.parquet",
];

/// Why a file is not compared.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum OutOfScope {
    /// Decoding the file needs more memory than a test may take: its column
    /// chunk inflates to more than 2 GiB (and pyarrow did not materialise
    /// expected values for it either).
    Huge,
}

/// Files not compared, with the reason (CORPUS.md describes each).
const OUT_OF_SCOPE: &[(&str, OutOfScope)] = &[
    // MAP<STRING, INT32>, 2 rows whose keys are 1 GiB strings each: more
    // than 2 GiB once inflated (no expected file). Checked by hand on
    // 2026-11-29: `read::<Row { arr: Option<Vec<(Vec<u8>, Option<i32>)>> }>`
    // gives 2 rows of one pair each (a 1,073,741,824-byte key starting 'a', value
    // 1) in 14 s in release; too heavy for CI.
    ("data/large_string_map.brotli.parquet", OutOfScope::Huge),
];

// ---------------------------------------------------------------------------
// Blocked by the `parquet` crate
// ---------------------------------------------------------------------------

/// `data/dict-page-offset-zero.parquet` (written by Dremio 3.2) cannot be
/// opened: `parquet` 60.1.0's footer parser reads ColumnMetaData field 15
/// (`bloom_filter_length`, an i32 in the Parquet format) without checking its
/// Thrift type, and Dremio wrote a list of structs under that id. The parser
/// then reads the list as a varint and loses its place, and reports the
/// nonsense it finds after it. The `parquet` crate alone fails the same way,
/// so the failure is not parquet-rows'.
///
/// When this test fails because the file opens, the bug is fixed upstream:
/// compare the values instead (`corpus_test!` with `DictOffsetZero`, which
/// reads the file's one column, the dictionary page whose offset the footer
/// gives as 0) and move the file from `BLOCKED_UPSTREAM` to `COMPARED`.
#[test]
fn dict_page_offset_zero_blocked_upstream() {
    /// The file's one column.
    #[derive(ParquetRow)]
    #[allow(dead_code)] // only bound, never decoded, while the footer cannot be read
    struct DictOffsetZero {
        l_partkey: Option<i32>,
    }
    const UPSTREAM: &str = "Parquet error: Expected list element type of I64 but got I16";

    let Some(path) = corpus_path("data/dict-page-offset-zero") else {
        return;
    };
    let direct = std::fs::File::open(&path)
        .map_err(parquet::errors::ParquetError::from)
        .and_then(parquet::file::reader::SerializedFileReader::new);
    match direct {
        Err(e) => assert_eq!(e.to_string(), UPSTREAM, "the `parquet` crate's own error"),
        Ok(_) => panic!(
            "the `parquet` crate now reads the footer of {}: its bug is fixed; compare the \
             values instead (see this test's comment)",
            path.display()
        ),
    }
    match ParquetFile::open(&path).and_then(|f| f.rows::<DictOffsetZero>().collect()) {
        // The same error, with the path in front (`ParquetFile::open` names it).
        Err(Error::Parquet(e)) => assert_eq!(
            e.to_string(),
            UPSTREAM.replacen(
                "Parquet error: ",
                &format!("Parquet error: `{}`: ", path.display()),
                1
            )
        ),
        Err(e) => panic!("dict-page-offset-zero: expected the `parquet` crate's error, got: {e}"),
        Ok(rows) => panic!(
            "dict-page-offset-zero now decodes ({} rows): compare the values instead (see this \
             test's comment)",
            rows.len()
        ),
    }
}

// ---------------------------------------------------------------------------
// Every file of the corpus is covered
// ---------------------------------------------------------------------------

/// Every `*.parquet` under `dir` (recursively), relative to `dir`, with `/`.
fn parquet_files(dir: &Path, under: &str, out: &mut Vec<String>) {
    let entries = std::fs::read_dir(dir.join(under))
        .unwrap_or_else(|e| panic!("read {}: {e}", dir.join(under).display()));
    for entry in entries {
        let entry = entry.expect("directory entry");
        let name = entry.file_name().to_string_lossy().into_owned();
        let relative = format!("{under}/{name}");
        if entry.file_type().expect("file type").is_dir() {
            parquet_files(dir, &relative, out);
        } else if name.ends_with(".parquet") {
            out.push(relative);
        }
    }
}

#[test]
fn every_corpus_file_is_covered() {
    let Some(dir) = parquet_rows_suite::parquet_test_data() else {
        println!("skipped: PARQUET_TEST_DATA=skip, corpus files not listed");
        return;
    };
    let mut on_disk = Vec::new();
    parquet_files(&dir, "data", &mut on_disk);
    parquet_files(&dir, "bad_data", &mut on_disk);
    on_disk.sort();

    let mut listed: Vec<(&str, &str)> = Vec::new();
    listed.extend(COMPARED.iter().map(|(f, _)| (*f, "COMPARED")));
    listed.extend(
        BLOCKED_UPSTREAM
            .iter()
            .map(|(f, _)| (*f, "BLOCKED_UPSTREAM")),
    );
    listed.extend(MUST_FAIL.iter().map(|f| (*f, "MUST_FAIL")));
    listed.extend(OUT_OF_SCOPE.iter().map(|(f, _)| (*f, "OUT_OF_SCOPE")));

    let mut problems = Vec::new();
    for file in &on_disk {
        let lists: Vec<&str> = listed
            .iter()
            .filter(|(f, _)| f == file)
            .map(|(_, list)| *list)
            .collect();
        match lists.as_slice() {
            [_] => {}
            [] => problems.push(format!(
                "{file} is not covered: write a test comparing it with its expected values \
                 (COMPARED), or put it on OUT_OF_SCOPE with the reason"
            )),
            many => problems.push(format!("{file} is on several lists: {many:?}")),
        }
    }
    for (file, list) in &listed {
        if !on_disk.iter().any(|f| f == file) {
            problems.push(format!("{file} is on {list} but not in the corpus"));
        }
    }
    for file in MUST_FAIL {
        if !file.starts_with("bad_data/") {
            problems.push(format!("{file} is on MUST_FAIL but not in bad_data/"));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    println!(
        "{} corpus files: {} compared, {} blocked upstream, {} must fail (errors.rs), {} out of scope",
        on_disk.len(),
        COMPARED.len(),
        BLOCKED_UPSTREAM.len(),
        MUST_FAIL.len(),
        OUT_OF_SCOPE.len()
    );
}
