//! Damage inside records, by class (issue 43, classes 3, 4 and 6): WARC headers, HTTP body
//! encodings, JSON lines. Each class has a seeded generator of many variants; each variant is
//! a file of known records, some damaged, run through the binary with `--strict --format json`
//! at `-j 1` and `-j 2` on the file and from standard input, and checked:
//!
//! - every intact record comes out, its line byte for byte as from the clean file;
//! - every damaged record is reported exactly once, on stderr and as a JSON error line (with
//!   its id where its header still names it), and never comes out as a page of other text;
//! - the summary counts what came out and what failed, and `--strict` exits non-zero exactly
//!   when something failed;
//! - `-j 1`, `-j 2` and standard input say the same.
//!
//! `PITH_DAMAGE_SEEDS=n` runs n variants of each class (default 40).

use crate::damage_harness::Rng;
use crate::run_util;

use std::collections::HashMap;
use std::io::Write;
use std::time::Duration;

use run_util::{gz, pith_within, stderr};
use serde_json::Value;

fn seeds() -> u64 {
    std::env::var("PITH_DAMAGE_SEEDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(40)
}

/// An article page: record `i` of a set, long enough to be extracted.
fn html(set: &str, i: usize, words: usize) -> String {
    let more = format!(
        "<p>Paragraph {i} of story {set} adds words, commas, and detail, and it goes on.</p>"
    )
    .repeat(words % 4 + 1);
    format!(
        "<html><head><title>{set} story {i}</title></head><body><nav><a href=/>Home</a></nav>\
         <article><p>Story {set} {i} begins with a sentence long enough to be the article, \
         and the council said the bridge will open in spring.</p>{more}</article>\
         <footer>Copyright</footer></body></html>"
    )
}

/// How the records of a WARC are stored.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Layout {
    Plain,
    /// One gzip member per record.
    PerRecord,
    /// One gzip member for the whole file.
    Whole,
}

fn layout(r: &mut Rng) -> Layout {
    *r.pick(&[Layout::Plain, Layout::PerRecord, Layout::Whole])
}

fn store(records: &[Vec<u8>], layout: Layout) -> Vec<u8> {
    match layout {
        Layout::Plain => records.concat(),
        Layout::PerRecord => records.iter().map(|r| gz(r)).collect::<Vec<_>>().concat(),
        Layout::Whole => gz(&records.concat()),
    }
}

/// A WARC record: `lines` are the header lines after the version line (no line ends), each
/// ended by `end(k)` (k = 0 is the version line, the blank line is last), the blank line left
/// out unless `blank`.
fn warc(
    version: &str,
    lines: &[String],
    end: &dyn Fn(usize) -> &'static [u8],
    blank: bool,
    block: &[u8],
) -> Vec<u8> {
    let mut r = version.as_bytes().to_vec();
    r.extend_from_slice(end(0));
    for (k, l) in lines.iter().enumerate() {
        r.extend_from_slice(l.as_bytes());
        r.extend_from_slice(end(k + 1));
    }
    if blank {
        r.extend_from_slice(end(lines.len() + 1));
    }
    r.extend_from_slice(block);
    r.extend_from_slice(b"\r\n\r\n");
    r
}

/// The header lines of record `i` (after the version line): type, target, date, id, content
/// type, length. The id is line 3.
fn fields(kind: &str, i: usize, len: usize, extra: &[String]) -> Vec<String> {
    let ctype = if kind == "request" {
        "application/http; msgtype=request"
    } else {
        "application/http; msgtype=response"
    };
    let mut v = vec![
        format!("WARC-Type: {kind}"),
        format!("WARC-Target-URI: http://example.org/{i}"),
        "WARC-Date: 2024-01-01T00:00:00Z".to_string(),
        format!("WARC-Record-ID: {}", id(i)),
        format!("Content-Type: {ctype}"),
    ];
    v.extend(extra.iter().cloned());
    v.push(format!("Content-Length: {len}"));
    v
}

fn id(i: usize) -> String {
    format!("<urn:rec:{i}>")
}

const ID_LINE: usize = 3;

fn crlf(_: usize) -> &'static [u8] {
    b"\r\n"
}

/// What a variant expects: the records that must come out (ids, in order), the damaged ones
/// (each reported once; `Some(id)` when the error line must name it), and the ids of damaged
/// records that may instead come out whole, as from the clean file.
#[derive(Debug, Default)]
struct Expect {
    intact: Vec<String>,
    damaged: Vec<Option<String>>,
    /// Damaged records whose damage may not show (a flipped bit that changes nothing): each
    /// either comes out exactly as from the clean file or is reported once.
    maybe: Vec<String>,
}

/// What one run said.
#[derive(Debug)]
struct Said {
    pages: Vec<(String, String)>,
    errors: Vec<Value>,
    messages: Vec<String>,
    extracted: Option<u64>,
    failed: Option<u64>,
    success: bool,
    stdout: String,
    stderr: String,
}

fn said(o: &std::process::Output) -> Said {
    let stdout = String::from_utf8_lossy(&o.stdout).into_owned();
    let err = stderr(o);
    let mut pages = Vec::new();
    let mut errors = Vec::new();
    for line in stdout.lines() {
        let v: Value = serde_json::from_str(line).unwrap_or(Value::Null);
        if v.get("error").is_some() || v.is_null() {
            errors.push(v);
        } else {
            let id = match &v["id"] {
                Value::String(s) => s.clone(),
                other => other.to_string(),
            };
            pages.push((id, line.to_string()));
        }
    }
    let summary = err.lines().rev().find(|l| l.contains(" records read, "));
    let count = |word: &str| -> Option<u64> {
        let s = summary?;
        let at = s.find(word)?;
        s[..at].rsplit([' ', '(']).next()?.parse().ok()
    };
    Said {
        pages,
        errors,
        messages: err
            .lines()
            .filter(|l| !l.contains(" records read, "))
            .map(str::to_string)
            .collect(),
        extracted: count(" extracted"),
        failed: count(" failed"),
        success: o.status.success(),
        stdout,
        stderr: err,
    }
}

/// Checks one run against the clean lines (`clean`: id to line) and `expect`.
fn check_run(s: &Said, clean: &HashMap<String, String>, expect: &Expect) -> Result<(), String> {
    // Pages: the intact ones in order, each as from the clean file; a damaged one only when
    // its damage may not show, and then as from the clean file.
    let mut maybe_out = Vec::new();
    let mut got = Vec::new();
    for (id, line) in &s.pages {
        if expect.maybe.contains(id) {
            if clean.get(id) != Some(line) {
                return Err(format!("damaged record {id} came out changed: {line}"));
            }
            maybe_out.push(id.clone());
            continue;
        }
        if !expect.intact.contains(id) {
            return Err(format!("a page that is no intact record: {line}"));
        }
        if clean.get(id) != Some(line) {
            return Err(format!(
                "intact record {id} changed:\n  {line}\n  {:?}",
                clean.get(id)
            ));
        }
        got.push(id.clone());
    }
    if got != expect.intact {
        return Err(format!(
            "intact records out {got:?}, expected {:?}",
            expect.intact
        ));
    }
    // Errors: one per damaged record (less the maybe-damaged ones that came out whole).
    let want = expect.damaged.len() - maybe_out.len();
    if s.errors.len() != want {
        return Err(format!(
            "{} error lines for {want} damaged records: {:?}",
            s.errors.len(),
            s.errors
        ));
    }
    for named in expect.damaged.iter().flatten() {
        if maybe_out.contains(named) {
            continue;
        }
        let n = s
            .errors
            .iter()
            .filter(|e| e["id"].as_str() == Some(named))
            .count();
        if n != 1 {
            return Err(format!("{n} error lines name {named}: {:?}", s.errors));
        }
    }
    // stderr: one line per error line, saying the same.
    if s.messages.len() != s.errors.len() {
        return Err(format!(
            "{} stderr lines for {} error lines:\n{}",
            s.messages.len(),
            s.errors.len(),
            s.stderr
        ));
    }
    for e in &s.errors {
        let msg = e["error"].as_str().unwrap_or("(no message)");
        if !s.messages.iter().any(|m| m.ends_with(msg)) {
            return Err(format!("error {msg:?} not on stderr:\n{}", s.stderr));
        }
    }
    let (pages, errors) = (s.pages.len() as u64, s.errors.len() as u64);
    if s.extracted != Some(pages) || s.failed != Some(errors) {
        return Err(format!(
            "summary says {:?} extracted, {:?} failed; {pages} pages and {errors} errors out:\n{}",
            s.extracted, s.failed, s.stderr
        ));
    }
    if s.success == (errors > 0) {
        return Err(format!(
            "--strict exit status {} with {errors} failed",
            if s.success { "0" } else { "non-zero" }
        ));
    }
    Ok(())
}

/// Runs pith on `bytes` at `-j 1` and `-j 2` on a file and from standard input (at `-j 1` or
/// `-j 2` by the seed), with `args` before the file; checks each run and that all agree.
/// `clean_bytes` is the clean file, read once for the lines intact records must give.
fn check_variant(
    name: &str,
    seed: u64,
    args: &[&str],
    bytes: &[u8],
    clean_bytes: &[u8],
    expect: &Expect,
) -> Result<Tally, String> {
    let dir = std::env::temp_dir().join(format!("pith-dmgrec-{}", std::process::id()));
    std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
    let path = dir.join(format!("{name}-{seed}"));
    let clean_path = dir.join(format!("{name}-{seed}-clean"));
    std::fs::File::create(&path)
        .and_then(|mut f| f.write_all(bytes))
        .map_err(|e| e.to_string())?;
    std::fs::write(&clean_path, clean_bytes).map_err(|e| e.to_string())?;
    let (p, cp) = (
        path.to_string_lossy().into_owned(),
        clean_path.to_string_lossy().into_owned(),
    );
    let limit = Duration::from_secs(60);
    let run = |j: &str, file: &str, stdin: &[u8]| {
        let mut a = vec!["--strict", "--format", "json", "-j", j];
        a.extend_from_slice(args);
        a.push(file);
        pith_within(&a, stdin, limit)
    };
    let clean_run = said(&run("1", &cp, b""));
    let one = run("1", &p, b"");
    let two = run("2", &p, b"");
    let stdin_j = if seed.is_multiple_of(2) { "2" } else { "1" };
    let from_stdin = run(stdin_j, "-", bytes);
    let _ = std::fs::remove_file(&path);
    let _ = std::fs::remove_file(&clean_path);
    if !clean_run.errors.is_empty() || !clean_run.success {
        return Err(format!("the clean file fails:\n{}", clean_run.stderr));
    }
    let clean: HashMap<String, String> = clean_run.pages.into_iter().collect();
    // Every record meant to come out comes out of the clean file.
    for i in expect.intact.iter().chain(&expect.maybe) {
        if !clean.contains_key(i) {
            return Err(format!("record {i} is not a page of the clean file"));
        }
    }
    let (one, two, from_stdin) = (said(&one), said(&two), said(&from_stdin));
    check_run(&one, &clean, expect).map_err(|e| format!("-j 1: {e}"))?;
    if (&one.stdout, &one.stderr) != (&two.stdout, &two.stderr) {
        return Err(format!(
            "-j 1 and -j 2 differ:\n{}{}\n---\n{}{}",
            one.stdout, one.stderr, two.stdout, two.stderr
        ));
    }
    let quoted = serde_json::to_string(&p).unwrap_or_default();
    let as_file = |s: &str| {
        s.replace("\"source\":\"-\"", &format!("\"source\":{quoted}"))
            .replace("pith: -: ", &format!("pith: {p}: "))
    };
    if (as_file(&from_stdin.stdout), as_file(&from_stdin.stderr)) != (one.stdout, one.stderr) {
        return Err(format!(
            "stdin (-j {stdin_j}) and the file differ:\n{}{}",
            from_stdin.stdout, from_stdin.stderr
        ));
    }
    Ok(Tally {
        variants: 1,
        intact: one.pages.len() - (expect.damaged.len() - one.errors.len()),
        damaged: expect.damaged.len(),
        reported: one.errors.len(),
    })
}

/// What the variants of a class held and gave (each run: `-j 1`, `-j 2` and stdin agree).
#[derive(Debug, Default)]
struct Tally {
    variants: usize,
    /// Intact records out, as from the clean file.
    intact: usize,
    /// Damaged records in...
    damaged: usize,
    /// ...and reported (the rest came out whole: a flipped bit that changed nothing).
    reported: usize,
}

fn run_class(class: &str, variant: impl Fn(u64) -> Result<Tally, String>) {
    let mut failures = Vec::new();
    let mut sum = Tally::default();
    let n = seeds();
    for seed in 0..n {
        match variant(seed) {
            Ok(t) => {
                sum.variants += t.variants;
                sum.intact += t.intact;
                sum.damaged += t.damaged;
                sum.reported += t.reported;
            }
            Err(e) => {
                let cut: String = e.chars().take(3000).collect();
                failures.push(format!("{class} seed {seed}: {cut}"));
            }
        }
    }
    // (`--nocapture` shows it.)
    println!("{class}: {sum:?}");
    assert!(
        failures.is_empty(),
        "{} of {n} variants failed:\n{}",
        failures.len(),
        failures.join("\n\n")
    );
}

// ---------------------------------------------------------------------------------------
// Class 3: damaged WARC headers.

/// What is done to a record's header.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum HeaderDamage {
    /// No `WARC-Type` line: reported.
    NoType,
    /// No blank line after the header: reported.
    NoBlank,
    /// No `Content-Length` line: reported.
    NoLength,
    /// One field line replaced by a line that is not a field: reported.
    Garbled,
    /// The version line damaged: reported.
    BadVersion,
    /// Line ends CR only: read (documented), the record comes out.
    CrOnly,
    /// Line ends LF only, or each line's end CR, LF or CRLF at random: read.
    Mixed,
    /// CR-only line ends and no `WARC-Type`: reported.
    CrOnlyNoType,
}

/// A header variant of record `i` (a response page, or a request), and what it expects: the
/// id the error names (`None` inside when it cannot), or `None` when the record is intact.
fn damaged_header(
    r: &mut Rng,
    i: usize,
    kind: &str,
    block: &[u8],
    damage: HeaderDamage,
) -> (Vec<u8>, Option<Option<String>>) {
    let lines = fields(kind, i, block.len(), &[]);
    let mut ends: Vec<&'static [u8]> = (0..lines.len() + 2)
        .map(|_| *r.pick(&[&b"\r"[..], b"\n", b"\r\n"]))
        .collect();
    // A CR then a blank line ended by LF is a CRLF, no blank line: no writer means that.
    let blank = lines.len() + 1;
    if ends[blank - 1] == b"\r" && ends[blank] == b"\n" {
        ends[blank] = b"\r\n";
    }
    let mixed = move |k: usize| ends[k.min(ends.len() - 1)];
    let cr = |_: usize| &b"\r"[..];
    let named = Some(Some(id(i)));
    match damage {
        HeaderDamage::NoType => {
            let v: Vec<String> = lines[1..].to_vec();
            (warc("WARC/1.0", &v, &crlf, true, block), named)
        }
        HeaderDamage::CrOnlyNoType => {
            let v: Vec<String> = lines[1..].to_vec();
            (warc("WARC/1.0", &v, &cr, true, block), named)
        }
        HeaderDamage::NoBlank => (warc("WARC/1.0", &lines, &crlf, false, block), named),
        HeaderDamage::NoLength => {
            let v: Vec<String> = lines[..lines.len() - 1].to_vec();
            (warc("WARC/1.0", &v, &crlf, true, block), named)
        }
        HeaderDamage::Garbled => {
            let k = r.below(lines.len());
            let junk_len = 1 + r.below(30);
            let mut junk: String = (0..junk_len)
                .map(|_| {
                    let c = *r.pick(b"abcxyz019 <>/\"=;.-_&HTTP");
                    c as char
                })
                .collect();
            // Not a field (no colon) and not a continuation line (no leading blank).
            junk.insert(0, *r.pick(&['<', 'x', '9', 'H']));
            let mut v = lines.clone();
            v[k] = junk;
            let named = if k > ID_LINE { named } else { Some(None) };
            (warc("WARC/1.0", &v, &crlf, true, block), named)
        }
        HeaderDamage::BadVersion => {
            let version = *r.pick(&["WARX/1.0", "WAR/1.0", "xWARC/1.0x", "warc/1.0"]);
            (warc(version, &lines, &crlf, true, block), Some(None))
        }
        HeaderDamage::CrOnly => (warc("WARC/1.0", &lines, &cr, true, block), None),
        HeaderDamage::Mixed => {
            if r.chance(2) {
                let lf = |_: usize| &b"\n"[..];
                (warc("WARC/1.0", &lines, &lf, true, block), None)
            } else {
                (warc("WARC/1.0", &lines, &mixed, true, block), None)
            }
        }
    }
}

fn page_block(set: &str, i: usize) -> Vec<u8> {
    format!(
        "HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\n\r\n{}",
        html(set, i, i)
    )
    .into_bytes()
}

fn request_block(i: usize) -> Vec<u8> {
    format!("GET /{i} HTTP/1.1\r\nHost: example.org\r\n\r\n").into_bytes()
}

fn header_variant(seed: u64) -> Result<Tally, String> {
    let mut r = Rng(seed ^ 0x3333);
    let n = 3 + r.below(5);
    let lay = layout(&mut r);
    let all = [
        HeaderDamage::NoType,
        HeaderDamage::NoBlank,
        HeaderDamage::NoLength,
        HeaderDamage::Garbled,
        HeaderDamage::BadVersion,
        HeaderDamage::CrOnly,
        HeaderDamage::Mixed,
        HeaderDamage::CrOnlyNoType,
    ];
    // One damaged record, two, or (one in five) every record CR-only or every record one
    // damage (the issue's five CR-only records).
    let every = r.chance(5);
    // (A file whose every version line is damaged holds no WARC record: it is a page.)
    let first = *r.pick(if every { &all[..4] } else { &all[..] });
    let first = if every && r.chance(2) {
        *r.pick(&[
            HeaderDamage::CrOnly,
            HeaderDamage::Mixed,
            HeaderDamage::CrOnlyNoType,
        ])
    } else {
        first
    };
    let targets: Vec<usize> = if every {
        (0..n).collect()
    } else {
        let a = r.below(n);
        let b = r.below(n);
        if r.chance(2) || a == b {
            vec![a]
        } else {
            vec![a, b]
        }
    };
    let mut records = Vec::new();
    let mut clean = Vec::new();
    let mut expect = Expect::default();
    let mut plan = Vec::new();
    for i in 0..n {
        let kind = if i % 3 == 1 { "request" } else { "response" };
        let block = if kind == "request" {
            request_block(i)
        } else {
            page_block("h", i)
        };
        let lines = fields(kind, i, block.len(), &[]);
        let whole = warc("WARC/1.0", &lines, &crlf, true, &block);
        clean.push(whole.clone());
        if targets.contains(&i) {
            let damage = if every || i == targets[0] {
                first
            } else {
                *r.pick(&all)
            };
            plan.push((i, damage));
            let (bytes, reported) = damaged_header(&mut r, i, kind, &block, damage);
            records.push(bytes);
            match reported {
                Some(named) => expect.damaged.push(named),
                None if kind == "response" => expect.intact.push(id(i)),
                None => {}
            }
        } else {
            records.push(whole);
            if kind == "response" {
                expect.intact.push(id(i));
            }
        }
    }
    let bytes = store(&records, lay);
    check_variant("hdr", seed, &[], &bytes, &store(&clean, lay), &expect)
        .map_err(|e| format!("{lay:?} {plan:?}: {e}"))
}

#[test]
fn class3_damaged_warc_headers_are_failures_and_cost_no_other_record() {
    run_class("headers", header_variant);
}

/// The issue's reproducer `hdr.warc`: a record without WARC-Type and a head without its blank
/// line between intact ones; and five records with CR-only header lines.
#[test]
fn class3_issue_reproducers() {
    // r(i, typ, sep, nl) of the issue's Python.
    fn r(i: usize, typ: bool, sep: &[u8], nl: &[u8]) -> Vec<u8> {
        let p = format!("<p>REC{i} The council said the bridge opens in spring.</p>");
        let b = format!(
            "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: {}\r\n\r\n{p}",
            p.len()
        );
        let mut h = b"WARC/1.0\r\n".to_vec();
        if typ {
            h.extend_from_slice(b"WARC-Type: response\r\n");
        }
        h.extend_from_slice(
            format!("WARC-Record-ID: <urn:{i}>\r\nContent-Length: {}", b.len()).as_bytes(),
        );
        h.extend_from_slice(sep);
        let text = String::from_utf8_lossy(&h).replace("\r\n", &String::from_utf8_lossy(nl));
        let mut out = text.into_bytes();
        out.extend_from_slice(b.as_bytes());
        out.extend_from_slice(b"\r\n\r\n");
        out
    }
    let (crlf, sep) = (&b"\r\n"[..], &b"\r\n\r\n"[..]);
    let hdr = [
        r(1, true, sep, crlf),
        r(2, false, sep, crlf),
        r(3, true, b"\r\n", crlf),
        r(4, true, sep, crlf),
    ]
    .concat();
    let clean = [1, 2, 3, 4].map(|i| r(i, true, sep, crlf)).concat();
    let expect = Expect {
        intact: vec!["<urn:1>".into(), "<urn:4>".into()],
        damaged: vec![Some("<urn:2>".into()), Some("<urn:3>".into())],
        maybe: vec![],
    };
    check_variant("hdr.warc", 0, &[], &hdr, &clean, &expect).unwrap_or_else(|e| panic!("{e}"));
    let cr5: Vec<u8> = (1..=5).flat_map(|i| r(i, true, sep, b"\r")).collect();
    let clean5: Vec<u8> = (1..=5).flat_map(|i| r(i, true, sep, crlf)).collect();
    let expect = Expect {
        intact: (1..=5).map(|i| format!("<urn:{i}>")).collect(),
        ..Expect::default()
    };
    check_variant("cr5.warc", 1, &[], &cr5, &clean5, &expect).unwrap_or_else(|e| panic!("{e}"));
}

// ---------------------------------------------------------------------------------------
// Class 4: HTTP bodies that do not decode.

/// How a body is stored.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Coding {
    Identity,
    /// `Content-Encoding: gzip` on a body stored decoded (crawlers that decode and keep the
    /// header): the page as it stands.
    GzipDeclaredOnly,
    Gzip,
    Zlib,
    RawDeflate,
    Brotli,
    Chunked,
    ChunkedGzip,
}

/// What is done to a body.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum BodyDamage {
    /// The stored body ends early (the record's lengths agree with what is stored).
    Cut,
    /// One byte flipped (codings with a checksum only).
    Flip,
    /// Ten bytes zeroed (the issue's reproducer).
    Zero,
    /// The record is the first segment of a segmented record, a continuation follows.
    Segmented,
}

fn deflate(how: &str, data: &[u8]) -> Vec<u8> {
    use flate2::Compression;
    let level = Compression::new(6);
    let out = match how {
        "zlib" => {
            let mut e = flate2::write::ZlibEncoder::new(Vec::new(), level);
            e.write_all(data).and_then(|()| e.finish())
        }
        _ => {
            let mut e = flate2::write::DeflateEncoder::new(Vec::new(), level);
            e.write_all(data).and_then(|()| e.finish())
        }
    };
    out.unwrap_or_default()
}

/// `data` in chunks of sizes chosen by `r`, with the last (zero-size) chunk.
fn chunked(r: &mut Rng, data: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    let mut rest = data;
    while !rest.is_empty() {
        let k = (1 + r.below(700)).min(rest.len());
        out.extend_from_slice(format!("{k:x}\r\n").as_bytes());
        out.extend_from_slice(&rest[..k]);
        out.extend_from_slice(b"\r\n");
        rest = &rest[k..];
    }
    out.extend_from_slice(b"0\r\n\r\n");
    out
}

/// The HTTP head lines and the stored body of `page` in `coding`.
fn encode(r: &mut Rng, coding: Coding, page: &[u8]) -> (String, Vec<u8>) {
    match coding {
        Coding::Identity => (String::new(), page.to_vec()),
        Coding::GzipDeclaredOnly => ("Content-Encoding: gzip\r\n".into(), page.to_vec()),
        Coding::Gzip => ("Content-Encoding: gzip\r\n".into(), gz(page)),
        Coding::Zlib => (
            "Content-Encoding: deflate\r\n".into(),
            deflate("zlib", page),
        ),
        Coding::RawDeflate => ("Content-Encoding: deflate\r\n".into(), deflate("raw", page)),
        Coding::Brotli => {
            let mut w = brotli::CompressorWriter::new(Vec::new(), 4096, 5, 22);
            let _ = w.write_all(page);
            ("Content-Encoding: br\r\n".into(), w.into_inner())
        }
        Coding::Chunked => ("Transfer-Encoding: chunked\r\n".into(), chunked(r, page)),
        Coding::ChunkedGzip => (
            "Content-Encoding: gzip\r\nTransfer-Encoding: chunked\r\n".into(),
            chunked(r, &gz(page)),
        ),
    }
}

fn response(i: usize, head: &str, body: &[u8], extra: &[String]) -> Vec<u8> {
    let mut block =
        format!("HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\n{head}\r\n")
            .into_bytes();
    block.extend_from_slice(body);
    warc(
        "WARC/1.0",
        &fields("response", i, block.len(), extra),
        &crlf,
        true,
        &block,
    )
}

fn body_variant(seed: u64) -> Result<Tally, String> {
    let mut r = Rng(seed ^ 0x4444);
    let n = 3 + r.below(4);
    let lay = layout(&mut r);
    let codings = [
        Coding::Identity,
        Coding::GzipDeclaredOnly,
        Coding::Gzip,
        Coding::Zlib,
        Coding::RawDeflate,
        Coding::Brotli,
        Coding::Chunked,
        Coding::ChunkedGzip,
    ];
    let target = r.below(n);
    let second = r.chance(3).then(|| r.below(n)).filter(|&b| b != target);
    let mut records = Vec::new();
    let mut clean = Vec::new();
    let mut expect = Expect::default();
    let mut plan = Vec::new();
    for i in 0..n {
        let page = html("b", i, i + r.below(8)).into_bytes();
        let damaged = i == target || Some(i) == second;
        let coding = if damaged {
            // A damaged body is in a coding whose damage can show.
            *r.pick(&codings[2..])
        } else {
            *r.pick(&codings)
        };
        let (head, body) = encode(&mut r, coding, &page);
        clean.push(response(i, &head, &body, &[]));
        if !damaged {
            records.push(response(i, &head, &body, &[]));
            expect.intact.push(id(i));
            continue;
        }
        let checksum = matches!(coding, Coding::Gzip | Coding::Zlib | Coding::ChunkedGzip);
        let damage = if checksum {
            *r.pick(&[
                BodyDamage::Cut,
                BodyDamage::Flip,
                BodyDamage::Zero,
                BodyDamage::Segmented,
            ])
        } else {
            *r.pick(&[BodyDamage::Cut, BodyDamage::Segmented])
        };
        // Bytes before this offset are headers whose damage need not show (gzip's MTIME).
        let skip = match coding {
            Coding::Gzip => 10,
            Coding::Zlib => 2,
            _ => 0,
        };
        let mut b = body.clone();
        let pos = skip + r.below(b.len().saturating_sub(skip).max(1));
        match damage {
            BodyDamage::Cut => {
                // At least one byte stays (an empty body is an empty page); a chunked body
                // keeps less than its last chunk's size line.
                let keep_max = if matches!(coding, Coding::Chunked | Coding::ChunkedGzip) {
                    b.len() - 2
                } else {
                    b.len()
                };
                b.truncate(1 + r.below(keep_max - 1));
                expect.damaged.push(Some(id(i)));
            }
            BodyDamage::Flip => {
                if let Some(x) = b.get_mut(pos) {
                    *x ^= 1 << r.below(8);
                }
                expect.damaged.push(Some(id(i)));
                expect.maybe.push(id(i));
            }
            BodyDamage::Zero => {
                let end = (pos + 10).min(b.len());
                b[pos.min(end)..end].fill(0);
                expect.damaged.push(Some(id(i)));
                // Zeros where zeros were, or over a chunked body's last CRLF: no damage.
                expect.maybe.push(id(i));
            }
            BodyDamage::Segmented => {
                expect.damaged.push(Some(id(i)));
            }
        }
        plan.push((i, coding, damage, pos, b.len(), body.len()));
        if damage == BodyDamage::Segmented {
            let seg = ["WARC-Segment-Number: 1".to_string()];
            records.push(response(i, &head, &body, &seg));
            // The continuation: a record of its own type, skipped.
            let rest = b"the rest of the payload";
            let cont = [
                format!("WARC-Segment-Origin-ID: {}", id(i)),
                "WARC-Segment-Number: 2".to_string(),
                format!("WARC-Segment-Total-Length: {}", body.len() + rest.len()),
            ];
            let lines = fields("continuation", 1000 + i, rest.len(), &cont);
            records.push(warc("WARC/1.0", &lines, &crlf, true, rest));
        } else {
            records.push(response(i, &head, &b, &[]));
        }
    }
    let bytes = store(&records, lay);
    check_variant("body", seed, &[], &bytes, &store(&clean, lay), &expect)
        .map_err(|e| format!("{lay:?} {plan:?}: {e}"))
}

#[test]
fn class4_bodies_that_do_not_decode_are_failures_never_part_of_a_page() {
    run_class("bodies", body_variant);
}

/// The issue's reproducer `ce.warc`: a gzip body with ten bytes zeroed in its middle.
#[test]
fn class4_issue_reproducer() {
    let p: Vec<u8> = (0..4)
        .flat_map(|k| {
            format!("<p>REC1 part {k}: the council said the bridge opens.</p>").into_bytes()
        })
        .collect();
    let mut g = gz(&p);
    let mid = g.len() / 2;
    g[mid..mid + 10].fill(0);
    let ce = response(1, "Content-Encoding: gzip\r\n", &g, &[]);
    let next = response(2, "", html("c", 2, 2).as_bytes(), &[]);
    let clean = [
        response(1, "Content-Encoding: gzip\r\n", &gz(&p), &[]),
        next.clone(),
    ]
    .concat();
    let expect = Expect {
        intact: vec![id(2)],
        damaged: vec![Some(id(1))],
        maybe: vec![],
    };
    check_variant("ce.warc", 0, &[], &[ce, next].concat(), &clean, &expect)
        .unwrap_or_else(|e| panic!("{e}"));
}

// ---------------------------------------------------------------------------------------
// Class 6: JSON lines.

fn json_line(i: usize) -> String {
    let mut o = serde_json::Map::new();
    o.insert("id".into(), Value::String(format!("j{i}")));
    o.insert(
        "url".into(),
        Value::String(format!("http://example.org/{i}")),
    );
    o.insert("html".into(), Value::String(html("j", i, i)));
    if i.is_multiple_of(2) {
        o.insert("lang".into(), Value::String("en".into()));
    }
    Value::Object(o).to_string()
}

fn jsonl_variant(seed: u64) -> Result<Tally, String> {
    let mut r = Rng(seed ^ 0x6666);
    let n = 3 + r.below(6);
    let bom = r.chance(2);
    let ends: [&[u8]; 3] = [b"\n", b"\r\n", b"\r"];
    // One line end for the file, or each line's at random.
    let one_end = r.chance(2).then(|| *r.pick(&ends));
    let forced = r.chance(3);
    let gzip = r.chance(5);
    // A line that is not JSON: first (junk before the records, or the end of a record cut
    // at its start), in the middle, or none.
    let junk_at = match r.below(3) {
        0 => Some(0),
        1 => Some(1 + r.below(n)),
        _ => None,
    };
    let junk = *r.pick(&[
        "garbage that is not JSON",
        "<p>the end of a page cut at its start</p>\", \"id\": \"x\"}",
        "{\"id\": \"cut\", \"html\": \"<p>cut short",
        "[1, 2, 3]",
    ]);
    // A BOM again in the middle (two files concatenated), blank lines between records.
    let bom_again = (n > 3 && r.chance(4)).then(|| 1 + r.below(n - 1));
    let blanks = r.chance(3);
    let last_end = r.chance(4);
    let mut out = Vec::new();
    let mut clean = Vec::new();
    let mut expect = Expect::default();
    if bom {
        out.extend_from_slice(b"\xef\xbb\xbf");
    }
    for i in 0..=n {
        if junk_at == Some(i) {
            out.extend_from_slice(junk.as_bytes());
            out.extend_from_slice(one_end.unwrap_or_else(|| *r.pick(&ends)));
            expect.damaged.push(None);
        }
        if i == n {
            break;
        }
        if bom_again == Some(i) {
            out.extend_from_slice(b"\xef\xbb\xbf");
        }
        if blanks && r.chance(2) {
            let spaces: [&[u8]; 3] = [b"", b"  ", b"\t"];
            let space = *r.pick(&spaces);
            out.extend_from_slice(space);
            out.extend_from_slice(one_end.unwrap_or_else(|| *r.pick(&ends)));
        }
        let line = json_line(i);
        out.extend_from_slice(line.as_bytes());
        clean.extend_from_slice(line.as_bytes());
        clean.push(b'\n');
        if i + 1 < n || last_end || junk_at == Some(n) {
            out.extend_from_slice(one_end.unwrap_or_else(|| *r.pick(&ends)));
        }
        expect.intact.push(format!("j{i}"));
    }
    let (bytes, clean) = if gzip {
        (gz(&out), gz(&clean))
    } else {
        (out, clean)
    };
    let args: &[&str] = if forced { &["--input", "jsonl"] } else { &[] };
    let plan = format!(
        "bom {bom} ends {one_end:?} forced {forced} gzip {gzip} junk {junk_at:?} {junk:?} bom again {bom_again:?} blanks {blanks} last end {last_end}"
    );
    check_variant("jsonl", seed, args, &bytes, &clean, &expect).map_err(|e| format!("{plan}: {e}"))
}

#[test]
fn class6_json_lines_with_a_bom_and_any_line_ends_are_read_never_as_one_page() {
    run_class("jsonl", jsonl_variant);
}

/// The issue's cases: a BOM (auto framing and `--input jsonl`), CR-only line ends.
#[test]
fn class6_issue_reproducers() {
    let lines: Vec<String> = (0..4).map(json_line).collect();
    let clean = format!("{}\n", lines.join("\n")).into_bytes();
    let expect = Expect {
        intact: (0..4).map(|i| format!("j{i}")).collect(),
        ..Expect::default()
    };
    let bom = [b"\xef\xbb\xbf".to_vec(), clean.clone()].concat();
    for args in [&[][..], &["--input", "jsonl"][..]] {
        check_variant("bom.jsonl", 0, args, &bom, &clean, &expect)
            .unwrap_or_else(|e| panic!("{args:?}: {e}"));
    }
    let cr = format!("{}\r", lines.join("\r")).into_bytes();
    check_variant("cr.jsonl", 1, &[], &cr, &clean, &expect).unwrap_or_else(|e| panic!("{e}"));
}
