//! Splits: a dataset cut into units of work that cross process boundaries
//! (serde, feature `serde`), each read back into rows by a worker.

use std::sync::Arc;

use futures_util::{StreamExt, TryStreamExt};
use object_store::path::Path;
use object_store::ObjectStore;

use super::{in_file, DataFile, Dataset};
use crate::bind::bind;
use crate::error::{Error, Location, Result};
use crate::partition::Partitions;
use crate::remote::{block_on, plan, FetchOptions, RemoteFile};
use crate::row::ParquetRow;

/// One unit of work: some row groups of one file, and the byte ranges of
/// the column chunks the struct it was made for binds (coalesced as the
/// fetch will coalesce them). Serialisable with the `serde` feature.
///
/// ```
/// # use parquet_rows::dataset::Split;
/// fn bytes_to_fetch(split: &Split) -> u64 {
///     split.ranges.iter().map(|(start, end)| end - start).sum()
/// }
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Split {
    /// The file's path in its store.
    pub location: String,
    /// The file's length when the split was made: a worker that finds
    /// another length refuses the split (the file was replaced).
    pub file_len: u64,
    /// The file's ETag when the split was made, if the store gives one: a
    /// worker that finds another refuses the split (the file was replaced).
    #[cfg_attr(feature = "serde", serde(default))]
    pub e_tag: Option<String>,
    /// The row groups to read, in file order.
    pub row_groups: Vec<usize>,
    /// `[start, end)` byte ranges the worker fetches, for schedulers that
    /// weigh or place work by bytes.
    pub ranges: Vec<(u64, u64)>,
    /// The partition values of the file's path: the worker fills the
    /// `#[parquet(partition)]` fields from them.
    pub partitions: Partitions,
}

impl Dataset {
    /// Cuts the dataset into [`Split`]s for `T`: each file's kept row groups
    /// (see [`Dataset::keep_row_groups`]), consecutive ones grouped until
    /// their bound column chunks reach `target_bytes`. Opens every file
    /// (one footer request each); fetches no column chunk.
    pub async fn splits<'p, T: ParquetRow<'p>>(&self, target_bytes: u64) -> Result<Vec<Split>> {
        // By index, for a `Send` future: see `Dataset::read_selection`.
        let per_file: Vec<Vec<Split>> = futures_util::stream::iter(0..self.files.len())
            .map(|i| async move {
                let file = &self.files[i];
                let remote = self.open_file(file).await?;
                self.splits_of::<T>(file, &remote, target_bytes)
                    .map_err(|e| in_file(e, file))
            })
            .buffered(self.files_at_once)
            .try_collect()
            .await?;
        Ok(per_file.into_iter().flatten().collect())
    }

    /// [`Dataset::splits`], blocking.
    ///
    /// # Panics
    ///
    /// When called from inside a tokio runtime (use the async method there).
    pub fn splits_blocking<'p, T: ParquetRow<'p>>(&self, target_bytes: u64) -> Result<Vec<Split>> {
        block_on(self.splits::<T>(target_bytes))?
    }

    fn splits_of<'p, T: ParquetRow<'p>>(
        &self,
        file: &DataFile,
        remote: &RemoteFile,
        target_bytes: u64,
    ) -> Result<Vec<Split>> {
        let binding = bind(T::STRUCT_NAME, &T::fields(), remote.schema())?;
        let meta = remote.metadata();
        let mut splits = Vec::new();
        let mut groups: Vec<usize> = Vec::new();
        let mut ranges = Vec::new();
        let mut bytes = 0u64;
        let flush = |groups: &mut Vec<usize>, ranges: &mut Vec<_>, splits: &mut Vec<Split>| {
            if groups.is_empty() {
                return;
            }
            let coalesced = plan::coalesce(
                std::mem::take(ranges),
                self.fetch.max_gap,
                self.fetch.overfetch_percent,
            );
            splits.push(Split {
                location: file.location.to_string(),
                file_len: remote.len(),
                e_tag: remote.e_tag().map(str::to_owned),
                row_groups: std::mem::take(groups),
                ranges: coalesced.into_iter().map(|r| (r.start, r.end)).collect(),
                partitions: file.partitions.clone(),
            });
        };
        for g in self.row_groups_of(file, remote) {
            let chunks =
                plan::chunk_ranges(meta, &[g], &binding.leaves, remote.len(), &self.options)?;
            bytes += chunks.iter().map(|r| r.end - r.start).sum::<u64>();
            ranges.extend(chunks);
            groups.push(g);
            if bytes >= target_bytes {
                flush(&mut groups, &mut ranges, &mut splits);
                bytes = 0;
            }
        }
        flush(&mut groups, &mut ranges, &mut splits);
        Ok(splits)
    }
}

/// A [`Split`] and the store its file is in: the source of a read of the
/// split's rows ([`SplitFile::rows`]); made by [`Split::with_store`].
#[derive(Debug, Clone)]
pub struct SplitFile {
    pub(crate) split: Split,
    pub(crate) store: Arc<dyn ObjectStore>,
}

impl SplitFile {
    /// The split.
    pub fn split(&self) -> &Split {
        &self.split
    }
}

impl Split {
    /// The split's file in `store`, to read the split's rows from with
    /// [`SplitFile::rows`]: one request for the footer (checked against
    /// the split's length and ETag) when the read ends, then the split's
    /// row groups' chunks. The `#[parquet(partition)]` fields hold
    /// [`Split::partitions`].
    ///
    /// ```
    /// # use std::sync::Arc;
    /// # use parquet_rows::{dataset::Split, ParquetRow};
    /// # #[derive(ParquetRow)] struct Quote { ts: i64, bid: f64 }
    /// # async fn read(split: &Split, store: Arc<dyn object_store::ObjectStore>) -> parquet_rows::Result<()> {
    /// let quotes: Vec<Quote> = split.with_store(store).rows::<Quote>().collect().await?;
    /// # Ok(()) }
    /// ```
    pub fn with_store(&self, store: Arc<dyn ObjectStore>) -> SplitFile {
        SplitFile {
            split: self.clone(),
            store,
        }
    }

    /// Opens the split's file (one request, for its footer), checked
    /// against the split's length and ETag, its `#[parquet(partition)]`
    /// values those of the split: any read of the split's rows, with
    /// [`RemoteFile::rows`] and the split's row groups.
    ///
    /// ```
    /// # use std::sync::Arc;
    /// # use parquet_rows::{dataset::Split, ParquetRow};
    /// # #[derive(ParquetRow)] struct Quote { ts: i64, bid: f64 }
    /// # async fn read(split: &Split, store: Arc<dyn object_store::ObjectStore>) -> parquet_rows::Result<()> {
    /// let remote = split.open_file(store).await?;
    /// let first: Vec<Quote> = remote
    ///     .rows::<Quote>()
    ///     .row_groups(split.row_groups.iter().copied())
    ///     .limit(10)
    ///     .collect()
    ///     .await?;
    /// # Ok(()) }
    /// ```
    pub async fn open_file(&self, store: Arc<dyn ObjectStore>) -> Result<RemoteFile> {
        Ok(self
            .open(store)
            .await?
            .with_partitions(self.partitions.clone()))
    }

    /// [`Split::open_file`], blocking.
    ///
    /// # Panics
    ///
    /// When called from inside a tokio runtime (use the async method there).
    pub fn open_file_blocking(&self, store: Arc<dyn ObjectStore>) -> Result<RemoteFile> {
        block_on(self.open_file(store))?
    }

    /// `e`, saying which file the split is of.
    pub(crate) fn in_split(&self, e: Error) -> Error {
        match e {
            Error::Value { location, message } => Error::Value {
                location,
                message: format!("in `{}`: {message}", self.location),
            },
            other => other,
        }
    }

    async fn open(&self, store: Arc<dyn ObjectStore>) -> Result<RemoteFile> {
        let location = Path::parse(&self.location).map_err(|e| Error::Unsupported {
            location: Location::default(),
            message: format!("a split's location `{}`: {e}", self.location),
        })?;
        let remote = RemoteFile::open_with(store, location, FetchOptions::default()).await?;
        if remote.len() != self.file_len {
            return Err(Error::Unsupported {
                location: Location::default(),
                message: format!(
                    "`{}` has {} bytes, the split was made for {}: the file changed since",
                    self.location,
                    remote.len(),
                    self.file_len
                ),
            });
        }
        if self.e_tag.is_some()
            && remote.e_tag().is_some()
            && remote.e_tag() != self.e_tag.as_deref()
        {
            return Err(Error::Unsupported {
                location: Location::default(),
                message: format!(
                    "`{}` has the ETag `{}`, the split was made for `{}`: the file changed since",
                    self.location,
                    remote.e_tag().unwrap_or_default(),
                    self.e_tag.as_deref().unwrap_or_default()
                ),
            });
        }
        Ok(remote)
    }
}
