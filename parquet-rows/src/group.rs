//! A loaded row group: its column chunks' pages ([`LoadedRowGroup`]), and the
//! view of it the derive-generated decoder reads rows from ([`RowGroup`]).

use std::ops::Range;

use crate::chunk::{LoadedColumn, LoadedPage};
use crate::column::ColumnReader;
use crate::error::{Error, Location, Result};
use crate::options::ReadOptions;
use crate::partition::Partitions;
use crate::physical::Physical;
use crate::shape::Bound;

/// One row group's loaded column chunks.
#[derive(Debug)]
pub(crate) struct LoadedRowGroup {
    pub(crate) index: usize,               // row group index in the file
    pub(crate) num_rows: usize, // rows loaded: the row group's, or those a query selected
    pub(crate) columns: Vec<LoadedColumn>, // sorted by `leaf`, no duplicates
}

impl LoadedRowGroup {
    /// Bytes held by the given leaves' pages.
    pub(crate) fn bytes(&self, leaves: &[usize]) -> usize {
        self.columns
            .iter()
            .filter(|c| leaves.contains(&c.leaf))
            .flat_map(|c| &c.pages)
            .map(LoadedPage::len)
            .sum()
    }

    /// Decompresses every page not yet decompressed on rayon's pool, a task
    /// per page. A page that fails keeps its error for the decode that
    /// opens it.
    #[cfg(feature = "rayon")]
    pub(crate) fn open_on_pool(&self) {
        use rayon::prelude::*;
        let pages: Vec<&LoadedPage> = self.columns.iter().flat_map(|c| &c.pages).collect();
        pages.par_iter().with_max_len(1).for_each(|page| {
            let _ = page.open();
        });
    }

    /// The most rows the given leaves' data pages can hold: every row has at
    /// least one value (or null) in each column, so no more rows than the
    /// smallest sum of a column's page headers' value counts.
    pub(crate) fn values(&self, leaves: &[usize]) -> usize {
        self.columns
            .iter()
            .filter(|c| leaves.contains(&c.leaf))
            .map(|c| {
                c.pages
                    .iter()
                    .filter(|p| p.is_data_page())
                    .fold(0usize, |sum, p| sum.saturating_add(p.num_values() as usize))
            })
            .min()
            .unwrap_or(usize::MAX)
    }
}

/// One loaded row group as the derive-generated decoder sees it.
#[doc(hidden)]
#[derive(Debug)]
pub struct RowGroup<'a, 'p> {
    pub(crate) group: &'p LoadedRowGroup,
    pub(crate) fields: &'a [Bound], // per field of the row struct, in field order
    pub(crate) partitions: &'a Partitions, // the file's partition values
    pub(crate) options: ReadOptions, // its limits bound lists too (`max_output_bytes`, `max_list_elements`)
    pub(crate) rows: Range<usize>, // invariant: within `0..group.num_rows`; the loaded rows to decode
    runs: Option<&'a [(usize, usize)]>, // invariant: covers `rows`; rows to skip and decode in turn (`None`: decode all)
    whole: [(usize, usize); 1],         // the one run of `rows` when `runs` is `None`
}

impl<'a, 'p> RowGroup<'a, 'p> {
    /// Rows `rows` (within the loaded ones) of `group`, every one decoded.
    pub(crate) fn new(
        group: &'p LoadedRowGroup,
        fields: &'a [Bound],
        partitions: &'a Partitions,
        options: ReadOptions,
        rows: Range<usize>,
    ) -> Self {
        RowGroup {
            group,
            fields,
            partitions,
            options,
            whole: [(0, rows.len())],
            rows,
            runs: None,
        }
    }

    /// The loaded rows of `group`, skipping and decoding them as `runs`
    /// says (pairs of rows to skip, rows to decode, covering them all).
    pub(crate) fn selected(
        group: &'p LoadedRowGroup,
        fields: &'a [Bound],
        partitions: &'a Partitions,
        options: ReadOptions,
        runs: &'a [(usize, usize)],
    ) -> Self {
        RowGroup {
            runs: Some(runs),
            ..RowGroup::new(group, fields, partitions, options, 0..group.num_rows)
        }
    }
}

impl<'p> RowGroup<'_, 'p> {
    /// The partition values of the file the row group is from.
    pub fn partitions(&self) -> &Partitions {
        self.partitions
    }

    /// Rows the decoder moves through (decoded or skipped): the row group's,
    /// or a range of them (parallel readers).
    pub fn num_rows(&self) -> usize {
        self.rows.len()
    }

    /// The rows to decode, in turn with those to skip: pairs of (rows to
    /// skip, rows to decode) covering [`RowGroup::num_rows`] rows. One pair
    /// `(0, num_rows)` unless a query's predicates were tested first
    /// (`pages::select`).
    pub fn runs(&self) -> &[(usize, usize)] {
        self.runs.unwrap_or(&self.whole)
    }

    /// The row of the row group (in the file, not among the rows loaded)
    /// where this view's rows start: the first row loaded (a page index may
    /// have left out the pages before it) plus the view's start among the
    /// loaded rows (a parallel reader's range).
    pub(crate) fn first_row(&self) -> usize {
        // Every column of a row group is loaded for the same rows; its
        // first loaded page starts `leading` rows before them.
        let loaded = self
            .group
            .columns
            .first()
            .map_or(0, |c| c.numbering.first_row.saturating_add(c.leading));
        loaded.saturating_add(self.rows.start)
    }

    /// The binding of field number `field` (in `ParquetRow::fields` order).
    pub fn field(&self, field: usize) -> Result<&Bound> {
        self.fields.get(field).ok_or_else(|| Error::Unsupported {
            location: Location::default(),
            message: format!("field number {field} was not bound"),
        })
    }

    /// Rows of field `field`'s loaded pages before the rows to decode, to
    /// be skipped: those of its first page before the rows a query loaded,
    /// and those of the loaded rows before a parallel reader's range.
    pub fn leading(&self, field: usize) -> Result<usize> {
        let before = self.rows.start;
        Ok(self
            .sliced(field)?
            .map_or(before, |c| c.leading.saturating_add(before)))
    }

    /// Rows of field `field`'s loaded pages after the rows to decode.
    pub fn trailing(&self, field: usize) -> Result<usize> {
        let after = self.group.num_rows - self.rows.end;
        Ok(self
            .sliced(field)?
            .map_or(after, |c| c.trailing.saturating_add(after)))
    }

    /// The first column of a field, whose rows before and after the loaded
    /// ones are the field's: a page index narrows only structs whose fields
    /// each read one column, and without one every column of the row group
    /// is loaded whole, its `leading` and `trailing` the plan's.
    /// `None` for a field reading no column (a partition field).
    fn sliced(&self, field: usize) -> Result<Option<&'p LoadedColumn>> {
        let bound = self.field(field)?;
        let mut leaves = Vec::new();
        bound.leaves(&mut leaves);
        match leaves.first() {
            Some(&leaf) => self.loaded(leaf).map(Some),
            None => Ok(None),
        }
    }

    /// The loaded chunk of leaf column `leaf`.
    pub(crate) fn loaded(&self, leaf: usize) -> Result<&'p LoadedColumn> {
        let group = self.group;
        match group.columns.binary_search_by_key(&leaf, |c| c.leaf) {
            Ok(i) => Ok(&group.columns[i]),
            Err(_) => Err(Error::Unsupported {
                location: Location::default(),
                message: format!("leaf column {leaf} was not loaded"),
            }),
        }
    }

    /// A reader of the flat column `leaf`.
    pub(crate) fn column<P: Physical, S>(&self, leaf: usize) -> Result<ColumnReader<'p, P, S>> {
        let reader = ColumnReader::new(self.loaded(leaf)?, self.group.index)?;
        Ok(self.shared(reader))
    }

    /// A reader of the column `leaf` at any depth, for record assembly.
    pub(crate) fn nested_column<P: Physical, S>(
        &self,
        leaf: usize,
    ) -> Result<ColumnReader<'p, P, S>> {
        let reader = ColumnReader::nested(self.loaded(leaf)?, self.group.index)?;
        Ok(self.shared(reader))
    }

    /// `reader`, keeping the pages it opens when this view is a part of
    /// the loaded rows: the parts are decoded on several threads, and the
    /// reader of the next part opens the page this one ends in (and every
    /// part the dictionary page). Freed by one reader, each would
    /// decompress it again.
    fn shared<P: Physical, S>(&self, reader: ColumnReader<'p, P, S>) -> ColumnReader<'p, P, S> {
        if self.rows == (0..self.group.num_rows) {
            reader
        } else {
            reader.keeping_pages()
        }
    }

    /// The most bytes the output of this read may take
    /// ([`ReadOptions::max_output_bytes`](crate::ReadOptions::max_output_bytes)):
    /// the rows are checked against it before decoding, the elements of
    /// lists while they are assembled.
    pub(crate) fn output_bytes(&self) -> usize {
        self.options.output_bytes()
    }

    /// The most elements one list may hold
    /// ([`ReadOptions::max_list_elements`](crate::ReadOptions::max_list_elements)).
    pub(crate) fn list_elements(&self) -> usize {
        self.options.list_elements()
    }

    /// Column `leaf` in this row group, for errors.
    pub(crate) fn location(&self, leaf: usize) -> Location {
        Location {
            column: self
                .loaded(leaf)
                .map(|c| c.path.clone())
                .unwrap_or_default(),
            row_group: Some(self.group.index),
            page: None,
        }
    }
}
