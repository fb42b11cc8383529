//! Writing shredded rows with the `parquet` crate's column writers, under
//! every writer setting the nested tests use ([`files`]).

#![allow(clippy::missing_panics_doc)] // test support: a broken fixture panics, which is how a test fails

use std::ops::Range;
use std::sync::Arc;

use bytes::Bytes;
use parquet::basic::{Compression, Encoding, ZstdLevel};
use parquet::column::page::Page;
use parquet::column::writer::ColumnWriter;
use parquet::data_type::ByteArray;
use parquet::file::properties::{WriterProperties, WriterPropertiesBuilder, WriterVersion};
use parquet::file::writer::SerializedFileWriter;
use parquet::schema::parser::parse_message_type;
use parquet::schema::types::SchemaDescriptor;

use crate::shred::{shred, Dyn, Shredded};
use crate::{all_pages, file_metadata};

/// Writes one shredded column with the typed column writer, in one
/// `write_batch` call (the writer cuts it into pages).
fn write_leaf(writer: &mut ColumnWriter<'_>, col: &Shredded, max_def: i16, max_rep: i16) {
    let def = (max_def > 0).then_some(col.def.as_slice());
    let rep = (max_rep > 0).then_some(col.rep.as_slice());
    macro_rules! typed {
        ($w:expr, $variant:ident, $convert:expr) => {{
            let values: Vec<_> = col
                .values
                .iter()
                .map(|v| match v {
                    Dyn::$variant(x) => $convert(x),
                    other => panic!("{other:?} in a {} column", stringify!($variant)),
                })
                .collect();
            $w.write_batch(&values, def, rep).expect("write_batch");
        }};
    }
    match writer {
        ColumnWriter::BoolColumnWriter(w) => typed!(w, Bool, |x: &bool| *x),
        ColumnWriter::Int32ColumnWriter(w) => typed!(w, I32, |x: &i32| *x),
        ColumnWriter::Int64ColumnWriter(w) => typed!(w, I64, |x: &i64| *x),
        ColumnWriter::FloatColumnWriter(w) => typed!(w, F32, |x: &f32| *x),
        ColumnWriter::DoubleColumnWriter(w) => typed!(w, F64, |x: &f64| *x),
        ColumnWriter::ByteArrayColumnWriter(w) => {
            typed!(w, Bytes, |x: &Vec<u8>| ByteArray::from(x.clone()));
        }
        _ => panic!("no physical type of the tests"),
    }
}

/// Writes a file in memory: one row group per entry of `row_groups`.
pub fn write_nested(schema: &str, props: WriterProperties, row_groups: &[&[Vec<Dyn>]]) -> Bytes {
    let schema = Arc::new(parse_message_type(schema).expect("schema"));
    let descr = SchemaDescriptor::new(schema.clone());
    let mut buf = Vec::new();
    let mut writer =
        SerializedFileWriter::new(&mut buf, schema.clone(), Arc::new(props)).expect("writer");
    for rows in row_groups {
        let cols = shred(&schema, rows);
        let mut rg = writer.next_row_group().expect("row group");
        for (i, col) in cols.iter().enumerate() {
            let c = descr.column(i);
            let mut w = rg.next_column().expect("column").expect("one per leaf");
            write_leaf(w.untyped(), col, c.max_def_level(), c.max_rep_level());
            w.close().expect("close column");
        }
        rg.close().expect("close row group");
    }
    writer.close().expect("close file");
    Bytes::from(buf)
}

/// One set of writer settings.
#[derive(Debug)]
struct Variant {
    pub name: &'static str,
    pub props: WriterProperties,
    pub version: WriterVersion,
    pub dictionary: bool,
    /// Tiny pages: some column chunk must hold many data pages.
    pub tiny: bool,
    /// One row group instead of [`split`].
    pub one_group: bool,
}

fn tiny(builder: WriterPropertiesBuilder) -> WriterPropertiesBuilder {
    builder
        .set_write_batch_size(5)
        .set_data_page_row_count_limit(8)
        .set_data_page_size_limit(300)
        .set_dictionary_page_size_limit(600)
}

/// The writer settings every shape is written with.
fn variants() -> Vec<Variant> {
    let v1 = || {
        WriterProperties::builder()
            .set_max_row_group_row_count(None)
            .set_writer_version(WriterVersion::PARQUET_1_0)
    };
    let v2 = || {
        WriterProperties::builder()
            .set_max_row_group_row_count(None)
            .set_writer_version(WriterVersion::PARQUET_2_0)
    };
    vec![
        Variant {
            name: "page v1, dictionary, tiny pages",
            props: tiny(v1()).set_dictionary_enabled(true).build(),
            version: WriterVersion::PARQUET_1_0,
            dictionary: true,
            tiny: true,
            one_group: false,
        },
        Variant {
            name: "page v1, plain, tiny pages, snappy",
            props: tiny(v1())
                .set_dictionary_enabled(false)
                .set_compression(Compression::SNAPPY)
                .build(),
            version: WriterVersion::PARQUET_1_0,
            dictionary: false,
            tiny: true,
            one_group: false,
        },
        Variant {
            name: "page v2, dictionary, tiny pages, zstd",
            props: tiny(v2())
                .set_dictionary_enabled(true)
                .set_compression(Compression::ZSTD(ZstdLevel::default()))
                .build(),
            version: WriterVersion::PARQUET_2_0,
            dictionary: true,
            tiny: true,
            one_group: false,
        },
        Variant {
            name: "page v2, plain, tiny pages",
            props: tiny(v2())
                .set_dictionary_enabled(false)
                .set_encoding(Encoding::PLAIN)
                .build(),
            version: WriterVersion::PARQUET_2_0,
            dictionary: false,
            tiny: true,
            one_group: false,
        },
        Variant {
            // Without dictionary and encoding, the v2 writer picks DELTA_BINARY_PACKED,
            // DELTA_BYTE_ARRAY and RLE booleans.
            name: "page v2, delta encodings, tiny pages",
            props: tiny(v2()).set_dictionary_enabled(false).build(),
            version: WriterVersion::PARQUET_2_0,
            dictionary: false,
            tiny: true,
            one_group: false,
        },
        Variant {
            name: "page v1, default pages, one row group",
            props: v1().build(),
            version: WriterVersion::PARQUET_1_0,
            dictionary: true,
            tiny: false,
            one_group: true,
        },
    ]
}

/// Uneven row groups: one row, a third, the rest.
fn split(n: usize) -> Vec<Range<usize>> {
    vec![0..1, 1..n / 3, n / 3..n]
}

/// Checks that `file` was written as `variant` says, so every variant really
/// exercises what it claims to.
fn check_layout(variant: &Variant, file: &Bytes, rows: usize) {
    let what = variant.name;
    let metadata = file_metadata(file);
    let groups = if variant.one_group { 1 } else { 3 };
    assert_eq!(metadata.num_row_groups(), groups, "{what}: row groups");
    assert_eq!(
        metadata.file_metadata().num_rows(),
        rows as i64,
        "{what}: rows"
    );
    let pages = all_pages(file);
    let mut most_data_pages = 0;
    let mut dictionary_pages = 0;
    for chunk in pages.iter().flatten() {
        let data: Vec<&Page> = chunk.iter().filter(|p| p.is_data_page()).collect();
        most_data_pages = most_data_pages.max(data.len());
        for page in data {
            assert_eq!(
                matches!(page, Page::DataPageV2 { .. }),
                variant.version == WriterVersion::PARQUET_2_0,
                "{what}: data page version"
            );
        }
        dictionary_pages += chunk
            .iter()
            .filter(|p| matches!(p, Page::DictionaryPage { .. }))
            .count();
    }
    if variant.tiny {
        assert!(
            most_data_pages >= 8,
            "{what}: at most {most_data_pages} data pages in a column chunk"
        );
    }
    assert_eq!(
        dictionary_pages > 0,
        variant.dictionary,
        "{what}: {dictionary_pages} dictionary pages"
    );
}

/// `rows` written as every variant: (variant name, file).
pub fn files(schema: &str, rows: &[Vec<Dyn>]) -> Vec<(String, Bytes)> {
    variants()
        .into_iter()
        .map(|variant| {
            let groups: Vec<&[Vec<Dyn>]> = if variant.one_group {
                vec![rows]
            } else {
                split(rows.len()).into_iter().map(|r| &rows[r]).collect()
            };
            let file = write_nested(schema, variant.props.clone(), &groups);
            check_layout(&variant, &file, rows.len());
            (variant.name.to_owned(), file)
        })
        .collect()
}
