//! Attribute names, in one place (as serde's `internals/symbol.rs`).

pub const PARQUET: &str = "parquet";
pub const RENAME: &str = "rename";
pub const RENAME_ALL: &str = "rename_all";
pub const SKIP: &str = "skip";
pub const CRATE: &str = "crate";
pub const SCHEMA: &str = "schema";
pub const SCHEMA_FILE: &str = "schema_file";
pub const FROM: &str = "from";
pub const TRY_FROM: &str = "try_from";
pub const PARTITION: &str = "partition";
pub const UNIT: &str = "unit";
pub const UTC: &str = "utc";
pub const PRECISION: &str = "precision";
pub const SCALE: &str = "scale";
pub const ENCODING: &str = "encoding";
pub const BLOOM_FILTER: &str = "bloom_filter";
pub const COMPRESSION: &str = "compression";
pub const NTH: &str = "nth";
