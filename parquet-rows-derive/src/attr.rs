//! Parsing `#[parquet(...)]` on the struct and its fields.

use syn::meta::ParseNestedMeta;

use crate::case::{RenameRule, RULES};
use crate::ctxt::Ctxt;
use crate::symbol::{
    BLOOM_FILTER, COMPRESSION, CRATE, ENCODING, FROM, NTH, PARQUET, PARTITION, PRECISION, RENAME,
    RENAME_ALL, SCALE, SCHEMA, SCHEMA_FILE, SKIP, TRY_FROM, UNIT, UTC,
};

/// One attribute value, remembering whether it was set, to catch duplicates as
/// they are set (serde's `Attr::set`).
struct Attr<'c, T> {
    cx: &'c Ctxt,
    name: &'static str,
    value: Option<T>,
}

impl<'c, T> Attr<'c, T> {
    fn none(cx: &'c Ctxt, name: &'static str) -> Self {
        Attr {
            cx,
            name,
            value: None,
        }
    }

    fn set(&mut self, meta: &ParseNestedMeta<'_>, value: T) {
        if self.value.is_some() {
            self.cx.error_spanned_by(
                &meta.path,
                format!("duplicate parquet attribute `{}`", self.name),
            );
        } else {
            self.value = Some(value);
        }
    }
}

/// Attributes on the struct.
pub struct Container {
    pub rename_all: Option<RenameRule>,
    pub crate_path: Option<syn::Path>,
    /// Where the struct declares its schema, if it does.
    pub schema: Option<SchemaSource>,
}

/// `schema = "message ..."` or `schema_file = "path"`.
pub enum SchemaSource {
    Text(syn::LitStr),
    File(syn::LitStr),
}

/// Attributes on a field.
pub struct Field {
    /// The column name, as written in `rename = "..."` (for its span).
    pub rename: Option<syn::LitStr>,
    pub skip: bool,
    /// `partition`: filled from the file's `key=value` path directory, with
    /// the path at `.0` (for spans).
    pub partition: Option<syn::Path>,
    /// `from = "T"` / `try_from = "T"`: the column is read as `T`, then converted.
    pub convert: Option<Convert>,
    /// What the column the field writes needs beyond its type.
    pub write: WriteAttrs,
    /// `nth = n`: the `n`th (from 0) of several columns with the field's
    /// column name, with the literal (for spans).
    pub nth: Option<(usize, syn::LitInt)>,
}

/// `unit = "millis"`, `utc = false`, `precision = 10`, `scale = 2`: the
/// column a field writes, where its type does not say (the rules check at
/// run time that the field's type takes them).
#[derive(Default)]
pub struct WriteAttrs {
    /// `millis`, `micros` or `nanos`.
    pub unit: Option<String>,
    pub utc: Option<bool>,
    pub precision: Option<u8>,
    pub scale: Option<u8>,
    /// The variant of `ColumnEncoding` that `encoding = "..."` names.
    pub encoding: Option<&'static str>,
    pub bloom_filter: bool,
    /// `compression = "zstd(3)"`: the `Compression` variant and its level.
    pub compression: Option<(&'static str, Option<u32>)>,
}

/// Every field attribute, for "did you mean".
const FIELD_ATTRIBUTES: &[&str] = &[
    RENAME,
    NTH,
    SKIP,
    FROM,
    TRY_FROM,
    PARTITION,
    UNIT,
    UTC,
    PRECISION,
    SCALE,
    ENCODING,
    BLOOM_FILTER,
    COMPRESSION,
];

/// `compression = "..."` codec names, the `Compression` variants they name,
/// and whether the variant takes a level (and its default).
const CODECS: &[(&str, &str, Option<u32>)] = &[
    ("uncompressed", "Uncompressed", None),
    ("snappy", "Snappy", None),
    ("gzip", "Gzip", Some(6)),
    ("brotli", "Brotli", Some(1)),
    ("lz4", "Lz4", None),
    ("lz4_raw", "Lz4Raw", None),
    ("zstd", "Zstd", Some(1)),
];

/// `"zstd(3)"`, `"zstd"`, `"snappy"`: the variant and its level.
fn codec(text: &str) -> Result<(&'static str, Option<u32>), String> {
    let (name, level) = match text.split_once('(') {
        Some((name, rest)) => {
            let digits = rest
                .strip_suffix(')')
                .ok_or_else(|| format!("`{text}`: expected `name(level)`"))?;
            let level: u32 = digits
                .trim()
                .parse()
                .map_err(|_| format!("`{text}`: the level `{digits}` is not a number"))?;
            (name.trim(), Some(level))
        }
        None => (text.trim(), None),
    };
    let names: Vec<String> = CODECS.iter().map(|(n, ..)| format!("\"{n}\"")).collect();
    let &(_, variant, default) = CODECS.iter().find(|(n, ..)| *n == name).ok_or_else(|| {
        format!(
            "unknown compression `{name}`, expected one of {}",
            names.join(", ")
        )
    })?;
    match (default, level) {
        (None, Some(_)) => Err(format!("compression `{name}` takes no level")),
        (Some(default), level) => Ok((variant, Some(level.unwrap_or(default)))),
        (None, None) => Ok((variant, None)),
    }
}

/// `encoding = "..."` spellings and the `ColumnEncoding` variants they name.
const ENCODINGS: &[(&str, &str)] = &[
    ("dictionary", "Dictionary"),
    ("plain", "Plain"),
    ("delta_binary_packed", "DeltaBinaryPacked"),
    ("delta_length_byte_array", "DeltaLengthByteArray"),
    ("delta_byte_array", "DeltaByteArray"),
    ("byte_stream_split", "ByteStreamSplit"),
];

/// A field read as a supported type, then converted into the field's own type.
pub struct Convert {
    /// `From` (`from = "..."`) or `TryFrom` (`try_from = "..."`).
    pub fallible: bool,
    /// The type the column is read as, as written (`f64`, `&str`).
    pub source: syn::Type,
}

/// Reads `#[parquet(...)]` on the struct.
pub fn container(cx: &Ctxt, attrs: &[syn::Attribute]) -> Container {
    let mut rename_all = Attr::none(cx, RENAME_ALL);
    let mut crate_path = Attr::none(cx, CRATE);
    let mut schema = Attr::none(cx, SCHEMA);
    for attr in attrs.iter().filter(|a| a.path().is_ident(PARQUET)) {
        let result = attr.parse_nested_meta(|meta| {
            if meta.path.is_ident(RENAME_ALL) {
                let lit: syn::LitStr = meta.value()?.parse()?;
                match RenameRule::from_str(&lit.value()) {
                    Some(rule) => rename_all.set(&meta, rule),
                    None => {
                        let names: Vec<&str> = RULES.iter().map(|(name, _)| *name).collect();
                        let expected: Vec<String> =
                            names.iter().map(|name| format!("\"{name}\"")).collect();
                        let hint = parquet_rows_rules::closest_name(&lit.value(), &names)
                            .map(|close| format!("; did you mean \"{close}\"?"))
                            .unwrap_or_default();
                        cx.error_spanned_by(
                            &lit,
                            format!(
                                "unknown rename rule `rename_all = \"{}\"`, expected one of {}{hint}",
                                lit.value(),
                                expected.join(", ")
                            ),
                        );
                    }
                }
            } else if meta.path.is_ident(CRATE) {
                let lit: syn::LitStr = meta.value()?.parse()?;
                match lit.parse::<syn::Path>() {
                    Ok(path) => crate_path.set(&meta, path),
                    Err(_) => cx.error_spanned_by(
                        &lit,
                        format!("`crate = \"{}\"` is not a path", lit.value()),
                    ),
                }
            } else if meta.path.is_ident(SCHEMA) || meta.path.is_ident(SCHEMA_FILE) {
                let lit: syn::LitStr = meta.value()?.parse()?;
                let source = if meta.path.is_ident(SCHEMA) {
                    SchemaSource::Text(lit)
                } else {
                    SchemaSource::File(lit)
                };
                if schema.value.is_some() {
                    cx.error_spanned_by(
                        &meta.path,
                        "the schema is already declared; use one `schema = \"...\"` or `schema_file = \"...\"`",
                    );
                } else {
                    schema.set(&meta, source);
                }
            } else if meta.path.is_ident(RENAME)
                || meta.path.is_ident(NTH)
                || meta.path.is_ident(SKIP)
                || meta.path.is_ident(PARTITION)
            {
                let name = meta
                    .path
                    .get_ident()
                    .map(ToString::to_string)
                    .unwrap_or_default();
                return Err(meta.error(format!(
                    "`{name}` is a field attribute; put #[parquet({name} ...)] on a field"
                )));
            } else {
                return Err(meta.error(format!(
                    "unknown parquet container attribute `{}`{}; expected `rename_all`, `crate`, `schema` or `schema_file`",
                    path_to_string(&meta.path),
                    did_you_mean(&meta.path, &[RENAME_ALL, CRATE, SCHEMA, SCHEMA_FILE]),
                )));
            }
            Ok(())
        });
        if let Err(err) = result {
            cx.syn_error(err);
        }
    }
    Container {
        rename_all: rename_all.value,
        crate_path: crate_path.value,
        schema: schema.value,
    }
}

/// Reads `#[parquet(...)]` on a field.
pub fn field(cx: &Ctxt, attrs: &[syn::Attribute]) -> Field {
    let mut rename = Attr::none(cx, RENAME);
    let mut skip = Attr::none(cx, SKIP);
    let mut partition = Attr::none(cx, PARTITION);
    let mut convert = Attr::none(cx, FROM);
    let mut write = WriteSlots::new(cx);
    let mut nth = Attr::none(cx, NTH);
    for attr in attrs.iter().filter(|a| a.path().is_ident(PARQUET)) {
        let result = attr.parse_nested_meta(|meta| {
            if write.parse(cx, &meta)? {
                return Ok(());
            }
            if meta.path.is_ident(RENAME) {
                // An empty name is a name: Parquet allows it, and pandas
                // writes one for an unnamed column.
                let lit: syn::LitStr = meta.value()?.parse()?;
                rename.set(&meta, lit);
            } else if meta.path.is_ident(SKIP) {
                skip.set(&meta, ());
            } else if meta.path.is_ident(NTH) {
                let lit: syn::LitInt = meta.value()?.parse()?;
                match lit.base10_parse::<usize>() {
                    Ok(n) => nth.set(&meta, (n, lit)),
                    Err(_) => cx.error_spanned_by(
                        &lit,
                        "`nth` is which of the columns of the field's name it reads, counting from 0: a number such as `nth = 1`",
                    ),
                }
            } else if meta.path.is_ident(PARTITION) {
                partition.set(&meta, meta.path.clone());
            } else if meta.path.is_ident(FROM) || meta.path.is_ident(TRY_FROM) {
                let fallible = meta.path.is_ident(TRY_FROM);
                let lit: syn::LitStr = meta.value()?.parse()?;
                // A field type names a type: a path, a reference, an array
                // or slice, a tuple; `f64 +` parses as a trait object.
                let source = lit.parse::<syn::Type>().ok().filter(|ty| {
                    matches!(
                        ty,
                        syn::Type::Path(_)
                            | syn::Type::Reference(_)
                            | syn::Type::Array(_)
                            | syn::Type::Slice(_)
                            | syn::Type::Tuple(_)
                            | syn::Type::Paren(_)
                    )
                });
                match source.ok_or(()) {
                    Ok(source) if convert.value.is_none() => {
                        convert.set(&meta, Convert { fallible, source });
                    }
                    Ok(_) => cx.error_spanned_by(
                        &meta.path,
                        "the field is already converted; use one `from = \"...\"` or `try_from = \"...\"`",
                    ),
                    Err(()) => cx.error_spanned_by(
                        &lit,
                        format!("`{}` is not a type", lit.value()),
                    ),
                }
            } else if [RENAME_ALL, CRATE, SCHEMA, SCHEMA_FILE]
                .iter()
                .any(|name| meta.path.is_ident(name))
            {
                let name = meta
                    .path
                    .get_ident()
                    .map(ToString::to_string)
                    .unwrap_or_default();
                return Err(meta.error(format!(
                    "`{name}` is a container attribute; put #[parquet({name} = ...)] on the struct"
                )));
            } else {
                return Err(meta.error(format!(
                    "unknown parquet field attribute `{}`{}; expected `rename`, `nth`, `skip`, `from`, `try_from`, `partition`, `unit`, `utc`, `precision`, `scale`, `encoding`, `bloom_filter` or `compression`",
                    path_to_string(&meta.path),
                    did_you_mean(&meta.path, FIELD_ATTRIBUTES),
                )));
            }
            Ok(())
        });
        if let Err(err) = result {
            cx.syn_error(err);
        }
    }
    Field {
        rename: rename.value,
        skip: skip.value.is_some(),
        partition: partition.value,
        convert: convert.value,
        nth: nth.value,
        write: WriteAttrs {
            unit: write.unit.value,
            utc: write.utc.value,
            precision: write.precision.value,
            scale: write.scale.value,
            encoding: write.encoding.value,
            bloom_filter: write.bloom_filter.value.is_some(),
            compression: write.compression.value,
        },
    }
}

/// The attributes of [`WriteAttrs`], as they are parsed.
struct WriteSlots<'c> {
    unit: Attr<'c, String>,
    utc: Attr<'c, bool>,
    precision: Attr<'c, u8>,
    scale: Attr<'c, u8>,
    encoding: Attr<'c, &'static str>,
    bloom_filter: Attr<'c, ()>,
    compression: Attr<'c, (&'static str, Option<u32>)>,
}

impl<'c> WriteSlots<'c> {
    fn new(cx: &'c Ctxt) -> Self {
        WriteSlots {
            unit: Attr::none(cx, UNIT),
            utc: Attr::none(cx, UTC),
            precision: Attr::none(cx, PRECISION),
            scale: Attr::none(cx, SCALE),
            encoding: Attr::none(cx, ENCODING),
            bloom_filter: Attr::none(cx, BLOOM_FILTER),
            compression: Attr::none(cx, COMPRESSION),
        }
    }

    /// Parses `meta` if it is one of the write attributes; `false` if not.
    fn parse(&mut self, cx: &Ctxt, meta: &ParseNestedMeta<'_>) -> syn::Result<bool> {
        if meta.path.is_ident(UNIT) {
            let lit: syn::LitStr = meta.value()?.parse()?;
            if ["millis", "micros", "nanos"].contains(&lit.value().as_str()) {
                self.unit.set(meta, lit.value());
            } else {
                cx.error_spanned_by(
                    &lit,
                    format!(
                        "unknown unit `{}`, expected \"millis\", \"micros\" or \"nanos\"",
                        lit.value()
                    ),
                );
            }
        } else if meta.path.is_ident(UTC) {
            let lit: syn::LitBool = meta.value()?.parse()?;
            self.utc.set(meta, lit.value);
        } else if meta.path.is_ident(PRECISION) || meta.path.is_ident(SCALE) {
            let lit: syn::LitInt = meta.value()?.parse()?;
            match lit.base10_parse::<u8>() {
                Ok(n) if meta.path.is_ident(PRECISION) => self.precision.set(meta, n),
                Ok(n) => self.scale.set(meta, n),
                Err(_) => cx.error_spanned_by(&lit, "expected a number of digits, 0 to 38"),
            }
        } else if meta.path.is_ident(ENCODING) {
            let lit: syn::LitStr = meta.value()?.parse()?;
            match ENCODINGS.iter().find(|(name, _)| *name == lit.value()) {
                Some(&(_, variant)) => self.encoding.set(meta, variant),
                None => {
                    let names: Vec<String> =
                        ENCODINGS.iter().map(|(n, _)| format!("\"{n}\"")).collect();
                    cx.error_spanned_by(
                        &lit,
                        format!(
                            "unknown encoding `{}`, expected one of {}",
                            lit.value(),
                            names.join(", ")
                        ),
                    );
                }
            }
        } else if meta.path.is_ident(BLOOM_FILTER) {
            self.bloom_filter.set(meta, ());
        } else if meta.path.is_ident(COMPRESSION) {
            let lit: syn::LitStr = meta.value()?.parse()?;
            match codec(&lit.value()) {
                Ok(codec) => self.compression.set(meta, codec),
                Err(why) => cx.error_spanned_by(&lit, why),
            }
        } else {
            return Ok(false);
        }
        Ok(true)
    }
}

fn path_to_string(path: &syn::Path) -> String {
    path.segments
        .iter()
        .map(|s| s.ident.to_string())
        .collect::<Vec<_>>()
        .join("::")
}

/// ` (did you mean `rename_all`?)` when an attribute name is a typo of a known one.
fn did_you_mean(path: &syn::Path, known: &[&str]) -> String {
    parquet_rows_rules::closest_name(&path_to_string(path), known)
        .map(|name| format!(" (did you mean `{name}`?)"))
        .unwrap_or_default()
}

#[cfg(test)]
mod compression_tests {
    use super::codec;

    #[test]
    fn codec_names_and_levels() {
        assert_eq!(codec("zstd(3)"), Ok(("Zstd", Some(3))));
        assert_eq!(codec("zstd"), Ok(("Zstd", Some(1))));
        assert_eq!(codec("gzip( 9 )"), Ok(("Gzip", Some(9))));
        assert_eq!(codec("lz4_raw"), Ok(("Lz4Raw", None)));
        assert!(codec("snappy(2)").unwrap_err().contains("takes no level"));
        assert!(codec("zstd(x)").unwrap_err().contains("not a number"));
        assert!(codec("zstd(-1)").unwrap_err().contains("not a number"));
        assert!(codec("lzo")
            .unwrap_err()
            .contains("unknown compression `lzo`"));
        assert!(codec("zstd(3")
            .unwrap_err()
            .contains("expected `name(level)`"));
    }
}
