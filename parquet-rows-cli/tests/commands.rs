//! The `parquet-rows` binary on a small file it writes: what each command
//! prints and its exit code.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::Arc;

use parquet_rows::parquet::basic::Compression;
use parquet_rows::parquet::data_type::{ByteArray, ByteArrayType, Int64Type};
use parquet_rows::parquet::file::properties::WriterProperties;
use parquet_rows::parquet::file::writer::SerializedFileWriter;
use parquet_rows::parquet::schema::parser::parse_message_type;

/// Writes `rows.parquet` (3 rows: `id`, and `name` with one null), SNAPPY,
/// into a directory of its own under the test's temporary directory.
fn write_file(test: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(test);
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("rows.parquet");
    let schema = Arc::new(
        parse_message_type("message schema { REQUIRED INT64 id; OPTIONAL BINARY name (UTF8); }")
            .unwrap(),
    );
    let props = WriterProperties::builder()
        .set_compression(Compression::SNAPPY)
        .build();
    let file = std::fs::File::create(&path).unwrap();
    let mut writer = SerializedFileWriter::new(file, schema, Arc::new(props)).unwrap();
    let mut rg = writer.next_row_group().unwrap();
    let mut col = rg.next_column().unwrap().unwrap();
    col.typed::<Int64Type>()
        .write_batch(&[1, 2, 3], None, None)
        .unwrap();
    col.close().unwrap();
    let mut col = rg.next_column().unwrap().unwrap();
    let names = [ByteArray::from("a"), ByteArray::from("c")];
    col.typed::<ByteArrayType>()
        .write_batch(&names, Some(&[1, 0, 1]), None)
        .unwrap();
    col.close().unwrap();
    rg.close().unwrap();
    writer.close().unwrap();
    path
}

fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_parquet-rows"))
        .args(args)
        .output()
        .expect("run parquet-rows")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[test]
fn struct_prints_a_struct_that_reads_the_file() {
    let path = write_file("struct");
    let out = run(&[
        "struct",
        path.to_str().unwrap(),
        "--owned",
        "--name",
        "Tick",
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(
        text(&out.stdout),
        "use parquet_rows::ParquetRow;

/// One row of `rows.parquet`.
#[derive(ParquetRow, Debug)]
pub struct Tick {
    pub id: i64, // REQUIRED INT64
    pub name: Option<String>, // OPTIONAL BYTE_ARRAY (UTF8)
}
"
    );
    let out = run(&["struct", path.to_str().unwrap()]);
    assert!(text(&out.stdout).contains("pub struct Row<'a> {"));
    assert!(text(&out.stdout).contains("pub name: Option<&'a str>,"));
}

/// Writes `optional.parquet`: OPTIONAL `v` without a null, OPTIONAL `w`
/// with one, OPTIONAL `g.x` (in a REQUIRED group) without a null, 3 rows
/// with statistics (the writer's default).
fn write_optional_file(test: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(test);
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("optional.parquet");
    let schema = Arc::new(
        parse_message_type(
            "message schema { OPTIONAL INT64 v; OPTIONAL INT64 w; REQUIRED group g { OPTIONAL INT64 x; } }",
        )
        .unwrap(),
    );
    let file = std::fs::File::create(&path).unwrap();
    let props = Arc::new(WriterProperties::builder().build());
    let mut writer = SerializedFileWriter::new(file, schema, props).unwrap();
    let mut rg = writer.next_row_group().unwrap();
    for (values, defs) in [
        (&[1, 2, 3][..], [1, 1, 1]),
        (&[4, 5][..], [1, 0, 1]),
        (&[6, 7, 8][..], [1, 1, 1]),
    ] {
        let mut col = rg.next_column().unwrap().unwrap();
        col.typed::<Int64Type>()
            .write_batch(values, Some(&defs), None)
            .unwrap();
        col.close().unwrap();
    }
    rg.close().unwrap();
    writer.close().unwrap();
    path
}

#[test]
fn struct_gives_plain_fields_to_optional_columns_without_nulls() {
    let path = write_optional_file("struct-null-free");
    let out = run(&["struct", path.to_str().unwrap()]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    assert!(
        stdout.contains(
            "    pub v: i64, // OPTIONAL INT64; no nulls in any row group (statistics): a plain \
             field reads faster than `Option<_>`; use `Option<_>` if other files may hold nulls\n"
        ),
        "{stdout}"
    );
    assert!(
        stdout.contains("    pub w: Option<i64>, // OPTIONAL INT64\n"),
        "{stdout}"
    );
    // A field of a nested struct must be an `Option` on an OPTIONAL column
    // (the library refuses a plain one), whatever the statistics say.
    assert!(
        stdout.contains("    pub x: Option<i64>, // OPTIONAL INT64\n"),
        "{stdout}"
    );
}

#[test]
fn struct_prints_nothing_for_a_file_the_library_cannot_open() {
    let Some(corpus) = parquet_rows_suite::parquet_test_data() else {
        println!("skipped: PARQUET_TEST_DATA=skip");
        return;
    };
    // Its schema reads, but the `parquet` crate refuses its footer (Dremio
    // wrote a list where `bloom_filter_length` is expected), so the library
    // cannot open it: a struct printed for it would read nothing.
    let path = corpus.join("data/dict-page-offset-zero.parquet");
    let out = run(&["struct", path.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stdout));
    assert!(out.stdout.is_empty(), "{}", text(&out.stdout));
    assert!(
        text(&out.stderr).starts_with(&format!(
            "error: parquet-rows cannot open `{}`, so no struct would read it: ",
            path.display()
        )),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn struct_of_a_file_that_is_not_parquet_fails_with_the_path() {
    let out = run(&["struct", "Cargo.toml"]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        text(&out.stderr),
        "error: cannot read the schema of `Cargo.toml`: it is not a Parquet file: it does not \
         start and end with the magic bytes `PAR1`\n"
    );
    assert!(out.stdout.is_empty());
}

#[test]
fn inspect_prints_schema_row_groups_and_chunks() {
    let path = write_file("inspect");
    let out = run(&["inspect", path.to_str().unwrap()]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    for expected in [
        "rows:       3 in 1 row group, 2 columns",
        "message schema {",
        "OPTIONAL BYTE_ARRAY name (UTF8);",
        "row group 0: 3 rows,",
        "  column  type        codec   encodings",
    ] {
        assert!(stdout.contains(expected), "no {expected:?} in:\n{stdout}");
    }
    let id = stdout
        .lines()
        .find(|l| l.trim_start().starts_with("id "))
        .expect("a line for column `id`");
    let cells: Vec<&str> = id.split_whitespace().collect();
    assert_eq!(&cells[..3], ["id", "INT64", "SNAPPY"], "{id}");
    assert!(cells[3].contains("PLAIN"), "{id}");
    assert_eq!(cells[6], "3", "3 values: {id}");
    assert_eq!(cells[7], "min/max,nulls", "{id}");
}

#[test]
fn check_gives_a_verdict_per_file_and_fails_if_one_fails() {
    let good = write_file("check");
    // The same file with its first page header overwritten: the footer
    // still reads, the page does not.
    let bad = good.with_file_name("bad.parquet");
    let mut bytes = std::fs::read(&good).unwrap();
    bytes[4..24].fill(0xff);
    std::fs::write(&bad, bytes).unwrap();
    let missing = good.with_file_name("missing.parquet");

    let out = run(&["check", good.to_str().unwrap()]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(
        text(&out.stdout),
        format!("ok    {}: 3 rows\n", good.display())
    );

    let paths = [&good, &bad, &missing].map(|p| p.to_str().unwrap().to_owned());
    let mut args = vec!["check"];
    args.extend(paths.iter().map(String::as_str));
    let out = run(&args);
    assert_eq!(out.status.code(), Some(1));
    let stdout = text(&out.stdout);
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 3, "{stdout}");
    assert_eq!(lines[0], format!("ok    {}: 3 rows", good.display()));
    assert!(
        lines[1].starts_with(&format!(
            "FAIL  {}: column `id`, row group 0: ",
            bad.display()
        )),
        "{stdout}"
    );
    assert!(
        lines[2].starts_with(&format!(
            "FAIL  {}: cannot open the file: ",
            missing.display()
        )),
        "{stdout}"
    );
    assert!(
        text(&out.stderr).ends_with("error: 2 of 3 files failed to decode\n"),
        "{}",
        text(&out.stderr)
    );
}
