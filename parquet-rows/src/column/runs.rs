//! Reading the taken rows of a batch of runs (rows to skip, rows to take)
//! in one call: the loop over a filtered read's runs inside the column
//! reader, not one skip call and one one-row read per run and column
//! through the struct's generated code (`runtime::Step::FillRuns`).

use super::{ColumnReader, Decode};
use crate::error::Result;
use crate::out::Sink;
use crate::physical::Physical;

impl<'p, P: Physical, S> ColumnReader<'p, P, S> {
    /// For each `(skip, take)` of `runs`, in order: moves past `skip` rows
    /// undecoded, then reads the next `take` rows' values into `sink` (as
    /// [`ColumnReader::read_with`] does), so that `sink` receives the taken
    /// rows only, one after the other.
    ///
    /// A skip that ends inside the current page (the common case of a
    /// sparse selection: a few dozen rows between taken ones) moves the
    /// page's value decoder directly, without the checks of a skip that may
    /// cross pages, when the skipped rows all hold values: a REQUIRED
    /// column, or an OPTIONAL one whose definition levels are a run at the
    /// maximum there (a page without nulls is one such run). Otherwise,
    /// and for what the run does not cover, the skip counts the levels.
    ///
    /// # Errors
    /// As [`ColumnReader::skip_rows`] and [`ColumnReader::read_with`].
    pub(crate) fn read_runs_with<D, O>(
        &mut self,
        runs: &[(usize, usize)],
        decode: &mut D,
        sink: &mut O,
    ) -> Result<()>
    where
        D: Decode<'p, P, S>,
        O: Sink<D::Value>,
    {
        for &(skip, take) in runs {
            let mut skip = skip;
            if skip > 0 && !self.nested && skip < self.page.left {
                let defined = if self.max_def == 0 {
                    skip
                } else {
                    self.take_defined_run(skip)?
                };
                if defined > 0 {
                    let shape = self.shape;
                    let skipped = self.page.values.skip(defined, shape);
                    skipped.map_err(|e| self.err(e))?;
                    self.advance(defined);
                    skip -= defined;
                }
            }
            if skip > 0 {
                self.skip_rows(skip)?;
            }
            if take > 0 {
                self.read_with(take, decode, sink)?;
            }
        }
        Ok(())
    }
}
