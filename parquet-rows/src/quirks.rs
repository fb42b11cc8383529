//! Known bugs of real writers, recognised by the footer's `created_by`, and
//! what the reader does about each (the rules are in `docs/writer-quirks.md`).
//!
//! `created_by` is parsed as Arrow C++'s `ApplicationVersion` parses it
//! (`cpp/src/parquet/metadata.cc`): the application is what comes before
//! `" version "`, then `major.minor.patch`; what fails to parse stays 0, as
//! there.

use parquet::file::metadata::ParquetMetaData;

/// The most bytes a dictionary page's header takes, as Arrow C++ counts it
/// (`kMaxDictHeaderSize` in `cpp/src/parquet/file_reader.cc`).
const MAX_DICTIONARY_HEADER: u64 = 100;

/// What a file's writer is known to get wrong.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Writer {
    /// parquet-mr up to 1.2.8 left the dictionary page's header out of a
    /// column chunk's `total_compressed_size` (PARQUET-816, IMPALA-694).
    pub(crate) dictionary_header_outside_sizes: bool,
}

impl Writer {
    /// The quirks of the writer a footer's `created_by` names.
    pub(crate) fn of(created_by: Option<&str>) -> Writer {
        let (application, version) = created_by.map_or(("", [0; 3]), application_version);
        Writer {
            // Arrow C++ `ApplicationVersion::PARQUET_816_FIXED_VERSION`
            // ("parquet-mr", 1.2.9); a file without `created_by` is
            // "unknown 0.0.0" there, a different application.
            dictionary_header_outside_sizes: created_by.is_some()
                && application == "parquet-mr"
                && version < [1, 2, 9],
        }
    }
}

/// The application and `[major, minor, patch]` of a `created_by` string
/// such as `parquet-mr version 1.2.8 (build 0c5d4b6a)`; numbers that do not
/// parse are 0, and so are those after them.
fn application_version(created_by: &str) -> (&str, [u32; 3]) {
    let Some((application, rest)) = created_by.split_once(" version ") else {
        return (created_by.trim(), [0; 3]);
    };
    let version = rest.trim_start();
    let version = version
        .split_once(" (")
        .map_or(version, |(v, _)| v)
        .trim_end();
    let mut numbers = [0; 3];
    let mut parts = version.splitn(3, '.');
    for (i, n) in numbers.iter_mut().enumerate() {
        let Some(part) = parts.next() else { break };
        // The patch may run on (`1.5.0-cdh5.5.0`, `1.2.8rc1`): its digits.
        let digits = if i == 2 {
            part.split(|c: char| !c.is_ascii_digit())
                .next()
                .unwrap_or("")
        } else {
            part
        };
        match digits.parse() {
            Ok(v) => *n = v,
            Err(_) => break,
        }
    }
    (application.trim(), numbers)
}

/// `metadata` with each column chunk's `total_compressed_size` grown by the
/// most a dictionary page's header takes (bounded by the end of the file of
/// `file_len` bytes), when its writer left that header out (PARQUET-816).
/// Arrow C++ does the same in `ComputeColumnChunkRange`
/// (<https://github.com/apache/arrow/blob/main/cpp/src/parquet/file_reader.cc>):
/// the chunk is read with up to 100 bytes more, and its pages stop once they
/// hold the chunk's values (see `chunk::scan_pages`).
pub(crate) fn pad_chunks(metadata: ParquetMetaData, file_len: u64) -> ParquetMetaData {
    let created_by = metadata.file_metadata().created_by();
    if !Writer::of(created_by).dictionary_header_outside_sizes {
        return metadata;
    }
    let mut builder = metadata.into_builder();
    let groups = builder
        .take_row_groups()
        .into_iter()
        .map(|group| {
            let mut group = group.into_builder();
            let columns = group
                .take_columns()
                .into_iter()
                .map(|chunk| {
                    let start = chunk
                        .dictionary_page_offset()
                        .unwrap_or(chunk.data_page_offset());
                    let size = chunk.compressed_size();
                    // A negative range is refused when the chunk is loaded.
                    let (Ok(start), Ok(len)) = (u64::try_from(start), u64::try_from(size)) else {
                        return chunk;
                    };
                    let left = file_len.saturating_sub(start.saturating_add(len));
                    let padding = MAX_DICTIONARY_HEADER.min(left);
                    chunk
                        .into_builder()
                        .set_total_compressed_size(size + padding as i64)
                        .build()
                        .expect("the chunk's own fields, one size grown")
                })
                .collect();
            group
                .set_column_metadata(columns)
                .build()
                .expect("the row group's own columns")
        })
        .collect();
    builder.set_row_groups(groups).build()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn created_by_is_parsed_as_arrow_cpp_parses_it() {
        let cases = [
            ("parquet-mr version 1.2.8", ("parquet-mr", [1, 2, 8])),
            (
                "parquet-mr version 1.2.8 (build 0c5d4b6a)",
                ("parquet-mr", [1, 2, 8]),
            ),
            (
                "parquet-mr version 1.5.0-cdh5.5.0+cd",
                ("parquet-mr", [1, 5, 0]),
            ),
            ("parquet-mr version 1.2", ("parquet-mr", [1, 2, 0])),
            ("parquet-mr", ("parquet-mr", [0, 0, 0])),
            ("parquet-cpp version 1.2.8", ("parquet-cpp", [1, 2, 8])),
            ("impala version 1.2.3-cdh4 (build x)", ("impala", [1, 2, 3])),
        ];
        for (created_by, expected) in cases {
            assert_eq!(application_version(created_by), expected, "{created_by}");
        }
    }

    #[test]
    fn only_parquet_mr_before_1_2_9_leaves_the_dictionary_header_out() {
        let pads = |c: Option<&str>| Writer::of(c).dictionary_header_outside_sizes;
        assert!(pads(Some("parquet-mr version 1.2.8")));
        assert!(pads(Some("parquet-mr version 1.0.0")));
        assert!(pads(Some("parquet-mr")));
        assert!(!pads(Some("parquet-mr version 1.2.9")));
        assert!(!pads(Some("parquet-mr version 1.10.0")));
        assert!(!pads(Some("parquet-mr version 2.0.0")));
        assert!(!pads(Some("parquet-cpp version 1.2.8")));
        assert!(!pads(None));
    }
}
