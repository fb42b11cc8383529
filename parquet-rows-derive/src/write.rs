//! The write impl's code (`ParquetWrite`): for each field, which column it
//! writes and how to reach its value. The runtime's `Writer` owns the loop
//! over rows (`__private_v1::push_column`), and the column each field type
//! writes is decided by the shared rules at run time (`FieldKind::writes`).

use proc_macro2::{Span, TokenStream};
use quote::{quote, quote_spanned};
use syn::spanned::Spanned;

use crate::ast::{Container, Field};

/// `impl ParquetWrite`, bounded on every written field's type being
/// `WriteField`: a struct with a field the writer does not write yet (a
/// nested struct, a list) still derives, and the bound that fails is named
/// where the struct is written. Nothing for a struct with a field read with
/// `from` / `try_from` (no conversion back to write with), nor for one with
/// two fields on the same column (a file cannot hold two columns of one name).
pub fn write_impl(cont: &Container<'_>, krate: &TokenStream) -> TokenStream {
    let fields: Vec<&Field<'_>> = cont.fields.iter().filter(|f| f.reads_column()).collect();
    if fields.iter().any(|f| f.attrs.convert.is_some()) {
        return TokenStream::new();
    }
    let mut columns: Vec<&str> = fields.iter().map(|f| f.column.as_str()).collect();
    columns.sort_unstable();
    if columns.windows(2).any(|w| w[0] == w[1]) {
        return TokenStream::new();
    }
    let ident = cont.ident;
    let name = ident.to_string();
    let (impl_generics, ty_generics, _) = cont.generics.split_for_impl();
    let own: Vec<_> = cont
        .generics
        .where_clause
        .iter()
        .flat_map(|w| w.predicates.iter())
        .collect();
    // A bound with a lifetime of its own is not a "trivial" bound, which
    // rustc would check (and reject) at the impl rather than at the use.
    let w = syn::Lifetime::new("'__w", Span::call_site());
    let bounds = crate::expand::distinct(fields.iter().map(|f| f.ty.clone()))
        .map(|ty| quote_spanned!(ty.span()=> for<#w> #ty: #krate::WriteField));
    let statics = cont
        .generics
        .lifetimes()
        .map(|_| syn::Lifetime::new("'static", Span::call_site()));
    let shape = if cont.generics.lifetimes().next().is_some() {
        quote!(#ident<#(#statics),*>)
    } else {
        quote!(#ident)
    };
    let specs = fields.iter().map(|f| {
        let ty = f.ty;
        let field = f.ident.to_string();
        let column = &f.column;
        let params = write_params(&f.attrs.write, krate);
        let encoding = match f.attrs.write.encoding {
            Some(variant) => {
                let variant = syn::Ident::new(variant, Span::call_site());
                quote!(::core::option::Option::Some(#krate::__private_v1::ColumnEncoding::#variant))
            }
            None => quote!(::core::option::Option::None),
        };
        let bloom_filter = f.attrs.write.bloom_filter;
        let compression = match f.attrs.write.compression {
            Some((variant, level)) => {
                let variant = syn::Ident::new(variant, Span::call_site());
                let level = level.map(|n| {
                    let n = proc_macro2::Literal::u32_unsuffixed(n);
                    quote!((#n))
                });
                quote!(::core::option::Option::Some(#krate::writer::Compression::#variant #level))
            }
            None => quote!(::core::option::Option::None),
        };
        quote_spanned! {ty.span()=>
            #krate::__private_v1::WriteSpec {
                field: #field,
                column: #column,
                shape: <#ty as #krate::WriteField>::write_shape(),
                params: #params,
                encoding: #encoding,
                bloom_filter: #bloom_filter,
                compression: #compression,
            }
        }
    });
    let push_body = push_body(&fields, krate);
    let bounds: Vec<TokenStream> = bounds.collect();
    let nested = nested_impl(cont, krate, &fields, &own, &bounds);
    quote! {
        #[automatically_derived]
        impl #impl_generics #krate::ParquetWrite for #ident #ty_generics
        where #(#own,)* #(#bounds,)*
        {
            type Shape = #shape;
            const STRUCT_NAME: &'static str = #name;
            fn write_specs() -> ::std::vec::Vec<#krate::__private_v1::WriteSpec> {
                <::std::vec::Vec<#krate::__private_v1::WriteSpec> as ::core::convert::From<_>>::from([#(#specs),*])
            }
            fn push_columns(
                __rows: &[Self],
                __columns: &mut #krate::__private_v1::ColumnBuffers,
            ) {
                #push_body
            }
        }

        #nested
    }
}

/// `impl WriteField` for the struct, so that it can be a field of another
/// (a group of its fields, each pushed by its own type's impl: one statement
/// per field), with the bounds of its `ParquetWrite` impl.
fn nested_impl(
    cont: &Container<'_>,
    krate: &TokenStream,
    fields: &[&Field<'_>],
    own: &[&syn::WherePredicate],
    bounds: &[TokenStream],
) -> TokenStream {
    let ident = cont.ident;
    let name = ident.to_string();
    let (impl_generics, ty_generics, _) = cont.generics.split_for_impl();
    let pushes = fields.iter().map(|f| {
        let member = f.ident;
        quote! {
            #krate::WriteField::push_field(&self.#member, __leaves, __at)?;
        }
    });
    let absent = fields.iter().map(|f| {
        let ty = f.ty;
        quote_spanned! {ty.span()=>
            <#ty as #krate::WriteField>::push_absent(__leaves, __at);
        }
    });
    quote! {
        #[automatically_derived]
        impl #impl_generics #krate::WriteField for #ident #ty_generics
        where #(#own,)* #(#bounds,)*
        {
            fn write_shape() -> #krate::__private_v1::WriteShape {
                #krate::__private_v1::WriteShape::Struct {
                    name: #name,
                    fields: <Self as #krate::ParquetWrite>::write_specs(),
                }
            }
            fn push_field(
                &self,
                __leaves: &mut #krate::__private_v1::Leaves<'_>,
                __at: #krate::__private_v1::Levels,
            ) -> ::core::result::Result<(), ::std::string::String> {
                #(#pushes)*
                ::core::result::Result::Ok(())
            }
            fn push_absent(
                __leaves: &mut #krate::__private_v1::Leaves<'_>,
                __at: #krate::__private_v1::Levels,
            ) {
                #(#absent)*
            }
        }
    }
}

/// The body of `push_columns`: one function pointer per field (each
/// field's `push_column` with its accessor) in a slice, handed to the
/// runtime, which pushes the fields on the writer's threads when the rows
/// are `Sync` and in order otherwise (`writer/push.rs` says how the call
/// below chooses). A slice rather than a statement per field also keeps
/// rustc's compile time linear in the fields (docs/pipeline.md, Wide
/// structs).
fn push_body(fields: &[&Field<'_>], krate: &TokenStream) -> TokenStream {
    let pushes = fields.iter().map(|f| {
        let member = f.ident;
        quote! {
            (|__rows, __column| #krate::__private_v1::push_column(__rows, __column, |__row: &Self| &__row.#member))
                as #krate::__private_v1::Push<Self>
        }
    });
    quote! {
        #[allow(unused_imports)]
        use #krate::__private_v1::{PushInOrder as _, PushOnThreads as _};
        (&#krate::__private_v1::Rows(__rows)).push_fields(__columns, &[#(#pushes),*]);
    }
}

/// The `WriteParams` of a field's `unit`, `utc`, `precision` and `scale`.
fn write_params(attrs: &crate::attr::WriteAttrs, krate: &TokenStream) -> TokenStream {
    let p = quote!(#krate::__private_v1);
    let option = |value: Option<TokenStream>| match value {
        Some(v) => quote!(::core::option::Option::Some(#v)),
        None => quote!(::core::option::Option::None),
    };
    let unit = option(attrs.unit.as_deref().map(|unit| match unit {
        "millis" => quote!(#p::TimeUnit::Millis),
        "micros" => quote!(#p::TimeUnit::Micros),
        _ => quote!(#p::TimeUnit::Nanos),
    }));
    let utc = option(attrs.utc.map(|b| quote!(#b)));
    let precision = option(attrs.precision.map(|n| quote!(#n)));
    let scale = option(attrs.scale.map(|n| quote!(#n)));
    quote! {
        #p::WriteParams { unit: #unit, utc: #utc, precision: #precision, scale: #scale }
    }
}
