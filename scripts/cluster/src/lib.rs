//! What the `driver` and the `worker` binaries share: the row struct, the
//! tick dataset the driver writes, the summary a worker computes, and the
//! S3 store both open. `scripts/ray-test.sh` runs them on a local Ray
//! cluster (`ray_job.py`); docs/cluster.md says what ran and what it gave.

mod store;
mod summary;
mod ticks;

pub use store::{runtime, store};
pub use summary::Summary;
pub use ticks::{tick_file, tick_files, Tick};

/// The error of the binaries' `main`: they print it and exit non-zero.
pub type BoxError = Box<dyn std::error::Error + Send + Sync>;
