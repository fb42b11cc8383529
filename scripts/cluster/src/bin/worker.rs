//! One split's work: `worker SPLITS_KEY INDEX OUT_PREFIX` reads the splits
//! (JSON at `SPLITS_KEY`), reads split `INDEX` into `Tick`s, and writes their
//! summary to `OUT_PREFIX/INDEX.json` and, as one JSON object, to stdout.
//! Running it again gives the same output: a scheduler may retry a split.
//!
//! With `PARQUET_ROWS_FAIL_SPLIT=INDEX`, the worker of that split dies
//! (abort, as a killed process) after reading its rows, the first time
//! only: it leaves `OUT_PREFIX/INDEX.failed` behind, and the retry that
//! finds it reports `"recovered": true`.

use object_store::path::Path;
use object_store::{ObjectStoreExt, PutPayload};
use parquet_rows::dataset::Split;
use parquet_rows_cluster::{runtime, store, BoxError, Summary, Tick};
use serde_json::json;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if let Err(e) = run(&args) {
        eprintln!("worker: {e}");
        std::process::exit(1);
    }
}

fn run(args: &[String]) -> Result<(), BoxError> {
    let [key, index, out] = args else {
        return Err("usage: worker SPLITS_KEY INDEX OUT_PREFIX".into());
    };
    let index: usize = index.parse()?;
    let fail = std::env::var("PARQUET_ROWS_FAIL_SPLIT").ok() == Some(index.to_string());
    let store = store()?;
    runtime()?.block_on(async {
        let json = store.get(&Path::from(key.as_str())).await?.bytes().await?;
        let splits: Vec<Split> = serde_json::from_slice(&json)?;
        let split = splits
            .get(index)
            .ok_or_else(|| format!("no split {index}: `{key}` has {}", splits.len()))?;
        let marker = Path::from(format!("{out}/{index:06}.failed"));
        let recovered = match store.head(&marker).await {
            Ok(_) => true,
            Err(object_store::Error::NotFound { .. }) => false,
            Err(e) => return Err(e.into()),
        };
        // One footer request, then the split's column chunks, coalesced.
        let ticks: Vec<Tick> = split.with_store(store.clone()).rows().collect().await?;
        if fail && !recovered {
            store.put(&marker, PutPayload::new()).await?;
            eprintln!("worker: split {index}: dying on purpose after reading {} rows (PARQUET_ROWS_FAIL_SPLIT)", ticks.len());
            std::process::abort();
        }
        let result = json!({
            "split": index,
            "location": split.location,
            "row_groups": split.row_groups,
            "recovered": recovered,
            "summary": Summary::of(&ticks),
        });
        let body = serde_json::to_vec(&result)?;
        store.put(&Path::from(format!("{out}/{index:06}.json")), body.into()).await?;
        println!("{result}");
        Ok::<_, BoxError>(())
    })
}
