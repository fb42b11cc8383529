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
    /// Calls `plain` (a plain field) or `optional` (an `Option` one) on a
    /// buffer of the field's values, with `context`: how code above the
    /// column reader picks `T::read` or `T::read_optional` by type.
    fn either<C, T, R>(
        context: C,
        out: &mut Vec<Self::Field<T>>,
        plain: impl FnOnce(C, &mut Vec<T>) -> R,
        optional: impl FnOnce(C, &mut Vec<Option<T>>) -> R,
    ) -> R;
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
    fn either<C, T, R>(
        context: C,
        out: &mut Vec<T>,
        plain: impl FnOnce(C, &mut Vec<T>) -> R,
        _: impl FnOnce(C, &mut Vec<Option<T>>) -> R,
    ) -> R {
        plain(context, out)
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
    fn either<C, T, R>(
        context: C,
        out: &mut Vec<Option<T>>,
        _: impl FnOnce(C, &mut Vec<T>) -> R,
        optional: impl FnOnce(C, &mut Vec<Option<T>>) -> R,
    ) -> R {
        optional(context, out)
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
