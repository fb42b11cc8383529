// `crate = "..."`: the runtime crate under another path, as when a facade
// crate re-exports it.
mod facade {
    pub use parquet_rows as parquet;
}

#[derive(facade::parquet::ParquetRow)]
#[parquet(crate = "crate::facade::parquet")]
#[allow(dead_code)]
struct Tick<'a> {
    symbol: &'a str,
    bid: f64,
}

fn main() {
    use facade::parquet::ParquetRow;
    assert_eq!(Tick::STRUCT_NAME, "Tick");
}
