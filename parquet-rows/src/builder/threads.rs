//! Running a parallel read on the pool of threads the builder asked for.

use crate::error::{Error, Result};

/// Runs `f` on a rayon pool of `n` threads: rayon's current pool for
/// `n = 0` or when it has `n` threads, otherwise a pool made for this read.
pub(crate) fn on_threads<R: Send>(n: usize, f: impl FnOnce() -> Result<R> + Send) -> Result<R> {
    if n == 0 || n == rayon::current_num_threads() {
        return f();
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(n)
        .build()
        .map_err(|e| Error::Io(std::io::Error::other(format!("a pool of {n} threads: {e}"))))?;
    pool.install(f)
}
