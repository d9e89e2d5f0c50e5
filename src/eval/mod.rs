//! Evaluation: scoring extractors against gold sets.
//!
//! PLACEHOLDER: the eval work replaces this module.

use std::process::ExitCode;

/// `pith eval ...`: `cmd` is the command path for help text, `args` what follows `eval`.
pub fn cli_main(cmd: &[&str], args: &[&str]) -> ExitCode {
    let _ = (cmd, args);
    eprintln!("pith eval: not built yet");
    ExitCode::from(2)
}
