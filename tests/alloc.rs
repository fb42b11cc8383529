//! Decoding a tick file into `Vec<Tick<'_>>` makes a number of allocations that
//! does not grow with the number of rows: the design's "no allocation per row
//! for fields that don't own heap data" (`&str` symbols borrow the dictionary
//! page, numbers are copied). Owned rows with `CompactString` symbols
//! (feature `compact_str`) allocate per page, not per row, either.
//!
//! A binary of its own, because it installs a `#[global_allocator]`, with a
//! single `#[test]`: the allocator counts every thread, and the test harness
//! runs the tests of a binary in parallel threads, which would disturb the
//! counts.

use std::alloc::System;

use parquet_rows::compact_str::CompactString;
use parquet_rows::{ParquetFile, ParquetRow};
use parquet_rows_suite::{tick_file, tick_values, Tick, TickOwned};
use stats_alloc::{Region, StatsAlloc, INSTRUMENTED_SYSTEM};

/// How much the decode counts of the two files may differ; see the test.
const SLACK: usize = 4;

#[global_allocator]
static GLOBAL: &StatsAlloc<System> = &INSTRUMENTED_SYSTEM;

/// Allocation calls (`alloc`, `alloc_zeroed` and `realloc`) of the two steps.
#[derive(Debug, Clone, Copy)]
struct Counts {
    /// Pages (dictionary and data) of the four columns, for scale.
    pages: usize,
    /// `file.load::<Tick>()`: reading and checking pages.
    load: usize,
    /// `pages.rows::<Tick>()`: decoding the rows.
    decode: usize,
}

fn calls(stats: stats_alloc::Stats) -> usize {
    stats.allocations + stats.reallocations
}

/// Pages in the file, counted with the `parquet` crate's page reader.
fn pages(path: &std::path::Path) -> usize {
    use parquet::file::reader::{FileReader, SerializedFileReader};
    let reader =
        SerializedFileReader::new(std::fs::File::open(path).expect("open")).expect("footer");
    let mut pages = 0;
    for g in 0..reader.num_row_groups() {
        let group = reader.get_row_group(g).expect("row group");
        for c in 0..group.num_columns() {
            pages += group.get_column_page_reader(c).expect("pages").count();
        }
    }
    pages
}

fn count(rows: usize) -> Counts {
    let path = tick_file(rows); // written (once) before anything is counted
    let pages_in_file = pages(&path);
    let file = ParquetFile::open(&path).expect("open tick file");

    let region = Region::new(GLOBAL);
    let pages = file.load::<Tick>().expect("load");
    let load = calls(region.change());

    let region = Region::new(GLOBAL);
    let ticks: Vec<Tick<'_>> = pages.rows().expect("rows");
    let decode = calls(region.change());

    // Not counted: check that the decode did decode every row.
    assert_eq!(ticks.len(), rows);
    for i in [0, rows / 2, rows - 1] {
        let (ts, symbol, bid, ask) = tick_values(i);
        assert_eq!(
            (ticks[i].ts, ticks[i].symbol, ticks[i].bid, ticks[i].ask),
            (ts, symbol, bid, ask)
        );
    }
    Counts {
        pages: pages_in_file,
        load,
        decode,
    }
}

/// A tick that owns its symbol inline (`"EURUSD"`, 6 bytes).
#[derive(ParquetRow, Debug)]
struct TickInline {
    ts: i64,
    symbol: CompactString,
    bid: f64,
    ask: f64,
}

/// Allocation calls of `file.rows::<T>().collect()` on the tick file of `rows` rows,
/// and the rows' symbols for a check.
fn count_owned<T: parquet_rows::OwnedRow>(rows: usize, symbol: impl Fn(&T) -> &str) -> usize {
    let path = tick_file(rows);
    let file = ParquetFile::open(&path).expect("open tick file");
    let region = Region::new(GLOBAL);
    let ticks: Vec<T> = file.rows().collect().expect("read");
    let calls = calls(region.change());
    assert_eq!(ticks.len(), rows);
    for i in [0, rows / 2, rows - 1] {
        assert_eq!(symbol(&ticks[i]), tick_values(i).1);
    }
    calls
}

/// Owned rows with a `CompactString` symbol allocate per file and page, as
/// borrowed rows do; `String` symbols allocate once per row (the contrast
/// shows the count sees per-row allocations).
fn owned_inline_strings_do_not_allocate_per_row() {
    let inline = |rows| count_owned::<TickInline>(rows, |t| t.symbol.as_str());
    let string = |rows| count_owned::<TickOwned>(rows, |t| t.symbol.as_str());
    inline(1_000);
    let (small, large) = (inline(65_000), inline(370_000));
    let strings = string(65_000);
    println!("owned reads, allocation calls: CompactString {small} (65,000 rows), {large} (370,000 rows); String {strings} (65,000 rows)");
    // The read loads and decompresses pages too: a few calls per page (the
    // bound of the load in the test below), so the count grows with the
    // pages, far below one call per 200 rows.
    for (rows, calls) in [(65_000, small), (370_000, large)] {
        let pages = pages(&tick_file(rows));
        assert!(
            calls <= 8 * pages + 64,
            "{rows} rows, {pages} pages: {calls} calls"
        );
        assert!(calls < rows / 200, "{rows} rows: {calls} calls");
    }
    assert!(strings >= 65_000, "String rows allocate per row: {strings}");
}

#[test]
fn decoding_allocations_do_not_grow_with_rows() {
    owned_inline_strings_do_not_allocate_per_row();

    // Warm up: one-time allocations (lazily initialised statics, thread-locals,
    // codec tables) happen here, not in the measured runs.
    count(1_000);

    let small = count(65_000);
    let large = count(370_000);
    for (rows, c) in [(65_000, small), (370_000, large)] {
        println!(
            "{rows:>7} rows, {:>3} pages: allocation calls: load {:>4}, decode {:>3}",
            c.pages, c.load, c.decode
        );
    }

    // Decoding allocates per file and row group (the output `Vec`, one batch
    // buffer per field, each column reader's scratch buffers and the symbol
    // dictionary) and per page (a page is decompressed when the decode first
    // opens it: its buffer and its `Bytes`), never per row. Allow two calls
    // per page beyond a small constant.
    let per_page = |c: Counts| c.decode.saturating_sub(2 * c.pages);
    assert!(
        per_page(large) <= small.decode + SLACK && per_page(small) <= large.decode + SLACK,
        "decode allocations grow with the rows: {small:?} vs {large:?}"
    );
    for (rows, c) in [(65_000, small), (370_000, large)] {
        assert!(c.decode < rows / 200, "{rows} rows: {c:?}");
    }
    // Loading allocates per page (page headers and codec state; a few calls
    // each), and a page holds thousands of rows: far
    // below one allocation per row.
    for (rows, counts) in [(65_000, small), (370_000, large)] {
        assert!(
            counts.load <= 8 * counts.pages + 64,
            "{rows} rows: {counts:?}"
        );
        assert!(counts.load < rows / 100, "{rows} rows: {counts:?}");
    }
}
