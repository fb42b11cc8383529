//! Every public future of the remote API is `Send`: each is
//! `tokio::spawn`ed on a multi-thread runtime (a future that is not `Send`
//! does not compile here), and its result checked.

use std::sync::Arc;

use futures_util::TryStreamExt;
use object_store::memory::InMemory;
use object_store::path::Path;
use object_store::ObjectStore;
use parquet_rows::dataset::Dataset;
use parquet_rows::remote::{FetchOptions, RemoteFile};

use super::{put, wide_file, Adjacent, GROUPS, ROWS};

#[test]
#[allow(clippy::many_single_char_names)] // the one-letter clones moved into each task
fn every_remote_future_can_be_spawned_on_a_multi_thread_runtime() {
    let store: Arc<dyn ObjectStore> = Arc::new(InMemory::new());
    for name in ["d/a.parquet", "d/b.parquet"] {
        put(&*store, &Path::from(name), wide_file());
    }
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .build()
        .unwrap();
    let query = || Adjacent::filter().c4().lt(100_000); // rows 0..1,000 of each file
    runtime.block_on(async {
        let location = Path::from("d/a.parquet");
        let s = Arc::clone(&store);
        let l = location.clone();
        let remote = tokio::spawn(async move { RemoteFile::open(s, l).await })
            .await
            .unwrap()
            .unwrap();
        let (s, l) = (Arc::clone(&store), location.clone());
        let fetch = FetchOptions::default();
        let opened = tokio::spawn(async move { RemoteFile::open_with(s, l, fetch).await });
        assert_eq!(opened.await.unwrap().unwrap().len(), remote.len());

        let r = remote.clone();
        let n = tokio::spawn(async move { r.fetch::<Adjacent>().await.map(|f| f.num_rows()) });
        assert_eq!(n.await.unwrap().unwrap(), GROUPS * ROWS);
        let r = remote.clone();
        let n = tokio::spawn(async move {
            r.fetch_row_groups::<Adjacent>(&[1, 2])
                .await
                .map(|f| f.num_rows())
        });
        assert_eq!(n.await.unwrap().unwrap(), 2 * ROWS);
        let r = remote.clone();
        let n = tokio::spawn(async move { r.rows::<Adjacent>().collect().await.map(|v| v.len()) });
        assert_eq!(n.await.unwrap().unwrap(), GROUPS * ROWS);
        let r = remote.clone();
        let n = tokio::spawn(async move {
            r.rows::<Adjacent>()
                .filter(query())
                .load()
                .await
                .map(|p| p.rows::<Adjacent>().map(|v| v.len()))
        });
        assert_eq!(n.await.unwrap().unwrap().unwrap(), 1_000);
        let r = remote.clone();
        let n = tokio::spawn(async move {
            r.rows::<Adjacent>()
                .filter(query())
                .collect()
                .await
                .map(|v| v.len())
        });
        assert_eq!(n.await.unwrap().unwrap(), 1_000);
        let r = remote.clone();
        let n = tokio::spawn(async move {
            let groups: Vec<Vec<Adjacent>> = r.rows::<Adjacent>().batches().try_collect().await?;
            Ok::<_, parquet_rows::Error>(groups.len())
        });
        assert_eq!(n.await.unwrap().unwrap(), GROUPS);
        let r = remote.clone();
        let n = tokio::spawn(async move {
            let rows: Vec<Adjacent> = r
                .rows::<Adjacent>()
                .offset(10)
                .stream()
                .try_collect()
                .await?;
            Ok::<_, parquet_rows::Error>(rows.len())
        });
        assert_eq!(n.await.unwrap().unwrap(), GROUPS * ROWS - 10);
        let r = remote.clone();
        let n = tokio::spawn(async move {
            let groups: Vec<Vec<Adjacent>> = r
                .rows::<Adjacent>()
                .filter(query())
                .batches()
                .try_collect()
                .await?;
            Ok::<_, parquet_rows::Error>(groups.len())
        });
        assert_eq!(n.await.unwrap().unwrap(), 1);
    });
}

/// The futures of datasets and splits (see above).
#[test]
#[allow(clippy::many_single_char_names)] // the one-letter clones moved into each task
fn every_dataset_and_split_future_can_be_spawned_on_a_multi_thread_runtime() {
    let store: Arc<dyn ObjectStore> = Arc::new(InMemory::new());
    for name in ["d/a.parquet", "d/b.parquet"] {
        put(&*store, &Path::from(name), wide_file());
    }
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .build()
        .unwrap();
    let query = || Adjacent::filter().c4().lt(100_000); // rows 0..1,000 of each file
    let all = 2 * GROUPS * ROWS;
    runtime.block_on(async {
        let s = Arc::clone(&store);
        let dataset = tokio::spawn(async move { Dataset::open(s, "d").await })
            .await
            .unwrap()
            .unwrap();
        let d = dataset.clone();
        let n = tokio::spawn(async move { d.rows::<Adjacent>().collect().await.map(|v| v.len()) });
        assert_eq!(n.await.unwrap().unwrap(), all);
        let d = dataset.clone();
        let n = tokio::spawn(async move {
            d.rows::<Adjacent>()
                .filter(query())
                .collect()
                .await
                .map(|v| v.len())
        });
        assert_eq!(n.await.unwrap().unwrap(), 2_000);
        let d = dataset.clone();
        let n = tokio::spawn(async move {
            let groups: Vec<Vec<Adjacent>> = d.rows::<Adjacent>().batches().try_collect().await?;
            Ok::<_, parquet_rows::Error>(groups.len())
        });
        assert_eq!(n.await.unwrap().unwrap(), 2 * GROUPS);
        let d = dataset.clone();
        let n = tokio::spawn(async move {
            let rows: Vec<Adjacent> = d
                .rows::<Adjacent>()
                .filter(query())
                .stream()
                .try_collect()
                .await?;
            Ok::<_, parquet_rows::Error>(rows.len())
        });
        assert_eq!(n.await.unwrap().unwrap(), 2_000);
        let d = dataset.clone();
        let splits = tokio::spawn(async move { d.splits::<Adjacent>(1 << 30).await })
            .await
            .unwrap()
            .unwrap();
        assert_eq!(splits.len(), 2);
        let s = Arc::clone(&store);
        let split = splits[1].clone();
        let n = tokio::spawn(async move {
            let split = split.with_store(s);
            split.rows::<Adjacent>().collect().await.map(|v| v.len())
        });
        assert_eq!(n.await.unwrap().unwrap(), GROUPS * ROWS);
        let (s, split) = (Arc::clone(&store), splits[1].clone());
        let n = tokio::spawn(async move {
            let split = split.with_store(s);
            let pages = split.rows::<Adjacent>().filter(query()).load().await?;
            pages.rows::<Adjacent>().map(|v| v.len())
        });
        assert_eq!(n.await.unwrap().unwrap(), 1_000);
        let (s, split) = (Arc::clone(&store), splits[1].clone());
        let n = tokio::spawn(async move {
            let split = split.with_store(s);
            let rows: Vec<Adjacent> = split
                .rows::<Adjacent>()
                .limit(5)
                .stream()
                .try_collect()
                .await?;
            Ok::<_, parquet_rows::Error>(rows.len())
        });
        assert_eq!(n.await.unwrap().unwrap(), 5);
        let (s, split) = (Arc::clone(&store), splits[1].clone());
        let n = tokio::spawn(async move {
            let split = split.with_store(s);
            let groups: Vec<Vec<Adjacent>> =
                split.rows::<Adjacent>().batches().try_collect().await?;
            Ok::<_, parquet_rows::Error>(groups.len())
        });
        assert_eq!(n.await.unwrap().unwrap(), GROUPS);
        // A file read through a source of the user's.
        let bytes = wide_file();
        let n = tokio::spawn(async move {
            let remote = RemoteFile::from_source(Arc::new(bytes)).await?;
            let rows: Vec<Adjacent> = remote
                .rows::<Adjacent>()
                .filter(query())
                .stream()
                .try_collect()
                .await?;
            Ok::<_, parquet_rows::Error>(rows.len())
        });
        assert_eq!(n.await.unwrap().unwrap(), 1_000);
    });
}
