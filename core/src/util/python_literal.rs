//! Python literals read as JSON: what some Python frameworks put in their spans instead of JSON
//! (Semantic Kernel writes a tool's result as `str(dict)`: `{'city': 'Lisbon', 'nights': 2}`).
//!
//! Only the literal forms — dicts, lists, tuples, strings, numbers, `True`, `False`, `None` —
//! and nothing else: a text with anything more (a call, a name, an expression) is not a
//! literal, and the caller keeps the text. Nothing is evaluated.

use serde_json::{Map, Number, Value};

/// Nesting a literal may have.
const MAX_DEPTH: usize = 64;

/// `text` read as a Python literal dict or list (the forms that stand for structured data),
/// else `None`.
///
/// ```text
/// {'a': [1, 2.5, True, None]}  →  {"a": [1, 2.5, true, null]}
/// hello                        →  None
/// ```
///
/// (Crate-internal, so shown as text; the unit tests below hold these cases.)
#[doc(hidden)]
pub fn literal(text: &str) -> Option<Value> {
    let trimmed = text.trim();
    if !(trimmed.starts_with('{') || trimmed.starts_with('[')) {
        return None;
    }
    let mut reader = Reader {
        bytes: trimmed.as_bytes(),
        text: trimmed,
        at: 0,
    };
    let value = reader.value(0)?;
    reader.space();
    (reader.at == reader.bytes.len()).then_some(value)
}

struct Reader<'a> {
    bytes: &'a [u8],
    text: &'a str,
    at: usize,
}

impl Reader<'_> {
    fn space(&mut self) {
        while self.bytes.get(self.at).is_some_and(u8::is_ascii_whitespace) {
            self.at += 1;
        }
    }

    fn peek(&mut self) -> Option<u8> {
        self.space();
        self.bytes.get(self.at).copied()
    }

    fn eat(&mut self, b: u8) -> bool {
        if self.peek() == Some(b) {
            self.at += 1;
            true
        } else {
            false
        }
    }

    fn value(&mut self, depth: usize) -> Option<Value> {
        if depth > MAX_DEPTH {
            return None;
        }
        match self.peek()? {
            b'{' => self.dict(depth),
            b'[' => self.sequence(b']', depth),
            b'(' => self.sequence(b')', depth),
            b'\'' | b'"' => self.string().map(Value::String),
            b'-' | b'+' | b'0'..=b'9' | b'.' => self.number(),
            _ => self.word(),
        }
    }

    fn dict(&mut self, depth: usize) -> Option<Value> {
        self.at += 1;
        let mut out = Map::new();
        loop {
            if self.eat(b'}') {
                return Some(Value::Object(out));
            }
            let key = match self.value(depth + 1)? {
                Value::String(s) => s,
                // JSON keys are strings: numbers and booleans as Python prints them.
                Value::Number(n) => n.to_string(),
                Value::Bool(b) => if b { "True" } else { "False" }.to_owned(),
                Value::Null => "None".to_owned(),
                _ => return None,
            };
            if !self.eat(b':') {
                return None;
            }
            let value = self.value(depth + 1)?;
            out.insert(key, value);
            if !self.eat(b',') {
                return self.eat(b'}').then_some(Value::Object(out));
            }
        }
    }

    fn sequence(&mut self, close: u8, depth: usize) -> Option<Value> {
        self.at += 1;
        let mut out = Vec::new();
        loop {
            if self.eat(close) {
                return Some(Value::Array(out));
            }
            out.push(self.value(depth + 1)?);
            if !self.eat(b',') {
                return self.eat(close).then_some(Value::Array(out));
            }
        }
    }

    fn string(&mut self) -> Option<String> {
        let quote = *self.bytes.get(self.at)?;
        self.at += 1;
        let mut out = String::new();
        loop {
            let rest = self.text.get(self.at..)?;
            let c = rest.chars().next()?;
            self.at += c.len_utf8();
            match c {
                c if c as u32 == u32::from(quote) => return Some(out),
                '\\' => {
                    let e = self.text.get(self.at..)?.chars().next()?;
                    self.at += e.len_utf8();
                    match e {
                        'n' => out.push('\n'),
                        't' => out.push('\t'),
                        'r' => out.push('\r'),
                        '0' => out.push('\0'),
                        '\\' | '\'' | '"' => out.push(e),
                        'x' => out.push(self.code(2)?),
                        'u' => out.push(self.code(4)?),
                        'U' => out.push(self.code(8)?),
                        '\n' => {}
                        other => {
                            out.push('\\');
                            out.push(other);
                        }
                    }
                }
                '\n' => return None,
                c => out.push(c),
            }
        }
    }

    fn code(&mut self, digits: usize) -> Option<char> {
        let hex = self.text.get(self.at..self.at.checked_add(digits)?)?;
        self.at += digits;
        char::from_u32(u32::from_str_radix(hex, 16).ok()?)
    }

    fn number(&mut self) -> Option<Value> {
        let start = self.at;
        while self
            .bytes
            .get(self.at)
            .is_some_and(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'+' | b'.' | b'_'))
        {
            self.at += 1;
        }
        let text = self.text.get(start..self.at)?.replace('_', "");
        let text = text.strip_prefix('+').unwrap_or(&text);
        if let Ok(i) = text.parse::<i64>() {
            return Some(Value::from(i));
        }
        // Python floats print as `1.5`, `1e+300`, `inf`, `nan`; JSON has no infinities.
        text.parse::<f64>()
            .ok()
            .and_then(Number::from_f64)
            .map(Value::Number)
    }

    fn word(&mut self) -> Option<Value> {
        let start = self.at;
        while self
            .bytes
            .get(self.at)
            .is_some_and(|b| b.is_ascii_alphanumeric() || *b == b'_')
        {
            self.at += 1;
        }
        match self.text.get(start..self.at)? {
            "True" => Some(Value::Bool(true)),
            "False" => Some(Value::Bool(false)),
            "None" => Some(Value::Null),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::literal;
    use serde_json::json;

    #[test]
    fn reads_what_str_of_a_dict_prints() {
        assert_eq!(
            literal(
                "{'city': 'Lisbon', 'nights': 2, 'hotels': [{'id': 'HTL-205', 'price': 120.5}], 'ok': True, 'x': None}"
            ),
            Some(
                json!({"city": "Lisbon", "nights": 2, "hotels": [{"id": "HTL-205", "price": 120.5}], "ok": true, "x": null})
            )
        );
        assert_eq!(
            literal(r#"["it's", 'say "hi"', 'tab\there', '\u00e9', (1, 2,)]"#),
            Some(json!(["it's", "say \"hi\"", "tab\there", "é", [1, 2]]))
        );
        assert_eq!(
            literal("{1: 'a', -2.5e3: 'b'}"),
            Some(json!({"1": "a", "-2500.0": "b"}))
        );
    }

    #[test]
    fn anything_more_than_a_literal_is_not_read() {
        for text in [
            "hello",
            "'just a string'",
            "{'a': f(1)}",
            "{'a': 1",
            "{'a': 1}}",
            "[1, 2] + [3]",
            "{'a': nan}",
            "{'a': float('inf')}",
            "{'unterminated: 1}",
            "[ObjectRepr(x=1)]",
            "",
        ] {
            assert_eq!(literal(text), None, "{text}");
        }
        // Nesting is bounded, never a stack overflow.
        let deep = "[".repeat(10_000) + &"]".repeat(10_000);
        assert_eq!(literal(&deep), None);
    }
}
