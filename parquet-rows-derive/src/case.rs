//! `rename_all` rules, with serde's spellings.

/// How `rename_all` turns a (`snake_case`) Rust field name into a column name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RenameRule {
    Lower,
    Upper,
    Pascal,
    Camel,
    Snake,
    ScreamingSnake,
    Kebab,
    ScreamingKebab,
}

/// Every accepted spelling, for parsing and for the error message.
pub const RULES: &[(&str, RenameRule)] = &[
    ("lowercase", RenameRule::Lower),
    ("UPPERCASE", RenameRule::Upper),
    ("PascalCase", RenameRule::Pascal),
    ("camelCase", RenameRule::Camel),
    ("snake_case", RenameRule::Snake),
    ("SCREAMING_SNAKE_CASE", RenameRule::ScreamingSnake),
    ("kebab-case", RenameRule::Kebab),
    ("SCREAMING-KEBAB-CASE", RenameRule::ScreamingKebab),
];

impl RenameRule {
    pub fn from_str(s: &str) -> Option<Self> {
        RULES
            .iter()
            .find(|(name, _)| *name == s)
            .map(|(_, rule)| *rule)
    }

    /// Applies the rule to a `snake_case` field name.
    pub fn apply(self, field: &str) -> String {
        match self {
            RenameRule::Lower | RenameRule::Snake => field.to_owned(),
            RenameRule::Upper | RenameRule::ScreamingSnake => field.to_ascii_uppercase(),
            RenameRule::Kebab => field.replace('_', "-"),
            RenameRule::ScreamingKebab => field.to_ascii_uppercase().replace('_', "-"),
            RenameRule::Pascal => field
                .split('_')
                .map(|word| {
                    let mut chars = word.chars();
                    chars.next().map_or_else(String::new, |first| {
                        first.to_uppercase().chain(chars).collect()
                    })
                })
                .collect(),
            RenameRule::Camel => {
                let pascal = RenameRule::Pascal.apply(field);
                let mut chars = pascal.chars();
                chars.next().map_or_else(String::new, |first| {
                    first.to_lowercase().chain(chars).collect()
                })
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rules() {
        let cases = [
            ("lowercase", "bid_price"),
            ("UPPERCASE", "BID_PRICE"),
            ("PascalCase", "BidPrice"),
            ("camelCase", "bidPrice"),
            ("snake_case", "bid_price"),
            ("SCREAMING_SNAKE_CASE", "BID_PRICE"),
            ("kebab-case", "bid-price"),
            ("SCREAMING-KEBAB-CASE", "BID-PRICE"),
        ];
        for (rule, expected) in cases {
            assert_eq!(
                RenameRule::from_str(rule).unwrap().apply("bid_price"),
                expected
            );
        }
        assert_eq!(RenameRule::from_str("snakecase"), None);
    }
}
