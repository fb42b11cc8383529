// A struct whose every field is a partition field reads no column.
use parquet_rows::ParquetRow;

#[derive(ParquetRow)]
struct Tick {
    #[parquet(partition)]
    date: String,
    #[parquet(partition)]
    hour: u8,
}

fn main() {}
