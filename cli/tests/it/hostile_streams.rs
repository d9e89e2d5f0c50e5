//! Hostile streams through the real binary: bombs and lying lengths must be stopped, reported
//! on stderr and in the JSON, and every record after them must still come out.

use crate::run_util;

use std::io::Write;
use std::time::Duration;

use flate2::Compression;
use flate2::write::GzEncoder;
use run_util::*;

/// The ids of the records that came out with text, and the errors, in order.
fn outcome(warc: &[u8], args: &[&str]) -> (Vec<String>, Vec<String>, String) {
    let mut all = vec!["--format", "json"];
    all.extend_from_slice(args);
    let o = pith_within(&all, warc, Duration::from_secs(120));
    assert!(o.status.success(), "{}", stderr(&o));
    let docs = json_lines(&o);
    let ids = docs
        .iter()
        .filter(|d| d["error"].is_null())
        .map(|d| d["id"].as_str().unwrap_or("").to_string())
        .collect();
    let errors = docs
        .iter()
        .filter_map(|d| d["error"].as_str().map(String::from))
        .collect();
    (ids, errors, stderr(&o))
}

fn id(n: usize) -> String {
    format!("<urn:uuid:{n:08}>")
}

/// A gzip member holding `data` and then `zeros_mib` MiB of zeros: the record is whole, but
/// the member inflates to far more than the record says (a bomb behind an honest header).
fn member_with_zeros(data: &[u8], zeros_mib: usize) -> Vec<u8> {
    let mut e = GzEncoder::new(Vec::new(), Compression::best());
    e.write_all(data).expect("gzip");
    let mib = vec![0u8; 1 << 20];
    for _ in 0..zeros_mib {
        e.write_all(&mib).expect("gzip");
    }
    e.finish().expect("gzip")
}

#[test]
fn a_member_that_inflates_past_its_record_loses_no_later_record() {
    // Records 2 and 3 have the same size, so the last member's trailer matches record 2's size
    // too: the split reader must not take members 2 and 3 for one member.
    let recs: Vec<Vec<u8>> = (1..=3)
        .map(|n| response(n, HTML_HEAD, article(n, "").as_bytes()))
        .collect();
    assert_eq!(recs[1].len(), recs[2].len());
    let mut warc = gz(&recs[0]);
    warc.extend(member_with_zeros(&recs[1], 16));
    warc.extend(gz(&recs[2]));
    let (ids, _errors, err) = outcome(&warc, &[]);
    assert!(
        ids.contains(&id(1)) && ids.contains(&id(3)),
        "{ids:?}\n{err}"
    );
}

#[test]
fn an_http_gzip_bomb_stops_at_the_limit_and_the_stream_goes_on() {
    // 64 MiB of zeros in 64 KB of Content-Encoding: gzip, the limit at 4 MB.
    let mut body = GzEncoder::new(Vec::new(), Compression::best());
    let mib = vec![0u8; 1 << 20];
    for _ in 0..64 {
        body.write_all(&mib).expect("gzip");
    }
    let body = body.finish().expect("gzip");
    let head = "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Encoding: gzip\r\n\r\n";
    let mut warc = response(1, HTML_HEAD, article(1, "").as_bytes());
    warc.extend(response(2, head, &body));
    warc.extend(response(3, HTML_HEAD, article(3, "").as_bytes()));
    let (ids, errors, err) = outcome(&warc, &["--max-record-bytes", "4000000"]);
    assert_eq!(ids, [id(1), id(3)], "{err}");
    assert_eq!(errors.len(), 1);
    assert!(
        errors[0].contains("past the record limit of 4000000 bytes"),
        "{errors:?}"
    );
    assert!(err.contains(&format!("record 2 {}", id(2))), "{err}");
}

/// Record `n` with its Content-Length replaced by `len`.
fn lying(n: usize, len: usize) -> Vec<u8> {
    let rec = response(n, HTML_HEAD, article(n, "").as_bytes());
    let text = String::from_utf8(rec).expect("ASCII record");
    let at = text.find("Content-Length: ").expect("length field") + 16;
    let end = at + text[at..].find('\r').expect("CRLF");
    format!("{}{len}{}", &text[..at], &text[end..]).into_bytes()
}

#[test]
fn a_content_length_too_small_is_reported_and_the_next_record_comes_out() {
    let mut warc = response(1, HTML_HEAD, article(1, "").as_bytes());
    warc.extend(lying(2, 30));
    warc.extend(response(3, HTML_HEAD, article(3, "").as_bytes()));
    let (ids, errors, err) = outcome(&warc, &[]);
    assert_eq!(ids, [id(1), id(3)], "{err}");
    assert!(!errors.is_empty(), "the lie is reported: {err}");
}

#[test]
fn a_content_length_of_garbage_or_past_u64_is_a_fault_not_a_panic() {
    for bad in [
        "18446744073709551616",
        "99999999999999999999999",
        "-5",
        "0x10",
        "",
    ] {
        let rec = lying(2, 0);
        let rec = String::from_utf8(rec).expect("ASCII").replace(
            "Content-Length: 0\r\n",
            &format!("Content-Length: {bad}\r\n"),
        );
        let mut warc = response(1, HTML_HEAD, article(1, "").as_bytes());
        warc.extend(rec.as_bytes());
        warc.extend(response(3, HTML_HEAD, article(3, "").as_bytes()));
        let (ids, errors, err) = outcome(&warc, &[]);
        assert_eq!(ids, [id(1), id(3)], "{bad:?}: {err}");
        assert_eq!(errors.len(), 1, "{bad:?}: {errors:?}");
    }
}

#[test]
fn a_content_length_too_large_does_not_swallow_the_records_after_it() {
    // Record 2 says it is longer than it is: its block runs over the next records into a
    // later one (in the middle of the stream), or past the end of input.
    for (extra, total) in [(3045, 8), (1_000_000, 4)] {
        let mut warc = response(1, HTML_HEAD, article(1, "").as_bytes());
        let honest = HTML_HEAD.len() + article(2, "").len();
        warc.extend(lying(2, honest + extra));
        for n in 3..=total {
            warc.extend(response(n, HTML_HEAD, article(n, "").as_bytes()));
        }
        let (ids, errors, err) = outcome(&warc, &[]);
        assert!(ids.contains(&id(1)), "{extra}: {ids:?}\n{err}");
        assert!(
            !ids.contains(&id(2)),
            "{extra}: the lying record is not a page"
        );
        assert!(
            errors[0].contains("Content-Length") && errors[0].contains("runs past"),
            "{extra}: {errors:?}"
        );
        // Every later record comes out, the one the lying block ends inside too: its head is
        // in the block and is read again from there, its tail from the stream.
        let lost: Vec<usize> = (3..=total).filter(|&n| !ids.contains(&id(n))).collect();
        assert!(lost.is_empty(), "{extra}: {lost:?}\n{err}");
        assert_eq!(errors.len(), 1, "{extra}: {errors:?}");
    }
}
