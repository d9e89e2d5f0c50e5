//! Damage one record, lose only that record. The harness (`damage_harness/`)
//! builds WARC files from known records, damages one, and checks that every other record
//! comes out byte for byte as from the clean file, with at most one error line for the damaged
//! one, and the same lines from the sequential (`-j 1`) and the split (`-j N`) reader.

use crate::common;
use crate::damage_harness;

use damage_harness::{Case, check};

#[test]
fn seeded_damages_keep_the_invariant() {
    let mut failures = Vec::new();
    // PITH_DAMAGE_SEEDS=n runs more (5,000 pass).
    let seeds: u64 = std::env::var("PITH_DAMAGE_SEEDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1000);
    for seed in 0..seeds {
        let case = Case::from_seed(seed);
        if let Err(e) = check(&case) {
            failures.push(format!("seed {seed} {case:?}: {}", &e[..e.len().min(3000)]));
        }
    }
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n\n")
    );
}

// The damage reproducers (built here), each run through the binary at `-j 1`,
// `-j 2` and from standard input: the same lines, errors and summary every way.

use crate::run_util;

use std::time::Duration;

use run_util::{gz, json_lines, pith_within, remove_temp_file, stderr, temp_file};

const A: &str = "<p>PITHMARKER The council said the new bridge will open next spring after two years of work.</p>";

/// A record of mk.py: `rec(i, typ, cl, body)`.
fn rec(id: &str, kind: &str, cl: Option<usize>, body: Option<&[u8]>) -> Vec<u8> {
    let default = if kind == "response" {
        format!("HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n<html><body>{A}</body></html>")
            .into_bytes()
    } else {
        b"GET / HTTP/1.1\r\n\r\n".to_vec()
    };
    let body = body.map(<[u8]>::to_vec).unwrap_or(default);
    let mut r = format!(
        "WARC/1.0\r\nWARC-Type: {kind}\r\nWARC-Record-ID: <urn:{id}>\r\nContent-Length: {}\r\n\r\n",
        cl.unwrap_or(body.len())
    )
    .into_bytes();
    r.extend_from_slice(&body);
    r.extend_from_slice(b"\r\n\r\n");
    r
}

fn page(id: &str) -> Vec<u8> {
    rec(id, "response", None, None)
}

/// What pith says about `bytes` (written to a file named `name`): the ids of the pages, the
/// error lines, and whether `--strict` failed; the same at `-j 1`, `-j 2` and on stdin.
fn outcome(name: &str, bytes: &[u8]) -> (Vec<String>, Vec<String>, bool) {
    let p = temp_file("damage", name, bytes);
    let limit = Duration::from_secs(60);
    let one = pith_within(&["--strict", "--format", "json", "-j", "1", &p], b"", limit);
    let two = pith_within(&["--strict", "--format", "json", "-j", "2", &p], b"", limit);
    let stdin = pith_within(
        &["--strict", "--format", "json", "-j", "2", "-"],
        bytes,
        limit,
    );
    remove_temp_file(&p);
    assert_eq!(one.stdout, two.stdout, "{name}: -j 1 and -j 2");
    assert_eq!(stderr(&one), stderr(&two), "{name}: -j 1 and -j 2");
    let from_stdin = stderr(&stdin).replace(" -: ", &format!(" {p}: "));
    assert_eq!(
        from_stdin.replace("-: record", &format!("{p}: record")),
        stderr(&one),
        "{name}: stdin"
    );
    let lines = json_lines(&one);
    let ids = lines
        .iter()
        .filter(|l| l.get("error").is_none())
        .map(|l| l["id"].as_str().unwrap_or("").to_string())
        .collect();
    let errors: Vec<String> = stderr(&one)
        .lines()
        .filter(|l| !l.contains("records read"))
        .map(str::to_string)
        .collect();
    let summary_failed = stderr(&one)
        .lines()
        .find(|l| l.contains("records read"))
        .map(|l| l.trim_end().ends_with(&format!("{} failed", errors.len())))
        .unwrap_or(false);
    assert!(
        summary_failed || errors.is_empty(),
        "{name}: summary counts every error\n{}",
        stderr(&one)
    );
    assert_eq!(
        !one.status.success(),
        !errors.is_empty(),
        "{name}: --strict"
    );
    (ids, errors, !one.status.success())
}

fn ids(v: &[&str]) -> Vec<String> {
    v.iter().map(|i| format!("<urn:{i}>")).collect()
}

#[test]
fn d1_a_skipped_record_running_past_the_end_loses_nothing_after_it() {
    let warc = [
        page("a"),
        rec("req", "request", Some(1_000_000), None),
        page("b"),
        page("c"),
    ]
    .concat();
    let (got, errors, strict_failed) = outcome("r1.warc", &warc);
    assert_eq!(got, ids(&["a", "b", "c"]));
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert!(
        errors[0].contains("<urn:req>") && errors[0].contains("Content-Length 1000000"),
        "{errors:?}"
    );
    assert!(strict_failed);
    // The same in a whole-file gzip.
    let (got, errors, _) = outcome("r1.warc.gz", &gz(&warc));
    assert_eq!((got, errors.len()), (ids(&["a", "b", "c"]), 1));
}

/// mk.py's D2: a one-bit flip in a member that inflates to the right length but fails its CRC.
fn crc_damaged_member(record: &[u8]) -> Vec<u8> {
    use std::io::Read;
    let m = gz(record);
    for p in m.len() / 2..m.len() - 8 {
        let mut x = m.clone();
        x[p] ^= 1;
        let mut raw = Vec::new();
        let ok = flate2::read::DeflateDecoder::new(&x[10..])
            .read_to_end(&mut raw)
            .is_ok();
        if ok && raw.len() == record.len() && raw != record {
            return x;
        }
    }
    panic!("no flip found");
}

#[test]
fn d2_a_member_failing_its_crc_is_one_error_with_its_id_at_every_j() {
    let body: String = (0..200)
        .map(|i| format!("<p>Paragraph {i}: the council said the bridge will open in spring, after two years of work.</p>"))
        .collect();
    let body = format!(
        "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n<html><body>{body}</body></html>"
    );
    let bad = crc_damaged_member(&rec("b", "response", None, Some(body.as_bytes())));
    let warc = [gz(&page("a")), bad, gz(&page("c"))].concat();
    let (got, errors, _) = outcome("r5.warc.gz", &warc);
    assert_eq!(got, ids(&["a", "c"]));
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert!(
        errors[0].contains("<urn:b>") && errors[0].contains("checksum"),
        "{errors:?}"
    );
}

#[test]
fn d3_a_record_cut_mid_line_then_more_records_loses_only_itself() {
    let ab = [page("a"), page("b")].concat();
    let warc = [&ab[..ab.len() - 50], &page("c"), &page("d")].concat();
    let (got, errors, _) = outcome("r4.warc", &warc);
    assert_eq!(got, ids(&["a", "c", "d"]));
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert!(errors[0].contains("<urn:b>"), "{errors:?}");
}

#[test]
fn d4_a_record_over_the_limit_running_past_the_end_loses_nothing_after_it() {
    let warc = [
        page("a"),
        rec("big", "response", Some(1_000_000_000), None),
        page("b"),
        page("c"),
    ]
    .concat();
    let (got, errors, _) = outcome("r2.warc", &warc);
    assert_eq!(got, ids(&["a", "b", "c"]));
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert!(errors[0].contains("<urn:big>") && errors[0].contains("record limit"));
}

#[test]
fn d5_junk_before_a_record_costs_no_record() {
    for junk in [&b"x"[..], b"garbage without a newline", b"\x00\x01\x02"] {
        let warc = [page("a"), junk.to_vec(), page("b"), page("c")].concat();
        let (got, errors, _) = outcome("r3.warc", &warc);
        assert_eq!(got, ids(&["a", "b", "c"]), "{junk:?}");
        assert_eq!(errors.len(), 1, "{junk:?}: {errors:?}");
    }
}

#[test]
fn d6_gzip_framing_damage_is_reported_and_costs_no_other_record() {
    // A member whose magic byte is damaged.
    let mut m = gz(&page("b"));
    m[0] ^= 0xff;
    let warc = [gz(&page("a")), m, gz(&page("c"))].concat();
    let (got, errors, _) = outcome("r6.warc.gz", &warc);
    assert_eq!((got, errors.len()), (ids(&["a", "c"]), 1), "damaged magic");
    // Plain records after gzip members are read.
    let warc = [gz(&page("a")), gz(&page("b")), page("c"), page("d")].concat();
    let (got, errors, _) = outcome("r6b.warc.gz", &warc);
    assert_eq!(
        (got, errors.len()),
        (ids(&["a", "b", "c", "d"]), 0),
        "plain after gzip"
    );
    // Junk between members is reported.
    let warc = [
        gz(&page("a")),
        b"junk between members\r\n".to_vec(),
        gz(&page("b")),
    ]
    .concat();
    let (got, errors, _) = outcome("r6c.warc.gz", &warc);
    assert_eq!(
        (got, errors.len()),
        (ids(&["a", "b"]), 1),
        "junk between members"
    );
}

#[test]
fn d7_a_page_starting_like_a_binary_signature_is_a_page() {
    for start in [
        "BMW news",
        "ID3 tags",
        "GIF89a images",
        "RIFF raff",
        "OggS",
        "fLaC lovers",
    ] {
        let body = format!("HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n{start} {A}");
        let warc = rec("bm", "response", None, Some(body.as_bytes()));
        let (got, errors, _) = outcome("r7.warc", &warc);
        assert_eq!((got, errors), (ids(&["bm"]), vec![]), "{start}");
    }
}

#[test]
fn d9_a_wrong_chunk_size_is_an_error_and_a_fifo_template_is_refused() {
    let body = format!(
        "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nTransfer-Encoding: chunked\r\n\r\n10\r\n<html><body>{A}\r\n0\r\n\r\n"
    );
    let warc = [
        rec("chunked", "response", None, Some(body.as_bytes())),
        page("b"),
    ]
    .concat();
    let (got, errors, _) = outcome("r9.warc", &warc);
    assert_eq!(got, ids(&["b"]));
    assert!(
        errors.len() == 1 && errors[0].contains("chunk"),
        "{errors:?}"
    );
    #[cfg(unix)]
    {
        let dir = std::env::temp_dir().join(format!("pith-fifo-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("tmp");
        let fifo = dir.join("e.com.tpl");
        let made = std::process::Command::new("mkfifo").arg(&fifo).status();
        if made.is_ok_and(|s| s.success()) {
            let page = dir.join("p.html");
            std::fs::write(&page, format!("<html><body>{A}</body></html>")).expect("page");
            let (d, p) = (dir.to_string_lossy(), page.to_string_lossy());
            let o = pith_within(
                &["--templates", &d, "--url", "http://e.com/x", &p],
                b"",
                Duration::from_secs(20),
            );
            assert!(String::from_utf8_lossy(&o.stdout).contains("PITHMARKER"));
            assert!(stderr(&o).contains("not a regular file"), "{}", stderr(&o));
            let f = fifo.to_string_lossy();
            let o = pith_within(&["template", "show", &f], b"", Duration::from_secs(20));
            assert!(!o.status.success() && stderr(&o).contains("not a regular file"));
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
}

#[test]
fn d10_no_control_characters_out_random_bytes_refused_junk_before_the_first_record() {
    // NUL and other C0 controls never reach text or JSON output.
    let html = format!(
        "<html><body><p>PITHMARKER some\x00 text\x01 with\x0b controls\x1f in a paragraph long enough to be the article.</p>{A}</body></html>"
    );
    let body = format!("HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n{html}");
    let warc = rec("nul", "response", None, Some(body.as_bytes()));
    let (got, _, _) = outcome("r10.warc", &warc);
    assert_eq!(got, ids(&["nul"]));
    let o = pith_within(&["-"], html.as_bytes(), Duration::from_secs(20));
    assert!(
        o.stdout
            .iter()
            .all(|&b| b >= 0x20 || b == b'\n' || b == b'\t'),
        "{:?}",
        o.stdout
    );
    assert!(String::from_utf8_lossy(&o.stdout).contains("PITHMARKER"));
    // gzip of random bytes is refused.
    let mut x = crate::common::Rng(0x9e37_79b9_7f4a_7c15);
    let random: Vec<u8> = (0..100_000).map(|_| (x.next() >> 24) as u8).collect();
    let o = pith_within(&["-"], &gz(&random), Duration::from_secs(20));
    assert!(!o.status.success() && o.stdout.is_empty() && stderr(&o).contains("binary"));
    // Junk before the first record: still a WARC, the junk reported.
    let warc = [b"junk at the start\r\n".to_vec(), page("a"), page("b")].concat();
    let (got, errors, _) = outcome("r10b.warc", &warc);
    assert_eq!((got, errors.len()), (ids(&["a", "b"]), 1), "{errors:?}");
}

// The real samples of `../shared/data/warc_samples` (skipped when absent), each record of a
// few of them damaged in turn: every other record comes out as from the clean file.

/// Where each record of a clean uncompressed WARC is, with its id; `None` when the file does
/// not parse as plain WARC records one after another.
fn plain_records(bytes: &[u8]) -> Option<Vec<(usize, usize, String)>> {
    let mut out = Vec::new();
    let mut pos = 0;
    while pos < bytes.len() {
        if !bytes[pos..].starts_with(b"WARC/") {
            return None;
        }
        let head_end = find(&bytes[pos..], b"\r\n\r\n")? + 4;
        let head = String::from_utf8_lossy(&bytes[pos..pos + head_end]).into_owned();
        let field = |name: &str| {
            head.lines()
                .find(|l| l.to_ascii_lowercase().starts_with(name))
                .and_then(|l| l.split_once(':'))
                .map(|(_, v)| v.trim().to_string())
        };
        let len: usize = field("content-length")?.parse().ok()?;
        let id = field("warc-record-id").unwrap_or_default();
        let end = (pos + head_end + len).min(bytes.len());
        out.push((pos, end, id));
        pos = end;
        while pos < bytes.len() && bytes[pos].is_ascii_whitespace() {
            pos += 1;
        }
    }
    Some(out)
}

/// Where each gzip member of a clean per-record gzip WARC is, with the id of its record;
/// `None` when a member holds no record start.
fn member_records(bytes: &[u8]) -> Option<Vec<(usize, usize, String)>> {
    use std::io::Read;
    let mut out = Vec::new();
    let mut pos = 0;
    while pos < bytes.len() {
        let mut d = flate2::bufread::GzDecoder::new(&bytes[pos..]);
        let mut data = Vec::new();
        d.read_to_end(&mut data).ok()?;
        let used = bytes.len() - pos - d.into_inner().len();
        if !data.is_empty() {
            if !data.starts_with(b"WARC/") {
                return None;
            }
            let head_end = find(&data, b"\r\n\r\n").unwrap_or(data.len());
            let head = String::from_utf8_lossy(&data[..head_end]).into_owned();
            let id = head
                .lines()
                .find(|l| l.to_ascii_lowercase().starts_with("warc-record-id"))
                .and_then(|l| l.split_once(':'))
                .map(|(_, v)| v.trim().to_string())
                .unwrap_or_default();
            out.push((pos, pos + used, id));
        }
        pos += used.max(1);
    }
    Some(out)
}

fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w == needle)
}

#[test]
#[cfg_attr(pith_no_shared, ignore = "needs ../shared/data")]
fn samples_damaged_records_lose_only_themselves() {
    use damage_harness::{invariant, read};
    let files = common::sorted_files(&common::warc_samples().join("files"));
    let mut tried = 0;
    let mut failures = Vec::new();
    for file in files {
        let path = std::path::Path::new(&file);
        let Ok(bytes) = std::fs::read(path) else {
            continue;
        };
        if bytes.len() > 3 << 20 {
            continue;
        }
        let gzip = bytes.starts_with(&[0x1f, 0x8b]);
        let records = if gzip {
            member_records(&bytes)
        } else {
            plain_records(&bytes)
        };
        let Some(records) = records.filter(|r| r.len() >= 3) else {
            continue;
        };
        let clean = read(&bytes, false);
        if clean.iter().any(|l| l.contains("\"error\"")) || read(&bytes, true) != clean {
            continue;
        }
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        for t in 0..4u64 {
            let seed = t.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ bytes.len() as u64;
            let k = (seed as usize / 7) % records.len();
            let (s, e, ref id) = records[k];
            let len = (e - s).max(1);
            let p = s + 1 + (seed as usize >> 5) % len.saturating_sub(1).max(1);
            let mut v = bytes.clone();
            let damage = ["truncate", "flip", "insert", "delete"][(t % 4) as usize];
            match damage {
                "truncate" => {
                    v.drain(p.min(e)..e);
                }
                "flip" => v[p.min(e - 1)] ^= 0x5a,
                "insert" => {
                    v.splice(p..p, b"\x00junk\r\n".iter().copied());
                }
                _ => {
                    v.drain(p..(p + 7).min(e));
                }
            }
            tried += 1;
            let seq = read(&v, false);
            let hit = vec![id.clone()];
            if let Err(err) = invariant(&clean, &seq, &hit) {
                failures.push(format!("{name} record {k} {id} {damage} at {p}: {err}"));
            } else if read(&v, true) != seq {
                let split = read(&v, true);
                let only = |a: &[String], b: &[String]| -> Vec<String> {
                    a.iter()
                        .filter(|l| !b.contains(l))
                        .map(|l| l.chars().take(300).collect())
                        .collect()
                };
                failures.push(format!(
                    "{name} record {k} {id} {damage} at {p}: -j 1 and -j N differ\n  -j 1 only: {:?}\n  -j N only: {:?}",
                    only(&seq, &split),
                    only(&split, &seq)
                ));
            }
        }
    }
    println!("{tried} damaged copies of the samples");
    assert!(tried >= 40, "{tried}");
    assert!(
        failures.is_empty(),
        "{} of {tried}:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// The fuzz target's input decoding (`Case::from_bytes`) on fixed byte strings, so that CI runs
/// what `fuzz/fuzz_targets/damage.rs` runs without cargo-fuzz.
#[test]
fn fuzz_target_cases_keep_the_invariant() {
    let mut x = 0x0123_4567_89ab_cdefu64;
    let mut failures = Vec::new();
    for _ in 0..300 {
        let data: Vec<u8> = (0..24)
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                (x >> 32) as u8
            })
            .collect();
        let case = Case::from_bytes(&data);
        if let Err(e) = check(&case) {
            failures.push(format!("{data:?} {case:?}: {}", &e[..e.len().min(2000)]));
        }
    }
    // Short inputs (the fuzzer starts from nothing).
    for n in 0..24 {
        let case = Case::from_bytes(&vec![0xa5; n]);
        if let Err(e) = check(&case) {
            failures.push(format!("{n} bytes {case:?}: {}", &e[..e.len().min(2000)]));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}
