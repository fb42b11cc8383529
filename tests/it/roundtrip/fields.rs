//! Empty files; projection, field order and attributes; integer annotations
//! read into wider fields, temporal and text annotations.

use super::*;

// ---------------------------------------------------------------------------
// Empty files
// ---------------------------------------------------------------------------

#[test]
fn zero_rows() {
    // No row group at all, and one row group with 0 rows.
    let no_groups = write_all_types(base().build(), &[]);
    let no_rows: Range<usize> = 0..0;
    let empty_group = write_all_types(base().build(), std::slice::from_ref(&no_rows));
    for (what, file, groups) in [
        ("no row group", no_groups, 0),
        ("empty row group", empty_group, 1),
    ] {
        let parquet = ParquetFile::from_bytes(file.clone()).expect("open");
        assert_eq!(parquet.num_rows(), 0, "{what}");
        assert_eq!(parquet.num_row_groups(), groups, "{what}");
        let pages = parquet.load::<AllTypes>().expect("load");
        let rows: Vec<AllTypes<'_>> = pages.rows().expect("rows");
        assert!(rows.is_empty(), "{what}");
        let owned: Vec<AllTypesOwned> = parquet.rows().collect().expect("read");
        assert!(owned.is_empty(), "{what}");
        let owned: Vec<AllTypesOwned> = parquet_rows::from_bytes(file).expect("from_bytes");
        assert!(owned.is_empty(), "{what}");
        let mut streamed = 0;
        for group in 0..parquet.num_row_groups() {
            let pages = parquet
                .rows::<AllTypes>()
                .row_groups([group])
                .load()
                .expect("row group");
            streamed += 1;
            assert!(pages.rows::<AllTypes>().expect("rows").is_empty(), "{what}");
        }
        assert_eq!(streamed, groups, "{what}: row groups streamed");
    }
}

// ---------------------------------------------------------------------------
// Projection, field order, attributes
// ---------------------------------------------------------------------------

/// A few columns, in an order unrelated to the file's.
#[derive(ParquetRow, Debug)]
struct Projection<'a> {
    o_str: Option<&'a str>,
    r_u64: u64,
    r_fixed: &'a [u8],
    r_bool: bool,
    o_f64: Option<f64>,
}

#[test]
fn projection_in_any_field_order() {
    #[derive(ParquetRow)]
    struct Subset {
        r_u64: u64,
    }

    let props = tiny_pages(base()).build();
    let file = write_all_types(props, &ROW_GROUPS);
    let parquet = ParquetFile::from_bytes(file).expect("open");
    let pages = parquet.load::<Projection>().expect("load");
    let rows: Vec<Projection<'_>> = pages.rows().expect("rows");
    assert_eq!(rows.len(), ROWS);
    for (i, row) in rows.iter().enumerate() {
        let want = want_optional(i);
        assert_eq!(row.o_str.map(str::to_owned), want.str, "row {i}");
        assert_eq!(row.r_u64, v_u64(i), "row {i}");
        assert_eq!(row.r_fixed, v_fixed(i), "row {i}");
        assert_eq!(row.r_bool, v_bool(i), "row {i}");
        assert_eq!(row.o_f64.map(f64::to_bits), want.f64, "row {i}");
    }
    // Only the projected columns were loaded: a struct reading another column
    // cannot decode these pages.
    let err = pages.rows::<AllTypes>().expect_err("r_i8 was not loaded");
    assert!(
        matches!(&err, Error::Unsupported { location, .. } if location.column == "r_i8"),
        "{err:?}"
    );
    assert!(err.to_string().contains("was not loaded"), "{err}");
    // A struct reading a subset of the loaded columns can.
    let subset: Vec<Subset> = pages.rows().expect("subset of the loaded columns");
    assert!(subset.iter().enumerate().all(|(i, r)| r.r_u64 == v_u64(i)));
}

/// A field reading another column, and fields that are not read.
#[derive(ParquetRow, Debug)]
struct Renamed<'a> {
    #[parquet(rename = "r_str")]
    symbol: &'a str,
    #[parquet(skip)]
    note: String,
    #[parquet(rename = "o_i32")]
    size: Option<i32>,
    #[parquet(skip)]
    seen: Option<u64>,
    r_i64: i64,
}

#[test]
fn rename_and_skip() {
    let file = write_all_types(base().build(), &ROW_GROUPS);
    let parquet = ParquetFile::from_bytes(file).expect("open");
    let pages = parquet.load::<Renamed>().expect("load");
    let rows: Vec<Renamed<'_>> = pages.rows().expect("rows");
    assert_eq!(rows.len(), ROWS);
    for (i, row) in rows.iter().enumerate() {
        assert_eq!(row.symbol, v_str(i), "row {i}");
        assert_eq!(row.size, want_optional(i).i32, "row {i}");
        assert_eq!(row.r_i64, v_i64(i), "row {i}");
        assert_eq!(row.note, "", "skipped fields are Default");
        assert_eq!(row.seen, None, "skipped fields are Default");
    }
}

/// One column per `rename_all` spelling of `bid_price`, each holding its own values.
const CASES_SCHEMA: &str = "message cases {
    REQUIRED INT32 bid_price;
    REQUIRED INT32 BID_PRICE;
    REQUIRED INT32 bidPrice;
    REQUIRED INT32 BidPrice;
    REQUIRED INT32 bid-price;
    REQUIRED INT32 BID-PRICE;
}";

macro_rules! rename_all_structs {
    ($($name:ident = $rule:literal),* $(,)?) => {
        $(
            #[derive(ParquetRow, Debug)]
            #[parquet(rename_all = $rule)]
            struct $name {
                bid_price: i32,
                #[parquet(skip)]
                _unused: (),
            }
        )*
    };
}

rename_all_structs!(
    Lower = "lowercase",
    Upper = "UPPERCASE",
    Pascal = "PascalCase",
    Camel = "camelCase",
    Snake = "snake_case",
    ScreamingSnake = "SCREAMING_SNAKE_CASE",
    Kebab = "kebab-case",
    ScreamingKebab = "SCREAMING-KEBAB-CASE",
);

#[test]
fn rename_all_every_rule() {
    fn read<T: parquet_rows::OwnedRow>(parquet: &ParquetFile, value: fn(&T) -> i32) -> Vec<i32> {
        let rows: Vec<T> = parquet.rows().collect().unwrap_or_else(|e| panic!("{e}"));
        rows.iter().map(value).collect()
    }

    let rows = 10;
    // Column k holds 1000 * k + row.
    let columns: Vec<ColumnValues> = (0..6)
        .map(|k| ColumnValues::Int32((0..rows).map(|i| Some(1000 * k + i)).collect()))
        .collect();
    let file = write_columns(CASES_SCHEMA, base().build(), &[columns]).expect("write");
    let parquet = ParquetFile::from_bytes(file).expect("open");
    // (rule, values read, column index the rule names)
    let cases = [
        ("lowercase", read::<Lower>(&parquet, |r| r.bid_price), 0),
        ("UPPERCASE", read::<Upper>(&parquet, |r| r.bid_price), 1),
        ("PascalCase", read::<Pascal>(&parquet, |r| r.bid_price), 3),
        ("camelCase", read::<Camel>(&parquet, |r| r.bid_price), 2),
        ("snake_case", read::<Snake>(&parquet, |r| r.bid_price), 0),
        (
            "SCREAMING_SNAKE_CASE",
            read::<ScreamingSnake>(&parquet, |r| r.bid_price),
            1,
        ),
        ("kebab-case", read::<Kebab>(&parquet, |r| r.bid_price), 4),
        (
            "SCREAMING-KEBAB-CASE",
            read::<ScreamingKebab>(&parquet, |r| r.bid_price),
            5,
        ),
    ];
    for (rule, got, column) in cases {
        let want: Vec<i32> = (0..rows).map(|i| 1000 * column + i).collect();
        assert_eq!(got, want, "rename_all = {rule:?} reads column {column}");
    }
}

// ---------------------------------------------------------------------------
// Integer annotations read into wider fields, temporal and text annotations
// ---------------------------------------------------------------------------

const WIDENING_SCHEMA: &str = "message widening {
    REQUIRED INT32 i8_as_i16 (INTEGER(8,true));
    REQUIRED INT32 u8_as_i16 (INTEGER(8,false));
    REQUIRED INT32 i8_as_i32 (INTEGER(8,true));
    REQUIRED INT32 u16_as_i32 (INTEGER(16,false));
    REQUIRED INT32 i32_annotated (INTEGER(32,true));
    REQUIRED INT32 u8_as_u16 (INTEGER(8,false));
    REQUIRED INT32 u16_as_u32 (INTEGER(16,false));
    REQUIRED INT32 legacy_i8 (INT_8);
    REQUIRED INT32 legacy_u16 (UINT_16);
    REQUIRED INT32 date (DATE);
    REQUIRED INT32 time_ms (TIME(MILLIS,true));
    REQUIRED INT64 i64_annotated (INTEGER(64,true));
    REQUIRED INT64 ts_us (TIMESTAMP(MICROS,true));
    REQUIRED INT64 ts_ns (TIMESTAMP(NANOS,false));
    REQUIRED INT64 ts_ms (TIMESTAMP_MILLIS);
    REQUIRED INT64 time_us (TIME(MICROS,false));
    REQUIRED INT64 time_ns (TIME(NANOS,true));
    OPTIONAL BINARY an_enum (ENUM);
    OPTIONAL BINARY json (JSON);
}";

#[derive(ParquetRow, Debug, PartialEq)]
struct Widening<'a> {
    i8_as_i16: i16,
    u8_as_i16: i16,
    i8_as_i32: i32,
    u16_as_i32: i32,
    i32_annotated: i32,
    u8_as_u16: u16,
    u16_as_u32: u32,
    legacy_i8: i8,
    legacy_u16: u16,
    date: i32,
    time_ms: i32,
    i64_annotated: i64,
    ts_us: i64,
    ts_ns: i64,
    ts_ms: i64,
    time_us: i64,
    time_ns: i64,
    an_enum: Option<&'a str>,
    json: Option<String>,
}

#[test]
fn annotated_integers_into_wider_fields_and_text_annotations() {
    let rows: Vec<Widening<'static>> = (0..300usize)
        .map(|i| Widening {
            i8_as_i16: i16::from(v_i8(i)),
            u8_as_i16: i16::from(v_u8(i)),
            i8_as_i32: i32::from(v_i8(i)),
            u16_as_i32: i32::from(v_u16(i)),
            i32_annotated: v_i32(i),
            u8_as_u16: u16::from(v_u8(i)),
            u16_as_u32: u32::from(v_u16(i)),
            legacy_i8: v_i8(i),
            legacy_u16: v_u16(i),
            date: 19_000 + i as i32,
            time_ms: 86_399_999 - i as i32,
            i64_annotated: v_i64(i),
            ts_us: 1_774_000_000_000_000 + i as i64,
            ts_ns: -(i as i64),
            ts_ms: 1_774_000_000_000 + i as i64,
            time_us: 86_399_999_999 - i as i64,
            time_ns: i as i64 * 1_000_000_007,
            an_enum: ["RED", "GREEN", "BLUE"].get(i % 4).copied(),
            json: (i % 5 != 0).then(|| format!("{{\"i\": {i}, \"s\": \"日本\"}}")),
        })
        .collect();
    let i32s =
        |f: fn(&Widening) -> i32| ColumnValues::Int32(rows.iter().map(|r| Some(f(r))).collect());
    let i64s =
        |f: fn(&Widening) -> i64| ColumnValues::Int64(rows.iter().map(|r| Some(f(r))).collect());
    let columns = vec![
        i32s(|r| i32::from(r.i8_as_i16)),
        i32s(|r| i32::from(r.u8_as_i16)),
        i32s(|r| r.i8_as_i32),
        i32s(|r| r.u16_as_i32),
        i32s(|r| r.i32_annotated),
        i32s(|r| i32::from(r.u8_as_u16)),
        i32s(|r| r.u16_as_u32 as i32),
        i32s(|r| i32::from(r.legacy_i8)),
        i32s(|r| i32::from(r.legacy_u16)),
        i32s(|r| r.date),
        i32s(|r| r.time_ms),
        i64s(|r| r.i64_annotated),
        i64s(|r| r.ts_us),
        i64s(|r| r.ts_ns),
        i64s(|r| r.ts_ms),
        i64s(|r| r.time_us),
        i64s(|r| r.time_ns),
        ColumnValues::Bytes(
            rows.iter()
                .map(|r| r.an_enum.map(|s| s.as_bytes().to_vec()))
                .collect(),
        ),
        ColumnValues::Bytes(
            rows.iter()
                .map(|r| r.json.clone().map(String::into_bytes))
                .collect(),
        ),
    ];
    for dictionary in [true, false] {
        let props = base().set_dictionary_enabled(dictionary).build();
        let file =
            write_columns(WIDENING_SCHEMA, props, std::slice::from_ref(&columns)).expect("write");
        let parquet = ParquetFile::from_bytes(file).expect("open");
        let pages = parquet.load::<Widening>().expect("load");
        let got: Vec<Widening<'_>> = pages.rows().expect("rows");
        assert_eq!(got.len(), rows.len());
        for (i, (got, want)) in got.iter().zip(&rows).enumerate() {
            assert_eq!(got, want, "row {i}, dictionary {dictionary}");
        }
    }
}
