//! Issue 43, classes 1 and 2: damaged compressed streams. A garbled zstd frame, junk or a
//! skippable frame between frames, a frame whose content checksum fails, a cut, damage in an
//! xz, bzip2 or gzip stream among others, and concatenations of different kinds: every
//! intact record comes out as from the clean file, each damage is one stderr line and one
//! JSON error line, the summary counts it as failed and `--strict` exits non-zero; the same
//! at `-j 1`, `-j 2` and from standard input.
//!
//! The generator ([`case`]) picks the layout, the damage and where from a seed;
//! `PITH_DAMAGE_SEEDS=n` runs more seeds than the default.

use crate::run_util;
use run_util::{bz2, zst};

/// xz at the preset these tests were written with.
fn xz(data: &[u8]) -> Vec<u8> {
    run_util::xz(data, 1)
}

use std::collections::BTreeMap;
use std::time::Duration;

use run_util::{gz, json_lines, pith_within, remove_temp_file, stderr, temp_file};
use serde_json::Value;

/// Record `i`: a page (the issue's `r()`, with a longer body for some), or a request.
fn rec(i: usize, word: &str) -> Vec<u8> {
    let more = "<p>More words about the bridge and the council, and what they said.</p>"
        .repeat(1 + i % 7 * 40);
    let p = format!("<p>REC{i} The {word} said the bridge opens in spring.</p>{more}");
    let b = format!(
        "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: {}\r\n\r\n{p}",
        p.len()
    );
    format!(
        "WARC/1.0\r\nWARC-Type: response\r\nWARC-Record-ID: <urn:{i}>\r\nContent-Length: {}\r\n\r\n{b}\r\n\r\n",
        b.len()
    )
    .into_bytes()
}

/// A zstd frame of raw blocks by hand, with its content size and (when `checksum`) the
/// content checksum of `check` (the low 32 bits of XXH64, RFC 8878 section 3.1.1).
fn frame(data: &[u8], check: &[u8], checksum: bool) -> Vec<u8> {
    let mut f = vec![0x28, 0xb5, 0x2f, 0xfd, if checksum { 0xa4 } else { 0xa0 }];
    f.extend_from_slice(&(data.len() as u32).to_le_bytes());
    let blocks: Vec<&[u8]> = data.chunks(100_000).collect();
    for (n, b) in blocks.iter().enumerate() {
        let h = (b.len() << 3) | usize::from(n + 1 == blocks.len());
        f.extend_from_slice(&[h as u8, (h >> 8) as u8, (h >> 16) as u8]);
        f.extend_from_slice(b);
    }
    if checksum {
        let sum = twox_hash::XxHash64::oneshot(0, check) as u32;
        f.extend_from_slice(&sum.to_le_bytes());
    }
    f
}

/// What pith gives for `bytes`, the same at `-j 1`, `-j 2` and from stdin (checked): the
/// pages by id (their JSON without the fields that place them in the stream), the error
/// lines of stdout and of stderr, and whether `--strict` failed.
struct Outcome {
    pages: BTreeMap<String, Value>,
    json_errors: Vec<Value>,
    errors: Vec<String>,
    strict_failed: bool,
}

fn outcome(name: &str, bytes: &[u8]) -> Outcome {
    let p = temp_file("dmgs", name, bytes);
    let limit = Duration::from_secs(60);
    let args = |j: &'static str, f: &str| -> Vec<String> {
        ["--strict", "--format", "json", "-j", j, f]
            .iter()
            .map(|s| s.to_string())
            .collect()
    };
    let run = |a: Vec<String>, input: &[u8]| {
        let a: Vec<&str> = a.iter().map(String::as_str).collect();
        pith_within(&a, input, limit)
    };
    let one = run(args("1", &p), b"");
    let two = run(args("2", &p), b"");
    let stdin = run(args("2", "-"), bytes);
    remove_temp_file(&p);
    assert_eq!(one.stdout, two.stdout, "{name}: -j 1 and -j 2");
    assert_eq!(stderr(&one), stderr(&two), "{name}: -j 1 and -j 2");
    let quoted = serde_json::to_string(&p).expect("json");
    assert_eq!(
        String::from_utf8_lossy(&stdin.stdout).replace("\"-\"", &quoted),
        String::from_utf8_lossy(&one.stdout),
        "{name}: stdin"
    );
    assert_eq!(
        stderr(&stdin).replace("pith: -: ", &format!("pith: {p}: ")),
        stderr(&one),
        "{name}: stdin"
    );
    let mut pages = BTreeMap::new();
    let mut json_errors = Vec::new();
    for mut l in json_lines(&one) {
        if l.get("error").is_some() {
            json_errors.push(l);
            continue;
        }
        let id = l["id"].as_str().unwrap_or("").to_string();
        if let Some(o) = l.as_object_mut() {
            for k in ["source", "record", "offset", "member_offset"] {
                o.remove(k);
            }
        }
        assert!(pages.insert(id.clone(), l).is_none(), "{name}: {id} twice");
    }
    let err = stderr(&one);
    let errors: Vec<String> = err
        .lines()
        .filter(|l| !l.contains("records read"))
        .map(str::to_string)
        .collect();
    let summary = err
        .lines()
        .find(|l| l.contains("records read"))
        .unwrap_or("");
    assert!(
        summary
            .trim_end()
            .ends_with(&format!(" {} failed", errors.len())),
        "{name}: the summary counts every error\n{err}"
    );
    assert_eq!(errors.len(), json_errors.len(), "{name}: {err}");
    assert_eq!(
        !one.status.success(),
        !errors.is_empty(),
        "{name}: --strict\n{err}"
    );
    Outcome {
        pages,
        json_errors,
        errors,
        strict_failed: !one.status.success(),
    }
}

fn ids(o: &Outcome) -> Vec<String> {
    o.pages.keys().cloned().collect()
}

fn urns(v: &[usize]) -> Vec<String> {
    let mut v: Vec<String> = v.iter().map(|i| format!("<urn:{i}>")).collect();
    v.sort();
    v
}

#[test]
fn class2_a_frame_failing_its_checksum_is_reported_with_its_id_and_costs_nothing_else() {
    // The reproducer: record 2 altered ("cOuncil") in a frame that carries the
    // checksum of the intact record.
    let m = rec(2, "cOuncil");
    let bad = frame(&m, &rec(2, "council"), true);
    let file = [
        frame(&rec(1, "council"), &rec(1, "council"), true),
        bad,
        frame(&rec(3, "council"), &rec(3, "council"), true),
        frame(&rec(4, "council"), &rec(4, "council"), true),
    ]
    .concat();
    let o = outcome("ck.warc.zst", &file);
    assert_eq!(ids(&o), urns(&[1, 3, 4]));
    assert_eq!(o.errors.len(), 1, "{:?}", o.errors);
    assert!(
        o.errors[0].contains("<urn:2>") && o.errors[0].contains("checksum"),
        "{:?}",
        o.errors
    );
    assert_eq!(o.json_errors[0]["id"], "<urn:2>");
    assert!(o.strict_failed);
    let text = serde_json::to_string(&o.pages).unwrap_or_default();
    assert!(!text.contains("cOuncil"), "no byte of the bad record");
}

#[test]
fn concatenations_of_different_kinds_are_all_read() {
    let recs: Vec<Vec<u8>> = (1..=12).map(|i| rec(i, "council")).collect();
    let (a, b) = recs.split_at(6);
    let want = urns(&(1..=12).collect::<Vec<_>>());
    let clean = outcome("clean.warc", &recs.concat());
    assert_eq!(ids(&clean), want);
    let joins: [(&str, Vec<u8>); 6] = [
        ("gzip-zstd", [gz(&a.concat()), zst(&b.concat())].concat()),
        ("plain-zstd", [a.concat(), zst(&b.concat())].concat()),
        ("zstd-gzip", [zst(&a.concat()), gz(&b.concat())].concat()),
        (
            "zstd-xz-bzip2",
            [
                zst(&a[..3].concat()),
                xz(&a[3..].concat()),
                bz2(&b.concat()),
            ]
            .concat(),
        ),
        (
            "gzip-per-record-zstd-per-record",
            [
                a.iter().map(|r| gz(r)).collect::<Vec<_>>().concat(),
                b.iter().map(|r| zst(r)).collect::<Vec<_>>().concat(),
            ]
            .concat(),
        ),
        (
            "xz-zstd-gzip",
            [xz(&a.concat()), zst(&b[..3].concat()), gz(&b[3..].concat())].concat(),
        ),
    ];
    for (name, bytes) in joins {
        let o = outcome(name, &bytes);
        assert_eq!(ids(&o), want, "{name}: {:?}", o.errors);
        assert!(o.errors.is_empty(), "{name}: {:?}", o.errors);
        assert_eq!(o.pages, clean.pages, "{name}: the same pages");
    }
}

/// How the records are compressed.
#[derive(Clone, Copy, Debug)]
enum Layout {
    /// One zstd frame per record, made by hand with a checksum.
    ZstdChecked,
    /// One zstd frame per record (ruzstd's encoder: compressed blocks, no checksum).
    Zstd,
    /// One xz stream per record.
    Xz,
    /// One bzip2 stream per record.
    Bzip2,
    /// Records alternate zstd, gzip, xz and bzip2.
    Mixed,
}

/// What is done.
#[derive(Clone, Copy, Debug)]
enum Harm {
    /// A byte inside the record's compressed data changed (its checksum then fails).
    Flip,
    /// Junk between the record's piece and the next.
    Junk,
    /// A skippable zstd frame before the record (nothing damaged).
    Skippable,
    /// The file cut inside the record's piece (the last records then lost too).
    Cut,
    /// The record's piece replaced by garbage of the same length starting with its magic.
    Garble,
}

struct Case {
    layout: Layout,
    harm: Harm,
    records: usize,
    target: usize,
    pos: u64,
    arg: u64,
}

/// splitmix64, so a seed names a case.
fn mix(x: &mut u64) -> u64 {
    *x = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = *x;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

fn case(seed: u64) -> Case {
    let mut s = seed;
    let layouts = [
        Layout::ZstdChecked,
        Layout::Zstd,
        Layout::Xz,
        Layout::Bzip2,
        Layout::Mixed,
    ];
    let harms = [
        Harm::Flip,
        Harm::Junk,
        Harm::Skippable,
        Harm::Cut,
        Harm::Garble,
    ];
    let layout = layouts[(mix(&mut s) % 5) as usize];
    let harm = harms[(mix(&mut s) % 5) as usize];
    let records = 4 + (mix(&mut s) % 6) as usize;
    Case {
        layout,
        harm,
        records,
        target: (mix(&mut s) as usize) % records,
        pos: mix(&mut s),
        arg: mix(&mut s),
    }
}

fn piece(layout: Layout, i: usize, data: &[u8]) -> Vec<u8> {
    match layout {
        Layout::ZstdChecked => frame(data, data, true),
        Layout::Zstd => zst(data),
        Layout::Xz => xz(data),
        Layout::Bzip2 => bz2(data),
        Layout::Mixed => match i % 4 {
            0 => frame(data, data, true),
            1 => gz(data),
            2 => xz(data),
            _ => bz2(data),
        },
    }
}

/// Runs one case; `Err` says what is wrong.
fn check(seed: u64, clean: &Outcome) -> Result<(), String> {
    let c = case(seed);
    let recs: Vec<Vec<u8>> = (1..=c.records).map(|i| rec(i, "council")).collect();
    let pieces: Vec<Vec<u8>> = recs
        .iter()
        .enumerate()
        .map(|(i, r)| piece(c.layout, i, r))
        .collect();
    let k = c.target;
    let mut p = pieces.clone();
    // Records that must come out, and how many errors.
    let mut keep: Vec<usize> = (1..=c.records).collect();
    let mut errors = 1;
    // A record that may come out or not, but as from the clean file if it does: one whose
    // piece is cut after all its bytes decoded (only a trailer, index or checksum lost).
    let mut maybe = None;
    match c.harm {
        Harm::Flip => {
            // Inside the compressed data: past the headers, before the trailers (an xz
            // index and footer, a bzip2 end of stream) that hold no record bytes.
            let n = p[k].len();
            let at = 24 + (c.pos as usize) % n.saturating_sub(64).max(1);
            let at = at.min(n - 1);
            p[k][at] ^= 1 << (c.arg % 8);
            keep.retain(|&i| i != k + 1);
        }
        Harm::Junk => {
            let junk: Vec<u8> = (0..1 + c.arg % 40)
                .map(|i| b"junk between pieces "[(i % 20) as usize])
                .collect();
            p[k].extend_from_slice(&junk);
        }
        Harm::Skippable => {
            let len = (c.arg % 64) as u32;
            // Any skippable magic but 0x184D2A5D, the Zstandard WARC's dictionary frame.
            let mut s = vec![0x50 + (c.pos % 13) as u8, 0x2a, 0x4d, 0x18];
            s.extend_from_slice(&len.to_le_bytes());
            s.extend((0..len).map(|i| i as u8));
            p[k].splice(0..0, s);
            errors = 0;
        }
        Harm::Cut if k == 0 => {
            // A file of one cut piece holds no record to keep: the cut goes after the first.
            p.truncate(2);
            let n = p[1].len();
            p[1].truncate(n / 2);
            keep.retain(|&i| i == 1);
            maybe = Some(2);
        }
        Harm::Cut => {
            let n = p[k].len();
            p[k].truncate(1 + (c.pos as usize) % (n - 1));
            p.truncate(k + 1);
            keep.retain(|&i| i <= k);
            maybe = Some(k + 1);
        }
        Harm::Garble => {
            let n = p[k].len();
            let mut x = c.arg;
            // The magic number stays (a first piece without it is no compressed input).
            for b in p[k].iter_mut().skip(10).take(n.saturating_sub(14)) {
                *b = mix(&mut x) as u8;
            }
            keep.retain(|&i| i != k + 1);
        }
    }
    let bytes = p.concat();
    if let Ok(dir) = std::env::var("PITH_DAMAGE_DUMP") {
        // `PITH_DAMAGE_DUMP=dir` keeps each case's file to look at.
        let _ = std::fs::write(format!("{dir}/seed{seed}.warc.x"), &bytes);
    }
    let o = outcome(&format!("seed{seed}.warc.x"), &bytes);
    let want = urns(&keep);
    let got = ids(&o);
    let lost: Vec<&String> = want.iter().filter(|i| !got.contains(i)).collect();
    if !lost.is_empty() {
        return Err(format!("intact records lost: {lost:?}\n{:?}", o.errors));
    }
    // ruzstd's frames carry no checksum: a changed byte may decode to other text unseen.
    let unseen = matches!((c.layout, c.harm), (Layout::Zstd, Harm::Flip)) && o.errors.is_empty();
    let maybe = maybe.map(|i| format!("<urn:{i}>"));
    for (id, page) in &o.pages {
        if unseen && !want.contains(id) {
            continue;
        }
        if !want.contains(id) && maybe.as_ref() != Some(id) {
            return Err(format!("damaged record {id} came out as a page"));
        }
        if clean.pages.get(id) != Some(page) {
            return Err(format!("record {id} differs from the clean file's"));
        }
    }
    if o.errors.len() != errors && !unseen {
        return Err(format!(
            "{} errors, want {errors}: {:?}",
            o.errors.len(),
            o.errors
        ));
    }
    Ok(())
}

#[test]
fn seeded_damage_to_compressed_streams_keeps_every_intact_record() {
    let seeds: u64 = std::env::var("PITH_DAMAGE_SEEDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(40);
    let recs: Vec<Vec<u8>> = (1..=9).map(|i| rec(i, "council")).collect();
    let clean = outcome("clean.warc", &recs.concat());
    assert_eq!(clean.pages.len(), 9);
    let mut failures = Vec::new();
    for seed in 0..seeds {
        if let Err(e) = check(seed, &clean) {
            let c = case(seed);
            failures.push(format!(
                "seed {seed} {:?} {:?} record {} of {}: {e}",
                c.layout,
                c.harm,
                c.target + 1,
                c.records
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {seeds} failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn false_magic_numbers_between_frames_cost_linear_time() {
    // 2 MB of junk made of zstd frame headers, each with a raw block that claims 128 KiB:
    // each false frame reads far before it fails, so looking for the next frame from the
    // byte after each one would read the junk again 16,000 times over.
    let mut fake = vec![0x28, 0xb5, 0x2f, 0xfd, 0x00, 0x50];
    // Block_Header: Block_Size 128 KiB, Block_Type 0 (raw), not the last.
    let h = (128 << 10) << 3;
    fake.extend_from_slice(&[h as u8, (h >> 8) as u8, (h >> 16) as u8]);
    let junk: Vec<u8> = fake.iter().copied().cycle().take(2 << 20).collect();
    let file = [
        frame(&rec(1, "council"), &rec(1, "council"), true),
        junk,
        frame(&rec(2, "council"), &rec(2, "council"), true),
    ]
    .concat();
    let started = std::time::Instant::now();
    let o = outcome("fake.warc.zst", &file);
    assert_eq!(ids(&o), urns(&[1, 2]), "{:?}", o.errors);
    // (The first false frame decodes one raw block of junk before it fails: the reader
    // above reports that as not a record, and the skipped stretch is the same damage.)
    assert_eq!(o.errors.len(), 1, "{:?}", o.errors);
    assert!(
        started.elapsed() < Duration::from_secs(30),
        "{:?}",
        started.elapsed()
    );
}
