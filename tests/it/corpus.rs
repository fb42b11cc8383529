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
//! - `bad_data/` is checked in `errors.rs` (`every_bad_data_file_is_an_error`:
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

// ---------------------------------------------------------------------------
// What is covered, and how
// ---------------------------------------------------------------------------

/// Files decoded and compared with their expected values, each with its test
/// (taking the test's address makes a listed file without a test a compile
/// error). Every column of each file is compared. `incorrect_map_schema` has
/// no expected file (pyarrow refuses its OPTIONAL map key): it is compared
/// with the content upstream's README gives.
const COMPARED: &[(&str, fn())] = &[
    ("bad_data/ARROW-GH-43605.parquet", arrow_gh_43605),
    ("data/alltypes_dictionary.parquet", alltypes_dictionary),
    ("data/alltypes_plain.parquet", alltypes_plain),
    ("data/alltypes_plain.snappy.parquet", alltypes_plain_snappy),
    ("data/alltypes_tiny_pages.parquet", alltypes_tiny_pages),
    (
        "data/alltypes_tiny_pages_plain.parquet",
        alltypes_tiny_pages_plain,
    ),
    ("data/binary.parquet", binary),
    (
        "data/binary_truncated_min_max.parquet",
        binary_truncated_min_max,
    ),
    ("data/byte_array_decimal.parquet", byte_array_decimal),
    (
        "data/byte_stream_split.zstd.parquet",
        byte_stream_split_zstd,
    ),
    (
        "data/byte_stream_split_extended.gzip.parquet",
        byte_stream_split_extended_gzip,
    ),
    (
        "data/column_chunk_key_value_metadata.parquet",
        column_chunk_key_value_metadata,
    ),
    (
        "data/concatenated_gzip_members.parquet",
        concatenated_gzip_members,
    ),
    (
        "data/data_index_bloom_encoding_stats.parquet",
        data_index_bloom_encoding_stats,
    ),
    (
        "data/data_index_bloom_encoding_with_length.parquet",
        data_index_bloom_encoding_with_length,
    ),
    (
        "data/datapage_v1-corrupt-checksum.parquet",
        datapage_v1_corrupt_checksum,
    ),
    (
        "data/datapage_v1-snappy-compressed-checksum.parquet",
        datapage_v1_snappy_compressed_checksum,
    ),
    (
        "data/datapage_v1-uncompressed-checksum.parquet",
        datapage_v1_uncompressed_checksum,
    ),
    ("data/datapage_v2.snappy.parquet", datapage_v2_snappy),
    (
        "data/datapage_v2_empty_datapage.snappy.parquet",
        datapage_v2_empty_datapage_snappy,
    ),
    ("data/delta_binary_packed.parquet", delta_binary_packed),
    ("data/delta_byte_array.parquet", delta_byte_array),
    (
        "data/delta_encoding_optional_column.parquet",
        delta_encoding_optional_column,
    ),
    (
        "data/delta_encoding_required_column.parquet",
        delta_encoding_required_column,
    ),
    (
        "data/delta_length_byte_array.parquet",
        delta_length_byte_array,
    ),
    (
        "data/fixed_length_byte_array.parquet",
        fixed_length_byte_array,
    ),
    ("data/fixed_length_decimal.parquet", fixed_length_decimal),
    (
        "data/fixed_length_decimal_legacy.parquet",
        fixed_length_decimal_legacy,
    ),
    (
        "data/float16_nonzeros_and_nans.parquet",
        float16_nonzeros_and_nans,
    ),
    (
        "data/float16_zeros_and_nans.parquet",
        float16_zeros_and_nans,
    ),
    (
        "data/floating_orders_nan_count.parquet",
        floating_orders_nan_count,
    ),
    ("data/hadoop_lz4_compressed.parquet", hadoop_lz4_compressed),
    (
        "data/hadoop_lz4_compressed_larger.parquet",
        hadoop_lz4_compressed_larger,
    ),
    ("data/incorrect_map_schema.parquet", incorrect_map_schema),
    ("data/int32_decimal.parquet", int32_decimal),
    ("data/int32_with_null_pages.parquet", int32_with_null_pages),
    ("data/int64_decimal.parquet", int64_decimal),
    ("data/int96_from_spark.parquet", int96_from_spark),
    ("data/list_columns.parquet", list_columns),
    ("data/null_list.parquet", null_list),
    ("data/lz4_raw_compressed.parquet", lz4_raw_compressed),
    (
        "data/lz4_raw_compressed_larger.parquet",
        lz4_raw_compressed_larger,
    ),
    ("data/map_no_value.parquet", map_no_value),
    ("data/nan_in_stats.parquet", nan_in_stats),
    ("data/nation.dict-malformed.parquet", nation_dict_malformed),
    ("data/nested_lists.snappy.parquet", nested_lists_snappy),
    ("data/nested_maps.snappy.parquet", nested_maps_snappy),
    ("data/nested_structs.rust.parquet", nested_structs_rust),
    (
        "data/non_hadoop_lz4_compressed.parquet",
        non_hadoop_lz4_compressed,
    ),
    ("data/nonnullable.impala.parquet", nonnullable_impala),
    ("data/nullable.impala.parquet", nullable_impala),
    ("data/nulls.snappy.parquet", nulls_snappy),
    ("data/old_list_structure.parquet", old_list_structure),
    ("data/overflow_i16_page_cnt.parquet", overflow_i16_page_cnt),
    (
        "data/page_v2_empty_compressed.parquet",
        page_v2_empty_compressed,
    ),
    (
        "data/plain-dict-uncompressed-checksum.parquet",
        plain_dict_uncompressed_checksum,
    ),
    (
        "data/repeated_no_annotation.parquet",
        repeated_no_annotation,
    ),
    (
        "data/repeated_primitive_no_list.parquet",
        repeated_primitive_no_list,
    ),
    (
        "data/rle-dict-snappy-checksum.parquet",
        rle_dict_snappy_checksum,
    ),
    (
        "data/rle-dict-uncompressed-corrupt-checksum.parquet",
        rle_dict_uncompressed_corrupt_checksum,
    ),
    ("data/rle_boolean_encoding.parquet", rle_boolean_encoding),
    ("data/single_nan.parquet", single_nan),
    ("data/sort_columns.parquet", sort_columns),
    ("data/unknown-logical-type.parquet", unknown_logical_type),
];

/// Files that a bug of the `parquet` crate (footer or page-header parsing, which
/// parquet-rows leaves to it) keeps from being read; each test asserts that
/// exact failure and fails, saying what to do, once the bug is fixed.
const BLOCKED_UPSTREAM: &[(&str, fn())] = &[(
    "data/dict-page-offset-zero.parquet",
    dict_page_offset_zero_blocked_upstream,
)];

/// Malformed files: each must be an `Err`, never a panic. Checked by
/// `errors::every_bad_data_file_is_an_error`, which itself fails if its cases
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
// Expected values
// ---------------------------------------------------------------------------

/// A decoded value in the expected files' notation.
trait ToJson {
    fn to_json(&self) -> Value;
}

macro_rules! integer_to_json {
    ($($ty:ty),*) => {
        $(impl ToJson for $ty {
            fn to_json(&self) -> Value {
                Value::from(*self)
            }
        })*
    };
}
// Not `u8`: no column is read into a `u8` here, and leaving it out lets
// `Vec<u8>` (a BYTE_ARRAY, hex) and `Vec<T>` (a list, an array) both have an
// impl.
integer_to_json!(bool, i8, i16, i32, i64, u16, u32, u64);

/// Floats are numbers, except NaN and the infinities, which are strings.
fn float_json(x: f64) -> Value {
    if x.is_nan() {
        Value::from("NaN")
    } else if x == f64::INFINITY {
        Value::from("Infinity")
    } else if x == f64::NEG_INFINITY {
        Value::from("-Infinity")
    } else {
        Value::from(x)
    }
}

impl ToJson for f32 {
    fn to_json(&self) -> Value {
        // The expected files hold f32 values widened to f64, exactly.
        float_json(f64::from(*self))
    }
}

impl ToJson for f64 {
    fn to_json(&self) -> Value {
        float_json(*self)
    }
}

/// FLOAT16, widened to f64 exactly as the expected files hold it.
impl ToJson for half::f16 {
    fn to_json(&self) -> Value {
        float_json(f64::from(*self))
    }
}

/// Strings are JSON strings.
macro_rules! text_to_json {
    ($($ty:ty),*) => {
        $(impl ToJson for $ty {
            fn to_json(&self) -> Value {
                Value::from(&**self)
            }
        })*
    };
}
text_to_json!(&str, String, Box<str>, Arc<str>);

/// Un-annotated BYTE_ARRAY and FIXED_LEN_BYTE_ARRAY: `"hex:<lowercase hex>"`.
fn hex_json(bytes: &[u8]) -> Value {
    use std::fmt::Write;
    let mut s = String::with_capacity(4 + 2 * bytes.len());
    s.push_str("hex:");
    for b in bytes {
        write!(s, "{b:02x}").expect("write to a String");
    }
    Value::from(s)
}

impl ToJson for &[u8] {
    fn to_json(&self) -> Value {
        hex_json(self)
    }
}

impl ToJson for Vec<u8> {
    fn to_json(&self) -> Value {
        hex_json(self)
    }
}

impl ToJson for bytes::Bytes {
    fn to_json(&self) -> Value {
        hex_json(self)
    }
}

impl<const N: usize> ToJson for [u8; N] {
    fn to_json(&self) -> Value {
        hex_json(self)
    }
}

/// Decimals are fixed-point strings with exactly `scale` fractional digits.
impl ToJson for Decimal {
    fn to_json(&self) -> Value {
        Value::from(self.to_string())
    }
}

/// `rust_decimal` keeps the scale it was given, so it prints the same digits.
impl ToJson for rust_decimal::Decimal {
    fn to_json(&self) -> Value {
        Value::from(self.to_string())
    }
}

impl<T: ToJson> ToJson for Option<T> {
    fn to_json(&self) -> Value {
        self.as_ref().map_or(Value::Null, ToJson::to_json)
    }
}

/// A list is an array of its elements.
impl<T: ToJson> ToJson for Vec<T> {
    fn to_json(&self) -> Value {
        Value::Array(self.iter().map(ToJson::to_json).collect())
    }
}

/// A map entry: `{"key": k, "value": v}`.
fn entry_json(key: &impl ToJson, value: &impl ToJson) -> Value {
    let mut entry = serde_json::Map::new();
    entry.insert("key".to_owned(), key.to_json());
    entry.insert("value".to_owned(), value.to_json());
    Value::Object(entry)
}

/// An entry of a map read as `Vec<(K, V)>`, which keeps the file's order.
impl<K: ToJson, V: ToJson> ToJson for (K, V) {
    fn to_json(&self) -> Value {
        entry_json(&self.0, &self.1)
    }
}

/// A `HashMap` has no order: its entries are listed by key, and the expected
/// maps are sorted the same way ([`MapOrder::ByKey`]).
impl<K: ToJson + Ord, V: ToJson, S> ToJson for HashMap<K, V, S> {
    fn to_json(&self) -> Value {
        let mut entries: Vec<(&K, &V)> = self.iter().collect();
        entries.sort_by(|a, b| a.0.cmp(b.0));
        Value::Array(entries.into_iter().map(|(k, v)| entry_json(k, v)).collect())
    }
}

/// A `BTreeMap` lists its entries by key ([`MapOrder::ByKey`]).
impl<K: ToJson, V: ToJson> ToJson for BTreeMap<K, V> {
    fn to_json(&self) -> Value {
        Value::Array(self.iter().map(|(k, v)| entry_json(k, v)).collect())
    }
}

/// A struct read from a Parquet group is an object keyed by the group's field
/// names: `object_to_json!(Type<'_> { "Parquet name" => field, ... })`.
macro_rules! object_to_json {
    ($ty:ty { $($name:literal => $field:ident),+ $(,)? }) => {
        impl ToJson for $ty {
            fn to_json(&self) -> Value {
                let mut object = serde_json::Map::new();
                $(object.insert($name.to_owned(), ToJson::to_json(&self.$field));)+
                Value::Object(object)
            }
        }
    };
}

// Conversions for columns whose expected notation depends on more than the
// field's value (`"column" => field via converter` in `corpus_test!`). Each
// takes the field of an OPTIONAL column.

/// An INT96 column read as [`Timestamp`]: nanoseconds, not adjusted to UTC
/// (the expected files' `timestamp[ns] (from INT96)`).
fn int96_timestamp(v: Option<&Timestamp>) -> Value {
    v.map_or(Value::Null, |t| {
        assert_eq!(
            (t.unit, t.utc),
            (Unit::Nanos, false),
            "INT96 read as Timestamp: unit and UTC flag"
        );
        Value::from(t.value)
    })
}

/// A raw [`Int96`] as nanoseconds since the epoch.
fn int96_nanos(v: Option<&Int96>) -> Value {
    v.map_or(Value::Null, |t| match t.to_nanos() {
        Some(nanos) => Value::from(nanos),
        None => Value::from(format!("{t:?} overflows i64 nanoseconds")),
    })
}

/// A raw [`Int96`] as Spark reads it (the expected values of
/// `int96_from_spark`, see its CORPUS.md row): microseconds with wrapping i64
/// arithmetic, `(julian_day - 2440588) * 86400000000 + nanos_of_day / 1000`.
fn spark_micros(v: Option<&Int96>) -> Value {
    v.map_or(Value::Null, |t| {
        let days = i64::from(t.julian_day) - i64::from(Int96::UNIX_EPOCH_JULIAN_DAY);
        Value::from(
            days.wrapping_mul(86_400_000_000)
                .wrapping_add(t.nanos_of_day / 1_000),
        )
    })
}

/// `chrono::NaiveDateTime` as nanoseconds since the epoch.
fn naive_nanos(v: Option<&chrono::NaiveDateTime>) -> Value {
    v.map_or(Value::Null, |t| {
        t.and_utc()
            .timestamp_nanos_opt()
            .map_or_else(|| Value::from(format!("{t} overflows")), Value::from)
    })
}

/// `chrono::DateTime<Utc>` as nanoseconds since the epoch.
fn utc_nanos(v: Option<&chrono::DateTime<chrono::Utc>>) -> Value {
    v.map_or(Value::Null, |t| {
        t.timestamp_nanos_opt()
            .map_or_else(|| Value::from(format!("{t} overflows")), Value::from)
    })
}

/// An unscaled decimal (`i128`) of a column with scale 2, as a fixed-point string.
fn scale_2(v: Option<&i128>) -> Value {
    v.map_or(Value::Null, |&unscaled| {
        Decimal {
            unscaled,
            precision: 38,
            scale: 2,
        }
        .to_json()
    })
}

/// An unscaled decimal (`i128`) of a column with scale 3, as a fixed-point string.
fn scale_3(v: Option<&i128>) -> Value {
    v.map_or(Value::Null, |&unscaled| {
        Decimal {
            unscaled,
            precision: 38,
            scale: 3,
        }
        .to_json()
    })
}

/// A field's value in the expected notation: `value!(field)` with [`ToJson`],
/// `value!(field, converter)` with a converter of an optional field.
macro_rules! value {
    ($field:expr) => {
        ToJson::to_json(&$field)
    };
    ($field:expr, $converter:ident) => {
        $converter(Option::as_ref(&$field))
    };
}

/// Whether a decoded value equals an expected one. Numbers compare by value
/// (so `1.0` and `1` are equal), the sign of a zero counts, and lists and
/// structs compare element by element, field by field, the same way.
#[allow(clippy::float_cmp)] // exact equality is the point: the expected files hold exact values
fn same(got: &Value, want: &Value) -> bool {
    match (got, want) {
        (Value::Number(g), Value::Number(w)) if g.is_f64() || w.is_f64() => {
            match (g.as_f64(), w.as_f64()) {
                (Some(g), Some(w)) => g == w && g.is_sign_negative() == w.is_sign_negative(),
                _ => false,
            }
        }
        (Value::Array(g), Value::Array(w)) => {
            g.len() == w.len() && g.iter().zip(w).all(|(g, w)| same(g, w))
        }
        (Value::Object(g), Value::Object(w)) => {
            g.len() == w.len() && g.iter().all(|(k, g)| w.get(k).is_some_and(|w| same(g, w)))
        }
        _ => got == want,
    }
}

/// Where a decoded value first differs from the expected one, as a path into
/// it (`[1].phone[0].kind`) and the two values there; `None` if they are the
/// [`same`].
fn difference(got: &Value, want: &Value) -> Option<String> {
    match (got, want) {
        (Value::Array(g), Value::Array(w)) if g.len() == w.len() => g
            .iter()
            .zip(w)
            .enumerate()
            .find_map(|(i, (g, w))| difference(g, w).map(|d| format!("[{i}]{d}"))),
        (Value::Object(g), Value::Object(w))
            if g.len() == w.len() && g.keys().all(|k| w.contains_key(k)) =>
        {
            g.iter()
                .find_map(|(k, g)| difference(g, &w[k]).map(|d| format!(".{k}{d}")))
        }
        _ if same(got, want) => None,
        _ => Some(format!(": got {got}, expected {want}")),
    }
}

/// Sorts every map inside an expected value by key, for [`MapOrder::ByKey`]. A
/// map is an array whose elements are all objects with exactly the fields
/// `key` and `value` (no list of structs in the corpus looks like that).
fn sort_maps(value: &mut Value) {
    match value {
        Value::Array(items) => {
            items.iter_mut().for_each(sort_maps);
            let is_map = !items.is_empty()
                && items.iter().all(|item| {
                    item.as_object().is_some_and(|o| {
                        o.len() == 2 && o.contains_key("key") && o.contains_key("value")
                    })
                });
            if is_map {
                items.sort_by(|a, b| key_order(&a["key"], &b["key"]));
            }
        }
        Value::Object(fields) => fields.values_mut().for_each(sort_maps),
        _ => {}
    }
}

/// The order of map keys in the expected notation, as `Ord` orders the decoded
/// keys: integers by value, strings by bytes, a null (`Option` key) first.
fn key_order(a: &Value, b: &Value) -> std::cmp::Ordering {
    use std::cmp::Ordering;
    match (a, b) {
        (Value::Number(a), Value::Number(b)) => match (a.as_i64(), b.as_i64()) {
            (Some(a), Some(b)) => a.cmp(&b),
            _ => a
                .as_f64()
                .partial_cmp(&b.as_f64())
                .unwrap_or(Ordering::Equal),
        },
        (Value::String(a), Value::String(b)) => a.cmp(b),
        (Value::Null, Value::Null) => Ordering::Equal,
        (Value::Null, _) => Ordering::Less,
        (_, Value::Null) => Ordering::Greater,
        _ => panic!("map keys of different types: {a} and {b}"),
    }
}

/// The corpus file `relative` (without `.parquet`), or `None` (after saying so)
/// when the corpus tests are switched off with `PARQUET_TEST_DATA=skip`.
fn corpus_path(relative: &str) -> Option<PathBuf> {
    let Some(path) = parquet_rows_suite::corpus_file(format!("{relative}.parquet")) else {
        println!("skipped: PARQUET_TEST_DATA=skip, corpus file {relative}.parquet not read");
        return None;
    };
    assert!(
        path.is_file(),
        "{} is missing from the corpus",
        path.display()
    );
    Some(path)
}

fn expected_json(path: &Path) -> Value {
    let path = path.with_extension("expected.json");
    let text =
        std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("read {}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("parse {}: {e}", path.display()))
}

/// What a file's decoding is allowed to do besides matching the expected values.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Mode {
    /// Must decode and match.
    Exact,
    /// Some page CRCs are wrong: matching (CRCs not verified) or an error that
    /// names the checksum are both right.
    CorruptCrc,
    /// The file is malformed but pyarrow reads it: matching or any error is
    /// right (never a panic).
    MatchOrError,
}

/// Which of the expected file's columns a test compares.
#[derive(Debug, Clone, Copy)]
enum Columns {
    /// Every column (the test of record for a file).
    Every,
    /// Some columns, read into other field types than the test of record's
    /// (or only the flat columns of a nested file).
    Subset,
}

/// In which order a test's decoded maps list their entries.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum MapOrder {
    /// The file's order: maps read into `Vec<(K, V)>`, compared with the
    /// expected values as they are.
    File,
    /// By key: maps read into `HashMap` or `BTreeMap` (whose [`ToJson`] lists
    /// the entries by key), compared with the expected values after
    /// [`sort_maps`].
    ByKey,
}

/// Checks beyond the expected values of the listed columns.
#[derive(Debug, Clone, Copy)]
struct Extra {
    /// Which columns must be listed.
    columns: Columns,
    /// Pairs of columns that must hold the same values (a BYTE_STREAM_SPLIT
    /// column and its PLAIN twin).
    twins: &'static [(&'static str, &'static str)],
    /// Upstream's own expected values: a CSV file of the corpus, one column per
    /// Parquet column (names compared without surrounding spaces and a
    /// trailing `:`), an unquoted empty cell for a null.
    csv: Option<&'static str>,
    /// The order of the entries of decoded maps.
    maps: MapOrder,
}

/// The default: every column compared, nothing more.
const NO_EXTRA: Extra = Extra {
    columns: Columns::Every,
    twins: &[],
    csv: None,
    maps: MapOrder::File,
};

/// A test that reads some columns into other field types.
const SUBSET: Extra = Extra {
    columns: Columns::Subset,
    ..NO_EXTRA
};

/// A test that reads some columns, maps into `HashMap` or `BTreeMap`.
const MAPS_BY_KEY: Extra = Extra {
    maps: MapOrder::ByKey,
    ..SUBSET
};

/// Decoded columns, in the order of `columns`.
type Decoded = Result<Vec<Vec<Value>>, Error>;

/// Checks decoded columns (all row groups at once, then streamed) against the
/// expected file, and what `extra` asks for.
fn verify(
    file: &str,
    parquet: &ParquetFile,
    columns: &[&str],
    (decoded, streamed): (Decoded, Decoded),
    mode: Mode,
    extra: Extra,
) {
    let path = corpus_path(file).expect("checked by the caller");
    let expected = expected_json(&path);
    if let Columns::Every = extra.columns {
        let all = expected["columns"].as_object().expect("columns");
        for name in all.keys() {
            assert!(
                columns.contains(&name.as_str()),
                "{file}: column `{name}` is not compared"
            );
        }
    }
    let decoded = match (decoded, mode) {
        (Ok(decoded), _) => decoded,
        (Err(e), Mode::CorruptCrc) => {
            let message = e.to_string().to_lowercase();
            assert!(
                message.contains("crc") || message.contains("checksum"),
                "{file}: the only acceptable error is a checksum mismatch, got: {e}"
            );
            println!("{file}: checksum error, as allowed: {e}");
            return;
        }
        (Err(e), Mode::MatchOrError) => {
            println!("{file}: error, as allowed: {e}");
            return;
        }
        (Err(e), Mode::Exact) => panic!("{file}: decoding failed: {e}\n{e:?}"),
    };
    let num_rows = expected["num_rows"].as_u64().expect("num_rows") as usize;
    assert_eq!(parquet.num_rows(), num_rows, "{file}: num_rows");
    let row_groups = expected["row_groups"].as_u64().expect("row_groups") as usize;
    assert_eq!(parquet.num_row_groups(), row_groups, "{file}: row groups");
    for (name, got) in columns.iter().zip(&decoded) {
        let mut want = expected["columns"][name]
            .as_array()
            .unwrap_or_else(|| panic!("{file}: no expected column `{name}`"))
            .clone();
        if extra.maps == MapOrder::ByKey {
            want.iter_mut().for_each(sort_maps);
        }
        compare(&format!("{file}: column `{name}`"), got, &want);
    }
    for (a, b) in extra.twins {
        let index = |name: &str| {
            columns
                .iter()
                .position(|c| *c == name)
                .unwrap_or_else(|| panic!("{file}: twin column `{name}` is not decoded"))
        };
        compare(
            &format!("{file}: column `{a}` against its twin `{b}`"),
            &decoded[index(a)],
            &decoded[index(b)],
        );
    }
    if let Some(csv) = extra.csv {
        compare_csv(file, csv, columns, &decoded);
    }
    match streamed {
        Ok(streamed) => assert!(
            streamed == decoded,
            "{file}: row_groups() differs from load()"
        ),
        Err(e) => panic!("{file}: streaming failed although load() worked: {e}"),
    }
}

/// Compares decoded values with expected ones; `what` names them in the panic.
fn compare(what: &str, got: &[Value], want: &[Value]) {
    assert_eq!(got.len(), want.len(), "{what}: number of rows");
    let wrong: Vec<usize> = (0..got.len())
        .filter(|&i| !same(&got[i], &want[i]))
        .collect();
    if let Some(&i) = wrong.first() {
        panic!(
            "{what}: {} of {} values differ; first at row {i}: got {}, expected {}\n\
             first difference: row {i}{}",
            wrong.len(),
            got.len(),
            got[i],
            want[i],
            difference(&got[i], &want[i]).unwrap_or_default()
        );
    }
}

/// Splits CSV text into rows of cells: `None` for an unquoted empty cell (a
/// null in upstream's files), quotes removed and `""` unescaped otherwise.
fn parse_csv(text: &str) -> Vec<Vec<Option<String>>> {
    fn finish(cell: &mut String, quoted: &mut bool) -> Option<String> {
        let text = std::mem::take(cell);
        let was_quoted = std::mem::replace(quoted, false);
        (was_quoted || !text.is_empty()).then_some(text)
    }
    let mut rows = Vec::new();
    let mut row = Vec::new();
    let mut cell = String::new();
    let (mut quoted, mut in_quotes) = (false, false);
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if in_quotes {
            match c {
                '"' if chars.peek() == Some(&'"') => {
                    chars.next();
                    cell.push('"');
                }
                '"' => in_quotes = false,
                _ => cell.push(c),
            }
            continue;
        }
        match c {
            '"' => (in_quotes, quoted) = (true, true),
            ',' => row.push(finish(&mut cell, &mut quoted)),
            '\r' => {}
            '\n' => {
                row.push(finish(&mut cell, &mut quoted));
                rows.push(std::mem::take(&mut row));
            }
            _ => cell.push(c),
        }
    }
    if quoted || !cell.is_empty() || !row.is_empty() {
        row.push(finish(&mut cell, &mut quoted));
        rows.push(row);
    }
    rows
}

/// Compares decoded columns with upstream's CSV file `csv` (relative to the corpus).
fn compare_csv(file: &str, csv: &str, columns: &[&str], decoded: &[Vec<Value>]) {
    let path = parquet_rows_suite::corpus_file(csv).expect("the corpus is there");
    let text =
        std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("read {}: {e}", path.display()));
    let mut rows = parse_csv(&text).into_iter();
    let header = rows.next().unwrap_or_else(|| panic!("{csv}: empty"));
    let rows: Vec<Vec<Option<String>>> = rows.collect();
    let mut compared = 0;
    for (i, name) in header.iter().enumerate() {
        let name = name.as_deref().unwrap_or_default().trim();
        let column = columns
            .iter()
            .position(|c| c.trim_end_matches(':') == name)
            .unwrap_or_else(|| panic!("{file}: CSV column `{name}` of {csv} is not decoded"));
        let got = &decoded[column];
        assert_eq!(got.len(), rows.len(), "{file}: rows of {csv}");
        for (row, (value, cells)) in got.iter().zip(&rows).enumerate() {
            let want = cells
                .get(i)
                .unwrap_or_else(|| panic!("{csv}: row {row} is short"));
            let got = match value {
                Value::Null => None,
                Value::String(s) => Some(s.clone()),
                other => Some(other.to_string()),
            };
            assert!(
                got == *want,
                "{file}: column `{name}`, row {row}: decoded {got:?}, {csv} says {want:?}"
            );
            compared += 1;
        }
    }
    println!("{file}: {compared} values also match {csv}");
}

/// The [`Extra`] checks given to `corpus_test!`, or none.
macro_rules! extra {
    () => {
        NO_EXTRA
    };
    ($extra:expr) => {
        $extra
    };
}

/// Defines a test that decodes `$file` into `$row` and compares the listed
/// columns (`"column" => field`, or `"column" => field via converter` for the
/// field types whose expected notation needs a converter, see [`value!`])
/// with the expected file, plus the optional [`Extra`] checks.
macro_rules! corpus_test {
    ($test:ident, $file:literal, $row:ident, $mode:expr,
     { $($column:literal => $field:ident $(via $converter:ident)?),+ $(,)? } $(, $extra:expr)? $(,)?) => {
        #[test]
        fn $test() {
            let Some(path) = corpus_path($file) else { return };
            let parquet = ParquetFile::open(&path)
                .unwrap_or_else(|e| panic!("{}: open: {e}", $file));
            let to_columns = |rows: &[$row]| -> Vec<Vec<Value>> {
                vec![$(rows.iter().map(|r| value!(r.$field $(, $converter)?)).collect()),+]
            };
            let decoded = (|| -> Decoded {
                let pages = parquet.load::<$row>()?;
                let rows: Vec<$row> = pages.rows()?;
                Ok(to_columns(&rows))
            })();
            let streamed = (|| -> Decoded {
                let mut columns: Vec<Vec<Value>> = vec![Vec::new(); [$($column),+].len()];
                for pages in parquet.row_groups::<$row>()? {
                    let pages = pages?;
                    let rows: Vec<$row> = pages.rows()?;
                    for (all, group) in columns.iter_mut().zip(to_columns(&rows)) {
                        all.extend(group);
                    }
                }
                Ok(columns)
            })();
            let extra: Extra = extra!($($extra)?);
            verify($file, &parquet, &[$($column),+], (decoded, streamed), $mode, extra);
        }
    };
}

// ---------------------------------------------------------------------------
// Impala's alltypes files
// ---------------------------------------------------------------------------

/// `alltypes_plain`, `alltypes_plain.snappy`, `alltypes_dictionary` (Impala 1.3).
/// tinyint/smallint are INT32 without annotation, so they read as `i32`; the
/// strings are un-annotated BYTE_ARRAY; `timestamp_col` is INT96, which
/// `Timestamp` reads as nanoseconds (pyarrow's `timestamp[ns]`).
#[derive(ParquetRow)]
struct Impala<'a> {
    id: Option<i32>,
    bool_col: Option<bool>,
    tinyint_col: Option<i32>,
    smallint_col: Option<i32>,
    int_col: Option<i32>,
    bigint_col: Option<i64>,
    float_col: Option<f32>,
    double_col: Option<f64>,
    date_string_col: Option<&'a [u8]>,
    string_col: Option<&'a [u8]>,
    timestamp_col: Option<Timestamp>,
}

macro_rules! impala_test {
    ($test:ident, $file:literal) => {
        corpus_test!($test, $file, Impala, Mode::Exact, {
            "id" => id,
            "bool_col" => bool_col,
            "tinyint_col" => tinyint_col,
            "smallint_col" => smallint_col,
            "int_col" => int_col,
            "bigint_col" => bigint_col,
            "float_col" => float_col,
            "double_col" => double_col,
            "date_string_col" => date_string_col,
            "string_col" => string_col,
            "timestamp_col" => timestamp_col via int96_timestamp,
        });
    };
}

impala_test!(alltypes_plain, "data/alltypes_plain");
impala_test!(alltypes_plain_snappy, "data/alltypes_plain.snappy");
impala_test!(alltypes_dictionary, "data/alltypes_dictionary");

/// The INT96 column in the other field types that read it, and integers and
/// floats widened.
#[derive(ParquetRow)]
struct ImpalaRawInt96 {
    #[parquet(rename = "timestamp_col")]
    raw: Option<Int96>,
    #[parquet(rename = "tinyint_col")]
    tinyint_wide: Option<i64>, // INT32 widened
    #[parquet(rename = "float_col")]
    float_wide: Option<f64>, // FLOAT widened
}
#[derive(ParquetRow)]
struct ImpalaChronoLocal {
    #[parquet(rename = "timestamp_col")]
    local: Option<chrono::NaiveDateTime>,
}
#[derive(ParquetRow)]
struct ImpalaChronoUtc {
    #[parquet(rename = "timestamp_col")]
    utc: Option<chrono::DateTime<chrono::Utc>>,
}
corpus_test!(alltypes_plain_as_int96_and_widened, "data/alltypes_plain", ImpalaRawInt96, Mode::Exact, {
    "timestamp_col" => raw via int96_nanos,
    "tinyint_col" => tinyint_wide,
    "float_col" => float_wide,
}, SUBSET);
corpus_test!(alltypes_plain_as_naive_date_time, "data/alltypes_plain", ImpalaChronoLocal, Mode::Exact, {
    "timestamp_col" => local via naive_nanos,
}, SUBSET);
corpus_test!(alltypes_dictionary_as_date_time_utc, "data/alltypes_dictionary", ImpalaChronoUtc, Mode::Exact, {
    "timestamp_col" => utc via utc_nanos,
}, SUBSET);

/// `alltypes_tiny_pages` (dictionary) and `alltypes_tiny_pages_plain`: hundreds
/// of pages per column.
#[derive(ParquetRow)]
struct TinyPages<'a> {
    id: Option<i32>,
    bool_col: Option<bool>,
    tinyint_col: Option<i8>,   // INT(8, signed)
    smallint_col: Option<i16>, // INT(16, signed)
    int_col: Option<i32>,
    bigint_col: Option<i64>,
    float_col: Option<f32>,
    double_col: Option<f64>,
    date_string_col: Option<&'a str>,
    string_col: Option<&'a str>,
    timestamp_col: Option<Timestamp>,
    year: Option<i32>,
    month: Option<i32>,
}

macro_rules! tiny_pages_test {
    ($test:ident, $file:literal) => {
        corpus_test!($test, $file, TinyPages, Mode::Exact, {
            "id" => id,
            "bool_col" => bool_col,
            "tinyint_col" => tinyint_col,
            "smallint_col" => smallint_col,
            "int_col" => int_col,
            "bigint_col" => bigint_col,
            "float_col" => float_col,
            "double_col" => double_col,
            "date_string_col" => date_string_col,
            "string_col" => string_col,
            "timestamp_col" => timestamp_col via int96_timestamp,
            "year" => year,
            "month" => month,
        });
    };
}

tiny_pages_test!(alltypes_tiny_pages, "data/alltypes_tiny_pages");
tiny_pages_test!(alltypes_tiny_pages_plain, "data/alltypes_tiny_pages_plain");

/// The same columns in owned and widened field types: `Arc<str>` shared per
/// dictionary entry, `String`, raw INT96, INT(8)/INT(16) widened.
#[derive(ParquetRow)]
struct TinyPagesOwned {
    #[parquet(rename = "date_string_col")]
    date_string: Option<Arc<str>>,
    #[parquet(rename = "string_col")]
    string: Option<String>,
    #[parquet(rename = "timestamp_col")]
    timestamp: Option<Int96>,
    #[parquet(rename = "tinyint_col")]
    tinyint: Option<i16>,
    #[parquet(rename = "smallint_col")]
    smallint: Option<i64>,
}
corpus_test!(alltypes_tiny_pages_owned, "data/alltypes_tiny_pages", TinyPagesOwned, Mode::Exact, {
    "date_string_col" => date_string,
    "string_col" => string,
    "timestamp_col" => timestamp via int96_nanos,
    "tinyint_col" => tinyint,
    "smallint_col" => smallint,
}, SUBSET);
corpus_test!(alltypes_tiny_pages_plain_owned, "data/alltypes_tiny_pages_plain", TinyPagesOwned, Mode::Exact, {
    "date_string_col" => date_string,
    "string_col" => string,
    "timestamp_col" => timestamp via int96_nanos,
    "tinyint_col" => tinyint,
    "smallint_col" => smallint,
}, SUBSET);

// ---------------------------------------------------------------------------
// INT96 from Spark
// ---------------------------------------------------------------------------

/// Spark's INT96 timestamps, some beyond the i64-nanosecond range (years 9999
/// and 290000): read raw, converted as Spark does.
#[derive(ParquetRow)]
struct Spark {
    a: Option<Int96>,
}
corpus_test!(int96_from_spark, "data/int96_from_spark", Spark, Mode::Exact, {
    "a" => a via spark_micros,
});

/// `Int96::to_micros` agrees with Spark where its checked arithmetic does not
/// overflow: the last value's Julian day was itself wrapped by Spark, so only
/// wrapping arithmetic gives the documented value.
#[test]
fn int96_from_spark_checked_micros() {
    let Some(path) = corpus_path("data/int96_from_spark") else {
        return;
    };
    let rows: Vec<Spark> = ParquetFile::open(&path)
        .and_then(|f| f.read())
        .expect("int96_from_spark");
    let micros: Vec<Option<Option<i64>>> = rows.iter().map(|r| r.a.map(Int96::to_micros)).collect();
    let expected = expected_json(&path);
    let want: Vec<Option<i64>> = expected["columns"]["a"]
        .as_array()
        .expect("column a")
        .iter()
        .map(Value::as_i64)
        .collect();
    assert_eq!(
        micros,
        vec![
            Some(want[0]),
            Some(want[1]),
            Some(want[2]),
            Some(want[3]),
            None,
            Some(None), // overflows i64 without wrapping
        ]
    );
}

/// A field that offers only i64 nanoseconds (`Timestamp`, chrono) cannot hold
/// the years 9999 and 290000: an error naming the column, not a wrong value.
#[test]
fn int96_from_spark_as_nanoseconds_is_an_error() {
    #[derive(ParquetRow)]
    struct SparkNanos {
        a: Option<Timestamp>,
    }
    let Some(path) = corpus_path("data/int96_from_spark") else {
        return;
    };
    let file = ParquetFile::open(&path).expect("int96_from_spark");
    match file.read::<SparkNanos>() {
        Err(Error::Value { location, message }) => {
            assert_eq!(location.column, "a");
            assert!(message.contains("Int96"), "{message}");
        }
        Err(e) => panic!("int96_from_spark as Timestamp: not a value error: {e}"),
        Ok(rows) => panic!(
            "int96_from_spark as Timestamp: decoded {:?}, although rows 2 and 5 overflow i64 \
             nanoseconds",
            rows.iter().map(|r| r.a).collect::<Vec<_>>()
        ),
    }
}

// ---------------------------------------------------------------------------
// Byte arrays and strings
// ---------------------------------------------------------------------------

#[derive(ParquetRow)]
struct Binary<'a> {
    foo: Option<&'a [u8]>,
}
corpus_test!(binary, "data/binary", Binary, Mode::Exact, { "foo" => foo });

/// The same column as zero-copy `Bytes`.
#[derive(ParquetRow)]
struct BinaryOwned {
    foo: Option<bytes::Bytes>,
}
corpus_test!(binary_as_bytes, "data/binary", BinaryOwned, Mode::Exact, { "foo" => foo });

#[derive(ParquetRow)]
#[allow(clippy::struct_field_names)] // the fields are the file's column names
struct TruncatedMinMax<'a> {
    utf8_full_truncation: &'a str,
    binary_full_truncation: &'a [u8],
    utf8_partial_truncation: Box<str>,
    binary_partial_truncation: Vec<u8>,
    utf8_no_truncation: Arc<str>,
    binary_no_truncation: bytes::Bytes,
}
corpus_test!(binary_truncated_min_max, "data/binary_truncated_min_max", TruncatedMinMax, Mode::Exact, {
    "utf8_full_truncation" => utf8_full_truncation,
    "binary_full_truncation" => binary_full_truncation,
    "utf8_partial_truncation" => utf8_partial_truncation,
    "binary_partial_truncation" => binary_partial_truncation,
    "utf8_no_truncation" => utf8_no_truncation,
    "binary_no_truncation" => binary_no_truncation,
});

/// A column named `String`.
#[derive(ParquetRow)]
struct BloomString<'a> {
    #[parquet(rename = "String")]
    string: Option<&'a str>,
}
corpus_test!(data_index_bloom_encoding_stats, "data/data_index_bloom_encoding_stats", BloomString, Mode::Exact, {
    "String" => string,
});
corpus_test!(data_index_bloom_encoding_with_length, "data/data_index_bloom_encoding_with_length", BloomString, Mode::Exact, {
    "String" => string,
});

/// FIXED_LEN_BYTE_ARRAY(4) with null pages, as a slice and as `[u8; 4]`.
#[derive(ParquetRow)]
struct FixedLen<'a> {
    flba_field: Option<&'a [u8]>,
}
corpus_test!(fixed_length_byte_array, "data/fixed_length_byte_array", FixedLen, Mode::Exact, {
    "flba_field" => flba_field,
});
#[derive(ParquetRow)]
struct FixedArray {
    flba_field: Option<[u8; 4]>,
}
corpus_test!(fixed_length_byte_array_as_array, "data/fixed_length_byte_array", FixedArray, Mode::Exact, {
    "flba_field" => flba_field,
});

/// Column names with spaces. The second column's LogicalType has a union id
/// that no reader knows (pyarrow reads it as binary); `&[u8]` reads any
/// BYTE_ARRAY whatever its annotation.
#[derive(ParquetRow)]
struct UnknownLogicalType<'a> {
    #[parquet(rename = "column with known type")]
    known: Option<&'a str>,
    #[parquet(rename = "column with unknown type")]
    unknown: Option<&'a [u8]>,
}
corpus_test!(unknown_logical_type, "data/unknown-logical-type", UnknownLogicalType, Mode::Exact, {
    "column with known type" => known,
    "column with unknown type" => unknown,
});

// ---------------------------------------------------------------------------
// DELTA encodings (also checked against upstream's CSV files)
// ---------------------------------------------------------------------------

/// DELTA_BINARY_PACKED INT64 with every bit width from 0 to 64, and an INT32.
#[derive(ParquetRow)]
struct DeltaBinaryPacked {
    bitwidth0: Option<i64>,
    bitwidth1: Option<i64>,
    bitwidth2: Option<i64>,
    bitwidth3: Option<i64>,
    bitwidth4: Option<i64>,
    bitwidth5: Option<i64>,
    bitwidth6: Option<i64>,
    bitwidth7: Option<i64>,
    bitwidth8: Option<i64>,
    bitwidth9: Option<i64>,
    bitwidth10: Option<i64>,
    bitwidth11: Option<i64>,
    bitwidth12: Option<i64>,
    bitwidth13: Option<i64>,
    bitwidth14: Option<i64>,
    bitwidth15: Option<i64>,
    bitwidth16: Option<i64>,
    bitwidth17: Option<i64>,
    bitwidth18: Option<i64>,
    bitwidth19: Option<i64>,
    bitwidth20: Option<i64>,
    bitwidth21: Option<i64>,
    bitwidth22: Option<i64>,
    bitwidth23: Option<i64>,
    bitwidth24: Option<i64>,
    bitwidth25: Option<i64>,
    bitwidth26: Option<i64>,
    bitwidth27: Option<i64>,
    bitwidth28: Option<i64>,
    bitwidth29: Option<i64>,
    bitwidth30: Option<i64>,
    bitwidth31: Option<i64>,
    bitwidth32: Option<i64>,
    bitwidth33: Option<i64>,
    bitwidth34: Option<i64>,
    bitwidth35: Option<i64>,
    bitwidth36: Option<i64>,
    bitwidth37: Option<i64>,
    bitwidth38: Option<i64>,
    bitwidth39: Option<i64>,
    bitwidth40: Option<i64>,
    bitwidth41: Option<i64>,
    bitwidth42: Option<i64>,
    bitwidth43: Option<i64>,
    bitwidth44: Option<i64>,
    bitwidth45: Option<i64>,
    bitwidth46: Option<i64>,
    bitwidth47: Option<i64>,
    bitwidth48: Option<i64>,
    bitwidth49: Option<i64>,
    bitwidth50: Option<i64>,
    bitwidth51: Option<i64>,
    bitwidth52: Option<i64>,
    bitwidth53: Option<i64>,
    bitwidth54: Option<i64>,
    bitwidth55: Option<i64>,
    bitwidth56: Option<i64>,
    bitwidth57: Option<i64>,
    bitwidth58: Option<i64>,
    bitwidth59: Option<i64>,
    bitwidth60: Option<i64>,
    bitwidth61: Option<i64>,
    bitwidth62: Option<i64>,
    bitwidth63: Option<i64>,
    bitwidth64: Option<i64>,
    int_value: Option<i32>,
}
corpus_test!(delta_binary_packed, "data/delta_binary_packed", DeltaBinaryPacked, Mode::Exact, {
    "bitwidth0" => bitwidth0,
    "bitwidth1" => bitwidth1,
    "bitwidth2" => bitwidth2,
    "bitwidth3" => bitwidth3,
    "bitwidth4" => bitwidth4,
    "bitwidth5" => bitwidth5,
    "bitwidth6" => bitwidth6,
    "bitwidth7" => bitwidth7,
    "bitwidth8" => bitwidth8,
    "bitwidth9" => bitwidth9,
    "bitwidth10" => bitwidth10,
    "bitwidth11" => bitwidth11,
    "bitwidth12" => bitwidth12,
    "bitwidth13" => bitwidth13,
    "bitwidth14" => bitwidth14,
    "bitwidth15" => bitwidth15,
    "bitwidth16" => bitwidth16,
    "bitwidth17" => bitwidth17,
    "bitwidth18" => bitwidth18,
    "bitwidth19" => bitwidth19,
    "bitwidth20" => bitwidth20,
    "bitwidth21" => bitwidth21,
    "bitwidth22" => bitwidth22,
    "bitwidth23" => bitwidth23,
    "bitwidth24" => bitwidth24,
    "bitwidth25" => bitwidth25,
    "bitwidth26" => bitwidth26,
    "bitwidth27" => bitwidth27,
    "bitwidth28" => bitwidth28,
    "bitwidth29" => bitwidth29,
    "bitwidth30" => bitwidth30,
    "bitwidth31" => bitwidth31,
    "bitwidth32" => bitwidth32,
    "bitwidth33" => bitwidth33,
    "bitwidth34" => bitwidth34,
    "bitwidth35" => bitwidth35,
    "bitwidth36" => bitwidth36,
    "bitwidth37" => bitwidth37,
    "bitwidth38" => bitwidth38,
    "bitwidth39" => bitwidth39,
    "bitwidth40" => bitwidth40,
    "bitwidth41" => bitwidth41,
    "bitwidth42" => bitwidth42,
    "bitwidth43" => bitwidth43,
    "bitwidth44" => bitwidth44,
    "bitwidth45" => bitwidth45,
    "bitwidth46" => bitwidth46,
    "bitwidth47" => bitwidth47,
    "bitwidth48" => bitwidth48,
    "bitwidth49" => bitwidth49,
    "bitwidth50" => bitwidth50,
    "bitwidth51" => bitwidth51,
    "bitwidth52" => bitwidth52,
    "bitwidth53" => bitwidth53,
    "bitwidth54" => bitwidth54,
    "bitwidth55" => bitwidth55,
    "bitwidth56" => bitwidth56,
    "bitwidth57" => bitwidth57,
    "bitwidth58" => bitwidth58,
    "bitwidth59" => bitwidth59,
    "bitwidth60" => bitwidth60,
    "bitwidth61" => bitwidth61,
    "bitwidth62" => bitwidth62,
    "bitwidth63" => bitwidth63,
    "bitwidth64" => bitwidth64,
    "int_value" => int_value,
}, Extra { csv: Some("data/delta_binary_packed_expect.csv"), ..NO_EXTRA });

/// The INT32 column widened to `i64`, the widest INT64 column as `i64` again
/// through a second struct (a different projection of the same pages).
#[derive(ParquetRow)]
struct DeltaBinaryPackedWide {
    #[parquet(rename = "int_value")]
    int_value_wide: Option<i64>,
    bitwidth64: Option<i64>,
}
corpus_test!(delta_binary_packed_widened, "data/delta_binary_packed", DeltaBinaryPackedWide, Mode::Exact, {
    "int_value" => int_value_wide,
    "bitwidth64" => bitwidth64,
}, SUBSET);

/// DELTA_BYTE_ARRAY strings, borrowed from the arena where prefixes are rebuilt.
#[derive(ParquetRow)]
#[allow(clippy::struct_field_names)] // the fields are the file's column names
struct DeltaByteArray<'a> {
    c_customer_id: Option<&'a str>,
    c_salutation: Option<&'a str>,
    c_first_name: Option<&'a str>,
    c_last_name: Option<&'a str>,
    c_preferred_cust_flag: Option<&'a str>,
    c_birth_country: Option<&'a str>,
    c_login: Option<&'a str>,
    c_email_address: Option<&'a str>,
    c_last_review_date: Option<&'a str>,
}
corpus_test!(delta_byte_array, "data/delta_byte_array", DeltaByteArray, Mode::Exact, {
    "c_customer_id" => c_customer_id,
    "c_salutation" => c_salutation,
    "c_first_name" => c_first_name,
    "c_last_name" => c_last_name,
    "c_preferred_cust_flag" => c_preferred_cust_flag,
    "c_birth_country" => c_birth_country,
    "c_login" => c_login,
    "c_email_address" => c_email_address,
    "c_last_review_date" => c_last_review_date,
}, Extra { csv: Some("data/delta_byte_array_expect.csv"), ..NO_EXTRA });

/// Optional INT64 DELTA_BINARY_PACKED and STRING DELTA_BYTE_ARRAY, with nulls.
#[derive(ParquetRow)]
#[allow(clippy::struct_field_names)] // the fields are the file's column names
struct DeltaOptional {
    c_customer_sk: Option<i64>,
    c_current_cdemo_sk: Option<i64>,
    c_current_hdemo_sk: Option<i64>,
    c_current_addr_sk: Option<i64>,
    c_first_shipto_date_sk: Option<i64>,
    c_first_sales_date_sk: Option<i64>,
    c_birth_day: Option<i64>,
    c_birth_month: Option<i64>,
    c_birth_year: Option<i64>,
    c_customer_id: Option<String>,
    c_salutation: Option<String>,
    c_first_name: Option<String>,
    c_last_name: Option<String>,
    c_preferred_cust_flag: Option<String>,
    c_birth_country: Option<String>,
    c_email_address: Option<String>,
    c_last_review_date: Option<String>,
}
corpus_test!(delta_encoding_optional_column, "data/delta_encoding_optional_column", DeltaOptional, Mode::Exact, {
    "c_customer_sk" => c_customer_sk,
    "c_current_cdemo_sk" => c_current_cdemo_sk,
    "c_current_hdemo_sk" => c_current_hdemo_sk,
    "c_current_addr_sk" => c_current_addr_sk,
    "c_first_shipto_date_sk" => c_first_shipto_date_sk,
    "c_first_sales_date_sk" => c_first_sales_date_sk,
    "c_birth_day" => c_birth_day,
    "c_birth_month" => c_birth_month,
    "c_birth_year" => c_birth_year,
    "c_customer_id" => c_customer_id,
    "c_salutation" => c_salutation,
    "c_first_name" => c_first_name,
    "c_last_name" => c_last_name,
    "c_preferred_cust_flag" => c_preferred_cust_flag,
    "c_birth_country" => c_birth_country,
    "c_email_address" => c_email_address,
    "c_last_review_date" => c_last_review_date,
}, Extra { csv: Some("data/delta_encoding_optional_column_expect.csv"), ..NO_EXTRA });

/// Required INT32 DELTA_BINARY_PACKED and STRING DELTA_BYTE_ARRAY; every column
/// name ends with `:`.
#[derive(ParquetRow)]
#[allow(clippy::struct_field_names)] // the fields are the file's column names
struct DeltaRequired {
    #[parquet(rename = "c_customer_sk:")]
    c_customer_sk: i32,
    #[parquet(rename = "c_current_cdemo_sk:")]
    c_current_cdemo_sk: i32,
    #[parquet(rename = "c_current_hdemo_sk:")]
    c_current_hdemo_sk: i32,
    #[parquet(rename = "c_current_addr_sk:")]
    c_current_addr_sk: i32,
    #[parquet(rename = "c_first_shipto_date_sk:")]
    c_first_shipto_date_sk: i32,
    #[parquet(rename = "c_first_sales_date_sk:")]
    c_first_sales_date_sk: i32,
    #[parquet(rename = "c_birth_day:")]
    c_birth_day: i32,
    #[parquet(rename = "c_birth_month:")]
    c_birth_month: i32,
    #[parquet(rename = "c_birth_year:")]
    c_birth_year: i64, // INT32 widened
    #[parquet(rename = "c_customer_id:")]
    c_customer_id: Arc<str>,
    #[parquet(rename = "c_salutation:")]
    c_salutation: Arc<str>,
    #[parquet(rename = "c_first_name:")]
    c_first_name: Arc<str>,
    #[parquet(rename = "c_last_name:")]
    c_last_name: Arc<str>,
    #[parquet(rename = "c_preferred_cust_flag:")]
    c_preferred_cust_flag: Arc<str>,
    #[parquet(rename = "c_birth_country:")]
    c_birth_country: Arc<str>,
    #[parquet(rename = "c_email_address:")]
    c_email_address: Box<str>,
    #[parquet(rename = "c_last_review_date:")]
    c_last_review_date: Box<str>,
}

/// A STRING column read as `bytes::Bytes` (which `ToJson` writes as hex).
fn bytes_as_text(v: Option<&bytes::Bytes>) -> Value {
    v.map_or(Value::Null, |b| {
        Value::from(std::str::from_utf8(b).expect("ASCII"))
    })
}

#[derive(ParquetRow)]
struct DeltaRequiredText {
    #[parquet(rename = "c_last_review_date:")]
    c_last_review_date: Option<bytes::Bytes>, // REQUIRED column, `Option` field
}

corpus_test!(delta_encoding_required_column, "data/delta_encoding_required_column", DeltaRequired, Mode::Exact, {
    "c_customer_sk:" => c_customer_sk,
    "c_current_cdemo_sk:" => c_current_cdemo_sk,
    "c_current_hdemo_sk:" => c_current_hdemo_sk,
    "c_current_addr_sk:" => c_current_addr_sk,
    "c_first_shipto_date_sk:" => c_first_shipto_date_sk,
    "c_first_sales_date_sk:" => c_first_sales_date_sk,
    "c_birth_day:" => c_birth_day,
    "c_birth_month:" => c_birth_month,
    "c_birth_year:" => c_birth_year,
    "c_customer_id:" => c_customer_id,
    "c_salutation:" => c_salutation,
    "c_first_name:" => c_first_name,
    "c_last_name:" => c_last_name,
    "c_preferred_cust_flag:" => c_preferred_cust_flag,
    "c_birth_country:" => c_birth_country,
    "c_email_address:" => c_email_address,
    "c_last_review_date:" => c_last_review_date,
}, Extra { csv: Some("data/delta_encoding_required_column_expect.csv"), ..NO_EXTRA });
corpus_test!(delta_encoding_required_column_as_bytes, "data/delta_encoding_required_column", DeltaRequiredText, Mode::Exact, {
    "c_last_review_date:" => c_last_review_date via bytes_as_text,
}, SUBSET);

/// DELTA_LENGTH_BYTE_ARRAY strings (ZSTD, v2 pages with CRCs).
#[derive(ParquetRow)]
struct DeltaLength {
    #[parquet(rename = "FRUIT")]
    fruit: Option<Box<str>>,
}
corpus_test!(delta_length_byte_array, "data/delta_length_byte_array", DeltaLength, Mode::Exact, {
    "FRUIT" => fruit,
});

// ---------------------------------------------------------------------------
// BYTE_STREAM_SPLIT (each split column also compared with its PLAIN twin)
// ---------------------------------------------------------------------------

/// FLOAT and DOUBLE, ZSTD level 22.
#[derive(ParquetRow)]
struct ByteStreamSplit {
    f32: Option<f32>,
    f64: Option<f64>,
}
corpus_test!(byte_stream_split_zstd, "data/byte_stream_split.zstd", ByteStreamSplit, Mode::Exact, {
    "f32" => f32,
    "f64" => f64,
});

/// The FLOAT column widened to `f64`.
#[derive(ParquetRow)]
struct ByteStreamSplitWide {
    #[parquet(rename = "f32")]
    wide: Option<f64>,
}
corpus_test!(byte_stream_split_zstd_widened, "data/byte_stream_split.zstd", ByteStreamSplitWide, Mode::Exact, {
    "f32" => wide,
}, SUBSET);

/// FLOAT16, FLOAT, DOUBLE, INT32, INT64, FLBA(5) and DECIMAL(FLBA(4)), each
/// PLAIN and BYTE_STREAM_SPLIT.
#[derive(ParquetRow)]
struct ByteStreamSplitExtended<'a> {
    float16_plain: Option<half::f16>,
    float16_byte_stream_split: Option<half::f16>,
    float_plain: Option<f32>,
    float_byte_stream_split: Option<f32>,
    double_plain: Option<f64>,
    double_byte_stream_split: Option<f64>,
    int32_plain: Option<i32>,
    int32_byte_stream_split: Option<i32>,
    int64_plain: Option<i64>,
    int64_byte_stream_split: Option<i64>,
    flba5_plain: Option<&'a [u8]>,
    flba5_byte_stream_split: Option<&'a [u8]>,
    decimal_plain: Option<Decimal>,
    decimal_byte_stream_split: Option<Decimal>,
}

const SPLIT_TWINS: &[(&str, &str)] = &[
    ("float16_byte_stream_split", "float16_plain"),
    ("float_byte_stream_split", "float_plain"),
    ("double_byte_stream_split", "double_plain"),
    ("int32_byte_stream_split", "int32_plain"),
    ("int64_byte_stream_split", "int64_plain"),
    ("flba5_byte_stream_split", "flba5_plain"),
    ("decimal_byte_stream_split", "decimal_plain"),
];

corpus_test!(byte_stream_split_extended_gzip, "data/byte_stream_split_extended.gzip", ByteStreamSplitExtended, Mode::Exact, {
    "float16_plain" => float16_plain,
    "float16_byte_stream_split" => float16_byte_stream_split,
    "float_plain" => float_plain,
    "float_byte_stream_split" => float_byte_stream_split,
    "double_plain" => double_plain,
    "double_byte_stream_split" => double_byte_stream_split,
    "int32_plain" => int32_plain,
    "int32_byte_stream_split" => int32_byte_stream_split,
    "int64_plain" => int64_plain,
    "int64_byte_stream_split" => int64_byte_stream_split,
    "flba5_plain" => flba5_plain,
    "flba5_byte_stream_split" => flba5_byte_stream_split,
    "decimal_plain" => decimal_plain,
    "decimal_byte_stream_split" => decimal_byte_stream_split,
}, Extra { twins: SPLIT_TWINS, ..NO_EXTRA });

/// The same columns in other field types: widened, `[u8; 5]`, `i128`,
/// `rust_decimal::Decimal`, owned strings of bytes.
#[derive(ParquetRow)]
struct ByteStreamSplitOther {
    #[parquet(rename = "float_byte_stream_split")]
    float_wide: Option<f64>,
    #[parquet(rename = "int32_byte_stream_split")]
    int32_wide: Option<i64>,
    #[parquet(rename = "flba5_plain")]
    flba5_plain: Option<[u8; 5]>,
    #[parquet(rename = "flba5_byte_stream_split")]
    flba5_split: Option<[u8; 5]>,
    #[parquet(rename = "decimal_plain")]
    decimal_plain: Option<i128>,
    #[parquet(rename = "decimal_byte_stream_split")]
    decimal_split: Option<i128>,
    #[parquet(rename = "float16_byte_stream_split")]
    float16_raw: Option<Vec<u8>>,
}
#[derive(ParquetRow)]
struct ByteStreamSplitRustDecimal {
    decimal_plain: Option<rust_decimal::Decimal>,
    decimal_byte_stream_split: Option<rust_decimal::Decimal>,
}

/// FLOAT16 bytes (little-endian) as the float they hold.
fn f16_bytes(v: Option<&Vec<u8>>) -> Value {
    v.map_or(Value::Null, |b| {
        let b: [u8; 2] = b.as_slice().try_into().expect("FLBA(2)");
        half::f16::from_le_bytes(b).to_json()
    })
}

corpus_test!(byte_stream_split_extended_gzip_other_types, "data/byte_stream_split_extended.gzip", ByteStreamSplitOther, Mode::Exact, {
    "float_byte_stream_split" => float_wide,
    "int32_byte_stream_split" => int32_wide,
    "flba5_plain" => flba5_plain,
    "flba5_byte_stream_split" => flba5_split,
    "decimal_plain" => decimal_plain via scale_3,
    "decimal_byte_stream_split" => decimal_split via scale_3,
    "float16_byte_stream_split" => float16_raw via f16_bytes,
}, SUBSET);
corpus_test!(byte_stream_split_extended_gzip_rust_decimal, "data/byte_stream_split_extended.gzip", ByteStreamSplitRustDecimal, Mode::Exact, {
    "decimal_plain" => decimal_plain,
    "decimal_byte_stream_split" => decimal_byte_stream_split,
}, SUBSET);

// ---------------------------------------------------------------------------
// Decimals, FLOAT16, RLE booleans
// ---------------------------------------------------------------------------

/// One decimal column `value`, read three ways: `Decimal`, its unscaled `i128`
/// (every file here has scale 2) and `rust_decimal::Decimal`.
#[derive(ParquetRow)]
struct DecimalValue {
    value: Option<Decimal>,
}
#[derive(ParquetRow)]
struct UnscaledValue {
    value: Option<i128>,
}
#[derive(ParquetRow)]
struct RustDecimalValue {
    value: Option<rust_decimal::Decimal>,
}

macro_rules! decimal_tests {
    ($($test:ident, $unscaled:ident, $rust:ident, $file:literal;)+) => {
        $(
            corpus_test!($test, $file, DecimalValue, Mode::Exact, { "value" => value });
            corpus_test!($unscaled, $file, UnscaledValue, Mode::Exact, { "value" => value via scale_2 });
            corpus_test!($rust, $file, RustDecimalValue, Mode::Exact, { "value" => value });
        )+
    };
}

decimal_tests! {
    // DECIMAL(4, 2) on INT32.
    int32_decimal, int32_decimal_unscaled, int32_decimal_rust_decimal, "data/int32_decimal";
    // DECIMAL(10, 2) on INT64.
    int64_decimal, int64_decimal_unscaled, int64_decimal_rust_decimal, "data/int64_decimal";
    // DECIMAL(4, 2) on BYTE_ARRAY (minimal big-endian two's complement).
    byte_array_decimal, byte_array_decimal_unscaled, byte_array_decimal_rust_decimal, "data/byte_array_decimal";
    // DECIMAL(25, 2) on FIXED_LEN_BYTE_ARRAY(11).
    fixed_length_decimal, fixed_length_decimal_unscaled, fixed_length_decimal_rust_decimal, "data/fixed_length_decimal";
    // DECIMAL(13, 2) on FIXED_LEN_BYTE_ARRAY(6), declared by the converted type only.
    fixed_length_decimal_legacy, fixed_length_decimal_legacy_unscaled, fixed_length_decimal_legacy_rust_decimal, "data/fixed_length_decimal_legacy";
}

/// FLOAT16 (FIXED_LEN_BYTE_ARRAY(2)) with NaN, signed zeros and nulls.
#[derive(ParquetRow)]
struct Float16 {
    x: Option<half::f16>,
}
corpus_test!(float16_nonzeros_and_nans, "data/float16_nonzeros_and_nans", Float16, Mode::Exact, { "x" => x });
corpus_test!(float16_zeros_and_nans, "data/float16_zeros_and_nans", Float16, Mode::Exact, { "x" => x });

/// An OPTIONAL BOOLEAN column, RLE-encoded in a v2 page.
#[derive(ParquetRow)]
struct RleBoolean {
    datatype_boolean: Option<bool>,
}
corpus_test!(rle_boolean_encoding, "data/rle_boolean_encoding", RleBoolean, Mode::Exact, {
    "datatype_boolean" => datatype_boolean,
});

// ---------------------------------------------------------------------------
// Page versions, checksums, odd page layouts
// ---------------------------------------------------------------------------

#[derive(ParquetRow)]
struct TwoInts {
    a: i32,
    b: i32,
}
corpus_test!(datapage_v1_uncompressed_checksum, "data/datapage_v1-uncompressed-checksum", TwoInts, Mode::Exact, {
    "a" => a, "b" => b,
});
corpus_test!(datapage_v1_snappy_compressed_checksum, "data/datapage_v1-snappy-compressed-checksum", TwoInts, Mode::Exact, {
    "a" => a, "b" => b,
});
corpus_test!(datapage_v1_corrupt_checksum, "data/datapage_v1-corrupt-checksum", TwoInts, Mode::CorruptCrc, {
    "a" => a, "b" => b,
});

/// parquet-mr's v2 pages: `a` RLE_DICTIONARY strings, `b` DELTA_BINARY_PACKED,
/// `c` RLE_DICTIONARY doubles, `d` RLE booleans, `e` an OPTIONAL list of
/// REQUIRED INT32 (RLE_DICTIONARY, levels of a v2 page) with null lists.
#[derive(ParquetRow)]
struct DataPageV2<'a> {
    a: Option<&'a str>,
    b: i32,
    c: f64,
    d: bool,
    e: Option<Vec<i32>>,
}
corpus_test!(datapage_v2_snappy, "data/datapage_v2.snappy", DataPageV2, Mode::Exact, {
    "a" => a, "b" => b, "c" => c, "d" => d, "e" => e,
});

/// A v2 page whose values section is empty (all null).
#[derive(ParquetRow)]
struct EmptyV2 {
    value: Option<f32>,
}
corpus_test!(datapage_v2_empty_datapage_snappy, "data/datapage_v2_empty_datapage.snappy", EmptyV2, Mode::Exact, {
    "value" => value,
});

/// A v2 page whose values section is a ZSTD frame inflating to 0 bytes.
#[derive(ParquetRow)]
struct EmptyCompressed {
    integer_column: Option<i32>,
}
corpus_test!(page_v2_empty_compressed, "data/page_v2_empty_compressed", EmptyCompressed, Mode::Exact, {
    "integer_column" => integer_column,
});

#[derive(ParquetRow)]
struct LongAndBinary<'a> {
    long_field: i64,
    binary_field: &'a [u8],
}
corpus_test!(plain_dict_uncompressed_checksum, "data/plain-dict-uncompressed-checksum", LongAndBinary, Mode::Exact, {
    "long_field" => long_field, "binary_field" => binary_field,
});
corpus_test!(rle_dict_snappy_checksum, "data/rle-dict-snappy-checksum", LongAndBinary, Mode::Exact, {
    "long_field" => long_field, "binary_field" => binary_field,
});
corpus_test!(rle_dict_uncompressed_corrupt_checksum, "data/rle-dict-uncompressed-corrupt-checksum", LongAndBinary, Mode::CorruptCrc, {
    "long_field" => long_field, "binary_field" => binary_field,
});

/// 0 rows; data_page_offset 0 and only a dictionary page.
#[derive(ParquetRow)]
struct KeyValueMetadata {
    column1: Option<i32>,
    column2: Option<i32>,
}
corpus_test!(column_chunk_key_value_metadata, "data/column_chunk_key_value_metadata", KeyValueMetadata, Mode::Exact, {
    "column1" => column1, "column2" => column2,
});

/// Pages whose values are all null.
#[derive(ParquetRow)]
struct NullPages {
    int32_field: Option<i32>,
}
corpus_test!(int32_with_null_pages, "data/int32_with_null_pages", NullPages, Mode::Exact, {
    "int32_field" => int32_field,
});

/// 40,000 one-value pages in one column chunk.
#[derive(ParquetRow)]
struct ManyPages {
    inc: bool,
}
corpus_test!(overflow_i16_page_cnt, "data/overflow_i16_page_cnt", ManyPages, Mode::Exact, {
    "inc" => inc,
});

/// Two row groups, with nulls.
#[derive(ParquetRow)]
struct SortColumns<'a> {
    a: Option<i64>,
    b: Option<&'a str>,
}
corpus_test!(sort_columns, "data/sort_columns", SortColumns, Mode::Exact, {
    "a" => a, "b" => b,
});

/// TPC-H nation with a malformed dictionary page; pyarrow reads it, an error is
/// also acceptable (CORPUS.md), a panic is not.
#[derive(ParquetRow)]
#[allow(clippy::struct_field_names)] // the fields are the file's column names
struct Nation<'a> {
    nation_key: Option<i32>,
    name: Option<&'a [u8]>,
    region_key: Option<i32>,
    comment_col: Option<&'a [u8]>,
}
corpus_test!(nation_dict_malformed, "data/nation.dict-malformed", Nation, Mode::MatchOrError, {
    "nation_key" => nation_key, "name" => name, "region_key" => region_key, "comment_col" => comment_col,
});

/// RLE dictionary indices with bit width 0 (every index is 0); readable.
#[derive(ParquetRow)]
struct BitWidthZero {
    min_fl: Option<u16>, // INT(16, unsigned)
}
corpus_test!(arrow_gh_43605, "bad_data/ARROW-GH-43605", BitWidthZero, Mode::Exact, {
    "min_fl" => min_fl,
});

// ---------------------------------------------------------------------------
// Codecs
// ---------------------------------------------------------------------------

/// Unsigned 64-bit values in GZIP pages made of several gzip members.
#[derive(ParquetRow)]
struct GzipMembers {
    long_col: Option<u64>, // INT(64, unsigned)
}
corpus_test!(concatenated_gzip_members, "data/concatenated_gzip_members", GzipMembers, Mode::Exact, {
    "long_col" => long_col,
});

#[derive(ParquetRow)]
struct Lz4<'a> {
    c0: i64,
    c1: &'a [u8],
    v11: Option<f64>,
}
corpus_test!(hadoop_lz4_compressed, "data/hadoop_lz4_compressed", Lz4, Mode::Exact, {
    "c0" => c0, "c1" => c1, "v11" => v11,
});
corpus_test!(lz4_raw_compressed, "data/lz4_raw_compressed", Lz4, Mode::Exact, {
    "c0" => c0, "c1" => c1, "v11" => v11,
});

/// Same data, every column OPTIONAL.
#[derive(ParquetRow)]
struct Lz4Optional<'a> {
    c0: Option<i64>,
    c1: Option<&'a [u8]>,
    v11: Option<f64>,
}
corpus_test!(non_hadoop_lz4_compressed, "data/non_hadoop_lz4_compressed", Lz4Optional, Mode::Exact, {
    "c0" => c0, "c1" => c1, "v11" => v11,
});

#[derive(ParquetRow)]
struct Lz4Larger<'a> {
    a: &'a str,
}
corpus_test!(hadoop_lz4_compressed_larger, "data/hadoop_lz4_compressed_larger", Lz4Larger, Mode::Exact, {
    "a" => a,
});
corpus_test!(lz4_raw_compressed_larger, "data/lz4_raw_compressed_larger", Lz4Larger, Mode::Exact, {
    "a" => a,
});

// ---------------------------------------------------------------------------
// Floating point
// ---------------------------------------------------------------------------

/// Despite the name, a NULL.
#[derive(ParquetRow)]
struct SingleNan {
    mycol: Option<f64>,
}
corpus_test!(single_nan, "data/single_nan", SingleNan, Mode::Exact, { "mycol" => mycol });

/// A NaN value (and a NaN max statistic, which a decoder ignores).
#[derive(ParquetRow)]
struct NanInStats {
    x: Option<f64>,
}
corpus_test!(nan_in_stats, "data/nan_in_stats", NanInStats, Mode::Exact, { "x" => x });

/// Five row groups of FLOAT/DOUBLE/FLOAT16 with NaNs and signed zeros.
#[derive(ParquetRow)]
struct FloatingOrders {
    float_ieee754: f32,
    float_typedef: f32,
    double_ieee754: f64,
    double_typedef: f64,
    float16_ieee754: half::f16,
    float16_typedef: half::f16,
}
corpus_test!(floating_orders_nan_count, "data/floating_orders_nan_count", FloatingOrders, Mode::Exact, {
    "float_ieee754" => float_ieee754,
    "float_typedef" => float_typedef,
    "double_ieee754" => double_ieee754,
    "double_typedef" => double_typedef,
    "float16_ieee754" => float16_ieee754,
    "float16_typedef" => float16_typedef,
});

// ---------------------------------------------------------------------------
// Nested: lists
// ---------------------------------------------------------------------------

/// OPTIONAL 3-level lists as parquet-cpp writes them (repeated group `list`,
/// element `item`), with a null list and null elements.
#[derive(ParquetRow)]
struct ListColumns<'a> {
    int64_list: Option<Vec<Option<i64>>>,
    utf8_list: Option<Vec<Option<&'a str>>>,
}
corpus_test!(list_columns, "data/list_columns", ListColumns, Mode::Exact, {
    "int64_list" => int64_list, "utf8_list" => utf8_list,
});

/// The same lists with owned strings (`String`, and `Arc<str>` shared per
/// dictionary entry).
#[derive(ParquetRow)]
struct ListColumnsOwned {
    #[parquet(rename = "utf8_list")]
    strings: Option<Vec<Option<String>>>,
}
#[derive(ParquetRow)]
struct ListColumnsShared {
    #[parquet(rename = "utf8_list")]
    shared: Option<Vec<Option<Arc<str>>>>,
}
corpus_test!(list_columns_as_string, "data/list_columns", ListColumnsOwned, Mode::Exact, {
    "utf8_list" => strings,
}, SUBSET);
corpus_test!(list_columns_as_arc_str, "data/list_columns", ListColumnsShared, Mode::Exact, {
    "utf8_list" => shared,
}, SUBSET);

/// `data/null_list.parquet`: one row whose OPTIONAL list is empty (not null).
/// Its elements are INT32 annotated with the Null logical type (UNKNOWN:
/// always null), which `Option<i32>` reads as `None`s.
#[derive(ParquetRow)]
struct NullList {
    emptylist: Option<Vec<Option<i32>>>,
}
corpus_test!(null_list, "data/null_list", NullList, Mode::Exact, {
    "emptylist" => emptylist,
});

/// list<list<list<string>>> with every level OPTIONAL (repetition levels up
/// to 3, definition levels up to 7), and a flat column beside it.
#[derive(ParquetRow)]
#[allow(clippy::type_complexity)] // the column's shape, spelled out
struct NestedLists<'a> {
    a: Option<Vec<Option<Vec<Option<Vec<Option<&'a str>>>>>>>,
    b: i32,
}
corpus_test!(nested_lists_snappy, "data/nested_lists.snappy", NestedLists, Mode::Exact, {
    "a" => a, "b" => b,
});

/// Legacy 2-level list of lists (parquet-avro's old list structure):
/// `required group a (LIST) { repeated group array (LIST) { repeated int32
/// array; } }`. The repeated group has one field named `array`, so it is the
/// element (a list), whose repeated primitive is in turn its element.
#[derive(ParquetRow)]
struct OldListStructure {
    a: Vec<Vec<i32>>,
}
corpus_test!(old_list_structure, "data/old_list_structure", OldListStructure, Mode::Exact, {
    "a" => a,
});

/// REPEATED primitives without LIST annotation, at the top level and in a
/// REQUIRED group: each is a list of REQUIRED elements (an empty one in row 1).
#[derive(ParquetRow)]
struct RepeatedPrimitiveNoList<'a> {
    #[parquet(rename = "Int32_list")]
    int32_list: Vec<i32>,
    #[parquet(rename = "String_list")]
    string_list: Vec<&'a str>,
    group_of_lists: GroupOfLists,
}
#[derive(ParquetRow)]
struct GroupOfLists {
    #[parquet(rename = "Int32_list_in_group")]
    int32_list_in_group: Vec<i64>, // INT32 widened
    #[parquet(rename = "String_list_in_group")]
    string_list_in_group: Vec<String>,
}
object_to_json!(GroupOfLists {
    "Int32_list_in_group" => int32_list_in_group,
    "String_list_in_group" => string_list_in_group,
});
corpus_test!(repeated_primitive_no_list, "data/repeated_primitive_no_list", RepeatedPrimitiveNoList, Mode::Exact, {
    "Int32_list" => int32_list,
    "String_list" => string_list,
    "group_of_lists" => group_of_lists,
});

/// A repeated group without LIST annotation (`phone`, so a list of structs)
/// inside an OPTIONAL group; the footer's num_rows says 0, the row group
/// holds 6 rows.
#[derive(ParquetRow)]
struct RepeatedNoAnnotation<'a> {
    id: i32,
    #[parquet(rename = "phoneNumbers")]
    phone_numbers: Option<PhoneNumbers<'a>>,
}
#[derive(ParquetRow)]
struct PhoneNumbers<'a> {
    phone: Vec<Phone<'a>>,
}
#[derive(ParquetRow)]
struct Phone<'a> {
    number: i64,
    kind: Option<&'a str>,
}
object_to_json!(PhoneNumbers<'_> { "phone" => phone });
object_to_json!(Phone<'_> { "number" => number, "kind" => kind });
corpus_test!(repeated_no_annotation, "data/repeated_no_annotation", RepeatedNoAnnotation, Mode::Exact, {
    "id" => id, "phoneNumbers" => phone_numbers,
});

// ---------------------------------------------------------------------------
// Nested: structs
// ---------------------------------------------------------------------------

/// An OPTIONAL group whose one child is null in every row (the group is not).
#[derive(ParquetRow)]
struct NullsSnappy {
    b_struct: Option<BStruct>,
}
#[derive(ParquetRow)]
struct BStruct {
    b_c_int: Option<i32>,
}
object_to_json!(BStruct { "b_c_int" => b_c_int });
corpus_test!(nulls_snappy, "data/nulls.snappy", NullsSnappy, Mode::Exact, {
    "b_struct" => b_struct,
});

/// REQUIRED groups of INT64 statistics (`count` is INT(64, unsigned)).
#[derive(ParquetRow)]
struct IntStats {
    min: i64,
    max: i64,
    mean: i64,
    count: u64,
    sum: i64,
    variance: i64,
}
object_to_json!(IntStats {
    "min" => min, "max" => max, "mean" => mean, "count" => count, "sum" => sum,
    "variance" => variance,
});

/// REQUIRED groups of DOUBLE statistics (`count` is INT(64, unsigned)).
#[derive(ParquetRow)]
struct FloatStats {
    min: f64,
    max: f64,
    mean: f64,
    count: u64,
    sum: f64,
    variance: f64,
}
object_to_json!(FloatStats {
    "min" => min, "max" => max, "mean" => mean, "count" => count, "sum" => sum,
    "variance" => variance,
});

/// A group of TIMESTAMP(MICROS, UTC) statistics, read as [`Timestamp`].
#[derive(ParquetRow)]
struct TimestampStats {
    min: Timestamp,
    max: Timestamp,
    mean: Timestamp,
    count: u64,
    sum: Timestamp,
    variance: Timestamp,
}

/// A TIMESTAMP(MICROS, UTC) as its raw microseconds (the expected notation).
fn utc_micros(t: &Timestamp) -> Value {
    assert_eq!(
        (t.unit, t.utc),
        (Unit::Micros, true),
        "TIMESTAMP(MICROS, UTC) read as Timestamp: unit and UTC flag"
    );
    Value::from(t.value)
}

impl ToJson for TimestampStats {
    fn to_json(&self) -> Value {
        serde_json::json!({
            "min": utc_micros(&self.min),
            "max": utc_micros(&self.max),
            "mean": utc_micros(&self.mean),
            "count": self.count,
            "sum": utc_micros(&self.sum),
            "variance": utc_micros(&self.variance),
        })
    }
}

/// 36 REQUIRED groups of statistics (written by parquet-rs), one row. Their
/// names mix cases, hence the renames.
#[derive(ParquetRow)]
struct NestedStructsRust {
    roll_num: IntStats,
    #[parquet(rename = "PC_CUR")]
    pc_cur: IntStats,
    #[parquet(rename = "CVA_2012")]
    cva_2012: IntStats,
    #[parquet(rename = "CVA_2016")]
    cva_2016: IntStats,
    #[parquet(rename = "BIA_3")]
    bia_3: FloatStats,
    #[parquet(rename = "BIA_4")]
    bia_4: FloatStats,
    #[parquet(rename = "ACTUAL_FRONTAGE")]
    actual_frontage: FloatStats,
    #[parquet(rename = "ACTUAL_DEPTH")]
    actual_depth: FloatStats,
    #[parquet(rename = "ACTUAL_LOT_SIZE")]
    actual_lot_size: FloatStats,
    #[parquet(rename = "GLA")]
    gla: FloatStats,
    #[parquet(rename = "SOURCE_GLA")]
    source_gla: FloatStats,
    #[parquet(rename = "IPS_GLA")]
    ips_gla: FloatStats,
    #[parquet(rename = "GLA_ALL")]
    gla_all: FloatStats,
    bia: IntStats,
    #[parquet(rename = "EFFECTIVE_LOT_SIZE")]
    effective_lot_size: FloatStats,
    effective_lot_area: FloatStats,
    #[parquet(rename = "EFFECTIVE_FRONTAGE")]
    effective_frontage: FloatStats,
    #[parquet(rename = "EFFECTIVE_DEPTH")]
    effective_depth: FloatStats,
    rw_area_tot: FloatStats,
    effective_lot_sqft: FloatStats,
    dup: IntStats,
    #[parquet(rename = "nonCTXT")]
    non_ctxt: IntStats,
    vacantland: IntStats,
    parkingbillboard: IntStats,
    cvalte10: IntStats,
    condootherhotel: IntStats,
    calculated_lot_size: FloatStats,
    calculated_efflot_size: FloatStats,
    missingsite: IntStats,
    missinggla: IntStats,
    missingsitegla: IntStats,
    actual_lot_size_sqft: FloatStats,
    lotsize_sqft: FloatStats,
    count: IntStats,
    ul_observation_date: IntStats, // TIMESTAMP(MICROS) as raw i64
    ul_tz_offset_minutes_ul_observation_date: IntStats,
}
corpus_test!(nested_structs_rust, "data/nested_structs.rust", NestedStructsRust, Mode::Exact, {
    "roll_num" => roll_num,
    "PC_CUR" => pc_cur,
    "CVA_2012" => cva_2012,
    "CVA_2016" => cva_2016,
    "BIA_3" => bia_3,
    "BIA_4" => bia_4,
    "ACTUAL_FRONTAGE" => actual_frontage,
    "ACTUAL_DEPTH" => actual_depth,
    "ACTUAL_LOT_SIZE" => actual_lot_size,
    "GLA" => gla,
    "SOURCE_GLA" => source_gla,
    "IPS_GLA" => ips_gla,
    "GLA_ALL" => gla_all,
    "bia" => bia,
    "EFFECTIVE_LOT_SIZE" => effective_lot_size,
    "effective_lot_area" => effective_lot_area,
    "EFFECTIVE_FRONTAGE" => effective_frontage,
    "EFFECTIVE_DEPTH" => effective_depth,
    "rw_area_tot" => rw_area_tot,
    "effective_lot_sqft" => effective_lot_sqft,
    "dup" => dup,
    "nonCTXT" => non_ctxt,
    "vacantland" => vacantland,
    "parkingbillboard" => parkingbillboard,
    "cvalte10" => cvalte10,
    "condootherhotel" => condootherhotel,
    "calculated_lot_size" => calculated_lot_size,
    "calculated_efflot_size" => calculated_efflot_size,
    "missingsite" => missingsite,
    "missinggla" => missinggla,
    "missingsitegla" => missingsitegla,
    "actual_lot_size_sqft" => actual_lot_size_sqft,
    "lotsize_sqft" => lotsize_sqft,
    "count" => count,
    "ul_observation_date" => ul_observation_date,
    "ul_tz_offset_minutes_ul_observation_date" => ul_tz_offset_minutes_ul_observation_date,
});

/// The timestamp group read as [`Timestamp`], and a group bound under a
/// Rust name of its own.
#[derive(ParquetRow)]
struct NestedStructsTimestamps {
    ul_observation_date: TimestampStats,
    #[parquet(rename = "GLA_ALL")]
    all: FloatStats,
}
corpus_test!(nested_structs_rust_as_timestamp, "data/nested_structs.rust", NestedStructsTimestamps, Mode::Exact, {
    "ul_observation_date" => ul_observation_date,
    "GLA_ALL" => all,
}, SUBSET);

// ---------------------------------------------------------------------------
// Nested: maps
// ---------------------------------------------------------------------------

/// A REQUIRED MAP whose values are all null, a MAP whose key_value group has
/// no value field, and a LIST of the same keys. The key-only map is read as
/// a list: its repeated group `key_value` has one field, not named `array`
/// or `my_map_no_v_tuple`, so by the LIST backward-compatibility rules that
/// field is the element (pyarrow also reads it as `list<key: int32>`).
#[derive(ParquetRow)]
#[allow(clippy::struct_field_names)] // the fields are the file's column names
struct MapNoValue {
    my_map: Vec<(i32, Option<i32>)>,
    my_map_no_v: Vec<i32>,
    my_list: Vec<i32>,
}
corpus_test!(map_no_value, "data/map_no_value", MapNoValue, Mode::Exact, {
    "my_map" => my_map, "my_map_no_v" => my_map_no_v, "my_list" => my_list,
});

/// The map with null values as a `HashMap` and a `BTreeMap`.
#[derive(ParquetRow)]
struct MapNoValueHashed {
    #[parquet(rename = "my_map")]
    hashed: HashMap<i32, Option<i32>>,
}
#[derive(ParquetRow)]
struct MapNoValueSorted {
    #[parquet(rename = "my_map")]
    sorted: BTreeMap<i32, Option<i32>>,
}
corpus_test!(map_no_value_as_hash_map, "data/map_no_value", MapNoValueHashed, Mode::Exact, {
    "my_map" => hashed,
}, MAPS_BY_KEY);
corpus_test!(map_no_value_as_btree_map, "data/map_no_value", MapNoValueSorted, Mode::Exact, {
    "my_map" => sorted,
}, MAPS_BY_KEY);

/// The map with null values as a list of structs: its repeated key_value
/// group has two fields, so by the LIST backward-compatibility rules it is
/// the element, a struct whose JSON is the map entry's. (The key-only map
/// cannot be read as a list of `struct { key }`: its one-field group is not
/// the element, the key is.)
#[derive(ParquetRow)]
struct MapNoValueEntries {
    #[parquet(rename = "my_map")]
    entries: Vec<KeyValue>,
}
#[derive(ParquetRow)]
struct KeyValue {
    key: i32,
    value: Option<i32>,
}
object_to_json!(KeyValue { "key" => key, "value" => value });
corpus_test!(map_no_value_as_list_of_structs, "data/map_no_value", MapNoValueEntries, Mode::Exact, {
    "my_map" => entries,
}, SUBSET);

/// map<string, map<int32, bool>>: an OPTIONAL map whose values are OPTIONAL
/// maps (one null, one empty), beside two flat columns.
#[derive(ParquetRow)]
#[allow(clippy::type_complexity)] // the column's shape, spelled out
struct NestedMaps<'a> {
    a: Option<Vec<(&'a str, Option<Vec<(i32, bool)>>)>>,
    b: i32,
    c: f64,
}
corpus_test!(nested_maps_snappy, "data/nested_maps.snappy", NestedMaps, Mode::Exact, {
    "a" => a, "b" => b, "c" => c,
});

/// The same maps as a `HashMap` of `BTreeMap`s.
#[derive(ParquetRow)]
struct NestedMapsHashed {
    a: Option<HashMap<String, Option<BTreeMap<i32, bool>>>>,
}
corpus_test!(nested_maps_snappy_as_hash_maps, "data/nested_maps.snappy", NestedMapsHashed, Mode::Exact, {
    "a" => a,
}, MAPS_BY_KEY);

/// Presto's MAP with an OPTIONAL key (against the spec; pyarrow refuses it,
/// so there is no expected file). Upstream's README gives the content: one
/// row, `my_map = {name: 'report', parent: 'another'}`, values OPTIONAL too.
/// The file holds `parent` first (as the `parquet` crate's record reader
/// also reads it), so `Vec<(K, V)>` is compared in that order and `HashMap`
/// by key.
#[test]
fn incorrect_map_schema() {
    #[derive(ParquetRow)]
    struct IncorrectMapSchema<'a> {
        my_map: Option<Vec<(Option<&'a str>, Option<&'a str>)>>,
    }
    #[derive(ParquetRow)]
    struct IncorrectMapSchemaHashed {
        my_map: Option<HashMap<Option<String>, Option<String>>>,
    }
    let Some(path) = corpus_path("data/incorrect_map_schema") else {
        return;
    };
    let file = "data/incorrect_map_schema";
    let parquet = ParquetFile::open(&path).unwrap_or_else(|e| panic!("{file}: open: {e}"));
    let mut want = vec![serde_json::json!([
        {"key": "parent", "value": "another"},
        {"key": "name", "value": "report"},
    ])];
    assert_eq!(parquet.num_rows(), 1, "{file}: num_rows");

    let pages = parquet
        .load::<IncorrectMapSchema>()
        .unwrap_or_else(|e| panic!("{file}: load: {e}"));
    let rows: Vec<IncorrectMapSchema> =
        pages.rows().unwrap_or_else(|e| panic!("{file}: rows: {e}"));
    let got: Vec<Value> = rows.iter().map(|r| r.my_map.to_json()).collect();
    compare(&format!("{file}: column `my_map`"), &got, &want);

    let mut streamed = Vec::new();
    for pages in parquet
        .row_groups::<IncorrectMapSchema>()
        .unwrap_or_else(|e| panic!("{file}: row_groups: {e}"))
    {
        let pages = pages.unwrap_or_else(|e| panic!("{file}: row group: {e}"));
        let rows: Vec<IncorrectMapSchema> =
            pages.rows().unwrap_or_else(|e| panic!("{file}: rows: {e}"));
        streamed.extend(rows.iter().map(|r| r.my_map.to_json()));
    }
    assert!(streamed == got, "{file}: row_groups() differs from load()");

    let hashed: Vec<Value> = parquet
        .read::<IncorrectMapSchemaHashed>()
        .unwrap_or_else(|e| panic!("{file}: read as HashMap: {e}"))
        .iter()
        .map(|r| r.my_map.to_json())
        .collect();
    want.iter_mut().for_each(sort_maps);
    compare(
        &format!("{file}: column `my_map` as HashMap"),
        &hashed,
        &want,
    );
}

// ---------------------------------------------------------------------------
// Nested: Impala's complex types
// ---------------------------------------------------------------------------

/// Impala's nested schema, every level REQUIRED: lists, lists of lists, maps
/// (legacy: the repeated group is `map`, annotated MAP_KEY_VALUE), a list of
/// maps, and a struct of a list, a struct of a list of lists of structs and a
/// map to structs of structs of lists. The names mix cases.
#[derive(ParquetRow)]
struct NonNullableImpala<'a> {
    #[parquet(rename = "ID")]
    id: i64,
    #[parquet(rename = "Int_Array")]
    int_array: Vec<i32>,
    int_array_array: Vec<Vec<i32>>,
    #[parquet(rename = "Int_Map")]
    int_map: Vec<(&'a str, i32)>,
    int_map_array: Vec<Vec<(&'a str, i32)>>,
    #[parquet(rename = "nested_Struct")]
    nested_struct: NonNullableStruct<'a>,
}
#[derive(ParquetRow)]
struct NonNullableStruct<'a> {
    a: i32,
    #[parquet(rename = "B")]
    b: Vec<i32>,
    c: NonNullableC<'a>,
    #[parquet(rename = "G")]
    g: Vec<(&'a str, NonNullableValue)>,
}
#[derive(ParquetRow)]
struct NonNullableC<'a> {
    #[parquet(rename = "D")]
    d: Vec<Vec<NonNullableEf<'a>>>,
}
#[derive(ParquetRow)]
struct NonNullableEf<'a> {
    e: i32,
    f: &'a str,
}
#[derive(ParquetRow)]
struct NonNullableValue {
    h: NonNullableH,
}
#[derive(ParquetRow)]
struct NonNullableH {
    i: Vec<f64>,
}
object_to_json!(NonNullableStruct<'_> { "a" => a, "B" => b, "c" => c, "G" => g });
object_to_json!(NonNullableC<'_> { "D" => d });
object_to_json!(NonNullableEf<'_> { "e" => e, "f" => f });
object_to_json!(NonNullableValue { "h" => h });
object_to_json!(NonNullableH { "i" => i });
corpus_test!(nonnullable_impala, "data/nonnullable.impala", NonNullableImpala, Mode::Exact, {
    "ID" => id,
    "Int_Array" => int_array,
    "int_array_array" => int_array_array,
    "Int_Map" => int_map,
    "int_map_array" => int_map_array,
    "nested_Struct" => nested_struct,
});

/// The maps of `nonnullable.impala` as `HashMap`s and `BTreeMap`s, with owned
/// strings.
#[derive(ParquetRow)]
struct NonNullableImpalaHashed {
    #[parquet(rename = "Int_Map")]
    int_map: HashMap<String, i32>,
    int_map_array: Vec<BTreeMap<String, i64>>, // INT32 widened
}
corpus_test!(nonnullable_impala_as_maps, "data/nonnullable.impala", NonNullableImpalaHashed, Mode::Exact, {
    "Int_Map" => int_map,
    "int_map_array" => int_map_array,
}, MAPS_BY_KEY);

/// The same schema with every level OPTIONAL (keys excepted) and nulls at
/// every level: null lists, null elements, empty lists, null maps and map
/// values, null structs and struct fields.
#[derive(ParquetRow)]
#[allow(clippy::type_complexity)] // the columns' shapes, spelled out
struct NullableImpala<'a> {
    id: Option<i64>,
    int_array: Option<Vec<Option<i32>>>,
    #[parquet(rename = "int_array_Array")]
    int_array_array: Option<Vec<Option<Vec<Option<i32>>>>>,
    int_map: Option<Vec<(&'a str, Option<i32>)>>,
    #[parquet(rename = "int_Map_Array")]
    int_map_array: Option<Vec<Option<Vec<(&'a str, Option<i32>)>>>>,
    nested_struct: Option<NullableStruct<'a>>,
}
#[derive(ParquetRow)]
struct NullableStruct<'a> {
    #[parquet(rename = "A")]
    a: Option<i32>,
    b: Option<Vec<Option<i32>>>,
    #[parquet(rename = "C")]
    c: Option<NullableC<'a>>,
    g: Option<Vec<(&'a str, Option<NullableValue>)>>,
}
#[derive(ParquetRow)]
struct NullableC<'a> {
    d: Option<Vec<Option<Vec<Option<NullableEf<'a>>>>>>,
}
#[derive(ParquetRow)]
struct NullableEf<'a> {
    #[parquet(rename = "E")]
    e: Option<i32>,
    #[parquet(rename = "F")]
    f: Option<&'a str>,
}
#[derive(ParquetRow)]
struct NullableValue {
    #[parquet(rename = "H")]
    h: Option<NullableH>,
}
#[derive(ParquetRow)]
struct NullableH {
    i: Option<Vec<Option<f64>>>,
}
object_to_json!(NullableStruct<'_> { "A" => a, "b" => b, "C" => c, "g" => g });
object_to_json!(NullableC<'_> { "d" => d });
object_to_json!(NullableEf<'_> { "E" => e, "F" => f });
object_to_json!(NullableValue { "H" => h });
object_to_json!(NullableH { "i" => i });
corpus_test!(nullable_impala, "data/nullable.impala", NullableImpala, Mode::Exact, {
    "id" => id,
    "int_array" => int_array,
    "int_array_Array" => int_array_array,
    "int_map" => int_map,
    "int_Map_Array" => int_map_array,
    "nested_struct" => nested_struct,
});

/// The maps of `nullable.impala` as `HashMap`s and `BTreeMap`s (`int_Map_Array`
/// row 1 lists `k3` before `k1`: file order and key order differ), with owned
/// strings.
#[derive(ParquetRow)]
#[allow(clippy::type_complexity)] // the columns' shapes, spelled out
struct NullableImpalaHashed<'a> {
    int_map: Option<HashMap<String, Option<i32>>>,
    #[parquet(rename = "int_Map_Array")]
    int_map_array: Option<Vec<Option<BTreeMap<Box<str>, Option<i32>>>>>,
    nested_struct: Option<NullableStructSorted<'a>>,
}
#[derive(ParquetRow)]
struct NullableStructSorted<'a> {
    #[parquet(rename = "A")]
    a: Option<i32>,
    b: Option<Vec<Option<i32>>>,
    #[parquet(rename = "C")]
    c: Option<NullableC<'a>>,
    g: Option<BTreeMap<&'a str, Option<NullableValue>>>,
}
object_to_json!(NullableStructSorted<'_> { "A" => a, "b" => b, "C" => c, "g" => g });
corpus_test!(nullable_impala_as_maps, "data/nullable.impala", NullableImpalaHashed, Mode::Exact, {
    "int_map" => int_map,
    "int_Map_Array" => int_map_array,
    "nested_struct" => nested_struct,
}, MAPS_BY_KEY);

// ---------------------------------------------------------------------------
// Only the flat columns of nested files
// ---------------------------------------------------------------------------

/// `b` beside a list<list<list<string>>>, which is not bound.
#[derive(ParquetRow)]
struct NestedListsFlat {
    b: i32,
}
corpus_test!(flat_columns_of_nested_lists, "data/nested_lists.snappy", NestedListsFlat, Mode::Exact, {
    "b" => b,
}, SUBSET);

/// `b`, `c` beside a map<string, map<int32, bool>>, which is not bound.
#[derive(ParquetRow)]
struct NestedMapsFlat {
    b: i32,
    c: f64,
}
corpus_test!(flat_columns_of_nested_maps, "data/nested_maps.snappy", NestedMapsFlat, Mode::Exact, {
    "b" => b, "c" => c,
}, SUBSET);

/// Impala's nested schema, all required: `ID` is the one flat column.
#[derive(ParquetRow)]
struct NonNullableImpalaFlat {
    #[parquet(rename = "ID")]
    id: i64,
}
corpus_test!(flat_columns_of_nonnullable_impala, "data/nonnullable.impala", NonNullableImpalaFlat, Mode::Exact, {
    "ID" => id,
}, SUBSET);

/// The nullable twin: `id` is the one flat column.
#[derive(ParquetRow)]
struct NullableImpalaFlat {
    id: Option<i64>,
}
corpus_test!(flat_columns_of_nullable_impala, "data/nullable.impala", NullableImpalaFlat, Mode::Exact, {
    "id" => id,
}, SUBSET);

/// `id` beside a repeated group, which is not bound.
#[derive(ParquetRow)]
struct RepeatedNoAnnotationFlat {
    id: i32,
}
corpus_test!(flat_columns_of_repeated_no_annotation, "data/repeated_no_annotation", RepeatedNoAnnotationFlat, Mode::Exact, {
    "id" => id,
}, SUBSET);

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
    match ParquetFile::open(&path).and_then(|f| f.read::<DictOffsetZero>()) {
        Err(Error::Parquet(e)) => assert_eq!(e.to_string(), UPSTREAM),
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

// ---------------------------------------------------------------------------
// The checks themselves can fail
// ---------------------------------------------------------------------------

#[test]
fn comparison_is_strict() {
    assert!(same(&1.0f64.to_json(), &serde_json::json!(1)));
    assert!(same(&1.0f64.to_json(), &serde_json::json!(1.0)));
    assert!(!same(&(-0.0f64).to_json(), &serde_json::json!(0.0)));
    assert!(same(
        &(-0.0f32).to_json(),
        &serde_json::from_str::<Value>("-0.0").unwrap()
    ));
    assert!(same(&f64::NAN.to_json(), &serde_json::json!("NaN")));
    assert!(!same(&f64::NAN.to_json(), &serde_json::json!(null)));
    assert!(same(
        &1.1f32.to_json(),
        &serde_json::json!(1.100_000_023_841_858)
    ));
    assert!(!same(&1.1f32.to_json(), &serde_json::json!(1.1)));
    assert!(same(
        &u64::MAX.to_json(),
        &serde_json::from_str::<Value>("18446744073709551615").unwrap()
    ));
    assert!(same(
        &(&b"\x00\xff"[..]).to_json(),
        &serde_json::json!("hex:00ff")
    ));
    assert!(same(&[0u8, 0xff].to_json(), &serde_json::json!("hex:00ff")));
    assert!(!same(&"00ff".to_json(), &serde_json::json!("hex:00ff")));
    assert!(same(&None::<i32>.to_json(), &Value::Null));
    assert!(!same(&Some(0i32).to_json(), &Value::Null));
    assert!(same(
        &half::f16::from_f32(-0.0).to_json(),
        &serde_json::from_str::<Value>("-0.0").unwrap()
    ));
    assert!(same(&half::f16::NAN.to_json(), &serde_json::json!("NaN")));
    let cents = Decimal {
        unscaled: -1230,
        precision: 5,
        scale: 2,
    };
    assert!(same(&cents.to_json(), &serde_json::json!("-12.30")));
    assert!(!same(&cents.to_json(), &serde_json::json!("-12.3")));
    assert!(same(
        &rust_decimal::Decimal::new(100, 2).to_json(),
        &serde_json::json!("1.00")
    ));
    assert!(same(
        &scale_3(Some(&1_003_858)),
        &serde_json::json!("1003.858")
    ));
}

#[test]
fn nested_comparison_is_strict() {
    use serde_json::json;
    // Inside lists and structs too, numbers compare by value and the sign of
    // a zero counts.
    let list = vec![Some(vec![Some(1.0f64), None]), None].to_json();
    assert!(same(&list, &json!([[1, null], null])));
    assert!(!same(&list, &json!([[1, null]])));
    assert!(!same(&list, &json!([[1, null], []])));
    assert!(!same(&vec![-0.0f64].to_json(), &json!([0.0])));
    assert!(same(&Vec::<i32>::new().to_json(), &json!([])));
    assert!(!same(&Vec::<i32>::new().to_json(), &Value::Null));
    // `Vec<u8>` stays a byte array, a list of `u16` is a list.
    assert!(same(&vec![0u8, 0xff].to_json(), &json!("hex:00ff")));
    assert!(same(&vec![0u16, 0xff].to_json(), &json!([0, 255])));
    // Structs: every field, no more, no fewer.
    let phone = Phone {
        number: 5,
        kind: None,
    };
    assert!(same(&phone.to_json(), &json!({"kind": null, "number": 5})));
    assert!(!same(&phone.to_json(), &json!({"number": 5})));
    assert!(!same(
        &phone.to_json(),
        &json!({"number": 5, "kind": null, "extra": 1})
    ));
    // Maps: file order for `Vec<(K, V)>`, key order for the others.
    let pairs = vec![("b", 1), ("a", 2)].to_json();
    let mut want = json!([{"key": "b", "value": 1}, {"key": "a", "value": 2}]);
    assert!(same(&pairs, &want));
    let sorted: BTreeMap<&str, i32> = [("b", 1), ("a", 2)].into_iter().collect();
    let hashed: HashMap<&str, i32> = [("b", 1), ("a", 2)].into_iter().collect();
    assert!(!same(&sorted.to_json(), &want));
    sort_maps(&mut want);
    assert!(same(&sorted.to_json(), &want));
    assert!(same(&hashed.to_json(), &want));
    let mut numbers = json!([[{"key": 10, "value": 0}, {"key": 9, "value": 0}]]);
    sort_maps(&mut numbers);
    assert_eq!(
        numbers,
        json!([[{"key": 9, "value": 0}, {"key": 10, "value": 0}]])
    );
    // Where two values differ.
    assert_eq!(
        difference(
            &json!([{"phone": [{"number": 1, "kind": "home"}]}]),
            &json!([{"phone": [{"number": 1, "kind": null}]}])
        )
        .as_deref(),
        Some("[0].phone[0].kind: got \"home\", expected null")
    );
    assert_eq!(difference(&json!([[1, 2]]), &json!([[1, 2]])), None);
}

#[test]
fn int96_conversions() {
    // 2009-03-01 00:00:00, the first timestamp of alltypes_plain.
    let t = Int96 {
        nanos_of_day: 0,
        julian_day: 2_454_892,
    };
    assert_eq!(
        int96_nanos(Some(&t)),
        Value::from(1_235_865_600_000_000_000_i64)
    );
    assert_eq!(
        spark_micros(Some(&t)),
        Value::from(1_235_865_600_000_000_i64)
    );
    assert_eq!(spark_micros(None), Value::Null);
    let far = Int96 {
        nanos_of_day: 0,
        julian_day: i32::MAX,
    };
    assert!(
        int96_nanos(Some(&far)).is_string(),
        "overflow is not a number"
    );
}

#[test]
fn csv_cells() {
    let rows = parse_csv("\"a\",b,c\n\"x, \"\"y\"\"\",,\"\"\r\n1,2,3");
    assert_eq!(
        rows,
        vec![
            vec![Some("a".into()), Some("b".into()), Some("c".into())],
            vec![Some("x, \"y\"".into()), None, Some(String::new())],
            vec![Some("1".into()), Some("2".into()), Some("3".into())],
        ]
    );
}
