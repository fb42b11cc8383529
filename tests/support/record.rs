//! The `parquet` crate's record API as a reader independent of parquet-rows
//! and of the shredder: rows and accessors that check the field kinds.

#![allow(clippy::missing_panics_doc)] // test support: a broken fixture panics, which is how a test fails

use bytes::Bytes;
use parquet::data_type::ByteArray;
use parquet::file::reader::{FileReader, SerializedFileReader};
use parquet::record::{Field, Row};

/// Every row of `file` through the `parquet` crate's record API, converted.
pub fn record_api<T>(file: &Bytes, convert: impl Fn(&Row) -> T) -> Vec<T> {
    let reader = SerializedFileReader::new(file.clone()).expect("footer");
    reader
        .get_row_iter(None)
        .expect("record API")
        .map(|row| convert(&row.expect("record API row")))
        .collect()
}

/// The field `name` of a row.
pub fn get<'r>(row: &'r Row, name: &str) -> &'r Field {
    row.get_column_iter()
        .find(|(n, _)| *n == name)
        .map_or_else(|| panic!("no field `{name}` in {row}"), |(_, f)| f)
}

/// The value of a REQUIRED field.
pub fn req<T>(v: Option<T>) -> T {
    v.expect("a null where the schema says REQUIRED")
}

macro_rules! record_accessor {
    ($name:ident, $variant:ident, $ty:ty, $convert:expr) => {
        /// The value of a leaf field, `None` for a null.
        pub fn $name(f: &Field) -> Option<$ty> {
            match f {
                Field::Null => None,
                Field::$variant(v) => Some($convert(v)),
                other => panic!("expected {} or null, got {other:?}", stringify!($variant)),
            }
        }
    };
}

record_accessor!(boolean, Bool, bool, |v: &bool| *v);
record_accessor!(int, Int, i32, |v: &i32| *v);
record_accessor!(long, Long, i64, |v: &i64| *v);
record_accessor!(float, Float, f32, |v: &f32| *v);
record_accessor!(double, Double, f64, |v: &f64| *v);
record_accessor!(string, Str, String, String::clone);
record_accessor!(bytes, Bytes, Vec<u8>, |v: &ByteArray| v.data().to_vec());

/// The row of a group field, `None` for a null.
pub fn group(f: &Field) -> Option<&Row> {
    match f {
        Field::Null => None,
        Field::Group(r) => Some(r),
        other => panic!("expected a group or null, got {other:?}"),
    }
}

/// The elements of a list field, `None` for a null.
pub fn list(f: &Field) -> Option<&[Field]> {
    match f {
        Field::Null => None,
        Field::ListInternal(l) => Some(l.elements()),
        other => panic!("expected a list or null, got {other:?}"),
    }
}

/// A REQUIRED list.
pub fn f_list(f: &Field) -> &[Field] {
    req(list(f))
}

/// The entries of a map field, `None` for a null.
pub fn entries(f: &Field) -> Option<&[(Field, Field)]> {
    match f {
        Field::Null => None,
        Field::MapInternal(m) => Some(m.entries()),
        other => panic!("expected a map or null, got {other:?}"),
    }
}
