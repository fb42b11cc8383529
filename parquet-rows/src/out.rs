//! Where decoded values go: the end of a `Vec`, or one field of each row of
//! a batch.
//!
//! Decoding a column into a buffer and then zipping the buffers into rows
//! moves every value twice. Writing each value straight into its field of an
//! already-placed row moves it once: measured on the 370k tick file
//! (`bench-report run tick-370k-zstd rows-decode-only`), see the README's
//! performance section. The rows of the batch are first filled with a cheap
//! placeholder (no allocation), so every write is an ordinary safe assignment
//! through a field projection like `|row: &mut Tick| &mut row.bid`.

pub use crate::encoding::ValueOut;

/// A destination lent to a wrapper (`Converted`) that takes it by value.
impl<T, O: ValueOut<T> + ?Sized> ValueOut<T> for &mut O {
    #[inline]
    fn put_all<I: Iterator<Item = T>>(&mut self, values: I) {
        (**self).put_all(values);
    }
    #[inline]
    fn reserve(&mut self, additional: usize) {
        (**self).reserve(additional);
    }
}

/// Whether a field holds a column's values as they are (`T`) or may hold a
/// null (`Option<T>`): the one difference between reading a plain field and
/// an `Option` one, as a type the column reader is generic over, so each is
/// compiled into its own loop with no branch per value.
#[doc(hidden)] // appears in `ParquetField`'s hidden methods; not nameable outside
pub trait Nulls: 'static {
    /// Whether the field can hold a null; a null read into a field that
    /// cannot is an error naming the row.
    const NULLABLE: bool;
    /// The field's type for values of type `T`.
    type Field<T>;
    /// A non-null value as the field holds it.
    fn some<T>(value: T) -> Self::Field<T>;
}

/// A plain field (`i64`, `&str`): every value must be non-null.
#[derive(Debug)]
#[doc(hidden)]
pub struct NotNull;

impl Nulls for NotNull {
    const NULLABLE: bool = false;
    type Field<T> = T;
    #[inline]
    fn some<T>(value: T) -> T {
        value
    }
}

/// An `Option<T>` field: a null is `None`.
#[derive(Debug)]
#[doc(hidden)]
pub struct Nullable;

impl Nulls for Nullable {
    const NULLABLE: bool = true;
    type Field<T> = Option<T>;
    #[inline]
    fn some<T>(value: T) -> Option<T> {
        Some(value)
    }
}

/// One field of each row of a batch, in row order; `N` says whether the
/// field is the value itself or an `Option` of it.
pub(crate) struct FieldOut<'r, R, F, N = NotNull> {
    rows: std::slice::IterMut<'r, R>, // the rows not written yet
    field: F,                         // projects a row onto the field
    nulls: std::marker::PhantomData<N>,
}

impl<'r, R, F, N> FieldOut<'r, R, F, N> {
    /// Writes start at the first row of `rows`.
    pub(crate) fn new(rows: &'r mut [R], field: F) -> Self {
        FieldOut {
            rows: rows.iter_mut(),
            field,
            nulls: std::marker::PhantomData,
        }
    }
}

impl<R, T, N: Nulls, F: FnMut(&mut R) -> &mut N::Field<T>> ValueOut<T> for FieldOut<'_, R, F, N> {
    #[inline]
    fn put_all<I: Iterator<Item = T>>(&mut self, values: I) {
        // The iterator is moved into a local for the loop: advanced in place
        // through `self`, its position was stored back to memory after every
        // row written (the compiler cannot tell the rows from `self` apart).
        let mut rows = std::mem::take(&mut self.rows);
        if let (n, Some(upper)) = values.size_hint() {
            if n == upper {
                // An exact count (std's slice, `chunks_exact` and
                // `repeat_n` iterators: indices, PLAIN bytes, a run): the
                // rows it fills are split off first and zipped by value,
                // and a zip of two slice iterators counts one index
                // instead of checking both ends for every value.
                let rows = rows.into_slice();
                let (head, tail) = rows.split_at_mut(n.min(rows.len()));
                for (value, row) in values.zip(head) {
                    *(self.field)(row) = N::some(value);
                }
                self.rows = tail.iter_mut();
                return;
            }
        }
        // Values first: `zip` takes an item from its first iterator before
        // asking the second, and a row taken when the values have run out
        // would be skipped by the next call.
        for (value, row) in values.zip(&mut rows) {
            *(self.field)(row) = N::some(value);
        }
        self.rows = rows;
    }
}

/// Values converted on their way into another destination: a field of each
/// row, say, so converted values (a `String` per value) need no buffer of
/// the decoded ones. The first conversion error stops the writes and is kept
/// for the caller.
pub(crate) struct Converted<O, C, E> {
    out: O,           // where converted values go
    convert: C,       // the conversion
    error: Option<E>, // the first conversion error; nothing is written after it
}

impl<O, C, E> Converted<O, C, E> {
    pub(crate) fn new(out: O, convert: C) -> Self {
        Converted {
            out,
            convert,
            error: None,
        }
    }

    /// The first conversion error, if any.
    pub(crate) fn into_error(self) -> Option<E> {
        self.error
    }
}

impl<V, T, E, O: ValueOut<T>, C: FnMut(V) -> Result<T, E>> ValueOut<V> for Converted<O, C, E> {
    #[inline]
    fn put_all<I: Iterator<Item = V>>(&mut self, values: I) {
        if self.error.is_some() {
            return;
        }
        let (convert, error) = (&mut self.convert, &mut self.error);
        self.out.put_all(values.map_while(|v| match convert(v) {
            Ok(t) => Some(t),
            Err(e) => {
                *error = Some(e);
                None
            }
        }));
    }
}

/// Moves `values` into the field `field` of `rows`, one per row, in order.
pub(crate) fn scatter<R, T>(
    rows: &mut [R],
    values: impl Iterator<Item = T>,
    field: impl FnMut(&mut R) -> &mut T,
) {
    FieldOut::<_, _, NotNull>::new(rows, field).put_all(values);
}

/// Where a column reader puts the values of a batch of rows, nulls
/// included: one field of each row ([`Rows`]), or the end of a buffer
/// (`Vec<T>` for a plain field, [`Optionals`] for an `Option` one). The
/// reader's one read path is generic over it; `Nulls` says whether a null
/// is a `None` or an error.
pub(crate) trait Sink<T> {
    /// Whether the destination holds `T` or `Option<T>`.
    type Nulls: Nulls;
    /// Where the values of the next rows go.
    type Stretch<'s>: ValueOut<T>
    where
        Self: 's;
    /// Whether a chunk of definition levels outside a run is read as its
    /// non-null values in one decoder call, then spread over the chunk's
    /// rows by [`Sink::spread`]; otherwise stretch by stretch of non-null
    /// rows, the null rows passed over by [`Sink::nulls`].
    const SPREADS: bool = false;
    /// The next `k` rows, all non-null.
    fn stretch(&mut self, k: usize) -> Self::Stretch<'_>;
    /// Passes over the next `k` rows, which are null.
    fn nulls(&mut self, k: usize);
    /// For a sink that [`SPREADS`](Sink::SPREADS): the last `non_null`
    /// values put are those of the rows whose level in `levels` is `max`;
    /// moves them to their rows, with a null in each other row. `false`
    /// when fewer values than `non_null` were put.
    fn spread(&mut self, levels: &[u32], max: u32, non_null: usize) -> bool {
        let _ = (levels, max, non_null);
        true
    }
}

/// One field of each of a batch of rows, the rows of nulls keeping their
/// placeholder (`None`).
pub(crate) struct Rows<'r, R, F, N> {
    left: &'r mut [R], // the rows not reached yet
    field: F,          // projects a row onto the field
    nulls: std::marker::PhantomData<N>,
}

impl<'r, R, F, N> Rows<'r, R, F, N> {
    /// Values go to `field(row)` of `rows`, in order.
    pub(crate) fn new(rows: &'r mut [R], field: F) -> Self {
        Rows {
            left: rows,
            field,
            nulls: std::marker::PhantomData,
        }
    }

    /// How many rows are left.
    pub(crate) fn len(&self) -> usize {
        self.left.len()
    }

    /// Splits off the next `k` rows (fewer when fewer are left).
    fn take(&mut self, k: usize) -> &'r mut [R] {
        let rows = std::mem::take(&mut self.left);
        let (head, tail) = rows.split_at_mut(k.min(rows.len()));
        self.left = tail;
        head
    }
}

impl<R, T, N: Nulls, F: FnMut(&mut R) -> &mut N::Field<T>> Sink<T> for Rows<'_, R, F, N> {
    type Nulls = N;
    type Stretch<'s>
        = FieldOut<'s, R, &'s mut F, N>
    where
        Self: 's;
    #[inline]
    fn stretch(&mut self, k: usize) -> Self::Stretch<'_> {
        FieldOut::new(self.take(k), &mut self.field)
    }
    #[inline]
    fn nulls(&mut self, k: usize) {
        self.take(k);
    }
}

/// The end of a buffer of a plain field's values.
pub(crate) struct Append<'o, T>(&'o mut Vec<T>);

impl<T> ValueOut<T> for Append<'_, T> {
    #[inline]
    fn put_all<I: Iterator<Item = T>>(&mut self, values: I) {
        self.0.extend(values);
    }
    #[inline]
    fn reserve(&mut self, additional: usize) {
        self.0.reserve(additional);
    }
}

impl<T> Sink<T> for Vec<T> {
    type Nulls = NotNull;
    type Stretch<'s>
        = Append<'s, T>
    where
        Self: 's;
    #[inline]
    fn stretch(&mut self, _: usize) -> Append<'_, T> {
        Append(self)
    }
    /// Never called: for a plain field the reader turns a null into an
    /// error before it reaches the sink.
    fn nulls(&mut self, _: usize) {}
}

/// The end of a buffer of an `Option` field's values. Values arrive a
/// chunk of definition levels at a time and are spread over the chunk's
/// slots in place, from the back: one decoder call per chunk, not one per
/// stretch of non-null values.
pub(crate) struct Optionals<'o, T> {
    out: &'o mut Vec<Option<T>>,
    base: usize, // `out.len()` when the last stretch began
}

impl<'o, T> Optionals<'o, T> {
    /// Values are appended to `out`.
    pub(crate) fn new(out: &'o mut Vec<Option<T>>) -> Self {
        let base = out.len();
        Optionals { out, base }
    }
}

/// The values of a stretch, as `Some`, at the end of a buffer.
pub(crate) struct AppendSome<'o, T>(&'o mut Vec<Option<T>>);

impl<T> ValueOut<T> for AppendSome<'_, T> {
    #[inline]
    fn put_all<I: Iterator<Item = T>>(&mut self, values: I) {
        self.0.extend(values.map(Some));
    }
    #[inline]
    fn reserve(&mut self, additional: usize) {
        self.0.reserve(additional);
    }
}

impl<T> Sink<T> for Optionals<'_, T> {
    type Nulls = Nullable;
    type Stretch<'s>
        = AppendSome<'s, T>
    where
        Self: 's;
    const SPREADS: bool = true;
    #[inline]
    fn stretch(&mut self, k: usize) -> AppendSome<'_, T> {
        self.base = self.out.len();
        self.out.reserve(k);
        AppendSome(self.out)
    }
    fn nulls(&mut self, k: usize) {
        self.out.extend(std::iter::repeat_with(|| None).take(k));
    }
    fn spread(&mut self, levels: &[u32], max: u32, non_null: usize) -> bool {
        let base = self.base;
        if self.out.len() != base + non_null {
            return false;
        }
        // Slot j of the chunk takes the next value from the back.
        self.out.resize_with(base + levels.len(), || None);
        let mut next = base + non_null;
        for (j, &level) in levels.iter().enumerate().rev() {
            if level == max {
                next -= 1;
                self.out.swap(base + j, next);
            }
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, PartialEq)]
    struct Row {
        a: i64,
        b: String,
    }

    fn field_a(row: &mut Row) -> &mut i64 {
        &mut row.a
    }

    #[test]
    fn converted_values_stop_at_the_first_error() {
        let mut rows: Vec<Row> = (0..4)
            .map(|a| Row {
                a,
                b: String::new(),
            })
            .collect();
        let mut out = Converted::new(FieldOut::<_, _>::new(&mut rows, field_a), |v: i32| {
            if v < 0 {
                Err(v)
            } else {
                Ok(i64::from(v) * 10)
            }
        });
        out.put_all([1, 2].into_iter());
        out.put_all([-3, 4].into_iter());
        out.put_all([5].into_iter());
        assert_eq!(out.into_error(), Some(-3));
        assert_eq!(rows.iter().map(|r| r.a).collect::<Vec<_>>(), [10, 20, 2, 3]);
    }

    #[test]
    fn writes_fields_in_row_order_and_stops_when_full() {
        let mut rows: Vec<Row> = (0..3)
            .map(|_| Row {
                a: 0,
                b: String::new(),
            })
            .collect();
        let mut out = FieldOut::<_, _>::new(&mut rows, field_a);
        out.put_all([7].into_iter()); // an exact count
        out.put_all([8, 0].into_iter().filter(|&v| v > 0)); // a count not known
        out.put_all([9, 10, 11].into_iter()); // one slot left: 10 and 11 are not taken
        scatter(
            &mut rows[1..],
            ["x", "y", "z"].map(String::from).into_iter(),
            |r| &mut r.b,
        );
        assert_eq!(
            rows,
            [
                Row {
                    a: 7,
                    b: String::new()
                },
                Row {
                    a: 8,
                    b: "x".into()
                },
                Row {
                    a: 9,
                    b: "y".into()
                },
            ]
        );
        let mut v = vec![1];
        v.put_all([2, 3].into_iter());
        assert_eq!(v, [1, 2, 3]);
    }
}
