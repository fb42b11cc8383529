//! Integration tests of parquet-rows (one binary, see STYLE.md):
//!
//! - `roundtrip`: files written with the `parquet` crate under many writer
//!   settings, read back and compared value by value;
//! - `corpus`: the parquet-testing corpus: every file compared with its
//!   `.expected.json`, and a walker that fails on any file on none of its
//!   lists (compared, blocked upstream, must fail, out of scope);
//! - `errors`: schema mismatches, bad values, corrupt and truncated files;
//! - `nested`: structs, lists and maps (every shape, nulls and empty lists at
//!   every level, v1/v2 pages, dictionary on/off, several row groups, lists
//!   across page boundaries), written from shredded levels, checked with the
//!   record API, then read back; nested binding errors; corrupted nested
//!   pages give `Err`, never a panic.
//!
//! - `hostile`: one small lying file per class of attack (footers, page
//!   headers, DELTA and dictionary counts), each decoded in a child process
//!   with its address space limited, ending in `Ok` or `Err`.
//! - `exact`: filtered reads equal the full read filtered, for every
//!   (field type, column type) pair the rule table accepts and every
//!   pruning stage, at the values where the two types part ways.
//! - `lazy_pages`: pages decompressed when first opened, into buffers the
//!   file keeps: pages no row needs never decompressed, corrupt ones failing
//!   the reads that open them, rows in reused buffers right with every codec.
//! - `lies`: hand-made footers that lie (offset indexes, dictionary
//!   offsets, min above max, negative null counts) on every read path.
//! - `api`: `Debug` of `Pages`, the optional crates re-exported.
//! - `concurrency`: threads sharing one `ParquetFile` opened from a path
//!   load row groups at once, each getting its own row group's values.
//! - `predicates`: time, chrono and converted fields, several fields on one
//!   column, `is_in`, `not` and `any_of`, on every filtered path.
//! - `parallel`: the parallel readers against the sequential ones, by row
//!   group and by row ranges of one row group.
//! - `partition`: `#[parquet(partition)]` fields of a file read on its own
//!   (datasets' are in `remote::dataset`).
//!
//! - `limits`: `max_output_bytes` gives the same outcome on every path,
//!   checked against the rows the read's plan may return.
//! - `locations`: a corrupt page and an unexpected null give the same
//!   error text (row group, page, row) on every read path.
//! - `window`: offset and limit without predicates, on every read path,
//!   against the full read sliced.
//! - `flat`: the flat rows (`Row`, `Borrowed`) and the file `builder` and
//!   `window` read.
//! - `small_strings`: `CompactString` fields equal `String` ones on every
//!   encoding and read path, short values inline, long ones on the heap.
//!
//! - `duplicate_names`: two top-level columns of one name, bound with
//!   `#[parquet(nth = ...)]`.
//! - `write`: the writer, its files read back by parquet-rows and the record API.
//! - `write_sorted`: `WriteOptions::sorted_by`, the footer's sorting columns and the per-row check.
//! - `write_types`: the writer's annotated types (timestamps, times, decimals, feature types) and their attributes.
//! - `variant`: VARIANT columns, unshredded and shredded, read back as written.
//!
//! Allocation counts are in `tests/alloc.rs`, a binary of its own.

mod api;
mod builder;
mod concurrency;
mod convert;
mod corpus;
mod duplicate_names;
mod encodings;
mod errors;
mod exact;
mod filter;
mod flat;
mod hostile;
mod lazy_pages;
mod lies;
mod limits;
mod locations;
mod nested;
mod optional;
mod parallel;
mod partition;
mod predicates;
mod quirks;
mod remote;
mod roundtrip;
mod small_strings;
mod variant;
mod window;
mod write;
mod write_encoders;
mod write_nested;
mod write_sorted;
mod write_types;
