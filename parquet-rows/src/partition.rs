//! Hive-style partition directories (`date=2026-01-02/symbol=EURUSD/`): the
//! values a file's path gives, and the `#[parquet(partition)]` fields they
//! fill.
//!
//! A partition field is not bound to a column: every row read from a file
//! gets the value of the file's `key=value` directory, parsed into the
//! field's type once per row group. A dataset
//! (`dataset::Dataset`, feature `object_store`) takes the
//! values from each file's path below its prefix, and prunes whole files by
//! the typed filter's predicates on partition fields; a file read on its own
//! ([`ParquetFile`](crate::ParquetFile)) has none unless given with
//! [`ParquetFile::with_partitions`](crate::ParquetFile::with_partitions).
//!
//! When the file also holds a column of the partition's name (some hive
//! writers write it), the path's value is the field's: the column is not
//! read. A struct that wants the column too reads it into a field of its own.

use std::str::FromStr;
use std::sync::Arc;

use crate::error::{Error, Location, Result};

/// The partition values of one file, from the `key=value` directories of its
/// path, in path order.
///
/// ```
/// use parquet_rows::Partitions;
///
/// let p = Partitions::from_path("date=2026-01-02/symbol=EUR%2FUSD/part-0.parquet");
/// assert_eq!(p.get("date"), Some("2026-01-02"));
/// assert_eq!(p.get("symbol"), Some("EUR/USD")); // percent-decoded
/// let q: Partitions = [("date", "2026-01-02")].into_iter().collect();
/// assert_eq!(q.get("date"), p.get("date"));
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Partitions {
    values: Vec<(String, String)>, // (key, value), in path order
}

impl Partitions {
    /// The partitions of `path` (a file's path, `/`-separated; a dataset
    /// gives the path below its prefix): every directory `key=value`,
    /// percent-decoded. The file's own name is not a directory.
    pub fn from_path(path: &str) -> Self {
        let dirs = path.rsplit_once('/').map_or("", |(dirs, _)| dirs);
        let values = dirs
            .split('/')
            .filter_map(|dir| dir.split_once('='))
            .filter(|(key, _)| !key.is_empty())
            .map(|(key, value)| (percent_decode(key), percent_decode(value)))
            .collect();
        Partitions { values }
    }

    /// The value of partition `key`, if the path has it (the first, if it
    /// has several).
    pub fn get(&self, key: &str) -> Option<&str> {
        self.values
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }

    /// The `(key, value)` pairs, in path order.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &str)> {
        self.values.iter().map(|(k, v)| (k.as_str(), v.as_str()))
    }

    /// Whether there is no partition value.
    pub fn is_empty(&self) -> bool {
        self.values.is_empty()
    }
}

impl<K: Into<String>, V: Into<String>> FromIterator<(K, V)> for Partitions {
    fn from_iter<I: IntoIterator<Item = (K, V)>>(iter: I) -> Self {
        Partitions {
            values: iter
                .into_iter()
                .map(|(k, v)| (k.into(), v.into()))
                .collect(),
        }
    }
}

/// The value Hive and Spark write for a null partition value.
const HIVE_NULL: &str = "__HIVE_DEFAULT_PARTITION__";

/// A type a `#[parquet(partition)]` field may have: parsed from a path's
/// `key=value` directory with `FromStr`, cloned into every row of the file.
///
/// A missing key, or Hive's null value `__HIVE_DEFAULT_PARTITION__`, is
/// `None` for an `Option` field and an error otherwise. `&str` is not a
/// partition type: the value comes from the path, not from the pages that
/// borrowed rows point into.
#[diagnostic::on_unimplemented(
    message = "a `#[parquet(partition)]` field cannot be of type `{Self}`",
    label = "not a partition type",
    note = "partition values are parsed from the file's path: use `String`, `Box<str>`, `Arc<str>`, an integer, `bool`, a float, or an `Option` of one"
)]
pub trait PartitionField: Clone {
    /// The field's value for a path's value of its key (`None`: the path has
    /// no such key); `Err(None)` when it needs one, `Err(Some(reason))` when
    /// the value does not parse.
    #[doc(hidden)]
    fn from_partition(value: Option<&str>) -> std::result::Result<Self, Option<String>>;
}

macro_rules! parsed {
    ($($t:ty),* $(,)?) => {$(
        impl PartitionField for $t {
            fn from_partition(value: Option<&str>) -> std::result::Result<Self, Option<String>> {
                match value {
                    None | Some(HIVE_NULL) => Err(None),
                    Some(v) => <$t as FromStr>::from_str(v).map_err(|e| Some(e.to_string())),
                }
            }
        }
    )*};
}

parsed!(bool, i8, i16, i32, i64, u8, u16, u32, u64, f32, f64, String);

impl PartitionField for Box<str> {
    fn from_partition(value: Option<&str>) -> std::result::Result<Self, Option<String>> {
        String::from_partition(value).map(String::into_boxed_str)
    }
}

impl PartitionField for Arc<str> {
    fn from_partition(value: Option<&str>) -> std::result::Result<Self, Option<String>> {
        String::from_partition(value).map(Arc::from)
    }
}

impl<T: PartitionField> PartitionField for Option<T> {
    fn from_partition(value: Option<&str>) -> std::result::Result<Self, Option<String>> {
        match value {
            None | Some(HIVE_NULL) => Ok(None),
            Some(v) => T::from_partition(Some(v)).map(Some),
        }
    }
}

/// What the derive's code asks of a partition field's type, as
/// [`PartitionField`] with the pages' lifetime: a bound that names the
/// lifetime is checked where the struct is used, not where the impl is
/// written, so an unsupported type is reported once, at the field.
#[doc(hidden)]
#[diagnostic::on_unimplemented(
    message = "a `#[parquet(partition)]` field cannot be of type `{Self}`",
    label = "not a partition type",
    note = "partition values are parsed from the file's path: use `String`, `Box<str>`, `Arc<str>`, an integer, `bool`, a float, or an `Option` of one"
)]
pub trait PartitionNode<'p>: Sized {
    /// The value of field `field: rust_type` from partition `key`.
    fn partition(partitions: &Partitions, key: &str, field: &str, rust_type: &str) -> Result<Self>;
    /// A copy for the next row.
    #[must_use]
    fn copy(&self) -> Self;
}

impl<T: PartitionField> PartitionNode<'_> for T {
    fn partition(partitions: &Partitions, key: &str, field: &str, rust_type: &str) -> Result<Self> {
        let value = partitions.get(key);
        T::from_partition(value).map_err(|reason| Error::Value {
            location: Location::default(),
            message: match (reason, value) {
                (Some(reason), Some(value)) => format!(
                    "partition `{key}={value}` does not parse as `{rust_type}` (field `{field}`): {reason}"
                ),
                (_, Some(value)) => format!(
                    "partition `{key}={value}` is Hive's null, and field `{field}: {rust_type}` is not an `Option`"
                ),
                (_, None) => format!(
                    "the file's path has no partition `{key}` (a `{key}=...` directory) for field `{field}: {rust_type}`; \
                     an `Option` field reads a missing partition as `None`, and a file read on its own gets its partitions from `with_partitions`"
                ),
            },
        })
    }

    fn copy(&self) -> Self {
        self.clone()
    }
}

/// Decodes `%XX` escapes (as Hive and Spark write them in partition
/// directories); anything else, including a malformed escape, is kept.
fn percent_decode(s: &str) -> String {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = |b: u8| (b as char).to_digit(16);
        match (
            bytes[i],
            bytes.get(i + 1).copied().and_then(hex),
            bytes.get(i + 2).copied().and_then(hex),
        ) {
            (b'%', Some(hi), Some(lo)) => {
                out.push((hi * 16 + lo) as u8);
                i += 3;
            }
            (b, _, _) => {
                out.push(b);
                i += 1;
            }
        }
    }
    String::from_utf8(out).unwrap_or_else(|_| s.to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_key_value_directories_are_partitions() {
        let p = Partitions::from_path("ticks/date=2026-01-02/raw/=x/symbol=/f=1.parquet");
        assert_eq!(
            p.iter().collect::<Vec<_>>(),
            [("date", "2026-01-02"), ("symbol", "")]
        );
        assert_eq!(Partitions::from_path("f.parquet"), Partitions::default());
    }

    #[test]
    fn malformed_escapes_are_kept() {
        assert_eq!(percent_decode("a%2Fb%zz%4"), "a/b%zz%4");
        assert_eq!(percent_decode("%FF"), "%FF"); // not UTF-8 once decoded
    }

    #[test]
    fn partition_values_parse_into_the_field_type() {
        let p = Partitions::from_path("hour=25x/day=7/null=__HIVE_DEFAULT_PARTITION__/f.parquet");
        let parse = |key: &str| <u8 as PartitionNode<'_>>::partition(&p, key, "f", "u8");
        assert_eq!(parse("day").unwrap(), 7);
        let e = parse("hour").unwrap_err().to_string();
        assert!(
            e.contains("partition `hour=25x` does not parse as `u8`"),
            "{e}"
        );
        let e = parse("month").unwrap_err().to_string();
        assert!(e.contains("no partition `month`"), "{e}");
        let e = parse("null").unwrap_err().to_string();
        assert!(e.contains("Hive's null"), "{e}");
        let option = |key: &str| <Option<u8> as PartitionNode<'_>>::partition(&p, key, "f", "u8");
        assert_eq!(option("month").unwrap(), None);
        assert_eq!(option("null").unwrap(), None);
        assert_eq!(option("day").unwrap(), Some(7));
        assert!(option("hour").is_err());
        let text = <Arc<str> as PartitionField>::from_partition(Some("a")).unwrap();
        assert_eq!(&*text, "a");
        assert_eq!(bool::from_partition(Some("true")), Ok(true));
    }
}
