//! `variant-json FILE...`: prints the `id` and VARIANT `v` columns of each
//! file as `id<TAB>json` lines (`null` for a null group), the values read
//! with `OwnedVariant` and written with `Variant::to_json`. The duckdb
//! cross-check (bench-report/peers/variant.py) compares them with the
//! values duckdb reads from the same files.

use parquet_rows::variant::OwnedVariant;
use parquet_rows::ParquetRow;

#[derive(ParquetRow)]
struct Row {
    id: Option<i64>,
    v: Option<OwnedVariant>,
}

fn main() -> parquet_rows::Result<()> {
    for path in std::env::args().skip(1) {
        let rows: Vec<Row> = parquet_rows::from_path(&path)?;
        for row in rows {
            let id = row.id.map_or("null".to_owned(), |id| id.to_string());
            let json = row
                .v
                .map_or("null".to_owned(), |v| v.as_variant().to_json());
            println!("{id}\t{json}");
        }
    }
    Ok(())
}
