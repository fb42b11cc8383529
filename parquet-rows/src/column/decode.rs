//! How the values a page's decoder yields become a field's values: as they
//! are, converted one by one, copied out of a rebuilt byte array, converted
//! once per dictionary entry and shared, or as `Bytes` views of the page.
//!
//! Each is a [`Decode`] the read path of [`ColumnReader`] is generic over,
//! so the compiler makes one loop per field type, with no branch on the
//! variation per value.

use super::page::Values;
use super::{ColumnContext, ColumnReader};
use crate::encoding::delta_byte_array::Incremental;
use crate::encoding::dictionary::DictionaryDecoder;
use crate::encoding::{Mapped, ValueDecoder};
use crate::error::{DecodeError, Result};
use crate::out::{Converted, ValueOut};
use crate::physical::{ByteArray, Physical};

/// Puts the values of a stretch of non-null rows of the current page into
/// a destination, as the field's type. `S` is the type of the reader's
/// converted dictionary (see [`Shared`]).
pub(crate) trait Decode<'p, P: Physical, S> {
    /// The field's type (without its `Option`).
    type Value;
    /// Puts the next `k` values of the current page (all non-null) into `out`.
    fn dense(
        &mut self,
        reader: &mut ColumnReader<'p, P, S>,
        k: usize,
        out: &mut impl ValueOut<Self::Value>,
    ) -> Result<()>;
}

/// The values as the physical type makes them (`i64`, `&'p str`): from the
/// page straight into the destination.
pub(crate) struct Identity;

impl<'p, P: Physical, S> Decode<'p, P, S> for Identity {
    type Value = P::Value<'p>;
    #[inline]
    fn dense(
        &mut self,
        reader: &mut ColumnReader<'p, P, S>,
        k: usize,
        out: &mut impl ValueOut<P::Value<'p>>,
    ) -> Result<()> {
        reader.read_dense(k, out)
    }
}

/// Each value through a conversion that may fail (`i8` from INT32, a
/// `Timestamp` with the column's unit), on its way from the decoder into the
/// destination: no buffer of the decoded values. The first failure is the
/// error of the read.
pub(crate) struct Convert<F>(pub(crate) F);

impl<'p, P: Physical, S, T, F> Decode<'p, P, S> for Convert<F>
where
    F: Fn(P::Value<'p>, &ColumnContext) -> Result<T, String>,
{
    type Value = T;
    #[inline]
    fn dense(
        &mut self,
        reader: &mut ColumnReader<'p, P, S>,
        k: usize,
        out: &mut impl ValueOut<T>,
    ) -> Result<()> {
        let context = reader.context;
        let convert = &self.0;
        let mut converted = Converted::new(out, |v| convert(v, &context));
        reader.read_dense(k, &mut converted)?;
        match converted.into_error() {
            Some(message) => Err(reader.err(DecodeError::Value(message))),
            None => Ok(()),
        }
    }
}

/// [`Convert`] for a type that copies each value (`String`, `Vec<u8>`):
/// `copy` makes it from a value's bytes.
///
/// DELTA_BYTE_ARRAY pages are then rebuilt one value at a time into a small
/// buffer that `copy` reads (`Incremental::next_text`), not into an arena as
/// large as the page's values. Borrowed fields need that arena to outlive
/// the page; a copy does not, and the arena costs an allocation, a write and
/// a read of every rebuilt byte, and memory for as long as the pages are held.
pub(crate) struct Copied<F, C> {
    convert: F, // for the values of other pages
    copy: C,    // makes a value from the rebuilt bytes of one
}

impl<F, C> Copied<F, C> {
    /// Values made by `convert`, or by `copy` from DELTA_BYTE_ARRAY pages.
    pub(crate) fn new<'p, V, T>(convert: F, copy: C) -> Self
    where
        F: Fn(V, &ColumnContext) -> Result<T, String>,
        C: Fn(&mut Incremental<'p>) -> Result<T, DecodeError>,
    {
        Copied { convert, copy }
    }
}

impl<'p, P: Physical, S, T, F, C> Decode<'p, P, S> for Copied<F, C>
where
    F: Fn(P::Value<'p>, &ColumnContext) -> Result<T, String>,
    C: Fn(&mut Incremental<'p>) -> Result<T, DecodeError>,
{
    type Value = T;
    #[inline]
    fn dense(
        &mut self,
        reader: &mut ColumnReader<'p, P, S>,
        k: usize,
        out: &mut impl ValueOut<T>,
    ) -> Result<()> {
        let Some(values) = reader.page.values.streaming() else {
            return Convert(&self.convert).dense(reader, k, out);
        };
        let mut error = None;
        out.put_all((0..k).map_while(|_| match (self.copy)(values) {
            Ok(value) => Some(value),
            Err(e) => {
                error = Some(e);
                None
            }
        }));
        match error {
            Some(e) => Err(reader.err(e)),
            None => Ok(()),
        }
    }
}

/// [`Convert`] where each dictionary entry is converted once per column
/// chunk, into the reader's converted dictionary, and cloned per value: an
/// `Arc<str>` column makes one allocation per dictionary entry, not per row
/// (one per value for pages that are not dictionary-encoded).
pub(crate) struct Shared<F>(pub(crate) F);

impl<'p, P: Physical, T: Clone, F> Decode<'p, P, T> for Shared<F>
where
    F: Fn(P::Value<'p>, &ColumnContext) -> Result<T, String>,
{
    type Value = T;
    fn dense(
        &mut self,
        reader: &mut ColumnReader<'p, P, T>,
        k: usize,
        out: &mut impl ValueOut<T>,
    ) -> Result<()> {
        if k == 0 || !matches!(reader.page.values, Values::Dictionary(_)) {
            return Convert(&self.0).dense(reader, k, out);
        }
        if reader.shared.is_none() {
            let dict = reader.dict.as_deref().unwrap_or(&[]);
            let converted: Result<Vec<T>, String> =
                dict.iter().map(|&v| (self.0)(v, &reader.context)).collect();
            let converted = converted.map_err(|m| reader.err(DecodeError::Value(m)))?;
            reader.shared = Some(converted);
        }
        let (Values::Dictionary(indices), Some(dict)) =
            (&mut reader.page.values, reader.shared.as_deref())
        else {
            return Ok(()); // both checked above
        };
        let result = DictionaryDecoder { indices, dict }.decode(k, out);
        result.map_err(|e| reader.err(e))
    }
}

/// `bytes::Bytes` views of the page buffers the byte arrays lie in (the
/// current data page or the dictionary page); a value that lies elsewhere (a
/// rebuilt DELTA_BYTE_ARRAY value) is copied.
pub(crate) struct ShareBytes;

impl<'p, S> Decode<'p, ByteArray, S> for ShareBytes {
    type Value = bytes::Bytes;
    fn dense(
        &mut self,
        reader: &mut ColumnReader<'p, ByteArray, S>,
        k: usize,
        out: &mut impl ValueOut<bytes::Bytes>,
    ) -> Result<()> {
        let holders = [reader.next_page.checked_sub(1), reader.dict_page]
            .map(|page| page.and_then(|page| reader.column.pages.get(page)?.opened()));
        let holders = holders.map(|page| page.map(|page| page.buffer().clone()));
        reader.read_dense(k, &mut Mapped(out, |slice: &[u8]| share(&holders, slice)))
    }
}

/// `slice` as `Bytes`: a view of the one of `holders` that holds it, or a copy.
fn share(holders: &[Option<bytes::Bytes>; 2], slice: &[u8]) -> bytes::Bytes {
    for buf in holders.iter().flatten() {
        let range = buf.as_ptr_range();
        if slice.is_empty()
            || range.contains(&slice.as_ptr()) && slice.as_ptr_range().end <= range.end
        {
            return buf.slice_ref(slice);
        }
    }
    bytes::Bytes::copy_from_slice(slice)
}
