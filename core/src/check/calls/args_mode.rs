//! How a trajectory compares arguments: a mode for every tool, and overrides per tool.

use std::fmt;
use std::sync::Arc;

use serde::{Deserialize, Serialize, Serializer};
use serde_json::{Value, json};

/// How arguments are compared.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum ArgsMode {
    /// The expected arguments must match; other actual arguments are allowed (the default, as
    /// for tool checks).
    #[default]
    Superset,
    /// The same argument names, each matching.
    Exact,
    /// Every actual argument is expected and matches; expected ones may be missing.
    Subset,
    /// Only tool names are compared.
    Ignore,
}

type CompareFn = dyn Fn(&Value, &Value) -> bool + Send + Sync;

/// A per-tool argument comparison.
#[derive(Clone)]
pub enum ArgsOverride {
    /// Another mode for this tool.
    Mode(ArgsMode),
    /// Compare only these argument names (each must match).
    Fields(Vec<String>),
    /// A closure over (expected arguments as JSON, actual arguments).
    Custom(Arc<CompareFn>),
}

impl fmt::Debug for ArgsOverride {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ArgsOverride::Mode(m) => write!(f, "Mode({m:?})"),
            ArgsOverride::Fields(v) => write!(f, "Fields({v:?})"),
            ArgsOverride::Custom(_) => f.write_str("Custom(..)"),
        }
    }
}

impl PartialEq for ArgsOverride {
    fn eq(&self, other: &Self) -> bool {
        match (self, other) {
            (ArgsOverride::Mode(a), ArgsOverride::Mode(b)) => a == b,
            (ArgsOverride::Fields(a), ArgsOverride::Fields(b)) => a == b,
            (ArgsOverride::Custom(a), ArgsOverride::Custom(b)) => Arc::ptr_eq(a, b),
            _ => false,
        }
    }
}

impl Serialize for ArgsOverride {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            ArgsOverride::Mode(m) => json!({"mode": m}).serialize(s),
            ArgsOverride::Fields(v) => json!({"fields": v}).serialize(s),
            ArgsOverride::Custom(_) => json!({"custom": true}).serialize(s),
        }
    }
}

impl<'de> Deserialize<'de> for ArgsOverride {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        #[derive(Deserialize)]
        #[serde(deny_unknown_fields)]
        struct Raw {
            mode: Option<ArgsMode>,
            fields: Option<Vec<String>>,
        }
        let raw = Raw::deserialize(d)?;
        match (raw.mode, raw.fields) {
            (Some(m), None) => Ok(ArgsOverride::Mode(m)),
            (None, Some(f)) => Ok(ArgsOverride::Fields(f)),
            _ => Err(serde::de::Error::custom(
                "an override is {\"mode\": ...} or {\"fields\": [...]}",
            )),
        }
    }
}
