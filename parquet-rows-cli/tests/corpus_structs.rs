//! What `parquet-rows struct` prints compiles and decodes every file of the
//! parquet-testing corpus that parquet-rows reads.
//!
//! The structs for every file (borrowed and `--owned`) go into one generated
//! crate under `target/cli-structs/`, whose `main` decodes each file with its
//! structs and checks the row count against the footer's; the crate is built
//! and run once, with the workspace's target directory so that parquet-rows
//! is not built again. Files left out are listed in [`EXCLUDED`] with the
//! reason, and the list is checked against the corpus.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

use parquet_rows::parquet::file::reader::{FileReader, SerializedFileReader};
use parquet_rows_cli::structgen::{self, Options};

/// Corpus files whose structs are not built, and why.
const EXCLUDED: &[(&str, &str)] = &[
    (
        "data/large_string_map.brotli.parquet",
        "its two map keys are 1 GiB strings each: decoding takes more than 2 GiB (out of scope in the suite's corpus tests too)",
    ),
    (
        "data/dict-page-offset-zero.parquet",
        "the `parquet` crate cannot read its footer (Dremio wrote a list where `bloom_filter_length` is expected), so parquet-rows cannot open it",
    ),
    (
        "bad_data/PARQUET-1481.parquet",
        "malformed on purpose: its footer has an unknown physical type, and `struct` says so",
    ),
];

/// Corpus files whose structs are built but whose decoding must fail (an
/// `Err`, never a panic), and why.
const DECODE_FAILS: &[(&str, &str)] = &[
    (
        "data/nation.dict-malformed.parquet",
        "its dictionary page is malformed; an error is allowed (CORPUS.md)",
    ),
    ("bad_data/ARROW-GH-41317.parquet", "malformed on purpose"),
    ("bad_data/ARROW-GH-41321.parquet", "malformed on purpose"),
    ("bad_data/ARROW-GH-45185.parquet", "malformed on purpose"),
    ("bad_data/ARROW-GH-47662.parquet", "malformed on purpose"),
    ("bad_data/ARROW-RS-GH-6229-DICTHEADER.parquet", "malformed on purpose"),
    ("bad_data/ARROW-RS-GH-6229-LEVELS.parquet", "malformed on purpose"),
];

/// The workspace root.
fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("the package is inside the workspace")
        .to_owned()
}

/// The corpus directory (holding `data/` and `bad_data/`), as the suite's
/// `tests/support/lib.rs` finds it: `PARQUET_TEST_DATA`, or
/// `../shared/parquet-testing` beside the workspace; `None` only for
/// `PARQUET_TEST_DATA=skip`.
fn corpus() -> Option<PathBuf> {
    let dir = match std::env::var("PARQUET_TEST_DATA") {
        Ok(v) if v == "skip" => return None,
        Ok(v) if !v.is_empty() => {
            let p = PathBuf::from(v);
            if p.is_absolute() {
                p
            } else {
                workspace().join(p)
            }
        }
        _ => workspace().join("..").join("shared").join("parquet-testing"),
    };
    assert!(
        dir.join("data").is_dir(),
        "the parquet-testing corpus was not found at {}: set PARQUET_TEST_DATA to its directory \
         (the one holding data/ and bad_data/), or to `skip` to skip the tests that need it",
        dir.display()
    );
    Some(dir)
}

/// Every `*.parquet` directly in `dir/under`, relative to `dir`, sorted.
fn parquet_files(dir: &Path, under: &str) -> Vec<String> {
    let mut out: Vec<String> = std::fs::read_dir(dir.join(under))
        .unwrap_or_else(|e| panic!("read {}: {e}", dir.join(under).display()))
        .map(|entry| entry.expect("directory entry").file_name())
        .map(|name| name.to_string_lossy().into_owned())
        .filter(|name| name.ends_with(".parquet"))
        .map(|name| format!("{under}/{name}"))
        .collect();
    out.sort();
    out
}

/// The footer's row count, read with the `parquet` crate: the sum of the
/// row groups' (the file's own total is 0 in `repeated_no_annotation`).
fn footer_rows(path: &Path) -> i64 {
    let file = std::fs::File::open(path).expect("open corpus file");
    let reader = SerializedFileReader::new(file)
        .unwrap_or_else(|e| panic!("{}: footer: {e}", path.display()));
    reader
        .metadata()
        .row_groups()
        .iter()
        .map(|rg| rg.num_rows())
        .sum()
}

/// `text` indented into a module.
fn module(name: &str, text: &str) -> String {
    let mut out = format!("    pub mod {name} {{\n");
    for line in text.lines() {
        if line.is_empty() {
            out.push('\n');
        } else {
            let _ = writeln!(out, "        {line}");
        }
    }
    out.push_str("    }\n");
    out
}

#[test]
fn generated_structs_compile_and_decode_the_corpus() {
    let Some(dir) = corpus() else {
        println!("skipped: PARQUET_TEST_DATA=skip, no corpus file read");
        return;
    };
    let mut files = parquet_files(&dir, "data");
    files.extend(parquet_files(&dir, "bad_data"));

    // The lists name files that exist.
    for (excluded, _) in EXCLUDED.iter().chain(DECODE_FAILS) {
        assert!(
            files.iter().any(|f| f == excluded),
            "{excluded} is on EXCLUDED but not in the corpus"
        );
    }

    let mut modules = String::new();
    let mut checks = String::new();
    let mut generated = 0;
    let mut problems = Vec::new();
    for (i, file) in files.iter().enumerate() {
        if EXCLUDED.iter().any(|(f, _)| f == file) {
            continue;
        }
        let path = dir.join(file);
        let schema = match structgen::read_schema(&path) {
            Ok(schema) => schema,
            Err(e) => {
                problems.push(format!("{file}: {e}"));
                continue;
            }
        };
        let mut parts = String::new();
        for owned in [false, true] {
            let options = Options {
                name: "Row".to_owned(),
                owned,
            };
            match structgen::generate(&schema, file, &options) {
                Ok(text) => parts.push_str(&module(if owned { "owned" } else { "borrowed" }, &text)),
                Err(e) => problems.push(format!("{file} (owned: {owned}): {e}")),
            }
        }
        let fails = DECODE_FAILS.iter().any(|(f, _)| f == file);
        // The `parquet` crate cannot read some malformed footers; their
        // count is not compared.
        let rows = if fails { -1 } else { footer_rows(&path) };
        let _ = write!(
            modules,
            "// {file}\nmod f{i} {{\n{parts}}}\n\n"
        );
        let path_literal = format!("{:?}", path.display().to_string());
        let _ = write!(
            checks,
            "    check(&mut failed, {file:?}, \"borrowed\", {rows}, {fails}, || {{
        let file = parquet_rows::ParquetFile::open({path_literal})?;
        let pages = file.load::<f{i}::borrowed::Row>()?;
        let rows: Vec<f{i}::borrowed::Row> = pages.rows()?;
        Ok(rows.len())
    }});
    check(&mut failed, {file:?}, \"owned\", {rows}, {fails}, || {{
        Ok(parquet_rows::ParquetFile::open({path_literal})?.read::<f{i}::owned::Row>()?.len())
    }});
"
        );
        generated += 1;
    }
    assert!(
        problems.is_empty(),
        "`struct` failed on files the library reads (fix it, or list them in EXCLUDED with the reason):\n{}",
        problems.join("\n")
    );

    let main = format!(
        "//! Generated by parquet-rows-cli's tests/corpus_structs.rs: the structs that
//! `parquet-rows struct` prints for each corpus file, each decoding its file.
#![allow(dead_code)] // fields are decoded, not read

{modules}
/// Runs one decode; records a failure when it errs or the row count differs
/// (or, for a file that must fail, when it does not err).
fn check(
    failed: &mut usize,
    file: &str,
    mode: &str,
    expected: i64,
    must_fail: bool,
    decode: impl FnOnce() -> parquet_rows::Result<usize>,
) {{
    match decode() {{
        Err(e) if must_fail => println!(\"ok    {{file}} ({{mode}}): error, as expected: {{e}}\"),
        Ok(n) if must_fail => {{
            println!(\"FAIL  {{file}} ({{mode}}): {{n}} rows, but decoding must fail\");
            *failed += 1;
        }}
        Ok(n) if i64::try_from(n) == Ok(expected) => println!(\"ok    {{file}} ({{mode}}): {{n}} rows\"),
        Ok(n) => {{
            println!(\"FAIL  {{file}} ({{mode}}): {{n}} rows, the footer says {{expected}}\");
            *failed += 1;
        }}
        Err(e) => {{
            println!(\"FAIL  {{file}} ({{mode}}): {{e}}\");
            *failed += 1;
        }}
    }}
}}

fn main() {{
    let mut failed = 0;
{checks}    if failed > 0 {{
        eprintln!(\"{{failed}} decodes failed\");
        std::process::exit(1);
    }}
}}
"
    );

    let root = workspace();
    let target = root.join("target");
    let krate = target.join("cli-structs");
    std::fs::create_dir_all(krate.join("src")).expect("create the generated crate");
    let manifest = format!(
        "[package]
name = \"cli-structs\"
version = \"0.0.0\"
edition = \"2021\"
publish = false

[dependencies]
parquet-rows = {{ path = {:?} }}

# Not a member of the parquet-rows workspace.
[workspace]
",
        root.join("parquet-rows").display().to_string()
    );
    write_if_changed(&krate.join("Cargo.toml"), &manifest);
    write_if_changed(&krate.join("src").join("main.rs"), &main);
    // The workspace's lock file pins the same versions as the workspace
    // builds, so nothing is resolved (or fetched) anew.
    if !krate.join("Cargo.lock").exists() {
        std::fs::copy(root.join("Cargo.lock"), krate.join("Cargo.lock")).expect("copy Cargo.lock");
    }

    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned());
    let output = Command::new(cargo)
        .arg("run")
        .arg("--quiet")
        .arg("--manifest-path")
        .arg(krate.join("Cargo.toml"))
        .env("CARGO_TARGET_DIR", &target)
        .output()
        .expect("run cargo");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        output.status.success(),
        "the generated crate {} failed:\n{stdout}\n{stderr}",
        krate.display()
    );
    let ok = stdout.lines().filter(|l| l.starts_with("ok ")).count();
    assert_eq!(ok, 2 * generated, "one `ok` per file and mode:\n{stdout}");
    println!(
        "{generated} corpus files decoded with their generated structs (borrowed and owned), \
         {} of them with the error they must give:",
        DECODE_FAILS.len()
    );
    for (file, why) in DECODE_FAILS {
        println!("  {file}: {why}");
    }
    println!("{} excluded:", EXCLUDED.len());
    for (file, why) in EXCLUDED {
        println!("  {file}: {why}");
    }
}

/// Writes `text` to `path` unless it already holds it, so that an unchanged
/// crate is not rebuilt.
fn write_if_changed(path: &Path, text: &str) {
    if std::fs::read_to_string(path).ok().as_deref() != Some(text) {
        std::fs::write(path, text).unwrap_or_else(|e| panic!("write {}: {e}", path.display()));
    }
}
