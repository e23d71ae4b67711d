//! Structure-aware mutations of JSON documents, and byte-level mutations of text.

use proptest::prelude::*;
use serde_json::{Map, Value};

use crate::{odd_number, odd_string, vocabulary};

/// One change to one node of a document.
#[derive(Clone, Debug)]
pub enum Mutation {
    /// Remove the node from its object or array.
    Delete,
    /// Repeat the node: the next array element, or a copy under another key.
    Duplicate(String),
    /// Replace the node with another value (often of another type).
    Retype(Value),
    /// Wrap the node in `levels` arrays or objects.
    Deepen { levels: usize, key: String },
    /// Put odd text into a string (or make the node that string).
    Unicode(String),
    /// Replace the node with a number at the edge of a type.
    Number(Value),
    /// Rename the node's key (a near-miss or another field's name).
    Rename(String),
    /// Turn the node into an empty array, an empty object or `null`.
    Empty(u8),
}

fn mutation() -> impl Strategy<Value = Mutation> {
    let key = prop_oneof![
        4 => proptest::sample::select(vocabulary()),
        1 => odd_string(),
    ];
    prop_oneof![
        3 => Just(Mutation::Delete),
        2 => key.clone().prop_map(Mutation::Duplicate),
        3 => crate::arb_json().prop_map(Mutation::Retype),
        1 => (1usize..200, key.clone()).prop_map(|(levels, key)| Mutation::Deepen { levels, key }),
        2 => odd_string().prop_map(Mutation::Unicode),
        2 => odd_number().prop_map(Mutation::Number),
        2 => key.prop_map(Mutation::Rename),
        1 => (0u8..3).prop_map(Mutation::Empty),
    ]
}

/// 1 to 4 mutations, each at a node chosen by index (modulo the document's node count).
pub fn mutations() -> impl Strategy<Value = Vec<(usize, Mutation)>> {
    proptest::collection::vec((any::<usize>(), mutation()), 1..5)
}

/// `doc` with every mutation applied.
pub fn apply_all(mut doc: Value, mutations: &[(usize, Mutation)]) -> Value {
    for (at, m) in mutations {
        let count = nodes(&doc);
        let mut target = at % count.max(1);
        if target == 0 {
            mutate_root(&mut doc, m);
        } else {
            target -= 1;
            apply(&mut doc, &mut target, m);
        }
    }
    doc
}

fn nodes(v: &Value) -> usize {
    1 + match v {
        Value::Array(items) => items.iter().map(nodes).sum(),
        Value::Object(o) => o.values().map(nodes).sum(),
        _ => 0,
    }
}

fn mutate_root(doc: &mut Value, m: &Mutation) {
    match m {
        Mutation::Delete => *doc = Value::Null,
        Mutation::Duplicate(_) => *doc = Value::Array(vec![doc.clone(), doc.clone()]),
        Mutation::Rename(key) => {
            *doc = Value::Object(Map::from_iter([(key.clone(), doc.take())]));
        }
        other => mutate_node(doc, other),
    }
}

/// Changes the node itself (not its place in its parent).
fn mutate_node(v: &mut Value, m: &Mutation) {
    match m {
        Mutation::Retype(new) => *v = new.clone(),
        Mutation::Deepen { levels, key } => {
            for i in 0..*levels {
                let inner = v.take();
                *v = if i % 2 == 0 {
                    Value::Array(vec![inner])
                } else {
                    Value::Object(Map::from_iter([(key.clone(), inner)]))
                };
            }
        }
        Mutation::Unicode(text) => match v {
            Value::String(s) => {
                let at = s
                    .char_indices()
                    .map(|(i, _)| i)
                    .nth(s.chars().count() / 2)
                    .unwrap_or(s.len());
                s.insert_str(at, text);
            }
            other => *other = Value::String(text.clone()),
        },
        Mutation::Number(n) => *v = n.clone(),
        Mutation::Empty(0) => *v = Value::Array(Vec::new()),
        Mutation::Empty(1) => *v = Value::Object(Map::new()),
        Mutation::Empty(_) => *v = Value::Null,
        // Structural mutations of a node without a parent.
        Mutation::Delete | Mutation::Duplicate(_) | Mutation::Rename(_) => *v = Value::Null,
    }
}

/// Finds node number `target` (pre-order, below `v`) and mutates it: structural mutations in
/// its parent, the others in place. Whether it was found.
fn apply(v: &mut Value, target: &mut usize, m: &Mutation) -> bool {
    match v {
        Value::Array(items) => {
            for i in 0..items.len() {
                if *target == 0 {
                    match m {
                        Mutation::Delete => {
                            items.remove(i);
                        }
                        Mutation::Duplicate(_) => {
                            let copy = items[i].clone();
                            items.insert(i, copy);
                        }
                        other => mutate_node(&mut items[i], other),
                    }
                    return true;
                }
                *target -= 1;
                if apply(&mut items[i], target, m) {
                    return true;
                }
            }
            false
        }
        Value::Object(o) => {
            let keys: Vec<String> = o.keys().cloned().collect();
            for k in keys {
                if *target == 0 {
                    match m {
                        Mutation::Delete => {
                            o.remove(&k);
                        }
                        Mutation::Duplicate(other) => {
                            let copy = o[&k].clone();
                            o.insert(other.clone(), copy);
                        }
                        Mutation::Rename(new) => {
                            let value = o.remove(&k).unwrap_or_default();
                            o.insert(new.clone(), value);
                        }
                        other => mutate_node(o.get_mut(&k).unwrap(), other),
                    }
                    return true;
                }
                *target -= 1;
                if apply(o.get_mut(&k).unwrap(), target, m) {
                    return true;
                }
            }
            false
        }
        _ => false,
    }
}

/// One change to the bytes of a text.
#[derive(Clone, Debug)]
pub enum Edit {
    /// Cut the text here.
    Truncate,
    /// Remove up to `n` bytes.
    Remove(usize),
    /// Insert bytes.
    Insert(Vec<u8>),
    /// Insert odd text.
    InsertText(String),
    /// Replace a byte.
    Flip(u8),
    /// Repeat a stretch of the text.
    Repeat(usize),
}

fn edit() -> impl Strategy<Value = Edit> {
    prop_oneof![
        1 => Just(Edit::Truncate),
        2 => (1usize..16).prop_map(Edit::Remove),
        2 => proptest::collection::vec(
            prop_oneof![
                any::<u8>(),
                proptest::sample::select(b"{}[]():,\"'\\-#&*!|>\n\t ".to_vec()),
            ],
            1..8
        )
        .prop_map(Edit::Insert),
        2 => odd_string().prop_map(Edit::InsertText),
        2 => any::<u8>().prop_map(Edit::Flip),
        1 => (1usize..64).prop_map(Edit::Repeat),
    ]
}

/// 1 to 6 edits, each at a position chosen by index (modulo the text's length).
pub fn edits() -> impl Strategy<Value = Vec<(usize, Edit)>> {
    proptest::collection::vec((any::<usize>(), edit()), 1..7)
}

/// `text` with the edits applied, read back as UTF-8 (invalid bytes replaced, as a reader
/// of files would have refused them before any loader).
pub fn edit_text(text: &str, edits: &[(usize, Edit)]) -> String {
    let mut bytes = text.as_bytes().to_vec();
    for (at, e) in edits {
        let at = at % (bytes.len() + 1);
        match e {
            Edit::Truncate => bytes.truncate(at),
            Edit::Remove(n) => {
                let end = (at + n).min(bytes.len());
                bytes.drain(at..end);
            }
            Edit::Insert(new) => {
                bytes.splice(at..at, new.iter().copied());
            }
            Edit::InsertText(new) => {
                bytes.splice(at..at, new.bytes());
            }
            Edit::Flip(b) => {
                if let Some(x) = bytes.get_mut(at) {
                    *x = *b;
                }
            }
            Edit::Repeat(n) => {
                let end = (at + n).min(bytes.len());
                let stretch = bytes[at..end].to_vec();
                bytes.splice(at..at, stretch);
            }
        }
    }
    String::from_utf8_lossy(&bytes).into_owned()
}
