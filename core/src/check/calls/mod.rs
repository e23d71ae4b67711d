//! What the checks on calls share — the tool, tool-chain and trajectory checks: a constraint on
//! a value at a path of a call's arguments or result ([`ArgConstraint`](arg_constraint::ArgConstraint)),
//! which calls count by their outcome ([`CallFilter`](call_filter::CallFilter)), how many must
//! match ([`Count`](count::Count)), a call of a reference trajectory
//! ([`ExpectedCall`](expected_call::ExpectedCall)) and how a trajectory compares arguments
//! ([`ArgsMode`](args_mode::ArgsMode)), and the calls a check on names counts ([`called`]). The check kinds themselves live beside this module.

pub(crate) mod arg_constraint;
pub(crate) mod args_mode;
pub(crate) mod call_filter;
pub(crate) mod called;
pub(crate) mod count;
pub(crate) mod expected_call;
pub(crate) mod of_tools;
