//! Opening one page: splitting it into definition levels and values.
//!
//! Layouts (<https://github.com/apache/parquet-format/blob/master/README.md#data-pages>):
//!
//! ```text
//! DATA_PAGE (v1):    [rep levels] [def levels] values      levels: 4-byte LE length + RLE hybrid,
//!                                                          or (deprecated) BIT_PACKED, read LSB
//!                                                          first as pyarrow does (see `Levels`)
//! DATA_PAGE_V2:      rep levels   def levels   values      levels: RLE hybrid, lengths in the header,
//!                                                          never compressed
//! DICTIONARY_PAGE:   PLAIN values
//! ```
//!
//! Flat columns have no repetition levels, and definition levels only when
//! OPTIONAL; columns inside lists have both.

use std::sync::OnceLock;

use parquet::basic::{Encoding, Type};
use parquet::column::page::Page;

use super::level_bit_width;
use crate::encoding::bitpacked;
use crate::encoding::delta_byte_array::Incremental;
use crate::encoding::plain::{self, PlainDecoder};
use crate::encoding::rle_bp::{RleBpDecoder, Tally};
use crate::encoding::table::{Encoded, Section};
use crate::encoding::{length_prefixed, too_few, Arena, ValueDecoder};
use crate::error::DecodeError;
use crate::physical::{Physical, PlainShape};

/// Where the non-null values of a data page come from.
#[derive(Debug)]
pub(super) enum Values<'p> {
    /// No values section (no page open yet, or an all-null page without one).
    Empty,
    /// PLAIN values.
    Plain(PlainDecoder<'p>),
    /// Dictionary indices (PLAIN_DICTIONARY / RLE_DICTIONARY).
    Dictionary(RleBpDecoder<'p>),
    /// Any other encoding: a decoder of the table in `encoding::table`.
    Encoded(Encoded<'p>),
}

impl<'p> Values<'p> {
    /// DELTA_BYTE_ARRAY values not rebuilt yet, for a reader that copies
    /// each value (see [`Encoded::streaming`]).
    pub(super) fn streaming(&mut self) -> Option<&mut Incremental<'p>> {
        match self {
            Values::Encoded(values) => values.streaming(),
            _ => None,
        }
    }

    /// Moves past the next `n` non-null values with their encoding's
    /// [`ValueDecoder::skip`]; `shape` says how wide a PLAIN value is.
    pub(super) fn skip(&mut self, n: usize, shape: PlainShape) -> Result<(), DecodeError> {
        match self {
            Values::Empty if n == 0 => Ok(()),
            Values::Empty => Err(DecodeError::oos(format!(
                "the page has no values section but {n} non-null values"
            ))),
            Values::Plain(decoder) => skip_plain(decoder, n, shape),
            Values::Dictionary(indices) => indices.skip(n),
            Values::Encoded(values) => values.skip(n),
        }
    }
}

/// Skips `n` PLAIN values of the column's physical type, through the
/// encoding's decoder for that type (a cursor of three words, moved in and
/// back out).
fn skip_plain(
    decoder: &mut PlainDecoder<'_>,
    n: usize,
    shape: PlainShape,
) -> Result<(), DecodeError> {
    let cursor = decoder.clone();
    let (result, cursor) = match (shape.physical, shape.fixed_len) {
        (Type::BOOLEAN, _) => {
            let mut d = plain::Bools(cursor);
            (d.skip(n), d.0)
        }
        (Type::INT32 | Type::FLOAT, _) => {
            let mut d = plain::Fixed::<4>(cursor);
            (d.skip(n), d.0)
        }
        (Type::INT64 | Type::DOUBLE, _) => {
            let mut d = plain::Fixed::<8>(cursor);
            (d.skip(n), d.0)
        }
        (Type::INT96, _) => {
            let mut d = plain::Fixed::<12>(cursor);
            (d.skip(n), d.0)
        }
        (_, Some(width)) => {
            let mut d = plain::FixedLen {
                decoder: cursor,
                width,
            };
            (d.skip(n), d.decoder)
        }
        (_, None) => {
            let mut d = plain::ByteArrays(cursor);
            (d.skip(n), d.0)
        }
    };
    *decoder = cursor;
    result
}

/// Repetition or definition levels of a data page.
#[derive(Debug, Clone)]
pub(super) enum Levels<'p> {
    /// The RLE / bit-packing hybrid.
    Rle(RleBpDecoder<'p>),
    /// The deprecated BIT_PACKED encoding: no runs, and read LSB first, as a
    /// bit-packed run of the hybrid is, not MSB first as parquet-format's
    /// `Encodings.md` says.
    ///
    /// Impala wrote BIT_PACKED levels in that order (IMPALA-3006), and Arrow
    /// C++ (pyarrow) reads them so for every writer: `LevelDecoder::SetData`
    /// in `cpp/src/parquet/column_reader.cc` opens a `BitPackedDecoder`, the
    /// hybrid's LSB-first run decoder, with no `created_by` check
    /// (<https://github.com/apache/arrow/issues/42368>); arrow-rs does the
    /// same (<https://github.com/apache/arrow-rs/issues/5338>). parquet-mr
    /// writes BIT_PACKED only for levels of width 0, where the order does
    /// not matter. Reading the spec's order for some writers would make
    /// files decode differently from pyarrow, so there is no rule by writer
    /// (`docs/writer-quirks.md`).
    BitPacked {
        data: &'p [u8], // exactly the levels' bytes
        width: u32,     // invariant: <= 16
        next: usize,    // index of the next level
        count: usize,   // levels in `data`
    },
}

impl Levels<'_> {
    /// Consumes up to `max` levels if they start an RLE run of `level`;
    /// returns how many (see [`RleBpDecoder::take_run`]). The deprecated
    /// BIT_PACKED encoding has no runs: always 0.
    pub(super) fn take_run(&mut self, level: u32, max: usize) -> Result<usize, DecodeError> {
        match self {
            Levels::Rle(decoder) => decoder.take_run(level, max),
            Levels::BitPacked { .. } => Ok(0),
        }
    }

    /// Levels left in the current run (all of them for BIT_PACKED); 0 at the end.
    pub(super) fn run_left(&mut self) -> Result<usize, DecodeError> {
        match self {
            Levels::Rle(decoder) => decoder.run_left(),
            Levels::BitPacked { next, count, .. } => Ok(*count - *next),
        }
    }

    /// Fills `out` with the next levels; returns how many were written.
    pub(super) fn get_batch(&mut self, out: &mut [u32]) -> Result<usize, DecodeError> {
        match self {
            Levels::Rle(decoder) => decoder.get_batch(out),
            Levels::BitPacked {
                data,
                width,
                next,
                count,
            } => {
                let n = out.len().min(*count - *next);
                for (i, o) in out[..n].iter_mut().enumerate() {
                    *o = level_at(data, *next + i, *width);
                }
                *next += n;
                Ok(n)
            }
        }
    }

    /// Moves past the next `n` levels (an error if the page has fewer):
    /// runs by arithmetic, bit-packed levels by moving the bit position.
    pub(super) fn skip(&mut self, n: usize) -> Result<(), DecodeError> {
        match self {
            Levels::Rle(decoder) => decoder.skip(n),
            Levels::BitPacked { next, count, .. } => {
                if n > *count - *next {
                    return Err(too_few(*count - *next, n));
                }
                *next += n;
                Ok(())
            }
        }
    }

    /// Moves past the next `n` levels (fewer if the page ends), tallying how
    /// many equal `level` and the largest (see [`RleBpDecoder::skip_counting`]).
    pub(super) fn skip_counting(&mut self, n: usize, level: u32) -> Result<Tally, DecodeError> {
        match self {
            Levels::Rle(decoder) => decoder.skip_counting(n, level),
            Levels::BitPacked {
                data,
                width,
                next,
                count,
            } => {
                let skipped = n.min(*count - *next);
                let mut tally = Tally {
                    skipped,
                    ..Tally::default()
                };
                for i in *next..*next + skipped {
                    let l = level_at(data, i, *width);
                    tally.equal += usize::from(l == level);
                    tally.max = tally.max.max(l);
                }
                *next += skipped;
                Ok(tally)
            }
        }
    }
}

/// Level `index` of BIT_PACKED levels of `width <= 16` bits, LSB first
/// (see [`Levels::BitPacked`]).
fn level_at(data: &[u8], index: usize, width: u32) -> u32 {
    // `width <= 16`: the value fits a `u32`.
    bitpacked::read_lsb(data, index * width as usize, width) as u32
}

/// The open data page of a column reader.
#[derive(Debug)]
pub(super) struct DataPage<'p> {
    pub(super) left: usize,              // values (nulls included) not read yet
    pub(super) reps: Option<Levels<'p>>, // invariant: Some iff the column's max_rep > 0
    pub(super) defs: Option<Levels<'p>>, // invariant: Some iff the column's max_def > 0
    pub(super) values: Values<'p>,
}

impl DataPage<'_> {
    /// No page: every read must open one first.
    pub(super) fn empty() -> Self {
        DataPage {
            left: 0,
            reps: None,
            defs: None,
            values: Values::Empty,
        }
    }
}

/// Opens `page`: a data page is returned; a dictionary page is decoded into `dict`
/// and `None` is returned. `arena` is the page's slot for values that must be
/// rebuilt.
pub(super) fn open<'p, P: Physical>(
    page: &'p Page,
    arena: &'p OnceLock<Arena>,
    (max_levels, max_rebuilt): (MaxLevels, usize),
    shape: PlainShape,
    dict: &mut Option<Vec<P::Value<'p>>>,
) -> Result<Option<DataPage<'p>>, DecodeError> {
    let rebuilt = Rebuilt { arena, max_rebuilt };
    match page {
        Page::DictionaryPage {
            buf,
            num_values,
            encoding,
            ..
        } => {
            *dict = Some(dictionary::<P>(
                dict.is_some(),
                buf,
                *num_values,
                *encoding,
                shape,
            )?);
            Ok(None)
        }
        Page::DataPage {
            buf,
            num_values,
            encoding,
            def_level_encoding,
            rep_level_encoding,
            ..
        } => {
            let num_values = *num_values as usize;
            let (reps, rest) = v1_levels(
                buf,
                num_values,
                max_levels.rep,
                *rep_level_encoding,
                "repetition levels",
            )?;
            let (defs, rest) = v1_levels(
                rest,
                num_values,
                max_levels.def,
                *def_level_encoding,
                "definition levels",
            )?;
            Ok(Some(DataPage {
                left: num_values,
                reps,
                defs,
                values: values(*encoding, rest, num_values, shape, rebuilt, dict.is_some())?,
            }))
        }
        Page::DataPageV2 {
            buf,
            num_values,
            encoding,
            def_levels_byte_len,
            rep_levels_byte_len,
            ..
        } => {
            let rep_len = *rep_levels_byte_len as usize;
            let def_len = *def_levels_byte_len as usize;
            let levels_end = rep_len.saturating_add(def_len);
            if levels_end > buf.len() {
                return Err(DecodeError::oos(format!(
                    "levels take {levels_end} bytes but the page has {}",
                    buf.len()
                )));
            }
            let bytes: &'p [u8] = buf;
            let v2_levels = |section: &'p [u8], max: i16| -> Result<_, DecodeError> {
                if max == 0 {
                    return Ok(None);
                }
                let decoder = RleBpDecoder::new(section, level_bit_width(max))?;
                Ok(Some(Levels::Rle(decoder)))
            };
            let reps = v2_levels(&bytes[..rep_len], max_levels.rep)?;
            let defs = v2_levels(&bytes[rep_len..levels_end], max_levels.def)?;
            let num_values = *num_values as usize;
            Ok(Some(DataPage {
                left: num_values,
                reps,
                defs,
                values: values(
                    *encoding,
                    &bytes[levels_end..],
                    num_values,
                    shape,
                    rebuilt,
                    dict.is_some(),
                )?,
            }))
        }
    }
}

/// Decodes a dictionary page's values (`seen`: the chunk already had one).
fn dictionary<P: Physical>(
    seen: bool,
    buf: &[u8],
    num_values: u32,
    encoding: Encoding,
    shape: PlainShape,
) -> Result<Vec<P::Value<'_>>, DecodeError> {
    if !P::DICTIONARY {
        return Err(DecodeError::oos("a dictionary page in a BOOLEAN column"));
    }
    if !matches!(encoding, Encoding::PLAIN | Encoding::PLAIN_DICTIONARY) {
        return Err(DecodeError::Unsupported(format!(
            "dictionary page encoding {encoding}"
        )));
    }
    if seen {
        return Err(DecodeError::oos(
            "a second dictionary page in one column chunk",
        ));
    }
    let num_values = num_values as usize;
    // Every entry of a dictionary takes at least a byte (FIXED_LEN_BYTE_ARRAY(0)
    // is refused when the column is loaded), so the page's bytes bound how many
    // entries a header may claim before anything is allocated for them.
    if shape.fixed_len == Some(0) {
        return Err(DecodeError::oos(
            "a dictionary page in a FIXED_LEN_BYTE_ARRAY(0) column",
        ));
    }
    if num_values > buf.len() {
        return Err(DecodeError::oos(format!(
            "a dictionary page claims {num_values} entries in {} bytes",
            buf.len()
        )));
    }
    let mut values = Vec::new();
    P::read_plain(&mut PlainDecoder::new(buf), shape, num_values, &mut values)?;
    Ok(values)
}

/// Where a page's values rebuilt for borrowing go, and the most bytes
/// they may take.
#[derive(Clone, Copy)]
struct Rebuilt<'p> {
    arena: &'p OnceLock<Arena>,
    max_rebuilt: usize,
}

/// The maximum repetition and definition levels of a column.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct MaxLevels {
    pub(super) rep: i16,
    pub(super) def: i16,
}

/// Splits one section of levels (repetition or definition, `what`) off the
/// front of a v1 data page; none when `max` is 0 (the section is absent).
fn v1_levels<'a>(
    buf: &'a [u8],
    num_values: usize,
    max: i16,
    encoding: Encoding,
    what: &str,
) -> Result<(Option<Levels<'a>>, &'a [u8]), DecodeError> {
    if max == 0 {
        return Ok((None, buf));
    }
    let width = level_bit_width(max);
    match encoding {
        Encoding::RLE => {
            let (levels, rest) = length_prefixed(buf, what)?;
            Ok((Some(Levels::Rle(RleBpDecoder::new(levels, width)?)), rest))
        }
        // Deprecated, but parquet-mr 1.x and Impala wrote it.
        #[allow(deprecated)]
        Encoding::BIT_PACKED => {
            let len = num_values.saturating_mul(width as usize).div_ceil(8);
            if len > buf.len() {
                return Err(DecodeError::oos(format!(
                    "BIT_PACKED {what} need {len} bytes but the page has {}",
                    buf.len()
                )));
            }
            let (levels, rest) = buf.split_at(len);
            let levels = Levels::BitPacked {
                data: levels,
                width,
                next: 0,
                count: num_values,
            };
            Ok((Some(levels), rest))
        }
        other => Err(DecodeError::oos(format!("{what} encoded as {other}"))),
    }
}

/// The value decoder for a data page's values section of at most
/// `num_values` values: PLAIN and dictionary indices here, every other
/// encoding from the table ([`Encoded::open`]).
fn values<'p>(
    encoding: Encoding,
    data: &'p [u8],
    num_values: usize,
    shape: PlainShape,
    rebuilt: Rebuilt<'p>,
    has_dict: bool,
) -> Result<Values<'p>, DecodeError> {
    match encoding {
        Encoding::PLAIN => Ok(Values::Plain(PlainDecoder::new(data))),
        Encoding::PLAIN_DICTIONARY | Encoding::RLE_DICTIONARY => {
            if !has_dict {
                return Err(DecodeError::oos(
                    "a dictionary-encoded page without a dictionary page before it",
                ));
            }
            // An all-null page may have an empty values section: no bit width byte.
            match data.split_first() {
                Some((&width, indices)) => Ok(Values::Dictionary(RleBpDecoder::new(
                    indices,
                    u32::from(width),
                )?)),
                None => Ok(Values::Empty),
            }
        }
        other => {
            let section = Section {
                data,
                num_values,
                fixed_len: shape.fixed_len,
                arena: rebuilt.arena,
                max_rebuilt: rebuilt.max_rebuilt,
            };
            match Encoded::open(other, shape.physical, section)? {
                Some(decoder) => Ok(Values::Encoded(decoder)),
                None => Err(DecodeError::Unsupported(format!(
                    "{other} encoding of {} values is not supported",
                    shape.physical
                ))),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::encoding::rle_bp::encode::encode;
    use crate::encoding::testing::Rng;

    /// `levels` bit-packed in parquet-format's BIT_PACKED order: MSB first.
    fn msb_packed(levels: &[u32], width: u32) -> Vec<u8> {
        let mut out = vec![0u8; (levels.len() * width as usize).div_ceil(8)];
        for (i, &level) in levels.iter().enumerate() {
            for b in 0..width as usize {
                if level >> (width as usize - 1 - b) & 1 == 1 {
                    let bit = i * width as usize + b;
                    out[bit / 8] |= 0x80 >> (bit % 8);
                }
            }
        }
        out
    }

    /// `levels` bit-packed LSB first, as Impala wrote BIT_PACKED levels (and
    /// as a bit-packed run of the hybrid is).
    fn lsb_packed(levels: &[u32], width: u32) -> Vec<u8> {
        let mut out = vec![0u8; (levels.len() * width as usize).div_ceil(8)];
        for (i, &level) in levels.iter().enumerate() {
            for b in 0..width as usize {
                if level >> b & 1 == 1 {
                    let bit = i * width as usize + b;
                    out[bit / 8] |= 1 << (bit % 8);
                }
            }
        }
        out
    }

    fn bit_packed(data: &[u8], width: u32, count: usize) -> Vec<u32> {
        let mut levels = Levels::BitPacked {
            data,
            width,
            next: 0,
            count,
        };
        let mut out = vec![u32::MAX; count];
        assert_eq!(levels.get_batch(&mut out).unwrap(), count);
        out
    }

    #[test]
    fn bit_packed_levels_are_read_lsb_first_as_pyarrow_reads_them() {
        // Impala's order: definition level 1 at rows 0, 3 and 9;
        // bits 0 and 3 of byte 0, bit 1 of byte 1.
        let data = [0b0000_1001, 0b0000_0010];
        assert_eq!(
            bit_packed(&data, 1, 10),
            [1, 0, 0, 1, 0, 0, 0, 0, 0, 1],
            "LSB first"
        );
        // Width 2, the hybrid's order: 3, 0, 2, 1 in one byte, 0b01_10_00_11.
        assert_eq!(bit_packed(&[0b0110_0011], 2, 4), [3, 0, 2, 1]);
        // The spec's MSB-first order comes out mirrored inside each byte, as
        // pyarrow reads it too: the same rows in MSB order.
        let spec = msb_packed(&[1, 0, 0, 1, 0, 0, 0, 0, 0, 1], 1);
        assert_eq!(spec, [0b1001_0000, 0b0100_0000]);
        assert_eq!(bit_packed(&spec, 1, 10), [0, 0, 0, 0, 1, 0, 0, 1, 0, 0]);
        // parquet-format's example (0..=7, width 3, MSB first) is not what
        // we read; its LSB-first packing is.
        let spec = [0b0000_0101, 0b0011_1001, 0b0111_0111];
        assert_ne!(bit_packed(&spec, 3, 8), (0..8).collect::<Vec<_>>());
        let lsb = lsb_packed(&(0..8).collect::<Vec<_>>(), 3);
        assert_eq!(lsb, [0b1000_1000, 0b1100_0110, 0b1111_1010]);
        assert_eq!(bit_packed(&lsb, 3, 8), (0..8).collect::<Vec<_>>());
    }

    #[test]
    fn level_skips_tally_what_a_decode_reads() {
        let mut rng = Rng::new(12);
        for width in [1u32, 2, 3] {
            let max = (1 << width) - 1;
            let levels: Vec<u32> = (0..2000)
                .map(|i| match (i / 300) % 3 {
                    0 => max,
                    _ if rng.below(3) == 0 => rng.below(max as usize + 1) as u32,
                    _ => max,
                })
                .collect();
            let packed = lsb_packed(&levels, width);
            let mut runs = Vec::new();
            encode(&levels, width, &mut runs);
            let bit_packed = Levels::BitPacked {
                data: &packed,
                width,
                next: 0,
                count: levels.len(),
            };
            let rle = Levels::Rle(RleBpDecoder::new(&runs, width).unwrap());
            for mut decoder in [bit_packed, rle] {
                let mut at = 0;
                while at < levels.len() {
                    let k = rng.below(150).min(levels.len() - at);
                    let seen = &levels[at..at + k];
                    match rng.below(3) {
                        0 => {
                            let tally = decoder.skip_counting(k, max).unwrap();
                            assert_eq!(tally.skipped, k);
                            assert_eq!(tally.equal, seen.iter().filter(|&&l| l == max).count());
                            assert_eq!(tally.max, seen.iter().copied().max().unwrap_or(0));
                        }
                        1 => decoder.skip(k).unwrap(),
                        _ => {
                            let mut out = vec![0; k];
                            assert_eq!(decoder.get_batch(&mut out).unwrap(), k);
                            assert_eq!(out, seen, "width {width} at {at}");
                        }
                    }
                    at += k;
                }
            }
            // BIT_PACKED knows its count: past it, skips fail or tally nothing.
            let mut past = Levels::BitPacked {
                data: &packed,
                width,
                next: levels.len() - 1,
                count: levels.len(),
            };
            assert!(past.skip(2).is_err());
            assert_eq!(past.skip_counting(5, max).unwrap().skipped, 1);
            assert_eq!(past.skip_counting(5, max).unwrap().skipped, 0);
        }
    }
}
