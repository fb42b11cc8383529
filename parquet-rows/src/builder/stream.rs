//! The streaming endings of a local read: [`RowStream`] (one row at a
//! time) and [`Batches`] (one `Vec` per row group), each holding one row
//! group's rows at a time.

use crate::bind::Binding;
use crate::error::Result;
use crate::file::ParquetFile;
use crate::filter::plan::GroupWindows;
use crate::filter::{FilterOf, Selection, Window};
use crate::row::OwnedRow;

/// A file a stream reads: the caller's, or a narrowing of it (row groups,
/// options) made by a builder, which the stream then owns.
#[derive(Debug)]
pub(crate) enum Held<'f> {
    Borrowed(&'f ParquetFile),
    Owned(Box<ParquetFile>),
}

impl std::ops::Deref for Held<'_> {
    type Target = ParquetFile;

    fn deref(&self) -> &ParquetFile {
        match self {
            Held::Borrowed(file) => file,
            Held::Owned(file) => file,
        }
    }
}

/// The owned rows of a read, one at a time, made by
/// [`RowsBuilder::stream`](super::RowsBuilder::stream): one row group's
/// rows are in memory at once, and each row group is planned, read and
/// decoded when the iterator reaches it, on the calling thread.
///
/// After an error it returns `None`.
#[derive(Debug)]
pub struct RowStream<'f, T> {
    file: Held<'f>,
    binding: Binding,
    selection: Selection,
    window: Window,                // what is left of the query's offset and limit
    groups: Vec<usize>,            // the row groups to read, by index in the footer
    windows: Option<GroupWindows>, // per entry of `groups`: the rows a positional window keeps
    next: usize,                   // the next entry of `groups` to read; invariant: <= groups.len()
    buffer: std::vec::IntoIter<T>, // the current row group's matching rows
    failed: bool,                  // an error was returned: the iterator is done
}

impl<'f, T: OwnedRow> RowStream<'f, T> {
    /// The stream of the rows of `selection` read from `file`.
    pub(crate) fn new(file: Held<'f>, selection: Selection) -> Result<Self> {
        let binding = file.bind::<T>()?;
        let (selection, groups) =
            match selection.for_partitions::<FilterOf<T>>(file.partitions())? {
                Some(selection) => (selection, file.group_list()),
                None => (selection, Vec::new()), // no row of the file can match
            };
        let (windows, selection) = file.windows(&selection, &groups)?;
        Ok(RowStream {
            file,
            binding,
            window: Window::of(&selection),
            selection,
            groups,
            windows,
            next: 0,
            buffer: Vec::new().into_iter(),
            failed: false,
        })
    }

    /// The matching rows of the next row group that has any, or `None` at
    /// the end (or when the limit is reached).
    fn next_group(&mut self) -> Result<Option<Vec<T>>> {
        while self.next < self.groups.len() && !self.window.full() {
            let (index, within) = (
                self.groups[self.next],
                self.windows.as_ref().map(|w| w[self.next].clone()),
            );
            self.next += 1;
            let rows = self.file.read_group(
                index,
                within,
                &self.binding,
                &self.selection,
                &mut self.window,
            )?;
            if !rows.is_empty() {
                return Ok(Some(rows));
            }
        }
        Ok(None)
    }

    /// The rows of the next row group that holds any; `None` at the end
    /// and after an error.
    fn next_batch(&mut self) -> Option<Result<Vec<T>>> {
        if self.failed {
            return None;
        }
        match self.next_group() {
            Ok(rows) => rows.map(Ok),
            Err(e) => {
                self.failed = true;
                Some(Err(e))
            }
        }
    }
}

impl<T: OwnedRow> Iterator for RowStream<'_, T> {
    type Item = Result<T>;

    fn next(&mut self) -> Option<Self::Item> {
        loop {
            if let Some(row) = self.buffer.next() {
                return Some(Ok(row));
            }
            match self.next_batch()? {
                Ok(rows) => self.buffer = rows.into_iter(),
                Err(e) => return Some(Err(e)),
            }
        }
    }
}

/// The owned rows of a read, one `Vec` per row group that holds any, made
/// by [`RowsBuilder::batches`](super::RowsBuilder::batches): each row group
/// is planned, read and decoded when the iterator reaches it, on the
/// calling thread.
///
/// After an error it returns `None`.
#[derive(Debug)]
pub struct Batches<'f, T>(pub(crate) RowStream<'f, T>);

impl<T: OwnedRow> Iterator for Batches<'_, T> {
    type Item = Result<Vec<T>>;

    fn next(&mut self) -> Option<Self::Item> {
        self.0.next_batch()
    }
}
