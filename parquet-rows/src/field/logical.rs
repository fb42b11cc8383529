//! Logical types: timestamps, dates, times, INT96, decimals, fixed-size arrays,
//! and zero-copy `bytes::Bytes`.

use bytes::Bytes;
use parquet_rows_rules::FieldKind;

use super::{field, ColumnContext, ParquetField};
use crate::error::Result;
use crate::physical::{ByteArray, Instant, Int32, Int64, Unscaled};
use crate::types::{Date, Decimal, Int96, Time, Timestamp, Unit};

/// The unit a reader's context carries for temporal columns (bind checked it).
fn unit(context: &ColumnContext) -> Result<Unit, String> {
    context
        .unit
        .ok_or_else(|| "the column has no time unit".to_owned())
}

field!(
    placeholder = Timestamp {
        value: 0,
        unit: crate::types::Unit::Micros,
        utc: false
    },
    Timestamp,
    Instant,
    FieldKind::Timestamp,
    |value, cx| {
        Ok(Timestamp {
            value,
            unit: unit(cx)?,
            utc: cx.utc,
        })
    }
);
field!(
    placeholder = Date { days: 0 },
    Date,
    Int32,
    FieldKind::Date,
    |days, _| Ok(Date { days })
);
field!(
    placeholder = Time {
        value: 0,
        unit: crate::types::Unit::Micros
    },
    Time,
    Int64,
    FieldKind::Time,
    |value, cx| {
        Ok(Time {
            value,
            unit: unit(cx)?,
        })
    }
);
field!(
    placeholder = Int96 {
        nanos_of_day: 0,
        julian_day: 0
    },
    Int96,
    Int96,
    FieldKind::Int96,
    |b, _| Ok(Int96::from_le_bytes(b))
);

/// Checks that a decimal's scale and precision fit the crate type.
fn decimal_meta(context: &ColumnContext) -> Result<(u8, i8), String> {
    let precision = u8::try_from(context.precision)
        .map_err(|_| format!("decimal precision {} is out of range", context.precision))?;
    let scale = i8::try_from(context.scale)
        .map_err(|_| format!("decimal scale {} is out of range", context.scale))?;
    Ok((precision, scale))
}

field!(
    placeholder = Decimal {
        unscaled: 0,
        precision: 0,
        scale: 0
    },
    Decimal,
    Unscaled,
    FieldKind::Decimal,
    |unscaled, cx| {
        let (precision, scale) = decimal_meta(cx)?;
        Ok(Decimal {
            unscaled,
            precision,
            scale,
        })
    }
);
// The unscaled value; the scale is in the schema (`ParquetFile::schema`).
field!(i128, Unscaled, FieldKind::I128, |v, _| Ok(v));

impl<const N: usize> super::ListElement for [u8; N] {}
impl<'p, const N: usize> ParquetField<'p> for [u8; N] {
    type Physical = ByteArray;
    const KIND: FieldKind = FieldKind::FixedBytes(N);
    const RUST_TYPE: &'static str = "[u8; N]";
    fn placeholder() -> Self {
        [0; N]
    }
    fn convert(value: &'p [u8], _: &ColumnContext) -> Result<Self, String> {
        <[u8; N]>::try_from(value)
            .map_err(|_| format!("a value of {} bytes does not fit `[u8; {N}]`", value.len()))
    }
}

super::leaf!(Bytes);

/// `bytes::Bytes` slices the page buffers it comes from: no copy for PLAIN and
/// dictionary pages; values rebuilt in an arena (DELTA_BYTE_ARRAY,
/// BYTE_STREAM_SPLIT) are copied.
impl<'p> ParquetField<'p> for Bytes {
    type Physical = ByteArray;
    const KIND: FieldKind = FieldKind::Bytes;
    const RUST_TYPE: &'static str = "Bytes";
    fn placeholder() -> Self {
        Bytes::new()
    }
    fn convert(value: &'p [u8], _: &ColumnContext) -> Result<Self, String> {
        Ok(Bytes::copy_from_slice(value))
    }
    super::reads!(crate::column::ShareBytes);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decimal_metadata_out_of_range_is_an_error() {
        let cx = ColumnContext {
            scale: 2,
            precision: 300,
            unit: None,
            utc: false,
            integer: None,
        };
        assert!(<Decimal as ParquetField<'_>>::convert(1, &cx).is_err());
    }
}
