//! Dates: the page's declared publication date, the date sources in their order, dates in
//! URLs, markup, text and scripts, and the date formats read (ISO 8601, month names, slashed
//! dates by the page's language).

use super::*;

/// Where a page's `date` came from, in the order the sources are tried: the stated dates
/// ([`DateSource::Published`], [`DateSource::Time`], [`DateSource::Url`]), then the guesses.
/// Written in JSON as its lower-case name (`"date_source": "published"`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "lowercase")]
#[non_exhaustive]
pub enum DateSource {
    /// A publication date the page declares (JSON-LD `datePublished`,
    /// `article:published_time`, `<meta itemprop=datePublished>`, Dublin Core, other
    /// publication meta names, `<time pubdate>`).
    Published,
    /// A `<time datetime>` not marked as the publication date.
    Time,
    /// A date in the path of the page's URL (`og:url`, canonical link, the record's URL).
    Url,
    /// The date the page says it was modified (`DATE_MODIFIED`, JSON-LD `dateModified`), on a
    /// page that states no publication date.
    Modified,
    /// A date written in the page's visible text (an element whose class names a date, or a
    /// short text).
    Text,
    /// A publication-date key in a script's JSON state (`SCRIPT_DATE_KEYS`).
    Script,
    /// The first date anywhere in the page's markup, a date-time first: often when the page
    /// was rendered or a record in it changed, not when it was written.
    Markup,
    /// A date in the path of a link, image or frame URL of the page (`/2019/01/31/`;
    /// `/wp-content/uploads/2023/10/` gives the first of the month).
    Link,
    /// The year of the page's copyright notice, as its first of January.
    Copyright,
}

/// The date in a URL's path (`/2020/06/16/`, `/2020-06-16-`, `/20200616/`), ISO.
pub(crate) fn url_date(url: &str) -> Option<String> {
    let path = url.split(['?', '#']).next()?;
    let path = match path.find("://") {
        Some(i) => &path[i + 3..],
        None => path,
    };
    let path = &path[path.find('/')?..];
    let b = path.as_bytes();
    let num = |s: usize, n: usize| -> Option<u32> {
        let d = b.get(s..s + n)?;
        d.iter()
            .all(u8::is_ascii_digit)
            .then(|| d.iter().fold(0, |a, c| a * 10 + u32::from(c - b'0')))
    };
    let sep = |i: usize| b.get(i).is_some_and(|c| matches!(c, b'/' | b'-' | b'_'));
    let end = |i: usize| b.get(i).is_none_or(|c| !c.is_ascii_digit());
    for i in 0..b.len() {
        if b[i] != b'/' || (i > 0 && b[i - 1].is_ascii_digit()) {
            continue;
        }
        let s = i + 1;
        if let (Some(y), true, Some(m), true, Some(d)) = (
            num(s, 4),
            sep(s + 4),
            num(s + 5, 2),
            sep(s + 7),
            num(s + 8, 2),
        ) && end(s + 10)
            && let Some(date) = ymd(y, m, d)
        {
            return Some(date);
        }
        if let (Some(y), Some(m), Some(d)) = (num(s, 4), num(s + 4, 2), num(s + 6, 2))
            && end(s + 8)
            && let Some(date) = ymd(y, m, d)
        {
            return Some(date);
        }
    }
    None
}

/// The month in a URL's path (`/wp-content/uploads/2023/10/`, `/files/2020-02/`) as its first
/// day, ISO: where publishing systems file an upload, in the month it was uploaded.
pub(crate) fn url_month(url: &str) -> Option<String> {
    let path = url.split(['?', '#']).next()?;
    let b = path.as_bytes();
    let digits = |s: usize, n: usize| {
        b.get(s..s + n)
            .is_some_and(|d| d.iter().all(u8::is_ascii_digit))
    };
    for (i, &c) in b.iter().enumerate() {
        if c != b'/' || !digits(i + 1, 4) || !matches!(b.get(i + 5), Some(b'/' | b'-')) {
            continue;
        }
        if digits(i + 6, 2) && b.get(i + 8) == Some(&b'/') {
            let y = path.get(i + 1..i + 5)?.parse().ok()?;
            let m = path.get(i + 6..i + 8)?.parse().ok()?;
            if let Some(d) = ymd(y, m, 1) {
                return Some(d);
            }
        }
    }
    None
}

/// The first ISO date-time in the page's source (`2026-03-05T12:16:07Z`, `2025-12-19
/// 08:35:30`: a date, `T` or a space, `hh:mm`), or with `timed` false the first ISO date
/// (`2024-04-25`, not inside a longer number), within [`TIMESTAMP_SCAN_BYTES`]: in a script,
/// an attribute or the text. htmldate's time stamp rescue and loose date search.
#[cfg(test)]
pub(crate) fn markup_date(src: &str, timed: bool) -> Option<String> {
    let (date_time, date) = markup_dates(src, timed);
    if timed { date_time } else { date }
}

/// [`markup_date`]'s two answers in one scan: the first date-time and the first date (a
/// date-time is a date too, so the date is found by the time the date-time is). The scan ends
/// at the first date-time with `timed`, else at the first date.
pub(super) fn markup_dates(src: &str, timed: bool) -> (Option<String>, Option<String>) {
    let mut end = src.len().min(TIMESTAMP_SCAN_BYTES);
    while !src.is_char_boundary(end) {
        end -= 1;
    }
    let b = &src.as_bytes()[..end];
    let digit = |i: usize| b.get(i).is_some_and(u8::is_ascii_digit);
    let (mut date_time, mut date) = (None, None);
    for p in memchr::memchr_iter(b'-', b) {
        // p is the dash after the year: YYYY-MM-DD[T ]hh:mm
        if p < 4
            || !(p - 4..p).all(digit)
            || (p > 4 && digit(p - 5))
            || !digit(p + 1)
            || !digit(p + 2)
            || b.get(p + 3) != Some(&b'-')
            || !digit(p + 4)
            || !digit(p + 5)
        {
            continue;
        }
        let time = matches!(b.get(p + 6), Some(b'T' | b' '))
            && digit(p + 7)
            && digit(p + 8)
            && b.get(p + 9) == Some(&b':')
            && digit(p + 10);
        if digit(p + 6) {
            continue;
        }
        let Some(d) = src.get(p - 4..p + 6).and_then(iso_date) else {
            continue;
        };
        if time && date_time.is_none() {
            date_time = Some(d.clone());
        }
        if date.is_none() {
            date = Some(d);
        }
        if date_time.is_some() || (!timed && date.is_some()) {
            break;
        }
    }
    (date_time, date)
}

/// The year of a copyright notice in a text (`© 2019-2024 Example`, `Copyright &copy; 2024`):
/// the last of the years right after a [`COPYRIGHT_MARKS`] mark, within [`COPYRIGHT_GAP`]
/// characters.
#[cfg(test)]
pub(crate) fn copyright_year(text: &str) -> Option<u32> {
    let at = copyright_marks().find(text)?.end();
    year_after_mark(text.get(at..)?)
}

/// [`COPYRIGHT_MARKS`] as one automaton (ASCII case-insensitive): every visible text node is
/// asked, so one pass each, not one per mark.
pub(super) fn copyright_marks() -> &'static aho_corasick::AhoCorasick {
    static MARKS: std::sync::OnceLock<aho_corasick::AhoCorasick> = std::sync::OnceLock::new();
    MARKS.get_or_init(|| {
        aho_corasick::AhoCorasick::builder()
            .ascii_case_insensitive(true)
            .match_kind(aho_corasick::MatchKind::LeftmostFirst)
            .build(COPYRIGHT_MARKS)
            .unwrap_or_else(|_| unreachable!("a fixed list of short marks builds an automaton"))
    })
}

/// The year (or a range's last year) starting within [`COPYRIGHT_GAP`] characters of `rest`,
/// the text after a copyright mark.
pub(super) fn year_after_mark(rest: &str) -> Option<u32> {
    // Four-digit runs (not inside longer numbers): (char offset, byte start, byte end, value).
    let mut years = Vec::new();
    let mut start = None;
    for (k, (i, c)) in rest.char_indices().chain([(rest.len(), ' ')]).enumerate() {
        match (c.is_ascii_digit(), start) {
            (true, None) => start = Some((k, i)),
            (false, Some((k0, i0))) => {
                if i - i0 == 4
                    && let Ok(y) = rest[i0..i].parse::<u32>()
                {
                    years.push((k0, i0, i, y));
                }
                start = None;
                if years.len() >= 2 {
                    break;
                }
            }
            _ => {}
        }
        if k > COPYRIGHT_GAP && years.is_empty() {
            return None;
        }
    }
    let &(k, _, end, first) = years.first()?;
    if k > COPYRIGHT_GAP || !YEARS.contains(&first) {
        return None;
    }
    // `2019-2024`, `2019 – 2024`: the range's end.
    match years.get(1) {
        Some(&(_, s2, _, second))
            if rest[end..s2].trim().chars().all(|c| matches!(c, '-' | '–'))
                && !rest[end..s2].trim().is_empty()
                && YEARS.contains(&second) =>
        {
            Some(second)
        }
        _ => Some(first),
    }
}

/// The first publication date under a [`SCRIPT_DATE_KEYS`] key in the page's scripts (the
/// JSON state of script-rendered pages: `"publishedAt":"2020-06-16T02:31:00Z"`, also with the
/// quotes escaped inside a JS string). The last of the guesses: a page that states its date
/// nowhere else.
pub(super) fn script_date(src: &str) -> Option<String> {
    let b = src.as_bytes();
    let mut best: Option<(usize, String)> = None;
    for key in SCRIPT_DATE_KEYS {
        for (n, at) in memchr::memmem::find_iter(b, key.as_bytes()).enumerate() {
            if n >= SCRIPT_DATE_TRIES || best.as_ref().is_some_and(|(p, _)| *p < at) {
                break;
            }
            let rest = &src.as_bytes()[at + key.len()..];
            // `":"`, `\":\"`, `": "`: skip quotes, backslashes, colons and spaces.
            let skip = rest
                .iter()
                .take(8)
                .take_while(|c| matches!(c, b'"' | b'\\' | b':' | b' ' | b'\''))
                .count();
            if !rest[..skip].contains(&b':') {
                continue;
            }
            let value = &rest[skip..];
            let end = value
                .iter()
                .take(40)
                .position(|c| matches!(c, b'"' | b'\\' | b'\'' | b',' | b'}'))
                .unwrap_or(0);
            if let Ok(v) = std::str::from_utf8(&value[..end])
                && let Some(d) = iso_date(v)
            {
                best = Some((at, d));
                break;
            }
        }
    }
    best.map(|(_, d)| d)
}

/// Whether `s` has a run of four digits (a year) or a CJK date: the cheap test before a
/// text is parsed.
pub(super) fn has_year_digits(s: &str) -> bool {
    let mut run = 0;
    for b in s.bytes() {
        run = if b.is_ascii_digit() { run + 1 } else { 0 };
        if run == 4 {
            return true;
        }
    }
    false
}

/// A date at the start of `t` or after a word such as `Published` or `Updated`: [`iso_date`]
/// on `t` and then on each suffix starting at a digit or a letter after a space, at most a
/// few tries.
pub(super) fn iso_date_in(t: &str) -> Option<String> {
    if let Some(d) = iso_date(t) {
        return Some(d);
    }
    t.char_indices()
        .filter(|&(i, c)| {
            i > 0 && c.is_ascii_digit() && !t[..i].ends_with(|p: char| p.is_ascii_digit())
        })
        .take(6)
        .find_map(|(i, _)| iso_date(&t[i..]))
}

/// The date and its source from the page's declarations ([`collect`]) and its URL: a
/// publication date or `<time>`, the URL's date, then the modified date; `None` sends [`read`]
/// to the dates written in the text ([`body_guesses`]), then to [`last_guess`].
pub(super) fn declared_date(f: &Found, url: Option<&str>) -> Option<(String, DateSource)> {
    let metas = [DATE_OG, &["datepublished"], DATE_DC, DATE_OTHER];
    let page_url = || {
        f.meta(&["og:url"])
            .or(f.canonical.as_deref())
            .and_then(url_date)
            .or_else(|| url.and_then(url_date))
    };
    // The page's own declarations of its publication date: when they differ, the earliest (a
    // later `datePublished` beside an older `article:published_time` or `dateCreated` is the
    // date an SEO plugin republished the page, the earlier one its first publication); the
    // first of equal days, in this order.
    let declared =
        f.ld.published
            .iter()
            .chain(f.ld.created.iter())
            .map(String::as_str)
            .chain(metas.iter().filter_map(|keys| f.meta(keys)))
            .filter_map(iso_date)
            .fold(None::<String>, |best, d| match best {
                Some(b) if b.get(..10) <= d.get(..10) => Some(b),
                _ => Some(d),
            })
            .or_else(|| f.time_pub.as_deref().and_then(iso_date))
            .map(|d| (d, DateSource::Published))
            .or_else(|| {
                f.time_any
                    .as_deref()
                    .and_then(iso_date)
                    .map(|d| (d, DateSource::Time))
            });
    if let Some((d, source)) = declared {
        // A UTC time stamp and the local date the URL files the page under: the local date.
        if let Some(local) = page_url()
            && is_local_day_of(&d, &local)
        {
            return Some((local, source));
        }
        return Some((d, source));
    }
    if let Some(d) = page_url() {
        return Some((d, DateSource::Url));
    }
    f.ld.modified
        .iter()
        .map(String::as_str)
        .chain(f.meta(DATE_MODIFIED))
        .find_map(iso_date)
        .map(|d| (d, DateSource::Modified))
}

/// A date written `05/10/2018` that reads both ways, read by the page's declared language:
/// month first in US English (`en-US`), day first in the other languages (`pt-BR`, `de`,
/// `fr`, and the English of Britain, India or Australia); plain `en` says neither.
pub(super) fn slashed_by_lang((a, b, y): (u32, u32, u32), lang: &str) -> Option<String> {
    let lang = lang.to_ascii_lowercase().replace('_', "-");
    if lang == "en" {
        None
    } else if lang == "en-us" {
        ymd(y, a, b)
    } else {
        ymd(y, b, a)
    }
}

/// The first `NN/NN/YYYY` in `t` whose two readings are both valid dates.
pub(super) fn slashed_date(t: &str) -> Option<(u32, u32, u32)> {
    let n = numbers(t);
    n.windows(3).find_map(|w| {
        let [a, b, y] = w else { return None };
        ((1..=2).contains(&a.len)
            && (1..=2).contains(&b.len)
            && y.len == 4
            && &t[a.end..b.start] == "/"
            && &t[b.end..y.start] == "/"
            && ymd(y.v, a.v, b.v).is_some()
            && ymd(y.v, b.v, a.v).is_some())
        .then_some((a.v, b.v, y.v))
    })
}

/// The guesses of a page that states no date and shows none: a date key in a script's JSON
/// state, the first date-time in the source, a date in a link's path, the first bare date in
/// the source, a month in a link's path, the copyright year. A date from a link or a bare
/// date before the copyright year is a file or a record older than the page (the notice says
/// the page was published that year): the copyright year is taken instead (htmldate's rule).
pub(super) fn last_guess(doc: &Document) -> Option<(String, DateSource)> {
    if let Some(d) = script_date(doc.src) {
        return Some((d, DateSource::Script));
    }
    let (date_time, date) = markup_dates(doc.src, true);
    if let Some(d) = date_time {
        return Some((d, DateSource::Markup));
    }
    let f = links_and_copyright(doc);
    let not_older = |d: &String| {
        f.copyright
            .is_none_or(|c| d.get(..4).and_then(|y| y.parse::<u32>().ok()) >= Some(c))
    };
    f.link_date
        .clone()
        .filter(not_older)
        .map(|d| (d, DateSource::Link))
        .or_else(|| date.filter(not_older).map(|d| (d, DateSource::Markup)))
        .or_else(|| {
            f.link_month
                .clone()
                .filter(not_older)
                .map(|d| (d, DateSource::Link))
        })
        .or_else(|| {
            f.copyright
                .and_then(|y| ymd(y, 1, 1))
                .map(|d| (d, DateSource::Copyright))
        })
}

/// What the last guesses read off the tree, in a walk of its own: only a page with no date
/// so far, none in its scripts' state and no date-time in its markup pays for it.
#[derive(Default)]
pub(super) struct LastGuesses {
    /// The first date in the path of a link, image or frame URL ([`url_date`]), else the first
    /// month (`/2023/10/`, [`url_month`]).
    pub(super) link_date: Option<String>,
    pub(super) link_month: Option<String>,
    /// The year of the first copyright notice in the visible text ([`copyright_year`]).
    pub(super) copyright: Option<u32>,
}

pub(super) fn links_and_copyright(doc: &Document) -> LastGuesses {
    let mut f = LastGuesses::default();
    let mut copyright_pending = 0;
    for (i, n) in doc.tree.nodes.iter().enumerate() {
        let id = i as NodeId;
        if n.kind == Kind::Text {
            if f.copyright.is_none() && n.context() & crate::html::tree::context::HIDDEN == 0 {
                let raw = doc.raw_text(id);
                let mark = copyright_marks().find(raw).map(|m| m.end());
                f.copyright = match mark {
                    Some(at) => raw.get(at..).and_then(year_after_mark),
                    None => None,
                };
                if f.copyright.is_none() {
                    if mark.is_some() {
                        copyright_pending = COPYRIGHT_NODES;
                    } else if copyright_pending > 0 {
                        // `© <a>Example</a> 2024`: the year in one of the next text nodes.
                        copyright_pending -= 1;
                        f.copyright = year_after_mark(raw);
                    }
                }
            }
            continue;
        }
        if n.kind == Kind::Element
            && f.link_date.is_none()
            && let Some(u) = match n.tag {
                Tag::A | Tag::Link => doc.attr(id, "href"),
                Tag::Img | Tag::Iframe | Tag::Source => doc.attr(id, "src"),
                Tag::Meta => doc.attr(id, "content").filter(|c| c.starts_with("http")),
                _ => None,
            }
        {
            f.link_date = url_date(u);
            if f.link_month.is_none() {
                f.link_month = url_month(u);
            }
        }
    }
    f
}

/// Whether `local` (`YYYY-MM-DD`, from the page's URL) is the local date of the UTC time stamp
/// `utc` (`...T01:50:59Z`, `+00:00`) in some time zone: the day before with a UTC time before
/// [`UTC_WEST_HOURS`], or the day after with one from [`UTC_EAST_HOURS`] on. A story filed
/// in New York at 20:50 on the 19th is `2019-11-20T01:50:59Z` in its JSON-LD and
/// `/2019/11/19/` in its URL; its publication date is the 19th. A time stamp with another
/// offset already gives its local date, and one without a time says nothing of the hour.
pub(super) fn is_local_day_of(utc: &str, local: &str) -> bool {
    let (Some(date), Some(time)) = (utc.get(..10), utc.get(11..)) else {
        return false;
    };
    if !(time.ends_with('Z') || time.ends_with("+00:00") || time.ends_with("-00:00")) {
        return false;
    }
    let Some(hour) = time.get(..2).and_then(|h| h.parse::<u32>().ok()) else {
        return false;
    };
    (hour < UTC_WEST_HOURS && next_day(local).as_deref() == Some(date))
        || (hour >= UTC_EAST_HOURS && next_day(date).as_deref() == Some(local))
}

/// The ISO date after `d` (`YYYY-MM-DD`).
pub(super) fn next_day(d: &str) -> Option<String> {
    let y: u32 = d.get(..4)?.parse().ok()?;
    let m: u32 = d.get(5..7)?.parse().ok()?;
    let day: u32 = d.get(8..10)?.parse().ok()?;
    ymd(y, m, day + 1)
        .or_else(|| ymd(y, m + 1, 1))
        .or_else(|| ymd(y + 1, 1, 1))
}

pub(super) fn ymd(y: u32, m: u32, d: u32) -> Option<String> {
    let days = match m {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if y.is_multiple_of(4) && (!y.is_multiple_of(100) || y.is_multiple_of(400)) => 29,
        2 => 28,
        _ => return None,
    };
    (YEARS.contains(&y) && (1..=days).contains(&d)).then(|| format!("{y:04}-{m:02}-{d:02}"))
}

/// Month names and abbreviations, lower case: English, German, French, Spanish, Italian,
/// Portuguese and Dutch (the languages of most pages in the evaluation sets that write dates
/// in words). A word must be one of these exactly, so `mayor` or `summary` is never a month.
pub(crate) const MONTHS: &[(&str, u32)] = &[
    ("jan", 1),
    ("january", 1),
    ("januar", 1),
    ("janvier", 1),
    ("enero", 1),
    ("gennaio", 1),
    ("janeiro", 1),
    ("januari", 1),
    ("feb", 2),
    ("february", 2),
    ("februar", 2),
    ("février", 2),
    ("fevrier", 2),
    ("febrero", 2),
    ("febbraio", 2),
    ("fevereiro", 2),
    ("februari", 2),
    ("mar", 3),
    ("march", 3),
    ("märz", 3),
    ("maerz", 3),
    ("mars", 3),
    ("marzo", 3),
    ("março", 3),
    ("maart", 3),
    ("apr", 4),
    ("april", 4),
    ("avril", 4),
    ("abril", 4),
    ("aprile", 4),
    ("may", 5),
    ("mai", 5),
    ("mayo", 5),
    ("maggio", 5),
    ("maio", 5),
    ("mei", 5),
    ("jun", 6),
    ("june", 6),
    ("juni", 6),
    ("juin", 6),
    ("junio", 6),
    ("giugno", 6),
    ("junho", 6),
    ("jul", 7),
    ("july", 7),
    ("juli", 7),
    ("juillet", 7),
    ("julio", 7),
    ("luglio", 7),
    ("julho", 7),
    ("aug", 8),
    ("august", 8),
    ("août", 8),
    ("aout", 8),
    ("agosto", 8),
    ("augustus", 8),
    ("sep", 9),
    ("sept", 9),
    ("september", 9),
    ("septembre", 9),
    ("septiembre", 9),
    ("settembre", 9),
    ("setembro", 9),
    ("oct", 10),
    ("october", 10),
    ("oktober", 10),
    ("octobre", 10),
    ("octubre", 10),
    ("ottobre", 10),
    ("outubro", 10),
    ("nov", 11),
    ("november", 11),
    ("novembre", 11),
    ("noviembre", 11),
    ("novembro", 11),
    ("dec", 12),
    ("december", 12),
    ("dezember", 12),
    ("décembre", 12),
    ("decembre", 12),
    ("diciembre", 12),
    ("dicembre", 12),
    ("dezembro", 12),
];

/// A date as ISO 8601: `YYYY-MM-DD`, or `YYYY-MM-DDThh:mm[:ss][offset]` when the value gives
/// a time. Reads ISO forms, `YYYY/MM/DD`, `YYYY.MM.DD`, `YYYYMMDD`, CJK `2020年06月16日 02:31`,
/// `DD.MM.YYYY`, `16 June 2020`, `June 16, 2020` and RFC 2822; `None` for anything else.
pub(crate) fn iso_date(s: &str) -> Option<String> {
    let s = s.trim();
    let n = numbers(s);
    let gap = |a: &Num, b: &Num| &s[a.end..b.start];
    // Year first: ISO, YYYY/MM/DD, YYYY.MM.DD, CJK.
    if let [y, m, d, rest @ ..] = n.as_slice()
        && y.len == 4
        && y.start == 0
        && (1..=2).contains(&m.len)
        && (1..=2).contains(&d.len)
        && [gap(y, m), gap(m, d)].iter().all(|g| is_date_sep(g))
        && let Some(date) = ymd(y.v, m.v, d.v)
    {
        return Some(with_time(s, date, d, rest));
    }
    if let [one, ..] = n.as_slice()
        && one.len == 8
        && one.start == 0
    {
        return ymd(one.v / 10000, one.v / 100 % 100, one.v % 100);
    }
    // Day first: 16.06.2020 (European); 06/16/2020 only when one reading is impossible.
    if let [d, m, y, rest @ ..] = n.as_slice()
        && (1..=2).contains(&d.len)
        && (1..=2).contains(&m.len)
        && y.len == 4
    {
        if gap(d, m) == "." && gap(m, y) == "." {
            return ymd(y.v, m.v, d.v).map(|date| with_time(s, date, y, rest));
        }
        if gap(d, m) == "/" && gap(m, y) == "/" {
            return match (ymd(y.v, m.v, d.v), ymd(y.v, d.v, m.v)) {
                (Some(a), None) | (None, Some(a)) => Some(a),
                _ => None,
            };
        }
    }
    month_name_date(s)
}

/// `16 June 2020`, `June 16, 2020`, `Tue, 16 Jun 2020 02:31:00 GMT`, `16. März 2020`: a month
/// name ([`MONTHS`]) with a day number right before or after it and a year within the next
/// few words.
pub(super) fn month_name_date(s: &str) -> Option<String> {
    let tokens: Vec<&str> = s
        .split(|c: char| !c.is_alphanumeric())
        .filter(|t| !t.is_empty())
        .take(40)
        .collect();
    let day = |t: &str| {
        (t.len() <= 2 && t.bytes().all(|b| b.is_ascii_digit()))
            .then(|| t.parse::<u32>().ok())
            .flatten()
            .filter(|d| (1..=31).contains(d))
    };
    let year = |t: &str| {
        (t.len() == 4 && t.bytes().all(|b| b.is_ascii_digit()))
            .then(|| t.parse::<u32>().ok())
            .flatten()
    };
    for (i, t) in tokens.iter().enumerate() {
        let lower = t.to_lowercase();
        let Some(&(_, m)) = MONTHS.iter().find(|(name, _)| *name == lower) else {
            continue;
        };
        // Day before the month (16 June 2020), then after it (June 16, 2020).
        let before = i.checked_sub(1).and_then(|j| day(tokens[j]));
        let after = tokens.get(i + 1).and_then(|t| day(t));
        let (d, from) = match (before, after) {
            (Some(d), _) => (d, i + 1),
            (None, Some(d)) => (d, i + 2),
            _ => continue,
        };
        if let Some(y) = tokens.iter().skip(from).take(2).find_map(|t| year(t)) {
            return ymd(y, m, d);
        }
    }
    None
}

pub(super) fn is_date_sep(g: &str) -> bool {
    matches!(g, "-" | "/" | "." | "年" | "月" | "_" | ". ")
}

/// A run of ASCII digits: its value, length and byte span.
pub(super) struct Num {
    pub(super) v: u32,
    pub(super) len: usize,
    pub(super) start: usize,
    pub(super) end: usize,
}

/// The first runs of ASCII digits in `s` (at most 8).
pub(super) fn numbers(s: &str) -> Vec<Num> {
    let b = s.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() && out.len() < 8 {
        if b[i].is_ascii_digit() {
            let start = i;
            while i < b.len() && b[i].is_ascii_digit() {
                i += 1;
            }
            let len = i - start;
            let v = if len <= 9 {
                s[start..i].parse().unwrap_or(0)
            } else {
                0
            };
            out.push(Num {
                v,
                len,
                start,
                end: i,
            });
        } else {
            i += 1;
        }
    }
    out
}

/// `date` with the time that follows its last number `last` in `s` (`T02:31:00Z`,
/// `日 02:31`), when there is a valid one.
pub(super) fn with_time(s: &str, date: String, last: &Num, rest: &[Num]) -> String {
    let [h, mi, more @ ..] = rest else {
        return date;
    };
    let lead = &s[last.end..h.start];
    if !matches!(lead, "T" | "t" | " " | "日 " | "日" | ", " | " at ")
        || !(1..=2).contains(&h.len)
        || mi.len != 2
        || &s[h.end..mi.start] != ":"
        || h.v > 23
        || mi.v > 59
    {
        return date;
    }
    let mut out = format!("{date}T{:02}:{:02}", h.v, mi.v);
    let mut end = mi.end;
    if let Some(sec) = more.first()
        && sec.len == 2
        && &s[mi.end..sec.start] == ":"
        && sec.v <= 59
    {
        out.push_str(&format!(":{:02}", sec.v));
        end = sec.end;
    }
    // Fractions of a second are dropped; then an offset: Z, +02:00, -0500.
    let mut tail = &s[end..];
    if let Some(t) = tail.strip_prefix('.') {
        tail = t.trim_start_matches(|c: char| c.is_ascii_digit());
    }
    let tail = tail.trim_start();
    if tail.starts_with(['Z', 'z']) {
        out.push('Z');
    } else if let Some(sign) = tail.chars().next().filter(|c| matches!(c, '+' | '-')) {
        let digits: String = tail[1..]
            .chars()
            .take_while(|c| c.is_ascii_digit() || *c == ':')
            .filter(char::is_ascii_digit)
            .collect();
        if digits.len() == 4 {
            out.push_str(&format!("{sign}{}:{}", &digits[..2], &digits[2..]));
        }
    }
    out
}

// ---- Text ----
