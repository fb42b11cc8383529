//! Arbitrary bytes as a file's footer (the Thrift `FileMetaData`), framed
//! with the magic and the length a real file has, so every input reaches the
//! footer checks and the `parquet` crate's metadata reader instead of
//! stopping at the framing: child counts, nesting, list sizes, offsets.
#![no_main]

mod common;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|metadata: &[u8]| {
    let Ok(len) = u32::try_from(metadata.len()) else {
        return;
    };
    let mut file = b"PAR1".to_vec();
    file.extend_from_slice(metadata);
    file.extend_from_slice(&len.to_le_bytes());
    file.extend_from_slice(b"PAR1");
    if let Ok(file) = parquet_rows::ParquetFile::from_bytes(file) {
        let _ = file.num_rows();
        common::decode(&file);
    }
});
