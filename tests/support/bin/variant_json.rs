//! `variant-json FILE...`: prints the `id` and VARIANT `v` columns of each
//! file as `id<TAB>json` lines (`null` for a null group), the values read
//! borrowed (`Variant<'a>`) and written with `Variant::to_json`. The duckdb
//! cross-check (bench-report/peers/variant.py) compares them with the
//! values duckdb reads from the same files.
//!
//! Each file is also read owned (`OwnedVariant`), and borrowed on two
//! threads in ranges of 256 rows (cursors that start inside row groups):
//! a row where any of the three reads differs from the others, as values
//! or as JSON, fails the run.

use parquet_rows::variant::{OwnedVariant, Variant};
use parquet_rows::{Error, ParquetFile, ParquetRow, ReadOptions};

#[derive(ParquetRow)]
struct Owned {
    id: Option<i64>,
    v: Option<OwnedVariant>,
}

#[derive(ParquetRow)]
struct Borrowed<'a> {
    id: Option<i64>,
    v: Option<Variant<'a>>,
}

fn json(v: Option<Variant<'_>>) -> String {
    v.map_or("null".to_owned(), |v| v.to_json())
}

fn main() -> parquet_rows::Result<()> {
    for path in std::env::args().skip(1) {
        let file = ParquetFile::open(&path)?;
        let owned: Vec<Owned> = file.rows::<Owned>().collect()?;
        let pages = file.load::<Borrowed>()?;
        let borrowed: Vec<Borrowed<'_>> = pages.rows()?;
        let parallel = file
            .rows::<Borrowed>()
            .options(ReadOptions::default().min_task_rows(256))
            .threads(2)
            .load()?;
        let parallel: Vec<Borrowed<'_>> = parallel.par_rows()?;
        if owned.len() != borrowed.len() || owned.len() != parallel.len() {
            return Err(Error::Io(std::io::Error::other(format!(
                "{path}: {} rows owned, {} borrowed, {} on two threads",
                owned.len(),
                borrowed.len(),
                parallel.len()
            ))));
        }
        for ((o, b), p) in owned.iter().zip(&borrowed).zip(&parallel) {
            let id = b.id.map_or("null".to_owned(), |id| id.to_string());
            let from_owned = o.v.as_ref().map(OwnedVariant::as_variant);
            let text = json(b.v);
            if o.id != b.id
                || p.id != b.id
                || from_owned != b.v
                || p.v != b.v
                || json(from_owned) != text
                || json(p.v) != text
            {
                return Err(Error::Io(std::io::Error::other(format!(
                    "{path}: id {id}: borrowed {text}, owned {}, two threads {}",
                    json(from_owned),
                    json(p.v)
                ))));
            }
            println!("{id}\t{text}");
        }
    }
    Ok(())
}
