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
    /// The type the column is read as, as written, for messages and the
    /// schema check: the field's (`&'a str`, `Option<i32>`), or the source
    /// of `from` / `try_from` (`Option<f64>` for `Option<Price>` from `f64`).
    pub rust_type: String,
    /// The column this field reads, after `rename` / `rename_all`; for a
    /// partition field, the partition's key.
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
                let rust_type = match &attrs.convert {
                    Some(convert) => type_name(&source_type(&f.ty, convert, None)),
                    None => type_name(&f.ty),
                };
                Some(Field {
                    ident,
                    attrs,
                    ty: &f.ty,
                    rust_type,
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

impl Field<'_> {
    /// Whether the field reads a column: neither skipped nor a partition.
    pub fn reads_column(&self) -> bool {
        !self.attrs.skip && self.attrs.partition.is_none()
    }

    /// Whether the field is filled from the file's partition directories.
    pub fn is_partition(&self) -> bool {
        self.attrs.partition.is_some()
    }

    /// The type that reads the column: the field's own, or the source of its
    /// conversion with `&str` borrowing for `lt`, the pages' lifetime.
    pub fn node_type(&self, lt: &syn::Lifetime) -> syn::Type {
        match &self.attrs.convert {
            Some(convert) => source_type(self.ty, convert, Some(lt)),
            None => self.ty.clone(),
        }
    }

    /// `(target, source)` of the field's conversion: the type converted into
    /// (the field's, or `U` of an `Option<U>` field converting present
    /// values) and the source with `&str` borrowing for `lt`.
    pub fn conversion(&self, lt: &syn::Lifetime) -> Option<(&syn::Type, syn::Type)> {
        let convert = self.attrs.convert.as_ref()?;
        let mut source = convert.source.clone();
        name_lifetimes(&mut source, lt);
        let target = if self.converts_inside_option() {
            option_inner(self.ty)?
        } else {
            self.ty
        };
        Some((target, source))
    }

    /// Whether the conversion applies to the value inside an `Option` field
    /// (`Option<Price>` with `from = "f64"` reads `Option<f64>`).
    pub fn converts_inside_option(&self) -> bool {
        self.attrs
            .convert
            .as_ref()
            .is_some_and(|c| option_inner(self.ty).is_some() && option_inner(&c.source).is_none())
    }
}

/// The type a converted field reads: the source, inside `Option` when the
/// field is an `Option` and the source is not; references without a lifetime
/// get `lt`.
fn source_type(
    field: &syn::Type,
    convert: &attr::Convert,
    lt: Option<&syn::Lifetime>,
) -> syn::Type {
    let mut source = convert.source.clone();
    if let Some(lt) = lt {
        name_lifetimes(&mut source, lt);
    }
    if option_inner(field).is_some() && option_inner(&convert.source).is_none() {
        syn::parse_quote!(::core::option::Option<#source>)
    } else {
        source
    }
}

/// `T` of a type written `Option<T>` (any path ending in `Option`).
fn option_inner(ty: &syn::Type) -> Option<&syn::Type> {
    let syn::Type::Path(path) = ty else {
        return None;
    };
    let last = path.path.segments.last()?;
    let syn::PathArguments::AngleBracketed(args) = &last.arguments else {
        return None;
    };
    match (last.ident == "Option", args.args.first(), args.args.len()) {
        (true, Some(syn::GenericArgument::Type(inner)), 1) => Some(inner),
        _ => None,
    }
}

/// Gives every reference without a lifetime (or with `'_`) the lifetime `lt`.
fn name_lifetimes(ty: &mut syn::Type, lt: &syn::Lifetime) {
    match ty {
        syn::Type::Reference(r) => {
            if r.lifetime.as_ref().is_none_or(|l| l.ident == "_") {
                r.lifetime = Some(lt.clone());
            }
            name_lifetimes(&mut r.elem, lt);
        }
        syn::Type::Path(p) => {
            for segment in &mut p.path.segments {
                if let syn::PathArguments::AngleBracketed(args) = &mut segment.arguments {
                    for arg in &mut args.args {
                        if let syn::GenericArgument::Type(ty) = arg {
                            name_lifetimes(ty, lt);
                        }
                    }
                }
            }
        }
        syn::Type::Array(a) => name_lifetimes(&mut a.elem, lt),
        syn::Type::Slice(s) => name_lifetimes(&mut s.elem, lt),
        syn::Type::Paren(p) => name_lifetimes(&mut p.elem, lt),
        syn::Type::Group(g) => name_lifetimes(&mut g.elem, lt),
        syn::Type::Tuple(t) => t.elems.iter_mut().for_each(|ty| name_lifetimes(ty, lt)),
        _ => {}
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
