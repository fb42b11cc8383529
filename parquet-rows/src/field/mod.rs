//! Which Rust field types can read which Parquet columns, and how values convert.
//!
//! Each supported field type implements [`ParquetField`]: it names the physical
//! type it decodes from, its [`FieldKind`] (what the shared rules of
//! `parquet-rows-rules` check against a column once per file, at bind time, and
//! at compile time against a declared schema), and converts decoded values.

#[cfg(any(
    feature = "chrono",
    feature = "rust_decimal",
    feature = "half",
    feature = "uuid"
))]
mod features;
mod logical;
mod primitive;
#[cfg(feature = "compact_str")]
mod small_string;
#[cfg(test)]
mod verdicts;

use parquet_rows_rules::FieldKind;

use crate::error::Result;
use crate::physical::Physical;

pub use crate::column::ColumnContext;

/// The read methods of a [`ParquetField`] impl, each through the column
/// reader's one read path with the conversion `$decode` (a
/// `column::Decode`): into a buffer of plain values, a buffer of `Option`s,
/// or one field of each row.
macro_rules! reads {
    ($decode:expr) => {
        /// Appends exactly `n` values from a column without nulls to `out`.
        #[inline]
        fn read(
            reader: &mut $crate::column::ColumnReader<'p, Self::Physical, Self>,
            n: usize,
            out: &mut Vec<Self>,
        ) -> $crate::error::Result<()> {
            reader.read_with(n, &mut $decode, out)
        }
        /// Appends exactly `n` values that may be null to `out`.
        #[inline]
        fn read_optional(
            reader: &mut $crate::column::ColumnReader<'p, Self::Physical, Self>,
            n: usize,
            out: &mut Vec<Option<Self>>,
        ) -> $crate::error::Result<()> {
            reader.read_with(n, &mut $decode, &mut $crate::out::Optionals::new(out))
        }
        /// Writes exactly `rows.len()` values, one into the field
        /// `field(row)` of each row: `Self` for a plain field (`N` is
        /// `NotNull`), `Option<Self>` for an `Option` one (`Nullable`). The
        /// rows hold their placeholders: the fields of null rows keep them.
        #[doc(hidden)]
        #[inline]
        fn read_into<R, N: $crate::out::Nulls>(
            reader: &mut $crate::column::ColumnReader<'p, Self::Physical, Self>,
            rows: &mut [R],
            field: impl FnMut(&mut R) -> &mut N::Field<Self>,
        ) -> $crate::error::Result<()> {
            let mut sink = $crate::out::Rows::<_, _, N>::new(rows, field);
            reader.read_with(sink.len(), &mut $decode, &mut sink)
        }
        /// [`read_into`](Self::read_into) for the taken rows of `runs`
        /// (rows to skip, rows to take): `rows` holds one row per taken
        /// row, the skipped rows are moved past undecoded.
        #[doc(hidden)]
        #[inline]
        fn read_runs_into<R, N: $crate::out::Nulls>(
            reader: &mut $crate::column::ColumnReader<'p, Self::Physical, Self>,
            runs: &[(usize, usize)],
            rows: &mut [R],
            field: impl FnMut(&mut R) -> &mut N::Field<Self>,
        ) -> $crate::error::Result<()> {
            let mut sink = $crate::out::Rows::<_, _, N>::new(rows, field);
            reader.read_runs_with(runs, &mut $decode, &mut sink)
        }
        /// Appends the values of the taken rows of `runs` to `out`.
        #[doc(hidden)]
        #[inline]
        fn read_runs(
            reader: &mut $crate::column::ColumnReader<'p, Self::Physical, Self>,
            runs: &[(usize, usize)],
            out: &mut Vec<Self>,
        ) -> $crate::error::Result<()> {
            reader.read_runs_with(runs, &mut $decode, out)
        }
        /// Appends the values (or nulls) of the taken rows of `runs` to `out`.
        #[doc(hidden)]
        #[inline]
        fn read_runs_optional(
            reader: &mut $crate::column::ColumnReader<'p, Self::Physical, Self>,
            runs: &[(usize, usize)],
            out: &mut Vec<Option<Self>>,
        ) -> $crate::error::Result<()> {
            reader.read_runs_with(runs, &mut $decode, &mut $crate::out::Optionals::new(out))
        }
    };
}
pub(crate) use reads;

/// A Rust type that can be a field of a `#[derive(ParquetRow)]` struct.
///
/// `'p` is the lifetime of the decompressed pages: borrowed types (`&'p str`,
/// `&'p [u8]`) point into them. See the crate docs for the table of supported
/// types and the columns each reads.
///
/// The methods are used by the code `#[derive(ParquetRow)]` generates; you do not
/// call them yourself.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be a field of a `#[derive(ParquetRow)]` struct",
    label = "unsupported field type",
    note = "supported field types: bool, i8-i64, u8-u64, i128, f32, f64, &str, String, Box<str>, Arc<str>, CompactString, &[u8], Vec<u8>, [u8; N], bytes::Bytes, Timestamp, Date, Time, Int96, Decimal, Variant, OwnedVariant, structs that derive ParquetRow, Vec<_>, HashMap<_, _>, BTreeMap<_, _>, and Option<_> of each",
    note = "borrowed fields (`&str`, `&[u8]`) must use the struct's lifetime parameter; use #[parquet(skip)] for a field that is not in the file",
    note = "for a type of your own, read a supported type and convert it: #[parquet(from = \"f64\")] uses `From<f64>`, #[parquet(try_from = \"&str\")] uses `TryFrom<&str>`"
)]
pub trait ParquetField<'p>: Sized {
    /// The physical type this field decodes from.
    type Physical: Physical;
    /// What the field type is to the rules that decide which columns it reads
    /// (`Option<T>` has `T`'s kind). The binder checks it once per file, the
    /// derive at compile time when the struct declares its schema.
    #[doc(hidden)]
    const KIND: FieldKind;
    /// The type's name, for messages about list elements and map keys.
    #[doc(hidden)]
    const RUST_TYPE: &'static str;
    /// Converts one decoded value, or says why it does not fit.
    fn convert(
        value: <Self::Physical as Physical>::Value<'p>,
        context: &ColumnContext,
    ) -> Result<Self, String>;
    reads!(crate::column::Convert(Self::convert));
    /// A value a row holds in this field until the decoded one is written
    /// over it: cheap to make and to drop (no allocation).
    #[doc(hidden)]
    fn placeholder() -> Self;
    /// See [`ParquetNode::CHEAP_PLACEHOLDER`](crate::ParquetNode::CHEAP_PLACEHOLDER).
    #[doc(hidden)]
    const CHEAP_PLACEHOLDER: bool = true;
}

/// Implements `ParquetField` for a type: its physical type, its kind (what it
/// reads is decided by the shared rules), and the conversion; `identity` types
/// read straight from the page into the output (no conversion pass).
macro_rules! field {
    (identity $ty:ty, $physical:ty, $kind:expr) => {
        $crate::field::leaf!($ty);
        impl<'p> $crate::field::ParquetField<'p> for $ty {
            type Physical = $physical;
            const KIND: ::parquet_rows_rules::FieldKind = $kind;
            const RUST_TYPE: &'static str = stringify!($ty);
            #[inline]
            fn convert(value: $ty, _: &$crate::field::ColumnContext) -> Result<Self, String> {
                Ok(value)
            }
            $crate::field::reads!($crate::column::Identity);
            #[inline]
            fn placeholder() -> Self {
                <$ty as ::core::default::Default>::default()
            }
        }
    };
    // A type without a `Default` (or with a costly one) names its placeholder.
    (placeholder = $placeholder:expr, $ty:ty, $physical:ty, $kind:expr, |$v:ident, $cx:pat_param| $convert:expr) => {
        $crate::field::leaf!($ty);
        $crate::field::field!(@impl $ty, $physical, $kind, $placeholder, |$v, $cx| $convert);
    };
    // `u8` is a leaf but not a list element: `Vec<u8>` reads BYTE_ARRAY.
    (not_listed $ty:ty, $physical:ty, $kind:expr, |$v:ident, $cx:pat_param| $convert:expr) => {
        $crate::field::field!(@impl $ty, $physical, $kind, <$ty as ::core::default::Default>::default(), |$v, $cx| $convert);
    };
    ($ty:ty, $physical:ty, $kind:expr, |$v:ident, $cx:pat_param| $convert:expr) => {
        $crate::field::leaf!($ty);
        $crate::field::field!(@impl $ty, $physical, $kind, <$ty as ::core::default::Default>::default(), |$v, $cx| $convert);
    };
    // A type that copies each byte array (`String`): `copy` makes it from
    // bytes that live only until the next value (see `column::Copied`).
    ($ty:ty, $physical:ty, $kind:expr, |$v:ident, $cx:pat_param| $convert:expr, copy = $copy:expr) => {
        $crate::field::leaf!($ty);
        $crate::field::field!(@impl $ty, $physical, $kind, <$ty as ::core::default::Default>::default(), |$v, $cx| $convert, $copy);
    };
    (@impl $ty:ty, $physical:ty, $kind:expr, $placeholder:expr, |$v:ident, $cx:pat_param| $convert:expr $(, $copy:expr)?) => {
        impl<'p> $crate::field::ParquetField<'p> for $ty {
            type Physical = $physical;
            const KIND: ::parquet_rows_rules::FieldKind = $kind;
            const RUST_TYPE: &'static str = stringify!($ty);
            #[inline]
            fn convert(
                $v: <$physical as $crate::physical::Physical>::Value<'p>,
                $cx: &$crate::field::ColumnContext,
            ) -> Result<Self, String> {
                $convert
            }
            #[inline]
            fn placeholder() -> Self {
                $placeholder
            }
            $($crate::field::reads!($crate::column::Copied::new(Self::convert, $copy));)?
        }
    };
}
pub(crate) use field;

/// A type that can be the element of a `Vec<T>` field read from a LIST: every
/// field type but `u8` (`Vec<u8>` reads BYTE_ARRAY values).
#[doc(hidden)]
#[diagnostic::on_unimplemented(
    message = "`Vec<{Self}>` cannot read a list",
    note = "`Vec<u8>` reads BYTE_ARRAY values; for a list of small integers use `Vec<i32>` or `Vec<u16>`"
)]
pub trait ListElement {}

/// Marks a leaf type as an element of `Vec<T>` lists (all but `u8`).
macro_rules! leaf {
    ($ty:ty) => {
        impl<'p> $crate::field::ListElement for $ty {}
    };
}
pub(crate) use leaf;
