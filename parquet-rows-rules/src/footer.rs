//! Reads the schema out of a Parquet file's footer, for
//! `#[parquet(schema_file = "...")]` at compile time.
//!
//! A Parquet file ends with its metadata, a Thrift `FileMetaData` struct in the
//! compact protocol, then the metadata's length (4 bytes, little endian) and the
//! magic `PAR1`; it also starts with `PAR1`
//! (<https://github.com/apache/parquet-format#file-format>). The schema is field 2
//! of `FileMetaData`, a list of `SchemaElement`s in depth-first order, each group
//! saying how many children follow it
//! (<https://github.com/apache/parquet-format/blob/master/src/main/thrift/parquet.thrift>).
//!
//! Only that list is decoded; every other field is skipped, and reading stops
//! once the schema is read. The derive reads the file as untrusted input: every
//! length is checked against the bytes left before anything is allocated,
//! nesting is bounded, and malformed bytes are an `Err`, never a panic.
//!
//! Thrift compact protocol, as far as this reader needs it
//! (<https://github.com/apache/thrift/blob/master/doc/specs/thrift-compact-protocol.md>):
//!
//! ```text
//! struct        := field* stop
//! field         := header value          header: 1 byte, delta:4 | type:4 (delta 0: zigzag varint id follows)
//! stop          := 0x00
//! i8            := 1 byte;  i16, i32, i64 := zigzag ULEB128 varint;  double := 8 bytes
//! binary        := varint length, bytes
//! list, set     := size:4 | elem type:4 (size 15: varint size follows), elements
//! map           := varint size, (if size > 0) key type:4 | value type:4, entries
//! bool          := in a field header's type (1 true, 2 false); one byte in a list
//! ```

use std::fmt;

use crate::column::{Column, Converted, Logical, Physical, Repetition, TimeUnit};
use crate::schema::{Node, Schema};

/// Why a file's footer gives no schema.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FooterError {
    /// The bytes are not a Parquet file.
    NotParquet(String),
    /// The footer is encrypted (magic `PARE`).
    Encrypted,
    /// The footer is damaged.
    Corrupt(String),
}

impl fmt::Display for FooterError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FooterError::NotParquet(why) => write!(f, "it is not a Parquet file: {why}"),
            FooterError::Encrypted => write!(
                f,
                "its footer is encrypted (magic `PARE`); the schema can only be read from a plaintext footer"
            ),
            FooterError::Corrupt(why) => write!(f, "its footer is corrupt: {why}"),
        }
    }
}

impl std::error::Error for FooterError {}

const MAGIC: &[u8; 4] = b"PAR1";
const MAGIC_ENCRYPTED: &[u8; 4] = b"PARE";
/// Deepest struct nesting skipped, and deepest group nesting in a schema.
const MAX_DEPTH: usize = 64;

/// Reads the schema from the bytes of a whole Parquet file.
pub fn read_schema(file: &[u8]) -> Result<Schema, FooterError> {
    let len = file.len();
    if len < 12 {
        return Err(FooterError::NotParquet(format!(
            "it is {len} bytes long, and the smallest Parquet file is 12 bytes"
        )));
    }
    let tail = &file[len - 4..];
    if tail == MAGIC_ENCRYPTED {
        return Err(FooterError::Encrypted);
    }
    if tail != MAGIC || &file[..4] != MAGIC {
        return Err(FooterError::NotParquet(
            "it does not start and end with the magic bytes `PAR1`".to_owned(),
        ));
    }
    let footer_len =
        u32::from_le_bytes([file[len - 8], file[len - 7], file[len - 6], file[len - 5]]);
    let footer_len = usize::try_from(footer_len).unwrap_or(usize::MAX);
    if footer_len > len - 12 {
        return Err(FooterError::Corrupt(format!(
            "the footer length {footer_len} is larger than the file ({len} bytes)"
        )));
    }
    let footer = &file[len - 8 - footer_len..len - 8];
    schema_from_metadata(footer)
}

/// Reads the schema from a serialized `FileMetaData`.
pub fn schema_from_metadata(metadata: &[u8]) -> Result<Schema, FooterError> {
    let mut reader = Reader {
        buf: metadata,
        pos: 0,
    };
    let elements = reader.file_metadata()?;
    build(&elements)
}

/// Deepest group nesting [`check_schema`] accepts by default: deeper than
/// any schema writers make (a list of lists of structs is a handful of
/// levels), shallow enough that building the tree by recursion cannot
/// overflow a 2 MiB thread's stack.
pub const MAX_SCHEMA_DEPTH: usize = 256;

/// Checks the schema of a serialized `FileMetaData` before a tree is built
/// from it (the `parquet` crate's builder recurses once per level and
/// reserves each group's claimed child count): every child count must be
/// non-negative and fit the elements left, groups may nest at most
/// `max_depth` deep, and the root's subtree must be the whole list.
///
/// The walk keeps, for each open group, the children it still expects: no
/// recursion, and nothing reserved beyond `max_depth` entries.
pub fn check_schema(metadata: &[u8], max_depth: usize) -> Result<(), FooterError> {
    let mut reader = Reader {
        buf: metadata,
        pos: 0,
    };
    check_elements(&reader.file_metadata()?, max_depth)
}

fn check_elements(elements: &[Element], max_depth: usize) -> Result<(), FooterError> {
    let mut open: Vec<(usize, &str)> = Vec::new(); // (children still expected, group name), innermost last
    let mut pending = 0usize; // children still expected by all open groups
    for (i, e) in elements.iter().enumerate() {
        while open.last().is_some_and(|&(left, _)| left == 0) {
            open.pop();
        }
        match open.last_mut() {
            Some((left, _)) => {
                *left -= 1;
                pending -= 1;
            }
            None if i > 0 => {
                return Err(corrupt(format!(
                    "elements left after the root's subtree: {}",
                    elements.len() - i
                )));
            }
            None => {}
        }
        let n = e.num_children.unwrap_or(0);
        let n = usize::try_from(n)
            .map_err(|_| corrupt(format!("group `{}` has a negative child count {n}", e.name)))?;
        if n == 0 {
            continue;
        }
        // Every child still expected takes at least one of the elements left.
        let room = (elements.len() - i - 1).saturating_sub(pending);
        if n > room {
            return Err(corrupt(format!(
                "group `{}` claims {n} children but the schema has room for {room}",
                e.name
            )));
        }
        pending += n;
        if open.len() >= max_depth {
            return Err(corrupt(format!(
                "groups are nested more than {max_depth} deep"
            )));
        }
        open.push((n, &e.name));
    }
    if let Some(&(_, name)) = open.iter().rev().find(|&&(left, _)| left > 0) {
        return Err(corrupt(format!(
            "the schema ends before the children of group `{name}`"
        )));
    }
    Ok(())
}

pub(crate) fn corrupt(why: impl Into<String>) -> FooterError {
    FooterError::Corrupt(why.into())
}

/// Compact protocol type ids.
pub(crate) mod ty {
    pub const STOP: u8 = 0;
    pub const TRUE: u8 = 1;
    pub const FALSE: u8 = 2;
    pub const I8: u8 = 3;
    pub const I16: u8 = 4;
    pub const I32: u8 = 5;
    pub const I64: u8 = 6;
    pub const DOUBLE: u8 = 7;
    pub const BINARY: u8 = 8;
    pub const LIST: u8 = 9;
    pub const SET: u8 = 10;
    pub const MAP: u8 = 11;
    pub const STRUCT: u8 = 12;
}

/// One `SchemaElement`, as in the file.
#[derive(Debug, Default)]
struct Element {
    physical: Option<i32>,
    type_length: Option<i32>,
    repetition: Option<i32>,
    name: String,
    num_children: Option<i32>,
    converted: Option<i32>,
    scale: Option<i32>,
    precision: Option<i32>,
    field_id: Option<i32>,
    logical: Option<Logical>,
}

/// A compact-protocol reader over untrusted bytes (shared with `page_header`).
pub(crate) struct Reader<'a> {
    pub(crate) buf: &'a [u8],
    pub(crate) pos: usize, // invariant: <= buf.len()
}

impl Reader<'_> {
    pub(crate) fn left(&self) -> usize {
        self.buf.len() - self.pos
    }

    pub(crate) fn byte(&mut self) -> Result<u8, FooterError> {
        let b = *self
            .buf
            .get(self.pos)
            .ok_or_else(|| corrupt("it ends in the middle of a value"))?;
        self.pos += 1;
        Ok(b)
    }

    pub(crate) fn skip_bytes(&mut self, n: usize) -> Result<(), FooterError> {
        if n > self.left() {
            return Err(corrupt(format!("a value of {n} bytes runs past its end")));
        }
        self.pos += n;
        Ok(())
    }

    pub(crate) fn varint(&mut self) -> Result<u64, FooterError> {
        let mut value = 0u64;
        for shift in (0..64).step_by(7) {
            let b = self.byte()?;
            value |= u64::from(b & 0x7f) << shift;
            if b & 0x80 == 0 {
                return Ok(value);
            }
        }
        Err(corrupt("a varint is longer than 10 bytes"))
    }

    pub(crate) fn zigzag(&mut self) -> Result<i64, FooterError> {
        let v = self.varint()?;
        Ok((v >> 1) as i64 ^ -((v & 1) as i64))
    }

    pub(crate) fn i32(&mut self) -> Result<i32, FooterError> {
        i32::try_from(self.zigzag()?).map_err(|_| corrupt("an i32 is out of range"))
    }

    pub(crate) fn binary(&mut self) -> Result<&[u8], FooterError> {
        let len = usize::try_from(self.varint()?).unwrap_or(usize::MAX);
        let start = self.pos;
        self.skip_bytes(len)?;
        Ok(&self.buf[start..start + len])
    }

    /// The next field's (id, type), or `None` at the struct's stop byte.
    pub(crate) fn field(&mut self, last_id: &mut i16) -> Result<Option<(i16, u8)>, FooterError> {
        let header = self.byte()?;
        let kind = header & 0x0f;
        if kind == ty::STOP {
            return Ok(None);
        }
        let delta = header >> 4;
        let id = if delta == 0 {
            i16::try_from(self.zigzag()?).map_err(|_| corrupt("a field id is out of range"))?
        } else {
            last_id.wrapping_add(i16::from(delta))
        };
        *last_id = id;
        Ok(Some((id, kind)))
    }

    /// A list or set header: (element type, size), the size checked against
    /// the bytes left (every element takes at least one byte).
    pub(crate) fn list(&mut self) -> Result<(u8, usize), FooterError> {
        let header = self.byte()?;
        let short = usize::from(header >> 4);
        let size = if short == 15 {
            usize::try_from(self.varint()?).unwrap_or(usize::MAX)
        } else {
            short
        };
        if size > self.left() {
            return Err(corrupt(format!(
                "a list of {size} elements is longer than the footer"
            )));
        }
        Ok((header & 0x0f, size))
    }

    /// Skips a value of compact type `kind` (inside a field: booleans are in the header).
    pub(crate) fn skip(&mut self, kind: u8, depth: usize) -> Result<(), FooterError> {
        if depth > MAX_DEPTH {
            return Err(corrupt("values are nested too deep"));
        }
        match kind {
            ty::TRUE | ty::FALSE => Ok(()),
            ty::I8 => self.skip_bytes(1),
            ty::I16 | ty::I32 | ty::I64 => self.varint().map(drop),
            ty::DOUBLE => self.skip_bytes(8),
            ty::BINARY => self.binary().map(drop),
            ty::LIST | ty::SET => {
                let (elem, size) = self.list()?;
                for _ in 0..size {
                    self.skip_element(elem, depth + 1)?;
                }
                Ok(())
            }
            ty::MAP => {
                let size = usize::try_from(self.varint()?).unwrap_or(usize::MAX);
                if size == 0 {
                    return Ok(());
                }
                if size > self.left() {
                    return Err(corrupt("a map is longer than the footer"));
                }
                let types = self.byte()?;
                for _ in 0..size {
                    self.skip_element(types >> 4, depth + 1)?;
                    self.skip_element(types & 0x0f, depth + 1)?;
                }
                Ok(())
            }
            ty::STRUCT => self.skip_struct(depth + 1),
            other => Err(corrupt(format!("unknown compact type {other}"))),
        }
    }

    /// Skips a list element or map entry (booleans take a byte there).
    pub(crate) fn skip_element(&mut self, kind: u8, depth: usize) -> Result<(), FooterError> {
        if kind == ty::TRUE || kind == ty::FALSE {
            self.skip_bytes(1)
        } else {
            self.skip(kind, depth)
        }
    }

    pub(crate) fn skip_struct(&mut self, depth: usize) -> Result<(), FooterError> {
        let mut last = 0;
        while let Some((_, kind)) = self.field(&mut last)? {
            self.skip(kind, depth)?;
        }
        Ok(())
    }

    /// `FileMetaData`: returns field 2, the schema elements.
    fn file_metadata(&mut self) -> Result<Vec<Element>, FooterError> {
        let mut last = 0;
        while let Some((id, kind)) = self.field(&mut last)? {
            if id == 2 && kind == ty::LIST {
                let (elem, size) = self.list()?;
                if elem != ty::STRUCT {
                    return Err(corrupt("the schema is not a list of structs"));
                }
                let mut elements = Vec::with_capacity(size);
                for _ in 0..size {
                    elements.push(self.element()?);
                }
                return Ok(elements);
            }
            self.skip(kind, 0)?;
        }
        Err(corrupt("it has no schema (field 2 of FileMetaData)"))
    }

    /// Reads an i32 field of compact type `kind`, or skips a mistyped one.
    fn i32_field(&mut self, kind: u8) -> Result<Option<i32>, FooterError> {
        if kind == ty::I32 {
            self.i32().map(Some)
        } else {
            self.skip(kind, 0).map(|()| None)
        }
    }

    fn element(&mut self) -> Result<Element, FooterError> {
        let mut e = Element::default();
        let mut last = 0;
        while let Some((id, kind)) = self.field(&mut last)? {
            match (id, kind) {
                (1, _) => e.physical = self.i32_field(kind)?,
                (2, _) => e.type_length = self.i32_field(kind)?,
                (3, _) => e.repetition = self.i32_field(kind)?,
                (4, ty::BINARY) => {
                    e.name = String::from_utf8(self.binary()?.to_vec())
                        .map_err(|_| corrupt("a column name is not UTF-8"))?;
                }
                (5, _) => e.num_children = self.i32_field(kind)?,
                (6, _) => e.converted = self.i32_field(kind)?,
                (7, _) => e.scale = self.i32_field(kind)?,
                (8, _) => e.precision = self.i32_field(kind)?,
                (9, _) => e.field_id = self.i32_field(kind)?,
                (10, ty::STRUCT) => e.logical = self.logical_type()?,
                _ => self.skip(kind, 0)?,
            }
        }
        Ok(e)
    }

    /// The `LogicalType` union: its one set field says which type it is.
    fn logical_type(&mut self) -> Result<Option<Logical>, FooterError> {
        let mut logical = None;
        let mut last = 0;
        while let Some((id, kind)) = self.field(&mut last)? {
            if kind != ty::STRUCT {
                self.skip(kind, 1)?;
                continue;
            }
            logical = Some(match id {
                1 => self.empty(Logical::String)?,
                2 => self.empty(Logical::Map)?,
                3 => self.empty(Logical::List)?,
                4 => self.empty(Logical::Enum)?,
                5 => {
                    let (mut scale, mut precision) = (0, 0);
                    let mut last = 0;
                    while let Some((id, kind)) = self.field(&mut last)? {
                        match id {
                            1 => scale = self.i32_field(kind)?.unwrap_or(0),
                            2 => precision = self.i32_field(kind)?.unwrap_or(0),
                            _ => self.skip(kind, 2)?,
                        }
                    }
                    Logical::Decimal { precision, scale }
                }
                6 => self.empty(Logical::Date)?,
                7 | 8 => {
                    let (unit, utc) = self.time_type()?;
                    if id == 7 {
                        Logical::Time { unit, utc }
                    } else {
                        Logical::Timestamp { unit, utc }
                    }
                }
                10 => {
                    let (mut bits, mut signed) = (0i8, true);
                    let mut last = 0;
                    while let Some((id, kind)) = self.field(&mut last)? {
                        match (id, kind) {
                            (1, ty::I8) => bits = self.byte()? as i8,
                            (2, ty::TRUE | ty::FALSE) => signed = kind == ty::TRUE,
                            _ => self.skip(kind, 2)?,
                        }
                    }
                    Logical::Integer { bits, signed }
                }
                11 => self.empty(Logical::Unknown)?,
                12 => self.empty(Logical::Json)?,
                13 => self.empty(Logical::Bson)?,
                14 => self.empty(Logical::Uuid)?,
                15 => self.empty(Logical::Float16)?,
                16 => self.empty(Logical::Other("VARIANT".to_owned()))?,
                17 => self.empty(Logical::Other("GEOMETRY".to_owned()))?,
                18 => self.empty(Logical::Other("GEOGRAPHY".to_owned()))?,
                19 => self.empty(Logical::Other("FILE".to_owned()))?,
                other => self.empty(Logical::Other(format!("LOGICAL TYPE {other}")))?,
            });
        }
        Ok(logical)
    }

    /// Skips the (empty or ignored) fields of a struct and returns `logical`.
    fn empty(&mut self, logical: Logical) -> Result<Logical, FooterError> {
        self.skip_struct(2)?;
        Ok(logical)
    }

    /// `TimeType` / `TimestampType`: (unit, isAdjustedToUTC).
    fn time_type(&mut self) -> Result<(TimeUnit, bool), FooterError> {
        let (mut unit, mut utc) = (TimeUnit::Millis, false);
        let mut last = 0;
        while let Some((id, kind)) = self.field(&mut last)? {
            match (id, kind) {
                (1, ty::TRUE | ty::FALSE) => utc = kind == ty::TRUE,
                (2, ty::STRUCT) => {
                    let mut last = 0;
                    while let Some((id, kind)) = self.field(&mut last)? {
                        match id {
                            1 => unit = TimeUnit::Millis,
                            2 => unit = TimeUnit::Micros,
                            3 => unit = TimeUnit::Nanos,
                            _ => {}
                        }
                        self.skip(kind, 3)?;
                    }
                }
                _ => self.skip(kind, 2)?,
            }
        }
        Ok((unit, utc))
    }
}

/// Builds the tree from the depth-first list of elements.
fn build(elements: &[Element]) -> Result<Schema, FooterError> {
    let root = elements
        .first()
        .ok_or_else(|| corrupt("the schema has no root element"))?;
    let mut next = 1;
    let fields = children(elements, root, &mut next, 0)?;
    Ok(Schema {
        name: root.name.clone(),
        fields,
    })
}

fn children(
    elements: &[Element],
    parent: &Element,
    next: &mut usize,
    depth: usize,
) -> Result<Vec<Node>, FooterError> {
    if depth > MAX_DEPTH {
        return Err(corrupt("groups are nested too deep"));
    }
    let count = usize::try_from(parent.num_children.unwrap_or(0)).map_err(|_| {
        corrupt(format!(
            "group `{}` has a negative child count",
            parent.name
        ))
    })?;
    if count > elements.len() - *next {
        return Err(corrupt(format!(
            "group `{}` has more children than the schema has elements",
            parent.name
        )));
    }
    let mut nodes = Vec::with_capacity(count);
    for _ in 0..count {
        let e = &elements[*next];
        *next += 1;
        let repetition = e
            .repetition
            .and_then(Repetition::from_thrift)
            .ok_or_else(|| corrupt(format!("field `{}` has no valid repetition", e.name)))?;
        let converted = match e.converted {
            Some(c) => Converted::from_thrift(c).ok_or_else(|| {
                corrupt(format!(
                    "field `{}` has an unknown converted type {c}",
                    e.name
                ))
            })?,
            None => e
                .logical
                .as_ref()
                .map_or(Converted::None, Converted::from_logical),
        };
        let is_group = e.num_children.is_some_and(|n| n > 0) || e.physical.is_none();
        if is_group {
            nodes.push(Node::Group {
                name: e.name.clone(),
                repetition,
                logical: e.logical.clone(),
                converted,
                id: e.field_id,
                fields: children(elements, e, next, depth + 1)?,
            });
        } else {
            let physical = e.physical.and_then(Physical::from_thrift).ok_or_else(|| {
                corrupt(format!("column `{}` has an unknown physical type", e.name))
            })?;
            nodes.push(Node::Primitive {
                name: e.name.clone(),
                column: Column {
                    physical,
                    length: e.type_length.unwrap_or(-1),
                    repetition,
                    logical: e.logical.clone(),
                    converted,
                    precision: e.precision.unwrap_or(-1),
                    scale: e.scale.unwrap_or(-1),
                },
                id: e.field_id,
            });
        }
    }
    Ok(nodes)
}

/// An annotation [`drop_refused_annotations`] took out of a schema element.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DroppedAnnotation {
    /// The column's index among the leaves (depth first), for a leaf.
    pub leaf: Option<usize>,
    /// The element's name.
    pub name: String,
    /// What was dropped, and why.
    pub why: String,
}

/// A footer rewritten by [`drop_refused_annotations`], and what it dropped.
pub type Sanitized = (Vec<u8>, Vec<DroppedAnnotation>);

/// The largest Thrift `ConvertedType` (INTERVAL): larger values are unknown.
const MAX_CONVERTED: i32 = 21;
/// The `LogicalType` union's UNKNOWN member (Arrow's null type).
const LOGICAL_UNKNOWN: i16 = 11;

/// Takes out of a serialized `FileMetaData` the schema annotations that the
/// `parquet` crate refuses to open a file with, although pyarrow and duckdb
/// read the file:
///
/// - a converted type Thrift does not define (parquet-cpp 1.5.1 wrote 24:
///   "Unexpected ConvertedType 24");
/// - an UNKNOWN logical type beside a converted type (Drill wrote it with
///   INTERVAL: "Logical type Unknown is incompatible with converted type
///   INTERVAL"); the converted type stays.
///
/// Returns the rewritten bytes and what was dropped, or `None` when nothing
/// was (the bytes are then used as they are). Only the schema list is
/// rewritten: each element's fields are copied, with the field headers after
/// a dropped field re-encoded (compact Thrift encodes a field's id as the
/// difference from the previous one's).
pub fn drop_refused_annotations(metadata: &[u8]) -> Result<Option<Sanitized>, FooterError> {
    let mut r = Reader {
        buf: metadata,
        pos: 0,
    };
    let mut out = Vec::with_capacity(metadata.len());
    let mut dropped = Vec::new();
    let mut last = 0;
    loop {
        let start = r.pos;
        let Some((id, kind)) = r.field(&mut last)? else {
            break;
        };
        if id != 2 || kind != ty::LIST {
            r.skip(kind, 0)?;
            out.extend_from_slice(&metadata[start..r.pos]);
            continue;
        }
        let (elem, size) = r.list()?;
        out.extend_from_slice(&metadata[start..r.pos]);
        if elem != ty::STRUCT {
            return Err(corrupt("the schema is not a list of structs"));
        }
        let mut leaves = 0;
        for index in 0..size {
            rewrite_element(&mut r, index, &mut leaves, &mut out, &mut dropped)?;
        }
    }
    out.push(ty::STOP);
    out.extend_from_slice(&metadata[r.pos..]);
    Ok((!dropped.is_empty()).then_some((out, dropped)))
}

/// Copies schema element `index` from `r` to `out`, without the annotations
/// [`drop_refused_annotations`] drops (recorded in `dropped`); `leaves`
/// counts the leaves seen so far.
fn rewrite_element(
    r: &mut Reader<'_>,
    index: usize,
    leaves: &mut usize,
    out: &mut Vec<u8>,
    dropped: &mut Vec<DroppedAnnotation>,
) -> Result<(), FooterError> {
    // (id, kind, the value's bytes)
    let mut fields = Vec::new();
    let mut last = 0;
    while let Some((id, kind)) = r.field(&mut last)? {
        let start = r.pos;
        r.skip(kind, 0)?;
        fields.push((id, kind, start..r.pos));
    }
    let value = |id: i16, kind: u8| {
        fields
            .iter()
            .find(|f| f.0 == id && f.1 == kind)
            .map(|f| Reader {
                buf: &r.buf[f.2.clone()],
                pos: 0,
            })
    };
    let converted = value(6, ty::I32).map(|mut v| v.i32()).transpose()?;
    // The union's member: the id of the logical type struct's one field.
    let logical = match value(10, ty::STRUCT) {
        Some(mut v) => v.field(&mut 0)?.map(|(id, _)| id),
        None => None,
    };
    let name = match value(4, ty::BINARY) {
        Some(mut v) => String::from_utf8_lossy(v.binary()?).into_owned(),
        None => String::new(),
    };
    let children = value(5, ty::I32).map(|mut v| v.i32()).transpose()?;
    let leaf = (index > 0 && matches!(children, None | Some(0))).then(|| {
        *leaves += 1;
        *leaves - 1
    });
    let mut drop_ids = Vec::new();
    if let Some(c) = converted.filter(|c| !(0..=MAX_CONVERTED).contains(c)) {
        drop_ids.push(6);
        dropped.push(DroppedAnnotation {
            leaf,
            name: name.clone(),
            why: format!("converted type {c}, which parquet-format does not define"),
        });
    }
    if logical == Some(LOGICAL_UNKNOWN) && converted.is_some() && !drop_ids.contains(&6) {
        drop_ids.push(10);
        dropped.push(DroppedAnnotation {
            leaf,
            name,
            why: format!(
                "logical type UNKNOWN beside converted type {}",
                converted.map_or_else(String::new, converted_name)
            ),
        });
    }
    let mut last = 0i16;
    for (id, kind, bytes) in fields {
        if drop_ids.contains(&id) {
            continue;
        }
        match id.checked_sub(last).filter(|d| (1..=15).contains(d)) {
            Some(delta) => out.push((delta as u8) << 4 | kind),
            None => {
                out.push(kind);
                let zigzag = (i64::from(id) << 1 ^ i64::from(id) >> 63) as u64;
                write_varint(out, zigzag);
            }
        }
        last = id;
        out.extend_from_slice(&r.buf[bytes]);
    }
    out.push(ty::STOP);
    Ok(())
}

fn write_varint(out: &mut Vec<u8>, mut v: u64) {
    while v >= 0x80 {
        out.push((v as u8) | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

/// The Thrift name of converted type `c` (defined ones only).
fn converted_name(c: i32) -> String {
    const NAMES: [&str; 22] = [
        "UTF8",
        "MAP",
        "MAP_KEY_VALUE",
        "LIST",
        "ENUM",
        "DECIMAL",
        "DATE",
        "TIME_MILLIS",
        "TIME_MICROS",
        "TIMESTAMP_MILLIS",
        "TIMESTAMP_MICROS",
        "UINT_8",
        "UINT_16",
        "UINT_32",
        "UINT_64",
        "INT_8",
        "INT_16",
        "INT_32",
        "INT_64",
        "JSON",
        "BSON",
        "INTERVAL",
    ];
    usize::try_from(c)
        .ok()
        .and_then(|i| NAMES.get(i))
        .map_or_else(|| c.to_string(), |n| (*n).to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A minimal compact-protocol writer for hand-built footers.
    struct W(Vec<u8>);

    impl W {
        fn field(&mut self, delta: u8, kind: u8) -> &mut Self {
            self.0.push(delta << 4 | kind);
            self
        }
        fn varint(&mut self, mut v: u64) -> &mut Self {
            while v >= 0x80 {
                self.0.push((v as u8) | 0x80);
                v >>= 7;
            }
            self.0.push(v as u8);
            self
        }
        fn i32(&mut self, v: i32) -> &mut Self {
            self.varint(u64::from(((v << 1) ^ (v >> 31)) as u32))
        }
        fn string(&mut self, s: &str) -> &mut Self {
            self.varint(s.len() as u64);
            self.0.extend_from_slice(s.as_bytes());
            self
        }
        fn stop(&mut self) -> &mut Self {
            self.0.push(0);
            self
        }
    }

    /// `message m { REQUIRED INT64 ts (TIMESTAMP(MICROS, true)); OPTIONAL BINARY s (UTF8); }`
    fn footer() -> Vec<u8> {
        let mut w = W(Vec::new());
        w.field(1, ty::I32).i32(2); // version
        w.field(1, ty::LIST); // schema
        w.0.push(3 << 4 | ty::STRUCT); // 3 elements
                                       // root: name, num_children
        w.field(4, ty::BINARY)
            .string("m")
            .field(1, ty::I32)
            .i32(2)
            .stop();
        // ts: type INT64, repetition REQUIRED, name, converted TIMESTAMP_MICROS, logical
        w.field(1, ty::I32).i32(2).field(2, ty::I32).i32(0);
        w.field(1, ty::BINARY)
            .string("ts")
            .field(2, ty::I32)
            .i32(10);
        w.field(4, ty::STRUCT); // logicalType
        w.field(8, ty::STRUCT); //   TIMESTAMP
        w.field(1, ty::TRUE); //       isAdjustedToUTC
        w.field(1, ty::STRUCT).field(2, ty::STRUCT).stop().stop(); // unit MICROS
        w.stop().stop().stop();
        // s: BYTE_ARRAY, OPTIONAL, UTF8
        w.field(1, ty::I32).i32(6).field(2, ty::I32).i32(1);
        w.field(1, ty::BINARY)
            .string("s")
            .field(2, ty::I32)
            .i32(0)
            .stop();
        w.field(1, ty::I64).varint(14); // num_rows (never read)
        w.stop();
        w.0
    }

    /// Root, `iv` FIXED_LEN_BYTE_ARRAY(12) INTERVAL (with an UNKNOWN
    /// logical type when `refused`), `na` INT32 (converted type 24 when
    /// `refused`) with a field id after it.
    fn annotated_footer(refused: bool) -> Vec<u8> {
        let mut w = W(Vec::new());
        w.field(1, ty::I32).i32(2);
        w.field(1, ty::LIST);
        w.0.push(3 << 4 | ty::STRUCT);
        w.field(4, ty::BINARY)
            .string("m")
            .field(1, ty::I32)
            .i32(2)
            .stop();
        w.field(1, ty::I32).i32(7).field(1, ty::I32).i32(12);
        w.field(1, ty::I32).i32(0).field(1, ty::BINARY).string("iv");
        w.field(2, ty::I32).i32(21);
        if refused {
            w.field(4, ty::STRUCT).field(11, ty::STRUCT).stop().stop();
        }
        w.stop();
        w.field(1, ty::I32).i32(1).field(2, ty::I32).i32(1);
        w.field(1, ty::BINARY).string("na");
        if refused {
            w.field(2, ty::I32).i32(24).field(3, ty::I32).i32(5);
        } else {
            w.field(5, ty::I32).i32(5); // field_id, 5 after the name
        }
        w.stop();
        w.stop();
        w.0
    }

    #[test]
    fn refused_annotations_are_dropped_and_the_headers_after_them_re_encoded() {
        assert_eq!(drop_refused_annotations(&footer()).unwrap(), None);
        assert_eq!(
            drop_refused_annotations(&annotated_footer(false)).unwrap(),
            None
        );
        let (bytes, dropped) = drop_refused_annotations(&annotated_footer(true))
            .unwrap()
            .expect("two annotations dropped");
        assert_eq!(bytes, annotated_footer(false));
        let leaves: Vec<_> = dropped.iter().map(|d| (d.leaf, d.name.as_str())).collect();
        assert_eq!(leaves, [(Some(0), "iv"), (Some(1), "na")]);
        assert_eq!(
            dropped[0].why,
            "logical type UNKNOWN beside converted type INTERVAL"
        );
        assert_eq!(
            dropped[1].why,
            "converted type 24, which parquet-format does not define"
        );
        // Every truncation is an error, never a panic.
        let whole = annotated_footer(true);
        for end in 0..whole.len() {
            assert!(drop_refused_annotations(&whole[..end]).is_err(), "{end}");
        }
    }

    fn file(metadata: &[u8]) -> Vec<u8> {
        let mut f = b"PAR1".to_vec();
        f.extend_from_slice(metadata);
        f.extend_from_slice(&(metadata.len() as u32).to_le_bytes());
        f.extend_from_slice(b"PAR1");
        f
    }

    #[test]
    fn reads_a_hand_built_footer() {
        let schema = read_schema(&file(&footer())).unwrap();
        assert_eq!(schema.name, "m");
        assert_eq!(
            schema.column("ts").unwrap().describe(),
            "REQUIRED INT64 (TIMESTAMP(MICROS, UTC))"
        );
        assert_eq!(
            schema.column("s").unwrap().describe(),
            "OPTIONAL BYTE_ARRAY (UTF8)"
        );
    }

    #[test]
    fn every_truncation_is_an_error() {
        let metadata = footer();
        for n in 0..metadata.len() - 3 {
            // Cut inside the schema list (reading stops after it).
            assert!(schema_from_metadata(&metadata[..n]).is_err(), "{n}");
        }
    }

    #[test]
    fn corrupt_bytes_are_errors_not_panics() {
        // Every byte of the footer set to values that matter to the protocol
        // (type nibbles, stop, varint continuation, large sizes).
        let metadata = footer();
        for i in 0..metadata.len() {
            for value in [0x00, 0x01, 0x0c, 0x0f, 0x19, 0x7f, 0x80, 0xf9, 0xfc, 0xff] {
                let mut bad = metadata.clone();
                bad[i] = value;
                let _ = schema_from_metadata(&bad);
                let _ = read_schema(&file(&bad));
            }
        }
    }

    #[test]
    fn not_parquet() {
        assert!(matches!(
            read_schema(b"[package]\nname = \"x\"\n"),
            Err(FooterError::NotParquet(_))
        ));
        assert!(matches!(
            read_schema(b"PAR1"),
            Err(FooterError::NotParquet(_))
        ));
        let mut f = file(&footer());
        let n = f.len();
        f[n - 4..].copy_from_slice(b"PARE");
        assert_eq!(read_schema(&f), Err(FooterError::Encrypted));
        let mut f = file(&footer());
        let n = f.len();
        f[n - 8..n - 4].copy_from_slice(&u32::MAX.to_le_bytes());
        assert!(matches!(read_schema(&f), Err(FooterError::Corrupt(_))));
    }

    #[test]
    fn hostile_sizes_do_not_allocate() {
        // A list claiming 2^40 elements in a footer of a few bytes.
        let mut w = W(Vec::new());
        w.field(2, ty::LIST);
        w.0.push(15 << 4 | ty::STRUCT);
        w.varint(1 << 40);
        assert!(schema_from_metadata(&w.0).is_err());
        // Structs nested far too deep.
        let mut deep = Vec::new();
        for _ in 0..10_000 {
            deep.push(1 << 4 | ty::STRUCT);
        }
        assert!(schema_from_metadata(&deep).is_err());
    }

    /// A `FileMetaData` whose schema is one element per entry of `children`
    /// (named `e0`, `e1`, ...), each with that child count.
    fn schema_of(children: &[Option<i32>]) -> Vec<u8> {
        let mut w = W(Vec::new());
        w.field(1, ty::I32).i32(2); // version
        w.field(1, ty::LIST);
        w.0.push(15 << 4 | ty::STRUCT);
        w.varint(children.len() as u64);
        for (i, n) in children.iter().enumerate() {
            w.field(4, ty::BINARY).string(&format!("e{i}"));
            if let Some(n) = n {
                w.field(1, ty::I32).i32(*n);
            }
            w.stop();
        }
        w.stop();
        w.0
    }

    /// A root, `groups` groups each holding the next, and one leaf.
    fn chain(groups: usize) -> Vec<Option<i32>> {
        let mut children = vec![Some(1); groups + 1];
        children.push(None);
        children
    }

    #[test]
    fn check_schema_accepts_valid_trees() {
        // root { a; g { b; c; } d; }
        let tree = [Some(3), None, Some(2), None, None, None];
        assert_eq!(check_schema(&schema_of(&tree), 2), Ok(()));
        assert_eq!(check_schema(&footer(), MAX_SCHEMA_DEPTH), Ok(()));
        // The root and 255 groups: 256 levels of groups.
        assert_eq!(
            check_schema(&schema_of(&chain(MAX_SCHEMA_DEPTH - 1)), MAX_SCHEMA_DEPTH),
            Ok(())
        );
    }

    #[test]
    fn check_schema_rejects_lies() {
        let err = |children: &[Option<i32>], depth| match check_schema(&schema_of(children), depth)
        {
            Err(FooterError::Corrupt(why)) => why,
            other => panic!("{other:?}"),
        };
        assert_eq!(
            err(&chain(MAX_SCHEMA_DEPTH), MAX_SCHEMA_DEPTH),
            "groups are nested more than 256 deep"
        );
        assert_eq!(err(&chain(3), 3), "groups are nested more than 3 deep");
        assert_eq!(
            err(&[Some(i32::MAX), None], 8),
            "group `e0` claims 2147483647 children but the schema has room for 1"
        );
        assert!(err(&[Some(-1), None], 8).contains("negative child count -1"));
        // A group claiming children that belong to its parent's other slots.
        assert_eq!(
            err(&[Some(2), Some(2), None, None], 8),
            "group `e1` claims 2 children but the schema has room for 1"
        );
        assert_eq!(
            err(&[Some(1), None, None], 8),
            "elements left after the root's subtree: 1"
        );
        // A hundred thousand nested groups: checked without recursion.
        let deep = chain(100_000);
        assert!(err(&deep, MAX_SCHEMA_DEPTH).contains("nested more than"));
    }
}
