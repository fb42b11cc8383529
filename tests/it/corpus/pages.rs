//! Page versions, checksums, odd page layouts, codecs, floating point.

use super::*;

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

/// With `ReadOptions::verify_page_checksums`, the files whose pages carry a
/// correct CRC32 read the same rows as without it, and the two files with a
/// wrong one are an error naming the checksum and the page; without it (the
/// default, as in pyarrow) they read as expected (the tests above).
#[test]
fn page_checksums_are_verified_when_asked() {
    use parquet_rows::ReadOptions;

    let Some(dir) = parquet_rows_suite::parquet_test_data() else {
        println!("skipped: PARQUET_TEST_DATA=skip, checksum files not read");
        return;
    };
    let open = |name: &str, verify: bool| {
        ParquetFile::open(dir.join("data").join(format!("{name}.parquet")))
            .expect("open")
            .with_options(ReadOptions::default().verify_page_checksums(verify))
    };
    for name in [
        "datapage_v1-uncompressed-checksum",
        "datapage_v1-snappy-compressed-checksum",
        "datapage_v1-corrupt-checksum",
    ] {
        let plain = open(name, false).rows::<TwoInts>().collect().expect(name);
        let verified = open(name, true).rows::<TwoInts>().collect();
        if name.contains("corrupt") {
            let Err(err) = verified else {
                panic!("{name}: a wrong checksum is an error")
            };
            let message = err.to_string();
            assert!(
                matches!(err, Error::OutOfSpec { ref location, .. } if location.page.is_some()),
                "{name}: {err:#?}"
            );
            assert!(
                message.contains("checksum does not match"),
                "{name}: {message}"
            );
        } else {
            let verified = verified.expect(name);
            assert_eq!(verified.len(), plain.len(), "{name}");
            assert!(
                verified
                    .iter()
                    .zip(&plain)
                    .all(|(x, y)| (x.a, x.b) == (y.a, y.b)),
                "{name}"
            );
        }
    }
    for name in [
        "plain-dict-uncompressed-checksum",
        "rle-dict-snappy-checksum",
        "rle-dict-uncompressed-corrupt-checksum",
    ] {
        let plain_pages = open(name, false).load::<LongAndBinary>().expect(name);
        let plain = plain_pages.rows::<LongAndBinary>().expect(name);
        let verified = open(name, true).load::<LongAndBinary>();
        if name.contains("corrupt") {
            let Err(err) = verified else {
                panic!("{name}: a wrong checksum is an error")
            };
            // The dictionary page, page 0 of a chunk, is the corrupt one.
            assert!(
                matches!(err, Error::OutOfSpec { ref location, .. } if location.page == Some(0)),
                "{name}: {err:#?}"
            );
            assert!(
                err.to_string().contains("checksum does not match"),
                "{name}: {err}"
            );
        } else {
            let pages = verified.expect(name);
            let rows = pages.rows::<LongAndBinary>().expect(name);
            assert_eq!(rows.len(), plain.len(), "{name}");
            assert!(
                rows.iter()
                    .zip(&plain)
                    .all(|(x, y)| (x.long_field, x.binary_field) == (y.long_field, y.binary_field)),
                "{name}"
            );
        }
    }
}

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

/// TPC-H nation "with a malformed dictionary page": its writer (a bare
/// `parquet-mr`, version 0.0.0 to Arrow C++) left the dictionary page's header
/// out of the chunks' sizes (PARQUET-816). Read with the padding Arrow C++
/// adds for those writers, it decodes to the values pyarrow gives
/// (`docs/writer-quirks.md`).
#[derive(ParquetRow)]
#[allow(clippy::struct_field_names)] // the fields are the file's column names
struct Nation<'a> {
    nation_key: Option<i32>,
    name: Option<&'a [u8]>,
    region_key: Option<i32>,
    comment_col: Option<&'a [u8]>,
}
corpus_test!(nation_dict_malformed, "data/nation.dict-malformed", Nation, Mode::Exact, {
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
