//! The arena of one page: values that decoding rebuilt or bounded once.

use std::sync::OnceLock;

use crate::error::DecodeError;

/// Values of one page that cannot be borrowed from the page as they are
/// (DELTA_BYTE_ARRAY rebuilds them, BYTE_STREAM_SPLIT scatters their bytes),
/// or byte-array bounds decoded once (DELTA_LENGTH_BYTE_ARRAY). It lives as long
/// as the pages (each page of a loaded chunk has a slot for one), so rows
/// can borrow it like a page.
#[derive(Debug, Default)]
pub(crate) struct Arena {
    pub(crate) data: Vec<u8>, // rebuilt value bytes (empty when values stay in the page)
    pub(crate) ends: Vec<usize>, // end offset of each value; non-decreasing
    pub(crate) data_start: usize, // where values begin in the page section (DELTA_LENGTH_BYTE_ARRAY)
}

impl Arena {
    /// The arena in `slot`, built by `build` if the slot is empty (the first
    /// reader that needs a page's arena builds it; readers of the same column
    /// in other fields or threads share it).
    pub(crate) fn fill(
        slot: &OnceLock<Arena>,
        build: impl FnOnce() -> Result<Arena, DecodeError>,
    ) -> Result<&Arena, DecodeError> {
        if let Some(filled) = slot.get() {
            return Ok(filled);
        }
        let arena = build()?;
        Ok(slot.get_or_init(|| arena))
    }
}
