//! The integration tests, linked as one binary so that a fresh `cargo test` builds and links
//! the judge library once instead of once per test file.

mod architecture;
mod bad_input;
mod cli;
mod common;
mod containment;
mod corpus;
mod docs;
mod ecosystem;
mod fidelity;
mod function_form;
mod interactive;
mod isolation;
mod kattis;
mod kattis_programs;
mod polygon;
mod properties;
mod reports;
mod result_cache;
mod shards;
mod submit;
mod subtasks;
mod toolchains;
mod validators;
mod verdicts;
