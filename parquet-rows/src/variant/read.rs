//! Reading VARIANT columns as fields: [`Variant`] (unshredded, borrowing
//! the pages) and [`OwnedVariant`] (any column; shredded values rebuilt).
//!
//! A shredded variant (parquet-format `VariantShredding.md`) is a tree of
//! groups of an optional `value` (an encoded variant) and an optional
//! `typed_value`: a primitive column, an object (one such group per field),
//! or a LIST of such groups. Per record the tree is walked in lockstep, as
//! the nested readers walk theirs: at each group, `value` alone is the
//! value, `typed_value` alone is the value in typed form, both are an
//! object whose fields are split between them (partially shredded), and
//! neither is a missing object field.

use bytes::Bytes;
use parquet_rows_rules::{self as rules, Converted, Logical, Physical, TimeUnit};

use super::build::OwnedValue;
use super::metadata::VariantMetadata;
use super::owned::OwnedVariant;
use super::value::Variant;
use crate::chunk::{LoadedColumn, RebuiltError, Slot, MAX_REBUILT_ENTRIES};
use crate::error::{Error, Location, Result};
use crate::field::{ListElement, ParquetField};
use crate::group::RowGroup;
use crate::nested::{Assembled, Bound, ParquetNode, Shape};

/// The [`Bound`] tree binding gives a variant field (built by
/// `bind::node::variant`, read here). Only childless bounds are leaf
/// columns (what `Bound::leaves` collects), so the shape of the tree is
/// carried in the `def` and `rep` of inner bounds:
///
/// - the variant: children `[metadata leaf, node]`;
/// - a node (a group of `value` / `typed_value`): `def` its depth in path
///   names below the variant group (an object field's name is its path
///   name there), `rep` flags ([`HAS_VALUE`], [`HAS_TYPED`]), children the
///   `value` leaf then the `typed_value` bound, those present;
/// - `typed_value`: a primitive is a leaf bound; an object has `def` the
///   level at which it is not null, `rep` [`OBJECT`], children one node per
///   field; an array has `def` the level at which the list is not null,
///   `rep` the repetition level of its elements, child the element node.
pub(crate) mod layout {
    use crate::nested::Bound;

    /// Node flag: the group has a `value` column.
    pub(crate) const HAS_VALUE: u32 = 1;
    /// Node flag: the group has a `typed_value`.
    pub(crate) const HAS_TYPED: u32 = 2;
    /// `rep` of an object `typed_value` (no repetition level is this high).
    pub(crate) const OBJECT: u32 = u32::MAX;

    pub(crate) fn leaf(leaf: usize, def: u32, rep: u32) -> Bound {
        Bound {
            leaf,
            def,
            rep,
            children: Vec::new(),
        }
    }

    pub(crate) fn node(
        leaf: usize,
        value: Option<Bound>,
        typed: Option<Bound>,
        depth: usize,
    ) -> Bound {
        let flags = if value.is_some() { HAS_VALUE } else { 0 }
            | if typed.is_some() { HAS_TYPED } else { 0 };
        Bound {
            leaf,
            def: depth as u32,
            rep: flags,
            children: value.into_iter().chain(typed).collect(),
        }
    }

    pub(crate) fn primitive(leaf_index: usize, def: u32, rep: u32) -> Bound {
        leaf(leaf_index, def, rep)
    }

    pub(crate) fn object(leaf: usize, def: u32, fields: Vec<Bound>) -> Bound {
        Bound {
            leaf,
            def,
            rep: OBJECT,
            children: fields,
        }
    }

    pub(crate) fn array(leaf: usize, def: u32, rep: u32, element: Bound) -> Bound {
        Bound {
            leaf,
            def,
            rep,
            children: vec![element],
        }
    }
}

/// What a shredded primitive `typed_value` column holds, as a variant type.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Prim {
    Bool,
    Int8,
    Int16,
    Int32,
    Int64,
    Float,
    Double,
    Decimal { scale: u8, width: u8 },
    Date,
    Timestamp { nanos: bool, utc: bool },
    TimeMicros,
    String,
    Binary,
    Uuid,
}

/// The variant type a shredded column of type `column` holds
/// (`VariantShredding.md`, "Shredded Value Types"); `None` for a column
/// type that is not one.
pub(crate) fn primitive_kind(column: &rules::Column) -> Option<Prim> {
    let decimal = |scale: i32, width: u8| {
        u8::try_from(scale)
            .ok()
            .filter(|&s| s <= 38)
            .map(|scale| Prim::Decimal { scale, width })
    };
    let legacy = legacy_logical(column);
    let logical = match (&column.logical, &legacy) {
        (None, Some(legacy)) => Some(legacy),
        (logical, _) => logical.as_ref(),
    };
    match (column.physical, logical) {
        (Physical::Boolean, None) => Some(Prim::Bool),
        (
            Physical::Int32,
            None
            | Some(Logical::Integer {
                bits: 32,
                signed: true,
            }),
        ) => Some(Prim::Int32),
        (
            Physical::Int32,
            Some(Logical::Integer {
                bits: 8,
                signed: true,
            }),
        ) => Some(Prim::Int8),
        (
            Physical::Int32,
            Some(Logical::Integer {
                bits: 16,
                signed: true,
            }),
        ) => Some(Prim::Int16),
        (Physical::Int32, Some(Logical::Date)) => Some(Prim::Date),
        (Physical::Int32, Some(Logical::Decimal { scale, .. })) => decimal(*scale, 4),
        (
            Physical::Int64,
            None
            | Some(Logical::Integer {
                bits: 64,
                signed: true,
            }),
        ) => Some(Prim::Int64),
        (Physical::Int64, Some(Logical::Decimal { scale, .. })) => decimal(*scale, 8),
        (Physical::Int64, Some(Logical::Timestamp { unit, utc })) => match unit {
            TimeUnit::Micros => Some(Prim::Timestamp {
                nanos: false,
                utc: *utc,
            }),
            TimeUnit::Nanos => Some(Prim::Timestamp {
                nanos: true,
                utc: *utc,
            }),
            TimeUnit::Millis => None,
        },
        (
            Physical::Int64,
            Some(Logical::Time {
                unit: TimeUnit::Micros,
                ..
            }),
        ) => Some(Prim::TimeMicros),
        (Physical::Float, None) => Some(Prim::Float),
        (Physical::Double, None) => Some(Prim::Double),
        (Physical::ByteArray, Some(Logical::String)) => Some(Prim::String),
        (Physical::ByteArray, None) => Some(Prim::Binary),
        (
            Physical::ByteArray | Physical::FixedLenByteArray,
            Some(Logical::Decimal { scale, .. }),
        ) => decimal(*scale, 16),
        (Physical::FixedLenByteArray, Some(Logical::Uuid)) if column.length == 16 => {
            Some(Prim::Uuid)
        }
        _ => None,
    }
}

/// The logical equivalent of a column's legacy converted type: some
/// writers set only that (duckdb marks shredded strings `UTF8`).
fn legacy_logical(column: &rules::Column) -> Option<Logical> {
    match column.converted {
        Converted::Utf8 => Some(Logical::String),
        Converted::Date => Some(Logical::Date),
        Converted::Int8 => Some(Logical::Integer {
            bits: 8,
            signed: true,
        }),
        Converted::Int16 => Some(Logical::Integer {
            bits: 16,
            signed: true,
        }),
        Converted::Int32 => Some(Logical::Integer {
            bits: 32,
            signed: true,
        }),
        Converted::Int64 => Some(Logical::Integer {
            bits: 64,
            signed: true,
        }),
        Converted::Decimal => Some(Logical::Decimal {
            precision: column.precision,
            scale: column.scale,
        }),
        Converted::TimeMicros => Some(Logical::Time {
            unit: TimeUnit::Micros,
            utc: false,
        }),
        Converted::TimestampMicros => Some(Logical::Timestamp {
            unit: TimeUnit::Micros,
            utc: true,
        }),
        _ => None,
    }
}

/// The cursor of one shredded primitive column, by physical type.
enum Leaf<'p> {
    Bool(<bool as ParquetNode<'p>>::Cursor),
    I32(<i32 as ParquetNode<'p>>::Cursor),
    I64(<i64 as ParquetNode<'p>>::Cursor),
    F32(<f32 as ParquetNode<'p>>::Cursor),
    F64(<f64 as ParquetNode<'p>>::Cursor),
    Bytes(<&'p [u8] as ParquetNode<'p>>::Cursor),
}

/// Runs `$body` with `$c` the leaf's cursor and `$t` its value type.
macro_rules! each_leaf {
    ($leaf:expr, |$c:ident: $t:ident| $body:expr) => {
        match $leaf {
            Leaf::Bool($c) => {
                type $t = bool;
                $body
            }
            Leaf::I32($c) => {
                type $t = i32;
                $body
            }
            Leaf::I64($c) => {
                type $t = i64;
                $body
            }
            Leaf::F32($c) => {
                type $t = f32;
                $body
            }
            Leaf::F64($c) => {
                type $t = f64;
                $body
            }
            Leaf::Bytes($c) => {
                type $t<'q> = &'q [u8];
                $body
            }
        }
    };
}

impl<'p> Leaf<'p> {
    fn open(row_group: &RowGroup<'_, 'p>, bound: &Bound) -> Result<(Self, Prim)> {
        let loaded = row_group.loaded(bound.leaf)?;
        let column = crate::schema_rules::column(&loaded.descr);
        let prim = primitive_kind(&column).ok_or_else(|| Error::Unsupported {
            location: row_group.location(bound.leaf),
            message: format!(
                "a shredded variant column of type {} holds no variant type",
                column.describe()
            ),
        })?;
        let leaf = match column.physical {
            Physical::Boolean => Leaf::Bool(bool::cursor(row_group, bound)?),
            Physical::Int32 => Leaf::I32(i32::cursor(row_group, bound)?),
            Physical::Int64 => Leaf::I64(i64::cursor(row_group, bound)?),
            Physical::Float => Leaf::F32(f32::cursor(row_group, bound)?),
            Physical::Double => Leaf::F64(f64::cursor(row_group, bound)?),
            _ => Leaf::Bytes(<&'p [u8]>::cursor(row_group, bound)?),
        };
        Ok((leaf, prim))
    }

    fn def(&mut self) -> Result<u32> {
        each_leaf!(self, |c: T| <T as ParquetNode>::def(c))
    }
    fn rep(&mut self) -> Result<Option<u32>> {
        each_leaf!(self, |c: T| <T as ParquetNode>::rep(c))
    }
    fn skip(&mut self) -> Result<()> {
        each_leaf!(self, |c: T| <T as ParquetNode>::skip(c))
    }
    fn skip_records(&mut self, n: usize) -> Result<()> {
        each_leaf!(self, |c: T| <T as ParquetNode>::skip_records(c, n))
    }
    fn finish(&mut self) -> Result<()> {
        each_leaf!(self, |c: T| <T as ParquetNode>::finish(c))
    }

    /// The next value (the caller checked it is not null) as `prim`.
    fn next(&mut self, prim: Prim) -> Result<std::result::Result<OwnedValue, String>> {
        let narrow = |v: i32, bits: u32| -> std::result::Result<i64, String> {
            let v = i64::from(v);
            let half = 1i64 << (bits - 1);
            if (-half..half).contains(&v) {
                Ok(v)
            } else {
                Err(format!("{v} in a column annotated INT({bits}, true)"))
            }
        };
        Ok(match self {
            Leaf::Bool(c) => Ok(OwnedValue::Bool(bool::next(c)?)),
            Leaf::F32(c) => Ok(OwnedValue::Float(f32::next(c)?)),
            Leaf::F64(c) => Ok(OwnedValue::Double(f64::next(c)?)),
            Leaf::I32(c) => {
                let v = i32::next(c)?;
                match prim {
                    Prim::Int8 => narrow(v, 8).map(|v| OwnedValue::Int8(v as i8)),
                    Prim::Int16 => narrow(v, 16).map(|v| OwnedValue::Int16(v as i16)),
                    Prim::Date => Ok(OwnedValue::Date(v)),
                    Prim::Decimal { scale, .. } => Ok(OwnedValue::Decimal {
                        unscaled: i128::from(v),
                        scale,
                        width: 4,
                    }),
                    _ => Ok(OwnedValue::Int32(v)),
                }
            }
            Leaf::I64(c) => {
                let v = i64::next(c)?;
                Ok(match prim {
                    Prim::Decimal { scale, .. } => OwnedValue::Decimal {
                        unscaled: i128::from(v),
                        scale,
                        width: 8,
                    },
                    Prim::Timestamp {
                        nanos: false,
                        utc: true,
                    } => OwnedValue::TimestampMicros(v),
                    Prim::Timestamp {
                        nanos: false,
                        utc: false,
                    } => OwnedValue::TimestampNtzMicros(v),
                    Prim::Timestamp {
                        nanos: true,
                        utc: true,
                    } => OwnedValue::TimestampNanos(v),
                    Prim::Timestamp {
                        nanos: true,
                        utc: false,
                    } => OwnedValue::TimestampNtzNanos(v),
                    Prim::TimeMicros => OwnedValue::TimeNtzMicros(v),
                    _ => OwnedValue::Int64(v),
                })
            }
            Leaf::Bytes(c) => {
                let v = <&[u8]>::next(c)?;
                match prim {
                    Prim::String => std::str::from_utf8(v)
                        .map(|s| OwnedValue::String(s.to_owned()))
                        .map_err(|_| "a shredded string is not valid UTF-8".to_owned()),
                    Prim::Uuid => <[u8; 16]>::try_from(v)
                        .map(OwnedValue::Uuid)
                        .map_err(|_| format!("a UUID of {} bytes", v.len())),
                    Prim::Decimal { scale, .. } => {
                        big_endian(v).map(|unscaled| OwnedValue::Decimal {
                            unscaled,
                            scale,
                            width: 16,
                        })
                    }
                    _ => Ok(OwnedValue::Binary(v.to_vec())),
                }
            }
        })
    }
}

/// A big-endian two's complement integer of up to 16 bytes.
fn big_endian(bytes: &[u8]) -> std::result::Result<i128, String> {
    if bytes.is_empty() || bytes.len() > 16 {
        return Err(format!("a decimal of {} bytes (1 to 16 fit)", bytes.len()));
    }
    let fill = if bytes[0] & 0x80 != 0 { 0xff } else { 0 };
    let mut out = [fill; 16];
    out[16 - bytes.len()..].copy_from_slice(bytes);
    Ok(i128::from_be_bytes(out))
}

/// The buffer type of a variant field's `metadata` and `value` columns:
/// `&'p [u8]` for [`Variant`], `Bytes` (views of the pages) for
/// [`OwnedVariant`].
#[doc(hidden)]
pub trait Buffer<'p>: ParquetField<'p> + ParquetNode<'p> + AsRef<[u8]> {
    /// Whether the rows borrow the buffers: a value rebuilt from typed
    /// columns then lives in the pages' store (`chunk::Rebuilt`), keyed by
    /// its entry in the `metadata` column, which the cursor counts.
    const BORROWED: bool;
}
impl<'p> Buffer<'p> for &'p [u8] {
    const BORROWED: bool = true;
}
impl Buffer<'_> for Bytes {
    const BORROWED: bool = false;
}

/// A value assembled from a node: its `value` bytes as they are, or a
/// value rebuilt from typed columns.
enum Piece<B> {
    Raw(B),
    Built(OwnedValue),
}

impl<B: AsRef<[u8]>> Piece<B> {
    fn into_owned(self, metadata: VariantMetadata<'_>) -> std::result::Result<OwnedValue, String> {
        match self {
            Piece::Raw(bytes) => {
                Ok(Variant::with_metadata(metadata, bytes.as_ref())?.to_owned_value())
            }
            Piece::Built(value) => Ok(value),
        }
    }
}

enum Typed<'p, B: Buffer<'p>> {
    Primitive {
        leaf: Box<Leaf<'p>>, // boxed: a leaf cursor is large beside the other cases
        prim: Prim,
        def: u32, // the level of a non-null value
    },
    Object {
        def: u32, // the level at which the object is not null
        fields: Vec<NodeCursor<'p, B>>,
    },
    Array {
        def: u32, // the level at which the list is not null (empty below `def + 1`)
        rep: u32, // the repetition level of "next element of this list"
        element: Box<NodeCursor<'p, B>>,
        max: usize, // the most elements of one array (`ReadOptions::max_list_elements`)
        location: Location, // the array's first column, for the limit's error
    },
}

/// A group of `value` and `typed_value` columns.
struct NodeCursor<'p, B: Buffer<'p>> {
    value: Option<(<B as ParquetNode<'p>>::Cursor, u32)>, // the `value` column and the level of a non-null value
    typed: Option<Typed<'p, B>>,
    name: String, // an object field's name (empty for others)
}

impl<'p, B: Buffer<'p>> NodeCursor<'p, B> {
    fn open(row_group: &RowGroup<'_, 'p>, bound: &Bound, variant_parts: usize) -> Result<Self> {
        let mut children = bound.children.iter();
        let mut child = || {
            children.next().ok_or_else(|| Error::Unsupported {
                location: row_group.location(bound.leaf),
                message: "a variant's binding lost a column; the struct changed since it was bound"
                    .to_owned(),
            })
        };
        let value = if bound.rep & layout::HAS_VALUE != 0 {
            let b = child()?;
            Some((B::cursor(row_group, b)?, b.def))
        } else {
            None
        };
        let typed = if bound.rep & layout::HAS_TYPED != 0 {
            let b = child()?;
            Some(if b.children.is_empty() {
                let (leaf, prim) = Leaf::open(row_group, b)?;
                Typed::Primitive {
                    leaf: Box::new(leaf),
                    prim,
                    def: b.def,
                }
            } else if b.rep == layout::OBJECT {
                Typed::Object {
                    def: b.def,
                    fields: b
                        .children
                        .iter()
                        .map(|f| NodeCursor::open(row_group, f, variant_parts))
                        .collect::<Result<_>>()?,
                }
            } else {
                Typed::Array {
                    def: b.def,
                    rep: b.rep,
                    element: Box::new(NodeCursor::open(row_group, b.child(0)?, variant_parts)?),
                    max: row_group.list_elements(),
                    location: row_group.location(b.leaf),
                }
            })
        } else {
            None
        };
        // The name of the group at depth `d` below the variant group is path
        // name `variant_parts + d - 1` of any column under it.
        let depth = bound.def as usize;
        let name = if depth > 0 {
            let path = row_group.loaded(bound.leaf)?.descr.path().parts();
            path.get(variant_parts + depth - 1)
                .cloned()
                .unwrap_or_default()
        } else {
            String::new()
        };
        Ok(NodeCursor { value, typed, name })
    }

    fn first_def(&mut self) -> Result<u32> {
        match (&mut self.value, &mut self.typed) {
            (Some((c, _)), _) => B::def(c),
            (None, Some(t)) => t.first_def(),
            (None, None) => Ok(0),
        }
    }

    fn first_rep(&mut self) -> Result<Option<u32>> {
        match (&mut self.value, &mut self.typed) {
            (Some((c, _)), _) => B::rep(c),
            (None, Some(t)) => t.first_rep(),
            (None, None) => Ok(None),
        }
    }

    /// Consumes one entry of every column: an ancestor is null.
    fn skip(&mut self) -> Result<()> {
        if let Some((c, _)) = &mut self.value {
            B::skip(c)?;
        }
        match &mut self.typed {
            Some(t) => t.skip(),
            None => Ok(()),
        }
    }

    fn skip_records(&mut self, n: usize) -> Result<()> {
        if let Some((c, _)) = &mut self.value {
            B::skip_records(c, n)?;
        }
        match &mut self.typed {
            Some(Typed::Primitive { leaf, .. }) => leaf.skip_records(n),
            Some(Typed::Object { fields, .. }) => {
                fields.iter_mut().try_for_each(|f| f.skip_records(n))
            }
            Some(Typed::Array { element, .. }) => element.skip_records(n),
            None => Ok(()),
        }
    }

    fn finish(&mut self) -> Result<()> {
        if let Some((c, _)) = &mut self.value {
            B::finish(c)?;
        }
        match &mut self.typed {
            Some(Typed::Primitive { leaf, .. }) => leaf.finish(),
            Some(Typed::Object { fields, .. }) => {
                fields.iter_mut().try_for_each(NodeCursor::finish)
            }
            Some(Typed::Array { element, .. }) => element.finish(),
            None => Ok(()),
        }
    }

    /// The node's value in this record; `None` when both columns are null
    /// (a missing object field). The outer `Result` is the columns', the
    /// inner one the values'.
    fn assemble(
        &mut self,
        metadata: VariantMetadata<'_>,
    ) -> Result<std::result::Result<Option<Piece<B>>, String>> {
        let value = match &mut self.value {
            Some((c, def)) => {
                if B::def(c)? >= *def {
                    Some(B::next(c)?)
                } else {
                    B::skip(c)?;
                    None
                }
            }
            None => None,
        };
        let typed = match &mut self.typed {
            Some(t) => match t.assemble(metadata)? {
                Ok(v) => v,
                Err(e) => return Ok(Err(e)),
            },
            None => None,
        };
        Ok(match (value, typed) {
            (None, None) => Ok(None),
            (Some(v), None) => Ok(Some(Piece::Raw(v))),
            (None, Some(t)) => Ok(Some(Piece::Built(t))),
            (Some(v), Some(OwnedValue::Object(mut fields))) => {
                // Partially shredded: the object's other fields are in `value`.
                merge(metadata, v.as_ref(), &mut fields).map(|()| Some(Piece::Built(OwnedValue::Object(fields))))
            }
            (Some(_), Some(_)) => Err(
                "both `value` and a non-object `typed_value` are set (only an object may be split between them)"
                    .to_owned(),
            ),
        })
    }
}

/// Adds the fields of the encoded object `value` to the shredded `fields`.
fn merge(
    metadata: VariantMetadata<'_>,
    value: &[u8],
    fields: &mut Vec<(String, OwnedValue)>,
) -> std::result::Result<(), String> {
    let residual = Variant::with_metadata(metadata, value)?;
    let object = residual
        .as_object()
        .ok_or("a partially shredded object's `value` is not an object")?;
    for (name, v) in object.iter() {
        if fields.iter().any(|(n, _)| n == name) {
            return Err(format!(
                "field `{name}` is both shredded and in the object's `value`"
            ));
        }
        fields.push((name.to_owned(), v.to_owned_value()));
    }
    Ok(())
}

impl<'p, B: Buffer<'p>> Typed<'p, B> {
    fn first_def(&mut self) -> Result<u32> {
        match self {
            Typed::Primitive { leaf, .. } => leaf.def(),
            Typed::Object { fields, .. } => fields.first_mut().map_or(Ok(0), NodeCursor::first_def),
            Typed::Array { element, .. } => element.first_def(),
        }
    }

    fn first_rep(&mut self) -> Result<Option<u32>> {
        match self {
            Typed::Primitive { leaf, .. } => leaf.rep(),
            Typed::Object { fields, .. } => {
                fields.first_mut().map_or(Ok(None), NodeCursor::first_rep)
            }
            Typed::Array { element, .. } => element.first_rep(),
        }
    }

    fn skip(&mut self) -> Result<()> {
        match self {
            Typed::Primitive { leaf, .. } => leaf.skip(),
            Typed::Object { fields, .. } => fields.iter_mut().try_for_each(NodeCursor::skip),
            Typed::Array { element, .. } => element.skip(),
        }
    }

    fn assemble(
        &mut self,
        metadata: VariantMetadata<'_>,
    ) -> Result<std::result::Result<Option<OwnedValue>, String>> {
        let first = self.first_def()?;
        match self {
            Typed::Primitive { leaf, prim, def } => {
                if first >= *def {
                    Ok(leaf.next(*prim)?.map(Some))
                } else {
                    leaf.skip()?;
                    Ok(Ok(None))
                }
            }
            Typed::Object { def, fields } => {
                if first < *def {
                    fields.iter_mut().try_for_each(NodeCursor::skip)?;
                    return Ok(Ok(None));
                }
                let mut out = Vec::with_capacity(fields.len());
                for field in fields.iter_mut() {
                    match field.assemble(metadata)? {
                        Ok(Some(piece)) => match piece.into_owned(metadata) {
                            Ok(v) => out.push((field.name.clone(), v)),
                            Err(e) => return Ok(Err(e)),
                        },
                        Ok(None) => {}
                        Err(e) => return Ok(Err(e)),
                    }
                }
                Ok(Ok(Some(OwnedValue::Object(out))))
            }
            Typed::Array {
                def,
                rep,
                element,
                max,
                location,
            } => {
                if first < *def {
                    element.skip()?;
                    return Ok(Ok(None));
                }
                if first < *def + 1 {
                    element.skip()?;
                    return Ok(Ok(Some(OwnedValue::Array(Vec::new()))));
                }
                let mut out = Vec::new();
                loop {
                    // A page of a few bytes can hold an RLE run of 2^31
                    // levels that never ends the array.
                    if out.len() == *max {
                        return Err(Error::Limit {
                            location: location.clone(),
                            message: format!(
                                "a shredded variant array has more than {max} elements \
                                 (`ReadOptions::max_list_elements`)"
                            ),
                        });
                    }
                    match element.assemble(metadata)? {
                        Ok(Some(piece)) => match piece.into_owned(metadata) {
                            Ok(v) => out.push(v),
                            Err(e) => return Ok(Err(e)),
                        },
                        Ok(None) => {
                            return Ok(Err(
                                "an array element has neither `value` nor `typed_value`".to_owned(),
                            ))
                        }
                        Err(e) => return Ok(Err(e)),
                    }
                    if element.first_rep()? != Some(*rep) {
                        break;
                    }
                }
                Ok(Ok(Some(OwnedValue::Array(out))))
            }
        }
    }
}

/// The cursor of a variant field: its `metadata` column and the tree of
/// `value` / `typed_value` columns.
#[doc(hidden)]
pub struct VariantCursor<'p, B: Buffer<'p>> {
    metadata: <B as ParquetNode<'p>>::Cursor,
    metadata_def: u32, // the level of a `metadata` value (a variant that is not null)
    node: NodeCursor<'p, B>,
    location: Location,       // the variant's first column, for errors
    column: &'p LoadedColumn, // the `metadata` column, whose store holds rebuilt values
    entry: usize, // entries of `metadata` passed since the loaded pages' first: the next value's key in the store
    step: bool, // skipping records counts their entries one by one (a borrowed, shredded variant under a repeated field)
    max_bytes: usize, // the store's budget (`ReadOptions::max_output_bytes`)
}

impl<'p, B: Buffer<'p>> std::fmt::Debug for VariantCursor<'p, B> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("VariantCursor")
            .field("location", &self.location)
            .finish_non_exhaustive()
    }
}

impl<'p, B: Buffer<'p>> VariantCursor<'p, B> {
    fn open(row_group: &RowGroup<'_, 'p>, bound: &Bound) -> Result<Self> {
        let metadata_bound = bound.child(0)?;
        let column = row_group.loaded(metadata_bound.leaf)?;
        let variant_parts = column.descr.path().parts().len() - 1;
        let node = bound.child(1)?;
        let shredded = node.rep & layout::HAS_TYPED != 0;
        Ok(VariantCursor {
            metadata: B::cursor(row_group, metadata_bound)?,
            metadata_def: metadata_bound.def,
            node: NodeCursor::open(row_group, node, variant_parts)?,
            location: row_group.location(bound.leaf),
            column,
            entry: 0,
            // Records are entries unless the variant is under a repeated
            // field; only rebuilt values need the count.
            step: B::BORROWED && shredded && column.descr.max_rep_level() > 0,
            max_bytes: row_group.output_bytes(),
        })
    }

    /// The slot of the value just read (entry `entry`) in the pages'
    /// store, holding `value` encoded; a slot an earlier read filled is
    /// taken as it is.
    fn rebuilt(&self, entry: usize, value: &OwnedValue) -> Result<&'p Slot> {
        let column: &'p LoadedColumn = self.column;
        let store = column
            .rebuilt
            .get_or_init(|| crate::chunk::Rebuilt::new(self.max_bytes));
        let build = || {
            let (metadata, value) = value.encode()?;
            Ok(Slot {
                metadata: metadata.into_boxed_slice(),
                value: value.into_boxed_slice(),
            })
        };
        store.fill(entry, build).map_err(|e| match e {
            RebuiltError::Entries(entry) => Error::Limit {
                location: self.location.clone(),
                message: format!(
                    "entry {entry} of a shredded variant column chunk: borrowed rows rebuild at \
                     most {MAX_REBUILT_ENTRIES} per chunk; read them as `OwnedVariant`"
                ),
            },
            RebuiltError::Bytes(held, max) => Error::Limit {
                location: self.location.clone(),
                message: format!(
                    "the shredded variants rebuilt for borrowed rows of this row group take more \
                     than `max_output_bytes` allows ({held} bytes held, {max} allowed); read fewer \
                     row groups at a time or raise it with `ReadOptions::max_output_bytes`"
                ),
            },
            RebuiltError::Build(Error::OutOfSpec { message, .. }) => self.bad(message),
            RebuiltError::Build(other) => other,
        })
    }

    /// Moves past one entry of the `metadata` column (and none of the
    /// others: `skip_records` moves them).
    fn pass_entry(&mut self) -> Result<()> {
        if B::def(&mut self.metadata)? >= self.metadata_def {
            B::next(&mut self.metadata)?;
        } else {
            B::skip(&mut self.metadata)?;
        }
        self.entry += 1;
        Ok(())
    }

    fn bad(&self, message: String) -> Error {
        Error::OutOfSpec {
            location: self.location.clone(),
            message,
        }
    }

    /// The next record's metadata and value.
    fn next(&mut self) -> Result<(B, Piece<B>)> {
        let metadata = B::next(&mut self.metadata)?;
        self.entry += 1;
        let parsed = VariantMetadata::parse(metadata.as_ref()).map_err(|e| self.bad(e))?;
        match self.node.assemble(parsed)? {
            Ok(Some(piece)) => Ok((metadata, piece)),
            Ok(None) => Err(self.bad(
                "a variant whose `value` and `typed_value` are both null (a null variant is a null group or an encoded null)"
                    .to_owned(),
            )),
            Err(e) => Err(self.bad(e)),
        }
    }

    fn def(&mut self) -> Result<u32> {
        B::def(&mut self.metadata)
    }
    fn rep(&mut self) -> Result<Option<u32>> {
        B::rep(&mut self.metadata)
    }
    fn skip(&mut self) -> Result<()> {
        B::skip(&mut self.metadata)?;
        self.entry += 1;
        self.node.skip()
    }
    fn skip_records(&mut self, n: usize) -> Result<()> {
        if self.step {
            for _ in 0..n {
                self.pass_entry()?;
                while matches!(B::rep(&mut self.metadata)?, Some(r) if r > 0) {
                    self.pass_entry()?;
                }
            }
        } else {
            B::skip_records(&mut self.metadata, n)?;
            self.entry = self.entry.saturating_add(n);
        }
        self.node.skip_records(n)
    }
    fn finish(&mut self) -> Result<()> {
        B::finish(&mut self.metadata)?;
        self.node.finish()
    }
}

/// The `ParquetNode` methods every variant field type shares.
macro_rules! variant_node {
    ($buffer:ty) => {
        type Reader = Assembled<'p, Self>;
        fn reader(row_group: &RowGroup<'_, 'p>, bound: &Bound) -> Result<Self::Reader> {
            Assembled::new(row_group, bound)
        }
        type OptionReader = Assembled<'p, Option<Self>>;
        fn option_reader(
            row_group: &RowGroup<'_, 'p>,
            bound: &Bound,
        ) -> Result<Self::OptionReader> {
            Assembled::new(row_group, bound)
        }
        type Cursor = VariantCursor<'p, $buffer>;
        fn cursor(row_group: &RowGroup<'_, 'p>, bound: &Bound) -> Result<Self::Cursor> {
            VariantCursor::<$buffer>::open(row_group, bound)
        }
        fn def(cursor: &mut Self::Cursor) -> Result<u32> {
            cursor.def()
        }
        fn rep(cursor: &mut Self::Cursor) -> Result<Option<u32>> {
            cursor.rep()
        }
        fn skip(cursor: &mut Self::Cursor) -> Result<()> {
            cursor.skip()
        }
        fn skip_records(cursor: &mut Self::Cursor, n: usize) -> Result<()> {
            cursor.skip_records(n)
        }
        fn finish(cursor: &mut Self::Cursor) -> Result<()> {
            cursor.finish()
        }
    };
}

/// `Variant<'p>` borrows the pages. An unshredded value is the page's
/// bytes; a shredded one is rebuilt once and kept in the store of its
/// `metadata` column chunk, which lives as long as the pages.
impl<'p> ParquetNode<'p> for Variant<'p> {
    fn shape() -> Shape {
        Shape::Variant {
            rust_type: "Variant",
        }
    }
    fn placeholder() -> Self {
        Variant::NULL
    }
    variant_node!(&'p [u8]);
    fn next(cursor: &mut Self::Cursor) -> Result<Self> {
        let entry = cursor.entry;
        let (metadata, value) = match cursor.next()? {
            (metadata, Piece::Raw(value)) => (metadata, value),
            (_, Piece::Built(value)) => {
                let slot = cursor.rebuilt(entry, &value)?;
                (&*slot.metadata, &*slot.value)
            }
        };
        let metadata = VariantMetadata::parse(metadata).map_err(|e| cursor.bad(e))?;
        Variant::with_metadata(metadata, value).map_err(|e| cursor.bad(e))
    }
}

/// `OwnedVariant` reads every VARIANT column: unshredded values are views
/// of the pages (no copy), shredded ones are rebuilt.
impl<'p> ParquetNode<'p> for OwnedVariant {
    fn shape() -> Shape {
        Shape::Variant {
            rust_type: "OwnedVariant",
        }
    }
    fn placeholder() -> Self {
        OwnedVariant::null()
    }
    variant_node!(Bytes);
    fn next(cursor: &mut Self::Cursor) -> Result<Self> {
        let (metadata, piece) = cursor.next()?;
        match piece {
            Piece::Raw(value) => OwnedVariant::new(metadata, value),
            Piece::Built(value) => OwnedVariant::from_value(&value),
        }
        .map_err(|e| match e {
            Error::OutOfSpec { message, .. } => VariantCursor::<Bytes>::bad(cursor, message),
            other => other,
        })
    }
}

impl ListElement for Variant<'_> {}
impl ListElement for OwnedVariant {}

#[cfg(test)]
mod tests {
    use parquet_rows_rules::{Column, Converted, Logical, Physical, Repetition, TimeUnit};

    use super::{primitive_kind, Prim};

    fn column(physical: Physical, logical: Option<Logical>, converted: Converted) -> Column {
        let mut c = Column::new(physical, Repetition::Optional);
        c.logical = logical;
        c.converted = converted;
        c
    }

    #[test]
    fn shredded_column_types() {
        use Physical::{ByteArray, Double, FixedLenByteArray, Int32, Int64};
        // duckdb marks shredded strings with the converted type UTF8 only.
        assert_eq!(
            primitive_kind(&column(ByteArray, None, Converted::Utf8)),
            Some(Prim::String)
        );
        assert_eq!(
            primitive_kind(&column(ByteArray, Some(Logical::String), Converted::Utf8)),
            Some(Prim::String)
        );
        assert_eq!(
            primitive_kind(&column(ByteArray, None, Converted::None)),
            Some(Prim::Binary)
        );
        assert_eq!(
            primitive_kind(&column(Double, None, Converted::None)),
            Some(Prim::Double)
        );
        assert_eq!(
            primitive_kind(&column(
                Int32,
                Some(Logical::Integer {
                    bits: 8,
                    signed: true
                }),
                Converted::Int8
            )),
            Some(Prim::Int8)
        );
        assert_eq!(
            primitive_kind(&column(
                Int64,
                Some(Logical::Timestamp {
                    unit: TimeUnit::Nanos,
                    utc: false
                }),
                Converted::None
            )),
            Some(Prim::Timestamp {
                nanos: true,
                utc: false
            })
        );
        // Types the variant encoding has no equivalent of.
        let unsigned = Logical::Integer {
            bits: 32,
            signed: false,
        };
        assert_eq!(
            primitive_kind(&column(Int32, Some(unsigned), Converted::Uint32)),
            None
        );
        let millis = Logical::Timestamp {
            unit: TimeUnit::Millis,
            utc: true,
        };
        assert_eq!(
            primitive_kind(&column(Int64, Some(millis), Converted::None)),
            None
        );
        let mut uuid = column(FixedLenByteArray, Some(Logical::Uuid), Converted::None);
        uuid.length = 16;
        assert_eq!(primitive_kind(&uuid), Some(Prim::Uuid));
        uuid.length = 8;
        assert_eq!(primitive_kind(&uuid), None);
    }
}
