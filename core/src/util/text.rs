//! Text for messages and reports: values rendered on one line, long texts clipped, plurals.

use serde_json::Value;

/// A JSON value on one line (as `serde_json` writes it).
#[doc(hidden)]
pub fn compact(v: &Value) -> String {
    serde_json::to_string(v).unwrap_or_else(|_| "<unprintable>".to_owned())
}

/// The most of one value a message shows.
#[doc(hidden)]
pub const MAX_SHOWN: usize = 2000;

/// A JSON value on one line for a message: [`compact`], clipped past [`MAX_SHOWN`] bytes with
/// its whole size said (a 6 MiB tool result is not pasted into a failure whole).
#[doc(hidden)]
pub fn shown(v: &Value) -> String {
    let all = compact(v);
    if all.len() <= MAX_SHOWN {
        return all;
    }
    let mut end = MAX_SHOWN;
    while !all.is_char_boundary(end) {
        end -= 1;
    }
    format!(
        "{}… ({} in all, clipped)",
        all.get(..end).unwrap_or_default(),
        size(all.len() as u64)
    )
}

/// Cuts `s` to about `max` bytes on a character boundary, saying how much was left out.
#[doc(hidden)]
pub fn clip(s: &str, max: usize) -> String {
    if s.len() <= max {
        return s.to_owned();
    }
    let mut end = max;
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}… ({} more bytes)", &s[..end], s.len() - end)
}

/// A size for people: `512 bytes`, `6.5 MiB`.
#[doc(hidden)]
pub fn size(bytes: u64) -> String {
    const UNITS: [&str; 4] = ["KiB", "MiB", "GiB", "TiB"];
    if bytes < 1024 {
        return format!("{bytes} bytes");
    }
    let mut value = bytes as f64 / 1024.0;
    let mut unit = 0;
    while value >= 1024.0 && unit + 1 < UNITS.len() {
        value /= 1024.0;
        unit += 1;
    }
    let shown = format!("{value:.1}");
    format!(
        "{} {}",
        shown.strip_suffix(".0").unwrap_or(&shown),
        UNITS.get(unit).copied().unwrap_or("TiB")
    )
}

/// Bytes as readable text: valid UTF-8 kept, every other byte and every control character
/// but a tab written `\xNN` (a server's binary noise must not reach a terminal raw).
#[cfg_attr(not(feature = "mcp"), allow(dead_code))]
#[doc(hidden)]
pub fn escape_bytes(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len());
    for chunk in bytes.utf8_chunks() {
        for c in chunk.valid().chars() {
            if c.is_control() && c != '\t' {
                for b in c.to_string().bytes() {
                    out.push_str(&format!("\\x{b:02x}"));
                }
            } else {
                out.push(c);
            }
        }
        for b in chunk.invalid() {
            out.push_str(&format!("\\x{b:02x}"));
        }
    }
    out
}

/// `"s"` unless `n` is 1.
#[doc(hidden)]
pub fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}

/// The message of a caught panic payload.
#[doc(hidden)]
pub fn panic_message(panic: &Box<dyn std::any::Any + Send>) -> String {
    if let Some(s) = panic.downcast_ref::<&str>() {
        (*s).to_owned()
    } else if let Some(s) = panic.downcast_ref::<String>() {
        s.clone()
    } else {
        "<non-string panic payload>".to_owned()
    }
}

/// The text of a message's content: a string, or a list of parts with `text` (OpenAI,
/// Anthropic blocks).
#[doc(hidden)]
pub fn content_text(content: &Value) -> String {
    match content {
        Value::String(s) => s.clone(),
        Value::Array(parts) => parts
            .iter()
            .filter_map(|p| p.get("text").and_then(Value::as_str))
            .collect::<Vec<_>>()
            .join(""),
        _ => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clip_respects_char_boundaries() {
        let s = "é".repeat(10);
        let t = clip(&s, 5);
        assert!(t.starts_with("éé"));
        assert!(t.ends_with("(16 more bytes)"), "{t}");
    }

    #[test]
    fn sizes_and_bytes_read_as_text() {
        assert_eq!(size(512), "512 bytes");
        let big = Value::String("x".repeat(6_815_744));
        let s = shown(&big);
        assert!(
            s.len() < MAX_SHOWN + 40 && s.ends_with("… (6.5 MiB in all, clipped)"),
            "{s}"
        );
        assert_eq!(shown(&Value::from(3)), "3");
        assert_eq!(size(6_815_744), "6.5 MiB");
        assert_eq!(size(16 * 1024 * 1024), "16 MiB");
        assert_eq!(
            escape_bytes(b"ok \xff\x1b[31m\tdone \xc3\xa9"),
            "ok \\xff\\x1b[31m\tdone é"
        );
    }
}
