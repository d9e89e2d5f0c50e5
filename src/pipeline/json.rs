//! JSON lines: one object per input record, on one line, always valid UTF-8 (serde_json
//! escapes every control character, so a page's newlines never break a line).
//!
//! Fields, in this order: `id`, `url`, `title`, `author`, `sitename`, `lang`, `lang_source`
//! (`"declared"` or `"detected"`), `date` (ISO 8601), `date_source` (where `date` came from:
//! `"published"`, `"time"`, `"url"` are stated dates; `"modified"`, `"text"`, `"script"`,
//! `"markup"`, `"link"`, `"copyright"` are guesses, best first), `warc_date`, `description`,
//! `image` (each `null` when unknown), `categories`, `tags` (arrays, empty when unknown), `text`
//! (or `markdown` with `--format json-markdown`), with `--images` `images` (an array of
//! `{"src", "alt", "caption"}`, `null` for a missing alt or caption), `bytes_in`, `algo`,
//! `page_type` (one of [`crate::page::model::PAGE_TYPES`]), `confidence` (the predicted F1 of
//! the text, 0..1, four decimals; `null` unless the algorithm is `auto`), then the pass-through
//! fields of a JSON lines input, and `error` (a string) when the record failed. The metadata fields
//! and their sources: [`crate::page::metadata`]; the record's URL adds a date in its path and
//! its host as the site name, its `Content-Language` a declared language, when the page gives
//! none.
//!
//! `date` is only ever a date the page or its URL gives (stated: JSON-LD `datePublished`,
//! `article:published_time`, `<time datetime>`, `/2020/06/16/`...; else guessed from the page,
//! as `date_source` says); the capture date of a WARC record is `warc_date`, so a consumer
//! never takes a crawl date for a publication date. Pass-through fields never replace
//! pith's own. A record that could not be read (a fault) gives `id`, `source`, `record`,
//! `offset`, `member_offset` (gzip inputs) and `error`.

use serde_json::{Map, Value, json};

use crate::input::{Fault, Record};
use crate::page::Extracted;

/// The object for an extracted page; `bytes_in` is the size of its page (the record's buffer
/// may be gone: [`crate::page::extract_buffer`]). The text moves into the object rather
/// than being copied: on a page of 100 MB the copy was another 0.7x the page in memory.
pub fn page(rec: &Record, bytes_in: usize, e: Extracted, format: crate::output::Format) -> String {
    // A transport Content-Language is a declaration, worth more than a detected language.
    let (lang, lang_source) = match (&rec.content_language, e.lang_source) {
        (Some(cl), None | Some(crate::page::metadata::DETECTED)) => {
            (Some(cl.clone()), Some(crate::page::metadata::DECLARED))
        }
        _ => (e.lang, e.lang_source),
    };
    // The metadata read the record's URL already; a date in its path when it was not asked for.
    let (date, date_source) = match e.date {
        Some(d) => (Some(d), e.date_source),
        None => match rec.url.as_deref().and_then(crate::page::metadata::url_date) {
            Some(d) => (Some(d), Some(crate::page::metadata::DATE_URL)),
            None => (None, None),
        },
    };
    let mut o = Map::new();
    o.insert("id".into(), id(rec));
    o.insert("url".into(), json!(rec.url));
    o.insert("title".into(), json!(e.title));
    o.insert("author".into(), json!(e.author));
    let sitename = e.sitename.or_else(|| {
        rec.url
            .as_deref()
            .and_then(crate::page::metadata::host_name)
    });
    o.insert("sitename".into(), json!(sitename));
    o.insert("lang".into(), json!(lang));
    o.insert("lang_source".into(), json!(lang_source));
    o.insert("date".into(), json!(date));
    o.insert("date_source".into(), json!(date_source));
    o.insert("warc_date".into(), json!(rec.warc_date));
    o.insert("description".into(), json!(e.description));
    o.insert("image".into(), json!(e.image));
    o.insert("categories".into(), json!(e.categories));
    o.insert("tags".into(), json!(e.tags));
    let body = if format == crate::output::Format::Markdown {
        "markdown"
    } else {
        "text"
    };
    o.insert(body.into(), Value::String(e.text));
    if let Some(images) = e.images {
        let list = images
            .into_iter()
            .map(|i| json!({"src": i.src, "alt": i.alt, "caption": i.caption}))
            .collect();
        o.insert("images".into(), Value::Array(list));
    }
    o.insert("bytes_in".into(), json!(bytes_in));
    o.insert("algo".into(), json!(e.algo));
    o.insert("page_type".into(), json!(e.page_type));
    o.insert(
        "confidence".into(),
        json!(e.confidence.map(|c| (c * 1e4).round() / 1e4)),
    );
    extend(&mut o, rec);
    line(o)
}

/// The object for a record that could not be extracted (`bytes_in` as for [`page`]).
pub fn failed(rec: &Record, bytes_in: usize, algo: &str, error: &str) -> String {
    let mut o = Map::new();
    o.insert("id".into(), id(rec));
    o.insert("url".into(), json!(rec.url));
    place(
        &mut o,
        &rec.source,
        rec.index,
        rec.offset,
        rec.member_offset,
    );
    o.insert("bytes_in".into(), json!(bytes_in));
    o.insert("algo".into(), json!(algo));
    extend(&mut o, rec);
    o.insert("error".into(), json!(error));
    line(o)
}

/// The object for a record that could not be read.
pub fn fault(f: &Fault) -> String {
    let mut o = Map::new();
    o.insert("id".into(), json!(f.id));
    o.insert("url".into(), json!(f.url));
    place(&mut o, &f.source, f.index, f.offset, f.member_offset);
    o.insert("error".into(), json!(f.message));
    line(o)
}

/// Where a record is, the same fields on every error line: `source`, `record`, `offset`, and
/// `member_offset` for gzip input.
fn place(o: &mut Map<String, Value>, source: &str, index: u64, offset: u64, member: Option<u64>) {
    o.insert("source".into(), json!(source));
    o.insert("record".into(), json!(index));
    o.insert("offset".into(), json!(offset));
    if let Some(m) = member {
        o.insert("member_offset".into(), json!(m));
    }
}

/// A record's `id` as it came: a JSON line's `id` keeps its JSON type (`7` stays a number,
/// passed through with the line's other fields), others are strings.
fn id(rec: &Record) -> Value {
    match rec.extra.as_ref().and_then(|e| e.get("id")) {
        Some(v) => v.clone(),
        None => json!(rec.id),
    }
}

fn extend(o: &mut Map<String, Value>, rec: &Record) {
    if let Some(extra) = &rec.extra {
        for (k, v) in extra {
            o.entry(k.clone()).or_insert_with(|| v.clone());
        }
    }
}

fn line(o: Map<String, Value>) -> String {
    let mut s = escape_line_breaks(Value::Object(o).to_string());
    s.push('\n');
    s
}

/// JSON allows U+2028, U+2029 and U+0085 raw inside strings (serde_json writes them so), but
/// line-splitting readers take them for line ends (Python's `str.splitlines`, JavaScript
/// before ES2019), so one record would become several: they are written `\uXXXX`. In a JSON
/// text they can only stand inside strings, so the replacement is safe anywhere in the line.
/// Their UTF-8 forms all start with 0xC2 or 0xE2; a line without those bytes is returned as is.
fn escape_line_breaks(s: String) -> String {
    if memchr::memchr2(0xC2, 0xE2, s.as_bytes()).is_none()
        || !s.contains(['\u{2028}', '\u{2029}', '\u{85}'])
    {
        return s;
    }
    let mut out = String::with_capacity(s.len() + 16);
    for c in s.chars() {
        match c {
            '\u{2028}' => out.push_str("\\u2028"),
            '\u{2029}' => out.push_str("\\u2029"),
            '\u{85}' => out.push_str("\\u0085"),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_separators_are_escaped_and_the_line_stays_one_line() {
        let mut o = Map::new();
        o.insert("text".into(), json!("a\u{2028}b\u{2029}c\u{85}d é"));
        let l = line(o);
        assert_eq!(l, "{\"text\":\"a\\u2028b\\u2029c\\u0085d é\"}\n");
        assert_eq!(l.lines().count(), 1);
        let back: Value = serde_json::from_str(&l).expect("valid JSON");
        assert_eq!(back["text"], "a\u{2028}b\u{2029}c\u{85}d é");
        // Nothing to escape: the same string, not a copy.
        let plain = String::from("{\"text\":\"déjà vu\"}");
        let ptr = plain.as_ptr();
        let same = escape_line_breaks(plain);
        assert_eq!(same.as_ptr(), ptr);
    }
}
