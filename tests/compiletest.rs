//! The derive as a user meets it when something is wrong: every case in
//! `tests/ui/<category>/<mistake>.rs` must fail to compile with exactly the
//! errors in the `.stderr` file next to it (one mistake per file), and every
//! case in `tests/ui/pass/` must compile and run. One trybuild project builds
//! all of them.
//!
//! After changing a message: `TRYBUILD=overwrite cargo test --test compiletest`,
//! then read the `.stderr` diff before committing it.
//!
//! `tests/data/ticks.parquet` is the sample file of the `schema_file` cases:
//! 8 rows of the tick fixture, written by `parquet_rows_suite::write_ticks`.
//! `PARQUET_ROWS_REGENERATE=1 cargo test --test compiletest` writes it again.

use std::path::{Path, PathBuf};

#[test]
fn ui() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    stage_sample_files(root);
    // trybuild's project has no `[profile]` of ours, so its dependencies
    // would get full debug info: 80 MB for `parquet` alone, 60 MB per case
    // that links. Nothing here is debugged, and compile errors do not depend
    // on it (the variable reaches the `cargo` that trybuild runs).
    std::env::set_var("CARGO_PROFILE_DEV_DEBUG", "false");
    let t = trybuild::TestCases::new();
    let mut categories: Vec<PathBuf> = std::fs::read_dir(root.join("tests/ui"))
        .expect("tests/ui")
        .map(|entry| entry.expect("tests/ui entry").path())
        .filter(|path| path.is_dir() && !path.ends_with("pass"))
        .collect();
    categories.sort();
    for category in categories {
        let name = category.file_name().and_then(|n| n.to_str()).expect("name");
        t.compile_fail(format!("tests/ui/{name}/*.rs"));
    }
    t.pass("tests/ui/pass/*.rs");
}

/// trybuild compiles the cases as a crate of its own, in
/// `<target>/tests/trybuild/parquet-rows-suite/`: that is the
/// `CARGO_MANIFEST_DIR` that `schema_file` paths are relative to. Copying
/// `tests/data/` there lets the cases say `schema_file = "tests/data/ticks.parquet"`,
/// as a user's crate would.
fn stage_sample_files(root: &Path) {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let metadata = std::process::Command::new(cargo)
        .args(["metadata", "--no-deps", "--format-version=1"])
        .current_dir(root)
        .output()
        .expect("cargo metadata");
    let metadata: serde_json::Value =
        serde_json::from_slice(&metadata.stdout).expect("cargo metadata output");
    let target = metadata["target_directory"]
        .as_str()
        .expect("target_directory");
    let data = Path::new(target).join("tests/trybuild/parquet-rows-suite/tests/data");
    std::fs::create_dir_all(&data).expect("create the trybuild project's tests/data");
    for entry in std::fs::read_dir(root.join("tests/data")).expect("tests/data") {
        let path = entry.expect("tests/data entry").path();
        let copy = data.join(path.file_name().expect("file name"));
        let same = std::fs::read(&copy).ok() == std::fs::read(&path).ok();
        if !same {
            std::fs::copy(&path, &copy).expect("copy a sample file");
        }
    }
}

/// The committed sample is what the tick writer writes (its schema is
/// `TICK_SCHEMA`); set `PARQUET_ROWS_REGENERATE=1` to write it again.
#[test]
fn ticks_sample_is_the_tick_fixture() {
    use parquet::file::reader::{FileReader, SerializedFileReader};

    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/ticks.parquet");
    if std::env::var_os("PARQUET_ROWS_REGENERATE").is_some() {
        let file = std::fs::File::create(&path).expect("create tests/data/ticks.parquet");
        parquet_rows_suite::write_ticks(file, 8).expect("write tests/data/ticks.parquet");
    }
    let bytes = bytes::Bytes::from(std::fs::read(&path).expect("read tests/data/ticks.parquet"));
    let reader = SerializedFileReader::new(bytes.clone()).expect("a Parquet file");
    let expected = parquet::schema::parser::parse_message_type(parquet_rows_suite::TICK_SCHEMA)
        .expect("TICK_SCHEMA");
    assert_eq!(
        reader.metadata().file_metadata().schema(),
        &expected,
        "tests/data/ticks.parquet no longer has the tick schema; regenerate it"
    );
    let ticks: Vec<parquet_rows_suite::TickOwned> =
        parquet_rows::from_bytes(bytes).expect("decode the sample");
    assert_eq!(ticks.len(), 8);
}
