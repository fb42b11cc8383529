//! Expected values: decoded values in the notation of the corpus's
//! `.expected.json` files ([`ToJson`]), converters for the columns whose
//! notation needs more than the value, and a strict comparison of two values.

use super::*;

/// A decoded value in the expected files' notation.
pub(super) trait ToJson {
    fn to_json(&self) -> Value;
}

macro_rules! integer_to_json {
    ($($ty:ty),*) => {
        $(impl ToJson for $ty {
            fn to_json(&self) -> Value {
                Value::from(*self)
            }
        })*
    };
}
// Not `u8`: no column is read into a `u8` here, and leaving it out lets
// `Vec<u8>` (a BYTE_ARRAY, hex) and `Vec<T>` (a list, an array) both have an
// impl.
integer_to_json!(bool, i8, i16, i32, i64, u16, u32, u64);

/// Floats are numbers, except NaN and the infinities, which are strings.
pub(super) fn float_json(x: f64) -> Value {
    if x.is_nan() {
        Value::from("NaN")
    } else if x == f64::INFINITY {
        Value::from("Infinity")
    } else if x == f64::NEG_INFINITY {
        Value::from("-Infinity")
    } else {
        Value::from(x)
    }
}

impl ToJson for f32 {
    fn to_json(&self) -> Value {
        // The expected files hold f32 values widened to f64, exactly.
        float_json(f64::from(*self))
    }
}

impl ToJson for f64 {
    fn to_json(&self) -> Value {
        float_json(*self)
    }
}

/// FLOAT16, widened to f64 exactly as the expected files hold it.
impl ToJson for half::f16 {
    fn to_json(&self) -> Value {
        float_json(f64::from(*self))
    }
}

/// Strings are JSON strings.
macro_rules! text_to_json {
    ($($ty:ty),*) => {
        $(impl ToJson for $ty {
            fn to_json(&self) -> Value {
                Value::from(&**self)
            }
        })*
    };
}
text_to_json!(&str, String, Box<str>, Arc<str>);

/// Un-annotated BYTE_ARRAY and FIXED_LEN_BYTE_ARRAY: `"hex:<lowercase hex>"`.
pub(super) fn hex_json(bytes: &[u8]) -> Value {
    use std::fmt::Write;
    let mut s = String::with_capacity(4 + 2 * bytes.len());
    s.push_str("hex:");
    for b in bytes {
        write!(s, "{b:02x}").expect("write to a String");
    }
    Value::from(s)
}

impl ToJson for &[u8] {
    fn to_json(&self) -> Value {
        hex_json(self)
    }
}

impl ToJson for Vec<u8> {
    fn to_json(&self) -> Value {
        hex_json(self)
    }
}

impl ToJson for bytes::Bytes {
    fn to_json(&self) -> Value {
        hex_json(self)
    }
}

impl<const N: usize> ToJson for [u8; N] {
    fn to_json(&self) -> Value {
        hex_json(self)
    }
}

/// Decimals are fixed-point strings with exactly `scale` fractional digits.
impl ToJson for Decimal {
    fn to_json(&self) -> Value {
        Value::from(self.to_string())
    }
}

/// `rust_decimal` keeps the scale it was given, so it prints the same digits.
impl ToJson for rust_decimal::Decimal {
    fn to_json(&self) -> Value {
        Value::from(self.to_string())
    }
}

impl<T: ToJson> ToJson for Option<T> {
    fn to_json(&self) -> Value {
        self.as_ref().map_or(Value::Null, ToJson::to_json)
    }
}

/// A list is an array of its elements.
impl<T: ToJson> ToJson for Vec<T> {
    fn to_json(&self) -> Value {
        Value::Array(self.iter().map(ToJson::to_json).collect())
    }
}

/// A map entry: `{"key": k, "value": v}`.
pub(super) fn entry_json(key: &impl ToJson, value: &impl ToJson) -> Value {
    let mut entry = serde_json::Map::new();
    entry.insert("key".to_owned(), key.to_json());
    entry.insert("value".to_owned(), value.to_json());
    Value::Object(entry)
}

/// An entry of a map read as `Vec<(K, V)>`, which keeps the file's order.
impl<K: ToJson, V: ToJson> ToJson for (K, V) {
    fn to_json(&self) -> Value {
        entry_json(&self.0, &self.1)
    }
}

/// A `HashMap` has no order: its entries are listed by key, and the expected
/// maps are sorted the same way ([`MapOrder::ByKey`]).
impl<K: ToJson + Ord, V: ToJson, S> ToJson for HashMap<K, V, S> {
    fn to_json(&self) -> Value {
        let mut entries: Vec<(&K, &V)> = self.iter().collect();
        entries.sort_by(|a, b| a.0.cmp(b.0));
        Value::Array(entries.into_iter().map(|(k, v)| entry_json(k, v)).collect())
    }
}

/// A `BTreeMap` lists its entries by key ([`MapOrder::ByKey`]).
impl<K: ToJson, V: ToJson> ToJson for BTreeMap<K, V> {
    fn to_json(&self) -> Value {
        Value::Array(self.iter().map(|(k, v)| entry_json(k, v)).collect())
    }
}

/// A struct read from a Parquet group is an object keyed by the group's field
/// names: `object_to_json!(Type<'_> { "Parquet name" => field, ... })`.
macro_rules! object_to_json {
    ($ty:ty { $($name:literal => $field:ident),+ $(,)? }) => {
        impl ToJson for $ty {
            fn to_json(&self) -> Value {
                let mut object = serde_json::Map::new();
                $(object.insert($name.to_owned(), ToJson::to_json(&self.$field));)+
                Value::Object(object)
            }
        }
    };
}

// Conversions for columns whose expected notation depends on more than the
// field's value (`"column" => field via converter` in `corpus_test!`). Each
// takes the field of an OPTIONAL column.

/// An INT96 column read as [`Timestamp`]: nanoseconds, not adjusted to UTC
/// (the expected files' `timestamp[ns] (from INT96)`).
pub(super) fn int96_timestamp(v: Option<&Timestamp>) -> Value {
    v.map_or(Value::Null, |t| {
        assert_eq!(
            (t.unit, t.utc),
            (Unit::Nanos, false),
            "INT96 read as Timestamp: unit and UTC flag"
        );
        Value::from(t.value)
    })
}

/// A raw [`Int96`] as nanoseconds since the epoch.
pub(super) fn int96_nanos(v: Option<&Int96>) -> Value {
    v.map_or(Value::Null, |t| match t.to_nanos() {
        Some(nanos) => Value::from(nanos),
        None => Value::from(format!("{t:?} overflows i64 nanoseconds")),
    })
}

/// A raw [`Int96`] as Spark reads it (the expected values of
/// `int96_from_spark`, see its CORPUS.md row): microseconds with wrapping i64
/// arithmetic, `(julian_day - 2440588) * 86400000000 + nanos_of_day / 1000`.
pub(super) fn spark_micros(v: Option<&Int96>) -> Value {
    v.map_or(Value::Null, |t| {
        let days = i64::from(t.julian_day) - i64::from(Int96::UNIX_EPOCH_JULIAN_DAY);
        Value::from(
            days.wrapping_mul(86_400_000_000)
                .wrapping_add(t.nanos_of_day / 1_000),
        )
    })
}

/// `chrono::NaiveDateTime` as nanoseconds since the epoch.
pub(super) fn naive_nanos(v: Option<&chrono::NaiveDateTime>) -> Value {
    v.map_or(Value::Null, |t| {
        t.and_utc()
            .timestamp_nanos_opt()
            .map_or_else(|| Value::from(format!("{t} overflows")), Value::from)
    })
}

/// `chrono::DateTime<Utc>` as nanoseconds since the epoch.
pub(super) fn utc_nanos(v: Option<&chrono::DateTime<chrono::Utc>>) -> Value {
    v.map_or(Value::Null, |t| {
        t.timestamp_nanos_opt()
            .map_or_else(|| Value::from(format!("{t} overflows")), Value::from)
    })
}

/// An unscaled decimal (`i128`) of a column with scale 2, as a fixed-point string.
pub(super) fn scale_2(v: Option<&i128>) -> Value {
    v.map_or(Value::Null, |&unscaled| {
        Decimal {
            unscaled,
            precision: 38,
            scale: 2,
        }
        .to_json()
    })
}

/// An unscaled decimal (`i128`) of a column with scale 3, as a fixed-point string.
pub(super) fn scale_3(v: Option<&i128>) -> Value {
    v.map_or(Value::Null, |&unscaled| {
        Decimal {
            unscaled,
            precision: 38,
            scale: 3,
        }
        .to_json()
    })
}

/// A field's value in the expected notation: `value!(field)` with [`ToJson`],
/// `value!(field, converter)` with a converter of an optional field.
macro_rules! value {
    ($field:expr) => {
        ToJson::to_json(&$field)
    };
    ($field:expr, $converter:ident) => {
        $converter(Option::as_ref(&$field))
    };
}

/// Whether a decoded value equals an expected one. Numbers compare by value
/// (so `1.0` and `1` are equal), the sign of a zero counts, and lists and
/// structs compare element by element, field by field, the same way.
#[allow(clippy::float_cmp)] // exact equality is the point: the expected files hold exact values
pub(super) fn same(got: &Value, want: &Value) -> bool {
    match (got, want) {
        (Value::Number(g), Value::Number(w)) if g.is_f64() || w.is_f64() => {
            match (g.as_f64(), w.as_f64()) {
                (Some(g), Some(w)) => g == w && g.is_sign_negative() == w.is_sign_negative(),
                _ => false,
            }
        }
        (Value::Array(g), Value::Array(w)) => {
            g.len() == w.len() && g.iter().zip(w).all(|(g, w)| same(g, w))
        }
        (Value::Object(g), Value::Object(w)) => {
            g.len() == w.len() && g.iter().all(|(k, g)| w.get(k).is_some_and(|w| same(g, w)))
        }
        _ => got == want,
    }
}

/// Where a decoded value first differs from the expected one, as a path into
/// it (`[1].phone[0].kind`) and the two values there; `None` if they are the
/// [`same`].
pub(super) fn difference(got: &Value, want: &Value) -> Option<String> {
    match (got, want) {
        (Value::Array(g), Value::Array(w)) if g.len() == w.len() => g
            .iter()
            .zip(w)
            .enumerate()
            .find_map(|(i, (g, w))| difference(g, w).map(|d| format!("[{i}]{d}"))),
        (Value::Object(g), Value::Object(w))
            if g.len() == w.len() && g.keys().all(|k| w.contains_key(k)) =>
        {
            g.iter()
                .find_map(|(k, g)| difference(g, &w[k]).map(|d| format!(".{k}{d}")))
        }
        _ if same(got, want) => None,
        _ => Some(format!(": got {got}, expected {want}")),
    }
}

/// Sorts every map inside an expected value by key, for [`MapOrder::ByKey`]. A
/// map is an array whose elements are all objects with exactly the fields
/// `key` and `value` (no list of structs in the corpus looks like that).
pub(super) fn sort_maps(value: &mut Value) {
    match value {
        Value::Array(items) => {
            items.iter_mut().for_each(sort_maps);
            let is_map = !items.is_empty()
                && items.iter().all(|item| {
                    item.as_object().is_some_and(|o| {
                        o.len() == 2 && o.contains_key("key") && o.contains_key("value")
                    })
                });
            if is_map {
                items.sort_by(|a, b| key_order(&a["key"], &b["key"]));
            }
        }
        Value::Object(fields) => fields.values_mut().for_each(sort_maps),
        _ => {}
    }
}

/// The order of map keys in the expected notation, as `Ord` orders the decoded
/// keys: integers by value, strings by bytes, a null (`Option` key) first.
pub(super) fn key_order(a: &Value, b: &Value) -> std::cmp::Ordering {
    use std::cmp::Ordering;
    match (a, b) {
        (Value::Number(a), Value::Number(b)) => match (a.as_i64(), b.as_i64()) {
            (Some(a), Some(b)) => a.cmp(&b),
            _ => a
                .as_f64()
                .partial_cmp(&b.as_f64())
                .unwrap_or(Ordering::Equal),
        },
        (Value::String(a), Value::String(b)) => a.cmp(b),
        (Value::Null, Value::Null) => Ordering::Equal,
        (Value::Null, _) => Ordering::Less,
        (_, Value::Null) => Ordering::Greater,
        _ => panic!("map keys of different types: {a} and {b}"),
    }
}

/// The corpus file `relative` (without `.parquet`), or `None` (after saying so)
/// when the corpus tests are switched off with `PARQUET_TEST_DATA=skip`.
pub(super) fn corpus_path(relative: &str) -> Option<PathBuf> {
    let Some(path) = parquet_rows_suite::corpus_file(format!("{relative}.parquet")) else {
        println!("skipped: PARQUET_TEST_DATA=skip, corpus file {relative}.parquet not read");
        return None;
    };
    assert!(
        path.is_file(),
        "{} is missing from the corpus",
        path.display()
    );
    Some(path)
}

pub(super) fn expected_json(path: &Path) -> Value {
    let path = path.with_extension("expected.json");
    let text =
        std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("read {}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("parse {}: {e}", path.display()))
}
