//! A dataset on a real S3-compatible server (moto), through `object_store`'s
//! `AmazonS3`. `scripts/s3-test.sh` starts `moto_server` and runs this test
//! with `PARQUET_ROWS_S3_ENDPOINT` pointing at it (or says that it skips it
//! when moto is not installed); the other object-store tests, on `InMemory`,
//! `LocalFileSystem` and `ThrottledStore`, are in the suite
//! (`tests/it/remote/`).
#![cfg(test)]

// The suite's store wrapper that counts requests; this test reads only some
// of what it counts.
#[allow(dead_code)]
#[path = "../../../tests/it/remote/counting.rs"]
mod counting;

use std::sync::Arc;

use object_store::aws::AmazonS3Builder;
use object_store::path::Path;
use object_store::{ObjectStore, ObjectStoreExt};
use parquet::data_type::Int64Type;
use parquet::file::properties::WriterProperties;
use parquet::file::writer::SerializedFileWriter;
use parquet::schema::parser::parse_message_type;
use parquet_rows::dataset::Dataset;
use parquet_rows::remote::{FetchOptions, RemoteFile};
use parquet_rows::writer::{Compression, UploadOptions, UploadWriter, MIN_PART_BYTES};
use parquet_rows::{ParquetRow, WriteOptions};

use counting::{Counting, Counts};

const ROWS: usize = 2000; // per row group
const GROUPS: usize = 8;
const COLUMNS: usize = 20;

/// A file of 20 INT64 columns `c0`..`c19` and 8 row groups, uncompressed and
/// without dictionaries; column `c` of row `r` of row group `g` holds
/// `(g * ROWS + r) * 100 + c` (the suite's `wide_file`).
fn wide_file() -> bytes::Bytes {
    let schema = format!(
        "message wide {{ {} }}",
        (0..COLUMNS)
            .map(|c| format!("REQUIRED INT64 c{c};"))
            .collect::<Vec<_>>()
            .concat()
    );
    let schema = Arc::new(parse_message_type(&schema).unwrap());
    let props = WriterProperties::builder()
        .set_dictionary_enabled(false)
        .build();
    let mut buf = Vec::new();
    let mut writer = SerializedFileWriter::new(&mut buf, schema, Arc::new(props)).unwrap();
    for g in 0..GROUPS {
        let mut row_group = writer.next_row_group().unwrap();
        for c in 0..COLUMNS {
            let mut column = row_group.next_column().unwrap().unwrap();
            let values: Vec<i64> = (0..ROWS)
                .map(|r| i64::try_from((g * ROWS + r) * 100 + c).unwrap())
                .collect();
            column
                .typed::<Int64Type>()
                .write_batch(&values, None, None)
                .unwrap();
            column.close().unwrap();
        }
        row_group.close().unwrap();
    }
    writer.close().unwrap();
    buf.into()
}

#[derive(ParquetRow, Debug, PartialEq)]
struct Three {
    c0: i64,
    c9: i64,
    c19: i64,
    #[parquet(partition)]
    day: String,
}

/// A bucket of its own (per test: `name`) on the server at
/// `PARQUET_ROWS_S3_ENDPOINT`.
fn s3(name: &str) -> Arc<dyn ObjectStore> {
    let endpoint = std::env::var("PARQUET_ROWS_S3_ENDPOINT").expect(
        "PARQUET_ROWS_S3_ENDPOINT: run this test with scripts/s3-test.sh, which starts moto_server",
    );
    let bucket = format!("parquet-rows-{name}-{}", std::process::id());
    // moto creates a bucket on a plain PUT of its name.
    let status = std::process::Command::new("python3")
        .args([
            "-c",
            "import sys, urllib.request as u; u.urlopen(u.Request(sys.argv[1], method='PUT'))",
            &format!("{endpoint}/{bucket}"),
        ])
        .status()
        .unwrap();
    assert!(status.success(), "creating bucket {bucket}");
    Arc::new(
        AmazonS3Builder::new()
            .with_endpoint(endpoint)
            .with_allow_http(true)
            .with_bucket_name(bucket)
            .with_region("us-east-1")
            .with_access_key_id("test")
            .with_secret_access_key("test")
            .build()
            .unwrap(),
    )
}

#[test]
fn a_dataset_on_s3_reads_its_bound_chunks() {
    let counts = Arc::new(Counts::default());
    let store: Arc<dyn ObjectStore> = Arc::new(Counting {
        inner: s3("dataset"),
        counts: Arc::clone(&counts),
    });
    let bytes = wide_file();
    // I/O for the S3 client's sockets.
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(async {
        for day in ["2026-01-02", "2026-01-03"] {
            let path = Path::from(format!("wide/day={day}/part-0.parquet"));
            store.put(&path, bytes.clone().into()).await.unwrap();
        }
        counts.reset();
        let remote = RemoteFile::open(
            Arc::clone(&store),
            Path::from("wide/day=2026-01-02/part-0.parquet"),
        )
        .await
        .unwrap();
        assert_eq!(
            (counts.gets(), remote.len()),
            (1, bytes.len() as u64),
            "one request opens"
        );

        // The first request of each file reads its footer alone: with the
        // default (the last 64 KiB), chunks inside those bytes cost no
        // request, and the count below is of the chunks' ranges.
        let footer =
            u32::from_le_bytes(bytes[bytes.len() - 8..bytes.len() - 4].try_into().unwrap());
        let dataset = Dataset::open(Arc::clone(&store), "wide")
            .await
            .unwrap()
            .with_fetch_options(
                FetchOptions::default().footer_guess(u64::from(footer) + 8),
                8,
            );
        assert_eq!(dataset.files().len(), 2);
        counts.reset();
        let rows: Vec<Three> = dataset
            .rows::<Three>()
            .filter(Three::filter().day().eq("2026-01-03"))
            .collect()
            .await
            .unwrap();
        assert_eq!(rows.len(), GROUPS * ROWS);
        assert_eq!(
            rows[5],
            Three {
                c0: 500,
                c9: 509,
                c19: 519,
                day: "2026-01-03".into()
            }
        );
        // A footer, then three chunks per row group, apart but for `c19`
        // of one row group and `c0` of the next, which touch: 24 - 7 ranges.
        let locations = counts.locations();
        assert_eq!(
            locations.len(),
            1 + 3 * GROUPS - (GROUPS - 1),
            "{locations:?}"
        );
        assert!(locations.iter().all(|l| l.contains("day=2026-01-03")));
        eprintln!(
            "s3 (moto): {} requests, {} bytes for {} rows",
            counts.gets(),
            counts.bytes(),
            rows.len()
        );
    });
}

#[derive(ParquetRow, Debug, Clone, PartialEq)]
struct Event {
    ts: i64,
    /// 256 bytes of digits: 50,000 rows make a file of three parts of 5 MiB.
    payload: String,
}

fn event(ts: i64) -> Event {
    Event {
        ts,
        payload: format!("{:032}", ts * 7_919).repeat(8),
    }
}

#[test]
fn an_upload_to_s3_completes_in_parts_and_reads_back_filtered() {
    let store = s3("upload");
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(async {
        let location = Path::from("events/upload.parquet");
        let options = WriteOptions::default()
            .compression(Compression::Uncompressed)
            .dictionary(false)
            .row_group_rows(10_000);
        let upload = UploadOptions::default()
            .part_size(MIN_PART_BYTES)
            .parts_in_flight(2);
        let mut writer = UploadWriter::<Event>::create_with(
            Arc::clone(&store),
            location.clone(),
            options.clone(),
            upload.clone(),
        )
        .await
        .unwrap();
        let rows: Vec<Event> = (0..50_000).map(event).collect();
        writer.write(&rows).await.unwrap();
        assert!(writer.parts_sent() >= 1);
        let summary = writer.close().await.unwrap();
        assert_eq!((summary.rows, summary.row_groups), (50_000, 5));
        assert!(summary.bytes > 2 * MIN_PART_BYTES as u64, "{summary:?}");
        assert_eq!(store.head(&location).await.unwrap().size, summary.bytes);

        let remote = RemoteFile::open(Arc::clone(&store), location)
            .await
            .unwrap();
        let picked: Vec<Event> = remote
            .rows()
            .filter(Event::filter().ts().in_range(31_000..31_500))
            .collect()
            .await
            .unwrap();
        assert_eq!(picked, rows[31_000..31_500]);

        // A writer dropped after sending parts: the upload is aborted, no
        // object appears.
        let dropped = Path::from("events/dropped.parquet");
        let mut writer = UploadWriter::<Event>::create_with(
            Arc::clone(&store),
            dropped.clone(),
            options,
            upload,
        )
        .await
        .unwrap();
        writer.write(&rows).await.unwrap();
        assert!(writer.parts_sent() >= 1);
        drop(writer);
        tokio::time::sleep(std::time::Duration::from_millis(500)).await;
        assert!(matches!(
            store.head(&dropped).await,
            Err(object_store::Error::NotFound { .. })
        ));
        eprintln!(
            "s3 (moto): uploaded {} bytes in {} row groups",
            summary.bytes, summary.row_groups
        );
    });
}
