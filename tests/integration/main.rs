//! One integration-test binary for the whole crate.

mod api;
mod catalogue;
mod charsets;
mod cli;
mod common;
mod concat;
mod corpus;
mod deep;
mod fuzz_regressions;
mod game_info;
mod real_corpus;
mod stream;
mod values;
