//! Rules that span the whole struct: generics, duplicate columns, empty
//! structs, and every field against the declared schema.

use std::collections::HashMap;

use parquet_rows_rules::{message, recognize, Problem};
use quote::ToTokens;

use crate::ast::Container;
use crate::ctxt::Ctxt;

/// Records every violation in `cx`.
pub fn check(cx: &Ctxt, cont: &Container<'_>) {
    check_generics(cx, cont);
    check_duplicate_columns(cx, cont);
    check_declared_schema(cx, cont);
    if cont.fields.iter().all(|f| f.attrs.skip) {
        cx.error_spanned_by(
            cont.ident,
            "#[derive(ParquetRow)] needs at least one field that reads a column (all fields are skipped or there are none)",
        );
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

/// Two fields must not read the same column (after `rename` / `rename_all`).
fn check_duplicate_columns(cx: &Ctxt, cont: &Container<'_>) {
    let mut seen: HashMap<&str, &syn::Ident> = HashMap::new();
    for field in cont.fields.iter().filter(|f| !f.attrs.skip) {
        if let Some(first) = seen.get(field.column.as_str()) {
            cx.error_spanned_by(
                field.original,
                format!(
                    "field `{}` reads column `{}`, which field `{first}` already reads",
                    field.ident, field.column
                ),
            );
        } else {
            seen.insert(&field.column, field.ident);
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
    for field in cont.fields.iter().filter(|f| !f.attrs.skip) {
        let name = field.ident.to_string();
        let (ty, column) = (field.rust_type.as_str(), field.column.as_str());
        let Err(problem) = schema.bind(column, recognize(ty, &krate)) else {
            continue;
        };
        match problem {
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
