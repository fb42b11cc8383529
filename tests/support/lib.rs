//! Shared helpers for the integration tests, benches and examples.
