//! Typed filters: read only the rows that match, skipping what statistics,
//! dictionaries, bloom filters and the page index prove cannot match.
//!
//! `#[derive(ParquetRow)]` on `Tick` generates `TickFilter`, reached by
//! `Tick::filter()`, with one method per field of a type with an order or an
//! equality (numbers, strings, byte strings, timestamps, dates, times,
//! decimals, and their `Option`s; a converted field in its source type).
//! Each returns a [`Column`] whose comparisons take a value of the field's
//! own type, so a predicate of the wrong type does not compile. Predicates
//! chain into a conjunction; [`Column::is_in`], [`Column::any_of`] and
//! [`Column::not`] test one field with a disjunction or a negation.
//!
//! ```
//! use parquet_rows::{ParquetFile, ParquetRow, RowFilter};
//!
//! #[derive(ParquetRow)]
//! struct Tick<'a> { ts: i64, symbol: &'a str, bid: f64, ask: f64 }
//!
//! # fn main() -> parquet_rows::Result<()> {
//! # let file = ParquetFile::from_bytes(parquet_rows::doc_support::tick_file(100)?)?;
//! let t0 = 1_774_000_000_000_000; // the file's ticks are 137 µs apart from t0
//! let (low, high) = (t0 + 10 * 137, t0 + 19 * 137);
//! let pages = file.rows::<Tick>().filter(Tick::filter().ts().between(low, high).symbol().eq("EURUSD")).load()?;
//! let ticks: Vec<Tick<'_>> = pages.rows()?;
//! assert_eq!(ticks.len(), 10);
//! assert!(ticks.iter().all(|t| (low..=high).contains(&t.ts) && t.symbol == "EURUSD"));
//!
//! // The first five matching rows, after skipping two.
//! let first = file.rows::<Tick>().filter(Tick::filter().symbol().eq("EURUSD").offset(2).limit(5)).load()?;
//! let first: Vec<Tick<'_>> = first.rows()?;
//! assert_eq!(first.len(), 5);
//! assert_eq!(first[0].ts, t0 + 2 * 137);
//! # Ok(()) }
//! ```
//!
//! The rows returned are exactly the rows of the full read that match, in
//! file order. How statistics are trusted is written in `docs/filters.md`.

pub(crate) mod plan;
mod predicate;
pub(crate) mod prune;
mod values;

use std::marker::PhantomData;
use std::ops::{Bound, RangeBounds};

pub(crate) use predicate::{Op, Scalar, Summary, Test};
pub use predicate::{Predicate, ScalarRef};

/// The filter type `#[derive(ParquetRow)]` generated for `T`, to name it
/// (`FilterOf<Tick<'static>>` for a struct with a lifetime, whose filter does
/// not depend on it).
///
/// ```
/// # use parquet_rows::{FilterOf, ParquetRow};
/// #[derive(ParquetRow)]
/// struct Tick { ts: i64, symbol: String }
///
/// fn recent(filter: FilterOf<Tick>, since: i64) -> FilterOf<Tick> {
///     filter.ts().ge(since)
/// }
/// let filter = recent(Tick::filter().symbol().eq("EURUSD"), 1_000);
/// ```
pub type FilterOf<T> = <T as crate::ParquetRow<'static>>::Filter;

/// The predicates of a filter under construction (a conjunction), held by
/// the derive-generated filter types.
#[doc(hidden)]
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Predicates {
    pub(crate) all: Vec<Predicate>,
}

impl Predicates {
    fn push(&mut self, field: usize, test: Test) {
        self.all.push(Predicate { field, test });
    }
}

/// A filter over the rows of one struct: what `#[derive(ParquetRow)]`
/// generates (`TickFilter` for `Tick`, made by `Tick::filter()`).
///
/// The methods are plumbing, except [`RowFilter::offset`] and
/// [`RowFilter::limit`], which turn the filter into a [`Query`].
pub trait RowFilter: Sized {
    /// The predicates so far.
    #[doc(hidden)]
    fn as_predicates_mut(&mut self) -> &mut Predicates;

    /// The predicates, consuming the filter.
    #[doc(hidden)]
    fn into_predicate_list(self) -> Predicates;

    /// For a predicate on a `#[parquet(partition)]` field, whether a file
    /// whose partition values are `partitions` may hold matching rows (an
    /// error when its value does not parse as the field's type); `None` for
    /// a predicate on a column.
    #[doc(hidden)]
    fn partition_test(
        predicate: &Predicate,
        partitions: &crate::Partitions,
    ) -> Option<crate::Result<bool>> {
        let _ = (predicate, partitions);
        None
    }

    /// Skips the first `n` matching rows.
    ///
    /// ```
    /// # use parquet_rows::{ParquetRow, RowFilter};
    /// # #[derive(ParquetRow)] struct Tick { ts: i64 }
    /// let query = Tick::filter().ts().gt(0).offset(10).limit(100);
    /// ```
    fn offset(self, n: usize) -> Query<Self> {
        Query::from_filter(self).offset(n)
    }

    /// Returns at most `n` matching rows.
    fn limit(self, n: usize) -> Query<Self> {
        Query::from_filter(self).limit(n)
    }
}

/// A filter with a window over the matching rows: skip `offset` of them,
/// return at most `limit`. Made from a filter by [`RowFilter::offset`] and
/// [`RowFilter::limit`]; every filter converts into one.
#[derive(Debug)]
pub struct Query<F> {
    pub(crate) predicates: Predicates,
    pub(crate) offset: usize,
    pub(crate) limit: Option<usize>,
    filter: PhantomData<fn() -> F>,
}

// Not derived: a derived `Clone` would ask `F: Clone`, and a query holds no `F`.
impl<F> Clone for Query<F> {
    fn clone(&self) -> Self {
        Query {
            predicates: self.predicates.clone(),
            offset: self.offset,
            limit: self.limit,
            filter: PhantomData,
        }
    }
}

impl<F: RowFilter> Query<F> {
    /// Every row that `filter` lets through.
    pub fn from_filter(filter: F) -> Self {
        Query {
            predicates: filter.into_predicate_list(),
            offset: 0,
            limit: None,
            filter: PhantomData,
        }
    }

    /// Skips the first `n` matching rows.
    #[must_use]
    pub fn offset(mut self, n: usize) -> Self {
        self.offset = n;
        self
    }

    /// Returns at most `n` matching rows.
    #[must_use]
    pub fn limit(mut self, n: usize) -> Self {
        self.limit = Some(n);
        self
    }
}

impl<F> Query<F> {
    /// The untyped part: what the loaders and decoders need.
    pub(crate) fn erase(self) -> Selection {
        Selection {
            predicates: self.predicates.all,
            offset: self.offset,
            limit: self.limit,
        }
    }
}

/// A query with the row type forgotten (predicates name fields by number).
#[derive(Debug, Clone, Default)]
pub(crate) struct Selection {
    pub(crate) predicates: Vec<Predicate>,
    pub(crate) offset: usize,
    pub(crate) limit: Option<usize>,
}

impl Selection {
    /// Whether the window is by position: an offset or a limit and no
    /// predicate, so the rows kept are known from row counts alone.
    pub(crate) fn positional(&self) -> bool {
        self.predicates.is_empty() && (self.offset > 0 || self.limit.is_some())
    }

    /// The selection for a file whose partition values are `partitions`:
    /// the predicates on partition fields (of filter `F`) are decided here,
    /// once for the whole file, and left out; `None` when one of them rules
    /// the file out.
    pub(crate) fn for_partitions<F: RowFilter>(
        &self,
        partitions: &crate::Partitions,
    ) -> crate::Result<Option<Selection>> {
        let mut columns = Vec::with_capacity(self.predicates.len());
        for p in &self.predicates {
            match F::partition_test(p, partitions) {
                None => columns.push(p.clone()),
                Some(Ok(true)) => {}
                Some(Ok(false)) => return Ok(None),
                Some(Err(e)) => return Err(e),
            }
        }
        Ok(Some(Selection {
            predicates: columns,
            offset: self.offset,
            limit: self.limit,
        }))
    }
}

/// What is left of a query's window while rows stream past it.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Window {
    pub(crate) skip: usize,         // matching rows still to skip
    pub(crate) take: Option<usize>, // matching rows still to return (`None`: all)
}

impl Window {
    /// The whole window of `selection`.
    pub(crate) fn of(selection: &Selection) -> Self {
        Window {
            skip: selection.offset,
            take: selection.limit,
        }
    }

    /// Every matching row: no offset, no limit.
    #[cfg(feature = "rayon")]
    pub(crate) fn all() -> Self {
        Window {
            skip: 0,
            take: None,
        }
    }

    /// Whether no more rows will be returned.
    pub(crate) fn full(&self) -> bool {
        self.take == Some(0)
    }

    /// Keeps of `rows[from..]` those that `keep` accepts and the window lets
    /// through, in order: the window over rows of several row groups each
    /// selected on its own (in parallel, or file by file).
    #[cfg(any(test, feature = "rayon", feature = "object_store"))]
    pub(crate) fn retain<T>(
        &mut self,
        rows: &mut Vec<T>,
        from: usize,
        mut keep: impl FnMut(&T) -> bool,
    ) {
        let mut kept = from;
        for i in from..rows.len() {
            if self.full() {
                break;
            }
            if !keep(&rows[i]) {
                continue;
            }
            if self.skip > 0 {
                self.skip -= 1;
                continue;
            }
            rows.swap(kept, i);
            kept += 1;
            if let Some(take) = &mut self.take {
                *take -= 1;
            }
        }
        rows.truncate(kept);
    }
}

/// The filter of a struct with no filterable field, and of the stub a
/// failed derive emits.
#[doc(hidden)]
#[derive(Debug, Default, Clone)]
pub struct NoFilter(Predicates);

impl RowFilter for NoFilter {
    fn as_predicates_mut(&mut self) -> &mut Predicates {
        &mut self.0
    }
    fn into_predicate_list(self) -> Predicates {
        self.0
    }
}

impl From<NoFilter> for Query<NoFilter> {
    fn from(filter: NoFilter) -> Self {
        Query::from_filter(filter)
    }
}

/// A field type that predicates can test: `bool`, the integers, the floats,
/// the string and byte-string types, `[u8; N]`, [`Timestamp`](crate::Timestamp),
/// [`Date`](crate::Date), [`Time`](crate::Time), [`Int96`](crate::Int96),
/// [`Decimal`](crate::Decimal), the types of the optional integrations, and
/// `Option`s of them.
///
/// `Value` is the type of the values the field is compared with: the field's
/// own type, `String` for the string types (so `eq("EURUSD")` reads well),
/// `Vec<u8>` for the byte strings, the inner type for an `Option`.
#[diagnostic::on_unimplemented(
    message = "a field of type `{Self}` cannot be filtered on",
    note = "filters compare fields of types with an order or an equality (numbers, strings, bytes, timestamps, dates, times, decimals) and `Option`s of them"
)]
pub trait FilterField {
    /// The type of the values this field is compared with.
    type Value: FilterValue;
    /// The type the field's column is decoded as to test predicates before
    /// the rows are decoded: the field's type, with `&str` for the owned
    /// string types, so that testing allocates nothing.
    #[doc(hidden)]
    type Probe<'p>: crate::nested::ParquetNode<'p> + FilterField;
    /// The field's value for a predicate.
    #[doc(hidden)]
    fn scalar(&self) -> ScalarRef<'_>;
}

/// A value a predicate compares a field with (see [`FilterField::Value`]).
pub trait FilterValue {
    /// The value, widened.
    #[doc(hidden)]
    #[allow(private_interfaces)]
    fn into_scalar(self) -> Scalar;
}

/// A value that a field of value type `V` compares with: `V` itself, and
/// for string fields `&str`, `&String`, `Box<str>`, `Arc<str>` and `Cow<str>`.
/// Numbers are not widened: `ts().gt(t0)` on an `i64` field takes an `i64`
/// (a literal is inferred as one), so a predicate reads as the field's type.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a value of the field's type `{V}`",
    label = "the field compares with `{V}` values",
    note = "a predicate compares a field with a value of the field's own type"
)]
pub trait IntoFilterValue<V> {
    /// The value, as the field's value type.
    #[doc(hidden)]
    fn into_filter_value(self) -> V;
}

impl<V: FilterValue> IntoFilterValue<V> for V {
    fn into_filter_value(self) -> V {
        self
    }
}

macro_rules! into_string {
    ($($t:ty),*) => {$(
        impl IntoFilterValue<String> for $t {
            fn into_filter_value(self) -> String {
                String::from(&*self)
            }
        }
    )*};
}

into_string!(
    &str,
    &String,
    Box<str>,
    std::sync::Arc<str>,
    std::borrow::Cow<'_, str>
);
#[cfg(feature = "compact_str")]
into_string!(compact_str::CompactString);

macro_rules! numbers {
    ($($t:ty => $kind:ident as $wide:ty),* $(,)?) => {$(
        impl FilterField for $t {
            type Value = $t;
            type Probe<'p> = $t;
            #[inline]
            fn scalar(&self) -> ScalarRef<'_> {
                ScalarRef::$kind(<$wide>::from(*self))
            }
        }
        impl FilterValue for $t {
            #[allow(private_interfaces)]
            fn into_scalar(self) -> Scalar {
                Scalar::$kind(<$wide>::from(self))
            }
        }
    )*};
}

numbers! {
    bool => Bool as bool,
    i8 => Int as i64, i16 => Int as i64, i32 => Int as i64, i64 => Int as i64,
    u8 => UInt as u64, u16 => UInt as u64, u32 => UInt as u64, u64 => UInt as u64,
    f32 => Float as f64, f64 => Float as f64,
}

macro_rules! strings {
    ($($t:ty),*) => {$(
        impl FilterField for $t {
            type Value = String;
            type Probe<'p> = &'p str;
            #[inline]
            fn scalar(&self) -> ScalarRef<'_> {
                ScalarRef::Str(str::as_bytes(self))
            }
        }
    )*};
}

strings!(&str, String, Box<str>, std::sync::Arc<str>);
#[cfg(feature = "compact_str")]
strings!(compact_str::CompactString);

impl FilterValue for String {
    #[allow(private_interfaces)]
    fn into_scalar(self) -> Scalar {
        Scalar::Str(self.into_boxed_str())
    }
}

impl<T: FilterField> FilterField for Option<T> {
    type Value = T::Value;
    type Probe<'p> = Option<T::Probe<'p>>;
    #[inline]
    fn scalar(&self) -> ScalarRef<'_> {
        self.as_ref().map_or(ScalarRef::Null, T::scalar)
    }
}

/// One field of a filter under construction: its comparisons take values of
/// the field's type `V` and return the filter `F`, to chain the next
/// predicate (a conjunction).
///
/// ```
/// # use parquet_rows::ParquetRow;
/// #[derive(ParquetRow)]
/// struct Quote { symbol: String, size: Option<i32> }
///
/// let filter = Quote::filter().symbol().eq("EURUSD").size().gt(100);
/// ```
///
/// Disjunctions and negations of one field's tests: [`Column::is_in`],
/// [`Column::any_of`] with [`Cond`]s, and [`Column::not`].
///
/// ```
/// # use parquet_rows::{Cond, ParquetRow};
/// # #[derive(ParquetRow)]
/// # struct Quote { symbol: String, size: Option<i32> }
/// let majors = Quote::filter().symbol().is_in(["EURUSD", "USDJPY"]);
/// let odd = Quote::filter().size().any_of([Cond::lt(10), Cond::gt(1_000)]);
/// let rest = Quote::filter().size().not().in_range(10..=1_000);
/// ```
///
/// A value of another type is a compile error:
///
/// ```compile_fail
/// # use parquet_rows::ParquetRow;
/// # #[derive(ParquetRow)]
/// # struct Quote { symbol: String, size: Option<i32> }
/// let filter = Quote::filter().size().gt("100");
/// ```
#[derive(Debug)]
pub struct Column<F, V> {
    filter: F,
    field: usize,
    negated: bool, // every test pushed is negated as a whole
    value: PhantomData<fn(V)>,
}

impl<F: RowFilter, V: FilterValue> Column<F, V> {
    /// The handle of field number `field` (in `ParquetRow::fields` order).
    #[doc(hidden)]
    pub fn new(filter: F, field: usize) -> Self {
        Column {
            filter,
            field,
            negated: false,
            value: PhantomData,
        }
    }

    /// The field passes `cond`: the general form of the methods below.
    pub fn matches(mut self, cond: Cond<V>) -> F {
        let predicates = self.filter.as_predicates_mut();
        match (cond.test, self.negated) {
            (test, true) => predicates.push(self.field, Test::Not(Box::new(test))),
            // A range is two predicates: each prunes on its own, as before.
            (Test::And(tests), false) => {
                for test in tests {
                    predicates.push(self.field, test);
                }
            }
            (test, false) => predicates.push(self.field, test),
        }
        self.filter
    }

    /// Negates the next test as a whole: `not().in_range(a..b)` keeps the
    /// rows outside the range. A null matches a negated comparison
    /// (`not().eq(v)` keeps the nulls; [`Column::ne`] does not).
    #[allow(clippy::should_implement_trait)] // consumes a handle, not a value: not `ops::Not`
    #[must_use]
    pub fn not(mut self) -> Self {
        self.negated = !self.negated;
        self
    }

    /// The field passes at least one of `conds` (none: no row matches).
    pub fn any_of(self, conds: impl IntoIterator<Item = Cond<V>>) -> F {
        let tests = conds.into_iter().map(|c| c.test).collect();
        self.matches(Cond::from_test(Test::Or(tests)))
    }

    /// The field equals one of `values` (none: no row matches).
    pub fn is_in<T: IntoFilterValue<V>>(self, values: impl IntoIterator<Item = T>) -> F {
        self.matches(Cond::is_in(values))
    }

    /// The field equals `value`.
    pub fn eq(self, value: impl IntoFilterValue<V>) -> F {
        self.matches(Cond::eq(value))
    }

    /// The field is not null and differs from `value`.
    pub fn ne(self, value: impl IntoFilterValue<V>) -> F {
        self.matches(Cond::ne(value))
    }

    /// The field is less than `value`.
    pub fn lt(self, value: impl IntoFilterValue<V>) -> F {
        self.matches(Cond::lt(value))
    }

    /// The field is at most `value`.
    pub fn le(self, value: impl IntoFilterValue<V>) -> F {
        self.matches(Cond::le(value))
    }

    /// The field is greater than `value`.
    pub fn gt(self, value: impl IntoFilterValue<V>) -> F {
        self.matches(Cond::gt(value))
    }

    /// The field is at least `value`.
    pub fn ge(self, value: impl IntoFilterValue<V>) -> F {
        self.matches(Cond::ge(value))
    }

    /// `low <= field <= high`, both ends included (as SQL's `BETWEEN`).
    pub fn between(self, low: impl IntoFilterValue<V>, high: impl IntoFilterValue<V>) -> F {
        self.matches(Cond::between(low, high))
    }

    /// The field lies in `range` (`t0..t1`, `t0..=t1`, `..t1`, `t0..`).
    pub fn in_range<T: IntoFilterValue<V> + Clone>(self, range: impl RangeBounds<T>) -> F {
        self.matches(Cond::in_range(range))
    }

    /// The field is null (`None`); never true of a field that is not an
    /// `Option`.
    pub fn is_null(self) -> F {
        self.matches(Cond::is_null())
    }

    /// The field is not null.
    pub fn is_not_null(self) -> F {
        self.matches(Cond::is_not_null())
    }
}

/// A test on one value of type `V`, for [`Column::matches`] and
/// [`Column::any_of`]: comparisons, combined with [`Cond::or`],
/// [`Cond::and`] and `!` (negation, under which a null matches a
/// comparison). `V` is inferred from the column the test is given to.
///
/// ```
/// # use parquet_rows::{Cond, ParquetRow};
/// #[derive(ParquetRow)]
/// struct Tick { ts: i64, size: i32 }
///
/// let night = Tick::filter().ts().matches(Cond::lt(1_000).or(Cond::ge(9_000)));
/// let filter = Tick::filter().size().matches(!Cond::in_range(10..20));
/// ```
#[derive(Debug, Clone)]
pub struct Cond<V> {
    test: Test,
    value: PhantomData<fn(V)>,
}

impl<V: FilterValue> Cond<V> {
    fn from_test(test: Test) -> Self {
        Cond {
            test,
            value: PhantomData,
        }
    }

    fn cmp(op: Op, value: impl IntoFilterValue<V>) -> Self {
        Self::from_test(Test::Cmp(op, value.into_filter_value().into_scalar()))
    }

    /// The value equals `value`.
    pub fn eq(value: impl IntoFilterValue<V>) -> Self {
        Self::cmp(Op::Eq, value)
    }

    /// The value is not null and differs from `value`.
    pub fn ne(value: impl IntoFilterValue<V>) -> Self {
        Self::cmp(Op::Ne, value)
    }

    /// The value is less than `value`.
    pub fn lt(value: impl IntoFilterValue<V>) -> Self {
        Self::cmp(Op::Lt, value)
    }

    /// The value is at most `value`.
    pub fn le(value: impl IntoFilterValue<V>) -> Self {
        Self::cmp(Op::Le, value)
    }

    /// The value is greater than `value`.
    pub fn gt(value: impl IntoFilterValue<V>) -> Self {
        Self::cmp(Op::Gt, value)
    }

    /// The value is at least `value`.
    pub fn ge(value: impl IntoFilterValue<V>) -> Self {
        Self::cmp(Op::Ge, value)
    }

    /// `low <= value <= high`.
    pub fn between(low: impl IntoFilterValue<V>, high: impl IntoFilterValue<V>) -> Self {
        Self::ge(low).and(Self::le(high))
    }

    /// The value lies in `range` (`..` lets every row through, nulls
    /// included).
    pub fn in_range<T: IntoFilterValue<V> + Clone>(range: impl RangeBounds<T>) -> Self {
        let mut tests = Vec::with_capacity(2);
        let mut push = |op, v: &T| {
            tests.push(Test::Cmp(op, v.clone().into_filter_value().into_scalar()));
        };
        match range.start_bound() {
            Bound::Included(v) => push(Op::Ge, v),
            Bound::Excluded(v) => push(Op::Gt, v),
            Bound::Unbounded => {}
        }
        match range.end_bound() {
            Bound::Included(v) => push(Op::Le, v),
            Bound::Excluded(v) => push(Op::Lt, v),
            Bound::Unbounded => {}
        }
        // `..`: no bound, every row (nulls included) passes.
        Self::from_test(Test::And(tests))
    }

    /// The value equals one of `values` (none: nothing matches).
    pub fn is_in<T: IntoFilterValue<V>>(values: impl IntoIterator<Item = T>) -> Self {
        let values = values
            .into_iter()
            .map(|v| v.into_filter_value().into_scalar())
            .collect();
        Self::from_test(Test::In(values))
    }

    /// The value is null.
    pub fn is_null() -> Self {
        Self::from_test(Test::IsNull)
    }

    /// The value is not null.
    pub fn is_not_null() -> Self {
        Self::from_test(Test::IsNotNull)
    }

    /// Either test holds.
    #[must_use]
    pub fn or(self, other: Self) -> Self {
        Self::from_test(Test::Or(vec![self.test, other.test]))
    }

    /// Both tests hold.
    #[must_use]
    pub fn and(self, other: Self) -> Self {
        let tests = match (self.test, other.test) {
            (Test::And(mut a), Test::And(b)) => {
                a.extend(b);
                a
            }
            (Test::And(mut a), b) => {
                a.push(b);
                a
            }
            (a, b) => vec![a, b],
        };
        Self::from_test(Test::And(tests))
    }
}

impl<V> std::ops::Not for Cond<V> {
    type Output = Self;

    /// The test does not hold; a null matches a negated comparison.
    fn not(self) -> Self {
        Cond {
            test: Test::Not(Box::new(self.test)),
            value: PhantomData,
        }
    }
}

/// Moves a field's reader past `n` rows it does not hand out: the rows of a
/// page before (or after) the rows a query reads. Flat columns skip their
/// levels and values without decoding them; nested fields skip whole
/// records in every column under them, without assembling them
/// ([`BatchReader::skip`](crate::nested::BatchReader::skip)).
#[doc(hidden)]
pub fn discard<T, R: crate::nested::BatchReader<T>>(reader: &mut R, n: usize) -> crate::Result<()> {
    reader.skip(n)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn windows_skip_then_take_across_batches() {
        let selection = Selection {
            predicates: Vec::new(),
            offset: 3,
            limit: Some(4),
        };
        let mut window = Window::of(&selection);
        // Batch one: evens match; 0, 2, 4 are skipped, 6 and 8 kept.
        let mut rows: Vec<u32> = (0..10).collect();
        window.retain(&mut rows, 0, |r| r % 2 == 0);
        assert_eq!(rows, [6, 8]);
        // Batch two, appended after rows kept earlier: two more, then full.
        let mut more = vec![100, 10, 12, 14, 16];
        window.retain(&mut more, 1, |r| r % 2 == 0);
        assert_eq!(more, [100, 10, 12]);
        assert!(window.full());
    }
}
