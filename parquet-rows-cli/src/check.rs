//! `parquet-rows check`: decode every page of every column chunk of each
//! file, and give each file a verdict.
//!
//! A struct that reads a file is only known at compile time, so the tool
//! cannot decode with parquet-rows itself; it reads every column with the
//! `parquet` crate's column readers (the same page reader and codecs
//! parquet-rows uses), values and levels included, and checks that each
//! column holds as many records as its row group's footer says.

use std::fmt;
use std::fs::File;
use std::panic::{self, AssertUnwindSafe};
use std::path::{Path, PathBuf};

use indicatif::{ProgressBar, ProgressStyle};
use parquet::column::reader::ColumnReader;
use parquet::errors::Result as ParquetResult;
use parquet::file::metadata::RowGroupMetaData;
use parquet::file::reader::{FileReader, SerializedFileReader};

/// Records read per call: bounded, so a file of many small values is
/// decoded in a small, reused buffer.
const BATCH: usize = 4096;

/// What checking one file found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Verdict {
    /// The file.
    pub path: PathBuf,
    /// Its row count when every page decoded, else the first error.
    pub outcome: Result<u64, String>,
}

impl Verdict {
    /// Whether every page of the file decoded.
    pub fn is_ok(&self) -> bool {
        self.outcome.is_ok()
    }
}

impl fmt::Display for Verdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.outcome {
            Ok(rows) => write!(
                f,
                "ok    {}: {} rows",
                self.path.display(),
                crate::inspect::thousands(*rows)
            ),
            Err(e) => write!(f, "FAIL  {}: {e}", self.path.display()),
        }
    }
}

/// Checks every file, in order, with a progress bar on stderr (in bytes of
/// column chunks, hidden when stderr is not a terminal); `report` sees each
/// verdict as soon as it is known, with the bar out of the way.
pub fn check_files(paths: &[PathBuf], mut report: impl FnMut(&Verdict)) -> Vec<Verdict> {
    let opened: Vec<_> = paths.iter().map(|p| open(p)).collect();
    let total: u64 = opened
        .iter()
        .flatten()
        .map(|reader| chunk_bytes(reader.as_ref()))
        .sum();
    let bar = ProgressBar::new(total);
    bar.set_style(
        ProgressStyle::with_template(
            "{spinner} [{elapsed_precise}] {bar:30} {binary_bytes}/{binary_total_bytes} {wide_msg}",
        )
        .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let mut verdicts = Vec::with_capacity(paths.len());
    for (path, reader) in paths.iter().zip(opened) {
        let name = path.file_name().map_or_else(
            || path.display().to_string(),
            |n| n.to_string_lossy().into_owned(),
        );
        bar.set_message(name);
        let outcome = reader.and_then(|reader| {
            let done = bar.position();
            let outcome = decode_caught(reader.as_ref(), &mut |n| bar.inc(n));
            // A file that failed part-way still counts as done.
            bar.set_position(done + chunk_bytes(reader.as_ref()));
            outcome
        });
        let verdict = Verdict {
            path: path.clone(),
            outcome,
        };
        bar.suspend(|| report(&verdict));
        verdicts.push(verdict);
    }
    bar.finish_and_clear();
    verdicts
}

type Reader = Box<dyn FileReader>;

fn open(path: &Path) -> Result<Reader, String> {
    let file = File::open(path).map_err(|e| format!("cannot open the file: {e}"))?;
    // The `parquet` crate panics on some malformed footers; a verdict is
    // still due.
    let opened = panic::catch_unwind(|| SerializedFileReader::new(file));
    match opened {
        Ok(Ok(reader)) => Ok(Box::new(reader)),
        Ok(Err(e)) => Err(format!("cannot read the footer: {e}")),
        Err(payload) => Err(format!(
            "the `parquet` crate panicked reading the footer: {}",
            panic_message(payload.as_ref())
        )),
    }
}

/// The compressed bytes of every column chunk of the file.
fn chunk_bytes(reader: &dyn FileReader) -> u64 {
    reader
        .metadata()
        .row_groups()
        .iter()
        .flat_map(RowGroupMetaData::columns)
        .map(|c| u64::try_from(c.compressed_size()).unwrap_or(0))
        .sum()
}

/// [`decode`], with a panic of the `parquet` crate turned into an error.
fn decode_caught(reader: &dyn FileReader, progress: &mut dyn FnMut(u64)) -> Result<u64, String> {
    match panic::catch_unwind(AssertUnwindSafe(|| decode(reader, progress))) {
        Ok(outcome) => outcome,
        Err(payload) => Err(format!(
            "the `parquet` crate panicked while decoding: {}",
            panic_message(payload.as_ref())
        )),
    }
}

fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|s| (*s).to_owned())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "(no message)".to_owned())
}

/// Decodes every column chunk; the number of rows when all decode and each
/// column has the row count of its row group.
fn decode(reader: &dyn FileReader, progress: &mut dyn FnMut(u64)) -> Result<u64, String> {
    let metadata = reader.metadata();
    let mut rows = 0u64;
    for i in 0..metadata.num_row_groups() {
        let rg = reader
            .get_row_group(i)
            .map_err(|e| format!("row group {i}: {e}"))?;
        let expected = rg.metadata().num_rows();
        for (c, chunk) in rg.metadata().columns().iter().enumerate() {
            let column = chunk.column_path().string();
            let records = rg
                .get_column_reader(c)
                .and_then(records)
                .map_err(|e| format!("column `{column}`, row group {i}: {e}"))?;
            if i64::try_from(records).ok() != Some(expected) {
                return Err(format!(
                    "column `{column}`, row group {i}: {records} rows decoded, the footer says {expected}"
                ));
            }
            progress(u64::try_from(chunk.compressed_size()).unwrap_or(0));
        }
        rows += u64::try_from(expected).unwrap_or(0);
    }
    Ok(rows)
}

/// Reads a column chunk to its end; how many records (rows) it holds.
fn records(reader: ColumnReader) -> ParquetResult<usize> {
    macro_rules! read_all {
        ($r:expr) => {{
            let mut r = $r;
            let (mut def, mut rep, mut values) = (Vec::new(), Vec::new(), Vec::new());
            let mut total = 0;
            loop {
                let (records, _, levels) =
                    r.read_records(BATCH, Some(&mut def), Some(&mut rep), &mut values)?;
                if records == 0 && levels == 0 {
                    break;
                }
                total += records;
                def.clear();
                rep.clear();
                values.clear();
            }
            Ok(total)
        }};
    }
    match reader {
        ColumnReader::BoolColumnReader(r) => read_all!(r),
        ColumnReader::Int32ColumnReader(r) => read_all!(r),
        ColumnReader::Int64ColumnReader(r) => read_all!(r),
        ColumnReader::Int96ColumnReader(r) => read_all!(r),
        ColumnReader::FloatColumnReader(r) => read_all!(r),
        ColumnReader::DoubleColumnReader(r) => read_all!(r),
        ColumnReader::ByteArrayColumnReader(r) => read_all!(r),
        ColumnReader::FixedLenByteArrayColumnReader(r) => read_all!(r),
    }
}
