//! Rules that span the whole struct: generics, empty structs, partition
//! fields, and every field against the declared schema. Two fields may read
//! one column (`ts: i64` and `#[parquet(rename = "ts")] at: Timestamp`):
//! each gets its own reader over the column's pages.

use std::collections::HashMap;

use parquet_rows_rules::{message, recognize, Problem};
use quote::ToTokens;

use crate::ast::Container;
use crate::ctxt::Ctxt;

/// Records every violation in `cx`.
pub fn check(cx: &Ctxt, cont: &Container<'_>) {
    check_generics(cx, cont);
    check_static_borrows(cx, cont);
    check_declared_schema(cx, cont);
    check_partitions(cx, cont);
    if cont.fields.iter().all(|f| f.attrs.skip) {
        cx.error_spanned_by(
            cont.ident,
            "#[derive(ParquetRow)] needs at least one field that reads a column (all fields are skipped or there are none)",
        );
    } else if cont.fields.iter().all(|f| !f.reads_column()) {
        cx.error_spanned_by(
            cont.ident,
            "#[derive(ParquetRow)] needs at least one field that reads a column: the rows are the file's rows, and partition fields only fill them from the path",
        );
    }
}

/// A partition field is filled from the path: it reads no column, so it is
/// not skipped, not converted, borrows nothing, and has a key of its own.
fn check_partitions(cx: &Ctxt, cont: &Container<'_>) {
    let mut seen: HashMap<&str, &syn::Ident> = HashMap::new();
    for field in &cont.fields {
        let Some(partition) = &field.attrs.partition else {
            continue;
        };
        if field.attrs.skip {
            cx.error_spanned_by(
                partition,
                format!(
                    "field `{}` is both `skip` and `partition`; a partition field is filled from the file's path: remove `skip`",
                    field.ident
                ),
            );
        }
        if let Some((_, lit)) = &field.attrs.nth {
            cx.error_spanned_by(
                lit,
                format!(
                    "field `{}` is a partition field and has `nth`; a partition value comes from the file's path, not from a column: remove `nth`",
                    field.ident
                ),
            );
        }
        if let Some(convert) = &field.attrs.convert {
            let name = if convert.fallible { "try_from" } else { "from" };
            cx.error_spanned_by(
                partition,
                format!(
                    "field `{}` is a partition field and has `{name}`; a partition value is parsed from the path straight into the field's type (`String`, an integer, `bool`, ...): remove `{name}`",
                    field.ident
                ),
            );
        }
        let mut found = Vec::new();
        lifetimes(field.ty, &mut found);
        if !found.is_empty() {
            cx.error_spanned_by(
                field.ty,
                format!(
                    "partition field `{}` cannot borrow: its value comes from the file's path, not from the pages that borrowed fields point into; use `String` (or `Option<String>`)",
                    field.ident
                ),
            );
        }
        if let Some(first) = seen.get(field.column.as_str()) {
            cx.error_spanned_by(
                field.original,
                format!(
                    "field `{}` is filled from partition `{}`, which field `{first}` already is",
                    field.ident, field.column
                ),
            );
        } else {
            seen.insert(&field.column, field.ident);
        }
    }
}

/// At most one lifetime (the pages' lifetime), no type or const parameters.
fn check_generics(cx: &Ctxt, cont: &Container<'_>) {
    let mut lifetimes = 0;
    for param in &cont.generics.params {
        match param {
            syn::GenericParam::Lifetime(lt) => {
                lifetimes += 1;
                if lifetimes == 2 {
                    cx.error_spanned_by(
                        lt,
                        "#[derive(ParquetRow)] supports at most one lifetime parameter: the lifetime of the pages that `&str` and `&[u8]` fields borrow",
                    );
                }
            }
            syn::GenericParam::Type(ty) => cx.error_spanned_by(
                ty,
                "#[derive(ParquetRow)] does not support type parameters: each field's type decides which columns it can read, so it must be concrete",
            ),
            syn::GenericParam::Const(c) => cx.error_spanned_by(
                c,
                "#[derive(ParquetRow)] does not support const parameters",
            ),
        }
    }
}

/// With a declared schema, each field is checked against its column by the
/// same rules the runtime binder uses (`parquet_rows_rules::Schema::bind`), as
/// far as the field's type can be told from its tokens; every mismatch is
/// reported, each at its field.
fn check_declared_schema(cx: &Ctxt, cont: &Container<'_>) {
    let Some(declared) = &cont.declared else {
        return;
    };
    let krate = cont.attrs.crate_path.as_ref().map_or_else(
        || "parquet_rows".to_owned(),
        |path| path.to_token_stream().to_string(),
    );
    let schema = &declared.schema;
    // Partition fields are not in the file: the schema declares no column for them.
    for field in cont.fields.iter().filter(|f| f.reads_column()) {
        let name = field.ident.to_string();
        let (ty, column) = (field.rust_type.as_str(), field.column.as_str());
        // Nested types (`Vec`, maps, `Option`s of them) are walked node by node.
        if crate::nested_check::check(cx, &krate, declared, field) {
            continue;
        }
        let nth = field.attrs.nth.as_ref().map(|(n, _)| *n);
        let Err(problem) = schema.bind_nth(column, nth, recognize(ty, &krate)) else {
            continue;
        };
        match problem {
            Problem::Ambiguous { count, nth } => {
                let text = message::ambiguous(&name, ty, column, &declared.name, count, nth);
                // At `nth = ...` when it names a column that is not there,
                // else at the field's name.
                match &field.attrs.nth {
                    Some((_, lit)) => cx.error_spanned_by(lit, text),
                    None => cx.error_spanned_by(field.ident, text),
                }
            }
            Problem::MissingColumn { closest } => {
                let available: Vec<&str> = schema.top_level_names().collect();
                let text = message::missing_column(
                    &name,
                    ty,
                    column,
                    &declared.name,
                    closest.as_deref(),
                    &available,
                );
                // At the column name: the `rename` value, or the field's name.
                match &field.attrs.rename {
                    Some(rename) => cx.error_spanned_by(rename, text),
                    None => cx.error_spanned_by(field.ident, text),
                }
            }
            Problem::Nested { found, hint } => {
                cx.error_spanned_by(
                    field.original,
                    message::nested(&name, ty, column, &found, &hint),
                );
            }
            Problem::WrongType {
                expected,
                found,
                suggestion,
            } => cx.error_spanned_by(
                field.ty,
                message::wrong_type(&name, ty, column, &found, expected, suggestion),
            ),
        }
    }
}

/// A borrowed field borrows from the pages, through the struct's lifetime
/// parameter: `&'static str` cannot be read (the pages do not live forever).
fn check_static_borrows(cx: &Ctxt, cont: &Container<'_>) {
    let lifetime = cont
        .generics
        .lifetimes()
        .next()
        .map(|l| l.lifetime.to_string());
    // A partition field that borrows is reported by `check_partitions`.
    for field in cont.fields.iter().filter(|f| f.reads_column()) {
        let mut found = Vec::new();
        if let Some(convert) = &field.attrs.convert {
            lifetimes(&convert.source, &mut found);
            if found.iter().any(|lt| lt.is_some_and(|lt| lt.ident != "_")) {
                cx.error_spanned_by(
                    &convert.source,
                    format!(
                        "field `{}` converts from a borrow with a named lifetime; write the source without one (`&str`, `&[u8]`): it borrows the pages for the conversion only",
                        field.ident
                    ),
                );
            }
            found.clear();
        }
        lifetimes(field.ty, &mut found);
        if !found
            .iter()
            .any(|lt| lt.is_some_and(|lt| lt.ident == "static"))
        {
            continue;
        }
        let fix = field
            .rust_type
            .replace("'static", lifetime.as_deref().unwrap_or("'a"));
        let add = if lifetime.is_some() {
            String::new()
        } else {
            format!(
                "add a lifetime parameter to the struct (`struct {}<'a>`) and ",
                cont.ident
            )
        };
        cx.error_spanned_by(
            field.ty,
            format!(
                "field `{}` borrows for `'static`, but a `#[derive(ParquetRow)]` struct borrows from the pages it is read from: {add}write `{fix}`, or use an owned type (`String`, `Vec<u8>`)",
                field.ident
            ),
        );
    }
}

/// Whether a field's type has a reference without a named lifetime
/// (`&str`, `&'_ [u8]`). Rustc reports it at the field, suggesting the
/// struct's lifetime parameter; the derive adds nothing to that error.
pub fn has_elided_lifetime(cont: &Container<'_>) -> bool {
    cont.fields.iter().any(|field| {
        let mut found = Vec::new();
        lifetimes(field.ty, &mut found);
        found.iter().any(|lt| lt.is_none_or(|lt| lt.ident == "_"))
    })
}

/// Every lifetime `ty` names, `None` for a reference without one.
fn lifetimes<'t>(ty: &'t syn::Type, out: &mut Vec<Option<&'t syn::Lifetime>>) {
    match ty {
        syn::Type::Reference(r) => {
            out.push(r.lifetime.as_ref());
            lifetimes(&r.elem, out);
        }
        syn::Type::Path(p) => {
            if let Some(q) = &p.qself {
                lifetimes(&q.ty, out);
            }
            for segment in &p.path.segments {
                if let syn::PathArguments::AngleBracketed(args) = &segment.arguments {
                    for arg in &args.args {
                        match arg {
                            syn::GenericArgument::Lifetime(lt) => out.push(Some(lt)),
                            syn::GenericArgument::Type(ty) => lifetimes(ty, out),
                            _ => {}
                        }
                    }
                }
            }
        }
        syn::Type::Array(a) => lifetimes(&a.elem, out),
        syn::Type::Slice(s) => lifetimes(&s.elem, out),
        syn::Type::Paren(p) => lifetimes(&p.elem, out),
        syn::Type::Group(g) => lifetimes(&g.elem, out),
        syn::Type::Tuple(t) => t.elems.iter().for_each(|ty| lifetimes(ty, out)),
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::lifetimes;

    fn names(ty: &str) -> Vec<String> {
        let ty: syn::Type = syn::parse_str(ty).expect("a type");
        let mut found = Vec::new();
        lifetimes(&ty, &mut found);
        found
            .iter()
            .map(|lt| lt.map_or_else(|| "elided".to_owned(), ToString::to_string))
            .collect()
    }

    #[test]
    fn finds_every_lifetime_a_field_type_names() {
        assert_eq!(names("&str"), ["elided"]);
        assert_eq!(names("&'_ [u8]"), ["'_"]);
        assert_eq!(names("&'static str"), ["'static"]);
        assert_eq!(names("Option<Vec<&'a str>>"), ["'a"]);
        assert_eq!(names("HashMap<&'a str, Inner<'static>>"), ["'a", "'static"]);
        assert_eq!(names("[&'a [u8]; 2]"), ["'a"]);
        assert!(names("i64").is_empty());
    }
}
