//! Agents and the judge over the wire, against real HTTP servers started on 127.0.0.1 by the
//! tests.

mod chat_agent;
mod http_agent;
mod judge;
mod judge_server;
mod servers;
mod data_steps;
