//! Field types from optional integrations: `chrono`, `rust_decimal`, `half`, `uuid`.

#[cfg(feature = "chrono")]
mod chrono_types {
    use chrono::{DateTime, NaiveDate, NaiveDateTime, NaiveTime, Utc};

    use parquet_rows_rules::FieldKind;

    use super::super::{field, ColumnContext};
    use crate::physical::{Instant, Int32, Int64};
    use crate::types::Unit;

    /// Seconds and nanoseconds since the epoch of a raw timestamp value.
    fn split(value: i64, cx: &ColumnContext) -> (i64, u32) {
        let per_second = cx.unit.unwrap_or(Unit::Nanos).per_second();
        let nanos_per_unit = 1_000_000_000 / per_second;
        (
            value.div_euclid(per_second),
            (value.rem_euclid(per_second) * nanos_per_unit) as u32,
        )
    }

    fn date_time(value: i64, cx: &ColumnContext) -> Result<DateTime<Utc>, String> {
        let (secs, nanos) = split(value, cx);
        DateTime::from_timestamp(secs, nanos)
            .ok_or_else(|| format!("timestamp {value} is out of chrono's range"))
    }

    field!(
        DateTime<Utc>,
        Instant,
        FieldKind::ChronoDateTimeUtc,
        |v, cx| date_time(v, cx)
    );
    field!(
        NaiveDateTime,
        Instant,
        FieldKind::ChronoNaiveDateTime,
        |v, cx| date_time(v, cx).map(|t| t.naive_utc())
    );
    field!(NaiveDate, Int32, FieldKind::ChronoNaiveDate, |days, _| {
        NaiveDate::from_ymd_opt(1970, 1, 1)
            .and_then(|epoch| epoch.checked_add_signed(chrono::TimeDelta::days(i64::from(days))))
            .ok_or_else(|| format!("date {days} is out of chrono's range"))
    });
    field!(NaiveTime, Int64, FieldKind::ChronoNaiveTime, |v, cx| {
        let (secs, nanos) = split(v, cx);
        u32::try_from(secs)
            .ok()
            .and_then(|secs| NaiveTime::from_num_seconds_from_midnight_opt(secs, nanos))
            .ok_or_else(|| format!("time {v} is not within a day"))
    });
}

#[cfg(feature = "rust_decimal")]
field!(
    rust_decimal::Decimal,
    crate::physical::Unscaled,
    parquet_rows_rules::FieldKind::RustDecimal,
    |unscaled, cx| {
        rust_decimal::Decimal::try_from_i128_with_scale(unscaled, cx.scale.unsigned_abs()).map_err(
            |e| {
                format!(
                    "decimal {unscaled}e-{} does not fit `rust_decimal::Decimal`: {e}",
                    cx.scale
                )
            },
        )
    }
);

#[cfg(feature = "half")]
field!(
    half::f16,
    crate::physical::ByteArray,
    parquet_rows_rules::FieldKind::F16,
    |bytes, _| match bytes {
        [lo, hi] => Ok(half::f16::from_le_bytes([*lo, *hi])),
        _ => Err(format!("a FLOAT16 value of {} bytes", bytes.len())),
    }
);

#[cfg(feature = "uuid")]
field!(
    uuid::Uuid,
    crate::physical::ByteArray,
    parquet_rows_rules::FieldKind::Uuid,
    |bytes, _| uuid::Uuid::from_slice(bytes).map_err(|e| e.to_string())
);

#[cfg(any(feature = "rust_decimal", feature = "half", feature = "uuid"))]
use super::field;
