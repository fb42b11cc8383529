//! A dataset on a real S3-compatible server (moto), through `object_store`'s
//! `AmazonS3`. Ignored by a plain `cargo test` (it needs the server):
//! `scripts/s3-test.sh` starts `moto_server` and runs it with `--ignored`, or
//! says that it skips it when moto is not installed.

use std::sync::Arc;

use object_store::aws::AmazonS3Builder;
use object_store::path::Path;
use object_store::{ObjectStore, ObjectStoreExt};
use parquet_rows::dataset::{partition_eq, Dataset};
use parquet_rows::remote::RemoteFile;
use parquet_rows::ParquetRow;

use super::counting::{Counting, Counts};
use super::{runtime, wide_file, GROUPS, ROWS};

#[derive(ParquetRow, Debug, PartialEq)]
struct Three {
    c0: i64,
    c9: i64,
    c19: i64,
    #[parquet(skip)]
    day: String,
}
parquet_rows::partition_fields!(Three { day });

fn s3() -> Arc<dyn ObjectStore> {
    let endpoint = std::env::var("PARQUET_ROWS_S3_ENDPOINT").expect(
        "PARQUET_ROWS_S3_ENDPOINT: run this test with scripts/s3-test.sh, which starts moto_server",
    );
    let bucket = format!("parquet-rows-{}", std::process::id());
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
#[ignore = "needs an S3 server: run scripts/s3-test.sh"]
fn a_dataset_on_s3_reads_its_bound_chunks() {
    let counts = Arc::new(Counts::default());
    let store: Arc<dyn ObjectStore> = Arc::new(Counting {
        inner: s3(),
        counts: Arc::clone(&counts),
    });
    let bytes = wide_file();
    runtime().block_on(async {
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

        let dataset = Dataset::open(Arc::clone(&store), "wide").await.unwrap();
        assert_eq!(dataset.files().len(), 2);
        counts.reset();
        let rows: Vec<Three> = dataset
            .prune(&partition_eq("day", "2026-01-03"))
            .read_partitioned()
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
