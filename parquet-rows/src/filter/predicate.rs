//! Predicates as the runtime sees them: a field number, a comparison and a
//! value, untyped once built (the derive's typed handles are what checks the
//! value's type against the field's).

use std::cmp::Ordering;

/// A value a predicate compares with, widened to one of five kinds: every
/// signed integer is an `Int`, every unsigned one a `UInt`, `f32` a `Float`.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Scalar {
    Bool(bool),
    Int(i64),
    UInt(u64),
    Float(f64),
    Str(Box<str>),
}

/// A field's value (or a statistic) seen as a [`Scalar`] without copying it.
#[doc(hidden)]
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum ScalarRef<'a> {
    /// A null (`None`).
    Null,
    /// A `bool`.
    Bool(bool),
    /// A signed integer, widened.
    Int(i64),
    /// An unsigned integer, widened.
    UInt(u64),
    /// A float, widened.
    Float(f64),
    /// The bytes of a string (compared bytewise, as `str`'s `Ord` does).
    Str(&'a [u8]),
}

/// A comparison operator.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Op {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
}

/// What a predicate asks of its field.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Test {
    /// `field op value`; a null never matches.
    Cmp(Op, Scalar),
    /// The field is null.
    IsNull,
    /// The field is not null.
    IsNotNull,
}

/// One predicate of a conjunction: a test on field number `field` (in the
/// order of `ParquetRow::fields`).
#[doc(hidden)]
#[derive(Debug, Clone, PartialEq)]
pub struct Predicate {
    pub(crate) field: usize,
    pub(crate) test: Test,
}

impl Predicate {
    /// The field number the predicate tests.
    pub fn field(&self) -> usize {
        self.field
    }

    /// Whether a row whose field holds `value` matches.
    #[inline]
    pub fn matches(&self, value: ScalarRef<'_>) -> bool {
        match &self.test {
            Test::IsNull => value == ScalarRef::Null,
            Test::IsNotNull => value != ScalarRef::Null,
            // As Rust compares: a NaN differs from everything and is
            // neither less nor greater; a null matches no comparison.
            Test::Cmp(op, scalar) => match compare(value, scalar) {
                Some(ordering) => holds(*op, ordering),
                None => *op == Op::Ne && value != ScalarRef::Null,
            },
        }
    }
}

/// `value` compared with `scalar`; `None` for a null, a NaN, or values of
/// different kinds (which typed predicates never build).
#[inline]
pub(crate) fn compare(value: ScalarRef<'_>, scalar: &Scalar) -> Option<Ordering> {
    match (value, scalar) {
        (ScalarRef::Int(a), Scalar::Int(b)) => Some(a.cmp(b)),
        (ScalarRef::UInt(a), Scalar::UInt(b)) => Some(a.cmp(b)),
        (ScalarRef::Float(a), Scalar::Float(b)) => a.partial_cmp(b),
        (ScalarRef::Str(a), Scalar::Str(b)) => Some(a.cmp(b.as_bytes())),
        (ScalarRef::Bool(a), Scalar::Bool(b)) => Some(a.cmp(b)),
        _ => None,
    }
}

/// Whether `ordering` (of the value against the predicate's scalar) satisfies `op`.
#[inline]
pub(crate) fn holds(op: Op, ordering: Ordering) -> bool {
    match op {
        Op::Eq => ordering == Ordering::Equal,
        Op::Ne => ordering != Ordering::Equal,
        Op::Lt => ordering == Ordering::Less,
        Op::Le => ordering != Ordering::Greater,
        Op::Gt => ordering == Ordering::Greater,
        Op::Ge => ordering != Ordering::Less,
    }
}

/// What is known of a set of values (a row group's or a page's): bounds that
/// every non-null value lies within, and how many nulls and values there are.
/// `None` means unknown.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Summary<'a> {
    pub(crate) min: Option<ScalarRef<'a>>,
    pub(crate) max: Option<ScalarRef<'a>>,
    pub(crate) nulls: Option<u64>,
    pub(crate) values: u64, // nulls included
}

impl Predicate {
    /// Whether a value summarised by `s` may match: `false` only when the
    /// summary proves no value can.
    pub(crate) fn may_match(&self, s: &Summary<'_>) -> bool {
        let all_null = s.nulls.is_some_and(|n| n >= s.values);
        match &self.test {
            Test::IsNull => s.nulls.is_none_or(|n| n > 0),
            Test::IsNotNull => !all_null,
            Test::Cmp(op, v) => {
                if all_null {
                    return false;
                }
                let (Some(min), Some(max)) = (s.min, s.max) else {
                    return true;
                };
                // Bounds that do not compare (NaN, another kind) prove nothing.
                let (Some(lo), Some(hi)) = (compare(min, v), compare(max, v)) else {
                    return true;
                };
                match op {
                    Op::Eq => lo != Ordering::Greater && hi != Ordering::Less,
                    // Bounds leave NaNs out, and a NaN differs from `v`.
                    Op::Ne if matches!(v, Scalar::Float(_)) => true,
                    Op::Ne => !(lo == Ordering::Equal && hi == Ordering::Equal),
                    Op::Lt => lo == Ordering::Less,
                    Op::Le => lo != Ordering::Greater,
                    Op::Gt => hi == Ordering::Greater,
                    Op::Ge => hi != Ordering::Less,
                }
            }
        }
    }

    /// The value an equality predicate looks for, if it is one.
    pub(crate) fn equals(&self) -> Option<&Scalar> {
        match &self.test {
            Test::Cmp(Op::Eq, v) => Some(v),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cmp(field: usize, op: Op, v: Scalar) -> Predicate {
        Predicate {
            field,
            test: Test::Cmp(op, v),
        }
    }

    #[test]
    fn rows_compare_by_kind_and_nulls_never_match() {
        let p = cmp(0, Op::Gt, Scalar::Int(5));
        assert!(p.matches(ScalarRef::Int(6)));
        assert!(!p.matches(ScalarRef::Int(5)));
        assert!(!p.matches(ScalarRef::Null));
        let s = cmp(0, Op::Eq, Scalar::Str("b".into()));
        assert!(s.matches(ScalarRef::Str(b"b")));
        assert!(!s.matches(ScalarRef::Str(b"bb")));
        let f = cmp(0, Op::Le, Scalar::Float(1.0));
        assert!(!f.matches(ScalarRef::Float(f64::NAN)));
        assert!(cmp(0, Op::Ne, Scalar::Float(1.0)).matches(ScalarRef::Float(f64::NAN)));
        assert!(!cmp(0, Op::Ne, Scalar::Float(1.0)).matches(ScalarRef::Null));
        assert!(f.matches(ScalarRef::Float(-0.0)));
    }

    #[test]
    fn summaries_prune_only_what_they_prove() {
        let s = Summary {
            min: Some(ScalarRef::Int(10)),
            max: Some(ScalarRef::Int(20)),
            nulls: Some(0),
            values: 5,
        };
        assert!(cmp(0, Op::Eq, Scalar::Int(10)).may_match(&s));
        assert!(!cmp(0, Op::Eq, Scalar::Int(21)).may_match(&s));
        assert!(!cmp(0, Op::Lt, Scalar::Int(10)).may_match(&s));
        assert!(cmp(0, Op::Le, Scalar::Int(10)).may_match(&s));
        assert!(!cmp(0, Op::Gt, Scalar::Int(20)).may_match(&s));
        assert!(!Predicate {
            field: 0,
            test: Test::IsNull
        }
        .may_match(&s));
        let unknown = Summary {
            min: None,
            max: None,
            nulls: None,
            values: 5,
        };
        assert!(cmp(0, Op::Eq, Scalar::Int(99)).may_match(&unknown));
        let nan = Summary {
            min: Some(ScalarRef::Float(f64::NAN)),
            max: Some(ScalarRef::Float(1.0)),
            nulls: None,
            values: 5,
        };
        assert!(cmp(0, Op::Gt, Scalar::Float(2.0)).may_match(&nan));
        let all_null = Summary {
            nulls: Some(5),
            ..unknown
        };
        assert!(!cmp(0, Op::Ne, Scalar::Int(1)).may_match(&all_null));
        assert!(!Predicate {
            field: 0,
            test: Test::IsNotNull
        }
        .may_match(&all_null));
    }
}
