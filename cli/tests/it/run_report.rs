//! What a run says on stderr, for every kind of input: the summary line (a folder of pages as
//! a WARC), the progress line (forced with `PITH_PROGRESS=1`: records and megabytes, a rate
//! that is not 0 for JSON lines), the note on subfolders left unread without `-r`; and
//! `pith -h` naming the compressions, `pith explain | head` quiet.

use std::io::Read;
use std::process::{Command, Stdio};

use crate::run_util::{fresh_dir, jsonl, pith_args, stderr, test_page as page};

/// `pith args` with `PITH_PROGRESS=1` (the progress line without a terminal).
fn with_progress(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_pith"))
        .args(args)
        .env("PITH_PROGRESS", "1")
        .output()
        .expect("run pith")
}

/// A folder of three pages, one of them in a subfolder.
fn folder(name: &str) -> std::path::PathBuf {
    let dir = fresh_dir("report", name);
    std::fs::write(dir.join("a.html"), page("article.html")).expect("write");
    std::fs::write(dir.join("b.html"), page("report.html")).expect("write");
    std::fs::create_dir(dir.join("sub")).expect("mkdir");
    std::fs::write(dir.join("sub/c.html"), page("images.html")).expect("write");
    dir
}

/// The rates of the progress lines in `err` (`..., N records/s`).
fn rates(err: &str) -> Vec<f64> {
    err.split("\r\x1b[2K")
        .filter_map(|l| l.trim_end().strip_suffix(" records/s"))
        .filter_map(|l| l.rsplit(' ').next()?.parse().ok())
        .collect()
}

#[test]
fn a_folder_of_pages_gets_the_summary_and_a_note_on_its_subfolders() {
    let dir = folder("summary");
    let d = dir.to_str().expect("utf-8");
    let o = pith_args(&["-r", d]);
    assert!(o.status.success(), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(
        err.contains("pith: 3 records read, 3 extracted, 0 skipped, 0 failed"),
        "{err}"
    );
    assert!(!err.contains("subdirector"), "{err}");
    // Without -r: two pages, and one note naming the folder.
    let o = pith_args(&[d]);
    let err = stderr(&o);
    assert!(err.contains("2 records read, 2 extracted"), "{err}");
    assert_eq!(err.matches("not read without -r").count(), 1, "{err}");
    assert!(
        err.contains(&format!("pith: {d}: its subdirectory")),
        "{err}"
    );
    // -q says nothing.
    assert!(stderr(&pith_args(&["-q", d])).is_empty());
    // A lone page: its document says it all, no summary.
    let a = dir.join("a.html");
    let o = pith_args(&[a.to_str().expect("utf-8")]);
    assert!(stderr(&o).is_empty(), "{}", stderr(&o));
}

#[test]
fn progress_counts_records_for_every_kind_of_input() {
    let dir = folder("progress");
    let d = dir.to_str().expect("utf-8");
    let o = with_progress(&["-r", d]);
    let err = stderr(&o);
    assert!(
        err.contains("pith: input ") && err.contains(" of 3 ("),
        "{err}"
    );
    assert!(err.contains("records/s"), "{err}");
    assert!(
        err.contains("3 records read"),
        "the summary after it: {err}"
    );
    // JSON lines, read by ranges at -j 2 (whose records the reader never counts) and on one
    // thread: the rate is never 0 once a record is done.
    let html = String::from_utf8(page("article.html")).expect("utf-8");
    let records = (0..40).map(|i| serde_json::json!({"id": format!("r{i}"), "html": html}));
    let file = dir.join("crawl.jsonl");
    std::fs::write(&file, jsonl(records)).expect("write");
    for jobs in ["1", "2"] {
        let o = with_progress(&[
            "-j",
            jobs,
            "--format",
            "json",
            file.to_str().expect("utf-8"),
        ]);
        let err = stderr(&o);
        let r = rates(&err);
        assert!(!r.is_empty(), "-j {jobs}: {err:?}");
        assert!(r.iter().all(|&x| x > 0.0), "-j {jobs}: {r:?} {err:?}");
        assert!(
            err.contains("crawl.jsonl ") && err.contains("% of "),
            "{err:?}"
        );
    }
    // Standard input: no size, the megabytes read.
    let o = Command::new(env!("CARGO_BIN_EXE_pith"))
        .args(["--format", "json"])
        .env("PITH_PROGRESS", "1")
        .stdin(std::fs::File::open(&file).expect("open"))
        .output()
        .expect("run pith");
    let err = stderr(&o);
    assert!(o.status.success());
    assert!(err.contains("pith: standard input "), "{err:?}");
    assert!(rates(&err).iter().all(|&x| x > 0.0), "{err:?}");
    // -q draws nothing.
    let o = with_progress(&["-q", "-r", d]);
    assert!(stderr(&o).is_empty(), "{}", stderr(&o));
}

#[test]
fn help_names_the_compressions_read() {
    let o = pith_args(&["-h"]);
    let help = String::from_utf8_lossy(&o.stdout);
    assert!(help.contains("gzip, zstd, xz, bzip2"), "{help}");
    assert!(
        !help.contains("WARC.gz") && !help.contains("plain or gzip"),
        "{help}"
    );
    let o = pith_args(&["explain", "-h"]);
    assert!(!String::from_utf8_lossy(&o.stdout).contains("plain or gzip"));
}

#[test]
fn explain_into_a_closed_pipe_is_quiet() {
    // A page whose report is far larger than a pipe's buffer.
    let dir = fresh_dir("report", "explain");
    let body: String = (0..3000)
        .map(|i| format!("<p>Paragraph {i} of the long page says something, and more.</p>"))
        .collect();
    let file = dir.join("long.html");
    std::fs::write(
        &file,
        format!("<html><body><article>{body}</article></body></html>"),
    )
    .expect("write");
    let mut child = Command::new(env!("CARGO_BIN_EXE_pith"))
        .args(["explain", file.to_str().expect("utf-8")])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn");
    let mut out = child.stdout.take().expect("stdout");
    let mut first = [0u8; 64];
    out.read_exact(&mut first).expect("the report starts");
    drop(out); // `| head -c 64`
    let mut err = String::new();
    child
        .stderr
        .take()
        .expect("stderr")
        .read_to_string(&mut err)
        .expect("read");
    let status = child.wait().expect("wait");
    assert!(!err.contains("Broken pipe"), "{err}");
    assert!(err.is_empty(), "{err}");
    assert!(status.success(), "{status:?}");
}
