//! [`WriteOptions`]: how a [`Writer`](crate::Writer) encodes and cuts a file.

use parquet::basic::{BrotliLevel, Encoding, GzipLevel, ZstdLevel};
use parquet::file::metadata::{KeyValue, SortingColumn};
use parquet::file::properties::{EnabledStatistics, WriterProperties, WriterVersion};
use parquet::schema::types::ColumnPath;

use parquet_rows_rules::Physical;

use super::schema::Leaf;
use super::sorted::{SortKey, SortOrder};
use crate::error::{Error, Location, Result};

/// The codec that compresses pages, with its level where it has one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Compression {
    /// No compression.
    Uncompressed,
    /// SNAPPY (pyarrow's default).
    Snappy,
    /// GZIP at a level from 0 to 10.
    Gzip(u32),
    /// BROTLI at a level from 0 to 11; needs the `write-brotli` feature.
    Brotli(u32),
    /// LZ4 as Hadoop frames it (deprecated by parquet-format; prefer `Lz4Raw`).
    Lz4,
    /// LZ4_RAW.
    Lz4Raw,
    /// ZSTD at a level from 1 to 22.
    Zstd(i32),
}

/// Which data page header the pages are written with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PageVersion {
    /// DATA_PAGE (v1): what every reader reads.
    V1,
    /// DATA_PAGE_V2: levels stored uncompressed in front of the values. The
    /// `parquet` crate's column writers then also fall back from a full
    /// dictionary to the DELTA encodings rather than PLAIN.
    V2,
}

/// How a column's values are encoded, chosen per field with
/// `#[parquet(encoding = "...")]`: `"dictionary"` (with the options'
/// fallback when the dictionary grows too large), `"plain"`,
/// `"delta_binary_packed"` (INT32, INT64), `"delta_length_byte_array"`,
/// `"delta_byte_array"` (byte arrays), `"byte_stream_split"` (floats,
/// integers, fixed-length byte arrays). A field without the attribute
/// follows [`WriteOptions::dictionary`].
///
/// ```
/// use parquet_rows::ParquetRow;
///
/// #[derive(ParquetRow, Debug, PartialEq)]
/// struct Tick {
///     #[parquet(encoding = "delta_binary_packed")]
///     ts: i64,
///     #[parquet(encoding = "dictionary", bloom_filter)]
///     symbol: String,
///     #[parquet(encoding = "byte_stream_split")]
///     bid: f64,
/// }
///
/// let rows = vec![Tick { ts: 1, symbol: "EURUSD".into(), bid: 1.08 }];
/// let (_, bytes) = parquet_rows::to_writer(Vec::new(), &rows)?;
/// let back: Vec<Tick> = parquet_rows::from_bytes(bytes::Bytes::from(bytes))?;
/// assert_eq!(back, rows);
/// # Ok::<(), parquet_rows::Error>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum ColumnEncoding {
    /// Dictionary, falling back when the dictionary is full.
    Dictionary,
    /// PLAIN, no dictionary.
    Plain,
    /// DELTA_BINARY_PACKED (INT32, INT64).
    DeltaBinaryPacked,
    /// DELTA_LENGTH_BYTE_ARRAY (BYTE_ARRAY).
    DeltaLengthByteArray,
    /// DELTA_BYTE_ARRAY (BYTE_ARRAY, FIXED_LEN_BYTE_ARRAY).
    DeltaByteArray,
    /// BYTE_STREAM_SPLIT (FLOAT, DOUBLE, INT32, INT64, FIXED_LEN_BYTE_ARRAY).
    ByteStreamSplit,
}

impl ColumnEncoding {
    /// The `parquet` crate's encoding, or why `physical` cannot have it.
    fn encoding(self, physical: Physical) -> std::result::Result<Encoding, String> {
        use ColumnEncoding as E;
        use Physical as P;
        let (encoding, fits) = match self {
            E::Dictionary => (Encoding::RLE_DICTIONARY, physical != P::Boolean),
            E::Plain => (Encoding::PLAIN, true),
            E::DeltaBinaryPacked => (
                Encoding::DELTA_BINARY_PACKED,
                matches!(physical, P::Int32 | P::Int64),
            ),
            E::DeltaLengthByteArray => {
                (Encoding::DELTA_LENGTH_BYTE_ARRAY, physical == P::ByteArray)
            }
            E::DeltaByteArray => (
                Encoding::DELTA_BYTE_ARRAY,
                matches!(physical, P::ByteArray | P::FixedLenByteArray),
            ),
            E::ByteStreamSplit => (
                Encoding::BYTE_STREAM_SPLIT,
                matches!(
                    physical,
                    P::Float | P::Double | P::Int32 | P::Int64 | P::FixedLenByteArray
                ),
            ),
        };
        if fits {
            Ok(encoding)
        } else {
            Err(format!("{encoding} does not encode {physical:?} values"))
        }
    }
}

/// Which statistics the file carries.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Statistics {
    /// None.
    None,
    /// Min, max and null count of each column chunk (in the footer).
    Chunk,
    /// Those of each column chunk and of each page: the column index, which
    /// lets readers (this crate's filters too) skip pages.
    Page,
}

/// How a [`Writer`](crate::Writer) encodes and cuts a file.
///
/// The defaults: SNAPPY, row groups of at most 1,048,576 rows or an
/// estimated 128 MiB, pages of about 1 MiB, dictionary encoding (falling back
/// to PLAIN when a column's dictionary passes 1 MiB), data pages v1,
/// statistics of chunks and pages (the column index) and the offset index, no
/// bloom filters.
///
/// ```
/// use parquet_rows::writer::{Compression, PageVersion};
/// use parquet_rows::WriteOptions;
///
/// let options = WriteOptions::default()
///     .compression(Compression::Zstd(3))
///     .row_group_rows(500_000)
///     .page_version(PageVersion::V2)
///     .bloom_filter("symbol")
///     .metadata("source", "feed-a");
/// assert_eq!(options.row_group_rows_limit(), 500_000);
/// ```
#[derive(Debug, Clone)]
pub struct WriteOptions {
    compression: Compression,
    row_group_rows: usize,  // invariant: > 0
    row_group_bytes: usize, // invariant: > 0
    page_bytes: usize,
    dictionary: bool,
    page_version: PageVersion,
    statistics: Statistics,
    bloom_filters: Vec<String>,      // column names
    metadata: Vec<(String, String)>, // key-value metadata, in order
    max_value_bytes: usize,
    sorted_by: Vec<(String, SortOrder)>, // column names, the first key first
    own_encoders: bool,
    threads: usize, // invariant: > 0
}

impl Default for WriteOptions {
    fn default() -> Self {
        WriteOptions {
            compression: Compression::Snappy,
            row_group_rows: 1 << 20,
            row_group_bytes: 128 << 20,
            page_bytes: 1 << 20,
            dictionary: true,
            page_version: PageVersion::V1,
            statistics: Statistics::Page,
            bloom_filters: Vec::new(),
            metadata: Vec::new(),
            max_value_bytes: 128 << 20,
            sorted_by: Vec::new(),
            own_encoders: true,
            threads: 1,
        }
    }
}

impl WriteOptions {
    /// The codec that compresses pages.
    #[must_use]
    pub fn compression(mut self, compression: Compression) -> Self {
        self.compression = compression;
        self
    }

    /// The most rows in one row group (at least 1).
    #[must_use]
    pub fn row_group_rows(mut self, rows: usize) -> Self {
        self.row_group_rows = rows.max(1);
        self
    }

    /// The most bytes of one row group, estimated from the buffered values'
    /// PLAIN size before compression (at least 1). Rows are buffered until
    /// either this or [`row_group_rows`](Self::row_group_rows) is reached,
    /// so this also bounds the writer's memory.
    #[must_use]
    pub fn row_group_bytes(mut self, bytes: usize) -> Self {
        self.row_group_bytes = bytes.max(1);
        self
    }

    /// The size at which a data page is cut (before compression), and the
    /// most a column's dictionary grows before it falls back.
    #[must_use]
    pub fn page_bytes(mut self, bytes: usize) -> Self {
        self.page_bytes = bytes;
        self
    }

    /// Whether columns start dictionary encoded (they fall back when the
    /// dictionary outgrows [`page_bytes`](Self::page_bytes)).
    #[must_use]
    pub fn dictionary(mut self, on: bool) -> Self {
        self.dictionary = on;
        self
    }

    /// Data pages v1 or v2.
    #[must_use]
    pub fn page_version(mut self, version: PageVersion) -> Self {
        self.page_version = version;
        self
    }

    /// Which statistics to write.
    #[must_use]
    pub fn statistics(mut self, statistics: Statistics) -> Self {
        self.statistics = statistics;
        self
    }

    /// Writes a bloom filter for the column `column` (its name in the file,
    /// after `rename`); a name that is no column is an error when the writer
    /// is created.
    #[must_use]
    pub fn bloom_filter(mut self, column: impl Into<String>) -> Self {
        self.bloom_filters.push(column.into());
        self
    }

    /// The longest string or byte array value the writer accepts (128 MiB by
    /// default): a longer one is an error naming the field and row, not a
    /// page that readers refuse (parquet-rows reads pages of at most 256 MiB
    /// by default, see `ReadOptions::max_page_bytes`; other readers stop at
    /// 2 GiB).
    #[must_use]
    pub fn max_value_bytes(mut self, bytes: usize) -> Self {
        self.max_value_bytes = bytes;
        self
    }

    /// The longest string or byte array value accepted.
    pub fn max_value_bytes_limit(&self) -> usize {
        self.max_value_bytes
    }

    /// Whether flat columns (not under a list or map) of INT32, INT64,
    /// FLOAT, DOUBLE and BYTE_ARRAY, written with data pages v1, no bloom
    /// filter and a codec other than BROTLI or LZ4, are encoded by
    /// parquet-rows' own encoders (the default), rather than by
    /// the `parquet` crate's column writers, which write every other column.
    /// Both write the same encodings, statistics and page index; `false` is
    /// there to compare them.
    ///
    /// ```
    /// use parquet_rows::WriteOptions;
    ///
    /// let options = WriteOptions::default().own_encoders(false);
    /// assert!(!options.own_encoders_enabled());
    /// ```
    #[must_use]
    pub fn own_encoders(mut self, on: bool) -> Self {
        self.own_encoders = on;
        self
    }

    /// Whether [`own_encoders`](Self::own_encoders) is on.
    pub fn own_encoders_enabled(&self) -> bool {
        self.own_encoders
    }

    /// Encodes the columns of a row group on `n` threads (at least 1; 1,
    /// the default, encodes them one after the other on the calling
    /// thread). Each column our own encoders write (see
    /// [`own_encoders`](Self::own_encoders)) is encoded and compressed on its
    /// own thread; the chunks are then written in the schema's order, so the
    /// file is byte for byte the one a single thread writes. Rows that are
    /// `Sync` (any struct whose fields are, as every type the writer
    /// writes is) also have their fields moved into the column buffers on
    /// the threads, a slice of rows at a time; other rows are moved on the
    /// calling thread. The encoded
    /// chunks of a row group are held in memory until it is written: at
    /// most about one compressed row group
    /// ([`row_group_bytes`](Self::row_group_bytes)) more than one thread
    /// holds. The threads are a rayon pool of `n`, shared with reads that
    /// ask for `n` threads.
    ///
    /// ```
    /// use parquet_rows::WriteOptions;
    ///
    /// let options = WriteOptions::default().threads(2);
    /// assert_eq!(options.threads_limit(), 2);
    /// ```
    #[cfg(feature = "rayon")]
    #[must_use]
    pub fn threads(mut self, n: usize) -> Self {
        self.threads = n.max(1);
        self
    }

    /// The threads a row group's columns are encoded on (see `threads`,
    /// with the `rayon` feature); 1 without it.
    pub fn threads_limit(&self) -> usize {
        self.threads
    }

    /// Adds a key-value pair to the file's metadata.
    #[must_use]
    pub fn metadata(mut self, key: impl Into<String>, value: impl Into<String>) -> Self {
        self.metadata.push((key.into(), value.into()));
        self
    }

    /// Declares that the rows are sorted by `column` in `order`, after the
    /// keys declared before (the first call names the first key): the
    /// footer lists the keys as every row group's `sorting_columns`, and each
    /// row is checked against the one before as it is written, on the
    /// column's typed order (integers signed or unsigned as annotated,
    /// floats as numbers, strings and bytes byte by byte, decimals by value).
    /// Nulls are the smallest values: first in an ascending column, last in
    /// a descending one.
    ///
    /// A row out of order is an [`Error::Value`] naming the field and row;
    /// the writer then stops and the file gets no footer, as after any
    /// error. A NaN in a sorted column is such an error too. A column the
    /// struct does not write is an error when the writer is created.
    ///
    /// ```
    /// use parquet_rows::writer::SortOrder;
    /// use parquet_rows::{ParquetRow, WriteOptions, Writer};
    ///
    /// #[derive(ParquetRow)]
    /// struct Tick {
    ///     ts: i64,
    ///     bid: f64,
    /// }
    ///
    /// let options = WriteOptions::default().sorted_by("ts", SortOrder::Ascending);
    /// let mut writer = Writer::<Tick, _>::new(Vec::new(), options)?;
    /// writer.write(&[Tick { ts: 1, bid: 1.5 }, Tick { ts: 2, bid: 1.25 }])?;
    /// let err = writer.write_row(&Tick { ts: 0, bid: 1.0 }).unwrap_err();
    /// assert!(err.to_string().contains("field `Tick::ts`, row 2: out of order: 0 after 2"));
    /// assert!(writer.close().is_err()); // no complete file
    /// # Ok::<(), parquet_rows::Error>(())
    /// ```
    #[must_use]
    pub fn sorted_by(mut self, column: impl Into<String>, order: SortOrder) -> Self {
        self.sorted_by.push((column.into(), order));
        self
    }

    /// The declared sort keys, as indexes of `leaves`: only a top-level
    /// field's own column (a leaf, or an `Option` of one) can be a key, one
    /// value per row.
    pub(crate) fn sort_keys(&self, leaves: &[Leaf]) -> Result<Vec<SortKey>> {
        let mut keys: Vec<SortKey> = Vec::with_capacity(self.sorted_by.len());
        for (name, order) in &self.sorted_by {
            let Some(index) = leaves
                .iter()
                .position(|leaf| leaf.path.len() == 1 && leaf.path[0] == *name)
            else {
                let nested = leaves.iter().any(|leaf| leaf.path[0] == *name);
                return Err(options_error(if nested {
                    format!(
                        "rows are declared sorted by column `{name}`, a group, list or map: \
                         only a column of single values can be a sort key"
                    )
                } else {
                    format!(
                        "rows are declared sorted by column `{name}`, which the struct does not write"
                    )
                }));
            };
            if keys.iter().any(|k| k.index == index) {
                return Err(options_error(format!(
                    "rows are declared sorted by column `{name}` twice"
                )));
            }
            super::sorted::orderable(&leaves[index].column).map_err(|why| {
                options_error(format!(
                    "rows are declared sorted by column `{name}` (field `{}`): {why}",
                    leaves[index].field
                ))
            })?;
            keys.push(SortKey {
                index,
                order: *order,
            });
        }
        Ok(keys)
    }

    /// The most rows of one row group.
    pub fn row_group_rows_limit(&self) -> usize {
        self.row_group_rows
    }

    /// The most estimated bytes of one row group.
    pub fn row_group_bytes_limit(&self) -> usize {
        self.row_group_bytes
    }

    /// The `parquet` crate's properties for these options and the fields'
    /// attributes (on each leaf column under the field); bloom filters are
    /// checked against the column paths.
    pub(crate) fn properties(self, leaves: &[Leaf]) -> Result<WriterProperties> {
        let sorting: Vec<SortingColumn> = self
            .sort_keys(leaves)?
            .iter()
            .map(|key| SortingColumn {
                // The struct's columns are the file's leaves, in order.
                column_idx: i32::try_from(key.index).unwrap_or(i32::MAX),
                descending: key.order == SortOrder::Descending,
                nulls_first: key.order == SortOrder::Ascending,
            })
            .collect();
        let mut builder = WriterProperties::builder()
            .set_sorting_columns((!sorting.is_empty()).then_some(sorting))
            .set_created_by(CREATED_BY.to_owned())
            .set_compression(codec(self.compression).map_err(options_error)?)
            // The writer cuts row groups itself (`row_group_rows`,
            // `row_group_bytes`); the column writers see one row group's rows.
            .set_max_row_group_row_count(None)
            .set_data_page_size_limit(self.page_bytes)
            .set_dictionary_page_size_limit(self.page_bytes)
            .set_dictionary_enabled(self.dictionary)
            .set_writer_version(match self.page_version {
                PageVersion::V1 => WriterVersion::PARQUET_1_0,
                PageVersion::V2 => WriterVersion::PARQUET_2_0,
            })
            .set_statistics_enabled(match self.statistics {
                Statistics::None => EnabledStatistics::None,
                Statistics::Chunk => EnabledStatistics::Chunk,
                Statistics::Page => EnabledStatistics::Page,
            });
        for leaf in leaves {
            let path = || ColumnPath::new(leaf.path.clone());
            let column = &leaf.column;
            // FIXED_LEN_BYTE_ARRAY falls back (or, without a dictionary, is
            // encoded) PLAIN also in v2 files: the `parquet` crate would pick
            // DELTA_BYTE_ARRAY there, which polars refuses for this type.
            if column.physical == Physical::FixedLenByteArray {
                builder = builder.set_column_encoding(path(), Encoding::PLAIN);
            }
            if let Some(chosen) = leaf.encoding {
                let encoding = chosen.encoding(column.physical).map_err(|why| {
                    options_error(format!(
                        "field `{}` (column `{}`) asks for encoding {chosen:?}: {why}",
                        leaf.field,
                        leaf.dotted()
                    ))
                })?;
                builder = if encoding == Encoding::RLE_DICTIONARY {
                    builder.set_column_dictionary_enabled(path(), true)
                } else {
                    builder
                        .set_column_dictionary_enabled(path(), false)
                        .set_column_encoding(path(), encoding)
                };
            }
            if leaf.bloom_filter {
                builder = builder.set_column_bloom_filter_enabled(path(), true);
            }
            if let Some(compression) = leaf.compression {
                let codec = codec(compression).map_err(|why| {
                    options_error(format!(
                        "field `{}` (column `{}`) asks for compression {why}",
                        leaf.field,
                        leaf.dotted()
                    ))
                })?;
                builder = builder.set_column_compression(path(), codec);
            }
        }
        for column in &self.bloom_filters {
            let Some(leaf) = leaves.iter().find(|leaf| leaf.dotted() == *column) else {
                return Err(options_error(format!(
                    "a bloom filter is asked for column `{column}`, which the struct does not write \
                     (a nested column is named by its dotted path, e.g. `tags.list.element`)"
                )));
            };
            builder =
                builder.set_column_bloom_filter_enabled(ColumnPath::new(leaf.path.clone()), true);
        }
        if !self.metadata.is_empty() {
            let pairs = self
                .metadata
                .into_iter()
                .map(|(key, value)| KeyValue::new(key, value))
                .collect();
            builder = builder.set_key_value_metadata(Some(pairs));
        }
        Ok(builder.build())
    }
}

/// The `parquet` crate's codec for `compression`, its level checked.
fn codec(compression: Compression) -> std::result::Result<parquet::basic::Compression, String> {
    use parquet::basic::Compression as C;
    let level = |e: parquet::errors::ParquetError| format!("{compression:?}: {e}").to_lowercase();
    Ok(match compression {
        Compression::Uncompressed => C::UNCOMPRESSED,
        Compression::Snappy => C::SNAPPY,
        Compression::Gzip(n) => C::GZIP(GzipLevel::try_new(n).map_err(level)?),
        Compression::Brotli(n) => {
            if !cfg!(feature = "write-brotli") {
                return Err(
                    "writing BROTLI needs the `write-brotli` feature of parquet-rows".to_owned(),
                );
            }
            C::BROTLI(BrotliLevel::try_new(n).map_err(level)?)
        }
        Compression::Lz4 => C::LZ4,
        Compression::Lz4Raw => C::LZ4_RAW,
        Compression::Zstd(n) => C::ZSTD(ZstdLevel::try_new(n).map_err(level)?),
    })
}

/// What the footer's `created_by` says: parquet-rows and its version, in
/// the `<application> version <version>` form readers parse.
pub(crate) const CREATED_BY: &str = concat!("parquet-rows version ", env!("CARGO_PKG_VERSION"));

fn options_error(message: String) -> Error {
    Error::Unsupported {
        location: Location::default(),
        message,
    }
}
