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

use crate::column::{ColumnReader, Verdicts};
use crate::error::{Error, Result};
use crate::field::ParquetField;
use crate::filter::{FilterField, Predicate, Selection, Window};
use crate::group::RowGroup;
use crate::nested::ParquetNode;
use crate::row::Probe;

/// A type a predicate field is probed as (`FilterField::Probe`): a leaf
/// field type, or an `Option` of one.
#[doc(hidden)]
pub trait ProbeNode<'p>: ParquetNode<'p> + FilterField + 'p {
    /// The probe of a field of this type on column `leaf`, testing `tests`,
    /// past the `leading` rows before the loaded ones.
    ///
    /// # Errors
    /// When the field's column is not loaded.
    fn open(
        row_group: &RowGroup<'_, 'p>,
        leaf_and_leading: (usize, usize),
        tests: Vec<Predicate>,
    ) -> Result<Box<dyn Probe + 'p>>;
    /// The probe of a field of type `Option<Self>`.
    ///
    /// # Errors
    /// When the field's column is not loaded, or `Self` is an `Option`.
    fn open_optional(
        row_group: &RowGroup<'_, 'p>,
        leaf_and_leading: (usize, usize),
        tests: Vec<Predicate>,
    ) -> Result<Box<dyn Probe + 'p>>;
}

impl<'p, T: ParquetField<'p> + FilterField + 'p> ProbeNode<'p> for T {
    fn open(
        row_group: &RowGroup<'_, 'p>,
        (leaf, leading): (usize, usize),
        tests: Vec<Predicate>,
    ) -> Result<Box<dyn Probe + 'p>> {
        let mut reader = row_group
            .column(leaf)?
            .for_field(T::RUST_TYPE)
            .keeping_pages();
        reader.skip_rows(leading)?;
        Ok(Box::new(LeafProbe::<'p, T> {
            reader,
            tests,
            null: None,
            verdicts: Verdicts::default(),
        }))
    }
    fn open_optional(
        row_group: &RowGroup<'_, 'p>,
        (leaf, leading): (usize, usize),
        tests: Vec<Predicate>,
    ) -> Result<Box<dyn Probe + 'p>> {
        let null = tests
            .iter()
            .all(|p| p.matches(crate::filter::ScalarRef::Null));
        let mut reader = row_group.column(leaf)?.keeping_pages();
        reader.skip_rows(leading)?;
        Ok(Box::new(LeafProbe::<'p, T> {
            reader,
            tests,
            null: Some(null),
            verdicts: Verdicts::default(),
        }))
    }
}

impl<'p, T: ProbeNode<'p>> ProbeNode<'p> for Option<T> {
    fn open(
        row_group: &RowGroup<'_, 'p>,
        (leaf, leading): (usize, usize),
        tests: Vec<Predicate>,
    ) -> Result<Box<dyn Probe + 'p>> {
        T::open_optional(row_group, (leaf, leading), tests)
    }
    fn open_optional(
        row_group: &RowGroup<'_, 'p>,
        (leaf, _): (usize, usize),
        _: Vec<Predicate>,
    ) -> Result<Box<dyn Probe + 'p>> {
        // Binding refuses `Option<Option<T>>` before any probe is opened.
        Err(Error::Unsupported {
            location: row_group.location(leaf),
            message: "a predicate on an `Option` of an `Option`".into(),
        })
    }
}

/// The probe of a leaf field (or an `Option` of one): its column tested
/// without materialising its values where the page is dictionary-encoded
/// (each dictionary entry tested once, then the indices;
/// `ColumnReader::test_rows`), value by value elsewhere.
struct LeafProbe<'p, T: ParquetField<'p>> {
    reader: ColumnReader<'p, T::Physical, T>,
    tests: Vec<Predicate>, // invariant: not empty, all on this field
    null: Option<bool>,    // the verdict on a null; `None`: a plain field, a null is an error
    verdicts: Verdicts,    // on the chunk's dictionary entries
}

impl<'p, T: ParquetField<'p> + FilterField> Probe for LeafProbe<'p, T> {
    fn test(&mut self, keep: &mut [bool]) -> Result<()> {
        if !keep.contains(&true) {
            return self.reader.skip_rows(keep.len());
        }
        let tests = &self.tests;
        self.reader.test_rows(
            keep,
            &mut self.verdicts,
            T::convert,
            |value: T| tests.iter().all(|p| p.matches(value.scalar())),
            self.null,
        )
    }
}

/// The probe of field number `field`, read as `V`, when some predicate tests
/// it; its reader is past the rows of the field's first page before the
/// loaded ones.
///
/// # Errors
/// When the field is not bound or its column not loaded.
#[doc(hidden)]
pub fn probe<'p, V: ProbeNode<'p>>(
    row_group: &RowGroup<'_, 'p>,
    field: usize,
    predicates: &[Predicate],
) -> Result<Option<Box<dyn Probe + 'p>>> {
    let tests: Vec<Predicate> = predicates
        .iter()
        .filter(|p| p.field() == field)
        .cloned()
        .collect();
    if tests.is_empty() {
        return Ok(None);
    }
    let bound = row_group.field(field)?;
    let leading = row_group.leading(field)?;
    V::open(row_group, (bound.leaf, leading), tests).map(Some)
}

/// The verdicts of up to 64 rows as the bits of a word (row `j` at bit `j`).
///
/// Eight verdicts at a time: their bytes (each 0 or 1) read as one
/// little-endian word and multiplied by `0x0102_0408_1020_4080`, which adds
/// byte `i`'s bit into bit `56 + i` of the product with no carry reaching
/// it (every partial product lands on a distinct bit), so the top byte is
/// the eight verdicts in order. One multiply where a shift and an or per
/// row made building the runs 5 % of a filtered read picking 2 % of rows.
/// A whole chunk of 64 goes through arrays of known length, which the
/// compiler reads as one 8-byte load per eight verdicts: 0.09 ns a row
/// against 0.44 for the byte-by-byte copy a chunk of any length needs.
fn bits_of(chunk: &[bool]) -> u64 {
    let packed =
        |bytes: [u8; 8]| u64::from_le_bytes(bytes).wrapping_mul(0x0102_0408_1020_4080) >> 56;
    let mut bits = 0;
    if let Ok(full) = <&[bool; 64]>::try_from(chunk) {
        for (k, eight) in full.chunks_exact(8).enumerate() {
            let bytes = <[bool; 8]>::try_from(eight).map_or([0; 8], |eight| eight.map(u8::from));
            bits |= packed(bytes) << (8 * k);
        }
        return bits;
    }
    for (k, eight) in chunk.chunks(8).enumerate() {
        let mut bytes = [0u8; 8];
        for (byte, &keep) in bytes.iter_mut().zip(eight) {
            *byte = u8::from(keep);
        }
        bits |= packed(bytes) << (8 * k);
    }
    bits
}

/// A run of taken rows must save at least this many skipped rows on average
/// for decoding with skips to beat decoding every row and dropping the
/// unmatched ones (see [`Runs::row_level`] and `docs/filters.md`).
const MIN_GAP: usize = 32;

/// Which of a row group's loaded rows a query keeps, in order: pairs of
/// (rows to skip, rows to take) covering all of them.
///
/// A row group's selection can instead be left to the decoded rows
/// ([`Runs::on_rows`]): then there are no pairs, and `selected` is the
/// rows the first batch projects, with a margin (the output's reservation;
/// more rows grow it).
#[derive(Debug, Default, Clone, PartialEq)]
pub(crate) struct Runs {
    pairs: Vec<(usize, usize)>, // invariant: no pair is (0, 0); a pair with take 0 is last
    selected: usize,            // invariant: the sum of the takes (left to the rows: projected)
    rows: usize,                // invariant: the sum of skips and takes (left to the rows: all)
    on_rows: bool,              // the predicates are tested on the decoded rows; no pairs
}

impl Runs {
    /// Every one of `rows` rows decoded, the predicates tested on each;
    /// `first` the runs of the first batch, whose share of taken rows
    /// projects how many rows the output is reserved for.
    fn on_rows(rows: usize, first: &Runs) -> Self {
        Runs {
            pairs: Vec::new(),
            selected: crate::sink::projected(first.selected, first.rows, rows),
            rows,
            on_rows: true,
        }
    }

    /// Whether the rows are to be decoded and tested one by one
    /// ([`select`]'s choice): the pairs are then empty.
    pub(crate) fn tested_on_rows(&self) -> bool {
        self.on_rows
    }

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
        // The verdicts of 64 rows as the bits of a word: each run's end is
        // one count of trailing ones or zeros, not a branch per row (which
        // mispredicts at the end of every run: every other row of a query
        // that takes rows at random, where building the runs was 15 % of
        // the read).
        for chunk in keep.chunks(64) {
            let bits = bits_of(chunk);
            let mut at = 0;
            while at < chunk.len() {
                let rest = bits >> at;
                let taken = rest & 1 == 1;
                let run = if taken {
                    rest.trailing_ones()
                } else {
                    rest.trailing_zeros()
                };
                // Past the chunk's rows the bits are zeros: cut there.
                let run = (run as usize).min(chunk.len() - at);
                self.push(taken, run);
                at += run;
            }
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
        // Runs left to the rows are chosen only for a query without a window.
        debug_assert!(!self.on_rows || (window.skip == 0 && window.take.is_none()));
        if window.skip == 0 && window.take.is_none_or(|t| t >= self.selected) {
            // The window lets every taken row through: nothing to rebuild.
            if let Some(t) = &mut window.take {
                *t -= self.selected;
            }
            return;
        }
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
}

/// Tests `selection`'s predicates on the loaded rows of `row_group` (decoding
/// only the predicate columns) and applies `window`: the rows to decode.
/// Stops testing once the window's offset and limit are matched; the rows
/// after are skipped. With `may_test_rows`, a row group whose first batch
/// keeps rows all over is left to the decoded rows ([`Runs::on_rows`]).
///
/// # Errors
/// When a predicate column cannot be decoded.
pub(crate) fn select<'p, T: crate::ParquetRow<'p>>(
    row_group: &RowGroup<'_, 'p>,
    selection: &Selection,
    window: &mut Window,
    may_test_rows: bool,
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
    let on_rows = may_test_rows && rows_may_test::<T>(selection);
    while done < rows {
        if on_rows && done == keep.len() && scattered::<T>(&runs) {
            // The first batch keeps rows all over: the rest of the row group
            // is taken to be alike, and decoding every row then testing the
            // rows costs less than testing the predicate columns first,
            // building the runs and then decoding every row anyway
            // (`Runs::row_level`), or skipping between short runs.
            return Ok(Runs::on_rows(rows, &runs));
        }
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

/// Whether a row group's rows may be decoded first and `selection` tested on
/// them ([`ParquetRow::mark`]): a query without an offset or a limit (each
/// row group's count is then not needed before its decode), whose every
/// predicate `T` tests on its rows, on a field of numbers, instants or the
/// like (a string compared on every row costs more than a dictionary
/// column's probe, which tests each entry once).
fn rows_may_test<'p, T: crate::ParquetRow<'p>>(selection: &Selection) -> bool {
    selection.offset == 0
        && selection.limit.is_none()
        && selection
            .predicates
            .iter()
            .all(|p| T::tests_rows(p.field()) && !p.test.compares_bytes())
}

/// A run of kept rows in a row type that owns heap data (`String` fields)
/// must save at least this many skipped rows on average for skipping to
/// beat decoding every row and dropping the rest. Lower than [`MIN_GAP`]:
/// such a row costs an allocation and a free to decode and drop.
const MIN_GAP_DROP: usize = 4;

/// Whether the rows of `runs` (a first batch) are kept in runs too many and
/// too short for skipping between them to pay, for rows of type `T`: at
/// least one run in 64 rows, with fewer than [`MIN_GAP`] (or
/// [`MIN_GAP_DROP`]) rows skipped per run. Few long runs (a sorted column's
/// range) are left to the runs, whatever their share of rows.
fn scattered<T>(runs: &Runs) -> bool {
    let takes = runs.pairs.iter().filter(|r| r.1 > 0).count();
    let gap = if std::mem::needs_drop::<T>() {
        MIN_GAP_DROP
    } else {
        MIN_GAP
    };
    takes.saturating_mul(64) >= runs.rows && runs.rows - runs.selected < takes.saturating_mul(gap)
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
    fn verdicts_pack_into_bits_in_order() {
        // Every byte value, at every place of a word, and chunks of every
        // length (the last chunk of a batch is short).
        for byte in 0..=255u64 {
            for place in 0..8 {
                let word = byte << (8 * place);
                let keep: Vec<bool> = (0..64).map(|j| word >> j & 1 == 1).collect();
                assert_eq!(bits_of(&keep), word, "{word:#x}");
            }
        }
        for len in 0..=64 {
            let keep: Vec<bool> = (0..len).map(|j| j % 3 != 1).collect();
            let expected = (0..len).fold(0u64, |b, j| b | u64::from(j % 3 != 1) << j);
            assert_eq!(bits_of(&keep), expected, "{len} rows");
        }
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
    fn batches_give_the_runs_of_a_row_by_row_walk() {
        let mut rng = 0x9e37_79b9_7f4a_7c15u64;
        for density in [0, 1, 8, 16, 24, 31, 32] {
            let mut keep = Vec::new();
            for _ in 0..3000 {
                rng ^= rng << 13;
                rng ^= rng >> 7;
                rng ^= rng << 17;
                keep.push(rng % 32 < density);
            }
            let mut naive = Runs::default();
            for &k in &keep {
                naive.push(k, 1);
            }
            // Batches of uneven lengths, across words and batches.
            let mut batched = Runs::default();
            for part in keep.chunks(1000).flat_map(|c| c.chunks(333)) {
                batched.push_batch(part);
            }
            assert_eq!(batched, naive, "density {density}/32");
            assert_eq!(batched.selected(), keep.iter().filter(|&&k| k).count());
        }
    }

    #[test]
    fn rows_are_tested_when_the_first_batch_keeps_rows_all_over() {
        let batch = |keep: fn(usize) -> bool| runs(&(0..1024).map(keep).collect::<Vec<_>>());
        // Every other row: for rows with and without drop glue.
        let half = batch(|i| i % 2 == 0);
        assert!(scattered::<u64>(&half) && scattered::<String>(&half));
        // One row in 17 (gaps of 16): only rows without drop glue, whose
        // decode and drop cost no allocation.
        let in17 = batch(|i| i % 17 == 0);
        assert!(scattered::<u64>(&in17) && !scattered::<String>(&in17));
        // One row in 50: left to the runs.
        assert!(!scattered::<u64>(&batch(|i| i % 50 == 0)));
        // Every row, or one long run of them (a sorted column's range): few
        // runs, left to the runs whatever their share.
        assert!(!scattered::<u64>(&batch(|_| true)));
        assert!(!scattered::<u64>(&batch(|i| i >= 100)));
        // The output reserved for the rest: the first batch's share, with
        // a margin, at most the row group.
        let on = Runs::on_rows(1_000_000, &half);
        assert!(on.tested_on_rows() && on.pairs().is_empty());
        assert!(
            (500_000..=600_000).contains(&on.selected()),
            "{}",
            on.selected()
        );
        assert_eq!(Runs::on_rows(1_000, &batch(|_| true)).selected(), 1_000);
    }

    #[test]
    fn row_level_wants_long_gaps() {
        // One taken row in every 50: gaps of 49 (a 2 % query).
        let sparse: Vec<bool> = (0..500).map(|i| i % 50 == 0).collect();
        assert!(runs(&sparse).row_level());
        // One in every 17: gaps of 16 (three symbols of 50) decode every row.
        let dense: Vec<bool> = (0..510).map(|i| i % 17 == 0).collect();
        assert!(!runs(&dense).row_level());
        // Every other row: gaps of 1.
        let fragmented: Vec<bool> = (0..200).map(|i| i % 2 == 0).collect();
        assert!(!runs(&fragmented).row_level());
        // One long run in the middle.
        let block: Vec<bool> = (0..200).map(|i| (90..110).contains(&i)).collect();
        assert!(runs(&block).row_level());
    }
}
