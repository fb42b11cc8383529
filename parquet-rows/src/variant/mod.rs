//! Parquet VARIANT values: the variant binary encoding, read in place.
//!
//! A VARIANT column is a group annotated `VARIANT` with two BYTE_ARRAY
//! children, `metadata` (a dictionary of field names) and `value` (one
//! encoded value whose objects refer to names by their dictionary id); see
//! parquet-format
//! [`VariantEncoding.md`](https://github.com/apache/parquet-format/blob/master/VariantEncoding.md).
//!
//! [`Variant`] borrows both buffers (from the pages, for a field of a row,
//! as `&str` does) and is checked once when it is made: every offset and
//! size inside its buffers, strings UTF-8, objects' names sorted and unique,
//! nesting at most [`MAX_DEPTH`] deep. Malformed bytes are an `Err`, never a
//! panic. Reading it then costs no allocation:
//!
//! ```
//! use parquet_rows::variant::{OwnedValue, OwnedVariant};
//!
//! let built = OwnedVariant::from_value(&OwnedValue::Object(vec![
//!     ("price".into(), OwnedValue::Double(101.25)),
//!     ("tags".into(), OwnedValue::Array(vec![OwnedValue::from("fx")])),
//! ]))?;
//! let v = built.as_variant();
//! assert_eq!(v.get("price").and_then(|p| p.as_f64()), Some(101.25));
//! assert_eq!(v.get("tags").and_then(|t| t.index(0)).and_then(|s| s.as_str()), Some("fx"));
//! for (name, value) in v.as_object().unwrap().iter() {
//!     println!("{name}: {value:?}");
//! }
//! # Ok::<(), parquet_rows::Error>(())
//! ```
//!
//! As fields of a `#[derive(ParquetRow)]` struct, both read any VARIANT
//! column, shredded ones included: `Variant<'a>` borrows the pages (a
//! shredded value is rebuilt once, into a store the loaded pages own, and
//! borrowed from there), [`OwnedVariant`] owns its buffers, for rows that
//! outlive the pages. See `docs/variant.md`.

mod build;
mod json;
mod metadata;
mod owned;
pub(crate) mod read;
#[cfg(feature = "serde")]
mod serde;
#[cfg(test)]
mod tests;
mod value;

pub use build::OwnedValue;
pub use metadata::VariantMetadata;
pub use owned::OwnedVariant;
pub use value::{Variant, VariantArray, VariantObject, VariantValue, MAX_DEPTH};

/// The unsigned little-endian integer of `size` (1 to 4) bytes at `at`,
/// `None` when the bytes run out.
#[inline]
fn le_uint(bytes: &[u8], at: usize, size: usize) -> Option<usize> {
    if size > 4 {
        return None;
    }
    let raw = bytes.get(at..at.checked_add(size)?)?;
    let mut out = [0u8; 4];
    out[..size].copy_from_slice(raw);
    usize::try_from(u32::from_le_bytes(out)).ok()
}

/// A variant that breaks the encoding, as the crate's error.
fn oos(message: String) -> crate::Error {
    crate::Error::OutOfSpec {
        location: crate::Location::default(),
        message,
    }
}
