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
    /// parallel position a reader with it.
    ///
    /// # Errors
    /// [`Error::Unsupported`] on a reader made by [`ColumnReader::nested`]
    /// (a row of a repeated column spans a variable number of levels: not
    /// skipped yet); out of spec when the chunk holds fewer than `n` more
    /// rows, when a page is malformed, or when a skipped definition level is
    /// above the column's maximum.
    pub(crate) fn skip_rows(&mut self, n: usize) -> Result<()> {
        if self.nested {
            return Err(Error::Unsupported {
                location: self.location(),
                message: "skipping rows of a repeated or nested column".into(),
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
