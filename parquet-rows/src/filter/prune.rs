//! What the footer, the dictionary pages and the page index prove about a
//! row group: whether it may hold a matching row, and which of its rows may.
//!
//! Statistics are untrusted: a bound is used only where its order is the
//! order the predicate compares in (the rule is in `docs/filters.md`), and
//! anything missing or unusable means "may match".

use std::ops::Range;

use parquet::basic::{ColumnOrder, Encoding, SortOrder, Type as PhysicalType};
use parquet::file::metadata::{ColumnChunkMetaData, RowGroupMetaData};
use parquet::file::page_index::column_index::ColumnIndexMetaData;
use parquet::file::page_index::offset_index::OffsetIndexMetaData;
use parquet::file::statistics::Statistics;
use parquet::schema::types::ColumnDescriptor;

use super::{Predicate, Scalar, ScalarRef, Summary};
use crate::bind::Binding;

/// Whether the integers a column stores stand for unsigned values (an
/// INT(_, false) or UINT_* annotation): its statistics, dictionary and bloom
/// filter then hold the bits of `u32`/`u64` values, whatever field reads it.
fn unsigned(descr: &ColumnDescriptor) -> bool {
    matches!(
        descr.physical_type(),
        PhysicalType::INT32 | PhysicalType::INT64
    ) && descr.sort_order() == SortOrder::UNSIGNED
}

/// The value a stored INT32 stands for in a column of sign `unsigned`.
fn int32_value(v: i32, unsigned: bool) -> i128 {
    if unsigned {
        i128::from(u32::from_le_bytes(v.to_le_bytes()))
    } else {
        i128::from(v)
    }
}

/// The value a stored INT32 stands for in column `descr` (of sign
/// `unsigned`) when it may bound the values read from it: for a column
/// annotated INT(8|16, _), whose values are read from their low bits
/// (`physical::low_bits`), only a stored value within the annotation's range
/// (Drill's `UINT_8` -1 is not; it reads as 255). `None`: the bound is not
/// used, and nothing is pruned by it.
fn int32_bound_value(v: i32, unsigned: bool, narrow: Option<(u8, bool)>) -> Option<i128> {
    let raw = int32_value(v, unsigned);
    match narrow {
        Some((bits, true)) => {
            let half = 1i128 << (bits - 1);
            (-half..half).contains(&raw).then_some(raw)
        }
        Some((bits, false)) => (0..1i128 << bits).contains(&raw).then_some(raw),
        None => Some(raw),
    }
}

/// The value a stored INT64 stands for in a column of sign `unsigned`.
fn int64_value(v: i64, unsigned: bool) -> i128 {
    if unsigned {
        i128::from(u64::from_le_bytes(v.to_le_bytes()))
    } else {
        i128::from(v)
    }
}

/// A column's integer as a bound comparable with `value` (of `value`'s
/// kind), or `None` when that kind cannot hold it: the bound is then
/// unusable and nothing is pruned.
fn int_bound(logical: i128, value: &Scalar) -> Option<ScalarRef<'static>> {
    match value {
        Scalar::Int(_) => i64::try_from(logical).ok().map(ScalarRef::Int),
        Scalar::UInt(_) => u64::try_from(logical).ok().map(ScalarRef::UInt),
        _ => None,
    }
}

/// The integer a column of type `descr` stores for `value`, when the value
/// maps onto the column's type exactly (`None`: it does not, and nothing
/// may be concluded from the column's stored values).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Stored {
    Int32(i32),
    Int64(i64),
}

fn stored_int(descr: &ColumnDescriptor, value: &Scalar) -> Option<Stored> {
    let logical = match value {
        Scalar::Int(v) => i128::from(*v),
        Scalar::UInt(v) => i128::from(*v),
        // An instant or a time of day is stored as a count of the
        // column's unit: only a whole count maps onto a stored value.
        Scalar::Nanos(v) => {
            let per = nanos_per_unit(descr)?;
            (v % per == 0).then_some(v / per)?
        }
        // A decimal is stored unscaled at the column's scale: only a value
        // that rescales exactly maps onto a stored value.
        Scalar::Decimal(v, scale) => rescale(*v, *scale, decimal_scale(descr)?)?,
        _ => return None,
    };
    let unsigned = unsigned(descr);
    match descr.physical_type() {
        PhysicalType::INT32 if unsigned => u32::try_from(logical)
            .ok()
            .map(|v| Stored::Int32(i32::from_le_bytes(v.to_le_bytes()))),
        PhysicalType::INT32 => i32::try_from(logical).ok().map(Stored::Int32),
        PhysicalType::INT64 if unsigned => u64::try_from(logical)
            .ok()
            .map(|v| Stored::Int64(i64::from_le_bytes(v.to_le_bytes()))),
        PhysicalType::INT64 => i64::try_from(logical).ok().map(Stored::Int64),
        _ => None,
    }
}

/// How many nanoseconds one stored unit of a TIMESTAMP or TIME column of
/// INT32/INT64 is (INT96 columns have no order: `None`).
fn nanos_per_unit(descr: &ColumnDescriptor) -> Option<i128> {
    if !matches!(
        descr.physical_type(),
        PhysicalType::INT32 | PhysicalType::INT64
    ) {
        return None;
    }
    let column = crate::schema_rules::column(descr);
    let unit = column.timestamp().map(|(u, _)| u).or(column.time_unit())?;
    Some(1_000_000_000 / i128::from(crate::types::Unit::from(unit).per_second()))
}

/// The scale of a DECIMAL column.
fn decimal_scale(descr: &ColumnDescriptor) -> Option<i8> {
    let column = crate::schema_rules::column(descr);
    if !column.is_decimal() {
        return None;
    }
    i8::try_from(column.scale).ok()
}

/// `v * 10^-from` as an unscaled value at scale `to`, when exact.
fn rescale(v: i128, from: i8, to: i8) -> Option<i128> {
    let digits = u32::from(from.abs_diff(to));
    let factor = 10i128.checked_pow(digits)?;
    if to >= from {
        v.checked_mul(factor)
    } else {
        (v % factor == 0).then_some(v / factor)
    }
}

/// A big-endian two's complement integer of at most 16 bytes (a DECIMAL's
/// FIXED_LEN_BYTE_ARRAY or BYTE_ARRAY bytes); `None` for a longer or empty one.
fn be_i128(bytes: &[u8]) -> Option<i128> {
    if bytes.is_empty() || bytes.len() > 16 {
        return None;
    }
    let fill = if bytes[0] & 0x80 != 0 { 0xff } else { 0 };
    let mut wide = [fill; 16];
    wide[16 - bytes.len()..].copy_from_slice(bytes);
    Some(i128::from_be_bytes(wide))
}

/// A column's integer (stats, page index) as a bound of `value`'s kind:
/// a count of the column's unit for `Nanos`, an unscaled value at the
/// column's scale for `Decimal`, an integer otherwise. `None` when the
/// kind cannot hold it.
fn number_bound(
    logical: i128,
    descr: &ColumnDescriptor,
    value: &Scalar,
) -> Option<ScalarRef<'static>> {
    match value {
        Scalar::Nanos(_) => logical
            .checked_mul(nanos_per_unit(descr)?)
            .map(ScalarRef::Nanos),
        Scalar::Decimal(..) => Some(ScalarRef::Decimal(logical, decimal_scale(descr)?)),
        _ => int_bound(logical, value),
    }
}

/// A byte-array bound as `value`'s kind: a decimal's bytes read as its
/// unscaled value, a string's or byte string's bytes as they are.
fn bytes_bound<'a>(
    bytes: &'a [u8],
    descr: &ColumnDescriptor,
    value: &Scalar,
) -> Option<ScalarRef<'a>> {
    match value {
        Scalar::Str(_) => Some(ScalarRef::Str(bytes)),
        Scalar::Bytes(_) => Some(ScalarRef::Bytes(bytes)),
        Scalar::Decimal(..) => Some(ScalarRef::Decimal(be_i128(bytes)?, decimal_scale(descr)?)),
        _ => None,
    }
}

/// The leaf column of field `field` when the field reads exactly one flat
/// column (the only fields predicates exist for).
pub(crate) fn leaf_of(binding: &Binding, field: usize) -> Option<usize> {
    let mut leaves = Vec::new();
    binding.fields.get(field)?.leaves(&mut leaves);
    match leaves[..] {
        [leaf] => Some(leaf),
        _ => None,
    }
}

/// Whether min/max in the order of `descr` may be compared with `value`:
/// the column's sort order must be one `value`'s kind compares in once the
/// bounds are converted (`int_bound`: an unsigned column's bounds are read
/// as unsigned numbers, whichever integer field reads it), and an unsigned
/// or byte-array order must be declared by the footer's column order
/// (legacy writers sorted everything signed).
fn order_fits(descr: &ColumnDescriptor, order: ColumnOrder, value: &Scalar) -> bool {
    let declared = matches!(order, ColumnOrder::TYPE_DEFINED_ORDER(_));
    match (value, descr.sort_order()) {
        (
            Scalar::Int(_)
            | Scalar::UInt(_)
            | Scalar::Float(_)
            | Scalar::Nanos(_)
            | Scalar::Decimal(..),
            SortOrder::SIGNED,
        ) => true,
        (
            Scalar::Int(_) | Scalar::UInt(_) | Scalar::Str(_) | Scalar::Bytes(_),
            SortOrder::UNSIGNED,
        ) => declared,
        _ => false,
    }
}

/// The bounds of a row group's column `descr` from its statistics, as
/// `value`'s kind; `None` where they cannot be used.
fn stat_bounds<'a>(
    stats: &'a Statistics,
    descr: &ColumnDescriptor,
    value: &Scalar,
) -> Option<(ScalarRef<'a>, ScalarRef<'a>)> {
    // Deprecated `min`/`max` were written in signed order whatever the
    // type: only a column that sorts signed may use them.
    if stats.is_min_max_deprecated() && descr.sort_order() != SortOrder::SIGNED {
        return None;
    }
    let unsigned = unsigned(descr);
    let narrow = crate::schema_rules::narrow_int32(descr);
    let pair = |min: Option<ScalarRef<'a>>, max: Option<ScalarRef<'a>>| min.zip(max);
    let number = matches!(
        value,
        Scalar::Int(_) | Scalar::UInt(_) | Scalar::Nanos(_) | Scalar::Decimal(..)
    );
    match (stats, value) {
        (Statistics::Int32(s), _) if number => pair(
            s.min_opt()
                .and_then(|v| int32_bound_value(*v, unsigned, narrow))
                .and_then(|v| number_bound(v, descr, value)),
            s.max_opt()
                .and_then(|v| int32_bound_value(*v, unsigned, narrow))
                .and_then(|v| number_bound(v, descr, value)),
        ),
        (Statistics::Int64(s), _) if number => pair(
            s.min_opt()
                .and_then(|v| number_bound(int64_value(*v, unsigned), descr, value)),
            s.max_opt()
                .and_then(|v| number_bound(int64_value(*v, unsigned), descr, value)),
        ),
        (Statistics::Float(s), Scalar::Float(_)) => pair(
            s.min_opt().map(|v| ScalarRef::Float(f64::from(*v))),
            s.max_opt().map(|v| ScalarRef::Float(f64::from(*v))),
        ),
        (Statistics::Double(s), Scalar::Float(_)) => pair(
            s.min_opt().map(|v| ScalarRef::Float(*v)),
            s.max_opt().map(|v| ScalarRef::Float(*v)),
        ),
        // Deprecated byte-array bounds were compared bytewise as signed
        // bytes: not a decimal's order (they were refused above for the
        // unsigned orders already).
        (Statistics::ByteArray(_) | Statistics::FixedLenByteArray(_), Scalar::Decimal(..))
            if stats.is_min_max_deprecated() =>
        {
            None
        }
        (Statistics::ByteArray(s), _) => pair(
            s.min_opt()
                .and_then(|v| bytes_bound(v.data(), descr, value)),
            s.max_opt()
                .and_then(|v| bytes_bound(v.data(), descr, value)),
        ),
        (Statistics::FixedLenByteArray(s), Scalar::Bytes(_) | Scalar::Decimal(..)) => pair(
            s.min_opt()
                .and_then(|v| bytes_bound(v.data(), descr, value)),
            s.max_opt()
                .and_then(|v| bytes_bound(v.data(), descr, value)),
        ),
        _ => None,
    }
}

/// `bounds` if they are in order: a min above its max is a lie (or a
/// writer's bug) that would prune rows it holds, so such bounds are ignored
/// as absent. Bounds that do not compare (a NaN) are kept; they prune
/// nothing ([`Predicate::may_match`]).
fn in_order<'a>(
    bounds: Option<(ScalarRef<'a>, ScalarRef<'a>)>,
) -> Option<(ScalarRef<'a>, ScalarRef<'a>)> {
    bounds.filter(|&(min, max)| match (min, max) {
        (ScalarRef::Int(a), ScalarRef::Int(b)) => a <= b,
        (ScalarRef::UInt(a), ScalarRef::UInt(b)) => a <= b,
        (ScalarRef::Float(a), ScalarRef::Float(b)) => {
            a.partial_cmp(&b).is_none_or(std::cmp::Ordering::is_le)
        }
        (ScalarRef::Str(a), ScalarRef::Str(b)) | (ScalarRef::Bytes(a), ScalarRef::Bytes(b)) => {
            a <= b
        }
        (ScalarRef::Nanos(a), ScalarRef::Nanos(b)) => a <= b,
        (ScalarRef::Decimal(a, sa), ScalarRef::Decimal(b, sb)) => {
            super::predicate::decimal_cmp(a, sa, b, sb).is_le()
        }
        _ => true,
    })
}

/// The summary of column chunk `chunk` of a row group of `rows` rows, for
/// a predicate comparing with `value` (`None`: a null test).
///
/// A null count of 0 is read as unknown: parquet-cpp (Arrow 4.0.1 among
/// others) wrote 0 for dictionary-encoded columns that hold nulls, so "no
/// nulls" proves nothing, and trusting it would drop the null rows of
/// `is_null()` and of `not(..)`. A count above 0 still proves nulls exist,
/// and a column with no OPTIONAL level on its path holds none.
fn chunk_summary<'a>(
    chunk: &'a ColumnChunkMetaData,
    order: ColumnOrder,
    value: Option<&Scalar>,
    rows: u64,
) -> Summary<'a> {
    let stats = chunk.statistics();
    let bounds = match (stats, value) {
        (Some(stats), Some(value)) if order_fits(chunk.column_descr(), order, value) => {
            in_order(stat_bounds(stats, chunk.column_descr(), value))
        }
        _ => None,
    };
    Summary {
        min: bounds.map(|b| b.0),
        max: bounds.map(|b| b.1),
        nulls: if chunk.column_descr().max_def_level() == 0 {
            // A REQUIRED column on a REQUIRED path holds no null, whatever
            // its statistics say: the schema proves it.
            Some(0)
        } else {
            stats
                .and_then(Statistics::null_count_opt)
                .filter(|&n| n > 0)
        },
        values: rows,
    }
}

/// The value a predicate compares with, if it compares.
fn compared(p: &Predicate) -> Option<&Scalar> {
    p.test.sample()
}

/// Whether row group `meta` may hold a row matching every predicate,
/// judged from the footer's statistics alone.
pub(crate) fn row_group_may_match(
    meta: &RowGroupMetaData,
    orders: &dyn Fn(usize) -> ColumnOrder,
    binding: &Binding,
    predicates: &[Predicate],
) -> bool {
    let rows = u64::try_from(meta.num_rows()).unwrap_or(0);
    predicates.iter().all(|p| {
        let Some(leaf) = leaf_of(binding, p.field) else {
            return true;
        };
        if leaf >= meta.num_columns() {
            return true;
        }
        let chunk = meta.column(leaf);
        p.may_match(&chunk_summary(chunk, orders(leaf), compared(p), rows))
    })
}

/// Whether every data page of `chunk` is dictionary-encoded, as its footer
/// entry says (the encoding statistics; without them nothing is known).
pub(crate) fn all_dictionary(chunk: &ColumnChunkMetaData) -> bool {
    if chunk.dictionary_page_offset().is_none() {
        return false;
    }
    #[allow(deprecated)]
    let dictionary =
        |e: Encoding| matches!(e, Encoding::PLAIN_DICTIONARY | Encoding::RLE_DICTIONARY);
    if let Some(mask) = chunk.page_encoding_stats_mask() {
        return mask.is_only(Encoding::PLAIN_DICTIONARY) || mask.is_only(Encoding::RLE_DICTIONARY);
    }
    chunk.page_encoding_stats().is_some_and(|stats| {
        stats.iter().all(|s| {
            s.page_type != parquet::basic::PageType::DATA_PAGE
                && s.page_type != parquet::basic::PageType::DATA_PAGE_V2
                || dictionary(s.encoding)
        })
    })
}

/// Whether a PLAIN-encoded dictionary page of `count` values of column
/// `descr` holds `value`; `None` when the page cannot tell (another kind, a
/// value the column's type does not map exactly, a malformed page: the row
/// group is then read).
pub(crate) fn dictionary_holds(
    page: &[u8],
    count: usize,
    descr: &ColumnDescriptor,
    value: &Scalar,
) -> Option<bool> {
    let want = match value {
        Scalar::Str(want) => Some(want.as_bytes()),
        Scalar::Bytes(want) => Some(&want[..]),
        _ => None,
    };
    let narrow = crate::schema_rules::narrow_int32(descr);
    match (descr.physical_type(), want) {
        // Fixed-length entries: the value's bytes, one entry after another.
        (PhysicalType::FIXED_LEN_BYTE_ARRAY, Some(want)) if matches!(value, Scalar::Bytes(_)) => {
            let width = usize::try_from(descr.type_length())
                .ok()
                .filter(|&w| w > 0)?;
            if want.len() != width {
                return None;
            }
            let found = page
                .get(..count.checked_mul(width)?)?
                .chunks_exact(width)
                .any(|entry| entry == want);
            Some(found)
        }
        (PhysicalType::BYTE_ARRAY, Some(want)) => {
            let mut at = 0usize;
            for _ in 0..count {
                let len = page.get(at..at + 4)?;
                let len = u32::from_le_bytes([len[0], len[1], len[2], len[3]]) as usize;
                let entry = page.get(at + 4..(at + 4).checked_add(len)?)?;
                if entry == want {
                    return Some(true);
                }
                at += 4 + len;
            }
            Some(false)
        }
        // A column annotated INT(8|16, _) is read from its entries' low
        // bits: compare what each entry reads as (Drill's `UINT_8` -1 is 255).
        _ if narrow.is_some() => {
            let want = match value {
                Scalar::Int(v) => i128::from(*v),
                Scalar::UInt(v) => i128::from(*v),
                _ => return None,
            };
            let width = narrow?;
            let found = page.get(..count.checked_mul(4)?)?.chunks_exact(4).any(|b| {
                let entry = i32::from_le_bytes([b[0], b[1], b[2], b[3]]);
                i128::from(crate::physical::low_bits(entry, width)) == want
            });
            Some(found)
        }
        // The stored bits of the value, compared with the stored entries:
        // equal bits are equal values within one column type.
        _ => match stored_int(descr, value)? {
            Stored::Int32(want) => {
                let found = page
                    .get(..count.checked_mul(4)?)?
                    .chunks_exact(4)
                    .any(|b| i32::from_le_bytes([b[0], b[1], b[2], b[3]]) == want);
                Some(found)
            }
            Stored::Int64(want) => {
                let found = page.get(..count.checked_mul(8)?)?.chunks_exact(8).any(|b| {
                    i64::from_le_bytes([b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7]]) == want
                });
                Some(found)
            }
        },
    }
}

/// The bytes a bloom filter hashes for `value` in column `descr`: the
/// value's PLAIN encoding in the column's type, without a length prefix
/// (the format's rule). `None` where a filter cannot be asked: floats
/// (`0.0` and `-0.0`, NaNs: equal values with other bytes), booleans, INT96
/// and fixed-length columns, a value the column's type does not map
/// exactly (an `i64` field's 2^32 on a `uint32` column), and columns
/// annotated INT(8|16, _).
pub(crate) fn bloom_bytes(descr: &ColumnDescriptor, value: &Scalar) -> Option<Vec<u8>> {
    // A column annotated INT(8|16, _) holds any of many stored values for
    // one value read (its low bits: `UINT_8` 255 stored as 255 or as -1):
    // no one hash to ask for.
    if crate::schema_rules::narrow_int32(descr).is_some() {
        return None;
    }
    match (descr.physical_type(), value) {
        (PhysicalType::BYTE_ARRAY, Scalar::Str(v)) => Some(v.as_bytes().into()),
        (PhysicalType::BYTE_ARRAY, Scalar::Bytes(v)) => Some(v.to_vec()),
        // A fixed-length value's PLAIN encoding is its bytes.
        (PhysicalType::FIXED_LEN_BYTE_ARRAY, Scalar::Bytes(v))
            if usize::try_from(descr.type_length()) == Ok(v.len()) =>
        {
            Some(v.to_vec())
        }
        _ => match stored_int(descr, value)? {
            Stored::Int32(v) => Some(v.to_le_bytes().into()),
            Stored::Int64(v) => Some(v.to_le_bytes().into()),
        },
    }
}

/// Whether the split-block bloom filter in `bytes` (header and bitset, as
/// the footer's offset and length locate them) proves the value of
/// `hashed` ([`bloom_bytes`]) absent. A filter that does not parse says
/// nothing: `false`.
pub(crate) fn bloom_lacks(bytes: &[u8], hashed: &[u8]) -> bool {
    match parquet::bloom_filter::Sbbf::from_bytes(bytes) {
        Ok(filter) if filter.num_blocks() > 0 => !filter.check(hashed),
        _ => false,
    }
}

/// A column's page index in a row group: where its pages start (bytes and
/// rows) and, if present, what each holds.
#[derive(Debug)]
pub(crate) struct PageIndex {
    pub(crate) offsets: OffsetIndexMetaData,
    pub(crate) columns: Option<ColumnIndexMetaData>,
}

impl PageIndex {
    /// The index, if its pages start at row 0, in increasing order, each
    /// page's bytes ending where the next page's start, within the row
    /// group's `rows`, and the column index (when given) describes as many
    /// pages: anything else is ignored as corrupt (the whole chunk is read).
    pub(crate) fn checked(
        offsets: OffsetIndexMetaData,
        columns: Option<ColumnIndexMetaData>,
        rows: usize,
    ) -> Option<Self> {
        let locations = offsets.page_locations();
        let first = locations.first()?;
        if first.first_row_index != 0 {
            return None;
        }
        // Pages follow one another: each ends (header included) where the
        // next starts. An index that leaves a page out, and gives the next
        // page the rows of the one left out, is otherwise consistent, and
        // would hand out the rows of one page as another's.
        let increasing = locations.windows(2).all(|w| {
            w[0].first_row_index < w[1].first_row_index
                && w[0].compressed_page_size > 0
                && w[0]
                    .offset
                    .checked_add(i64::from(w[0].compressed_page_size))
                    == Some(w[1].offset)
        });
        let last = locations.last()?;
        if !increasing
            || usize::try_from(last.first_row_index).ok()? >= rows
            || last.compressed_page_size <= 0
        {
            return None;
        }
        let columns = columns.filter(|c| c.num_pages() == locations.len() as u64);
        Some(PageIndex { offsets, columns })
    }

    /// Row `i`'s first row, for `i` up to the number of pages (the last is
    /// the row group's end).
    pub(crate) fn page_start(&self, i: usize, rows: usize) -> usize {
        self.offsets
            .page_locations()
            .get(i)
            .map_or(rows, |l| usize::try_from(l.first_row_index).unwrap_or(rows))
    }

    /// Checks the data pages read from `ranges` of a flat column chunk
    /// whose bytes are `chunk`, their value counts `values` in order,
    /// against the rows the index gives the pages starting in `ranges`:
    /// they must be as many and hold as many rows each. Else the index
    /// selected other rows than the pages hold, and using it would return
    /// them: what is inconsistent is returned. An index pointing outside
    /// the chunk was not used (the whole chunk was read): nothing to check.
    pub(crate) fn check_pages(
        &self,
        chunk: &Range<u64>,
        ranges: &[Range<u64>],
        mut values: impl Iterator<Item = u32>,
        rows: usize,
    ) -> Result<(), String> {
        let at = |offset: i64| u64::try_from(offset).ok();
        let locations = self.offsets.page_locations();
        if !locations
            .iter()
            .all(|l| at(l.offset).is_some_and(|o| chunk.contains(&o)))
        {
            return Ok(());
        }
        for (i, location) in locations.iter().enumerate() {
            if !at(location.offset).is_some_and(|o| ranges.iter().any(|r| r.contains(&o))) {
                continue;
            }
            let (start, end) = (self.page_start(i, rows), self.page_start(i + 1, rows));
            match values.next() {
                Some(n) if n as usize == end - start => {}
                Some(n) => {
                    return Err(format!(
                        "the offset index gives page {i} rows {start}..{end}, but the page's header gives {n} values"
                    ))
                }
                None => {
                    return Err(format!(
                        "the offset index puts page {i} at offset {}, but no data page starts there",
                        location.offset
                    ))
                }
            }
        }
        if values.next().is_some() {
            return Err(
                "the bytes read hold more data pages than the offset index gives them".to_owned(),
            );
        }
        Ok(())
    }

    /// Number of pages.
    pub(crate) fn pages(&self) -> usize {
        self.offsets.page_locations().len()
    }

    /// The rows spanned by the pages that may match `p` (empty when none
    /// may), or `None` if there is no column index to tell.
    pub(crate) fn matching_rows(
        &self,
        p: &Predicate,
        descr: &ColumnDescriptor,
        order: ColumnOrder,
        rows: usize,
    ) -> Option<std::ops::Range<usize>> {
        let index = self.columns.as_ref()?;
        let value = compared(p);
        let usable = value.is_none_or(|v| order_fits(descr, order, v));
        let (mut lo, mut hi) = (usize::MAX, 0);
        for page in 0..self.pages() {
            let (start, end) = (self.page_start(page, rows), self.page_start(page + 1, rows));
            let values = (end - start) as u64;
            let nulls = if descr.max_def_level() == 0 {
                // The schema proves no null (a "null page" here is a lie).
                Some(0)
            } else if index.is_null_page(page) {
                Some(values)
            } else {
                // 0 is unknown here too (see `chunk_summary`).
                index
                    .null_count(page)
                    .and_then(|n| u64::try_from(n).ok())
                    .filter(|&n| n > 0)
            };
            let bounds = match value {
                Some(v) if usable && !index.is_null_page(page) => {
                    in_order(page_bounds(index, descr, page, v))
                }
                _ => None,
            };
            let summary = Summary {
                min: bounds.map(|b| b.0),
                max: bounds.map(|b| b.1),
                nulls,
                values,
            };
            if p.may_match(&summary) {
                lo = lo.min(start);
                hi = hi.max(end);
            }
        }
        Some(if lo < hi { lo..hi } else { 0..0 })
    }
}

/// Page `page`'s bounds from the column index of column `descr`, as
/// `value`'s kind.
fn page_bounds<'a>(
    index: &'a ColumnIndexMetaData,
    descr: &ColumnDescriptor,
    page: usize,
    value: &Scalar,
) -> Option<(ScalarRef<'a>, ScalarRef<'a>)> {
    let unsigned = unsigned(descr);
    let narrow = crate::schema_rules::narrow_int32(descr);
    let pair = |min: Option<ScalarRef<'a>>, max: Option<ScalarRef<'a>>| min.zip(max);
    let number = matches!(
        value,
        Scalar::Int(_) | Scalar::UInt(_) | Scalar::Nanos(_) | Scalar::Decimal(..)
    );
    match (index, value) {
        (ColumnIndexMetaData::INT32(i), _) if number => pair(
            i.min_value(page)
                .and_then(|v| int32_bound_value(*v, unsigned, narrow))
                .and_then(|v| number_bound(v, descr, value)),
            i.max_value(page)
                .and_then(|v| int32_bound_value(*v, unsigned, narrow))
                .and_then(|v| number_bound(v, descr, value)),
        ),
        (ColumnIndexMetaData::INT64(i), _) if number => pair(
            i.min_value(page)
                .and_then(|v| number_bound(int64_value(*v, unsigned), descr, value)),
            i.max_value(page)
                .and_then(|v| number_bound(int64_value(*v, unsigned), descr, value)),
        ),
        (ColumnIndexMetaData::FLOAT(i), Scalar::Float(_)) => pair(
            i.min_value(page).map(|v| ScalarRef::Float(f64::from(*v))),
            i.max_value(page).map(|v| ScalarRef::Float(f64::from(*v))),
        ),
        (ColumnIndexMetaData::DOUBLE(i), Scalar::Float(_)) => pair(
            i.min_value(page).map(|v| ScalarRef::Float(*v)),
            i.max_value(page).map(|v| ScalarRef::Float(*v)),
        ),
        (ColumnIndexMetaData::BYTE_ARRAY(i), _) => pair(
            i.min_value(page).and_then(|v| bytes_bound(v, descr, value)),
            i.max_value(page).and_then(|v| bytes_bound(v, descr, value)),
        ),
        (ColumnIndexMetaData::FIXED_LEN_BYTE_ARRAY(i), Scalar::Bytes(_) | Scalar::Decimal(..)) => {
            pair(
                i.min_value(page).and_then(|v| bytes_bound(v, descr, value)),
                i.max_value(page).and_then(|v| bytes_bound(v, descr, value)),
            )
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use parquet::schema::parser::parse_message_type;
    use parquet::schema::types::{ColumnDescPtr, SchemaDescriptor};

    use super::*;

    /// PLAIN byte arrays: a 4-byte little-endian length, then the bytes.
    fn plain(values: &[&str]) -> Vec<u8> {
        let mut out = Vec::new();
        for v in values {
            out.extend_from_slice(&u32::try_from(v.len()).unwrap().to_le_bytes());
            out.extend_from_slice(v.as_bytes());
        }
        out
    }

    /// The descriptor of a column declared `declaration` (`REQUIRED INT32 x`).
    fn column(declaration: &str) -> ColumnDescPtr {
        let message = parse_message_type(&format!("message m {{ {declaration}; }}")).unwrap();
        SchemaDescriptor::new(Arc::new(message)).column(0)
    }

    #[test]
    fn bloom_filters_prove_absence_only_when_they_parse() {
        let mut filter = parquet::bloom_filter::Sbbf::new_with_ndv_fpp(100, 0.001).unwrap();
        for i in 0..100i64 {
            filter.insert(&i.to_le_bytes()[..]);
        }
        let mut bytes = Vec::new();
        filter.write(&mut bytes).unwrap();
        let int64 = column("REQUIRED INT64 x");
        let int64 = |v: i64| bloom_bytes(&int64, &Scalar::Int(v)).unwrap();
        assert!(
            (0..100).all(|v| !bloom_lacks(&bytes, &int64(v))),
            "a present value"
        );
        let absent = (1_000..2_000)
            .filter(|&v| bloom_lacks(&bytes, &int64(v)))
            .count();
        assert!(
            absent > 990,
            "only {absent} of 1000 absent values proven absent"
        );
        // Truncated, padded, garbage, or a header claiming no bitset: no verdict.
        assert!(!bloom_lacks(&bytes[..bytes.len() - 1], &int64(1_500)));
        let mut padded = bytes.clone();
        padded.push(0);
        assert!(!bloom_lacks(&padded, &int64(1_500)));
        assert!(!bloom_lacks(&[0xff; 64], &int64(1_500)));
        assert!(!bloom_lacks(&[], &int64(1_500)));
        let header_len = bytes.len() - filter.num_blocks() * 32;
        let mut empty = Vec::new();
        parquet::bloom_filter::Sbbf::new(&[])
            .write(&mut empty)
            .unwrap();
        assert!(empty.len() <= header_len + 1);
        assert!(!bloom_lacks(&empty, &int64(1_500)));
    }

    #[test]
    fn bloom_filters_hash_the_stored_bits_of_values_that_map_exactly() {
        let h = |declaration: &str, v| bloom_bytes(&column(declaration), &v);
        let (int32, uint32) = ("REQUIRED INT32 x", "REQUIRED INT32 x (INTEGER(32, false))");
        assert_eq!(
            h(int32, Scalar::Int(-2)),
            Some((-2i32).to_le_bytes().into())
        );
        assert_eq!(h(int32, Scalar::Int(1 << 40)), None);
        assert_eq!(h(int32, Scalar::Int(1 << 31)), None);
        // An `i64` or `u64` field on a `uint32` column: the u32's bits.
        assert_eq!(
            h(uint32, Scalar::UInt(u64::from(u32::MAX))),
            Some(vec![0xff; 4])
        );
        assert_eq!(
            h(uint32, Scalar::Int(i64::from(u32::MAX))),
            Some(vec![0xff; 4])
        );
        assert_eq!(
            h(uint32, Scalar::Int(2_147_583_648)),
            Some(2_147_583_648u32.to_le_bytes().into())
        );
        assert_eq!(h(uint32, Scalar::Int(-1)), None);
        assert_eq!(h(uint32, Scalar::Int(1 << 32)), None);
        let uint64 = "REQUIRED INT64 x (INTEGER(64, false))";
        assert_eq!(h(uint64, Scalar::UInt(u64::MAX)), Some(vec![0xff; 8]));
        assert_eq!(h(uint64, Scalar::Int(-1)), None);
        assert_eq!(h("REQUIRED INT64 x", Scalar::UInt(u64::MAX)), None);
        assert_eq!(
            h("REQUIRED BINARY x (UTF8)", Scalar::Str("ab".into())),
            Some(b"ab".to_vec())
        );
        assert_eq!(h("REQUIRED DOUBLE x", Scalar::Float(0.0)), None);
        assert_eq!(h("REQUIRED FLOAT x", Scalar::Float(0.0)), None);
        assert_eq!(
            h(
                "REQUIRED FIXED_LEN_BYTE_ARRAY(2) x",
                Scalar::Str("ab".into())
            ),
            None
        );
    }

    #[test]
    fn dictionaries_say_absent_only_when_they_are_whole() {
        let page = plain(&["EURUSD", "GBPUSD"]);
        let want = |s: &str| Scalar::Str(s.into());
        let ba = column("REQUIRED BINARY x (UTF8)");
        assert_eq!(dictionary_holds(&page, 2, &ba, &want("GBPUSD")), Some(true));
        assert_eq!(
            dictionary_holds(&page, 2, &ba, &want("USDJPY")),
            Some(false)
        );
        // A count beyond the bytes, or a length past the end: no verdict.
        assert_eq!(dictionary_holds(&page, 3, &ba, &want("USDJPY")), None);
        assert_eq!(dictionary_holds(&page[..12], 2, &ba, &want("USDJPY")), None);
        let mut huge = page.clone();
        huge[..4].copy_from_slice(&u32::MAX.to_le_bytes());
        assert_eq!(dictionary_holds(&huge, 2, &ba, &want("USDJPY")), None);
        // Integers: INT32 and INT64, little-endian.
        let ints: Vec<u8> = [5i32, -7].iter().flat_map(|v| v.to_le_bytes()).collect();
        let int32 = column("REQUIRED INT32 x");
        let holds = |v| dictionary_holds(&ints, 2, &int32, &v);
        assert_eq!(holds(Scalar::Int(-7)), Some(true));
        assert_eq!(holds(Scalar::Int(6)), Some(false));
        // A value the column's type cannot hold: no verdict.
        assert_eq!(holds(Scalar::Int(1 << 40)), None);
        assert_eq!(dictionary_holds(&ints, 3, &int32, &Scalar::Int(6)), None);
        // Another kind of value: no verdict.
        assert_eq!(holds(Scalar::Float(5.0)), None);
    }

    #[test]
    fn unsigned_dictionaries_compare_the_values_their_bits_stand_for() {
        // pyarrow's `uint32`: INT32 annotated INT(32, false), read by an
        // `i64` field. 2147583648 is stored as the bits of -2147383648.
        let uint32 = column("OPTIONAL INT32 u (INTEGER(32, false))");
        let entries = [7u32, 2_147_583_648, u32::MAX];
        let page: Vec<u8> = entries.iter().flat_map(|v| v.to_le_bytes()).collect();
        let holds = |v| dictionary_holds(&page, 3, &uint32, &v);
        for v in entries {
            assert_eq!(holds(Scalar::Int(i64::from(v))), Some(true), "{v}");
            assert_eq!(holds(Scalar::UInt(u64::from(v))), Some(true), "{v}");
        }
        assert_eq!(holds(Scalar::Int(8)), Some(false));
        assert_eq!(holds(Scalar::UInt(8)), Some(false));
        // Values a `uint32` cannot hold map to no bits: no verdict.
        assert_eq!(holds(Scalar::Int(-2_147_383_648)), None);
        assert_eq!(holds(Scalar::Int(-1)), None);
        assert_eq!(holds(Scalar::Int(1 << 32)), None);
        let uint64 = column("REQUIRED INT64 u (INTEGER(64, false))");
        let page = u64::MAX.to_le_bytes();
        assert_eq!(
            dictionary_holds(&page, 1, &uint64, &Scalar::UInt(u64::MAX)),
            Some(true)
        );
        assert_eq!(dictionary_holds(&page, 1, &uint64, &Scalar::Int(-1)), None);
    }

    #[test]
    fn unsigned_statistics_bound_in_unsigned_order_for_every_integer_field() {
        use parquet::file::statistics::ValueStatistics;
        let uint32 = column("OPTIONAL INT32 u (INTEGER(32, false))");
        // min 7, max 2^32 - 1: as INT32 bits, max is -1.
        let stats = Statistics::Int32(ValueStatistics::new(
            Some(7),
            Some(-1),
            None,
            Some(0),
            false,
        ));
        assert_eq!(
            stat_bounds(&stats, &uint32, &Scalar::Int(0)),
            Some((ScalarRef::Int(7), ScalarRef::Int(i64::from(u32::MAX))))
        );
        assert_eq!(
            stat_bounds(&stats, &uint32, &Scalar::UInt(0)),
            Some((ScalarRef::UInt(7), ScalarRef::UInt(u64::from(u32::MAX))))
        );
        let order = ColumnOrder::TYPE_DEFINED_ORDER(SortOrder::UNSIGNED);
        assert!(order_fits(&uint32, order, &Scalar::Int(0)));
        assert!(!order_fits(
            &uint32,
            ColumnOrder::UNDEFINED,
            &Scalar::Int(0)
        ));
        // A signed INT64 bound that a `u64` value cannot order: unusable.
        let int64 = column("REQUIRED INT64 x");
        let stats = Statistics::Int64(ValueStatistics::new(
            Some(-5),
            Some(5),
            None,
            Some(0),
            false,
        ));
        assert_eq!(stat_bounds(&stats, &int64, &Scalar::UInt(3)), None);
        assert_eq!(
            stat_bounds(&stats, &int64, &Scalar::Int(3)),
            Some((ScalarRef::Int(-5), ScalarRef::Int(5)))
        );
        // A min above its max is ignored; equal bounds are kept.
        let swapped = Some((ScalarRef::Int(9), ScalarRef::Int(3)));
        assert_eq!(in_order(swapped), None);
        let one = Some((ScalarRef::Str(b"b"), ScalarRef::Str(b"b")));
        assert_eq!(in_order(one), one);
        let nan = Some((ScalarRef::Float(f64::NAN), ScalarRef::Float(1.0)));
        assert!(in_order(nan).is_some());
        // Deprecated min/max are signed: not for an unsigned column.
        let old = Statistics::Int32(ValueStatistics::new(Some(7), Some(9), None, Some(0), true));
        assert_eq!(stat_bounds(&old, &uint32, &Scalar::Int(8)), None);
    }
}
