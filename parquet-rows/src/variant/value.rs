//! The value half of a variant: one header byte, then the value's data.
//!
//! Grammar (parquet-format `VariantEncoding.md`, "Value encoding"):
//!
//! ```text
//! value:          <value_metadata> <value_data>?
//! value_metadata: basic_type (bits 0-1) | value_header << 2
//! basic_type:     0 primitive (value_header: the type id), 1 short string
//!                 (value_header: its length), 2 object, 3 array
//! object_header:  is_large << 4 | field_id_size_minus_one << 2 | field_offset_size_minus_one
//! array_header:   is_large << 2 | field_offset_size_minus_one
//! object_val:     <num_elements> <field_id>{n} <field_offset>{n + 1} <values>
//! array_val:      <num_elements> <field_offset>{n + 1} <values>
//! ```
//!
//! A value is checked once, in [`Variant::new`], to its innermost element:
//! every size and offset inside its buffer, every string UTF-8, every field
//! id inside the dictionary, each object's names sorted and unique (lookup
//! by name is a binary search), nesting at most [`MAX_DEPTH`] deep. The
//! accessors then only read what was checked. The work of the check is
//! bounded by the buffer's size times the depth: the children of an object
//! or array may not be longer, in sum, than the bytes the container holds, so
//! offsets that point many children at one big value are refused.

use super::metadata::VariantMetadata;
use super::{le_uint, oos};

/// How deep objects and arrays may nest in one value: deeper values are an
/// error, not a stack overflow.
pub const MAX_DEPTH: usize = 128;

/// One variant value: a metadata dictionary and an encoded value, both
/// borrowed (from the pages, for a field of a row), checked when made.
///
/// ```
/// use parquet_rows::variant::Variant;
/// // Metadata: version 1, sorted, names ["price"]. Value: an object with
/// // one field (id 0, offset 0) holding the double 1.5.
/// let metadata = [0x11, 1, 0, 5, b'p', b'r', b'i', b'c', b'e'];
/// let mut value = vec![0x02, 1, 0, 0, 9, 0x1c];
/// value.extend_from_slice(&1.5f64.to_le_bytes());
/// let v = Variant::new(&metadata, &value)?;
/// assert_eq!(v.get("price").and_then(|p| p.as_f64()), Some(1.5));
/// assert!(v.get("size").is_none());
/// # Ok::<(), parquet_rows::Error>(())
/// ```
#[derive(Clone, Copy)]
pub struct Variant<'a> {
    metadata: VariantMetadata<'a>,
    value: &'a [u8], // invariant: exactly one checked value, header first
}

/// What a [`Variant`] holds, one case per type of the encoding (a short
/// string and a string are both [`VariantValue::String`]).
#[derive(Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
pub enum VariantValue<'a> {
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
    /// decimal4, decimal8 or decimal16: `unscaled / 10^scale`.
    Decimal {
        /// The unscaled value.
        unscaled: i128,
        /// Digits after the point, 0..=38.
        scale: u8,
        /// Bytes of the unscaled value as stored: 4, 8 or 16.
        width: u8,
    },
    /// date: days since 1970-01-01.
    Date(i32),
    /// timestamp (UTC-adjusted): microseconds since the epoch.
    TimestampMicros(i64),
    /// timestamp without time zone: microseconds since the epoch.
    TimestampNtzMicros(i64),
    /// timestamp with time zone, nanoseconds since the epoch.
    TimestampNanos(i64),
    /// timestamp without time zone, nanoseconds since the epoch.
    TimestampNtzNanos(i64),
    /// time without time zone: microseconds since midnight.
    TimeNtzMicros(i64),
    /// binary.
    Binary(&'a [u8]),
    /// string or short string.
    String(&'a str),
    /// uuid, its 16 bytes in big-endian order.
    Uuid([u8; 16]),
    /// An object: field names to values.
    Object(VariantObject<'a>),
    /// An array of values.
    Array(VariantArray<'a>),
}

/// Primitive type ids of the encoding.
pub(crate) mod id {
    pub const NULL: u8 = 0;
    pub const TRUE: u8 = 1;
    pub const FALSE: u8 = 2;
    pub const INT8: u8 = 3;
    pub const INT16: u8 = 4;
    pub const INT32: u8 = 5;
    pub const INT64: u8 = 6;
    pub const DOUBLE: u8 = 7;
    pub const DECIMAL4: u8 = 8;
    pub const DECIMAL8: u8 = 9;
    pub const DECIMAL16: u8 = 10;
    pub const DATE: u8 = 11;
    pub const TIMESTAMP: u8 = 12;
    pub const TIMESTAMP_NTZ: u8 = 13;
    pub const FLOAT: u8 = 14;
    pub const BINARY: u8 = 15;
    pub const STRING: u8 = 16;
    pub const TIME_NTZ: u8 = 17;
    pub const TIMESTAMP_NANOS: u8 = 18;
    pub const TIMESTAMP_NTZ_NANOS: u8 = 19;
    pub const UUID: u8 = 20;
}

const PRIMITIVE: u8 = 0;
const SHORT_STRING: u8 = 1;
const OBJECT: u8 = 2;
// basic type 3 is an array: the `_` arm of each match on `header & 3`.

/// The layout of an object or array value, read from its header.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Layout {
    len: usize,         // num_elements
    id_size: usize,     // 0 for an array, else 1..=4
    offset_size: usize, // 1..=4
    ids: usize,         // where the field ids start
    offsets: usize,     // where the offsets start
    values: usize,      // where the values start; invariant: `values + last offset <= value.len()`
}

impl Layout {
    /// Reads and bounds-checks the header of an object (`object`) or array.
    fn read(value: &[u8], object: bool) -> Result<(Layout, usize), String> {
        let what = if object { "object" } else { "array" };
        let header = value[0] >> 2;
        let (id_size, offset_size, large) = if object {
            (
                usize::from((header >> 2) & 3) + 1,
                usize::from(header & 3) + 1,
                header & 0x10 != 0,
            )
        } else {
            (0, usize::from(header & 3) + 1, header & 0x04 != 0)
        };
        let count_size = if large { 4 } else { 1 };
        let len = le_uint(value, 1, count_size)
            .ok_or_else(|| format!("variant {what} ends in its element count"))?;
        let ids = 1 + count_size;
        // In u64: a hostile count cannot overflow the sum.
        let offsets = ids as u64 + len as u64 * id_size as u64;
        let values = offsets + (len as u64 + 1) * offset_size as u64;
        if values > value.len() as u64 {
            return Err(format!(
                "variant {what} of {len} elements needs {values} bytes for its header, {} are left",
                value.len()
            ));
        }
        let (offsets, values) = (offsets as usize, values as usize);
        let layout = Layout {
            len,
            id_size,
            offset_size,
            ids,
            offsets,
            values,
        };
        let end = layout
            .offset(value, len)
            .and_then(|last| values.checked_add(last))
            .filter(|&end| end <= value.len())
            .ok_or_else(|| {
                format!(
                    "variant {what}'s last offset points past the {} bytes left",
                    value.len()
                )
            })?;
        Ok((layout, end))
    }

    fn offset(&self, value: &[u8], i: usize) -> Option<usize> {
        le_uint(value, self.offsets + i * self.offset_size, self.offset_size)
    }

    fn field_id(&self, value: &[u8], i: usize) -> Option<usize> {
        le_uint(value, self.ids + i * self.id_size, self.id_size)
    }

    /// Element `i`'s bytes: from its offset to the end of the values (its
    /// own header says where it ends).
    fn element<'a>(&self, value: &'a [u8], i: usize) -> Option<&'a [u8]> {
        let end = self.values + self.offset(value, self.len)?;
        let start = self.values + self.offset(value, i)?;
        let rest = value.get(start..end)?;
        let size = encoded_size(rest).ok()?;
        rest.get(..size)
    }
}

/// The size of the value at the start of `value`, from its header alone
/// (containers: their last offset), checked against `value.len()`.
fn encoded_size(value: &[u8]) -> Result<usize, String> {
    let (&header, rest) = value.split_first().ok_or("variant value is empty")?;
    let size = match header & 3 {
        PRIMITIVE => {
            let fixed = match header >> 2 {
                id::NULL | id::TRUE | id::FALSE => 0,
                id::INT8 => 1,
                id::INT16 => 2,
                id::INT32 | id::DATE | id::FLOAT => 4,
                id::INT64
                | id::DOUBLE
                | id::TIMESTAMP
                | id::TIMESTAMP_NTZ
                | id::TIME_NTZ
                | id::TIMESTAMP_NANOS
                | id::TIMESTAMP_NTZ_NANOS => 8,
                id::DECIMAL4 => 5,
                id::DECIMAL8 => 9,
                id::DECIMAL16 => 17,
                id::UUID => 16,
                id::BINARY | id::STRING => {
                    let len =
                        le_uint(rest, 0, 4).ok_or("variant string or binary ends in its length")?;
                    4usize
                        .checked_add(len)
                        .ok_or("variant string or binary too long")?
                }
                other => {
                    return Err(format!(
                        "variant primitive type id {other} is not one this version reads (0 to 20)"
                    ))
                }
            };
            1 + fixed
        }
        SHORT_STRING => 1 + usize::from(header >> 2),
        OBJECT => Layout::read(value, true)?.1,
        _ => Layout::read(value, false)?.1,
    };
    if size > value.len() {
        return Err(format!(
            "variant value of type byte {header:#04x} needs {size} bytes, {} are left",
            value.len()
        ));
    }
    Ok(size)
}

/// Checks the value at the start of `value` and everything inside it;
/// returns its size.
fn check(metadata: &VariantMetadata<'_>, value: &[u8], depth: usize) -> Result<usize, String> {
    let size = encoded_size(value)?;
    let value = &value[..size];
    let header = value[0];
    match header & 3 {
        PRIMITIVE => match header >> 2 {
            id::STRING => utf8(&value[5..]).map(|_| size),
            id::DECIMAL4 | id::DECIMAL8 | id::DECIMAL16 if value[1] > 38 => {
                Err(format!("variant decimal scale {} is above 38", value[1]))
            }
            _ => Ok(size),
        },
        SHORT_STRING => utf8(&value[1..]).map(|_| size),
        basic => {
            let object = basic == OBJECT;
            if depth >= MAX_DEPTH {
                return Err(format!(
                    "variant value nests objects and arrays more than {MAX_DEPTH} deep"
                ));
            }
            let (layout, _) = Layout::read(value, object)?;
            let fields = size - layout.values;
            let mut total = 0usize;
            let mut previous: Option<&str> = None;
            for i in 0..layout.len {
                if object {
                    let id = layout
                        .field_id(value, i)
                        .ok_or("variant object: field id")?;
                    let name = metadata.get(id).ok_or_else(|| {
                        format!(
                            "variant object field id {id} is not in the metadata's {} names",
                            metadata.len()
                        )
                    })?;
                    if let Some(previous) = previous {
                        if previous >= name {
                            return Err(format!(
                                "variant object fields are not sorted and unique by name: `{name}` follows `{previous}`"
                            ));
                        }
                    }
                    previous = Some(name);
                }
                let start = layout.offset(value, i).ok_or("variant offset")?;
                if start >= fields {
                    return Err(format!(
                        "variant element {i} starts at offset {start}, past the {fields} bytes of values"
                    ));
                }
                let child = &value[layout.values + start..];
                total += check(metadata, child, depth + 1)?;
                if total > fields {
                    return Err(format!(
                        "variant elements take more than the {fields} bytes of values the container holds (overlapping offsets)"
                    ));
                }
            }
            Ok(size)
        }
    }
}

fn utf8(bytes: &[u8]) -> Result<&str, String> {
    std::str::from_utf8(bytes).map_err(|e| format!("variant string is not valid UTF-8 ({e})"))
}

impl Variant<'static> {
    /// The null variant, with an empty dictionary.
    pub const NULL: Variant<'static> = Variant {
        metadata: VariantMetadata::EMPTY,
        value: &[0],
    };
}

impl<'a> Variant<'a> {
    /// Checks `metadata` and `value` (to the innermost element) and returns
    /// the variant they encode. `value` must hold exactly one value.
    pub fn new(metadata: &'a [u8], value: &'a [u8]) -> crate::Result<Self> {
        let metadata = VariantMetadata::parse(metadata).map_err(oos)?;
        Self::with_metadata(metadata, value).map_err(oos)
    }

    /// [`Variant::new`] with a metadata already checked.
    pub(crate) fn with_metadata(
        metadata: VariantMetadata<'a>,
        value: &'a [u8],
    ) -> Result<Self, String> {
        let size = check(&metadata, value, 0)?;
        if size != value.len() {
            return Err(format!(
                "variant value takes {size} bytes, its buffer holds {} more",
                value.len() - size
            ));
        }
        Ok(Variant { metadata, value })
    }

    /// The metadata dictionary.
    pub fn metadata(&self) -> VariantMetadata<'a> {
        self.metadata
    }

    /// The encoded value's bytes.
    pub fn value_bytes(&self) -> &'a [u8] {
        self.value
    }

    /// What the variant holds.
    pub fn unpack(&self) -> VariantValue<'a> {
        // `new` checked every byte read here; the `Null` fallback is
        // unreachable, and kept instead of a panic.
        self.try_unpack().unwrap_or(VariantValue::Null)
    }

    fn try_unpack(&self) -> Option<VariantValue<'a>> {
        let v = self.value;
        let header = *v.first()?;
        let data = &v[1..];
        let fixed = |n: usize| -> Option<&'a [u8]> { v.get(1..1 + n) };
        let i64_at = |from: usize| -> Option<i64> {
            Some(i64::from_le_bytes(v.get(from..from + 8)?.try_into().ok()?))
        };
        Some(match header & 3 {
            PRIMITIVE => match header >> 2 {
                id::NULL => VariantValue::Null,
                id::TRUE => VariantValue::Bool(true),
                id::FALSE => VariantValue::Bool(false),
                id::INT8 => VariantValue::Int8(i8::from_le_bytes(fixed(1)?.try_into().ok()?)),
                id::INT16 => VariantValue::Int16(i16::from_le_bytes(fixed(2)?.try_into().ok()?)),
                id::INT32 => VariantValue::Int32(i32::from_le_bytes(fixed(4)?.try_into().ok()?)),
                id::INT64 => VariantValue::Int64(i64_at(1)?),
                id::DOUBLE => VariantValue::Double(f64::from_le_bytes(fixed(8)?.try_into().ok()?)),
                id::FLOAT => VariantValue::Float(f32::from_le_bytes(fixed(4)?.try_into().ok()?)),
                id::DATE => VariantValue::Date(i32::from_le_bytes(fixed(4)?.try_into().ok()?)),
                id::TIMESTAMP => VariantValue::TimestampMicros(i64_at(1)?),
                id::TIMESTAMP_NTZ => VariantValue::TimestampNtzMicros(i64_at(1)?),
                id::TIME_NTZ => VariantValue::TimeNtzMicros(i64_at(1)?),
                id::TIMESTAMP_NANOS => VariantValue::TimestampNanos(i64_at(1)?),
                id::TIMESTAMP_NTZ_NANOS => VariantValue::TimestampNtzNanos(i64_at(1)?),
                id::DECIMAL4 => VariantValue::Decimal {
                    unscaled: i128::from(i32::from_le_bytes(v.get(2..6)?.try_into().ok()?)),
                    scale: *data.first()?,
                    width: 4,
                },
                id::DECIMAL8 => VariantValue::Decimal {
                    unscaled: i128::from(i64_at(2)?),
                    scale: *data.first()?,
                    width: 8,
                },
                id::DECIMAL16 => VariantValue::Decimal {
                    unscaled: i128::from_le_bytes(v.get(2..18)?.try_into().ok()?),
                    scale: *data.first()?,
                    width: 16,
                },
                id::BINARY => VariantValue::Binary(v.get(5..)?),
                id::STRING => VariantValue::String(std::str::from_utf8(v.get(5..)?).ok()?),
                id::UUID => VariantValue::Uuid(fixed(16)?.try_into().ok()?),
                _ => return None,
            },
            SHORT_STRING => VariantValue::String(std::str::from_utf8(data).ok()?),
            OBJECT => VariantValue::Object(VariantObject {
                metadata: self.metadata,
                value: v,
                layout: Layout::read(v, true).ok()?.0,
            }),
            _ => VariantValue::Array(VariantArray {
                metadata: self.metadata,
                value: v,
                layout: Layout::read(v, false).ok()?.0,
            }),
        })
    }

    /// Whether the variant is the null value (not a missing one: a missing
    /// field is `None` from [`Variant::get`]).
    pub fn is_null(&self) -> bool {
        matches!(self.unpack(), VariantValue::Null)
    }

    /// The boolean, if the variant is one.
    pub fn as_bool(&self) -> Option<bool> {
        match self.unpack() {
            VariantValue::Bool(b) => Some(b),
            _ => None,
        }
    }

    /// The integer, for int8 to int64 and for decimals with scale 0 that fit.
    pub fn as_i64(&self) -> Option<i64> {
        match self.unpack() {
            VariantValue::Int8(i) => Some(i64::from(i)),
            VariantValue::Int16(i) => Some(i64::from(i)),
            VariantValue::Int32(i) => Some(i64::from(i)),
            VariantValue::Int64(i) => Some(i),
            VariantValue::Decimal {
                unscaled, scale: 0, ..
            } => i64::try_from(unscaled).ok(),
            _ => None,
        }
    }

    /// The number as an `f64`, for doubles, floats, integers and decimals
    /// (the nearest `f64`: large integers and decimals may round).
    pub fn as_f64(&self) -> Option<f64> {
        match self.unpack() {
            VariantValue::Double(f) => Some(f),
            VariantValue::Float(f) => Some(f64::from(f)),
            VariantValue::Decimal {
                unscaled, scale, ..
            } => super::json::decimal(unscaled, scale).parse().ok(),
            // The nearest `f64`, as documented.
            #[allow(clippy::cast_precision_loss)]
            _ => self.as_i64().map(|i| i as f64),
        }
    }

    /// The decimal as `(unscaled, scale)`, for decimals and integers (scale 0).
    pub fn as_decimal(&self) -> Option<(i128, u8)> {
        match self.unpack() {
            VariantValue::Decimal {
                unscaled, scale, ..
            } => Some((unscaled, scale)),
            _ => self.as_i64().map(|i| (i128::from(i), 0)),
        }
    }

    /// The string, for strings and short strings.
    pub fn as_str(&self) -> Option<&'a str> {
        match self.unpack() {
            VariantValue::String(s) => Some(s),
            _ => None,
        }
    }

    /// The bytes of a binary value.
    pub fn as_bytes(&self) -> Option<&'a [u8]> {
        match self.unpack() {
            VariantValue::Binary(b) => Some(b),
            _ => None,
        }
    }

    /// The object, if the variant is one.
    pub fn as_object(&self) -> Option<VariantObject<'a>> {
        match self.unpack() {
            VariantValue::Object(o) => Some(o),
            _ => None,
        }
    }

    /// The array, if the variant is one.
    pub fn as_array(&self) -> Option<VariantArray<'a>> {
        match self.unpack() {
            VariantValue::Array(a) => Some(a),
            _ => None,
        }
    }

    /// Field `name` of an object; `None` when the variant is not an object
    /// or has no such field.
    pub fn get(&self, name: &str) -> Option<Variant<'a>> {
        self.as_object()?.get(name)
    }

    /// Element `i` of an array; `None` when the variant is not an array or
    /// `i` is past its end.
    pub fn index(&self, i: usize) -> Option<Variant<'a>> {
        self.as_array()?.get(i)
    }
}

impl std::fmt::Debug for Variant<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.unpack() {
            VariantValue::Object(o) => f.debug_map().entries(o.iter()).finish(),
            VariantValue::Array(a) => f.debug_list().entries(a.iter()).finish(),
            other => other.fmt(f),
        }
    }
}

/// Two variants are equal when they hold the same values: the same
/// [`VariantValue`] cases (a short string equals a long one), objects with
/// the same names and equal values, arrays with equal elements. Their
/// dictionaries may differ.
impl PartialEq for Variant<'_> {
    fn eq(&self, other: &Self) -> bool {
        match (self.unpack(), other.unpack()) {
            (VariantValue::Object(a), VariantValue::Object(b)) => {
                a.len() == b.len()
                    && a.iter()
                        .zip(b.iter())
                        .all(|((ka, va), (kb, vb))| ka == kb && va == vb)
            }
            (VariantValue::Array(a), VariantValue::Array(b)) => {
                a.len() == b.len() && a.iter().zip(b.iter()).all(|(x, y)| x == y)
            }
            (
                VariantValue::Decimal {
                    unscaled: a,
                    scale: sa,
                    ..
                },
                VariantValue::Decimal {
                    unscaled: b,
                    scale: sb,
                    ..
                },
            ) => a == b && sa == sb,
            (a, b) => a == b,
        }
    }
}

/// An object inside a [`Variant`]: fields sorted by name.
#[derive(Clone, Copy)]
pub struct VariantObject<'a> {
    metadata: VariantMetadata<'a>,
    value: &'a [u8], // the object's checked bytes, header first
    layout: Layout,
}

impl PartialEq for VariantObject<'_> {
    fn eq(&self, other: &Self) -> bool {
        self.value == other.value && self.metadata == other.metadata
    }
}

impl std::fmt::Debug for VariantObject<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_map().entries(self.iter()).finish()
    }
}

impl<'a> VariantObject<'a> {
    /// How many fields the object has.
    pub fn len(&self) -> usize {
        self.layout.len
    }

    /// Whether the object has no field.
    pub fn is_empty(&self) -> bool {
        self.layout.len == 0
    }

    /// Field `i` (in name order): its name and value.
    pub fn field(&self, i: usize) -> Option<(&'a str, Variant<'a>)> {
        if i >= self.layout.len {
            return None;
        }
        let name = self.metadata.get(self.layout.field_id(self.value, i)?)?;
        let value = self.layout.element(self.value, i)?;
        Some((
            name,
            Variant {
                metadata: self.metadata,
                value,
            },
        ))
    }

    /// Field `name`, by binary search (names are sorted, checked in
    /// [`Variant::new`]).
    pub fn get(&self, name: &str) -> Option<Variant<'a>> {
        let (mut low, mut high) = (0, self.layout.len);
        while low < high {
            let mid = low + (high - low) / 2;
            let id = self.layout.field_id(self.value, mid)?;
            match self.metadata.get(id)?.cmp(name) {
                std::cmp::Ordering::Less => low = mid + 1,
                std::cmp::Ordering::Greater => high = mid,
                std::cmp::Ordering::Equal => return self.field(mid).map(|(_, v)| v),
            }
        }
        None
    }

    /// The fields in name order.
    pub fn iter(&self) -> impl Iterator<Item = (&'a str, Variant<'a>)> + 'a {
        let this = *self;
        (0..self.layout.len).filter_map(move |i| this.field(i))
    }
}

/// An array inside a [`Variant`].
#[derive(Clone, Copy)]
pub struct VariantArray<'a> {
    metadata: VariantMetadata<'a>,
    value: &'a [u8], // the array's checked bytes, header first
    layout: Layout,
}

impl PartialEq for VariantArray<'_> {
    fn eq(&self, other: &Self) -> bool {
        self.value == other.value && self.metadata == other.metadata
    }
}

impl std::fmt::Debug for VariantArray<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl<'a> VariantArray<'a> {
    /// How many elements the array has.
    pub fn len(&self) -> usize {
        self.layout.len
    }

    /// Whether the array is empty.
    pub fn is_empty(&self) -> bool {
        self.layout.len == 0
    }

    /// Element `i`, `None` past the end.
    pub fn get(&self, i: usize) -> Option<Variant<'a>> {
        if i >= self.layout.len {
            return None;
        }
        Some(Variant {
            metadata: self.metadata,
            value: self.layout.element(self.value, i)?,
        })
    }

    /// The elements in order.
    pub fn iter(&self) -> impl Iterator<Item = Variant<'a>> + 'a {
        let this = *self;
        (0..self.layout.len).filter_map(move |i| this.get(i))
    }
}
