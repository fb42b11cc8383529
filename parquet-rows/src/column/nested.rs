//! Levels of a column at any depth, for record assembly.

use super::{page, ColumnReader};
use crate::error::{DecodeError, Result};
use crate::physical::Physical;

impl<P: Physical, S> ColumnReader<'_, P, S> {
    /// For a reader made by [`ColumnReader::nested`]: appends the next (at
    /// most `max`, all from one page) repetition and definition levels to
    /// `reps` and `defs` (zeros when the column has none), opening the next
    /// data page when needed. Returns how many of them are non-null values,
    /// which the caller then reads with `read_with` before asking for
    /// more levels; `None` after the last page.
    pub(crate) fn read_nested_levels(
        &mut self,
        max: usize,
        reps: &mut Vec<u32>,
        defs: &mut Vec<u32>,
    ) -> Result<Option<usize>> {
        if self.values_ready != 0 {
            return Err(self.err(DecodeError::oos(
                "the values of the levels read were not all read",
            )));
        }
        if self.page.left == 0 {
            if self.column.pages[self.next_page..]
                .iter()
                .all(|p| !p.is_data_page() || p.num_values() == 0)
            {
                return Ok(None);
            }
            self.ensure_page()?;
        }
        let n = self.page.left.min(max);
        let max_rep = u32::from(self.max_rep.unsigned_abs());
        let max_def = u32::from(self.max_def.unsigned_abs());
        let (reps_start, defs_start) = (reps.len(), defs.len());
        let got_reps = fill_levels(self.page.reps.as_mut(), n, reps);
        let got_defs = fill_levels(self.page.defs.as_mut(), n, defs);
        let (got_reps, got_defs) = (
            got_reps.map_err(|e| self.err(e))?,
            got_defs.map_err(|e| self.err(e))?,
        );
        if got_reps != n || got_defs != n {
            return Err(self.err(DecodeError::oos(format!(
                "the page has {} more values but {got_reps} repetition and {got_defs} definition levels",
                self.page.left
            ))));
        }
        if self.page.defs.is_none() {
            defs[defs_start..].fill(max_def);
        }
        if let Some(&rep) = reps[reps_start..].iter().find(|&&r| r > max_rep) {
            return Err(self.err(DecodeError::oos(format!(
                "repetition level {rep} is larger than the column's maximum of {max_rep}"
            ))));
        }
        let mut non_null = 0;
        for &level in &defs[defs_start..] {
            if level > max_def {
                return Err(self.err(DecodeError::oos(format!(
                    "definition level {level} is larger than the column's maximum of {max_def}"
                ))));
            }
            non_null += usize::from(level == max_def);
        }
        self.page.left -= n;
        self.values_ready = non_null;
        Ok(Some(non_null))
    }
}

/// Appends `n` levels from `levels` to `out` (zeros when there are none);
/// returns how many were decoded. `n` is a cursor's chunk (see
/// `ColumnReader::read_nested_levels`), never a page header's count.
fn fill_levels(
    levels: Option<&mut page::Levels<'_>>,
    n: usize,
    out: &mut Vec<u32>,
) -> Result<usize, DecodeError> {
    let start = out.len();
    out.resize(start + n, 0);
    let got = match levels {
        Some(levels) => levels.get_batch(&mut out[start..])?,
        None => n,
    };
    out.truncate(start + got);
    Ok(got)
}
