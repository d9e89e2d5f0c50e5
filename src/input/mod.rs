//! Input framing: files, stdin, WARC and JSON lines become records.
//!
//! PLACEHOLDER: the streams work replaces this module.
