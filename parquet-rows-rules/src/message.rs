//! The text of mismatch messages, shared by compile errors and the runtime's
//! `SchemaError`, so a user reads the same sentence in both.
//!
//! `field` is the Rust field name, `ty` its type as written, `column` the
//! column it reads; `schema` names where the columns come from ("the file",
//! "the declared schema").

use std::fmt::Write as _;

/// ```text
/// field `venue: &'a str`: the file has no column `venue`; did you mean `venues`? (use #[parquet(rename = "venues")]); its columns are `ts`, `venues`
/// ```
pub fn missing_column(
    field: &str,
    ty: &str,
    column: &str,
    schema: &str,
    closest: Option<&str>,
    available: &[&str],
) -> String {
    let mut s = format!("field `{field}: {ty}`: {schema} has no column `{column}`");
    if let Some(closest) = closest {
        let _ = write!(
            s,
            "; did you mean `{closest}`? (use #[parquet(rename = \"{closest}\")])"
        );
    }
    let list: Vec<String> = available.iter().map(|c| format!("`{c}`")).collect();
    s.push_str("; its columns are ");
    s.push_str(&list.join(", "));
    s
}

/// ```text
/// field `bid: f32` cannot read column `bid` (REQUIRED DOUBLE): `f32` reads FLOAT; use `f64`
/// ```
pub fn wrong_type(
    field: &str,
    ty: &str,
    column: &str,
    found: &str,
    expected: &str,
    suggestion: Option<&[&str]>,
) -> String {
    let mut s = format!(
        "field `{field}: {ty}` cannot read column `{column}` ({found}): `{ty}` reads {expected}"
    );
    match suggestion {
        Some(suggestion) => {
            s.push_str("; use ");
            s.push_str(&alternatives(suggestion));
        }
        None => s.push_str("; no field type reads this column yet"),
    }
    s
}

/// ```text
/// field `bid: f64` cannot read column `bid` (OPTIONAL DOUBLE): the column may hold nulls; use `Option<f64>`
/// ```
pub fn nullable(field: &str, ty: &str, column: &str, found: &str) -> String {
    format!(
        "field `{field}: {ty}` cannot read column `{column}` ({found}): the column may hold nulls; use `Option<{ty}>`"
    )
}

/// ```text
/// field `tags: String` cannot read column `tags` (OPTIONAL group (LIST)): the column is a LIST; read it with `Vec<_>`
/// ```
pub fn nested(field: &str, ty: &str, column: &str, found: &str, hint: &str) -> String {
    format!("field `{field}: {ty}` cannot read column `{column}` ({found}): {hint}")
}

/// ```text
/// field `value: Option<&'a str>`: the file has 2 top-level columns named `column`; say which one this field reads with #[parquet(nth = 0)] (the first) to #[parquet(nth = 1)] (the last)
/// ```
///
/// With `nth` set, the file has fewer columns of that name.
pub fn ambiguous(
    field: &str,
    ty: &str,
    column: &str,
    schema: &str,
    count: usize,
    nth: Option<usize>,
) -> String {
    let last = count.saturating_sub(1);
    match nth {
        None => format!(
            "field `{field}: {ty}`: {schema} has {count} top-level columns named `{column}`; say which one this field reads with #[parquet(nth = 0)] (the first) to #[parquet(nth = {last})] (the last)"
        ),
        Some(nth) => format!(
            "field `{field}: {ty}` reads column `{column}` number {nth} (`nth = {nth}`, counting from 0), but {schema} has {} named `{column}`; use `nth` from 0 to {last}",
            if count == 1 { "only one column".to_owned() } else { format!("only {count} columns") }
        ),
    }
}

/// "`a`", "`a` or `b`", "`a`, `b` or `c`".
fn alternatives(names: &[&str]) -> String {
    let quoted: Vec<String> = names.iter().map(|n| format!("`{n}`")).collect();
    match quoted.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} or {last}", rest.join(", ")),
        _ => quoted.concat(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suggestions_are_quoted_and_joined() {
        let line = |suggestion| wrong_type("b", "f32", "b", "REQUIRED X", "Y", suggestion);
        assert!(line(Some(&["f64"])).ends_with("; use `f64`"));
        assert!(line(Some(&["&str", "String"])).ends_with("; use `&str` or `String`"));
        assert!(line(Some(&["&[u8]", "Vec<u8>", "[u8; N]"]))
            .ends_with("; use `&[u8]`, `Vec<u8>` or `[u8; N]`"));
        assert!(line(None).ends_with("; no field type reads this column yet"));
    }
}
