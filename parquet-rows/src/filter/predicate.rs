//! Predicates as the runtime sees them: a field number, a comparison and a
//! value, untyped once built (the derive's typed handles are what checks the
//! value's type against the field's).

use std::cmp::Ordering;

/// A value a predicate compares with, widened to one of a few kinds: every
/// signed integer (and a date's days) is an `Int`, every unsigned one a
/// `UInt`, `f32` and `f16` a `Float`, timestamps and times of day `Nanos`.
/// The typed handles build one kind per field, so a value and a field's
/// value always share a kind.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Scalar {
    Bool(bool),
    Int(i64),
    UInt(u64),
    Float(f64),
    Str(Box<str>),
    /// A byte string (`[u8; N]`, `Bytes`, `Uuid`), compared bytewise.
    Bytes(Box<[u8]>),
    /// An instant (nanoseconds since the epoch) or a time of day
    /// (nanoseconds since midnight): every unit maps onto it exactly.
    Nanos(i128),
    /// A decimal `unscaled * 10^-scale`, compared by value across scales.
    Decimal(i128, i8),
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
    /// A byte string, compared bytewise.
    Bytes(&'a [u8]),
    /// Nanoseconds since the epoch, or since midnight for a time of day.
    Nanos(i128),
    /// A decimal: the unscaled value and the scale.
    Decimal(i128, i8),
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

/// What a predicate asks of its field: a test on one value, built from
/// comparisons with `and`, `or` and `not`.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Test {
    /// `field op value`; a null never matches.
    Cmp(Op, Scalar),
    /// The field is null.
    IsNull,
    /// The field is not null.
    IsNotNull,
    /// The field equals one of the values (none: no row matches).
    In(Vec<Scalar>),
    /// The test does not hold (a null matches `not` of a comparison).
    Not(Box<Test>),
    /// Every test holds.
    And(Vec<Test>),
    /// Some test holds.
    Or(Vec<Test>),
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
        self.test.matches(value)
    }

    /// Clears `marks[i]` where the `i`th of `values` (the field's values of
    /// a batch of rows) does not match.
    #[inline]
    pub fn mark<'v>(&self, values: impl Iterator<Item = ScalarRef<'v>>, marks: &mut [bool]) {
        self.test.mark(values, marks);
    }
}

impl Test {
    /// Whether a value matches.
    #[inline]
    pub(crate) fn matches(&self, value: ScalarRef<'_>) -> bool {
        match self {
            Test::IsNull => value == ScalarRef::Null,
            Test::IsNotNull => value != ScalarRef::Null,
            // As Rust compares: a NaN differs from everything and is
            // neither less nor greater; a null matches no comparison.
            Test::Cmp(op, scalar) => cmp_holds(*op, value, scalar),
            Test::In(values) => values
                .iter()
                .any(|v| compare(value, v) == Some(Ordering::Equal)),
            Test::Not(test) => !test.matches(value),
            Test::And(tests) => tests.iter().all(|t| t.matches(value)),
            Test::Or(tests) => tests.iter().any(|t| t.matches(value)),
        }
    }

    /// Clears `marks[i]` where `values`' `i`th value fails the test: the
    /// test of a batch of rows' values, a comparison's operator and kind
    /// chosen once rather than for every value.
    pub(crate) fn mark<'v>(&self, values: impl Iterator<Item = ScalarRef<'v>>, marks: &mut [bool]) {
        match self {
            Test::Cmp(op, scalar @ Scalar::Float(b)) => mark_with(values, marks, |v| match v {
                ScalarRef::Float(a) => float_holds(*op, a, *b),
                v => cmp_holds(*op, v, scalar),
            }),
            Test::Cmp(op, scalar @ Scalar::Int(b)) => mark_with(values, marks, |v| match v {
                ScalarRef::Int(a) => holds(*op, a.cmp(b)),
                v => cmp_holds(*op, v, scalar),
            }),
            Test::Cmp(op, scalar) => mark_with(values, marks, |v| cmp_holds(*op, v, scalar)),
            test => mark_with(values, marks, |v| test.matches(v)),
        }
    }

    /// Whether the test compares strings or byte strings: tested on a row,
    /// each comparison walks bytes, where a dictionary-encoded column's
    /// probe tests each entry once.
    pub(crate) fn compares_bytes(&self) -> bool {
        matches!(self.sample(), Some(Scalar::Str(_) | Scalar::Bytes(_)))
    }

    /// One of the values the test compares with: they all share a kind,
    /// which decides how a column's bounds are read. `None` for a test of
    /// nulls only.
    pub(crate) fn sample(&self) -> Option<&Scalar> {
        match self {
            Test::Cmp(_, v) => Some(v),
            Test::IsNull | Test::IsNotNull => None,
            Test::In(values) => values.first(),
            Test::Not(test) => test.sample(),
            Test::And(tests) | Test::Or(tests) => tests.iter().find_map(Test::sample),
        }
    }
}

/// `marks[i] &= test(values[i])`, the test inlined in the loop.
#[inline]
fn mark_with<'v>(
    values: impl Iterator<Item = ScalarRef<'v>>,
    marks: &mut [bool],
    test: impl Fn(ScalarRef<'v>) -> bool,
) {
    for (mark, value) in marks.iter_mut().zip(values) {
        *mark &= test(value);
    }
}

/// Whether `value op scalar` holds: as Rust compares, a NaN differs from
/// everything and is neither less nor greater; a null matches no comparison.
#[inline]
fn cmp_holds(op: Op, value: ScalarRef<'_>, scalar: &Scalar) -> bool {
    match compare(value, scalar) {
        Some(ordering) => holds(op, ordering),
        None => op == Op::Ne && value != ScalarRef::Null,
    }
}

/// [`cmp_holds`] of two floats, without an `Ordering` in between.
#[inline]
#[allow(clippy::float_cmp)] // exact, as `partial_cmp` compares
fn float_holds(op: Op, a: f64, b: f64) -> bool {
    match op {
        Op::Eq => a == b,
        Op::Ne => a != b,
        Op::Lt => a < b,
        Op::Le => a <= b,
        Op::Gt => a > b,
        Op::Ge => a >= b,
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
        (ScalarRef::Bytes(a), Scalar::Bytes(b)) => Some(a.cmp(b)),
        (ScalarRef::Nanos(a), Scalar::Nanos(b)) => Some(a.cmp(b)),
        (ScalarRef::Decimal(a, sa), Scalar::Decimal(b, sb)) => Some(decimal_cmp(a, sa, *b, *sb)),
        (ScalarRef::Bool(a), Scalar::Bool(b)) => Some(a.cmp(b)),
        _ => None,
    }
}

/// `a * 10^-sa` compared with `b * 10^-sb`, exactly: the value of the
/// smaller scale is brought to the larger; when that overflows `i128`, its
/// magnitude exceeds any `i128`, so its sign decides.
pub(crate) fn decimal_cmp(a: i128, sa: i8, b: i128, sb: i8) -> Ordering {
    let up = |v: i128, digits: u32| -> Option<i128> {
        if v == 0 {
            return Some(0);
        }
        10i128.checked_pow(digits)?.checked_mul(v)
    };
    match sa.cmp(&sb) {
        Ordering::Equal => a.cmp(&b),
        Ordering::Less => match up(a, u32::from(sb.abs_diff(sa))) {
            Some(a) => a.cmp(&b),
            None => a.cmp(&0),
        },
        Ordering::Greater => match up(b, u32::from(sa.abs_diff(sb))) {
            Some(b) => a.cmp(&b),
            None => 0.cmp(&b),
        },
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
        self.test.may_match(s)
    }

    /// The values an equality predicate looks for (`eq`, `is_in`, or a
    /// disjunction of them), if it is one: a row group whose dictionary or
    /// bloom filter lacks every one of them holds no match.
    pub(crate) fn equals(&self) -> Option<Vec<&Scalar>> {
        self.test.equals()
    }
}

impl Test {
    /// Whether a value summarised by `s` may match: `false` only when the
    /// summary proves no value can.
    pub(crate) fn may_match(&self, s: &Summary<'_>) -> bool {
        let all_null = s.nulls.is_some_and(|n| n >= s.values);
        match self {
            Test::IsNull => s.nulls.is_none_or(|n| n > 0),
            Test::IsNotNull => !all_null,
            Test::Cmp(op, v) => {
                if all_null {
                    return false;
                }
                let Some((lo, hi)) = bounds(s, v) else {
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
            Test::In(values) => values
                .iter()
                .any(|v| Test::Cmp(Op::Eq, v.clone()).may_match(s)),
            // `not t` may match unless every value is proven to match `t`.
            Test::Not(test) => !test.all_match(s),
            Test::And(tests) => tests.iter().all(|t| t.may_match(s)),
            Test::Or(tests) => tests.iter().any(|t| t.may_match(s)),
        }
    }

    /// Whether every value summarised by `s` (nulls included) is proven to
    /// match: what `not` needs to prune. `false` whenever the summary cannot
    /// tell: unknown null counts or bounds, and floats, whose NaNs lie
    /// outside the bounds.
    pub(crate) fn all_match(&self, s: &Summary<'_>) -> bool {
        match self {
            Test::IsNull => s.nulls.is_some_and(|n| n >= s.values),
            Test::IsNotNull => s.nulls == Some(0),
            Test::Cmp(op, v) => {
                if s.nulls != Some(0) || matches!(v, Scalar::Float(_)) {
                    return false;
                }
                let Some((lo, hi)) = bounds(s, v) else {
                    return false;
                };
                match op {
                    Op::Eq => lo == Ordering::Equal && hi == Ordering::Equal,
                    Op::Ne => lo == Ordering::Greater || hi == Ordering::Less,
                    Op::Lt => hi == Ordering::Less,
                    Op::Le => hi != Ordering::Greater,
                    Op::Gt => lo == Ordering::Greater,
                    Op::Ge => lo != Ordering::Less,
                }
            }
            Test::In(values) => values
                .iter()
                .any(|v| Test::Cmp(Op::Eq, v.clone()).all_match(s)),
            Test::Not(test) => !test.may_match(s),
            Test::And(tests) => tests.iter().all(|t| t.all_match(s)),
            Test::Or(tests) => tests.iter().any(|t| t.all_match(s)),
        }
    }

    fn equals(&self) -> Option<Vec<&Scalar>> {
        match self {
            Test::Cmp(Op::Eq, v) => Some(vec![v]),
            Test::In(values) => Some(values.iter().collect()),
            Test::Or(tests) => {
                let mut all = Vec::new();
                for t in tests {
                    all.extend(t.equals()?);
                }
                Some(all)
            }
            // A conjunction matches only where each part does: the values
            // of any one part that looks for values will do.
            Test::And(tests) => tests.iter().find_map(Test::equals),
            _ => None,
        }
    }
}

/// The summary's bounds compared with `v`: `(min against v, max against v)`,
/// or `None` when absent or not comparable (NaN, another kind).
fn bounds(s: &Summary<'_>, v: &Scalar) -> Option<(Ordering, Ordering)> {
    let (min, max) = (s.min?, s.max?);
    Some((compare(min, v)?, compare(max, v)?))
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
