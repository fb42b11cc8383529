//! Impala's alltypes files, INT96 from Spark, byte arrays and strings.

use super::*;

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
        .and_then(|f| f.rows().collect())
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
    match file.rows::<SparkNanos>().collect() {
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
