//! Email address comparison.

/// Whether two addresses are the same: local parts equal, domains equal ignoring case.
/// Surrounding whitespace and a display name (`Ana <ana@example.com>`) are ignored.
pub(crate) fn same_address(expected: &str, actual: &str) -> bool {
    match (split(expected), split(actual)) {
        (Some((l1, d1)), Some((l2, d2))) => l1 == l2 && d1.eq_ignore_ascii_case(d2),
        _ => false,
    }
}

fn split(s: &str) -> Option<(&str, &str)> {
    let s = s.trim();
    let s = match (s.rfind('<'), s.rfind('>')) {
        // `<` is one byte, so the address starts right after it.
        (Some(open), Some(close)) if open < close => s.get(open..close)?.strip_prefix('<')?,
        _ => s,
    };
    let (local, domain) = s.trim().rsplit_once('@')?;
    (!local.is_empty() && !domain.is_empty()).then_some((local, domain))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn domains_ignore_case_locals_do_not() {
        assert!(same_address("john.doe@example.com", "john.doe@EXAMPLE.com"));
        assert!(same_address(
            "john.doe@example.com",
            " John Doe <john.doe@example.com> "
        ));
        assert!(!same_address(
            "john.doe@example.com",
            "John.Doe@example.com"
        ));
        assert!(!same_address(
            "john.doe@example.com",
            "john.doe@example.org"
        ));
        assert!(!same_address("john.doe@example.com", "not an email"));
    }
}
