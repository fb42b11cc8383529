//! The parallel readers (`par_load`, `par_rows`, `par_read`) return the rows
//! of the sequential ones, in order: files of several row groups (a task
//! each), and files of one row group decoded in row ranges (a task each) on
//! a pool of 4 threads, whatever the machine has.

// Test data comes from row numbers under 10,000: the casts are exact.
#![allow(clippy::cast_precision_loss)]

mod row_groups {
    use std::sync::Arc;

    use parquet::data_type::{ByteArray, ByteArrayType, Int32Type, Int64Type};
    use parquet::file::properties::WriterProperties;
    use parquet::file::writer::SerializedFileWriter;
    use parquet::schema::parser::parse_message_type;
    use parquet_rows::{ParquetFile, ParquetRow};

    #[derive(ParquetRow, Debug, PartialEq, Clone)]
    struct Row {
        id: i64,
        name: String,
        size: Option<i32>,
    }

    #[derive(ParquetRow, Debug, PartialEq)]
    struct Borrowed<'a> {
        id: i64,
        name: &'a str,
    }

    /// Five row groups of different sizes (one empty), with nulls.
    fn write() -> Vec<u8> {
        let schema = Arc::new(
            parse_message_type(
                "message m { REQUIRED INT64 id; REQUIRED BINARY name (UTF8); OPTIONAL INT32 size; }",
            )
            .unwrap(),
        );
        let mut buf = Vec::new();
        let props = Arc::new(WriterProperties::builder().build());
        let mut w = SerializedFileWriter::new(&mut buf, schema, props).unwrap();
        let mut next = 0i64;
        for rows in [1000, 0, 2500, 7, 4000] {
            let ids: Vec<i64> = (next..next + rows).collect();
            next += rows;
            let names: Vec<ByteArray> = ids
                .iter()
                .map(|i| ByteArray::from(format!("n{}", i % 17).as_str()))
                .collect();
            let defs: Vec<i16> = ids.iter().map(|i| i16::from(i % 10 != 0)).collect();
            let sizes: Vec<i32> = ids
                .iter()
                .filter(|i| *i % 10 != 0)
                .map(|i| (*i % 1000) as i32)
                .collect();
            let mut rg = w.next_row_group().unwrap();
            let mut c = rg.next_column().unwrap().unwrap();
            c.typed::<Int64Type>()
                .write_batch(&ids, None, None)
                .unwrap();
            c.close().unwrap();
            let mut c = rg.next_column().unwrap().unwrap();
            c.typed::<ByteArrayType>()
                .write_batch(&names, None, None)
                .unwrap();
            c.close().unwrap();
            let mut c = rg.next_column().unwrap().unwrap();
            c.typed::<Int32Type>()
                .write_batch(&sizes, Some(&defs), None)
                .unwrap();
            c.close().unwrap();
            rg.close().unwrap();
        }
        w.close().unwrap();
        buf
    }

    #[test]
    fn parallel_decoding_gives_the_same_rows_in_order() {
        let bytes = write();
        let file = ParquetFile::from_bytes(bytes.clone()).unwrap();
        assert_eq!(file.num_row_groups(), 5);
        let sequential: Vec<Row> = file.rows().collect().unwrap();
        assert_eq!(sequential.len(), 7507);
        assert!(sequential.iter().enumerate().all(|(i, r)| r.id == i as i64));
        assert_eq!(sequential[10].size, None);
        assert_eq!(sequential[11].size, Some(11));

        // In memory: each row group read and decoded in its own task.
        assert_eq!(file.rows::<Row>().threads(0).collect().unwrap(), sequential);
        let dir = parquet_rows_suite::workspace_root().join("target");
        // `target/` need not exist when CARGO_TARGET_DIR points elsewhere.
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join(format!("parallel-{}.parquet", std::process::id()));
        std::fs::write(&path, &bytes).unwrap();
        // By path: each task opens its own handle.
        let on_disk = ParquetFile::open(&path)
            .unwrap()
            .rows::<Row>()
            .threads(0)
            .collect();
        // From a `File`: pages read one row group after the other.
        let from_file = std::fs::File::open(&path)
            .map_err(parquet_rows::Error::from)
            .and_then(ParquetFile::from_file)
            .and_then(|f| f.rows::<Row>().threads(0).collect());
        std::fs::remove_file(&path).unwrap();
        assert_eq!(on_disk.unwrap(), sequential);
        assert_eq!(from_file.unwrap(), sequential);
        // Borrowed rows from pages.
        let pages = file.load::<Borrowed>().unwrap();
        assert_eq!(
            pages.par_rows::<Borrowed>().unwrap(),
            pages.rows::<Borrowed>().unwrap()
        );
    }
}

/// One row group cut into row ranges: parts start and end inside pages,
/// inside runs of nulls and on both sides of a dictionary's fallback to
/// PLAIN; a struct with a list field decodes the row group whole.
mod ranges {
    use std::sync::Arc;

    use parquet::basic::{Compression, Encoding};
    use parquet::data_type::{ByteArray, ByteArrayType, DoubleType, Int32Type, Int64Type};
    use parquet::file::properties::{WriterProperties, WriterVersion};
    use parquet::file::reader::{FileReader, SerializedFileReader};
    use parquet::file::writer::SerializedFileWriter;
    use parquet::schema::parser::parse_message_type;
    use parquet_rows::{ParquetFile, ParquetRow, ReadOptions};

    const ROWS: usize = 6000;
    /// The one row whose `late` is null: in the sixth of 8 ranges.
    const LATE_NULL: usize = 4321;

    const SCHEMA: &str = "message m {
        REQUIRED INT64 id;
        OPTIONAL BINARY name (UTF8);
        OPTIONAL INT32 size;
        OPTIONAL DOUBLE price;
        OPTIONAL INT32 late;
        REQUIRED group tags (LIST) { repeated group list { required int32 element; } }
    }";

    #[derive(ParquetRow, Debug, PartialEq, Clone)]
    struct Owned {
        id: i64,
        name: Option<String>,
        size: Option<i32>,
        price: f64, // a plain field on an OPTIONAL column without nulls
    }

    #[derive(ParquetRow, Debug, PartialEq)]
    struct Borrowed<'a> {
        id: i64,
        name: Option<&'a str>,
        size: Option<i32>,
        price: Option<f64>,
    }

    /// A list field: ranges of a row group skip its leading records by their
    /// levels. Loaded with it, the pages hold every column the other structs
    /// read (but `late`).
    #[derive(ParquetRow, Debug, PartialEq)]
    struct WithList<'a> {
        id: i64,
        name: Option<&'a str>,
        size: Option<i32>,
        price: f64,
        tags: Vec<i32>,
    }

    /// The list field with owned strings, for `par_read`.
    #[derive(ParquetRow, Debug, PartialEq)]
    struct OwnedList {
        id: i64,
        name: Option<String>,
        tags: Vec<i32>,
    }

    /// `late` has one null: a plain field fails there.
    #[derive(ParquetRow, Debug, PartialEq)]
    struct Late {
        id: i64,
        late: i32,
    }

    fn name(i: usize) -> Option<String> {
        // All distinct: the dictionary passes its limit and falls back.
        (i % 7 != 3).then(|| format!("name-{i}-{}", "é".repeat(i % 3)))
    }

    fn size(i: usize) -> Option<i32> {
        // Nulls every 10 rows, and a stretch of 600 across a range boundary.
        (!i.is_multiple_of(10) && !(2000..2600).contains(&i)).then_some((i % 1000) as i32)
    }

    fn price(i: usize) -> f64 {
        i as f64 * 0.5
    }

    fn tags(i: usize) -> Vec<i32> {
        (0..i % 4).map(|k| (i + k) as i32).collect()
    }

    fn expected() -> Vec<Owned> {
        (0..ROWS)
            .map(|i| Owned {
                id: i as i64,
                name: name(i),
                size: size(i),
                price: price(i),
            })
            .collect()
    }

    /// One row group of `ROWS` rows, pages of 500 rows, small dictionaries.
    fn write(version: WriterVersion) -> Vec<u8> {
        let props = WriterProperties::builder()
            .set_writer_version(version)
            .set_compression(Compression::SNAPPY)
            .set_data_page_row_count_limit(500)
            .set_write_batch_size(100)
            .set_dictionary_page_size_limit(2048)
            .build();
        let schema = Arc::new(parse_message_type(SCHEMA).unwrap());
        let mut buf = Vec::new();
        let mut w = SerializedFileWriter::new(&mut buf, schema, Arc::new(props)).unwrap();
        let mut rg = w.next_row_group().unwrap();
        let defs = |null: &dyn Fn(usize) -> bool| -> Vec<i16> {
            (0..ROWS).map(|i| i16::from(!null(i))).collect()
        };

        let ids: Vec<i64> = (0..ROWS as i64).collect();
        let mut c = rg.next_column().unwrap().unwrap();
        c.typed::<Int64Type>()
            .write_batch(&ids, None, None)
            .unwrap();
        c.close().unwrap();

        let names: Vec<ByteArray> = (0..ROWS)
            .filter_map(name)
            .map(|s| ByteArray::from(s.as_str()))
            .collect();
        let mut c = rg.next_column().unwrap().unwrap();
        c.typed::<ByteArrayType>()
            .write_batch(&names, Some(&defs(&|i| name(i).is_none())), None)
            .unwrap();
        c.close().unwrap();

        let sizes: Vec<i32> = (0..ROWS).filter_map(size).collect();
        let mut c = rg.next_column().unwrap().unwrap();
        c.typed::<Int32Type>()
            .write_batch(&sizes, Some(&defs(&|i| size(i).is_none())), None)
            .unwrap();
        c.close().unwrap();

        let prices: Vec<f64> = (0..ROWS).map(price).collect();
        let mut c = rg.next_column().unwrap().unwrap();
        c.typed::<DoubleType>()
            .write_batch(&prices, Some(&defs(&|_| false)), None)
            .unwrap();
        c.close().unwrap();

        let late: Vec<i32> = (0..ROWS)
            .filter(|&i| i != LATE_NULL)
            .map(|i| i as i32)
            .collect();
        let mut c = rg.next_column().unwrap().unwrap();
        c.typed::<Int32Type>()
            .write_batch(&late, Some(&defs(&|i| i == LATE_NULL)), None)
            .unwrap();
        c.close().unwrap();

        // A list per row: def 0 for an empty list, 1 per element; rep 0
        // starts a row.
        let (mut values, mut list_defs, mut reps) = (Vec::new(), Vec::new(), Vec::new());
        for i in 0..ROWS {
            let t = tags(i);
            if t.is_empty() {
                list_defs.push(0);
                reps.push(0);
            }
            for (k, v) in t.into_iter().enumerate() {
                values.push(v);
                list_defs.push(1);
                reps.push(i16::from(k > 0));
            }
        }
        let mut c = rg.next_column().unwrap().unwrap();
        c.typed::<Int32Type>()
            .write_batch(&values, Some(&list_defs), Some(&reps))
            .unwrap();
        c.close().unwrap();

        rg.close().unwrap();
        w.close().unwrap();
        buf
    }

    /// The file is what the tests need: one row group, several pages per
    /// column, `name` and `price` falling back from dictionary to PLAIN.
    fn check_layout(bytes: &[u8]) {
        let reader = SerializedFileReader::new(bytes::Bytes::copy_from_slice(bytes)).unwrap();
        assert_eq!(reader.num_row_groups(), 1);
        let group = reader.get_row_group(0).unwrap();
        for column in [1, 3] {
            let encodings = group
                .metadata()
                .column(column)
                .encodings()
                .collect::<Vec<_>>();
            assert!(encodings.contains(&Encoding::PLAIN), "{encodings:?}");
            assert!(
                encodings.contains(&Encoding::RLE_DICTIONARY)
                    || encodings.contains(&Encoding::PLAIN_DICTIONARY),
                "{encodings:?}"
            );
        }
        let pages = group.get_column_page_reader(1).unwrap().count();
        assert!(pages >= 12, "{pages} pages");
    }

    fn pool() -> rayon::ThreadPool {
        rayon::ThreadPoolBuilder::new()
            .num_threads(4)
            .build()
            .unwrap()
    }

    /// The file read with ranges of at least `min` rows: 1 gives 16 ranges
    /// of 375 rows, 700 gives 8 of 750, the default one range.
    fn open(bytes: &[u8], min: usize) -> ParquetFile {
        let options = ReadOptions::default().min_task_rows(min);
        ParquetFile::from_bytes(bytes.to_vec())
            .unwrap()
            .with_options(options)
    }

    #[test]
    fn ranges_of_one_row_group_give_the_rows_of_the_sequential_read() {
        let pool = pool();
        let expected = expected();
        for version in [WriterVersion::PARQUET_1_0, WriterVersion::PARQUET_2_0] {
            let bytes = write(version);
            check_layout(&bytes);
            for min in [1, 700, 1 << 16] {
                let context = format!("{version:?}, ranges of >= {min} rows");
                let file = open(&bytes, min);
                assert_eq!(
                    file.rows::<Owned>().collect().unwrap(),
                    expected,
                    "{context}"
                );
                pool.install(|| {
                    assert_eq!(
                        file.rows::<Owned>().threads(0).collect().unwrap(),
                        expected,
                        "{context}"
                    );

                    let pages = file.rows::<WithList>().threads(0).load().unwrap();
                    let borrowed = pages.par_rows::<Borrowed>().unwrap();
                    assert_eq!(borrowed, pages.rows::<Borrowed>().unwrap(), "{context}");
                    assert!(borrowed.iter().zip(&expected).all(|(b, e)| {
                        b.name == e.name.as_deref() && b.size == e.size && b.price == Some(e.price)
                    }));
                    // Owned rows from the same pages, decoded in ranges.
                    assert_eq!(pages.par_rows::<Owned>().unwrap(), expected, "{context}");

                    let listed = pages.par_rows::<WithList>().unwrap();
                    assert_eq!(listed, pages.rows::<WithList>().unwrap(), "{context}");
                    assert!(listed.iter().enumerate().all(|(i, r)| r.tags == tags(i)));
                    let owned = file.rows::<OwnedList>().threads(0).collect().unwrap();
                    assert_eq!(
                        owned,
                        file.rows::<OwnedList>().collect().unwrap(),
                        "{context}"
                    );
                    assert!(owned
                        .iter()
                        .enumerate()
                        .all(|(i, r)| r.tags == tags(i) && r.name == name(i)));
                });
            }
        }
    }

    #[test]
    fn ranges_of_the_rows_a_filter_loaded() {
        let pool = pool();
        let bytes = write(WriterVersion::PARQUET_2_0);
        let file = open(&bytes, 100);
        let filter = Borrowed::filter().id().between(1234, 4567);
        let pages = file.rows::<Borrowed>().filter(filter).load().unwrap();
        let sequential = pages.rows::<Borrowed>().unwrap();
        assert_eq!(sequential.len(), 4567 - 1234 + 1);
        assert_eq!(sequential[0].id, 1234);
        pool.install(|| assert_eq!(pages.par_rows::<Borrowed>().unwrap(), sequential));
    }

    #[test]
    fn an_error_in_one_range_is_the_error_of_the_sequential_read() {
        let pool = pool();
        let bytes = write(WriterVersion::PARQUET_1_0);
        let file = open(&bytes, 700);
        let sequential = file.rows::<Late>().collect().unwrap_err().to_string();
        assert!(
            sequential.contains(&format!("null at row {LATE_NULL} of the row group")),
            "{sequential}"
        );
        pool.install(|| {
            let owned = file
                .rows::<Late>()
                .threads(0)
                .collect()
                .unwrap_err()
                .to_string();
            assert_eq!(owned, sequential);
            let pages = file.rows::<Late>().threads(0).load().unwrap();
            let borrowed = pages.par_rows::<Late>().unwrap_err().to_string();
            assert_eq!(borrowed, sequential);
        });
    }

    /// Pages decompressed on several threads fail as they do on one (where
    /// each page is decompressed when the decode opens it): the same error
    /// or the same rows.
    #[test]
    fn a_corrupt_page_fails_loading_in_parallel_as_it_does_sequentially() {
        let pool = pool();
        let bytes = write(WriterVersion::PARQUET_2_0);
        // The pages end where the footer starts.
        let footer = u32::from_le_bytes(bytes[bytes.len() - 8..][..4].try_into().unwrap());
        let pages_end = bytes.len() - 8 - footer as usize;
        let (mut failed, mut compared) = (0, 0);
        for at in (4..pages_end).step_by(211) {
            let mut corrupt = bytes.clone();
            corrupt[at] ^= 0x5a;
            let Ok(file) = ParquetFile::from_bytes(corrupt) else {
                continue;
            };
            // What was loaded (row groups, columns, bytes) and the rows;
            // not how many bytes are decompressed now, which differs (ahead
            // on threads, when opened on one, and freed after the decode).
            let read = |pages: parquet_rows::Result<parquet_rows::Pages>| {
                pages
                    .and_then(|p| {
                        let loaded = format!("{p:?}");
                        let loaded = loaded.split(", decompressed:").next().unwrap_or_default();
                        Ok(format!("{loaded} {:?}", p.rows::<Borrowed>()?))
                    })
                    .map_err(|e| e.to_string())
            };
            let sequential = read(file.load::<Borrowed>());
            let parallel = pool.install(|| read(file.rows::<Borrowed>().threads(0).load()));
            assert_eq!(parallel, sequential, "byte {at}");
            failed += usize::from(sequential.is_err());
            compared += 1;
        }
        assert!(
            compared > 100 && failed > 10,
            "{failed} of {compared} failed"
        );
    }
}
