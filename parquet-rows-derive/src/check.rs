//! Rules that span the whole struct: generics, duplicate columns, empty structs.

use std::collections::HashMap;

use crate::ast::Container;
use crate::ctxt::Ctxt;

/// Records every violation in `cx`.
pub fn check(cx: &Ctxt, cont: &Container<'_>) {
    check_generics(cx, cont);
    check_duplicate_columns(cx, cont);
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
