//! Context variables of a scenario.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// Named values a scenario gives its agent (template placeholders, user ids) and its checks.
///
/// Keys are kept sorted so reports are stable.
///
/// ```
/// use agent_test::model::Context;
/// let mut cx = Context::default();
/// cx.insert("USER_ID", 12345);
/// cx.insert("PLAN", "premium");
/// assert_eq!(cx.get("PLAN").unwrap(), "premium");
/// assert_eq!(cx.len(), 2);
/// ```
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Context(BTreeMap<String, Value>);

impl Context {
    /// Sets a variable, replacing an earlier value of the same name.
    ///
    /// See the type's example.
    pub fn insert(&mut self, key: impl Into<String>, value: impl Into<Value>) {
        self.0.insert(key.into(), value.into());
    }

    /// A variable's value.
    ///
    /// ```
    /// # use agent_test::model::Context;
    /// assert!(Context::default().get("missing").is_none());
    /// ```
    pub fn get(&self, key: &str) -> Option<&Value> {
        self.0.get(key)
    }

    /// Number of variables.
    ///
    /// ```
    /// # use agent_test::model::Context;
    /// assert_eq!(Context::default().len(), 0);
    /// ```
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Whether there are no variables.
    ///
    /// ```
    /// # use agent_test::model::Context;
    /// assert!(Context::default().is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The variables in key order.
    ///
    /// ```
    /// # use agent_test::model::Context;
    /// let mut cx = Context::default();
    /// cx.insert("b", 2);
    /// cx.insert("a", 1);
    /// assert_eq!(cx.iter().map(|(k, _)| k.as_str()).collect::<Vec<_>>(), ["a", "b"]);
    /// ```
    pub fn iter(&self) -> impl Iterator<Item = (&String, &Value)> {
        self.0.iter()
    }

    /// Adds every variable of `other`, which wins on conflicts (scenario over suite).
    ///
    /// ```
    /// # use agent_test::model::Context;
    /// let mut suite = Context::default();
    /// suite.insert("A", 1);
    /// let mut scenario = Context::default();
    /// scenario.insert("A", 2);
    /// suite.extend(&scenario);
    /// assert_eq!(suite.get("A").unwrap(), 2);
    /// ```
    pub fn extend(&mut self, other: &Context) {
        for (k, v) in other.iter() {
            self.0.insert(k.clone(), v.clone());
        }
    }
}

impl<K: Into<String>, V: Into<Value>> FromIterator<(K, V)> for Context {
    fn from_iter<I: IntoIterator<Item = (K, V)>>(iter: I) -> Self {
        Context(
            iter.into_iter()
                .map(|(k, v)| (k.into(), v.into()))
                .collect(),
        )
    }
}
