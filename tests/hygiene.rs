//! The code `#[derive(ParquetRow)]` generates is hygienic: it compiles in a
//! module without the prelude (`#![no_implicit_prelude]`), with the runtime
//! crate under another name (`#[parquet(crate = "...")]`), and with a declared
//! schema (text and `schema_file`). As zerocopy-derive's `tests/hygiene.rs`.
//! The `schema_file` sample, `tests/data/ticks.parquet`, is checked here to
//! be what the tick writer writes.
//!
//! Cargo links a package once per crate, under one name, so the renamed crate
//! is an `extern crate` alias (an `extern crate` at the crate root joins the
//! extern prelude, so `::parquet_rows_renamed` resolves like a dependency).

extern crate parquet_rows as parquet_rows_renamed;

mod hygienic {
    #![no_implicit_prelude]

    #[derive(::parquet_rows_renamed::ParquetRow)]
    #[parquet(crate = "::parquet_rows_renamed")]
    pub struct Tick<'a> {
        pub ts: i64,
        pub symbol: &'a str,
        pub bid: ::std::option::Option<f64>,
        pub ask: f64,
        #[parquet(skip)]
        pub note: ::std::string::String,
        #[parquet(partition)]
        pub venue: ::std::option::Option<::std::string::String>,
    }

    #[derive(::parquet_rows_renamed::ParquetRow)]
    #[parquet(crate = "::parquet_rows_renamed", rename_all = "snake_case")]
    #[parquet(schema = "message schema {
        REQUIRED INT64 ts (TIMESTAMP_MICROS);
        REQUIRED BINARY symbol (UTF8);
        REQUIRED DOUBLE bid;
        REQUIRED DOUBLE ask;
    }")]
    pub struct Declared {
        pub ts: ::parquet_rows_renamed::Timestamp,
        pub symbol: ::std::sync::Arc<str>,
        #[parquet(rename = "bid")]
        pub best_bid: f64,
    }

    #[derive(::parquet_rows_renamed::ParquetRow)]
    #[parquet(crate = "::parquet_rows_renamed")]
    #[parquet(schema_file = "tests/data/ticks.parquet")]
    pub struct FromFile<'a> {
        pub symbol: &'a [u8],
        pub ask: f64,
    }
}

#[test]
fn generated_code_is_hygienic() {
    let bytes = parquet_rows_renamed::doc_support::tick_file(3).expect("tick file");
    let file = parquet_rows_renamed::ParquetFile::from_bytes(bytes.clone()).expect("open");
    let pages = file.load::<hygienic::Tick<'_>>().expect("load");
    let ticks: Vec<hygienic::Tick<'_>> = pages.rows().expect("rows");
    assert_eq!(ticks.len(), 3);
    assert_eq!(ticks[0].symbol, "EURUSD");
    assert!(ticks[0].bid.is_some() && ticks[0].ask > 1.0 && ticks[0].ts > 0);
    assert!(ticks[0].note.is_empty());
    assert!(ticks[0].venue.is_none(), "no partition values given");

    let declared: Vec<hygienic::Declared> =
        parquet_rows_renamed::from_bytes(bytes).expect("declared schema matches the file");
    assert_eq!(&*declared[2].symbol, "EURUSD");
    assert!(declared[0].best_bid > 1.0 && declared[0].ts.value > 0);
}

#[test]
fn schema_file_struct_reads_its_sample() {
    use parquet_rows_renamed::ParquetRow;

    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/ticks.parquet");
    let file = parquet_rows_renamed::ParquetFile::open(&path).expect("open the sample");
    let pages = file.load::<hygienic::FromFile<'_>>().expect("load");
    let rows: Vec<hygienic::FromFile<'_>> = pages.rows().expect("rows");
    assert_eq!(rows.len(), 8);
    assert_eq!(rows[0].symbol, b"EURUSD");
    assert!(rows[0].ask > 1.0);
    let declared = hygienic::FromFile::DECLARED_SCHEMA.expect("declared");
    assert!(declared.contains("REQUIRED DOUBLE ask;"), "{declared}");
}

/// The sample is what the tick writer writes (its schema is `TICK_SCHEMA`);
/// the derive's compile-fail cases read it too
/// (`derive-tests/tests/compiletest.rs`). Set
/// `PARQUET_ROWS_REGENERATE=1` to write it again.
#[test]
fn ticks_sample_is_the_tick_fixture() {
    use parquet::file::reader::{FileReader, SerializedFileReader};

    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/ticks.parquet");
    if std::env::var_os("PARQUET_ROWS_REGENERATE").is_some() {
        let file = std::fs::File::create(&path).expect("create tests/data/ticks.parquet");
        parquet_rows_suite::write_ticks(file, 8).expect("write tests/data/ticks.parquet");
    }
    let bytes = bytes::Bytes::from(std::fs::read(&path).expect("read tests/data/ticks.parquet"));
    let reader = SerializedFileReader::new(bytes.clone()).expect("a Parquet file");
    let expected = parquet::schema::parser::parse_message_type(parquet_rows_suite::TICK_SCHEMA)
        .expect("TICK_SCHEMA");
    assert_eq!(
        reader.metadata().file_metadata().schema(),
        &expected,
        "tests/data/ticks.parquet no longer has the tick schema; regenerate it"
    );
    let ticks: Vec<parquet_rows_suite::TickOwned> =
        parquet_rows::from_bytes(bytes).expect("decode the sample");
    assert_eq!(ticks.len(), 8);
}
