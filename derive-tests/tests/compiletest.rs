//! The derive as a user meets it when something is wrong: every case in
//! `tests/ui/<category>/<mistake>.rs` must fail to compile with exactly the
//! errors in the `.stderr` file next to it (one mistake per file), and every
//! case in `tests/ui/pass/` must compile and run. One trybuild project builds
//! all of them.
//!
//! After changing a message:
//! `TRYBUILD=overwrite cargo test -p parquet-rows-derive-tests`, then read
//! the `.stderr` diff before committing it.
//!
//! This package's dev-dependencies are only what the cases use, because
//! trybuild's project builds every dependency and dev-dependency of the
//! package it runs in, in a target directory of its own (`Cargo.toml`).
//!
//! The sample file of the `schema_file` cases is the suite's
//! `tests/data/ticks.parquet` (8 rows of the tick fixture; `tests/hygiene.rs`
//! checks that it still is).

use std::path::{Path, PathBuf};

#[test]
fn ui() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let workspace = root.parent().expect("the package is inside the workspace");
    stage_sample_files(&workspace.join("tests/data"));
    // trybuild's project has no `[profile]` of ours, so its dependencies
    // would get full debug info: 80 MB for `parquet` alone, 60 MB per case
    // that links. Nothing here is debugged, and compile errors do not depend
    // on it (the variable reaches the `cargo` that trybuild runs).
    std::env::set_var("CARGO_PROFILE_DEV_DEBUG", "false");
    // trybuild builds the dependencies with its rustflags, then the cases
    // (and, for `pass`, runs them) with `--diagnostic-width=140` added or
    // not: cargo hashes rustflags into the file names, so every dependency
    // was compiled twice, and each passing case twice. The one set of flags
    // below, trybuild's own for building the cases, is given to all its
    // cargo runs (`CARGO_ENCODED_RUSTFLAGS` takes precedence over the
    // `--config` rustflags trybuild passes): one build of each. If trybuild
    // changes its flags, the `.stderr` comparisons say so.
    std::env::set_var(
        "CARGO_ENCODED_RUSTFLAGS",
        [
            "--cfg",
            "trybuild",
            "--verbose",
            "-A",
            "dead_code",
            "--diagnostic-width=140",
        ]
        .join("\x1f"),
    );
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
/// `<target>/tests/trybuild/parquet-rows-derive-tests/`: that is the
/// `CARGO_MANIFEST_DIR` that `schema_file` paths are relative to. Copying
/// the files of `samples` into its `tests/data/` lets the cases say
/// `schema_file = "tests/data/ticks.parquet"`, as a user's crate would.
fn stage_sample_files(samples: &Path) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
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
    let data = Path::new(target).join("tests/trybuild/parquet-rows-derive-tests/tests/data");
    std::fs::create_dir_all(&data).expect("create the trybuild project's tests/data");
    for entry in std::fs::read_dir(samples).expect("the suite's tests/data") {
        let path = entry.expect("tests/data entry").path();
        let copy = data.join(path.file_name().expect("file name"));
        let same = std::fs::read(&copy).ok() == std::fs::read(&path).ok();
        if !same {
            std::fs::copy(&path, &copy).expect("copy a sample file");
        }
    }
}
