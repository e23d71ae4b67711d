//! The JSON Schema check ([`SchemaCheck`]).

use agent_test_vocabulary::{Arg, Kind, Word};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::Value;

use super::json_source::{JsonSource, JsonSourceOptions};
use super::{Outcome, Violation};
use crate::evaluate::context::EvalContext;
use crate::compare::path::FieldPath;
use crate::compare::schema::{Schema, SchemaError};
use crate::model::Part;

/// A check that the JSON response (or a field of it) is valid against a JSON Schema (Mibo's
/// `json_schema`). Build it with [`schema`]. Needs the `schema` feature (on by default); a
/// schema literal in `agent_test!` is checked against the meta-schema at compile time.
///
/// ```
/// use agent_test::prelude::*;
/// use agent_test::evaluate;
/// use agent_test::check::Status;
/// use agent_test::model::{Reply, Transcript, Turn};
///
/// let reply = Reply::text("").body(json!({"data": [{"name": "Sony WH", "price": "89"}]}));
/// let t = Transcript::new(vec![Turn::new(0, "q", reply, 1)]);
/// let items = json!({"type": "array", "items": {"type": "object", "required": ["name", "price"],
///     "properties": {"name": {"type": "string"}, "price": {"type": "number"}}}});
/// let v = evaluate(&t, &[schema(items).at("data").into_expectation()]);
/// assert_eq!(v[0].status, Status::Fail);
/// assert_eq!(v[0].details.violations[0].message, r#"/0/price: "89" is not of type "number""#);
/// ```
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SchemaCheck {
    schema: Schema,
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        serialize_with = "ser_opt_path",
        deserialize_with = "de_opt_path"
    )]
    at: Option<FieldPath>,
    #[serde(default)]
    source: JsonSource,
}

fn ser_opt_path<S: Serializer>(p: &Option<FieldPath>, s: S) -> Result<S::Ok, S::Error> {
    match p {
        Some(p) => s.serialize_str(p.as_str()),
        None => s.serialize_none(),
    }
}

fn de_opt_path<'de, D: Deserializer<'de>>(d: D) -> Result<Option<FieldPath>, D::Error> {
    Option::<String>::deserialize(d).map(|o| o.map(FieldPath::new))
}

/// The JSON response must be valid against `schema`; [`SchemaCheck::at`] validates a field
/// instead.
///
/// See [`SchemaCheck`].
pub fn schema(schema: Value) -> SchemaCheck {
    SchemaCheck {
        schema: Schema::new(schema),
        at: None,
        source: JsonSource::Auto,
    }
}

impl SchemaCheck {
    /// Validate the value at a dot path instead of the whole response.
    ///
    /// See [`SchemaCheck`].
    pub fn at(mut self, path: impl Into<String>) -> Self {
        self.at = Some(FieldPath::new(path));
        self
    }

    /// One line describing the check.
    ///
    /// ```
    /// # use agent_test::prelude::*;
    /// assert_eq!(schema(json!({"type": "array"})).at("data").describe(),
    ///            r#"data of the response is valid against {"type":"array"}"#);
    /// ```
    pub fn describe(&self) -> String {
        let what = match &self.at {
            Some(p) => format!("{} of {}", p.as_str(), self.source.describe()),
            None => self.source.describe(),
        };
        format!(
            "{what} is valid against {}",
            crate::util::text::shown(self.schema.schema())
        )
    }

    pub(crate) fn evaluate(&self, cx: &EvalContext<'_>) -> Outcome {
        if crate::compare::schema::accepts_everything(self.schema.schema()) {
            return Outcome::error(format!(
                "compared nothing: the schema {} accepts every value",
                crate::util::text::shown(self.schema.schema())
            ));
        }
        if let Some(e) = self.source.failed(cx) {
            return Outcome::error(e);
        }
        let where_ = self
            .at
            .as_ref()
            .map_or_else(|| "the response".to_owned(), |p| p.as_str().to_owned());
        let json = match self.source.read(cx) {
            Ok(v) => v,
            Err(e) => return Outcome::fail(format!("{where_}: invalid JSON: {e}")),
        };
        let value = match &self.at {
            None => json,
            Some(p) => match p.get(json) {
                Some(v) => v,
                None => return Outcome::fail(format!("{where_}: missing")).actual(json.clone()),
            },
        };
        match self.schema.validate(value) {
            Err(SchemaError::Unusable(e)) => Outcome::error(e),
            Ok(()) => Outcome::passed(),
            Err(SchemaError::Invalid(problems)) => Outcome::fail(format!(
                "{where_} is not valid against the schema ({} problem{})",
                problems.len(),
                if problems.len() == 1 { "" } else { "s" }
            ))
            .expected(self.schema.schema().clone())
            .actual(value.clone())
            .violations(
                problems
                    .into_iter()
                    .map(|p| Violation::new("schema_violation", p)),
            ),
        }
    }
}

impl JsonSourceOptions for SchemaCheck {
    fn with_source(mut self, source: JsonSource) -> Self {
        self.source = source;
        self
    }
}

impl super::CheckRules for SchemaCheck {
    const KIND: Kind = Kind::new(
        "schema",
        "the JSON answered (or a part of it) against a JSON Schema",
    )
    .words(&[
        Word::new("schema", Arg::Schema),
    ]);

    #[cfg(any(test, feature = "samples"))]
    fn samples() -> Vec<super::Expectation> {
        use crate::check::*;
        use serde_json::json;
        vec![schema(json!({"type": "object"})).at("a").into_expectation()]
    }

    fn reads(&self) -> &'static [Part] {
        self.source.reads()
    }

    fn literal_problem(&self) -> Option<String> {
        self.schema.problem()
    }
}
