//! The call-matching engine the checks on calls share (the tool, tool-chain, trajectory,
//! sequence, tool-set and no-tools checks; the kinds themselves live beside this module):
//!
//! - what is expected of one call: a constraint on a value at a path of its arguments or result
//!   ([`ArgConstraint`](arg_constraint::ArgConstraint)), which calls count by their outcome
//!   ([`CallFilter`](call_filter::CallFilter)), how many must match ([`Count`](count::Count)), a
//!   call of a reference trajectory ([`ExpectedCall`](expected_call::ExpectedCall)) and how its
//!   arguments compare ([`ArgsMode`](args_mode::ArgsMode));
//! - matching a tool check against each call and naming its problems ([`matching`]), and
//!   explaining a failure from them ([`explain`]: the calls counted, the closest call, a diff);
//! - pairing expected calls or names with the calls made, in order or one to one, by model step,
//!   and the violations of a call not wanted or not found ([`pairing`]).

pub(crate) mod arg_constraint;
pub(crate) mod args_mode;
pub(crate) mod call_filter;
pub(crate) mod count;
pub(crate) mod expected_call;
mod explain;
pub(crate) mod matching;
pub(crate) mod of_tools;
pub(crate) mod pairing;
