// `ParquetFile::read` returns owned rows, as `from_path` does.
use parquet_rows::{ParquetFile, ParquetRow};

#[derive(ParquetRow)]
struct Tick<'a> {
    ts: i64,
    symbol: &'a str,
}

fn main() -> parquet_rows::Result<()> {
    let file = ParquetFile::open("ticks.parquet")?;
    let ticks: Vec<Tick> = file.read()?;
    println!("{}", ticks.len());
    Ok(())
}
