//! A parser for Parquet's message-type text, the syntax of the `parquet`
//! crate's `parse_message_type` and of parquet-mr's `MessageTypeParser`:
//!
//! ```text
//! schema     := "message" name "{" field* "}"
//! field      := repetition "group" name annotation? id? "{" field* "}"
//!             | repetition physical length? name annotation? id? ";"
//! repetition := REQUIRED | OPTIONAL | REPEATED
//! physical   := BOOLEAN | INT32 | INT64 | INT96 | FLOAT | DOUBLE
//!             | BINARY | BYTE_ARRAY | FIXED_LEN_BYTE_ARRAY
//! length     := "(" integer ")"                  (FIXED_LEN_BYTE_ARRAY only)
//! annotation := "(" NAME arguments? ")"          e.g. (UTF8), (TIMESTAMP(MICROS, true))
//! id         := "=" integer
//! ```
//!
//! Keywords and annotation names are case-insensitive; names are any run of
//! characters other than whitespace and `{ } ( ) ; , =`. An annotation is a
//! logical type when it has that name (`STRING`, `INTEGER(8, true)`,
//! `DECIMAL(9, 2)`, `TIMESTAMP(MICROS, true)`, `TIME(MILLIS, false)`, `DATE`,
//! `UUID`, ...; the converted type is derived from it, as writers do), and a
//! legacy converted type otherwise (`UTF8`, `INT_8`, `TIMESTAMP_MICROS`, ...).
//!
//! Unlike `parse_message_type`, which fills in placeholder arguments,
//! `TIMESTAMP`, `TIME`, `INTEGER` and `DECIMAL` need theirs. Annotations are
//! checked against the physical type as the `parquet` crate's schema builder
//! checks them. Errors say where they are (line and column of the text).

use std::fmt;

use crate::column::{Column, Converted, Logical, Physical, Repetition, TimeUnit};
use crate::schema::{Node, Schema};

/// Why schema text does not parse, and where.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseError {
    /// What is wrong.
    pub message: String,
    /// 1-based line of the offending token in the text (0 at the end of the text).
    pub line: usize,
    /// 1-based column (in characters) of the offending token.
    pub column: usize,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.line == 0 {
            write!(f, "{} (at the end of the schema)", self.message)
        } else {
            write!(
                f,
                "{} (line {}, column {} of the schema)",
                self.message, self.line, self.column
            )
        }
    }
}

impl std::error::Error for ParseError {}

/// Parses message-type text into a [`Schema`].
pub fn parse(text: &str) -> Result<Schema, ParseError> {
    let mut parser = Parser {
        tokens: tokenize(text),
        next: 0,
    };
    parser.message()
}

#[derive(Debug, Clone, Copy)]
struct Token<'t> {
    text: &'t str,
    line: usize,
    column: usize,
}

fn is_delimiter(c: char) -> bool {
    matches!(c, '{' | '}' | '(' | ')' | ';' | ',' | '=')
}

fn tokenize(text: &str) -> Vec<Token<'_>> {
    let mut tokens = Vec::new();
    let (mut line, mut column) = (1, 0);
    let mut start: Option<(usize, usize, usize)> = None; // (byte, line, column) of the current word
    for (i, c) in text.char_indices() {
        if c == '\n' {
            line += 1;
            column = 0;
        } else {
            column += 1;
        }
        if c.is_whitespace() || is_delimiter(c) {
            if let Some((s, l, col)) = start.take() {
                tokens.push(Token {
                    text: &text[s..i],
                    line: l,
                    column: col,
                });
            }
            if is_delimiter(c) {
                tokens.push(Token {
                    text: &text[i..=i], // a delimiter is one ASCII byte
                    line,
                    column,
                });
            }
        } else if start.is_none() {
            start = Some((i, line, column));
        }
    }
    if let Some((s, l, col)) = start {
        tokens.push(Token {
            text: &text[s..],
            line: l,
            column: col,
        });
    }
    tokens
}

struct Parser<'t> {
    tokens: Vec<Token<'t>>,
    next: usize, // invariant: <= tokens.len()
}

/// Nesting deeper than this is refused (it would only be a mistake or an attack).
const MAX_DEPTH: usize = 64;

impl<'t> Parser<'t> {
    fn peek(&self) -> Option<Token<'t>> {
        self.tokens.get(self.next).copied()
    }

    /// An error at `token`, or at the end of the text.
    fn error_at(token: Option<Token<'_>>, message: String) -> ParseError {
        match token {
            Some(t) => ParseError {
                message,
                line: t.line,
                column: t.column,
            },
            None => ParseError {
                message,
                line: 0,
                column: 0,
            },
        }
    }

    fn found(token: Option<Token<'_>>) -> String {
        match token {
            Some(t) => format!("found `{}`", t.text),
            None => "found the end of the schema".to_owned(),
        }
    }

    /// Consumes `want` (a delimiter) or fails with "expected `want` `context`".
    fn expect(&mut self, want: &str, context: &str) -> Result<Token<'t>, ParseError> {
        match self.peek() {
            Some(t) if t.text == want => {
                self.next += 1;
                Ok(t)
            }
            other => Err(Self::error_at(
                other,
                format!("expected `{want}` {context}, {}", Self::found(other)),
            )),
        }
    }

    /// Consumes `want` if it is next.
    fn eat(&mut self, want: &str) -> bool {
        if self.peek().is_some_and(|t| t.text == want) {
            self.next += 1;
            true
        } else {
            false
        }
    }

    /// A name: any word that is not a delimiter.
    fn name(&mut self, what: &str) -> Result<Token<'t>, ParseError> {
        match self.peek() {
            Some(t) if !t.text.starts_with(is_delimiter) => {
                self.next += 1;
                Ok(t)
            }
            other => Err(Self::error_at(
                other,
                format!("expected {what}, {}", Self::found(other)),
            )),
        }
    }

    fn integer(&mut self, what: &str) -> Result<i32, ParseError> {
        let token = self.peek();
        match token.and_then(|t| t.text.parse::<i32>().ok()) {
            Some(value) => {
                self.next += 1;
                Ok(value)
            }
            None => Err(Self::error_at(
                token,
                format!("expected {what} (an integer), {}", Self::found(token)),
            )),
        }
    }

    fn boolean(&mut self, what: &str) -> Result<bool, ParseError> {
        let token = self.peek();
        match token.map(|t| t.text.to_ascii_lowercase()).as_deref() {
            Some("true") => {
                self.next += 1;
                Ok(true)
            }
            Some("false") => {
                self.next += 1;
                Ok(false)
            }
            _ => Err(Self::error_at(
                token,
                format!(
                    "expected {what} (`true` or `false`), {}",
                    Self::found(token)
                ),
            )),
        }
    }

    fn message(&mut self) -> Result<Schema, ParseError> {
        let first = self.peek();
        if first.is_none_or(|t| t.text != "message") {
            return Err(Self::error_at(
                first,
                format!(
                    "a schema starts with `message <name> {{`, {}",
                    Self::found(first)
                ),
            ));
        }
        self.next += 1;
        let name = self.name("the message's name")?.text.to_owned();
        self.expect("{", "after the message's name")?;
        let fields = self.fields(0)?;
        self.eat(";");
        if let Some(extra) = self.peek() {
            return Err(Self::error_at(
                Some(extra),
                format!(
                    "unexpected `{}` after the end of the message (the `}}` that closes `message {name}`)",
                    extra.text
                ),
            ));
        }
        Ok(Schema { name, fields })
    }

    /// The fields of a group, after its `{`, up to and including its `}`.
    fn fields(&mut self, depth: usize) -> Result<Vec<Node>, ParseError> {
        let mut fields: Vec<Node> = Vec::new();
        loop {
            match self.peek() {
                Some(t) if t.text == "}" => {
                    self.next += 1;
                    return Ok(fields);
                }
                None => {
                    return Err(Self::error_at(
                        None,
                        "expected `}` to close the group or message".to_owned(),
                    ))
                }
                Some(_) => {}
            }
            // Two fields of one name are accepted, as files have them
            // (duckdb writes two top-level `column`s): a struct field binding
            // the name is refused until `#[parquet(nth = ...)]` says which.
            let (_, node) = self.field(depth)?;
            fields.push(node);
        }
    }

    /// One field; also returns its name token (for errors about it).
    fn field(&mut self, depth: usize) -> Result<(Token<'t>, Node), ParseError> {
        let token = self.peek();
        let repetition = token
            .and_then(|t| Repetition::from_name(&t.text.to_ascii_uppercase()))
            .ok_or_else(|| {
                Self::error_at(
                    token,
                    format!(
                        "expected a repetition (REQUIRED, OPTIONAL or REPEATED), {}",
                        Self::found(token)
                    ),
                )
            })?;
        self.next += 1;
        let type_token = self.name("a type (`group` or a physical type)")?;
        if type_token.text.eq_ignore_ascii_case("group") {
            return self.group(repetition, depth);
        }
        let physical = Physical::from_name(&type_token.text.to_ascii_uppercase()).ok_or_else(|| {
            Self::error_at(
                Some(type_token),
                format!(
                    "unknown type `{}`; expected `group` or one of BOOLEAN, INT32, INT64, INT96, FLOAT, DOUBLE, BINARY, BYTE_ARRAY, FIXED_LEN_BYTE_ARRAY",
                    type_token.text
                ),
            )
        })?;
        let mut column = Column::new(physical, repetition);
        if physical == Physical::FixedLenByteArray {
            self.expect(
                "(",
                "after FIXED_LEN_BYTE_ARRAY: it needs a length, as in FIXED_LEN_BYTE_ARRAY(16)",
            )?;
            let at = self.peek();
            column.length = self.integer("the length of FIXED_LEN_BYTE_ARRAY")?;
            if column.length < 0 {
                return Err(Self::error_at(
                    at,
                    format!("invalid FIXED_LEN_BYTE_ARRAY length {}", column.length),
                ));
            }
            self.expect(")", "after the length of FIXED_LEN_BYTE_ARRAY")?;
        }
        let name = self.name("the column's name")?;
        if self.eat("(") {
            self.annotation(&mut column, name.text)?;
            self.expect(
                ")",
                &format!("after the annotation of column `{}`", name.text),
            )?;
        }
        let id = self.id()?;
        self.expect(
            ";",
            &format!("after column `{}` (each column ends with `;`)", name.text),
        )?;
        Ok((
            name,
            Node::Primitive {
                name: name.text.to_owned(),
                column,
                id,
            },
        ))
    }

    fn id(&mut self) -> Result<Option<i32>, ParseError> {
        if self.eat("=") {
            Ok(Some(self.integer("a field id")?))
        } else {
            Ok(None)
        }
    }

    fn group(
        &mut self,
        repetition: Repetition,
        depth: usize,
    ) -> Result<(Token<'t>, Node), ParseError> {
        let name = self.name("the group's name")?;
        if depth >= MAX_DEPTH {
            return Err(Self::error_at(
                Some(name),
                format!("groups nested more than {MAX_DEPTH} deep"),
            ));
        }
        let (mut logical, mut converted) = (None, Converted::None);
        if self.eat("(") {
            let token = self.name("an annotation")?;
            let upper = token.text.to_ascii_uppercase();
            if let Some(l) = Logical::from_name(&upper) {
                converted = Converted::from_logical(&l);
                logical = Some(l);
            } else if let Some(c) = Converted::from_name(&upper) {
                converted = c;
            } else {
                return Err(Self::error_at(
                    Some(token),
                    format!(
                        "unknown annotation `{}` on group `{}`",
                        token.text, name.text
                    ),
                ));
            }
            self.expect(
                ")",
                &format!("after the annotation of group `{}`", name.text),
            )?;
        }
        let id = self.id()?;
        self.expect("{", &format!("after group `{}`", name.text))?;
        let fields = self.fields(depth + 1)?;
        self.eat(";");
        Ok((
            name,
            Node::Group {
                name: name.text.to_owned(),
                repetition,
                logical,
                converted,
                id,
                fields,
            },
        ))
    }

    /// The annotation of a column, after its `(`; checks it fits the column.
    fn annotation(&mut self, column: &mut Column, name: &str) -> Result<(), ParseError> {
        let token = self.name("an annotation (a logical or converted type)")?;
        let upper = token.text.to_ascii_uppercase();
        let logical = match Logical::from_name(&upper) {
            Some(logical) => Some(self.logical_arguments(logical, column)?),
            None => None,
        };
        match logical {
            Some(logical) => {
                column.converted = Converted::from_logical(&logical);
                column.logical = Some(logical);
            }
            None => match Converted::from_name(&upper) {
                Some(converted) => column.converted = converted,
                None => {
                    return Err(Self::error_at(
                        Some(token),
                        format!(
                            "unknown annotation `{}` on column `{name}`; expected a logical type (STRING, INTEGER(bits, signed), DECIMAL(p, s), DATE, TIME(unit, utc), TIMESTAMP(unit, utc), ENUM, JSON, BSON, UUID, FLOAT16, ...) or a converted type (UTF8, INT_8, TIMESTAMP_MICROS, ...)",
                            token.text
                        ),
                    ))
                }
            },
        }
        match fits(column) {
            Ok(()) => Ok(()),
            Err(why) => Err(Self::error_at(
                Some(token),
                format!(
                    "{} cannot annotate column `{name}` ({}): {why}",
                    token.text, column.physical
                ),
            )),
        }
    }

    /// The arguments of the logical types that have some (`DECIMAL(9, 2)`,
    /// `TIMESTAMP(MICROS, true)`, `TIME(MILLIS, false)`, `INTEGER(8, true)`),
    /// after the type's name.
    fn logical_arguments(
        &mut self,
        logical: Logical,
        column: &mut Column,
    ) -> Result<Logical, ParseError> {
        let unit = |p: &mut Self, what: &str| -> Result<TimeUnit, ParseError> {
            let at = p.peek();
            let unit = at.and_then(|t| TimeUnit::from_name(&t.text.to_ascii_uppercase()));
            match unit {
                Some(unit) => {
                    p.next += 1;
                    Ok(unit)
                }
                None => Err(Self::error_at(
                    at,
                    format!(
                        "expected the unit of {what} (MILLIS, MICROS or NANOS), {}",
                        Self::found(at)
                    ),
                )),
            }
        };
        Ok(match logical {
            Logical::Decimal { .. } => {
                self.expect(
                    "(",
                    "after DECIMAL: it needs a precision, as in DECIMAL(9, 2)",
                )?;
                let precision = self.integer("the precision of DECIMAL")?;
                let scale = if self.eat(",") {
                    self.integer("the scale of DECIMAL")?
                } else {
                    0
                };
                self.expect(")", "after the arguments of DECIMAL")?;
                column.precision = precision;
                column.scale = scale;
                Logical::Decimal { precision, scale }
            }
            Logical::Timestamp { .. } => {
                self.expect(
                    "(",
                    "after TIMESTAMP: it needs a unit and isAdjustedToUTC, as in TIMESTAMP(MICROS, true)",
                )?;
                let unit = unit(self, "TIMESTAMP")?;
                self.expect(",", "after the unit of TIMESTAMP")?;
                let utc = self.boolean("TIMESTAMP's isAdjustedToUTC")?;
                self.expect(")", "after the arguments of TIMESTAMP")?;
                Logical::Timestamp { unit, utc }
            }
            Logical::Time { .. } => {
                self.expect(
                    "(",
                    "after TIME: it needs a unit and isAdjustedToUTC, as in TIME(MILLIS, false)",
                )?;
                let unit = unit(self, "TIME")?;
                self.expect(",", "after the unit of TIME")?;
                let utc = self.boolean("TIME's isAdjustedToUTC")?;
                self.expect(")", "after the arguments of TIME")?;
                Logical::Time { unit, utc }
            }
            Logical::Integer { .. } => {
                self.expect(
                    "(",
                    "after INTEGER: it needs a bit width and signedness, as in INTEGER(8, true)",
                )?;
                let at = self.peek();
                let bits = self.integer("the bit width of INTEGER")?;
                let bits = i8::try_from(bits)
                    .ok()
                    .filter(|b| [8, 16, 32, 64].contains(b))
                    .ok_or_else(|| {
                        Self::error_at(
                            at,
                            format!("INTEGER bit width must be 8, 16, 32 or 64, not {bits}"),
                        )
                    })?;
                self.expect(",", "after the bit width of INTEGER")?;
                let signed = self.boolean("INTEGER's signedness")?;
                self.expect(")", "after the arguments of INTEGER")?;
                Logical::Integer { bits, signed }
            }
            other => other,
        })
    }
}

/// Whether the annotation fits the physical type (the `parquet` crate's
/// schema builder refuses the same combinations).
fn fits(column: &Column) -> Result<(), String> {
    use Physical::{ByteArray, Int32, Int64};
    let physical = column.physical;
    let ok = match &column.logical {
        Some(Logical::Map | Logical::List) => return Err("it annotates groups".to_owned()),
        Some(Logical::String | Logical::Enum | Logical::Json | Logical::Bson) => {
            physical == ByteArray
        }
        Some(Logical::Decimal { precision, scale }) => {
            return decimal_fits(column, *precision, *scale)
        }
        Some(Logical::Date) => physical == Int32,
        Some(Logical::Time { unit, .. }) => {
            physical
                == if *unit == TimeUnit::Millis {
                    Int32
                } else {
                    Int64
                }
        }
        Some(Logical::Timestamp { .. }) => physical == Int64,
        Some(Logical::Integer { bits, .. }) => match physical {
            Int32 => *bits <= 32,
            Int64 => *bits == 64,
            _ => false,
        },
        Some(Logical::Uuid) => column.is_fixed(16),
        Some(Logical::Float16) => column.is_fixed(2),
        Some(Logical::Unknown | Logical::Other(_)) => true,
        None => match column.converted {
            Converted::None => true,
            Converted::Map | Converted::MapKeyValue | Converted::List => {
                return Err("it annotates groups".to_owned())
            }
            Converted::Utf8 | Converted::Enum | Converted::Json | Converted::Bson => {
                physical == ByteArray
            }
            Converted::Decimal => return decimal_fits(column, column.precision, column.scale),
            Converted::Date
            | Converted::TimeMillis
            | Converted::Uint8
            | Converted::Uint16
            | Converted::Uint32
            | Converted::Int8
            | Converted::Int16
            | Converted::Int32 => physical == Int32,
            Converted::TimeMicros
            | Converted::TimestampMillis
            | Converted::TimestampMicros
            | Converted::Uint64
            | Converted::Int64 => physical == Int64,
            Converted::Interval => column.is_fixed(12),
        },
    };
    if ok {
        Ok(())
    } else {
        Err("the physical type cannot hold it".to_owned())
    }
}

fn decimal_fits(column: &Column, precision: i32, scale: i32) -> Result<(), String> {
    if precision < 1 {
        return Err(format!("the precision must be at least 1, not {precision}"));
    }
    if scale < 0 || scale > precision {
        return Err(format!(
            "the scale must be between 0 and the precision ({precision}), not {scale}"
        ));
    }
    let max = match column.physical {
        Physical::Int32 => 9,
        Physical::Int64 => 18,
        Physical::ByteArray => return Ok(()),
        Physical::FixedLenByteArray => {
            // The most digits a two's complement number of `length` bytes holds.
            let bits = f64::from(column.length.clamp(0, 64) * 8 - 1);
            (bits * std::f64::consts::LOG10_2).floor() as i32
        }
        _ => {
            return Err("DECIMAL needs INT32, INT64, BYTE_ARRAY or FIXED_LEN_BYTE_ARRAY".to_owned())
        }
    };
    if precision > max {
        return Err(format!(
            "{} holds at most {max} decimal digits, not {precision}",
            column.physical
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    const TICKS: &str = "message schema {
        REQUIRED INT64 ts (TIMESTAMP_MICROS);
        REQUIRED BINARY symbol (UTF8);
        REQUIRED DOUBLE bid;
        OPTIONAL DOUBLE ask = 7;
    }";

    #[test]
    fn parses_the_tick_schema() {
        let schema = parse(TICKS).unwrap();
        assert_eq!(schema.name, "schema");
        let names: Vec<&str> = schema.top_level_names().collect();
        assert_eq!(names, ["ts", "symbol", "bid", "ask"]);
        let ts = schema.column("ts").unwrap();
        assert_eq!(ts.describe(), "REQUIRED INT64 (TIMESTAMP_MICROS)");
        assert_eq!(ts.logical, None);
        assert_eq!(
            schema.column("symbol").unwrap().describe(),
            "REQUIRED BYTE_ARRAY (UTF8)"
        );
        assert_eq!(schema.column("ask").unwrap().describe(), "OPTIONAL DOUBLE");
    }

    #[test]
    fn logical_types_with_arguments() {
        let schema = parse(
            "message m {
                required int32 a (INTEGER(8, false));
                REQUIRED INT64 b (TIMESTAMP(NANOS, false));
                REQUIRED FIXED_LEN_BYTE_ARRAY(16) c (UUID);
                REQUIRED FIXED_LEN_BYTE_ARRAY(9) d (DECIMAL(20, 4));
                OPTIONAL group e (LIST) { REPEATED group list { REQUIRED INT32 element; } }
                REQUIRED INT32 f (TIME(MILLIS, true));
                REQUIRED BINARY g (STRING);
            }",
        )
        .unwrap();
        let describe = |n| schema.column(n).unwrap().describe();
        assert_eq!(describe("a"), "REQUIRED INT32 (INT(8, unsigned))");
        assert_eq!(describe("b"), "REQUIRED INT64 (TIMESTAMP(NANOS, local))");
        assert_eq!(describe("c"), "REQUIRED FIXED_LEN_BYTE_ARRAY(16) (UUID)");
        assert_eq!(
            describe("d"),
            "REQUIRED FIXED_LEN_BYTE_ARRAY(9) (DECIMAL(20, 4))"
        );
        assert_eq!(describe("f"), "REQUIRED INT32 (TIME(MILLIS))");
        assert_eq!(describe("g"), "REQUIRED BYTE_ARRAY (STRING)");
        assert_eq!(schema.find("f").unwrap().0, 5, "leaf index after the list");
    }

    #[test]
    fn display_parses_back() {
        let text = "message m {
            REQUIRED INT32 a (INTEGER(8, false)) = 3;
            REQUIRED INT64 ts (TIMESTAMP_MICROS);
            OPTIONAL INT64 t2 (TIMESTAMP(NANOS, true));
            REQUIRED FIXED_LEN_BYTE_ARRAY(9) d (DECIMAL(20, 4));
            REQUIRED INT32 d2 (DECIMAL(5, 2));
            OPTIONAL group e (LIST) { REPEATED group list { REQUIRED INT32 element; } }
        }";
        let schema = parse(text).unwrap();
        let printed = schema.to_string();
        assert_eq!(parse(&printed).unwrap(), schema, "{printed}");
    }

    fn error(text: &str) -> String {
        parse(text).unwrap_err().to_string()
    }

    #[test]
    fn every_prefix_is_an_error_not_a_panic() {
        let text = "message m { REQUIRED FIXED_LEN_BYTE_ARRAY(9) d (DECIMAL(20, 4)) = 3; \
            OPTIONAL group e (LIST) { REPEATED INT64 t (TIMESTAMP(MICROS, true)); } }";
        for (end, _) in text.char_indices() {
            assert!(parse(&text[..end]).is_err(), "{}", &text[..end]);
        }
        assert!(parse(text).is_ok());
        for odd in [
            "",
            "message",
            "message m {",
            "message m { REQUIRED",
            "\u{1F600} (",
            "((((",
            ")))",
        ] {
            assert!(parse(odd).is_err());
        }
    }

    #[test]
    fn errors_say_what_and_where() {
        assert_eq!(
            error("schema { }"),
            "a schema starts with `message <name> {`, found `schema` (line 1, column 1 of the schema)"
        );
        assert_eq!(
            error("message m {\n  REQUIRED DOUBLE bid\n}"),
            "expected `;` after column `bid` (each column ends with `;`), found `}` (line 3, column 1 of the schema)"
        );
        assert_eq!(
            error("message m { REQUIRED DOUBL bid; }"),
            "unknown type `DOUBL`; expected `group` or one of BOOLEAN, INT32, INT64, INT96, FLOAT, DOUBLE, BINARY, BYTE_ARRAY, FIXED_LEN_BYTE_ARRAY (line 1, column 22 of the schema)"
        );
        assert_eq!(
            error("message m { REQUIRED INT32 s (UTF8); }"),
            "UTF8 cannot annotate column `s` (INT32): the physical type cannot hold it (line 1, column 31 of the schema)"
        );
        assert!(error("message m { REQUIRED INT64 t (TIMESTAMP); }").contains("needs a unit"));
        // A repeated name parses: files have them, and fields say which
        // one they read with `nth`.
        assert_eq!(
            parse("message m { REQUIRED INT32 a; REQUIRED INT64 a; }").map(|s| s.fields.len()),
            Ok(2)
        );
        assert!(error("message m { REQUIRED INT32 a;").contains("at the end of the schema"));
        assert!(error("message m { } x").contains("after the end of the message"));
        assert!(error("message m { REQUIRED INT32 d (DECIMAL(10, 2)); }").contains("at most 9"));
        assert!(error("message m { REQUIRED FIXED_LEN_BYTE_ARRAY x; }").contains("needs a length"));
        let deep = format!("message m {{ {} }}", "REQUIRED group g {".repeat(100));
        assert!(error(&deep).contains("nested more than"));
    }
}
