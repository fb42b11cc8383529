//! Hostile files: small files that lie in their footer or page headers, one
//! per class of attack, each of which must end in `Ok` or `Err` inside a
//! memory budget (see `docs/hostile-input.md`).
//!
//! Each case runs in a child process (this test binary again, running only
//! [`child`]) whose address space `ulimit -v` caps at [`LIMIT_BYTES`]: an
//! allocation past it makes the child abort, which the parent reports, so
//! "bounded memory" is measured, not assumed ([`the_limit_is_enforced`] checks
//! that the cap bites). The decode runs on a thread with a 2 MiB stack, as
//! rayon's workers have. The files are written by hand
//! (`parquet_rows_suite::handmade`), since the `parquet` writer cannot lie.

use std::process::Command;
use std::time::{Duration, Instant};

use parquet_rows::{Error, ParquetFile, ParquetRow};
use parquet_rows_suite::handmade::{
    codec, delta_binary_packed, encoding, file, physical, zstd_bomb, Chunk, Element, Page,
};

/// The child's address space: the whole test binary, its threads and the
/// decode must fit (the budget for a file under 1 MiB).
const LIMIT_BYTES: u64 = 1 << 30;
/// Names the case a child runs.
const CASE_VAR: &str = "PARQUET_ROWS_HOSTILE_CASE";
/// Starts the child's line that reports the outcome.
const OUTCOME: &str = "hostile outcome: ";

#[derive(ParquetRow)]
struct V<'a> {
    v: &'a [u8],
}

#[derive(ParquetRow)]
struct X {
    x: i64,
}

#[derive(ParquetRow)]
struct L {
    x: Vec<i64>,
}

type Case = fn() -> String;

const CASES: &[(&str, Case)] = &[
    ("flba0_dictionary", flba0_dictionary),
    (
        "dictionary_entries_past_its_bytes",
        dictionary_entries_past_its_bytes,
    ),
    ("delta_length_claims_2_31", || {
        delta_claims_2_31(encoding::DELTA_LENGTH_BYTE_ARRAY)
    }),
    ("delta_byte_array_claims_2_31", || {
        delta_claims_2_31(encoding::DELTA_BYTE_ARRAY)
    }),
    ("page_values_past_the_rows", page_values_past_the_rows),
    (
        "byte_stream_split_past_the_header",
        byte_stream_split_past_the_header,
    ),
    ("row_counts_overflow", row_counts_overflow),
    ("schema_3000_deep", || open_schema(&chain(3000))),
    ("schema_child_count_i32_max", || {
        open_schema(&[
            Element::root(i32::MAX),
            Element::leaf("x", physical::INT64, None),
        ])
    }),
    ("schema_256_deep_reads", schema_256_deep_reads),
    ("page_past_its_chunk", page_past_its_chunk),
    ("zstd_bomb_reservation", zstd_bomb_reservation),
    ("snappy_claims_2_gib", || {
        compressed_claim(codec::SNAPPY, i32::MAX, vec![0; 500])
    }),
    ("snappy_claims_more_than_its_preamble", || {
        compressed_claim(codec::SNAPPY, 1 << 20, vec![4, 0, 1, 2, 3, 4])
    }),
    ("lz4_raw_claims_200_mib", || {
        compressed_claim(codec::LZ4_RAW, 200 << 20, vec![0; 500])
    }),
    ("zstd_inflates_past_its_claim", || {
        compressed_claim(codec::ZSTD, 1 << 20, zstd_bomb(0, 64 << 20))
    }),
    ("row_group_budget", row_group_budget),
    (
        "chunk_over_the_row_group_limit",
        chunk_over_the_row_group_limit,
    ),
    ("rle_run_of_2_31_rows", rle_run_of_2_31_rows),
    ("list_of_2_31_elements", list_of_2_31_elements),
    ("list_never_ends_default_options", || {
        list_never_ends(parquet_rows::ReadOptions::default())
    }),
    (
        "delta_byte_array_rebuilds_1_gib",
        delta_byte_array_rebuilds_1_gib,
    ),
    ("allocate_past_the_limit", || {
        vec![1u8; 2 << 30].len().to_string()
    }),
];

/// `Ok(rows)`, or the error's variant and text.
fn describe(result: Result<usize, Error>) -> String {
    let e = match result {
        Ok(rows) => return format!("Ok({rows})"),
        Err(e) => e,
    };
    let kind = match &e {
        Error::OutOfSpec { .. } => "OutOfSpec",
        Error::Limit { .. } => "Limit",
        Error::Parquet(_) => "Parquet",
        Error::Unsupported { .. } => "Unsupported",
        _ => "other",
    };
    format!("{kind}: {e}")
}

/// Opens `bytes` without the output limit, so that each case reaches the
/// guard it is about (the output limit has a case of its own).
fn open_unlimited(bytes: Vec<u8>) -> parquet_rows::Result<ParquetFile> {
    let unlimited = parquet_rows::ReadOptions::default().max_output_bytes(usize::MAX);
    Ok(ParquetFile::from_bytes(bytes)?.with_options(unlimited))
}

/// Loads and decodes `bytes` into borrowed rows of one `v` column.
fn borrowed(bytes: Vec<u8>) -> String {
    describe((|| {
        let file = open_unlimited(bytes)?;
        Ok(file.load::<V>()?.rows::<V>()?.len())
    })())
}

/// Decodes `bytes` into owned rows of one `x` column.
fn owned(bytes: Vec<u8>) -> String {
    describe(open_unlimited(bytes).and_then(|f| f.rows::<X>().collect().map(|rows| rows.len())))
}

/// A file of one REQUIRED leaf column and one row group.
fn one_column(leaf: Element, rows: i64, pages: Vec<Page>) -> Vec<u8> {
    let chunk = Chunk::new(&leaf.name, leaf.physical.unwrap_or(0), pages);
    file(&[Element::root(1), leaf], &[(rows, vec![chunk])])
}

fn flba0_dictionary() -> String {
    let leaf = Element::leaf("v", physical::FIXED_LEN_BYTE_ARRAY, Some(0));
    let pages = vec![
        Page::dictionary(i32::MAX, Vec::new()),
        Page::data(1, encoding::RLE_DICTIONARY, vec![1, 2, 0]),
    ];
    borrowed(one_column(leaf, 1, pages))
}

fn dictionary_entries_past_its_bytes() -> String {
    let leaf = Element::leaf("v", physical::BYTE_ARRAY, None);
    let pages = vec![
        Page::dictionary(i32::MAX, vec![0; 16]),
        Page::data(1, encoding::RLE_DICTIONARY, vec![1, 2, 0]),
    ];
    borrowed(one_column(leaf, 1, pages))
}

/// A DELTA page of i32::MAX empty values: a DELTA_BINARY_PACKED header (block
/// 128, 4 miniblocks, i32::MAX values, first 0) and nothing else, in a row
/// group claiming as many rows.
fn delta_claims_2_31(encoding: i32) -> String {
    let header = vec![0x80, 0x01, 0x04, 0xff, 0xff, 0xff, 0xff, 0x07, 0x00];
    let leaf = Element::leaf("v", physical::BYTE_ARRAY, None);
    let pages = vec![Page::data(i32::MAX, encoding, header)];
    borrowed(one_column(leaf, i64::from(i32::MAX), pages))
}

fn page_values_past_the_rows() -> String {
    let leaf = Element::leaf("x", physical::INT64, None);
    owned(one_column(
        leaf,
        10,
        vec![Page::data(i32::MAX, encoding::PLAIN, vec![0; 80])],
    ))
}

fn byte_stream_split_past_the_header() -> String {
    let leaf = Element::leaf("v", physical::FIXED_LEN_BYTE_ARRAY, Some(1));
    let pages = vec![Page::data(1, encoding::BYTE_STREAM_SPLIT, vec![0; 4096])];
    borrowed(one_column(leaf, 1, pages))
}

/// Four row groups of 2^62 rows (one value each): sums that overflow.
fn row_counts_overflow() -> String {
    let chunk = Chunk::new(
        "x",
        physical::INT64,
        vec![Page::data(1, encoding::PLAIN, vec![7; 8])],
    );
    let groups: Vec<_> = (0..4).map(|_| (1i64 << 62, vec![chunk.clone()])).collect();
    let bytes = file(
        &[Element::root(1), Element::leaf("x", physical::INT64, None)],
        &groups,
    );
    let file = match open_unlimited(bytes) {
        Ok(file) => file,
        Err(e) => return describe(Err(e)),
    };
    let loaded = file.load::<X>().map(|pages| pages.num_rows());
    format!(
        "num_rows {}, loaded {:?}, read {}, par_read {}",
        file.num_rows(),
        loaded.ok(),
        describe(file.rows::<X>().collect().map(|r| r.len())),
        describe(file.rows::<X>().threads(0).collect().map(|r| r.len())),
    )
}

/// The root, `groups` groups each holding the next, and an INT32 leaf `y`.
fn chain(groups: usize) -> Vec<Element> {
    let mut schema = vec![Element::root(1)];
    schema.extend((1..=groups).map(|i| Element::group(&format!("g{i}"), 1)));
    schema.push(Element::leaf("y", physical::INT32, None));
    schema
}

fn open_schema(schema: &[Element]) -> String {
    describe(ParquetFile::from_bytes(file(schema, &[])).map(|f| f.num_rows()))
}

/// A valid file whose second column is nested 256 groups deep (the root and
/// 255 groups): opened and read.
fn schema_256_deep_reads() -> String {
    let mut schema = chain(255);
    schema[0] = Element::root(2);
    schema.insert(1, Element::leaf("x", physical::INT64, None));
    let x = Chunk::new(
        "x",
        physical::INT64,
        vec![Page::data(
            3,
            encoding::PLAIN,
            [1i64, 2, 3].iter().flat_map(|v| v.to_le_bytes()).collect(),
        )],
    );
    let mut y = Chunk::new(
        "y",
        physical::INT32,
        vec![Page::data(3, encoding::PLAIN, vec![0; 12])],
    );
    y.path = (1..=255)
        .map(|i| format!("g{i}"))
        .chain(["y".to_owned()])
        .collect();
    owned(file(&schema, &[(3, vec![x, y])]))
}

/// A page header whose compressed size runs past the column chunk.
fn page_past_its_chunk() -> String {
    let mut page = Page::data(3, encoding::PLAIN, vec![0; 24]);
    page.compressed_size = Some(1000);
    page.uncompressed_size = Some(1000);
    owned(one_column(
        Element::leaf("x", physical::INT64, None),
        3,
        vec![page],
    ))
}

/// 2 KiB of zstd that inflate to a 64 MiB page claiming i32::MAX values: the
/// rows reserved for it are bounded, and a reservation the memory cannot
/// hold is an error, not an abort.
fn zstd_bomb_reservation() -> String {
    let len = 64 << 20;
    let mut page = Page::data(i32::MAX, encoding::PLAIN, zstd_bomb(0, len));
    page.uncompressed_size = Some(len as i32);
    let mut chunk = Chunk::new("x", physical::INT64, vec![page]);
    chunk.codec = codec::ZSTD;
    let schema = [Element::root(1), Element::leaf("x", physical::INT64, None)];
    owned(file(&schema, &[(i64::from(i32::MAX), vec![chunk])]))
}

/// One ZSTD/SNAPPY/LZ4 page of `body` whose header claims `declared` bytes
/// once decompressed.
fn compressed_claim(compression: i32, declared: i32, body: Vec<u8>) -> String {
    let mut page = Page::data(1, encoding::PLAIN, body);
    page.uncompressed_size = Some(declared);
    let mut chunk = Chunk::new("x", physical::INT64, vec![page]);
    chunk.codec = compression;
    let schema = [Element::root(1), Element::leaf("x", physical::INT64, None)];
    owned(file(&schema, &[(1, vec![chunk])]))
}

/// A valid file of i32::MAX rows in 30 bytes: a one-entry dictionary and one
/// RLE run of index 0. Its rows (8 bytes each, 16 GiB) are refused by the
/// output limit before the output grows.
fn rle_run_of_2_31_rows() -> String {
    let leaf = Element::leaf("x", physical::INT64, None);
    // Bit width 1, then the run header `count << 1` as ULEB128, then the
    // index 0 in one byte.
    let mut indices = vec![1u8];
    let mut header = (i32::MAX as u64) << 1;
    while header >= 0x80 {
        indices.push((header as u8) | 0x80);
        header >>= 7;
    }
    indices.extend([header as u8, 0]);
    let pages = vec![
        Page::dictionary(1, 42i64.to_le_bytes().to_vec()),
        Page::data(i32::MAX, encoding::RLE_DICTIONARY, indices),
    ];
    let bytes = one_column(leaf, i64::from(i32::MAX), pages);
    describe(
        ParquetFile::from_bytes(bytes).and_then(|f| f.rows::<X>().collect().map(|rows| rows.len())),
    )
}

/// The ULEB128 header of an RLE run of `count` levels or indices.
fn rle_run(count: u64, value: u8) -> Vec<u8> {
    let mut out = Vec::new();
    let mut header = count << 1;
    while header >= 0x80 {
        out.push((header as u8) | 0x80);
        header >>= 7;
    }
    out.extend([header as u8, value]);
    out
}

/// A valid file of one row whose list holds i32::MAX elements, in under
/// 100 bytes: `repeated int64 x`, RLE runs of levels and dictionary
/// indices. The list grows element by element until the output limit
/// (64 MiB here, 8M elements) stops it.
fn list_of_2_31_elements() -> String {
    list_never_ends(parquet_rows::ReadOptions::default().max_output_bytes(64 << 20))
}

/// 1,024 rows of one BYTE_ARRAY column in one DELTA_BYTE_ARRAY page of
/// about 1 MiB: the first value is 1 MiB of suffix, each next one shares all
/// of it as its prefix. Rebuilt for borrowing, the values take 1 GiB; the
/// page limit (256 MiB by default) stops them before anything is reserved.
fn delta_byte_array_rebuilds_1_gib() -> String {
    const ROWS: usize = 1024;
    const LEN: i64 = 1 << 20;
    let prefixes: Vec<i64> = (0..ROWS).map(|i| if i == 0 { 0 } else { LEN }).collect();
    let suffixes: Vec<i64> = (0..ROWS).map(|i| if i == 0 { LEN } else { 0 }).collect();
    let mut body = delta_binary_packed(&prefixes);
    body.extend(delta_binary_packed(&suffixes));
    body.extend(std::iter::repeat_n(b'x', LEN as usize));
    let leaf = Element::leaf("v", physical::BYTE_ARRAY, None);
    let pages = vec![Page::data(ROWS as i32, encoding::DELTA_BYTE_ARRAY, body)];
    borrowed(one_column(leaf, ROWS as i64, pages))
}

/// [`list_of_2_31_elements`] read with `options`.
fn list_never_ends(options: parquet_rows::ReadOptions) -> String {
    let leaf = Element {
        repetition: Some(2), // REPEATED
        ..Element::leaf("x", physical::INT64, None)
    };
    let count = i32::MAX as u64;
    // Repetition levels: 0 for the first element, then 1 ("same list").
    let reps = [rle_run(1, 0), rle_run(count - 1, 1)].concat();
    let defs = rle_run(count, 1);
    let mut body = Vec::new();
    for levels in [reps, defs] {
        body.extend((levels.len() as u32).to_le_bytes());
        body.extend(levels);
    }
    body.push(1); // bit width of the dictionary indices
    body.extend(rle_run(count, 0));
    let pages = vec![
        Page::dictionary(1, 42i64.to_le_bytes().to_vec()),
        Page::data(i32::MAX, encoding::RLE_DICTIONARY, body),
    ];
    let bytes = one_column(leaf, 1, pages);
    assert!(bytes.len() < 200, "{} bytes", bytes.len());
    describe(ParquetFile::from_bytes(bytes).and_then(|f| {
        f.with_options(options)
            .rows::<L>()
            .collect()
            .map(|rows| rows.len())
    }))
}

/// A 64 MiB page, under the page limit, over a row group limit of 16 MiB.
fn row_group_budget() -> String {
    let len = 64 << 20;
    let mut page = Page::data(1, encoding::PLAIN, zstd_bomb(0, len));
    page.uncompressed_size = Some(len as i32);
    let mut chunk = Chunk::new("x", physical::INT64, vec![page]);
    chunk.codec = codec::ZSTD;
    let schema = [Element::root(1), Element::leaf("x", physical::INT64, None)];
    let options = parquet_rows::ReadOptions::default().max_row_group_bytes(16 << 20);
    describe(
        ParquetFile::from_bytes(file(&schema, &[(1, vec![chunk])])).and_then(|f| {
            f.with_options(options)
                .rows::<X>()
                .collect()
                .map(|r| r.len())
        }),
    )
}

/// An uncompressed chunk of 8 KiB, read from a file on disk, with a row
/// group limit of 4 KiB: refused before the chunk is read into memory.
fn chunk_over_the_row_group_limit() -> String {
    let leaf = Element::leaf("x", physical::INT64, None);
    let bytes = one_column(
        leaf,
        1024,
        vec![Page::data(1024, encoding::PLAIN, vec![0; 8192])],
    );
    let path = std::env::temp_dir().join(format!("hostile-chunk-{}.parquet", std::process::id()));
    std::fs::write(&path, bytes).expect("write the file");
    let options = parquet_rows::ReadOptions::default().max_row_group_bytes(4096);
    let outcome = describe(ParquetFile::open(&path).and_then(|f| {
        f.with_options(options)
            .rows::<X>()
            .collect()
            .map(|r| r.len())
    }));
    let _ = std::fs::remove_file(&path);
    outcome
}

#[test]
#[ignore = "the child process of this module's tests: they run it with a case name"]
fn child() {
    let name = std::env::var(CASE_VAR).expect("the case to run, in PARQUET_ROWS_HOSTILE_CASE");
    let case = CASES
        .iter()
        .find(|(n, _)| *n == name)
        .unwrap_or_else(|| panic!("no case `{name}`"))
        .1;
    let outcome = std::thread::Builder::new()
        .stack_size(2 << 20)
        .spawn(case)
        .expect("spawn the decoding thread")
        .join()
        .expect("the case does not panic");
    println!("{OUTCOME}{outcome}");
}

/// Runs case `name` in a child process under the memory limit; returns its
/// exit status, its outcome line (if any) and its output.
fn run(name: &str) -> (std::process::ExitStatus, Option<String>, String) {
    let exe = std::env::current_exe().expect("the test binary's path");
    let start = Instant::now();
    let out = Command::new("sh")
        .arg("-c")
        .arg(format!(
            "ulimit -v {} && exec \"$0\" hostile::child --exact --ignored --nocapture --test-threads=1",
            LIMIT_BYTES >> 10
        ))
        .arg(exe)
        .env(CASE_VAR, name)
        .output()
        .expect("run the child");
    let took = start.elapsed();
    // A guard against hangs, not a speed test: each case takes well under a
    // second on a quiet machine, but CI machines run the suite's binaries in
    // parallel on 2 cores, where a case that allocates up to its limit has
    // been seen to take over 10 s.
    // `Duration::from_mins` is newer than the workspace's rust-version.
    #[allow(clippy::duration_suboptimal_units)]
    let guard = Duration::from_secs(60);
    assert!(took < guard, "{name}: took {took:?}, a hang?");
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let outcome = stdout
        .lines()
        .find_map(|l| l.split_once(OUTCOME).map(|(_, outcome)| outcome))
        .map(str::to_owned);
    let all = format!("{stdout}\n{}", String::from_utf8_lossy(&out.stderr));
    (out.status, outcome, all)
}

/// Runs case `name` and checks that it ended normally with `expected`.
fn check(name: &str, expected: &str) {
    let (status, outcome, all) = run(name);
    assert!(
        status.success(),
        "{name}: the child ended with {status}:\n{all}"
    );
    assert_eq!(outcome.as_deref(), Some(expected), "{name}:\n{all}");
}

#[test]
fn the_limit_is_enforced() {
    let (status, outcome, all) = run("allocate_past_the_limit");
    assert!(
        !status.success(),
        "2 GiB were allocated under a 1 GiB limit:\n{all}"
    );
    assert_eq!(outcome, None);
}

#[test]
fn fixed_len_byte_array_0_with_a_huge_dictionary() {
    check(
        "flba0_dictionary",
        "OutOfSpec: corrupt file (column `v`, row group 0): FIXED_LEN_BYTE_ARRAY(0) column: the length must be positive",
    );
}

#[test]
fn dictionary_with_more_entries_than_bytes() {
    check(
        "dictionary_entries_past_its_bytes",
        "OutOfSpec: corrupt file (column `v`, row group 0, page 0): a dictionary page claims 2147483647 entries in 16 bytes",
    );
}

#[test]
fn delta_pages_claiming_2_31_values() {
    check(
        "delta_length_claims_2_31",
        "Limit: over a limit (column `v`, row group 0, page 0): 2147483647 value lengths in one page; at most 33554432 are decoded",
    );
    check(
        "delta_byte_array_claims_2_31",
        "Limit: over a limit (column `v`, row group 0, page 0): 2147483647 prefix lengths in one page; at most 33554432 are decoded",
    );
}

#[test]
fn page_claiming_more_values_than_the_row_group_has_rows() {
    check(
        "page_values_past_the_rows",
        "OutOfSpec: corrupt file (column `x`, row group 0): the column chunk has 2147483637 more values than the row group has rows",
    );
}

#[test]
fn byte_stream_split_with_more_values_than_its_header() {
    check(
        "byte_stream_split_past_the_header",
        "OutOfSpec: corrupt file (column `v`, row group 0, page 0): BYTE_STREAM_SPLIT section of 4096 bytes holds 4096 values of 1 bytes but the page has 1",
    );
}

#[test]
fn row_counts_that_overflow_when_summed() {
    let fewer = "OutOfSpec: corrupt file (column `x`, row group 0, page 0): the column chunk has fewer values than the row group has rows";
    check(
        "row_counts_overflow",
        &format!(
            "num_rows {}, loaded Some({}), read {fewer}, par_read {fewer}",
            usize::MAX,
            usize::MAX
        ),
    );
}

#[test]
fn schemas_nested_too_deep_or_with_lying_child_counts() {
    check(
        "schema_3000_deep",
        "OutOfSpec: corrupt file (file): footer: groups are nested more than 256 deep",
    );
    check(
        "schema_child_count_i32_max",
        "OutOfSpec: corrupt file (file): footer: group `m` claims 2147483647 children but the schema has room for 1",
    );
    check("schema_256_deep_reads", "Ok(3)");
}

#[test]
fn page_past_its_chunk_names_the_column_row_group_and_page() {
    check(
        "page_past_its_chunk",
        "OutOfSpec: corrupt file (column `x`, row group 0, page 0): a page of 1000 bytes in the 24 bytes left of its column chunk",
    );
}

#[test]
fn zstd_bomb_claiming_2_31_rows() {
    check(
        "zstd_bomb_reservation",
        "Limit: over a limit (row group 0): no memory for the 536871936 rows the row groups hold",
    );
}

#[test]
fn decompression_bombs_stop_at_the_declared_size_and_the_limits() {
    check(
        "snappy_claims_2_gib",
        "Limit: over a limit (column `x`, row group 0, page 0): a page of 2147483647 bytes decompressed, over the limit of 268435456 (raise `ReadOptions::max_page_bytes`)",
    );
    check(
        "snappy_claims_more_than_its_preamble",
        "OutOfSpec: corrupt file (column `x`, row group 0, page 0): the page decompresses to 4 bytes but its header says 1048576",
    );
    check(
        "lz4_raw_claims_200_mib",
        "OutOfSpec: corrupt file (column `x`, row group 0, page 0): 500 bytes of LZ4 cannot decompress to the 209715200 bytes the page header says",
    );
    check(
        "zstd_inflates_past_its_claim",
        "OutOfSpec: corrupt file (column `x`, row group 0, page 0): ZSTD: Destination buffer is too small (the page header says 1048576 bytes)",
    );
    check(
        "chunk_over_the_row_group_limit",
        "Limit: over a limit (column `x`, row group 0): a column chunk of 8214 bytes, over the limit of 4096 (raise `ReadOptions::max_row_group_bytes`)",
    );
    check(
        "row_group_budget",
        "Limit: over a limit (column `x`, row group 0, page 0): the row group's pages take more than 16777216 bytes decompressed (raise `ReadOptions::max_row_group_bytes`)",
    );
}

#[test]
fn a_valid_file_of_2_31_rows_stops_at_the_output_limit() {
    check(
        "rle_run_of_2_31_rows",
        "Limit: over a limit (file): the rows of this read take 17179869176 bytes (2147483647 rows of 8 bytes), more than `max_output_bytes` allows (8589934592); read fewer row groups at a time (`ParquetFile::row_groups`) or raise it with `ReadOptions::max_output_bytes`",
    );
}

#[test]
fn a_valid_list_of_2_31_elements_stops_at_the_output_limit() {
    check(
        "list_of_2_31_elements",
        "Limit: over a limit (column `x`, row group 0): the lists of this row group hold more than 8388608 elements of 8 bytes, more than `max_output_bytes` allows; read into a struct without this list, or raise it with `ReadOptions::max_output_bytes`",
    );
}

#[test]
fn a_list_whose_row_never_ends_stops_at_the_list_limit() {
    check(
        "list_never_ends_default_options",
        "Limit: over a limit (column `x`, row group 0): a list holds more than 16777216 elements in one row, more than `max_list_elements` allows (its repetition levels may never end the row); raise it with `ReadOptions::max_list_elements`",
    );
}

#[test]
fn delta_byte_array_values_count_against_the_page_limit() {
    check(
        "delta_byte_array_rebuilds_1_gib",
        "Limit: over a limit (column `v`, row group 0, page 0): DELTA_BYTE_ARRAY values rebuild to 1073741824 bytes, more than the 268435456 a page may take (raise `ReadOptions::max_page_bytes`)",
    );
}
