//! Hive-style partition directories (`date=2026-01-02/symbol=EURUSD/`): the
//! values a file's path gives, and the predicate that prunes files by them.

use std::str::FromStr;

use crate::error::{Error, Location, Result};

/// The partition values of one file, from the `key=value` directories of its
/// path below the dataset's prefix, in path order.
///
/// ```
/// use parquet_rows::dataset::Partitions;
///
/// let p = Partitions::from_path("date=2026-01-02/symbol=EUR%2FUSD/part-0.parquet");
/// assert_eq!(p.get("date"), Some("2026-01-02"));
/// assert_eq!(p.get("symbol"), Some("EUR/USD")); // percent-decoded
/// assert_eq!(p.parse::<String>("date").unwrap(), "2026-01-02");
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Partitions {
    values: Vec<(String, String)>, // (key, value), in path order
}

impl Partitions {
    /// The partitions of `path` (a file's path relative to the dataset's
    /// prefix, `/`-separated): every directory `key=value`, percent-decoded.
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

    /// The value of partition `key`, if the path has it.
    pub fn get(&self, key: &str) -> Option<&str> {
        self.values
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }

    /// The value of partition `key` parsed as `T`; a missing key or a value
    /// that does not parse is an error naming both.
    pub fn parse<T: FromStr>(&self, key: &str) -> Result<T>
    where
        T::Err: std::fmt::Display,
    {
        let value = self.get(key).ok_or_else(|| Error::Value {
            location: Location::default(),
            message: format!("the file's path has no partition `{key}` (`{key}=...` directory)"),
        })?;
        value.parse().map_err(|e| Error::Value {
            location: Location::default(),
            message: format!("partition `{key}={value}`: {e}"),
        })
    }

    /// The `(key, value)` pairs, in path order.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &str)> {
        self.values.iter().map(|(k, v)| (k.as_str(), v.as_str()))
    }
}

/// Decides from a file's partition values alone whether the file may hold
/// rows a query wants; a file it rejects is never opened.
///
/// Closures are predicates; [`partition_eq`] is the common one. A typed
/// predicate on a struct's fields can implement this trait for the fields
/// that are partitions.
///
/// ```
/// use parquet_rows::dataset::{partition_eq, PartitionPredicate, Partitions};
///
/// let p = Partitions::from_path("date=2026-01-02/x.parquet");
/// assert!(partition_eq("date", "2026-01-02").may_match(&p));
/// assert!(!partition_eq("date", "2026-01-03").may_match(&p));
/// assert!((|p: &Partitions| p.get("date") >= Some("2026-01-01")).may_match(&p));
/// ```
pub trait PartitionPredicate {
    /// Whether a file with these partition values may hold matching rows.
    fn may_match(&self, partitions: &Partitions) -> bool;
}

impl<F: Fn(&Partitions) -> bool> PartitionPredicate for F {
    fn may_match(&self, partitions: &Partitions) -> bool {
        self(partitions)
    }
}

/// Files whose partition `key` is `value` (and files without partition `key`,
/// which the path cannot rule out).
pub fn partition_eq(key: impl Into<String>, value: impl Into<String>) -> impl PartitionPredicate {
    let (key, value) = (key.into(), value.into());
    move |p: &Partitions| p.get(&key).is_none_or(|v| v == value)
}

/// A row struct with fields filled from partition values rather than
/// columns (fields marked `#[parquet(skip)]`, which the file does not have).
/// Implement it with [`partition_fields!`](crate::partition_fields).
pub trait Partitioned: Sized {
    /// Sets the partition fields of `rows`, all read from one file whose
    /// partition values are `partitions`.
    fn set_partitions(rows: &mut [Self], partitions: &Partitions) -> Result<()>;
}

/// Implements [`Partitioned`](crate::dataset::Partitioned) for a struct:
/// each listed field is set from the partition of the same name, parsed
/// with `FromStr` once per file.
///
/// ```
/// use parquet_rows::ParquetRow;
///
/// #[derive(ParquetRow)]
/// struct Tick {
///     ts: i64,
///     bid: f64,
///     #[parquet(skip)] // from `date=.../` in the path
///     date: String,
///     #[parquet(skip)] // from `hour=.../`
///     hour: u8,
/// }
/// parquet_rows::partition_fields!(Tick { date, hour });
/// ```
#[macro_export]
macro_rules! partition_fields {
    ($ty:ty { $($field:ident),+ $(,)? }) => {
        impl $crate::dataset::Partitioned for $ty {
            fn set_partitions(
                rows: &mut [Self],
                partitions: &$crate::dataset::Partitions,
            ) -> $crate::Result<()> {
                $(
                    let $field = partitions.parse(::core::stringify!($field))?;
                    for row in rows.iter_mut() {
                        row.$field = ::core::clone::Clone::clone(&$field);
                    }
                )+
                ::core::result::Result::Ok(())
            }
        }
    };
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
    fn parse_errors_name_the_partition() {
        let p = Partitions::from_path("hour=25x/f.parquet");
        let e = p.parse::<u8>("hour").unwrap_err().to_string();
        assert!(e.contains("`hour=25x`"), "{e}");
        let e = p.parse::<u8>("day").unwrap_err().to_string();
        assert!(e.contains("no partition `day`"), "{e}");
    }
}
