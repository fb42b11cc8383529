//! [`OwnedVariant`]: a variant that owns its buffers.

use bytes::Bytes;

use super::build::OwnedValue;
use super::metadata::VariantMetadata;
use super::value::Variant;

/// A variant holding its buffers (`Bytes`: for a field read from a file,
/// views of the pages, no copy), for rows that outlive the pages. It is
/// checked when made; [`OwnedVariant::as_variant`] reads it.
///
/// ```
/// use parquet_rows::variant::{OwnedValue, OwnedVariant};
/// let v = OwnedVariant::from_value(&OwnedValue::Int64(7))?;
/// assert_eq!(v.as_variant().as_i64(), Some(7));
/// # Ok::<(), parquet_rows::Error>(())
/// ```
#[derive(Clone)]
pub struct OwnedVariant {
    metadata: Bytes, // invariant: checked metadata
    value: Bytes,    // invariant: one value checked against `metadata`
}

impl OwnedVariant {
    /// Checks the two buffers as [`Variant::new`] does.
    pub fn new(metadata: Bytes, value: Bytes) -> crate::Result<Self> {
        Variant::new(&metadata, &value)?;
        Ok(OwnedVariant { metadata, value })
    }

    /// Encodes `value` (see [`OwnedValue::encode`]).
    pub fn from_value(value: &OwnedValue) -> crate::Result<Self> {
        let (metadata, value) = value.encode()?;
        Self::new(Bytes::from(metadata), Bytes::from(value))
    }

    /// The null variant (static buffers: no allocation).
    pub fn null() -> Self {
        OwnedVariant {
            metadata: Bytes::from_static(&[0x01, 0, 0]),
            value: Bytes::from_static(&[0]),
        }
    }

    /// The variant, borrowing `self`.
    pub fn as_variant(&self) -> Variant<'_> {
        // Both buffers were checked in `new` and cannot change since; a
        // second check is the price of having no `unsafe` and no
        // self-referential struct, and cannot fail (the fallback is null).
        VariantMetadata::parse(&self.metadata)
            .and_then(|m| Variant::with_metadata(m, &self.value))
            .unwrap_or(Variant::NULL)
    }

    /// The metadata buffer.
    pub fn metadata_bytes(&self) -> &Bytes {
        &self.metadata
    }

    /// The value buffer.
    pub fn value_bytes(&self) -> &Bytes {
        &self.value
    }
}

impl std::fmt::Debug for OwnedVariant {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.as_variant().fmt(f)
    }
}

/// Equal when the variants hold the same values (see [`Variant`]'s `PartialEq`).
impl PartialEq for OwnedVariant {
    fn eq(&self, other: &Self) -> bool {
        self.as_variant() == other.as_variant()
    }
}

impl From<Variant<'_>> for OwnedVariant {
    fn from(v: Variant<'_>) -> Self {
        OwnedVariant {
            metadata: Bytes::copy_from_slice(v.metadata().as_bytes()),
            value: Bytes::copy_from_slice(v.value_bytes()),
        }
    }
}
