//! How deep a JSONPath query may nest, checked the same way by `agent_test!` (a literal, at
//! compile time) and the runtime (a query from a file, when it is read): the parser recurses
//! into each bracket (a few thousand exhaust the stack) and takes time exponential in nested
//! filters (`$[?@[?@[?…]]]`: 14 levels take seconds, 20 minutes).

/// How deep brackets and parentheses may nest in a JSONPath query.
pub const MAX_NESTING: usize = 10;

/// `Err` when brackets or parentheses nest deeper than [`MAX_NESTING`] outside string
/// literals, naming the column (counted in characters, from 1).
///
/// ```
/// use agent_test_expr::json_path_limit::nesting;
/// assert!(nesting("$.items[?@.price < 10]").is_ok());
/// assert!(nesting("$['[[[[[[[[[[[[']").is_ok());
/// assert_eq!(
///     nesting(&format!("${}", "[?@".repeat(11))).unwrap_err(),
///     "brackets nest deeper than 10 levels at column 32"
/// );
/// ```
pub fn nesting(query: &str) -> Result<(), String> {
    let (mut depth, mut quote, mut escaped) = (0usize, None, false);
    for (column, c) in query.chars().enumerate() {
        match (quote, c) {
            (Some(_), _) if escaped => escaped = false,
            (Some(_), '\\') => escaped = true,
            (Some(q), c) if c == q => quote = None,
            (Some(_), _) => {}
            (None, '\'' | '"') => quote = Some(c),
            (None, '[' | '(') => {
                depth = depth.saturating_add(1);
                if depth > MAX_NESTING {
                    return Err(format!(
                        "brackets nest deeper than {MAX_NESTING} levels at column {}",
                        column.saturating_add(1)
                    ));
                }
            }
            (None, ']' | ')') => depth = depth.saturating_sub(1),
            (None, _) => {}
        }
    }
    Ok(())
}
