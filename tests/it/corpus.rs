//! The flat files of the parquet-testing corpus (`../shared/parquet-testing`,
//! or `PARQUET_TEST_DATA`) that use only what parquet-rows supports today,
//! decoded and compared value by value with `<name>.expected.json` (pyarrow's
//! decoding; the format is described in the corpus README.md).
//!
//! Each file gets a struct for the columns we can read. Columns of types or
//! encodings that issue #3 adds are left out of the struct (projection), with
//! a comment saying why. Files left out entirely:
//!
//! - issue #3 (encodings): `delta_binary_packed`, `delta_byte_array`,
//!   `delta_encoding_optional_column`, `delta_encoding_required_column`,
//!   `delta_length_byte_array` (DELTA_*), `byte_stream_split.zstd`,
//!   `byte_stream_split_extended.gzip` (BYTE_STREAM_SPLIT),
//!   `rle_boolean_encoding` (RLE booleans);
//! - issue #3 (types): `int96_from_spark` (INT96), `byte_array_decimal`,
//!   `fixed_length_decimal`, `fixed_length_decimal_legacy`, `int32_decimal`,
//!   `int64_decimal` (decimals: the expected values are decimal strings),
//!   `float16_nonzeros_and_nans`, `float16_zeros_and_nans` (FLOAT16);
//! - nested columns (lists, maps, structs; not supported yet): `list_columns`,
//!   `nested_lists.snappy`, `nested_maps.snappy`, `nested_structs.rust`,
//!   `nonnullable.impala`, `nullable.impala`, `null_list`, `nulls.snappy`,
//!   `old_list_structure`, `repeated_no_annotation`, `repeated_primitive_no_list`,
//!   `map_no_value`, `incorrect_map_schema`, `large_string_map.brotli`.

use std::path::PathBuf;

use parquet_rows::{Error, ParquetFile, ParquetRow};
use serde_json::Value;

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
integer_to_json!(bool, i8, i16, i32, i64, u8, u16, u32, u64);

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

impl ToJson for &str {
    fn to_json(&self) -> Value {
        Value::from(*self)
    }
}

/// Un-annotated BYTE_ARRAY and FIXED_LEN_BYTE_ARRAY: `"hex:<lowercase hex>"`.
impl ToJson for &[u8] {
    fn to_json(&self) -> Value {
        use std::fmt::Write;
        let mut s = String::with_capacity(4 + 2 * self.len());
        s.push_str("hex:");
        for b in *self {
            write!(s, "{b:02x}").expect("write to a String");
        }
        Value::from(s)
    }
}

impl<T: ToJson> ToJson for Option<T> {
    fn to_json(&self) -> Value {
        self.as_ref().map_or(Value::Null, ToJson::to_json)
    }
}

/// Whether a decoded value equals an expected one. Numbers compare by value
/// (so `1.0` and `1` are equal), and the sign of a zero counts.
#[allow(clippy::float_cmp)] // exact equality is the point: the expected files hold exact values
fn same(got: &Value, want: &Value) -> bool {
    match (got, want) {
        (Value::Number(g), Value::Number(w)) if g.is_f64() || w.is_f64() => {
            match (g.as_f64(), w.as_f64()) {
                (Some(g), Some(w)) => g == w && g.is_sign_negative() == w.is_sign_negative(),
                _ => false,
            }
        }
        _ => got == want,
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

fn expected_json(path: &std::path::Path) -> Value {
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

/// Decoded columns, in the order of `columns`.
type Decoded = Result<Vec<Vec<Value>>, Error>;

/// Checks decoded columns (all row groups at once, then streamed) against the
/// expected file.
fn verify(
    file: &str,
    parquet: &ParquetFile,
    columns: &[&str],
    decoded: Decoded,
    streamed: Decoded,
    mode: Mode,
) {
    let path = corpus_path(file).expect("checked by the caller");
    let expected = expected_json(&path);
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
        let want = expected["columns"][name]
            .as_array()
            .unwrap_or_else(|| panic!("{file}: no expected column `{name}`"));
        assert_eq!(got.len(), want.len(), "{file}: rows of column `{name}`");
        let wrong: Vec<usize> = (0..got.len())
            .filter(|&i| !same(&got[i], &want[i]))
            .collect();
        if let Some(&i) = wrong.first() {
            panic!(
                "{file}: column `{name}`: {} of {} values differ; first at row {i}: got {}, expected {}",
                wrong.len(),
                got.len(),
                got[i],
                want[i]
            );
        }
    }
    match streamed {
        Ok(streamed) => assert!(
            streamed == decoded,
            "{file}: row_groups() differs from load()"
        ),
        Err(e) => panic!("{file}: streaming failed although load() worked: {e}"),
    }
}

/// Defines a test that decodes `$file` into `$row` and compares the listed
/// columns (`"column" => field`) with the expected file.
macro_rules! corpus_test {
    ($test:ident, $file:literal, $row:ident, $mode:expr, { $($column:literal => $field:ident),+ $(,)? }) => {
        #[test]
        fn $test() {
            let Some(path) = corpus_path($file) else { return };
            let parquet = ParquetFile::open(&path)
                .unwrap_or_else(|e| panic!("{}: open: {e}", $file));
            let to_columns = |rows: &[$row]| -> Vec<Vec<Value>> {
                vec![$(rows.iter().map(|r| r.$field.to_json()).collect()),+]
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
            verify($file, &parquet, &[$($column),+], decoded, streamed, $mode);
        }
    };
}

// ---------------------------------------------------------------------------
// Impala's alltypes files
// ---------------------------------------------------------------------------

/// `alltypes_plain`, `alltypes_plain.snappy`, `alltypes_dictionary` (Impala 1.3).
/// `timestamp_col` is INT96 (issue #3) and left out. tinyint/smallint are INT32
/// without annotation, so they read as `i32`; the strings are un-annotated BYTE_ARRAY.
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
        });
    };
}

impala_test!(alltypes_plain, "data/alltypes_plain");
impala_test!(alltypes_plain_snappy, "data/alltypes_plain.snappy");
impala_test!(alltypes_dictionary, "data/alltypes_dictionary");

/// `alltypes_tiny_pages` (dictionary) and `alltypes_tiny_pages_plain`: hundreds
/// of pages per column. `timestamp_col` is INT96 (issue #3) and left out.
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
            "year" => year,
            "month" => month,
        });
    };
}

tiny_pages_test!(alltypes_tiny_pages, "data/alltypes_tiny_pages");
tiny_pages_test!(alltypes_tiny_pages_plain, "data/alltypes_tiny_pages_plain");

// ---------------------------------------------------------------------------
// Byte arrays and strings
// ---------------------------------------------------------------------------

#[derive(ParquetRow)]
struct Binary<'a> {
    foo: Option<&'a [u8]>,
}
corpus_test!(binary, "data/binary", Binary, Mode::Exact, { "foo" => foo });

#[derive(ParquetRow)]
#[allow(clippy::struct_field_names)] // the fields are the file's column names
struct TruncatedMinMax<'a> {
    utf8_full_truncation: &'a str,
    binary_full_truncation: &'a [u8],
    utf8_partial_truncation: &'a str,
    binary_partial_truncation: &'a [u8],
    utf8_no_truncation: &'a str,
    binary_no_truncation: &'a [u8],
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

#[derive(ParquetRow)]
struct FixedLen<'a> {
    flba_field: Option<&'a [u8]>, // FIXED_LEN_BYTE_ARRAY(4)
}
corpus_test!(fixed_length_byte_array, "data/fixed_length_byte_array", FixedLen, Mode::Exact, {
    "flba_field" => flba_field,
});

/// Column names with spaces. The second column's logical type is unknown to the
/// writer's reader; `&[u8]` reads any BYTE_ARRAY whatever its annotation.
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

/// `b` is DELTA_BINARY_PACKED and `d` RLE-encoded BOOLEAN (issue #3); `e` is a
/// list (nested). Only `a` and `c` are read.
#[derive(ParquetRow)]
struct DataPageV2<'a> {
    a: Option<&'a str>,
    c: f64,
}
corpus_test!(datapage_v2_snappy, "data/datapage_v2.snappy", DataPageV2, Mode::Exact, {
    "a" => a, "c" => c,
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

/// Dictionary page offset 0 in the footer although there is a dictionary page.
#[derive(ParquetRow)]
struct DictOffsetZero {
    l_partkey: Option<i32>,
}
corpus_test!(dict_page_offset_zero, "data/dict-page-offset-zero", DictOffsetZero, Mode::Exact, {
    "l_partkey" => l_partkey,
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

/// Five row groups of FLOAT/DOUBLE with NaNs and signed zeros. The FLOAT16
/// columns are left out (issue #3).
#[derive(ParquetRow)]
struct FloatingOrders {
    float_ieee754: f32,
    float_typedef: f32,
    double_ieee754: f64,
    double_typedef: f64,
}
corpus_test!(floating_orders_nan_count, "data/floating_orders_nan_count", FloatingOrders, Mode::Exact, {
    "float_ieee754" => float_ieee754,
    "float_typedef" => float_typedef,
    "double_ieee754" => double_ieee754,
    "double_typedef" => double_typedef,
});

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
    assert!(!same(&"00ff".to_json(), &serde_json::json!("hex:00ff")));
    assert!(same(&None::<i32>.to_json(), &Value::Null));
    assert!(!same(&Some(0i32).to_json(), &Value::Null));
}
