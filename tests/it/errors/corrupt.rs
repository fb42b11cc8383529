//! Corrupt input: every byte of the column chunks and of the footer
//! corrupted, truncated files, and the corpus's `bad_data` files.

use super::*;

// ---------------------------------------------------------------------------
// Every byte of the column chunks corrupted, and truncated files
// ---------------------------------------------------------------------------

const FUZZ_SCHEMA: &str = "message fuzz {
    REQUIRED INT32 id;
    OPTIONAL BINARY name (UTF8);
    OPTIONAL DOUBLE price;
    REQUIRED BOOLEAN flag;
    OPTIONAL INT64 big (INTEGER(64,false));
    REQUIRED FIXED_LEN_BYTE_ARRAY (2) code;
}";

#[derive(ParquetRow, Debug)]
struct Fuzz<'a> {
    id: i32,
    name: Option<&'a str>,
    price: Option<f64>,
    flag: bool,
    big: Option<u64>,
    code: &'a [u8],
}

/// A small uncompressed file: several pages per column, optional and
/// dictionary-encoded columns (`id`, `name`, `big`), PLAIN ones (`price`, `code`).
fn fuzz_file(version: WriterVersion) -> Bytes {
    let rows = 40;
    let columns = vec![
        ColumnValues::Int32((0..rows).map(|i| Some(i % 7)).collect()),
        ColumnValues::Bytes(
            (0..rows)
                .map(|i| (i % 4 != 1).then(|| format!("n{}é", i % 5).into_bytes()))
                .collect(),
        ),
        ColumnValues::Double(
            (0..rows)
                .map(|i| (i % 3 != 0).then(|| f64::from(i) * 0.5))
                .collect(),
        ),
        ColumnValues::Bool((0..rows).map(|i| Some(i % 2 == 0)).collect()),
        ColumnValues::Int64(
            (0..rows)
                .map(|i| (i % 5 != 0).then(|| -i64::from(i % 3)))
                .collect(),
        ),
        ColumnValues::Bytes((0..rows).map(|i| Some(vec![i as u8, 1])).collect()),
    ];
    let props = WriterProperties::builder()
        .set_writer_version(version)
        .set_encoding(Encoding::PLAIN)
        .set_column_dictionary_enabled("price".into(), false)
        .set_column_dictionary_enabled("code".into(), false)
        .set_write_batch_size(5)
        .set_data_page_row_count_limit(10)
        .build();
    write_columns(FUZZ_SCHEMA, props, &[columns]).expect("write the fuzz file")
}

/// Opens and decodes `bytes`; returns the number of rows.
fn decode_all(bytes: Bytes) -> Result<usize, Error> {
    let file = ParquetFile::from_bytes(bytes)?;
    let pages = file.load::<Fuzz>()?;
    let rows: Vec<Fuzz<'_>> = pages.rows()?;
    Ok(rows.len())
}

/// Outcome counts of a batch of corrupted inputs.
#[derive(Debug, Default)]
struct Outcomes {
    ok: usize,
    err: usize,
    panics: Vec<String>,
}

/// Runs `cases` on a thread named `quiet-<name>`, catching panics; fails if the
/// thread does not finish within a generous limit (a hang), naming the case it
/// was on. `case(i)` returns the input to decode for case `i`, or `None` to stop.
fn run_cases(
    name: &str,
    cases: impl Fn(usize) -> Option<(String, Bytes)> + Send + 'static,
) -> Outcomes {
    quiet_panics_in_quiet_threads();
    let current = Arc::new(AtomicUsize::new(0));
    let progress = Arc::clone(&current);
    let (tx, rx) = mpsc::channel();
    std::thread::Builder::new()
        .name(format!("quiet-{name}"))
        .spawn(move || {
            let mut outcomes = Outcomes::default();
            let mut i = 0;
            while let Some((label, bytes)) = cases(i) {
                progress.store(i, Ordering::Relaxed);
                match catch_unwind(AssertUnwindSafe(|| decode_all(bytes))) {
                    Ok(Ok(_)) => outcomes.ok += 1,
                    Ok(Err(_)) => outcomes.err += 1,
                    Err(payload) => outcomes
                        .panics
                        .push(format!("{label}: {}", panic_message(payload.as_ref()))),
                }
                i += 1;
            }
            tx.send(outcomes).expect("send outcomes");
        })
        .expect("spawn");
    // Not a performance assertion: the cases take well under a second each
    // batch; only a decoder stuck in a loop gets anywhere near this.
    #[allow(clippy::duration_suboptimal_units)]
    // `Duration::from_mins` needs Rust 1.91; the workspace supports 1.85
    let limit = Duration::from_secs(5 * 60);
    match rx.recv_timeout(limit) {
        Ok(outcomes) => outcomes,
        Err(mpsc::RecvTimeoutError::Timeout | mpsc::RecvTimeoutError::Disconnected) => panic!(
            "{name}: no result after 5 minutes (or the thread died): decoding hangs on case {}",
            current.load(Ordering::Relaxed)
        ),
    }
}

/// Decodes `bytes` with each byte at `offsets` replaced in turn by 0x00, 0xff
/// and itself ^ 0x55 (three cases per offset), catching panics and hangs.
fn corrupt_each(name: &str, bytes: &Bytes, offsets: Vec<usize>) -> Outcomes {
    let source = bytes.clone();
    let cases = move |i: usize| {
        let (offset, how) = (*offsets.get(i / 3)?, i % 3);
        let mut corrupt = source.to_vec();
        let before = corrupt[offset];
        corrupt[offset] = match how {
            0 => 0x00,
            1 => 0xff,
            _ => before ^ 0x55,
        };
        let label = format!("byte {offset} ({before:#04x}) -> {:#04x}", corrupt[offset]);
        Some((label, Bytes::from(corrupt)))
    };
    run_cases(name, cases)
}

/// The byte ranges of every column chunk, from the column chunk metadata.
fn chunk_ranges(bytes: &Bytes) -> Vec<std::ops::Range<usize>> {
    let metadata = file_metadata(bytes);
    let mut ranges: Vec<std::ops::Range<usize>> = metadata
        .row_groups()
        .iter()
        .flat_map(parquet::file::metadata::RowGroupMetaData::columns)
        .map(|c| {
            let (start, len) = c.byte_range();
            start as usize..(start + len) as usize
        })
        .collect();
    ranges.sort_by_key(|r| r.start);
    ranges
}

/// Replaces every byte of every column chunk (located through the column chunk
/// metadata, not the footer's position) with 0x00, 0xff and itself ^ 0x55, and
/// decodes each result: `Ok` or `Err` are both fine (there are no page CRCs, so
/// a changed value can decode), a panic or a hang is not.
fn corrupt_every_byte(version: WriterVersion) {
    let bytes = fuzz_file(version);
    assert_eq!(
        decode_all(bytes.clone()).expect("the clean file decodes"),
        40
    );
    // The dictionaries and the pages really are there.
    let pages = &all_pages(&bytes)[0];
    for c in [0, 1, 4] {
        assert!(pages[c]
            .iter()
            .any(|p| matches!(p, Page::DictionaryPage { .. })));
    }
    assert!(pages
        .iter()
        .all(|c| c.iter().filter(|p| p.is_data_page()).count() >= 4));
    let offsets: Vec<usize> = chunk_ranges(&bytes).into_iter().flatten().collect();
    let n = offsets.len();
    let outcomes = corrupt_each(&format!("{version:?}"), &bytes, offsets);
    println!(
        "{version:?}: {n} bytes x 3 corruptions: {} ok, {} err, {} panics",
        outcomes.ok,
        outcomes.err,
        outcomes.panics.len()
    );
    assert!(
        outcomes.panics.is_empty(),
        "{version:?}: {} corruptions panicked instead of returning Err, e.g.:\n{}",
        outcomes.panics.len(),
        outcomes.panics[..outcomes.panics.len().min(10)].join("\n")
    );
    assert_eq!(outcomes.ok + outcomes.err, 3 * n);
    // The corruptions reach the decoder: many of them are errors.
    assert!(
        outcomes.err > n / 2,
        "{version:?}: only {} errors",
        outcomes.err
    );
}

#[test]
fn every_corrupted_byte_of_v1_pages_is_ok_or_err() {
    corrupt_every_byte(WriterVersion::PARQUET_1_0);
}

#[test]
fn every_corrupted_byte_of_v2_pages_is_ok_or_err() {
    corrupt_every_byte(WriterVersion::PARQUET_2_0);
}

#[test]
fn truncated_files_are_errors() {
    let bytes = fuzz_file(WriterVersion::PARQUET_1_0);
    let len = bytes.len();
    // Every prefix: the footer is gone or cut.
    let source = bytes.clone();
    let prefixes = run_cases("prefix", move |i| {
        (i < len).then(|| (format!("first {i} bytes"), source.slice(..i)))
    });
    assert!(
        prefixes.panics.is_empty(),
        "{:?}",
        &prefixes.panics[..prefixes.panics.len().min(10)]
    );
    assert_eq!(prefixes.ok, 0, "a truncated file decoded");
    assert_eq!(prefixes.err, len);

    // Column data cut short, footer kept: its offsets point past the data.
    let footer_len =
        u32::from_le_bytes(bytes[len - 8..len - 4].try_into().expect("4 bytes")) as usize;
    let footer_start = len - 8 - footer_len;
    let data_end = chunk_ranges(&bytes).last().expect("chunks").end;
    assert!(data_end <= footer_start);
    let source = bytes.clone();
    let cut = run_cases("cut", move |i| {
        let keep = 4 + i; // after the leading magic
        (keep < data_end).then(|| {
            let mut corrupt = source.slice(..keep).to_vec();
            corrupt.extend_from_slice(&source[footer_start..]);
            (format!("data cut at {keep}"), Bytes::from(corrupt))
        })
    });
    assert!(
        cut.panics.is_empty(),
        "{:?}",
        &cut.panics[..cut.panics.len().min(10)]
    );
    // Footer bytes read in place of the missing data can pass for PLAIN values
    // (there are no CRCs), so some cuts decode; most cannot.
    println!("data cut short: {} ok, {} err", cut.ok, cut.err);
    assert!(cut.err > cut.ok, "{cut:?}");
}

// ---------------------------------------------------------------------------
// The corpus's bad_data files
// ---------------------------------------------------------------------------

/// The flat columns of the ARROW-GH-41317/41321 files (arrow's all-types test
/// file) that parquet-rows reads; decimals, the INT32 `null` column (Null
/// logical type) and nested columns are left out.
#[derive(ParquetRow, Debug)]
struct ArrowTypes<'a> {
    boolean: Option<bool>,
    uint8: Option<u8>,
    int8: Option<i8>,
    uint16: Option<u16>,
    int16: Option<i16>,
    uint32: Option<i64>, // un-annotated INT64
    int32: Option<i32>,
    uint64: Option<u64>,
    int64: Option<i64>,
    float32: Option<f32>,
    float64: Option<f64>,
    string: Option<&'a str>,
    large_string: Option<&'a str>,
    timestamp_ms_gmt: Option<i64>,
    timestamp_ms_gmt_plus_2: Option<i64>,
    timestamp_ms_gmt_minus_0215: Option<i64>,
    timestamp_s_no_tz: Option<i64>,
    timestamp_us_no_tz: Option<i64>,
    timestamp_ns_no_tz: Option<i64>,
    time32_s: Option<i32>,
    time32_ms: Option<i32>,
    time64_us: Option<i64>,
    time64_ns: Option<i64>,
    date32: Option<i32>,
    date64: Option<i32>,
    binary: Option<&'a [u8]>,
    large_binary: Option<&'a [u8]>,
    fixed_size_binary: Option<&'a [u8]>,
    dict: Option<&'a str>,
    geometry: Option<&'a [u8]>,
}

/// Nation columns (ARROW-RS-GH-6229-DICTHEADER).
#[derive(ParquetRow, Debug)]
#[allow(clippy::struct_field_names)] // the fields are the file's column names
struct Nation<'a> {
    nation_key: Option<i32>,
    name: Option<&'a [u8]>,
    region_key: Option<i32>,
    comment_col: Option<&'a [u8]>,
}

/// ARROW-GH-47662: a corrupt copy of data/fixed_length_byte_array.
#[derive(ParquetRow, Debug)]
struct Flba<'a> {
    flba_field: &'a [u8],
}

/// ARROW-GH-45185: `x` is a list (nested: not supported, so binding refuses it).
#[derive(ParquetRow, Debug)]
struct ListX {
    x: i32,
}

/// ARROW-RS-GH-6229-LEVELS: `outer` is a list of structs (nested).
#[derive(ParquetRow, Debug)]
struct Outer {
    outer: i32,
}

/// Opens the file at `path` and decodes it into `T` (borrowed rows).
fn open_and_decode<T>(path: &std::path::Path) -> Result<usize, Error>
where
    for<'p> T: ParquetRow<'p>,
{
    let file = ParquetFile::open(path)?;
    let pages = file.load::<T>()?;
    let rows: Vec<T> = pages.rows()?;
    Ok(rows.len())
}

/// Like [`open_and_decode`] for structs that borrow.
macro_rules! decode_borrowed {
    ($path:expr, $row:ident) => {{
        (|| -> Result<usize, Error> {
            let file = ParquetFile::open($path)?;
            let pages = file.load::<$row>()?;
            let rows: Vec<$row> = pages.rows()?;
            Ok(rows.len())
        })()
    }};
}

/// Where an error came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Stage {
    /// The `parquet` crate rejected the footer or a page header / page.
    Parquet,
    /// Binding refused the struct (nested columns).
    Schema,
    /// parquet-rows' decoder found the page bytes out of spec.
    Decode,
}

fn stage(e: &Error) -> Stage {
    match e {
        Error::Parquet(_) | Error::Io(_) => Stage::Parquet,
        Error::Schema(_) => Stage::Schema,
        _ => Stage::Decode,
    }
}

#[test]
fn every_bad_data_file_is_an_error() {
    type Decode = fn(&std::path::Path) -> Result<usize, Error>;

    let Some(dir) = parquet_rows_suite::parquet_test_data() else {
        println!("skipped: PARQUET_TEST_DATA=skip, bad_data files not read");
        return;
    };
    let dir = dir.join("bad_data");
    // (file, decode, where the error may come from). Files whose footer the
    // `parquet` crate rejects never reach binding; the others are decoded with
    // a struct matching their flat columns, so the error is the file's.
    let cases: [(&str, Decode, &[Stage]); 7] = [
        (
            "ARROW-GH-41317.parquet",
            |p| decode_borrowed!(p, ArrowTypes),
            &[Stage::Parquet, Stage::Decode],
        ),
        (
            "ARROW-GH-41321.parquet",
            |p| decode_borrowed!(p, ArrowTypes),
            &[Stage::Parquet, Stage::Decode],
        ),
        (
            "ARROW-GH-45185.parquet",
            open_and_decode::<ListX>,
            &[Stage::Schema],
        ),
        (
            "ARROW-GH-47662.parquet",
            |p| decode_borrowed!(p, Flba),
            &[Stage::Parquet, Stage::Decode],
        ),
        (
            "ARROW-RS-GH-6229-DICTHEADER.parquet",
            |p| decode_borrowed!(p, Nation),
            &[Stage::Parquet, Stage::Decode],
        ),
        (
            "ARROW-RS-GH-6229-LEVELS.parquet",
            open_and_decode::<Outer>,
            &[Stage::Schema],
        ),
        (
            "PARQUET-1481.parquet",
            open_and_decode::<Outer>,
            &[Stage::Parquet],
        ),
    ];
    // Every bad file is covered (ARROW-GH-43605 is readable: corpus/).
    let mut listed: Vec<String> = std::fs::read_dir(&dir)
        .expect("bad_data")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".parquet") && n != "ARROW-GH-43605.parquet")
        .collect();
    listed.sort();
    let mut covered: Vec<String> = cases.iter().map(|c| c.0.to_owned()).collect();
    covered.sort();
    assert_eq!(listed, covered, "bad_data files and test cases differ");

    let mut failures = Vec::new();
    for (name, decode, stages) in cases {
        let path = dir.join(name);
        match catch_unwind(|| decode(&path)) {
            Ok(Err(e)) => {
                println!("{name}: {:?} error: {e}", stage(&e));
                if !stages.contains(&stage(&e)) {
                    failures.push(format!(
                        "{name}: error from {:?}, expected {stages:?}: {e}",
                        stage(&e)
                    ));
                }
            }
            Ok(Ok(rows)) => failures.push(format!("{name}: decoded {rows} rows without an error")),
            Err(payload) => failures.push(format!(
                "{name}: panicked: {}",
                panic_message(payload.as_ref())
            )),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The same for every byte of the footer (the thrift metadata): offsets, sizes,
/// counts and types that lie must give `Err`, never a panic. Found by hand: a
/// negative column chunk offset made the `parquet` crate assert.
#[test]
fn every_corrupted_byte_of_the_footer_is_ok_or_err() {
    let bytes = fuzz_file(WriterVersion::PARQUET_1_0);
    let len = bytes.len();
    let footer_len = u32::from_le_bytes(
        bytes[len - 8..len - 4]
            .try_into()
            .expect("4 bytes of footer length"),
    ) as usize;
    let footer = len - 8 - footer_len..len - 8;
    let offsets: Vec<usize> = footer.collect();
    let n = offsets.len();
    let outcomes = corrupt_each("footer", &bytes, offsets);
    println!(
        "footer: {n} bytes x 3 corruptions: {} ok, {} err, {} panics",
        outcomes.ok,
        outcomes.err,
        outcomes.panics.len()
    );
    assert!(
        outcomes.panics.is_empty(),
        "{} footer corruptions panicked instead of returning Err, e.g.:\n{}",
        outcomes.panics.len(),
        outcomes.panics[..outcomes.panics.len().min(10)].join("\n")
    );
    assert_eq!(outcomes.ok + outcomes.err, 3 * n);
}
