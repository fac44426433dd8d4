#![warn(missing_docs)]
//! `judge`: compiles competitive-programming solutions, runs them in parallel against every
//! input / expected-output pair of a problem, and gives the verdicts real judges give.

pub mod app;
pub(crate) mod atomic_write;
pub mod cli;
pub mod compare;
pub(crate) mod corpus;
pub mod error;
pub mod judging;
pub mod problem;
pub mod report;
pub mod runner;
pub mod sandbox;
pub mod toolchain;
