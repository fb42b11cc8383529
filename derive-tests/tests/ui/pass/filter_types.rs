// Predicates on every field type with an order or an equality, in the
// field's own type; converted fields in their source type; `is_in`, `not`
// and `any_of`.
use parquet_rows::{Cond, Date, Decimal, Int96, ParquetRow, Time, Timestamp, Unit};

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

#[derive(Debug, PartialEq)]
struct Price(f64);

impl From<f64> for Price {
    fn from(value: f64) -> Self {
        Price(value)
    }
}

#[derive(ParquetRow)]
#[allow(dead_code)]
struct Everything<'a> {
    ts: Option<parquet_rows::Timestamp>,
    day: parquet_rows::Date,
    at: parquet_rows::Time,
    legacy: parquet_rows::Int96,
    amount: Option<parquet_rows::Decimal>,
    key: [u8; 4],
    blob: Vec<u8>,
    shared: bytes::Bytes,
    raw: &'a [u8],
    #[parquet(try_from = "&str")]
    side: Side,
    #[parquet(from = "f64")]
    price: Option<Price>,
}

fn main() {
    let t0 = Timestamp {
        value: 1_774_000_000_000,
        unit: Unit::Millis,
        utc: true,
    };
    let t1 = Timestamp {
        value: 1_774_000_060_000_000,
        unit: Unit::Micros,
        utc: true,
    };
    let _ = Everything::filter()
        .ts()
        .in_range(t0..t1)
        .day()
        .ge(Date { days: 19_000 })
        .at()
        .lt(Time {
            value: 3_600_000,
            unit: Unit::Millis,
        })
        .legacy()
        .ne(Int96 {
            nanos_of_day: 0,
            julian_day: Int96::UNIX_EPOCH_JULIAN_DAY,
        })
        .amount()
        .between(
            Decimal {
                unscaled: 100,
                precision: 9,
                scale: 2,
            },
            Decimal {
                unscaled: 2,
                precision: 9,
                scale: 0,
            },
        )
        .key()
        .eq(b"abcd")
        .blob()
        .is_in([&b"x"[..], b"yz"])
        .shared()
        .gt(bytes::Bytes::from_static(b"a"))
        .raw()
        .not()
        .eq(b"zz")
        .side()
        .is_in(["B", "S"])
        .price()
        .any_of([Cond::lt(1.0), Cond::gt(2.0).and(!Cond::eq(3.0))]);
}
