//! `parquet-rows`: start from a Parquet file. See the crate's README.md.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use parquet_rows_cli::{check, inspect, structgen, Error};

/// Work with Parquet files for parquet-rows: write the struct that reads a
/// file, show its layout, check that it decodes.
#[derive(Debug, Parser)]
#[command(name = "parquet-rows", version)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Print a `#[derive(ParquetRow)]` struct that reads FILE, ready to paste.
    Struct {
        /// The Parquet file.
        file: PathBuf,
        /// Owned fields (`String`, `Vec<u8>`) instead of borrowed ones (`&'a str`, `&'a [u8]`).
        #[arg(long)]
        owned: bool,
        /// The name of the top-level struct.
        #[arg(long, default_value = "Row")]
        name: String,
    },
    /// Print FILE's schema, row groups and column chunks (encodings, codec, sizes, statistics).
    Inspect {
        /// The Parquet file.
        file: PathBuf,
    },
    /// Decode every page of every FILE; print one verdict per file; fail if any file fails.
    Check {
        /// The Parquet files.
        #[arg(required = true)]
        files: Vec<PathBuf>,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Struct { file, owned, name } => structgen::read_schema(&file)
            .and_then(|schema| {
                let options = structgen::Options {
                    name,
                    owned,
                    null_free: structgen::null_free_columns(&file)?,
                };
                structgen::generate(&schema, &display_name(&file), &options)
            })
            .map(|text| print!("{text}")),
        Command::Inspect { file } => inspect::inspect(&file).map(|text| print!("{text}")),
        Command::Check { files } => {
            // A panic of the `parquet` crate on a malformed file becomes that
            // file's verdict (`check` catches it); its message is printed there.
            std::panic::set_hook(Box::new(|_| {}));
            let verdicts = check::check_files(&files, |v| println!("{v}"));
            if verdicts.iter().all(check::Verdict::is_ok) {
                Ok(())
            } else {
                let failed = verdicts.iter().filter(|v| !v.is_ok()).count();
                Err(Error::new(format!(
                    "{failed} of {} files failed to decode",
                    verdicts.len()
                )))
            }
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

/// The file's name, for the struct's doc comment.
fn display_name(path: &std::path::Path) -> String {
    path.file_name().map_or_else(
        || path.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    )
}
