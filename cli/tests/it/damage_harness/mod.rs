#![allow(dead_code)]
//! The damage harness: WARC files built from known records (plain, one gzip member
//! per record, one gzip member for the whole file), one record damaged, and the invariant
//! checked on what pith reads from them:
//!
//! - every record whose own bytes are intact comes out byte for byte as from the clean file;
//! - the damaged record comes out as a page, or is passed over with at most one error line
//!   (exactly one when its loss is detectable: a gzip member's CRC32, a framing that breaks);
//! - the sequential reader (`-j 1`, Python's `read_warc`) and the split reader (`-j N`) give the
//!   same lines, errors included.
//!
//! [`check`] runs one [`Case`]; [`Case::from_seed`] picks one from a number (the tests run a
//! fixed set of seeds, the fuzz target `fuzz/fuzz_targets/damage.rs` lets libFuzzer pick).
//! Not part of pith: a test harness on the library's public API, included by the tests
//! (`cli/tests/it/damage.rs`; `damage_records.rs` draws its variants with its [`Rng`]) and by
//! the fuzz crate (`#[path]`), which both call it.

use std::io::{Cursor, Write};

use flate2::Compression;
use flate2::write::GzEncoder;

use pith::input::{Framing, Input};

/// How the records are stored.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Layout {
    Plain,
    /// One gzip member per record (WARC 1.1 Annex D.2).
    PerRecord,
    /// One gzip member for the whole file.
    Whole,
}

/// What is done to one record.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Damage {
    /// The record's bytes end at `pos`; the next record follows (`cat cut.warc next.warc`).
    Truncate,
    /// One byte at `pos` changed.
    Flip,
    /// Bytes inserted at `pos`.
    Insert,
    /// Bytes deleted at `pos`.
    Delete,
    /// The record's Content-Length says another number.
    Lie,
    /// The record stored in the other framing: gzip among plain records, plain among gzip
    /// members (and, in a whole-file gzip, a member boundary before it).
    Swap,
    /// The file ends inside the record at `pos` and a second file goes on from inside one of
    /// its records (`head -c`, `tail -c` of two files).
    Splice,
}

/// One damaged file: the layout, the damage, the record it hits, and where.
#[derive(Clone, Copy, Debug)]
pub struct Case {
    pub layout: Layout,
    pub damage: Damage,
    /// Damage the compressed bytes of the record's gzip member (per-record gzip only) rather
    /// than the record before compression.
    pub compressed: bool,
    /// The record damaged (modulo the number of records).
    pub target: usize,
    /// Where in the record (modulo its length).
    pub pos: u64,
    /// A second number for the damage (bytes inserted, the mask of a flip, the lie).
    pub arg: u64,
    /// Records in the file.
    pub records: usize,
}

/// A small deterministic generator (splitmix64), so a seed names a case everywhere (also the
/// variants of `damage_records.rs`).
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    /// A number in `0..n` (`n` > 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
    pub fn chance(&mut self, one_in: usize) -> bool {
        self.below(one_in) == 0
    }
}

/// Every layout, in the order a seed or a fuzzer's byte picks from.
const LAYOUTS: [Layout; 3] = [Layout::Plain, Layout::PerRecord, Layout::Whole];

/// Every damage, in the order a seed or a fuzzer's byte picks from.
const DAMAGES: [Damage; 7] = [
    Damage::Truncate,
    Damage::Flip,
    Damage::Insert,
    Damage::Delete,
    Damage::Lie,
    Damage::Swap,
    Damage::Splice,
];

impl Case {
    /// The case a seed names.
    pub fn from_seed(seed: u64) -> Case {
        let mut r = Rng(seed);
        let layout = LAYOUTS[(r.next() % 3) as usize];
        let damage = DAMAGES[(r.next() % 7) as usize];
        Case {
            layout,
            damage,
            compressed: layout == Layout::PerRecord && r.next().is_multiple_of(2),
            target: r.next() as usize,
            pos: r.next(),
            arg: r.next(),
            records: 4 + (r.next() % 5) as usize,
        }
    }
}

impl Case {
    /// The case fuzzer bytes name: the first bytes choose the layout, the damage and the
    /// record; the next eight bytes say where, the eight after how (missing bytes are zero).
    pub fn from_bytes(data: &[u8]) -> Case {
        let byte = |i: usize| data.get(i).copied().unwrap_or(0);
        let word = |from: usize| {
            let mut w = [0u8; 8];
            for (i, b) in w.iter_mut().enumerate() {
                *b = byte(from + i);
            }
            u64::from_le_bytes(w)
        };
        let layout = LAYOUTS[byte(0) as usize % 3];
        Case {
            layout,
            damage: DAMAGES[byte(1) as usize % 7],
            compressed: layout == Layout::PerRecord && byte(2) & 1 == 1,
            target: byte(3) as usize,
            records: 2 + byte(4) as usize % 7,
            pos: word(5),
            arg: word(13),
        }
    }
}

/// Record `i` of a set named `set`: requests between HTML responses of different sizes and
/// texts (so no two records have the same length).
pub fn record(set: &str, i: usize) -> Vec<u8> {
    let (kind, ctype, block) = if i % 3 == 1 {
        let block = format!("GET /{set}/{i} HTTP/1.1\r\nHost: example.org\r\n\r\n");
        ("request", "application/http; msgtype=request", block)
    } else {
        let more = format!(
            "<p>Paragraph {i} of story {set} adds words, commas, and detail, and it goes on.</p>"
        )
        // Every fifth record from the fourth on is large (about 40 KB: past the split
        // reader's 4 KiB head and the sequential reader's 32 KiB buffer).
        .repeat(if i % 5 == 3 { 500 } else { i % 4 + 1 });
        let html = format!(
            "<html><head><title>{set} story {i}</title></head><body><nav><a href=/>Home</a></nav>\
             <article><p>Story {set} {i} begins with a sentence long enough to be the article, \
             and the council said the bridge will open in spring.</p>{more}</article>\
             <footer>Copyright</footer></body></html>"
        );
        let block =
            format!("HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\n\r\n{html}");
        ("response", "application/http; msgtype=response", block)
    };
    let mut r = format!(
        "WARC/1.0\r\nWARC-Type: {kind}\r\nWARC-Target-URI: http://example.org/{set}/{i}\r\n\
         WARC-Date: 2024-01-01T00:00:00Z\r\nWARC-Record-ID: <urn:{set}:{i}>\r\n\
         Content-Type: {ctype}\r\nContent-Length: {}\r\n\r\n",
        block.len()
    )
    .into_bytes();
    r.extend_from_slice(block.as_bytes());
    r.extend_from_slice(b"\r\n\r\n");
    r
}

/// One gzip member.
pub fn gz(data: &[u8]) -> Vec<u8> {
    let mut e = GzEncoder::new(Vec::new(), Compression::fast());
    // Writing to a vector does not fail.
    let _ = e.write_all(data);
    e.finish().unwrap_or_default()
}

/// The file of `records` in `layout`, and where each record is in it (`None` for a whole-file
/// gzip).
pub fn build(records: &[Vec<u8>], layout: Layout) -> (Vec<u8>, Option<Vec<(usize, usize)>>) {
    match layout {
        Layout::Whole => (gz(&records.concat()), None),
        Layout::Plain | Layout::PerRecord => {
            let mut out = Vec::new();
            let mut at = Vec::new();
            for r in records {
                let stored = if layout == Layout::Plain {
                    r.clone()
                } else {
                    gz(r)
                };
                at.push((out.len(), out.len() + stored.len()));
                out.extend(stored);
            }
            (out, Some(at))
        }
    }
}

/// `bytes` damaged as `damage` says at `pos` (within `bytes`).
fn damage_bytes(bytes: &[u8], damage: Damage, pos: u64, arg: u64) -> Vec<u8> {
    let n = bytes.len().max(1);
    let p = (pos % n as u64) as usize;
    let mut v = bytes.to_vec();
    match damage {
        // At least one byte stays: a record cut to nothing is a record that was never there.
        Damage::Truncate => v.truncate(p.max(1)),
        Damage::Flip => {
            if let Some(b) = v.get_mut(p) {
                *b ^= (arg % 255 + 1) as u8;
            }
        }
        Damage::Insert => {
            let k = (arg % 16 + 1) as usize;
            let ins: Vec<u8> = (0..k).map(|i| (arg >> (i % 8 * 8)) as u8).collect();
            let p = p.min(v.len());
            v.splice(p..p, ins);
        }
        Damage::Delete => {
            let k = (arg % 16 + 1) as usize;
            let end = (p + k).min(v.len());
            v.drain(p.min(end)..end);
        }
        _ => {}
    }
    v
}

/// Record `r` with its Content-Length replaced by another number chosen by `arg`.
fn lie(r: &[u8], arg: u64) -> Vec<u8> {
    let text = String::from_utf8_lossy(r);
    let Some(at) = text.find("Content-Length: ") else {
        return r.to_vec();
    };
    let from = at + "Content-Length: ".len();
    let end = from + text[from..].find('\r').unwrap_or(0);
    let len: u64 = text[from..end].parse().unwrap_or(0);
    let other = match arg % 5 {
        0 => len + 1 + arg % 100,
        1 => len.saturating_sub(1 + arg % 50),
        2 => len * 1000 + 7,
        3 => 1_000_000_000,
        _ => len + 1 + arg % 5000,
    };
    let mut v = r[..from].to_vec();
    v.extend_from_slice(other.to_string().as_bytes());
    v.extend_from_slice(&r[end..]);
    v
}

/// The damaged file, and the ids of the records it damaged.
pub fn damaged(case: &Case) -> (Vec<u8>, Vec<String>) {
    let n = case.records.max(2);
    let recs: Vec<Vec<u8>> = (0..n).map(|i| record("a", i)).collect();
    let k = case.target % n;
    let id = |set: &str, i: usize| format!("<urn:{set}:{i}>");
    let mut hit = vec![id("a", k)];
    let bytes = match case.damage {
        Damage::Splice => {
            let other: Vec<Vec<u8>> = (0..n).map(|i| record("b", i)).collect();
            let j = (case.arg as usize) % n;
            hit.push(id("b", j));
            let (a, at_a) = build(&recs, case.layout);
            let (b, at_b) = build(&other, case.layout);
            match (at_a, at_b) {
                (Some(at_a), Some(at_b)) => {
                    let (s, e) = at_a[k];
                    let cut = s + 1 + (case.pos as usize) % (e - s).max(1);
                    let (s2, e2) = at_b[j];
                    let from = s2 + 1 + (case.arg as usize >> 8) % (e2 - s2).max(1);
                    [&a[..cut.min(a.len())], &b[from.min(b.len())..]].concat()
                }
                _ => {
                    // A whole-file gzip is spliced before compression.
                    let cut = 1 + (case.pos as usize) % recs[k].len();
                    let from = 1 + (case.arg as usize >> 8) % other[j].len();
                    let mut raw = recs[..k].concat();
                    raw.extend_from_slice(&recs[k][..cut.min(recs[k].len())]);
                    raw.extend_from_slice(&other[j][from.min(other[j].len())..]);
                    raw.extend(other[j + 1..].concat());
                    gz(&raw)
                }
            }
        }
        Damage::Swap => match case.layout {
            Layout::Plain => {
                let mut v = recs.clone();
                v[k] = gz(&recs[k]);
                v.concat()
            }
            Layout::PerRecord => {
                let mut v: Vec<Vec<u8>> = recs.iter().map(|r| gz(r)).collect();
                v[k] = recs[k].clone();
                v.concat()
            }
            Layout::Whole => {
                // A member boundary before record k: a valid file, nothing damaged.
                hit.clear();
                [gz(&recs[..k].concat()), gz(&recs[k..].concat())].concat()
            }
        },
        Damage::Lie => {
            let mut v = recs.clone();
            v[k] = lie(&recs[k], case.arg);
            build(&v, case.layout).0
        }
        d if case.compressed && case.layout == Layout::PerRecord => {
            let mut v: Vec<Vec<u8>> = recs.iter().map(|r| gz(r)).collect();
            v[k] = damage_bytes(&v[k], d, case.pos, case.arg);
            v.concat()
        }
        d => {
            let mut v = recs.clone();
            v[k] = damage_bytes(&recs[k], d, case.pos, case.arg);
            build(&v, case.layout).0
        }
    };
    (bytes, hit)
}

/// What pith prints for `bytes` as JSON lines (`--format json`), read by the sequential reader
/// or the split one, with the CLI's default options.
pub fn read(bytes: &[u8], split: bool) -> Vec<String> {
    let raw: Box<dyn std::io::Read + Send> = Box::new(Cursor::new(bytes.to_vec()));
    match Input::from_reader(raw, "t.warc", Framing::Auto, 1 << 20, split) {
        Ok((input, _)) => pith::pipeline::JsonLines::new(input, pith::Options::default()).collect(),
        Err(e) => vec![format!("open error: {e}")],
    }
}

/// What the pipeline with two workers writes for `bytes` given as a file (a plain WARC file
/// goes to the workers in byte ranges), with the file named as [`read`] names it.
pub fn read_file(bytes: &[u8]) -> Vec<String> {
    // One file per test thread: tests run side by side.
    let thread =
        format!("{:?}", std::thread::current().id()).replace(|c: char| !c.is_ascii_digit(), "");
    let name = format!("pith-harness-{}-{thread}.warc", std::process::id());
    let path = std::env::temp_dir().join(name);
    if let Err(e) = std::fs::write(&path, bytes) {
        return vec![format!("write error: {e}")];
    }
    let file = path.to_string_lossy().into_owned();
    let mut config = pith::pipeline::Config::new(vec![file.clone()], pith::Options::default());
    config.json = true;
    config.input = Framing::Auto;
    config.jobs = 2;
    config.max_record_bytes = 1 << 20;
    let mut out = Vec::new();
    pith::pipeline::run(&config, &mut out, &|_| {});
    let _ = std::fs::remove_file(&path);
    let quoted = serde_json::to_string(&file).unwrap_or_default();
    String::from_utf8_lossy(&out)
        .replace(&quoted, "\"t.warc\"")
        .split_inclusive('\n')
        .map(String::from)
        .collect()
}

/// The id of a JSON line, and whether it is an error line.
fn parse(line: &str) -> (Option<String>, bool) {
    let v: serde_json::Value = serde_json::from_str(line).unwrap_or_default();
    (
        v.get("id").and_then(|i| i.as_str()).map(str::to_string),
        v.get("error").is_some(),
    )
}

/// Checks the invariant on the lines `got` of a damaged file against the lines `clean` of
/// the clean records (`hit`: ids of the damaged ones).
pub fn invariant(clean: &[String], got: &[String], hit: &[String]) -> Result<(), String> {
    let mut errors = 0;
    let mut seen = std::collections::HashSet::new();
    for line in got {
        let (id, error) = parse(line);
        if error {
            errors += 1;
            continue;
        }
        let id = id.unwrap_or_default();
        if hit.contains(&id) {
            continue;
        }
        if !clean.contains(line) {
            // A page that is neither clean nor of a damaged record: the damaged record under
            // another id (a changed byte in its header), at most one per damaged record.
            seen.insert(format!("other {line}"));
            continue;
        }
        if !seen.insert(id.clone()) {
            return Err(format!("record {id} came out twice"));
        }
    }
    let others = seen.iter().filter(|s| s.starts_with("other ")).count();
    if others > hit.len() {
        return Err(format!("{others} pages that are not clean records"));
    }
    for line in clean {
        let (id, _) = parse(line);
        let id = id.unwrap_or_default();
        if !hit.contains(&id) && !seen.contains(&id) {
            return Err(format!("intact record {id} lost or changed"));
        }
    }
    if errors > hit.len().max(1) {
        return Err(format!(
            "{errors} error lines for {} damaged records",
            hit.len()
        ));
    }
    Ok(())
}

/// Runs one case: the clean file reads the same both ways with no error, and the damaged one
/// keeps the invariant both ways, with the same lines both ways.
pub fn check(case: &Case) -> Result<(), String> {
    let n = case.records.max(2);
    let mut clean: Vec<String> = Vec::new();
    for set in ["a", "b"] {
        let recs: Vec<Vec<u8>> = (0..n).map(|i| record(set, i)).collect();
        let (file, _) = build(&recs, case.layout);
        let seq = read(&file, false);
        let split = read(&file, true);
        if seq != split {
            return Err(format!(
                "clean file: -j 1 and -j N differ\n{seq:#?}\n{split:#?}"
            ));
        }
        if let Some(e) = seq.iter().find(|l| parse(l).1) {
            return Err(format!("clean file gives an error: {e}"));
        }
        clean.extend(seq);
    }
    let (bytes, hit) = damaged(case);
    // The records the damaged file holds: set `a`, or for a splice `a` before the cut and `b`
    // after the record it goes on inside.
    let k = case.target % n;
    let j = (case.arg as usize) % n;
    let kept = |line: &String| {
        let id = parse(line).0.unwrap_or_default();
        let num = |set: &str| {
            id.strip_prefix(&format!("<urn:{set}:"))
                .and_then(|r| r.strip_suffix('>'))
                .and_then(|i| i.parse::<usize>().ok())
        };
        match case.damage {
            Damage::Splice => num("a").is_some_and(|i| i < k) || num("b").is_some_and(|i| i > j),
            _ => num("a").is_some(),
        }
    };
    let clean: Vec<String> = clean.into_iter().filter(kept).collect();
    let seq = read(&bytes, false);
    let split = read(&bytes, true);
    invariant(&clean, &seq, &hit).map_err(|e| format!("-j 1: {e}\n{seq:#?}"))?;
    // A damaged page is lost silently only where no check can see the damage: a changed,
    // added or removed byte of an uncompressed record (its type or HTTP status, say).
    let silent_ok =
        !case.compressed && matches!(case.damage, Damage::Flip | Damage::Insert | Damage::Delete);
    let errors = seq.iter().filter(|l| parse(l).1).count();
    let page = k % 3 != 1 && case.damage != Damage::Splice;
    if page
        && !hit.is_empty()
        && !silent_ok
        && errors == 0
        && !seq.iter().any(|l| parse(l).0.as_ref() == hit.first())
    {
        return Err(format!(
            "damaged page {:?} lost without an error\n{seq:#?}",
            hit.first()
        ));
    }
    if seq != split {
        return Err(format!("-j 1 and -j N differ\n{seq:#?}\n{split:#?}"));
    }
    let file = read_file(&bytes);
    if seq != file {
        return Err(format!(
            "-j 1 and -j 2 on a file differ\n{seq:#?}\n{file:#?}"
        ));
    }
    Ok(())
}
