//! The derive's model of the input struct.

use syn::ext::IdentExt;

use crate::attr;
use crate::ctxt::Ctxt;

/// The struct being derived.
pub struct Container<'a> {
    pub ident: &'a syn::Ident,
    pub attrs: attr::Container,
    pub fields: Vec<Field<'a>>,
    pub generics: &'a syn::Generics,
}

/// One named field.
pub struct Field<'a> {
    pub ident: &'a syn::Ident,
    pub attrs: attr::Field,
    pub ty: &'a syn::Type,
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
                    (Some(rename), _) => rename.clone(),
                    (None, Some(rule)) => rule.apply(&name),
                    (None, None) => name,
                };
                Some(Field {
                    ident,
                    attrs,
                    ty: &f.ty,
                    column,
                    original: f,
                })
            })
            .collect();
        Some(Container {
            ident: &input.ident,
            attrs,
            fields,
            generics: &input.generics,
        })
    }
}
