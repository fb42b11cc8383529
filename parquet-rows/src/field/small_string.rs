//! `compact_str::CompactString` (feature `compact_str`): owned strings that
//! keep up to 24 bytes inline, so an owned row costs a copy per string
//! field, not an allocation.
//!
//! Why `compact_str` and not another small-string crate: a `CompactString`
//! is the size of a `String` (24 bytes) and keeps all 24 inline (smol_str
//! and ecow keep 23 and 15), and it is mutable with `String`'s API
//! (`push_str`, `Deref<Target = str>`, `From<&str>`), so it replaces a
//! `String` field without changing the code that uses the rows. smol_str is
//! immutable; its heap form is an `Arc<str>`, which parquet-rows already
//! reads (shared per dictionary entry) for columns of long repeated strings.
//! compact_str is no_std-capable, has no required dependency on `std`, and
//! is widely used and kept up.
//!
//! Each dictionary entry is converted once per column chunk and cloned into
//! each row (as `Arc<str>` is): the clone of an inline value is a copy of
//! 24 bytes, with no branch on the allocator. A value longer than 24 bytes
//! lives on the heap and its clone allocates, as a `String` does.

use compact_str::CompactString;
use parquet_rows_rules::FieldKind;

use super::{ColumnContext, ParquetField};
use crate::error::Result;
use crate::physical::Utf8;

super::leaf!(CompactString);

/// `CompactString`: converted once per dictionary entry and copied into each
/// row (once per value for pages that are not dictionary-encoded).
impl<'p> ParquetField<'p> for CompactString {
    type Physical = Utf8;
    const KIND: FieldKind = FieldKind::CompactString;
    const RUST_TYPE: &'static str = "CompactString";
    /// The empty string, inline: no allocation, and nothing to free.
    #[inline]
    fn placeholder() -> Self {
        CompactString::const_new("")
    }
    #[inline]
    fn convert(value: &'p str, _: &ColumnContext) -> Result<Self, String> {
        Ok(CompactString::from(value))
    }
    super::reads!(crate::column::Shared(Self::convert));
}
