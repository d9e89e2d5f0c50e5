//! JSON lines: one object per line with `html` (a string) and optional `url` and `id`; every
//! other field is passed through to the output object unchanged. A line that is not such an
//! object is a fault; the next line is read as usual.

use std::io::{BufRead, Read};
use std::sync::Arc;

use super::{Fault, Item, Record};

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

    fn fault(&self, offset: u64, message: String) -> Item {
        Item::Fault(Fault {
            source: self.source.clone(),
            index: self.index,
            offset,
            member_offset: None,
            id: None,
            url: None,
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
            let n = match (&mut self.r).take(limit).read_until(b'\n', &mut line) {
                Ok(n) => n,
                Err(e) => {
                    self.index += 1;
                    return Some(self.fault(self.offset, format!("read error: {e}")));
                }
            };
            if n == 0 {
                return None;
            }
            let start = self.offset;
            self.offset += n as u64;
            if line.trim_ascii().is_empty() {
                continue;
            }
            self.index += 1;
            if n as u64 == limit && line.last() != Some(&b'\n') {
                let mut skipped = 0u64;
                while let Ok(buf) = self.r.fill_buf() {
                    if buf.is_empty() {
                        break;
                    }
                    let (k, done) = match memchr::memchr(b'\n', buf) {
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

/// One JSON line as read, not yet parsed: [`Line::parse`] (on a worker, when the reader
/// defers it) makes it a page or a fault.
#[derive(Debug)]
pub struct Line {
    source: Arc<str>,
    index: u64,
    offset: u64,
    bytes: Vec<u8>,
    max_record_bytes: usize,
}

impl Line {
    /// Bytes it holds.
    pub fn len(&self) -> usize {
        self.bytes.len()
    }

    /// True when it holds no bytes.
    pub fn is_empty(&self) -> bool {
        self.bytes.is_empty()
    }

    fn fault_at(&self, id: Option<String>, url: Option<String>, message: String) -> Item {
        Item::Fault(Fault {
            source: self.source.clone(),
            index: self.index,
            offset: self.offset,
            member_offset: None,
            id,
            url,
            message,
        })
    }

    /// The page the line holds, or the fault it is.
    pub fn parse(self) -> Item {
        let start = self.offset;
        let value: serde_json::Value = match serde_json::from_slice(&self.bytes) {
            Ok(v) => v,
            Err(e) => return self.fault_at(None, None, format!("bad JSON line: {e}")),
        };
        let serde_json::Value::Object(mut obj) = value else {
            return self.fault_at(None, None, "JSON line is not an object".into());
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
                return self.fault_at(id, url, "JSON line without an \"html\" string".into());
            }
        };
        if html.len() > self.max_record_bytes {
            return self.fault_at(
                id,
                url,
                format!(
                    "page over the record limit of {} bytes",
                    self.max_record_bytes
                ),
            );
        }
        let rec = Record {
            source: self.source.clone(),
            index: self.index,
            offset: start,
            id,
            url,
            html,
            extra: Some(obj),
            ..Record::default()
        };
        Item::Page(Box::new(rec))
    }
}
