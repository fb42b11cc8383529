//! The row loop of a row group: which rows each column skips, how the rows a
//! read keeps are cut into batches, and in which order the columns are
//! checked at the end. The derive generates only a struct's column readers
//! (open them on a row group, skip rows, fill a batch of rows, finish) as one
//! closure over [`Step`]s; [`decode`] drives it, so a read can be followed
//! from `rows()` to a decoder in this crate's source.
//!
//! ```text
//! decode(row group, sink, columns)
//!   columns(Skip(leading rows of each field's first page))
//!   for each batch of runs (up to BATCH taken rows; a long run is cut):
//!     one run:   columns(Skip(skip))    rows the query rejected
//!                columns(Fill(n, sink)) n = its taken rows
//!     several:   columns(FillRuns(runs, n, sink))
//!                                       each column skips and reads run by
//!                                       run itself, n = the taken rows
//!   columns(Skip(trailing rows of each field's last page))
//!   columns(Finish)                     no values beyond the row group
//! ```

use crate::error::Result;
use crate::group::RowGroup;
use crate::sink::RowSink;

/// Rows decoded per batch: small enough that a batch of every field's
/// values stays in L1/L2 cache, large enough to amortise per-batch work.
pub const BATCH: usize = 1024;

/// One step of the row loop, handed to a struct's column readers.
///
/// Part of the derive's plumbing: not public API.
#[doc(hidden)]
pub enum Step<'a, S> {
    /// Every column moves past `rows(i)` rows (`i` counts the struct's read
    /// fields) without handing out their values: rows of a page outside those
    /// a query loaded, or rows its predicates rejected.
    Skip(&'a dyn Fn(usize) -> Result<usize>),
    /// Every column decodes its next `n` values into the next `n` rows of
    /// the sink (`n <= BATCH`).
    Fill(usize, &'a mut S),
    /// Every column, for each `(skip, take)` of the runs in order, moves
    /// past `skip` rows undecoded and decodes the next `take` values into
    /// the next rows of the sink: `n` rows in all, the sum of the takes
    /// (`n <= BATCH`). A sparse selection's short runs cost one call per
    /// column and batch this way, not a skip and a one-row fill per run.
    FillRuns(&'a [(usize, usize)], usize, &'a mut S),
    /// Every column checks that it holds no values beyond the row group.
    Finish,
}

impl<S> std::fmt::Debug for Step<'_, S> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Step::Skip(_) => f.write_str("Skip"),
            Step::Fill(n, _) => write!(f, "Fill({n})"),
            Step::FillRuns(runs, n, _) => write!(f, "FillRuns({} runs, {n} rows)", runs.len()),
            Step::Finish => f.write_str("Finish"),
        }
    }
}

/// Decodes the rows a read keeps of one row group (`group.runs()`) into
/// `out`, driving `columns`: the struct's column readers, already opened on
/// `group`.
///
/// # Errors
/// The first error of a column reader, unchanged.
#[doc(hidden)]
pub fn decode<R, S: RowSink<R>>(
    group: &RowGroup<'_, '_>,
    out: &mut S,
    mut columns: impl FnMut(Step<'_, S>) -> Result<()>,
) -> Result<()> {
    columns(Step::Skip(&|i| group.leading(i)))?;
    // The runs of the batch being gathered, each take cut so that the
    // batch holds at most BATCH taken rows, and how many it holds.
    let mut batch: Vec<(usize, usize)> = Vec::new();
    let mut taken = 0;
    for &(skip, take) in group.runs() {
        let (mut skip, mut left) = (skip, take);
        if left == 0 {
            // The rows after the last taken one: skipped after the batch.
            flush(&mut batch, &mut taken, out, &mut columns)?;
            if skip > 0 {
                columns(Step::Skip(&|_| Ok(skip)))?;
            }
            continue;
        }
        while left > 0 {
            let n = left.min(BATCH - taken);
            batch.push((skip, n));
            taken += n;
            skip = 0;
            left -= n;
            if taken == BATCH {
                flush(&mut batch, &mut taken, out, &mut columns)?;
            }
        }
    }
    flush(&mut batch, &mut taken, out, &mut columns)?;
    columns(Step::Skip(&|i| group.trailing(i)))?;
    columns(Step::Finish)
}

/// Hands the gathered runs to the columns and empties `batch`: a single
/// run as a skip and a fill (a full read, a long run), several as one
/// [`Step::FillRuns`].
fn flush<S>(
    batch: &mut Vec<(usize, usize)>,
    taken: &mut usize,
    out: &mut S,
    columns: &mut impl FnMut(Step<'_, S>) -> Result<()>,
) -> Result<()> {
    match batch.as_slice() {
        [] => {}
        &[(skip, take)] => {
            if skip > 0 {
                columns(Step::Skip(&|_| Ok(skip)))?;
            }
            columns(Step::Fill(take, out))?;
        }
        runs => columns(Step::FillRuns(runs, *taken, out))?,
    }
    batch.clear();
    *taken = 0;
    Ok(())
}
