//! Agents over the wire, against real HTTP servers started on 127.0.0.1 by the tests.

mod chat_agent;
mod http_agent;
mod servers;
