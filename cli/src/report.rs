//! The filter's run as the command line shows it: documents to stdout, every message of the
//! run on stderr as `pith: ...`, a progress line while a large file is read on a terminal,
//! one summary line after WARC or JSON lines input, and the exit status.

use std::io::{IsTerminal, Write};
use std::process::ExitCode;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use pith::pipeline::{self, Event, Stop, Summary};

/// Runs the filter. The exit status (README, "Exit status"): 0 when some input gave a page; 1
/// when none did (no input could be opened, or every record failed or was skipped), when
/// `--strict` was given and a record failed or an input could not be opened, or when the
/// output could not be written (one message, no summary). A closed output (`pith ... | head`)
/// ends the run quietly with 0, as ripgrep does. `quiet` (`--quiet`) drops the messages, the
/// progress and the summary; a write error is still said.
pub fn run(
    config: &pipeline::Config,
    strict: bool,
    quiet: bool,
    output_dir: Option<&std::path::Path>,
) -> ExitCode {
    let progress: Mutex<Option<Progress>> = Mutex::new(None);
    let events = |e: Event<'_>| match e {
        Event::Message(_) | Event::Opened { .. } | Event::Read { .. } | Event::Closed if quiet => {}
        Event::Message(m) => eprintln!("pith: {m}"),
        Event::Opened { name, bytes } => {
            if let Ok(mut p) = progress.lock() {
                *p = Progress::new(name, bytes);
            }
        }
        Event::Read { records } => {
            if let Ok(mut p) = progress.lock()
                && let Some(p) = p.as_mut()
            {
                p.tick(records);
            }
        }
        Event::Closed => {
            if let Ok(mut p) = progress.lock()
                && let Some(p) = p.take()
            {
                p.clear();
            }
        }
    };
    let (sum, stopped) = match output_dir {
        // A file per input (`-o DIR`); its errors name the file.
        Some(dir) => {
            let format = config.options.output.format;
            let mut out = match crate::outdir::OutDir::new(dir, &config.files, format, config.json)
            {
                Ok(o) => o,
                Err(msg) => {
                    eprintln!("pith: {msg}");
                    return ExitCode::FAILURE;
                }
            };
            let sum = pipeline::run_to(config, &mut out, &events);
            let stopped = match sum.stopped.clone() {
                None => out.flush().err().map(Stop::from),
                some => some,
            };
            (sum, stopped.map(|s| (s, "cannot write")))
        }
        None => {
            let mut out = std::io::BufWriter::new(std::io::stdout());
            let sum = pipeline::run(config, &mut out, &events);
            let stopped = match sum.stopped.clone() {
                None => out.flush().err().map(Stop::from),
                some => some,
            };
            // What is still buffered cannot go out: dropped, not flushed again.
            drop(out.into_parts());
            (sum, stopped.map(|s| (s, "cannot write to standard output")))
        }
    };
    match stopped {
        None => {}
        Some((Stop::Closed, _)) => return ExitCode::SUCCESS,
        Some((Stop::Failed { message, .. }, what)) => {
            eprintln!("pith: {what}: {message}");
            return ExitCode::FAILURE;
        }
    }
    if sum.streams && !quiet {
        eprintln!("pith: {}", summary_line(&sum));
    }
    if sum.nothing() || (strict && (sum.failed > 0 || sum.unopened > 0)) {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}

/// `N records read, N extracted, N skipped (reason N, ...), N failed` (and `, N inputs not
/// opened` when some were not).
fn summary_line(sum: &Summary) -> String {
    let reasons: Vec<String> = sum
        .skipped
        .iter()
        .map(|(r, n)| format!("{r} {n}"))
        .collect();
    let reasons = if reasons.is_empty() {
        String::new()
    } else {
        format!(" ({})", reasons.join(", "))
    };
    let unopened = match sum.unopened {
        0 => String::new(),
        1 => ", 1 input not opened".to_string(),
        n => format!(", {n} inputs not opened"),
    };
    format!(
        "{} records read, {} extracted, {} skipped{}, {} failed{unopened}",
        sum.read,
        sum.extracted,
        sum.skipped_total(),
        reasons,
        sum.failed
    )
}

/// A progress line on stderr while a large input is read: only when stderr is a terminal and
/// the input's size is known (a file), refreshed at most four times a second.
struct Progress {
    name: String,
    total: u64,
    /// The input's counter of raw bytes read.
    bytes: Arc<AtomicU64>,
    started: Instant,
    last: Instant,
    shown: bool,
}

impl Progress {
    fn new(name: &str, bytes: Arc<AtomicU64>) -> Option<Progress> {
        if name == "-" || !std::io::stderr().is_terminal() {
            return None;
        }
        let total = std::fs::metadata(name).ok()?.len();
        let now = Instant::now();
        Some(Progress {
            name: name.to_string(),
            total,
            bytes,
            started: now,
            last: now,
            shown: false,
        })
    }

    fn tick(&mut self, records: u64) {
        let now = Instant::now();
        if now.duration_since(self.last).as_millis() < 250 {
            return;
        }
        self.last = now;
        self.shown = true;
        let read = self.bytes.load(Ordering::Relaxed);
        let secs = now.duration_since(self.started).as_secs_f64().max(1e-3);
        eprint!(
            "\r\x1b[2Kpith: {} {:.0}% of {:.1} MB, {:.0} records/s",
            self.name,
            100.0 * read as f64 / self.total.max(1) as f64,
            self.total as f64 / 1e6,
            records as f64 / secs
        );
    }

    fn clear(self) {
        if self.shown {
            eprint!("\r\x1b[2K");
        }
    }
}
