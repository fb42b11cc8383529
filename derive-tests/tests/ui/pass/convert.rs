// Fields of the user's own types, read as a supported type and converted,
// checked against a declared schema by their source type.
use parquet_rows::ParquetRow;

#[derive(Debug, PartialEq)]
struct Price(f64);

impl From<f64> for Price {
    fn from(value: f64) -> Self {
        Price(value)
    }
}

#[derive(Debug, PartialEq)]
enum Side {
    Buy,
    Sell,
}

impl TryFrom<&str> for Side {
    type Error = String;
    fn try_from(value: &str) -> Result<Self, String> {
        match value {
            "B" => Ok(Side::Buy),
            "S" => Ok(Side::Sell),
            other => Err(format!("unknown side `{other}`")),
        }
    }
}

#[derive(ParquetRow)]
#[parquet(schema = "message schema {
    REQUIRED DOUBLE bid;
    OPTIONAL DOUBLE ask;
    OPTIONAL BINARY side (UTF8);
    REQUIRED BINARY symbol (UTF8);
}")]
#[allow(dead_code)]
struct Tick<'a> {
    #[parquet(from = "f64")]
    bid: Price,
    #[parquet(from = "f64")]
    ask: Option<Price>,
    #[parquet(try_from = "&str")]
    side: Side,
    symbol: &'a str,
}

// An owned struct reads `&str` sources too: they borrow the pages for the
// conversion only.
#[derive(ParquetRow)]
#[allow(dead_code)]
struct OwnedTick {
    #[parquet(try_from = "&str")]
    side: Option<Side>,
}

fn assert_owned<T: parquet_rows::OwnedRow>() {}

fn main() {
    assert_owned::<OwnedTick>();
}
