//! Buffers of decompressed pages, kept by an open file for its next pages.
//!
//! A decompressed page needs a buffer of its declared size. A fresh one
//! costs twice: the allocator zeroes it for codecs that write into an
//! initialised slice (SNAPPY, LZ4), and for buffers of a megabyte (the
//! pages writers cut) glibc's allocator hands back memory the kernel must
//! fault in and zero again, page by page, after trimming it from the heap
//! at the previous free. Measured on a filtered read of a 10M-row SNAPPY
//! file whose pages are decompressed as they are opened, page faults and
//! the kernel's zeroing took about a fifth of the read (docs/read-path.md).
//!
//! So a page's buffer goes back to its file's pool when the last `Bytes`
//! viewing it is dropped (rows that borrow strings keep it), and the next
//! page of that file takes the smallest kept buffer that holds it. A kept
//! buffer is overwritten, never zeroed: its bytes are the earlier page's,
//! initialised, and the codec writes every byte of the new page over them.
//! The pool keeps at most `ReadOptions::max_kept_page_bytes` (64 MiB by
//! default); past that a buffer is freed.

use std::sync::{Arc, Mutex, PoisonError};

use bytes::Bytes;

/// The page buffers an open file keeps for its next pages.
#[derive(Default)]
pub(crate) struct PagePool {
    free: Mutex<Kept>,
}

#[derive(Default)]
struct Kept {
    buffers: Vec<Vec<u8>>,
    bytes: usize, // the sum of the buffers' capacities
}

impl std::fmt::Debug for PagePool {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let kept = self.free.lock().unwrap_or_else(PoisonError::into_inner);
        f.debug_struct("PagePool")
            .field("buffers", &kept.buffers.len())
            .field("bytes", &kept.bytes)
            .finish()
    }
}

impl PagePool {
    /// A kept buffer that holds `len` bytes without growing (the smallest
    /// such), or an empty one. Its length and bytes are an earlier page's.
    pub(crate) fn take(&self, len: usize) -> Vec<u8> {
        let mut kept = self.free.lock().unwrap_or_else(PoisonError::into_inner);
        let best = kept
            .buffers
            .iter()
            .enumerate()
            .filter(|(_, b)| b.capacity() >= len)
            .min_by_key(|(_, b)| b.capacity())
            .map(|(k, _)| k);
        match best {
            Some(k) => {
                let buf = kept.buffers.swap_remove(k);
                kept.bytes -= buf.capacity();
                buf
            }
            None => Vec::new(),
        }
    }

    /// Keeps `buf` for a later page, unless the pool would hold more than
    /// `limit` bytes.
    fn give(&self, buf: Vec<u8>, limit: usize) {
        if buf.capacity() == 0 {
            return;
        }
        let mut kept = self.free.lock().unwrap_or_else(PoisonError::into_inner);
        if kept.bytes.saturating_add(buf.capacity()) <= limit {
            kept.bytes += buf.capacity();
            kept.buffers.push(buf);
        }
    }

    /// `buf` as `Bytes` that give it back to this pool once dropped, if
    /// the pool then holds at most `limit` bytes.
    pub(crate) fn bytes(self: &Arc<Self>, buf: Vec<u8>, limit: usize) -> Bytes {
        Bytes::from_owner(Pooled {
            buf,
            pool: Arc::clone(self),
            limit,
        })
    }

    /// Bytes of the buffers kept.
    #[cfg(test)]
    fn kept(&self) -> usize {
        self.free
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .bytes
    }
}

/// A page's buffer, given back to its pool when dropped.
struct Pooled {
    buf: Vec<u8>,
    pool: Arc<PagePool>,
    limit: usize, // the most bytes the pool may keep
}

impl AsRef<[u8]> for Pooled {
    fn as_ref(&self) -> &[u8] {
        &self.buf
    }
}

impl Drop for Pooled {
    fn drop(&mut self) {
        self.pool.give(std::mem::take(&mut self.buf), self.limit);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const LIMIT: usize = 64 << 20;

    #[test]
    fn a_dropped_page_gives_its_buffer_to_the_next_page_that_fits() {
        let pool = Arc::new(PagePool::default());
        let page = pool.bytes(vec![7; 1000], LIMIT);
        let view = page.slice(10..20);
        drop(page);
        assert_eq!(pool.kept(), 0, "a view of the page still holds it");
        assert_eq!(&view[..], &[7; 10]);
        drop(view);
        assert!(pool.kept() >= 1000);
        // Too small for 2000 bytes: a new buffer.
        assert_eq!(pool.take(2000).capacity(), 0);
        let again = pool.take(500);
        assert!(again.capacity() >= 1000, "the kept buffer, not a new one");
        assert_eq!(again.len(), 1000, "its bytes are the earlier page's");
        assert_eq!(pool.kept(), 0);
    }

    #[test]
    fn the_smallest_buffer_that_fits_is_taken() {
        let pool = Arc::new(PagePool::default());
        for len in [4000, 1000, 2000] {
            drop(pool.bytes(Vec::with_capacity(len), LIMIT));
        }
        assert_eq!(pool.take(1500).capacity(), 2000);
        assert_eq!(pool.take(1).capacity(), 1000);
        assert_eq!(pool.take(1).capacity(), 4000);
    }

    #[test]
    fn a_full_pool_frees_what_it_cannot_keep() {
        let pool = Arc::new(PagePool::default());
        drop(pool.bytes(Vec::with_capacity(990), 1000));
        drop(pool.bytes(Vec::with_capacity(100), 1000));
        assert_eq!(pool.kept(), 990);
        drop(pool.bytes(Vec::with_capacity(10), 1000));
        assert_eq!(pool.kept(), 1000);
        // A limit of 0 keeps nothing.
        let none = Arc::new(PagePool::default());
        drop(none.bytes(vec![1; 10], 0));
        assert_eq!(none.kept(), 0);
    }
}
