//! `parquet-rows struct`: a `#[derive(ParquetRow)]` struct that reads a file,
//! written from its schema.
//!
//! Each leaf column gets the first field type, in an order of preference
//! ([`leaf_kind`]), that the shared rules (`parquet_rows_rules::FieldKind::reads`)
//! say reads it: the generator never decides on its own which type reads which
//! column, so what it prints binds when the file is opened. OPTIONAL adds
//! `Option<_>`, REPEATED (or a LIST) `Vec<_>`, a MAP `HashMap<K, V>` (or
//! `Vec<(K, V)>` when the key cannot be hashed), and a group one more struct.
//! Lists follow the same backward-compatibility rules as the runtime's
//! binding (a REPEATED child of a LIST with one field is the 3-level form
//! unless named `array` or `<list>_tuple`).
//!
//! A column that no field type reads is left out of the struct, with a
//! comment that names it and says why; the runtime reads only the columns a
//! struct names, so the rest of the file still reads. A file none of whose
//! columns can be typed is an error.

use std::collections::BTreeSet;
use std::fmt::Write as _;
use std::fs::File;
use std::io::{Read, Seek, SeekFrom};
use std::path::Path;

use parquet_rows_rules::{Column, FieldKind, Logical, Node, Repetition, Schema};

use crate::Error;

/// How the struct is written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Options {
    /// The name of the top-level struct.
    pub name: String,
    /// `String` and `Vec<u8>` instead of borrowed `&'a str` and `&'a [u8]`.
    pub owned: bool,
    /// Paths (`a.b`) of OPTIONAL leaf columns known to hold no null
    /// ([`null_free_columns`]): they get a plain field instead of an
    /// `Option<_>`, which reads faster.
    pub null_free: BTreeSet<String>,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            name: "Row".to_owned(),
            owned: false,
            null_free: BTreeSet::new(),
        }
    }
}

/// Opens the file at `path` as the library does, so that no struct is
/// printed for a file that `parquet_rows::ParquetFile::open` refuses, and
/// returns the paths (`a.b`) of the OPTIONAL leaf columns that the
/// statistics of every row group say hold no null.
///
/// Only top-level columns with one OPTIONAL level (the leaf itself) are
/// listed: the library binds a plain field to an OPTIONAL column only at the
/// top level (a nested struct's field on an OPTIONAL column must be an
/// `Option`), and there a null count of 0 means every value is present, so a
/// plain field reads the file (a null met later is an `Err` naming the row,
/// never a default). A row group without a null count for the column, or a
/// file without row groups, keeps the column's `Option<_>`.
pub fn null_free_columns(path: &Path) -> Result<BTreeSet<String>, Error> {
    let file = parquet_rows::ParquetFile::open(path).map_err(|e| {
        Error::new(format!(
            "parquet-rows cannot open `{}`, so no struct would read it: {e}",
            path.display()
        ))
    })?;
    let metadata = file.metadata();
    let schema = metadata.file_metadata().schema_descr();
    let groups = metadata.row_groups();
    let mut out = BTreeSet::new();
    if groups.is_empty() {
        return Ok(out);
    }
    for (i, column) in schema.columns().iter().enumerate() {
        if column.path().parts().len() != 1
            || column.max_rep_level() != 0
            || column.max_def_level() != 1
            || !column.self_type().is_optional()
        {
            continue;
        }
        let no_nulls = groups.iter().all(|group| {
            group
                .columns()
                .get(i)
                .and_then(|chunk| chunk.statistics())
                .and_then(parquet_rows::parquet::file::statistics::Statistics::null_count_opt)
                == Some(0)
        });
        if no_nulls {
            out.insert(column.path().parts().join("."));
        }
    }
    Ok(out)
}

/// Reads the schema from the footer of the Parquet file at `path`, reading
/// only the footer (the file may be large).
pub fn read_schema(path: &Path) -> Result<Schema, Error> {
    let context = |e: std::io::Error| Error::new(format!("cannot read `{}`: {e}", path.display()));
    let mut file = File::open(path).map_err(context)?;
    let len = file.metadata().map_err(context)?.len();
    let not_parquet = |why: String| {
        Error::new(format!(
            "cannot read the schema of `{}`: {why}",
            path.display()
        ))
    };
    if len < 12 {
        return Err(not_parquet(format!(
            "it is not a Parquet file: it is {len} bytes long, and the smallest Parquet file is 12 bytes"
        )));
    }
    let mut head = [0u8; 4];
    file.read_exact(&mut head).map_err(context)?;
    let mut tail = [0u8; 8];
    file.seek(SeekFrom::End(-8)).map_err(context)?;
    file.read_exact(&mut tail).map_err(context)?;
    let footer_len = u64::from(u32::from_le_bytes([tail[0], tail[1], tail[2], tail[3]]));
    // The footer reader of the rules checks magic bytes, lengths and the
    // Thrift structure; give it the file's head, footer and tail, and only
    // bound the read here.
    let footer_len = footer_len.min(len - 12);
    let mut footer = Vec::new();
    file.seek(SeekFrom::Start(len - 8 - footer_len))
        .map_err(context)?;
    file.take(footer_len)
        .read_to_end(&mut footer)
        .map_err(context)?;
    let mut bytes = Vec::with_capacity(footer.len() + 12);
    bytes.extend_from_slice(&head);
    bytes.extend_from_slice(&footer);
    bytes.extend_from_slice(&tail);
    parquet_rows_rules::read_schema(&bytes).map_err(|e| not_parquet(e.to_string()))
}

/// Writes the struct (and its `use` lines and nested structs) that reads
/// files of `schema`; `source` names the file in the struct's doc comment.
pub fn generate(schema: &Schema, source: &str, options: &Options) -> Result<String, Error> {
    if !is_type_name(&options.name) {
        return Err(Error::new(format!(
            "`--name {}` is not a Rust type name: use letters, digits and `_`, starting with a letter",
            options.name
        )));
    }
    let mut gen = Generator {
        owned: options.owned,
        null_free: &options.null_free,
        structs: Vec::new(),
        notes: Vec::new(),
    };
    let root = gen.reserve(&options.name, None);
    let fields = gen.fields(&schema.fields, &options.name, None);
    if fields.iter().all(|f| f.ty.is_err()) {
        let why: Vec<String> = fields
            .iter()
            .filter_map(|f| f.ty.as_ref().err().map(|e| format!("`{}`: {e}", f.column)))
            .collect();
        return Err(Error::new(format!(
            "no column of `{source}` can be read by a field type of parquet-rows{}{}",
            if why.is_empty() { "" } else { ": " },
            why.join("; ")
        )));
    }
    gen.structs[root].fields = fields;
    gen.structs[root].doc = format!("One row of `{source}`.");
    Ok(gen.render())
}

/// The Rust type of one field.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Ty {
    Leaf(FieldKind),
    Option(Box<Ty>),
    Vec(Box<Ty>),
    /// `HashMap<K, V>` when `hashed`, else `Vec<(K, V)>`.
    Map {
        key: Box<Ty>,
        value: Box<Ty>,
        hashed: bool,
    },
    /// An index into `Generator::structs`.
    Struct(usize),
    /// A VARIANT group, shredded or not: `Variant<'a>`, or `OwnedVariant`
    /// when `owned`.
    Variant {
        owned: bool,
    },
}

/// One field of a struct being written; `ty` is why the column is left out
/// when it cannot be typed.
#[derive(Debug)]
struct FieldDef {
    ident: String,
    column: String,
    described: String,
    ty: Result<Ty, String>,
    notes: Vec<String>, // what the user should know about the type chosen
    /// Which of the group's fields named `column` this is, counting from 0,
    /// when the group has several (duckdb writes two top-level `column`s):
    /// `#[parquet(nth = ...)]`, without which binding refuses the name.
    nth: Option<usize>,
}

#[derive(Debug)]
struct StructDef {
    name: String,
    doc: String,
    fields: Vec<FieldDef>,
}

/// Where a node is typed.
#[derive(Debug, Clone)]
struct Site {
    hint: String,  // what a struct made for the node is named after
    owner: String, // the struct that holds the field
    path: String,  // the node's column path, for doc comments
}

impl Site {
    /// The site of `child`, a node inside this one; `hint` names its struct.
    fn inner(&self, child: &Node, hint: String) -> Site {
        Site {
            hint,
            owner: self.owner.clone(),
            path: format!("{}.{}", self.path, child.name()),
        }
    }
}

#[derive(Debug)]
struct Generator<'o> {
    owned: bool,
    null_free: &'o BTreeSet<String>, // paths of OPTIONAL leaves with no null
    structs: Vec<StructDef>,         // invariant: a struct's nested structs come after it
    notes: Vec<String>,              // notes on the field being typed, moved to its `FieldDef`
}

/// Field types in order of preference: the first that reads a column is its
/// type. Dedicated types before the raw integers that also read them;
/// smaller integers first, so an INT(8) annotation gets `i8`. INT96 is read
/// raw, because `Timestamp` (nanoseconds in an `i64`) cannot hold every date
/// Spark and Impala wrote.
const PREFERRED: &[FieldKind] = &[
    FieldKind::Decimal,
    FieldKind::Date,
    FieldKind::Time,
    FieldKind::Int96,
    FieldKind::Timestamp,
    FieldKind::Bool,
    FieldKind::F32,
    FieldKind::F64,
    FieldKind::I8,
    FieldKind::U8,
    FieldKind::I16,
    FieldKind::U16,
    FieldKind::I32,
    FieldKind::U32,
    FieldKind::I64,
    FieldKind::U64,
    FieldKind::Str,
    FieldKind::ByteSlice,
];

/// The field type that reads `column`, borrowed or owned; `None` if no
/// supported type does.
pub fn leaf_kind(column: &Column, owned: bool) -> Option<FieldKind> {
    // UUID and FLOAT16 have a fixed, small length: an array is clearer than
    // a slice (and is `Copy`).
    if matches!(column.logical, Some(Logical::Uuid | Logical::Float16)) {
        if let Ok(n) = usize::try_from(column.length) {
            if FieldKind::FixedBytes(n).reads(column) {
                return Some(FieldKind::FixedBytes(n));
            }
        }
    }
    let kind = PREFERRED.iter().copied().find(|k| k.reads(column))?;
    Some(match kind {
        FieldKind::Str if owned => FieldKind::String,
        FieldKind::ByteSlice if owned => FieldKind::ByteVec,
        other => other,
    })
}

/// How a leaf field type is written; `None` for kinds the generator never
/// picks. Types of parquet-rows are written with their path, so the struct
/// needs no `use` line for them and its names cannot clash with them.
pub fn leaf_type(kind: FieldKind) -> Option<String> {
    Some(
        match kind {
            FieldKind::Bool => "bool",
            FieldKind::I8 => "i8",
            FieldKind::I16 => "i16",
            FieldKind::I32 => "i32",
            FieldKind::I64 => "i64",
            FieldKind::U8 => "u8",
            FieldKind::U16 => "u16",
            FieldKind::U32 => "u32",
            FieldKind::U64 => "u64",
            FieldKind::F32 => "f32",
            FieldKind::F64 => "f64",
            FieldKind::Str => "&'a str",
            FieldKind::String => "String",
            FieldKind::ByteSlice => "&'a [u8]",
            FieldKind::ByteVec => "Vec<u8>",
            FieldKind::FixedBytes(n) => return Some(format!("[u8; {n}]")),
            FieldKind::Timestamp => "parquet_rows::Timestamp",
            FieldKind::Date => "parquet_rows::Date",
            FieldKind::Time => "parquet_rows::Time",
            FieldKind::Int96 => "parquet_rows::Int96",
            FieldKind::Decimal => "parquet_rows::Decimal",
            _ => return None,
        }
        .to_owned(),
    )
}

/// Map keys that `HashMap` takes (`Hash + Eq`).
fn hashable(ty: &Ty) -> bool {
    match ty {
        Ty::Option(inner) => hashable(inner),
        Ty::Leaf(kind) => matches!(
            kind,
            FieldKind::Bool
                | FieldKind::I8
                | FieldKind::I16
                | FieldKind::I32
                | FieldKind::I64
                | FieldKind::U8
                | FieldKind::U16
                | FieldKind::U32
                | FieldKind::U64
                | FieldKind::Str
                | FieldKind::String
                | FieldKind::ByteSlice
                | FieldKind::ByteVec
                | FieldKind::FixedBytes(_)
        ),
        _ => false,
    }
}

impl Generator<'_> {
    /// Reserves a struct named after `hint` (made unique); `parent` prefixes
    /// the name when it is taken.
    fn reserve(&mut self, hint: &str, parent: Option<&str>) -> usize {
        let base = pascal_case(hint);
        let mut name = base.clone();
        if self.taken(&name) {
            if let Some(parent) = parent {
                name = format!("{parent}{base}");
            }
        }
        let mut n = 2;
        while self.taken(&name) {
            name = format!("{base}{n}");
            n += 1;
        }
        self.structs.push(StructDef {
            name,
            doc: String::new(),
            fields: Vec::new(),
        });
        self.structs.len() - 1
    }

    fn taken(&self, name: &str) -> bool {
        RESERVED_TYPES.contains(&name) || self.structs.iter().any(|s| s.name == name)
    }

    /// The fields of a group (or of the message) whose struct is `owner`;
    /// `prefix` is the group's column path.
    fn fields(&mut self, nodes: &[Node], owner: &str, prefix: Option<&str>) -> Vec<FieldDef> {
        let mut out: Vec<FieldDef> = Vec::new();
        for (index, node) in nodes.iter().enumerate() {
            let same_name = |n: &&Node| n.name() == node.name();
            let nth = (nodes.iter().filter(same_name).count() > 1)
                .then(|| nodes[..index].iter().filter(same_name).count());
            let mut ident = field_ident(node.name());
            // `type_2`, not `type__2` (not snake case).
            let base = ident.trim_end_matches('_').to_owned();
            let mut n = 2;
            while out.iter().any(|f| f.ident == ident) {
                ident = format!("{base}_{n}");
                n += 1;
            }
            let mark = self.notes.len();
            let site = Site {
                hint: node.name().to_owned(),
                owner: owner.to_owned(),
                path: prefix.map_or_else(
                    || node.name().to_owned(),
                    |p| format!("{p}.{}", node.name()),
                ),
            };
            let ty = self.node(node, node.repetition(), &site);
            let field_notes = self.notes.split_off(mark);
            out.push(FieldDef {
                ident,
                column: node.name().to_owned(),
                described: node.describe(),
                notes: if ty.is_ok() { field_notes } else { Vec::new() },
                ty,
                nth,
            });
        }
        out
    }

    /// The type of `node`, at `site`, seen with `repetition`.
    fn node(&mut self, node: &Node, repetition: Repetition, site: &Site) -> Result<Ty, String> {
        let mark = self.structs.len();
        let value = match self.value(node, site) {
            Ok(value) => value,
            Err(why) => {
                // Structs made for parts of the node (a map's key when its
                // value fails) are not used.
                self.structs.truncate(mark);
                return Err(why);
            }
        };
        Ok(match repetition {
            Repetition::Required => value,
            // `null_free` lists only leaves with no other OPTIONAL or
            // REPEATED level on their path, so the path identifies them.
            Repetition::Optional
                if matches!(node, Node::Primitive { .. })
                    && self.null_free.contains(&site.path) =>
            {
                self.notes.push(
                    "no nulls in any row group (statistics): a plain field reads faster than `Option<_>`; \
                     use `Option<_>` if other files may hold nulls"
                        .to_owned(),
                );
                value
            }
            Repetition::Optional => Ty::Option(Box::new(value)),
            Repetition::Repeated => Ty::Vec(Box::new(value)),
        })
    }

    /// The type of one value of `node`, its repetition aside.
    fn value(&mut self, node: &Node, site: &Site) -> Result<Ty, String> {
        match node {
            Node::Primitive { column, .. } => {
                let kind = leaf_kind(column, self.owned).ok_or_else(|| {
                    format!("no field type of parquet-rows reads {}", column.describe())
                })?;
                if kind == FieldKind::Int96 {
                    self.notes.push(
                        "`parquet_rows::Timestamp` reads it when every date fits in i64 nanoseconds"
                            .to_owned(),
                    );
                }
                Ok(Ty::Leaf(kind))
            }
            Node::Group { fields, .. } if node.is_map() => match fields.as_slice() {
                [Node::Group {
                    repetition: Repetition::Repeated,
                    fields: pair,
                    ..
                }] if pair.len() == 2 => {
                    let pairs = site.inner(&fields[0], site.hint.clone());
                    let key_site = pairs.inner(&pair[0], format!("{}_key", site.hint));
                    let key = self.node(&pair[0], pair[0].repetition(), &key_site)?;
                    let value_site = pairs.inner(&pair[1], format!("{}_value", site.hint));
                    let value = self.node(&pair[1], pair[1].repetition(), &value_site)?;
                    let hashed = hashable(&key);
                    Ok(Ty::Map {
                        key: Box::new(key),
                        value: Box::new(value),
                        hashed,
                    })
                }
                // A MAP whose key_value group has no value: read as a list
                // of its keys by the LIST rules, as the runtime does.
                [Node::Group {
                    repetition: Repetition::Repeated,
                    ..
                }] => {
                    self.notes
                        .push("a MAP without values: read as the list of its keys".to_owned());
                    self.list(node, fields, site)
                }
                _ => {
                    Err("a MAP group must hold one REPEATED group of a key and a value".to_owned())
                }
            },
            // Before LIST and MAP: a VARIANT group is neither, and the
            // library reads it whole, its `typed_value` tree included.
            // The library reads a variant whose `metadata` is REQUIRED (as the
            // spec says); another group of that shape prints as its columns.
            Node::Group { fields, .. } if node.is_variant() && required_metadata(fields) => {
                Ok(Ty::Variant { owned: self.owned })
            }
            Node::Group { fields, .. } if node.is_list() => self.list(node, fields, site),
            Node::Group { fields, .. } => {
                let index = self.reserve(&site.hint, Some(&site.owner));
                let name = self.structs[index].name.clone();
                let defs = self.fields(fields, &name, Some(&site.path));
                if defs.iter().all(|f| f.ty.is_err()) {
                    // Drops the struct and every struct made for its fields.
                    self.structs.truncate(index);
                    return Err(if defs.is_empty() {
                        "the group has no fields".to_owned()
                    } else {
                        "none of the group's fields can be read".to_owned()
                    });
                }
                self.structs[index].fields = defs;
                self.structs[index].doc = format!("The group `{}`.", site.path);
                Ok(Ty::Struct(index))
            }
        }
    }

    /// The type of a LIST group `node` whose fields are `fields`.
    fn list(&mut self, node: &Node, fields: &[Node], site: &Site) -> Result<Ty, String> {
        let [repeated] = fields else {
            return Err("a LIST group must hold exactly one field".to_owned());
        };
        if repeated.repetition() != Repetition::Repeated {
            return Err("the one field of a LIST group must be REPEATED".to_owned());
        }
        let element_hint = format!("{}_item", site.hint);
        let repeated_site = site.inner(repeated, element_hint.clone());
        let element = match repeated {
            // The standard 3-level form: the repeated group's one field is
            // the element (legacy 2-level names aside).
            Node::Group {
                fields: inner,
                name,
                ..
            } if inner.len() == 1
                && name != "array"
                && *name != format!("{}_tuple", node.name()) =>
            {
                let inner_site = repeated_site.inner(&inner[0], element_hint);
                self.node(&inner[0], inner[0].repetition(), &inner_site)?
            }
            _ => self.value(repeated, &repeated_site)?,
        };
        Ok(Ty::Vec(Box::new(element)))
    }

    /// Which structs borrow from the pages (need `<'a>`).
    fn borrowing(&self) -> Vec<bool> {
        let mut borrows = vec![false; self.structs.len()];
        // Nested structs come after the structs that hold them.
        for i in (0..self.structs.len()).rev() {
            borrows[i] = self.structs[i]
                .fields
                .iter()
                .any(|f| f.ty.as_ref().is_ok_and(|t| ty_borrows(t, &borrows)));
        }
        borrows
    }

    fn render(&self) -> String {
        let borrows = self.borrowing();
        let mut out = String::from("use parquet_rows::ParquetRow;\n");
        let hash_map = self.structs.iter().flat_map(|s| &s.fields).any(|f| {
            f.ty.as_ref()
                .is_ok_and(|t| any(t, &|t| matches!(t, Ty::Map { hashed: true, .. })))
        });
        if hash_map {
            out.push_str("use std::collections::HashMap;\n");
        }
        for (i, s) in self.structs.iter().enumerate() {
            let lifetime = if borrows[i] { "<'a>" } else { "" };
            let _ = write!(
                out,
                "\n/// {}\n#[derive(ParquetRow, Debug)]\npub struct {}{lifetime} {{\n",
                comment_safe(&s.doc),
                s.name
            );
            for f in &s.fields {
                match &f.ty {
                    Ok(ty) => {
                        let mut attrs = Vec::new();
                        if f.ident != f.column {
                            attrs.push(format!("rename = \"{}\"", escape(&f.column)));
                        }
                        if let Some(nth) = f.nth {
                            attrs.push(format!("nth = {nth}"));
                        }
                        if !attrs.is_empty() {
                            let _ = writeln!(out, "    #[parquet({})]", attrs.join(", "));
                        }
                        let mut line =
                            format!("    pub {}: {},", f.ident, self.type_text(ty, &borrows));
                        let _ = write!(line, " // {}", f.described);
                        for note in &f.notes {
                            let _ = write!(line, "; {note}");
                        }
                        out.push_str(&line);
                        out.push('\n');
                    }
                    Err(why) => {
                        let _ = writeln!(
                            out,
                            "    // column `{}` ({}) is left out: {why}",
                            comment_safe(&f.column),
                            f.described
                        );
                    }
                }
            }
            out.push_str("}\n");
        }
        out
    }

    fn type_text(&self, ty: &Ty, borrows: &[bool]) -> String {
        match ty {
            Ty::Leaf(kind) => leaf_type(*kind).unwrap_or_else(|| format!("{kind:?}")),
            Ty::Option(inner) => format!("Option<{}>", self.type_text(inner, borrows)),
            Ty::Vec(inner) => format!("Vec<{}>", self.type_text(inner, borrows)),
            Ty::Map { key, value, hashed } => {
                let (k, v) = (self.type_text(key, borrows), self.type_text(value, borrows));
                if *hashed {
                    format!("HashMap<{k}, {v}>")
                } else {
                    format!("Vec<({k}, {v})>")
                }
            }
            Ty::Struct(i) => {
                let lifetime = if borrows[*i] { "<'a>" } else { "" };
                format!("{}{lifetime}", self.structs[*i].name)
            }
            Ty::Variant { owned: true } => "parquet_rows::variant::OwnedVariant".to_owned(),
            Ty::Variant { owned: false } => "parquet_rows::variant::Variant<'a>".to_owned(),
        }
    }
}

fn ty_borrows(ty: &Ty, borrows: &[bool]) -> bool {
    match ty {
        Ty::Leaf(kind) => matches!(kind, FieldKind::Str | FieldKind::ByteSlice),
        Ty::Option(inner) | Ty::Vec(inner) => ty_borrows(inner, borrows),
        Ty::Map { key, value, .. } => ty_borrows(key, borrows) || ty_borrows(value, borrows),
        Ty::Struct(i) => borrows.get(*i).copied().unwrap_or(false),
        Ty::Variant { owned } => !owned,
    }
}

/// Whether `ty` or a type inside it (not inside a nested struct) is `pred`.
fn any(ty: &Ty, pred: &dyn Fn(&Ty) -> bool) -> bool {
    pred(ty)
        || match ty {
            Ty::Leaf(_) | Ty::Struct(_) | Ty::Variant { .. } => false,
            Ty::Option(inner) | Ty::Vec(inner) => any(inner, pred),
            Ty::Map { key, value, .. } => any(key, pred) || any(value, pred),
        }
}

/// A column name inside a Rust string literal.
fn escape(name: &str) -> String {
    name.escape_default().to_string()
}

/// A column name inside a `//` comment: one line.
fn comment_safe(name: &str) -> String {
    name.escape_debug().to_string()
}

/// Names a struct may not take: the prelude's and those the struct uses.
const RESERVED_TYPES: &[&str] = &[
    "ParquetRow",
    "HashMap",
    "Vec",
    "Option",
    "Some",
    "None",
    "Result",
    "Ok",
    "Err",
    "String",
    "Box",
    "Self",
    "Default",
    "Debug",
    "Clone",
    "Copy",
    "Send",
    "Sync",
    "Sized",
    "Unpin",
    "Drop",
    "Fn",
    "FnMut",
    "FnOnce",
    "From",
    "Into",
    "TryFrom",
    "TryInto",
    "AsRef",
    "AsMut",
    "Iterator",
    "IntoIterator",
    "DoubleEndedIterator",
    "ExactSizeIterator",
    "Extend",
    "FromIterator",
    "PartialEq",
    "Eq",
    "PartialOrd",
    "Ord",
    "ToOwned",
    "ToString",
];

/// Strict and reserved keywords of Rust 2015-2024: not usable as field names.
const KEYWORDS: &[&str] = &[
    "as", "break", "const", "continue", "crate", "else", "enum", "extern", "false", "fn", "for",
    "if", "impl", "in", "let", "loop", "match", "mod", "move", "mut", "pub", "ref", "return",
    "self", "Self", "static", "struct", "super", "trait", "true", "type", "unsafe", "use", "where",
    "while", "async", "await", "dyn", "abstract", "become", "box", "do", "final", "macro",
    "override", "priv", "typeof", "unsized", "virtual", "yield", "try", "gen",
];

/// Whether `name` can be a field name as it is: an ASCII identifier in
/// snake_case (as rustc's `non_snake_case` lint sees it) and no keyword.
pub fn is_snake_ident(name: &str) -> bool {
    let starts_well = name
        .chars()
        .next()
        .is_some_and(|c| c.is_ascii_lowercase() || c == '_');
    starts_well
        && name
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
        && name.chars().any(|c| c.is_ascii_alphanumeric())
        // Inside the name (leading and trailing ones aside), `__` is not snake case.
        && !name.trim_matches('_').contains("__")
        && !KEYWORDS.contains(&name)
}

/// The field name for column `name`: the name itself when it is a valid
/// snake_case identifier, else a snake_case version of it (with a
/// `#[parquet(rename)]` written next to it).
pub fn field_ident(name: &str) -> String {
    if is_snake_ident(name) {
        return name.to_owned();
    }
    let mut ident = words(name).join("_");
    if ident.is_empty() {
        ident.push_str("field");
    }
    if ident.starts_with(|c: char| c.is_ascii_digit()) {
        ident.insert_str(0, "col_");
    }
    if KEYWORDS.contains(&ident.as_str()) {
        ident.push('_');
    }
    ident
}

/// A struct name for a group named `name`, in PascalCase.
pub fn pascal_case(name: &str) -> String {
    let mut out: String = words(name)
        .iter()
        .map(|w| {
            let mut chars = w.chars();
            chars.next().map_or_else(String::new, |first| {
                first.to_ascii_uppercase().to_string() + chars.as_str()
            })
        })
        .collect();
    if out.is_empty() {
        out.push_str("Group");
    }
    if out.starts_with(|c: char| c.is_ascii_digit()) {
        out.insert(0, 'T');
    }
    out
}

/// The lower-case ASCII words of a name: split at anything but letters and
/// digits, and where the case changes (`bigIntCol`, `HTTPCode`).
fn words(name: &str) -> Vec<String> {
    let chars: Vec<char> = name.chars().collect();
    let mut words = Vec::new();
    let mut word = String::new();
    for (i, &c) in chars.iter().enumerate() {
        if !c.is_ascii_alphanumeric() {
            if !word.is_empty() {
                words.push(std::mem::take(&mut word));
            }
            continue;
        }
        if c.is_ascii_uppercase() && !word.is_empty() {
            let prev = chars[i - 1];
            let next_lower = chars.get(i + 1).is_some_and(char::is_ascii_lowercase);
            if prev.is_ascii_lowercase()
                || prev.is_ascii_digit()
                || (prev.is_ascii_uppercase() && next_lower)
            {
                words.push(std::mem::take(&mut word));
            }
        }
        word.push(c.to_ascii_lowercase());
    }
    if !word.is_empty() {
        words.push(word);
    }
    words
}

/// Whether `name` can name the top-level struct.
fn is_type_name(name: &str) -> bool {
    name.chars()
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        && name != "_"
        && !KEYWORDS.contains(&name)
        && !RESERVED_TYPES.contains(&name)
}

/// Whether a VARIANT group's `metadata` is REQUIRED, as the library needs
/// to read it as a variant.
fn required_metadata(fields: &[Node]) -> bool {
    fields.iter().any(|f| {
        f.name() == "metadata"
            && matches!(f, Node::Primitive { column, .. } if column.repetition == Repetition::Required)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use parquet_rows_rules::{parse, recognize, Converted, Field};

    /// `text` parsed, with the top-level column `odd` annotated
    /// TIMESTAMP_MILLIS on INT32, which no field type reads (the parser
    /// refuses to write it, some writers do not).
    fn with_odd_column(text: &str) -> Schema {
        let mut schema = parse(text).unwrap();
        for node in &mut schema.fields {
            if let Node::Primitive { name, column, .. } = node {
                if name == "odd" {
                    column.converted = Converted::TimestampMillis;
                }
            }
        }
        schema
    }

    #[test]
    fn valid_snake_case_names_are_kept() {
        for name in [
            "id",
            "bool_col",
            "x1",
            "_hidden",
            "__index_level_0__",
            "a_b_c",
        ] {
            assert!(is_snake_ident(name), "{name}");
            assert_eq!(field_ident(name), name);
        }
    }

    #[test]
    fn other_names_are_sanitized() {
        let cases = [
            ("PC_CUR", "pc_cur"),
            ("bigIntCol", "big_int_col"),
            ("HTTPCode", "http_code"),
            ("Int32_list", "int32_list"),
            ("a b-c.d", "a_b_c_d"),
            ("a__b", "a_b"),
            ("1st", "col_1st"),
            ("type", "type_"),
            ("Self", "self_"),
            ("gen", "gen_"),
            ("_", "field"),
            ("", "field"),
            ("été", "t"),
        ];
        for (name, ident) in cases {
            assert!(!is_snake_ident(name), "{name}");
            assert_eq!(field_ident(name), ident, "{name}");
            assert!(is_snake_ident(&field_ident(name)), "{name}");
        }
    }

    #[test]
    fn struct_names_are_pascal_case() {
        assert_eq!(pascal_case("customer"), "Customer");
        assert_eq!(pascal_case("key_value"), "KeyValue");
        assert_eq!(pascal_case("PC_CUR"), "PcCur");
        assert_eq!(pascal_case("phoneNumbers"), "PhoneNumbers");
        assert_eq!(pascal_case("2012"), "T2012");
        assert_eq!(pascal_case("--"), "Group");
    }

    /// Each column of the schema text gets the type the comment after it
    /// names, borrowed then owned; and the rules bind that type (with
    /// `Option` for OPTIONAL) to the column.
    #[test]
    fn leaf_types_follow_the_rules() {
        let schema = parse(
            "message m {
                REQUIRED BOOLEAN a;
                REQUIRED INT32 b;
                REQUIRED INT32 c (INT_8);
                REQUIRED INT32 d (UINT_16);
                REQUIRED INT32 e (INTEGER(32, false));
                REQUIRED INT64 f;
                REQUIRED INT64 g (UINT_64);
                REQUIRED INT64 h (TIMESTAMP_MICROS);
                REQUIRED INT64 i (TIMESTAMP(NANOS, false));
                REQUIRED INT96 j;
                REQUIRED INT32 k (DATE);
                REQUIRED INT32 l (TIME_MILLIS);
                REQUIRED INT64 m (TIME(NANOS, true));
                REQUIRED INT32 n (DECIMAL(9, 2));
                REQUIRED FIXED_LEN_BYTE_ARRAY(16) o (DECIMAL(38, 4));
                REQUIRED FLOAT p;
                OPTIONAL DOUBLE q;
                OPTIONAL BYTE_ARRAY r (UTF8);
                REQUIRED BYTE_ARRAY s (JSON);
                REQUIRED BYTE_ARRAY t (ENUM);
                REQUIRED BYTE_ARRAY u;
                REQUIRED FIXED_LEN_BYTE_ARRAY(16) v (UUID);
                REQUIRED FIXED_LEN_BYTE_ARRAY(2) w (FLOAT16);
                REQUIRED FIXED_LEN_BYTE_ARRAY(12) x;
                OPTIONAL INT32 y (UNKNOWN);
            }",
        )
        .unwrap();
        let expected = [
            ("a", "bool", "bool"),
            ("b", "i32", "i32"),
            ("c", "i8", "i8"),
            ("d", "u16", "u16"),
            ("e", "u32", "u32"),
            ("f", "i64", "i64"),
            ("g", "u64", "u64"),
            ("h", "parquet_rows::Timestamp", "parquet_rows::Timestamp"),
            ("i", "parquet_rows::Timestamp", "parquet_rows::Timestamp"),
            ("j", "parquet_rows::Int96", "parquet_rows::Int96"),
            ("k", "parquet_rows::Date", "parquet_rows::Date"),
            ("l", "parquet_rows::Time", "parquet_rows::Time"),
            ("m", "parquet_rows::Time", "parquet_rows::Time"),
            ("n", "parquet_rows::Decimal", "parquet_rows::Decimal"),
            ("o", "parquet_rows::Decimal", "parquet_rows::Decimal"),
            ("p", "f32", "f32"),
            ("q", "f64", "f64"),
            ("r", "&'a str", "String"),
            ("s", "&'a str", "String"),
            ("t", "&'a str", "String"),
            ("u", "&'a [u8]", "Vec<u8>"),
            ("v", "[u8; 16]", "[u8; 16]"),
            ("w", "[u8; 2]", "[u8; 2]"),
            ("x", "&'a [u8]", "Vec<u8>"),
            ("y", "i32", "i32"),
        ];
        assert_eq!(expected.len(), schema.fields.len());
        for (name, borrowed, owned) in expected {
            let column = schema.column(name).unwrap();
            for (owned_flag, text) in [(false, borrowed), (true, owned)] {
                let kind = leaf_kind(column, owned_flag).unwrap();
                assert_eq!(leaf_type(kind).as_deref(), Some(text), "column {name}");
                // The derive's own reading of the type is the same kind ...
                let optional = column.repetition == Repetition::Optional;
                let written = if optional {
                    format!("Option<{text}>")
                } else {
                    text.to_owned()
                };
                let field = recognize(&written, "parquet_rows");
                assert_eq!(field, Field::known(kind, optional), "column {name}");
                // ... and the rules bind it to the column.
                assert!(schema.bind(name, field).is_ok(), "column {name}: {written}");
            }
        }
    }

    #[test]
    fn nested_groups_lists_and_maps() {
        let schema = with_odd_column(
            "message m {
                REQUIRED INT64 id;
                REQUIRED BYTE_ARRAY type (UTF8);
                OPTIONAL group customer {
                    REQUIRED BYTE_ARRAY name (UTF8);
                    OPTIONAL group address { REQUIRED INT32 zip; }
                }
                OPTIONAL group fills (LIST) {
                    REPEATED group list {
                        OPTIONAL group element { REQUIRED DOUBLE price; REQUIRED INT32 qty; }
                    }
                }
                REQUIRED group legacy (LIST) { REPEATED group array { REQUIRED INT32 x; } }
                REQUIRED group ints (LIST) { REPEATED INT32 item; }
                OPTIONAL group attributes (MAP) {
                    REPEATED group key_value {
                        REQUIRED BYTE_ARRAY key (UTF8);
                        OPTIONAL INT64 value;
                    }
                }
                REQUIRED group by_price (MAP) {
                    REPEATED group key_value { REQUIRED DOUBLE key; REQUIRED INT32 value; }
                }
                REPEATED group Address { REQUIRED INT32 zip; }
                REPEATED INT32 codes;
                REQUIRED INT32 odd;
                REQUIRED group bad (LIST) { REQUIRED INT32 a; REQUIRED INT32 b; }
            }",
        );
        let text = generate(&schema, "orders.parquet", &Options::default()).unwrap();
        let expected = r#"use parquet_rows::ParquetRow;
use std::collections::HashMap;

/// One row of `orders.parquet`.
#[derive(ParquetRow, Debug)]
pub struct Row<'a> {
    pub id: i64, // REQUIRED INT64
    #[parquet(rename = "type")]
    pub type_: &'a str, // REQUIRED BYTE_ARRAY (UTF8)
    pub customer: Option<Customer<'a>>, // OPTIONAL group
    pub fills: Option<Vec<Option<FillsItem>>>, // OPTIONAL group (LIST)
    pub legacy: Vec<LegacyItem>, // REQUIRED group (LIST)
    pub ints: Vec<i32>, // REQUIRED group (LIST)
    pub attributes: Option<HashMap<&'a str, Option<i64>>>, // OPTIONAL group (MAP)
    pub by_price: Vec<(f64, i32)>, // REQUIRED group (MAP)
    #[parquet(rename = "Address")]
    pub address: Vec<RowAddress>, // REPEATED group
    pub codes: Vec<i32>, // REPEATED INT32
    // column `odd` (REQUIRED INT32 (TIMESTAMP_MILLIS)) is left out: no field type of parquet-rows reads REQUIRED INT32 (TIMESTAMP_MILLIS)
    // column `bad` (REQUIRED group (LIST)) is left out: a LIST group must hold exactly one field
}

/// The group `customer`.
#[derive(ParquetRow, Debug)]
pub struct Customer<'a> {
    pub name: &'a str, // REQUIRED BYTE_ARRAY (UTF8)
    pub address: Option<Address>, // OPTIONAL group
}

/// The group `customer.address`.
#[derive(ParquetRow, Debug)]
pub struct Address {
    pub zip: i32, // REQUIRED INT32
}

/// The group `fills.list.element`.
#[derive(ParquetRow, Debug)]
pub struct FillsItem {
    pub price: f64, // REQUIRED DOUBLE
    pub qty: i32, // REQUIRED INT32
}

/// The group `legacy.array`.
#[derive(ParquetRow, Debug)]
pub struct LegacyItem {
    pub x: i32, // REQUIRED INT32
}

/// The group `Address`.
#[derive(ParquetRow, Debug)]
pub struct RowAddress {
    pub zip: i32, // REQUIRED INT32
}
"#;
        assert_eq!(text, expected, "{text}");
    }

    #[test]
    fn clashing_names_get_a_suffix_and_odd_names_are_escaped() {
        let schema = parse(
            "message m {
                REQUIRED INT32 type;
                REQUIRED INT32 Type;
                REQUIRED INT32 type_2;
                REQUIRED group kv (MAP) { REPEATED group key_value { REQUIRED INT32 key; } }
            }",
        )
        .unwrap();
        let mut schema = schema;
        // A name the schema text cannot spell: quotes, a backslash, a newline.
        if let Node::Primitive { name, .. } = &mut schema.fields[2] {
            *name = "say \"hi\"\\\n".to_owned();
        }
        let text = generate(&schema, "t.parquet", &Options::default()).unwrap();
        let fields: Vec<&str> = text.lines().skip(5).take(8).collect();
        assert_eq!(
            fields,
            [
                "    #[parquet(rename = \"type\")]",
                "    pub type_: i32, // REQUIRED INT32",
                "    #[parquet(rename = \"Type\")]",
                "    pub type_2: i32, // REQUIRED INT32",
                "    #[parquet(rename = \"say \\\"hi\\\"\\\\\\n\")]",
                "    pub say_hi: i32, // REQUIRED INT32",
                "    pub kv: Vec<i32>, // REQUIRED group (MAP); a MAP without values: read as the list of its keys",
                "}",
            ],
            "{text}"
        );
    }

    #[test]
    fn duplicate_names_get_nth() {
        // duckdb writes a file whose two top-level columns are both `column`.
        let schema = parse(
            "message m {
                OPTIONAL INT32 column;
                OPTIONAL INT64 id;
                OPTIONAL BYTE_ARRAY column (UTF8);
            }",
        )
        .unwrap();
        let text = generate(&schema, "t.parquet", &Options::default()).unwrap();
        let fields: Vec<&str> = text.lines().skip(5).take(5).collect();
        assert_eq!(
            fields,
            [
                "    #[parquet(nth = 0)]",
                "    pub column: Option<i32>, // OPTIONAL INT32",
                "    pub id: Option<i64>, // OPTIONAL INT64",
                "    #[parquet(rename = \"column\", nth = 1)]",
                "    pub column_2: Option<&'a str>, // OPTIONAL BYTE_ARRAY (UTF8)",
            ],
            "{text}"
        );
    }

    #[test]
    fn owned_structs_have_no_lifetime() {
        let schema = parse(
            "message m { OPTIONAL BYTE_ARRAY s (UTF8); OPTIONAL group g { REQUIRED BYTE_ARRAY b; } }",
        )
        .unwrap();
        let options = Options {
            name: "Tick".to_owned(),
            owned: true,
            ..Options::default()
        };
        let text = generate(&schema, "t.parquet", &options).unwrap();
        assert!(
            text.contains("pub struct Tick {\n    pub s: Option<String>,"),
            "{text}"
        );
        assert!(text.contains("pub g: Option<G>,"), "{text}");
        assert!(
            text.contains("pub struct G {\n    pub b: Vec<u8>,"),
            "{text}"
        );
        assert!(!text.contains("'a"), "{text}");
    }

    #[test]
    fn variant_groups_are_variant_fields() {
        // Shredded (a `typed_value` object) and unshredded, by shape.
        let schema = parse(
            "message m {
              OPTIONAL INT64 id;
              OPTIONAL group v {
                REQUIRED BYTE_ARRAY metadata;
                OPTIONAL BYTE_ARRAY value;
                OPTIONAL group typed_value {
                  REQUIRED group price { OPTIONAL BYTE_ARRAY value; OPTIONAL DOUBLE typed_value; }
                }
              }
              REQUIRED group plain { REQUIRED BYTE_ARRAY metadata; REQUIRED BYTE_ARRAY value; }
            }",
        )
        .unwrap();
        let text = generate(&schema, "v.parquet", &Options::default()).unwrap();
        assert!(
            text.contains("pub v: Option<parquet_rows::variant::Variant<'a>>,"),
            "{text}"
        );
        assert!(
            text.contains("pub plain: parquet_rows::variant::Variant<'a>,"),
            "{text}"
        );
        assert!(text.contains("pub struct Row<'a>"), "{text}");
        assert!(!text.contains("typed_value"), "{text}");
        let owned = Options {
            owned: true,
            ..Options::default()
        };
        let text = generate(&schema, "v.parquet", &owned).unwrap();
        assert!(
            text.contains("pub v: Option<parquet_rows::variant::OwnedVariant>,"),
            "{text}"
        );
        assert!(!text.contains("'a"), "{text}");
        // An OPTIONAL `metadata` (duckdb's variant_timestamp_micros_positive
        // test file) is not a variant the library reads: its columns print.
        let schema =
            parse("message m { OPTIONAL group v { OPTIONAL BYTE_ARRAY metadata; OPTIONAL BYTE_ARRAY value; } }")
                .unwrap();
        let text = generate(&schema, "v.parquet", &Options::default()).unwrap();
        assert!(!text.contains("Variant"), "{text}");
        assert!(text.contains("pub metadata: Option<&'a [u8]>,"), "{text}");
    }

    #[test]
    fn a_file_with_no_readable_column_is_an_error() {
        let schema = with_odd_column("message m { REQUIRED INT32 odd; }");
        let err = generate(&schema, "t.parquet", &Options::default()).unwrap_err();
        assert_eq!(
            err.to_string(),
            "no column of `t.parquet` can be read by a field type of parquet-rows: `odd`: no field \
             type of parquet-rows reads REQUIRED INT32 (TIMESTAMP_MILLIS)"
        );
        let schema = parse("message m { REQUIRED INT32 a; }").unwrap();
        for name in ["tick", "Tick"] {
            let options = Options {
                name: name.to_owned(),
                owned: false,
                ..Options::default()
            };
            assert!(generate(&schema, "t.parquet", &options).is_ok(), "{name}");
        }
        for name in ["1Tick", "Tick-2", "type", "Vec", ""] {
            let options = Options {
                name: name.to_owned(),
                owned: false,
                ..Options::default()
            };
            let err = generate(&schema, "t.parquet", &options).unwrap_err();
            assert!(
                err.to_string().contains("is not a Rust type name"),
                "{name}"
            );
        }
    }

    #[test]
    fn optional_leaves_without_nulls_get_plain_fields() {
        let schema = parse(
            "message m { OPTIONAL INT64 a; OPTIONAL INT64 b; OPTIONAL group g { OPTIONAL BYTE_ARRAY s (UTF8); } \
             REQUIRED group r { OPTIONAL DOUBLE x; } }",
        )
        .unwrap();
        let options = Options {
            null_free: ["a"].iter().map(|p| (*p).to_owned()).collect(),
            ..Options::default()
        };
        let text = generate(&schema, "t.parquet", &options).unwrap();
        let note = "no nulls in any row group (statistics): a plain field reads faster than \
                    `Option<_>`; use `Option<_>` if other files may hold nulls";
        assert!(
            text.contains(&format!("    pub a: i64, // OPTIONAL INT64; {note}\n")),
            "{text}"
        );
        assert!(
            text.contains("    pub b: Option<i64>, // OPTIONAL INT64\n"),
            "{text}"
        );
        // Nested leaves are never listed (`null_free_columns`): a nested
        // struct's field on an OPTIONAL column must be an `Option`.
        assert!(
            text.contains("    pub x: Option<f64>, // OPTIONAL DOUBLE\n"),
            "{text}"
        );
        // A group stays `Option<_>`: only leaves are listed.
        assert!(text.contains("pub g: Option<G<'a>>,"), "{text}");
    }
}
