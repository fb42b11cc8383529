// A read's `collect` returns owned rows, as `from_path` does.
use parquet_rows::{ParquetFile, ParquetRow};

#[derive(ParquetRow)]
struct Tick<'a> {
    ts: i64,
    symbol: &'a str,
}

fn main() -> parquet_rows::Result<()> {
    let file = ParquetFile::open("ticks.parquet")?;
    let ticks: Vec<Tick> = file.rows().collect()?;
    println!("{}", ticks.len());
    Ok(())
}
