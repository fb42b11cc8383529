//! What each field type writes: [`WriteField`] pushes a field's value into
//! its column's [`ColumnBuffer`].
//!
//! The column a field type writes (physical and logical type) is decided by
//! the shared rules (`FieldKind::writes` in `parquet-rows-rules`), the same
//! table the reader binds with; here each type only says which kind it is and
//! how its value is stored.

use std::sync::Arc;

use bytes::Bytes;
use parquet_rows_rules::{self as rules, FieldKind};

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
    /// One definition level per row of an `Option` field (1 present, 0 null);
    /// empty for a field that is not an `Option`.
    pub(crate) defs: Vec<i16>,
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
    message = "`{Self}` cannot be written yet",
    label = "not writable",
    note = "the writer writes fields of types bool, i8-i64, u8-u64, i128, f32, f64, &str, String, Box<str>, Arc<str>, CompactString, &[u8], Vec<u8>, bytes::Bytes, [u8; N], Date, Timestamp, Time, Decimal, the chrono, rust_decimal, half and uuid types of their features, and Option<_> of each",
    note = "nested structs, lists and maps are not writable yet, nor fields read with `from` / `try_from`"
)]
pub trait WriteValue {
    /// What the rules call the type; its column is `KIND.writes()`.
    const KIND: FieldKind;
    /// Appends the value to `column`; an `Err` says why the value does not
    /// fit the column (a decimal wider than its precision), and nothing is
    /// appended.
    fn push_value(&self, column: &mut ColumnBuffer) -> Result<(), String>;
}

/// A type that can be a field of a struct written with
/// [`Writer`](crate::Writer): `bool`, `i8`-`i64`, `u8`-`u64`, `f32`, `f64`,
/// `&str`, `String`, `Box<str>`, `Arc<str>`, `&[u8]`, `Vec<u8>`,
/// `bytes::Bytes`, `[u8; N]`, [`Date`], [`Timestamp`], [`Time`],
/// [`Decimal`] and `i128` (a DECIMAL's unscaled value), with their features
/// `chrono`'s `DateTime<Utc>`, `NaiveDateTime`, `NaiveDate`, `NaiveTime`,
/// `rust_decimal::Decimal`, `half::f16` and `uuid::Uuid`, and `Option<_>`
/// of each (an OPTIONAL column). The column each writes is the one the same
/// type reads.
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
pub trait WriteField {
    /// What the rules call the type (`Option<T>` has `T`'s kind).
    #[doc(hidden)]
    const KIND: FieldKind;
    /// Whether the column is OPTIONAL.
    #[doc(hidden)]
    const NULLABLE: bool;
    /// Appends the value (or a null) to `column`, or says why it does not
    /// fit (nothing appended).
    #[doc(hidden)]
    fn push_field(&self, column: &mut ColumnBuffer) -> Result<(), String>;
}

impl<T: WriteValue> WriteField for T {
    const KIND: FieldKind = T::KIND;
    const NULLABLE: bool = false;
    #[inline]
    fn push_field(&self, column: &mut ColumnBuffer) -> Result<(), String> {
        self.push_value(column)
    }
}

impl<T: WriteValue> WriteField for Option<T> {
    const KIND: FieldKind = T::KIND;
    const NULLABLE: bool = true;
    #[inline]
    fn push_field(&self, column: &mut ColumnBuffer) -> Result<(), String> {
        match self {
            Some(value) => {
                value.push_value(column)?;
                column.defs.push(1);
            }
            None => column.defs.push(0),
        }
        Ok(())
    }
}

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

/// Appends `get(row)` of every row to `column`: the loop of one field, which
/// the code `#[derive(ParquetRow)]` generates calls once per field. At the
/// first value that does not fit its column, stops and records which row
/// (`ColumnBuffer::refused`); the writer then fails naming the field and row.
#[doc(hidden)]
#[inline]
pub fn push_column<R, F: WriteField>(
    rows: &[R],
    column: &mut ColumnBuffer,
    get: impl Fn(&R) -> &F,
) {
    for (i, row) in rows.iter().enumerate() {
        // `Ok` for every value of the infallible types: the check compiles away.
        if let Err(message) = get(row).push_field(column) {
            column.refused = Some((i, message));
            return;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unsigned_values_keep_their_bit_pattern() {
        let mut column = ColumnBuffer::default();
        u32::MAX.push_field(&mut column).unwrap();
        u64::MAX.push_field(&mut column).unwrap();
        assert_eq!(column.ints, [-1]);
        assert_eq!(column.longs, [-1]);
    }

    #[test]
    fn options_write_levels_and_present_values_only() {
        let mut column = ColumnBuffer::default();
        for value in [Some("a"), None, Some("")] {
            value.push_field(&mut column).unwrap();
        }
        assert_eq!(column.defs, [1, 0, 1]);
        assert_eq!(column.ends, [1, 1]);
        assert_eq!(column.bytes, b"a");
        assert_eq!(column.estimated_bytes(), 1 + 8 + 1);
        column.clear();
        assert_eq!(column.estimated_bytes(), 0);
    }
}
