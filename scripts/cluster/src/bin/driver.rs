//! The driver's side of a cluster run, one command per step (each prints
//! one JSON object on stdout):
//!
//! ```text
//! driver write PREFIX FILES                 writes the tick dataset under PREFIX
//! driver splits PREFIX TARGET_BYTES KEY     cuts it into splits, stored as JSON at KEY
//! driver summary PREFIX                     the summary of the dataset, read by this process alone
//! ```
//!
//! The store is S3 as the `AWS_*` variables say (see `store`).

use std::time::Instant;

use object_store::path::Path;
use object_store::ObjectStoreExt;
use parquet_rows::dataset::Dataset;
use parquet_rows_cluster::{runtime, store, tick_file, tick_files, BoxError, Summary, Tick};
use serde_json::json;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if let Err(e) = run(&args) {
        eprintln!("driver: {e}");
        std::process::exit(1);
    }
}

fn run(args: &[String]) -> Result<(), BoxError> {
    let store = store()?;
    let started = Instant::now();
    let out = runtime()?.block_on(async {
        match args {
            [cmd, prefix, files] if cmd == "write" => {
                let (mut bytes, mut files_written) = (0, 0);
                for (path, day, part) in tick_files(files.parse()?)? {
                    let file = tick_file(day, part)?;
                    bytes += file.len();
                    files_written += 1;
                    store.put(&Path::from(format!("{prefix}/{path}")), file.into()).await?;
                }
                Ok::<_, BoxError>(json!({ "files": files_written, "bytes": bytes }))
            }
            [cmd, prefix, target, key] if cmd == "splits" => {
                let dataset = Dataset::open(store.clone(), prefix.as_str()).await?;
                // One footer request per file; no column chunk is fetched.
                let splits = dataset.splits::<Tick>(target.parse()?).await?;
                let json = serde_json::to_vec(&splits)?;
                let json_bytes = json.len();
                store.put(&Path::from(key.as_str()), json.into()).await?;
                Ok(json!({
                    "files": dataset.files().len(),
                    "splits": splits.len(),
                    "row_groups": splits.iter().map(|s| s.row_groups.len()).sum::<usize>(),
                    "bytes_to_fetch": splits.iter().flat_map(|s| &s.ranges).map(|(a, b)| b - a).sum::<u64>(),
                    "json_bytes": json_bytes,
                }))
            }
            [cmd, prefix] if cmd == "summary" => {
                let dataset = Dataset::open(store.clone(), prefix.as_str()).await?;
                let ticks: Vec<Tick> = dataset.rows().collect().await?;
                Ok(json!({ "summary": Summary::of(&ticks) }))
            }
            _ => Err("usage: driver write PREFIX FILES | splits PREFIX TARGET_BYTES KEY | summary PREFIX".into()),
        }
    })?;
    let mut out = out;
    out["seconds"] = json!(started.elapsed().as_secs_f64());
    println!("{out}");
    Ok(())
}
