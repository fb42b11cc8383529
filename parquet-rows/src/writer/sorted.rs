//! The order rows are declared to be in ([`WriteOptions::sorted_by`]):
//! checked row by row as they are written, on each column's typed order.
//!
//! [`WriteOptions::sorted_by`]: super::WriteOptions::sorted_by

use std::cmp::Ordering;

use parquet_rows_rules as rules;

use super::ColumnBuffer;

/// The direction of a sort key ([`WriteOptions::sorted_by`]). Nulls are the
/// smallest values: first in an ascending column, last in a descending one
/// (the footer's `nulls_first` says so).
///
/// [`WriteOptions::sorted_by`]: super::WriteOptions::sorted_by
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SortOrder {
    /// Each row's value is at least the previous row's.
    Ascending,
    /// Each row's value is at most the previous row's.
    Descending,
}

/// One key of the declared order: the column (its index in the struct's
/// columns) and the direction.
#[derive(Debug, Clone, Copy)]
pub(crate) struct SortKey {
    pub(crate) index: usize,
    pub(crate) order: SortOrder,
}

/// A key's value in one row, as the column orders it.
#[derive(Debug, Clone, PartialEq)]
enum Key {
    Null,
    /// Booleans, signed and unsigned integers (widened without loss).
    Int(i128),
    Float(f64),
    /// Byte arrays: unsigned lexicographic order.
    Bytes(Vec<u8>),
    /// A DECIMAL in a FIXED_LEN_BYTE_ARRAY: two's complement, big-endian.
    Signed(Vec<u8>),
}

impl Key {
    fn cmp(&self, other: &Key) -> Ordering {
        match (self, other) {
            (Key::Null, Key::Null) => Ordering::Equal,
            (Key::Null, _) => Ordering::Less,
            (_, Key::Null) => Ordering::Greater,
            (Key::Int(a), Key::Int(b)) => a.cmp(b),
            // NaN is refused before it is compared.
            (Key::Float(a), Key::Float(b)) => a.partial_cmp(b).unwrap_or(Ordering::Equal),
            (Key::Bytes(a), Key::Bytes(b)) => a.cmp(b),
            (Key::Signed(a), Key::Signed(b)) => {
                let sign = |v: &[u8]| v.first().map_or(0, |&b| b as i8);
                sign(a).cmp(&sign(b)).then_with(|| a.cmp(b))
            }
            // One column has one kind of key.
            _ => Ordering::Equal,
        }
    }

    fn show(&self) -> String {
        match self {
            Key::Null => "null".to_owned(),
            Key::Int(v) => v.to_string(),
            Key::Float(v) => format!("{v:?}"),
            Key::Bytes(v) => format!("{:?}", String::from_utf8_lossy(v)),
            Key::Signed(v) => v.iter().fold("0x".to_owned(), |mut s, b| {
                use std::fmt::Write;
                let _ = write!(s, "{b:02x}");
                s
            }),
        }
    }
}

/// Whether `column` has an order the check knows: every column the writer
/// writes but FLOAT16 (its little-endian bytes do not order as numbers).
pub(crate) fn orderable(column: &rules::Column) -> Result<(), String> {
    if column.logical == Some(rules::Logical::Float16) || column.physical == rules::Physical::Int96
    {
        return Err(format!(
            "a column {} cannot be checked for order",
            column.describe()
        ));
    }
    Ok(())
}

/// The check of the declared order: where it is in each key's buffer, and
/// the last row's keys.
#[derive(Debug, Default)]
pub(crate) struct SortCheck {
    pub(crate) keys: Vec<SortKey>,
    /// Per key, the index of the next value in its buffer (values of nulls
    /// are not stored); reset when a row group is written.
    next_value: Vec<usize>,
    /// The keys of the last row checked (over the whole file).
    previous: Option<Vec<Key>>,
}

/// A row out of order: the key (its index in `keys`), the row (in the rows
/// buffered), and why.
pub(crate) struct OutOfOrder {
    pub(crate) key: usize,
    pub(crate) row: usize,
    pub(crate) message: String,
}

impl SortCheck {
    pub(crate) fn new(keys: Vec<SortKey>) -> Self {
        SortCheck {
            next_value: vec![0; keys.len()],
            keys,
            previous: None,
        }
    }

    /// The buffers were written as a row group and emptied.
    pub(crate) fn row_group_written(&mut self) {
        self.next_value.iter_mut().for_each(|v| *v = 0);
    }

    /// Checks rows `rows` of the buffers (just pushed), each against the
    /// one before.
    pub(crate) fn check(
        &mut self,
        rows: std::ops::Range<usize>,
        buffers: &[ColumnBuffer],
        leaves: &[super::schema::Leaf],
    ) -> Result<(), OutOfOrder> {
        if self.keys.is_empty() {
            return Ok(());
        }
        for row in rows {
            let mut current = Vec::with_capacity(self.keys.len());
            for (k, key) in self.keys.iter().enumerate() {
                // Keys are top-level leaves: one entry per row.
                let (buffer, column) = (&buffers[key.index], &leaves[key.index].column);
                let present =
                    column.repetition != rules::Repetition::Optional || buffer.defs[row] == 1;
                let value = if present {
                    let i = self.next_value[k];
                    self.next_value[k] += 1;
                    let value = read(buffer, column, i);
                    if matches!(value, Key::Float(f) if f.is_nan()) {
                        return Err(OutOfOrder {
                            key: k,
                            row,
                            message: "NaN has no place in a sorted column".to_owned(),
                        });
                    }
                    value
                } else {
                    Key::Null
                };
                current.push(value);
            }
            if let Some(previous) = &self.previous {
                for (k, key) in self.keys.iter().enumerate() {
                    let mut ord = current[k].cmp(&previous[k]);
                    if key.order == SortOrder::Descending {
                        ord = ord.reverse();
                    }
                    match ord {
                        Ordering::Greater => break,
                        Ordering::Equal => {}
                        Ordering::Less => {
                            return Err(OutOfOrder {
                                key: k,
                                row,
                                message: format!(
                                    "out of order: {} after {} in a column declared {} \
                                     (WriteOptions::sorted_by)",
                                    current[k].show(),
                                    previous[k].show(),
                                    match key.order {
                                        SortOrder::Ascending => "ascending",
                                        SortOrder::Descending => "descending",
                                    }
                                ),
                            });
                        }
                    }
                }
            }
            self.previous = Some(current);
        }
        Ok(())
    }
}

/// Value `i` of `buffer`, ordered as its column's type orders.
fn read(buffer: &ColumnBuffer, column: &rules::Column, i: usize) -> Key {
    let unsigned = matches!(
        column.logical,
        Some(rules::Logical::Integer { signed: false, .. })
    );
    match column.physical {
        rules::Physical::Boolean => Key::Int(i128::from(buffer.bools[i])),
        rules::Physical::Int32 if unsigned => Key::Int(i128::from(buffer.ints[i] as u32)),
        rules::Physical::Int32 => Key::Int(i128::from(buffer.ints[i])),
        rules::Physical::Int64 if unsigned => Key::Int(i128::from(buffer.longs[i] as u64)),
        rules::Physical::Int64 => Key::Int(i128::from(buffer.longs[i])),
        rules::Physical::Float => Key::Float(f64::from(buffer.floats[i])),
        rules::Physical::Double => Key::Float(buffer.doubles[i]),
        rules::Physical::ByteArray
        | rules::Physical::FixedLenByteArray
        | rules::Physical::Int96 => {
            let start = if i == 0 { 0 } else { buffer.ends[i - 1] };
            let bytes = buffer.bytes[start..buffer.ends[i]].to_vec();
            if matches!(column.logical, Some(rules::Logical::Decimal { .. })) {
                Key::Signed(bytes)
            } else {
                Key::Bytes(bytes)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decimals_in_bytes_order_by_sign_first() {
        let minus_one = Key::Signed(vec![0xff, 0xff]);
        let one = Key::Signed(vec![0x00, 0x01]);
        let big = Key::Signed(vec![0x7f, 0x00]);
        assert_eq!(minus_one.cmp(&one), Ordering::Less);
        assert_eq!(one.cmp(&big), Ordering::Less);
        assert_eq!(Key::Null.cmp(&minus_one), Ordering::Less);
        // Unsigned bytes order as bytes: 0xff after 0x00.
        assert_eq!(
            Key::Bytes(vec![0xff]).cmp(&Key::Bytes(vec![0x00, 0x01])),
            Ordering::Greater
        );
    }
}
