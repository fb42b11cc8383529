//! Writing 1,000,000 ticks (`ts`, `symbol` of 8 values, `bid`, `ask`,
//! `size`) from a `Vec` of structs into memory, SNAPPY and ZSTD(1), one row
//! group, dictionary on, statistics with the page index:
//!
//! | id | what is timed |
//! |---|---|
//! | `parquet-rows_writer` | `Writer::<Tick>::new(Vec::new())`, `write(&rows)`, `finish()` |
//! | `column-api_by_hand` | the `parquet` crate's column writers fed by hand: a `Vec` per column built from the rows (a `ByteArray` copy per symbol), `write_batch` each |
//!
//! The two write the same schema with the same `WriterProperties` (the
//! writer's own are made by `WriteOptions`), so the difference is what the
//! writer adds around the column writers. Run with
//! `cargo bench --bench write`.

use std::hint::black_box;
use std::sync::Arc;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use parquet::basic::{Compression as Codec, ZstdLevel};
use parquet::data_type::{ByteArray, ByteArrayType, DoubleType, Int32Type, Int64Type};
use parquet::file::properties::{EnabledStatistics, WriterProperties};
use parquet::file::writer::SerializedFileWriter;
use parquet::schema::parser::parse_message_type;
use parquet_rows::writer::Compression;
use parquet_rows::{ParquetRow, WriteOptions, Writer};

const ROWS: usize = 1_000_000;
const SYMBOLS: [&str; 8] = [
    "EURUSD", "USDJPY", "GBPUSD", "AUDUSD", "USDCHF", "USDCAD", "NZDUSD", "EURGBP",
];

#[derive(ParquetRow, Debug, PartialEq)]
struct Tick<'a> {
    ts: i64,
    symbol: &'a str,
    bid: f64,
    ask: f64,
    size: u32,
}

fn ticks() -> Vec<Tick<'static>> {
    (0..ROWS)
        .map(|i| {
            let bid = 1.1 + f64::from((i % 1000) as u32) * 1e-5;
            Tick {
                ts: 1_774_000_000_000_000 + i as i64 * 137,
                symbol: SYMBOLS[(i * 7 + i / 13) % SYMBOLS.len()],
                bid,
                ask: bid + 0.00012,
                size: (i % 5000) as u32 * 100,
            }
        })
        .collect()
}

fn ours(rows: &[Tick<'_>], codec: Compression) -> Vec<u8> {
    let options = WriteOptions::default()
        .compression(codec)
        .row_group_rows(ROWS);
    let mut writer = Writer::<Tick, _>::new(Vec::new(), options).unwrap();
    writer.write(rows).unwrap();
    writer.finish().unwrap().1
}

const SCHEMA: &str = "message schema {
    REQUIRED INT64 ts;
    REQUIRED BINARY symbol (STRING);
    REQUIRED DOUBLE bid;
    REQUIRED DOUBLE ask;
    REQUIRED INT32 size (INTEGER(32, false));
}";

fn by_hand(rows: &[Tick<'_>], codec: Codec) -> Vec<u8> {
    let props = WriterProperties::builder()
        .set_compression(codec)
        .set_max_row_group_row_count(None)
        .set_statistics_enabled(EnabledStatistics::Page)
        .build();
    let schema = Arc::new(parse_message_type(SCHEMA).unwrap());
    let mut writer = SerializedFileWriter::new(Vec::new(), schema, Arc::new(props)).unwrap();
    let ts: Vec<i64> = rows.iter().map(|r| r.ts).collect();
    let symbol: Vec<ByteArray> = rows.iter().map(|r| ByteArray::from(r.symbol)).collect();
    let bid: Vec<f64> = rows.iter().map(|r| r.bid).collect();
    let ask: Vec<f64> = rows.iter().map(|r| r.ask).collect();
    let size: Vec<i32> = rows.iter().map(|r| r.size as i32).collect();
    let mut group = writer.next_row_group().unwrap();
    let mut column = group.next_column().unwrap().unwrap();
    column
        .typed::<Int64Type>()
        .write_batch(&ts, None, None)
        .unwrap();
    column.close().unwrap();
    let mut column = group.next_column().unwrap().unwrap();
    column
        .typed::<ByteArrayType>()
        .write_batch(&symbol, None, None)
        .unwrap();
    column.close().unwrap();
    for values in [&bid, &ask] {
        let mut column = group.next_column().unwrap().unwrap();
        column
            .typed::<DoubleType>()
            .write_batch(values, None, None)
            .unwrap();
        column.close().unwrap();
    }
    let mut column = group.next_column().unwrap().unwrap();
    column
        .typed::<Int32Type>()
        .write_batch(&size, None, None)
        .unwrap();
    column.close().unwrap();
    group.close().unwrap();
    writer.into_inner().unwrap()
}

fn bench(c: &mut Criterion) {
    let rows = ticks();
    let codecs = [
        ("SNAPPY", Compression::Snappy, Codec::SNAPPY),
        (
            "ZSTD",
            Compression::Zstd(1),
            Codec::ZSTD(ZstdLevel::try_new(1).unwrap()),
        ),
    ];
    // Both files read back as the rows, and are about the same size.
    for (_, ours_codec, theirs) in codecs {
        let a = ours(&rows, ours_codec);
        let b = by_hand(&rows, theirs);
        let back = parquet_rows::ParquetFile::from_bytes(a.clone()).unwrap();
        assert_eq!(back.load::<Tick>().unwrap().rows::<Tick>().unwrap(), rows);
        let back: Vec<(i64, u32)> = parquet_rows::from_bytes::<Owned>(b.clone())
            .unwrap()
            .into_iter()
            .map(|t| (t.ts, t.size))
            .collect();
        assert_eq!(back.len(), ROWS);
        // Within 5% of each other.
        assert!(
            a.len().abs_diff(b.len()) * 20 <= b.len(),
            "sizes {} and {}",
            a.len(),
            b.len()
        );
    }
    let mut group = c.benchmark_group("write_ticks");
    group.throughput(Throughput::Elements(ROWS as u64));
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(10));
    for (name, ours_codec, theirs) in codecs {
        group.bench_with_input(
            BenchmarkId::new("parquet-rows_writer", name),
            &rows,
            |b, rows| {
                b.iter(|| black_box(ours(rows, ours_codec)));
            },
        );
        group.bench_with_input(
            BenchmarkId::new("column-api_by_hand", name),
            &rows,
            |b, rows| {
                b.iter(|| black_box(by_hand(rows, theirs)));
            },
        );
    }
    group.finish();
}

#[derive(ParquetRow)]
struct Owned {
    ts: i64,
    size: u32,
}

criterion_group!(benches, bench);
criterion_main!(benches);
