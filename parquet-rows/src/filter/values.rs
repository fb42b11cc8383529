//! Predicates on the field types beyond numbers and strings: timestamps,
//! dates, times, INT96, decimals, byte strings, and the types of the
//! optional integrations. Each compares as its own type orders (an instant
//! with an instant whatever their units, a decimal with a decimal whatever
//! their scales), through a kind of [`Scalar`] that every column unit or
//! scale maps onto exactly: nanoseconds as `i128`, decimals as `(unscaled,
//! scale)`, byte strings bytewise.

use super::{FilterField, FilterValue, IntoFilterValue, Scalar, ScalarRef};
use crate::types::{Date, Decimal, Int96, Time, Timestamp, Unit};

/// Nanoseconds of `value` counts of `unit`: exact in `i128`.
fn nanos(value: i64, unit: Unit) -> i128 {
    i128::from(value) * i128::from(1_000_000_000 / unit.per_second())
}

/// Nanoseconds since the epoch of an INT96 value: exact in `i128` for every
/// day and time of day it can hold.
fn int96_nanos(v: Int96) -> i128 {
    let days = i128::from(v.julian_day) - i128::from(Int96::UNIX_EPOCH_JULIAN_DAY);
    days * 86_400_000_000_000 + i128::from(v.nanos_of_day)
}

/// A field type compared as itself: the field's value type is the type,
/// and its probe (the column read to test predicates) is the type too.
macro_rules! compared_as {
    ($($t:ty => |$v:ident| $scalar:expr, $owned:expr;)*) => {$(
        impl FilterField for $t {
            type Value = $t;
            type Probe<'p> = $t;
            #[inline]
            fn scalar(&self) -> ScalarRef<'_> {
                let $v = self;
                $scalar
            }
        }
        impl FilterValue for $t {
            #[allow(private_interfaces)]
            fn into_scalar(self) -> Scalar {
                let $v = &self;
                $owned
            }
        }
    )*};
}

// A timestamp or a time compares as the instant (or time of day) it stands
// for, whatever its unit: `Timestamp { value: 1, unit: Millis }` equals
// `Timestamp { value: 1_000, unit: Micros }`. `utc` is not compared (the
// column's flag is the file's, one for every row).
compared_as! {
    Timestamp => |v| ScalarRef::Nanos(nanos(v.value, v.unit)), Scalar::Nanos(nanos(v.value, v.unit));
    Time => |v| ScalarRef::Nanos(nanos(v.value, v.unit)), Scalar::Nanos(nanos(v.value, v.unit));
    Int96 => |v| ScalarRef::Nanos(int96_nanos(*v)), Scalar::Nanos(int96_nanos(*v));
    Date => |v| ScalarRef::Int(i64::from(v.days)), Scalar::Int(i64::from(v.days));
    // By value: 1.50 (150, scale 2) equals 1.5 (15, scale 1); the precision
    // is not compared.
    Decimal => |v| ScalarRef::Decimal(v.unscaled, v.scale), Scalar::Decimal(v.unscaled, v.scale);
}

impl<const N: usize> FilterField for [u8; N] {
    type Value = [u8; N];
    type Probe<'p> = [u8; N];
    #[inline]
    fn scalar(&self) -> ScalarRef<'_> {
        ScalarRef::Bytes(self)
    }
}

impl<const N: usize> FilterValue for [u8; N] {
    #[allow(private_interfaces)]
    fn into_scalar(self) -> Scalar {
        Scalar::Bytes(Box::new(self))
    }
}

impl<const N: usize> IntoFilterValue<[u8; N]> for &[u8; N] {
    fn into_filter_value(self) -> [u8; N] {
        *self
    }
}

/// The byte-string types compare with `Vec<u8>` values (and `&[u8]`,
/// `Bytes`, `[u8; N]`), and are tested as `&[u8]` borrowed from the pages.
macro_rules! byte_strings {
    ($($t:ty),*) => {$(
        impl FilterField for $t {
            type Value = Vec<u8>;
            type Probe<'p> = &'p [u8];
            #[inline]
            fn scalar(&self) -> ScalarRef<'_> {
                ScalarRef::Bytes(self)
            }
        }
    )*};
}

byte_strings!(&[u8], Vec<u8>, bytes::Bytes);

impl FilterValue for Vec<u8> {
    #[allow(private_interfaces)]
    fn into_scalar(self) -> Scalar {
        Scalar::Bytes(self.into_boxed_slice())
    }
}

impl IntoFilterValue<Vec<u8>> for &[u8] {
    fn into_filter_value(self) -> Vec<u8> {
        self.to_vec()
    }
}

impl IntoFilterValue<Vec<u8>> for &Vec<u8> {
    fn into_filter_value(self) -> Vec<u8> {
        self.clone()
    }
}

impl IntoFilterValue<Vec<u8>> for bytes::Bytes {
    fn into_filter_value(self) -> Vec<u8> {
        self.to_vec()
    }
}

impl<const N: usize> IntoFilterValue<Vec<u8>> for [u8; N] {
    fn into_filter_value(self) -> Vec<u8> {
        self.to_vec()
    }
}

impl<const N: usize> IntoFilterValue<Vec<u8>> for &[u8; N] {
    fn into_filter_value(self) -> Vec<u8> {
        self.to_vec()
    }
}

#[cfg(feature = "chrono")]
mod chrono_values {
    use chrono::{DateTime, Datelike, NaiveDate, NaiveDateTime, NaiveTime, Timelike, Utc};

    use super::{FilterField, FilterValue, Scalar, ScalarRef};

    /// Nanoseconds since the epoch: exact in `i128` for every chrono instant.
    fn instant(t: &DateTime<Utc>) -> i128 {
        i128::from(t.timestamp()) * 1_000_000_000 + i128::from(t.timestamp_subsec_nanos())
    }

    /// Days since 1970-01-01, as a DATE column stores them.
    fn days(d: NaiveDate) -> i64 {
        i64::from(d.num_days_from_ce()) - i64::from(EPOCH_DAYS_FROM_CE)
    }
    const EPOCH_DAYS_FROM_CE: i32 = 719_163; // 1970-01-01

    /// Nanoseconds since midnight (a leap second's nanoseconds run past
    /// 10^9, after the second's own).
    fn time_of_day(t: NaiveTime) -> i128 {
        i128::from(t.num_seconds_from_midnight()) * 1_000_000_000 + i128::from(t.nanosecond())
    }

    compared_as! {
        DateTime<Utc> => |v| ScalarRef::Nanos(instant(v)), Scalar::Nanos(instant(v));
        // A local date-time compares as the UTC instant of the same
        // reading, as the column stores it.
        NaiveDateTime => |v| ScalarRef::Nanos(instant(&v.and_utc())), Scalar::Nanos(instant(&v.and_utc()));
        NaiveDate => |v| ScalarRef::Int(days(*v)), Scalar::Int(days(*v));
        NaiveTime => |v| ScalarRef::Nanos(time_of_day(*v)), Scalar::Nanos(time_of_day(*v));
    }
}

#[cfg(feature = "rust_decimal")]
compared_as! {
    rust_decimal::Decimal => |v| ScalarRef::Decimal(v.mantissa(), rust_decimal_scale(v)), Scalar::Decimal(v.mantissa(), rust_decimal_scale(v));
}

/// A `rust_decimal` scale (at most 28) as a Parquet one.
#[cfg(feature = "rust_decimal")]
fn rust_decimal_scale(v: &rust_decimal::Decimal) -> i8 {
    i8::try_from(v.scale()).unwrap_or(i8::MAX)
}

// A float16 compares as the `f64` it widens to exactly, as `f32` does.
#[cfg(feature = "half")]
compared_as! {
    half::f16 => |v| ScalarRef::Float(f64::from(*v)), Scalar::Float(f64::from(*v));
}

// A UUID compares bytewise, the order of its FIXED_LEN_BYTE_ARRAY(16) column
// (and of `Uuid`'s own `Ord`).
#[cfg(feature = "uuid")]
compared_as! {
    uuid::Uuid => |v| ScalarRef::Bytes(v.as_bytes()), Scalar::Bytes(Box::new(*v.as_bytes()));
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::filter::predicate::{compare, decimal_cmp};
    use std::cmp::Ordering;

    #[test]
    fn instants_compare_across_units() {
        let t = |value, unit| Timestamp {
            value,
            unit,
            utc: true,
        };
        let a = t(1, Unit::Millis).into_scalar();
        assert_eq!(
            compare(t(1_000, Unit::Micros).scalar(), &a),
            Some(Ordering::Equal)
        );
        assert_eq!(
            compare(t(999_999, Unit::Nanos).scalar(), &a),
            Some(Ordering::Less)
        );
        // Extremes of every unit stay exact.
        let max = t(i64::MAX, Unit::Millis).into_scalar();
        assert_eq!(
            compare(t(i64::MAX, Unit::Nanos).scalar(), &max),
            Some(Ordering::Less)
        );
        let noon = Int96 {
            nanos_of_day: 43_200_000_000_000,
            julian_day: Int96::UNIX_EPOCH_JULIAN_DAY,
        };
        assert_eq!(int96_nanos(noon), 43_200_000_000_000);
    }

    #[test]
    fn decimals_compare_by_value_across_scales() {
        assert_eq!(decimal_cmp(150, 2, 15, 1), Ordering::Equal);
        assert_eq!(decimal_cmp(151, 2, 15, 1), Ordering::Greater);
        assert_eq!(decimal_cmp(-1, 0, -99, 2), Ordering::Less);
        // Rescaling overflows: the sign decides.
        assert_eq!(decimal_cmp(i128::MAX, 0, 1, 38), Ordering::Greater);
        assert_eq!(decimal_cmp(-2, -1, i128::MIN, 0), Ordering::Greater);
        assert_eq!(decimal_cmp(1, 0, i128::MAX, 38), Ordering::Less);
        assert_eq!(decimal_cmp(0, 0, 0, 127), Ordering::Equal);
        assert_eq!(decimal_cmp(0, -128, 1, 127), Ordering::Less);
    }

    #[test]
    fn byte_values_convert_from_every_byte_type() {
        let v: Vec<u8> = b"ab".into_filter_value();
        assert_eq!(v, b"ab");
        let v: Vec<u8> = bytes::Bytes::from_static(b"cd").into_filter_value();
        assert_eq!(v.into_scalar(), Scalar::Bytes(Box::new(*b"cd")));
    }
}
