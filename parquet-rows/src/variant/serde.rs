//! `serde::Serialize` for variants (feature `serde`): `serde_json::to_value(&v)`
//! gives a `serde_json::Value`.

use serde::ser::{Serialize, SerializeMap, SerializeSeq, Serializer};

use super::json;
use super::owned::OwnedVariant;
use super::value::{Variant, VariantValue};

/// Objects serialize as maps, arrays as sequences, numbers as numbers (a
/// decimal as an integer when its scale is 0 and it fits `i64`, else as the
/// nearest `f64`), strings as strings, binary as bytes, and dates, times,
/// timestamps and UUIDs as the strings of [`Variant::to_json`].
impl Serialize for Variant<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self.unpack() {
            VariantValue::Null => serializer.serialize_unit(),
            VariantValue::Bool(b) => serializer.serialize_bool(b),
            VariantValue::Int8(i) => serializer.serialize_i8(i),
            VariantValue::Int16(i) => serializer.serialize_i16(i),
            VariantValue::Int32(i) => serializer.serialize_i32(i),
            VariantValue::Int64(i) => serializer.serialize_i64(i),
            VariantValue::Float(f) => serializer.serialize_f32(f),
            VariantValue::Double(f) => serializer.serialize_f64(f),
            VariantValue::Decimal {
                unscaled, scale: 0, ..
            } if i64::try_from(unscaled).is_ok() => serializer.serialize_i64(unscaled as i64),
            VariantValue::Decimal {
                unscaled, scale, ..
            } => {
                // The decimal's exact text parsed as `f64`: the nearest double.
                let text = json::decimal(unscaled, scale);
                serializer.serialize_f64(text.parse().unwrap_or(f64::NAN))
            }
            VariantValue::String(s) => serializer.serialize_str(s),
            VariantValue::Binary(b) => serializer.serialize_bytes(b),
            VariantValue::Object(o) => {
                let mut map = serializer.serialize_map(Some(o.len()))?;
                for (name, value) in o.iter() {
                    map.serialize_entry(name, &value)?;
                }
                map.end()
            }
            VariantValue::Array(a) => {
                let mut seq = serializer.serialize_seq(Some(a.len()))?;
                for value in a.iter() {
                    seq.serialize_element(&value)?;
                }
                seq.end()
            }
            // Dates, times, timestamps, UUIDs: as `to_json` writes them.
            _ => {
                let text = self.to_json();
                serializer.serialize_str(text.trim_matches('"'))
            }
        }
    }
}

impl Serialize for OwnedVariant {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.as_variant().serialize(serializer)
    }
}
