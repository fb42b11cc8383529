//! The nested order file of the docs (a struct, lists of strings, an OPTIONAL
//! list of structs, a map, a list with nullable elements) with page bytes
//! corrupted: repetition and definition levels, record assembly and the
//! per-chunk level buffers must give `Ok` or `Err`, never a panic or an
//! allocation sized by a page header.
//!
//! Input: (offset: u16 LE, value: u8) triples applied to the page bytes.
#![no_main]

use std::collections::{BTreeMap, HashMap};
use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;
use parquet_rows::ParquetRow;

#[derive(ParquetRow, Debug)]
#[allow(dead_code)] // decoded, never read: the target looks for panics
struct Order<'a> {
    id: i64,
    customer: Customer<'a>,
    tags: Vec<&'a str>,
    fills: Option<Vec<Fill>>,
    attributes: BTreeMap<String, i64>,
    scores: Vec<Option<f64>>,
}

#[derive(ParquetRow, Debug)]
#[allow(dead_code)]
struct Customer<'a> {
    name: &'a str,
    region: Option<&'a str>,
}

#[derive(ParquetRow, Debug)]
#[allow(dead_code)]
struct Fill {
    price: f64,
    qty: i32,
}

/// The same columns read other ways: pairs, owned strings, `Option`s on
/// REQUIRED nodes.
#[derive(ParquetRow, Debug)]
#[allow(dead_code)]
struct Other {
    tags: Option<Vec<Option<String>>>,
    attributes: Vec<(String, i64)>,
    fills: Option<Vec<Option<Fill>>>,
    customer: Option<Region>,
}

#[derive(ParquetRow, Debug)]
#[allow(dead_code)]
struct Region {
    region: Option<String>,
}

/// The map as a `HashMap`.
#[derive(ParquetRow, Debug)]
#[allow(dead_code)]
struct Hashed {
    attributes: Option<HashMap<String, i64>>,
}

fn template() -> &'static Vec<u8> {
    static TEMPLATE: OnceLock<Vec<u8>> = OnceLock::new();
    TEMPLATE.get_or_init(|| {
        parquet_rows::doc_support::order_file()
            .expect("order file")
            .to_vec()
    })
}

fuzz_target!(|edits: &[u8]| {
    let mut file = template().clone();
    let footer_len = u32::from_le_bytes(
        file[file.len() - 8..file.len() - 4]
            .try_into()
            .expect("4 bytes"),
    ) as usize;
    let span = file.len() - 8 - footer_len - 4;
    for edit in edits.chunks_exact(3) {
        let offset = 4 + usize::from(u16::from_le_bytes([edit[0], edit[1]])) % span;
        file[offset] = edit[2];
    }
    if let Ok(f) = parquet_rows::ParquetFile::from_bytes(file) {
        if let Ok(pages) = f.load::<Order>() {
            let _ = pages.rows::<Order>();
        }
        let _ = f.rows::<Other>().collect();
        let _ = f.rows::<Hashed>().collect();
    }
});
