//! What each field type writes: [`WriteField`] pushes a field's value into
//! its column's [`ColumnBuffer`].
//!
//! The column a field type writes (physical and logical type) is decided by
//! the shared rules (`FieldKind::writes` in `parquet-rows-rules`), the same
//! table the reader binds with; here each type only says which kind it is and
//! how its value is stored.

use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;

use bytes::Bytes;
use parquet_rows_rules::{self as rules, FieldKind};

use super::schema::WriteShape;
use crate::field::ListElement;
use crate::types::{Date, Decimal, Time, Timestamp, Unit};

/// The values of one column of the rows buffered for a row group, before
/// they are encoded. Only the vector of the column's physical type is used.
#[doc(hidden)]
#[derive(Debug, Default)]
pub struct ColumnBuffer {
    pub(crate) bools: Vec<bool>,
    pub(crate) ints: Vec<i32>,
    pub(crate) longs: Vec<i64>,
    pub(crate) floats: Vec<f32>,
    pub(crate) doubles: Vec<f64>,
    /// Byte arrays, one after the other; value `i` ends at `ends[i]`.
    pub(crate) bytes: Vec<u8>,
    pub(crate) ends: Vec<usize>, // invariant: ascending, last <= bytes.len()
    /// One definition level per entry (a value, a null, an empty list) of a
    /// column whose maximum definition level is above 0; empty otherwise.
    pub(crate) defs: Vec<i16>,
    /// One repetition level per entry of a column under a list or a map;
    /// empty otherwise.
    pub(crate) reps: Vec<i16>,
    /// The column's maximum definition and repetition levels.
    pub(crate) max_def: i16,
    pub(crate) max_rep: i16,
    /// What the column's annotation says values must be converted to.
    pub(crate) target: Target,
    /// The first value refused during a `push_column` (its index in the rows
    /// pushed, and why), which the writer turns into an error naming the
    /// field and row.
    pub(crate) refused: Option<(usize, String)>,
}

/// What a value is converted to, from its column: the unit and UTC flag of a
/// TIMESTAMP or TIME, the precision, scale and storage of a DECIMAL.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Target {
    pub(crate) unit: Unit,
    pub(crate) utc: bool,
    pub(crate) precision: u8,
    pub(crate) scale: u8,
    /// Bytes of a DECIMAL stored as FIXED_LEN_BYTE_ARRAY; 4 or 8 for INT32
    /// and INT64.
    pub(crate) decimal_bytes: usize,
    /// The longest string or byte array written
    /// ([`WriteOptions::max_value_bytes`](crate::WriteOptions::max_value_bytes)).
    pub(crate) max_value_bytes: usize,
}

impl Default for Target {
    fn default() -> Self {
        Target {
            unit: Unit::Micros,
            utc: true,
            precision: 38,
            scale: 0,
            decimal_bytes: 16,
            max_value_bytes: usize::MAX,
        }
    }
}

impl Target {
    /// The target of values written into `column`.
    pub(crate) fn of(column: &rules::Column) -> Self {
        let mut target = Target::default();
        match column.logical {
            Some(rules::Logical::Timestamp { unit, utc } | rules::Logical::Time { unit, utc }) => {
                target.unit = match unit {
                    rules::TimeUnit::Millis => Unit::Millis,
                    rules::TimeUnit::Micros => Unit::Micros,
                    rules::TimeUnit::Nanos => Unit::Nanos,
                };
                target.utc = utc;
            }
            Some(rules::Logical::Decimal { precision, scale }) => {
                // The rules' decimals have 1 <= precision <= 38, 0 <= scale.
                target.precision = u8::try_from(precision).unwrap_or(38);
                target.scale = u8::try_from(scale).unwrap_or(0);
                target.decimal_bytes = match column.physical {
                    rules::Physical::Int32 => 4,
                    rules::Physical::Int64 => 8,
                    _ => usize::try_from(column.length).unwrap_or(16),
                };
            }
            _ => {}
        }
        target
    }
}

impl ColumnBuffer {
    /// An estimate of the bytes these values take once encoded: their PLAIN
    /// size (a byte array's 4-byte length included) and one bit per level.
    /// Dictionary encoding and compression make most columns smaller, so a
    /// row group cut at this estimate is at most this large.
    pub(crate) fn estimated_bytes(&self) -> usize {
        self.bools.len().div_ceil(8)
            + 4 * self.ints.len()
            + 8 * self.longs.len()
            + 4 * self.floats.len()
            + 8 * self.doubles.len()
            + self.bytes.len()
            + 4 * self.ends.len()
            + self.defs.len().div_ceil(8)
            + self.reps.len().div_ceil(8)
    }

    /// The levels of one entry, for a column that has them.
    #[inline]
    fn levels(&mut self, at: Levels) {
        if self.max_def > 0 {
            self.defs.push(at.def);
        }
        if self.max_rep > 0 {
            self.reps.push(at.rep);
        }
    }

    /// Makes room for `rows` more rows of a column of one value (or null)
    /// per row, of physical type `physical`; columns under a list or a map
    /// (any number of entries per row) reserve nothing, byte arrays only
    /// their ends.
    pub(crate) fn reserve_rows(&mut self, physical: rules::Physical, rows: usize) {
        if self.max_rep > 0 {
            return;
        }
        if self.max_def > 0 {
            self.defs.reserve(rows);
        }
        match physical {
            rules::Physical::Boolean => self.bools.reserve(rows),
            rules::Physical::Int32 => self.ints.reserve(rows),
            rules::Physical::Int64 => self.longs.reserve(rows),
            rules::Physical::Float => self.floats.reserve(rows),
            rules::Physical::Double => self.doubles.reserve(rows),
            rules::Physical::ByteArray | rules::Physical::FixedLenByteArray => {
                self.ends.reserve(rows);
            }
            rules::Physical::Int96 => {}
        }
    }

    /// The bytes [`reserve_rows`](Self::reserve_rows) reserves per row.
    pub(crate) fn reserved_per_row(&self, physical: rules::Physical) -> usize {
        if self.max_rep > 0 {
            return 0;
        }
        let levels = if self.max_def > 0 { 2 } else { 0 };
        levels
            + match physical {
                rules::Physical::Boolean => 1,
                rules::Physical::Int32 | rules::Physical::Float => 4,
                rules::Physical::Int64 | rules::Physical::Double => 8,
                rules::Physical::ByteArray | rules::Physical::FixedLenByteArray => {
                    std::mem::size_of::<usize>()
                }
                rules::Physical::Int96 => 0,
            }
    }

    /// Empties the buffer, keeping its capacity for the next row group.
    pub(crate) fn clear(&mut self) {
        self.bools.clear();
        self.ints.clear();
        self.longs.clear();
        self.floats.clear();
        self.doubles.clear();
        self.bytes.clear();
        self.ends.clear();
        self.defs.clear();
        self.reps.clear();
        self.refused = None;
    }

    fn push_bytes(&mut self, value: &[u8]) {
        self.bytes.extend_from_slice(value);
        self.ends.push(self.bytes.len());
    }

    /// A string's or byte array's value, refused past the longest a page
    /// may hold for readers.
    #[inline]
    fn push_variable(&mut self, value: &[u8]) -> Result<(), String> {
        if value.len() > self.target.max_value_bytes {
            return Err(too_long(value.len(), self.target.max_value_bytes));
        }
        self.push_bytes(value);
        Ok(())
    }

    /// Appends a value of `units` of `unit` since the epoch (or midnight)
    /// to a TIMESTAMP or TIME column, converted to the column's unit: a
    /// value that would lose digits or overflow is refused.
    fn push_instant(&mut self, value: i64, unit: Unit, int32: bool) -> Result<(), String> {
        let to = self.target.unit;
        let converted = rescale_time(value, unit, to)?;
        if int32 {
            let v = i32::try_from(converted)
                .map_err(|_| format!("{converted} {to} does not fit a TIME(MILLIS) (INT32)"))?;
            self.ints.push(v);
        } else {
            self.longs.push(converted);
        }
        Ok(())
    }

    /// Appends the decimal `unscaled * 10^-scale` to a DECIMAL column: scaled
    /// to the column's scale (refused if that loses digits) and checked
    /// against its precision.
    fn push_decimal(&mut self, unscaled: i128, scale: u32) -> Result<(), String> {
        let Target {
            precision,
            scale: to,
            decimal_bytes,
            ..
        } = self.target;
        let to = u32::from(to);
        let value = if scale <= to {
            10i128
                .checked_pow(to - scale)
                .and_then(|f| unscaled.checked_mul(f))
        } else {
            10i128
                .checked_pow(scale - to)
                .filter(|&f| unscaled % f == 0)
                .map(|f| unscaled / f)
        };
        let shown = || {
            Decimal {
                unscaled,
                precision: 38,
                scale: i8::try_from(scale).unwrap_or(i8::MAX),
            }
            .to_string()
        };
        let value = value.ok_or_else(|| {
            format!(
                "decimal {} does not fit DECIMAL({precision}, {to}) without losing digits",
                shown()
            )
        })?;
        let digits = value.unsigned_abs().checked_ilog10().map_or(1, |d| d + 1);
        if digits > u32::from(precision) {
            return Err(format!(
                "decimal {} has {digits} digits at scale {to}, more than the column's precision {precision} (DECIMAL({precision}, {to}))",
                shown()
            ));
        }
        match decimal_bytes {
            // The precision check bounds the value: it fits the storage.
            4 => self.ints.push(value as i32),
            8 => self.longs.push(value as i64),
            n => {
                // Big-endian two's complement in the column's bytes.
                let bytes = value.to_be_bytes();
                self.push_bytes(&bytes[16 - n..]);
            }
        }
        Ok(())
    }
}

#[cold]
fn too_long(len: usize, most: usize) -> String {
    format!(
        "a value of {len} bytes is longer than the {most} bytes a value may have \
         (WriteOptions::max_value_bytes): its page would be one readers refuse"
    )
}

/// `value` units of `from` in units of `to`: exact or refused.
fn rescale_time(value: i64, from: Unit, to: Unit) -> Result<i64, String> {
    let (f, t) = (from.per_second(), to.per_second());
    let converted = if t >= f {
        value.checked_mul(t / f)
    } else {
        let ratio = f / t;
        (value % ratio == 0).then(|| value / ratio)
    };
    converted.ok_or_else(|| {
        format!("{value} {from} is not a whole number of {to} within 64 bits (the column's unit)")
    })
}

/// A field type that the writer writes: a non-`Option` value (see
/// [`WriteField`] for `Option`).
#[doc(hidden)]
// The bound rustc reports for a field that is not writable (`WriteField`
// comes from the blanket impls over this trait), so the message is here.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be written",
    label = "not writable",
    note = "the writer writes fields of types bool, i8-i64, u8-u64, i128, f32, f64, &str, String, Box<str>, Arc<str>, CompactString, &[u8], Vec<u8>, bytes::Bytes, [u8; N], Date, Timestamp, Time, Decimal, the chrono, rust_decimal, half and uuid types of their features, structs that derive ParquetRow, Vec<_>, HashMap<_, _>, BTreeMap<_, _>, and Option<_> of each",
    note = "`Vec<(K, V)>`, `Int96`, variants and fields read with `from` / `try_from` are not writable"
)]
pub trait WriteValue {
    /// What the rules call the type; its column is `KIND.writes()`.
    const KIND: FieldKind;
    /// Appends the value to `column`; an `Err` says why the value does not
    /// fit the column (a decimal wider than its precision), and nothing is
    /// appended.
    fn push_value(&self, column: &mut ColumnBuffer) -> Result<(), String>;
    /// Appends `values` (a column without levels: a top-level field) to
    /// `column`, or says which (its position in `values`) does not fit and
    /// why, the values before it appended. The types whose values always
    /// fit extend the column's vector in one call: one capacity check, not
    /// one per value.
    #[doc(hidden)]
    #[inline]
    fn push_values<'v>(
        values: impl Iterator<Item = &'v Self>,
        column: &mut ColumnBuffer,
    ) -> Result<(), (usize, String)>
    where
        Self: 'v,
    {
        for (i, value) in values.enumerate() {
            value.push_value(column).map_err(|message| (i, message))?;
        }
        Ok(())
    }
}

/// A type that can be a field of a struct written with
/// [`Writer`](crate::Writer): `bool`, `i8`-`i64`, `u8`-`u64`, `f32`, `f64`,
/// `&str`, `String`, `Box<str>`, `Arc<str>`, `&[u8]`, `Vec<u8>`,
/// `bytes::Bytes`, `[u8; N]`, [`Date`], [`Timestamp`], [`Time`],
/// [`Decimal`] and `i128` (a DECIMAL's unscaled value), with their features
/// `chrono`'s `DateTime<Utc>`, `NaiveDateTime`, `NaiveDate`, `NaiveTime`,
/// `rust_decimal::Decimal`, `half::f16` and `uuid::Uuid`; structs that
/// derive `ParquetRow` (a group); `Vec<T>` of any of these but `u8` (a
/// 3-level LIST); `HashMap<K, V>` and `BTreeMap<K, V>` (a MAP, the key not
/// an `Option`); and `Option<_>` of each (an OPTIONAL node). The column each
/// writes is the one the same type reads.
///
/// A TIMESTAMP or TIME column has the unit and UTC flag of the field's
/// attributes (`#[parquet(unit = "millis" | "micros" | "nanos", utc =
/// true | false)]`; microseconds by default, UTC for `Timestamp` and
/// `DateTime<Utc>`, local for the others); a value is converted to the
/// column's unit when that is exact, and is an error otherwise (as is a
/// `Timestamp` whose `utc` flag differs from the column's). A DECIMAL column
/// has the attributes' `precision` and `scale` (required); a value is
/// scaled to the column's scale when that is exact, and a value with more
/// digits than the precision is an error naming the field and row.
///
/// The methods are used by the code `#[derive(ParquetRow)]` generates; you
/// do not call them yourself.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be written",
    label = "not writable",
    note = "the writer writes fields of types bool, i8-i64, u8-u64, i128, f32, f64, &str, String, Box<str>, Arc<str>, CompactString, &[u8], Vec<u8>, bytes::Bytes, [u8; N], Date, Timestamp, Time, Decimal, the chrono, rust_decimal, half and uuid types of their features, structs that derive ParquetRow, Vec<_>, HashMap<_, _>, BTreeMap<_, _>, and Option<_> of each",
    note = "`Vec<(K, V)>`, `Int96`, variants and fields read with `from` / `try_from` are not writable"
)]
pub trait WriteField {
    /// What the type writes.
    #[doc(hidden)]
    fn write_shape() -> WriteShape;
    /// Appends the value to the leaf columns under it (from `leaves.next`),
    /// each entry with levels `at`, or says why a leaf value does not fit
    /// its column (the writer then stops: the buffers are not consistent).
    #[doc(hidden)]
    fn push_field(&self, leaves: &mut Leaves<'_>, at: Levels) -> Result<(), String>;
    /// Appends one entry without a value to every leaf column under the
    /// node: the node or an ancestor is null, or a list is empty (`at.def`
    /// says which).
    #[doc(hidden)]
    fn push_absent(leaves: &mut Leaves<'_>, at: Levels);
    /// Appends the field `get` reads of each of `rows` to `columns` (the
    /// field's leaf columns); the first value that does not fit is recorded
    /// in its column's `refused`, and the rest are not pushed.
    #[doc(hidden)]
    #[inline]
    fn push_rows<R>(rows: &[R], columns: &mut [ColumnBuffer], get: impl Fn(&R) -> &Self)
    where
        Self: Sized,
    {
        push_each(rows, columns, get);
    }
}

/// [`WriteField::push_rows`] one row at a time.
#[inline]
fn push_each<R, F: WriteField>(rows: &[R], columns: &mut [ColumnBuffer], get: impl Fn(&R) -> &F) {
    let mut leaves = Leaves { columns, next: 0 };
    for (i, row) in rows.iter().enumerate() {
        leaves.next = 0;
        // `Ok` for every value of the infallible types: the check compiles away.
        if let Err(message) = get(row).push_field(&mut leaves, Levels::default()) {
            // The leaf that refused is the last one taken.
            let leaf = leaves.next.saturating_sub(1);
            leaves.columns[leaf].refused = Some((i, message));
            return;
        }
    }
}

/// The levels of the entries a node pushes: `def`, the definition level
/// reached (one per OPTIONAL or REPEATED ancestor that holds something);
/// `rep`, the repetition level of the node's first entry; `depth`, the
/// repetition level of the innermost list or map around the node (the
/// level of its elements after the first).
#[doc(hidden)]
#[derive(Debug, Clone, Copy, Default)]
pub struct Levels {
    def: i16,
    rep: i16,
    depth: i16,
}

/// The leaf columns under one top-level field, in the file's order, and the
/// next one a node pushes into.
#[doc(hidden)]
#[derive(Debug)]
pub struct Leaves<'a> {
    columns: &'a mut [ColumnBuffer],
    next: usize, // invariant: <= columns.len() between pushes of a row
}

impl Leaves<'_> {
    /// The next leaf column.
    ///
    /// # Panics
    /// When a field pushes into more leaves than its shape has: a bug of
    /// the `WriteField` impl, not of the data.
    #[inline]
    fn take(&mut self) -> &mut ColumnBuffer {
        let i = self.next;
        self.next += 1;
        &mut self.columns[i]
    }
}

impl<T: WriteValue> WriteField for T {
    fn write_shape() -> WriteShape {
        WriteShape::Leaf(T::KIND)
    }
    #[inline]
    fn push_field(&self, leaves: &mut Leaves<'_>, at: Levels) -> Result<(), String> {
        let column = leaves.take();
        self.push_value(column)?;
        column.levels(at);
        Ok(())
    }
    #[inline]
    fn push_absent(leaves: &mut Leaves<'_>, at: Levels) {
        leaves.take().levels(at);
    }
    #[inline]
    fn push_rows<R>(rows: &[R], columns: &mut [ColumnBuffer], get: impl Fn(&R) -> &Self) {
        match columns {
            // A top-level value: no levels to push, the values in one go.
            [column] if column.max_def == 0 && column.max_rep == 0 => {
                if let Err(refused) = T::push_values(rows.iter().map(get), column) {
                    column.refused = Some(refused);
                }
            }
            _ => push_each(rows, columns, get),
        }
    }
}

impl<T: WriteField> WriteField for Option<T> {
    fn write_shape() -> WriteShape {
        WriteShape::Option(Box::new(T::write_shape()))
    }
    #[inline]
    fn push_field(&self, leaves: &mut Leaves<'_>, at: Levels) -> Result<(), String> {
        match self {
            Some(value) => value.push_field(
                leaves,
                Levels {
                    def: at.def + 1,
                    ..at
                },
            ),
            None => {
                T::push_absent(leaves, at);
                Ok(())
            }
        }
    }
    #[inline]
    fn push_absent(leaves: &mut Leaves<'_>, at: Levels) {
        T::push_absent(leaves, at);
    }
}

/// Pushes the elements of a list or map (`push` one element at the levels
/// given), or one empty entry when there is none.
#[inline]
fn push_repeated<E>(
    elements: impl IntoIterator<Item = E>,
    leaves: &mut Leaves<'_>,
    at: Levels,
    mut push: impl FnMut(E, &mut Leaves<'_>, Levels) -> Result<(), String>,
    absent: impl FnOnce(&mut Leaves<'_>, Levels),
) -> Result<(), String> {
    let start = leaves.next;
    let inner = Levels {
        def: at.def + 1,
        rep: at.rep,
        depth: at.depth + 1,
    };
    let mut first = true;
    for element in elements {
        leaves.next = start;
        let levels = if first {
            inner
        } else {
            Levels {
                rep: inner.depth,
                ..inner
            }
        };
        first = false;
        push(element, leaves, levels)?;
    }
    if first {
        absent(leaves, at);
    }
    Ok(())
}

impl<T: WriteField + ListElement> WriteField for Vec<T> {
    fn write_shape() -> WriteShape {
        WriteShape::List(Box::new(T::write_shape()))
    }
    fn push_field(&self, leaves: &mut Leaves<'_>, at: Levels) -> Result<(), String> {
        push_repeated(
            self,
            leaves,
            at,
            <T as WriteField>::push_field,
            T::push_absent,
        )
    }
    fn push_absent(leaves: &mut Leaves<'_>, at: Levels) {
        T::push_absent(leaves, at);
    }
}

/// `WriteField` for a map type: its pairs as the key-value group's rows.
macro_rules! map_field {
    ($map:ident<K, V $(, $s:ident)?>) => {
        impl<K: WriteField, V: WriteField $(, $s)?> WriteField for $map<K, V $(, $s)?> {
            fn write_shape() -> WriteShape {
                WriteShape::Map(Box::new(K::write_shape()), Box::new(V::write_shape()))
            }
            fn push_field(&self, leaves: &mut Leaves<'_>, at: Levels) -> Result<(), String> {
                push_repeated(
                    self,
                    leaves,
                    at,
                    |(key, value), leaves, levels| {
                        key.push_field(leaves, levels)?;
                        value.push_field(leaves, levels)
                    },
                    |leaves, at| {
                        K::push_absent(leaves, at);
                        V::push_absent(leaves, at);
                    },
                )
            }
            fn push_absent(leaves: &mut Leaves<'_>, at: Levels) {
                K::push_absent(leaves, at);
                V::push_absent(leaves, at);
            }
        }
    };
}

map_field!(HashMap<K, V, S>);
map_field!(BTreeMap<K, V>);

/// `WriteValue` for a type stored as `$store` in the vector `$vec`.
macro_rules! value {
    ($ty:ty, $kind:expr, |$v:ident| $vec:ident.push($store:expr)) => {
        impl WriteValue for $ty {
            const KIND: FieldKind = $kind;
            #[inline]
            fn push_value(&self, column: &mut ColumnBuffer) -> Result<(), String> {
                let $v = self;
                column.$vec.push($store);
                Ok(())
            }
            #[inline]
            fn push_values<'v>(
                values: impl Iterator<Item = &'v Self>,
                column: &mut ColumnBuffer,
            ) -> Result<(), (usize, String)> {
                column.$vec.extend(values.map(|$v| $store));
                Ok(())
            }
        }
    };
    ($ty:ty, $kind:expr, |$v:ident| bytes($store:expr)) => {
        impl WriteValue for $ty {
            const KIND: FieldKind = $kind;
            #[inline]
            fn push_value(&self, column: &mut ColumnBuffer) -> Result<(), String> {
                let $v = self;
                column.push_variable($store)
            }
        }
    };
}

value!(bool, FieldKind::Bool, |v| bools.push(*v));
value!(i8, FieldKind::I8, |v| ints.push(i32::from(*v)));
value!(i16, FieldKind::I16, |v| ints.push(i32::from(*v)));
value!(i32, FieldKind::I32, |v| ints.push(*v));
value!(i64, FieldKind::I64, |v| longs.push(*v));
// Unsigned annotations store the value's bit pattern in the signed physical
// type (parquet-format LogicalTypes.md, "Unsigned integers").
value!(u8, FieldKind::U8, |v| ints.push(i32::from(*v)));
value!(u16, FieldKind::U16, |v| ints.push(i32::from(*v)));
value!(u32, FieldKind::U32, |v| ints.push(*v as i32));
value!(u64, FieldKind::U64, |v| longs.push(*v as i64));
value!(f32, FieldKind::F32, |v| floats.push(*v));
value!(f64, FieldKind::F64, |v| doubles.push(*v));
value!(Date, FieldKind::Date, |v| ints.push(v.days));
value!(&str, FieldKind::Str, |v| bytes(v.as_bytes()));
value!(String, FieldKind::String, |v| bytes(v.as_bytes()));
value!(Box<str>, FieldKind::BoxStr, |v| bytes(v.as_bytes()));
value!(Arc<str>, FieldKind::ArcStr, |v| bytes(v.as_bytes()));
#[cfg(feature = "compact_str")]
use compact_str::CompactString;
#[cfg(feature = "compact_str")]
value!(CompactString, FieldKind::CompactString, |v| bytes(
    v.as_bytes()
));
value!(&[u8], FieldKind::ByteSlice, |v| bytes(v));
value!(Vec<u8>, FieldKind::ByteVec, |v| bytes(v));
value!(Bytes, FieldKind::Bytes, |v| bytes(v));

impl<const N: usize> WriteValue for [u8; N] {
    const KIND: FieldKind = FieldKind::FixedBytes(N);
    #[inline]
    fn push_value(&self, column: &mut ColumnBuffer) -> Result<(), String> {
        column.push_bytes(self);
        Ok(())
    }
}

impl WriteValue for Timestamp {
    const KIND: FieldKind = FieldKind::Timestamp;
    #[inline]
    fn push_value(&self, column: &mut ColumnBuffer) -> Result<(), String> {
        if self.utc != column.target.utc {
            return Err(format!(
                "timestamp {self} is {}, the column is {} (isAdjustedToUTC = {}): \
                 set the field's `utc` attribute to the values' flag",
                if self.utc {
                    "an instant (UTC)"
                } else {
                    "local"
                },
                if column.target.utc { "UTC" } else { "local" },
                column.target.utc
            ));
        }
        column.push_instant(self.value, self.unit, false)
    }
}

impl WriteValue for Time {
    const KIND: FieldKind = FieldKind::Time;
    #[inline]
    fn push_value(&self, column: &mut ColumnBuffer) -> Result<(), String> {
        let int32 = column.target.unit == Unit::Millis;
        column.push_instant(self.value, self.unit, int32)
    }
}

impl WriteValue for Decimal {
    const KIND: FieldKind = FieldKind::Decimal;
    #[inline]
    fn push_value(&self, column: &mut ColumnBuffer) -> Result<(), String> {
        let scale = u32::try_from(self.scale)
            .map_err(|_| format!("decimal {self} has a negative scale"))?;
        column.push_decimal(self.unscaled, scale)
    }
}

/// An `i128` field writes a DECIMAL's unscaled value, as it reads one.
impl WriteValue for i128 {
    const KIND: FieldKind = FieldKind::I128;
    #[inline]
    fn push_value(&self, column: &mut ColumnBuffer) -> Result<(), String> {
        let scale = u32::from(column.target.scale);
        column.push_decimal(*self, scale)
    }
}

#[cfg(feature = "chrono")]
mod chrono_values {
    use chrono::{DateTime, NaiveDate, NaiveDateTime, NaiveTime, Timelike, Utc};
    use parquet_rows_rules::FieldKind;

    use super::{ColumnBuffer, WriteValue};
    use crate::types::Unit;

    /// Nanoseconds since the epoch, in the column's unit: exact or refused.
    fn instant(column: &mut ColumnBuffer, secs: i64, nanos: u32) -> Result<(), String> {
        let value = i128::from(secs) * 1_000_000_000 + i128::from(nanos);
        let per = i128::from(1_000_000_000 / column.target.unit.per_second());
        if value % per != 0 {
            return Err(format!(
                "{secs}.{nanos:09} s has digits finer than the column's unit ({})",
                column.target.unit
            ));
        }
        let value = i64::try_from(value / per).map_err(|_| {
            format!(
                "{secs} s is out of the range of 64-bit {}",
                column.target.unit
            )
        })?;
        column.longs.push(value);
        Ok(())
    }

    impl WriteValue for DateTime<Utc> {
        const KIND: FieldKind = FieldKind::ChronoDateTimeUtc;
        #[inline]
        fn push_value(&self, column: &mut ColumnBuffer) -> Result<(), String> {
            instant(column, self.timestamp(), self.timestamp_subsec_nanos())
        }
    }

    impl WriteValue for NaiveDateTime {
        const KIND: FieldKind = FieldKind::ChronoNaiveDateTime;
        #[inline]
        fn push_value(&self, column: &mut ColumnBuffer) -> Result<(), String> {
            let utc = self.and_utc();
            instant(column, utc.timestamp(), utc.timestamp_subsec_nanos())
        }
    }

    impl WriteValue for NaiveDate {
        const KIND: FieldKind = FieldKind::ChronoNaiveDate;
        #[inline]
        fn push_value(&self, column: &mut ColumnBuffer) -> Result<(), String> {
            let days = self.signed_duration_since(NaiveDate::default()).num_days();
            // chrono's dates span about +-262,000 years: days fit an `i32`.
            let days = i32::try_from(days).map_err(|_| format!("date {self} is out of range"))?;
            column.ints.push(days);
            Ok(())
        }
    }

    impl WriteValue for NaiveTime {
        const KIND: FieldKind = FieldKind::ChronoNaiveTime;
        #[inline]
        fn push_value(&self, column: &mut ColumnBuffer) -> Result<(), String> {
            if self.nanosecond() >= 1_000_000_000 {
                return Err(format!(
                    "time {self} is a leap second, which TIME cannot hold"
                ));
            }
            let nanos = i64::from(self.num_seconds_from_midnight()) * 1_000_000_000
                + i64::from(self.nanosecond());
            let int32 = column.target.unit == Unit::Millis;
            column.push_instant(nanos, Unit::Nanos, int32)
        }
    }
}

#[cfg(feature = "rust_decimal")]
impl WriteValue for rust_decimal::Decimal {
    const KIND: FieldKind = FieldKind::RustDecimal;
    #[inline]
    fn push_value(&self, column: &mut ColumnBuffer) -> Result<(), String> {
        column.push_decimal(self.mantissa(), self.scale())
    }
}

#[cfg(feature = "half")]
impl WriteValue for half::f16 {
    const KIND: FieldKind = FieldKind::F16;
    #[inline]
    fn push_value(&self, column: &mut ColumnBuffer) -> Result<(), String> {
        // FLOAT16 is stored little-endian (parquet-format LogicalTypes.md).
        column.push_bytes(&self.to_le_bytes());
        Ok(())
    }
}

#[cfg(feature = "uuid")]
impl WriteValue for uuid::Uuid {
    const KIND: FieldKind = FieldKind::Uuid;
    #[inline]
    fn push_value(&self, column: &mut ColumnBuffer) -> Result<(), String> {
        // UUID is the 16 bytes in RFC 4122 order, as `Uuid::as_bytes` has them.
        column.push_bytes(self.as_bytes());
        Ok(())
    }
}

/// Appends `get(row)` of every row to `columns`, the leaf columns of one
/// top-level field: the loop of one field, which the code
/// `#[derive(ParquetRow)]` generates calls once per field. At the first value
/// that does not fit its column, stops and records which row in that leaf
/// column (`ColumnBuffer::refused`); the writer then fails naming the field
/// and row.
#[doc(hidden)]
#[inline]
pub fn push_column<R, F: WriteField>(
    rows: &[R],
    columns: &mut [ColumnBuffer],
    get: impl Fn(&R) -> &F,
) {
    F::push_rows(rows, columns, get);
}

/// The buffers of every leaf column of a row group, and where each
/// top-level field's leaves start.
#[doc(hidden)]
#[derive(Debug, Default)]
pub struct ColumnBuffers {
    pub(crate) buffers: Vec<ColumnBuffer>,
    pub(crate) starts: Vec<usize>, // per field, then the number of leaves; ascending
    /// The threads the fields of `Sync` rows are pushed on (`push.rs`);
    /// `None` for one thread.
    #[cfg(feature = "rayon")]
    pub(crate) pool: Option<std::sync::Arc<rayon::ThreadPool>>,
}

impl ColumnBuffers {
    /// The buffers of a struct's leaves (`starts`: where each top-level
    /// field's leaves start, then the number of leaves); the fields of
    /// `Sync` rows are pushed on a pool of `threads` (shared with the
    /// writer's encoding), or on the calling thread for 1.
    #[cfg_attr(not(feature = "rayon"), allow(clippy::unnecessary_wraps))]
    pub(crate) fn new(
        buffers: Vec<ColumnBuffer>,
        starts: Vec<usize>,
        threads: usize,
    ) -> crate::error::Result<Self> {
        #[cfg(not(feature = "rayon"))]
        let _ = threads;
        Ok(ColumnBuffers {
            buffers,
            starts,
            #[cfg(feature = "rayon")]
            pool: if threads > 1 {
                Some(crate::builder::threads::pool(threads)?)
            } else {
                None
            },
        })
    }

    /// The leaf columns of top-level field `i`.
    ///
    /// # Panics
    /// When `i` is no field of the struct the buffers were made for.
    #[inline]
    pub fn field(&mut self, i: usize) -> &mut [ColumnBuffer] {
        &mut self.buffers[self.starts[i]..self.starts[i + 1]]
    }

    /// Adds `offset` to the row of every value refused, and says whether
    /// there was one: the rows were pushed from `offset` of a longer slice.
    pub(crate) fn shift_refused(&mut self, offset: usize) -> bool {
        let mut any = false;
        for (row, _) in self.buffers.iter_mut().filter_map(|b| b.refused.as_mut()) {
            *row += offset;
            any = true;
        }
        any
    }

    /// Every top-level field's leaf columns, apart (`field(i)` for each
    /// `i` at once).
    #[cfg(feature = "rayon")]
    pub(crate) fn fields_mut(&mut self) -> Vec<&mut [ColumnBuffer]> {
        let mut rest = &mut self.buffers[..];
        let mut fields = Vec::with_capacity(self.starts.len().saturating_sub(1));
        for w in self.starts.windows(2) {
            let (field, after) = std::mem::take(&mut rest).split_at_mut(w[1] - w[0]);
            fields.push(field);
            rest = after;
        }
        fields
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unsigned_values_keep_their_bit_pattern() {
        let mut column = ColumnBuffer::default();
        u32::MAX.push_value(&mut column).unwrap();
        u64::MAX.push_value(&mut column).unwrap();
        assert_eq!(column.ints, [-1]);
        assert_eq!(column.longs, [-1]);
    }

    /// Buffers for `n` leaves with these maximum levels.
    fn buffers(levels: &[(i16, i16)]) -> Vec<ColumnBuffer> {
        levels
            .iter()
            .map(|&(max_def, max_rep)| ColumnBuffer {
                max_def,
                max_rep,
                ..ColumnBuffer::default()
            })
            .collect()
    }

    #[test]
    fn options_write_levels_and_present_values_only() {
        let mut columns = buffers(&[(1, 0)]);
        push_column(&[Some("a"), None, Some("")], &mut columns, |v| v);
        let column = &mut columns[0];
        assert_eq!(column.defs, [1, 0, 1]);
        assert_eq!(column.ends, [1, 1]);
        assert_eq!(column.bytes, b"a");
        assert_eq!(column.estimated_bytes(), 1 + 8 + 1);
        column.clear();
        assert_eq!(column.estimated_bytes(), 0);
    }

    /// The levels of parquet-format's examples: nulls and empty lists at
    /// each level of `Option<Vec<Option<i32>>>`, and a list of lists.
    #[test]
    fn lists_write_the_levels_of_the_spec() {
        let rows: Vec<Option<Vec<Option<i32>>>> = vec![
            None,
            Some(vec![]),
            Some(vec![None]),
            Some(vec![Some(1), None, Some(2)]),
        ];
        let mut columns = buffers(&[(3, 1)]);
        push_column(&rows, &mut columns, |v| v);
        assert_eq!(columns[0].defs, [0, 1, 2, 3, 2, 3]);
        assert_eq!(columns[0].reps, [0, 0, 0, 0, 1, 1]);
        assert_eq!(columns[0].ints, [1, 2]);

        let rows: Vec<Vec<Vec<i64>>> = vec![vec![vec![1, 2], vec![], vec![3]], vec![]];
        let mut columns = buffers(&[(2, 2)]);
        push_column(&rows, &mut columns, |v| v);
        assert_eq!(columns[0].defs, [2, 2, 1, 2, 0]);
        assert_eq!(columns[0].reps, [0, 2, 1, 1, 0]);
        assert_eq!(columns[0].longs, [1, 2, 3]);
    }

    #[test]
    fn maps_write_keys_and_values_in_step() {
        let rows: Vec<Option<BTreeMap<&str, Option<u8>>>> = vec![
            Some(BTreeMap::from([("a", Some(1)), ("b", None)])),
            None,
            Some(BTreeMap::new()),
        ];
        let mut columns = buffers(&[(2, 1), (3, 1)]);
        push_column(&rows, &mut columns, |v| v);
        assert_eq!(columns[0].defs, [2, 2, 0, 1]);
        assert_eq!(columns[0].reps, [0, 1, 0, 0]);
        assert_eq!(columns[0].bytes, b"ab");
        assert_eq!(columns[1].defs, [3, 2, 0, 1]);
        assert_eq!(columns[1].reps, [0, 1, 0, 0]);
        assert_eq!(columns[1].ints, [1]);
    }

    #[test]
    fn a_refused_value_is_recorded_in_its_leaf_with_its_row() {
        let mut columns = buffers(&[(1, 1), (2, 1)]);
        columns[1].target.max_value_bytes = 2;
        let rows = vec![
            BTreeMap::from([(1, Some("ok"))]),
            BTreeMap::from([(2, None), (3, Some("long"))]),
        ];
        push_column(&rows, &mut columns, |v| v);
        assert!(columns[0].refused.is_none());
        let (row, why) = columns[1].refused.clone().unwrap();
        assert_eq!(row, 1);
        assert!(why.contains("4 bytes"), "{why}");
    }
}
