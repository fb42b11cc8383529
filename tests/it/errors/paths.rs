//! Errors of files opened by path name the path.

use parquet_rows::{Error, ParquetFile};

/// An I/O error of a file opened by path names the path, and keeps its kind.
#[test]
fn io_errors_name_the_path() {
    let missing = std::env::temp_dir().join("parquet-rows-no-such-dir/nope.parquet");
    let err = ParquetFile::open(&missing).expect_err("no such file");
    let Error::Io(io) = &err else {
        panic!("expected an i/o error, got {err:#?}");
    };
    assert_eq!(io.kind(), std::io::ErrorKind::NotFound);
    let message = err.to_string();
    assert!(
        message.starts_with(&format!("i/o error: cannot open `{}`: ", missing.display())),
        "{message}"
    );
    // The source chain keeps the operating system's error.
    let source = std::error::Error::source(io.get_ref().expect("a wrapped error"))
        .and_then(|e| e.downcast_ref::<std::io::Error>())
        .expect("the original error as the source");
    assert_eq!(source.raw_os_error(), Some(2), "{source}");
    assert!(message.ends_with(&source.to_string()), "{message}");
    // Owned rows by path say the same.
    let owned = parquet_rows::from_path::<parquet_rows_suite::TickOwned>(&missing)
        .expect_err("no such file");
    assert_eq!(owned.to_string(), message);
}

/// A file that is not Parquet at all says so, and names its path: nothing
/// was decoded, so no column or row group could.
#[test]
fn a_file_that_is_not_parquet_says_so_and_names_the_path() {
    let dir = std::env::temp_dir().join(format!("parquet-rows-not-parquet-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    for (name, bytes) in [
        (
            "notes.txt",
            &b"a few lines of text, long enough for a footer"[..],
        ),
        ("short.parquet", &b"PAR1"[..]),
        ("empty.parquet", &b""[..]),
    ] {
        let path = dir.join(name);
        std::fs::write(&path, bytes).expect("write");
        let err = ParquetFile::open(&path).expect_err("not parquet");
        assert!(matches!(err, Error::OutOfSpec { .. }), "{err:#?}");
        let message = err.to_string();
        assert!(
            message.contains(&format!("`{}`", path.display())),
            "{message}"
        );
        assert!(message.contains("not a Parquet file"), "{message}");
        // In memory there is no path, and the same sentence.
        let err = ParquetFile::from_bytes(bytes.to_vec()).expect_err("not parquet");
        assert!(err.to_string().contains("not a Parquet file"), "{err}");
    }
    std::fs::remove_dir_all(&dir).expect("clean up");
}
