//! Arbitrary bytes as page headers (Thrift `PageHeader`, compact protocol).
//!
//! First read by the rules crate's bounded reader that every page goes
//! through: it must return `Ok` or `Err` without panicking, allocating or
//! recursing past its bound, and an `Ok` header never claims more bytes than
//! it read. Then the same bytes as the column chunk of a file whose footer is
//! valid, so that whatever the headers claim (sizes, value counts, level
//! lengths, page types, CRCs) reaches the page path and the decoders, read
//! with page checksums verified and not.
#![no_main]

use std::sync::{Arc, OnceLock};

use libfuzzer_sys::fuzz_target;
use parquet::file::properties::WriterProperties;
use parquet::file::reader::{FileReader, SerializedFileReader};
use parquet::file::writer::SerializedFileWriter;
use parquet::schema::parser::parse_message_type;
use parquet_rows::{ParquetFile, ParquetRow, ReadOptions};
use parquet_rows_rules::page_header::read_page_header;

#[derive(ParquetRow, Debug)]
#[allow(dead_code)] // decoded, never read: the target looks for panics
struct Big {
    big: Option<i64>,
}

#[derive(ParquetRow, Debug)]
#[allow(dead_code)] // decoded, never read: the target looks for panics
struct Required {
    big: i64,
}

/// A valid file of one OPTIONAL INT64 column, and the byte range of its one
/// column chunk: the fuzzer's bytes replace that range (truncated or padded
/// with zeros to its length), so the footer stays valid.
fn template() -> &'static (Vec<u8>, std::ops::Range<usize>) {
    static TEMPLATE: OnceLock<(Vec<u8>, std::ops::Range<usize>)> = OnceLock::new();
    TEMPLATE.get_or_init(|| {
        let schema = Arc::new(parse_message_type("message m { OPTIONAL INT64 big; }").unwrap());
        let props = WriterProperties::builder()
            .set_dictionary_enabled(false)
            .set_data_page_row_count_limit(64)
            .set_write_batch_size(64)
            .build();
        let mut out = Vec::new();
        let mut w = SerializedFileWriter::new(&mut out, schema, Arc::new(props)).unwrap();
        let mut rg = w.next_row_group().unwrap();
        let mut col = rg.next_column().unwrap().unwrap();
        // 256 rows, every fifth null, in pages of 64 rows.
        let defs: Vec<i16> = (0..256).map(|i| i16::from(i % 5 != 0)).collect();
        let values: Vec<i64> = (0..defs.iter().filter(|&&d| d == 1).count() as i64).collect();
        col.typed::<parquet::data_type::Int64Type>()
            .write_batch(&values, Some(&defs), None)
            .unwrap();
        col.close().unwrap();
        rg.close().unwrap();
        w.close().unwrap();
        let reader = SerializedFileReader::new(bytes::Bytes::from(out.clone())).unwrap();
        let (start, len) = reader.metadata().row_group(0).column(0).byte_range();
        (out, start as usize..(start + len) as usize)
    })
}

fuzz_target!(|bytes: &[u8]| {
    if let Ok((_header, len)) = read_page_header(bytes) {
        assert!(len <= bytes.len(), "a header of {len} bytes read from {}", bytes.len());
    }
    let (file, chunk) = template();
    let mut file = file.clone();
    let window = &mut file[chunk.clone()];
    window.fill(0);
    let n = bytes.len().min(window.len());
    window[..n].copy_from_slice(&bytes[..n]);
    for verify in [false, true] {
        let Ok(file) = ParquetFile::from_bytes(file.clone()) else {
            return;
        };
        let file = file.with_options(ReadOptions::default().verify_page_checksums(verify));
        if let Ok(pages) = file.load::<Big>() {
            let _ = pages.rows::<Big>();
        }
        let _ = file.rows::<Required>().collect();
    }
});
