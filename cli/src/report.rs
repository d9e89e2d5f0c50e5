//! The filter's run as the command line shows it: documents to stdout (or a file per input,
//! `-o DIR`), every message of the run on stderr as `pith: ...`, a progress line on a terminal
//! (records, megabytes and records a second, for every kind of input), one summary line after
//! every run but that of a lone HTML page, and the exit status.

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
    let progress: Mutex<Option<Progress>> = Mutex::new(if quiet {
        None
    } else {
        Progress::new(config.files.len())
    });
    let events = |e: Event<'_>| match e {
        Event::Message(_) | Event::Opened { .. } | Event::Read { .. } | Event::Closed if quiet => {}
        Event::Message(m) => {
            // The message on a line of its own; the progress line is drawn again at its next
            // refresh.
            if let Ok(mut p) = progress.lock()
                && let Some(p) = p.as_mut()
            {
                p.clear();
            }
            eprintln!("pith: {m}");
        }
        Event::Opened { name, bytes } => {
            if let Ok(mut p) = progress.lock()
                && let Some(p) = p.as_mut()
            {
                p.opened(name, bytes);
            }
        }
        Event::Read { records } => {
            if let Ok(mut p) = progress.lock()
                && let Some(p) = p.as_mut()
            {
                p.tick(records);
            }
        }
        Event::Closed => {}
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
    if let Ok(mut p) = progress.lock()
        && let Some(p) = p.as_mut()
    {
        p.clear();
    }
    match stopped {
        None => {}
        Some((Stop::Closed, _)) => return ExitCode::SUCCESS,
        Some((Stop::Failed { message, .. }, what)) => {
            eprintln!("pith: {what}: {message}");
            return ExitCode::FAILURE;
        }
    }
    // Every run but that of one HTML page, whose document (or message) says it all.
    if (sum.streams || config.files.len() > 1) && !quiet {
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

/// `PITH_PROGRESS=1` draws the progress line when stderr is not a terminal too (for tests and
/// for logs that want it).
const FORCE_PROGRESS: &str = "PITH_PROGRESS";

/// The progress line on stderr: only when stderr is a terminal (or [`FORCE_PROGRESS`]), for
/// every kind of input (one page after another, a WARC, JSON lines, standard input), at most
/// four times a second: the input being read (and its share read, when its size is known),
/// the megabytes read, the records done and their rate.
struct Progress {
    /// Inputs of the run.
    inputs: usize,
    /// Inputs opened so far.
    opened: usize,
    name: String,
    /// The current input's size, when it is a file.
    total: Option<u64>,
    /// The current input's counter of raw bytes read.
    bytes: Arc<AtomicU64>,
    /// Raw bytes read of the inputs before it.
    before: u64,
    started: Instant,
    last: Option<Instant>,
    shown: bool,
}

impl Progress {
    fn new(inputs: usize) -> Option<Progress> {
        let forced = std::env::var_os(FORCE_PROGRESS).is_some_and(|v| v == "1");
        if !forced && !std::io::stderr().is_terminal() {
            return None;
        }
        Some(Progress {
            inputs,
            opened: 0,
            name: String::new(),
            total: None,
            bytes: Arc::default(),
            before: 0,
            started: Instant::now(),
            last: None,
            shown: false,
        })
    }

    /// The next input is being read.
    fn opened(&mut self, name: &str, bytes: Arc<AtomicU64>) {
        self.before += self.bytes.load(Ordering::Relaxed);
        self.opened += 1;
        self.bytes = bytes;
        if name == "-" {
            self.name = "standard input".into();
            self.total = None;
        } else {
            self.name = name.to_string();
            self.total = std::fs::metadata(name).ok().map(|m| m.len());
        }
    }

    fn tick(&mut self, records: u64) {
        let now = Instant::now();
        if self
            .last
            .is_some_and(|last| now.duration_since(last).as_millis() < 250)
        {
            return;
        }
        self.last = Some(now);
        self.shown = true;
        let read = self.bytes.load(Ordering::Relaxed);
        let secs = now.duration_since(self.started).as_secs_f64().max(1e-3);
        let rate = records as f64 / secs;
        let line = if self.inputs > 1 {
            format!(
                "input {} of {} ({}), {:.1} MB read, {records} records, {rate:.0} records/s",
                self.opened,
                self.inputs,
                self.name,
                (self.before + read) as f64 / 1e6
            )
        } else {
            match self.total {
                Some(total) => format!(
                    "{} {:.0}% of {:.1} MB, {records} records, {rate:.0} records/s",
                    self.name,
                    100.0 * read as f64 / total.max(1) as f64,
                    total as f64 / 1e6
                ),
                None => format!(
                    "{} {:.1} MB read, {records} records, {rate:.0} records/s",
                    self.name,
                    read as f64 / 1e6
                ),
            }
        };
        eprint!("\r\x1b[2Kpith: {line}");
    }

    /// Takes the line off the terminal (drawn again at the next refresh).
    fn clear(&mut self) {
        if self.shown {
            eprint!("\r\x1b[2K");
            self.shown = false;
        }
    }
}
