//! One column chunk's pages, decompressed and ready to decode.

use std::sync::OnceLock;

use parquet::column::page::Page;
use parquet::schema::types::ColumnDescPtr;

use super::rebuilt::Rebuilt;
use crate::encoding::Arena;

/// One column chunk's pages, decompressed.
#[derive(Debug)]
pub(crate) struct LoadedColumn {
    pub(crate) leaf: usize,                  // leaf column index in the schema
    pub(crate) path: String,                 // dotted path, for errors
    pub(crate) descr: ColumnDescPtr,         // the column's schema
    pub(crate) pages: Vec<Page>,             // every page of the chunk, in order
    pub(crate) arenas: Vec<OnceLock<Arena>>, // invariant: one per page; filled by the first reader that needs it
    pub(crate) leading: usize, // rows of the first page before the row group's loaded rows
    pub(crate) trailing: usize, // rows of the last page after them
    pub(crate) max_rebuilt: usize, // the most bytes one page's values may rebuild to (`ReadOptions::max_page_bytes`)
    pub(crate) numbering: PageNumbers, // where the loaded pages are in the chunk, for errors
    pub(crate) rebuilt: OnceLock<Rebuilt>, // values rebuilt from this and other columns, by this column's entries (a shredded variant's, by its `metadata`); made by the first read that needs it
}

/// Where a column chunk's loaded pages are in the chunk, when a plan read
/// only some of them: errors name a page by its place in the chunk and a
/// row by its place in the row group, whatever was read.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct PageNumbers {
    pub(crate) leading_pages: usize, // pages loaded before the data pages (the dictionary page)
    pub(crate) skipped_pages: usize, // data pages of the chunk not loaded before the first loaded one
    pub(crate) first_row: usize,     // the row group's row where the first loaded data page starts
}

impl PageNumbers {
    /// The place in the chunk (from 0, the dictionary page included) of
    /// loaded page `k`.
    pub(crate) fn page(&self, k: usize) -> usize {
        if k < self.leading_pages {
            k
        } else {
            k.saturating_add(self.skipped_pages)
        }
    }
}

impl LoadedColumn {
    /// A column chunk's pages, with an empty arena slot per page.
    pub(crate) fn new(leaf: usize, descr: ColumnDescPtr, pages: Vec<Page>) -> Self {
        LoadedColumn {
            leaf,
            path: descr.path().string(),
            descr,
            arenas: pages.iter().map(|_| OnceLock::new()).collect(),
            pages,
            leading: 0,
            trailing: 0,
            max_rebuilt: crate::encoding::delta_byte_array::MAX_REBUILT_BYTES,
            numbering: PageNumbers::default(),
            rebuilt: OnceLock::new(),
        }
    }
}
