//! DELTA encodings, BYTE_STREAM_SPLIT, decimals, FLOAT16, RLE booleans.

use super::*;

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
