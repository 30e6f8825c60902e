//! The archive formats, each a method of the scan that goes through its
//! members in the order the archive stores them:
//!
//! - `tar.rs`: tar, read as a stream (plain or under any decompressor):
//!   one entry after the other, nothing held but the entry being read;
//! - `zip.rs`: zip, read from a file (it needs to seek: its directory is
//!   at the end), each entry opened on its own;
//! - `sevenz.rs`: 7z, read from a file; entries packed together in one
//!   solid block are decoded in order, so the rest of each entry is read
//!   through after the visitor is done with it.

mod sevenz;
mod tar;
mod zip;
