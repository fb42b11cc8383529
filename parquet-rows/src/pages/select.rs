//! Row-level filtering, predicate columns first: the columns a query's
//! predicates test are decoded over a row group's loaded rows and tested,
//! giving the rows that match as runs of rows to skip and rows to take
//! ([`Runs`]); the struct's columns are then decoded for the taken rows
//! only, each skipping the others undecoded (`ColumnReader::skip_rows`).
//!
//! ```text
//! probes   <- one per predicate field, its column decoded as the field's
//!             borrowed twin (`&str` for `String`: nothing is allocated)
//! for each batch of rows (until the query's offset + limit are matched):
//!     keep[row] <- every probe's predicates hold on the row's value
//!                  (a probe skips a batch no row of which is left)
//!     runs      <- keep, as (skip, take) pairs
//! runs     <- the query's offset and limit applied
//! if runs.row_level(): decode the taken rows, skip the others
//! else:                decode every row, keep the taken ones
//! ```

use crate::error::Result;
use crate::filter::{FilterField, Predicate, ScalarRef, Selection, Window};
use crate::group::RowGroup;
use crate::nested::{BatchReader, ParquetNode};
use crate::row::Probe;

/// The reader of a predicate field as its probe type `V` (the field type's
/// `FilterField::Probe`) and the predicates on it.
struct FieldProbe<'p, V: ParquetNode<'p>> {
    reader: V::Reader,
    tests: Vec<Predicate>, // invariant: not empty, all on this field
    values: Vec<V>,        // the batch's values, reused
    memo: Memo,            // verdicts on the string values seen, by address
}

/// Slots of [`Memo`]: more than the distinct values of a typical
/// low-cardinality string column (symbols, countries, states), few enough
/// to stay in L1.
const MEMO_SLOTS: usize = 256;

/// The verdicts of a probe's predicates on the string values of a
/// dictionary, keyed by the value's address and length (direct-mapped).
///
/// A dictionary-encoded column hands out its entries as slices of its
/// dictionary page, so the rows of a value repeat one address: the
/// predicates (a byte comparison each, an `is_in` several) run once per
/// dictionary entry and slot, and every other row costs a lookup. Only
/// values that lie inside a dictionary page of the field's loaded chunk are
/// remembered: those bytes are immutable and alive for the whole read, so
/// equal address and length mean equal bytes and a hit is the verdict the
/// predicates would give. Values elsewhere (PLAIN strings in data pages, a
/// probe's own buffers, reused between batches) are always tested.
struct Memo {
    dictionaries: Vec<std::ops::Range<usize>>, // address ranges of the dictionary pages
    keys: Box<[(usize, usize)]>,               // (address, length); (0, 0): empty
    verdicts: Box<[bool]>,
}

impl Memo {
    fn new(dictionaries: Vec<std::ops::Range<usize>>) -> Self {
        let slots = if dictionaries.is_empty() {
            0
        } else {
            MEMO_SLOTS
        };
        Memo {
            dictionaries,
            keys: vec![(0, 0); slots].into_boxed_slice(),
            verdicts: vec![false; slots].into_boxed_slice(),
        }
    }

    /// The verdict on string `bytes`: remembered, or `test`ed (and
    /// remembered when `bytes` lie in a dictionary page).
    #[inline]
    fn verdict(&mut self, bytes: &[u8], test: impl FnOnce() -> bool) -> bool {
        let key = (bytes.as_ptr() as usize, bytes.len());
        let in_dictionary =
            |r: &std::ops::Range<usize>| r.start <= key.0 && key.0.saturating_add(key.1) <= r.end;
        // An empty value is cheap to test, and (0, 0) marks an empty slot.
        if key.1 == 0 || !self.dictionaries.iter().any(in_dictionary) {
            return test();
        }
        // Entries of a dictionary lie a few bytes apart: mix the address's
        // low bits in, so neighbours fall into different slots.
        let slot = (key.0 ^ (key.0 >> 8) ^ key.1.wrapping_mul(31)) % MEMO_SLOTS;
        if self.keys[slot] == key {
            return self.verdicts[slot];
        }
        let verdict = test();
        self.keys[slot] = key;
        self.verdicts[slot] = verdict;
        verdict
    }
}

impl<'p, V: ParquetNode<'p> + FilterField> Probe for FieldProbe<'p, V> {
    fn test(&mut self, keep: &mut [bool]) -> Result<()> {
        if !keep.contains(&true) {
            return self.reader.skip(keep.len());
        }
        self.values.clear();
        self.reader.read(keep.len(), &mut self.values)?;
        let tests = &self.tests;
        let memo = &mut self.memo;
        for (keep, value) in keep.iter_mut().zip(&self.values) {
            if !*keep {
                continue;
            }
            let value = value.scalar();
            let all = || tests.iter().all(|p| p.matches(value));
            *keep = match value {
                ScalarRef::Str(bytes) | ScalarRef::Bytes(bytes) => memo.verdict(bytes, all),
                _ => all(),
            };
        }
        Ok(())
    }
}

/// The probe of field number `field`, read as `V`, when some predicate tests
/// it; its reader is past the rows of the field's first page before the
/// loaded ones.
///
/// # Errors
/// When the field is not bound or its column not loaded.
#[doc(hidden)]
pub fn probe<'p, V>(
    row_group: &RowGroup<'_, 'p>,
    field: usize,
    predicates: &[Predicate],
) -> Result<Option<Box<dyn Probe + 'p>>>
where
    V: ParquetNode<'p> + FilterField + 'p,
    V::Reader: 'p,
{
    let tests: Vec<Predicate> = predicates
        .iter()
        .filter(|p| p.field() == field)
        .cloned()
        .collect();
    if tests.is_empty() {
        return Ok(None);
    }
    let bound = row_group.field(field)?;
    let mut leaves = Vec::new();
    bound.leaves(&mut leaves);
    let mut dictionaries = Vec::new();
    for &leaf in &leaves {
        for page in &row_group.loaded(leaf)?.pages {
            if let parquet::column::page::Page::DictionaryPage { buf, .. } = page {
                let start = buf.as_ptr() as usize;
                dictionaries.push(start..start + buf.len());
            }
        }
    }
    let mut reader = V::reader(row_group, bound)?;
    reader.skip(row_group.leading(field)?)?;
    Ok(Some(Box::new(FieldProbe::<'p, V> {
        reader,
        tests,
        values: Vec::new(),
        memo: Memo::new(dictionaries),
    })))
}

/// A run of taken rows must save at least this many skipped rows on average
/// for decoding with skips to beat decoding every row and dropping the
/// unmatched ones (see [`Runs::row_level`] and `docs/filters.md`).
const MIN_GAP: usize = 8;

/// Which of a row group's loaded rows a query keeps, in order: pairs of
/// (rows to skip, rows to take) covering all of them.
#[derive(Debug, Default, Clone, PartialEq)]
pub(crate) struct Runs {
    pairs: Vec<(usize, usize)>, // invariant: no pair is (0, 0); a pair with take 0 is last
    selected: usize,            // invariant: the sum of the takes
    rows: usize,                // invariant: the sum of skips and takes
}

impl Runs {
    /// Appends `n` rows, kept or not.
    fn push(&mut self, keep: bool, n: usize) {
        if n == 0 {
            return;
        }
        self.rows += n;
        if keep {
            self.selected += n;
            match self.pairs.last_mut() {
                Some(last) => last.1 += n,
                None => self.pairs.push((0, n)),
            }
        } else {
            match self.pairs.last_mut() {
                Some(last) if last.1 == 0 => last.0 += n,
                _ => self.pairs.push((n, 0)),
            }
        }
    }

    /// Appends a batch's rows as `keep` says.
    fn push_batch(&mut self, keep: &[bool]) {
        let mut rest = keep;
        while let Some(&first) = rest.first() {
            let len = rest.iter().position(|&k| k != first).unwrap_or(rest.len());
            self.push(first, len);
            rest = &rest[len..];
        }
    }

    /// The pairs of (rows to skip, rows to take).
    pub(crate) fn pairs(&self) -> &[(usize, usize)] {
        &self.pairs
    }

    /// Rows taken.
    pub(crate) fn selected(&self) -> usize {
        self.selected
    }

    /// Keeps only the taken rows that `window` lets through (its offset
    /// skips some, its limit ends the rest), and uses up `window` as much.
    pub(crate) fn restrict(&mut self, window: &mut Window) {
        let mut out = Runs::default();
        for &(skip, take) in &self.pairs {
            out.push(false, skip);
            let skipped = take.min(window.skip);
            window.skip -= skipped;
            out.push(false, skipped);
            let left = take - skipped;
            let taken = window.take.map_or(left, |t| t.min(left));
            if let Some(t) = &mut window.take {
                *t -= taken;
            }
            out.push(true, taken);
            out.push(false, left - taken);
        }
        *self = out;
    }

    /// Whether decoding only the taken rows (skipping the others in every
    /// column) is expected to beat decoding every row and dropping the
    /// others, for rows of a type without drop glue: when the skipped rows
    /// are on average at least [`MIN_GAP`] per run of taken rows. Each run
    /// costs a skip and a short batch in every column, a fragmented
    /// selection (a row in two) more than it saves. Rows that need dropping
    /// (`String` fields) are always decoded with skips: decoding a row only
    /// to drop it allocates and frees, which costs more than any run.
    pub(crate) fn row_level(&self) -> bool {
        let takes = self.pairs.iter().filter(|r| r.1 > 0).count();
        self.rows - self.selected >= takes.saturating_mul(MIN_GAP)
    }

    /// Keeps of `rows[from..]`, every loaded row of the row group decoded,
    /// only the taken ones.
    pub(crate) fn retain<T>(&self, rows: &mut Vec<T>, from: usize) {
        let (mut kept, mut next) = (from, from);
        for &(skip, take) in &self.pairs {
            next += skip;
            for _ in 0..take {
                if next >= rows.len() {
                    break;
                }
                rows.swap(kept, next);
                kept += 1;
                next += 1;
            }
        }
        rows.truncate(kept);
    }
}

/// Tests `selection`'s predicates on the loaded rows of `row_group` (decoding
/// only the predicate columns) and applies `window`: the rows to decode.
/// Stops testing once the window's offset and limit are matched; the rows
/// after are skipped.
///
/// # Errors
/// When a predicate column cannot be decoded.
pub(crate) fn select<'p, T: crate::ParquetRow<'p>>(
    row_group: &RowGroup<'_, 'p>,
    selection: &Selection,
    window: &mut Window,
) -> Result<Runs> {
    let mut probes = T::probes(row_group, &selection.predicates)?;
    let rows = row_group.num_rows();
    let mut runs = Runs::default();
    if probes.is_empty() {
        // Only an offset or a limit: nothing to test (and no loop over a
        // row count that only the footer vouches for).
        runs.push(true, rows);
        runs.restrict(window);
        return Ok(runs);
    }
    let enough = window.take.map(|t| t.saturating_add(window.skip));
    let mut keep = vec![true; crate::runtime::BATCH.min(rows)];
    let mut done = 0;
    while done < rows {
        if enough.is_some_and(|n| runs.selected >= n) {
            runs.push(false, rows - done);
            break;
        }
        let keep = &mut keep[..crate::runtime::BATCH.min(rows - done)];
        keep.fill(true);
        for probe in &mut probes {
            probe.test(keep)?;
        }
        runs.push_batch(keep);
        done += keep.len();
    }
    runs.restrict(window);
    Ok(runs)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn runs(keep: &[bool]) -> Runs {
        let mut runs = Runs::default();
        runs.push_batch(keep);
        runs
    }

    #[test]
    fn memo_remembers_only_values_inside_a_dictionary() {
        let dictionary = b"EURUSDGBPJPY".to_vec();
        let start = dictionary.as_ptr() as usize;
        let mut memo = Memo::new(std::iter::once(start..start + dictionary.len()).collect());
        let eur = &dictionary[..6];
        let mut tested = 0;
        let mut verdict = |memo: &mut Memo, bytes: &[u8], v: bool| {
            memo.verdict(bytes, || {
                tested += 1;
                v
            })
        };
        assert!(verdict(&mut memo, eur, true));
        // Remembered: the same entry is not tested again.
        assert!(verdict(&mut memo, eur, false));
        // Another entry (another address) is its own verdict.
        assert!(!verdict(&mut memo, &dictionary[6..], false));
        // The same bytes outside the dictionary: tested each time, as a
        // reused buffer may hold other bytes at that address next batch.
        let copy = eur.to_vec();
        assert!(!verdict(&mut memo, &copy, false));
        assert!(verdict(&mut memo, &copy, true));
        assert_eq!(tested, 4);
    }

    #[test]
    fn runs_alternate_and_merge() {
        let r = runs(&[false, false, true, true, true, false, true, false, false]);
        assert_eq!(r.pairs(), [(2, 3), (1, 1), (2, 0)]);
        assert_eq!((r.selected(), r.rows), (4, 9));
        assert_eq!(runs(&[true, true]).pairs(), [(0, 2)]);
        assert_eq!(runs(&[]).pairs(), []);
    }

    #[test]
    fn restrict_applies_offset_then_limit_across_groups() {
        let mut window = Window {
            skip: 2,
            take: Some(3),
        };
        // Taken rows 2, 3, 4 and 6: the offset eats 2 and 3.
        let mut first = runs(&[false, false, true, true, true, false, true]);
        first.restrict(&mut window);
        assert_eq!(first.pairs(), [(4, 1), (1, 1)]);
        assert_eq!((window.skip, window.take), (0, Some(1)));
        let mut second = runs(&[true, true, false, true]);
        second.restrict(&mut window);
        assert_eq!(second.pairs(), [(0, 1), (3, 0)]);
        assert!(window.full());
    }

    #[test]
    fn retain_keeps_the_taken_rows_after_from() {
        let r = runs(&[false, true, true, false, true]);
        let mut rows = vec![100, 0, 1, 2, 3, 4];
        r.retain(&mut rows, 1);
        assert_eq!(rows, [100, 1, 2, 4]);
    }

    #[test]
    fn row_level_wants_long_gaps() {
        // One taken row in every 20: gaps of 19.
        let sparse: Vec<bool> = (0..200).map(|i| i % 20 == 0).collect();
        assert!(runs(&sparse).row_level());
        // Every other row: gaps of 1.
        let fragmented: Vec<bool> = (0..200).map(|i| i % 2 == 0).collect();
        assert!(!runs(&fragmented).row_level());
        // One long run in the middle.
        let block: Vec<bool> = (0..200).map(|i| (90..110).contains(&i)).collect();
        assert!(runs(&block).row_level());
    }
}
