//! `parquet-rows inspect`: what is in a file, from its footer alone: the
//! schema, the row groups, and for every column chunk its type, codec,
//! encodings, sizes and which statistics and indexes it has.

use std::fmt::Write as _;
use std::fs::File;
use std::path::Path;

use parquet::basic::Compression;
use parquet::file::metadata::{ColumnChunkMetaData, ParquetMetaData};
use parquet::file::reader::{FileReader, SerializedFileReader};
use parquet::schema::printer::print_schema;

use crate::Error;

/// The report for the file at `path`.
pub fn inspect(path: &Path) -> Result<String, Error> {
    let metadata = read_metadata(path)?;
    let bytes = std::fs::metadata(path).map_or(0, |m| m.len());
    Ok(report(&path.display().to_string(), bytes, &metadata))
}

/// Reads the footer of the file at `path` with the `parquet` crate.
pub(crate) fn read_metadata(path: &Path) -> Result<ParquetMetaData, Error> {
    let file = File::open(path)
        .map_err(|e| Error::new(format!("cannot open `{}`: {e}", path.display())))?;
    let reader = SerializedFileReader::new(file).map_err(|e| {
        Error::new(format!(
            "cannot read the footer of `{}`: {e}",
            path.display()
        ))
    })?;
    Ok(reader.metadata().clone())
}

/// The report for a file named `name` of `bytes` bytes.
pub fn report(name: &str, bytes: u64, metadata: &ParquetMetaData) -> String {
    let file = metadata.file_metadata();
    let mut out = String::new();
    let _ = writeln!(out, "file:       {name} ({} bytes)", thousands(bytes));
    if let Some(created_by) = file.created_by() {
        let _ = writeln!(out, "created by: {created_by}");
    }
    let _ = writeln!(
        out,
        "rows:       {} in {} row group{}, {} column{}",
        thousands(u64::try_from(file.num_rows()).unwrap_or(0)),
        metadata.num_row_groups(),
        plural(metadata.num_row_groups()),
        file.schema_descr().num_columns(),
        plural(file.schema_descr().num_columns()),
    );
    let mut schema = Vec::new();
    print_schema(&mut schema, file.schema());
    let _ = write!(out, "\nschema:\n{}", String::from_utf8_lossy(&schema));

    for (i, rg) in metadata.row_groups().iter().enumerate() {
        let _ = writeln!(
            out,
            "\nrow group {i}: {} rows, {} bytes compressed, {} uncompressed",
            thousands(u64::try_from(rg.num_rows()).unwrap_or(0)),
            thousands(u64::try_from(rg.compressed_size()).unwrap_or(0)),
            thousands(u64::try_from(rg.total_byte_size()).unwrap_or(0)),
        );
        let mut rows = vec![[
            "column".to_owned(),
            "type".to_owned(),
            "codec".to_owned(),
            "encodings".to_owned(),
            "compressed".to_owned(),
            "uncompressed".to_owned(),
            "values".to_owned(),
            "statistics".to_owned(),
            "indexes".to_owned(),
        ]];
        rows.extend(rg.columns().iter().map(chunk_row));
        table(&mut out, &rows);
    }
    out
}

/// One line of a row group's table.
fn chunk_row(c: &ColumnChunkMetaData) -> [String; 9] {
    let encodings: Vec<String> = c.encodings().map(|e| format!("{e:?}")).collect();
    let size = |n: i64| thousands(u64::try_from(n).unwrap_or(0));
    [
        c.column_path().string(),
        format!("{:?}", c.column_type()),
        codec(c.compression()).to_owned(),
        encodings.join(","),
        size(c.compressed_size()),
        size(c.uncompressed_size()),
        size(c.num_values()),
        statistics(c),
        indexes(c),
    ]
}

/// Which statistics the chunk has: `min/max`, `nulls`, `distinct`, or `-`.
fn statistics(c: &ColumnChunkMetaData) -> String {
    let Some(s) = c.statistics() else {
        return "-".to_owned();
    };
    let mut present = Vec::new();
    if s.min_bytes_opt().is_some() && s.max_bytes_opt().is_some() {
        present.push("min/max");
    }
    if s.null_count_opt().is_some() {
        present.push("nulls");
    }
    if s.distinct_count_opt().is_some() {
        present.push("distinct");
    }
    if present.is_empty() {
        "-".to_owned()
    } else {
        present.join(",")
    }
}

/// Which indexes the chunk has: column index, offset index, bloom filter.
fn indexes(c: &ColumnChunkMetaData) -> String {
    let mut present = Vec::new();
    if c.column_index_offset().is_some() {
        present.push("column");
    }
    if c.offset_index_offset().is_some() {
        present.push("offset");
    }
    if c.bloom_filter_offset().is_some() {
        present.push("bloom");
    }
    if present.is_empty() {
        "-".to_owned()
    } else {
        present.join(",")
    }
}

/// The codec's Parquet name, without the writer-side level the `parquet`
/// crate fills in (the footer does not record it).
fn codec(c: Compression) -> &'static str {
    match c {
        Compression::UNCOMPRESSED => "UNCOMPRESSED",
        Compression::SNAPPY => "SNAPPY",
        Compression::GZIP(_) => "GZIP",
        Compression::LZO => "LZO",
        Compression::BROTLI(_) => "BROTLI",
        Compression::LZ4 => "LZ4",
        Compression::ZSTD(_) => "ZSTD",
        Compression::LZ4_RAW => "LZ4_RAW",
    }
}

/// Writes `rows` as columns padded to their widest cell; numbers (every
/// cell but the header's that starts with a digit) are right-aligned.
fn table<const N: usize>(out: &mut String, rows: &[[String; N]]) {
    let mut widths = [0; N];
    for row in rows {
        for (w, cell) in widths.iter_mut().zip(row) {
            *w = (*w).max(cell.chars().count());
        }
    }
    for (r, row) in rows.iter().enumerate() {
        let mut line = String::from("  ");
        for (i, (cell, w)) in row.iter().zip(widths).enumerate() {
            let numeric = r > 0 && cell.starts_with(|c: char| c.is_ascii_digit());
            let sep = if i + 1 == N { "" } else { "  " };
            if numeric {
                let _ = write!(line, "{cell:>w$}{sep}");
            } else {
                let _ = write!(line, "{cell:<w$}{sep}");
            }
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
}

/// `1234567` as `1,234,567`.
pub fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thousands_separators() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1000), "1,000");
        assert_eq!(thousands(1_234_567), "1,234,567");
    }

    #[test]
    fn table_pads_and_aligns_numbers() {
        let mut out = String::new();
        table(
            &mut out,
            &[
                ["column".to_owned(), "bytes".to_owned()],
                ["a".to_owned(), "5".to_owned()],
                ["long_name".to_owned(), "1,234".to_owned()],
            ],
        );
        assert_eq!(
            out,
            "  column     bytes\n  a              5\n  long_name  1,234\n"
        );
    }
}
