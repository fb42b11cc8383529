//! Asks Linux to back a large output buffer with transparent huge pages.
//!
//! Rows are written into a fresh `Vec` sized for a whole row group: tens of
//! megabytes that the kernel maps one 4 KiB page at a time, on first write.
//! On a 1M-row file of OPTIONAL columns read into `Option` fields (72-byte
//! rows), the page-fault path was about 40% of the decode's profile
//! (`exc_page_fault`, cgroup charging, zeroing): one fault per 56 rows.
//! Where transparent huge pages are enabled in `madvise` mode (the common
//! default), `MADV_HUGEPAGE` lets one fault map 2 MiB instead. It is advice:
//! the kernel may ignore it, and the buffer's contents and validity do not
//! change either way. See `docs/performance.md` for the measurement.

/// Buffers smaller than this are left alone: a huge page only helps where a
/// 2 MiB-aligned region fits inside the buffer.
const MIN_BYTES: usize = 4 << 20;

/// Advises the kernel that `buffer` (spare capacity of an output `Vec`)
/// will be written soon and may use huge pages. Does nothing for small
/// buffers, or off Linux.
pub(crate) fn advise<T>(buffer: &mut [std::mem::MaybeUninit<T>]) {
    let bytes = std::mem::size_of_val(buffer);
    if bytes < MIN_BYTES {
        return;
    }
    advise_range(buffer.as_mut_ptr().cast::<u8>() as usize, bytes);
}

#[cfg(target_os = "linux")]
#[allow(unsafe_code)] // one `madvise` call, see the SAFETY comment
fn advise_range(start: usize, bytes: usize) {
    const PAGE: usize = 4096;
    // `madvise` wants a page-aligned start: advise the whole pages inside.
    let first = start.next_multiple_of(PAGE);
    let end = (start + bytes) / PAGE * PAGE;
    if end <= first {
        return;
    }
    // SAFETY: `first..end` lies inside `buffer`, memory this process owns
    // (the spare capacity of a live `Vec`, exclusively borrowed by the
    // caller). MADV_HUGEPAGE only changes how the kernel backs the range
    // with physical pages; it does not change its contents, its protection
    // or whether it is mapped, so no Rust reference or invariant is
    // affected. A failure (THP disabled, an old kernel) is ignored: the
    // advice is optional.
    let _ = unsafe { libc::madvise(first as *mut libc::c_void, end - first, libc::MADV_HUGEPAGE) };
}

#[cfg(not(target_os = "linux"))]
fn advise_range(_start: usize, _bytes: usize) {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn advice_leaves_the_buffer_usable() {
        let mut small: Vec<u64> = Vec::with_capacity(16);
        advise(small.spare_capacity_mut());
        let mut rows: Vec<u64> = Vec::with_capacity(MIN_BYTES); // 32 MiB
        advise(rows.spare_capacity_mut());
        rows.extend(0..MIN_BYTES as u64);
        assert_eq!(
            rows.iter().sum::<u64>(),
            (MIN_BYTES as u64 - 1) * MIN_BYTES as u64 / 2
        );
        assert_eq!(small.len(), 0);
    }
}
