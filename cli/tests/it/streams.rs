//! WARC and JSON lines through the real binary: WARCs built here (gzip per record,
//! uncompressed, chunked, charset only in the HTTP header, a truncated last record, a corrupt
//! member in the middle, a gzip bomb), JSON lines with extra fields and bad lines, output order
//! under `-j 1` and `-j 4`, and the real WARC samples of `../shared/data/warc_samples` (ignored
//! when absent: see tests/common), whose HTML response counts the output must match.

use crate::common;

use std::io::Write;
use std::process::{Command, Stdio};

use serde_json::Value;

use crate::run_util;

use run_util::*;

/// A WARC of mixed records: 3 HTML responses among a request, an image and warcinfo.
fn mixed_records() -> Vec<Vec<u8>> {
    vec![
        record(
            "warcinfo",
            "",
            0,
            "application/warc-fields",
            b"software: test\r\n",
        ),
        record(
            "request",
            "http://example.org/1",
            9,
            "application/http; msgtype=request",
            b"GET /1 HTTP/1.1\r\n\r\n",
        ),
        response(1, HTML_HEAD, article(1, "").as_bytes()),
        response(
            2,
            "HTTP/1.1 200 OK\r\nContent-Type: image/png\r\n\r\n",
            b"\x89PNG....",
        ),
        response(3, HTML_HEAD, article(3, "").as_bytes()),
        response(4, HTML_HEAD, article(4, "").as_bytes()),
    ]
}

#[test]
fn gzip_per_record_and_plain_give_the_same_documents() {
    let records = mixed_records();
    let plain: Vec<u8> = records.concat();
    let gzipped: Vec<u8> = records.iter().flat_map(|r| gz(r)).collect();
    let a = pith(&["--format", "json"], &plain);
    let b = pith(&["--format", "json"], &gzipped);
    assert!(a.status.success() && b.status.success());
    assert_eq!(a.stdout, b.stdout);
    let docs = json_lines(&a);
    assert_eq!(docs.len(), 3);
    assert_eq!(docs[0]["url"], "http://example.org/1");
    assert_eq!(docs[0]["id"], "<urn:uuid:00000001>");
    assert_eq!(docs[0]["title"], "Story 1");
    assert_eq!(docs[0]["lang"], "en");
    // The default algorithm, the block model.
    assert_eq!(docs[0]["algo"], "model");
    assert!(text(&docs[1]).contains("Story number 3 begins"));
    assert!(!text(&docs[1]).contains("Copyright footer"));
    let err = String::from_utf8_lossy(&a.stderr);
    assert!(err.contains("6 records read, 3 extracted"), "{err}");
    // Whole-file gzip too.
    let whole = pith(&["--format", "json"], &gz(&plain));
    assert_eq!(whole.stdout, a.stdout);
}

#[test]
fn text_output_separates_records_with_form_feeds() {
    let o = pith(&[], &mixed_records().concat());
    let text = String::from_utf8(o.stdout).expect("utf8");
    assert_eq!(text.matches("\x0c\n").count(), 2);
    assert!(text.contains("Story number 4 begins"));
}

#[test]
fn chunked_body_and_charset_from_the_header_only() {
    let body = article(5, "");
    let mut chunked = Vec::new();
    for piece in body.as_bytes().chunks(50) {
        chunked.extend_from_slice(format!("{:x}\r\n", piece.len()).as_bytes());
        chunked.extend_from_slice(piece);
        chunked.extend_from_slice(b"\r\n");
    }
    chunked.extend_from_slice(b"0\r\n\r\n");
    let page = article(6, "Привет мир, это статья на русском языке.");
    let (cyr, _, _) = encoding_rs::WINDOWS_1251.encode(&page);
    let warc = [
        response(
            5,
            "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nTransfer-Encoding: chunked\r\n\r\n",
            &chunked,
        ),
        response(
            6,
            "HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=windows-1251\r\n\r\n",
            &cyr,
        ),
    ]
    .concat();
    let docs = json_lines(&pith(&["--format", "json"], &warc));
    assert_eq!(docs.len(), 2);
    assert!(text(&docs[0]).contains("Story number 5 begins"));
    assert!(
        text(&docs[1]).contains("Привет мир, это статья"),
        "{}",
        docs[1]
    );
}

#[test]
fn truncated_last_record_and_corrupt_member_in_the_middle() {
    let records = mixed_records();
    // Truncated: the last record loses its second half.
    let mut plain = records.concat();
    plain.truncate(plain.len() - 200);
    let o = pith(&["--format", "json"], &plain);
    assert!(o.status.success());
    let docs = json_lines(&o);
    assert_eq!(docs.len(), 3);
    assert_error(&docs[2], "cut short");
    assert!(String::from_utf8_lossy(&o.stderr).contains("record 6 <urn:uuid:00000004> at byte"));

    // Corrupt: the gzip member of record 3 (the first HTML page after the image) is damaged.
    let mut members: Vec<Vec<u8>> = records.iter().map(|r| gz(r)).collect();
    let bad = &mut members[4];
    let mid = bad.len() / 2;
    for b in &mut bad[20..mid] {
        *b ^= 0x55;
    }
    let o = pith(&["--format", "json"], &members.concat());
    assert!(o.status.success());
    let docs = json_lines(&o);
    let texts: Vec<&str> = docs.iter().filter_map(|d| d["text"].as_str()).collect();
    assert!(texts.iter().any(|t| t.contains("Story number 1 begins")));
    assert!(
        texts.iter().any(|t| t.contains("Story number 4 begins")),
        "the record after the corrupt one comes out"
    );
    assert!(docs.iter().any(|d| d["error"].is_string()));
    // --strict turns the failure into the exit status.
    assert!(
        !pith(&["--format", "json", "--strict"], &members.concat())
            .status
            .success()
    );
}

#[test]
fn gzip_bomb_is_stopped_at_the_limit_and_the_stream_goes_on() {
    let bomb = gz(&vec![b' '; 40 << 20]);
    let warc = [
        response(
            1,
            "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Encoding: gzip\r\n\r\n",
            &bomb,
        ),
        response(2, HTML_HEAD, article(2, "").as_bytes()),
    ]
    .concat();
    let o = pith(
        &["--format", "json", "--max-record-bytes", "1000000"],
        &warc,
    );
    let docs = json_lines(&o);
    assert_eq!(docs.len(), 2);
    assert_error(&docs[0], "record limit");
    assert!(text(&docs[1]).contains("Story number 2 begins"));
}

#[test]
fn json_lines_in_with_extra_fields_and_bad_lines() {
    let good = serde_json::json!({"id": "a", "url": "http://x/a", "html": article(7, ""), "lang_hint": "en", "n": 3});
    let input = format!(
        "{good}\nnot json\n{{\"id\": \"b\"}}\n\n{}\n",
        serde_json::json!({"html": article(8, "")})
    );
    let o = pith(&["--format", "json"], input.as_bytes());
    assert!(o.status.success());
    let docs = json_lines(&o);
    assert_eq!(docs.len(), 4);
    assert_eq!(docs[0]["id"], "a");
    assert_eq!(docs[0]["n"], 3);
    assert_eq!(docs[0]["lang_hint"], "en");
    assert!(text(&docs[0]).contains("Story number 7"));
    assert_error(&docs[1], "bad JSON");
    assert_error(&docs[2], "html");
    assert!(text(&docs[3]).contains("Story number 8"));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("record 2"), "{err}");
}

#[test]
fn output_order_is_the_same_with_one_and_four_workers() {
    let records: Vec<Vec<u8>> = (0..200)
        .map(|n| {
            response(
                n,
                HTML_HEAD,
                article(n, &"filler words ".repeat(n % 37)).as_bytes(),
            )
        })
        .collect();
    let warc: Vec<u8> = records.iter().flat_map(|r| gz(r)).collect();
    let one = pith(&["--format", "json", "-j", "1"], &warc);
    let four = pith(&["--format", "json", "-j", "4"], &warc);
    assert_eq!(json_lines(&one).len(), 200);
    assert_eq!(one.stdout, four.stdout);
    let one = pith(&["-j", "1"], &warc);
    let four = pith(&["-j", "4"], &warc);
    assert_eq!(one.stdout, four.stdout);
}

#[test]
#[cfg_attr(pith_no_shared, ignore = "needs ../shared/data")]
fn real_warc_samples_give_one_document_per_html_response() {
    let dir = common::shared("data/warc_samples");
    let manifest = std::fs::read(dir.join("MANIFEST.json")).expect("MANIFEST.json");
    let manifest: Value = serde_json::from_slice(&manifest).expect("manifest");
    let mut checked = 0;
    for entry in manifest.as_array().expect("array") {
        let file = entry["file"].as_str().expect("file");
        let name = file.rsplit('/').next().unwrap_or(file);
        let path = dir.join("files").join(name);
        let expected = entry["html_responses"].as_u64().expect("count") as usize;
        let o = Command::new(env!("CARGO_BIN_EXE_pith"))
            .args(["--format", "json"])
            .arg(&path)
            .output()
            .expect("run");
        let docs = json_lines(&o);
        // A file that gives no page (a WET file's conversion records, a clipped sample whose
        // one record is cut short) exits 1.
        let pages = docs.iter().filter(|d| d.get("error").is_none()).count();
        assert_eq!(
            o.status.success(),
            pages > 0,
            "{name}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        assert_eq!(docs.len(), expected, "{name}");
        checked += 1;
    }
    assert!(checked >= 20);
}

/// A slow stream: the first record's document is out before the second record is written
/// (`tail -f crawl.jsonl | pith --format json`), at one worker and at two, framing recognized
/// or given.
#[test]
fn each_document_is_out_before_the_next_record_arrives() {
    use std::io::{BufRead, BufReader};
    use std::sync::mpsc;
    use std::time::Duration;
    let line = |id: &str| {
        let html = format!(
            "<html><body><article><p>{id}: the council approved the new bridge on Tuesday, after \
             a debate of four hours, and building starts in May.</p></article></body></html>"
        );
        format!("{}\n", serde_json::json!({"id": id, "html": html}))
    };
    for args in [
        &["--format", "json", "-j", "1"][..],
        &["--format", "json", "-j", "2"],
        &["--format", "json", "--input", "jsonl", "-j", "2"],
    ] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_pith"))
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("run pith");
        let stdout = child.stdout.take().expect("stdout");
        let (tx, rx) = mpsc::channel();
        let reader = std::thread::spawn(move || {
            for l in BufReader::new(stdout).lines() {
                let Ok(l) = l else { break };
                if tx.send(l).is_err() {
                    break;
                }
            }
        });
        let mut stdin = child.stdin.take().expect("stdin");
        stdin.write_all(line("first").as_bytes()).expect("write");
        stdin.flush().expect("flush");
        let first = rx
            .recv_timeout(Duration::from_secs(20))
            .unwrap_or_else(|_| panic!("{args:?}: no document before the second record"));
        let v: serde_json::Value = serde_json::from_str(&first).expect("json");
        assert_eq!(v["id"], "first", "{args:?}");
        assert!(
            v["text"]
                .as_str()
                .is_some_and(|t| t.starts_with("first: the council"))
        );
        stdin.write_all(line("second").as_bytes()).expect("write");
        drop(stdin);
        let second = rx.recv_timeout(Duration::from_secs(20)).expect("second");
        let v: serde_json::Value = serde_json::from_str(&second).expect("json");
        assert_eq!(v["id"], "second", "{args:?}");
        assert!(child.wait().expect("exit").success(), "{args:?}");
        reader.join().expect("reader");
    }
}

/// A plain WARC file and a JSON lines file are handed to the workers as byte ranges of whole
/// records (the reader reads only headers and line ends): over several ranges, with damage,
/// records that are not pages and bad lines among them, the documents, messages and counts
/// are those of one worker, and of the same bytes on standard input.
#[test]
fn files_read_in_ranges_give_what_one_worker_gives() {
    let dir = std::env::temp_dir().join(format!("pith-ranges-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let filler = "words and more words in the filler paragraph. ".repeat(1600);
    let mut warc = Vec::new();
    let mut jsonl = String::new();
    for n in 0..300 {
        let html = article(n, &filler[..filler.len() * (n % 7) / 7]);
        match n {
            // A Content-Length too small, mid-file: the sequential reader takes over there.
            250 => {
                let mut r = response(n, HTML_HEAD, html.as_bytes());
                let at = r
                    .windows(15)
                    .position(|w| w == b"Content-Length:")
                    .expect("length");
                r[at + 16] = b'1';
                warc.extend(r);
            }
            _ if n % 23 == 4 => warc.extend(mixed_records().concat()),
            _ => warc.extend(response(n, HTML_HEAD, html.as_bytes())),
        }
        match n % 31 {
            3 => jsonl.push_str("not a JSON line\n\n"),
            9 => jsonl.push_str("{\"id\": 7}\n"),
            _ => {}
        }
        let line = serde_json::json!({"id": format!("p{n}"), "html": html});
        jsonl.push_str(&format!("{line}\n"));
    }
    assert!(jsonl.len() > 8 << 20, "three JSON lines ranges");
    for (name, bytes) in [("a.warc", warc), ("a.jsonl", jsonl.into_bytes())] {
        let path = dir.join(name);
        std::fs::write(&path, &bytes).expect("write");
        let file = path.to_string_lossy().into_owned();
        for format in ["json", "text"] {
            let run = |jobs: &str| {
                let o = pith(&["--format", format, "-j", jobs, &file], b"");
                (o.stdout, String::from_utf8_lossy(&o.stderr).into_owned())
            };
            let one = run("1");
            assert!(one.1.contains(": record "), "{name}: {}", one.1);
            for jobs in ["2", "8"] {
                assert!(one == run(jobs), "{name} --format {format} -j {jobs}");
            }
            let piped = |jobs: &str| pith(&["--format", format, "-j", jobs], &bytes).stdout;
            let stdin = piped("1");
            assert_eq!(stdin, piped("2"), "{name} from stdin");
            if format == "text" {
                assert_eq!(one.0, stdin, "{name}: a file and stdin");
            }
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}
