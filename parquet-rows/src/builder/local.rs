//! The endings of a read of a local [`ParquetFile`]: each runs the file's
//! planned read (`ParquetFile::plan_read`) of the builder's selection, on
//! the file narrowed to the builder's row groups and options.

use super::stream::{Batches, Held, RowStream};
#[cfg(feature = "rayon")]
use super::Parallel;
use super::{RowsBuilder, Serial};
use crate::error::Result;
use crate::file::ParquetFile;
use crate::pages::Pages;
use crate::row::{OwnedRow, ParquetRow};

// Defined here rather than in file.rs: the builder sits above `file` in the
// crate's layers (layering.rs), so `file` names nothing of it.
impl ParquetFile {
    /// A read of the rows of `T`, to narrow (filter, window, row groups)
    /// and end (owned rows, borrowed [`Pages`], a stream); see
    /// [`RowsBuilder`].
    ///
    /// ```
    /// # use parquet_rows::{ParquetFile, ParquetRow};
    /// #[derive(ParquetRow)]
    /// struct Quote { ts: i64, symbol: String, bid: f64 }
    ///
    /// # fn main() -> parquet_rows::Result<()> {
    /// # let file = ParquetFile::from_bytes(parquet_rows::doc_support::tick_file(100)?)?;
    /// let quotes: Vec<Quote> = file
    ///     .rows::<Quote>()
    ///     .filter(Quote::filter().symbol().eq("EURUSD"))
    ///     .offset(10)
    ///     .limit(5)
    ///     .collect()?;
    /// assert_eq!(quotes.len(), 5);
    /// # Ok(()) }
    /// ```
    pub fn rows<T>(&self) -> RowsBuilder<'_, ParquetFile, T> {
        RowsBuilder::new(self)
    }
}

#[cfg(feature = "rayon")]
impl<S, T, M: 'static> RowsBuilder<'_, S, T, M> {
    /// Whether the read runs on this thread.
    pub(super) fn serial(&self) -> bool {
        !std::any::TypeId::of::<M>().eq(&std::any::TypeId::of::<Parallel>())
            || self.spec.threads == 1
    }
}

impl<'f, T, M: 'static> RowsBuilder<'f, ParquetFile, T, M> {
    /// The file the read reads: narrowed to the row groups asked for and
    /// given the options asked for.
    fn file(&self) -> Result<ParquetFile> {
        self.source
            .scoped(self.spec.row_groups.as_deref(), self.spec.options)
    }

    /// Loads the pages of the rows read, for rows that borrow them:
    /// `pages.rows::<T>()` then returns exactly the rows of the read
    /// (filtered and windowed), in file order. With
    /// [`threads`](RowsBuilder::threads), row groups are planned and read
    /// in parallel; decode them in parallel with [`Pages::par_rows`]. Each
    /// page is decompressed when the decode first opens it, on the thread
    /// that decodes it, or with a filter, a window or chosen row groups on
    /// the load's threads (see [`Pages`]).
    ///
    /// ```
    /// # use parquet_rows::{ParquetFile, ParquetRow};
    /// #[derive(ParquetRow)]
    /// struct Tick<'a> { ts: i64, symbol: &'a str }
    ///
    /// # fn main() -> parquet_rows::Result<()> {
    /// # let file = ParquetFile::from_bytes(parquet_rows::doc_support::tick_file(100)?)?;
    /// let pages = file.rows::<Tick>().filter(Tick::filter().symbol().eq("EURUSD")).limit(10).load()?;
    /// let ticks: Vec<Tick<'_>> = pages.rows()?;
    /// assert_eq!(ticks.len(), 10);
    /// # Ok(()) }
    /// ```
    pub fn load<'p>(self) -> Result<Pages>
    where
        T: ParquetRow<'p>,
    {
        let file = self.file()?;
        #[cfg(feature = "rayon")]
        let parallel = !self.serial();
        if self.spec.everything() {
            #[cfg(feature = "rayon")]
            if parallel {
                return super::threads::on_threads(self.spec.threads, || file.par_load_all::<T>());
            }
            return file.load_all::<T>();
        }
        let selection = self.spec.selection();
        #[cfg(feature = "rayon")]
        if parallel {
            return super::threads::on_threads(self.spec.threads, || {
                file.load_selection::<T>(&selection, true)
            });
        }
        file.load_selection::<T>(&selection, false)
    }

    /// The rows read, one at a time: one row group's rows are in memory
    /// at once, and row groups are read as the iterator reaches them
    /// (those the filter or the window rule out, never). After an error
    /// the iterator ends.
    ///
    /// ```
    /// # use parquet_rows::{ParquetFile, ParquetRow};
    /// # #[derive(ParquetRow)] struct Quote { ts: i64, symbol: String }
    /// # fn main() -> parquet_rows::Result<()> {
    /// # let file = ParquetFile::from_bytes(parquet_rows::doc_support::tick_file(100)?)?;
    /// let mut n = 0;
    /// for quote in file.rows::<Quote>().offset(90).stream()? {
    ///     let quote = quote?;
    ///     n += 1;
    /// }
    /// assert_eq!(n, 10);
    /// # Ok(()) }
    /// ```
    pub fn stream(self) -> Result<RowStream<'f, T>>
    where
        T: OwnedRow,
    {
        let file = if self.spec.row_groups.is_none() && self.spec.options.is_none() {
            Held::Borrowed(self.source)
        } else {
            Held::Owned(Box::new(self.file()?))
        };
        RowStream::new(file, self.spec.selection())
    }

    /// The rows read, one `Vec` per row group that holds any (row groups
    /// without a row of the read give none), read as the iterator reaches
    /// them.
    ///
    /// ```
    /// # use parquet_rows::{ParquetFile, ParquetRow};
    /// # #[derive(ParquetRow)] struct Quote { ts: i64, symbol: String }
    /// # fn main() -> parquet_rows::Result<()> {
    /// # let file = ParquetFile::from_bytes(parquet_rows::doc_support::tick_file(100)?)?;
    /// for quotes in file.rows::<Quote>().batches()? {
    ///     let quotes: Vec<Quote> = quotes?;
    ///     assert_eq!(quotes.len(), 100); // the file has one row group
    /// }
    /// # Ok(()) }
    /// ```
    pub fn batches(self) -> Result<Batches<'f, T>>
    where
        T: OwnedRow,
    {
        Ok(Batches(self.stream()?))
    }
}

impl<T: OwnedRow> RowsBuilder<'_, ParquetFile, T, Serial> {
    /// The rows read, owned, in file order.
    ///
    /// ```
    /// # use parquet_rows::{ParquetFile, ParquetRow};
    /// # #[derive(ParquetRow)] struct Quote { ts: i64, symbol: String }
    /// # fn main() -> parquet_rows::Result<()> {
    /// # let file = ParquetFile::from_bytes(parquet_rows::doc_support::tick_file(100)?)?;
    /// let quotes: Vec<Quote> = file.rows::<Quote>().offset(95).collect()?;
    /// assert_eq!(quotes.len(), 5);
    /// # Ok(()) }
    /// ```
    pub fn collect(self) -> Result<Vec<T>> {
        let file = self.file()?;
        if self.spec.everything() {
            return file.read_all();
        }
        let binding = file.bind::<T>()?;
        file.read_selection(&binding, &self.spec.selection())
    }
}

#[cfg(feature = "rayon")]
impl<T: OwnedRow + Send> RowsBuilder<'_, ParquetFile, T, Parallel> {
    /// The rows read, owned, in file order, read on the builder's threads
    /// (see [`RowsBuilder::threads`]): the same rows as on one thread.
    pub fn collect(self) -> Result<Vec<T>> {
        let file = self.file()?;
        if self.serial() {
            if self.spec.everything() {
                return file.read_all();
            }
            let binding = file.bind::<T>()?;
            return file.read_selection(&binding, &self.spec.selection());
        }
        super::threads::on_threads(self.spec.threads, || {
            if self.spec.everything() {
                return file.par_read_all();
            }
            let binding = file.bind::<T>()?;
            file.par_read_selection(&binding, &self.spec.selection())
        })
    }
}
