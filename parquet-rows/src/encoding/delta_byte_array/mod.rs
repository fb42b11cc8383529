//! DELTA_BYTE_ARRAY (incremental encoding): each value shares a prefix with the previous.
//!
//! Spec: <https://github.com/apache/parquet-format/blob/master/Encodings.md#delta-strings-delta_byte_array--7>
//!
//! ```text
//! delta-byte-array := <prefix lengths: DELTA_BINARY_PACKED> <suffixes: DELTA_LENGTH_BYTE_ARRAY>
//! value[i] = value[i-1][..prefix_length[i]] ++ suffix[i]
//! ```
//!
//! The values do not exist contiguously in the page. Fields that borrow them
//! (`&str`) need them rebuilt into an arena owned by the page holder
//! ([`Pages`](crate::Pages)): [`Incremental::rebuild`]. Fields that copy each
//! value anyway (`String`) stream them instead ([`Incremental::next_value`]),
//! one value at a time in a small buffer, so no arena as large as the page's
//! values is written and read back.

use crate::encoding::byte_values::ByteValues;
use crate::encoding::delta_length_byte_array::{self, decode_non_negative, Slices};
use crate::encoding::table::Section;
use crate::encoding::{too_few, Arena, ValueDecoder, ValueOut};
use crate::error::DecodeError;

/// Rebuilt values can be much larger than the page (long shared prefixes); this
/// bounds what a hostile page can make us allocate, whether the values are
/// rebuilt into an arena or streamed into owned values.
pub(crate) const MAX_REBUILT_BYTES: usize = 1 << 30;

/// A DELTA_BYTE_ARRAY section with its prefix and suffix lengths decoded.
#[derive(Debug)]
pub(crate) struct Incremental<'a> {
    prefixes: Vec<usize>,        // invariant: as many as `ends`
    suffixes: &'a [u8],          // the suffixes' bytes
    ends: Vec<usize>,            // end of each suffix in `suffixes`; non-decreasing, last <= len
    rebuilt_len: usize,          // every prefix and suffix: <= MAX_REBUILT_BYTES
    next: usize,                 // index of the next value `next_value` or `next_text` returns
    next_start: usize,           // where the suffix of value `next` starts in `suffixes`
    value: Vec<u8>,              // the value `next_value` returned last
    text: String,                // the value `next_text` returned last
    suffix_text: SuffixText<'a>, // what `next_text` found of the suffixes
}

impl<'a> Incremental<'a> {
    /// [`Incremental::within`] the most any page may rebuild to.
    #[cfg(test)]
    pub(crate) fn new(section: &'a [u8], max_values: usize) -> Result<Self, DecodeError> {
        Self::within(section, max_values, MAX_REBUILT_BYTES)
    }

    /// Decodes the lengths of a section holding at most `max_values` values
    /// (the page's value count: bounds every allocation), and checks that the
    /// values rebuild to at most `max_rebuilt` bytes (and
    /// [`MAX_REBUILT_BYTES`]): a page of a few bytes can rebuild to
    /// gigabytes through long shared prefixes, so the rebuilt bytes count
    /// against the page limit as decompressed bytes do.
    pub(crate) fn within(
        section: &'a [u8],
        max_values: usize,
        max_rebuilt: usize,
    ) -> Result<Self, DecodeError> {
        let (prefixes, suffix_start) = decode_non_negative(section, max_values, "prefix length")?;
        let suffixes_section = &section[suffix_start..];
        let Slices { data_start, ends } =
            delta_length_byte_array::decode(suffixes_section, max_values)?;
        if ends.len() != prefixes.len() {
            return Err(DecodeError::oos(format!(
                "DELTA_BYTE_ARRAY has {} prefix lengths but {} suffixes",
                prefixes.len(),
                ends.len()
            )));
        }
        // Every prefix plus every suffix: the rebuilt size, if each prefix
        // fits the value before it (checked value by value).
        let total = prefixes
            .iter()
            .fold(ends.last().copied().unwrap_or(0), |sum, &p| {
                sum.saturating_add(p)
            });
        let limit = max_rebuilt.min(MAX_REBUILT_BYTES);
        if total > limit {
            return Err(DecodeError::Limit(format!(
                "DELTA_BYTE_ARRAY values rebuild to {total} bytes, more than the {limit} a page \
                 may take (raise `ReadOptions::max_page_bytes`)"
            )));
        }
        Ok(Incremental {
            prefixes,
            suffixes: &suffixes_section[data_start..],
            ends,
            rebuilt_len: total,
            next: 0,
            next_start: 0,
            value: Vec::new(),
            text: String::new(),
            suffix_text: SuffixText::Unchecked,
        })
    }

    /// How many values `next_value` has returned.
    pub(crate) fn consumed(&self) -> usize {
        self.next
    }

    /// Rebuilds every value of the section (from the first, whatever
    /// `next_value` returned) into one buffer; returns it and the end offset
    /// of each value in it.
    pub(crate) fn rebuild(&self) -> Result<(Vec<u8>, Vec<usize>), DecodeError> {
        // Reserved once instead of grown by doubling (measured: the
        // reallocation copies were 10% of decoding a DELTA_BYTE_ARRAY column).
        let mut data = Vec::with_capacity(self.rebuilt_len);
        let mut out_ends = Vec::with_capacity(self.ends.len());
        let mut prev = 0..0;
        let mut suffix_start = 0;
        for (&prefix, &suffix_end) in self.prefixes.iter().zip(&self.ends) {
            if prefix > prev.len() {
                return Err(prefix_too_long(prefix, prev.len()));
            }
            let start = data.len();
            data.extend_from_within(prev.start..prev.start + prefix);
            data.extend_from_slice(&self.suffixes[suffix_start..suffix_end]);
            prev = start..data.len();
            out_ends.push(data.len());
            suffix_start = suffix_end;
        }
        Ok((data, out_ends))
    }

    /// The next value, rebuilt in a buffer this decoder reuses; an error when
    /// the section has no more values or the value's prefix is longer than
    /// the value before it.
    #[inline] // called per value in the reader's loop
    pub(crate) fn next_value(&mut self) -> Result<&[u8], DecodeError> {
        let (prefix, end) = self.next_bounds(self.value.len())?;
        self.value.truncate(prefix);
        self.value
            .extend_from_slice(&self.suffixes[self.next_start..end]);
        (self.next, self.next_start) = (self.next + 1, end);
        Ok(&self.value)
    }

    /// The prefix length and the suffix end of the next value; an error when
    /// the section has no more values or the prefix is longer than the
    /// previous value's `previous` bytes.
    #[inline]
    fn next_bounds(&self, previous: usize) -> Result<(usize, usize), DecodeError> {
        let i = self.next;
        let (Some(&prefix), Some(&end)) = (self.prefixes.get(i), self.ends.get(i)) else {
            return Err(DecodeError::oos(format!("the page ends after {i} values")));
        };
        if prefix > previous {
            return Err(prefix_too_long(prefix, previous));
        }
        Ok((prefix, end))
    }

    /// [`Incremental::next_value`] for text: the next value, or an error if it
    /// is not UTF-8.
    ///
    /// Each value is the previous one's first `prefix` bytes and a suffix.
    /// When the page's suffixes are text on their own (checked once per
    /// page), a value is text exactly when its prefix ends on a character
    /// boundary of the previous value (text already), so that is all that is
    /// checked per value. Writers compute prefixes byte by byte, so a prefix
    /// may end inside a character that the suffix completes ("é" then "è"
    /// share the byte 0xc3): on such pages each whole value is checked.
    // Called per value in the reader's loop, which a plain `#[inline]` left a
    // call: forcing it took owned rows of `bench-report run delta-plain
    // rows-owned` from 92.0-96.7 to 90.4-92.4 ns/row (six alternating runs).
    #[allow(clippy::inline_always)] // measured, as said above
    #[inline(always)]
    pub(crate) fn next_text(&mut self) -> Result<&str, DecodeError> {
        if let SuffixText::Unchecked = self.suffix_text {
            self.suffix_text = self.check_suffixes();
        }
        let SuffixText::Text(suffixes) = self.suffix_text else {
            return self.next_value().and_then(utf8);
        };
        let (prefix, end) = self.next_bounds(self.text.len())?;
        if !self.text.is_char_boundary(prefix) {
            // The suffix starts a character of its own (checked for the
            // page), so the one the prefix cuts is never completed.
            return Err(DecodeError::Value(
                "invalid UTF-8 in a string value: a DELTA_BYTE_ARRAY prefix ends inside a character".into(),
            ));
        }
        self.text.truncate(prefix);
        // Every suffix bound is a character boundary (checked for the page).
        self.text
            .push_str(suffixes.get(self.next_start..end).unwrap_or_default());
        (self.next, self.next_start) = (self.next + 1, end);
        Ok(&self.text)
    }

    /// Moves past the next `n` values. Each value's prefix refers to the
    /// value before it, so the skipped values are rebuilt in the decoder's
    /// buffer one over the other (no allocation per value, nothing kept);
    /// the last one is where the next value's prefix comes from.
    pub(crate) fn skip_values(&mut self, n: usize) -> Result<(), DecodeError> {
        let left = self.ends.len() - self.next;
        if n > left {
            return Err(too_few(left, n));
        }
        if n == 0 {
            return Ok(());
        }
        // The previous value is in `text` when `next_text` returned it from
        // suffixes found to be text, in `value` otherwise (`next_value`, or
        // `next_text` on other pages; `next_value` leaves the suffixes
        // unchecked). A reader calls one of the two, so the mode says which.
        if let SuffixText::Text(_) = self.suffix_text {
            self.value.clear();
            self.value.extend_from_slice(self.text.as_bytes());
        }
        for _ in 0..n {
            self.next_value()?;
        }
        // Both buffers now hold the last skipped value, for either method;
        // one that is not text sends `next_text` down its per-value path.
        if !matches!(self.suffix_text, SuffixText::NotText) {
            self.text.clear();
            match std::str::from_utf8(&self.value) {
                Ok(text) => self.text.push_str(text),
                Err(_) => self.suffix_text = SuffixText::NotText,
            }
        }
        Ok(())
    }

    /// Whether the page's suffixes are UTF-8 and each begins and ends on a
    /// character boundary.
    #[cold]
    fn check_suffixes(&self) -> SuffixText<'a> {
        let suffixes: &'a [u8] = self.suffixes;
        let used = &suffixes[..self.ends.last().copied().unwrap_or(0)];
        match std::str::from_utf8(used) {
            Ok(text) if self.ends.iter().all(|&end| text.is_char_boundary(end)) => {
                SuffixText::Text(text)
            }
            _ => SuffixText::NotText,
        }
    }
}

/// Opens a section of BYTE_ARRAY values: read from the page's arena if a
/// reader rebuilt it already, streamed otherwise; the first reader that
/// needs them in an arena rebuilds them there (readers that copy each value,
/// `String`, stream them instead).
pub(crate) fn open(section: Section<'_>) -> Result<ByteValues<'_>, DecodeError> {
    match section.arena.get() {
        Some(rebuilt) => Ok(ByteValues::rebuilt(rebuilt)),
        None => Ok(ByteValues::Incremental {
            values: Incremental::within(section.data, section.num_values, section.max_rebuilt)?,
            arena: section.arena,
        }),
    }
}

/// Opens a section of FIXED_LEN_BYTE_ARRAY values: rebuilt into the page's
/// arena once, each checked to have the column's width.
pub(crate) fn open_fixed_len(section: Section<'_>) -> Result<ByteValues<'_>, DecodeError> {
    let width = section.fixed_len.unwrap_or(0);
    let arena = Arena::fill(section.arena, || {
        let (bytes, ends) =
            Incremental::within(section.data, section.num_values, section.max_rebuilt)?
                .rebuild()?;
        let mut start = 0;
        for &end in &ends {
            if end - start != width {
                return Err(DecodeError::oos(format!(
                    "DELTA_BYTE_ARRAY value of {} bytes in a FIXED_LEN_BYTE_ARRAY({width}) column",
                    end - start
                )));
            }
            start = end;
        }
        Ok(Arena {
            data: bytes,
            ends,
            data_start: 0,
        })
    })?;
    Ok(ByteValues::rebuilt(arena))
}

/// Values as owned bytes: [`Incremental::next_value`] copied out. The column
/// reader streams values with `next_value` and `next_text` instead; this is
/// the encoding's [`ValueDecoder`] for tests and for skips.
impl ValueDecoder for Incremental<'_> {
    type Item = Vec<u8>;
    fn decode(&mut self, n: usize, out: &mut impl ValueOut<Vec<u8>>) -> Result<(), DecodeError> {
        let left = self.ends.len() - self.next;
        if n > left {
            return Err(too_few(left, n));
        }
        for _ in 0..n {
            out.put_all(std::iter::once(self.next_value()?.to_vec()));
        }
        Ok(())
    }
    /// See [`Incremental::skip_values`].
    fn skip(&mut self, n: usize) -> Result<(), DecodeError> {
        self.skip_values(n)
    }
}

/// Whether a page's suffixes are text on their own (see [`Incremental::next_text`]).
#[derive(Debug, Clone, Copy)]
enum SuffixText<'a> {
    /// Not looked at yet.
    Unchecked,
    /// UTF-8, each suffix starting and ending on a character boundary.
    Text(&'a str),
    /// Not: values are checked one by one.
    NotText,
}

fn utf8(bytes: &[u8]) -> Result<&str, DecodeError> {
    std::str::from_utf8(bytes)
        .map_err(|e| DecodeError::Value(format!("invalid UTF-8 in a string value: {e}")))
}

fn prefix_too_long(prefix: usize, previous: usize) -> DecodeError {
    DecodeError::oos(format!(
        "DELTA_BYTE_ARRAY prefix length {prefix} is longer than the previous value ({previous} bytes)"
    ))
}

#[cfg(test)]
pub(crate) mod encode {
    use crate::encoding::delta_binary_packed::encode::encode as delta;
    use crate::encoding::delta_length_byte_array::encode::encode as dlba;

    /// Encodes `values` as DELTA_BYTE_ARRAY.
    pub(crate) fn encode(values: &[&[u8]]) -> Vec<u8> {
        let mut prefixes = Vec::new();
        let mut suffixes: Vec<&[u8]> = Vec::new();
        let mut prev: &[u8] = b"";
        for v in values {
            let p = prev
                .iter()
                .zip(v.iter())
                .take_while(|(a, b)| a == b)
                .count();
            prefixes.push(p as i64);
            suffixes.push(&v[p..]);
            prev = v;
        }
        let mut out = delta(&prefixes, 128, 4);
        out.extend(dlba(&suffixes));
        out
    }
}

#[cfg(test)]
mod tests {
    use super::encode::encode;
    use super::*;
    use crate::encoding::delta_binary_packed::encode::encode as delta;
    use crate::encoding::delta_length_byte_array::encode::encode as dlba;
    use crate::encoding::testing::{check_skips, Rng};

    /// Every value, by streaming; checks that rebuilding gives the same.
    fn both_ways(section: &[u8], max_values: usize) -> Result<Vec<Vec<u8>>, DecodeError> {
        let mut values = Incremental::new(section, max_values)?;
        let rebuilt = values.rebuild();
        let mut streamed = Vec::new();
        let streaming: Result<(), DecodeError> = (0..values.prefixes.len()).try_for_each(|_| {
            streamed.push(values.next_value()?.to_vec());
            Ok(())
        });
        match (rebuilt, streaming) {
            (Ok((data, ends)), Ok(())) => {
                let mut start = 0;
                for (end, value) in ends.iter().zip(&streamed) {
                    assert_eq!(&data[start..*end], value.as_slice());
                    start = *end;
                }
                assert_eq!(values.consumed(), ends.len());
                assert!(values.next_value().is_err(), "past the last value");
                Ok(streamed)
            }
            (Err(e), Err(_)) => Err(e),
            (rebuilt, streamed) => panic!("rebuild {rebuilt:?} but stream {streamed:?}"),
        }
    }

    #[test]
    fn skips_match_a_full_decode() {
        let mut rng = Rng::new(8);
        for total in [0, 1, 127, 128, 129, 1000] {
            // Values that share prefixes of every length with the one before.
            let mut values: Vec<Vec<u8>> = Vec::new();
            for _ in 0..total {
                let mut v = values.last().cloned().unwrap_or_default();
                v.truncate(rng.below(v.len() + 1));
                v.extend((0..rng.below(6)).map(|_| b'a' + rng.below(3) as u8));
                values.push(v);
            }
            let borrowed: Vec<&[u8]> = values.iter().map(Vec::as_slice).collect();
            let section = encode(&borrowed);
            let make = || Incremental::new(&section, total).unwrap();
            check_skips(make, &values, total, &mut rng);
        }
    }

    #[test]
    fn text_after_a_skip_continues_from_the_skipped_value() {
        let values = [
            "key/é/1",
            "key/é/2",
            "key/日本",
            "key/日本語",
            "k",
            "kö",
            "kök",
        ];
        let bytes: Vec<&[u8]> = values.iter().map(|v| v.as_bytes()).collect();
        let section = encode(&bytes);
        for k in 0..values.len() {
            for first in 0..=k {
                // `first` values by `next_text`, a skip to `k`, then the rest.
                let mut d = Incremental::new(&section, values.len()).unwrap();
                for v in &values[..first] {
                    assert_eq!(d.next_text().unwrap(), *v);
                }
                d.skip_values(k - first).unwrap();
                for v in &values[k..] {
                    assert_eq!(d.next_text().unwrap(), *v, "skip to {k} after {first}");
                }
                assert!(d.skip_values(1).is_err(), "past the end");
            }
        }
        // A skip that meets a prefix longer than the value before it.
        let mut bad = delta(&[0, 5], 128, 4);
        bad.extend(dlba(&[b"ab", b"c"]));
        assert!(Incremental::new(&bad, 2).unwrap().skip_values(2).is_err());
    }

    #[test]
    fn spec_example() {
        // Encodings.md: "axis", "axle", "babble", "babyhood"
        // -> prefix lengths 0 2 0 3, suffixes "axis" "le" "babble" "yhood"
        let values: [&[u8]; 4] = [b"axis", b"axle", b"babble", b"babyhood"];
        let section = encode(&values);
        let (data, ends) = Incremental::new(&section, 4).unwrap().rebuild().unwrap();
        assert_eq!(ends, [4, 8, 14, 22]);
        assert_eq!(data, b"axisaxlebabblebabyhood");
        assert_eq!(both_ways(&section, 4).unwrap(), values);
    }

    #[test]
    fn streams_long_shared_prefixes_and_empty_values() {
        let values: [&[u8]; 6] = [b"", b"key/0001", b"key/0002", b"key/0002", b"key/", b""];
        assert_eq!(both_ways(&encode(&values), 6).unwrap(), values);
    }

    /// Every value by `next_text`, or the first error.
    fn texts(section: &[u8], n: usize) -> Result<Vec<String>, DecodeError> {
        let mut values = Incremental::new(section, n)?;
        (0..n)
            .map(|_| values.next_text().map(str::to_owned))
            .collect()
    }

    #[test]
    fn text_is_checked_per_page_or_per_value() {
        let ascii_and_more = ["", "key/é/1", "key/é/2", "key/日本", "k"];
        let bytes: Vec<&[u8]> = ascii_and_more.iter().map(|v| v.as_bytes()).collect();
        assert_eq!(texts(&encode(&bytes), 5).unwrap(), ascii_and_more);
        // "é" and "è" share the byte 0xc3: a suffix (0xa8) that is not text
        // on its own, so the page's values are checked one by one.
        let split = ["pré", "prè", "pré"];
        let bytes: Vec<&[u8]> = split.iter().map(|v| v.as_bytes()).collect();
        assert_eq!(texts(&encode(&bytes), 3).unwrap(), split);
        // A prefix that ends inside "é" and a suffix that starts a character.
        let mut cut = delta(&[0, 2], 128, 4);
        cut.extend(dlba(&["aé".as_bytes(), b"x"]));
        let err = texts(&cut, 2).unwrap_err();
        assert!(format!("{err:?}").contains("invalid UTF-8"), "{err:?}");
        // An invalid byte in a suffix.
        let invalid: [&[u8]; 2] = [b"ab", b"a\xff"];
        let err = texts(&encode(&invalid), 2).unwrap_err();
        assert!(format!("{err:?}").contains("invalid UTF-8"), "{err:?}");
    }

    #[test]
    fn prefix_longer_than_previous_is_an_error() {
        let mut section = delta(&[0, 5], 128, 4);
        section.extend(dlba(&[b"ab", b"c"]));
        let err = both_ways(&section, 2).unwrap_err();
        assert!(format!("{err:?}").contains("prefix length 5"), "{err:?}");
    }

    #[test]
    fn more_values_than_the_page_or_too_large_a_rebuild_is_an_error() {
        let section = encode(&[b"a", b"ab", b"abc"]);
        assert!(Incremental::new(&section, 2).is_err());
        // Two prefix lengths adding up past the bound: refused before any copy.
        let mut huge = delta(&[0, 1 << 29, 1 << 29], 128, 4);
        huge.extend(dlba(&[b"a", b"", b""]));
        let err = Incremental::new(&huge, 3).unwrap_err();
        assert!(
            format!("{err:?}").contains("rebuild to 1073741825 bytes, more than the 1073741824"),
            "{err:?}"
        );
        // The page limit bounds them too: 1 + 2 + 3 bytes.
        assert!(Incremental::within(&section, 3, 6).is_ok());
        let err = Incremental::within(&section, 3, 5).unwrap_err();
        assert!(
            format!("{err:?}").contains("rebuild to 6 bytes, more than the 5"),
            "{err:?}"
        );
    }
}
