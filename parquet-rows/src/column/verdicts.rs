//! Testing a predicate on a column's rows without materialising them: the
//! probe pass of a filtered read (`pages::select`).
//!
//! ```text
//! dictionary-encoded page: table[e] <- test(convert(dict[e])), once per chunk
//!                          keep[i] &= table[index[i]]  (an RLE run: one lookup)
//! any other page:          keep[i] &= test(convert(value[i]))
//! null (definition level): keep[i] &= the verdict on a null, or an error for
//!                          a field that is not an `Option`
//! ```
//!
//! A chunk that falls back from dictionary to PLAIN part-way takes both
//! branches, page by page. Every value is checked as the full read checks
//! it: an index out of the dictionary is an error (unless its whole batch
//! was rejected by another predicate already, then it is skipped, as
//! rejected rows of a filtered read are), and so is a value the field's
//! conversion refuses.

use super::page::Values;
use super::{ColumnContext, ColumnReader};
use crate::error::{DecodeError, Result};
use crate::physical::Physical;

/// The verdicts of a probe's predicates on the entries of its chunk's
/// dictionary, built when the first dictionary-encoded page is met.
#[derive(Debug, Default)]
pub(crate) struct Verdicts {
    table: Table,
}

#[derive(Debug, Default)]
enum Table {
    /// No dictionary-encoded page met yet.
    #[default]
    Unbuilt,
    /// `test` of each entry, converted as the field converts values.
    Built(Vec<bool>),
    /// Some entry does not convert into the field's type: values are
    /// converted one by one, so the error is the full read's, and only for a
    /// row that holds the entry.
    PerValue,
}

impl<'p, P: Physical, S> ColumnReader<'p, P, S> {
    /// Clears `keep[i]` for each of the next `keep.len()` rows of a flat
    /// column whose value fails `test` (after `convert`, the field's
    /// conversion); a null row gets the verdict `null`, or is an error
    /// naming the row when `null` is `None` (a field that is not an
    /// `Option`).
    pub(crate) fn test_rows<T>(
        &mut self,
        keep: &mut [bool],
        verdicts: &mut Verdicts,
        convert: impl Fn(P::Value<'p>, &ColumnContext) -> Result<T, String>,
        test: impl Fn(T) -> bool,
        null: Option<bool>,
    ) -> Result<()> {
        let n = keep.len();
        let mut done = 0;
        let mut levels = std::mem::take(&mut self.levels);
        let mut result = Ok(());
        while done < n && result.is_ok() {
            if let Err(e) = self.ensure_page() {
                result = Err(e);
                break;
            }
            let k = (n - done).min(self.page.left);
            let segment = &mut keep[done..done + k];
            result = if self.max_def == 0 {
                self.test_dense(segment, verdicts, &convert, &test)
            } else {
                self.test_levels(segment, verdicts, &convert, &test, null, &mut levels)
            };
            self.advance(k);
            done += k;
        }
        self.levels = levels;
        result
    }

    /// [`test_rows`](Self::test_rows) for the rows of one page segment of
    /// an OPTIONAL column: runs of non-null rows tested as dense values,
    /// the other rows level by level.
    fn test_levels<T>(
        &mut self,
        keep: &mut [bool],
        verdicts: &mut Verdicts,
        convert: &impl Fn(P::Value<'p>, &ColumnContext) -> Result<T, String>,
        test: &impl Fn(T) -> bool,
        null: Option<bool>,
        levels: &mut Vec<u32>,
    ) -> Result<()> {
        let max = self.max_def as u32;
        let mut i = 0;
        while i < keep.len() {
            let run = self.take_defined_run(keep.len() - i)?;
            if run > 0 {
                self.test_dense(&mut keep[i..i + run], verdicts, convert, test)?;
                i += run;
                continue;
            }
            let (m, _) = self.next_levels(keep.len() - i, levels)?;
            let mut j = 0;
            while j < m {
                let start = j;
                while j < m && levels[j] != max {
                    j += 1;
                }
                if j > start {
                    match null {
                        Some(true) => {}
                        Some(false) => keep[i + start..i + j].fill(false),
                        None => return Err(self.null_in_plain_field(self.next_row + i + start)),
                    }
                }
                let start = j;
                while j < m && levels[j] == max {
                    j += 1;
                }
                if j > start {
                    self.test_dense(&mut keep[i + start..i + j], verdicts, convert, test)?;
                }
            }
            i += m;
        }
        Ok(())
    }

    /// Tests the next `keep.len()` non-null values of the current page.
    fn test_dense<T>(
        &mut self,
        keep: &mut [bool],
        verdicts: &mut Verdicts,
        convert: &impl Fn(P::Value<'p>, &ColumnContext) -> Result<T, String>,
        test: &impl Fn(T) -> bool,
    ) -> Result<()> {
        if matches!(self.page.values, Values::Dictionary(_)) {
            if let Table::Unbuilt = verdicts.table {
                verdicts.table = self.dictionary_verdicts(convert, test);
            }
            if let (Table::Built(table), Values::Dictionary(indices)) =
                (&verdicts.table, &mut self.page.values)
            {
                let got = indices.select(table, keep);
                let got = got.map_err(|e| self.err(e))?;
                if got < keep.len() {
                    return Err(self.err(crate::encoding::too_few(got, keep.len())));
                }
                return Ok(());
            }
        }
        // PLAIN and the other encodings (and a dictionary whose entries do
        // not all convert): each value decoded, converted and tested.
        let mut values = Vec::with_capacity(keep.len());
        self.read_dense(keep.len(), &mut values)?;
        let context = self.context;
        for (keep, value) in keep.iter_mut().zip(values) {
            match convert(value, &context) {
                Ok(value) => *keep &= test(value),
                Err(message) => return Err(self.err(DecodeError::Value(message))),
            }
        }
        Ok(())
    }

    /// The verdict on each entry of the chunk's dictionary.
    fn dictionary_verdicts<T>(
        &self,
        convert: &impl Fn(P::Value<'p>, &ColumnContext) -> Result<T, String>,
        test: &impl Fn(T) -> bool,
    ) -> Table {
        let dict = self.dict.as_deref().unwrap_or(&[]);
        let mut table = Vec::with_capacity(dict.len());
        for &entry in dict {
            match convert(entry, &self.context) {
                Ok(value) => table.push(test(value)),
                Err(_) => return Table::PerValue,
            }
        }
        Table::Built(table)
    }
}
