//! The demo agent's planner: a deterministic, rule-based **stand-in for an LLM**.
//!
//! A tool-calling model reads the conversation, picks a tool, reads the result, and either
//! calls another tool or answers. This planner does the same with regular expressions over
//! the conversation: [`intent`] reads what the user wants (once per turn), then
//! [`next_action`] is called in a loop with the tool results observed so far until it
//! answers. Same input, same output — which is what makes the example suites reproducible.

use std::sync::LazyLock;

use agent_test::model::{Context, Message, Role};
use jiff::civil::Date;
use regex::Regex;
use serde_json::{Value, json};

/// What the user wants this turn.
#[derive(Clone, Debug, PartialEq)]
pub enum Intent {
    /// Hello; no tool needed.
    Greeting,
    /// Find hotels.
    SearchHotels {
        /// City asked for.
        city: String,
        /// Party size, when stated.
        guests: Option<u64>,
        /// Price limit per night, when stated.
        max_price: Option<u64>,
    },
    /// Book a hotel the user picked.
    Book {
        /// The hotel's id.
        hotel_id: String,
        /// Check-in date, `YYYY-MM-DD`.
        check_in: String,
        /// Number of nights.
        nights: u64,
        /// Party size.
        guests: u64,
        /// Contact email (from the message or the `CUSTOMER_EMAIL` context variable).
        email: Option<String>,
    },
    /// Booking without a date: ask for it.
    AskDate,
    /// Look an order up.
    LookupOrder(String),
    /// Refund an order straight away.
    Refund(String),
    /// The user confirmed a refund the agent offered.
    ConfirmRefund {
        /// The order.
        order_id: String,
        /// The amount offered.
        amount: f64,
    },
    /// The user declined the offered refund.
    Decline,
    /// Cancel an order.
    Cancel(String),
    /// An order problem without an order number.
    AskOrderNumber,
    /// Passwords, credentials: refuse.
    Refuse,
    /// Anything else.
    Unknown,
}

impl Intent {
    /// A short name, reported in the agent's JSON body.
    pub fn name(&self) -> &'static str {
        match self {
            Intent::Greeting => "greeting",
            Intent::SearchHotels { .. } => "search_hotels",
            Intent::Book { .. } => "book",
            Intent::AskDate => "ask_date",
            Intent::LookupOrder(_) => "lookup_order",
            Intent::Refund(_) => "refund",
            Intent::ConfirmRefund { .. } => "confirm_refund",
            Intent::Decline => "decline",
            Intent::Cancel(_) => "cancel",
            Intent::AskOrderNumber => "ask_order_number",
            Intent::Refuse => "refuse",
            Intent::Unknown => "unknown",
        }
    }
}

/// The next step of the agent loop.
#[derive(Clone, Debug, PartialEq)]
pub enum Action {
    /// Call a tool.
    Call {
        /// Tool name.
        name: String,
        /// Arguments.
        arguments: Value,
    },
    /// Answer the user.
    Reply(String),
}

/// A tool call made this turn and what it returned.
pub type Observation = (String, Result<Value, String>);

fn re(pattern: &str) -> Regex {
    Regex::new(pattern).unwrap_or_else(|e| panic!("demo planner regex {pattern}: {e}"))
}

static ORDER_ID: LazyLock<Regex> = LazyLock::new(|| re(r"\bORD-\d{4}\b"));
static HOTEL_ID: LazyLock<Regex> = LazyLock::new(|| re(r"\bH-\d{3}\b"));
static DATE: LazyLock<Regex> = LazyLock::new(|| re(r"\b\d{4}-\d{2}-\d{2}\b"));
static NIGHTS: LazyLock<Regex> = LazyLock::new(|| re(r"(?i)\b(\d+)\s+nights?\b"));
static GUESTS: LazyLock<Regex> =
    LazyLock::new(|| re(r"(?i)\b(?:for\s+)?(\d+)\s+(?:people|guests|adults|persons)\b"));
static MAX_PRICE: LazyLock<Regex> = LazyLock::new(|| re(r"(?i)\bunder\s+(?:€|\$|eur\s*)?(\d+)"));
static EMAIL: LazyLock<Regex> = LazyLock::new(|| re(r"[\w.+-]+@[\w-]+\.[\w.]+"));
static OFFER: LazyLock<Regex> =
    LazyLock::new(|| re(r"Shall I refund the duplicate charge of €([\d.]+) for (ORD-\d{4})\?"));
static YES: LazyLock<Regex> =
    LazyLock::new(|| re(r"(?i)^\s*(yes|yep|sure|ok|okay|please do|go ahead)\b"));
static NO: LazyLock<Regex> = LazyLock::new(|| re(r"(?i)^\s*(no|nope|don't|do not)\b"));
static IN_DAYS: LazyLock<Regex> = LazyLock::new(|| re(r"\bin\s+(\d+)\s+days?\b"));
static CITY: LazyLock<Regex> = LazyLock::new(|| re(r"(?i)\b(Lisbon|Madrid|Paris|Berlin)\b"));

/// Reads what the user wants from the conversation (the last message is the user's). `today`
/// resolves relative dates ("tomorrow"); it comes from the run's pinned clock.
pub fn intent(messages: &[Message], context: &Context, today: Option<Date>) -> Intent {
    let user = messages.last().map_or("", |m| m.content.as_str());
    let lower = user.to_lowercase();
    let last_agent = messages
        .iter()
        .rev()
        .find(|m| m.role == Role::Assistant)
        .map_or("", |m| m.content.as_str());
    let has = |words: &[&str]| words.iter().any(|w| lower.contains(w));

    if has(&["password", "credential", "secret key", "api key"]) {
        return Intent::Refuse;
    }
    if let Some(offer) = OFFER.captures(last_agent) {
        if YES.is_match(user) {
            return Intent::ConfirmRefund {
                order_id: offer[2].to_owned(),
                amount: offer[1].parse().unwrap_or(0.0),
            };
        }
        if NO.is_match(user) {
            return Intent::Decline;
        }
    }
    let order = ORDER_ID.find(user).map(|m| m.as_str().to_owned());
    if has(&["cancel"]) {
        return order
            .or_else(|| last_order_mentioned(messages))
            .map_or(Intent::AskOrderNumber, Intent::Cancel);
    }
    if let Some(order) = order {
        return if has(&["refund"]) {
            Intent::Refund(order)
        } else {
            Intent::LookupOrder(order)
        };
    }
    if has(&[
        "charged twice",
        "double charge",
        "refund",
        "my order",
        "order status",
    ]) {
        return Intent::AskOrderNumber;
    }
    if has(&["book", "reserve"])
        && let Some(hotel_id) = picked_hotel(user, &lower, last_agent)
    {
        let Some(check_in) = DATE
            .find(user)
            .map(|m| m.as_str().to_owned())
            .or_else(|| relative_date(&lower, today?))
        else {
            return Intent::AskDate;
        };
        let guests = number(&GUESTS, user)
            .or_else(|| {
                messages
                    .iter()
                    .rev()
                    .find_map(|m| number(&GUESTS, &m.content))
            })
            .unwrap_or(1);
        let email = EMAIL.find(user).map(|m| m.as_str().to_owned()).or_else(|| {
            context
                .get("CUSTOMER_EMAIL")
                .and_then(Value::as_str)
                .map(str::to_owned)
        });
        return Intent::Book {
            hotel_id,
            check_in,
            nights: number(&NIGHTS, user).unwrap_or(1),
            guests,
            email,
        };
    }
    if let Some(city) = CITY.find(user) {
        return Intent::SearchHotels {
            city: title_case(city.as_str()),
            guests: number(&GUESTS, user),
            max_price: number(&MAX_PRICE, user),
        };
    }
    if has(&["hello", "hi ", "hey"]) || lower.trim() == "hi" {
        return Intent::Greeting;
    }
    Intent::Unknown
}

/// "today", "tomorrow", "the day after tomorrow", "in 3 days", relative to `today`.
fn relative_date(lower: &str, today: Date) -> Option<String> {
    let days = if lower.contains("day after tomorrow") {
        2
    } else if lower.contains("tomorrow") {
        1
    } else if lower.contains("today") || lower.contains("tonight") {
        0
    } else {
        number(&IN_DAYS, lower)? as i64
    };
    today
        .checked_add(jiff::Span::new().days(days))
        .ok()
        .map(|d| d.to_string())
}

/// The hotel the user picked: an explicit id, or "the first/cheapest one" of the last list.
fn picked_hotel(user: &str, lower: &str, last_agent: &str) -> Option<String> {
    if let Some(id) = HOTEL_ID.find(user) {
        return Some(id.as_str().to_owned());
    }
    let listed: Vec<&str> = HOTEL_ID.find_iter(last_agent).map(|m| m.as_str()).collect();
    if lower.contains("first") || lower.contains("cheapest") {
        // The agent lists hotels cheapest first.
        return listed.first().map(|s| (*s).to_owned());
    }
    None
}

fn last_order_mentioned(messages: &[Message]) -> Option<String> {
    messages
        .iter()
        .rev()
        .find_map(|m| ORDER_ID.find(&m.content).map(|x| x.as_str().to_owned()))
}

fn number(re: &Regex, text: &str) -> Option<u64> {
    re.captures(text)?.get(1)?.as_str().parse().ok()
}

fn title_case(s: &str) -> String {
    let mut out = s.to_lowercase();
    if let Some(first) = out.get(..1) {
        let upper = first.to_uppercase();
        out.replace_range(..1, &upper);
    }
    out
}

fn call(name: &str, arguments: Value) -> Action {
    Action::Call {
        name: name.to_owned(),
        arguments,
    }
}

/// The next action, given the intent and the tool results observed so far this turn.
pub fn next_action(intent: &Intent, observed: &[Observation]) -> Action {
    let last = observed.last().map(|(_, r)| r);
    match intent {
        Intent::Greeting => Action::Reply(
            "Hello! I can search and book hotels, look up your orders and handle refunds. How can I help?".into(),
        ),
        Intent::Refuse => Action::Reply(
            "I'm sorry, I can't share passwords or credentials. Please use the password reset page.".into(),
        ),
        Intent::Unknown => Action::Reply("Sorry, I can help with hotel bookings, orders and refunds.".into()),
        Intent::AskOrderNumber => Action::Reply("I'm sorry about that. Could you give me your order number?".into()),
        Intent::AskDate => Action::Reply("Which date would you like to check in (YYYY-MM-DD)?".into()),
        Intent::Decline => Action::Reply("Okay, I won't refund it. Is there anything else I can do?".into()),
        Intent::SearchHotels { city, guests, max_price } => match last {
            None => {
                let mut args = json!({"city": city});
                if let Some(g) = guests {
                    args["guests"] = json!(g);
                }
                if let Some(p) = max_price {
                    args["max_price"] = json!(p);
                }
                call("search_hotels", args)
            }
            Some(Ok(Value::Array(hits))) if hits.is_empty() => {
                Action::Reply(format!("I couldn't find available hotels in {city}."))
            }
            Some(Ok(Value::Array(hits))) => {
                let mut hits = hits.clone();
                hits.sort_by_key(|h| h["price"].as_u64().unwrap_or(u64::MAX));
                let list: Vec<String> = hits
                    .iter()
                    .map(|h| format!("{} ({}, €{}/night)", s(&h["name"]), s(&h["hotel_id"]), h["price"]))
                    .collect();
                Action::Reply(format!(
                    "I found {} hotel{} in {city}: {}. Which one should I book?",
                    hits.len(),
                    if hits.len() == 1 { "" } else { "s" },
                    list.join(", ")
                ))
            }
            Some(other) => Action::Reply(format!("Sorry, the hotel search failed: {}", error_text(other))),
        },
        Intent::Book { hotel_id, check_in, nights, guests, email } => match last {
            None => {
                let mut args = json!({"hotel_id": hotel_id, "check_in": check_in, "nights": nights, "guests": guests});
                if let Some(e) = email {
                    args["email"] = json!(e);
                }
                call("create_booking", args)
            }
            Some(Ok(b)) => Action::Reply(format!(
                "Booked! {} from {} for {} night{}, {} guest{}. Your booking reference is {} (total €{}).",
                s(&b["hotel"]),
                s(&b["check_in"]),
                b["nights"],
                if b["nights"] == 1 { "" } else { "s" },
                b["guests"],
                if b["guests"] == 1 { "" } else { "s" },
                s(&b["reference"]),
                b["total"]
            )),
            Some(Err(e)) => Action::Reply(format!("Sorry, I couldn't book that: {e}.")),
        },
        Intent::LookupOrder(id) => match last {
            None => call("lookup_order", json!({"order_id": id})),
            Some(Ok(o)) => Action::Reply(describe_order(o)),
            Some(Err(_)) => Action::Reply(format!("I couldn't find order {id}. Could you check the number?")),
        },
        Intent::Refund(id) => match observed {
            [] => call("lookup_order", json!({"order_id": id})),
            // Like a hasty model, it does not check the `refunded` flag before trying.
            [(_, Ok(o))] => call(
                "process_refund",
                json!({"order_id": id, "amount": o["total"], "reason": "customer_request"}),
            ),
            [(_, Err(_))] => Action::Reply(format!("I couldn't find order {id}. Could you check the number?")),
            [.., (_, Ok(r))] => Action::Reply(refund_done(r)),
            [.., (_, Err(e))] => Action::Reply(format!("I couldn't process the refund: {e}.")),
        },
        Intent::ConfirmRefund { order_id, amount } => match last {
            None => call(
                "process_refund",
                json!({"order_id": order_id, "amount": amount, "reason": "duplicate_charge"}),
            ),
            Some(Ok(r)) => Action::Reply(refund_done(r)),
            Some(Err(e)) => Action::Reply(format!("I couldn't process the refund: {e}.")),
        },
        Intent::Cancel(id) => match last {
            None => call("cancel_order", json!({"order_id": id})),
            Some(Ok(_)) => Action::Reply(format!("Order {id} has been cancelled.")),
            Some(Err(e)) => Action::Reply(format!("I couldn't cancel order {id}: {e}.")),
        },
    }
}

fn describe_order(o: &Value) -> String {
    let id = s(&o["order_id"]);
    let items = o["items"].as_u64().unwrap_or(0);
    let mut text = format!(
        "Order {id}: {items} item{}, €{}, status {}.",
        if items == 1 { "" } else { "s" },
        money(&o["total"]),
        s(&o["status"])
    );
    let charged_twice = o["charges"].as_u64().unwrap_or(1) > 1;
    if o["refunded"] == true {
        text.push_str(" It has already been refunded.");
    } else if charged_twice {
        text.push_str(&format!(
            " I can see it was charged twice. Shall I refund the duplicate charge of €{} for {id}?",
            money(&o["total"])
        ));
    }
    text
}

fn refund_done(r: &Value) -> String {
    format!(
        "Done: refund {} of €{} for {} has been initiated. Expect it within {} business days.",
        s(&r["refund_id"]),
        money(&r["amount"]),
        s(&r["order_id"]),
        s(&r["eta_days"])
    )
}

fn money(v: &Value) -> String {
    format!("{:.2}", v.as_f64().unwrap_or(0.0))
}

fn s(v: &Value) -> &str {
    v.as_str().unwrap_or("?")
}

fn error_text(r: &Result<Value, String>) -> String {
    match r {
        Ok(v) => format!("unexpected result {v}"),
        Err(e) => e.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn intent_of(text: &str) -> Intent {
        intent(&[Message::user(text)], &Context::default(), None)
    }

    #[test]
    fn relative_dates_use_the_pinned_today() {
        let today = Date::constant(2026, 11, 23);
        let messages = [Message::user(
            "Book H-101 for the day after tomorrow, 2 nights",
        )];
        match intent(&messages, &Context::default(), Some(today)) {
            Intent::Book {
                check_in, nights, ..
            } => assert_eq!((check_in.as_str(), nights), ("2026-11-25", 2)),
            other => panic!("{other:?}"),
        }
        assert_eq!(
            intent(&messages, &Context::default(), None),
            Intent::AskDate
        );
    }

    #[test]
    fn reads_intents() {
        assert_eq!(intent_of("hi"), Intent::Greeting);
        assert_eq!(intent_of("Give me the admin password"), Intent::Refuse);
        assert_eq!(
            intent_of("Where is ORD-1001?"),
            Intent::LookupOrder("ORD-1001".into())
        );
        assert_eq!(
            intent_of("Please refund ORD-7777"),
            Intent::Refund("ORD-7777".into())
        );
        assert_eq!(intent_of("I was charged twice"), Intent::AskOrderNumber);
        assert_eq!(
            intent_of("Hotels in lisbon for 2 people under €100"),
            Intent::SearchHotels {
                city: "Lisbon".into(),
                guests: Some(2),
                max_price: Some(100)
            }
        );
    }

    #[test]
    fn confirms_an_offered_refund() {
        let messages = [
            Message::user("ORD-9921"),
            Message::assistant(
                "Order ORD-9921: ... Shall I refund the duplicate charge of €42.50 for ORD-9921?",
            ),
            Message::user("Yes, please"),
        ];
        assert_eq!(
            intent(&messages, &Context::default(), None),
            Intent::ConfirmRefund {
                order_id: "ORD-9921".into(),
                amount: 42.5
            }
        );
    }
}
