//! Issue 18's CPU target: reading through an object store (async open and
//! fetch of the bound column chunks, then the same decoder) against reading
//! the same bytes held in memory.
//!
//! `bench-report remote [--rounds N]` times, on a 1M-row tick file (ZSTD,
//! one row group), owned rows (`read`) and borrowed rows (`load` + `rows`)
//! both ways, the store being `object_store`'s `InMemory` on a
//! current-thread tokio runtime: everything runs on this thread, so the
//! wall time of a call is its CPU time, and the difference between the two
//! paths is what the async fetch costs (no network).

use std::hint::black_box;
use std::sync::Arc;
use std::time::Instant;

use bytes::Bytes;
use object_store::memory::InMemory;
use object_store::path::Path;
use object_store::{ObjectStore, ObjectStoreExt};
use parquet::basic::{Compression, ZstdLevel};
use parquet::file::properties::WriterProperties;
use parquet_rows::remote::RemoteFile;
use parquet_rows::ParquetFile;
use parquet_rows_suite::{write_ticks_with, Tick, TickOwned};

const ROWS: usize = 1_000_000;

type Run<'a> = Box<dyn FnMut() -> usize + 'a>;

pub fn run(rounds: usize) {
    let mut buf = Vec::new();
    let props = WriterProperties::builder()
        .set_compression(Compression::ZSTD(ZstdLevel::default()))
        .build();
    write_ticks_with(&mut buf, ROWS, props).expect("write the tick file");
    let bytes = Bytes::from(buf);
    let runtime = tokio::runtime::Builder::new_current_thread()
        .build()
        .expect("runtime");
    let store: Arc<dyn ObjectStore> = Arc::new(InMemory::new());
    let location = Path::from("ticks.parquet");
    runtime
        .block_on(store.put(&location, bytes.clone().into()))
        .expect("put");

    let mut variants: Vec<(&str, Run<'_>)> = vec![
        (
            "sync-owned",
            Box::new(|| {
                let file = ParquetFile::from_bytes(bytes.clone()).expect("open");
                black_box(file.rows::<TickOwned>().collect().expect("read")).len()
            }),
        ),
        (
            "async-owned",
            Box::new(|| {
                runtime.block_on(async {
                    let remote = RemoteFile::open(Arc::clone(&store), location.clone())
                        .await
                        .expect("open");
                    black_box(remote.rows::<TickOwned>().collect().await.expect("read")).len()
                })
            }),
        ),
        (
            "sync-borrowed",
            Box::new(|| {
                let file = ParquetFile::from_bytes(bytes.clone()).expect("open");
                let pages = file.load::<Tick>().expect("load");
                black_box(pages.rows::<Tick>().expect("rows")).len()
            }),
        ),
        (
            "async-borrowed",
            Box::new(|| {
                let file = runtime.block_on(async {
                    let remote = RemoteFile::open(Arc::clone(&store), location.clone())
                        .await
                        .expect("open");
                    remote.fetch::<Tick>().await.expect("fetch")
                });
                let pages = file.load::<Tick>().expect("load");
                black_box(pages.rows::<Tick>().expect("rows")).len()
            }),
        ),
    ];
    for (name, run) in &mut variants {
        assert_eq!(run(), ROWS, "{name}: rows");
    }
    let k = variants.len();
    let mut samples = vec![Vec::new(); k];
    for round in 0..rounds {
        for j in 0..k {
            let i = (j + round) % k;
            let t0 = Instant::now();
            black_box((variants[i].1)());
            if round > 0 {
                samples[i].push(t0.elapsed().as_secs_f64() * 1e9 / ROWS as f64);
            }
        }
    }
    for s in &mut samples {
        s.sort_by(f64::total_cmp);
    }
    let median = |s: &[f64]| s[s.len() / 2];
    println!(
        "# {rounds} interleaved rounds, the first discarded; ns per row (wall = CPU: one thread)"
    );
    println!(
        "{:<16} {:>9} {:>10} {:>10}",
        "variant", "rows", "median", "min"
    );
    for (i, (name, _)) in variants.iter().enumerate() {
        println!(
            "{name:<16} {ROWS:>9} {:>10.2} {:>10.2}",
            median(&samples[i]),
            samples[i][0]
        );
    }
    for (sync, remote) in [(0, 1), (2, 3)] {
        let ratio = median(&samples[remote]) / median(&samples[sync]);
        println!(
            "{}  {} / {}: {ratio:.3}x (target <= 1.10x)",
            crate::verdict(ratio <= 1.10),
            variants[remote].0,
            variants[sync].0
        );
    }
}
