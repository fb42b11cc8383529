//! Limits on what reading one file may take, set per [`ParquetFile`](crate::ParquetFile).

/// Memory limits of a reader: a file that would go past one is an
/// [`Error::Limit`](crate::Error::Limit) naming it, never an abort. Also how
/// finely the parallel readers split a row group
/// ([`ReadOptions::min_task_rows`]).
///
/// The defaults let every file of the parquet-testing corpus through and
/// stop decompression bombs early; raise them for files with larger pages or
/// row groups.
///
/// ```
/// use parquet_rows::ReadOptions;
///
/// let options = ReadOptions::default()
///     .max_page_bytes(64 << 20)
///     .max_row_group_bytes(512 << 20);
/// assert_eq!(options.page_bytes(), 64 << 20);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[allow(clippy::struct_field_names)] // each field is a number of bytes, and says so
pub struct ReadOptions {
    page_bytes: usize,      // the largest decompressed page
    row_group_bytes: usize, // the decompressed pages of one row group
    output_bytes: usize,    // the rows of one read
    checksums: bool,        // verify the pages' CRC32 where the writer stored one
    task_rows: usize,       // the fewest rows a parallel reader decodes in one task
    list_elements: usize,   // the most elements of one list
    kept_bytes: usize,      // the page buffers a file keeps for its next pages
}

/// `n` GiB, or `usize::MAX` where the address space is smaller (32-bit
/// targets and wasm32, where `4 << 30` does not fit a `usize`): no process
/// there can hold more, so the limit is the memory itself.
const fn gib(n: u64) -> usize {
    match n.checked_mul(1 << 30) {
        Some(bytes) if bytes <= usize::MAX as u64 => bytes as usize,
        _ => usize::MAX,
    }
}

impl Default for ReadOptions {
    /// 256 MiB for one decompressed page (writers cut pages at about 1 MiB),
    /// 4 GiB for the decompressed pages of one row group's bound columns,
    /// 8 GiB for the rows of one read (both `usize::MAX` on 32-bit
    /// targets); parallel tasks of at least 65,536 rows; lists of at most
    /// 2^24 (16,777,216) elements; 64 MiB of page buffers kept for the
    /// file's next pages.
    fn default() -> Self {
        ReadOptions {
            page_bytes: 256 << 20,
            row_group_bytes: gib(4),
            output_bytes: gib(8),
            checksums: false,
            task_rows: 1 << 16,
            list_elements: 1 << 24,
            kept_bytes: 64 << 20,
        }
    }
}

impl ReadOptions {
    /// The largest page, once decompressed, that may be read.
    #[must_use]
    pub fn max_page_bytes(mut self, bytes: usize) -> Self {
        self.page_bytes = bytes;
        self
    }

    /// The most decompressed bytes of one row group's pages (the columns
    /// read) that may be held at once.
    #[must_use]
    pub fn max_row_group_bytes(mut self, bytes: usize) -> Self {
        self.row_group_bytes = bytes;
        self
    }

    /// The most bytes the rows of one read may take: the rows the footer
    /// gives the row groups read, times the size of the row struct (heap data
    /// of owned fields not counted). A valid file can hold 2^31 rows in a few
    /// bytes (one RLE run per column): this stops it before the output grows
    /// past the memory, with an error that says to read fewer row groups at
    /// a time (`ParquetFile::row_groups`) or to raise the limit.
    ///
    /// The elements of each list field (`Vec<T>` of a nested column) are
    /// held to the same number of bytes per row group, counted as they are
    /// assembled: one list of 2^31 elements is as cheap to write as 2^31 rows.
    #[must_use]
    pub fn max_output_bytes(mut self, bytes: usize) -> Self {
        self.output_bytes = bytes;
        self
    }

    /// The most elements one list field (`Vec<T>`, a map) may hold in one
    /// row: 2^24 (16,777,216) by default. A list's elements cannot be
    /// counted before its repetition levels are decoded, and a page of a few
    /// bytes can hold one RLE run of 2^31 levels that never ends the row: the
    /// list would grow until an allocation of gigabytes aborts the process.
    /// Past this limit the read is an [`Error::Limit`](crate::Error::Limit)
    /// naming the column. The elements of a row group's lists are also held
    /// to [`ReadOptions::max_output_bytes`].
    ///
    /// ```
    /// # use parquet_rows::ReadOptions;
    /// let options = ReadOptions::default().max_list_elements(1 << 30);
    /// assert_eq!(options.list_elements(), 1 << 30);
    /// ```
    #[must_use]
    pub fn max_list_elements(mut self, elements: usize) -> Self {
        self.list_elements = elements;
        self
    }

    /// See [`ReadOptions::max_list_elements`].
    pub fn list_elements(&self) -> usize {
        self.list_elements
    }

    /// The most bytes of page buffers a file keeps, once the pages that
    /// used them are dropped, for the pages it decompresses next: 64 MiB by
    /// default; 0 keeps none.
    ///
    /// A kept buffer is overwritten by the next page, where a new one must
    /// be zeroed and, for buffers of a megabyte with the system allocator,
    /// faulted in page by page again: reusing them made a filtered read of
    /// a 10M-row SNAPPY file about a tenth faster (docs/read-path.md). The
    /// buffers are freed with the file (and its clones); a file kept open
    /// and idle holds up to this much. A read whose pages are all held at
    /// once (`load` then borrowed rows) reuses at most this much of them
    /// on the next read.
    ///
    /// ```
    /// # use parquet_rows::ReadOptions;
    /// let options = ReadOptions::default().max_kept_page_bytes(256 << 20);
    /// assert_eq!(options.kept_page_bytes(), 256 << 20);
    /// ```
    #[must_use]
    pub fn max_kept_page_bytes(mut self, bytes: usize) -> Self {
        self.kept_bytes = bytes;
        self
    }

    /// See [`ReadOptions::max_kept_page_bytes`].
    pub fn kept_page_bytes(&self) -> usize {
        self.kept_bytes
    }

    /// Checks that `rows` rows of `T` fit [`ReadOptions::max_output_bytes`].
    pub(crate) fn check_output<T>(&self, rows: usize) -> crate::Result<()> {
        let size = std::mem::size_of::<T>();
        let bytes = rows.saturating_mul(size);
        if bytes <= self.output_bytes {
            return Ok(());
        }
        Err(crate::Error::Limit {
            location: crate::Location::default(),
            message: format!(
                "the rows of this read take {bytes} bytes ({rows} rows of {size} bytes), more \
                 than `max_output_bytes` allows ({}); read fewer row groups at a time \
                 (`ParquetFile::row_groups`) or raise it with `ReadOptions::max_output_bytes`",
                self.output_bytes
            ),
        })
    }

    /// Verifies each page's CRC32 against the checksum its header holds,
    /// where the writer stored one (parquet-mr and Spark can; pyarrow,
    /// DuckDB and polars do not by default): a page whose bytes do not match
    /// is an [`Error::OutOfSpec`](crate::Error::OutOfSpec) naming its column,
    /// row group and page. Off by default, as in pyarrow: a corrupt page
    /// mostly fails to decode anyway, and the check reads every byte once
    /// more.
    ///
    /// ```
    /// # use parquet_rows::ReadOptions;
    /// let options = ReadOptions::default().verify_page_checksums(true);
    /// assert!(options.verifies_checksums());
    /// ```
    #[must_use]
    pub fn verify_page_checksums(mut self, verify: bool) -> Self {
        self.checksums = verify;
        self
    }

    /// See [`ReadOptions::verify_page_checksums`].
    pub fn verifies_checksums(&self) -> bool {
        self.checksums
    }

    /// The fewest rows one task of [`Pages::par_rows`](crate::Pages::par_rows)
    /// or a read with [`threads`](crate::RowsBuilder::threads) decodes
    /// when it splits a row group into row ranges (65,536 by default; 0
    /// counts as 1).
    ///
    /// The parallel readers cut a row group into ranges decoded on
    /// different threads when the file has too few row groups to keep
    /// every thread of the pool busy (a file written by pyarrow often has
    /// one). Each range costs a few pages skipped and each column's
    /// dictionary decoded once more, so ranges smaller than this are not
    /// worth a task.
    ///
    /// ```
    /// # use parquet_rows::ReadOptions;
    /// let options = ReadOptions::default().min_task_rows(1 << 20);
    /// assert_eq!(options.task_rows(), 1 << 20);
    /// ```
    #[must_use]
    pub fn min_task_rows(mut self, rows: usize) -> Self {
        self.task_rows = rows.max(1);
        self
    }

    /// See [`ReadOptions::min_task_rows`].
    pub fn task_rows(&self) -> usize {
        self.task_rows
    }

    /// See [`ReadOptions::max_page_bytes`].
    pub fn page_bytes(&self) -> usize {
        self.page_bytes
    }

    /// See [`ReadOptions::max_output_bytes`].
    pub fn output_bytes(&self) -> usize {
        self.output_bytes
    }

    /// See [`ReadOptions::max_row_group_bytes`].
    pub fn row_group_bytes(&self) -> usize {
        self.row_group_bytes
    }
}

#[cfg(test)]
mod tests {
    use super::gib;

    #[test]
    fn gib_saturates_at_the_address_space() {
        assert_eq!(gib(0), 0);
        assert_eq!(gib(u64::MAX), usize::MAX);
        #[cfg(target_pointer_width = "64")]
        assert_eq!(gib(4), 4 << 30);
        #[cfg(target_pointer_width = "32")]
        assert_eq!(gib(4), usize::MAX);
        assert_eq!(
            gib(3) as u64,
            3 << 30,
            "fits every usize of 32 bits or more"
        );
    }
}
