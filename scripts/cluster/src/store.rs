//! The store: S3 as the `AWS_*` environment variables describe it, the
//! same in the driver and in every worker (a cluster passes them to each).

use std::sync::Arc;

use object_store::aws::AmazonS3Builder;
use object_store::ObjectStore;

use crate::BoxError;

/// The bucket `AWS_BUCKET` at `AWS_ENDPOINT`, with the credentials of
/// `AWS_ACCESS_KEY_ID` and `AWS_SECRET_ACCESS_KEY` (`AWS_ALLOW_HTTP=true`
/// for a plain-HTTP endpoint such as `moto_server`).
///
/// # Errors
///
/// Without `AWS_ACCESS_KEY_ID` or `AWS_BUCKET`, or when the `AWS_*`
/// variables do not make a valid configuration. Without
/// `AWS_ACCESS_KEY_ID`, the S3 client would ask the cloud's instance
/// metadata service for credentials, which a local run must never reach.
pub fn store() -> Result<Arc<dyn ObjectStore>, BoxError> {
    for key in ["AWS_ACCESS_KEY_ID", "AWS_BUCKET"] {
        if std::env::var_os(key).is_none() {
            return Err(format!(
                "`{key}` is not set (scripts/ray-test.sh sets the `AWS_*` variables)"
            )
            .into());
        }
    }
    Ok(Arc::new(AmazonS3Builder::from_env().build()?))
}

/// A runtime for the S3 client's I/O: one thread is enough for a process
/// that reads one split (requests are concurrent, not parallel).
///
/// # Errors
///
/// When tokio cannot start its I/O driver.
pub fn runtime() -> Result<tokio::runtime::Runtime, BoxError> {
    Ok(tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?)
}
