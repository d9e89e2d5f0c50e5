//! Character references in text: all HTML5 named entities and numeric references.
//!
//! The table ([`super::entity_table`]) is the WHATWG list, generated. Named references match
//! the longest name followed by `;`; the legacy names (`&amp`, `&copy`, `&nbsp`...) also match
//! without it, longest first (WHATWG 13.2.5.73, "named character reference state"). Numeric
//! references follow 13.2.5.80: NUL, surrogates and values past U+10FFFF become U+FFFD and
//! 0x80-0x9F are read as windows-1252, the way browsers render old pages.

use std::borrow::Cow;

use super::entity_table::ENTITIES;

/// The longest entity name (`CounterClockwiseContourIntegral;`).
const MAX_NAME: usize = 32;

/// Windows-1252 meanings of 0x80..=0x9F in numeric references (WHATWG's replacement table);
/// 0 where the spec keeps the code point.
const C1: [u32; 32] = [
    0x20AC, 0, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160, 0x2039,
    0x0152, 0, 0x017D, 0, 0, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014, 0x02DC,
    0x2122, 0x0161, 0x203A, 0x0153, 0, 0x017E, 0x0178,
];

/// `raw` with references decoded, borrowed when it has no `&`.
pub fn decode(raw: &str) -> Cow<'_, str> {
    if memchr::memchr(b'&', raw.as_bytes()).is_none() {
        return Cow::Borrowed(raw);
    }
    let mut out = String::with_capacity(raw.len());
    decode_into(raw, &mut out);
    Cow::Owned(out)
}

/// `raw` with references decoded into `buf` (cleared first), or `raw` itself when it has no
/// `&`: most text has no character reference, and is then not copied. For a loop over many
/// texts that reuses one buffer ([`decode`] allocates a new one each time).
pub(crate) fn decode_with<'s>(raw: &'s str, buf: &'s mut String) -> &'s str {
    if memchr::memchr(b'&', raw.as_bytes()).is_none() {
        return raw;
    }
    buf.clear();
    decode_into(raw, buf);
    buf.as_str()
}

/// Appends `raw` to `out` with every character reference decoded.
pub(crate) fn decode_into(raw: &str, out: &mut String) {
    let bytes = raw.as_bytes();
    let mut copied = 0;
    let mut pos = 0;
    while let Some(off) = memchr::memchr(b'&', &bytes[pos..]) {
        let amp = pos + off;
        pos = amp + 1;
        let Some((len, decoded)) = reference_at(&raw[amp + 1..]) else {
            continue;
        };
        out.push_str(&raw[copied..amp]);
        match decoded {
            Decoded::Char(c) => out.push(c),
            Decoded::Str(s) => out.push_str(s),
        }
        pos = amp + 1 + len;
        copied = pos;
    }
    out.push_str(&raw[copied..]);
}

enum Decoded {
    Char(char),
    Str(&'static str),
}

/// The reference at the start of `s` (just after `&`): its length and replacement.
fn reference_at(s: &str) -> Option<(usize, Decoded)> {
    let b = s.as_bytes();
    if b.first() == Some(&b'#') {
        return numeric(b);
    }
    let run = b
        .iter()
        .take(MAX_NAME)
        .take_while(|c| c.is_ascii_alphanumeric())
        .count();
    if run == 0 {
        return None;
    }
    if b.get(run) == Some(&b';')
        && let Some(v) = lookup(&s[..=run])
    {
        return Some((run + 1, Decoded::Str(v)));
    }
    // Legacy names without a semicolon, longest prefix first (`&notit;` is `¬it;`).
    (2..=run.min(6))
        .rev()
        .find_map(|len| lookup(&s[..len]).map(|v| (len, Decoded::Str(v))))
}

fn lookup(name: &str) -> Option<&'static str> {
    // A hash map over the table, built once per process: one hash per reference instead of a
    // binary search's dozen string comparisons (and a legacy name tries up to five prefixes).
    static MAP: std::sync::OnceLock<ahash::AHashMap<&'static str, &'static str>> =
        std::sync::OnceLock::new();
    MAP.get_or_init(|| ENTITIES.iter().copied().collect())
        .get(name)
        .copied()
}

/// `#123;` or `#x1F;` (the semicolon optional).
fn numeric(b: &[u8]) -> Option<(usize, Decoded)> {
    let hex = matches!(b.get(1), Some(b'x' | b'X'));
    let digits_start = if hex { 2 } else { 1 };
    let mut value: u32 = 0;
    let mut i = digits_start;
    while let Some(&c) = b.get(i) {
        let d = if hex {
            (c as char).to_digit(16)
        } else {
            (c as char).to_digit(10)
        };
        let Some(d) = d else { break };
        value = value
            .saturating_mul(if hex { 16 } else { 10 })
            .saturating_add(d);
        i += 1;
    }
    if i == digits_start {
        return None;
    }
    if b.get(i) == Some(&b';') {
        i += 1;
    }
    let c = match value {
        0 => '\u{FFFD}',
        0x80..=0x9F if C1[(value - 0x80) as usize] != 0 => {
            char::from_u32(C1[(value - 0x80) as usize]).unwrap_or('\u{FFFD}')
        }
        v => char::from_u32(v).unwrap_or('\u{FFFD}'),
    };
    Some((i, Decoded::Char(c)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(s: &str) -> String {
        decode(s).into_owned()
    }

    #[test]
    fn named_with_and_without_semicolon() {
        assert_eq!(d("a &amp; b &amp c &copy; &nbsp;x"), "a & b & c © \u{a0}x");
        assert_eq!(d("&eacute;t&eacute;"), "été");
        assert_eq!(d("&CounterClockwiseContourIntegral;"), "\u{2233}");
    }

    #[test]
    fn longest_match() {
        assert_eq!(d("&notin;"), "∉");
        assert_eq!(d("&notit;"), "¬it;");
        assert_eq!(d("&amp;amp;"), "&amp;");
    }

    #[test]
    fn unknown_and_bare_ampersands_stay() {
        assert_eq!(d("AT&T &foo; & x"), "AT&T &foo; & x");
    }

    #[test]
    fn numeric_edge_cases() {
        assert_eq!(d("&#8217;&#x2019;&#X2019"), "’’’");
        assert_eq!(d("&#150;"), "\u{2013}");
        assert_eq!(
            d("&#0;&#xD800;&#x110000;&#99999999999;"),
            "\u{FFFD}\u{FFFD}\u{FFFD}\u{FFFD}"
        );
        assert_eq!(d("&#;&#x;"), "&#;&#x;");
    }

    #[test]
    fn no_ampersand_borrows() {
        assert!(matches!(decode("plain text"), Cow::Borrowed(_)));
    }
}
