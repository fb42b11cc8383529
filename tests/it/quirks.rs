//! Real writers' quirks that other readers accept, each reproduced in a file
//! written by hand (`parquet_rows_suite::handmade`): the files met in other
//! projects' suites are not kept in this repository, so each case rebuilds
//! the one detail that made such a file fail (see `docs/writer-quirks.md`).

use parquet_rows::{ParquetFile, ParquetRow};
use parquet_rows_suite::handmade::{encoding, file, physical, Chunk, Element, Page};

#[derive(ParquetRow, Debug, PartialEq)]
struct Nullable {
    x: Option<i64>,
}

/// A file of one OPTIONAL INT64 column `x` whose one data page has its
/// definition levels BIT_PACKED as `pack` lays them out (`defined[i]`: row
/// `i` is not null), then PLAIN values `0, 1, ...` for the defined rows.
fn bit_packed_file(defined: &[bool], pack: fn(&[bool]) -> Vec<u8>) -> Vec<u8> {
    let mut body = pack(defined);
    let values = defined.iter().filter(|&&d| d).count();
    for v in 0..values as i64 {
        body.extend(v.to_le_bytes());
    }
    let page = Page {
        level_encoding: encoding::BIT_PACKED,
        ..Page::data(defined.len() as i32, encoding::PLAIN, body)
    };
    let chunk = Chunk::new("x", physical::INT64, vec![page]);
    file(
        &[Element::root(1), Element::optional("x", physical::INT64)],
        &[(defined.len() as i64, vec![chunk])],
    )
}

/// Levels of one bit, LSB first in each byte: the order Impala wrote.
fn lsb_first(defined: &[bool]) -> Vec<u8> {
    let mut out = vec![0u8; defined.len().div_ceil(8)];
    for (i, &d) in defined.iter().enumerate() {
        out[i / 8] |= u8::from(d) << (i % 8);
    }
    out
}

/// Levels of one bit, MSB first in each byte: parquet-format's order.
fn msb_first(defined: &[bool]) -> Vec<u8> {
    let mut out = vec![0u8; defined.len().div_ceil(8)];
    for (i, &d) in defined.iter().enumerate() {
        out[i / 8] |= u8::from(d) << (7 - i % 8);
    }
    out
}

/// The rows `defined` gives: null or the next value.
fn expected(defined: &[bool]) -> Vec<Nullable> {
    let mut next = 0;
    defined
        .iter()
        .map(|&d| Nullable {
            x: d.then(|| {
                next += 1;
                next - 1
            }),
        })
        .collect()
}

/// Impala's BIT_PACKED definition levels are read as pyarrow reads them:
/// LSB first, like a bit-packed run of the hybrid, and whatever the writer.
/// 11,000 rows with a null every third and every seventh row, so that no
/// byte of levels is its own mirror image.
#[test]
fn bit_packed_levels_decode_as_pyarrow_reads_them() {
    let defined: Vec<bool> = (0..11_000).map(|i| i % 3 != 0 && i % 7 != 3).collect();
    let read = |bytes: Vec<u8>| {
        ParquetFile::from_bytes(bytes)
            .unwrap()
            .read::<Nullable>()
            .unwrap()
    };
    let rows = read(bit_packed_file(&defined, lsb_first));
    assert_eq!(rows, expected(&defined));
    // The same rows packed in the spec's order come out with each byte's
    // nulls mirrored, as pyarrow (Arrow C++'s `BitPackedDecoder`) reads them.
    let mirrored: Vec<bool> = (0..defined.len())
        .map(|i| defined[i / 8 * 8 + 7 - i % 8])
        .collect();
    let rows = read(bit_packed_file(&defined[..10_992], msb_first));
    assert_eq!(rows, expected(&mirrored[..10_992]));
    // And borrowed, through the page holder.
    let bytes = bit_packed_file(&defined, lsb_first);
    let file = ParquetFile::from_bytes(bytes).unwrap();
    let pages = file.load::<Nullable>().unwrap();
    assert_eq!(pages.rows::<Nullable>().unwrap(), expected(&defined));
}
