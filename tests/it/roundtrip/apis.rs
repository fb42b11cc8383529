//! The APIs agree with each other; the tick fixture.

use super::*;

// ---------------------------------------------------------------------------
// The APIs agree with each other
// ---------------------------------------------------------------------------

#[test]
fn streaming_and_single_row_groups_match_load() {
    let props = tiny_pages(base()).build();
    let file = write_all_types(props, &ROW_GROUPS);
    let parquet = ParquetFile::from_bytes(file).expect("open");
    assert_eq!(parquet.num_row_groups(), ROW_GROUPS.len());
    let all = parquet.load::<AllTypes>().expect("load");
    let all: Vec<_> = all
        .rows::<AllTypes>()
        .expect("rows")
        .iter()
        .map(AllTypes::canon)
        .collect();
    check_rows("load", &all, 0, ROWS);

    // One `Pages` per row group, in order.
    assert_eq!(parquet.num_row_groups(), ROW_GROUPS.len());
    let mut streamed = Vec::new();
    let mut appended: Vec<AllTypes<'_>> = Vec::new();
    let held: Vec<Pages> = (0..parquet.num_row_groups())
        .map(|g| {
            let pages = parquet.rows::<AllTypes>().row_groups([g]).load();
            pages.expect("row group")
        })
        .collect();
    for (g, pages) in held.iter().enumerate() {
        assert_eq!(pages.num_rows(), ROW_GROUPS[g].len());
        let rows: Vec<AllTypes<'_>> = pages.rows().expect("rows");
        streamed.extend(rows.iter().map(AllTypes::canon));
        // `rows_into` appends.
        let before = appended.len();
        pages.rows_into(&mut appended).expect("rows_into");
        assert_eq!(appended.len(), before + ROW_GROUPS[g].len());
    }
    check_rows("row_groups", &streamed, 0, ROWS);
    let appended: Vec<_> = appended.iter().map(AllTypes::canon).collect();
    check_rows("rows_into", &appended, 0, ROWS);

    // `load_row_group`.
    for (g, range) in ROW_GROUPS.iter().enumerate() {
        let pages = parquet
            .rows::<AllTypes>()
            .row_groups([g])
            .load()
            .expect("load_row_group");
        let rows: Vec<_> = pages
            .rows::<AllTypes>()
            .expect("rows")
            .iter()
            .map(AllTypes::canon)
            .collect();
        check_rows(
            &format!("load_row_group({g})"),
            &rows,
            range.start,
            range.len(),
        );
    }
    assert!(parquet
        .rows::<AllTypes>()
        .row_groups([ROW_GROUPS.len()])
        .load()
        .is_err());
}

#[test]
fn owned_apis_agree_with_borrowed_rows() {
    let file = write_all_types(base().build(), &ROW_GROUPS);
    let parquet = ParquetFile::from_bytes(file.clone()).expect("open");
    let pages = parquet.load::<AllTypes>().expect("load");
    let borrowed: Vec<_> = pages
        .rows::<AllTypes>()
        .expect("rows")
        .iter()
        .map(AllTypes::canon)
        .collect();

    let dir = parquet_rows_suite::workspace_root()
        .join("target")
        .join("fixtures");
    std::fs::create_dir_all(&dir).expect("fixtures dir");
    let path = dir.join(format!("all-types-{}.parquet", std::process::id()));
    std::fs::write(&path, &file).expect("write file");

    let read: Vec<AllTypesOwned> = parquet.rows().collect().expect("read");
    let from_bytes: Vec<AllTypesOwned> = parquet_rows::from_bytes(file).expect("from_bytes");
    let from_path: Vec<AllTypesOwned> = parquet_rows::from_path(&path).expect("from_path");
    let from_file: Vec<AllTypesOwned> =
        parquet_rows::from_file(std::fs::File::open(&path).expect("open")).expect("from_file");
    let opened = ParquetFile::open(&path).expect("open path");
    let opened_pages = opened.load::<AllTypes>().expect("load from a path");
    let opened_rows: Vec<_> = opened_pages
        .rows::<AllTypes>()
        .expect("rows")
        .iter()
        .map(AllTypes::canon)
        .collect();
    std::fs::remove_file(&path).expect("remove file");

    for (what, rows) in [
        ("read", read),
        ("from_bytes", from_bytes),
        ("from_path", from_path),
        ("from_file", from_file),
    ] {
        let rows: Vec<_> = rows.iter().map(AllTypesOwned::canon).collect();
        assert!(rows == borrowed, "{what} differs from borrowed rows");
    }
    assert!(
        opened_rows == borrowed,
        "ParquetFile::open differs from from_bytes"
    );
    check_rows("borrowed", &borrowed, 0, ROWS);
}

// ---------------------------------------------------------------------------
// The tick fixture
// ---------------------------------------------------------------------------

#[test]
fn tick_fixture_borrowed_and_owned() {
    const ROWS: usize = 65_000;
    let path = tick_file(ROWS);
    let file = ParquetFile::open(&path).expect("open tick file");
    assert_eq!(file.num_rows(), ROWS);
    let pages = file.load::<Tick>().expect("load");
    let ticks: Vec<Tick<'_>> = pages.rows().expect("rows");
    assert_eq!(ticks.len(), ROWS);
    for (i, tick) in ticks.iter().enumerate() {
        let (ts, symbol, bid, ask) = tick_values(i);
        assert_eq!(
            (tick.ts, tick.symbol, tick.bid.to_bits(), tick.ask.to_bits()),
            (ts, symbol, bid.to_bits(), ask.to_bits()),
            "tick {i}"
        );
    }
    // The symbols borrow the pages: every row points at the same dictionary entry.
    assert!(ticks
        .windows(2)
        .all(|w| std::ptr::eq(w[0].symbol, w[1].symbol)));

    let owned: Vec<TickOwned> = ticks
        .iter()
        .map(|t| TickOwned {
            ts: t.ts,
            symbol: t.symbol.to_owned(),
            bid: t.bid,
            ask: t.ask,
        })
        .collect();
    let read: Vec<TickOwned> = file.rows().collect().expect("read");
    assert!(read == owned, "read");
    let from_path: Vec<TickOwned> = parquet_rows::from_path(&path).expect("from_path");
    assert!(from_path == owned, "from_path");
    let from_file: Vec<TickOwned> =
        parquet_rows::from_file(std::fs::File::open(&path).expect("open")).expect("from_file");
    assert!(from_file == owned, "from_file");
    let bytes = std::fs::read(&path).expect("read tick file");
    let from_bytes: Vec<TickOwned> = parquet_rows::from_bytes(bytes).expect("from_bytes");
    assert!(from_bytes == owned, "from_bytes");
}
