//! The run loop: reads inputs, extracts every record, writes results in input order.
//!
//! PLACEHOLDER (serial, HTML files only): the streams work replaces the body with one reader,
//! N workers and one writer. `Config` is the contract with [`crate::cli`].

use std::io::{Read, Write};
use std::process::ExitCode;

use crate::extract::Options;

/// How input bytes are framed into records.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InputKind {
    /// Recognize gzip, WARC and JSON lines by their first bytes; else one HTML page.
    Auto,
    Html,
    Warc,
    Jsonl,
}

/// Everything the command line decided.
#[derive(Clone, Debug)]
pub struct Config {
    pub options: Options,
    /// One JSON object per record per line instead of text.
    pub json: bool,
    pub input: InputKind,
    pub jobs: usize,
    pub max_record_bytes: usize,
    pub strict: bool,
    /// Input paths; `-` is standard input.
    pub files: Vec<String>,
}

/// Runs the filter; the exit code follows the README's rules.
pub fn run(config: &Config) -> ExitCode {
    let unsupported = if config.json {
        Some("--format json")
    } else if config.options.format == crate::output::Format::Markdown {
        Some("--format markdown")
    } else if matches!(config.input, InputKind::Warc | InputKind::Jsonl) {
        Some("--input warc/jsonl")
    } else {
        None
    };
    if let Some(flag) = unsupported {
        eprintln!("pith: {flag} is not available in this version");
        return ExitCode::from(2);
    }
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    // Exit status: failure only when no input gave a page at all (every one missing, empty or
    // binary); a page without main text is still a page.
    let mut any_page = false;
    for (i, name) in config.files.iter().enumerate() {
        let mut bytes = Vec::new();
        let res = if name == "-" {
            std::io::stdin().lock().read_to_end(&mut bytes)
        } else {
            std::fs::File::open(name).and_then(|mut f| f.read_to_end(&mut bytes))
        };
        if let Err(e) = res {
            eprintln!("pith: {name}: {e}");
            continue;
        }
        match crate::extract::extract(&bytes, None, &config.options) {
            Ok(doc) => {
                any_page = true;
                if i > 0 {
                    let _ = out.write_all(b"\x0c\n");
                }
                let _ = out.write_all(doc.text.as_bytes());
                if doc.text.is_empty() {
                    eprintln!("pith: {name}: no main text found");
                }
            }
            Err(e) => eprintln!("pith: {name}: {e}"),
        }
    }
    let _ = out.flush();
    if any_page {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
