//! Hand-made corruption: dictionary indices out of range, definition levels
//! that disagree with the values, and row counts in the footer that disagree
//! with the pages.

use super::*;

/// Finds `needle` in `haystack`, exactly once.
fn find_once(haystack: &[u8], needle: &[u8]) -> usize {
    let hits: Vec<usize> = haystack
        .windows(needle.len())
        .enumerate()
        .filter(|(_, w)| *w == needle)
        .map(|(i, _)| i)
        .collect();
    assert_eq!(
        hits.len(),
        1,
        "the page bytes must occur exactly once in the file"
    );
    hits[0]
}

/// Offsets (in `stream`) of the runs of an RLE/bit-packed hybrid stream with
/// values of `width` bits: `(header offset, header length, is_rle, count)`.
fn hybrid_runs(stream: &[u8], width: usize) -> Vec<(usize, usize, bool, usize)> {
    let mut runs = Vec::new();
    let mut pos = 0;
    while pos < stream.len() {
        let (mut header, mut len, mut shift) = (0usize, 0, 0);
        loop {
            let b = stream[pos + len];
            header |= usize::from(b & 0x7f) << shift;
            len += 1;
            shift += 7;
            if b < 0x80 {
                break;
            }
        }
        let rle = header & 1 == 0;
        let count = header >> 1;
        runs.push((pos, len, rle, count));
        pos += len
            + if rle {
                width.div_ceil(8)
            } else {
                count * width
            };
    }
    runs
}

/// An uncompressed v1 file (no page CRCs), one row group.
fn plain_v1(dictionary: bool) -> WriterProperties {
    WriterProperties::builder()
        .set_writer_version(WriterVersion::PARQUET_1_0)
        .set_dictionary_enabled(dictionary)
        .build()
}

#[test]
fn dictionary_index_out_of_range() {
    #[derive(ParquetRow, Debug)]
    struct X {
        x: i32,
    }

    // 3 dictionary entries (bit width 2); indices 0 x100, 1 x100, 2 x100: RLE runs.
    let values: Vec<Option<i32>> = (0..300).map(|i| Some(7 + i / 100)).collect();
    let bytes = write_columns(
        "message m { REQUIRED INT32 x; }",
        plain_v1(true),
        &[vec![ColumnValues::Int32(values)]],
    )
    .expect("write");
    let pages = &all_pages(&bytes)[0][0];
    let data = pages
        .iter()
        .find(|p| p.is_data_page())
        .expect("a data page");
    assert!(matches!(
        data.encoding(),
        Encoding::PLAIN_DICTIONARY | Encoding::RLE_DICTIONARY
    ));
    let body = data.buffer();
    assert_eq!(body[0], 2, "bit width of 3 dictionary indices");
    let (header, header_len, rle, _) = hybrid_runs(&body[1..], 2)
        .into_iter()
        .find(|r| r.2)
        .expect("an RLE run of indices");
    assert!(rle);
    let at = find_once(&bytes, body) + 1 + header + header_len;

    // Index 3 in a 3-entry dictionary.
    let mut corrupt = bytes.to_vec();
    corrupt[at] = 3;
    let file = ParquetFile::from_bytes(corrupt).expect("open");
    match file.rows::<X>().collect() {
        Err(Error::OutOfSpec { location, message }) => {
            assert_eq!(location.column, "x");
            assert_eq!(
                message,
                "dictionary index 3 is out of range (the dictionary has 3 entries)"
            );
        }
        other => panic!("expected an out-of-range index error, got {other:?}"),
    }
    // A filtered read tests the predicate on the indices, with the
    // dictionary's verdicts: the same error, on every path.
    let query = || parquet_rows::Query::from_filter(X::filter().x().eq(8));
    let check = |path: &str, result: parquet_rows::Result<Vec<X>>| match result {
        Err(Error::OutOfSpec { location, message }) => {
            assert_eq!(location.column, "x", "{path}");
            assert_eq!(location.row_group, Some(0), "{path}");
            assert_eq!(
                message, "dictionary index 3 is out of range (the dictionary has 3 entries)",
                "{path}"
            );
        }
        other => panic!("{path}: expected an out-of-range index error, got {other:?}"),
    };
    check("collect", file.rows::<X>().filter(query()).collect());
    check(
        "threads(2)",
        file.rows::<X>().filter(query()).threads(2).collect(),
    );
    check(
        "stream",
        file.rows::<X>()
            .filter(query())
            .stream()
            .and_then(Iterator::collect),
    );
    check(
        "batches",
        file.rows::<X>()
            .filter(query())
            .batches()
            .and_then(Iterator::collect::<parquet_rows::Result<Vec<Vec<X>>>>)
            .map(|b| b.into_iter().flatten().collect()),
    );
    // The error comes half-way through a batch whose rows were already placed
    // in the output: `rows_into` takes them out again, leaving the rows it
    // was given as they were.
    let pages = file.load::<X>().expect("load");
    let mut out = vec![X { x: -1 }];
    assert!(pages.rows_into(&mut out).is_err());
    assert_eq!(out.iter().map(|r| r.x).collect::<Vec<_>>(), [-1]);
}

/// An OPTIONAL column, PLAIN: 50 values, 50 nulls, 50 values (three RLE runs of
/// definition levels). Returns the file and the offset of the level stream.
fn levels_file() -> (Bytes, usize) {
    let values: Vec<Option<i32>> = (0..150)
        .map(|i| (!(50..100).contains(&i)).then_some(i))
        .collect();
    let bytes = write_columns(
        "message m { OPTIONAL INT32 x; }",
        plain_v1(false),
        &[vec![ColumnValues::Int32(values)]],
    )
    .expect("write");
    let pages = &all_pages(&bytes)[0][0];
    assert_eq!(pages.len(), 1, "one data page");
    let body = pages[0].buffer();
    // v1: 4-byte little-endian length, then the levels.
    let at = find_once(&bytes, body) + 4;
    (bytes, at)
}

#[derive(ParquetRow, Debug)]
struct OptionalX {
    x: Option<i32>,
}

#[test]
fn more_non_null_levels_than_values() {
    let (bytes, levels) = levels_file();
    let runs = hybrid_runs(&bytes[levels..levels + 6], 1);
    // runs: 50 x 1, 50 x 0, 50 x 1 (header 1 byte + value 1 byte each)
    assert_eq!(
        runs.iter().map(|r| (r.2, r.3)).collect::<Vec<_>>(),
        [(true, 50), (true, 50), (true, 50)]
    );
    let mut corrupt = bytes.to_vec();
    assert_eq!(corrupt[levels + 3], 0, "the null run's level");
    corrupt[levels + 3] = 1; // the nulls become values: 150 values, 100 in the page
    let file = ParquetFile::from_bytes(corrupt).expect("open");
    match file.rows::<OptionalX>().collect() {
        Err(Error::OutOfSpec { location, message }) => {
            assert_eq!(location.column, "x");
            assert!(message.contains("PLAIN values"), "{message}");
        }
        other => panic!("expected an error, got {other:?}"),
    }
}

#[test]
fn fewer_levels_than_values() {
    let (bytes, levels) = levels_file();
    let mut corrupt = bytes.to_vec();
    assert_eq!(corrupt[levels], 50 << 1, "the first run's header");
    corrupt[levels] = 10 << 1; // 110 levels for 150 values
    let file = ParquetFile::from_bytes(corrupt).expect("open");
    match file.rows::<OptionalX>().collect() {
        Err(Error::OutOfSpec { location, message }) => {
            assert_eq!(location.column, "x");
            assert!(
                message.contains("fewer definition levels than values"),
                "{message}"
            );
        }
        other => panic!("expected an error, got {other:?}"),
    }
}

/// `bytes` with a new footer in which row group `g` claims `rows[g]` rows; the
/// pages are untouched (column chunk offsets are absolute, so they stay valid).
fn with_row_counts(bytes: &Bytes, rows: &[i64]) -> Bytes {
    use parquet::file::metadata::{ParquetMetaData, ParquetMetaDataWriter};
    let metadata = file_metadata(bytes);
    let len = bytes.len();
    let footer_len = u32::from_le_bytes(bytes[len - 8..len - 4].try_into().expect("4 bytes"));
    let footer_start = len - 8 - footer_len as usize;
    let groups = metadata
        .row_groups()
        .iter()
        .zip(rows)
        .map(|(g, &n)| {
            g.clone()
                .into_builder()
                .set_num_rows(n)
                .build()
                .expect("row group")
        })
        .collect();
    let metadata = ParquetMetaData::new(metadata.file_metadata().clone(), groups);
    let mut out = bytes[..footer_start].to_vec();
    ParquetMetaDataWriter::new(&mut out, &metadata)
        .finish()
        .expect("write footer");
    Bytes::from(out)
}

#[test]
fn row_counts_in_the_footer_that_disagree_with_the_pages() {
    let values: Vec<Option<i32>> = (0..100).map(|i| (i % 3 != 0).then_some(i)).collect();
    let bytes = write_columns(
        "message m { OPTIONAL INT32 x; }",
        plain_v1(true),
        &[vec![ColumnValues::Int32(values)]],
    )
    .expect("write");
    // The rewritten footer itself is fine.
    let same = with_row_counts(&bytes, &[100]);
    assert_eq!(
        ParquetFile::from_bytes(same)
            .expect("open")
            .rows::<OptionalX>()
            .collect()
            .expect("read")
            .len(),
        100
    );

    // Fewer rows than the column chunk holds: the rest would be silently lost.
    let file = ParquetFile::from_bytes(with_row_counts(&bytes, &[90])).expect("open");
    match file.rows::<OptionalX>().collect() {
        Err(Error::OutOfSpec { location, message }) => {
            assert_eq!(location.column, "x");
            assert_eq!(
                message,
                "the column chunk has 10 more values than the row group has rows"
            );
        }
        other => panic!("expected an error, got {other:?}"),
    }
    // More rows than the pages hold, up to absurd counts: an error, and no
    // allocation sized by the footer's number.
    // (Without the output limit, which stops the absurd counts first: below.)
    let unlimited = parquet_rows::ReadOptions::default().max_output_bytes(usize::MAX);
    for rows in [101, 1 << 40, i64::MAX] {
        let file = ParquetFile::from_bytes(with_row_counts(&bytes, &[rows]))
            .expect("open")
            .with_options(unlimited);
        match file.rows::<OptionalX>().collect() {
            Err(Error::OutOfSpec { location, message }) => {
                assert_eq!(location.column, "x", "{rows} rows");
                assert!(
                    message.contains("fewer values than the row group has rows"),
                    "{message}"
                );
            }
            other => panic!("{rows} rows: expected an error, got {other:?}"),
        }
        let pages = file.load::<OptionalX>().expect("load");
        assert!(pages.rows::<OptionalX>().is_err(), "{rows} rows");
    }
    // With the default limits, 2^40 rows of 8 bytes are refused before decoding.
    let file = ParquetFile::from_bytes(with_row_counts(&bytes, &[1 << 40])).expect("open");
    assert!(
        matches!(file.rows::<OptionalX>().collect(), Err(Error::Limit { .. })),
        "2^40 rows"
    );
}
