//! `ReadOptions::max_output_bytes` means one thing on every path: the rows
//! the read's plan may return (after statistics, the page index and a
//! window by position; at most the query's limit) times the row's size,
//! checked once per read before any page is decoded. Streams check each
//! row group's part of the same count (`docs/hostile-input.md`).
//!
//! Table-driven: for each (limit, query), every path that returns the same
//! rows gives the same outcome, and that outcome is the one the rule says.

use std::sync::Arc;

use bytes::Bytes;
use object_store::memory::InMemory;
use object_store::path::Path;
use object_store::{ObjectStore, ObjectStoreExt};
use parquet::file::properties::{EnabledStatistics, WriterProperties};
use parquet_rows::remote::RemoteFile;
use parquet_rows::{
    Error, FilterOf, ParquetFile, ParquetRow, Query, ReadOptions, Result, RowFilter,
};
use parquet_rows_suite::{write_columns, ColumnValues};

const GROUPS: usize = 8;
const GROUP_ROWS: usize = 1 << 12;
const ROWS: usize = GROUPS * GROUP_ROWS;
const G: i64 = GROUP_ROWS as i64;

#[derive(ParquetRow, Debug, Clone, PartialEq)]
struct Row {
    id: i64,
    v: i64,
}

/// 8 row groups of 4,096 rows (`id` the row number), pages of 512 rows,
/// page statistics and indexes.
fn file() -> Bytes {
    let groups: Vec<Vec<ColumnValues>> = (0..GROUPS)
        .map(|g| {
            let ids: Vec<i64> = (0..GROUP_ROWS)
                .map(|r| (g * GROUP_ROWS + r) as i64)
                .collect();
            vec![
                ColumnValues::Int64(ids.iter().map(|&i| Some(i)).collect()),
                ColumnValues::Int64(ids.iter().map(|&i| Some(i % 97)).collect()),
            ]
        })
        .collect();
    let props = WriterProperties::builder()
        .set_statistics_enabled(EnabledStatistics::Page)
        .set_data_page_row_count_limit(512)
        .set_write_batch_size(512)
        .set_dictionary_enabled(false)
        .build();
    write_columns(
        "message m { REQUIRED INT64 id; REQUIRED INT64 v; }",
        props,
        &groups,
    )
    .unwrap()
}

/// A query of the table, and the rows its plan may return.
struct Case {
    name: &'static str,
    query: fn() -> Query<FilterOf<Row>>,
    planned: usize,
}

fn cases() -> Vec<Case> {
    vec![
        Case {
            name: "every row",
            query: || Query::from_filter(Row::filter()),
            planned: ROWS,
        },
        Case {
            name: "limit 5",
            query: || Row::filter().limit(5),
            planned: 5,
        },
        Case {
            name: "the last 1000 rows",
            query: || Row::filter().offset(ROWS - 1000),
            planned: 1000,
        },
        Case {
            name: "a predicate every row matches",
            query: || Query::from_filter(Row::filter().id().ge(0)),
            planned: ROWS,
        },
        Case {
            name: "a predicate every row matches, limit 10",
            query: || Row::filter().id().ge(0).limit(10),
            planned: 10,
        },
        Case {
            // Statistics keep one row group, its page index one page.
            name: "ids of one page",
            query: || Query::from_filter(Row::filter().id().in_range(3 * G + 512..3 * G + 1024)),
            planned: 512,
        },
        Case {
            // A row-level predicate: the plan keeps every row.
            name: "v = 5, limit 3",
            query: || Row::filter().v().eq(5).limit(3),
            planned: 3,
        },
    ]
}

type Named = Vec<(&'static str, Result<Vec<Row>>)>;

/// Every path's rows for `query` with `options`.
fn paths(
    bytes: &Bytes,
    disk: &std::path::Path,
    remote: &RemoteFile,
    options: ReadOptions,
    query: &Query<FilterOf<Row>>,
) -> Named {
    let mem = || ParquetFile::from_bytes(bytes.clone()).map(|f| f.with_options(options));
    let path = || ParquetFile::open(disk).map(|f| f.with_options(options));
    let remote = remote.clone().with_options(options);
    let runtime = crate::remote::runtime();
    let q = || query.clone();
    vec![
        (
            "read_where",
            mem().and_then(|f| f.rows().filter(q()).collect()),
        ),
        (
            "par_read_where",
            mem().and_then(|f| f.rows().filter(q()).threads(0).collect()),
        ),
        (
            "load_where rows",
            mem().and_then(|f| f.rows::<Row>().filter(q()).load()?.rows()),
        ),
        (
            "load_where par_rows",
            mem().and_then(|f| f.rows::<Row>().filter(q()).load()?.par_rows()),
        ),
        (
            "path read_where",
            path().and_then(|f| f.rows().filter(q()).collect()),
        ),
        (
            "path par_read_where",
            path().and_then(|f| f.rows().filter(q()).threads(0).collect()),
        ),
        (
            "remote read_where",
            runtime.block_on(remote.rows().filter(q()).collect()),
        ),
        (
            "remote load_where",
            runtime.block_on(async { remote.rows::<Row>().filter(q()).load().await?.rows() }),
        ),
    ]
}

/// The unfiltered paths' rows, for the query of every row.
fn unfiltered(
    bytes: &Bytes,
    disk: &std::path::Path,
    remote: &RemoteFile,
    options: ReadOptions,
) -> Named {
    let mem = || ParquetFile::from_bytes(bytes.clone()).map(|f| f.with_options(options));
    let path = || ParquetFile::open(disk).map(|f| f.with_options(options));
    let remote = remote.clone().with_options(options);
    vec![
        ("read", mem().and_then(|f| f.rows().collect())),
        (
            "par_read",
            mem().and_then(|f| f.rows().threads(0).collect()),
        ),
        ("load rows", mem().and_then(|f| f.load::<Row>()?.rows())),
        (
            "load par_rows",
            mem().and_then(|f| f.rows::<Row>().threads(0).load()?.par_rows()),
        ),
        ("path read", path().and_then(|f| f.rows().collect())),
        (
            "path par_read",
            path().and_then(|f| f.rows().threads(0).collect()),
        ),
        ("remote read", remote.rows().collect_blocking()),
    ]
}

#[test]
fn every_path_gives_the_same_outcome_under_each_limit() {
    let bytes = file();
    let full: Vec<Row> = ParquetFile::from_bytes(bytes.clone())
        .unwrap()
        .rows()
        .collect()
        .unwrap();
    let disk = parquet_rows_suite::workspace_root().join("target");
    std::fs::create_dir_all(&disk).unwrap();
    let disk = disk.join(format!("limits-{}.parquet", std::process::id()));
    std::fs::write(&disk, &bytes).unwrap();
    let memory = InMemory::new();
    let location = Path::from("limits.parquet");
    crate::remote::runtime()
        .block_on(memory.put(&location, bytes.clone().into()))
        .unwrap();
    let store: Arc<dyn ObjectStore> = Arc::new(memory);
    let remote = RemoteFile::open_blocking(store, location).unwrap();
    let size = std::mem::size_of::<Row>();
    // Under one row, a page, a row group, every row but one, every row.
    let limits = [
        size - 1,
        600 * size,
        GROUP_ROWS * size,
        (ROWS - 1) * size,
        ROWS * size,
    ];
    for max in limits {
        let options = ReadOptions::default().max_output_bytes(max);
        for case in cases() {
            let want_ok = case.planned * size <= max;
            let mut outcomes = paths(&bytes, &disk, &remote, options, &(case.query)());
            if case.planned == ROWS && case.name == "every row" {
                outcomes.extend(unfiltered(&bytes, &disk, &remote, options));
            }
            let mut rows: Option<Vec<Row>> = None;
            for (path, got) in outcomes {
                let what = format!("{} under {max} bytes, {path}", case.name);
                match got {
                    Ok(got) => {
                        assert!(
                            want_ok,
                            "{what}: Ok with {} rows, want a limit error",
                            got.len()
                        );
                        assert!(got.len() <= case.planned, "{what}: more rows than planned");
                        match &rows {
                            Some(first) => assert!(*first == got, "{what}: other rows"),
                            None => rows = Some(got),
                        }
                    }
                    Err(Error::Limit { message, .. }) => {
                        assert!(!want_ok, "{what}: a limit error: {message}");
                        assert!(message.contains("max_output_bytes"), "{what}: {message}");
                    }
                    Err(e) => panic!("{what}: {e}"),
                }
            }
            if case.name == "every row" && want_ok {
                assert!(
                    rows.as_deref() == Some(&full[..]),
                    "every row: the file's rows"
                );
            }
        }
    }
    std::fs::remove_file(&disk).unwrap();
}

#[test]
fn a_stream_checks_each_row_group_s_share() {
    let bytes = file();
    let size = std::mem::size_of::<Row>();
    // One row group fits, the file does not.
    let options = ReadOptions::default().max_output_bytes(GROUP_ROWS * size);
    let file = ParquetFile::from_bytes(bytes)
        .unwrap()
        .with_options(options);
    assert!(matches!(
        file.rows::<Row>()
            .filter(Query::from_filter(Row::filter()))
            .collect(),
        Err(Error::Limit { .. })
    ));
    let streamed: Result<Vec<Row>> = file
        .rows::<Row>()
        .filter(Query::from_filter(Row::filter()))
        .stream()
        .unwrap()
        .collect();
    assert_eq!(streamed.unwrap().len(), ROWS);
    // Under one row group: the stream fails at the first, unless the window
    // leaves less of it.
    let options = ReadOptions::default().max_output_bytes(100 * size);
    let file = file.with_options(options);
    let first: Result<Vec<Row>> = file.rows::<Row>().stream().unwrap().collect();
    assert!(matches!(first, Err(Error::Limit { .. })));
    let few: Vec<Row> = file
        .rows::<Row>()
        .filter(Row::filter().id().ge(0).limit(100))
        .stream()
        .unwrap()
        .collect::<Result<_>>()
        .unwrap();
    assert_eq!(few.len(), 100);
}
