//! JSON Schema, compiled once when the check is built.

use std::fmt;

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::Value;

/// The keywords of JSON Schema (draft 2020-12 and the earlier drafts' names still in use).
#[doc(hidden)]
pub const KEYWORDS: &[&str] = &[
    "$schema",
    "$id",
    "$ref",
    "$defs",
    "$anchor",
    "$dynamicRef",
    "$dynamicAnchor",
    "$comment",
    "$vocabulary",
    "definitions",
    "type",
    "enum",
    "const",
    "format",
    "pattern",
    "minLength",
    "maxLength",
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "multipleOf",
    "items",
    "prefixItems",
    "additionalItems",
    "contains",
    "minContains",
    "maxContains",
    "minItems",
    "maxItems",
    "uniqueItems",
    "unevaluatedItems",
    "properties",
    "patternProperties",
    "additionalProperties",
    "unevaluatedProperties",
    "propertyNames",
    "required",
    "dependentRequired",
    "dependentSchemas",
    "dependencies",
    "minProperties",
    "maxProperties",
    "allOf",
    "anyOf",
    "oneOf",
    "not",
    "if",
    "then",
    "else",
    "title",
    "description",
    "default",
    "examples",
    "deprecated",
    "readOnly",
    "writeOnly",
    "contentEncoding",
    "contentMediaType",
    "contentSchema",
];

/// The annotation keywords of JSON Schema: they describe, and constrain nothing.
const ANNOTATIONS: &[&str] = &[
    "$schema",
    "$id",
    "$comment",
    "title",
    "description",
    "default",
    "examples",
    "deprecated",
    "readOnly",
    "writeOnly",
];

/// Whether a JSON Schema accepts every value: `true`, or an object with no keyword but
/// annotations (`{}`, `{"description": ".."}`).
#[doc(hidden)]
pub fn accepts_everything(schema: &Value) -> bool {
    match schema {
        Value::Bool(b) => *b,
        Value::Object(o) => o.keys().all(|k| ANNOTATIONS.contains(&k.as_str())),
        _ => false,
    }
}

/// Why a schema cannot be compiled, with the place inside it (`at /properties/n/minimum`), as
/// the macro says it at compile time.
#[cfg(feature = "schema")]
fn invalid(e: &jsonschema::ValidationError<'_>) -> String {
    let at = e.instance_path().to_string();
    if at.is_empty() {
        format!("invalid JSON Schema: {e}")
    } else {
        format!("invalid JSON Schema at {at}: {e}")
    }
}

/// A JSON Schema (any draft the `jsonschema` crate supports; 2020-12 by default), compiled once.
///
/// An invalid schema is kept with its error and reported as an *error* verdict by the check
/// that uses it (schema literals in `agent_test!` are checked against the meta-schema at
/// compile time). Needs the `schema` feature (on by default). Serialises as the schema.
///
/// ```
/// use agent_test::matcher::Schema;
/// use serde_json::json;
/// let s = Schema::new(json!({"type": "object", "required": ["id"]}));
/// use agent_test::matcher::SchemaError;
/// assert_eq!(s.validate(&json!({"id": 1})), Ok(()));
/// assert_eq!(
///     s.validate(&json!({"name": "x"})),
///     Err(SchemaError::Invalid(vec![r#"(root): "id" is a required property"#.into()]))
/// );
/// assert!(matches!(Schema::new(json!({"type": 12})).validate(&json!(1)), Err(SchemaError::Unusable(_))));
/// ```
#[derive(Clone)]
pub struct Schema {
    schema: Value,
    #[cfg(feature = "schema")]
    compiled: Result<std::sync::Arc<jsonschema::Validator>, String>,
}

impl Schema {
    /// Compiles `schema`.
    ///
    /// See the type's example.
    pub fn new(schema: Value) -> Self {
        #[cfg(feature = "schema")]
        let compiled = jsonschema::validator_for(&schema)
            .map(std::sync::Arc::new)
            .map_err(|e| invalid(&e));
        Schema {
            schema,
            #[cfg(feature = "schema")]
            compiled,
        }
    }

    /// Why `schema` cannot be used as a JSON Schema, if it cannot — without keeping a
    /// validator (or copying the schema) when only that is asked.
    ///
    /// ```
    /// # use agent_test::matcher::Schema;
    /// # use serde_json::json;
    /// assert_eq!(Schema::problem_of(&json!({"type": "object"})), None);
    /// assert!(Schema::problem_of(&json!({"type": 12})).unwrap().starts_with("invalid JSON Schema"));
    /// ```
    pub fn problem_of(schema: &Value) -> Option<String> {
        #[cfg(feature = "schema")]
        {
            jsonschema::validator_for(schema).err().map(|e| invalid(&e))
        }
        #[cfg(not(feature = "schema"))]
        {
            let _ = schema;
            Some("JSON Schema checks need agent-test's `schema` feature".to_owned())
        }
    }

    /// The schema as given.
    ///
    /// ```
    /// # use agent_test::matcher::Schema;
    /// assert_eq!(Schema::new(serde_json::json!(true)).schema(), &serde_json::json!(true));
    /// ```
    pub fn schema(&self) -> &Value {
        &self.schema
    }

    /// Why this schema cannot be used, from its compiled form (nothing is compiled again).
    #[doc(hidden)]
    pub fn problem(&self) -> Option<String> {
        #[cfg(feature = "schema")]
        {
            self.compiled.as_ref().err().cloned()
        }
        #[cfg(not(feature = "schema"))]
        {
            Some("JSON Schema checks need agent-test's `schema` feature".to_owned())
        }
    }

    /// Whether `value` is valid (false when the schema itself is unusable).
    pub fn is_valid(&self, value: &Value) -> bool {
        self.validate(value).is_ok()
    }

    /// Validates `value`: `Ok(())` when valid; [`SchemaError::Invalid`] with one line per
    /// problem (`path: message`) when not; [`SchemaError::Unusable`] when the schema cannot be
    /// used.
    ///
    /// See the type's example.
    pub fn validate(&self, value: &Value) -> Result<(), SchemaError> {
        #[cfg(feature = "schema")]
        {
            let validator = self
                .compiled
                .as_ref()
                .map_err(|e| SchemaError::Unusable(e.clone()))?;
            if validator.is_valid(value) {
                return Ok(());
            }
            let problems = validator
                .iter_errors(value)
                .map(|e| {
                    let path = e.instance_path().to_string();
                    let path = if path.is_empty() {
                        "(root)".to_owned()
                    } else {
                        path
                    };
                    format!("{path}: {e}")
                })
                .collect();
            Err(SchemaError::Invalid(problems))
        }
        #[cfg(not(feature = "schema"))]
        {
            let _ = value;
            Err(SchemaError::Unusable(
                "JSON Schema checks need agent-test's `schema` feature".to_owned(),
            ))
        }
    }
}

/// Why a value did not pass a [`Schema`]: it is not valid against it, or the schema cannot be
/// used at all — two different things for a check (a failure, and an error verdict).
///
/// See [`Schema`]'s example.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum SchemaError {
    /// The value is not valid: one line per problem (`path: message`).
    Invalid(Vec<String>),
    /// The schema cannot be used: not a valid JSON Schema, or the `schema` feature is off.
    Unusable(String),
}

impl fmt::Display for SchemaError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SchemaError::Invalid(problems) => write!(f, "not valid: {}", problems.join("; ")),
            SchemaError::Unusable(why) => f.write_str(why),
        }
    }
}

impl std::error::Error for SchemaError {}

impl fmt::Debug for Schema {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Schema({})", self.schema)
    }
}

impl PartialEq for Schema {
    fn eq(&self, other: &Self) -> bool {
        self.schema == other.schema
    }
}

impl Serialize for Schema {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.schema.serialize(s)
    }
}

impl<'de> Deserialize<'de> for Schema {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Value::deserialize(d).map(Schema::new)
    }
}
