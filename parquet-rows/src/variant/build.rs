//! Building encoded variants from owned values: what shredded columns are
//! rebuilt with, and what tests write files with.

use std::collections::BTreeMap;

use super::metadata::VariantMetadata;
use super::value::{id, Variant, VariantValue};
use super::{oos, MAX_DEPTH};

/// An owned variant value, to build an encoded variant from
/// ([`OwnedVariant::from_value`](super::OwnedVariant::from_value)) or to
/// hold one without its buffers ([`Variant::to_owned_value`]).
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum OwnedValue {
    /// null.
    Null,
    /// A boolean.
    Bool(bool),
    /// int8.
    Int8(i8),
    /// int16.
    Int16(i16),
    /// int32.
    Int32(i32),
    /// int64.
    Int64(i64),
    /// float.
    Float(f32),
    /// double.
    Double(f64),
    /// A decimal `unscaled / 10^scale`, stored in `width` bytes (4, 8 or 16).
    Decimal {
        /// The unscaled value.
        unscaled: i128,
        /// Digits after the point, 0..=38.
        scale: u8,
        /// 4, 8 or 16.
        width: u8,
    },
    /// Days since 1970-01-01.
    Date(i32),
    /// Microseconds since the epoch, UTC-adjusted.
    TimestampMicros(i64),
    /// Microseconds since the epoch, no time zone.
    TimestampNtzMicros(i64),
    /// Nanoseconds since the epoch, UTC-adjusted.
    TimestampNanos(i64),
    /// Nanoseconds since the epoch, no time zone.
    TimestampNtzNanos(i64),
    /// Microseconds since midnight.
    TimeNtzMicros(i64),
    /// Bytes.
    Binary(Vec<u8>),
    /// Text.
    String(String),
    /// A UUID, big-endian.
    Uuid([u8; 16]),
    /// Fields in any order; names must be unique.
    Object(Vec<(String, OwnedValue)>),
    /// Elements.
    Array(Vec<OwnedValue>),
}

impl From<&str> for OwnedValue {
    fn from(s: &str) -> Self {
        OwnedValue::String(s.to_owned())
    }
}

impl Variant<'_> {
    /// The value, copied out of its buffers.
    pub fn to_owned_value(&self) -> OwnedValue {
        match self.unpack() {
            VariantValue::Null => OwnedValue::Null,
            VariantValue::Bool(b) => OwnedValue::Bool(b),
            VariantValue::Int8(i) => OwnedValue::Int8(i),
            VariantValue::Int16(i) => OwnedValue::Int16(i),
            VariantValue::Int32(i) => OwnedValue::Int32(i),
            VariantValue::Int64(i) => OwnedValue::Int64(i),
            VariantValue::Float(f) => OwnedValue::Float(f),
            VariantValue::Double(f) => OwnedValue::Double(f),
            VariantValue::Decimal {
                unscaled,
                scale,
                width,
            } => OwnedValue::Decimal {
                unscaled,
                scale,
                width,
            },
            VariantValue::Date(d) => OwnedValue::Date(d),
            VariantValue::TimestampMicros(t) => OwnedValue::TimestampMicros(t),
            VariantValue::TimestampNtzMicros(t) => OwnedValue::TimestampNtzMicros(t),
            VariantValue::TimestampNanos(t) => OwnedValue::TimestampNanos(t),
            VariantValue::TimestampNtzNanos(t) => OwnedValue::TimestampNtzNanos(t),
            VariantValue::TimeNtzMicros(t) => OwnedValue::TimeNtzMicros(t),
            VariantValue::Binary(b) => OwnedValue::Binary(b.to_vec()),
            VariantValue::String(s) => OwnedValue::String(s.to_owned()),
            VariantValue::Uuid(u) => OwnedValue::Uuid(u),
            VariantValue::Object(o) => OwnedValue::Object(
                o.iter()
                    .map(|(k, v)| (k.to_owned(), v.to_owned_value()))
                    .collect(),
            ),
            VariantValue::Array(a) => {
                OwnedValue::Array(a.iter().map(|v| v.to_owned_value()).collect())
            }
        }
    }
}

/// Bytes needed for an unsigned `n` (1 to 4).
fn width(n: usize) -> usize {
    match n {
        0..=0xff => 1,
        0x100..=0xffff => 2,
        0x1_0000..=0xff_ffff => 3,
        _ => 4,
    }
}

fn push_uint(out: &mut Vec<u8>, n: usize, size: usize) {
    out.extend_from_slice(&(n as u32).to_le_bytes()[..size]);
}

impl OwnedValue {
    /// Encodes the value: `(metadata, value)`, the metadata a sorted
    /// dictionary of every field name. Fails on duplicate names in an
    /// object, a decimal scale above 38 or width other than 4, 8, 16, a
    /// string or container above 4 GiB, or nesting deeper than
    /// [`MAX_DEPTH`].
    pub fn encode(&self) -> crate::Result<(Vec<u8>, Vec<u8>)> {
        let mut names = BTreeMap::new();
        self.collect_names(&mut names, 0).map_err(oos)?;
        for (i, id) in names.values_mut().enumerate() {
            *id = i;
        }
        let total: usize = names.keys().map(|n: &&str| n.len()).sum();
        let size = width(total.max(names.len()));
        let mut metadata = vec![0x01 | 0x10 | ((size as u8 - 1) << 6)];
        push_uint(&mut metadata, names.len(), size);
        let mut offset = 0;
        push_uint(&mut metadata, 0, size);
        for name in names.keys() {
            offset += name.len();
            push_uint(&mut metadata, offset, size);
        }
        for name in names.keys() {
            metadata.extend_from_slice(name.as_bytes());
        }
        let mut value = Vec::new();
        self.encode_value(&names, &mut value).map_err(oos)?;
        Ok((metadata, value))
    }

    /// Encodes the value against an existing dictionary (as a shredding
    /// writer does for the part of an object left in `value`): every field
    /// name must be in `metadata`.
    ///
    /// ```
    /// use parquet_rows::variant::{OwnedValue, Variant, VariantMetadata};
    /// let full = OwnedValue::Object(vec![
    ///     ("a".into(), OwnedValue::Int8(1)),
    ///     ("b".into(), OwnedValue::Int8(2)),
    /// ]);
    /// let (metadata, _) = full.encode()?;
    /// let rest = OwnedValue::Object(vec![("b".into(), OwnedValue::Int8(2))]);
    /// let value = rest.encode_with(VariantMetadata::new(&metadata)?)?;
    /// assert_eq!(Variant::new(&metadata, &value)?.get("b").and_then(|b| b.as_i64()), Some(2));
    /// # Ok::<(), parquet_rows::Error>(())
    /// ```
    pub fn encode_with(&self, metadata: VariantMetadata<'_>) -> crate::Result<Vec<u8>> {
        let mut names = BTreeMap::new();
        for (id, name) in metadata.iter().enumerate() {
            names.entry(name).or_insert(id);
        }
        let mut used = BTreeMap::new();
        self.collect_names(&mut used, 0).map_err(oos)?;
        if let Some(missing) = used.keys().find(|n| !names.contains_key(*n)) {
            return Err(oos(format!(
                "field name `{missing}` is not in the variant metadata"
            )));
        }
        let mut value = Vec::new();
        self.encode_value(&names, &mut value).map_err(oos)?;
        Ok(value)
    }

    fn collect_names<'s>(
        &'s self,
        names: &mut BTreeMap<&'s str, usize>,
        depth: usize,
    ) -> Result<(), String> {
        if depth > MAX_DEPTH {
            return Err(format!("variant nests deeper than {MAX_DEPTH}"));
        }
        match self {
            OwnedValue::Object(fields) => {
                for (name, value) in fields {
                    names.insert(name, 0);
                    value.collect_names(names, depth + 1)?;
                }
            }
            OwnedValue::Array(values) => {
                for value in values {
                    value.collect_names(names, depth + 1)?;
                }
            }
            _ => {}
        }
        Ok(())
    }

    // One arm per type of the encoding; splitting it would scatter the table.
    #[allow(clippy::too_many_lines)]
    fn encode_value(&self, names: &BTreeMap<&str, usize>, out: &mut Vec<u8>) -> Result<(), String> {
        let primitive = |out: &mut Vec<u8>, type_id: u8, data: &[u8]| {
            out.push(type_id << 2);
            out.extend_from_slice(data);
        };
        match self {
            OwnedValue::Null => primitive(out, id::NULL, &[]),
            OwnedValue::Bool(true) => primitive(out, id::TRUE, &[]),
            OwnedValue::Bool(false) => primitive(out, id::FALSE, &[]),
            OwnedValue::Int8(i) => primitive(out, id::INT8, &i.to_le_bytes()),
            OwnedValue::Int16(i) => primitive(out, id::INT16, &i.to_le_bytes()),
            OwnedValue::Int32(i) => primitive(out, id::INT32, &i.to_le_bytes()),
            OwnedValue::Int64(i) => primitive(out, id::INT64, &i.to_le_bytes()),
            OwnedValue::Float(f) => primitive(out, id::FLOAT, &f.to_le_bytes()),
            OwnedValue::Double(f) => primitive(out, id::DOUBLE, &f.to_le_bytes()),
            OwnedValue::Date(d) => primitive(out, id::DATE, &d.to_le_bytes()),
            OwnedValue::TimestampMicros(t) => primitive(out, id::TIMESTAMP, &t.to_le_bytes()),
            OwnedValue::TimestampNtzMicros(t) => {
                primitive(out, id::TIMESTAMP_NTZ, &t.to_le_bytes());
            }
            OwnedValue::TimestampNanos(t) => primitive(out, id::TIMESTAMP_NANOS, &t.to_le_bytes()),
            OwnedValue::TimestampNtzNanos(t) => {
                primitive(out, id::TIMESTAMP_NTZ_NANOS, &t.to_le_bytes());
            }
            OwnedValue::TimeNtzMicros(t) => primitive(out, id::TIME_NTZ, &t.to_le_bytes()),
            OwnedValue::Uuid(u) => primitive(out, id::UUID, u),
            OwnedValue::Decimal {
                unscaled,
                scale,
                width,
            } => {
                if *scale > 38 {
                    return Err(format!("variant decimal scale {scale} is above 38"));
                }
                out.push(
                    match width {
                        4 => id::DECIMAL4,
                        8 => id::DECIMAL8,
                        16 => id::DECIMAL16,
                        _ => {
                            return Err(format!("variant decimal width {width} is not 4, 8 or 16"))
                        }
                    } << 2,
                );
                out.push(*scale);
                let bytes = unscaled.to_le_bytes();
                let fits = match width {
                    4 => i32::try_from(*unscaled).is_ok(),
                    8 => i64::try_from(*unscaled).is_ok(),
                    _ => true,
                };
                if !fits {
                    return Err(format!(
                        "variant decimal {unscaled} does not fit {width} bytes"
                    ));
                }
                out.extend_from_slice(&bytes[..usize::from(*width)]);
            }
            OwnedValue::Binary(b) => {
                let len = u32::try_from(b.len()).map_err(|_| "variant binary above 4 GiB")?;
                primitive(out, id::BINARY, &len.to_le_bytes());
                out.extend_from_slice(b);
            }
            OwnedValue::String(s) if s.len() < 64 => {
                out.push(((s.len() as u8) << 2) | 1);
                out.extend_from_slice(s.as_bytes());
            }
            OwnedValue::String(s) => {
                let len = u32::try_from(s.len()).map_err(|_| "variant string above 4 GiB")?;
                primitive(out, id::STRING, &len.to_le_bytes());
                out.extend_from_slice(s.as_bytes());
            }
            OwnedValue::Object(fields) => {
                let mut sorted: Vec<&(String, OwnedValue)> = fields.iter().collect();
                sorted.sort_by(|a, b| a.0.cmp(&b.0));
                if let Some(pair) = sorted.windows(2).find(|w| w[0].0 == w[1].0) {
                    return Err(format!("variant object has field `{}` twice", pair[0].0));
                }
                let mut ids = Vec::with_capacity(sorted.len());
                let mut data = Vec::new();
                let mut offsets = Vec::with_capacity(sorted.len() + 1);
                for (name, value) in sorted {
                    ids.push(names.get(name.as_str()).copied().unwrap_or_default());
                    offsets.push(data.len());
                    value.encode_value(names, &mut data)?;
                }
                offsets.push(data.len());
                let id_size = width(ids.iter().copied().max().unwrap_or(0));
                container(out, true, id_size, &ids, &offsets, &data)?;
            }
            OwnedValue::Array(values) => {
                let mut data = Vec::new();
                let mut offsets = Vec::with_capacity(values.len() + 1);
                for value in values {
                    offsets.push(data.len());
                    value.encode_value(names, &mut data)?;
                }
                offsets.push(data.len());
                container(out, false, 0, &[], &offsets, &data)?;
            }
        }
        Ok(())
    }
}

/// Writes an object (`object`, with field `ids`) or array header, its
/// offsets and its values' bytes `data`.
fn container(
    out: &mut Vec<u8>,
    object: bool,
    id_size: usize,
    ids: &[usize],
    offsets: &[usize],
    data: &[u8],
) -> Result<(), String> {
    let len = offsets.len() - 1;
    if u32::try_from(data.len()).is_err() || u32::try_from(len).is_err() {
        return Err("variant object or array above 4 GiB".to_owned());
    }
    let large = len > 0xff;
    let offset_size = width(data.len());
    let header = if object {
        (u8::from(large) << 4) | ((id_size as u8 - 1) << 2) | (offset_size as u8 - 1)
    } else {
        (u8::from(large) << 2) | (offset_size as u8 - 1)
    };
    out.push((header << 2) | if object { 2 } else { 3 });
    push_uint(out, len, if large { 4 } else { 1 });
    for &id in ids {
        push_uint(out, id, id_size);
    }
    for &offset in offsets {
        push_uint(out, offset, offset_size);
    }
    out.extend_from_slice(data);
    Ok(())
}
