// `rename_all`, with every rule serde spells.
use parquet_rows::ParquetRow;

macro_rules! rule {
    ($name:ident, $rule:literal, $column:literal) => {
        #[derive(ParquetRow)]
        #[parquet(rename_all = $rule)]
        #[allow(dead_code)]
        struct $name {
            bid_price: f64,
            #[parquet(rename = "kept")]
            renamed_wins: f64,
        }
        assert_eq!(
            $name::fields().specs.iter().map(|f| f.column).collect::<Vec<_>>(),
            [$column, "kept"]
        );
    };
}

fn main() {
    rule!(Lower, "lowercase", "bid_price");
    rule!(Upper, "UPPERCASE", "BID_PRICE");
    rule!(Pascal, "PascalCase", "BidPrice");
    rule!(Camel, "camelCase", "bidPrice");
    rule!(Snake, "snake_case", "bid_price");
    rule!(ScreamingSnake, "SCREAMING_SNAKE_CASE", "BID_PRICE");
    rule!(Kebab, "kebab-case", "bid-price");
    rule!(ScreamingKebab, "SCREAMING-KEBAB-CASE", "BID-PRICE");
}
