//! One column chunk's pages, checked and ready to decode: each page
//! decompressed when a reader first opens it, or before when the pages
//! were decompressed on several threads.

use std::cell::RefCell;
use std::sync::{Arc, Mutex, OnceLock};

use parquet::column::page::Page;
use parquet::schema::types::ColumnDescPtr;

use super::decompress::Codecs;
use super::rebuilt::Rebuilt;
use super::{PagePool, Pending};
use crate::encoding::Arena;
use crate::error::DecodeError;

/// One column chunk's pages.
#[derive(Debug)]
pub(crate) struct LoadedColumn {
    pub(crate) leaf: usize,                  // leaf column index in the schema
    pub(crate) path: String,                 // dotted path, for errors
    pub(crate) descr: ColumnDescPtr,         // the column's schema
    pub(crate) pages: Vec<LoadedPage>,       // every page of the chunk, in order
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
    /// A column chunk's pages, decompressed, with an empty arena slot per page.
    #[cfg(test)]
    pub(crate) fn new(leaf: usize, descr: ColumnDescPtr, pages: Vec<Page>) -> Self {
        let pages = pages.into_iter().map(LoadedPage::decompressed).collect();
        Self::of(leaf, descr, pages)
    }

    /// A column chunk's pages, each decompressed or to be decompressed when
    /// first opened, with an empty arena slot per page.
    pub(crate) fn of(leaf: usize, descr: ColumnDescPtr, pages: Vec<LoadedPage>) -> Self {
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

/// One page of a loaded column chunk: its header's counts, and its bytes
/// decompressed, now or when a reader first opens it.
///
/// Decompressing a page just before its values are decoded keeps them in
/// the core's cache: a row group's chunks decompressed first and decoded
/// after are read back from memory (the chunks of a row group are several
/// times the cache), which cost a filtered read picking a few rows per page
/// more than the picking itself. The pages were checked (header, sizes, the
/// read's memory budget) when they were loaded; only the decompression
/// waits, and its error is the page's own, met when the page is opened.
pub(crate) struct LoadedPage {
    data: bool,                                // a data page (v1 or v2), not a dictionary page
    num_values: u32,                           // the header's value count (nulls included)
    len: usize,                                // bytes once decompressed
    stored: Mutex<Option<Pending>>,            // the page as stored, until decompressed
    pool: Option<(Arc<PagePool>, usize)>,      // its buffer's pool, and the most the pool keeps
    page: OnceLock<Result<Page, DecodeError>>, // filled by the first `open`
}

impl std::fmt::Debug for LoadedPage {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LoadedPage")
            .field("data", &self.data)
            .field("num_values", &self.num_values)
            .field("len", &self.len)
            .field("decompressed", &self.page.get().is_some())
            .finish_non_exhaustive()
    }
}

/// A page opened by [`LoadedPage::open_once`].
pub(crate) enum Opened<'a> {
    /// The page kept by its [`LoadedPage`], for every reader.
    Kept(&'a Page),
    /// The page decompressed for one reader, freed when it drops it.
    Once(Page),
}

thread_local! {
    /// The decompressors of the pages opened on this thread (a ZSTD
    /// context is worth keeping from one page to the next).
    static CODECS: RefCell<Codecs> = RefCell::new(Codecs::default());
}

impl LoadedPage {
    /// A page already decompressed.
    pub(crate) fn decompressed(page: Page) -> Self {
        LoadedPage {
            data: page.is_data_page(),
            num_values: page.num_values(),
            len: page.buffer().len(),
            stored: Mutex::new(None),
            pool: None,
            page: OnceLock::from(Ok(page)),
        }
    }

    /// A page whose decompression (or failure) waits for its first reader,
    /// into a buffer of `pool`, which keeps at most `limit` bytes.
    pub(crate) fn stored(pending: Pending, pool: Arc<PagePool>, limit: usize) -> Self {
        LoadedPage {
            data: pending.data_values().is_some(),
            num_values: u32::try_from(pending.header.num_values).unwrap_or(0),
            len: pending.declared.unwrap_or(pending.body.len()),
            stored: Mutex::new(Some(pending)),
            pool: Some((pool, limit)),
            page: OnceLock::new(),
        }
    }

    /// A data page (v1 or v2), as `Page::is_data_page`.
    pub(crate) fn is_data_page(&self) -> bool {
        self.data
    }

    /// The header's value count, as `Page::num_values`.
    pub(crate) fn num_values(&self) -> u32 {
        self.num_values
    }

    /// Bytes of the page once decompressed (what it holds in memory).
    pub(crate) fn len(&self) -> usize {
        self.len
    }

    /// The page, decompressed by the first call (on any thread; another
    /// thread asking meanwhile waits for it), or why it cannot be.
    pub(crate) fn open(&self) -> Result<&Page, DecodeError> {
        let page = self.page.get_or_init(|| {
            // Taken, not cloned: the stored bytes are dropped once
            // decompressed. Only the one initialising call gets here.
            let stored = self.stored_bytes().take();
            match stored {
                Some(pending) => self.decompress(pending),
                None => Err(DecodeError::oos(
                    "a page's bytes were lost before it was decompressed",
                )),
            }
        });
        page.as_ref().map_err(Clone::clone)
    }

    /// The page for one reader that copies its values out and does not
    /// come back to it: decompressed for that reader alone, not kept, so
    /// that its buffer goes back to the pool as soon as the reader drops it
    /// (the stored bytes stay, for any later reader). A page already
    /// decompressed, or loaded decompressed, is the kept one.
    ///
    /// A borrowed read (`load` then `rows`) of a 10M-row file opens
    /// 121 MB of pages; kept, they outgrew the pool, and about half of
    /// them came from fresh memory that the kernel faulted in and zeroed
    /// at every read (docs/read-path.md).
    pub(crate) fn open_once(&self) -> Result<Opened<'_>, DecodeError> {
        if let Some(page) = self.page.get() {
            return page.as_ref().map(Opened::Kept).map_err(Clone::clone);
        }
        let stored = self.stored_bytes().clone();
        match stored {
            Some(pending) => self.decompress(pending).map(Opened::Once),
            // Taken meanwhile by `open` on another thread: kept.
            None => self.open().map(Opened::Kept),
        }
    }

    /// The page as stored, until `open` decompresses it (a poisoned lock
    /// is taken as it is: a failed decompression leaves nothing half-done).
    fn stored_bytes(&self) -> std::sync::MutexGuard<'_, Option<Pending>> {
        self.stored
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// `pending` decompressed with this thread's codecs, into a buffer of
    /// the page's pool.
    fn decompress(&self, pending: Pending) -> Result<Page, DecodeError> {
        CODECS.with(|codecs| {
            let pool = self.pool.as_ref().map(|(pool, limit)| (pool, *limit));
            match codecs.try_borrow_mut() {
                Ok(mut codecs) => pending.decompress(&mut codecs, pool),
                // Not reached (decompressing opens no other page); a
                // fresh context is correct all the same.
                Err(_) => pending.decompress(&mut Codecs::default(), pool),
            }
        })
    }

    /// The page if it was decompressed already.
    pub(crate) fn opened(&self) -> Option<&Page> {
        self.page.get().and_then(|page| page.as_ref().ok())
    }
}
