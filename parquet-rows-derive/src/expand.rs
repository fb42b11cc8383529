//! Code generation: only turns a checked [`Container`] into tokens.

use proc_macro2::{Span, TokenStream};
use quote::{format_ident, quote, quote_spanned, ToTokens};
use syn::spanned::Spanned;

use crate::ast::{Container, Field};
use crate::check::{check, has_elided_lifetime};
use crate::ctxt::Ctxt;

/// Entry point: the impl, or `compile_error!`s plus a stub impl so the user
/// sees the real errors rather than a cascade of "trait not implemented".
pub fn derive(input: &syn::DeriveInput) -> TokenStream {
    let cx = Ctxt::new();
    let cont = Container::from_ast(&cx, input);
    if let Some(cont) = &cont {
        check(&cx, cont);
    }
    let krate = cont.as_ref().map_or_else(|| quote!(::parquet_rows), krate);
    match (cx.check(), cont) {
        // Rustc reports the missing lifetime, with the fix; generated code
        // would only add errors about lifetimes the user never wrote.
        (Ok(()), Some(cont)) if has_elided_lifetime(&cont) => fallback(input, &krate),
        (Ok(()), Some(cont)) => expand(&cont, &input.vis),
        (Err(errors), _) => {
            let errors = errors.to_compile_error();
            let stub = fallback(input, &krate);
            quote! { #errors #stub }
        }
        (Ok(()), None) => fallback(input, &krate),
    }
}

/// The crate path: `::parquet_rows` unless `#[parquet(crate = "...")]`.
fn krate(cont: &Container<'_>) -> TokenStream {
    match &cont.attrs.crate_path {
        Some(path) => path.to_token_stream(),
        None => quote!(::parquet_rows),
    }
}

fn expand(cont: &Container<'_>, vis: &syn::Visibility) -> TokenStream {
    let krate = krate(cont);
    let ident = cont.ident;
    let name = ident.to_string();
    // The pages' lifetime: the struct's own, or a fresh one for owned structs
    // (named as the trait docs name it: it shows in rustc's notes).
    let struct_lifetime = cont.generics.lifetimes().next().map(|l| l.lifetime.clone());
    let lt = struct_lifetime
        .clone()
        .unwrap_or_else(|| syn::Lifetime::new("'p", Span::call_site()));
    let (impl_generics, ty_generics, _) = cont.generics.split_for_impl();
    let impl_generics = if struct_lifetime.is_some() {
        quote!(#impl_generics)
    } else {
        quote!(<#lt>)
    };
    let where_clause = where_fields(cont, &krate, &lt);
    let checks = field_checks(cont, &krate, struct_lifetime.as_ref());
    let owned = struct_lifetime.is_none().then(|| owned_impl(cont, &krate));

    let read = read_fields(cont);
    let specs = read.iter().map(|f| {
        let ty = &f.node_type(&lt);
        let field = f.ident.to_string();
        let column = &f.column;
        let rust_type = &f.rust_type;
        let nth = match &f.attrs.nth {
            Some((n, _)) => quote!(::core::option::Option::Some(#n)),
            None => quote!(::core::option::Option::None),
        };
        // Spanned at the field's type: an unsupported type is reported there.
        quote_spanned! {ty.span()=>
            #krate::__private_v1::FieldSpec {
                field: #field,
                column: #column,
                rust_type: #rust_type,
                shape: <#ty as #krate::ParquetNode<#lt>>::shape(),
                nth: #nth,
            }
        }
    });

    let wide = is_wide(cont);
    let (decode, field_units) = decode_items(cont, &krate, &lt, wide);
    // A struct with a converted field is a row, not a field of another
    // struct: record assembly would need each conversion's placeholder. A
    // struct with a partition field is a row too: a group nested in a row
    // has no path of its own to fill it from.
    let converts = read.iter().any(|f| f.attrs.convert.is_some());
    let partitioned = cont.fields.iter().any(Field::is_partition);
    // A wide struct is a row only (see `is_wide`).
    let node = (!converts && !partitioned && !wide)
        .then(|| node_impl(cont, &krate, &lt, &impl_generics, &where_clause));
    let (declared, rebuild) = match &cont.declared {
        Some(declared) => {
            let text = &declared.text;
            // `include_bytes!` makes the compiler record the sample file as an
            // input of this crate, so Cargo rebuilds it (and re-checks the
            // struct) when the file changes; an unused `const` is not codegened.
            let rebuild = declared.file.as_ref().map(|path| {
                quote! { const _: &[u8] = ::core::include_bytes!(#path); }
            });
            (
                quote! {
                    const DECLARED_SCHEMA: ::core::option::Option<&'static str> =
                        ::core::option::Option::Some(#text);
                },
                rebuild,
            )
        }
        None => (TokenStream::new(), None),
    };

    let filter = crate::filter::filter_ident(cont);
    let filter_struct = crate::filter::filter_struct(cont, vis, &krate);
    let filter_impls = crate::filter::filter_impls(cont, vis, &krate);
    let mark = crate::filter::mark_fn(cont, &krate);
    let probes = crate::filter::probes_fn(cont, &krate, &lt);
    let write = crate::write::write_impl(cont, &krate);

    quote! {
        #[doc(hidden)]
        #[allow(non_upper_case_globals, unused_qualifications, clippy::all, clippy::pedantic)]
        const _: () = {
            #rebuild
            #checks
            #field_units
            #filter_struct
            #filter_impls

            #[automatically_derived]
            impl #impl_generics #krate::ParquetRow<#lt> for #ident #ty_generics #where_clause {
                const STRUCT_NAME: &'static str = #name;
                #declared

                fn fields() -> #krate::__private_v1::Fields {
                    #krate::__private_v1::Fields {
                        specs: <::std::vec::Vec<#krate::__private_v1::FieldSpec> as ::core::convert::From<_>>::from([#(#specs),*]),
                        declared_schema: <Self as #krate::ParquetRow<#lt>>::DECLARED_SCHEMA,
                    }
                }

                fn decode<__S: #krate::__private_v1::RowSink<Self>>(
                    __rg: &#krate::__private_v1::RowGroup<'_, #lt>,
                    __out: &mut __S,
                ) -> #krate::Result<()> {
                    #decode
                }

                type Filter = #filter;

                #mark
                #probes
            }

            #node
            #owned
            #write
        };
    }
}

/// `impl OwnedRow` for a struct without a lifetime, bounded as the
/// `ParquetRow` impl is, for pages of any lifetime (`for<'p>`).
fn owned_impl(cont: &Container<'_>, krate: &TokenStream) -> TokenStream {
    let ident = cont.ident;
    let p = syn::Lifetime::new("'p", Span::call_site());
    let bounds = distinct(read_fields(cont).into_iter().map(|f| f.node_type(&p)))
        .map(|ty| quote_spanned!(ty.span()=> for<'p> #ty: #krate::ParquetNode<'p>));
    let partitions = partition_fields(cont).into_iter().map(|f| {
        let ty = f.ty;
        quote_spanned!(ty.span()=> for<'p> #ty: #krate::__private_v1::PartitionNode<'p>)
    });
    let conversions = conversion_bounds(cont, &p, &quote!(for<'p>));
    quote! {
        #[automatically_derived]
        impl #krate::OwnedRow for #ident where #(#bounds,)* #(#partitions,)* #(#conversions),* {}
    }
}

/// Each type once, at its first field's span: one where-clause bound per
/// distinct field type. Rustc matches every obligation of the impl against
/// every bound, so a bound per field made the compile time of a struct grow
/// with the square of its fields (400 fields: 116 s, 11.6 s with one bound
/// per distinct type).
pub(crate) fn distinct(types: impl Iterator<Item = syn::Type>) -> impl Iterator<Item = syn::Type> {
    let mut seen = std::collections::HashSet::new();
    types.filter(move |ty| seen.insert(ty.to_token_stream().to_string()))
}

/// The fields that read a column (not `#[parquet(skip)]`, not `#[parquet(partition)]`).
fn read_fields<'c, 'a>(cont: &'c Container<'a>) -> Vec<&'c Field<'a>> {
    cont.fields.iter().filter(|f| f.reads_column()).collect()
}

/// The `#[parquet(partition)]` fields, in declaration order.
fn partition_fields<'c, 'a>(cont: &'c Container<'a>) -> Vec<&'c Field<'a>> {
    cont.fields.iter().filter(|f| f.is_partition()).collect()
}

/// `where Ty: ParquetNode<'p>, ...` for every read field (and the struct's own
/// predicates). The impls assume what their bodies need, so an unsupported
/// field type fails only where it is checked ([`field_checks`]) and where the
/// struct is used, not once per line of generated code that mentions it.
fn where_fields(cont: &Container<'_>, krate: &TokenStream, lt: &syn::Lifetime) -> TokenStream {
    let own = cont
        .generics
        .where_clause
        .iter()
        .flat_map(|w| w.predicates.iter())
        .map(ToTokens::to_token_stream);
    let bounds = distinct(read_fields(cont).into_iter().map(|f| f.node_type(lt)))
        .map(|ty| quote_spanned!(ty.span()=> #ty: #krate::ParquetNode<#lt>));
    // `PartitionNode<'p>`, not `PartitionField`: a bound without the lifetime
    // would be checked here, reporting an unsupported type a second time.
    let partitions = partition_fields(cont).into_iter().map(|f| {
        let ty = f.ty;
        quote_spanned!(ty.span()=> #ty: #krate::__private_v1::PartitionNode<#lt>)
    });
    let conversions = conversion_bounds(cont, lt, &TokenStream::new());
    quote!(where #(#own,)* #(#bounds,)* #(#partitions,)* #(#conversions),*)
}

/// `Price: From<f64>` (or `TryFrom`, with its error `Display`) for every
/// converted field, each behind `binder` (`for<'p>` in `OwnedRow`'s bounds).
fn conversion_bounds(
    cont: &Container<'_>,
    lt: &syn::Lifetime,
    binder: &TokenStream,
) -> Vec<TokenStream> {
    let conversions = read_fields(cont).into_iter().filter_map(|f| {
        let (target, source) = f.conversion(lt)?;
        let fallible = f.attrs.convert.as_ref().is_some_and(|c| c.fallible);
        let bound = if fallible {
            quote! {
                #binder #target: ::core::convert::TryFrom<#source>,
                #binder <#target as ::core::convert::TryFrom<#source>>::Error: ::core::fmt::Display
            }
        } else {
            quote!(#binder #target: ::core::convert::From<#source>)
        };
        // At the attribute's type: a missing impl is reported there.
        Some(respan(bound, source.span()))
    });
    conversions.collect()
}

/// `tokens` with every token at `span`, so that an error about them points
/// there (quote_spanned! keeps the spans of the tokens it interpolates).
fn respan(tokens: TokenStream, span: Span) -> TokenStream {
    tokens
        .into_iter()
        .map(|mut token| {
            if let proc_macro2::TokenTree::Group(group) = &token {
                let mut inner =
                    proc_macro2::Group::new(group.delimiter(), respan(group.stream(), span));
                inner.set_span(span);
                token = proc_macro2::TokenTree::Group(inner);
            } else {
                token.set_span(span);
            }
            token
        })
        .collect()
}

/// One check per read field, spanned at its type: the one place an
/// unsupported type is reported while the struct is not used (bytemuck's
/// `generate_fields_are_trait`). A path to an associated const, not a call
/// to a function with a bound, so that the error names no helper item.
fn field_checks(
    cont: &Container<'_>,
    krate: &TokenStream,
    struct_lifetime: Option<&syn::Lifetime>,
) -> TokenStream {
    let lt = struct_lifetime
        .cloned()
        .unwrap_or_else(|| syn::Lifetime::new("'_", Span::call_site()));
    let (impl_generics, _, _) = cont.generics.split_for_impl();
    let checks = read_fields(cont).into_iter().map(|f| {
        let ty = &f.node_type(&lt);
        quote_spanned! {ty.span()=>
            let _ = <#ty as #krate::ParquetNode<#lt>>::CHEAP_PLACEHOLDER;
        }
    });
    // A conversion from a source without a lifetime is a bound without one,
    // which rustc checks where it is written (`conversion_bounds`): checked
    // here too, it would be reported twice.
    let conversions = read_fields(cont).into_iter().filter_map(|f| {
        let (target, source) = f.conversion(&lt)?;
        let written = f.attrs.convert.as_ref()?.source.to_token_stream().to_string();
        if source.to_token_stream().to_string() == written {
            return None;
        }
        let fallible = f.attrs.convert.as_ref().is_some_and(|c| c.fallible);
        let check = if fallible {
            quote! {
                let _ = <<#target as ::core::convert::TryFrom<#source>>::Error as ::core::fmt::Display>::fmt;
            }
        } else {
            quote!(let _ = <#target as ::core::convert::From<#source>>::from;)
        };
        Some(respan(check, source.span()))
    });
    let partitions = partition_fields(cont).into_iter().map(|f| {
        let ty = f.ty;
        quote_spanned! {ty.span()=>
            let _ = <#ty as #krate::PartitionField>::from_partition;
        }
    });
    quote! {
        #[allow(dead_code)]
        fn __check_field_types #impl_generics () {
            #(#checks)*
            #(#conversions)*
            #(#partitions)*
        }
    }
}

/// Whether every read field's placeholder is cheap (a constant expression).
fn all_cheap(read: &[&Field<'_>], krate: &TokenStream, lt: &syn::Lifetime) -> TokenStream {
    let cheap = read.iter().map(|f| {
        let ty = f.ty;
        quote_spanned!(ty.span()=> <#ty as #krate::ParquetNode<#lt>>::CHEAP_PLACEHOLDER)
    });
    quote!(true #(&& #cheap)*)
}

/// `field: value` for every field of the struct, in order: each read field's
/// value from `read(field, i)` (`i` counts read fields), each partition
/// field's copy of its value parsed for the row group (`__q0`, see
/// [`partition_values`]), each skipped field's `Default`.
fn field_inits(
    cont: &Container<'_>,
    krate: &TokenStream,
    lt: &syn::Lifetime,
    mut read: impl FnMut(&Field<'_>, usize) -> TokenStream,
) -> Vec<TokenStream> {
    let mut next = 0;
    let mut partitions = 0usize;
    cont.fields
        .iter()
        .map(|f| {
            let (field, ty) = (f.ident, f.ty);
            if f.is_partition() {
                let value = format_ident!("__q{}", partitions);
                partitions += 1;
                quote_spanned!(ty.span()=> #field: <#ty as #krate::__private_v1::PartitionNode<#lt>>::copy(&#value))
            } else if f.attrs.skip {
                quote_spanned!(ty.span()=> #field: <#ty as ::core::default::Default>::default())
            } else {
                next += 1;
                let value = read(f, next - 1);
                quote!(#field: #value)
            }
        })
        .collect()
}

/// The fields of a row that is about to be decoded into: each read field's
/// placeholder (cheap, no allocation), each skipped field's `Default`.
fn placeholder_inits(
    cont: &Container<'_>,
    krate: &TokenStream,
    lt: &syn::Lifetime,
) -> Vec<TokenStream> {
    field_inits(cont, krate, lt, |f, _| {
        let ty = f.ty;
        quote_spanned!(ty.span()=> <#ty as #krate::ParquetNode<#lt>>::placeholder())
    })
}

/// The impl of `ParquetNode` that lets the struct be a field of another: a
/// group whose fields are assembled record by record, each from its cursor.
fn node_impl(
    cont: &Container<'_>,
    krate: &TokenStream,
    lt: &syn::Lifetime,
    impl_generics: &TokenStream,
    where_fields: &TokenStream,
) -> TokenStream {
    let ident = cont.ident;
    let name = ident.to_string();
    let (own_generics, ty_generics, where_clause) = cont.generics.split_for_impl();
    let read = read_fields(cont);
    let node = |ty: &syn::Type| quote_spanned!(ty.span()=> <#ty as #krate::ParquetNode<#lt>>);
    let cursor_types = read.iter().map(|f| {
        let node = node(f.ty);
        quote_spanned!(f.ty.span()=> #node::Cursor)
    });
    let opens = read.iter().enumerate().map(|(i, f)| {
        let node = node(f.ty);
        quote_spanned!(f.ty.span()=> #node::cursor(__rg, __bound.child(#i)?)?)
    });
    // `#node::skip(&mut __c.0)?; ...`: one call per field's cursor.
    let on_cursors = |method: &str| -> Vec<TokenStream> {
        let method = format_ident!("{}", method);
        let calls = read.iter().enumerate().map(|(i, f)| {
            let (node, i) = (node(f.ty), syn::Index::from(i));
            quote_spanned!(f.ty.span()=> #node::#method(&mut __c.#i)?;)
        });
        calls.collect()
    };
    let (skips, finishes) = (on_cursors("skip"), on_cursors("finish"));
    let skip_records = read.iter().enumerate().map(|(i, f)| {
        let (node, i) = (node(f.ty), syn::Index::from(i));
        quote_spanned!(f.ty.span()=> #node::skip_records(&mut __c.#i, __n)?;)
    });
    let inits = field_inits(cont, krate, lt, |f, i| {
        let (node, i) = (node(f.ty), syn::Index::from(i));
        quote_spanned!(f.ty.span()=> #node::next(&mut __c.#i)?)
    });
    let placeholders = placeholder_inits(cont, krate, lt);
    let cheap = all_cheap(&read, krate, lt);
    let first = node(read[0].ty);
    quote! {
        #[automatically_derived]
        impl #impl_generics #krate::ParquetNode<#lt> for #ident #ty_generics #where_fields {
            fn shape() -> #krate::__private_v1::Shape {
                #krate::__private_v1::Shape::Struct {
                    name: #name,
                    fields: || <Self as #krate::ParquetRow<#lt>>::fields().specs,
                }
            }
            fn placeholder() -> Self {
                Self { #(#placeholders),* }
            }
            const CHEAP_PLACEHOLDER: bool = #cheap;
            type Reader = #krate::__private_v1::Assembled<#lt, Self>;
            fn reader(
                __rg: &#krate::__private_v1::RowGroup<'_, #lt>,
                __bound: &#krate::__private_v1::Bound,
            ) -> #krate::Result<Self::Reader> {
                #krate::__private_v1::Assembled::new(__rg, __bound)
            }
            type OptionReader = #krate::__private_v1::Assembled<#lt, ::core::option::Option<Self>>;
            fn option_reader(
                __rg: &#krate::__private_v1::RowGroup<'_, #lt>,
                __bound: &#krate::__private_v1::Bound,
            ) -> #krate::Result<Self::OptionReader> {
                #krate::__private_v1::Assembled::new(__rg, __bound)
            }
            type Cursor = (#(#cursor_types,)*);
            fn cursor(
                __rg: &#krate::__private_v1::RowGroup<'_, #lt>,
                __bound: &#krate::__private_v1::Bound,
            ) -> #krate::Result<Self::Cursor> {
                ::core::result::Result::Ok((#(#opens,)*))
            }
            #[inline]
            fn def(__c: &mut Self::Cursor) -> #krate::Result<u32> {
                #first::def(&mut __c.0)
            }
            #[inline]
            fn rep(__c: &mut Self::Cursor) -> #krate::Result<::core::option::Option<u32>> {
                #first::rep(&mut __c.0)
            }
            fn skip(__c: &mut Self::Cursor) -> #krate::Result<()> {
                #(#skips)*
                ::core::result::Result::Ok(())
            }
            fn next(__c: &mut Self::Cursor) -> #krate::Result<Self> {
                ::core::result::Result::Ok(Self { #(#inits),* })
            }
            fn skip_records(__c: &mut Self::Cursor, __n: usize) -> #krate::Result<()> {
                #(#skip_records)*
                ::core::result::Result::Ok(())
            }
            fn finish(__c: &mut Self::Cursor) -> #krate::Result<()> {
                #(#finishes)*
                ::core::result::Result::Ok(())
            }
        }

        #[automatically_derived]
        impl #own_generics #krate::__private_v1::ListElement for #ident #ty_generics #where_clause {}
    }
}

/// Read fields above which a struct is decoded in the wide shape
/// (`parquet_rows::__private_v1::decode_columns`): one small item per field
/// and loops over a slice of the fields' columns, so that the compile time
/// grows linearly with the fields. Below it, the generated code has a
/// statement per field, each monomorphized and inlined into one closure:
/// the fastest code for the narrow structs most reads use, but rustc
/// borrow-checks and code-generates such functions in more than linear time
/// (200 fields: 98 s).
pub(crate) const WIDE_FIELDS: usize = 64;

/// Whether the struct is decoded in the wide shape: more than
/// [`WIDE_FIELDS`] read fields, none converted (`from`/`try_from` decode
/// into buffers, not in place) and no type or const parameters (the
/// fields' unit types have none to name them with). A wide struct is a row
/// only: no `ParquetNode` impl, whose record cursor would be a tuple of a
/// cursor per field and whose `next` a statement per field.
fn is_wide(cont: &Container<'_>) -> bool {
    let read = read_fields(cont);
    read.len() > WIDE_FIELDS
        && read.iter().all(|f| f.attrs.convert.is_none())
        && cont.generics.type_params().next().is_none()
        && cont.generics.const_params().next().is_none()
}

/// `ParquetRow::decode`'s body and the items it needs (the wide shape's
/// field unit types).
fn decode_items(
    cont: &Container<'_>,
    krate: &TokenStream,
    lt: &syn::Lifetime,
    wide: bool,
) -> (TokenStream, TokenStream) {
    if wide {
        (wide_decode_body(cont, krate, lt), field_units(cont, krate))
    } else {
        (decode_body(cont, krate, lt), TokenStream::new())
    }
}

/// The unit type of read field `i` in the wide shape.
fn field_unit(i: usize) -> syn::Ident {
    format_ident!("__ParquetRowsField{}", i)
}

/// For each read field of a wide struct, a unit type and its `FieldOf`
/// impl: which field of the row it is. The wide shape's only per-field
/// code besides the slice of the fields' `column` functions.
fn field_units(cont: &Container<'_>, krate: &TokenStream) -> TokenStream {
    let ident = cont.ident;
    let (impl_generics, ty_generics, where_clause) = cont.generics.split_for_impl();
    let units = read_fields(cont).into_iter().enumerate().map(|(i, f)| {
        let (unit, ty, field) = (field_unit(i), f.ty, f.ident);
        quote_spanned! {ty.span()=>
            struct #unit;
            impl #impl_generics #krate::__private_v1::FieldOf<#ident #ty_generics> for #unit #where_clause {
                type Value = #ty;
                const INDEX: usize = #i;
                #[inline]
                fn get<'__r>(__row: &'__r mut #ident #ty_generics) -> &'__r mut #ty {
                    &mut __row.#field
                }
            }
        }
    });
    quote!(#(#units)*)
}

/// The body of `ParquetRow::decode` in the wide shape: the slice of the
/// read fields' `column` functions, handed to
/// `parquet_rows::__private_v1::decode_columns` with the placeholder row.
fn wide_decode_body(cont: &Container<'_>, krate: &TokenStream, lt: &syn::Lifetime) -> TokenStream {
    let opens = read_fields(cont).into_iter().enumerate().map(|(i, f)| {
        let (unit, ty) = (field_unit(i), f.ty);
        quote_spanned! {ty.span()=>
            #krate::__private_v1::column::<Self, #unit> as #krate::__private_v1::Open<#lt, Self>
        }
    });
    let placeholders = placeholder_inits(cont, krate, lt);
    let partitions = partition_values(cont, krate, lt);
    quote! {
        #(#partitions)*
        #krate::__private_v1::decode_columns(
            __rg,
            __out,
            &[#(#opens),*],
            || Self { #(#placeholders),* },
        )
    }
}

/// The body of `ParquetRow::decode`: one column reader and one buffer per read
/// field, opened on the row group, and one closure that does each step the
/// runtime's row loop asks for (`parquet_rows::runtime::decode`: skip rows,
/// fill a batch, finish), one statement per field in each. Per batch, the rows are placed (each field holding a cheap
/// placeholder) and each reader writes its column straight into its field of
/// those rows; a struct with a field whose placeholder is not cheap
/// (`Arc<str>`) has each reader fill its buffer, then the buffers zipped into
/// rows. Nothing is looked up or allocated per row either way.
// The arms of one generated closure (skip, fill, fill runs, finish) read
// best side by side, over the same per-field readers and buffers.
#[allow(clippy::too_many_lines)]
fn decode_body(cont: &Container<'_>, krate: &TokenStream, lt: &syn::Lifetime) -> TokenStream {
    let read = read_fields(cont);
    let node: Vec<syn::Type> = read.iter().map(|f| f.node_type(lt)).collect();
    // The readers' names carry the field type's span: their type is
    // `ColumnReader<<Ty as ParquetField>::Physical>`, so an unsupported type is
    // reported at the field, not at the derive.
    let reader = |i: usize| format_ident!("__r{}", i, span = node[i].span());
    let buffer = |i: usize| format_ident!("__b{}", i);
    let readers = (0..read.len()).map(|i| {
        let (ty, reader, buffer) = (&node[i], reader(i), buffer(i));
        quote_spanned! {ty.span()=>
            let mut #reader = <#ty as #krate::ParquetNode<#lt>>::reader(__rg, __rg.field(#i)?)?;
            let mut #buffer: ::std::vec::Vec<#ty> = ::std::vec::Vec::new();
        }
    });
    let converts = read.iter().any(|f| f.attrs.convert.is_some());
    let cheap = all_cheap(&read, krate, lt);
    // Spanned at the field's type, like every other use of the type: an
    // unsupported type is then reported once, at the field.
    let fills_into = read.iter().enumerate().map(|(i, f)| {
        let (ty, field, reader, buffer) = (f.ty, f.ident, reader(i), buffer(i));
        quote_spanned! {ty.span()=>
            #krate::__private_v1::BatchReader::<#ty>::read_into(
                &mut #reader,
                &mut *__rows,
                |__row: &mut Self| &mut __row.#field,
                &mut #buffer,
            )?;
        }
    });
    let fills = (0..read.len()).map(|i| {
        let (ty, reader, buffer) = (&node[i], reader(i), buffer(i));
        quote_spanned! {ty.span()=>
            #buffer.clear();
            #krate::__private_v1::BatchReader::<#ty>::read(&mut #reader, __n, &mut #buffer)?;
        }
    });
    let finishes = (0..read.len()).map(|i| {
        let (ty, reader) = (&node[i], reader(i));
        quote_spanned!(ty.span()=> #krate::__private_v1::BatchReader::<#ty>::finish(&mut #reader)?;)
    });
    let placeholders = placeholder_inits(cont, krate, lt);

    let (drains, rows) = zip_rows(cont, &read, krate, lt);
    let partitions = partition_values(cont, krate, lt);
    let (converters, conversions) = try_from_steps(&read, krate);
    let batch = if converts {
        // Converted values are made from decoded ones: there is no row to
        // decode into in place.
        quote! {
            #(#fills)*
            #(#conversions)*
            #drains
            #krate::__private_v1::RowSink::append(__out, #rows);
        }
    } else {
        quote! {
            if #cheap {
                // Each column is decoded straight into its field of the
                // batch's rows: one move per value, where decoding into a
                // buffer per column and zipping the buffers into rows takes
                // two. See the README's performance section.
                let __rows = #krate::__private_v1::RowSink::place(__out, __n, || Self { #(#placeholders),* });
                #(#fills_into)*
            } else {
                #(#fills)*
                #drains
                #krate::__private_v1::RowSink::append(__out, #rows);
            }
        }
    };

    // A batch of runs (`Step::FillRuns`): the same, each reader looping over
    // the runs itself (skip, then read the taken rows) in one call.
    let runs_into = read.iter().enumerate().map(|(i, f)| {
        let (ty, field, reader, buffer) = (f.ty, f.ident, reader(i), buffer(i));
        quote_spanned! {ty.span()=>
            #krate::__private_v1::BatchReader::<#ty>::read_runs_into(
                &mut #reader,
                __runs,
                &mut *__rows,
                |__row: &mut Self| &mut __row.#field,
                &mut #buffer,
            )?;
        }
    });
    let runs_fills = (0..read.len()).map(|i| {
        let (ty, reader, buffer) = (&node[i], reader(i), buffer(i));
        quote_spanned! {ty.span()=>
            #buffer.clear();
            #krate::__private_v1::BatchReader::<#ty>::read_runs(&mut #reader, __runs, &mut #buffer)?;
        }
    });
    let (runs_drains, runs_rows) = zip_rows(cont, &read, krate, lt);
    let (_, runs_conversions) = try_from_steps(&read, krate);
    let placeholders_runs = placeholder_inits(cont, krate, lt);
    let batch_runs = if converts {
        quote! {
            #(#runs_fills)*
            #(#runs_conversions)*
            #runs_drains
            #krate::__private_v1::RowSink::append(__out, #runs_rows);
        }
    } else {
        quote! {
            if #cheap {
                let __rows = #krate::__private_v1::RowSink::place(__out, __n, || Self { #(#placeholders_runs),* });
                #(#runs_into)*
            } else {
                #(#runs_fills)*
                #runs_drains
                #krate::__private_v1::RowSink::append(__out, #runs_rows);
            }
        }
    };

    // Rows a column must not hand out (outside the rows a query loaded, or
    // rejected by its predicates): `__rows(i)` of them, see
    // `parquet_rows::runtime`.
    let skips = (0..read.len()).map(|i| {
        let (ty, reader) = (&node[i], reader(i));
        quote_spanned! {ty.span()=>
            #krate::__private_v1::discard::<#ty, _>(&mut #reader, __rows(#i)?)?;
        }
    });

    // The column readers, opened here; the row loop (runs, batches, edges)
    // is the runtime's.
    quote! {
        #(#partitions)*
        #(#readers)*
        #(#converters)*
        #krate::__private_v1::decode(__rg, __out, |__step: #krate::__private_v1::Step<'_, __S>| {
            match __step {
                #krate::__private_v1::Step::Skip(__rows) => {
                    let _ = __rows;
                    #(#skips)*
                }
                #krate::__private_v1::Step::Fill(__n, __out) => {
                    #batch
                }
                #krate::__private_v1::Step::FillRuns(__runs, __n, __out) => {
                    #batch_runs
                }
                #krate::__private_v1::Step::Finish => {
                    #(#finishes)*
                }
            }
            ::core::result::Result::Ok(())
        })
    }
}

/// The rows of a batch from the buffers: `let mut __i0 = __b0.drain(..);`
/// for each buffer, and the iterator of rows
/// `(0..__n).map_while(|_| Some(Self { f0: next(&mut __i0)?, .. }))`, each
/// field's value converted with `From` for a `from` field.
///
/// Flat on purpose: a closure that takes the next value of every buffer has
/// one capture per field, where zipping the buffers
/// (`__b0.drain(..).zip(__b1.drain(..)).zip(..)`) made a type nested as
/// deep as the struct has fields, which rustc refused beyond ~120 fields
/// (E0275) without `#![recursion_limit]`. Every buffer holds the batch's
/// `__n` values (`BatchReader::read` appends exactly `n`), so the rows are
/// the same; the output has room for the row group (`reserve_rows`).
fn zip_rows(
    cont: &Container<'_>,
    read: &[&Field<'_>],
    krate: &TokenStream,
    lt: &syn::Lifetime,
) -> (TokenStream, TokenStream) {
    // A `try_from` field's buffer was first converted into a buffer of the
    // field's type (`__t2`, see `try_from_steps`): that one is drained.
    let fallible = |f: &Field<'_>| f.attrs.convert.as_ref().is_some_and(|c| c.fallible);
    let drains = read.iter().enumerate().map(|(i, f)| {
        let buffer = if fallible(f) {
            format_ident!("__t{}", i)
        } else {
            format_ident!("__b{}", i)
        };
        let drain = format_ident!("__i{}", i);
        quote!(let mut #drain = #buffer.drain(..);)
    });
    let inits = field_inits(cont, krate, lt, |f, i| {
        let drain = format_ident!("__i{}", i);
        let value = quote!(::core::iter::Iterator::next(&mut #drain)?);
        match &f.attrs.convert {
            // Spanned at the attribute's type: a missing `From` impl is
            // reported there.
            Some(convert) if !convert.fallible => {
                let span = convert.source.span();
                if f.converts_inside_option() {
                    quote_spanned!(span=> ::core::option::Option::map(#value, ::core::convert::From::from))
                } else {
                    quote_spanned!(span=> ::core::convert::From::from(#value))
                }
            }
            _ => value,
        }
    });
    let drains = quote!(#(#drains)*);
    let rows = quote! {
        ::core::iter::Iterator::map_while(0..__n, |_| ::core::option::Option::Some(Self { #(#inits),* }))
    };
    (drains, rows)
}

/// `let __q0 = ...;` for each partition field: its value, parsed once per
/// row group from the file's partitions, and copied into every row.
fn partition_values(
    cont: &Container<'_>,
    krate: &TokenStream,
    lt: &syn::Lifetime,
) -> Vec<TokenStream> {
    partition_fields(cont)
        .into_iter()
        .enumerate()
        .map(|(k, f)| {
            let (ty, value) = (f.ty, format_ident!("__q{}", k));
            let (key, field, rust_type) = (&f.column, f.ident.to_string(), &f.rust_type);
            quote_spanned! {ty.span()=>
                let #value = <#ty as #krate::__private_v1::PartitionNode<#lt>>::partition(
                    __rg.partitions(), #key, #field, #rust_type,
                )?;
            }
        })
        .collect()
}

/// For each `try_from` field, its converter and target buffer (made once per
/// row group), and the step that converts a batch of its buffer into the
/// target buffer, one `?` per value so that an error names its row.
fn try_from_steps(
    read: &[&Field<'_>],
    krate: &TokenStream,
) -> (Vec<TokenStream>, Vec<TokenStream>) {
    let fallible = |f: &Field<'_>| f.attrs.convert.as_ref().is_some_and(|c| c.fallible);
    let buffer = |i: usize| format_ident!("__b{}", i);
    let zipped = |i: usize| format_ident!("__t{}", i);
    let converters = read
        .iter()
        .enumerate()
        .filter(|(_, f)| fallible(f))
        .map(|(i, f)| {
            let (ty, target, converter) = (f.ty, zipped(i), format_ident!("__k{}", i));
            quote_spanned! {ty.span()=>
                let mut #target: ::std::vec::Vec<#ty> = ::std::vec::Vec::new();
                let mut #converter = #krate::__private_v1::Converter::new(__rg, #i)?;
            }
        });
    let conversions = read
        .iter()
        .enumerate()
        .filter(|(_, f)| fallible(f))
        .map(|(i, f)| {
            let (buffer, target, converter) = (buffer(i), zipped(i), format_ident!("__k{}", i));
            let span = f
                .attrs
                .convert
                .as_ref()
                .map_or_else(|| f.ty.span(), |c| c.source.span());
            let method = if f.converts_inside_option() {
                quote_spanned!(span=> try_from_some)
            } else {
                quote_spanned!(span=> try_from)
            };
            quote_spanned! {span=>
                #target.clear();
                for __v in #buffer.drain(..) {
                    #target.push(#converter.#method(__v)?);
                }
            }
        });
    (converters.collect(), conversions.collect())
}

/// A stub impl emitted next to `compile_error!`, so the struct still "implements"
/// the trait and users do not get extra errors where they use it.
fn fallback(input: &syn::DeriveInput, krate: &TokenStream) -> TokenStream {
    let ident = &input.ident;
    let mut generics = input.generics.clone();
    let lt = syn::Lifetime::new("'__p", Span::call_site());
    generics.params.insert(
        0,
        syn::GenericParam::Lifetime(syn::LifetimeParam::new(lt.clone())),
    );
    let (impl_generics, _, where_clause) = generics.split_for_impl();
    let (own_generics, ty_generics, own_where) = input.generics.split_for_impl();
    // An owned struct stays usable with `from_path` and the like.
    let owned = input.generics.lifetimes().next().is_none().then(|| {
        quote! {
            impl #own_generics #krate::OwnedRow for #ident #ty_generics #own_where {}
        }
    });
    quote! {
        #[allow(unused_qualifications)]
        const _: () = {
            impl #impl_generics #krate::ParquetRow<#lt> for #ident #ty_generics #where_clause {
                const STRUCT_NAME: &'static str = "";
                fn fields() -> #krate::__private_v1::Fields {
                    ::core::unimplemented!()
                }
                fn decode<__S: #krate::__private_v1::RowSink<Self>>(
                    _: &#krate::__private_v1::RowGroup<'_, #lt>,
                    _: &mut __S,
                ) -> #krate::Result<()> {
                    ::core::unimplemented!()
                }
                type Filter = #krate::__private_v1::NoFilter;
                fn mark(_: &[Self], _: &#krate::__private_v1::Predicate, _: &mut [bool]) {}
                fn probes(
                    _: &#krate::__private_v1::RowGroup<'_, #lt>,
                    _: &[#krate::__private_v1::Predicate],
                ) -> #krate::Result<::std::vec::Vec<::std::boxed::Box<dyn #krate::__private_v1::Probe + #lt>>> {
                    ::core::unimplemented!()
                }
            }
            #owned
        };
    }
}
