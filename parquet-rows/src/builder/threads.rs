//! Running a parallel read on the pool of threads the builder asked for.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use crate::error::{Error, Result};

/// Runs `f` on a rayon pool of `n` threads: rayon's current pool for
/// `n = 0` or when it has `n` threads, otherwise the process's pool of `n`
/// threads ([`pool`]).
pub(crate) fn on_threads<R: Send>(n: usize, f: impl FnOnce() -> Result<R> + Send) -> Result<R> {
    if n == 0 || n == rayon::current_num_threads() {
        return f();
    }
    pool(n)?.install(f)
}

/// The pool of `n` threads the builder's reads run on: made by the first
/// read that asks for `n` threads, then kept for the process, so that many
/// small reads do not each pay for starting (and stopping) `n` threads.
/// One pool per size asked for; a program asks for a handful of sizes.
pub(crate) fn pool(n: usize) -> Result<Arc<rayon::ThreadPool>> {
    static POOLS: OnceLock<Mutex<HashMap<usize, Arc<rayon::ThreadPool>>>> = OnceLock::new();
    let pools = POOLS.get_or_init(Mutex::default);
    // A panic while the lock was held left the map whole (an insert either
    // happened or did not): keep using it.
    let mut pools = pools
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    if let Some(pool) = pools.get(&n) {
        return Ok(Arc::clone(pool));
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(n)
        .thread_name(move |i| format!("parquet-rows-{n}-{i}"))
        .build()
        .map_err(|e| Error::Io(std::io::Error::other(format!("a pool of {n} threads: {e}"))))?;
    let pool = Arc::new(pool);
    pools.insert(n, Arc::clone(&pool));
    Ok(pool)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_asking_for_the_same_threads_share_one_pool() {
        // A size no other test of this crate asks for.
        let n = 7;
        let first = pool(n).unwrap();
        let second = pool(n).unwrap();
        assert!(Arc::ptr_eq(&first, &second));
        assert_eq!(first.current_num_threads(), n);
        // Both reads ran on the one pool's threads.
        let names =
            |()| on_threads(n, || Ok(std::thread::current().name().map(str::to_owned))).unwrap();
        let (a, b) = (names(()), names(()));
        for name in [a, b] {
            let name = name.expect("a pool thread has a name");
            assert!(name.starts_with("parquet-rows-7-"), "{name}");
        }
        assert!(!Arc::ptr_eq(&first, &pool(n + 1).unwrap()));
    }
}
