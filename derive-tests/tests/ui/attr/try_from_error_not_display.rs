// `try_from` needs an error that can be shown in `Error::Value`.
use parquet_rows::ParquetRow;

struct Unknown;

enum Side {
    Buy,
}

impl TryFrom<&str> for Side {
    type Error = Unknown;
    fn try_from(_: &str) -> Result<Self, Unknown> {
        Ok(Side::Buy)
    }
}

#[derive(ParquetRow)]
struct Tick {
    #[parquet(try_from = "&str")]
    side: Side,
}

fn main() {}
