//! Arbitrary bytes as a whole Parquet file.
#![no_main]

mod common;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(file) = parquet_rows::ParquetFile::from_bytes(data.to_vec()) {
        common::decode(&file);
    }
});
