//! Windows without predicates (`filter().offset(n).limit(m)`): the rows of
//! every read path equal the full read sliced, for many (offset, limit)
//! pairs, on files of one and of many row groups, with and without a page
//! index, with nulls, and with a list field (no page index is used for it:
//! whole chunks, the rows outside skipped record by record). The row
//! groups and pages outside the window are not read: a remote tail read
//! fetches a fraction of the bytes.

use std::sync::Arc;

use bytes::Bytes;
use futures_util::TryStreamExt;
use object_store::memory::InMemory;
use object_store::path::Path;
use object_store::{ObjectStore, ObjectStoreExt};
use parquet::file::properties::WriterProperties;
use parquet_rows::remote::RemoteFile;
use parquet_rows::{ParquetFile, ParquetRow, Query, Result, RowFilter};
use parquet_rows_suite::nested_writer::write_nested;
use parquet_rows_suite::shred::{list3, s, Dyn};

use crate::flat::{flat, Borrowed, Row};
use crate::remote::counting::{Counting, Counts};

/// The query `offset` then `limit` (none: every row after the offset),
/// for a filter of type `F`.
fn window<F: RowFilter>(filter: F, offset: usize, limit: Option<usize>) -> Query<F> {
    let q = filter.offset(offset);
    match limit {
        Some(n) => q.limit(n),
        None => q,
    }
}

/// The (offset, limit) pairs for a file of `rows` rows in row groups of
/// `group`: empty, inside one page, across pages and row groups, the
/// tail, past the end.
fn pairs(rows: usize, group: usize) -> Vec<(usize, Option<usize>)> {
    vec![
        (0, None),
        (0, Some(0)),
        (0, Some(1)),
        (0, Some(5)),
        (3, Some(60)),
        (63, Some(2)),
        (64, Some(64)),
        (100, None),
        (group - 1, Some(2)),
        (group, Some(group)),
        (group + 17, Some(group * 2)),
        (rows - 1000.min(rows), None),
        (rows - 1, None),
        (rows - 1, Some(10)),
        (rows, None),
        (rows + 5, Some(3)),
        (rows / 2, Some(1)),
        (usize::MAX, Some(usize::MAX)),
        (5, Some(usize::MAX)),
    ]
}

type Named<T> = Vec<(&'static str, Result<Vec<T>>)>;

/// A read of `file` with the builder's own window (not the query's).
fn windowed(
    file: &ParquetFile,
    (offset, limit): (usize, Option<usize>),
) -> parquet_rows::RowsBuilder<'_, ParquetFile, Row> {
    let b = file.rows::<Row>().offset(offset);
    match limit {
        Some(l) => b.limit(l),
        None => b,
    }
}

/// Every local read path's rows for the window `(offset, limit)`.
fn local(
    bytes: &Bytes,
    disk: &std::path::Path,
    (offset, limit): (usize, Option<usize>),
) -> Named<Row> {
    let q = window(Row::filter(), offset, limit);
    let mem = || ParquetFile::from_bytes(bytes.clone());
    let path = || ParquetFile::open(disk);
    let borrowed = |file: Result<ParquetFile>, par: bool| -> Result<Vec<Row>> {
        let pages = file?
            .rows::<Borrowed>()
            .filter(window(Borrowed::filter(), offset, limit))
            .load()?;
        let rows: Vec<Borrowed<'_>> = if par {
            pages.par_rows()?
        } else {
            pages.rows()?
        };
        Ok(rows.iter().map(Borrowed::owned).collect())
    };
    // The builder's own window (not the query's) on the same rows.
    let pair = (offset, limit);
    vec![
        (
            "filter collect",
            mem().and_then(|f| f.rows().filter(q.clone()).collect()),
        ),
        (
            "filter stream",
            mem().and_then(|f| f.rows::<Row>().filter(q.clone()).stream()?.collect()),
        ),
        (
            "filter threads collect",
            mem().and_then(|f| f.rows().filter(q.clone()).threads(0).collect()),
        ),
        ("filter load rows", borrowed(mem(), false)),
        ("filter load par_rows", borrowed(mem(), true)),
        (
            "path filter collect",
            path().and_then(|f| f.rows().filter(q.clone()).collect()),
        ),
        (
            "path filter threads collect",
            path().and_then(|f| f.rows().filter(q.clone()).threads(0).collect()),
        ),
        ("path filter load rows", borrowed(path(), false)),
        (
            "offset/limit collect",
            mem().and_then(|f| windowed(&f, pair).collect()),
        ),
        (
            "offset/limit threads(2) collect",
            mem().and_then(|f| windowed(&f, pair).threads(2).collect()),
        ),
        (
            "offset/limit batches",
            mem().and_then(|f| {
                let groups = windowed(&f, pair)
                    .batches()?
                    .collect::<Result<Vec<Vec<Row>>>>()?;
                Ok(groups.into_iter().flatten().collect())
            }),
        ),
        (
            "path offset/limit threads(2) load",
            path().and_then(|f| {
                let b = f.rows::<Borrowed>().offset(offset);
                let b = match limit {
                    Some(l) => b.limit(l),
                    None => b,
                };
                let pages = b.threads(2).load()?;
                let rows: Vec<Borrowed<'_>> = pages.rows()?;
                Ok(rows.iter().map(Borrowed::owned).collect())
            }),
        ),
    ]
}

/// Every remote read path's rows for the window `(offset, limit)`.
fn remote(remote: &RemoteFile, (offset, limit): (usize, Option<usize>)) -> Named<Row> {
    let q = || window(Row::filter(), offset, limit);
    let runtime = crate::remote::runtime();
    vec![
        (
            "remote collect",
            runtime.block_on(remote.rows().filter(q()).collect()),
        ),
        (
            "remote load",
            runtime.block_on(async {
                let pages = remote.rows::<Row>().filter(q()).load().await?;
                pages.rows::<Row>()
            }),
        ),
        (
            "remote batches",
            runtime.block_on(async {
                let groups: Vec<Vec<Row>> = remote
                    .rows::<Row>()
                    .filter(q())
                    .batches()
                    .try_collect()
                    .await?;
                Ok(groups.into_iter().flatten().collect())
            }),
        ),
        (
            "remote stream",
            runtime.block_on(remote.rows::<Row>().filter(q()).stream().try_collect()),
        ),
    ]
}

fn store_with(bytes: &Bytes) -> (RemoteFile, Arc<Counts>) {
    let memory = InMemory::new();
    let location = Path::from("window.parquet");
    crate::remote::runtime()
        .block_on(memory.put(&location, bytes.clone().into()))
        .unwrap();
    let counts = Arc::new(Counts::default());
    let store: Arc<dyn ObjectStore> = Arc::new(Counting {
        inner: memory,
        counts: Arc::clone(&counts),
    });
    (RemoteFile::open_blocking(store, location).unwrap(), counts)
}

fn temp_path(name: &str) -> std::path::PathBuf {
    let dir = parquet_rows_suite::workspace_root().join("target");
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(format!("window-{name}-{}.parquet", std::process::id()))
}

/// Every path, every window, on `bytes`: the full read sliced.
fn every_path_slices_the_full_read(name: &str, bytes: &Bytes, group: usize) {
    let full: Vec<Row> = ParquetFile::from_bytes(bytes.clone())
        .unwrap()
        .rows()
        .collect()
        .unwrap();
    let disk = temp_path(name);
    std::fs::write(&disk, bytes).unwrap();
    let (remote_file, _) = store_with(bytes);
    for pair in pairs(full.len(), group) {
        let (offset, limit) = pair;
        let from = offset.min(full.len());
        let to = limit.map_or(full.len(), |l| from.saturating_add(l).min(full.len()));
        let want = &full[from..to];
        let got = local(bytes, &disk, pair)
            .into_iter()
            .chain(remote(&remote_file, pair));
        for (path, rows) in got {
            let rows = rows.unwrap_or_else(|e| panic!("{name} {path} {pair:?}: {e}"));
            assert_eq!(rows.len(), want.len(), "{name} {path} {pair:?}: row count");
            assert!(rows == want, "{name} {path} {pair:?}: other rows");
        }
    }
    std::fs::remove_file(&disk).unwrap();
}

#[test]
fn windows_on_every_path_equal_the_full_read_sliced() {
    for (name, rows, group, index) in [
        ("one-group-index", 1500, 1500, true),
        ("one-group-no-index", 1500, 1500, false),
        ("groups-index", 2000, 300, true),
        ("groups-no-index", 2000, 300, false),
    ] {
        every_path_slices_the_full_read(name, &flat(rows, group, index), group);
    }
}

#[derive(ParquetRow, Debug, Clone, PartialEq)]
struct Listed {
    id: i64,
    tags: Vec<String>,
    n: Option<i32>,
}

#[test]
fn windows_over_a_list_field_skip_records() {
    const GROUP: usize = 250;
    let rows: Vec<Vec<Dyn>> = (0..1000)
        .map(|i: i64| {
            vec![
                Dyn::I64(i),
                list3((0..i % 4).map(|k| s(&format!("t{i}-{k}")))),
                if i % 5 == 0 {
                    Dyn::Null
                } else {
                    Dyn::I32(i as i32)
                },
            ]
        })
        .collect();
    let groups: Vec<&[Vec<Dyn>]> = rows.chunks(GROUP).collect();
    let props = WriterProperties::builder()
        .set_data_page_row_count_limit(64)
        .set_write_batch_size(64)
        .build();
    let bytes = write_nested(
        "message m { REQUIRED INT64 id; REQUIRED GROUP tags (LIST) { REPEATED GROUP list { REQUIRED BINARY element (UTF8); } } OPTIONAL INT32 n; }",
        props,
        &groups,
    );
    let file = ParquetFile::from_bytes(bytes.clone()).unwrap();
    let full: Vec<Listed> = file.rows().collect().unwrap();
    assert_eq!(full.len(), 1000);
    let (remote_file, _) = store_with(&bytes);
    for (offset, limit) in pairs(full.len(), GROUP) {
        let from = offset.min(full.len());
        let to = limit.map_or(full.len(), |l| from.saturating_add(l).min(full.len()));
        let q = || window(Listed::filter(), offset, limit);
        let got: Named<Listed> = vec![
            ("read_where", file.rows().filter(q()).collect()),
            (
                "stream_where",
                file.rows::<Listed>()
                    .filter(q())
                    .stream()
                    .and_then(Iterator::collect),
            ),
            (
                "par_read_where",
                file.rows().filter(q()).threads(0).collect(),
            ),
            (
                "load_where",
                file.rows::<Listed>()
                    .filter(q())
                    .load()
                    .and_then(|p| p.rows()),
            ),
            (
                "remote read_where",
                remote_file.rows().filter(q()).collect_blocking(),
            ),
        ];
        for (path, rows) in got {
            let rows = rows.unwrap_or_else(|e| panic!("{path} {offset} {limit:?}: {e}"));
            assert!(rows == full[from..to], "{path} {offset} {limit:?}");
        }
    }
}

#[test]
fn a_tail_reads_only_its_row_groups_and_pages() {
    // 20 row groups of 1,000 rows, pages of 64 rows: the last 100 rows
    // lie in two pages of the last row group.
    let bytes = flat(20_000, 1000, true);
    let (remote_file, counts) = store_with(&bytes);
    counts.reset();
    let tail: Vec<Row> = remote_file
        .rows()
        .filter(window(Row::filter(), 19_900, None))
        .collect_blocking()
        .unwrap();
    assert_eq!(tail.len(), 100);
    assert_eq!(tail[0].id, 19_900);
    // The offset indexes of one row group (one request), then its pages
    // (at most one request per column, in one round trip): far from the
    // whole file's bound chunks.
    assert!(counts.gets() <= 4, "{} requests", counts.gets());
    assert!(
        counts.bytes() * 20 < bytes.len() as u64,
        "{} of {} bytes fetched",
        counts.bytes(),
        bytes.len()
    );
}
