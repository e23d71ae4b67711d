//! What the agent's tokens cost: a price table (per model, US dollars per million input and
//! output tokens), and each turn's cost worked out from it — or why it could not be.
//!
//! Prices are the user's: a table they write (in Rust or in a JSON file), or the dated
//! built-in table of list prices when they ask for it ([`Prices::builtin`]). A model missing
//! from the table, a turn without token usage, or a usage with only a total leave the turn's
//! cost *unknown* with the reason — never a guess, never zero.

use std::collections::BTreeMap;
use std::fmt;
use std::path::Path;

use serde::{Deserialize, Serialize};

use super::{Transcript, Turn, Usage, turn_number};
use crate::util::input::{LoadError, LoadErrorKind};

/// The price of one model: US dollars per million input (prompt) and output (completion)
/// tokens.
///
/// ```
/// use agent_test::report::prices::Price;
/// let p = Price { input: 0.15, output: 0.60 };
/// assert_eq!(p.cost(1_000_000, 100_000), 0.21);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Price {
    /// US dollars per million input tokens.
    pub input: f64,
    /// US dollars per million output tokens.
    pub output: f64,
}

impl Price {
    /// The cost of `input` and `output` tokens, in US dollars.
    ///
    /// See the type's example.
    pub fn cost(&self, input: u64, output: u64) -> f64 {
        to_millionth_of_a_cent(
            (input as f64 * self.input + output as f64 * self.output) / 1_000_000.0,
        )
    }

    /// Why this price is not a price: negative, not a number, or infinite.
    fn problem(&self) -> Option<String> {
        let bad = |v: f64| !v.is_finite() || v < 0.0;
        (bad(self.input) || bad(self.output)).then(|| {
            format!(
                "input {} and output {} must be prices: finite numbers of dollars, not negative",
                self.input, self.output
            )
        })
    }
}

/// A turn's cost: dollars, or why it is not known.
///
/// ```
/// use agent_test::report::prices::Cost;
/// assert_eq!(Cost::Usd(0.0042).to_string(), "$0.0042");
/// assert_eq!(Cost::Unknown("no token usage".into()).to_string(), "cost unknown: no token usage");
/// ```
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(try_from = "CostFields", into = "CostFields")]
pub enum Cost {
    /// Worked out from the turn's tokens and its model's price, in US dollars.
    Usd(f64),
    /// Not known, and why: no usage, a usage without input and output apart, a model not in
    /// the price table.
    Unknown(String),
}

/// A cost's JSON: `{"usd": 0.0042}` or `{"unknown": "why"}` — read as a closed object, so that
/// an unknown key is named (an externally tagged enum would only say "expected a single key").
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct CostFields {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    usd: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    unknown: Option<String>,
}

impl TryFrom<CostFields> for Cost {
    type Error = String;

    fn try_from(f: CostFields) -> Result<Self, String> {
        match (f.usd, f.unknown) {
            (Some(usd), None) => Ok(Cost::Usd(usd)),
            (None, Some(why)) => Ok(Cost::Unknown(why)),
            _ => Err("a cost is either `usd` (dollars) or `unknown` (why), one of them".into()),
        }
    }
}

impl From<Cost> for CostFields {
    fn from(c: Cost) -> Self {
        match c {
            Cost::Usd(usd) => CostFields {
                usd: Some(usd),
                unknown: None,
            },
            Cost::Unknown(why) => CostFields {
                usd: None,
                unknown: Some(why),
            },
        }
    }
}

impl fmt::Display for Cost {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Cost::Usd(usd) => write!(f, "{}", usd_text(*usd)),
            Cost::Unknown(why) => write!(f, "cost unknown: {why}"),
        }
    }
}

/// Dollars rounded to a millionth of a cent: sums of float products would otherwise show
/// 0.21000000000000002 in reports and JSON.
fn to_millionth_of_a_cent(usd: f64) -> f64 {
    (usd * 1e8).round() / 1e8
}

/// Dollars as reports show them: every digit a cost has (costs are kept to a millionth of a
/// cent), at least two decimals — so a budget and a cost that differ never print alike.
///
/// ```
/// use agent_test::report::prices::usd_text;
/// assert_eq!(usd_text(0.0123), "$0.0123");
/// assert_eq!(usd_text(0.00102), "$0.00102");
/// assert_eq!(usd_text(0.0000042), "$0.0000042");
/// assert_eq!(usd_text(1.5), "$1.50");
/// assert_eq!(usd_text(0.0), "$0.00");
/// ```
pub fn usd_text(usd: f64) -> String {
    let text = format!("{usd:.8}");
    let text = text.trim_end_matches('0');
    match text.split_once('.') {
        Some((whole, fraction)) if fraction.len() < 2 => format!("${whole}.{fraction:0<2}"),
        _ => format!("${text}"),
    }
}

/// The built-in table's date: the list prices it holds were the providers' on that day.
pub const BUILTIN_AS_OF: &str = "2025-08-01";

/// The built-in table: (model, input, output) in US dollars per million tokens, the providers'
/// published list prices on [`BUILTIN_AS_OF`] (standard tier, no caching or batch discount;
/// Gemini 2.5 Pro at its ≤ 200k-token-prompt price).
const BUILTIN: &[(&str, f64, f64)] = &[
    ("gpt-4o", 2.50, 10.00),
    ("gpt-4o-mini", 0.15, 0.60),
    ("gpt-4.1", 2.00, 8.00),
    ("gpt-4.1-mini", 0.40, 1.60),
    ("gpt-4.1-nano", 0.10, 0.40),
    ("gpt-5", 1.25, 10.00),
    ("gpt-5-mini", 0.25, 2.00),
    ("gpt-5-nano", 0.05, 0.40),
    ("o3", 2.00, 8.00),
    ("o4-mini", 1.10, 4.40),
    ("claude-opus-4-1", 15.00, 75.00),
    ("claude-opus-4", 15.00, 75.00),
    ("claude-sonnet-4", 3.00, 15.00),
    ("claude-3-7-sonnet", 3.00, 15.00),
    ("claude-3-5-haiku", 0.80, 4.00),
    ("gemini-2.5-pro", 1.25, 10.00),
    ("gemini-2.5-flash", 0.30, 2.50),
    ("gemini-2.5-flash-lite", 0.10, 0.40),
];

/// A price table: each model's [`Price`], and which model prices a turn that names none.
///
/// Set it on a suite (`prices = Prices::from_file("prices.json");` in `agent_test!`, or
/// `Suite::prices`): every turn then gets its cost, reports show it per
/// turn, scenario and suite, `agent-test diff` compares it, and
/// [`cost()`](crate::check::cost) budgets it.
///
/// A turn's model is the one its reply names (a `ChatAgent`'s);
/// agents that do not name it (HTTP agents, most traces) are priced as
/// [`unnamed_as`](Prices::unnamed_as) says, or not at all. A model is found by its exact name,
/// else without a provider prefix (`openai:gpt-4o`, `openai/gpt-4o`) and a date or `-latest`
/// suffix (`gpt-4o-2024-08-06`, `claude-3-5-haiku-20241022`) — never by a looser match, so
/// `gpt-4o-mini` is never priced as `gpt-4o`.
///
/// ```
/// use agent_test::model::Usage;
/// use agent_test::report::prices::{Cost, Prices};
/// let prices = Prices::new().model("my-model", 1.0, 4.0).unnamed_as("my-model");
/// let usage = Usage::new(2_000, 500);
/// assert_eq!(prices.cost(Some("openai:my-model-2025-01-31"), Some(&usage)), Cost::Usd(0.004));
/// assert_eq!(prices.cost(None, Some(&usage)), Cost::Usd(0.004));
/// assert_eq!(
///     prices.cost(Some("other"), Some(&usage)),
///     Cost::Unknown("model `other` is not in the price table (prices for: `my-model`)".into())
/// );
/// ```
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Prices {
    /// The day the prices are from, when the table says (`"2026-11-01"`); reports show it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub as_of: Option<String>,
    /// Each model's price, by name.
    pub models: BTreeMap<String, Price>,
    /// The model whose price a turn gets when its reply names no model.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unnamed_as: Option<String>,
}

impl Prices {
    /// An empty table.
    ///
    /// See the type's example.
    pub fn new() -> Self {
        Prices::default()
    }

    /// The built-in table: list prices of common OpenAI, Anthropic and Google models on
    /// [`BUILTIN_AS_OF`], used only when asked for. Prices change: for money that matters,
    /// write your own table (or add to this one with [`Prices::model`]).
    ///
    /// ```
    /// use agent_test::model::Usage;
    /// use agent_test::report::prices::{Cost, Prices};
    /// let prices = Prices::builtin();
    /// assert_eq!(prices.as_of.as_deref(), Some("2025-08-01"));
    /// let usage = Usage::new(10_000, 1_000);
    /// assert_eq!(prices.cost(Some("gpt-4o-mini-2024-07-18"), Some(&usage)), Cost::Usd(0.0021));
    /// assert_eq!(prices.cost(Some("anthropic:claude-3-5-haiku-latest"), Some(&usage)), Cost::Usd(0.012));
    /// ```
    pub fn builtin() -> Self {
        let mut prices = Prices::new();
        for (model, input, output) in BUILTIN {
            prices = prices.model(*model, *input, *output);
        }
        prices.as_of = Some(BUILTIN_AS_OF.to_owned());
        prices
    }

    /// Adds (or replaces) a model's price, in US dollars per million input and output tokens.
    ///
    /// See the type's example.
    pub fn model(mut self, name: impl Into<String>, input: f64, output: f64) -> Self {
        self.models.insert(name.into(), Price { input, output });
        self
    }

    /// Prices turns whose reply names no model as `model` (an HTTP agent, a trace): the model
    /// the agent under test is known to use.
    ///
    /// See the type's example.
    pub fn unnamed_as(mut self, model: impl Into<String>) -> Self {
        self.unnamed_as = Some(model.into());
        self
    }

    /// Reads a table from a JSON file: `{"as_of": "2026-11-01", "models": {"gpt-4o-mini":
    /// {"input": 0.15, "output": 0.6}}, "unnamed_as": "gpt-4o-mini"}` (`as_of` and
    /// `unnamed_as` optional). Unknown fields, repeated keys and prices that are not
    /// non-negative numbers are errors naming the place.
    ///
    /// ```
    /// use agent_test::report::prices::Prices;
    /// let dir = std::env::temp_dir().join(format!("agent-test-prices-doc-{}", std::process::id()));
    /// std::fs::create_dir_all(&dir).unwrap();
    /// let file = dir.join("prices.json");
    /// std::fs::write(&file, r#"{"models": {"m": {"input": 1, "output": 2}}}"#).unwrap();
    /// assert_eq!(Prices::from_file(&file).unwrap(), Prices::new().model("m", 1.0, 2.0));
    /// std::fs::write(&file, r#"{"models": {"m": {"input": -1, "output": 2}}}"#).unwrap();
    /// let err = Prices::from_file(&file).unwrap_err();
    /// assert_eq!(err.kind, agent_test::load::LoadErrorKind::Invalid);
    /// assert_eq!(err.message,
    ///     "model `m`: input -1 and output 2 must be prices: finite numbers of dollars, not negative");
    /// ```
    pub fn from_file(path: impl AsRef<Path>) -> Result<Self, LoadError> {
        let path = path.as_ref();
        let prices: Prices = crate::util::input::load_json_file(path)?;
        match prices.problem() {
            Some(message) => Err(LoadError {
                kind: LoadErrorKind::Invalid,
                file: path.to_owned(),
                path: String::new(),
                message,
            }),
            None => Ok(prices),
        }
    }

    /// Why the table cannot price anything right: a price that is not one, an `unnamed_as`
    /// naming a model the table does not hold.
    ///
    /// ```
    /// use agent_test::report::prices::Prices;
    /// assert_eq!(Prices::new().unnamed_as("x").problem().unwrap(),
    ///            "unnamed_as names `x`, which is not in the table (prices for: none)");
    /// ```
    pub fn problem(&self) -> Option<String> {
        for (name, price) in &self.models {
            if let Some(p) = price.problem() {
                return Some(format!("model `{name}`: {p}"));
            }
        }
        let unnamed = self.unnamed_as.as_deref()?;
        self.find(unnamed).is_none().then(|| {
            format!(
                "unnamed_as names `{unnamed}`, which is not in the table (prices for: {})",
                self.listed()
            )
        })
    }

    /// The listed models, for messages: "`a`, `b`" or "none".
    fn listed(&self) -> String {
        if self.models.is_empty() {
            return "none".to_owned();
        }
        let names: Vec<String> = self.models.keys().map(|m| format!("`{m}`")).collect();
        names.join(", ")
    }

    /// The price of `model`: by its exact name, else without a provider prefix and a date or
    /// `-latest` suffix.
    fn find(&self, model: &str) -> Option<&Price> {
        if let Some(p) = self.models.get(model) {
            return Some(p);
        }
        let bare = model.rsplit([':', '/']).next().unwrap_or(model);
        self.models
            .get(bare)
            .or_else(|| self.models.get(without_version(bare)?))
    }

    /// A turn's cost: `model` is the model its reply names (`None`: not named), `usage` its
    /// token usage. See the type's example.
    pub fn cost(&self, model: Option<&str>, usage: Option<&Usage>) -> Cost {
        let Some(usage) = usage else {
            return Cost::Unknown("the turn reported no token usage".to_owned());
        };
        let (Some(input), Some(output)) = (usage.input_tokens, usage.output_tokens) else {
            return Cost::Unknown(format!(
                "the usage has no input and output token counts apart (total: {}); prices \
                 differ between them",
                usage
                    .total()
                    .map_or_else(|| "none".to_owned(), |n| n.to_string())
            ));
        };
        let Some(model) = model.or(self.unnamed_as.as_deref()) else {
            return Cost::Unknown(
                "the reply names no model: say which one the agent uses with \
                 `Prices::unnamed_as(\"model\")` (`\"unnamed_as\"` in a prices file)"
                    .to_owned(),
            );
        };
        match self.find(model) {
            // Finite prices times counts up to u64::MAX can still overflow: such a cost is not
            // a number a report can hold (JSON has no infinity), so it is unknown, not infinite.
            Some(price) => match price.cost(input, output) {
                usd if usd.is_finite() => Cost::Usd(usd),
                _ => Cost::Unknown(format!(
                    "the cost of {input} input and {output} output tokens of `{model}` is too \
                     large to be a number"
                )),
            },
            None => Cost::Unknown(format!(
                "model `{model}` is not in the price table (prices for: {})",
                self.listed()
            )),
        }
    }
}

/// What a price-table setting takes: a [`Prices`], or the result of
/// [`Prices::from_file`] (whose error becomes the setup error of every scenario).
///
/// ```
/// use agent_test::report::prices::{IntoPrices, Prices};
/// assert!(Prices::builtin().into_prices().is_ok());
/// assert!(Prices::from_file("no-such-prices.json").into_prices().is_err());
/// # use agent_test::report::prices::PricesError;
/// let err = Prices::new().model("m", -1.0, 0.0).into_prices().unwrap_err();
/// assert!(matches!(err, PricesError::Invalid(_)));
/// assert_eq!(err.to_string(),
///            "prices: model `m`: input -1 and output 0 must be prices: finite numbers of dollars, not negative");
/// ```
pub trait IntoPrices {
    /// The table, or why there is none.
    fn into_prices(self) -> Result<Prices, PricesError>;
}

/// Why there is no price table: its file could not be loaded, or a price in it is not one.
///
/// ```
/// use agent_test::load::LoadErrorKind;
/// use agent_test::report::prices::{IntoPrices, Prices, PricesError};
/// match Prices::from_file("no-such-prices.json").into_prices() {
///     Err(PricesError::Load(e)) => assert_eq!(e.kind, LoadErrorKind::NotFound),
///     other => panic!("{other:?}"),
/// }
/// ```
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum PricesError {
    /// The file could not be read or is not a price table (see the error's kind).
    Load(LoadError),
    /// A price that is no price (negative, not finite) or a name that names no model.
    Invalid(String),
}

impl std::fmt::Display for PricesError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PricesError::Load(e) => write!(f, "prices: {e}"),
            PricesError::Invalid(why) => write!(f, "prices: {why}"),
        }
    }
}

impl std::error::Error for PricesError {}

impl IntoPrices for Prices {
    fn into_prices(self) -> Result<Prices, PricesError> {
        match self.problem() {
            Some(p) => Err(PricesError::Invalid(p)),
            None => Ok(self),
        }
    }
}

impl IntoPrices for Result<Prices, LoadError> {
    fn into_prices(self) -> Result<Prices, PricesError> {
        self.map_err(PricesError::Load)
            .and_then(IntoPrices::into_prices)
    }
}

impl Prices {
    /// Prices every turn of `transcript` (its [`Turn::cost`]), with the model its reply names.
    ///
    /// ```
    /// use agent_test::model::{Reply, Transcript, Turn, Usage};
    /// use agent_test::report::prices::{Cost, Prices};
    /// let mut t = Transcript::new(vec![Turn::new(0, "hi", Reply::text("Hello").usage(Usage::new(1000, 100)), 5)]);
    /// Prices::new().model("m", 1.0, 10.0).unnamed_as("m").apply(&mut t);
    /// assert_eq!(t.turns[0].cost, Some(Cost::Usd(0.002)));
    /// ```
    pub fn apply(&self, transcript: &mut Transcript) {
        for turn in &mut transcript.turns {
            let usage = turn.reply.token_usage();
            turn.cost = Some(self.cost(turn.reply.chat_model.as_deref(), usage.as_ref()));
        }
    }
}

/// The cost of `turns` together: `None` when none was priced (no price table), the first
/// unknown one's reason when any is unknown (a sum missing a turn would be too low), else the
/// sum.
///
/// ```
/// use agent_test::model::{Reply, Turn};
/// use agent_test::report::prices::{Cost, total_cost};
/// let mut a = Turn::new(0, "a", Reply::text(""), 1);
/// let mut b = Turn::new(1, "b", Reply::text(""), 1);
/// assert_eq!(total_cost(&[a.clone()]), None);
/// a.cost = Some(Cost::Usd(0.25));
/// b.cost = Some(Cost::Usd(0.5));
/// assert_eq!(total_cost(&[a.clone(), b.clone()]), Some(Cost::Usd(0.75)));
/// b.cost = Some(Cost::Unknown("no usage".into()));
/// assert_eq!(total_cost(&[a, b]), Some(Cost::Unknown("turn 2: no usage".into())));
/// ```
pub fn total_cost(turns: &[Turn]) -> Option<Cost> {
    if turns.iter().all(|t| t.cost.is_none()) {
        return None;
    }
    let mut sum = 0.0;
    for turn in turns {
        let n = turn_number(turn.index);
        match &turn.cost {
            None => return Some(Cost::Unknown(format!("turn {n} was not priced"))),
            Some(Cost::Unknown(why)) => return Some(Cost::Unknown(format!("turn {n}: {why}"))),
            Some(Cost::Usd(usd)) => sum += usd,
        }
    }
    Some(if sum.is_finite() {
        Cost::Usd(to_millionth_of_a_cent(sum))
    } else {
        Cost::Unknown("the turns' costs add up to more than a number can hold".to_owned())
    })
}

/// `gpt-4o` for `gpt-4o-2024-08-06`, `claude-3-5-haiku` for `claude-3-5-haiku-20241022` and
/// `claude-3-5-haiku-latest`; `None` when the name has no such suffix.
fn without_version(name: &str) -> Option<&str> {
    if let Some(base) = name.strip_suffix("-latest") {
        return Some(base);
    }
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    // -YYYYMMDD
    if let Some((base, date)) = name.rsplit_once('-')
        && date.len() == 8
        && digits(date)
    {
        return Some(base);
    }
    // -YYYY-MM-DD
    let mut parts = name.rsplitn(4, '-');
    let (d, m, y, base) = (parts.next()?, parts.next()?, parts.next()?, parts.next()?);
    (y.len() == 4 && m.len() == 2 && d.len() == 2 && digits(y) && digits(m) && digits(d))
        .then_some(base)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn models_are_found_by_exact_name_or_without_provider_and_version_only() {
        let p = Prices::new()
            .model("gpt-4o", 2.5, 10.0)
            .model("claude-3-5-haiku", 0.8, 4.0);
        let u = Usage::new(1_000_000, 0);
        for name in [
            "gpt-4o",
            "openai:gpt-4o",
            "openai/gpt-4o",
            "gpt-4o-2024-08-06",
            "azure:gpt-4o-2024-08-06",
        ] {
            assert_eq!(p.cost(Some(name), Some(&u)), Cost::Usd(2.5), "{name}");
        }
        assert_eq!(
            p.cost(Some("claude-3-5-haiku-20241022"), Some(&u)),
            Cost::Usd(0.8)
        );
        assert_eq!(
            p.cost(Some("claude-3-5-haiku-latest"), Some(&u)),
            Cost::Usd(0.8)
        );
        // Never a looser match: a different model is not priced as its neighbour.
        for name in ["gpt-4o-mini", "gpt-4", "gpt-4o-2024", "claude-3-5-haiku-v2"] {
            assert!(
                matches!(p.cost(Some(name), Some(&u)), Cost::Unknown(_)),
                "{name}"
            );
        }
    }

    #[test]
    fn a_cost_is_unknown_without_usage_counts_or_a_model() {
        let p = Prices::new().model("m", 1.0, 1.0);
        assert_eq!(
            p.cost(Some("m"), None),
            Cost::Unknown("the turn reported no token usage".into())
        );
        let total_only = Usage {
            total_tokens: Some(500),
            ..Usage::default()
        };
        assert_eq!(
            p.cost(Some("m"), Some(&total_only)),
            Cost::Unknown(
                "the usage has no input and output token counts apart (total: 500); prices \
                 differ between them"
                    .into()
            )
        );
        assert!(matches!(
            p.cost(None, Some(&Usage::new(1, 1))),
            Cost::Unknown(why) if why.starts_with("the reply names no model")
        ));
        // Zero tokens cost nothing: that is a measurement, not an absence.
        assert_eq!(p.cost(Some("m"), Some(&Usage::new(0, 0))), Cost::Usd(0.0));
    }

    #[test]
    fn the_builtin_table_is_valid_and_dated() {
        let b = Prices::builtin();
        assert_eq!(b.problem(), None);
        assert_eq!(b.models.len(), BUILTIN.len(), "a model listed twice");
        assert_eq!(
            b.cost(Some("gpt-4o"), Some(&Usage::new(1_000, 1_000))),
            Cost::Usd(0.0125)
        );
    }

    #[test]
    fn impossible_prices_are_problems() {
        for bad in [-1.0, f64::NAN, f64::INFINITY] {
            assert!(
                Prices::new().model("m", bad, 1.0).problem().is_some(),
                "{bad}"
            );
        }
        assert_eq!(
            Prices::new()
                .model("m", 1.0, 1.0)
                .unnamed_as("n")
                .problem()
                .unwrap(),
            "unnamed_as names `n`, which is not in the table (prices for: `m`)"
        );
        assert_eq!(
            Prices::new()
                .model("m", 1.0, 1.0)
                .unnamed_as("openai:m")
                .problem(),
            None
        );
    }

    #[test]
    fn a_cost_reads_back_and_a_garbled_one_is_refused() {
        use serde_json::json;
        for c in [Cost::Usd(0.0042), Cost::Unknown("no usage".into())] {
            let v = serde_json::to_value(&c).unwrap();
            assert_eq!(serde_json::from_value::<Cost>(v).unwrap(), c);
        }
        assert_eq!(
            serde_json::to_value(Cost::Usd(0.5)).unwrap(),
            json!({"usd": 0.5})
        );
        for garbled in [json!({}), json!({"usd": 1, "unknown": "x"})] {
            let e = serde_json::from_value::<Cost>(garbled)
                .unwrap_err()
                .to_string();
            assert!(e.contains("either `usd`"), "{e}");
        }
        let e = serde_json::from_value::<Cost>(json!({"eur": 1}))
            .unwrap_err()
            .to_string();
        assert!(e.contains("unknown field `eur`"), "{e}");
    }

    #[test]
    fn a_cost_too_large_for_a_number_is_unknown_not_infinite() {
        let p = Prices::new().model("m", 1e300, 1e300);
        assert_eq!(p.problem(), None);
        let cost = p.cost(Some("m"), Some(&Usage::new(u64::MAX, u64::MAX)));
        assert!(
            matches!(&cost, Cost::Unknown(why) if why.ends_with("is too large to be a number")),
            "{cost:?}"
        );
        let mut turns = vec![
            Turn::new(0, "a", crate::model::Reply::text(""), 1),
            Turn::new(1, "b", crate::model::Reply::text(""), 1),
        ];
        for t in &mut turns {
            t.cost = Some(Cost::Usd(f64::MAX));
        }
        assert!(matches!(total_cost(&turns), Some(Cost::Unknown(_))));
    }

    #[test]
    fn costs_are_exact_to_a_millionth_of_a_cent() {
        let p = Price {
            input: 0.15,
            output: 0.6,
        };
        assert_eq!(p.cost(1_000_000, 100_000), 0.21);
        assert!(p.cost(u64::MAX, u64::MAX).is_finite());
    }
}
