//! The public surface beyond decoding: `Debug` of `Pages`, and the optional
//! crates re-exported under their features.

use parquet_rows::{ParquetFile, ParquetRow};
use parquet_rows_suite::{corpus_file, write_ticks, Tick};

/// `Debug` of `Pages` summarises what is held; it never prints the pages.
#[test]
fn debug_of_pages_is_short() {
    let mut bytes = Vec::new();
    write_ticks(&mut bytes, 100_000).expect("write ticks");
    let file = ParquetFile::from_bytes(bytes.clone()).expect("open");
    let pages = file.load::<Tick>().expect("load");
    let text = format!("{pages:?}");
    assert!(
        text.starts_with(
            "Pages { row_groups: 1, rows: 100000, columns: [\"ts\", \"symbol\", \"bid\", \"ask\"], bytes: "
        ),
        "{text}"
    );
    assert!(text.len() < 140, "{} bytes: {text}", text.len());
    // The bytes held are the decompressed pages: more than the file holds
    // compressed, less than a row's worth of everything. None is
    // decompressed until a read opens it.
    let held = debug_count(&text, "bytes");
    assert!(held > bytes.len() && held < 100_000 * 40, "{held}");
    assert_eq!(debug_count(&text, "decompressed"), 0, "{text}");
    // Row groups loaded one at a time say so too.
    let first = file.rows::<Tick>().row_groups([0]).load();
    let one = format!("{:?}", first.expect("load"));
    assert!(
        one.starts_with("Pages { row_groups: 1, rows: 100000,"),
        "{one}"
    );
}

/// The number after `name: ` in the `Debug` text of a `Pages`.
pub(crate) fn debug_count(text: &str, name: &str) -> usize {
    let at = text.find(&format!(" {name}: ")).expect(name) + name.len() + 3;
    let digits: String = text[at..]
        .chars()
        .take_while(char::is_ascii_digit)
        .collect();
    digits.parse().expect("a byte count")
}

/// The optional crates are reachable through `parquet_rows`, so a user
/// enables a feature without a dependency of their own, and their types are
/// the ones the field types table lists.
#[test]
fn optional_crates_are_re_exported() {
    #[derive(ParquetRow, Debug)]
    struct Halves {
        x: Option<parquet_rows::half::f16>,
    }
    // `PARQUET_TEST_DATA=skip` skips the corpus explicitly.
    if let Some(path) = corpus_file("data/float16_nonzeros_and_nans.parquet") {
        let rows: Vec<Halves> = parquet_rows::from_path(path).expect("read float16");
        assert_eq!(rows[1].x, Some(half::f16::from_f32(1.0)));
        assert_eq!(rows[2].x, Some(half::f16::from_f32(-2.0)));
    }

    // The same types as the crates' own.
    let same = |_: chrono::NaiveDate, _: rust_decimal::Decimal, _: half::f16| ();
    same(
        parquet_rows::chrono::NaiveDate::MIN,
        parquet_rows::rust_decimal::Decimal::ONE,
        parquet_rows::half::f16::ONE,
    );
    let uuid: parquet_rows::uuid::Uuid = parquet_rows::uuid::Uuid::nil();
    assert!(uuid.is_nil());
}
