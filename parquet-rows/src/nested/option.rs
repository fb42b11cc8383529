//! `Option<T>`: `None` when the node is not defined.

use super::{Assembled, Bound, ListElement, ParquetNode, Shape};
use crate::error::Result;
use crate::group::RowGroup;

/// The cursor of an `Option<T>` node.
#[doc(hidden)]
#[derive(Debug)]
pub struct OptionCursor<C> {
    inner: C,
    defined: u32, // the definition level at which the node is not null
}

impl<'p, T: ParquetNode<'p>> ParquetNode<'p> for Option<T> {
    fn shape() -> Shape {
        Shape::Option(Box::new(T::shape()))
    }
    fn placeholder() -> Self {
        None
    }

    // A top-level `Option<T>`: the flat batch path for leaf types.
    type Reader = T::OptionReader;
    fn reader(row_group: &RowGroup<'_, 'p>, bound: &Bound) -> Result<Self::Reader> {
        T::option_reader(row_group, bound)
    }

    // `Option<Option<T>>` never binds (it is a schema error); the type is
    // still needed.
    type OptionReader = Assembled<'p, Option<Self>>;
    fn option_reader(row_group: &RowGroup<'_, 'p>, bound: &Bound) -> Result<Self::OptionReader> {
        Assembled::new(row_group, bound)
    }

    type Cursor = OptionCursor<T::Cursor>;
    fn cursor(row_group: &RowGroup<'_, 'p>, bound: &Bound) -> Result<Self::Cursor> {
        Ok(OptionCursor {
            inner: T::cursor(row_group, bound.child(0)?)?,
            defined: bound.def,
        })
    }
    #[inline]
    fn def(cursor: &mut Self::Cursor) -> Result<u32> {
        T::def(&mut cursor.inner)
    }
    #[inline]
    fn rep(cursor: &mut Self::Cursor) -> Result<Option<u32>> {
        T::rep(&mut cursor.inner)
    }
    fn skip(cursor: &mut Self::Cursor) -> Result<()> {
        T::skip(&mut cursor.inner)
    }
    #[inline]
    fn next(cursor: &mut Self::Cursor) -> Result<Self> {
        if T::def(&mut cursor.inner)? < cursor.defined {
            T::skip(&mut cursor.inner)?;
            Ok(None)
        } else {
            T::next(&mut cursor.inner).map(Some)
        }
    }
    fn skip_records(cursor: &mut Self::Cursor, n: usize) -> Result<()> {
        T::skip_records(&mut cursor.inner, n)
    }
    fn finish(cursor: &mut Self::Cursor) -> Result<()> {
        T::finish(&mut cursor.inner)
    }
}

impl<T> ListElement for Option<T> {}
