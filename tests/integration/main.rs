//! One integration-test binary for the whole crate.
//!
//! The corpus dump and the fuzz targets' checks are behind the `oracle`
//! feature, so `corpus` and `fuzz_regressions` run with
//! `cargo test --all-features` (the README's and CI's command).

#[cfg(all(feature = "cli", feature = "parquet", feature = "katrain"))]
mod analysis_cli;
mod api;
mod architecture;
mod archives;
mod big_input;
mod board;
mod bounded_memory;
mod catalogue;
mod charsets;
mod cli;
mod cli_inputs;
mod common;
mod concat;
#[cfg(feature = "oracle")]
mod corpus;
mod corpus_pass;
mod cut_archives;
mod dedup_merge;
mod deep;
mod detected;
mod detected_corpus;
#[cfg(feature = "diagram")]
mod diagram_browser;
#[cfg(feature = "diagram")]
mod diagram_cli;
mod edit;
mod exit_status;
mod extract;
mod fix_cli;
mod foreign;
mod foreign_records;
#[cfg(feature = "oracle")]
mod fuzz_regressions;
mod game_info;
mod index;
mod index_cli;
mod index_damage;
mod inplace;
mod paper_cuts;
mod parallel;
mod pattern;
mod real_corpus;
mod repair;
mod replay_edited;
mod replay_limits;
mod rewrite_cli;
mod samples_cli;
mod semantic;
mod semantic_cli;
mod stream;
#[cfg(feature = "tables")]
mod tables;
mod tree_cli;
mod values;
#[cfg(feature = "oracle")]
mod write_modes;
