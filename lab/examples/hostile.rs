//! The hostile-input limits at full size, as curves: each case at three sizes, run through the
//! release binary under `/usr/bin/time`, with CPU seconds, peak RSS, their ratios between
//! sizes (linear time doubles with the size) and peak RSS over the input size.
//!
//! `cargo build --release && cargo run --release --example hostile [CASE...]` (`just hostile`);
//! `--algo NAME` runs another algorithm (default `auto`), `--bin PATH` another build of pith,
//! `--largest` only the largest size of each case, `--keep` leaves the pages in
//! `target/tmp/hostile/` (for `examples/memstages.rs`).
//! With `--instructions`, each run goes under `valgrind --tool=callgrind` at a sixteenth of the
//! sizes and the table gives instructions executed instead of CPU seconds: a count of work
//! that does not move with the load of the machine, so its ratios show the curve exactly.
//! Pages are written to `target/tmp/hostile/` and removed after each run. Up to 200 MB pages
//! and 1 GiB gzip bombs: allow a few minutes and about 4 GB of memory.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;

use flate2::Compression;
use flate2::write::GzEncoder;

#[path = "../../tests/common/hostile_pages.rs"]
mod hostile_pages;
use hostile_pages::{article, html_case, page};

fn record(n: usize, block: &[u8], length: usize) -> Vec<u8> {
    let mut r = format!(
        "WARC/1.0\r\nWARC-Type: response\r\nWARC-Target-URI: http://e.org/{n}\r\n\
         WARC-Record-ID: <urn:uuid:{n:08}>\r\nContent-Type: application/http; msgtype=response\r\n\
         Content-Length: {length}\r\n\r\n"
    )
    .into_bytes();
    r.extend_from_slice(block);
    r.extend_from_slice(b"\r\n\r\n");
    r
}

fn response(n: usize) -> Vec<u8> {
    let block = format!(
        "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n{}",
        page(&article())
    );
    record(n, block.as_bytes(), block.len())
}

fn gz(parts: &[&[u8]], zeros_mib: usize) -> Vec<u8> {
    let mut e = GzEncoder::new(Vec::new(), Compression::best());
    for p in parts {
        e.write_all(p).expect("gzip");
    }
    let mib = vec![0u8; 1 << 20];
    for _ in 0..zeros_mib {
        e.write_all(&mib).expect("gzip");
    }
    e.finish().expect("gzip")
}

fn warc_case(name: &str, size: usize) -> Vec<u8> {
    match name {
        // A record in its own member that inflates to `size` MiB of zeros past its end (the
        // header is honest): the reader inflates the zeros to find the next record.
        "member_bomb" => [
            gz(&[&response(1)], 0),
            gz(&[&response(2)], size),
            gz(&[&response(3)], 0),
        ]
        .concat(),
        // A record whose header says `size` MiB, in one member of zeros: over the limit, so
        // its member is dropped without inflating.
        "length_bomb" => {
            let http = b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n";
            let len = http.len() + (size << 20);
            let head = record(2, http, len);
            let head = &head[..head.len() - 4];
            let mut e = GzEncoder::new(Vec::new(), Compression::best());
            e.write_all(head).expect("gzip");
            let mib = vec![0u8; 1 << 20];
            for _ in 0..size {
                e.write_all(&mib).expect("gzip");
            }
            e.write_all(b"\r\n\r\n").expect("gzip");
            [
                gz(&[&response(1)], 0),
                e.finish().expect("gzip"),
                gz(&[&response(3)], 0),
            ]
            .concat()
        }
        // `size` records, every tenth with a Content-Length 30 bytes short.
        "short_length" => (0..size)
            .flat_map(|n| {
                let r = response(n);
                if n % 10 == 5 {
                    let text = String::from_utf8(r).expect("ASCII");
                    let at = text.find("Content-Length: ").expect("field") + 16;
                    let end = at + text[at..].find('\r').expect("CRLF");
                    let len: usize = text[at..end].parse().expect("number");
                    format!("{}{}{}", &text[..at], len - 30, &text[end..]).into_bytes()
                } else {
                    r
                }
            })
            .collect(),
        _ => unreachable!("unknown case {name}"),
    }
}

/// (case, sizes, what a size counts)
const CASES: &[(&str, [usize; 3], &str)] = &[
    ("deep", [250_000, 500_000, 1_000_000], "nested divs"),
    (
        "flat",
        [50 << 20, 100 << 20, 200 << 20],
        "bytes, 70-byte lines",
    ),
    (
        "attrs",
        [250_000, 500_000, 1_000_000],
        "attributes on one tag",
    ),
    ("line", [25 << 20, 50 << 20, 100 << 20], "bytes on one line"),
    ("lt", [25 << 20, 50 << 20, 100 << 20], "bytes of `<`"),
    (
        "nul",
        [25 << 20, 50 << 20, 100 << 20],
        "bytes, a NUL per paragraph",
    ),
    (
        "bad_utf8",
        [25 << 20, 50 << 20, 100 << 20],
        "bytes, 0xFF per paragraph",
    ),
    (
        "utf16",
        [25 << 20, 50 << 20, 100 << 20],
        "bytes of UTF-16LE",
    ),
    ("member_bomb", [256, 512, 1024], "MiB of zeros in a member"),
    ("length_bomb", [1024, 2048, 4096], "MiB declared and zipped"),
    (
        "short_length",
        [25_000, 50_000, 100_000],
        "records, 1 in 10 lying",
    ),
];

struct Run {
    bytes: usize,
    /// CPU seconds, or instructions under callgrind.
    cpu: f64,
    rss_kb: u64,
    found: usize,
}

fn run(pith: &Path, file: &Path, warc: bool, count: bool, algo: &str) -> Run {
    let bytes = std::fs::metadata(file).map_or(0, |m| m.len() as usize);
    let mut cmd = Command::new("/usr/bin/time");
    cmd.args(["-f", "TIME %U %S %M", "--"]);
    if count {
        cmd.args([
            "valgrind",
            "--tool=callgrind",
            "--callgrind-out-file=/dev/null",
        ]);
    }
    cmd.arg(pith);
    cmd.args([
        "-j",
        "1",
        "--max-record-bytes",
        "1000000000",
        "--algo",
        algo,
    ]);
    if warc {
        cmd.args(["--format", "json"]);
    }
    let out = cmd.arg(file).output().expect("run /usr/bin/time");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let found = if warc {
        stdout.lines().filter(|l| l.contains("PITHMARKER")).count()
    } else {
        stdout.matches("PITHMARKER").count() / 4
    };
    let err = String::from_utf8_lossy(&out.stderr);
    let t = err
        .lines()
        .find_map(|l| l.strip_prefix("TIME "))
        .unwrap_or_else(|| panic!("no timing from /usr/bin/time: {err}"));
    let f: Vec<f64> = t.split(' ').filter_map(|x| x.parse().ok()).collect();
    let instructions = err.lines().find_map(|l| {
        let n = l.split("Collected : ").nth(1)?;
        n.trim().parse::<f64>().ok()
    });
    Run {
        bytes,
        cpu: if count {
            instructions.unwrap_or_else(|| panic!("no count from callgrind: {err}"))
        } else {
            f[0] + f[1]
        },
        rss_kb: f[2] as u64,
        found,
    }
}

fn main() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    // `--algo NAME` and `--bin PATH` (another build, to compare): each takes the next argument.
    let mut option = |name: &str| {
        let i = args.iter().position(|a| a == name)?;
        let value = args.get(i + 1).cloned();
        args.drain(i..(i + 2).min(args.len()));
        value
    };
    let algo = option("--algo").unwrap_or_else(|| "auto".into());
    let pith = option("--bin").map_or_else(|| root.join("target/release/pith"), PathBuf::from);
    if !pith.exists() {
        eprintln!("build the binary first: cargo build --release");
        std::process::exit(2);
    }
    let dir = root.join("target/tmp/hostile");
    std::fs::create_dir_all(&dir).expect("target/tmp/hostile");
    let mut only = args;
    let count = only.iter().any(|a| a == "--instructions");
    // `--largest`: only the largest size of each case (the memory ratios, without the curve).
    let largest = only.iter().any(|a| a == "--largest");
    let keep = only.iter().any(|a| a == "--keep");
    only.retain(|a| a != "--instructions" && a != "--largest" && a != "--keep");
    let work = if count { "instructions" } else { "CPU s" };
    println!(
        "| case | size | input MB | {work} | × prev size | peak RSS MB | RSS / input | article |"
    );
    println!("|---|---|---|---|---|---|---|---|");
    for (name, sizes, unit) in CASES {
        if !only.is_empty() && !only.iter().any(|o| o == name) {
            continue;
        }
        let warc = matches!(*name, "member_bomb" | "length_bomb" | "short_length");
        let mut prev: Option<f64> = None;
        let sizes = if largest { &sizes[2..] } else { &sizes[..] };
        for &size in sizes {
            let size = if count { size / 16 } else { size };
            let data = if warc {
                warc_case(name, size)
            } else {
                html_case(name, size)
            };
            let file = dir.join(format!("{name}_{size}"));
            std::fs::write(&file, &data).expect("write page");
            drop(data);
            let r = run(&pith, &file, warc, count, &algo);
            if !keep {
                let _ = std::fs::remove_file(&file);
            }
            let ratio = prev.map_or("".into(), |p| format!("{:.2}", r.cpu / p.max(0.005)));
            prev = Some(r.cpu);
            let expected = if warc { "records" } else { "paragraphs" };
            println!(
                "| {name} | {size} {unit} | {:.1} | {} | {ratio} | {:.0} | {:.1} | {} {expected} |",
                r.bytes as f64 / 1e6,
                if count {
                    format!("{:.3e}", r.cpu)
                } else {
                    format!("{:.2}", r.cpu)
                },
                r.rss_kb as f64 / 1024.0,
                (r.rss_kb as f64 * 1024.0) / (r.bytes.max(1) as f64),
                r.found,
            );
        }
    }
}
