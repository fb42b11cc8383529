//! Skipping rows without decoding them.

use super::ColumnReader;
use crate::error::{DecodeError, Error, Result};
use crate::physical::Physical;

impl<P: Physical, S> ColumnReader<'_, P, S> {
    /// Skips the next `n` rows of a flat column: their definition levels and
    /// their values, so that the next read starts `n` rows later.
    ///
    /// Nothing is materialised that the encoding lets the reader step over
    /// (see [`ValueDecoder::skip`](crate::encoding::ValueDecoder::skip)):
    /// data pages that lie wholly inside the skipped rows are not even
    /// opened (a dictionary page still is, for the pages after it), and in
    /// the page where the skip ends only the definition levels are tallied,
    /// to know how many values the skipped rows hold. A null in a skipped
    /// row is not an error, even for a field that is not an `Option`: it is
    /// never read.
    ///
    /// Range reads (a row selection) and decoding parts of one row group in
    /// parallel position a reader with it. A reader made by
    /// [`ColumnReader::nested`] skips records instead
    /// ([`ColumnReader::skip_records`]).
    ///
    /// # Errors
    /// [`Error::Unsupported`] on a reader made by [`ColumnReader::nested`];
    /// out of spec when the chunk holds fewer than `n` more rows, when a
    /// page is malformed, or when a skipped definition level is above the
    /// column's maximum.
    pub(crate) fn skip_rows(&mut self, n: usize) -> Result<()> {
        if self.nested {
            return Err(Error::Unsupported {
                location: self.location(),
                message: "skipping rows of a repeated or nested column by rows, not records".into(),
            });
        }
        let mut left = n;
        while left > 0 {
            if self.page.left == 0 {
                left = self.skip_whole_pages(left);
                if left == 0 {
                    break;
                }
            }
            self.ensure_page()?;
            let k = left.min(self.page.left);
            let values = self.skip_levels(k)?;
            let shape = self.shape;
            let skipped = self.page.values.skip(values, shape);
            skipped.map_err(|e| self.err(e))?;
            self.advance(k);
            left -= k;
        }
        Ok(())
    }

    /// Steps over the data pages that come next and hold at most `left`
    /// rows in all, without opening them; returns the rows left to skip.
    /// Stops at a dictionary page: the pages after it need it.
    fn skip_whole_pages(&mut self, mut left: usize) -> usize {
        while let Some(page) = self.column.pages.get(self.next_page) {
            let rows = page.num_values() as usize;
            if !page.is_data_page() || rows > left {
                break;
            }
            left -= rows;
            self.next_row += rows;
            self.next_page += 1;
        }
        left
    }

    /// Moves past the definition levels of the next `k` values of the
    /// current page; returns how many of them are non-null.
    fn skip_levels(&mut self, k: usize) -> Result<usize> {
        let max = u32::from(self.max_def.unsigned_abs());
        let Some(defs) = self.page.defs.as_mut() else {
            return Ok(k); // REQUIRED: every row holds a value
        };
        let tally = defs.skip_counting(k, max).map_err(|e| self.err(e))?;
        if tally.skipped < k {
            return Err(self.err(DecodeError::oos(format!(
                "the page has fewer definition levels than values ({} levels where {k} were needed)",
                tally.skipped
            ))));
        }
        if tally.max > max {
            return Err(self.err(DecodeError::oos(format!(
                "definition level {} is larger than the column's maximum of {max}",
                tally.max
            ))));
        }
        Ok(tally.equal)
    }
}

/// Repetition levels decoded at a time while skipping records: a bound on
/// the scratch buffer whatever a page claims.
const REPS_CHUNK: usize = 1024;

impl<P: Physical, S> ColumnReader<'_, P, S> {
    /// For a reader made by [`ColumnReader::nested`]: moves past whole
    /// records without decoding their values. A record starts at
    /// repetition level 0 and runs to the next level 0 (it may go on into
    /// the next page) or to the end of the chunk.
    ///
    /// With `continuing`, the levels before the next record start are the
    /// rest of a record the caller already took the start of, and are
    /// skipped first; without it, the next level must start a record. Then
    /// `n` records are skipped: the reader stops before the start of the
    /// record after them, or at the end of the chunk. A record counts as
    /// skipped only once the next record start (or the end) is seen, so
    /// pages that end inside a record are handled.
    ///
    /// Repetition levels are decoded a chunk at a time into a scratch
    /// buffer, to find where the skip ends; the definition levels up to
    /// there are only tallied (how many are at the column's maximum: the
    /// non-null values to step over), and the values are skipped with the
    /// page's decoder ([`ValueDecoder::skip`](crate::encoding::ValueDecoder::skip)).
    ///
    /// # Errors
    /// Out of spec when the chunk ends before `n` records, when the first
    /// level is not a record start (without `continuing`), when a level is
    /// above the column's maximum, or when a page is malformed.
    pub(crate) fn skip_records(&mut self, n: usize, continuing: bool) -> Result<()> {
        if !self.nested {
            return Err(Error::Unsupported {
                location: self.location(),
                message: "skipping records of a flat column (skip its rows)".into(),
            });
        }
        if self.values_ready != 0 {
            return Err(self.err(DecodeError::oos(
                "the values of the levels read were not all read",
            )));
        }
        let mut reps = std::mem::take(&mut self.levels);
        let result = self.skip_records_with(n, continuing, &mut reps);
        self.levels = reps;
        result
    }

    fn skip_records_with(&mut self, n: usize, continuing: bool, reps: &mut Vec<u32>) -> Result<()> {
        let max_rep = u32::from(self.max_rep.unsigned_abs());
        let mut started = 0; // record starts passed
        let mut first = !continuing; // the next level must start a record
        loop {
            if self.page.left == 0 {
                if self.column.pages[self.next_page..]
                    .iter()
                    .all(|p| !p.is_data_page() || p.num_values() == 0)
                {
                    break; // the end of the chunk ends the last record
                }
                self.ensure_page()?;
            }
            let m = self.page.left.min(REPS_CHUNK);
            reps.clear();
            reps.resize(m, 0);
            // Decoded from a copy: the skip may end inside this chunk, and
            // the levels after it are read again by the next read.
            let got = match self.page.reps.clone() {
                Some(mut levels) => levels.get_batch(reps),
                None => Ok(m), // not repeated: every level starts a record
            };
            let got = got.map_err(|e| self.err(e))?;
            if got != m {
                return Err(self.err(DecodeError::oos(format!(
                    "the page has {} more values but {got} repetition levels",
                    self.page.left
                ))));
            }
            let mut k = 0; // levels of this chunk to skip
            let mut done = false;
            for &rep in reps.iter() {
                if rep > max_rep {
                    return Err(self.err(DecodeError::oos(format!(
                        "repetition level {rep} is larger than the column's maximum of {max_rep}"
                    ))));
                }
                if first && rep != 0 {
                    return Err(self.err(DecodeError::oos(format!(
                        "a record starts with repetition level {rep}, not 0"
                    ))));
                }
                first = false;
                if rep == 0 {
                    if started == n {
                        done = true;
                        break;
                    }
                    started += 1;
                }
                k += 1;
            }
            self.skip_levels_and_values(k)?;
            if done {
                return Ok(());
            }
        }
        if started < n {
            return Err(self.err(DecodeError::oos(format!(
                "the column chunk has fewer records than the row group has rows \
                 ({started} left where {n} were skipped)"
            ))));
        }
        Ok(())
    }

    /// Moves past the next `k` levels of the current page (repetition and
    /// definition) and the values among them.
    fn skip_levels_and_values(&mut self, k: usize) -> Result<()> {
        if k == 0 {
            return Ok(());
        }
        if let Some(reps) = self.page.reps.as_mut() {
            let skipped = reps.skip(k);
            skipped.map_err(|e| self.err(e))?;
        }
        let values = self.skip_levels(k)?;
        let shape = self.shape;
        let skipped = self.page.values.skip(values, shape);
        skipped.map_err(|e| self.err(e))?;
        self.page.left -= k;
        Ok(())
    }
}
