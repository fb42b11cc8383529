//! `bench-report writes`, `write-memory` and `write-filters`: the writer's
//! figures of issue 26, side by side with the other writers in one run.
//!
//! `writes [--rounds N]` writes 1,000,000 ticks (`ts`, `symbol` of 8 values,
//! `bid`, `ask`, `size`) from one `Vec` into memory, one row group, dictionary
//! on, page statistics and the page index, under SNAPPY and ZSTD(1):
//!
//! | variant | what is timed |
//! |---|---|
//! | `parquet-rows` | `Writer::<Tick>::new(Vec::new())`, `write(&rows)`, `finish()` |
//! | `arrow-rs` | building the five Arrow arrays from the same `Vec`, then `ArrowWriter` |
//! | `parquet_derive` | `#[derive(ParquetRecordWriter)]`'s `write_to_row_group` |
//!
//! It then writes `target/fixtures/bench-writes-<codec>.parquet` (our file),
//! which `peers/writes.py` reads into an Arrow table / DataFrame (untimed)
//! and writes again with pyarrow's `write_table` and polars' `write_parquet`
//! under the same settings, printing lines in the same format.
//!
//! `write-once WRITER CODEC` makes the 1M ticks, then writes them once with
//! one writer (`ours`, `cols` for our writer on the column writers, `arrow`,
//! `derive`) under `zstd` or `snappy`, inside `write_once_measured`: for
//! `valgrind --tool=callgrind --toggle-collect='*write_once_measured*'`,
//! which counts the instructions of the write alone (wall clock is not
//! comparable on a shared machine; instruction counts are).
//!
//! `write-memory [ROWS]` writes ROWS ticks (default 20M) to a file in row
//! groups of 500,000, 100,000 rows per `write` call, generating each batch as
//! it goes, and prints the process's peak resident memory (`VmHWM`).
//!
//! `write-filters [--rounds N]` writes 10M ticks with our writer (row groups
//! of 1M rows, the page index on) and times a 1% `ts` range against the full
//! read of that file.

use std::hint::black_box;
use std::sync::Arc;
use std::time::Instant;

use arrow_array::{ArrayRef, Float64Array, Int64Array, RecordBatch, StringArray, UInt32Array};
use parquet::arrow::ArrowWriter;
use parquet::basic::{Compression as Codec, ZstdLevel};
use parquet::file::properties::{EnabledStatistics, WriterProperties};
use parquet::file::writer::SerializedFileWriter;
use parquet::record::RecordWriter;
use parquet_derive::ParquetRecordWriter;
use parquet_rows::writer::Compression;
use parquet_rows::{ParquetFile, ParquetRow, WriteOptions, Writer};

const ROWS: usize = 1_000_000;
const SYMBOLS: [&str; 8] = [
    "EURUSD", "USDJPY", "GBPUSD", "AUDUSD", "USDCHF", "USDCAD", "NZDUSD", "EURGBP",
];

/// The tick as parquet-rows writes and reads it.
#[derive(ParquetRow, Debug, PartialEq, Clone)]
struct Tick<'a> {
    ts: i64,
    symbol: &'a str,
    bid: f64,
    ask: f64,
    size: u32,
}

/// The same tick for `parquet_derive` (its own derive, its own struct).
#[derive(ParquetRecordWriter)]
struct DeriveTick<'a> {
    ts: i64,
    symbol: &'a str,
    bid: f64,
    ask: f64,
    size: u32,
}

fn tick(i: usize) -> Tick<'static> {
    let bid = 1.1 + f64::from((i % 1000) as u32) * 1e-5;
    Tick {
        ts: 1_774_000_000_000_000 + i as i64 * 137,
        symbol: SYMBOLS[(i * 7 + i / 13) % SYMBOLS.len()],
        bid,
        ask: bid + 0.00012,
        size: (i % 5000) as u32 * 100,
    }
}

fn ours(rows: &[Tick<'_>], codec: Compression, group: usize) -> Vec<u8> {
    ours_with(rows, codec, group, true, 1)
}

/// As `ours`, with the writer's own encoders or with the `parquet` crate's
/// column writers for every column (`WriteOptions::own_encoders`), the
/// columns encoded on `threads` threads (`WriteOptions::threads`).
fn ours_with(
    rows: &[Tick<'_>],
    codec: Compression,
    group: usize,
    own: bool,
    threads: usize,
) -> Vec<u8> {
    let options = WriteOptions::default()
        .compression(codec)
        .row_group_rows(group)
        .own_encoders(own)
        .threads(threads);
    let mut writer = Writer::<Tick, _>::new(Vec::new(), options).expect("writer");
    writer.write(rows).expect("write");
    writer.finish().expect("finish").1
}

fn props(codec: Codec) -> Arc<WriterProperties> {
    Arc::new(
        WriterProperties::builder()
            .set_compression(codec)
            .set_max_row_group_row_count(Some(ROWS))
            .set_statistics_enabled(EnabledStatistics::Page)
            .set_dictionary_enabled(true)
            .build(),
    )
}

/// ArrowWriter, including building its batch from the rows (a user with a
/// `Vec<T>` has to).
fn arrow(rows: &[Tick<'_>], codec: Codec) -> Vec<u8> {
    let columns: Vec<ArrayRef> = vec![
        Arc::new(rows.iter().map(|r| r.ts).collect::<Int64Array>()),
        Arc::new(rows.iter().map(|r| Some(r.symbol)).collect::<StringArray>()),
        Arc::new(rows.iter().map(|r| r.bid).collect::<Float64Array>()),
        Arc::new(rows.iter().map(|r| r.ask).collect::<Float64Array>()),
        Arc::new(rows.iter().map(|r| r.size).collect::<UInt32Array>()),
    ];
    let batch = RecordBatch::try_from_iter(
        ["ts", "symbol", "bid", "ask", "size"]
            .into_iter()
            .zip(columns),
    )
    .expect("batch");
    let mut writer =
        ArrowWriter::try_new(Vec::new(), batch.schema(), Some((*props(codec)).clone()))
            .expect("arrow writer");
    writer.write(&batch).expect("write");
    writer.into_inner().expect("close")
}

/// `parquet_derive`'s `RecordWriter` over the rows (converted to its struct
/// untimed: the same fields, borrowed).
fn derive(rows: &[DeriveTick<'_>], codec: Codec) -> Vec<u8> {
    let schema = rows.schema().expect("schema");
    let mut writer = SerializedFileWriter::new(Vec::new(), schema, props(codec)).expect("writer");
    let mut group = writer.next_row_group().expect("row group");
    rows.write_to_row_group(&mut group).expect("write");
    group.close().expect("close group");
    writer.into_inner().expect("close")
}

fn codecs() -> [(&'static str, Compression, Codec); 2] {
    [
        (
            "ZSTD",
            Compression::Zstd(1),
            Codec::ZSTD(ZstdLevel::try_new(1).expect("level")),
        ),
        ("SNAPPY", Compression::Snappy, Codec::SNAPPY),
    ]
}

fn median(samples: &mut [f64]) -> f64 {
    samples.sort_by(f64::total_cmp);
    samples[samples.len() / 2]
}

/// The 1M ticks every writer writes, as our `Tick` and as
/// `parquet_derive`'s struct.
fn tick_rows() -> (Vec<Tick<'static>>, Vec<DeriveTick<'static>>) {
    let rows: Vec<Tick<'static>> = (0..ROWS).map(tick).collect();
    let derive_rows = rows
        .iter()
        .map(|r| DeriveTick {
            ts: r.ts,
            symbol: r.symbol,
            bid: r.bid,
            ask: r.ask,
            size: r.size,
        })
        .collect();
    (rows, derive_rows)
}

/// `bench-report write-once WRITER CODEC [OUT]`; `None` for an unknown
/// writer or codec. The file goes to `out` when given, so that a change to
/// the encoders can be checked to write the same bytes.
pub fn once(writer: &str, codec: &str, out: Option<&str>) -> Option<()> {
    let (_, ours_codec, codec) = codecs()
        .into_iter()
        .find(|(name, _, _)| name.eq_ignore_ascii_case(codec))?;
    if !matches!(writer, "ours" | "ours2t" | "cols" | "arrow" | "derive") {
        return None;
    }
    let (rows, derive_rows) = tick_rows();
    // WRITE_ONCE_REPEAT=N writes N times (a steady state for `perf`).
    let repeat: usize = std::env::var("WRITE_ONCE_REPEAT")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(1);
    let mut bytes = Vec::new();
    for _ in 0..repeat.max(1) {
        bytes = write_once_measured(writer, &rows, &derive_rows, ours_codec, codec);
    }
    println!("{writer} {codec:?}: {} bytes", bytes.len());
    if let Some(out) = out {
        std::fs::write(out, &bytes).unwrap_or_else(|e| panic!("writing {out}: {e}"));
    }
    Some(())
}

/// The write `write-once` measures (not inlined, so that callgrind can
/// toggle collection on it).
#[inline(never)]
fn write_once_measured(
    writer: &str,
    rows: &[Tick<'_>],
    derive_rows: &[DeriveTick<'_>],
    ours_codec: Compression,
    codec: Codec,
) -> Vec<u8> {
    black_box(match writer {
        "ours" => ours(rows, ours_codec, ROWS),
        "cols" => ours_with(rows, ours_codec, ROWS, false, 1),
        "ours2t" => ours_with(rows, ours_codec, ROWS, true, 2),
        "arrow" => arrow(rows, codec),
        _ => derive(derive_rows, codec),
    })
}

/// `bench-report writes`.
pub fn run(rounds: usize) {
    let (rows, derive_rows) = tick_rows();
    let dir = crate::common::fixtures_dir();
    std::fs::create_dir_all(&dir).expect("fixtures dir");
    println!("# writing {ROWS} ticks into memory, one row group, dictionary on, page index; {rounds} interleaved rounds, the first discarded");
    println!(
        "{:<8} {:<16} {:>10} {:>10} {:>12} {:>9}",
        "codec", "writer", "median_ms", "min_ms", "bytes", "theirs/ours"
    );
    for (name, ours_codec, codec) in codecs() {
        // Every writer's file reads back as the rows.
        let mine = ours(&rows, ours_codec, ROWS);
        let check = |bytes: Vec<u8>, who: &str| {
            let file = ParquetFile::from_bytes(bytes).unwrap_or_else(|e| panic!("{who}: {e}"));
            let back = file.load::<Tick>().expect("load");
            let back = back.rows::<Tick>().unwrap_or_else(|e| panic!("{who}: {e}"));
            assert!(back == rows, "{who}: the rows read back differ");
        };
        check(mine.clone(), "parquet-rows");
        check(
            ours_with(&rows, ours_codec, ROWS, false, 1),
            "parquet-rows (column writers)",
        );
        // Columns encoded on two threads: the same file, byte for byte.
        assert!(
            ours_with(&rows, ours_codec, ROWS, true, 2) == mine,
            "parquet-rows on 2 threads wrote another file"
        );
        check(arrow(&rows, codec), "arrow-rs");
        check(derive(&derive_rows, codec), "parquet_derive");
        std::fs::write(
            dir.join(format!("bench-writes-{}.parquet", name.to_lowercase())),
            &mine,
        )
        .expect("write fixture");

        type Run<'r> = Box<dyn FnMut() -> usize + 'r>;
        let mut variants: Vec<(&str, Run<'_>)> = vec![
            (
                "parquet-rows",
                Box::new(|| ours(&rows, ours_codec, ROWS).len()),
            ),
            (
                "parquet-rows 2t",
                Box::new(|| ours_with(&rows, ours_codec, ROWS, true, 2).len()),
            ),
            (
                "rows+col.writers",
                Box::new(|| ours_with(&rows, ours_codec, ROWS, false, 1).len()),
            ),
            ("arrow-rs", Box::new(|| arrow(&rows, codec).len())),
            (
                "parquet_derive",
                Box::new(|| derive(&derive_rows, codec).len()),
            ),
        ];
        let k = variants.len();
        let mut samples = vec![Vec::new(); k];
        let mut sizes = vec![0; k];
        for round in 0..rounds {
            for j in 0..k {
                let i = (j + round) % k;
                let t0 = Instant::now();
                sizes[i] = black_box((variants[i].1)());
                if round > 0 {
                    samples[i].push(t0.elapsed().as_secs_f64() * 1e3);
                }
            }
        }
        let medians: Vec<f64> = samples.iter_mut().map(|s| median(s)).collect();
        for (i, (variant, _)) in variants.iter().enumerate() {
            println!(
                "{:<8} {:<16} {:>10.1} {:>10.1} {:>12} {:>8.2}x",
                name,
                variant,
                medians[i],
                samples[i][0],
                sizes[i],
                medians[i] / medians[0]
            );
        }
    }
    println!("# theirs/ours: their time over ours, above 1 means parquet-rows is faster. Peers: bench-report/peers/writes.py (reads target/fixtures/bench-writes-*.parquet)");
}

/// The process's peak resident memory, in KiB (`VmHWM` in /proc/self/status).
fn peak_rss_kib() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmHWM:"))
                .and_then(|l| l.split_whitespace().nth(1))
                .and_then(|n| n.parse().ok())
        })
        .unwrap_or(0)
}

/// `bench-report write-memory [ROWS]`.
pub fn memory(total: usize) {
    let path = crate::common::fixtures_dir().join("bench-write-memory.parquet");
    std::fs::create_dir_all(path.parent().expect("dir")).expect("fixtures dir");
    let before = peak_rss_kib();
    let t0 = Instant::now();
    let options = WriteOptions::default()
        .compression(Compression::Zstd(1))
        .row_group_rows(500_000);
    let mut writer = Writer::<Tick>::create(&path, options).expect("create");
    let mut batch = Vec::with_capacity(100_000);
    let mut at = 0;
    while at < total {
        batch.clear();
        batch.extend((at..(at + 100_000).min(total)).map(tick));
        writer.write(&batch).expect("write");
        at += batch.len();
    }
    let summary = writer.close().expect("close");
    let took = t0.elapsed();
    let after = peak_rss_kib();
    let bytes = std::fs::metadata(&path).map_or(0, |m| m.len());
    println!(
        "write-memory rows={total} row_group_rows=500000 batch=100000 file_bytes={bytes} seconds={:.2} \
         peak_rss_before={:.1}MiB peak_rss={:.1}MiB summary_rows={}",
        took.as_secs_f64(),
        before as f64 / 1024.0,
        after as f64 / 1024.0,
        summary.rows
    );
    let file = ParquetFile::open(&path).expect("open");
    assert_eq!(file.num_rows(), total, "rows in the file");
    std::fs::remove_file(&path).ok();
}

/// `bench-report write-filters [--rounds N]`.
pub fn filters(rounds: usize) {
    const TOTAL: usize = 10_000_000;
    let path = crate::common::fixtures_dir().join("bench-write-filters-10m.parquet");
    std::fs::create_dir_all(path.parent().expect("dir")).expect("fixtures dir");
    if !path.exists() {
        let options = WriteOptions::default()
            .compression(Compression::Snappy)
            .row_group_rows(1_000_000);
        let mut writer = Writer::<Tick>::create(&path, options).expect("create");
        let mut batch = Vec::with_capacity(100_000);
        for start in (0..TOTAL).step_by(100_000) {
            batch.clear();
            batch.extend((start..start + 100_000).map(tick));
            writer.write(&batch).expect("write");
        }
        writer.close().expect("close");
    }
    let bytes = bytes::Bytes::from(std::fs::read(&path).expect("read fixture"));
    let file = ParquetFile::from_bytes(bytes).expect("open");
    let lo = tick(4_950_000).ts;
    let hi = tick(5_050_000).ts;
    let full = || {
        let pages = file.load::<Tick>().expect("load");
        pages.rows::<Tick>().expect("rows").len()
    };
    let range = || {
        let pages = file
            .rows::<Tick>().filter(Tick::filter().ts().in_range(lo..hi)).load()
            .expect("load_where");
        pages.rows::<Tick>().expect("rows").len()
    };
    assert_eq!(full(), TOTAL);
    assert_eq!(range(), 100_000);
    let mut a = Vec::new();
    let mut b = Vec::new();
    for round in 0..rounds {
        let t0 = Instant::now();
        black_box(full());
        let t1 = Instant::now();
        black_box(range());
        if round > 0 {
            a.push(t1.duration_since(t0).as_secs_f64() * 1e3);
            b.push(t1.elapsed().as_secs_f64() * 1e3);
        }
    }
    let (a, b) = (median(&mut a), median(&mut b));
    println!("write-filters our 10M-tick file (row groups of 1M, page index): full read {a:.1} ms, 1% ts range {b:.2} ms = {:.2}% of the full read", 100.0 * b / a);
}
