//! Authors: bylines and declared authors, cleaned to people's names (labels, roles,
//! publishers and phrases that are not names dropped).

use super::*;

/// An element whose text can be a byline: `a`, `address`, `div`, `p`, `span`, `strong`, `h3`,
/// `h4`, `li` or `<author>`. It is one when it is `<author>` or its attributes mark it so
/// ([`element_marks`]), and it is not inside comments ([`in_comments`]).
pub(super) fn byline_tag(tag: Tag, doc: &Document, id: NodeId) -> bool {
    match tag {
        Tag::A
        | Tag::Address
        | Tag::Div
        | Tag::P
        | Tag::Span
        | Tag::Strong
        | Tag::H3
        | Tag::H4
        | Tag::Li => true,
        Tag::Other => doc.name(id) == "author",
        _ => false,
    }
}

/// Whether a class word is one of [`AUTHOR_CLASSES`] or has one as a part ([`class_word_is`]).
/// Such a word starts with the first letter of one or ends with the last letter of one: a
/// table of those letters turns most words away before any comparison.
pub(super) fn is_author_class(w: &str) -> bool {
    const FIRST: u8 = 1;
    const LAST: u8 = 2;
    static ENDS: [u8; 256] = {
        let mut t = [0u8; 256];
        let mut i = 0;
        while i < AUTHOR_CLASSES.len() {
            let a = AUTHOR_CLASSES[i].as_bytes();
            let (first, last) = (a[0], a[a.len() - 1]);
            t[first.to_ascii_lowercase() as usize] |= FIRST;
            t[first.to_ascii_uppercase() as usize] |= FIRST;
            t[last.to_ascii_lowercase() as usize] |= LAST;
            t[last.to_ascii_uppercase() as usize] |= LAST;
            i += 1;
        }
        t
    };
    let b = w.as_bytes();
    let (Some(&first), Some(&last)) = (b.first(), b.last()) else {
        return false;
    };
    (ENDS[usize::from(first)] & FIRST != 0 || ENDS[usize::from(last)] & LAST != 0)
        && AUTHOR_CLASSES.iter().any(|a| class_word_is(w, a))
}

/// A class word that is `a` or starts or ends with it as a part (`author-name`,
/// `post__author`), ASCII case-insensitively.
pub(super) fn class_word_is(w: &str, a: &str) -> bool {
    let (wb, ab) = (w.as_bytes(), a.as_bytes());
    if wb.len() < ab.len() {
        return false;
    }
    if wb.len() == ab.len() {
        return wb.eq_ignore_ascii_case(ab);
    }
    let part = |c: u8| matches!(c, b'-' | b'_');
    (wb[..ab.len()].eq_ignore_ascii_case(ab) && part(wb[ab.len()]))
        || (wb[wb.len() - ab.len()..].eq_ignore_ascii_case(ab) && part(wb[wb.len() - ab.len() - 1]))
}

/// Elements whose text can be a date or a byline (not the page's structure: html, body,
/// tables, lists, forms, media).
pub(super) fn holds_text(tag: Tag, doc: &Document, id: NodeId) -> bool {
    matches!(
        tag,
        Tag::Span
            | Tag::Div
            | Tag::P
            | Tag::Time
            | Tag::A
            | Tag::Li
            | Tag::Em
            | Tag::Strong
            | Tag::Small
            | Tag::Abbr
            | Tag::B
            | Tag::I
            | Tag::Address
            | Tag::H2
            | Tag::H3
            | Tag::H4
            | Tag::H5
            | Tag::H6
            | Tag::Header
            | Tag::Footer
    ) || (tag == Tag::Other && doc.name(id).eq_ignore_ascii_case("author"))
}

pub(super) fn in_comments(doc: &Document, id: NodeId) -> bool {
    doc.tree.ancestors(id).any(|a| {
        ["class", "id"].iter().any(|k| {
            doc.attr(a, k).is_some_and(|v| {
                let v = v.to_ascii_lowercase();
                v.contains("comment") || v.contains("sidebar")
            })
        })
    })
}

/// The name in a byline's text: `Written by: Jane Doe Published 10:02 AM EST Nov 19, 2019`
/// → `Jane Doe` (its lead-in word dropped, cut at [`BYLINE_STOPS`], at a month name after the
/// first word and at the first digit).
pub(super) fn byline_name(t: &str) -> String {
    let t = strip_by(t);
    let lower = t.to_ascii_lowercase();
    let mut end = t.find(|c: char| c.is_ascii_digit()).unwrap_or(t.len());
    for stop in BYLINE_STOPS {
        if let Some(i) = lower.find(stop)
            && i < end
        {
            end = i;
        }
    }
    // A month name after the first word starts the date (`Carrie Arnold November 3`).
    let mut pos = 0;
    for (k, word) in t.split(' ').enumerate() {
        if k > 0
            && pos < end
            && word.len() >= 3
            && MONTHS.iter().any(|(m, _)| word.eq_ignore_ascii_case(m))
        {
            end = pos;
            break;
        }
        pos += word.len() + 1;
    }
    let name = t[..end.min(t.len())]
        .trim_end_matches(|c: char| {
            c.is_whitespace() || matches!(c, ',' | '|' | '-' | '·' | '—' | ':' | '(')
        })
        .to_string();
    if BYLINE_LEADS.iter().any(|l| name.eq_ignore_ascii_case(l)) {
        return String::new();
    }
    name
}

/// `By Jane Doe`, `Written by: Jane Doe` → `Jane Doe` ([`BYLINE_LEADS`]).
pub(super) fn strip_by(t: &str) -> String {
    let mut t = t.trim();
    for lead in BYLINE_LEADS {
        let Some(head) = t.get(..lead.len()) else {
            continue;
        };
        let next = t[lead.len()..].chars().next();
        if head.eq_ignore_ascii_case(lead) && next.is_some_and(|c| c == ':' || c.is_whitespace()) {
            t = t[lead.len()..].trim_start_matches(|c: char| c == ':' || c.is_whitespace());
            break;
        }
    }
    t.to_string()
}

/// The visible text of an element's subtree with a space between its text nodes
/// (`<span>By</span><a>Jane</a>` is `By Jane`, not `ByJane`), white space collapsed.
pub(super) fn spaced_text(doc: &Document, id: NodeId) -> String {
    let mut raw = String::new();
    for i in doc.tree.subtree(id) {
        let n = &doc.tree.nodes[i];
        if n.kind == Kind::Text && n.context() & crate::html::tree::context::HIDDEN == 0 {
            raw.push_str(doc.raw_text(i as NodeId));
            raw.push(' ');
            if raw.len() > 4 * AUTHOR_CHARS.end {
                break;
            }
        }
    }
    clean(&raw)
}

/// Whether an author value can be a name: not one of [`NOT_NAMES`], not a month name, not an
/// e-mail address, a price or a breadcrumb.
pub(super) fn is_name(a: &str) -> bool {
    !NOT_NAMES.iter().any(|n| a.eq_ignore_ascii_case(n))
        && !MONTHS.iter().any(|(m, _)| a.eq_ignore_ascii_case(m))
        && !a.contains(['@', '$', '»', '›', '!', '?'])
        && a.chars().any(char::is_alphabetic)
}

/// A name without the role written after it ([`ROLE_WORDS`], [`ROLE_QUALIFIERS`]), in each
/// of its `; `-separated names.
pub(super) fn without_role(a: &str) -> String {
    a.split("; ")
        .map(name_without_role)
        .collect::<Vec<_>>()
        .join("; ")
}

pub(super) fn name_without_role(a: &str) -> &str {
    // Word starts (byte offsets) and the words, at most the first dozen.
    let starts: Vec<usize> = a
        .char_indices()
        .filter(|&(i, c)| !c.is_whitespace() && (i == 0 || a[..i].ends_with(char::is_whitespace)))
        .map(|(i, _)| i)
        .take(12)
        .collect();
    let word = |k: usize| {
        a[starts[k]..]
            .split(|c: char| c.is_whitespace() || c == ',')
            .next()
            .unwrap_or("")
    };
    let is = |list: &[&str], k: usize| list.iter().any(|r| word(k).eq_ignore_ascii_case(r));
    let Some(role) = (2..starts.len()).find(|&k| is(ROLE_WORDS, k)) else {
        return a;
    };
    let mut cut = role;
    while cut > 2 && is(ROLE_QUALIFIERS, cut - 1) {
        cut -= 1;
    }
    let mut end = starts[cut];
    // A comma after the name and before the role: the role starts there.
    if let Some(comma) = a[starts[1]..end].find(',') {
        end = starts[1] + comma;
    }
    a[..end].trim_end_matches(|c: char| c.is_whitespace() || c == ',')
}

/// The author, cleaned: the publisher after the names dropped ([`without_publisher`]), then
/// a role ([`without_role`]); `None` when what is left is not a name ([`is_name`]).
/// `named` is the author the page declares ([`declared_author`]), else its byline
/// ([`body_guesses`]).
pub(super) fn author(f: &Found, named: Option<String>, sitename: Option<&str>) -> Option<String> {
    let cleaned = |a: String| {
        let a = without_role(&without_publisher(without_labels(&a), sitename));
        people(&a).filter(|a| is_name(a))
    };
    // A JSON-LD organization only when nothing names a person: a byline that is no person's
    // name (`Insights from Liza Burke`) is no reason to name the publisher instead.
    match named {
        Some(a) => cleaned(a),
        None => (!f.ld.org_authors.is_empty())
            .then(|| f.ld.org_authors.join("; "))
            .and_then(cleaned),
    }
}

/// Each `; `-separated name without a label before a colon (`Текст: Венера Ерофеева` →
/// `Венера Ерофеева`, `Photos: Jane Doe`) or ending in `by` (`Recipe by PJ Hamel`): a head of
/// at most [`AUTHOR_LABEL_MAX_WORDS`] words without digits (so a time, `10:30`, is never
/// cut), with a name after it.
pub(super) fn without_labels(a: &str) -> String {
    a.split("; ")
        .map(|n| {
            let colon = n
                .char_indices()
                .find(|&(_, c)| c == ':' || c == '：')
                .map(|(i, c)| (i, i + c.len_utf8()));
            let by = n
                .find(" by ")
                .or_else(|| n.find(" By "))
                .map(|i| (i, i + " by ".len()));
            let Some((i, j)) = colon.or(by) else {
                return n;
            };
            let (head, rest) = (&n[..i], n[j..].trim());
            let words = head.split_whitespace().count();
            if (1..=AUTHOR_LABEL_MAX_WORDS).contains(&words)
                && !head.contains(|c: char| c.is_ascii_digit())
                && rest.chars().any(char::is_alphabetic)
            {
                rest
            } else {
                n
            }
        })
        .collect::<Vec<_>>()
        .join("; ")
}

/// The `; `-separated names of an author value that can be people's names, each without a
/// domain after a comma (`Troy L. Smith, Cleveland.com` → `Troy L. Smith`); `None` when none
/// is. Not a person: a phrase led by `the` (`The Editors`; a news agency aside, `The Associated
/// Press`, credited as bylines credit it), or, in a name written with
/// capitals, a lower-case word other than a particle ([`NAME_PARTICLES`]: `The Russian and
/// Syrian defense ministries`, `Staff reporter`). An abbreviation (`Dr. med. Anna Roth`) and
/// a name all in lower case (a forum user's `rmb`) are kept. An author equal to the site name
/// is kept: on a personal site it is the person (`Rick Steves`).
pub(super) fn people(a: &str) -> Option<String> {
    let kept: Vec<&str> = a
        .split("; ")
        .map(|n| match n.rsplit_once(", ") {
            Some((name, tail)) if is_domain(tail.trim()) => name.trim(),
            _ => n.trim(),
        })
        .filter(|n| {
            let words: Vec<&str> = n.split_whitespace().collect();
            let capitalized = words
                .iter()
                .any(|w| w.chars().next().is_some_and(char::is_uppercase));
            let phrase = words.iter().any(|w| {
                w.chars().next().is_some_and(char::is_lowercase)
                    && !w.chars().any(char::is_uppercase)
                    && !w.ends_with('.')
                    && !NAME_PARTICLES.contains(&w.trim_end_matches(','))
            });
            let led_by_the = words.len() > 1
                && words[0].eq_ignore_ascii_case("the")
                && !AGENCIES
                    .iter()
                    .any(|g| n[3..].trim_start().eq_ignore_ascii_case(g));
            let not_a_person = led_by_the || (capitalized && phrase);
            !n.is_empty() && !not_a_person
        })
        .collect();
    (!kept.is_empty()).then(|| kept.join("; "))
}

/// One word that is a domain name (`Cleveland.com`, `news.example.co.uk`): a dot before a
/// final part of two letters or more, letters, digits, dots and hyphens only.
pub(super) fn is_domain(w: &str) -> bool {
    let Some((head, tld)) = w.rsplit_once('.') else {
        return false;
    };
    !head.is_empty()
        && tld.len() >= 2
        && tld.chars().all(|c| c.is_ascii_alphabetic())
        && head
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '.' || c == '-')
}

/// The author(s) the page's JSON-LD or meta elements name (a JSON-LD organization aside).
pub(super) fn declared_author(f: &Found) -> Option<String> {
    if !f.ld.authors.is_empty() {
        return Some(f.ld.authors.join("; "));
    }
    let names: Vec<&str> = f
        .meta_all(AUTHOR_META)
        .chain(f.meta_all(&["itemprop:author"]))
        .filter(|a| {
            !a.starts_with("http") && !a.starts_with('@') && a.chars().any(char::is_alphabetic)
        })
        .collect();
    if !names.is_empty() {
        let mut v: Vec<String> = Vec::new();
        for n in names {
            let n = strip_by(n);
            if !v.contains(&n) {
                v.push(n);
            }
        }
        return Some(v.join("; "));
    }
    None
}

/// An author value without the publisher written after the names (`Elliot Brownstein, Florida
/// Today` with the site name `Florida Today`, `Tom Davies Associated Press`): the site name or
/// one of [`AGENCIES`], when a name stays before it.
pub(super) fn without_publisher(author: String, sitename: Option<&str>) -> String {
    let mut a = author.as_str();
    let squash = |t: &str| -> String {
        t.chars()
            .filter(|c| c.is_alphanumeric())
            .flat_map(char::to_lowercase)
            .collect()
    };
    for org in sitename.into_iter().chain(AGENCIES.iter().copied()) {
        // The organization as the author's last words, spaces aside (`Florida Today` for the
        // site name `floridatoday`).
        let org = squash(org);
        if org.is_empty() {
            continue;
        }
        let cut = a
            .char_indices()
            .filter(|&(i, c)| {
                i > 0
                    && !c.is_whitespace()
                    && a[..i].ends_with(|p: char| {
                        p.is_whitespace() || matches!(p, ',' | '|' | '-' | '/')
                    })
            })
            .map(|(i, _)| i)
            .find(|&i| squash(&a[i..]) == org);
        if let Some(cut) = cut {
            let rest = a[..cut].trim_end_matches(|c: char| {
                c.is_whitespace() || matches!(c, ',' | '|' | '-' | '/' | ';')
            });
            let rest = rest
                .strip_suffix(" and")
                .or_else(|| rest.strip_suffix(" for"))
                .unwrap_or(rest)
                .trim_end();
            if rest.chars().filter(|c| c.is_alphabetic()).count() >= 3
                && !NOT_NAMES.iter().any(|n| rest.eq_ignore_ascii_case(n))
            {
                a = rest;
            }
        }
    }
    a.to_string()
}
