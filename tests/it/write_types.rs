//! The writer's annotated field types: `Timestamp`, `Time`, `Decimal`,
//! `i128` and the feature types (chrono, rust_decimal, half, uuid), with
//! the attributes that give their column what the type does not say (unit,
//! UTC flag, precision, scale). Random rows round-trip under every page
//! version and dictionary setting; values a column cannot hold are errors
//! naming the field and row.

use chrono::{DateTime, NaiveDate, NaiveDateTime, NaiveTime, Utc};
use parquet::file::reader::FileReader;
use parquet::file::serialized_reader::SerializedFileReader;
use parquet_rows::half::f16;
use parquet_rows::uuid::Uuid;
use parquet_rows::writer::PageVersion;
use parquet_rows::{Decimal, Error, ParquetRow, Time, Timestamp, Unit, WriteOptions, Writer};
use parquet_rows_suite::rng::{generate, Rng};

#[derive(ParquetRow, Debug, Clone, PartialEq)]
struct Annotated {
    at: Timestamp,
    #[parquet(unit = "nanos", utc = false)]
    local_ns: Timestamp,
    #[parquet(unit = "millis")]
    o_at_ms: Option<Timestamp>,
    #[parquet(unit = "millis")]
    time_ms: Time,
    o_time: Option<Time>,
    #[parquet(precision = 5, scale = 2)]
    price: Decimal,
    #[parquet(precision = 18, scale = 4)]
    o_amount: Option<Decimal>,
    #[parquet(precision = 38, scale = 10)]
    wide: Decimal,
    #[parquet(precision = 30, scale = 0)]
    unscaled: i128,
    instant: DateTime<Utc>,
    #[parquet(unit = "millis")]
    naive_ms: NaiveDateTime,
    o_day: Option<NaiveDate>,
    #[parquet(unit = "nanos")]
    clock: NaiveTime,
    #[parquet(precision = 28, scale = 6)]
    money: rust_decimal::Decimal,
    id: Uuid,
    o_id: Option<Uuid>,
    half: f16,
}

/// A decimal of at most `precision` digits at `scale`, extremes included.
fn decimal(rng: &mut Rng, precision: u32, scale: i8) -> Decimal {
    let most = 10i128.pow(precision) - 1;
    let unscaled = match rng.below(10) {
        0 => most,
        1 => -most,
        2 => 0,
        _ => (i128::from(rng.next_u64()) << 64 | i128::from(rng.next_u64())) % most,
    };
    Decimal {
        unscaled,
        precision: precision as u8,
        scale,
    }
}

fn micros(rng: &mut Rng) -> i64 {
    // Years 1677 to 2262: nanoseconds of it fit an `i64`.
    (rng.next_u64() % 18_000_000_000_000_000) as i64 - 9_000_000_000_000_000
}

fn annotated(rng: &mut Rng, _: usize) -> Annotated {
    let ts = |value, unit, utc| Timestamp { value, unit, utc };
    let epoch = DateTime::UNIX_EPOCH;
    let instant = epoch + chrono::TimeDelta::microseconds(micros(rng));
    let naive = (epoch + chrono::TimeDelta::milliseconds(micros(rng) / 1000)).naive_utc();
    Annotated {
        at: ts(micros(rng), Unit::Micros, true),
        local_ns: ts(micros(rng) * 1000 + 999, Unit::Nanos, false),
        o_at_ms: rng.maybe(70, |r| ts(micros(r) / 1000, Unit::Millis, true)),
        time_ms: Time {
            value: rng.below(86_400_000) as i64,
            unit: Unit::Millis,
        },
        o_time: rng.maybe(70, |r| Time {
            value: r.below(86_400_000) as i64 * 1000 + 7,
            unit: Unit::Micros,
        }),
        price: decimal(rng, 5, 2),
        o_amount: rng.maybe(70, |r| decimal(r, 18, 4)),
        wide: decimal(rng, 38, 10),
        unscaled: decimal(rng, 30, 0).unscaled,
        instant,
        naive_ms: naive,
        o_day: rng.maybe(70, |r| {
            NaiveDate::from_num_days_from_ce_opt(r.below(3_000_000) as i32 + 1).unwrap()
        }),
        clock: NaiveTime::from_num_seconds_from_midnight_opt(
            rng.below(86_400) as u32,
            rng.below(1_000_000_000) as u32,
        )
        .unwrap(),
        money: rust_decimal::Decimal::from_i128_with_scale(decimal(rng, 22, 6).unscaled, 6),
        id: Uuid::from_u128(u128::from(rng.next_u64()) << 64 | u128::from(rng.next_u64())),
        o_id: rng.maybe(50, |r| Uuid::from_u128(u128::from(r.next_u64()))),
        half: f16::from_f32(f32::from(rng.below(4000) as u16) / 8.0 - 250.0),
    }
}

fn write(rows: &[Annotated], options: WriteOptions) -> bytes::Bytes {
    let mut writer = Writer::<Annotated, _>::new(Vec::new(), options).unwrap();
    writer.write(rows).unwrap();
    let (_, bytes) = writer.finish().unwrap();
    bytes::Bytes::from(bytes)
}

/// Random rows of every annotated type read back equal: several seeds, data
/// pages v1 and v2, dictionary on and off, several row groups.
#[test]
fn annotated_types_round_trip() {
    for seed in 0..4 {
        let rows = generate(100 + seed, 1500, annotated);
        for version in [PageVersion::V1, PageVersion::V2] {
            for dictionary in [true, false] {
                let what = format!("seed {seed} {version:?} dictionary {dictionary}");
                let options = WriteOptions::default()
                    .page_version(version)
                    .dictionary(dictionary)
                    .row_group_rows(600)
                    .page_bytes(1024);
                let back: Vec<Annotated> = parquet_rows::from_bytes(write(&rows, options)).unwrap();
                assert_eq!(back.len(), rows.len(), "{what}");
                for (i, (b, r)) in back.iter().zip(&rows).enumerate() {
                    assert_eq!(b, r, "{what}: row {i}");
                }
            }
        }
    }
}

/// The schema says what the attributes asked for.
#[test]
fn the_schema_carries_units_flags_precision_and_scale() {
    let rows = generate(1, 10, annotated);
    let file = write(&rows, WriteOptions::default());
    let reader = SerializedFileReader::new(file).unwrap();
    let schema = reader.metadata().file_metadata().schema_descr();
    let mut text = Vec::new();
    parquet::schema::printer::print_schema(&mut text, schema.root_schema());
    let text = String::from_utf8(text).unwrap();
    for line in [
        "REQUIRED INT64 at (TIMESTAMP(MICROS,true));",
        "REQUIRED INT64 local_ns (TIMESTAMP(NANOS,false));",
        "OPTIONAL INT64 o_at_ms (TIMESTAMP(MILLIS,true));",
        "REQUIRED INT32 time_ms (TIME(MILLIS,false));",
        "OPTIONAL INT64 o_time (TIME(MICROS,false));",
        "REQUIRED INT32 price (DECIMAL(5,2));",
        "OPTIONAL INT64 o_amount (DECIMAL(18,4));",
        "REQUIRED FIXED_LEN_BYTE_ARRAY (16) wide (DECIMAL(38,10));",
        "REQUIRED FIXED_LEN_BYTE_ARRAY (13) unscaled (DECIMAL(30,0));",
        "REQUIRED INT64 instant (TIMESTAMP(MICROS,true));",
        "REQUIRED INT64 naive_ms (TIMESTAMP(MILLIS,false));",
        "OPTIONAL INT32 o_day (DATE);",
        "REQUIRED INT64 clock (TIME(NANOS,false));",
        "REQUIRED FIXED_LEN_BYTE_ARRAY (12) money (DECIMAL(28,6));",
        "REQUIRED FIXED_LEN_BYTE_ARRAY (16) id (UUID);",
        "REQUIRED FIXED_LEN_BYTE_ARRAY (2) half (FLOAT16);",
    ] {
        assert!(text.contains(line), "{line} not in\n{text}");
    }
}

#[derive(ParquetRow, Debug, Clone)]
struct Priced {
    sku: i64,
    #[parquet(precision = 4, scale = 2)]
    price: Decimal,
}

fn price(unscaled: i128, scale: i8) -> Decimal {
    Decimal {
        unscaled,
        precision: 10,
        scale,
    }
}

/// A decimal wider than the column's precision is an error naming the
/// field and the row (counted over the whole file), the writer stops and the
/// file gets no footer.
#[test]
fn a_decimal_over_the_precision_is_an_err_naming_field_and_row() {
    let ok: Vec<Priced> = (0..10)
        .map(|sku| Priced {
            sku,
            price: price(9999, 2),
        })
        .collect();
    let mut writer = Writer::<Priced, _>::new(Vec::new(), WriteOptions::default()).unwrap();
    writer.write(&ok).unwrap();
    let mut bad = ok.clone();
    bad[3].price = price(10_000, 2); // 100.00: five digits
    let err = writer.write(&bad).unwrap_err();
    assert!(matches!(err, Error::Value { .. }), "{err:?}");
    let message = err.to_string();
    for part in [
        "`Priced::price`",
        "row 13",
        "column `price`",
        "precision 4",
        "100.00",
    ] {
        assert!(message.contains(part), "{part}: {message}");
    }
    // Stopped: later calls fail, and there is no complete file to get.
    assert!(writer.write(&ok).is_err());
    assert!(writer.finish().is_err());
}

/// Values are scaled to the column's scale when that is exact; a value with
/// digits the scale cannot hold is an error, never rounded.
#[test]
fn decimals_rescale_exactly_or_fail() {
    let rows = [
        Priced {
            sku: 1,
            price: price(5, 0), // 5 -> 5.00
        },
        Priced {
            sku: 2,
            price: price(12_300, 4), // 1.2300 -> 1.23
        },
    ];
    let (_, bytes) = parquet_rows::to_writer(Vec::new(), &rows).unwrap();
    let back: Vec<Priced> = parquet_rows::from_bytes(bytes::Bytes::from(bytes)).unwrap();
    let found: Vec<String> = back.iter().map(|r| r.price.to_string()).collect();
    assert_eq!(found, ["5.00", "1.23"]);

    let lossy = [Priced {
        sku: 3,
        price: price(12_345, 4), // 1.2345 at scale 2 would round
    }];
    let err = parquet_rows::to_writer(Vec::new(), &lossy)
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("row 0") && err.contains("losing digits"),
        "{err}"
    );
}

#[derive(ParquetRow, Debug)]
struct Stamped {
    #[parquet(unit = "millis")]
    at: Timestamp,
}

/// A timestamp is converted to the column's unit when that is exact; finer
/// digits, or a UTC flag other than the column's, are errors.
#[test]
fn timestamps_convert_exactly_or_fail() {
    let at = |value, unit, utc| Stamped {
        at: Timestamp { value, unit, utc },
    };
    let rows = [at(7, Unit::Millis, true), at(3_000_000, Unit::Nanos, true)];
    let (_, bytes) = parquet_rows::to_writer(Vec::new(), &rows).unwrap();
    let back: Vec<Stamped> = parquet_rows::from_bytes(bytes::Bytes::from(bytes)).unwrap();
    let values: Vec<_> = back.iter().map(|r| (r.at.value, r.at.unit)).collect();
    assert_eq!(values, [(7, Unit::Millis), (3, Unit::Millis)]);

    let finer = [at(1, Unit::Millis, true), at(3_000_001, Unit::Nanos, true)];
    let err = parquet_rows::to_writer(Vec::new(), &finer)
        .unwrap_err()
        .to_string();
    assert!(err.contains("`Stamped::at`, row 1"), "{err}");
    let local = [at(1, Unit::Millis, false)];
    let err = parquet_rows::to_writer(Vec::new(), &local)
        .unwrap_err()
        .to_string();
    assert!(err.contains("local") && err.contains("`utc`"), "{err}");
}

#[derive(ParquetRow)]
struct Undeclared {
    amount: Decimal,
}

/// A decimal field without precision and scale cannot be written: the error
/// comes when the writer is created, naming the field and what to add.
#[test]
fn a_decimal_without_precision_and_scale_is_an_err_at_creation() {
    let err = Writer::<Undeclared, _>::new(Vec::new(), WriteOptions::default()).unwrap_err();
    let message = err.to_string();
    assert!(message.contains("`Undeclared::amount`"), "{message}");
    assert!(
        message.contains("#[parquet(precision = P, scale = S)]"),
        "{message}"
    );
}

#[derive(ParquetRow, Debug, Clone, PartialEq)]
struct Encoded {
    #[parquet(encoding = "delta_binary_packed")]
    ts: i64,
    #[parquet(encoding = "dictionary", bloom_filter)]
    symbol: String,
    #[parquet(encoding = "byte_stream_split")]
    bid: f64,
    #[parquet(encoding = "delta_length_byte_array")]
    note: Option<String>,
    #[parquet(encoding = "delta_byte_array")]
    key: [u8; 4],
    #[parquet(encoding = "plain")]
    size: u32,
}

/// Each field's `encoding` is the one its chunk lists (beside RLE for
/// levels), `bloom_filter` writes one, whatever the options' dictionary
/// setting, and the values read back.
#[test]
fn per_field_encodings_and_bloom_filters() {
    use parquet::basic::Encoding as E;
    let rows: Vec<Encoded> = generate(9, 3000, |rng, i| Encoded {
        ts: 1_700_000_000_000 + i as i64 * 7,
        symbol: format!("S{}", rng.below(8)),
        bid: f64::from(rng.below(10_000) as u32) / 100.0,
        note: rng.maybe(50, Rng::word),
        key: (i as u32).to_be_bytes(),
        size: rng.below(1000) as u32,
    });
    for (version, dictionary) in [(PageVersion::V1, false), (PageVersion::V2, true)] {
        let options = WriteOptions::default()
            .page_version(version)
            .dictionary(dictionary)
            .page_bytes(4096);
        let mut writer = Writer::<Encoded, _>::new(Vec::new(), options).unwrap();
        writer.write(&rows).unwrap();
        let file = bytes::Bytes::from(writer.finish().unwrap().1);
        let back: Vec<Encoded> = parquet_rows::from_bytes(file.clone()).unwrap();
        assert_eq!(back, rows, "{version:?}");
        let reader = SerializedFileReader::new(file).unwrap();
        let group = reader.metadata().row_group(0);
        let found = |i: usize| -> Vec<E> {
            group
                .column(i)
                .encodings()
                .filter(|&e| e != E::RLE)
                .collect()
        };
        assert_eq!(found(0), [E::DELTA_BINARY_PACKED], "{version:?}");
        assert!(found(1).contains(&E::RLE_DICTIONARY) || found(1).contains(&E::PLAIN_DICTIONARY));
        assert_eq!(found(2), [E::BYTE_STREAM_SPLIT], "{version:?}");
        assert_eq!(found(3), [E::DELTA_LENGTH_BYTE_ARRAY], "{version:?}");
        assert_eq!(found(4), [E::DELTA_BYTE_ARRAY], "{version:?}");
        assert_eq!(found(5), [E::PLAIN], "{version:?}");
        assert!(group.column(1).bloom_filter_offset().is_some());
        assert!(group.column(0).bloom_filter_offset().is_none());
    }
}

#[derive(ParquetRow)]
struct Misencoded {
    #[parquet(encoding = "delta_binary_packed")]
    price: f64,
}

/// An encoding the field's column cannot have is an error at creation.
#[test]
fn an_encoding_the_column_cannot_have_is_an_err_at_creation() {
    let err = Writer::<Misencoded, _>::new(Vec::new(), WriteOptions::default()).unwrap_err();
    let message = err.to_string();
    assert!(message.contains("field `price`"), "{message}");
    assert!(message.contains("DELTA_BINARY_PACKED"), "{message}");
}

#[derive(ParquetRow, Debug, Clone)]
struct Logged {
    level: u8,
    message: Option<String>,
}

/// A value longer than `max_value_bytes` (one page readers would refuse)
/// is an error naming the field and row; no file is left complete.
#[test]
fn a_value_over_the_value_limit_is_an_err_naming_field_and_row() {
    let mut rows: Vec<Logged> = (0..8)
        .map(|i| Logged {
            level: i,
            message: Some("x".repeat(100)),
        })
        .collect();
    rows[5].message = Some("y".repeat(101));
    let options = WriteOptions::default().max_value_bytes(100);
    let mut writer = Writer::<Logged, _>::new(Vec::new(), options).unwrap();
    let err = writer.write(&rows).unwrap_err().to_string();
    for part in ["`Logged::message`, row 5", "101 bytes", "max_value_bytes"] {
        assert!(err.contains(part), "{part}: {err}");
    }
    assert!(writer.finish().is_err());
    // The default limit takes them.
    let (_, bytes) = parquet_rows::to_writer(Vec::new(), &rows).unwrap();
    let back: Vec<Logged> = parquet_rows::from_bytes(bytes::Bytes::from(bytes)).unwrap();
    assert_eq!(back[5].message.as_deref().map(str::len), Some(101));
}

#[derive(ParquetRow, Debug, Clone, PartialEq)]
struct Line {
    n: i64,
    text: String, // REQUIRED: its values are pushed in one go
}

/// The same for a REQUIRED column, whose values are pushed a slice at a
/// time rather than row by row: the row is still the one that failed,
/// counted across `write` calls' chunks.
#[test]
fn a_required_value_over_the_value_limit_names_its_row() {
    let mut rows: Vec<Line> = (0..10_000)
        .map(|n| Line {
            n,
            text: "x".repeat(10),
        })
        .collect();
    rows[9_000].text = "y".repeat(101);
    let options = WriteOptions::default().max_value_bytes(100);
    let mut writer = Writer::<Line, _>::new(Vec::new(), options).unwrap();
    let err = writer.write(&rows).unwrap_err().to_string();
    for part in ["`Line::text`, row 9000", "101 bytes"] {
        assert!(err.contains(part), "{part}: {err}");
    }
    assert!(writer.finish().is_err());
}

#[derive(ParquetRow, Debug, Clone, PartialEq)]
struct Compressed {
    #[parquet(compression = "zstd(3)")]
    text: String,
    #[parquet(compression = "uncompressed")]
    raw: i64,
    #[parquet(compression = "gzip")]
    zipped: Option<f64>,
    plain: i32,
}

/// `compression` on a field is its column's codec; the others keep the
/// file's.
#[test]
fn a_fields_compression_attribute_is_its_columns_codec() {
    use parquet::basic::Compression as C;
    let rows = generate(8, 1000, |rng, i| Compressed {
        text: format!("ü{}", rng.below(50)),
        raw: rng.i64(),
        zipped: rng.maybe(20, parquet_rows_suite::rng::Rng::f64),
        plain: i as i32,
    });
    let options = WriteOptions::default().compression(parquet_rows::writer::Compression::Snappy);
    let mut writer = Writer::<Compressed, _>::new(Vec::new(), options).unwrap();
    writer.write(&rows).unwrap();
    let (_, bytes) = writer.finish().unwrap();
    let bytes = bytes::Bytes::from(bytes);
    let reader = SerializedFileReader::new(bytes.clone()).unwrap();
    // The footer names the codec, not its level.
    let codecs: Vec<&str> = reader
        .metadata()
        .row_group(0)
        .columns()
        .iter()
        .map(|c| match c.compression() {
            C::ZSTD(_) => "zstd",
            C::UNCOMPRESSED => "uncompressed",
            C::GZIP(_) => "gzip",
            C::SNAPPY => "snappy",
            _ => "other",
        })
        .collect();
    assert_eq!(codecs, ["zstd", "uncompressed", "gzip", "snappy"]);
    let back: Vec<Compressed> = parquet_rows::from_bytes(bytes).unwrap();
    assert_eq!(back, rows);
}

#[derive(ParquetRow)]
struct TooStrong {
    #[parquet(compression = "zstd(99)")]
    text: String,
}

#[test]
fn a_compression_level_out_of_range_is_an_error_at_creation() {
    let err = Writer::<TooStrong, _>::new(Vec::new(), WriteOptions::default())
        .unwrap_err()
        .to_string();
    assert!(
        err.starts_with(
            "unsupported (file): field `text` (column `text`) asks for compression zstd(99): "
        ),
        "{err}"
    );
}
