//! Building turns from a role-ordered list of messages: a user message starts a turn, assistant
//! text and tool calls accumulate in it, tool results attach to their calls.

use serde_json::Value;

use agent_test_core::model::{Call, Message, Reply, Transcript, Turn, Usage};

/// Accumulates a conversation into turns.
#[derive(Default)]
pub(crate) struct Conversation {
    history: Vec<Message>,
    /// The turns before the current one.
    turns: Vec<(String, Reply)>,
    /// The current turn: its input and its reply so far.
    current: Option<(String, Reply)>,
    /// The model step calls are made in now (within the current turn), and how many steps the
    /// turn has had: every model response that calls tools is one step.
    step: Option<usize>,
    steps: usize,
}

impl Conversation {
    /// A system message (history before the first turn, else ignored).
    pub(crate) fn system(&mut self, text: String) {
        if self.current.is_none() {
            self.history.push(Message::system(text));
        }
    }

    /// A user message: starts a new turn.
    pub(crate) fn user(&mut self, text: String) {
        self.turns
            .extend(self.current.replace((text, Reply::default())));
        self.step = None;
        self.steps = 0;
    }

    /// A model response begins: the calls recorded until the next one were made together in
    /// it (one step, whose calls may run in parallel).
    pub(crate) fn model_response(&mut self) {
        self.step = Some(self.steps);
        self.steps += 1;
    }

    /// The calls recorded from now on belong to no known step.
    pub(crate) fn end_response(&mut self) {
        self.step = None;
    }

    fn current(&mut self) -> &mut Reply {
        // A trace that starts with the assistant (a single response): one turn, no input.
        let (_, reply) = self
            .current
            .get_or_insert_with(|| (String::new(), Reply::default()));
        reply
    }

    /// Assistant text: appended to the current turn's reply (a later text wins as the final
    /// answer, earlier ones stay, separated by a newline).
    pub(crate) fn assistant_text(&mut self, text: &str) {
        if text.is_empty() {
            return;
        }
        let reply = self.current();
        if !reply.text.is_empty() {
            reply.text.push('\n');
        }
        reply.text.push_str(text);
    }

    /// A tool call in the current turn.
    pub(crate) fn call(&mut self, mut call: Call) {
        call.step = self.step;
        self.current().calls.push(call);
    }

    /// A tool result: attached to the call with this id (or, without an id, the earliest call
    /// of that name without a result), searching the current turn first.
    pub(crate) fn result(
        &mut self,
        id: Option<&str>,
        name: Option<&str>,
        result: Value,
        error: bool,
    ) {
        for (_, reply) in self.current.iter_mut().chain(self.turns.iter_mut().rev()) {
            let found = reply.calls.iter_mut().find(|c| match (id, &c.id) {
                (Some(id), Some(cid)) => cid == id,
                _ => c.result.is_none() && name.is_some_and(|n| n == c.name),
            });
            if let Some(call) = found {
                call.result = Some(result);
                call.error = error;
                return;
            }
        }
    }

    /// Adds usage to the current turn.
    pub(crate) fn usage(&mut self, usage: Usage) {
        self.current()
            .usage
            .get_or_insert_with(Usage::default)
            .add(&usage);
    }

    /// The current turn's reply, for format-specific extras.
    pub(crate) fn reply(&mut self) -> &mut Reply {
        self.current()
    }

    pub(crate) fn finish(self) -> Transcript {
        let turns = (self.turns.into_iter().chain(self.current).enumerate())
            .map(|(i, (input, reply))| Turn::recorded(i, input, reply))
            .collect();
        Transcript::new(turns).with_history(self.history)
    }
}
