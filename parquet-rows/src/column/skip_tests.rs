//! [`ColumnReader::skip_records`] on a list column written here page by
//! page, with pages that end inside records (as data page v1 allows), in
//! both page versions: reads after skips against a full read.

use std::sync::Arc;

use bytes::Bytes;
use parquet::basic::Encoding;
use parquet::column::page::Page;
use parquet::schema::parser::parse_message_type;
use parquet::schema::types::SchemaDescriptor;

use super::tests::{length_prefixed, Sections};
use super::{ColumnContext, ColumnReader, Convert};
use crate::chunk::LoadedColumn;
use crate::encoding::delta_binary_packed::encode::encode as delta;
use crate::encoding::rle_bp::encode::encode as rle;
use crate::encoding::testing::Rng;
use crate::out::Optionals;
use crate::physical::Int64;

/// One level entry of the column: repetition, definition, value (at the
/// maximum definition level, 3).
type Entry = (u32, u32, Option<i64>);

/// Records of an `optional group (LIST) { repeated group list { optional
/// int64 element } }` column: null lists, empty lists, lists with nulls.
fn records(n: usize, rng: &mut Rng) -> Vec<Vec<Entry>> {
    (0..n)
        .map(|_| match rng.below(8) {
            0 => vec![(0, 0, None)],
            1 => vec![(0, 1, None)],
            _ => {
                let longest = if rng.below(5) == 0 { 40 } else { 6 };
                (0..=rng.below(longest))
                    .map(|j| {
                        let rep = u32::from(j > 0);
                        match rng.below(5) {
                            0 => (rep, 2, None),
                            _ => (rep, 3, Some(rng.below(1000) as i64 * 7919 - 3)),
                        }
                    })
                    .collect()
            }
        })
        .collect()
}

/// One data page of `entries` (v1 when `v1`), values PLAIN or delta.
fn data_page(entries: &[Entry], v1: bool, rng: &mut Rng) -> Page {
    let reps: Vec<u32> = entries.iter().map(|e| e.0).collect();
    let defs: Vec<u32> = entries.iter().map(|e| e.1).collect();
    let values: Vec<i64> = entries.iter().filter_map(|e| e.2).collect();
    let (mut rep_bytes, mut def_bytes) = (Vec::new(), Vec::new());
    rle(&reps, 1, &mut rep_bytes);
    rle(&defs, 2, &mut def_bytes);
    let (encoding, values) = if rng.below(2) == 0 {
        let plain = values.iter().flat_map(|v| v.to_le_bytes()).collect();
        (Encoding::PLAIN, plain)
    } else {
        (Encoding::DELTA_BINARY_PACKED, delta(&values, 128, 4))
    };
    Sections {
        reps: Some(&rep_bytes),
        defs: Some(&def_bytes),
        values,
        encoding,
        num_values: entries.len() as u32,
        num_nulls: entries.iter().filter(|e| e.2.is_none()).count() as u32,
        num_rows: reps.iter().filter(|&&r| r == 0).count() as u32,
    }
    .page(v1)
}

/// The chunk of `records`: pages cut at record starts (`aligned`) or
/// anywhere, v1 or v2 at random.
fn chunk(records: &[Vec<Entry>], aligned: bool, rng: &mut Rng) -> LoadedColumn {
    let entries: Vec<Entry> = records.iter().flatten().copied().collect();
    let mut pages = Vec::new();
    let mut start = 0;
    while start < entries.len() {
        let mut end = (start + 1 + rng.below(60)).min(entries.len());
        while aligned && end < entries.len() && entries[end].0 != 0 {
            end += 1;
        }
        pages.push(data_page(&entries[start..end], rng.below(2) == 0, rng));
        start = end;
    }
    let schema = parse_message_type(
        "message m { optional group a (LIST) { repeated group list { optional int64 element; } } }",
    )
    .unwrap();
    let descr = SchemaDescriptor::new(Arc::new(schema)).column(0);
    LoadedColumn::new(0, descr, pages)
}

/// Reads level entries until `records` more record starts were seen (and
/// the next entry starts a record, or the chunk ends) into records;
/// `first` is what was read of the current record (continued).
fn read_records(
    reader: &mut ColumnReader<'_, Int64>,
    mut current: Vec<Entry>,
    out: &mut Vec<Vec<Entry>>,
) {
    let (mut reps, mut defs) = (Vec::new(), Vec::new());
    loop {
        reps.clear();
        defs.clear();
        let Some(non_null) = reader.read_nested_levels(17, &mut reps, &mut defs).unwrap() else {
            break;
        };
        let mut values = Vec::new();
        let mut decode = Convert(|v, _: &ColumnContext| Ok(v));
        reader
            .read_with(non_null, &mut decode, &mut Optionals::new(&mut values))
            .unwrap();
        let mut values = values.into_iter().flatten();
        for (&rep, &def) in reps.iter().zip(&defs) {
            if rep == 0 && !current.is_empty() {
                out.push(std::mem::take(&mut current));
            }
            current.push((rep, def, if def == 3 { values.next() } else { None }));
        }
    }
    if !current.is_empty() {
        out.push(current);
    }
}

#[test]
fn skip_records_then_read_gives_the_tail_of_a_full_read() {
    let mut rng = Rng::new(61);
    for aligned in [true, false] {
        for total in [1, 5, 200, 700] {
            let expected = records(total, &mut rng);
            let column = chunk(&expected, aligned, &mut rng);
            let open = || ColumnReader::<Int64>::nested(&column, 0).unwrap();
            let mut full = Vec::new();
            read_records(&mut open(), Vec::new(), &mut full);
            assert_eq!(full, expected, "full read");

            let mut cuts: Vec<usize> = (0..=total.min(30)).collect();
            cuts.extend((0..10).map(|_| rng.below(total + 1)));
            for k in cuts {
                let mut reader = open();
                reader.skip_records(k, false).unwrap();
                let mut tail = Vec::new();
                read_records(&mut reader, Vec::new(), &mut tail);
                assert_eq!(
                    tail,
                    &expected[k..],
                    "aligned {aligned}: skip {k} of {total}"
                );
                reader.finish().unwrap();
            }
            for k in [total + 1, total + 9] {
                let err = open().skip_records(k, false).unwrap_err().to_string();
                assert!(err.contains("fewer records"), "skip {k} of {total}: {err}");
            }
        }
    }
}

/// After levels that end inside a record, `continuing` skips the rest of
/// it first.
#[test]
fn skip_records_continues_a_record_read_in_part() {
    let mut rng = Rng::new(62);
    let expected = records(400, &mut rng);
    let column = chunk(&expected, false, &mut rng);
    for _ in 0..40 {
        let mut reader = ColumnReader::<Int64>::nested(&column, 0).unwrap();
        // Levels up to somewhere in the chunk, their values read.
        let (mut reps, mut defs) = (Vec::new(), Vec::new());
        let mut entries = 0;
        for _ in 0..=rng.below(30) {
            let Some(non_null) = reader
                .read_nested_levels(1 + rng.below(9), &mut reps, &mut defs)
                .unwrap()
            else {
                break;
            };
            let mut values = Vec::new();
            let mut decode = Convert(|v, _: &ColumnContext| Ok(v));
            reader
                .read_with(non_null, &mut decode, &mut Optionals::new(&mut values))
                .unwrap();
            entries = reps.len();
        }
        // The records those levels started (the last maybe in part).
        let started = reps[..entries].iter().filter(|&&r| r == 0).count();
        let k = rng.below(expected.len() - started + 1);
        reader.skip_records(k, true).unwrap();
        let mut tail = Vec::new();
        read_records(&mut reader, Vec::new(), &mut tail);
        assert_eq!(
            tail,
            &expected[started + k..],
            "{entries} entries read, {k} skipped"
        );
    }
    // A skip that must start a record, where a record goes on.
    let mut reader = ColumnReader::<Int64>::nested(&column, 0).unwrap();
    let long = expected.iter().position(|r| r.len() > 1).unwrap();
    reader.skip_records(long, false).unwrap();
    let (mut reps, mut defs) = (Vec::new(), Vec::new());
    let non_null = reader
        .read_nested_levels(1, &mut reps, &mut defs)
        .unwrap()
        .unwrap();
    let mut values = Vec::new();
    let mut decode = Convert(|v, _: &ColumnContext| Ok(v));
    reader
        .read_with(non_null, &mut decode, &mut Optionals::new(&mut values))
        .unwrap();
    let err = reader.skip_records(1, false).unwrap_err().to_string();
    assert!(
        err.contains("a record starts with repetition level 1"),
        "{err}"
    );
}

/// A v1 page of levels (widths 2) and PLAIN values, for a column of
/// `schema`.
fn raw_chunk(schema: &str, reps: &[u32], defs: &[u32], values: &[i64]) -> LoadedColumn {
    let (mut rep_bytes, mut def_bytes) = (Vec::new(), Vec::new());
    rle(reps, 2, &mut rep_bytes);
    rle(defs, 2, &mut def_bytes);
    let mut buf = length_prefixed(&rep_bytes);
    buf.extend(length_prefixed(&def_bytes));
    buf.extend(values.iter().flat_map(|v| v.to_le_bytes()));
    let page = Page::DataPage {
        buf: Bytes::from(buf),
        num_values: reps.len() as u32,
        encoding: Encoding::PLAIN,
        def_level_encoding: Encoding::RLE,
        rep_level_encoding: Encoding::RLE,
        statistics: None,
    };
    let schema = parse_message_type(schema).unwrap();
    let descr = SchemaDescriptor::new(Arc::new(schema)).column(0);
    LoadedColumn::new(0, descr, vec![page])
}

#[test]
fn skip_records_meets_levels_above_the_maximum_as_errors() {
    // Maximum definition level 2 (width 2 can say 3).
    let list =
        "message m { optional group a (LIST) { repeated group list { required int64 element; } } }";
    let column = raw_chunk(list, &[0, 1, 0], &[2, 3, 2], &[1, 2, 3]);
    let mut reader = ColumnReader::<Int64>::nested(&column, 0).unwrap();
    let err = reader.skip_records(2, false).unwrap_err().to_string();
    assert!(err.contains("definition level 3 is larger"), "{err}");
    // The same levels within the maximum skip.
    let column = raw_chunk(list, &[0, 1, 0], &[2, 2, 2], &[1, 2, 3]);
    let mut reader = ColumnReader::<Int64>::nested(&column, 0).unwrap();
    reader.skip_records(2, false).unwrap();
    reader.finish().unwrap();

    // Maximum repetition level 2 (width 2 can say 3).
    let lists = "message m { optional group a (LIST) { repeated group list { required group element (LIST) { repeated group list { required int64 element; } } } } }";
    let column = raw_chunk(lists, &[0, 3, 0], &[3, 3, 3], &[1, 2, 3]);
    let mut reader = ColumnReader::<Int64>::nested(&column, 0).unwrap();
    let err = reader.skip_records(2, false).unwrap_err().to_string();
    assert!(err.contains("repetition level 3 is larger"), "{err}");
    let column = raw_chunk(lists, &[0, 2, 0], &[3, 3, 3], &[1, 2, 3]);
    let mut reader = ColumnReader::<Int64>::nested(&column, 0).unwrap();
    reader.skip_records(2, false).unwrap();
    reader.finish().unwrap();
}
