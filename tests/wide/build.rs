//! The suite's build script: writes the wide structs of the wide test
//! (`tests/wide/main.rs`) into `OUT_DIR`, so that no one writes them by
//! hand and the field count is one constant here.

use std::fmt::Write as _;
use std::path::PathBuf;

/// Fields of each wide struct (`WIDE_FIELDS` overrides it, to see how the
/// derive's compile time grows with the number of fields). 1,000, so that
/// every test run proves the derive compiles such a struct: about 5 s of
/// rustc CPU per struct in a debug build (docs/pipeline.md, Wide structs).
const FIELDS: usize = 1000;

/// `(Rust type in the borrowed struct, Rust type in the owned struct, column)`,
/// field `i` taking entry `i % 6`.
const TYPES: [(&str, &str, &str); 6] = [
    ("i64", "i64", "REQUIRED INT64"),
    ("f64", "f64", "REQUIRED DOUBLE"),
    ("Option<i32>", "Option<i32>", "OPTIONAL INT32"),
    ("&'a str", "::std::sync::Arc<str>", "REQUIRED BYTE_ARRAY"),
    ("bool", "bool", "REQUIRED BOOLEAN"),
    ("Option<&'a str>", "Option<String>", "OPTIONAL BYTE_ARRAY"),
];

fn main() {
    println!("cargo:rerun-if-changed=tests/wide/build.rs");
    println!("cargo:rerun-if-env-changed=WIDE_FIELDS");
    let fields = std::env::var("WIDE_FIELDS")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(FIELDS);
    let mut out = String::new();
    let _ = writeln!(
        out,
        "/// Fields of each wide struct.\npub const FIELDS: usize = {fields};"
    );
    let mut schema = String::from("message wide {\n");
    for i in 0..fields {
        let (_, _, column) = TYPES[i % TYPES.len()];
        let utf8 = if column.ends_with("BYTE_ARRAY") {
            " (UTF8)"
        } else {
            ""
        };
        let _ = writeln!(schema, "  {column} c{i}{utf8};");
    }
    schema.push('}');
    let _ = writeln!(
        out,
        "/// The wide file's schema.\npub const SCHEMA: &str = {schema:?};"
    );
    for (name, lifetime, pick) in [("Wide", "<'a>", 0), ("WideOwned", "", 1)] {
        let _ = writeln!(
            out,
            "/// {fields} fields, field `c{{i}}` of type `TYPES[i % 6]`.\n#[derive(::parquet_rows::ParquetRow, Debug, Clone, PartialEq)]\n#[allow(clippy::struct_excessive_bools)] // a bool column in six\npub struct {name}{lifetime} {{"
        );
        for i in 0..fields {
            let ty = if pick == 0 {
                TYPES[i % 6].0
            } else {
                TYPES[i % 6].1
            };
            let _ = writeln!(out, "    pub c{i}: {ty},");
        }
        out.push_str("}\n");
    }
    let dir = PathBuf::from(std::env::var_os("OUT_DIR").expect("OUT_DIR"));
    std::fs::write(dir.join("wide.rs"), out).expect("write wide.rs");
}
