//! JSON lines: one object per line with `html` (a string) and optional `url` and `id`; every
//! other field is passed through to the output object unchanged. A line that is not such an
//! object is a fault; the next line is read as usual.
//!
//! Lines end at LF, CRLF or a CR alone (a raw CR or LF cannot be inside a JSON string, so either
//! ends the line), and a UTF-8 byte order mark at the start of a line (the start of the input,
//! or of a file concatenated to it) is skipped.

use std::io::{self, BufRead};
use std::sync::Arc;

use super::{Fault, FaultKind, Item, Place, Record};

/// Reads JSON lines: one object a line, its page in `html` (`url` and `id` optional, the other
/// fields passed through); a line that is not such an object is a fault, and reading goes on.
pub struct Reader<R: BufRead> {
    r: R,
    source: Arc<str>,
    index: u64,
    offset: u64,
    max_record_bytes: usize,
    /// Hand each line out unparsed ([`Item::Member`]), for a worker to parse.
    pub defer: bool,
}

impl<R: BufRead> Reader<R> {
    /// A reader of `r`, named `source` in records and faults; lines over `max_record_bytes`
    /// are faults.
    pub fn new(r: R, source: Arc<str>, max_record_bytes: usize) -> Self {
        Reader {
            r,
            source,
            index: 0,
            offset: 0,
            max_record_bytes,
            defer: false,
        }
    }

    fn fault(&self, offset: u64, kind: FaultKind, message: String) -> Item {
        Item::Fault(Fault {
            place: Place {
                source: self.source.clone(),
                index: self.index,
                offset,
                ..Place::default()
            },
            kind,
            message,
        })
    }

    /// Goes on from another reader: the next line is at byte `offset`; records are numbered
    /// from 1 again.
    pub fn resume(&mut self, offset: u64) {
        self.offset = offset;
    }

    /// The next page or fault; `None` at the end of the input.
    pub fn next_item(&mut self) -> Option<Item> {
        let mut line = Vec::new();
        loop {
            line.clear();
            // A line is read up to the limit (plus room for the JSON around the page); a longer
            // one is skipped to its end without being held.
            let limit = self.max_record_bytes as u64 * 2 + 4096;
            let (n, ended) = match read_line(&mut self.r, limit, &mut line) {
                Ok(read) => read,
                Err(e) => {
                    self.index += 1;
                    return Some(self.fault(
                        self.offset,
                        FaultKind::of_read(&e),
                        format!("read error: {e}"),
                    ));
                }
            };
            if n == 0 {
                return None;
            }
            let mut start = self.offset;
            self.offset += n;
            if line.starts_with(BOM) {
                line.drain(..BOM.len());
                start += BOM.len() as u64;
            }
            if line.trim_ascii().is_empty() {
                continue;
            }
            self.index += 1;
            if n == limit && !ended {
                let mut skipped = 0u64;
                while let Ok(buf) = self.r.fill_buf() {
                    if buf.is_empty() {
                        break;
                    }
                    let (k, done) = match memchr::memchr2(b'\n', b'\r', buf) {
                        Some(i) => (i + 1, true),
                        None => (buf.len(), false),
                    };
                    self.r.consume(k);
                    skipped += k as u64;
                    if done {
                        break;
                    }
                }
                self.offset += skipped;
                return Some(self.fault(
                    start,
                    FaultKind::Limit,
                    format!(
                        "line over the record limit of {} bytes",
                        self.max_record_bytes
                    ),
                ));
            }
            let line = Line {
                source: self.source.clone(),
                index: self.index,
                offset: start,
                bytes: line,
                max_record_bytes: self.max_record_bytes,
            };
            return Some(if self.defer {
                Item::Member(Box::new(super::split::Member::line(line)))
            } else {
                line.parse()
            });
        }
    }
}

/// The UTF-8 byte order mark.
const BOM: &[u8] = b"\xef\xbb\xbf";

/// Reads one line into `line` with its line end (LF or CR: the LF of a CRLF then reads as an
/// empty line, which is passed over; nothing waits for the byte after a CR), at most `limit`
/// bytes: the bytes read, and whether a line end came.
fn read_line(r: &mut impl BufRead, limit: u64, line: &mut Vec<u8>) -> io::Result<(u64, bool)> {
    let mut n = 0u64;
    loop {
        let buf = match r.fill_buf() {
            Ok(buf) => buf,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        let room = usize::try_from(limit - n).unwrap_or(usize::MAX);
        let look = &buf[..buf.len().min(room)];
        if look.is_empty() {
            return Ok((n, false));
        }
        if let Some(i) = memchr::memchr2(b'\n', b'\r', look) {
            line.extend_from_slice(&look[..=i]);
            r.consume(i + 1);
            return Ok((n + i as u64 + 1, true));
        }
        let k = look.len();
        line.extend_from_slice(look);
        r.consume(k);
        n += k as u64;
    }
}

/// True when `head`, the first bytes of an input, is JSON lines: `{` first (after a BOM and
/// white space); or, past a first line that is not one (junk, or the end of a record cut at
/// its start), a line that is a whole JSON object with an `html` string, when the input does
/// not start with `<`, or two such lines when it does (a page can hold one such line in a
/// script, hardly two; the first line of JSON lines cut at a record start is mostly markup).
pub(crate) fn looks_like(head: &[u8]) -> bool {
    let text = head.strip_prefix(BOM).unwrap_or(head);
    let Some(&first) = text.iter().find(|b| !b.is_ascii_whitespace()) else {
        return false;
    };
    if first == b'{' {
        return true;
    }
    let needed = if first == b'<' { 2 } else { 1 };
    let mut found = 0;
    let line_end = |from: usize| memchr::memchr2(b'\n', b'\r', text.get(from..)?).map(|i| from + i);
    let Some(mut pos) = line_end(0).map(|i| i + 1) else {
        return false;
    };
    // Whole lines only (the last one may go on past `head`), and not too many.
    for _ in 0..1000 {
        let Some(end) = line_end(pos) else {
            break;
        };
        let line = &text[pos..end];
        pos = end + 1;
        if !line.trim_ascii_start().starts_with(b"{") {
            continue;
        }
        let page = serde_json::from_slice::<serde_json::Value>(line)
            .ok()
            .is_some_and(|v| v.get("html").is_some_and(serde_json::Value::is_string));
        if page {
            found += 1;
            if found >= needed {
                return true;
            }
        }
    }
    false
}

/// One JSON line as read, not yet parsed: [`Line::parse`] (on a worker, when the reader
/// defers it) makes it a page or a fault.
#[derive(Debug)]
pub(crate) struct Line {
    source: Arc<str>,
    index: u64,
    offset: u64,
    bytes: Vec<u8>,
    max_record_bytes: usize,
}

impl Line {
    /// Bytes it holds.
    pub(crate) fn len(&self) -> usize {
        self.bytes.len()
    }

    fn fault_at(
        &self,
        id: Option<String>,
        url: Option<String>,
        kind: FaultKind,
        message: String,
    ) -> Item {
        Item::Fault(Fault {
            place: Place {
                source: self.source.clone(),
                index: self.index,
                offset: self.offset,
                member_offset: None,
                id,
                url,
            },
            kind,
            message,
        })
    }

    /// The page the line holds, or the fault it is.
    pub(crate) fn parse(self) -> Item {
        let start = self.offset;
        let value: serde_json::Value = match serde_json::from_slice(&self.bytes) {
            Ok(v) => v,
            Err(e) => {
                return self.fault_at(
                    None,
                    None,
                    FaultKind::Framing,
                    format!("bad JSON line: {e}"),
                );
            }
        };
        let serde_json::Value::Object(mut obj) = value else {
            return self.fault_at(
                None,
                None,
                FaultKind::Framing,
                "JSON line is not an object".into(),
            );
        };
        // An id that is not a string (`"id": 7`) is named by its JSON text in messages and
        // goes back out as it came (the output takes it from the passed-through fields).
        let id = match obj.get("id") {
            Some(serde_json::Value::String(_)) => match obj.remove("id") {
                Some(serde_json::Value::String(s)) => Some(s),
                _ => None,
            },
            Some(other) => Some(other.to_string()),
            None => None,
        };
        let url = match obj.remove("url") {
            Some(serde_json::Value::String(s)) => Some(s),
            _ => None,
        };
        let html = match obj.remove("html") {
            Some(serde_json::Value::String(s)) => s.into_bytes(),
            _ => {
                return self.fault_at(
                    id,
                    url,
                    FaultKind::Framing,
                    "JSON line without an \"html\" string".into(),
                );
            }
        };
        if html.len() > self.max_record_bytes {
            return self.fault_at(
                id,
                url,
                FaultKind::Limit,
                format!(
                    "page over the record limit of {} bytes",
                    self.max_record_bytes
                ),
            );
        }
        let rec = Record {
            place: Place {
                source: self.source.clone(),
                index: self.index,
                offset: start,
                member_offset: None,
                id,
                url,
            },
            html,
            extra: Some(obj),
            ..Record::default()
        };
        Item::Page(Box::new(rec))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ids(bytes: &[u8]) -> Vec<String> {
        let mut r = Reader::new(bytes, Arc::from("t"), 1 << 20);
        let mut out = Vec::new();
        while let Some(item) = r.next_item() {
            out.push(match item {
                Item::Page(p) => format!("{} {}", p.place.index, p.place.id.unwrap_or_default()),
                Item::Fault(f) => format!("{} fault", f.place.index),
                _ => "other".into(),
            });
        }
        out
    }

    #[test]
    fn a_bom_and_any_line_ends_are_read() {
        let (a, b) = (r#"{"id":"a","html":"<p>a"}"#, r#"{"id":"b","html":"<p>b"}"#);
        for end in ["\n", "\r\n", "\r"] {
            let text = format!("\u{feff}{a}{end}{end}\u{feff}{b}{end}");
            assert_eq!(ids(text.as_bytes()), ["1 a", "2 b"], "{end:?}");
        }
        assert_eq!(ids(format!("{a}\r{b}").as_bytes()), ["1 a", "2 b"]);
    }

    #[test]
    fn json_lines_are_told_from_pages() {
        let line = r#"{"id":"a","html":"<p>a</p>"}"#;
        assert!(looks_like(format!("\u{feff}  {line}\n").as_bytes()));
        assert!(looks_like(format!("junk\n{line}\n").as_bytes()));
        assert!(looks_like(
            format!("<p>cut\"}}\n{line}\r\n{line}\n").as_bytes()
        ));
        // One such line in a page, or a line not whole, is not enough.
        assert!(!looks_like(format!("<html>\n{line}\n</html>\n").as_bytes()));
        assert!(!looks_like(format!("junk\n{line}").as_bytes()));
        assert!(!looks_like(b"<html><body><p>page</p></body></html>\n"));
    }
}
