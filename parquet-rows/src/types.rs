//! Value types for Parquet's logical types: timestamps, dates, times, INT96 and
//! decimals. Each keeps what the column says about it (unit, UTC flag, scale),
//! so nothing is lost or guessed; the `chrono` and `rust_decimal` features add
//! conversions to those crates' types.

use std::fmt;

/// The unit of a TIMESTAMP or TIME value.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Unit {
    /// Milliseconds.
    Millis,
    /// Microseconds.
    Micros,
    /// Nanoseconds.
    Nanos,
}

impl Unit {
    /// How many of this unit make a second.
    pub const fn per_second(self) -> i64 {
        match self {
            Unit::Millis => 1_000,
            Unit::Micros => 1_000_000,
            Unit::Nanos => 1_000_000_000,
        }
    }
}

/// A TIMESTAMP (INT64) or legacy INT96 value: `value` units since 1970-01-01.
///
/// `utc` is the column's `isAdjustedToUTC`: `true` for an instant, `false` for a
/// local date-time. INT96 values come in nanoseconds with `utc == false`.
///
/// ```
/// use parquet_rows::{Timestamp, Unit};
/// let t = Timestamp { value: 1_500, unit: Unit::Millis, utc: true };
/// assert_eq!(t.to_unit(Unit::Micros), Some(1_500_000));
/// assert_eq!(t.to_unit(Unit::Nanos), Some(1_500_000_000));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Timestamp {
    /// Units since the epoch.
    pub value: i64,
    /// The column's unit.
    pub unit: Unit,
    /// Whether the column is adjusted to UTC.
    pub utc: bool,
}

impl Timestamp {
    /// The value in another unit; `None` if it overflows `i64`. Converting to a
    /// coarser unit rounds toward negative infinity.
    pub fn to_unit(self, unit: Unit) -> Option<i64> {
        let (from, to) = (self.unit.per_second(), unit.per_second());
        if to >= from {
            self.value.checked_mul(to / from)
        } else {
            Some(self.value.div_euclid(from / to))
        }
    }
}

/// A DATE value: days since 1970-01-01.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Date {
    /// Days since the epoch.
    pub days: i32,
}

/// A TIME value: `value` units since midnight (TIME(MILLIS) is INT32, the
/// others INT64).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Time {
    /// Units since midnight.
    pub value: i64,
    /// The column's unit.
    pub unit: Unit,
}

/// A raw INT96 value as Impala, Hive and Spark wrote timestamps: nanoseconds
/// of the day and a Julian day number.
///
/// [`Timestamp`] reads INT96 as nanoseconds since the epoch; use `Int96` for
/// dates outside the range that fits (about 1677 to 2262), as Spark files may
/// hold.
///
/// ```
/// use parquet_rows::Int96;
/// let noon = Int96 { nanos_of_day: 43_200_000_000_000, julian_day: 2_440_588 };
/// assert_eq!(noon.to_nanos(), Some(43_200_000_000_000));
/// assert_eq!(noon.to_micros(), Some(43_200_000_000));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Int96 {
    /// Nanoseconds since midnight.
    pub nanos_of_day: i64,
    /// Julian day number (2,440,588 is 1970-01-01).
    pub julian_day: i32,
}

impl Int96 {
    /// Julian day number of 1970-01-01.
    pub const UNIX_EPOCH_JULIAN_DAY: i32 = 2_440_588;

    /// Decodes the 12 bytes of a PLAIN INT96 value.
    pub fn from_le_bytes(b: [u8; 12]) -> Self {
        Int96 {
            nanos_of_day: i64::from_le_bytes([b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7]]),
            julian_day: i32::from_le_bytes([b[8], b[9], b[10], b[11]]),
        }
    }

    /// Nanoseconds since the epoch, `None` if that overflows `i64`.
    pub fn to_nanos(self) -> Option<i64> {
        let days = i64::from(self.julian_day) - i64::from(Self::UNIX_EPOCH_JULIAN_DAY);
        days.checked_mul(86_400_000_000_000)?
            .checked_add(self.nanos_of_day)
    }

    /// Microseconds since the epoch, `None` if that overflows `i64`.
    pub fn to_micros(self) -> Option<i64> {
        let days = i64::from(self.julian_day) - i64::from(Self::UNIX_EPOCH_JULIAN_DAY);
        days.checked_mul(86_400_000_000)?
            .checked_add(self.nanos_of_day.div_euclid(1_000))
    }
}

/// A DECIMAL value: `unscaled * 10^-scale`, with the column's precision.
///
/// Reads DECIMAL columns stored as INT32, INT64, FIXED_LEN_BYTE_ARRAY or
/// BYTE_ARRAY (big-endian two's complement, up to 128 bits). `Display` prints
/// the exact fixed-point value.
///
/// ```
/// use parquet_rows::Decimal;
/// let d = Decimal { unscaled: -1230, precision: 5, scale: 2 };
/// assert_eq!(d.to_string(), "-12.30");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Decimal {
    /// The value without its decimal point.
    pub unscaled: i128,
    /// Total number of digits the column allows.
    pub precision: u8,
    /// Digits after the decimal point.
    pub scale: i8,
}

impl fmt::Display for Decimal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let scale = i32::from(self.scale);
        if scale <= 0 {
            // A negative scale multiplies: 12 with scale -2 is 1200.
            let zeros = "0".repeat(scale.unsigned_abs() as usize);
            return if self.unscaled == 0 {
                f.write_str("0")
            } else {
                write!(f, "{}{zeros}", self.unscaled)
            };
        }
        let digits = self.unscaled.unsigned_abs().to_string();
        let scale = scale as usize;
        let sign = if self.unscaled < 0 { "-" } else { "" };
        if digits.len() > scale {
            let (int, frac) = digits.split_at(digits.len() - scale);
            write!(f, "{sign}{int}.{frac}")
        } else {
            write!(f, "{sign}0.{digits:0>scale$}")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decimal_display() {
        let d = |unscaled, scale| {
            Decimal {
                unscaled,
                precision: 38,
                scale,
            }
            .to_string()
        };
        assert_eq!(d(12345, 2), "123.45");
        assert_eq!(d(-5, 2), "-0.05");
        assert_eq!(d(0, 3), "0.000");
        assert_eq!(d(7, 0), "7");
        assert_eq!(d(12, -2), "1200");
        assert_eq!(
            d(i128::MIN, 10),
            "-17014118346046923173168730371.5884105728"
        );
    }

    #[test]
    fn timestamp_units() {
        let t = Timestamp {
            value: -1_500,
            unit: Unit::Micros,
            utc: false,
        };
        assert_eq!(t.to_unit(Unit::Millis), Some(-2));
        assert_eq!(t.to_unit(Unit::Nanos), Some(-1_500_000));
        let big = Timestamp {
            value: i64::MAX,
            unit: Unit::Millis,
            utc: true,
        };
        assert_eq!(big.to_unit(Unit::Nanos), None);
    }

    #[test]
    fn int96() {
        let v = Int96 {
            nanos_of_day: 1_000,
            julian_day: Int96::UNIX_EPOCH_JULIAN_DAY + 1,
        };
        assert_eq!(v.to_nanos(), Some(86_400_000_000_000 + 1_000));
        let far = Int96 {
            nanos_of_day: 0,
            julian_day: 5_373_484,
        }; // 9999-12-31
        assert_eq!(far.to_nanos(), None);
        assert!(far.to_micros().is_some());
    }
}
