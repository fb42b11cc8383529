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

impl fmt::Display for Unit {
    /// `millis`, `micros` or `nanos`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Unit::Millis => "millis",
            Unit::Micros => "micros",
            Unit::Nanos => "nanos",
        })
    }
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
///
/// `Display` writes an ISO 8601 date and time in the proleptic Gregorian
/// calendar with as many fraction digits as the unit has, and `Z` for a UTC
/// instant:
///
/// ```
/// use parquet_rows::{Timestamp, Unit};
/// let t = Timestamp { value: 1_774_000_000_123_456, unit: Unit::Micros, utc: true };
/// assert_eq!(t.to_string(), "2026-03-20T09:46:40.123456Z");
/// let local = Timestamp { value: -1, unit: Unit::Millis, utc: false };
/// assert_eq!(local.to_string(), "1969-12-31T23:59:59.999");
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

impl fmt::Display for Timestamp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_date_time(f, i128::from(self.value), self.unit)?;
        if self.utc {
            f.write_str("Z")?;
        }
        Ok(())
    }
}

/// A DATE value: days since 1970-01-01.
///
/// `Display` writes it as ISO 8601 (proleptic Gregorian calendar):
///
/// ```
/// use parquet_rows::Date;
/// assert_eq!(Date { days: 19_000 }.to_string(), "2022-01-08");
/// assert_eq!(Date { days: -1 }.to_string(), "1969-12-31");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Date {
    /// Days since the epoch.
    pub days: i32,
}

impl fmt::Display for Date {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_date(f, i64::from(self.days))
    }
}

/// A TIME value: `value` units since midnight (TIME(MILLIS) is INT32, the
/// others INT64).
///
/// `Display` writes `hh:mm:ss` and as many fraction digits as the unit has;
/// a value outside the day (which the format does not forbid) keeps its sign
/// and counts hours past 23:
///
/// ```
/// use parquet_rows::{Time, Unit};
/// let t = Time { value: 45_296_789, unit: Unit::Millis };
/// assert_eq!(t.to_string(), "12:34:56.789");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Time {
    /// Units since midnight.
    pub value: i64,
    /// The column's unit.
    pub unit: Unit,
}

impl fmt::Display for Time {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.value < 0 {
            f.write_str("-")?;
        }
        write_time(f, u128::from(self.value.unsigned_abs()), self.unit)
    }
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
///
/// `Display` writes the local date and time it stands for, in nanoseconds,
/// whatever the year:
///
/// ```
/// # use parquet_rows::Int96;
/// # let noon = Int96 { nanos_of_day: 43_200_000_000_000, julian_day: 2_440_588 };
/// assert_eq!(noon.to_string(), "1970-01-01T12:00:00.000000000");
/// let far = Int96 { nanos_of_day: 0, julian_day: 5_373_484 };
/// assert_eq!(far.to_string(), "9999-12-31T00:00:00.000000000");
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

impl fmt::Display for Int96 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let days = i128::from(self.julian_day) - i128::from(Self::UNIX_EPOCH_JULIAN_DAY);
        let nanos = days * 86_400_000_000_000 + i128::from(self.nanos_of_day);
        write_date_time(f, nanos, Unit::Nanos)
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

/// Fraction digits of `unit`.
fn digits(unit: Unit) -> usize {
    match unit {
        Unit::Millis => 3,
        Unit::Micros => 6,
        Unit::Nanos => 9,
    }
}

/// `yyyy-mm-ddThh:mm:ss.fff` for `value` units since the epoch.
fn write_date_time(f: &mut fmt::Formatter<'_>, value: i128, unit: Unit) -> fmt::Result {
    let per_day = i128::from(unit.per_second()) * 86_400;
    // |value| / per_day is below 2^63 / 86,400,000 for an `i64` value in
    // millis, and INT96's days are an `i32`: the day count fits an `i64`.
    let days = value.div_euclid(per_day) as i64;
    write_date(f, days)?;
    f.write_str("T")?;
    write_time(f, value.rem_euclid(per_day) as u128, unit)
}

/// `hh:mm:ss.fff` for `value` units since midnight (hours may pass 23).
fn write_time(f: &mut fmt::Formatter<'_>, value: u128, unit: Unit) -> fmt::Result {
    let per_second = unit.per_second() as u128;
    let (seconds, fraction) = (value / per_second, value % per_second);
    let (h, m, s) = (seconds / 3600, seconds / 60 % 60, seconds % 60);
    let width = digits(unit);
    write!(f, "{h:02}:{m:02}:{s:02}.{fraction:0width$}")
}

/// `yyyy-mm-dd` for `days` since 1970-01-01 in the proleptic Gregorian
/// calendar; years outside 0..=9999 get a sign, as ISO 8601 expanded years do.
fn write_date(f: &mut fmt::Formatter<'_>, days: i64) -> fmt::Result {
    let (year, month, day) = civil_from_days(days);
    if (0..=9999).contains(&year) {
        write!(f, "{year:04}-{month:02}-{day:02}")
    } else {
        write!(f, "{year:+05}-{month:02}-{day:02}")
    }
}

/// Year, month and day of `days` since 1970-01-01: Howard Hinnant's
/// `civil_from_days` (<https://howardhinnant.github.io/date_algorithms.html>),
/// which counts in 400-year eras of 146,097 days starting on March 1st, so
/// that the leap day is the last day of its year.
fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468; // days since 0000-03-01
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097); // day of era, [0, 146096]
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365; // [0, 399]
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100); // day of the March year, [0, 365]
    let mp = (5 * doy + 2) / 153; // month from March, [0, 11]
    let day = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let month = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let year = yoe + era * 400 + i64::from(month <= 2);
    (year, month, day)
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
    fn display_of_time_types() {
        let ts = |value, unit, utc| Timestamp { value, unit, utc }.to_string();
        assert_eq!(ts(0, Unit::Nanos, true), "1970-01-01T00:00:00.000000000Z");
        assert_eq!(
            ts(951_782_400_000, Unit::Millis, false),
            "2000-02-29T00:00:00.000"
        );
        assert_eq!(ts(-1, Unit::Micros, true), "1969-12-31T23:59:59.999999Z");
        assert_eq!(
            ts(i64::MIN, Unit::Nanos, true),
            "1677-09-21T00:12:43.145224192Z"
        );
        assert_eq!(
            ts(i64::MAX, Unit::Nanos, true),
            "2262-04-11T23:47:16.854775807Z"
        );
        assert_eq!(
            ts(i64::MAX, Unit::Millis, true),
            "+292278994-08-17T07:12:55.807Z"
        );
        assert_eq!(
            ts(i64::MIN, Unit::Millis, true),
            "-292275055-05-16T16:47:04.192Z"
        );
        assert_eq!(Date { days: i32::MIN }.to_string(), "-5877641-06-23");
        assert_eq!(Date { days: -719_529 }.to_string(), "-0001-12-31");
        let time = |value, unit| Time { value, unit }.to_string();
        assert_eq!(time(0, Unit::Micros), "00:00:00.000000");
        assert_eq!(time(86_399_999_999_999, Unit::Nanos), "23:59:59.999999999");
        assert_eq!(time(90_000_000, Unit::Millis), "25:00:00.000");
        assert_eq!(time(-1_500, Unit::Millis), "-00:00:01.500");
        assert_eq!(time(i64::MIN, Unit::Nanos), "-2562047:47:16.854775808");
        let far = Int96 {
            nanos_of_day: -1,
            julian_day: i32::MIN,
        };
        assert_eq!(far.to_string(), "-5884323-05-14T23:59:59.999999999");
        assert_eq!(Unit::Micros.to_string(), "micros");
    }

    /// Every day of 1,200 years around the epoch, against `chrono`.
    #[cfg(feature = "chrono")]
    #[test]
    fn dates_match_chrono() {
        let epoch = chrono::NaiveDate::from_ymd_opt(1970, 1, 1).expect("a date");
        for days in -400 * 365..800 * 365 {
            let expected = epoch + chrono::Duration::days(i64::from(days));
            assert_eq!(
                Date { days }.to_string(),
                expected.format("%Y-%m-%d").to_string()
            );
        }
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
