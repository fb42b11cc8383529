//! Decoding the tick file (issue #2) every way, side by side in one run, at
//! 65,000 and 370,000 rows:
//!
//! | id | what is timed |
//! |---|---|
//! | `parquet-rows_borrowed_rows` | `pages.rows::<Tick>()`, pages loaded (read + decompressed) outside the timer |
//! | `parquet-rows_borrowed_load+rows` | `file.load::<Tick>()` + `pages.rows()` |
//! | `parquet-rows_owned_read` | `file.rows::<TickOwned>().collect()` |
//! | `parquet-rows_owned_arc_read` | `file.rows::<TickArc>().collect()`: owned rows whose `Arc<str>` symbol is shared per dictionary entry |
//! | `record-api_rows` | `get_row_iter(None)`, each `Row` dropped unread |
//! | `record-api_accessors` | `get_row_iter(None)` + `get_timestamp_micros`/`get_string`/`get_double` into `Vec<TickOwned>` |
//! | `column-api_read_records` | `get_typed_column_reader` + `read_records` into one `Vec` per column, zipped into `Vec<TickOwned>` |
//!
//! Every variant starts from a file held in memory (`Bytes`) whose footer was
//! parsed outside the timer, so the numbers compare decoding, not `read(2)`.
//! Output vectors are dropped inside the timed loop: dropping 370,000 `String`s is
//! part of what owned rows cost.
//!
//! Run with `cargo bench --bench ticks`; `ns/row` is the reported time divided
//! by the row count (criterion's `Throughput::Elements`).

use std::hint::black_box;
use std::sync::Arc;
use std::time::Duration;

use bytes::Bytes;
use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use parquet::basic::Type as PhysicalType;
use parquet::column::reader::get_typed_column_reader;
use parquet::data_type::{ByteArray, ByteArrayType, DataType, DoubleType, Int64Type};
use parquet::errors::Result as ParquetResult;
use parquet::file::reader::{FileReader, RowGroupReader};
use parquet::file::serialized_reader::SerializedFileReader;
use parquet::record::RowAccessor;
use parquet_rows::{Pages, ParquetFile, ParquetRow};
use parquet_rows_suite::{tick_file, tick_values, Tick, TickOwned};

/// Row counts of the tick files: the one from the issue (370,000) and a smaller one.
const SIZES: [usize; 2] = [65_000, 370_000];

// ---------------------------------------------------------------------------
// parquet-rows

/// Reads and decompresses the four columns; not timed in `parquet-rows_borrowed_rows`.
fn parquet_rows_load(file: &ParquetFile) -> Pages {
    file.load::<Tick>().expect("load tick pages")
}

/// Borrowed rows: `symbol` points into the dictionary page held by `pages`.
fn parquet_rows_borrowed(pages: &Pages) -> Vec<Tick<'_>> {
    pages.rows().expect("decode ticks")
}

/// Load + decode borrowed rows; returns the row count (the rows cannot outlive the pages).
fn parquet_rows_load_and_rows(file: &ParquetFile) -> usize {
    let pages = parquet_rows_load(file);
    let ticks = parquet_rows_borrowed(&pages);
    black_box(&ticks);
    ticks.len()
}

/// Owned rows in one call.
fn parquet_rows_owned(file: &ParquetFile) -> Vec<TickOwned> {
    file.rows().collect().expect("read owned ticks")
}

/// An owned tick whose symbol is allocated once per dictionary entry, not per row.
#[derive(ParquetRow, Debug, Clone, PartialEq)]
struct TickArc {
    ts: i64,
    symbol: Arc<str>,
    bid: f64,
    ask: f64,
}

/// Owned rows sharing their symbols.
fn parquet_rows_owned_arc(file: &ParquetFile) -> Vec<TickArc> {
    file.rows()
        .collect()
        .expect("read owned ticks with Arc<str>")
}

// ---------------------------------------------------------------------------
// The `parquet` crate's record API (`RowIter` + `RowAccessor`)

/// Materialises every `Row` and drops it unread: the record API's floor.
fn record_api_rows(reader: &SerializedFileReader<Bytes>) -> usize {
    let mut n = 0;
    for row in reader.get_row_iter(None).expect("row iterator") {
        black_box(row.expect("row"));
        n += 1;
    }
    n
}

/// What a user of the record API writes to fill their own struct.
fn record_api_accessors(reader: &SerializedFileReader<Bytes>) -> Vec<TickOwned> {
    let rows = usize::try_from(reader.metadata().file_metadata().num_rows()).unwrap_or(0);
    let mut out = Vec::with_capacity(rows);
    for row in reader.get_row_iter(None).expect("row iterator") {
        let row = row.expect("row");
        out.push(TickOwned {
            // `ts` is annotated TIMESTAMP_MICROS, so `get_long(0)` is an error here.
            ts: row.get_timestamp_micros(0).expect("ts"),
            symbol: row.get_string(1).expect("symbol").clone(),
            bid: row.get_double(2).expect("bid"),
            ask: row.get_double(3).expect("ask"),
        });
    }
    out
}

// ---------------------------------------------------------------------------
// The `parquet` crate's column API (`ColumnReader::read_records`), by hand

/// Appends every value of leaf column `column` of one REQUIRED, flat column chunk.
fn read_required<T: DataType>(
    row_group: &dyn RowGroupReader,
    column: usize,
    out: &mut Vec<T::T>,
) -> ParquetResult<()> {
    let rows = usize::try_from(row_group.metadata().num_rows()).unwrap_or(0);
    let mut reader = get_typed_column_reader::<T>(row_group.get_column_reader(column)?);
    let end = out.len() + rows;
    while out.len() < end {
        // No levels buffers: the column is REQUIRED and not repeated.
        let (records, _, _) = reader.read_records(end - out.len(), None, None, out)?;
        if records == 0 {
            return Err(parquet::errors::ParquetError::General(format!(
                "column {column} ended after {} of {rows} rows",
                rows - (end - out.len())
            )));
        }
    }
    Ok(())
}

/// Per-column vectors for every row group, then zipped into rows.
fn column_api(reader: &SerializedFileReader<Bytes>) -> Vec<TickOwned> {
    // The type checks a user must write before `get_typed_column_reader`, which
    // panics on a mismatch.
    let schema = reader.metadata().file_metadata().schema_descr();
    let expected = [
        PhysicalType::INT64,
        PhysicalType::BYTE_ARRAY,
        PhysicalType::DOUBLE,
        PhysicalType::DOUBLE,
    ];
    for (i, ty) in expected.into_iter().enumerate() {
        assert_eq!(schema.column(i).physical_type(), ty, "column {i}");
        assert_eq!(
            schema.column(i).max_def_level(),
            0,
            "column {i} is REQUIRED"
        );
    }
    let rows = usize::try_from(reader.metadata().file_metadata().num_rows()).unwrap_or(0);
    let mut ts: Vec<i64> = Vec::with_capacity(rows);
    let mut symbol: Vec<ByteArray> = Vec::with_capacity(rows);
    let mut bid: Vec<f64> = Vec::with_capacity(rows);
    let mut ask: Vec<f64> = Vec::with_capacity(rows);
    for i in 0..reader.num_row_groups() {
        let row_group = reader.get_row_group(i).expect("row group");
        let row_group = row_group.as_ref();
        read_required::<Int64Type>(row_group, 0, &mut ts).expect("ts");
        read_required::<ByteArrayType>(row_group, 1, &mut symbol).expect("symbol");
        read_required::<DoubleType>(row_group, 2, &mut bid).expect("bid");
        read_required::<DoubleType>(row_group, 3, &mut ask).expect("ask");
    }
    ts.into_iter()
        .zip(symbol)
        .zip(bid.into_iter().zip(ask))
        .map(|((ts, symbol), (bid, ask))| TickOwned {
            ts,
            symbol: std::str::from_utf8(symbol.data())
                .expect("UTF-8 symbol")
                .to_owned(),
            bid,
            ask,
        })
        .collect()
}

// ---------------------------------------------------------------------------

/// Checks that `rows` are exactly the fixture's rows, in order.
fn assert_ticks<'a>(
    variant: &str,
    rows: impl ExactSizeIterator<Item = (i64, &'a str, f64, f64)>,
    n: usize,
) {
    assert_eq!(rows.len(), n, "{variant}: row count");
    for (i, row) in rows.enumerate() {
        assert_eq!(row, tick_values(i), "{variant}: row {i}");
    }
}

/// Runs every variant once and checks its output before anything is timed.
fn check_outputs(n: usize, file: &ParquetFile, reader: &SerializedFileReader<Bytes>) {
    let owned = |rows: &[TickOwned]| -> Vec<(i64, String, f64, f64)> {
        rows.iter()
            .map(|t| (t.ts, t.symbol.clone(), t.bid, t.ask))
            .collect()
    };
    let pages = parquet_rows_load(file);
    let borrowed = parquet_rows_borrowed(&pages);
    assert_ticks(
        "parquet-rows borrowed",
        borrowed.iter().map(|t| (t.ts, t.symbol, t.bid, t.ask)),
        n,
    );
    assert_eq!(
        parquet_rows_load_and_rows(file),
        n,
        "load + rows: row count"
    );

    let references = [
        ("parquet-rows owned", parquet_rows_owned(file)),
        ("record API with accessors", record_api_accessors(reader)),
        ("column API", column_api(reader)),
    ];
    for (variant, rows) in &references {
        let rows = owned(rows);
        assert_ticks(
            variant,
            rows.iter().map(|(a, b, c, d)| (*a, b.as_str(), *c, *d)),
            n,
        );
    }
    assert_eq!(record_api_rows(reader), n, "record API: row count");
}

fn ticks(c: &mut Criterion) {
    let mut group = c.benchmark_group("ticks");
    // Seven variants x two sizes in a couple of minutes on 2 cores.
    group
        .sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3));

    for n in SIZES {
        let bytes = Bytes::from(std::fs::read(tick_file(n)).expect("read tick file"));
        let file = ParquetFile::from_bytes(bytes.clone()).expect("open with parquet-rows");
        let reader = SerializedFileReader::new(bytes).expect("open with parquet");
        check_outputs(n, &file, &reader);

        group.throughput(Throughput::Elements(n as u64));
        let pages = parquet_rows_load(&file);
        group.bench_with_input(
            BenchmarkId::new("parquet-rows_borrowed_rows", n),
            &pages,
            |b, pages| b.iter(|| parquet_rows_borrowed(pages)),
        );
        drop(pages);
        group.bench_with_input(
            BenchmarkId::new("parquet-rows_borrowed_load+rows", n),
            &file,
            |b, file| b.iter(|| parquet_rows_load_and_rows(file)),
        );
        group.bench_with_input(
            BenchmarkId::new("parquet-rows_owned_read", n),
            &file,
            |b, file| b.iter(|| parquet_rows_owned(file)),
        );
        group.bench_with_input(
            BenchmarkId::new("parquet-rows_owned_arc_read", n),
            &file,
            |b, file| b.iter(|| parquet_rows_owned_arc(file)),
        );
        group.bench_with_input(
            BenchmarkId::new("record-api_rows", n),
            &reader,
            |b, reader| b.iter(|| record_api_rows(reader)),
        );
        group.bench_with_input(
            BenchmarkId::new("record-api_accessors", n),
            &reader,
            |b, reader| b.iter(|| record_api_accessors(reader)),
        );
        group.bench_with_input(
            BenchmarkId::new("column-api_read_records", n),
            &reader,
            |b, reader| b.iter(|| column_api(reader)),
        );
    }
    group.finish();
}

criterion_group!(benches, ticks);
criterion_main!(benches);
