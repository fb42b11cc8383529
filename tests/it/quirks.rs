//! Real writers' quirks that other readers accept, each reproduced in a file
//! written by hand (`parquet_rows_suite::handmade`): the files met in other
//! projects' suites are not kept in this repository, so each case rebuilds
//! the one detail that made such a file fail (see `docs/writer-quirks.md`).

use parquet_rows::{ParquetFile, ParquetRow};
use parquet_rows_suite::handmade::{
    converted, encoding, file, file_by, physical, Chunk, Element, Page, Writer,
};

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
            .rows::<Nullable>()
            .collect()
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

#[derive(ParquetRow, Debug, PartialEq)]
struct Name<'a> {
    name: &'a str,
}

/// A file of one REQUIRED BYTE_ARRAY column `name` in one dictionary page
/// (`"a"`, `"bb"`) and one data page of 6 indices, written by `created_by`
/// with the dictionary page's header left out of the chunk's sizes, as
/// parquet-mr up to 1.2.8 did (PARQUET-816). `after`: bytes of another
/// chunk the file has after this one (none: the footer follows).
fn parquet_816_file(created_by: &str, after: usize) -> Vec<u8> {
    let mut dictionary = Vec::new();
    for s in ["a", "bb"] {
        dictionary.extend((s.len() as u32).to_le_bytes());
        dictionary.extend(s.as_bytes());
    }
    // Bit width 1, then one bit-packed group of 8: 0 1 1 0 1 0 (2 padding).
    let indices = vec![1, 0b11, 0b0001_0110];
    let pages = vec![
        Page::dictionary(2, dictionary),
        Page::data(6, encoding::RLE_DICTIONARY, indices),
    ];
    let leaf = Element {
        converted_type: Some(converted::UTF8),
        ..Element::leaf("name", physical::BYTE_ARRAY, None)
    };
    let mut schema = vec![Element::root(1), leaf];
    let mut chunks = vec![Chunk::new("name", physical::BYTE_ARRAY, pages)];
    if after > 0 {
        schema[0] = Element::root(2);
        schema.push(Element::leaf(
            "pad",
            physical::FIXED_LEN_BYTE_ARRAY,
            Some(after as i32),
        ));
        let page = Page::data(6, encoding::PLAIN, vec![0; 6 * after]);
        chunks.push(Chunk::new(
            "pad",
            physical::FIXED_LEN_BYTE_ARRAY,
            vec![page],
        ));
    }
    let writer = Writer {
        created_by: Some(created_by.to_owned()),
        sizes_without_dictionary_header: true,
    };
    file_by(&writer, &schema, &[(6, chunks)])
}

/// parquet-mr up to 1.2.8 left the dictionary page's header out of
/// `total_compressed_size`: the chunk is read with up to 100 bytes more, as
/// Arrow C++ pads it for those writers, never past the end of the file.
#[test]
fn parquet_mr_1_2_8_chunks_are_padded_for_the_dictionary_header() {
    let names = |bytes: Vec<u8>| -> parquet_rows::Result<Vec<String>> {
        let file = ParquetFile::from_bytes(bytes)?;
        let pages = file.load::<Name>()?;
        let rows = pages.rows::<Name>()?;
        Ok(rows.iter().map(|r| r.name.to_owned()).collect())
    };
    let expected = ["a", "bb", "bb", "a", "bb", "a"];
    for created_by in [
        "parquet-mr version 1.2.8",
        "parquet-mr version 1.2.8 (build 0c5d4b6a)",
        "parquet-mr",
    ] {
        for after in [0, 7, 200] {
            let rows = names(parquet_816_file(created_by, after));
            assert_eq!(rows.unwrap(), expected, "{created_by}, {after} bytes after");
        }
    }
    // A fixed writer's chunk is read as its footer says: the data page's
    // header is cut short, and the error says so.
    for created_by in ["parquet-mr version 1.2.9", "parquet-cpp version 1.2.8"] {
        let e = names(parquet_816_file(created_by, 0))
            .unwrap_err()
            .to_string();
        assert!(e.contains("page header"), "{e}");
        assert!(!e.contains("footer"), "{e}");
    }
}

#[derive(ParquetRow, Debug, PartialEq)]
struct Narrow {
    u8_col: u8,
    u16_col: u16,
    i8_col: i8,
    i16_col: i16,
    u8_wide: u16,
    u8_as_u64: u64,
}

/// Drill wrote `UINT_8` 255 as the INT32 -1; narrow annotated integers are
/// read from their low bits, as pyarrow reads them (Arrow C++ converts the
/// stored INT32 to the annotated C type, keeping the low bits), whatever
/// the Rust field's own width.
#[test]
fn narrow_integers_are_read_from_their_low_bits() {
    let stored: [(&str, i32, [i32; 4]); 6] = [
        ("u8_col", converted::UINT_8, [-1, 255, 256 + 7, -128]),
        (
            "u16_col",
            converted::UINT_16,
            [-1, 65_535, 65_536 + 7, -32_768],
        ),
        ("i8_col", converted::INT_8, [-1, 200, 300, -129]),
        (
            "i16_col",
            converted::INT_16,
            [-1, 40_000, 65_536 + 7, -32_769],
        ),
        ("u8_wide", converted::UINT_8, [-1, 255, 256 + 7, -128]),
        ("u8_as_u64", converted::UINT_8, [-1, 255, 256 + 7, -128]),
    ];
    let mut schema = vec![Element::root(stored.len() as i32)];
    let mut chunks = Vec::new();
    for (name, annotation, values) in stored {
        schema.push(Element {
            converted_type: Some(annotation),
            ..Element::leaf(name, physical::INT32, None)
        });
        let body = values.iter().flat_map(|v| v.to_le_bytes()).collect();
        let page = Page::data(values.len() as i32, encoding::PLAIN, body);
        chunks.push(Chunk::new(name, physical::INT32, vec![page]));
    }
    let bytes = file(&schema, &[(4, chunks)]);
    let rows = ParquetFile::from_bytes(bytes)
        .unwrap()
        .rows::<Narrow>()
        .collect()
        .unwrap();
    let row = |u8_col, u16_col, i8_col, i16_col| Narrow {
        u8_col,
        u16_col,
        i8_col,
        i16_col,
        u8_wide: u16::from(u8_col),
        u8_as_u64: u64::from(u8_col),
    };
    assert_eq!(
        rows,
        [
            row(255, 65_535, -1, -1),
            row(255, 65_535, -56, -25_536),
            row(7, 7, 44, 7),
            row(128, 32_768, 127, 32_767),
        ]
    );
}

/// A file whose footer the `parquet` crate refuses, as pyarrow and duckdb
/// read it: `a` INT64, `iv` FIXED_LEN_BYTE_ARRAY(12) annotated INTERVAL with
/// an UNKNOWN logical type beside it (Drill), `na` an OPTIONAL INT32 of
/// converted type 24, which Thrift does not define (parquet-cpp 1.5.1),
/// every value null. Two rows.
fn refused_annotations_file() -> Vec<u8> {
    let a = Element::leaf("a", physical::INT64, None);
    let iv = Element {
        converted_type: Some(converted::INTERVAL),
        logical_type: Some(11),
        ..Element::leaf("iv", physical::FIXED_LEN_BYTE_ARRAY, Some(12))
    };
    let na = Element {
        converted_type: Some(24),
        ..Element::optional("na", physical::INT32)
    };
    let chunks = vec![
        Chunk::new(
            "a",
            physical::INT64,
            vec![Page::data(
                2,
                encoding::PLAIN,
                [7i64, 8].iter().flat_map(|v| v.to_le_bytes()).collect(),
            )],
        ),
        Chunk::new(
            "iv",
            physical::FIXED_LEN_BYTE_ARRAY,
            vec![Page::data(2, encoding::PLAIN, (0..24).collect())],
        ),
        // Definition levels: one RLE run of two 0s (null).
        Chunk::new(
            "na",
            physical::INT32,
            vec![Page::data(2, encoding::PLAIN, vec![2, 0, 0, 0, 4, 0])],
        ),
    ];
    file(&[Element::root(3), a, iv, na], &[(2, chunks)])
}

/// A column the struct does not read never makes a file unreadable: the
/// annotations `parquet` refuses are dropped from the footer before it
/// parses it; binding a field to such a column is a clear error.
#[test]
fn annotations_parquet_refuses_do_not_stop_other_columns() {
    #[derive(ParquetRow, Debug, PartialEq)]
    struct A {
        a: i64,
    }
    #[derive(ParquetRow, Debug)]
    struct Interval {
        a: i64,
        iv: [u8; 12],
    }
    #[derive(ParquetRow, Debug)]
    struct Na {
        na: Option<i32>,
    }
    let bytes = refused_annotations_file();
    // What the `parquet` crate says of the footer as written.
    let footer_len =
        u32::from_le_bytes(bytes[bytes.len() - 8..bytes.len() - 4].try_into().unwrap());
    let footer = &bytes[bytes.len() - 8 - footer_len as usize..bytes.len() - 8];
    let refused = parquet::file::metadata::ParquetMetaDataReader::decode_metadata(footer)
        .unwrap_err()
        .to_string();
    assert!(refused.contains("Unexpected ConvertedType 24"), "{refused}");

    let file = ParquetFile::from_bytes(bytes).unwrap();
    assert_eq!(
        file.rows::<A>().collect().unwrap(),
        [A { a: 7 }, A { a: 8 }]
    );
    let e = file.rows::<Interval>().collect().unwrap_err().to_string();
    assert!(e.contains("`iv`"), "{e}");
    assert!(
        e.contains("logical type UNKNOWN beside converted type INTERVAL"),
        "{e}"
    );
    let e = file.rows::<Na>().collect().unwrap_err().to_string();
    assert!(e.contains("`na`") && e.contains("converted type 24"), "{e}");
    // The schema `parquet` built has neither annotation.
    let schema = file.schema();
    assert_eq!(
        schema.column(1).converted_type(),
        parquet::basic::ConvertedType::INTERVAL
    );
    assert_eq!(schema.column(1).logical_type_ref(), None);
    assert_eq!(
        schema.column(2).converted_type(),
        parquet::basic::ConvertedType::NONE
    );
}

#[derive(ParquetRow, Debug, PartialEq, Clone, Copy)]
struct Wide32 {
    v: i32,
}

#[derive(ParquetRow, Debug, PartialEq, Clone, Copy)]
struct Wide64 {
    v: i64,
}

/// `i32` and `i64` fields read a narrow annotated INT32 column from its low
/// bits too, as pyarrow does: Drill's `UINT_8` -1 is 255 (not -1), and a
/// filter `eq(255)` finds it. One PLAIN chunk and one dictionary-encoded
/// chunk (the dictionary holds -1 and 7), each in a row group of its own.
#[test]
fn wide_integer_fields_read_narrow_columns_from_their_low_bits() {
    let schema = vec![
        Element::root(1),
        Element {
            converted_type: Some(converted::UINT_8),
            ..Element::leaf("v", physical::INT32, None)
        },
    ];
    let plain: Vec<u8> = [-1i32, 255, 7, -1]
        .iter()
        .flat_map(|v| v.to_le_bytes())
        .collect();
    let plain = Chunk::new(
        "v",
        physical::INT32,
        vec![Page::data(4, encoding::PLAIN, plain)],
    );
    let dictionary: Vec<u8> = [-1i32, 7].iter().flat_map(|v| v.to_le_bytes()).collect();
    // Bit width 1, then one bit-packed group of 8 indices: 0, 1, 0, 1.
    let indices = vec![1, 0b11, 0b1010];
    let encoded = Chunk::new(
        "v",
        physical::INT32,
        vec![
            Page::dictionary(2, dictionary),
            Page::data(4, encoding::RLE_DICTIONARY, indices),
        ],
    );
    let bytes = file(&schema, &[(4, vec![plain]), (4, vec![encoded])]);
    let file = ParquetFile::from_bytes(bytes).unwrap();
    let want = [255, 255, 7, 255, 255, 7, 255, 7];
    let rows: Vec<Wide32> = file.rows().collect().unwrap();
    assert_eq!(rows, want.map(|v| Wide32 { v }));
    let rows: Vec<Wide64> = file.rows().collect().unwrap();
    assert_eq!(rows, want.map(|v| Wide64 { v: i64::from(v) }));
    let found: Vec<Wide32> = file
        .rows()
        .filter(Wide32::filter().v().eq(255))
        .collect()
        .unwrap();
    assert_eq!(found, [Wide32 { v: 255 }; 5]);
    let found: Vec<Wide64> = file
        .rows()
        .filter(Wide64::filter().v().eq(255))
        .collect()
        .unwrap();
    assert_eq!(found, [Wide64 { v: 255 }; 5]);
    let loaded = file
        .rows::<Wide64>()
        .filter(Wide64::filter().v().eq(255))
        .load()
        .unwrap();
    let rows: Vec<Wide64> = loaded.rows().unwrap();
    assert_eq!(rows, [Wide64 { v: 255 }; 5]);
    // The stored -1 is no value of the column: nothing reads as it.
    let none: Vec<Wide32> = file
        .rows()
        .filter(Wide32::filter().v().eq(-1))
        .collect()
        .unwrap();
    assert!(none.is_empty());
}
