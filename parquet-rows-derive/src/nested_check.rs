//! With a declared schema, nested field types (`Vec<T>`, maps, pairs and
//! `Option`s around them) are checked against their columns at compile
//! time, node by node, by the rules crate's walk (`check_shape`), which
//! follows the runtime binder. Leaf types inside are recognised as the flat
//! check recognises them (`recognize`).
//!
//! A nested struct (or an alias) is a type the derive cannot see into: it is
//! accepted on any group, except an OPTIONAL one without `Option`. Its own
//! fields are checked when that struct declares its own schema (the group's
//! fields as a message); otherwise when the file is opened.

use parquet_rows_rules::{self as rules, message, Schema, ShapeProblemKind, TypeShape};
use quote::ToTokens;

use crate::ast::Field;
use crate::ctxt::Ctxt;
use crate::declared::Declared;

/// Checks `field` if its type is nested; `false` when it is a flat one
/// (a leaf or `Option` of a leaf), left to the flat check, or its column
/// cannot be found (the flat check reports that).
pub fn check(cx: &Ctxt, krate: &str, declared: &Declared, field: &Field<'_>) -> bool {
    let Ok(ty) = syn::parse_str::<syn::Type>(&field.rust_type) else {
        return false;
    };
    let shape = shape_of(&ty, krate);
    let schema: &Schema = &declared.schema;
    let nth = field.attrs.nth.as_ref().map(|(n, _)| *n);
    // A type not recognised on a leaf column, or a leaf type: the flat check.
    let Ok((_, node)) = schema.find_nth(&field.column, nth) else {
        return false;
    };
    let unknown_on_group = matches!(
        (&shape, node),
        (TypeShape::Unknown, rules::Node::Group { .. })
    );
    if shape.is_flat() && !unknown_on_group {
        return false;
    }
    let name = field.ident.to_string();
    for problem in rules::check_shape(node, &shape, &name, &field.rust_type) {
        // The top-level node names the field's type as written.
        let ty = if problem.field == name {
            field.rust_type.clone()
        } else {
            problem.rust_type.clone()
        };
        let text = match &problem.kind {
            ShapeProblemKind::Nested { found, hint } => {
                message::nested(&problem.field, &ty, &problem.column, found, hint)
            }
            ShapeProblemKind::WrongType {
                expected,
                found,
                suggestion,
            } => message::wrong_type(
                &problem.field,
                &ty,
                &problem.column,
                found,
                expected,
                *suggestion,
            ),
            ShapeProblemKind::Nullable { found } => {
                message::nullable(&problem.field, &ty, &problem.column, found)
            }
        };
        cx.error_spanned_by(field.ty, text);
    }
    true
}

/// The shape of a type from its tokens.
pub fn shape_of(ty: &syn::Type, krate: &str) -> TypeShape {
    match ty {
        syn::Type::Paren(p) => return shape_of(&p.elem, krate),
        syn::Type::Group(g) => return shape_of(&g.elem, krate),
        syn::Type::Tuple(t) if t.elems.len() == 2 => {
            return TypeShape::Pair(
                Box::new(shape_of(&t.elems[0], krate)),
                Box::new(shape_of(&t.elems[1], krate)),
            );
        }
        syn::Type::Path(path) if path.qself.is_none() => {
            if let Some(shape) = container(&path.path, krate) {
                return shape;
            }
        }
        _ => {}
    }
    let text = crate::ast::type_name(ty);
    match rules::recognize(&text, krate).kind {
        Some(kind) => TypeShape::Leaf(kind),
        None => TypeShape::Unknown,
    }
}

/// `Option<T>`, `Vec<T>` (not `Vec<u8>`), `HashMap<K, V[, S]>`,
/// `BTreeMap<K, V>`, spelled bare or by their std path.
fn container(path: &syn::Path, krate: &str) -> Option<TypeShape> {
    let segments: Vec<String> = path.segments.iter().map(|s| s.ident.to_string()).collect();
    let last = path.segments.last()?;
    let prefix = &segments[..segments.len() - 1];
    let std_path = |module: &str| {
        prefix.is_empty()
            || matches!(prefix, [root, m] if (root == "std" || root == "alloc" || root == "core") && m == module)
            || matches!(prefix, [root, c, m] if (root == "std" || root == "alloc") && c == "collections" && m == module)
    };
    let syn::PathArguments::AngleBracketed(args) = &last.arguments else {
        return None;
    };
    let types: Vec<&syn::Type> = args
        .args
        .iter()
        .filter_map(|a| match a {
            syn::GenericArgument::Type(t) => Some(t),
            _ => None,
        })
        .collect();
    let name = last.ident.to_string();
    let inner = |i: usize| Box::new(shape_of(types[i], krate));
    match (name.as_str(), types.len()) {
        ("Option", 1) if std_path("option") => Some(TypeShape::Option(inner(0))),
        ("Vec", 1) if std_path("vec") => {
            // `Vec<u8>` is a leaf (BYTE_ARRAY).
            if types[0].to_token_stream().to_string() == "u8" {
                None
            } else {
                Some(TypeShape::List(inner(0)))
            }
        }
        ("HashMap", 2 | 3) if std_path("hash_map") || is_collections(prefix) => {
            Some(TypeShape::Map(inner(0), inner(1)))
        }
        ("BTreeMap", 2) if std_path("btree_map") || is_collections(prefix) => {
            Some(TypeShape::Map(inner(0), inner(1)))
        }
        _ => None,
    }
}

/// `std::collections::HashMap`: the re-export.
fn is_collections(prefix: &[String]) -> bool {
    matches!(prefix, [root, c] if (root == "std" || root == "alloc") && c == "collections")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shape(ty: &str) -> String {
        shape_of(&syn::parse_str(ty).unwrap(), "parquet_rows").rust_type()
    }

    #[test]
    fn shapes_from_tokens() {
        assert_eq!(
            shape("Option<Vec<Option<i64>>>"),
            "Option<Vec<Option<i64>>>"
        );
        assert_eq!(shape("Vec<u8>"), "Vec<u8>");
        assert_eq!(shape("Vec<Vec<u8>>"), "Vec<Vec<u8>>");
        assert_eq!(
            shape("std::collections::HashMap<String, (i32, f64)>"),
            "Map<String, (i32, f64)>"
        );
        assert_eq!(shape("BTreeMap<&'a str, Fill>"), "Map<&str, T>");
        assert_eq!(shape("Vec<Fill>"), "Vec<T>");
        assert_eq!(shape("my::Vec<i32>"), "T");
    }
}
