//! Binding a VARIANT field ([`Shape::Variant`]) to its group: the
//! `metadata` column, and the shredded tree of `value` / `typed_value`
//! columns under it, as the [`Bound`] layout `crate::variant::read` reads
//! (see `variant::read::layout`).

use parquet_rows_rules::{Node, Repetition};

use super::{describe, nested, nullable, At, Mismatch, MismatchKind};
use crate::nested::Bound;
use crate::variant::read::layout;

const HINT: &str = "a variant reads a VARIANT group: `metadata` and `value` BYTE_ARRAY columns, and `typed_value` when shredded";

/// Binds a variant field: both variant types read shredded columns
/// (`typed_value`) as well as unshredded ones.
pub(super) fn bind_variant(node: &Node, at: &At, out: &mut Vec<Mismatch>) -> Option<Bound> {
    let fields = match node {
        Node::Group { fields, .. } if at.repetition != Repetition::Repeated => fields,
        _ => {
            out.push(at.mismatch(nested(node, HINT)));
            return None;
        }
    };
    if nullable(at, node, out) {
        return None;
    }
    let Some(index) = fields.iter().position(|f| f.name() == "metadata") else {
        out.push(at.mismatch(nested(node, HINT)));
        return None;
    };
    let meta_at = at.child(fields, index, at.field.clone(), at.rust_type.clone());
    let metadata = match &fields[index] {
        Node::Primitive { column, .. }
            if column.repetition == Repetition::Required && column.is_bytes() =>
        {
            layout::leaf(meta_at.leaf, meta_at.def, meta_at.rep)
        }
        other => {
            out.push(meta_at.mismatch(nested(
                other,
                "a variant's `metadata` is a REQUIRED BYTE_ARRAY column",
            )));
            return None;
        }
    };
    let node = shredded_node(fields, &at.inside(), 0, out)?;
    let inside = at.inside();
    Some(Bound {
        leaf: at.leaf,
        def: inside.def,
        rep: inside.rep,
        children: vec![metadata, node],
    })
}

/// A group of `value` and `typed_value` (the variant itself, a shredded
/// object field, an array element); `inside` is where binding stands inside
/// it, `depth` its depth in column path names below the variant group.
fn shredded_node(
    fields: &[Node],
    inside: &At,
    depth: usize,
    out: &mut Vec<Mismatch>,
) -> Option<Bound> {
    let mut value = None;
    let mut typed = None;
    for (i, field) in fields.iter().enumerate() {
        let child_at = inside.child(fields, i, inside.field.clone(), inside.rust_type.clone());
        match field.name() {
            "value" => match field {
                Node::Primitive { column, .. }
                    if column.repetition != Repetition::Repeated && column.is_bytes() =>
                {
                    value = Some(layout::leaf(
                        child_at.leaf,
                        child_at.entered().0,
                        child_at.rep,
                    ));
                }
                other => {
                    out.push(
                        child_at
                            .mismatch(nested(other, "a variant's `value` is a BYTE_ARRAY column")),
                    );
                    return None;
                }
            },
            "typed_value" => {
                typed = Some(typed_value(field, &child_at, depth + 1, out)?);
            }
            "metadata" if depth == 0 => {}
            _ => {
                out.push(child_at.mismatch(nested(field, HINT)));
                return None;
            }
        }
    }
    if value.is_none() && typed.is_none() {
        out.push(inside.mismatch(MismatchKind::Nested {
            found: "a group without `value` or `typed_value`".to_owned(),
            hint: HINT.to_owned(),
        }));
        return None;
    }
    Some(layout::node(inside.leaf, value, typed, depth))
}

/// The `typed_value` node at `at` (its repetition not yet entered).
fn typed_value(node: &Node, at: &At, depth: usize, out: &mut Vec<Mismatch>) -> Option<Bound> {
    let (def, rep) = at.entered();
    match node {
        Node::Primitive { column, .. } if at.repetition != Repetition::Repeated => {
            if crate::variant::read::primitive_kind(column).is_none() {
                out.push(at.mismatch(MismatchKind::Nested {
                    found: describe(node),
                    hint: "a shredded variant's `typed_value` must be a type of the variant encoding (parquet-format `VariantShredding.md`)".to_owned(),
                }));
                return None;
            }
            Some(layout::primitive(at.leaf, def, rep))
        }
        Node::Group { fields, .. } if node.is_list() => {
            // optional group typed_value (LIST) { repeated group list { required group element { value, typed_value } } }
            let [list @ Node::Group {
                fields: list_fields,
                ..
            }] = fields.as_slice()
            else {
                out.push(at.mismatch(nested(
                    node,
                    "a shredded array is a 3-level LIST of `element` groups",
                )));
                return None;
            };
            if list.repetition() != Repetition::Repeated {
                out.push(at.mismatch(nested(node, "a shredded array is a 3-level LIST")));
                return None;
            }
            let list_at = at
                .inside()
                .child(fields, 0, at.field.clone(), at.rust_type.clone());
            let element_at = list_at.inside();
            let [element @ Node::Group {
                fields: element_fields,
                ..
            }] = list_fields.as_slice()
            else {
                out.push(list_at.mismatch(nested(
                    list,
                    "a shredded array's elements are groups of `value` and `typed_value`",
                )));
                return None;
            };
            let element_at =
                element_at.child(list_fields, 0, at.field.clone(), at.rust_type.clone());
            if element.repetition() == Repetition::Repeated {
                out.push(
                    element_at
                        .mismatch(nested(element, "a shredded array element is not REPEATED")),
                );
                return None;
            }
            let element = shredded_node(element_fields, &element_at.inside(), depth + 2, out)?;
            Some(layout::array(at.leaf, def, list_at.entered().1, element))
        }
        Node::Group { fields, .. } if at.repetition != Repetition::Repeated => {
            let inside = at.inside();
            let mut children = Vec::with_capacity(fields.len());
            for (i, field) in fields.iter().enumerate() {
                let field_at = inside.child(fields, i, at.field.clone(), at.rust_type.clone());
                let Node::Group { fields: parts, .. } = field else {
                    out.push(field_at.mismatch(nested(
                        field,
                        "a shredded object field is a group of `value` and `typed_value`",
                    )));
                    return None;
                };
                if field.repetition() == Repetition::Repeated {
                    out.push(
                        field_at.mismatch(nested(field, "a shredded object field is not REPEATED")),
                    );
                    return None;
                }
                children.push(shredded_node(parts, &field_at.inside(), depth + 1, out)?);
            }
            Some(layout::object(at.leaf, def, children))
        }
        _ => {
            out.push(at.mismatch(nested(node, HINT)));
            None
        }
    }
}
