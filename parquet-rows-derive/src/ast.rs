//! The derive's model of the input struct.

use quote::ToTokens;
use syn::ext::IdentExt;

use crate::attr;
use crate::ctxt::Ctxt;
use crate::declared::{self, Declared};

/// The struct being derived.
pub struct Container<'a> {
    pub ident: &'a syn::Ident,
    pub attrs: attr::Container,
    pub fields: Vec<Field<'a>>,
    pub generics: &'a syn::Generics,
    /// The schema declared with `schema` / `schema_file`, if it loaded.
    pub declared: Option<Declared>,
}

/// One named field.
pub struct Field<'a> {
    pub ident: &'a syn::Ident,
    pub attrs: attr::Field,
    pub ty: &'a syn::Type,
    /// The type as the user wrote it, for messages: `&'a str`, `Option<i32>`.
    pub rust_type: String,
    /// The column this field reads, after `rename` / `rename_all`.
    pub column: String,
    pub original: &'a syn::Field,
}

impl<'a> Container<'a> {
    /// Builds the model; `None` (with errors recorded in `cx`) for anything but a
    /// struct with named fields.
    pub fn from_ast(cx: &Ctxt, input: &'a syn::DeriveInput) -> Option<Self> {
        let attrs = attr::container(cx, &input.attrs);
        let fields = match &input.data {
            syn::Data::Struct(data) => match &data.fields {
                syn::Fields::Named(named) => &named.named,
                syn::Fields::Unnamed(_) => {
                    cx.error_spanned_by(
                        &input.ident,
                        "#[derive(ParquetRow)] needs a struct with named fields: fields are matched to columns by name",
                    );
                    return None;
                }
                syn::Fields::Unit => {
                    cx.error_spanned_by(
                        &input.ident,
                        "#[derive(ParquetRow)] needs a struct with named fields; a unit struct reads no column",
                    );
                    return None;
                }
            },
            syn::Data::Enum(data) => {
                cx.error_spanned_by(
                    data.enum_token,
                    "#[derive(ParquetRow)] supports structs with named fields, not enums",
                );
                return None;
            }
            syn::Data::Union(data) => {
                cx.error_spanned_by(
                    data.union_token,
                    "#[derive(ParquetRow)] supports structs with named fields, not unions",
                );
                return None;
            }
        };
        let rule = attrs.rename_all;
        let fields = fields
            .iter()
            .filter_map(|f| {
                let ident = f.ident.as_ref()?;
                let attrs = attr::field(cx, &f.attrs);
                let name = ident.unraw().to_string();
                let column = match (&attrs.rename, rule) {
                    (Some(rename), _) => rename.value(),
                    (None, Some(rule)) => rule.apply(&name),
                    (None, None) => name,
                };
                Some(Field {
                    ident,
                    attrs,
                    ty: &f.ty,
                    rust_type: type_name(&f.ty),
                    column,
                    original: f,
                })
            })
            .collect();
        let declared = attrs
            .schema
            .as_ref()
            .and_then(|source| declared::load(cx, source));
        Some(Container {
            ident: &input.ident,
            attrs,
            fields,
            generics: &input.generics,
            declared,
        })
    }
}

/// The type as the user wrote it, for messages: `&'a str`, `Option<i32>`,
/// `[u8; 16]` (tokens joined with spaces only where Rust needs them).
pub fn type_name(ty: &syn::Type) -> String {
    let raw = ty.to_token_stream().to_string();
    let mut out = String::with_capacity(raw.len());
    let chars: Vec<char> = raw.chars().collect();
    for (i, &c) in chars.iter().enumerate() {
        if c == ' ' {
            let prev = out.chars().last().unwrap_or(' ');
            let next = chars.get(i + 1).copied().unwrap_or(' ');
            let word = |ch: char| ch.is_alphanumeric() || ch == '_';
            // `&'a [u8]`: a lifetime keeps its space before what follows.
            let after_lifetime =
                word(prev) && out.trim_end_matches(|ch: char| word(ch)).ends_with('\'');
            if (word(prev) && word(next)) || after_lifetime || prev == ';' || prev == ',' {
                out.push(' ');
            }
        } else {
            out.push(c);
        }
    }
    out
}
