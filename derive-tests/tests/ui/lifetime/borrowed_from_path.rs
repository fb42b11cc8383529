// `from_path` returns rows that outlive the pages: a borrowed struct is read
// with `ParquetFile::load` and `Pages::rows` instead.
use parquet_rows::ParquetRow;

#[derive(ParquetRow)]
struct Tick<'a> {
    ts: i64,
    symbol: &'a str,
}

fn main() {
    let ticks: Vec<Tick> = parquet_rows::from_path("ticks.parquet").unwrap();
    println!("{}", ticks.len());
}
