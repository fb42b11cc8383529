// Each of two columns of one name, bound with `nth` and checked against the
// declared schema.
use parquet_rows::ParquetRow;

#[derive(ParquetRow)]
#[parquet(schema = "message m { OPTIONAL INT32 column; OPTIONAL BYTE_ARRAY column (UTF8); }")]
struct Row<'a> {
    #[parquet(nth = 0)]
    column: Option<i32>,
    #[parquet(rename = "column", nth = 1)]
    text: Option<&'a str>,
}

fn main() {
    let _ = <Row<'_> as parquet_rows::ParquetRow<'_>>::STRUCT_NAME;
}
