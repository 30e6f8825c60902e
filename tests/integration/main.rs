//! One integration-test binary for the whole crate.

mod api;
mod catalogue;
mod charsets;
mod cli;
mod common;
mod corpus;
mod deep;
// The fuzz targets' checks are behind the `oracle` feature
// (`cargo test --all-features`).
#[cfg(feature = "oracle")]
mod fuzz_regressions;
mod game_info;
mod real_corpus;
mod values;
