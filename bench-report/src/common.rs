//! What every fixture shares: the file in memory with each reader's footer
//! parsed, the variants that do not depend on the row type, the column-API
//! helpers, and a small writer for the fixtures.

use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use bytes::Bytes;
use parquet::arrow::arrow_reader::{
    ArrowReaderMetadata, ArrowReaderOptions, ParquetRecordBatchReader,
    ParquetRecordBatchReaderBuilder,
};
use parquet::column::reader::get_typed_column_reader;
use parquet::column::writer::ColumnWriter;
use parquet::data_type::{ByteArray, DataType};
use parquet::file::properties::WriterProperties;
use parquet::file::reader::FileReader;
use parquet::file::serialized_reader::SerializedFileReader;
use parquet::file::writer::SerializedFileWriter;
use parquet::schema::parser::parse_message_type;
use parquet::schema::types::SchemaDescriptor;
use parquet_rows::ParquetFile;

/// A fixture file held in memory, opened by each API with its footer parsed
/// (outside every timer): the variants compare decoding, not `read(2)`.
pub struct Loaded {
    pub bytes: Bytes,
    /// parquet-rows.
    pub file: ParquetFile,
    /// The record API, the column API, `parquet_derive` and the page floor.
    pub ser: SerializedFileReader<Bytes>,
    /// The arrow reader.
    pub arrow: ArrowReaderMetadata,
}

impl Loaded {
    pub fn new(path: &Path) -> Loaded {
        let bytes = Bytes::from(std::fs::read(path).expect("read fixture"));
        Loaded {
            file: ParquetFile::from_bytes(bytes.clone()).expect("parquet-rows footer"),
            ser: SerializedFileReader::new(bytes.clone()).expect("footer"),
            arrow: ArrowReaderMetadata::load(&bytes, ArrowReaderOptions::new())
                .expect("arrow metadata"),
            bytes,
        }
    }

    pub fn rows(&self) -> usize {
        self.file.num_rows()
    }

    /// An arrow reader over every column, default options (batches of 1024 rows).
    pub fn arrow_reader(&self) -> ParquetRecordBatchReader {
        ParquetRecordBatchReaderBuilder::new_with_metadata(self.bytes.clone(), self.arrow.clone())
            .build()
            .expect("arrow reader")
    }

    /// `fixture  rows  row groups  codec  column:encodings ...`, for the log.
    pub fn describe(&self, name: &str) -> String {
        let md = self.ser.metadata();
        let mut s = format!(
            "{name}: {} rows, {} row group(s), {} bytes;",
            self.rows(),
            md.num_row_groups(),
            self.bytes.len()
        );
        let rg = md.row_group(0);
        for c in rg.columns() {
            let mut enc: Vec<String> = c
                .encodings()
                .map(|e| format!("{e:?}"))
                .filter(|e| e != "RLE" && e != "BIT_PACKED")
                .collect();
            enc.dedup();
            s.push_str(&format!(
                " {}={}/{}",
                c.column_descr().name(),
                enc.join("+"),
                c.compression()
            ));
        }
        s
    }
}

/// The floor: every page of every column chunk read and decompressed by
/// `parquet`'s page reader; no value decoded. (Every fixture's structs read
/// every column, so "the bound column chunks" are all of them.)
pub fn floor(ser: &SerializedFileReader<Bytes>) -> usize {
    let mut bytes = 0usize;
    for g in 0..ser.num_row_groups() {
        let rg = ser.get_row_group(g).expect("row group");
        for c in 0..rg.num_columns() {
            for page in rg.get_column_page_reader(c).expect("page reader") {
                bytes += page.expect("page").buffer().len();
            }
        }
    }
    black_box(bytes);
    ser.metadata().file_metadata().num_rows() as usize
}

/// The record API's floor: every `Row` materialised and dropped unread.
pub fn record_api_rows(ser: &SerializedFileReader<Bytes>) -> usize {
    let mut n = 0;
    for row in ser.get_row_iter(None).expect("row iterator") {
        black_box(row.expect("row"));
        n += 1;
    }
    n
}

/// Arrow's batches alone, no structs.
pub fn arrow_batches(l: &Loaded) -> usize {
    let mut n = 0;
    for batch in l.arrow_reader() {
        let batch = batch.expect("batch");
        n += batch.num_rows();
        black_box(batch);
    }
    n
}

/// Every value of leaf column `column` over all row groups, with its
/// definition levels when the column is OPTIONAL (empty when REQUIRED).
pub fn read_col<T: DataType>(
    ser: &SerializedFileReader<Bytes>,
    column: usize,
) -> (Vec<T::T>, Vec<i16>) {
    let optional = ser
        .metadata()
        .file_metadata()
        .schema_descr()
        .column(column)
        .max_def_level()
        > 0;
    let total = ser.metadata().file_metadata().num_rows() as usize;
    let mut values = Vec::with_capacity(total);
    let mut defs = Vec::with_capacity(if optional { total } else { 0 });
    for g in 0..ser.num_row_groups() {
        let rg = ser.get_row_group(g).expect("row group");
        let rows = rg.metadata().num_rows() as usize;
        let mut reader =
            get_typed_column_reader::<T>(rg.get_column_reader(column).expect("column"));
        let mut done = 0;
        while done < rows {
            let (records, _, _) = reader
                .read_records(
                    rows - done,
                    optional.then_some(&mut defs),
                    None,
                    &mut values,
                )
                .expect("read_records");
            assert!(records > 0, "column {column} ended early");
            done += records;
        }
    }
    (values, defs)
}

/// The values of an OPTIONAL column as `Option`s, from its dense values and
/// definition levels.
pub struct Opt<I> {
    values: I,
    defs: std::vec::IntoIter<i16>,
}

impl<I: Iterator> Iterator for Opt<I> {
    type Item = Option<I::Item>;
    fn next(&mut self) -> Option<Option<I::Item>> {
        let d = self.defs.next()?;
        Some(if d > 0 { self.values.next() } else { None })
    }
}

pub fn opt<I: Iterator>(values: I, defs: Vec<i16>) -> Opt<I> {
    Opt {
        values,
        defs: defs.into_iter(),
    }
}

/// `ByteArray` as `&str`, as a column-API user writes it.
pub fn as_str(b: &ByteArray) -> &str {
    std::str::from_utf8(b.data()).expect("UTF-8")
}

/// `ByteArray` as `String`.
pub fn to_string(b: &ByteArray) -> String {
    as_str(b).to_owned()
}

/// One column's values for [`write_parquet`]; `None` is a null.
pub enum Col {
    Bool(Vec<Option<bool>>),
    I32(Vec<Option<i32>>),
    I64(Vec<Option<i64>>),
    F32(Vec<Option<f32>>),
    F64(Vec<Option<f64>>),
    Str(Vec<Option<String>>),
}

fn split<T: Clone>(v: &[Option<T>], optional: bool) -> (Vec<T>, Option<Vec<i16>>) {
    let dense: Vec<T> = v.iter().flatten().cloned().collect();
    assert!(
        optional || dense.len() == v.len(),
        "a null in a REQUIRED column"
    );
    let defs = optional.then(|| v.iter().map(|x| i16::from(x.is_some())).collect());
    (dense, defs)
}

/// Writes `groups` (one `Vec<Col>` per row group, columns in schema order) to
/// `path` through a temporary file, so a concurrent reader never sees half a file.
pub fn write_parquet(path: &Path, schema: &str, props: WriterProperties, groups: &[Vec<Col>]) {
    let schema = Arc::new(parse_message_type(schema).expect("schema"));
    let descr = SchemaDescriptor::new(schema.clone());
    let tmp = path.with_extension(format!("{}.tmp", std::process::id()));
    let file = std::fs::File::create(&tmp).expect("create fixture");
    let mut writer = SerializedFileWriter::new(file, schema, Arc::new(props)).expect("writer");
    for columns in groups {
        assert_eq!(columns.len(), descr.num_columns());
        let mut rg = writer.next_row_group().expect("row group");
        for (i, values) in columns.iter().enumerate() {
            let optional = descr.column(i).max_def_level() > 0;
            let mut col = rg.next_column().expect("column").expect("column");
            let written = match (col.untyped(), values) {
                (ColumnWriter::BoolColumnWriter(w), Col::Bool(v)) => {
                    let (d, l) = split(v, optional);
                    w.write_batch(&d, l.as_deref(), None)
                }
                (ColumnWriter::Int32ColumnWriter(w), Col::I32(v)) => {
                    let (d, l) = split(v, optional);
                    w.write_batch(&d, l.as_deref(), None)
                }
                (ColumnWriter::Int64ColumnWriter(w), Col::I64(v)) => {
                    let (d, l) = split(v, optional);
                    w.write_batch(&d, l.as_deref(), None)
                }
                (ColumnWriter::FloatColumnWriter(w), Col::F32(v)) => {
                    let (d, l) = split(v, optional);
                    w.write_batch(&d, l.as_deref(), None)
                }
                (ColumnWriter::DoubleColumnWriter(w), Col::F64(v)) => {
                    let (d, l) = split(v, optional);
                    w.write_batch(&d, l.as_deref(), None)
                }
                (ColumnWriter::ByteArrayColumnWriter(w), Col::Str(v)) => {
                    let (d, l) = split(v, optional);
                    let d: Vec<ByteArray> = d
                        .into_iter()
                        .map(|s| ByteArray::from(s.into_bytes()))
                        .collect();
                    w.write_batch(&d, l.as_deref(), None)
                }
                _ => panic!("column {i}: values of the wrong type"),
            };
            written.expect("write_batch");
            col.close().expect("close column");
        }
        rg.close().expect("close row group");
    }
    writer.close().expect("close file");
    std::fs::rename(&tmp, path).expect("rename fixture");
}

/// `target/fixtures/` of the main workspace (where `tick_file` caches its files).
pub fn fixtures_dir() -> PathBuf {
    let dir = parquet_rows_suite::workspace_root()
        .join("target")
        .join("fixtures");
    std::fs::create_dir_all(&dir).expect("create target/fixtures");
    dir
}

/// A deterministic generator (SplitMix64) for the fixtures' data.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    /// Uniform in `0..n`.
    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    /// True with probability `p_percent` %.
    pub fn percent(&mut self, p_percent: u64) -> bool {
        self.below(100) < p_percent
    }
}
