//! Opening one page: splitting it into definition levels and values.
//!
//! Layouts (<https://github.com/apache/parquet-format/blob/master/README.md#data-pages>):
//!
//! ```text
//! DATA_PAGE (v1):    [rep levels] [def levels] values      levels: 4-byte LE length + RLE hybrid
//! DATA_PAGE_V2:      rep levels   def levels   values      levels: RLE hybrid, lengths in the header,
//!                                                          never compressed
//! DICTIONARY_PAGE:   PLAIN values
//! ```
//!
//! Flat columns have no repetition levels, and definition levels only when OPTIONAL.

use parquet::basic::Encoding;
use parquet::column::page::Page;

use super::level_bit_width;
use crate::encoding::plain::PlainDecoder;
use crate::encoding::rle_bp::RleBpDecoder;
use crate::error::DecodeError;
use crate::physical::{Physical, PlainShape};

/// Where the non-null values of a data page come from.
#[derive(Debug)]
pub(super) enum Values<'p> {
    /// No values section (no page open yet).
    Empty,
    /// PLAIN values.
    Plain(PlainDecoder<'p>),
    /// Dictionary indices (PLAIN_DICTIONARY / RLE_DICTIONARY).
    Dictionary(RleBpDecoder<'p>),
}

/// The open data page of a column reader.
#[derive(Debug)]
pub(super) struct DataPage<'p> {
    pub(super) left: usize, // values (nulls included) not read yet
    pub(super) defs: Option<RleBpDecoder<'p>>, // invariant: Some iff the column's max_def > 0
    pub(super) values: Values<'p>,
}

impl DataPage<'_> {
    /// No page: every read must open one first.
    pub(super) fn empty() -> Self {
        DataPage {
            left: 0,
            defs: None,
            values: Values::Empty,
        }
    }
}

/// Opens `page`: a data page is returned; a dictionary page is decoded into `dict`
/// and `None` is returned.
pub(super) fn open<'p, P: Physical>(
    page: &'p Page,
    max_def: i16,
    shape: PlainShape,
    dict: &mut Option<Vec<P::Value<'p>>>,
) -> Result<Option<DataPage<'p>>, DecodeError> {
    match page {
        Page::DictionaryPage {
            buf,
            num_values,
            encoding,
            ..
        } => {
            if !P::DICTIONARY {
                return Err(DecodeError::oos("a dictionary page in a BOOLEAN column"));
            }
            if !matches!(encoding, Encoding::PLAIN | Encoding::PLAIN_DICTIONARY) {
                return Err(DecodeError::Unsupported(format!(
                    "dictionary page encoding {encoding}"
                )));
            }
            if dict.is_some() {
                return Err(DecodeError::oos(
                    "a second dictionary page in one column chunk",
                ));
            }
            let mut values = Vec::new();
            P::read_plain(
                &mut PlainDecoder::new(buf),
                shape,
                *num_values as usize,
                &mut values,
            )?;
            *dict = Some(values);
            Ok(None)
        }
        Page::DataPage {
            buf,
            num_values,
            encoding,
            def_level_encoding,
            ..
        } => {
            let mut rest: &'p [u8] = buf;
            let defs = if max_def > 0 {
                if *def_level_encoding != Encoding::RLE {
                    return Err(DecodeError::Unsupported(format!(
                        "definition levels encoded as {def_level_encoding}"
                    )));
                }
                let (levels, after) = length_prefixed(rest)?;
                rest = after;
                Some(RleBpDecoder::new(levels, level_bit_width(max_def))?)
            } else {
                None
            };
            Ok(Some(DataPage {
                left: *num_values as usize,
                defs,
                values: values::<P>(*encoding, rest, dict.is_some())?,
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
            let defs = if max_def > 0 {
                Some(RleBpDecoder::new(
                    &bytes[rep_len..levels_end],
                    level_bit_width(max_def),
                )?)
            } else {
                None
            };
            Ok(Some(DataPage {
                left: *num_values as usize,
                defs,
                values: values::<P>(*encoding, &bytes[levels_end..], dict.is_some())?,
            }))
        }
    }
}

/// Splits a 4-byte little-endian length prefix and the bytes it covers off `data`.
fn length_prefixed(data: &[u8]) -> Result<(&[u8], &[u8]), DecodeError> {
    let Some((len, rest)) = data.split_first_chunk::<4>() else {
        return Err(DecodeError::oos(
            "the page ends inside a level length prefix",
        ));
    };
    let len = u32::from_le_bytes(*len) as usize;
    if len > rest.len() {
        return Err(DecodeError::oos(format!(
            "levels claim {len} bytes but the page has {} left",
            rest.len()
        )));
    }
    Ok(rest.split_at(len))
}

/// The value decoder for a data page's values section.
fn values<P: Physical>(
    encoding: Encoding,
    data: &[u8],
    has_dict: bool,
) -> Result<Values<'_>, DecodeError> {
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
        other => Err(DecodeError::Unsupported(format!(
            "{other} encoding is not supported yet ({} values)",
            std::any::type_name::<P>().rsplit("::").next().unwrap_or("")
        ))),
    }
}
