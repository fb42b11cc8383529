//! Byte-array values of one page in an encoding that is not PLAIN: what every
//! decoder of the table's `bytes` kind yields.
//!
//! DELTA_LENGTH_BYTE_ARRAY values stay in the page with their bounds decoded
//! once; DELTA_BYTE_ARRAY and BYTE_STREAM_SPLIT values are rebuilt into the
//! page's [`Arena`]. Either way value `i` is `data[ends[i-1]..ends[i]]`, read
//! with a [`SliceCursor`]. DELTA_BYTE_ARRAY values start as a stream instead
//! ([`ByteValues::Incremental`]): a field that copies each value reads them
//! one by one and no arena is built; any other read rebuilds the page first.

use std::ops::Range;
use std::sync::OnceLock;

use super::delta_byte_array::Incremental;
use super::delta_length_byte_array::SliceCursor;
use super::{Arena, ValueDecoder, ValueOut};
use crate::error::DecodeError;

/// The byte-array values of one page, borrowing the page or its arena (`'p`).
#[derive(Debug)]
pub(crate) enum ByteValues<'p> {
    /// Values whose bounds are known: value `i` is `data[ends[i-1]..ends[i]]`.
    Slices {
        /// The values' bounds and the position.
        cursor: SliceCursor<'p>,
        /// The cursor's bytes as text, once a UTF-8 reader has validated
        /// them as a whole and found every value boundary on a character
        /// boundary (one check per page instead of one per value).
        text: Option<&'p str>,
    },
    /// DELTA_BYTE_ARRAY values not rebuilt yet. A reader that copies each
    /// value streams them ([`Incremental::next_value`]); any other use
    /// rebuilds the page into `arena` first and reads it as [`ByteValues::Slices`].
    Incremental {
        /// The page's prefix and suffix lengths, and the streaming position.
        values: Incremental<'p>,
        /// The page's arena slot, shared by every reader of the page.
        arena: &'p OnceLock<Arena>,
    },
}

impl<'p> ByteValues<'p> {
    /// Values `data[ends[i-1]..ends[i]]`, from the first.
    pub(crate) fn slices(data: &'p [u8], ends: &'p [usize]) -> Self {
        ByteValues::Slices {
            cursor: SliceCursor::new(data, ends),
            text: None,
        }
    }

    /// The values of an arena that holds their bytes.
    pub(crate) fn rebuilt(arena: &'p Arena) -> Self {
        Self::slices(&arena.data, &arena.ends)
    }

    /// The values streamed one at a time, if they are (see
    /// [`ByteValues::Incremental`]); `None` once they were rebuilt.
    pub(crate) fn streaming(&mut self) -> Option<&mut Incremental<'p>> {
        match self {
            ByteValues::Incremental { values, .. } => Some(values),
            ByteValues::Slices { .. } => None,
        }
    }

    /// Turns [`ByteValues::Incremental`] into [`ByteValues::Slices`] of the
    /// page's arena (rebuilt if no reader did yet), at the value the stream
    /// reached; returns the cursor.
    fn settle(&mut self) -> Result<&mut SliceCursor<'p>, DecodeError> {
        if let ByteValues::Incremental { values, arena } = self {
            let slot: &'p OnceLock<Arena> = arena;
            let next = values.consumed();
            let rebuilt = Arena::fill(slot, || {
                let (data, ends) = values.rebuild()?;
                Ok(Arena {
                    data,
                    ends,
                    data_start: 0,
                })
            })?;
            let mut cursor = SliceCursor::new(&rebuilt.data, &rebuilt.ends);
            cursor.next = next;
            *self = ByteValues::Slices { cursor, text: None };
        }
        match self {
            ByteValues::Slices { cursor, .. } => Ok(cursor),
            ByteValues::Incremental { .. } => Err(DecodeError::oos("values not rebuilt")),
        }
    }

    /// Takes the bounds (in the bytes [`ByteValues::as_text`] returns) of the
    /// next `n` values, or fails if the page has fewer.
    pub(crate) fn ranges(
        &mut self,
        n: usize,
    ) -> Result<impl Iterator<Item = Range<usize>> + 'p, DecodeError> {
        self.settle()?.take_ranges(n)
    }

    /// Takes the next `n` values, or fails if the page has fewer.
    pub(crate) fn take(
        &mut self,
        n: usize,
    ) -> Result<impl Iterator<Item = &'p [u8]> + 'p, DecodeError> {
        let cursor = self.settle()?;
        let data = cursor.data;
        Ok(cursor.take_ranges(n)?.map(move |r| &data[r]))
    }

    /// For UTF-8 columns: validates the page's values as one string, once, and
    /// returns it if every value boundary is a character boundary.
    pub(crate) fn as_text(&mut self) -> Option<&'p str> {
        // On an error, `None`: the caller's next read meets it again and returns it.
        self.settle().ok()?;
        let ByteValues::Slices { cursor, text } = self else {
            return None;
        };
        let (data, ends) = (cursor.data, cursor.ends);
        if text.is_none() {
            let used = data.get(..ends.last().copied().unwrap_or(0))?;
            let whole = std::str::from_utf8(used).ok()?;
            if ends.iter().all(|&end| whole.is_char_boundary(end)) {
                *text = Some(whole);
            }
        }
        *text
    }
}

impl<'p> ValueDecoder for ByteValues<'p> {
    type Item = &'p [u8];
    fn decode(&mut self, n: usize, out: &mut impl ValueOut<&'p [u8]>) -> Result<(), DecodeError> {
        self.settle()?.decode(n, out)
    }
    /// Moves the index of rebuilt values; values not rebuilt yet are skipped
    /// by streaming ([`Incremental::skip_values`]), so a skip builds no arena.
    fn skip(&mut self, n: usize) -> Result<(), DecodeError> {
        match self {
            ByteValues::Slices { cursor, .. } => cursor.skip(n),
            ByteValues::Incremental { values, .. } => values.skip(n),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::encoding::delta_byte_array::encode::encode;
    use crate::encoding::testing::{check_skips, Rng};

    #[test]
    fn incremental_values_settle_into_the_arena_where_the_stream_stopped() {
        let section = encode(&[b"axis", b"axle", b"babble", b"babyhood"]);
        let slot = OnceLock::new();
        let mut values = ByteValues::Incremental {
            values: Incremental::new(&section, 4).unwrap(),
            arena: &slot,
        };
        let stream = values.streaming().unwrap();
        assert_eq!(stream.next_value().unwrap(), b"axis");
        assert!(slot.get().is_none(), "streaming builds no arena");
        let mut out = Vec::new();
        values.decode(3, &mut out).unwrap();
        assert_eq!(out, [&b"axle"[..], b"babble", b"babyhood"]);
        assert!(values.streaming().is_none(), "rebuilt: no longer a stream");
        assert_eq!(slot.get().unwrap().data, b"axisaxlebabblebabyhood");
        assert!(values.decode(1, &mut out).is_err());
    }

    #[test]
    fn skips_match_a_full_decode_streamed_or_rebuilt() {
        let mut rng = Rng::new(31);
        let words: Vec<Vec<u8>> = (0..300)
            .map(|i| format!("key-{:04}-{}", i / 3, "x".repeat(i % 5)).into_bytes())
            .collect();
        let expected: Vec<&[u8]> = words.iter().map(Vec::as_slice).collect();
        let section = encode(&expected);
        // A fresh slot for each decoder, as each page has its own.
        let slots: Vec<OnceLock<Arena>> = (0..64).map(|_| OnceLock::new()).collect();
        let used = std::cell::Cell::new(0);
        check_skips(
            || {
                used.set(used.get() + 1);
                ByteValues::Incremental {
                    values: Incremental::new(&section, expected.len()).unwrap(),
                    arena: &slots[used.get() - 1],
                }
            },
            &expected,
            expected.len(),
            &mut rng,
        );
        let rebuilt = Incremental::new(&section, expected.len())
            .unwrap()
            .rebuild()
            .unwrap();
        check_skips(
            || ByteValues::slices(&rebuilt.0, &rebuilt.1),
            &expected,
            expected.len(),
            &mut rng,
        );
        let slot = OnceLock::new();
        let mut stream = ByteValues::Incremental {
            values: Incremental::new(&section, expected.len()).unwrap(),
            arena: &slot,
        };
        stream.skip(200).unwrap();
        assert!(slot.get().is_none(), "a skip builds no arena");
    }

    #[test]
    fn text_is_checked_once_per_page_and_exactly() {
        let mut values = ByteValues::slices("abécd".as_bytes(), &[2, 4, 6]);
        assert_eq!(values.as_text(), Some("abécd"));
        // Valid as a whole, but a value boundary splits `é`.
        assert_eq!(ByteValues::slices("aé".as_bytes(), &[2, 3]).as_text(), None);
        assert_eq!(ByteValues::slices(b"ab\xffcd", &[2, 3, 5]).as_text(), None);
    }
}
