//! JSON lines: one object per input record, on one line, always valid UTF-8 (serde_json
//! escapes every control character, so a page's newlines never break a line).
//!
//! Fields, in this order: `id`, `url`, `title`, `author`, `sitename`, `lang`, `lang_source`
//! (`"declared"` or `"detected"`), `date` (ISO 8601), `date_source` (where `date` came from:
//! `"published"`, `"time"`, `"url"` are stated dates; `"modified"`, `"text"`, `"script"`,
//! `"markup"`, `"link"`, `"copyright"` are guesses, best first), `warc_date`, `description`,
//! `image` (each `null` when unknown), `categories`, `tags` (arrays, empty when unknown), `text`
//! (or `markdown` with `--format json-markdown`; `markdown`, `html` or `xml` for a stream under
//! `-o DIR` with that `--format`: [`super::Config::json_streams`]), with `--images` `images` (an array of
//! `{"src", "alt", "caption"}`, `null` for a missing alt or caption), `bytes_in`, `algo`,
//! `page_type` (a [`crate::page::model::PageType`]'s name), `confidence` (the predicted F1 of
//! the text, 0..1, four decimals; `null` unless the algorithm is `auto`), then the pass-through
//! fields of a JSON lines input, and `error` (a string) when the record failed. The metadata fields
//! and their sources: [`crate::page::metadata`]; the record's URL adds a date in its path and
//! its host as the site name, its `Content-Language` a declared language (normalized as the
//! page's), when the page gives none. `url` is the record's, else the page's canonical link or
//! `og:url`.
//!
//! `date` is only ever a date the page or its URL gives (stated: JSON-LD `datePublished`,
//! `article:published_time`, `<time datetime>`, `/2020/06/16/`...; else guessed from the page,
//! as `date_source` says); the capture date of a WARC record is `warc_date`, so a consumer
//! never takes a crawl date for a publication date. Pass-through fields never replace
//! pith's own. A record that could not be read (a fault) gives `id`, `source`, `record`,
//! `offset`, `member_offset` (gzip inputs) and `error`.

use serde_json::{Map, Value, json};

use crate::input::{Fault, Place, Record};
use crate::page::Extracted;

/// The object for an extracted page; `bytes_in` is the size of its page (the record's buffer
/// may be gone: [`crate::page::extract_buffer`]). Written field by field straight into the
/// line (`Fields`), as a [`Map`] of the same fields would be: no map of values is built
/// first, and the text is never copied, only escaped into the line (on a page of 100 MB a
/// copy was another 0.7x the page in memory).
pub fn page(rec: &Record, bytes_in: usize, e: Extracted, format: crate::output::Format) -> String {
    let super::Completed {
        lang: (lang, lang_source),
        date: (date, date_source),
        sitename,
    } = super::completed(
        rec.place.url.as_deref(),
        rec.content_language.as_deref(),
        &e,
    );
    // The body under the name of its format (HTML and XML bodies only come with `-o DIR`,
    // whose streams are JSON lines whatever the format: [`super::Config::json_streams`]).
    let body = match format {
        crate::output::Format::Markdown => "markdown",
        crate::output::Format::Html => "html",
        crate::output::Format::Xml => "xml",
        crate::output::Format::Text => "text",
    };
    // Room for the text's escapes (a newline is two bytes) and the other fields: a line that
    // outgrew its buffer would hold two copies of the text for a moment when it is moved.
    let mut o = Fields::with_capacity(e.text.len() + e.text.len() / 8 + 4096);
    match rec.extra.as_ref().and_then(|x| x.get("id")) {
        Some(v) => o.field("id", v),
        None => o.field("id", &rec.place.id),
    }
    // The input's URL, else the one the page declares (canonical, `og:url`).
    o.field("url", &rec.place.url.as_ref().or(e.url.as_ref()));
    o.field("title", &e.title);
    o.field("author", &e.author);
    o.field("sitename", &sitename);
    o.field("lang", &lang);
    o.field("lang_source", &lang_source);
    o.field("date", &date);
    o.field("date_source", &date_source);
    o.field("warc_date", &rec.warc_date);
    o.field("description", &e.description);
    o.field("image", &e.image);
    o.field("categories", &e.categories);
    o.field("tags", &e.tags);
    o.field(body, &e.text);
    if let Some(images) = &e.images {
        o.field("images", &Images(images));
    }
    o.field("bytes_in", &bytes_in);
    o.field("algo", &e.algo);
    o.field("page_type", &e.page_type);
    o.field("confidence", &e.confidence.map(|c| (c * 1e4).round() / 1e4));
    // The pass-through fields of a JSON lines input, after pith's own and never replacing one.
    if let Some(extra) = &rec.extra {
        for (k, v) in extra {
            if !o.has(k) {
                o.field(k, v);
            }
        }
    }
    o.line()
}

/// A JSON object written a field at a time: what `Value::Object(map).to_string()` writes for
/// a [`Map`] given the same fields in the same order (serde_json's compact format, the same
/// escapes), without the map.
struct Fields<'k> {
    out: Vec<u8>,
    keys: Vec<&'k str>,
}

impl<'k> Fields<'k> {
    fn with_capacity(bytes: usize) -> Fields<'k> {
        Fields {
            out: Vec::with_capacity(bytes),
            keys: Vec::new(),
        }
    }

    /// Whether the object has a field `key` already.
    fn has(&self, key: &str) -> bool {
        self.keys.contains(&key)
    }

    fn field<T: serde::Serialize + ?Sized>(&mut self, key: &'k str, value: &T) {
        self.out
            .push(if self.keys.is_empty() { b'{' } else { b',' });
        self.keys.push(key);
        // Writing into a Vec cannot fail, nor can serializing strings, numbers, options,
        // lists of them and JSON values.
        let written = serde_json::to_writer(&mut self.out, key).and_then(|()| {
            self.out.push(b':');
            serde_json::to_writer(&mut self.out, value)
        });
        if written.is_err() {
            unreachable!("serializing a JSON value into memory does not fail");
        }
    }

    /// The object as a line ([`line`]'s escapes and line end).
    fn line(mut self) -> String {
        if self.keys.is_empty() {
            self.out.push(b'{');
        }
        self.out.push(b'}');
        // serde_json writes UTF-8 (its strings are `str`s); a failure would be a bug there.
        let s = String::from_utf8(self.out)
            .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned());
        let mut s = escape_line_breaks(s);
        s.push('\n');
        s
    }
}

/// A page's images as `{"src", "alt", "caption"}` objects, serialized in place.
struct Images<'a>(&'a [crate::output::Image]);

impl serde::Serialize for Images<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeSeq;
        let mut seq = serializer.serialize_seq(Some(self.0.len()))?;
        for i in self.0 {
            seq.serialize_element(&Image(i))?;
        }
        seq.end()
    }
}

struct Image<'a>(&'a crate::output::Image);

impl serde::Serialize for Image<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut map = serializer.serialize_map(Some(3))?;
        map.serialize_entry("src", &self.0.src)?;
        map.serialize_entry("alt", &self.0.alt)?;
        map.serialize_entry("caption", &self.0.caption)?;
        map.end()
    }
}

/// The object for a record that could not be extracted (`bytes_in` as for [`page`]).
pub(crate) fn failed(rec: &Record, bytes_in: usize, algo: &str, error: &str) -> String {
    let mut o = Map::new();
    o.insert("id".into(), id(rec));
    o.insert("url".into(), json!(rec.place.url));
    place(&mut o, &rec.place);
    o.insert("bytes_in".into(), json!(bytes_in));
    o.insert("algo".into(), json!(algo));
    extend(&mut o, rec);
    o.insert("error".into(), json!(error));
    line(o)
}

/// The object for a record that could not be read.
pub(crate) fn fault(f: &Fault) -> String {
    let mut o = Map::new();
    o.insert("id".into(), json!(f.place.id));
    o.insert("url".into(), json!(f.place.url));
    place(&mut o, &f.place);
    o.insert("error".into(), json!(f.message));
    o.insert("fault".into(), json!(f.kind.name()));
    line(o)
}

/// Where a record is, the same fields on every error line: `source`, `record`, `offset`, and
/// `member_offset` for gzip input.
fn place(o: &mut Map<String, Value>, p: &Place) {
    o.insert("source".into(), json!(&*p.source));
    o.insert("record".into(), json!(p.index));
    o.insert("offset".into(), json!(p.offset));
    if let Some(m) = p.member_offset {
        o.insert("member_offset".into(), json!(m));
    }
}

/// A record's `id` as it came: a JSON line's `id` keeps its JSON type (`7` stays a number,
/// passed through with the line's other fields), others are strings.
fn id(rec: &Record) -> Value {
    match rec.extra.as_ref().and_then(|e| e.get("id")) {
        Some(v) => v.clone(),
        None => json!(rec.place.id),
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
/// Their UTF-8 forms all start with 0xC2 or 0xE2 (C2 85, E2 80 A8, E2 80 A9): a line without
/// them is returned as is, found by a byte search from lead byte to lead byte (in UTF-8 those
/// bytes are never inside a character), not by decoding the line's characters (`é`, `’`, `—`
/// start with them too).
fn escape_line_breaks(s: String) -> String {
    let b = s.as_bytes();
    let breaks = memchr::memchr2_iter(0xC2, 0xE2, b).any(|i| match b.get(i) {
        Some(0xC2) => b.get(i + 1) == Some(&0x85),
        _ => b.get(i + 1) == Some(&0x80) && matches!(b.get(i + 2), Some(0xA8 | 0xA9)),
    });
    if !breaks {
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
        // Nothing to escape: the same string, not a copy (characters that share the lead
        // bytes of the separators included).
        let plain = String::from("{\"text\":\"déjà vu — it’s \u{a0}\u{2027}\u{202a}\"}");
        let ptr = plain.as_ptr();
        let same = escape_line_breaks(plain);
        assert_eq!(same.as_ptr(), ptr);
    }

    #[test]
    fn fields_write_the_line_a_map_gives() {
        let pairs = [
            ("id", json!(7)),
            ("text", json!("a\"b\\\n\t\u{1}\u{2028}’ é")),
            ("none", Value::Null),
            ("list", json!([1.5, -0.0, 1e300, {"a": "b", "c": [true]}])),
            ("key\u{2029}\"", json!("x")),
        ];
        let mut map = Map::new();
        let mut fields = Fields::with_capacity(0);
        for (k, v) in &pairs {
            map.insert((*k).to_string(), v.clone());
            fields.field(k, v);
        }
        assert!(fields.has("list") && !fields.has("lis"));
        assert_eq!(fields.line(), line(map));
        assert_eq!(Fields::with_capacity(0).line(), line(Map::new()));
    }
}
