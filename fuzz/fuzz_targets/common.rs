//! Structs the fuzz targets decode into: every field kind, borrowed and owned,
//! required and optional.

use parquet_rows::ParquetRow;

#[derive(ParquetRow, Debug)]
#[allow(dead_code)] // decoded, never read: the target looks for panics
pub struct Everything<'a> {
    pub id: Option<i32>,
    pub big: i64,
    pub name: Option<&'a str>,
    pub flag: Option<bool>,
    pub price: f64,
    pub fixed: Option<&'a [u8]>,
    pub small: Option<u8>,
}

#[derive(ParquetRow, Debug)]
#[allow(dead_code)] // decoded, never read: the target looks for panics
pub struct Owned {
    pub name: Option<std::sync::Arc<str>>,
    pub fixed: Option<Vec<u8>>,
    pub big: Option<parquet_rows::Timestamp>,
}

/// Decodes `file` with both structs, through the borrowed and the owned paths.
/// Errors are expected; panics are the bugs.
pub fn decode(file: &parquet_rows::ParquetFile) {
    if let Ok(pages) = file.load::<Everything>() {
        let _ = pages.rows::<Everything>();
    }
    let _ = file.rows::<Owned>().collect();
}
