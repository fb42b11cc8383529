//! The trait `#[derive(ParquetRow)]` implements.

use crate::bind::Fields;
use crate::error::Result;
use crate::group::RowGroup;
use crate::sink::RowSink;

/// A struct whose values can be decoded from the rows of a Parquet file.
///
/// Implement it with `#[derive(ParquetRow)]`, never by hand: the methods are the
/// derive's plumbing and may change between versions.
///
/// `'p` is the lifetime of the decompressed pages (held by [`Pages`](crate::Pages))
/// that borrowed fields point into, as in serde's `Deserialize<'de>`. A struct
/// with a lifetime, `Tick<'a>`, implements `ParquetRow<'a>`; a struct without
/// one implements `ParquetRow<'p>` for every `'p` (it owns its data) and
/// [`OwnedRow`], which is what [`from_path`](crate::from_path) and
/// a builder's owned endings ([`RowsBuilder`](crate::RowsBuilder)'s `collect`,
/// `stream`, `batches`) require.
///
/// ```
/// use parquet_rows::ParquetRow;
///
/// #[derive(ParquetRow)]
/// struct Tick<'a> {
///     ts: i64,
///     symbol: &'a str,
///     bid: f64,
///     ask: f64,
/// }
/// ```
pub trait ParquetRow<'p>: Sized {
    /// The struct's name, for error messages.
    #[doc(hidden)]
    const STRUCT_NAME: &'static str;

    /// The schema declared on the struct with `#[parquet(schema = "...")]` or
    /// `#[parquet(schema_file = "...")]`, as message-type text; the derive
    /// checked the struct against it at compile time, and the binder says when
    /// a file differs from it.
    #[doc(hidden)]
    const DECLARED_SCHEMA: Option<&'static str> = None;

    /// The fields that read columns (skipped and partition fields excluded),
    /// in declaration order, and the declared schema.
    #[doc(hidden)]
    fn fields() -> Fields;

    /// Appends every row of one row group to `out`.
    #[doc(hidden)]
    fn decode<S: RowSink<Self>>(row_group: &RowGroup<'_, 'p>, out: &mut S) -> Result<()>;

    /// The struct's typed filter (`TickFilter` for `Tick`), made by the
    /// generated `Tick::filter()`; see [`RowFilter`](crate::RowFilter).
    type Filter: crate::filter::RowFilter;

    /// Clears `marks[i]` for each of `rows` that fails predicate `p`, when
    /// [`ParquetRow::tests_rows`] accepts its field; otherwise does nothing.
    #[doc(hidden)]
    fn mark(rows: &[Self], p: &crate::filter::Predicate, marks: &mut [bool]);

    /// Whether predicates on field number `field` can be tested on decoded
    /// rows ([`ParquetRow::mark`]): not those of a converted field,
    /// which compare in the source type the row no longer holds (they are
    /// tested on the column only).
    #[doc(hidden)]
    fn tests_rows(field: usize) -> bool {
        let _ = field;
        false
    }

    /// The columns of the fields `predicates` test, each made ready to test
    /// them a batch of rows at a time before the rows are decoded.
    #[doc(hidden)]
    fn probes(
        row_group: &RowGroup<'_, 'p>,
        predicates: &[crate::filter::Predicate],
    ) -> Result<Vec<Box<dyn Probe + 'p>>>;
}

/// A struct that owns its data (no lifetime parameter): its rows outlive the
/// pages they are decoded from, so [`from_path`](crate::from_path),
/// [`from_bytes`](crate::from_bytes) and a builder's `collect`
/// ([`ParquetFile::rows`](crate::ParquetFile::rows)) can return them. `#[derive(ParquetRow)]` implements it for every struct
/// without a lifetime parameter.
///
/// It is a trait of its own, rather than the bound `for<'p> ParquetRow<'p>`
/// alone, so that a borrowed struct given to those functions gets a message
/// that says what to do: with the bound alone, rustc reports a lifetime error
/// ("implementation of `ParquetRow` is not general enough"), which no
/// `on_unimplemented` message can replace.
#[diagnostic::on_unimplemented(
    message = "`{Self}` borrows from the pages, so it cannot outlive them",
    label = "a struct with a lifetime parameter",
    note = "read it with `ParquetFile::load`, which keeps the pages, then `Pages::rows`: `let pages = file.load::<{Self}>()?; let rows: Vec<{Self}> = pages.rows()?;`",
    note = "or make the struct own its data (`String`, `Vec<u8>` instead of `&str`, `&[u8]`), without a lifetime parameter"
)]
pub trait OwnedRow: for<'p> ParquetRow<'p> {}

/// One predicate field's column, read a batch of rows at a time to test its
/// predicates on them. Made by the derive's `ParquetRow::probes` through
/// `pages::select::probe`.
#[doc(hidden)]
pub trait Probe {
    /// Tests the next `keep.len()` rows: clears `keep[i]` for each row whose
    /// value fails a predicate. A batch whose rows are all cleared already is
    /// skipped undecoded.
    ///
    /// # Errors
    /// When the column cannot be decoded.
    fn test(&mut self, keep: &mut [bool]) -> Result<()>;
}
