//! Hand-encoded v1 pages (PLAIN, uncompressed, RLE levels) cut at any level,
//! so that lists cross page boundaries; also writes invalid levels.

#![allow(clippy::missing_panics_doc)] // test support: a broken fixture panics, which is how a test fails

use std::sync::Arc;

use bytes::Bytes;
use parquet::basic::{Compression, Encoding};
use parquet::column::page::{CompressedPage, Page, PageWriter};
use parquet::column::writer::ColumnCloseResult;
use parquet::file::metadata::ColumnChunkMetaData;
use parquet::file::properties::WriterProperties;
use parquet::file::writer::{SerializedFileWriter, SerializedPageWriter, TrackedWrite};
use parquet::schema::parser::parse_message_type;
use parquet::schema::types::SchemaDescriptor;

use crate::shred::{shred, Dyn, Shredded};

fn uleb128(mut v: usize, out: &mut Vec<u8>) {
    loop {
        let byte = (v & 0x7f) as u8;
        v >>= 7;
        if v == 0 {
            out.push(byte);
            return;
        }
        out.push(byte | 0x80);
    }
}

/// A v1 level section: 4-byte length, then the RLE/bit-packed hybrid with RLE
/// runs only (`varint(run << 1)`, then the value in `ceil(width / 8)` bytes).
fn level_section(levels: &[i16], max: i16) -> Vec<u8> {
    let width = 16 - (max as u16).leading_zeros() as usize;
    let value_bytes = width.div_ceil(8);
    let mut runs = Vec::new();
    let mut i = 0;
    while i < levels.len() {
        let mut j = i;
        while j < levels.len() && levels[j] == levels[i] {
            j += 1;
        }
        uleb128((j - i) << 1, &mut runs);
        runs.extend_from_slice(&(levels[i] as u16).to_le_bytes()[..value_bytes]);
        i = j;
    }
    let mut out = (runs.len() as u32).to_le_bytes().to_vec();
    out.extend(runs);
    out
}

/// PLAIN values.
fn plain(values: &[Dyn]) -> Vec<u8> {
    let mut out = Vec::new();
    let mut bools = Vec::new();
    for v in values {
        match v {
            Dyn::Bool(b) => bools.push(*b),
            Dyn::I32(x) => out.extend(x.to_le_bytes()),
            Dyn::I64(x) => out.extend(x.to_le_bytes()),
            Dyn::F32(x) => out.extend(x.to_le_bytes()),
            Dyn::F64(x) => out.extend(x.to_le_bytes()),
            Dyn::Bytes(b) => {
                out.extend((b.len() as u32).to_le_bytes());
                out.extend(b);
            }
            other => panic!("not a leaf value: {other:?}"),
        }
    }
    for chunk in bools.chunks(8) {
        out.push(
            chunk
                .iter()
                .enumerate()
                .fold(0, |byte, (i, &b)| byte | (u8::from(b) << i)),
        );
    }
    out
}

/// Writes a file whose data pages are v1, PLAIN, uncompressed, encoded here,
/// each holding `cut` levels, so pages start in the middle of lists.
/// `tamper(column, levels)` may change a column before it is encoded (the
/// invalid-level tests); the level counts stay those of the untampered column.
pub fn write_hand_paged(
    schema: &str,
    row_groups: &[&[Vec<Dyn>]],
    cut: usize,
    tamper: impl Fn(usize, &mut Shredded),
) -> Bytes {
    let schema = Arc::new(parse_message_type(schema).expect("schema"));
    let descr = SchemaDescriptor::new(schema.clone());
    let mut buf = Vec::new();
    let props = Arc::new(WriterProperties::builder().build());
    let mut writer = SerializedFileWriter::new(&mut buf, schema.clone(), props).expect("writer");
    for rows in row_groups {
        let mut cols = shred(&schema, rows);
        let mut rg = writer.next_row_group().expect("row group");
        for (i, col) in cols.iter_mut().enumerate() {
            let c = descr.column(i);
            let (max_def, max_rep) = (c.max_def_level(), c.max_rep_level());
            tamper(i, col);
            let mut sink = TrackedWrite::new(Vec::new());
            let mut page_writer = SerializedPageWriter::new(&mut sink);
            let mut next_value = 0;
            for start in (0..col.def.len()).step_by(cut.max(1)) {
                let end = (start + cut).min(col.def.len());
                let mut page = Vec::new();
                if max_rep > 0 {
                    page.extend(level_section(&col.rep[start..end], max_rep));
                }
                if max_def > 0 {
                    page.extend(level_section(&col.def[start..end], max_def));
                }
                let n = col.def[start..end]
                    .iter()
                    .filter(|&&d| d == max_def)
                    .count();
                let n = n.min(col.values.len().saturating_sub(next_value));
                page.extend(plain(&col.values[next_value..next_value + n]));
                next_value += n;
                let len = page.len();
                let page = Page::DataPage {
                    buf: Bytes::from(page),
                    num_values: (end - start) as u32,
                    encoding: Encoding::PLAIN,
                    def_level_encoding: Encoding::RLE,
                    rep_level_encoding: Encoding::RLE,
                    statistics: None,
                };
                page_writer
                    .write_page(CompressedPage::new(page, len))
                    .expect("write page");
            }
            page_writer.close().expect("close pages");
            let chunk = sink.into_inner().expect("chunk bytes");
            let size = chunk.len() as i64;
            let metadata = ColumnChunkMetaData::builder(c)
                .set_compression(Compression::UNCOMPRESSED)
                .set_encodings(vec![Encoding::PLAIN, Encoding::RLE])
                .set_num_values(col.def.len() as i64)
                .set_total_compressed_size(size)
                .set_total_uncompressed_size(size)
                .set_data_page_offset(0)
                .build()
                .expect("column chunk metadata");
            let close = ColumnCloseResult {
                bytes_written: size as u64,
                rows_written: rows.len() as u64,
                metadata,
                bloom_filter: None,
                column_index: None,
                offset_index: None,
            };
            rg.append_column(&Bytes::from(chunk), close)
                .expect("append column");
        }
        rg.close().expect("close row group");
    }
    writer.close().expect("close file");
    Bytes::from(buf)
}
