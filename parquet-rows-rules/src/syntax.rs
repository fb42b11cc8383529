//! What the derive can tell about a field type from its tokens alone.
//!
//! A proc macro sees `i64`, `Option<&'a str>` or `parquet_rows::Timestamp` as
//! text, without name resolution: a type alias or a `use` may hide what a name
//! means. So only names that cannot mean anything else in practice are
//! recognised: primitives, `String`, `Vec<u8>`, `Box<str>`, `Arc<str>`,
//! references, `[u8; N]` with a literal `N`, and paths qualified by their crate
//! (`parquet_rows::Date`, `bytes::Bytes`, `chrono::NaiveDate`). Anything else is
//! left to the check when the file is opened: a false compile error would leave
//! the user no way out, a missed one is still caught at run time.

use crate::kind::{FieldKind, NAMES, RUNTIME_NAMES};
use crate::Field;

/// Recognises a field type written as `ty` (the tokens of the type, as
/// `quote` prints them or as written in source). `krate` is the path the
/// struct uses for the runtime crate (`parquet_rows`, or what
/// `#[parquet(crate = "...")]` says).
///
/// Returns a [`Field`] whose `kind` is `None` for a type not recognised, and
/// whose `nullable` is `None` when that cannot be known either.
pub fn recognize(ty: &str, krate: &str) -> Field {
    let ty = ty.trim();
    if let Some(inner) = option_inner(ty) {
        let inner = recognize(inner, krate);
        let kind = match inner.nullable {
            Some(true) => Some(FieldKind::NestedOption),
            _ => inner.kind,
        };
        return Field {
            kind,
            nullable: Some(true),
        };
    }
    match kind_of(ty, krate) {
        Some(kind) => Field {
            kind: Some(kind),
            nullable: Some(false),
        },
        None => Field {
            kind: None,
            nullable: None,
        },
    }
}

/// `T` of `Option<T>` (also `std::option::Option<T>`, `core::option::Option<T>`).
fn option_inner(ty: &str) -> Option<&str> {
    let ty = ty.strip_prefix("::").unwrap_or(ty).trim_start();
    let rest = ["std::option::Option", "core::option::Option", "Option"]
        .iter()
        .find_map(|p| strip_path(ty, p))?;
    rest.trim()
        .strip_prefix('<')?
        .strip_suffix('>')
        .map(str::trim)
}

/// `ty` without the leading path `path` (compared without whitespace), if `ty`
/// starts with it and the next character does not continue an identifier.
fn strip_path<'t>(ty: &'t str, path: &str) -> Option<&'t str> {
    let mut want = path.chars().filter(|c| !c.is_whitespace()).peekable();
    let mut chars = ty.char_indices();
    let mut end = 0;
    while want.peek().is_some() {
        let (i, c) = chars.next()?;
        if c.is_whitespace() {
            continue;
        }
        if Some(c) != want.next() {
            return None;
        }
        end = i + c.len_utf8();
    }
    let rest = &ty[end..];
    match rest.chars().next() {
        Some(c) if c.is_alphanumeric() || c == '_' => None,
        _ => Some(rest),
    }
}

/// `ty` without whitespace and without a leading `::`.
fn compact(ty: &str) -> String {
    let s: String = ty.chars().filter(|c| !c.is_whitespace()).collect();
    match s.strip_prefix("::") {
        Some(rest) => rest.to_owned(),
        None => s,
    }
}

/// The kind of a non-`Option` type, if recognised.
fn kind_of(ty: &str, krate: &str) -> Option<FieldKind> {
    if let Some(referent) = ty.strip_prefix('&') {
        return reference(referent);
    }
    let ty = compact(ty);
    if let Some(array) = ty.strip_prefix("[u8;").and_then(|r| r.strip_suffix(']')) {
        return array_len(array).map(FieldKind::FixedBytes);
    }
    let krate = compact(krate);
    for runtime in [krate.as_str(), "parquet_rows"] {
        if let Some(name) = ty
            .strip_prefix(runtime)
            .and_then(|rest| rest.strip_prefix("::"))
        {
            if let Some(kind) = lookup(RUNTIME_NAMES, name) {
                return Some(kind);
            }
        }
    }
    lookup(NAMES, &ty)
}

/// The kind `name` (whitespace removed) spells in `table`.
fn lookup(table: &[(&str, FieldKind)], name: &str) -> Option<FieldKind> {
    table
        .iter()
        .find(|(n, _)| *n == name)
        .map(|&(_, kind)| kind)
}

/// `&'a str` and `&'a [u8]` (any lifetime, or none); `&mut _` is not a field type.
fn reference(referent: &str) -> Option<FieldKind> {
    let mut rest = referent.trim_start();
    if let Some(lifetime) = rest.strip_prefix('\'') {
        let end = lifetime
            .find(|c: char| !(c.is_alphanumeric() || c == '_'))
            .unwrap_or(lifetime.len());
        rest = lifetime[end..].trim_start();
    }
    match compact(rest).as_str() {
        "str" => Some(FieldKind::Str),
        "[u8]" => Some(FieldKind::ByteSlice),
        _ => None,
    }
}

/// The length of `[u8; N]` for a decimal literal `N` (`16`, `16usize`, `1_024`).
fn array_len(len: &str) -> Option<usize> {
    let digits = len.strip_suffix("usize").unwrap_or(len);
    if digits.is_empty() || !digits.starts_with(|c: char| c.is_ascii_digit()) {
        return None;
    }
    digits.replace('_', "").parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kind(ty: &str) -> Option<FieldKind> {
        recognize(ty, "parquet_rows").kind
    }

    #[test]
    fn recognises_what_cannot_mean_anything_else() {
        assert_eq!(kind("i64"), Some(FieldKind::I64));
        assert_eq!(kind("&'a str"), Some(FieldKind::Str));
        assert_eq!(kind("& 'page str"), Some(FieldKind::Str));
        assert_eq!(kind("&[u8]"), Some(FieldKind::ByteSlice));
        assert_eq!(kind("& 'a [u8]"), Some(FieldKind::ByteSlice));
        assert_eq!(kind("&'a mut str"), None);
        assert_eq!(kind("[u8; 16]"), Some(FieldKind::FixedBytes(16)));
        assert_eq!(kind("[u8 ; 1_6usize]"), Some(FieldKind::FixedBytes(16)));
        assert_eq!(kind("[u8; N]"), None);
        assert_eq!(
            kind(":: std :: sync :: Arc < str >"),
            Some(FieldKind::ArcStr)
        );
        assert_eq!(kind("parquet_rows::Timestamp"), Some(FieldKind::Timestamp));
        assert_eq!(kind("::parquet_rows::Date"), Some(FieldKind::Date));
        assert_eq!(kind("Timestamp"), None, "may be the user's own type");
        assert_eq!(kind("HashSet<i32>"), None);
        assert_eq!(
            recognize("renamed::Time", "::renamed").kind,
            Some(FieldKind::Time)
        );
        assert_eq!(
            kind("chrono::DateTime<chrono::Utc>"),
            Some(FieldKind::ChronoDateTimeUtc)
        );
    }

    #[test]
    fn every_name_in_the_tables_is_recognised() {
        for &(name, want) in NAMES {
            assert_eq!(kind(name), Some(want), "{name}");
            assert_eq!(kind(&format!("Option<{name}>")), Some(want), "{name}");
        }
        for &(name, want) in RUNTIME_NAMES {
            assert_eq!(kind(&format!("parquet_rows::{name}")), Some(want), "{name}");
            assert_eq!(
                kind(name),
                None,
                "`{name}` alone may be the user's own type"
            );
        }
    }

    #[test]
    fn options() {
        let f = recognize("Option<&'a str>", "parquet_rows");
        assert_eq!((f.kind, f.nullable), (Some(FieldKind::Str), Some(true)));
        let f = recognize("std::option::Option<i32>", "parquet_rows");
        assert_eq!((f.kind, f.nullable), (Some(FieldKind::I32), Some(true)));
        let f = recognize("Option<MyType>", "parquet_rows");
        assert_eq!((f.kind, f.nullable), (None, Some(true)));
        let f = recognize("Option<Option<i32>>", "parquet_rows");
        assert_eq!(f.kind, Some(FieldKind::NestedOption));
        let f = recognize("Optional<i32>", "parquet_rows");
        assert_eq!((f.kind, f.nullable), (None, None));
        let f = recognize("MyAlias", "parquet_rows");
        assert_eq!((f.kind, f.nullable), (None, None));
    }
}
