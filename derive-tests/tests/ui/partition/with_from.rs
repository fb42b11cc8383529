// `partition` with a conversion: partition values parse into the field's type.
use parquet_rows::ParquetRow;

struct Day(String);

impl From<String> for Day {
    fn from(s: String) -> Self {
        Day(s)
    }
}

#[derive(ParquetRow)]
struct Tick {
    ts: i64,
    #[parquet(partition, from = "String")]
    date: Day,
}

fn main() {}
