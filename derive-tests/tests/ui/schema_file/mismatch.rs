// The struct is checked against the schema in the sample file's footer.
use parquet_rows::ParquetRow;

#[derive(ParquetRow)]
#[parquet(schema_file = "tests/data/ticks.parquet")]
struct Tick<'a> {
    ts: i64,
    symbol: &'a str,
    bid: f32,
    ask: f64,
}

fn main() {}
