//! A valid file whose page bytes are corrupted: the footer stays intact, so
//! the fuzzer reaches the page and value decoders (levels, dictionaries,
//! PLAIN, DELTA, BYTE_STREAM_SPLIT) instead of stopping at the footer.
//!
//! Input: one byte choosing the template (encodings, page version), then
//! (offset: u16 LE, value: u8) triples applied to the template's page bytes,
//! and optionally a final truncation.
#![no_main]

mod common;

use std::sync::{Arc, OnceLock};

use libfuzzer_sys::fuzz_target;
use parquet::basic::{Compression, Encoding};
use parquet::data_type::{
    BoolType, ByteArray, ByteArrayType, DoubleType, FixedLenByteArray, FixedLenByteArrayType,
    Int32Type, Int64Type,
};
use parquet::file::properties::{WriterProperties, WriterVersion};
use parquet::file::writer::SerializedFileWriter;
use parquet::schema::parser::parse_message_type;
use parquet::schema::types::ColumnPath;

const SCHEMA: &str = "message m {
    OPTIONAL INT32 id;
    REQUIRED INT64 big (TIMESTAMP_MICROS);
    OPTIONAL BINARY name (UTF8);
    OPTIONAL BOOLEAN flag;
    REQUIRED DOUBLE price;
    OPTIONAL FIXED_LEN_BYTE_ARRAY (3) fixed;
    OPTIONAL INT32 small (INTEGER(8, false));
    REQUIRED BINARY label (UTF8);
}";

/// The REQUIRED text column read as owned and as borrowed text from the same
/// pages: owned fields stream DELTA_BYTE_ARRAY values, borrowed ones rebuild
/// the page's arena.
#[derive(parquet_rows::ParquetRow, Debug)]
#[allow(dead_code)] // decoded, never read: the target looks for panics
struct Label {
    label: String,
}

#[derive(parquet_rows::ParquetRow, Debug)]
#[allow(dead_code)] // decoded, never read: the target looks for panics
struct LabelRef<'a> {
    label: &'a str,
}

/// Writes a template: 4 variants of encodings and page versions.
fn template(variant: u8) -> Vec<u8> {
    let mut props = WriterProperties::builder()
        .set_compression(Compression::UNCOMPRESSED)
        .set_data_page_row_count_limit(40)
        .set_write_batch_size(20);
    props = match variant % 4 {
        0 => props.set_writer_version(WriterVersion::PARQUET_1_0),
        1 => props.set_writer_version(WriterVersion::PARQUET_2_0),
        2 => props
            .set_dictionary_enabled(false)
            .set_column_encoding(ColumnPath::from("big"), Encoding::DELTA_BINARY_PACKED)
            .set_column_encoding(ColumnPath::from("name"), Encoding::DELTA_BYTE_ARRAY)
            .set_column_encoding(ColumnPath::from("label"), Encoding::DELTA_BYTE_ARRAY)
            .set_column_encoding(ColumnPath::from("price"), Encoding::BYTE_STREAM_SPLIT),
        _ => props
            .set_writer_version(WriterVersion::PARQUET_2_0)
            .set_dictionary_enabled(false)
            .set_column_encoding(ColumnPath::from("name"), Encoding::DELTA_LENGTH_BYTE_ARRAY)
            .set_column_encoding(ColumnPath::from("label"), Encoding::DELTA_BYTE_ARRAY)
            .set_column_encoding(ColumnPath::from("fixed"), Encoding::BYTE_STREAM_SPLIT),
    };
    let schema = Arc::new(parse_message_type(SCHEMA).expect("schema"));
    let mut out = Vec::new();
    let mut w =
        SerializedFileWriter::new(&mut out, schema, Arc::new(props.build())).expect("writer");
    let mut rg = w.next_row_group().expect("row group");
    let rows = 100;
    let defs: Vec<i16> = (0..rows).map(|i| i16::from(i % 7 != 3)).collect();
    let present = defs.iter().filter(|&&d| d == 1).count();
    macro_rules! col {
        ($ty:ty, $values:expr, $defs:expr) => {{
            let mut c = rg.next_column().expect("column").expect("column");
            c.typed::<$ty>()
                .write_batch(&$values, $defs, None)
                .expect("write");
            c.close().expect("close");
        }};
    }
    col!(
        Int32Type,
        (0..present as i32).map(|i| i % 13).collect::<Vec<_>>(),
        Some(&defs)
    );
    col!(
        Int64Type,
        (0..rows as i64).map(|i| i * 1_000_003).collect::<Vec<_>>(),
        None
    );
    col!(
        ByteArrayType,
        (0..present)
            .map(|i| ByteArray::from(format!("name-{}", i % 9).as_str()))
            .collect::<Vec<_>>(),
        Some(&defs)
    );
    col!(
        BoolType,
        (0..present).map(|i| i % 3 == 0).collect::<Vec<_>>(),
        Some(&defs)
    );
    col!(
        DoubleType,
        (0..rows).map(|i| f64::from(i) * 0.5).collect::<Vec<_>>(),
        None
    );
    col!(
        FixedLenByteArrayType,
        (0..present)
            .map(|i| FixedLenByteArray::from(vec![i as u8, 1, 2]))
            .collect::<Vec<_>>(),
        Some(&defs)
    );
    col!(
        Int32Type,
        (0..present as i32).map(|i| i % 200).collect::<Vec<_>>(),
        Some(&defs)
    );
    col!(
        ByteArrayType,
        // Shared prefixes, some ending inside "é"/"è" (first byte shared).
        (0..rows)
            .map(|i| ByteArray::from(
                format!("label/{}{}", ["é", "è"][(i % 2) as usize], i / 3).as_str()
            ))
            .collect::<Vec<_>>(),
        None
    );
    rg.close().expect("close row group");
    w.close().expect("close file");
    out
}

fn templates() -> &'static [Vec<u8>; 4] {
    static TEMPLATES: OnceLock<[Vec<u8>; 4]> = OnceLock::new();
    TEMPLATES.get_or_init(|| [template(0), template(1), template(2), template(3)])
}

fuzz_target!(|data: &[u8]| {
    let Some((&variant, edits)) = data.split_first() else {
        return;
    };
    let mut file = templates()[usize::from(variant % 4)].clone();
    // Page bytes are everything between the 4-byte magic and the footer; the
    // footer length sits in the last 8 bytes.
    let footer_len = u32::from_le_bytes(
        file[file.len() - 8..file.len() - 4]
            .try_into()
            .expect("4 bytes"),
    ) as usize;
    let pages_end = file.len() - 8 - footer_len;
    let span = pages_end - 4;
    for edit in edits.chunks_exact(3) {
        let offset = 4 + usize::from(u16::from_le_bytes([edit[0], edit[1]])) % span;
        file[offset] = edit[2];
    }
    if let Ok(f) = parquet_rows::ParquetFile::from_bytes(file) {
        common::decode(&f);
        if let Ok(pages) = f.load::<Label>() {
            let _ = pages.rows::<Label>();
            let _ = pages.rows::<LabelRef>();
            let _ = pages.rows::<Label>();
        }
    }
});
