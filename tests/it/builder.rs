//! The read builder (`file.rows::<T>()`): every combination of threads ×
//! filter × window × row groups × ending × source (bytes, a path, an
//! object store) returns the rows that filtering and windowing the full
//! read in memory gives.

use std::sync::Arc;

use bytes::Bytes;
use futures_util::TryStreamExt;
use object_store::memory::InMemory;
use object_store::path::Path;
use object_store::{ObjectStore, ObjectStoreExt};
use parquet_rows::remote::RemoteFile;
use parquet_rows::RowFilter as _;
use parquet_rows::{ParquetFile, ParquetRow, ReadOptions, Result};

use crate::flat::{Borrowed, Row};

const ROWS: usize = 1000;
const GROUP: usize = 250; // 4 row groups

/// Rows `0..ROWS` in row groups of `GROUP` rows, pages of 64 rows, a page
/// index (`crate::flat::flat`).
fn file() -> Bytes {
    crate::flat::flat(ROWS, GROUP, true)
}

/// One read: the options a builder is given.
#[derive(Debug, Clone)]
struct Case {
    threads: usize,
    filter: Filter,
    offset: Option<usize>,
    limit: Option<usize>,
    groups: Option<Vec<usize>>,
}

#[derive(Debug, Clone, Copy)]
enum Filter {
    None,
    IdRange, // id in 100..700 (prunes row group 3 and pages)
    Symbol,  // s == "s3" (no statistics prune it), with the query's own limit
}

impl Filter {
    fn keeps(self, row: &Row, index: usize) -> bool {
        let _ = index;
        match self {
            Filter::None => true,
            Filter::IdRange => (100..700).contains(&row.id),
            Filter::Symbol => row.s == "s3",
        }
    }
}

/// The expected rows: the full read, narrowed in memory.
fn expected(all: &[Row], case: &Case) -> Vec<Row> {
    let in_groups: Vec<&Row> = all
        .iter()
        .filter(|r| {
            let g = r.id as usize / GROUP;
            case.groups.as_ref().is_none_or(|gs| gs.contains(&g))
        })
        .collect();
    let mut kept: Vec<Row> = in_groups
        .into_iter()
        .enumerate()
        .filter(|(i, r)| case.filter.keeps(r, *i))
        .map(|(_, r)| r.clone())
        .collect();
    if let Filter::Symbol = case.filter {
        kept.truncate(40); // the query's own limit
    }
    let rows = kept.into_iter().skip(case.offset.unwrap_or(0));
    match case.limit {
        Some(n) => rows.take(n).collect(),
        None => rows.collect(),
    }
}

/// The cases: threads 1/2 × filters × windows × row groups.
fn cases() -> Vec<Case> {
    let windows = [
        (None, None),
        (Some(0), Some(0)),
        (Some(5), None),
        (None, Some(7)),
        (Some(240), Some(30)), // across a row group boundary
        (Some(ROWS - 3), None),
        (Some(ROWS + 1), Some(3)),
    ];
    let groups = [None, Some(vec![1, 3]), Some(vec![2, 0])];
    let mut cases = Vec::new();
    for threads in [1, 2] {
        for filter in [Filter::None, Filter::IdRange, Filter::Symbol] {
            for &(offset, limit) in &windows {
                for g in &groups {
                    cases.push(Case {
                        threads,
                        filter,
                        offset,
                        limit,
                        groups: g.clone(),
                    });
                }
            }
        }
    }
    cases
}

/// Applies `case` to a builder of any source (the options are the same
/// methods on every source).
macro_rules! narrow {
    ($builder:expr, $case:expr, $row:ty) => {{
        let case: &Case = $case;
        let mut b = $builder;
        b = match case.filter {
            Filter::None => b,
            Filter::IdRange => b.filter(<$row>::filter().id().in_range(100..700)),
            Filter::Symbol => b.filter(<$row>::filter().s().eq("s3").limit(40)),
        };
        if let Some(n) = case.offset {
            b = b.offset(n);
        }
        if let Some(n) = case.limit {
            b = b.limit(n);
        }
        if let Some(g) = &case.groups {
            b = b.row_groups(g.iter().copied());
        }
        b.options(ReadOptions::default())
    }};
}

/// Every local ending's rows for `case`.
fn local(file: &ParquetFile, case: &Case) -> Vec<(&'static str, Result<Vec<Row>>)> {
    let collect = if case.threads > 1 {
        narrow!(file.rows::<Row>(), case, Row)
            .threads(case.threads)
            .collect()
    } else {
        narrow!(file.rows::<Row>(), case, Row).collect()
    };
    let load = |parallel: bool| -> Result<Vec<Row>> {
        let b = narrow!(file.rows::<Borrowed>(), case, Borrowed);
        let pages = if parallel {
            b.threads(case.threads).load()?
        } else {
            b.load()?
        };
        let rows: Vec<Borrowed<'_>> = if parallel {
            pages.par_rows()?
        } else {
            pages.rows()?
        };
        Ok(rows.iter().map(Borrowed::owned).collect())
    };
    let stream = narrow!(file.rows::<Row>(), case, Row)
        .stream()
        .and_then(Iterator::collect);
    let batches = narrow!(file.rows::<Row>(), case, Row)
        .batches()
        .and_then(|b| {
            b.collect::<Result<Vec<Vec<Row>>>>()
                .map(|v| v.into_iter().flatten().collect())
        });
    vec![
        ("collect", collect),
        ("load + rows", load(case.threads > 1)),
        ("stream", stream),
        ("batches", batches),
    ]
}

fn check(source: &str, all: &[Row], case: &Case, got: Vec<(&'static str, Result<Vec<Row>>)>) {
    let want = expected(all, case);
    for (ending, rows) in got {
        let rows = rows.unwrap_or_else(|e| panic!("{source} {ending} {case:?}: {e}"));
        assert_eq!(rows.len(), want.len(), "{source} {ending} {case:?}");
        assert!(rows == want, "{source} {ending} {case:?}: other rows");
    }
}

#[test]
fn every_combination_reads_the_full_read_narrowed_from_bytes_and_a_path() {
    let bytes = file();
    let all: Vec<Row> = parquet_rows::from_bytes(bytes.clone()).unwrap();
    assert_eq!(all.len(), ROWS);
    let dir = std::env::temp_dir().join(format!("builder-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("rows.parquet");
    std::fs::write(&path, &bytes).unwrap();
    let from_bytes = ParquetFile::from_bytes(bytes).unwrap();
    let from_path = ParquetFile::open(&path).unwrap();
    let cases = cases();
    assert!(cases.len() >= 100);
    for case in &cases {
        check("bytes", &all, case, local(&from_bytes, case));
        check("path", &all, case, local(&from_path, case));
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn every_combination_reads_the_full_read_narrowed_from_an_object_store() {
    let bytes = file();
    let all: Vec<Row> = parquet_rows::from_bytes(bytes.clone()).unwrap();
    let store: Arc<dyn ObjectStore> = Arc::new(InMemory::new());
    let location = Path::from("rows.parquet");
    let runtime = crate::remote::runtime();
    runtime
        .block_on(store.put(&location, bytes.into()))
        .unwrap();
    let remote = runtime.block_on(RemoteFile::open(store, location)).unwrap();
    for case in &cases() {
        let collect = runtime.block_on(async {
            if case.threads > 1 {
                narrow!(remote.rows::<Row>(), case, Row)
                    .threads(case.threads)
                    .collect()
                    .await
            } else {
                narrow!(remote.rows::<Row>(), case, Row).collect().await
            }
        });
        let load = runtime.block_on(async {
            let pages = narrow!(remote.rows::<Borrowed>(), case, Borrowed)
                .load()
                .await?;
            let rows: Vec<Borrowed<'_>> = pages.rows()?;
            Ok(rows.iter().map(Borrowed::owned).collect())
        });
        let batches = runtime.block_on(async {
            let groups: Vec<Vec<Row>> = narrow!(remote.rows::<Row>(), case, Row)
                .batches()
                .try_collect()
                .await?;
            Ok(groups.into_iter().flatten().collect())
        });
        check(
            "remote",
            &all,
            case,
            vec![
                ("collect", collect),
                ("load + rows", load),
                ("batches", batches),
            ],
        );
    }
    // The blocking twins, outside the runtime.
    let case = &cases()[40];
    let blocking = vec![
        (
            "collect_blocking",
            narrow!(remote.rows::<Row>(), case, Row).collect_blocking(),
        ),
        (
            "batches_blocking",
            narrow!(remote.rows::<Row>(), case, Row)
                .batches_blocking()
                .and_then(|b| {
                    b.collect::<Result<Vec<Vec<Row>>>>()
                        .map(|v| v.into_iter().flatten().collect())
                }),
        ),
    ];
    check("remote", &all, case, blocking);
}

#[test]
fn a_row_group_the_file_does_not_have_is_an_error() {
    let file = ParquetFile::from_bytes(file()).unwrap();
    let err = file.rows::<Row>().row_groups([1, 4]).collect().unwrap_err();
    assert!(
        err.to_string()
            .contains("row group 4 does not exist; the file has 4"),
        "{err}"
    );
    assert!(file.rows::<Row>().row_groups([9]).stream().is_err());
    assert!(file.rows::<Borrowed>().row_groups([9]).load().is_err());
}

#[test]
fn the_builders_window_applies_to_the_rows_of_the_querys() {
    let file = ParquetFile::from_bytes(file()).unwrap();
    // ids 100.. (the query skips 100 of them), then skip 5, take 3
    let rows: Vec<Row> = file
        .rows::<Row>()
        .filter(Row::filter().id().ge(100).offset(100).limit(50))
        .offset(5)
        .limit(3)
        .collect()
        .unwrap();
    let ids: Vec<i64> = rows.iter().map(|r| r.id).collect();
    assert_eq!(ids, [205, 206, 207]);
    // The query's limit is counted before the builder's offset.
    let rows: Vec<Row> = file
        .rows::<Row>()
        .filter(Row::filter().id().ge(100).limit(4))
        .offset(3)
        .collect()
        .unwrap();
    assert_eq!(rows.iter().map(|r| r.id).collect::<Vec<_>>(), [103]);
}

#[test]
fn the_builders_options_limit_the_read() {
    let file = ParquetFile::from_bytes(file()).unwrap();
    let small = ReadOptions::default().max_output_bytes(std::mem::size_of::<Row>() * 10);
    // 1,000 rows do not fit; 10 do, by a window, on every ending.
    let err = file.rows::<Row>().options(small).collect().unwrap_err();
    assert!(matches!(err, parquet_rows::Error::Limit { .. }), "{err}");
    let rows: Vec<Row> = file
        .rows::<Row>()
        .options(small)
        .limit(10)
        .collect()
        .unwrap();
    assert_eq!(rows.len(), 10);
    let rows: Vec<Row> = file
        .rows::<Row>()
        .options(small)
        .limit(10)
        .threads(2)
        .collect()
        .unwrap();
    assert_eq!(rows.len(), 10);
    assert!(file
        .rows::<Row>()
        .options(small)
        .threads(2)
        .collect()
        .is_err());
}

#[test]
fn a_datasets_builder_reads_every_files_rows_narrowed() {
    use parquet_rows::dataset::Dataset;
    let bytes = file();
    let one: Vec<Row> = parquet_rows::from_bytes(bytes.clone()).unwrap();
    let store: Arc<dyn ObjectStore> = Arc::new(InMemory::new());
    let runtime = crate::remote::runtime();
    for name in ["a", "b"] {
        let location = Path::from(format!("rows/{name}.parquet"));
        runtime
            .block_on(store.put(&location, bytes.clone().into()))
            .unwrap();
    }
    let dataset = runtime.block_on(Dataset::open(store, "rows")).unwrap();
    for case in cases().iter().step_by(5) {
        // Each file narrowed by the filter and row groups, then the
        // dataset's window over both files' rows.
        let per_file = Case {
            offset: None,
            limit: None,
            ..case.clone()
        };
        let mut want = expected(&one, &per_file);
        if let Filter::Symbol = case.filter {
            // The query's limit of 40 counts the dataset's rows.
            want = [want.clone(), want].concat();
            want.truncate(40);
        } else {
            want = [want.clone(), want].concat();
        }
        let want: Vec<Row> = want
            .into_iter()
            .skip(case.offset.unwrap_or(0))
            .take(case.limit.unwrap_or(usize::MAX))
            .collect();
        let got = if case.threads > 1 {
            narrow!(dataset.rows::<Row>(), case, Row)
                .threads(case.threads)
                .collect_blocking()
        } else {
            narrow!(dataset.rows::<Row>(), case, Row).collect_blocking()
        };
        let got = got.unwrap_or_else(|e| panic!("{case:?}: {e}"));
        assert!(
            got == want,
            "{case:?}: {} rows, {} expected",
            got.len(),
            want.len()
        );
    }
}

#[test]
fn the_builders_remote_futures_can_be_spawned_on_a_multi_thread_runtime() {
    use parquet_rows::dataset::Dataset;
    let store: Arc<dyn ObjectStore> = Arc::new(InMemory::new());
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .build()
        .unwrap();
    runtime.block_on(async {
        let location = Path::from("d/rows.parquet");
        store.put(&location, file().into()).await.unwrap();
        let remote = RemoteFile::open(Arc::clone(&store), location)
            .await
            .unwrap();
        let dataset = Dataset::open(Arc::clone(&store), "d").await.unwrap();
        let query = || Row::filter().id().lt(300);
        let r = remote.clone();
        let n = tokio::spawn(async move {
            r.rows::<Row>()
                .filter(query())
                .collect()
                .await
                .map(|v| v.len())
        });
        assert_eq!(n.await.unwrap().unwrap(), 300);
        let r = remote.clone();
        let n = tokio::spawn(async move {
            let rows = r.rows::<Row>().filter(query()).threads(2).collect().await;
            rows.map(|v| v.len())
        });
        assert_eq!(n.await.unwrap().unwrap(), 300);
        let r = remote.clone();
        let n = tokio::spawn(async move {
            let pages = r.rows::<Borrowed>().row_groups([1]).load().await?;
            pages.rows::<Borrowed>().map(|v| v.len())
        });
        assert_eq!(n.await.unwrap().unwrap(), GROUP);
        let r = remote.clone();
        let n = tokio::spawn(async move {
            let groups: Vec<Vec<Row>> = r.rows::<Row>().offset(990).batches().try_collect().await?;
            Ok::<_, parquet_rows::Error>(groups.concat().len())
        });
        assert_eq!(n.await.unwrap().unwrap(), 10);
        let d = dataset.clone();
        let n = tokio::spawn(async move {
            d.rows::<Row>()
                .filter(query())
                .collect()
                .await
                .map(|v| v.len())
        });
        assert_eq!(n.await.unwrap().unwrap(), 300);
    });
}

/// Where each row of a [`Traced`] read was decoded: its conversion records
/// the thread. Only `reads_share_one_pool_and_streams_stay_on_the_caller`
/// reads `Traced`, so the record is that test's alone.
static DECODED_ON: std::sync::Mutex<Vec<std::thread::ThreadId>> = std::sync::Mutex::new(Vec::new());

#[derive(Debug)]
struct OnThread;

impl TryFrom<i64> for OnThread {
    type Error = String; // never returned

    fn try_from(_: i64) -> std::result::Result<Self, Self::Error> {
        DECODED_ON.lock().unwrap().push(std::thread::current().id());
        Ok(OnThread)
    }
}

#[derive(ParquetRow, Debug)]
#[allow(dead_code)] // read for its conversion's record only
struct Traced {
    #[parquet(try_from = "i64")]
    id: OnThread,
}

/// The threads the reads of `read` decoded on.
fn decoded_on(read: impl FnOnce()) -> std::collections::HashSet<std::thread::ThreadId> {
    DECODED_ON.lock().unwrap().clear();
    read();
    DECODED_ON.lock().unwrap().drain(..).collect()
}

#[test]
fn reads_share_one_pool_and_streams_stay_on_the_caller() {
    let file = ParquetFile::from_bytes(file()).unwrap();
    let here = std::thread::current().id();
    // Six reads on 3 threads (not the size of rayon's global pool on this
    // suite's machines, nor any other test's): a pool made per read would
    // decode on at least six threads.
    let threads = decoded_on(|| {
        for _ in 0..6 {
            let rows = file.rows::<Traced>().threads(3).collect().unwrap();
            assert_eq!(rows.len(), ROWS);
        }
    });
    assert!(
        !threads.is_empty() && threads.len() <= 3 && !threads.contains(&here),
        "{threads:?}"
    );
    // A filtered, windowed parallel read: the same pool.
    let again = decoded_on(|| {
        let rows = file
            .rows::<Traced>()
            .filter(Traced::filter().id().ge(100))
            .offset(10)
            .threads(3)
            .collect()
            .unwrap();
        assert_eq!(rows.len(), ROWS - 110);
    });
    // A pool's thread may sit out some reads, so the union is compared:
    // thread ids are never reused, and seven reads on pools of their own
    // would decode on at least seven threads.
    let all: std::collections::HashSet<_> = threads.union(&again).collect();
    assert!(
        !again.is_empty() && all.len() <= 3 && !again.contains(&here),
        "{again:?} and {threads:?}: more than one pool of 3"
    );
    // Streams read on the calling thread, whatever `threads` says.
    let streamed = decoded_on(|| {
        let n = file.rows::<Traced>().threads(3).stream().unwrap().count();
        assert_eq!(n, ROWS);
        let groups = file.rows::<Traced>().threads(3).batches().unwrap().count();
        assert_eq!(groups, ROWS / GROUP);
    });
    assert_eq!(streamed, [here].into());
}
