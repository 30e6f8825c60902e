//! One integration-test binary for the whole crate.

mod api;
mod catalogue;
mod cli;
mod corpus;
mod deep;
mod fuzz_regressions;
mod real_corpus;
