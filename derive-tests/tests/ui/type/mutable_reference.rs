// Borrowed fields are shared references into the pages.
use parquet_rows::ParquetRow;

#[derive(ParquetRow)]
struct Row<'a> {
    name: &'a mut str,
}

fn main() {}
