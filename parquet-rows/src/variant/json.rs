//! A variant as JSON text: [`Variant::to_json`].

use std::fmt::Write;

use super::value::{Variant, VariantValue};

/// Days since 1970-01-01 as `(year, month, day)` in the proleptic Gregorian
/// calendar (H. Hinnant's `civil_from_days`).
pub(crate) fn civil(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let month = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let year = yoe + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

/// `unscaled / 10^scale` written exactly (`3.25`, `-0.07`).
pub(crate) fn decimal(unscaled: i128, scale: u8) -> String {
    let digits = unscaled.unsigned_abs().to_string();
    let scale = usize::from(scale);
    let sign = if unscaled < 0 { "-" } else { "" };
    if scale == 0 {
        return format!("{sign}{digits}");
    }
    let padded = format!("{digits:0>width$}", width = scale + 1);
    let (int, frac) = padded.split_at(padded.len() - scale);
    format!("{sign}{int}.{frac}")
}

/// `HH:MM:SS[.fraction]` of `ticks` units of `per_second` since midnight.
fn clock(out: &mut String, ticks: i64, per_second: i64) {
    let seconds = ticks.div_euclid(per_second);
    let fraction = ticks.rem_euclid(per_second);
    let _ = write!(
        out,
        "{:02}:{:02}:{:02}",
        seconds / 3600,
        seconds / 60 % 60,
        seconds % 60
    );
    if fraction != 0 {
        let width = if per_second == 1_000_000 { 6 } else { 9 };
        let text = format!("{fraction:0width$}");
        let _ = write!(out, ".{}", text.trim_end_matches('0'));
    }
}

fn timestamp(out: &mut String, ticks: i64, per_second: i64, utc: bool) {
    let per_day = per_second * 86_400;
    let (y, m, d) = civil(ticks.div_euclid(per_day));
    let _ = write!(out, "\"{y:04}-{m:02}-{d:02}T");
    clock(out, ticks.rem_euclid(per_day), per_second);
    out.push_str(if utc { "Z\"" } else { "\"" });
}

fn string(out: &mut String, s: &str) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

const BASE64: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

fn base64(out: &mut String, bytes: &[u8]) {
    out.push('"');
    for chunk in bytes.chunks(3) {
        let n = chunk
            .iter()
            .enumerate()
            .fold(0u32, |n, (i, &b)| n | u32::from(b) << (16 - 8 * i));
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(BASE64[(n >> (18 - 6 * i) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out.push('"');
}

impl Variant<'_> {
    /// The variant as JSON text: objects and arrays as JSON's, numbers as
    /// numbers (decimals exactly, `3.25`; non-finite floats as `null`),
    /// dates, times and timestamps as ISO 8601 strings (`"2024-01-02"`,
    /// `"01:02:03.5"`, `"2024-01-02T03:04:05.123456Z"`, the `Z` for
    /// UTC-adjusted ones), UUIDs as their hyphenated string, binary as base64.
    ///
    /// ```
    /// use parquet_rows::variant::{OwnedValue, OwnedVariant};
    /// let v = OwnedVariant::from_value(&OwnedValue::Object(vec![
    ///     ("a".into(), OwnedValue::Decimal { unscaled: 325, scale: 2, width: 4 }),
    ///     ("b".into(), OwnedValue::Date(19724)),
    /// ]))?;
    /// assert_eq!(v.as_variant().to_json(), r#"{"a":3.25,"b":"2024-01-02"}"#);
    /// # Ok::<(), parquet_rows::Error>(())
    /// ```
    pub fn to_json(&self) -> String {
        let mut out = String::new();
        self.write_json(&mut out);
        out
    }

    fn write_json(&self, out: &mut String) {
        match self.unpack() {
            VariantValue::Bool(b) => out.push_str(if b { "true" } else { "false" }),
            VariantValue::Int8(i) => push(out, i),
            VariantValue::Int16(i) => push(out, i),
            VariantValue::Int32(i) => push(out, i),
            VariantValue::Int64(i) => push(out, i),
            VariantValue::Float(f) if f.is_finite() => push(out, f),
            VariantValue::Double(f) if f.is_finite() => push(out, f),
            VariantValue::Null | VariantValue::Float(_) | VariantValue::Double(_) => {
                out.push_str("null");
            }
            VariantValue::Decimal {
                unscaled, scale, ..
            } => out.push_str(&decimal(unscaled, scale)),
            VariantValue::Date(days) => {
                let (y, m, d) = civil(i64::from(days));
                let _ = write!(out, "\"{y:04}-{m:02}-{d:02}\"");
            }
            VariantValue::TimestampMicros(t) => timestamp(out, t, 1_000_000, true),
            VariantValue::TimestampNtzMicros(t) => timestamp(out, t, 1_000_000, false),
            VariantValue::TimestampNanos(t) => timestamp(out, t, 1_000_000_000, true),
            VariantValue::TimestampNtzNanos(t) => timestamp(out, t, 1_000_000_000, false),
            VariantValue::TimeNtzMicros(t) => {
                out.push('"');
                clock(out, t, 1_000_000);
                out.push('"');
            }
            VariantValue::Binary(b) => base64(out, b),
            VariantValue::String(s) => string(out, s),
            VariantValue::Uuid(u) => {
                let hex = u.iter().fold(String::new(), |mut hex, b| {
                    let _ = write!(hex, "{b:02x}");
                    hex
                });
                let _ = write!(
                    out,
                    "\"{}-{}-{}-{}-{}\"",
                    &hex[..8],
                    &hex[8..12],
                    &hex[12..16],
                    &hex[16..20],
                    &hex[20..]
                );
            }
            VariantValue::Object(o) => {
                out.push('{');
                for (i, (name, value)) in o.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    string(out, name);
                    out.push(':');
                    value.write_json(out);
                }
                out.push('}');
            }
            VariantValue::Array(a) => {
                out.push('[');
                for (i, value) in a.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    value.write_json(out);
                }
                out.push(']');
            }
        }
    }
}

fn push(out: &mut String, n: impl std::fmt::Display) {
    let _ = write!(out, "{n}");
}
