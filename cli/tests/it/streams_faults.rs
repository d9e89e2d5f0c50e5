//! Faults in streams, through the real binary: a gzip bomb stopped at `--max-record-bytes`
//! without being inflated, a malformed WARC header and garbage between records (resync at the
//! next `WARC/` line), a record over the limit in a plain WARC, a corrupt member in a whole-file
//! gzip, bad and missing files among several, empty inputs, and stderr kept free of progress
//! lines when it is not a terminal.

use crate::run_util;

use std::time::Duration;

use flate2::{Compress, Compression, Crc, FlushCompress};
use run_util::*;

/// A gzip member (RFC 1952) holding `head`, then `zeros_mib` MiB of zero bytes, then `tail`,
/// built without compressing the zeros more than once: one MiB is compressed with a sync flush
/// (a byte-aligned run of non-final blocks whose matches reach only into its own output), and
/// that run is repeated. 8 GiB of zeros cost about 8 MB this way.
fn zero_bomb_member(head: &[u8], zeros_mib: usize, tail: &[u8]) -> Vec<u8> {
    fn deflate(data: &[u8], flush: FlushCompress) -> Vec<u8> {
        let mut c = Compress::new(Compression::best(), false);
        let mut out = Vec::with_capacity(data.len() + 1024);
        c.compress_vec(data, &mut out, flush).expect("deflate");
        out
    }
    let mib = vec![0u8; 1 << 20];
    let zero_run = deflate(&mib, FlushCompress::Sync);
    let mut member = vec![0x1f, 0x8b, 0x08, 0, 0, 0, 0, 0, 0, 0xff];
    member.extend(deflate(head, FlushCompress::Sync));
    for _ in 0..zeros_mib {
        member.extend_from_slice(&zero_run);
    }
    member.extend(deflate(tail, FlushCompress::Finish));
    // CRC-32 of the whole: the zeros' part by doubling with crc32_combine, not by hashing GiBs.
    let mut crc = Crc::new();
    crc.update(head);
    let mut zeros = Crc::new();
    let mut power = Crc::new();
    power.update(&mib);
    let mut n = zeros_mib;
    while n > 0 {
        if n & 1 == 1 {
            zeros.combine(&power);
        }
        let p = std::mem::take(&mut power);
        power = Crc::new();
        power.combine(&p);
        power.combine(&p);
        n >>= 1;
    }
    crc.combine(&zeros);
    let mut t = Crc::new();
    t.update(tail);
    crc.combine(&t);
    let total = head.len() + (zeros_mib << 20) + tail.len();
    member.extend_from_slice(&crc.sum().to_le_bytes());
    member.extend_from_slice(&(total as u32).to_le_bytes());
    member
}

#[test]
fn bomb_member_is_a_valid_gzip_member() {
    use std::io::Read;
    let m = zero_bomb_member(b"WARC/head ", 3, b" tail");
    let mut out = Vec::new();
    flate2::read::GzDecoder::new(&m[..])
        .read_to_end(&mut out)
        .expect("valid member, CRC and size included");
    assert_eq!(out.len(), 10 + (3 << 20) + 5);
    assert!(out.starts_with(b"WARC/head \0") && out.ends_with(b"\0 tail"));
}

#[test]
fn gzip_bomb_record_stops_at_the_limit_without_being_inflated() {
    // An HTML response whose WARC Content-Length says 8 GiB, in its own gzip member (8 MB on
    // disk). Inflating it would take minutes; pith must skip it at once and go on.
    let zeros_mib = 8 << 10;
    let http = b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n";
    let len = http.len() + (zeros_mib << 20);
    let head = format!(
        "WARC/1.0\r\nWARC-Type: response\r\nWARC-Target-URI: http://bomb.example/\r\n\
         WARC-Record-ID: <urn:uuid:bomb>\r\nContent-Length: {len}\r\n\r\n"
    );
    let head = [head.as_bytes(), http].concat();
    let mut warc = gz(&response(1, HTML_HEAD, article(1, "").as_bytes()));
    let bomb_at = warc.len();
    warc.extend(zero_bomb_member(&head, zeros_mib, b"\r\n\r\n"));
    warc.extend(gz(&response(3, HTML_HEAD, article(3, "").as_bytes())));
    let o = pith_within(&["--format", "json"], &warc, Duration::from_secs(60));
    assert!(o.status.success(), "{}", stderr(&o));
    let docs = json_lines(&o);
    assert_eq!(docs.len(), 3, "{docs:?}");
    assert!(text(&docs[0]).contains("Story number 1 begins"));
    let err = field(&docs[1], "error");
    assert!(err.contains("over the record limit"), "{}", docs[1]);
    assert_eq!(docs[1]["id"], "<urn:uuid:bomb>");
    assert_eq!(docs[1]["member_offset"], bomb_at as u64);
    assert!(text(&docs[2]).contains("Story number 3 begins"));
    let e = stderr(&o);
    assert!(
        e.contains(&format!(
            "record 2 <urn:uuid:bomb> at byte {} (gzip member at byte {bomb_at})",
            docs[1]["offset"]
        )),
        "{e}"
    );
    assert!(
        e.contains("3 records read, 2 extracted, 0 skipped, 1 failed"),
        "{e}"
    );
}

#[test]
fn malformed_header_and_garbage_between_records_resync_at_the_next_record() {
    let mut warc = response(1, HTML_HEAD, article(1, "").as_bytes());
    // A header without Content-Length: the reader cannot know where the block ends.
    warc.extend_from_slice(
        b"WARC/1.0\r\nWARC-Type: response\r\nWARC-Record-ID: <urn:uuid:broken>\r\n\r\n\
          HTTP/1.1 200 OK\r\n\r\n<p>lost</p>\r\n\r\n",
    );
    warc.extend(response(3, HTML_HEAD, article(3, "").as_bytes()));
    warc.extend_from_slice(
        b"some garbage that is not a record\r\nWARC-ish but not at a start WARC/1.0\r\n",
    );
    warc.extend(response(5, HTML_HEAD, article(5, "").as_bytes()));
    for input in [warc.clone(), gz(&warc)] {
        let o = pith(&["--format", "json", "-j", "2"], &input);
        assert!(o.status.success(), "{}", stderr(&o));
        let docs = json_lines(&o);
        let texts: Vec<&str> = docs.iter().map(text).collect();
        assert!(texts[0].contains("Story number 1 begins"), "{docs:?}");
        assert_error(&docs[1], "Content-Length");
        assert_eq!(docs[1]["id"], "<urn:uuid:broken>");
        assert!(texts.iter().any(|t| t.contains("Story number 3 begins")));
        assert!(
            docs.iter()
                .any(|d| field(d, "error").contains("not a WARC record header"))
        );
        assert!(
            texts
                .last()
                .is_some_and(|t| t.contains("Story number 5 begins")),
            "{docs:?}"
        );
        assert!(!texts.iter().any(|t| t.contains("lost")));
    }
}

#[test]
fn record_over_the_limit_in_a_plain_warc_is_skipped_and_the_next_comes_out() {
    let big = article(1, &"many words in a long page ".repeat(20_000));
    let warc = [
        response(1, HTML_HEAD, big.as_bytes()),
        response(2, HTML_HEAD, article(2, "").as_bytes()),
    ]
    .concat();
    let o = pith(&["--format", "json", "--max-record-bytes", "100000"], &warc);
    let docs = json_lines(&o);
    assert_eq!(docs.len(), 2);
    assert_error(&docs[0], "over the record limit of 100000 bytes");
    assert_eq!(docs[0]["url"], serde_json::Value::Null);
    assert!(text(&docs[1]).contains("Story number 2 begins"));
    // The same page under the limit is extracted.
    let docs = json_lines(&pith(&["--format", "json"], &warc));
    assert!(text(&docs[0]).contains("many words in a long page"));
}

#[test]
fn corrupt_whole_file_gzip_keeps_what_came_before() {
    let words = |n: usize| {
        (0..3000)
            .map(|i| format!("w{} ", i * 7919 % 10007 + n))
            .collect::<String>()
    };
    let records: Vec<Vec<u8>> = (1..=6)
        .map(|n| response(n, HTML_HEAD, article(n, &words(n)).as_bytes()))
        .collect();
    let mut whole = gz(&records.concat());
    let at = whole.len() * 2 / 3;
    for b in &mut whole[at..at + 64] {
        *b ^= 0xa5;
    }
    let o = pith(&["--format", "json"], &whole);
    assert!(o.status.success(), "{}", stderr(&o));
    let docs = json_lines(&o);
    assert!(text(&docs[0]).contains("Story number 1 begins"));
    assert!(docs.len() < 6, "{docs:?}");
    // The damage is seen either as a corrupt member or as a record that no longer parses.
    assert!(docs.iter().any(|d| d["error"].is_string()), "{docs:?}");
    assert!(stderr(&o).contains(" failed"), "{}", stderr(&o));
}

#[test]
fn bad_and_missing_files_among_several_do_not_stop_the_others() {
    let dir = std::env::temp_dir().join(format!("pith-streams-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("tmp dir");
    let warc = dir.join("a.warc.gz");
    std::fs::write(
        &warc,
        gz(&response(1, HTML_HEAD, article(1, "").as_bytes())),
    )
    .expect("write");
    let page = dir.join("b.html");
    std::fs::write(&page, article(2, "")).expect("write");
    let empty = dir.join("empty.html");
    std::fs::write(&empty, b"").expect("write");
    let missing = dir.join("missing.warc");
    let (w, p, e, m) = (
        warc.to_string_lossy().into_owned(),
        page.to_string_lossy().into_owned(),
        empty.to_string_lossy().into_owned(),
        missing.to_string_lossy().into_owned(),
    );
    let o = pith(&["--format", "json", &m, &w, &e, &p], b"");
    assert!(o.status.success(), "{}", stderr(&o));
    let docs = json_lines(&o);
    assert!(text(&docs[0]).contains("Story number 1 begins"), "{docs:?}");
    assert!(
        docs.iter()
            .any(|d| d["id"] == p.as_str() && text(d).contains("Story number 2"))
    );
    let err = stderr(&o);
    assert!(err.contains(&format!("pith: {m}: No such file")), "{err}");
    assert!(err.contains(&format!("pith: {e}: empty input")), "{err}");
    // Nothing readable at all: non-zero.
    assert!(!pith(&[&m], b"").status.success());
    assert!(!pith(&[], b"").status.success());
    let o = pith(&[&e], b"");
    assert!(!o.status.success());
    assert!(stderr(&o).contains("empty input"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn no_progress_line_when_stderr_is_not_a_terminal() {
    let warc: Vec<u8> = (0..300)
        .flat_map(|n| gz(&response(n, HTML_HEAD, article(n, "").as_bytes())))
        .collect();
    let dir = std::env::temp_dir().join(format!("pith-progress-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("tmp dir");
    let path = dir.join("p.warc.gz");
    std::fs::write(&path, &warc).expect("write");
    let o = pith(&["--format", "json", &path.to_string_lossy()], b"");
    let err = stderr(&o);
    assert!(!err.contains('\r') && !err.contains('\x1b'), "{err:?}");
    assert_eq!(err.lines().count(), 1, "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}
