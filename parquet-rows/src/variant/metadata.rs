//! The metadata half of a variant: the dictionary of field names.
//!
//! Grammar (parquet-format `VariantEncoding.md`, "Metadata encoding"):
//!
//! ```text
//! metadata: <header> <dictionary_size> <offset>{dictionary_size + 1} <bytes>
//! header:   version (bits 0-3, must be 1) | sorted_strings << 4 | offset_size_minus_one << 6
//! ```
//!
//! Offsets and the size are unsigned little-endian integers of `offset_size`
//! bytes; offsets are relative to `bytes` and the last one is its length.

use super::{le_uint, oos};

/// The metadata of a variant: its dictionary of field names, checked once
/// when it is made (every offset inside the buffer and increasing, every
/// name valid UTF-8, and sorted and unique when the header says so).
///
/// `'a` is the lifetime of the buffer it borrows (a page, for a variant read
/// from a file).
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct VariantMetadata<'a> {
    bytes: &'a [u8],    // invariant: the whole metadata, checked by `new`
    offset_size: usize, // invariant: 1..=4
    len: usize,         // dictionary_size; invariant: every offset lies in `bytes`
    sorted: bool,       // the header's sorted_strings flag (checked when set)
}

impl std::fmt::Debug for VariantMetadata<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl VariantMetadata<'static> {
    /// An empty dictionary (version 1, 1-byte offsets, no name).
    pub const EMPTY: VariantMetadata<'static> = VariantMetadata {
        bytes: &[0x01, 0, 0],
        offset_size: 1,
        len: 0,
        sorted: false,
    };
}

impl<'a> VariantMetadata<'a> {
    /// Checks `bytes` and returns the dictionary they hold.
    ///
    /// ```
    /// use parquet_rows::variant::VariantMetadata;
    /// // version 1, sorted, 1-byte offsets; 2 names: "a", "bc".
    /// let m = VariantMetadata::new(&[0x11, 2, 0, 1, 3, b'a', b'b', b'c'])?;
    /// assert_eq!(m.get(1), Some("bc"));
    /// # Ok::<(), parquet_rows::Error>(())
    /// ```
    pub fn new(bytes: &'a [u8]) -> crate::Result<Self> {
        Self::parse(bytes).map_err(oos)
    }

    pub(crate) fn parse(bytes: &'a [u8]) -> Result<Self, String> {
        let (&header, _) = bytes
            .split_first()
            .ok_or("variant metadata is empty (it needs at least a header byte)")?;
        let version = header & 0x0f;
        if version != 1 {
            return Err(format!(
                "variant metadata version {version} is not supported (only version 1 is)"
            ));
        }
        if header & 0x20 != 0 {
            return Err("variant metadata header sets its reserved bit 5".to_owned());
        }
        let sorted = header & 0x10 != 0;
        let offset_size = usize::from(header >> 6) + 1;
        let len = le_uint(bytes, 1, offset_size).ok_or("variant metadata ends in its size")?;
        // (len + 1) offsets must fit before anything is read from them; the
        // arithmetic is in u64 so that a hostile size cannot overflow.
        let table_end = 1 + offset_size as u64 * (len as u64 + 2);
        if table_end > bytes.len() as u64 {
            return Err(format!(
                "variant metadata says it has {len} names, but its {} bytes cannot hold their offsets",
                bytes.len()
            ));
        }
        let metadata = VariantMetadata {
            bytes,
            offset_size,
            len,
            sorted,
        };
        let strings = bytes.len() - table_end as usize;
        let mut previous: Option<&str> = None;
        let mut start = metadata
            .offset(0)
            .ok_or("variant metadata: no first offset")?;
        if start != 0 {
            return Err(format!("variant metadata's first offset is {start}, not 0"));
        }
        for i in 0..len {
            let end = metadata
                .offset(i + 1)
                .ok_or("variant metadata: an offset is missing")?;
            if end < start || end > strings {
                return Err(format!(
                    "variant metadata name {i} spans bytes {start}..{end} of {strings}"
                ));
            }
            let raw = &bytes[table_end as usize + start..table_end as usize + end];
            let name = std::str::from_utf8(raw)
                .map_err(|_| format!("variant metadata name {i} is not valid UTF-8"))?;
            if sorted {
                if let Some(previous) = previous {
                    if previous >= name {
                        return Err(format!(
                            "variant metadata says its names are sorted, but `{name}` follows `{previous}`"
                        ));
                    }
                }
                previous = Some(name);
            }
            start = end;
        }
        if start != strings {
            return Err(format!(
                "variant metadata's names end at byte {start} of {strings}: {} bytes after them",
                strings - start
            ));
        }
        Ok(metadata)
    }

    /// Offset `i` of the table (relative to the names' bytes).
    fn offset(&self, i: usize) -> Option<usize> {
        le_uint(self.bytes, 1 + self.offset_size * (i + 1), self.offset_size)
    }

    /// How many names the dictionary holds.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the dictionary is empty.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Whether the writer declared the names sorted and unique (checked).
    pub fn is_sorted(&self) -> bool {
        self.sorted
    }

    /// The name with id `id`, `None` past the end.
    pub fn get(&self, id: usize) -> Option<&'a str> {
        if id >= self.len {
            return None;
        }
        let base = 1 + self.offset_size * (self.len + 2);
        let start = base + self.offset(id)?;
        let end = base + self.offset(id + 1)?;
        // Checked in `parse`; `from_utf8` again because the crate has no
        // `unsafe`, and an `ok()` rather than a panic.
        std::str::from_utf8(self.bytes.get(start..end)?).ok()
    }

    /// The names, by id.
    pub fn iter(&self) -> impl Iterator<Item = &'a str> + 'a {
        let this = *self;
        (0..self.len).filter_map(move |i| this.get(i))
    }

    /// The bytes the metadata was made from.
    pub fn as_bytes(&self) -> &'a [u8] {
        self.bytes
    }
}
