//! `Vec<T>`: a list, element by element while the repetition level says
//! "same list".

use super::{Assembled, Bound, ListElement, ParquetNode, Shape};
use crate::error::{Error, Location, Result};
use crate::group::RowGroup;

/// The cursor of a list node (also used by maps, as a list of pairs).
#[doc(hidden)]
#[derive(Debug)]
pub struct ListCursor<C> {
    elements: C,
    defined: u32,  // definition level of the repeated node: below it, the list is empty
    repeated: u32, // repetition level of the repeated node: "next element of this list"
    location: Location, // the list's first column, for errors
    // Elements assembled so far in this row group, and the most the output
    // limit allows: a page of a few bytes can hold one RLE run of 2^31
    // levels, so the lists' sizes are bounded as they grow, not beforehand.
    produced: usize,
    budget: usize,
    element_bytes: usize,
    most: usize, // `ReadOptions::max_list_elements`: elements of one list
}

impl<C> ListCursor<C> {
    pub(super) fn open<'p, T: ParquetNode<'p, Cursor = C>>(
        row_group: &RowGroup<'_, 'p>,
        bound: &Bound,
    ) -> Result<Self> {
        Ok(ListCursor {
            elements: T::cursor(row_group, bound.child(0)?)?,
            defined: bound.def,
            repeated: bound.rep,
            location: row_group.location(bound.leaf),
            produced: 0,
            budget: row_group.output_bytes() / std::mem::size_of::<T>().max(1),
            element_bytes: std::mem::size_of::<T>(),
            most: row_group.list_elements(),
        })
    }

    /// Assembles the next list, handing each element to `push`.
    pub(super) fn next_with<'p, T: ParquetNode<'p, Cursor = C>>(
        &mut self,
        mut push: impl FnMut(T),
    ) -> Result<()> {
        if T::def(&mut self.elements)? < self.defined {
            return T::skip(&mut self.elements);
        }
        let mut elements = 0usize;
        loop {
            self.produced += 1;
            elements += 1;
            if self.produced > self.budget {
                return Err(self.over_budget());
            }
            if elements > self.most {
                return Err(self.too_long());
            }
            push(T::next(&mut self.elements)?);
            match T::rep(&mut self.elements)? {
                Some(rep) if rep == self.repeated => {}
                Some(rep) if rep > self.repeated => {
                    return Err(Error::OutOfSpec {
                        location: self.location.clone(),
                        message: format!(
                        "repetition level {rep} after a list element, where at most {} can follow",
                        self.repeated
                    ),
                    })
                }
                _ => return Ok(()),
            }
        }
    }
}

impl<C> ListCursor<C> {
    #[cold]
    fn too_long(&self) -> Error {
        Error::Limit {
            location: self.location.clone(),
            message: format!(
                "a list holds more than {} elements in one row, more than `max_list_elements` \
                 allows (its repetition levels may never end the row); raise it with \
                 `ReadOptions::max_list_elements`",
                self.most
            ),
        }
    }

    #[cold]
    fn over_budget(&self) -> Error {
        Error::Limit {
            location: self.location.clone(),
            message: format!(
                "the lists of this row group hold more than {} elements of {} bytes, more than \
                 `max_output_bytes` allows; read into a struct without this list, or raise it \
                 with `ReadOptions::max_output_bytes`",
                self.budget, self.element_bytes
            ),
        }
    }
}

impl<'p, T: ParquetNode<'p> + ListElement> ParquetNode<'p> for Vec<T> {
    fn shape() -> Shape {
        Shape::List(Box::new(T::shape()))
    }
    fn placeholder() -> Self {
        Vec::new()
    }
    type Reader = Assembled<'p, Self>;
    fn reader(row_group: &RowGroup<'_, 'p>, bound: &Bound) -> Result<Self::Reader> {
        Assembled::new(row_group, bound)
    }
    type OptionReader = Assembled<'p, Option<Self>>;
    fn option_reader(row_group: &RowGroup<'_, 'p>, bound: &Bound) -> Result<Self::OptionReader> {
        Assembled::new(row_group, bound)
    }
    type Cursor = ListCursor<T::Cursor>;
    fn cursor(row_group: &RowGroup<'_, 'p>, bound: &Bound) -> Result<Self::Cursor> {
        ListCursor::open::<T>(row_group, bound)
    }
    #[inline]
    fn def(cursor: &mut Self::Cursor) -> Result<u32> {
        T::def(&mut cursor.elements)
    }
    #[inline]
    fn rep(cursor: &mut Self::Cursor) -> Result<Option<u32>> {
        T::rep(&mut cursor.elements)
    }
    fn skip(cursor: &mut Self::Cursor) -> Result<()> {
        T::skip(&mut cursor.elements)
    }
    fn next(cursor: &mut Self::Cursor) -> Result<Self> {
        let mut list = Vec::new();
        cursor.next_with::<T>(|element| list.push(element))?;
        Ok(list)
    }
    fn skip_records(cursor: &mut Self::Cursor, n: usize) -> Result<()> {
        T::skip_records(&mut cursor.elements, n)
    }
    fn finish(cursor: &mut Self::Cursor) -> Result<()> {
        T::finish(&mut cursor.elements)
    }
}

impl<T: ListElement> ListElement for Vec<T> {}
