//! Writing Parquet files from the rows of a `#[derive(ParquetRow)]` struct.
//!
//! [`Writer`] buffers rows column by column (each field's values in a vector
//! of its physical type) and, when a row group is full (a number of rows or
//! an estimate of its bytes, see [`WriteOptions`]), encodes it: flat
//! numeric and byte-array columns with our own encoders (`encode.rs`, see
//! [`WriteOptions::own_encoders`]), the others with the `parquet` crate's
//! column writers; both write statistics, the column and offset indexes and
//! dictionaries with fallback, and the column writers bloom filters, v2
//! pages and every codec (`docs/writer.md` says why). The schema comes
//! from the struct through the rules the reader binds with, so a file
//! written from a struct reads back into it.
//!
//! ```
//! use parquet_rows::{ParquetRow, WriteOptions, Writer};
//!
//! #[derive(ParquetRow, Debug, PartialEq)]
//! struct Tick<'a> {
//!     ts: i64,
//!     symbol: &'a str,
//!     bid: f64,
//!     size: Option<u32>,
//! }
//!
//! let rows = [
//!     Tick { ts: 1, symbol: "EURUSD", bid: 1.08, size: Some(100) },
//!     Tick { ts: 2, symbol: "USDJPY", bid: 151.2, size: None },
//! ];
//! let mut writer = Writer::<Tick, _>::new(Vec::new(), WriteOptions::default())?;
//! writer.write(&rows)?;
//! let (summary, bytes) = writer.finish()?;
//! assert_eq!((summary.rows, summary.row_groups), (2, 1));
//!
//! let file = parquet_rows::ParquetFile::from_bytes(bytes::Bytes::from(bytes))?;
//! let pages = file.load::<Tick>()?;
//! assert_eq!(pages.rows::<Tick>()?, rows);
//! # Ok::<(), parquet_rows::Error>(())
//! ```
//!
//! A file is complete only once [`Writer::close`] (or [`Writer::finish`])
//! returned `Ok`: it writes the last row group and the footer. A writer
//! dropped before, or one that met an error, leaves a file without a footer,
//! which no reader takes for a Parquet file.

mod encode;
mod field;
mod options;
mod push;
mod schema;
mod sorted;
#[cfg(feature = "object_store")]
mod upload;

use std::fs::File;
use std::io::Write;
use std::marker::PhantomData;
use std::path::Path;
use std::sync::Arc;

use bytes::Bytes;
use parquet::column::writer::ColumnCloseResult;
use parquet::data_type::{
    BoolType, ByteArray, ByteArrayType, DataType, DoubleType, FixedLenByteArray,
    FixedLenByteArrayType, FloatType, Int32Type, Int64Type,
};
use parquet::errors::ParquetError;
use parquet::file::properties::WriterProperties;
use parquet::file::writer::{SerializedColumnWriter, SerializedFileWriter};
use parquet::schema::types::SchemaDescriptor;
use parquet_rows_rules as rules;

use crate::error::{Error, Location, Result};

pub use field::WriteField;
#[doc(hidden)]
pub use field::{push_column, ColumnBuffer, ColumnBuffers, Leaves, Levels, WriteValue};
pub use options::{ColumnEncoding, Compression, PageVersion, Statistics, WriteOptions};
#[doc(hidden)]
pub use push::{Push, PushInOrder, PushOnThreads, Rows};
#[doc(hidden)]
pub use schema::{WriteShape, WriteSpec};
pub use sorted::SortOrder;
#[cfg(feature = "object_store")]
pub use upload::{UploadOptions, UploadWriter, MIN_PART_BYTES};

/// A struct whose rows a [`Writer`] writes: implemented by
/// `#[derive(ParquetRow)]` when every field's type is [`WriteField`] (and no
/// field is read with `from` / `try_from`).
///
/// The methods are used by the writer; you do not call them yourself.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be written",
    note = "`#[derive(ParquetRow)]` implements `ParquetWrite` when every field is of a type the writer writes (see `WriteField`)"
)]
pub trait ParquetWrite {
    /// The struct with every lifetime `'static`: rows of any lifetime with
    /// the same shape go to one writer.
    #[doc(hidden)]
    type Shape: 'static;
    /// The struct's name, for messages.
    #[doc(hidden)]
    const STRUCT_NAME: &'static str;
    /// The columns, in the order of the fields.
    #[doc(hidden)]
    fn write_specs() -> Vec<WriteSpec>;
    /// Appends each field of `rows` to its leaf columns' buffers
    /// (`columns.field(i)` for field `i` of
    /// [`write_specs`](Self::write_specs)).
    #[doc(hidden)]
    fn push_columns(rows: &[Self], columns: &mut ColumnBuffers)
    where
        Self: Sized;
}

/// What a completed file holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct FileSummary {
    /// Rows written.
    pub rows: u64,
    /// Row groups written.
    pub row_groups: usize,
    /// Bytes of the whole file, footer included.
    pub bytes: u64,
}

/// Rows pushed into the column buffers between two checks of the row
/// group's size near its byte limit: the estimate is taken once per slice
/// of rows.
const CHUNK_ROWS: usize = 4096;

/// Rows at most pushed between two checks while the row group is far from
/// its byte limit (see `Writer::chunk_rows`). On threads each slice is
/// handed to the pool once (`push.rs`); at 4,096 rows handing it over cost
/// as much as the second thread saved (1M ticks on 2 threads: the push took
/// 16-22 ms in slices of 4,096 rows, 9-13 ms in slices of 65,536, 13.5 ms
/// on one thread).
const SLICE_ROWS: usize = 65_536;

/// Values at most handed to a column writer in one call: byte arrays are
/// converted to the `parquet` crate's `ByteArray` this many at a time.
const ENCODE_BATCH: usize = 8192;

/// Writes rows of `T` into a Parquet file, streaming: memory holds at most
/// one row group of buffered values (see [`WriteOptions::row_group_bytes`]).
///
/// `T` names the struct; rows of the same struct with other lifetimes go to
/// the same writer (a `Writer<Tick<'_>>` takes `Tick`s borrowing a buffer
/// that is refilled between calls).
///
/// Call [`close`](Self::close) (or [`finish`](Self::finish)) at the end: it
/// writes the last row group and the footer. Dropping a writer without it
/// leaves an incomplete file (no footer). After an error the writer is
/// stopped: every later call returns an error, and the file stays incomplete.
pub struct Writer<T: ParquetWrite, W: Write + Send = File> {
    file: Option<SerializedFileWriter<Counted<W>>>, // `None` once closed or failed
    leaves: Vec<schema::Leaf>,                      // every leaf column, in the file's order
    buffers: ColumnBuffers,                         // one per leaf
    buffered: usize, // rows in `buffers`; invariant: < row_group_rows
    rows: u64,       // rows in the row groups written
    row_groups: usize,
    row_group_rows: usize,
    row_group_bytes: usize,
    failed: Option<String>, // the first error, once one happened
    sorted: sorted::SortCheck,
    own_encoders: bool, // WriteOptions::own_encoders
    threads: usize,     // WriteOptions::threads; > 1 encodes columns in parallel
    shape: PhantomData<fn() -> T::Shape>,
}

impl<T: ParquetWrite, W: Write + Send> std::fmt::Debug for Writer<T, W> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Writer")
            .field("struct", &T::STRUCT_NAME)
            .field("buffered", &self.buffered)
            .field("rows", &self.rows)
            .field("row_groups", &self.row_groups)
            .field("failed", &self.failed)
            .finish_non_exhaustive()
    }
}

impl<T: ParquetWrite> Writer<T> {
    /// Creates (or truncates) the file at `path` and writes rows of `T` to
    /// it (the `parquet` crate's writer buffers its writes).
    ///
    /// ```
    /// use parquet_rows::{ParquetRow, WriteOptions, Writer};
    ///
    /// #[derive(ParquetRow)]
    /// struct Event {
    ///     at: i64,
    ///     #[parquet(rename = "kind")]
    ///     name: String,
    /// }
    ///
    /// let path = std::env::temp_dir().join("parquet-rows-doc-create.parquet");
    /// let mut writer = Writer::<Event>::create(&path, WriteOptions::default())?;
    /// writer.write_row(&Event { at: 1, name: "start".into() })?;
    /// writer.extend((2..10).map(|at| Event { at, name: "tick".into() }))?;
    /// let summary = writer.close()?;
    /// assert_eq!(summary.rows, 9);
    /// # std::fs::remove_file(&path).unwrap();
    /// # Ok::<(), parquet_rows::Error>(())
    /// ```
    pub fn create(path: impl AsRef<Path>, options: WriteOptions) -> Result<Self> {
        let path = path.as_ref();
        let file = File::create(path).map_err(|e| Error::io_at("create", path, e))?;
        Writer::new(file, options)
    }
}

impl<T: ParquetWrite, W: Write + Send> Writer<T, W> {
    /// Writes rows of `T` to `sink` (the magic bytes at once; each row group
    /// when it is full).
    pub fn new(sink: W, options: WriteOptions) -> Result<Self> {
        let schema::Layout {
            message,
            leaves,
            starts,
        } = schema::layout(T::STRUCT_NAME, &T::write_specs())?;
        let (row_group_rows, row_group_bytes, max_value_bytes) = (
            options.row_group_rows_limit(),
            options.row_group_bytes_limit(),
            options.max_value_bytes_limit(),
        );
        let sorted = sorted::SortCheck::new(options.sort_keys(&leaves)?);
        let own_encoders = options.own_encoders_enabled();
        let threads = options.threads_limit();
        let properties = options.properties(&leaves)?;
        let file = SerializedFileWriter::new(
            Counted {
                inner: sink,
                bytes: 0,
            },
            Arc::new(message),
            Arc::new(properties),
        )
        .map_err(|e| write_error(Location::default(), e))?;
        let buffers = ColumnBuffers::new(
            leaves
                .iter()
                .map(|leaf| ColumnBuffer {
                    target: field::Target {
                        max_value_bytes,
                        ..field::Target::of(&leaf.column)
                    },
                    max_def: leaf.max_def,
                    max_rep: leaf.max_rep,
                    ..ColumnBuffer::default()
                })
                .collect(),
            starts,
            threads,
        )?;
        Ok(Writer {
            file: Some(file),
            buffers,
            leaves,
            buffered: 0,
            rows: 0,
            row_groups: 0,
            row_group_rows,
            row_group_bytes,
            failed: None,
            sorted,
            own_encoders,
            threads,
            shape: PhantomData,
        })
    }

    /// Writes `rows`, in order. Row groups that fill up on the way are
    /// encoded and written.
    pub fn write<R: ParquetWrite<Shape = T::Shape>>(&mut self, rows: &[R]) -> Result<()> {
        self.check_running()?;
        self.reserve_rows(rows.len());
        let mut rows = rows;
        while !rows.is_empty() {
            let room = self.row_group_rows - self.buffered;
            let (now, rest) = rows.split_at(rows.len().min(room).min(self.chunk_rows()));
            R::push_columns(now, &mut self.buffers);
            self.check_refused()?;
            self.check_sorted(now.len())?;
            self.buffered += now.len();
            rows = rest;
            if self.buffered == self.row_group_rows
                || self.estimated_bytes() >= self.row_group_bytes
            {
                self.flush()?;
            }
        }
        Ok(())
    }

    /// Rows to push before the next check of the row group's size: at
    /// least [`CHUNK_ROWS`], and while the row group is far from its byte
    /// limit up to half the rows the bytes left hold (estimated from the
    /// rows buffered so far), at most [`SLICE_ROWS`]. The same on any
    /// number of threads, so that row groups close at the same rows.
    fn chunk_rows(&self) -> usize {
        if self.buffered == 0 {
            return CHUNK_ROWS;
        }
        let estimated = self.estimated_bytes();
        let per_row = (estimated / self.buffered).max(1);
        (self.row_group_bytes.saturating_sub(estimated) / per_row / 2).clamp(CHUNK_ROWS, SLICE_ROWS)
    }

    /// Makes room in the buffers for the next `rows` rows, up to the end of
    /// the row group, once per `write`: buffers that grow by doubling copy
    /// themselves at each step (glibc's `realloc` copies once its mmap
    /// threshold has risen past their size). The room is capped at what the
    /// row group's byte limit lets it hold, so a call with many wide rows
    /// does not reserve for rows a later row group takes.
    fn reserve_rows(&mut self, rows: usize) {
        let room = rows.min(self.row_group_rows - self.buffered);
        if room <= CHUNK_ROWS {
            return; // reserving a chunk at a time is what `push` does anyway
        }
        let per_row: usize = self
            .leaves
            .iter()
            .zip(&self.buffers.buffers)
            .map(|(leaf, buffer)| buffer.reserved_per_row(leaf.column.physical))
            .sum();
        let room = room.min(self.row_group_bytes / per_row.max(1));
        for (leaf, buffer) in self.leaves.iter().zip(&mut self.buffers.buffers) {
            buffer.reserve_rows(leaf.column.physical, room);
        }
    }

    /// Writes one row.
    pub fn write_row<R: ParquetWrite<Shape = T::Shape>>(&mut self, row: &R) -> Result<()> {
        self.write(std::slice::from_ref(row))
    }

    /// Writes every row of `rows`, a thousand at a time.
    pub fn extend<R: ParquetWrite<Shape = T::Shape>>(
        &mut self,
        rows: impl IntoIterator<Item = R>,
    ) -> Result<()> {
        let mut batch: Vec<R> = Vec::with_capacity(1024);
        for row in rows {
            batch.push(row);
            if batch.len() == batch.capacity() {
                self.write(&batch)?;
                batch.clear();
            }
        }
        self.write(&batch)
    }

    /// Rows buffered for the row group not written yet.
    pub fn buffered_rows(&self) -> usize {
        self.buffered
    }

    /// The estimated encoded size of the buffered rows, which
    /// [`WriteOptions::row_group_bytes`] bounds.
    pub fn estimated_bytes(&self) -> usize {
        self.buffers
            .buffers
            .iter()
            .map(ColumnBuffer::estimated_bytes)
            .sum()
    }

    /// Writes the buffered rows as a row group now (nothing if none are
    /// buffered).
    pub fn flush(&mut self) -> Result<()> {
        self.check_running()?;
        if self.buffered == 0 {
            return Ok(());
        }
        let result = self.write_row_group();
        self.stop_on_error(result)
    }

    /// Writes the last row group and the footer, then flushes the sink: the
    /// file is complete.
    pub fn close(self) -> Result<FileSummary> {
        self.finish().map(|(summary, _)| summary)
    }

    /// As [`close`](Self::close), and hands back the sink (e.g. the
    /// `Vec<u8>` holding the file).
    pub fn finish(mut self) -> Result<(FileSummary, W)> {
        self.flush()?;
        let Some(file) = self.file.take() else {
            return Err(self.stopped());
        };
        // Writes the footer and flushes the `parquet` crate's buffer into
        // the sink, then the sink.
        let Counted {
            inner: mut sink,
            bytes,
        } = file
            .into_inner()
            .map_err(|e| write_error(Location::default(), e))?;
        sink.flush()
            .map_err(|e| write_error(Location::default(), e.into()))?;
        Ok((
            FileSummary {
                rows: self.rows,
                row_groups: self.row_groups,
                bytes,
            },
            sink,
        ))
    }

    /// The sink, to take the bytes written so far from its front (the
    /// multipart upload's parts); `None` once closed or failed. Bytes are
    /// only ever taken, never written, so the offsets the footer records
    /// stay those of the file.
    #[cfg(feature = "object_store")]
    fn sink_mut(&mut self) -> Option<&mut W> {
        self.file.as_mut().map(|file| &mut file.inner_mut().inner)
    }

    /// An error naming the field and row of the first value a column
    /// refused in the rows just pushed; the writer then stops (the row group
    /// being buffered is incomplete, so nothing more is written).
    fn check_refused(&mut self) -> Result<()> {
        // The earliest row refused (the first leaf's on a tie): each leaf
        // stops at its own first, and on threads every field went on
        // through the whole slice.
        let Some((i, (row, why))) = self
            .buffers
            .buffers
            .iter_mut()
            .enumerate()
            .filter_map(|(i, b)| b.refused.take().map(|r| (i, r)))
            .min_by_key(|(i, (row, _))| (*row, *i))
        else {
            return Ok(());
        };
        let leaf = &self.leaves[i];
        let error = Error::Value {
            location: location(&leaf.dotted(), self.row_groups),
            message: format!(
                "field `{}::{}`, row {}: {why}",
                T::STRUCT_NAME,
                leaf.field,
                self.rows + (self.buffered + row) as u64
            ),
        };
        self.stop_on_error(Err(error))
    }

    /// Checks the `pushed` rows just pushed against the declared order
    /// ([`WriteOptions::sorted_by`]); a row out of order stops the writer.
    fn check_sorted(&mut self, pushed: usize) -> Result<()> {
        let rows = self.buffered..self.buffered + pushed;
        let Err(out) = self.sorted.check(rows, &self.buffers.buffers, &self.leaves) else {
            return Ok(());
        };
        let leaf = &self.leaves[self.sorted.keys[out.key].index];
        let error = Error::Value {
            location: location(&leaf.dotted(), self.row_groups),
            message: format!(
                "field `{}::{}`, row {}: {}",
                T::STRUCT_NAME,
                leaf.field,
                self.rows + out.row as u64,
                out.message
            ),
        };
        self.stop_on_error(Err(error))
    }

    fn check_running(&self) -> Result<()> {
        if self.file.is_some() {
            Ok(())
        } else {
            Err(self.stopped())
        }
    }

    fn stopped(&self) -> Error {
        Error::Unsupported {
            location: Location::default(),
            message: match &self.failed {
                Some(first) => format!(
                    "the writer stopped at an earlier error ({first}); the file is incomplete"
                ),
                None => "the writer is closed".to_owned(),
            },
        }
    }

    fn stop_on_error(&mut self, result: Result<()>) -> Result<()> {
        if let Err(e) = &result {
            self.failed = Some(e.to_string());
            // Dropped without its footer: the file never looks complete.
            self.file = None;
        }
        result
    }

    /// Encodes the buffered rows as the next row group.
    fn write_row_group(&mut self) -> Result<()> {
        let row_group = self.row_groups;
        let file = self.file.as_mut().expect("checked by `flush`");
        let schema = file.schema_descr().clone();
        let properties = file.properties().clone();
        let own = |i: usize| self.own_encoders && encode::supported(&schema.column(i), &properties);
        let mut ahead = encode_ahead(
            self.threads,
            &schema,
            &properties,
            &self.buffers.buffers,
            own,
        )?;
        let mut group = file
            .next_row_group()
            .map_err(|e| write_error(location("", row_group), e))?;
        for (i, (leaf, buffer)) in self
            .leaves
            .iter()
            .zip(&mut self.buffers.buffers)
            .enumerate()
        {
            let at = || location(&leaf.dotted(), row_group);
            let descr = schema.column(i);
            let encoded = match ahead.get_mut(i).and_then(Option::take) {
                Some(encoded) => Some(encoded),
                None if own(i) => Some(encode::encode_chunk(&descr, &properties, buffer)),
                None => None,
            };
            if let Some(encoded) = encoded {
                // Our own encoders (`encode.rs`): the chunk's pages in a
                // buffer, spliced into the file.
                let (pages, close) = encoded.map_err(|e| write_error(at(), e))?;
                group
                    .append_column(&pages, close)
                    .map_err(|e| write_error(at(), e))?;
                buffer.clear();
                continue;
            }
            let mut writer = group
                .next_column()
                .map_err(|e| write_error(at(), e))?
                .ok_or_else(|| write_error(at(), ParquetError::General("no column left".into())))?;
            write_column(&mut writer, &leaf.column, buffer).map_err(|e| write_error(at(), e))?;
            writer.close().map_err(|e| write_error(at(), e))?;
            buffer.clear();
        }
        group
            .close()
            .map_err(|e| write_error(location("", row_group), e))?;
        self.rows += self.buffered as u64;
        self.row_groups += 1;
        self.sorted.row_group_written();
        self.buffered = 0;
        Ok(())
    }
}

/// A row group's chunk encoded ahead by our own encoders, or the error that
/// stopped it.
type Encoded = std::result::Result<(Bytes, ColumnCloseResult), ParquetError>;

/// The chunks of the columns `own` picks, encoded in parallel on a pool of
/// `threads` (`WriteOptions::threads`), indexed as the leaves (`None` for
/// the others); empty on one thread, where each chunk is encoded just before
/// it is written, so that one chunk at a time is held. The chunks do not
/// depend on each other, nor on the file's offsets (those are fixed when a
/// chunk is appended), so the file is the one a single thread writes.
#[cfg(feature = "rayon")]
fn encode_ahead(
    threads: usize,
    schema: &SchemaDescriptor,
    properties: &WriterProperties,
    buffers: &[ColumnBuffer],
    own: impl Fn(usize) -> bool + Sync,
) -> Result<Vec<Option<Encoded>>> {
    use rayon::prelude::*;
    let picked = (0..buffers.len()).filter(|&i| own(i)).count();
    if threads <= 1 || picked < 2 {
        return Ok(Vec::new());
    }
    let pool = crate::builder::threads::pool(threads)?;
    Ok(pool.install(|| {
        buffers
            .par_iter()
            .enumerate()
            // One column per task: a chunk is large enough to pay for one.
            .with_max_len(1)
            .map(|(i, buffer)| {
                own(i).then(|| encode::encode_chunk(&schema.column(i), properties, buffer))
            })
            .collect()
    }))
}

/// Without the `rayon` feature every chunk is encoded just before it is
/// written.
#[cfg(not(feature = "rayon"))]
#[allow(clippy::unnecessary_wraps)] // the signature of the `rayon` one
fn encode_ahead(
    _threads: usize,
    _schema: &SchemaDescriptor,
    _properties: &WriterProperties,
    _buffers: &[ColumnBuffer],
    _own: impl Fn(usize) -> bool,
) -> Result<Vec<Option<Encoded>>> {
    Ok(Vec::new())
}

/// Hands one column's buffered values to its column writer, a batch of
/// about `ENCODE_BATCH` levels at a time, each batch ending at a record
/// boundary (the column writer requires a batch to start one); the
/// definition levels (when the column has them) decide how many values each
/// batch takes: those at the maximum level.
fn write_column(
    writer: &mut SerializedColumnWriter<'_>,
    column: &rules::Column,
    buffer: &mut ColumnBuffer,
) -> std::result::Result<(), ParquetError> {
    let (max_def, max_rep) = (buffer.max_def, buffer.max_rep);
    let entries = if max_def > 0 {
        buffer.defs.len()
    } else {
        match column.physical {
            rules::Physical::Boolean => buffer.bools.len(),
            rules::Physical::Int32 => buffer.ints.len(),
            rules::Physical::Int64 => buffer.longs.len(),
            rules::Physical::Float => buffer.floats.len(),
            rules::Physical::Double => buffer.doubles.len(),
            _ => buffer.ends.len(),
        }
    };
    // Byte arrays become `ByteArray`s slicing one shared buffer: one copy of
    // the bytes (into the buffer, at `write`), none here.
    let data = Bytes::from(std::mem::take(&mut buffer.bytes));
    let mut value = 0; // index of the first value of the batch
    let mut start = 0; // its first byte
    let mut first = 0; // its first level
    while first < entries {
        let mut end = (first + ENCODE_BATCH).min(entries);
        if max_rep > 0 {
            while end < entries && buffer.reps[end] != 0 {
                end += 1;
            }
        }
        let levels = first..end;
        first = end;
        let defs = (max_def > 0).then(|| &buffer.defs[levels.clone()]);
        let reps = (max_rep > 0).then(|| &buffer.reps[levels.clone()]);
        let count = defs.map_or(levels.len(), |d| {
            d.iter().filter(|&&d| d == max_def).count()
        });
        let values = value..value + count;
        // The byte arrays of this batch, each slicing `data`.
        let mut arrays = || -> Vec<ByteArray> {
            buffer.ends[values.clone()]
                .iter()
                .map(|&end| ByteArray::from(data.slice(std::mem::replace(&mut start, end)..end)))
                .collect()
        };
        match column.physical {
            rules::Physical::Boolean => {
                batch::<BoolType>(writer, &buffer.bools[values], defs, reps)?;
            }
            rules::Physical::Int32 => batch::<Int32Type>(writer, &buffer.ints[values], defs, reps)?,
            rules::Physical::Int64 => {
                batch::<Int64Type>(writer, &buffer.longs[values], defs, reps)?;
            }
            rules::Physical::Float => {
                batch::<FloatType>(writer, &buffer.floats[values], defs, reps)?;
            }
            rules::Physical::Double => {
                batch::<DoubleType>(writer, &buffer.doubles[values], defs, reps)?;
            }
            rules::Physical::ByteArray => batch::<ByteArrayType>(writer, &arrays(), defs, reps)?,
            rules::Physical::FixedLenByteArray => {
                let fixed: Vec<FixedLenByteArray> =
                    arrays().into_iter().map(FixedLenByteArray::from).collect();
                batch::<FixedLenByteArrayType>(writer, &fixed, defs, reps)?;
            }
            rules::Physical::Int96 => return Err(ParquetError::NYI("writing INT96".into())),
        }
        value += count;
    }
    // The column writer still holds slices of `data` (its dictionary, its
    // statistics) until it is closed: the next row group gets a buffer of
    // its own, sized as this one was, rather than a copy of this one.
    buffer.bytes = Vec::with_capacity(data.len());
    Ok(())
}

/// The sink, counting the bytes written to it (the file's size).
struct Counted<W> {
    inner: W,
    bytes: u64,
}

impl<W: Write> Write for Counted<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let n = self.inner.write(buf)?;
        self.bytes += n as u64;
        Ok(n)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.inner.flush()
    }
}

/// One batch of values (and their levels) to a column writer.
fn batch<D: DataType>(
    writer: &mut SerializedColumnWriter<'_>,
    values: &[D::T],
    defs: Option<&[i16]>,
    reps: Option<&[i16]>,
) -> std::result::Result<(), ParquetError> {
    writer
        .typed::<D>()
        .write_batch(values, defs, reps)
        .map(drop)
}

fn location(column: &str, row_group: usize) -> Location {
    Location {
        column: column.to_owned(),
        row_group: Some(row_group),
        page: None,
    }
}

fn write_error(location: Location, source: ParquetError) -> Error {
    Error::Write { location, source }
}

/// Writes `rows` to a new file at `path` with the default options.
///
/// ```
/// use parquet_rows::ParquetRow;
///
/// #[derive(ParquetRow)]
/// struct Point {
///     x: f64,
///     y: f64,
/// }
///
/// let path = std::env::temp_dir().join("parquet-rows-doc-to-path.parquet");
/// let summary = parquet_rows::to_path(&path, &[Point { x: 1.0, y: 2.0 }])?;
/// assert_eq!(summary.rows, 1);
/// # std::fs::remove_file(&path).unwrap();
/// # Ok::<(), parquet_rows::Error>(())
/// ```
pub fn to_path<T: ParquetWrite>(path: impl AsRef<Path>, rows: &[T]) -> Result<FileSummary> {
    let mut writer = Writer::<T>::create(path, WriteOptions::default())?;
    writer.write(rows)?;
    writer.close()
}

/// Writes `rows` to `sink` with the default options, and hands the sink back.
///
/// ```
/// use parquet_rows::ParquetRow;
///
/// #[derive(ParquetRow, Debug, PartialEq)]
/// struct Point {
///     x: f64,
///     label: Option<String>,
/// }
///
/// let rows = vec![Point { x: 1.0, label: None }, Point { x: 2.5, label: Some("b".into()) }];
/// let (_, bytes) = parquet_rows::to_writer(Vec::new(), &rows)?;
/// let back: Vec<Point> = parquet_rows::from_bytes(bytes::Bytes::from(bytes))?;
/// assert_eq!(back, rows);
/// # Ok::<(), parquet_rows::Error>(())
/// ```
pub fn to_writer<T: ParquetWrite, W: Write + Send>(
    sink: W,
    rows: &[T],
) -> Result<(FileSummary, W)> {
    let mut writer = Writer::<T, W>::new(sink, WriteOptions::default())?;
    writer.write(rows)?;
    writer.finish()
}
