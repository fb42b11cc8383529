//! What a field type binds to ([`Shape`], described per field by the derive
//! as a [`FieldSpec`]) and what binding found for it ([`Bound`]): the types
//! binding (`crate::bind`) produces and the readers of fields consume
//! (`crate::nested`, `crate::group::RowGroup`).

use parquet_rows_rules::FieldKind;

use crate::error::{Error, Location, Result};

/// One field of a derived struct, as the derive describes it.
#[doc(hidden)]
#[derive(Debug, Clone)]
pub struct FieldSpec {
    /// The Rust field name.
    pub field: &'static str,
    /// The column it reads (after `rename` / `rename_all`), a child of the
    /// struct's group (the schema root for the row struct).
    pub column: &'static str,
    /// The field's type as written, for messages.
    pub rust_type: &'static str,
    /// What the field's type binds to (`ParquetNode::shape`).
    pub shape: Shape,
    /// `#[parquet(nth = n)]`: the `n`th (from 0) of several columns named
    /// `column` at the field's level; `None` binds the only one.
    pub nth: Option<usize>,
}

/// What a field type binds to, for the binder.
#[doc(hidden)]
#[derive(Debug, Clone)]
pub enum Shape {
    /// A single value of a leaf column (a [`crate::ParquetField`] type).
    Leaf {
        /// What the type reads.
        kind: FieldKind,
        /// The type, for messages (`&str`, `f64`).
        rust_type: &'static str,
    },
    /// `Option<T>`: an OPTIONAL node (or a REQUIRED one, never `None`).
    Option(Box<Shape>),
    /// `Vec<T>`: a LIST, or a REPEATED field.
    List(Box<Shape>),
    /// `HashMap<K, V>`, `BTreeMap<K, V>`: a MAP.
    Map(Box<Shape>, Box<Shape>),
    /// `(K, V)`: a group of two fields, by position (a map's key-value pair).
    Pair(Box<Shape>, Box<Shape>),
    /// A VARIANT group (`metadata`, `value`, and `typed_value` when
    /// shredded): [`crate::variant::Variant`] and
    /// [`crate::variant::OwnedVariant`].
    Variant {
        /// The type, for messages.
        rust_type: &'static str,
    },
    /// A struct that derives `ParquetRow`: a group, its fields by name. The
    /// fields are listed when binding reaches the group, so that a recursive
    /// struct has a finite shape.
    Struct {
        /// The struct's name.
        name: &'static str,
        /// Its fields (`ParquetRow::fields`).
        fields: fn() -> Vec<FieldSpec>,
    },
}

impl Shape {
    /// The shape of a top-level field that reads a flat column through the
    /// batch path (`T` or `Option<T>` of a leaf type): its kind and nullability.
    pub(crate) fn flat(&self) -> Option<(FieldKind, bool)> {
        match self {
            Shape::Leaf { kind, .. } => Some((*kind, false)),
            Shape::Option(inner) => match &**inner {
                Shape::Leaf { kind, .. } => Some((*kind, true)),
                Shape::Option(_) => Some((FieldKind::NestedOption, true)),
                _ => None,
            },
            _ => None,
        }
    }
}

/// What binding found for one node of a field: its first leaf column and the
/// levels its values are assembled by. The meaning of `def` and `rep` depends
/// on the node's [`Shape`]:
///
/// - leaf: the column's maximum definition level (a non-null value);
/// - `Option`: the definition level at which the node is not null;
/// - list or map: the definition and repetition levels of the REPEATED node
///   (below `def` the list is empty; `rep` starts its next element).
#[doc(hidden)]
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Bound {
    pub(crate) leaf: usize,
    pub(crate) def: u32,
    pub(crate) rep: u32,
    pub(crate) children: Vec<Bound>,
}

impl Bound {
    /// Child `i`: a struct's field, an `Option`'s or list's inner node, a
    /// pair's key (0) or value (1).
    pub fn child(&self, i: usize) -> Result<&Bound> {
        self.children.get(i).ok_or_else(|| Error::Unsupported {
            location: Location::default(),
            message: format!("binding has no child {i}; the struct changed since it was bound"),
        })
    }

    /// Every leaf column under the node.
    pub(crate) fn leaves(&self, out: &mut Vec<usize>) {
        if self.children.is_empty() {
            out.push(self.leaf);
        }
        for child in &self.children {
            child.leaves(out);
        }
    }
}
