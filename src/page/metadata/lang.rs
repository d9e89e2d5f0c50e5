//! Languages: declared ones read as lower-case BCP 47 tags (codes, aliases, names), and
//! detection by whatlang where the `lang` feature is on.

use super::*;

/// Where a page's `lang` came from. Written in JSON as its lower-case name
/// (`"lang_source": "declared"`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum LangSource {
    /// The page (or its HTTP `Content-Language`) declares it.
    Declared,
    /// It was detected from the text.
    Detected,
}

/// The language the page declares, as a lower-case BCP 47 tag ([`lang_tag`]): `<html lang>`,
/// `<meta http-equiv=content-language>`, `<meta name=language>`, Dublin Core, `og:locale`; a
/// declaration that is no language (`x-default`, `utf-8`) is passed over for the next one.
pub(super) fn declared_lang(f: &Found) -> Option<String> {
    f.html_lang
        .as_deref()
        .into_iter()
        .chain(f.meta_all(&["http-equiv:content-language"]))
        .chain(f.meta_all(&[
            "language",
            "dc.language",
            "dcterms.language",
            "content-language",
        ]))
        .chain(f.meta_all(&["og:locale"]))
        .find_map(lang_tag)
}

/// A language declaration as a lower-case BCP 47 tag (`en`, `en-gb`, `zh-hant`, `es-419`), or
/// `None` when it names no language. Read from every form pages and servers write: `en_US`,
/// `EN`, a list (`en-US,en;q=0.9`: the first), a three-letter code (`eng` → `en`, `ger` →
/// `de`: `LANG_ALIASES`), a language's name (`Japanese` → `ja`, `Deutsch` → `de`). The
/// primary language must be a known code (`ISO639_1`, `LANG_THREE_LETTER`, `LANGUAGES`);
/// the subtags after it are kept while they have the shape of a script, region or variant
/// (an extension or a malformed subtag ends the tag: `en-US-x-foo` → `en-us`).
pub fn lang_tag(raw: &str) -> Option<String> {
    let raw = raw.trim();
    if raw.is_empty() || raw.len() > 64 {
        return None;
    }
    let lower = raw.to_lowercase();
    let first = lower.split([',', ';', ' ', '\t']).find(|t| !t.is_empty())?;
    let mut parts = first.split(['-', '_']);
    let Some(primary) = parts.next().and_then(lang_code) else {
        return lang_by_name(&lower)
            .or_else(|| lang_by_name(first))
            .map(str::to_string);
    };
    let mut tag = primary.to_string();
    for (k, sub) in parts.enumerate() {
        let alpha = sub.bytes().all(|b| b.is_ascii_lowercase());
        let alnum = sub.bytes().all(|b| b.is_ascii_alphanumeric());
        let digits = sub.bytes().all(|b| b.is_ascii_digit());
        let shaped = match sub.len() {
            2 => alpha,                                                  // region: gb, us
            3 => digits || (alpha && k == 0), // region 419; extlang (zh-yue)
            4 => alpha || (alnum && sub.as_bytes()[0].is_ascii_digit()), // script; variant 1996
            5..=8 => alnum,                   // variant
            _ => false,
        };
        if !shaped {
            break;
        }
        tag.push('-');
        tag.push_str(sub);
    }
    Some(tag)
}

/// A primary language subtag, lower case, as BCP 47 writes it (the two-letter code where
/// there is one), or `None` when it is no language code.
pub(super) fn lang_code(code: &str) -> Option<&str> {
    if !code.bytes().all(|b| b.is_ascii_lowercase()) {
        return None;
    }
    if let Some((_, to)) = LANG_ALIASES.iter().find(|(from, _)| *from == code) {
        return Some(to);
    }
    match code.len() {
        2 => ISO639_1.split_ascii_whitespace().find(|c| *c == code),
        3 => iso639_1(code)
            .or_else(|| LANG_THREE_LETTER.iter().copied().find(|c| *c == code))
            .or_else(|| listed_code(code)),
        _ => None,
    }
}

/// A three-letter code of [`LANGUAGES`].
pub(super) fn listed_code(code: &str) -> Option<&'static str> {
    LANGUAGES.iter().find(|l| l.0 == code).map(|l| l.0)
}

/// The code of a language written by its name, lower case (`japanese`, `deutsch`).
pub(super) fn lang_by_name(name: &str) -> Option<&'static str> {
    if let Some((_, code)) = LANG_NAMES.iter().find(|(n, _)| *n == name) {
        return Some(code);
    }
    let code = listed_name(name)?;
    Some(iso639_1(code).unwrap_or(code))
}

/// The three-letter code of the language of [`LANGUAGES`] named `name`, in English or in the
/// language itself.
pub(super) fn listed_name(name: &str) -> Option<&'static str> {
    let (code, _, _) = LANGUAGES.iter().find(|(_, eng, own)| {
        eng.eq_ignore_ascii_case(name)
            || own.eq_ignore_ascii_case(name)
            || (!name.is_ascii() && own.to_lowercase() == name)
    })?;
    Some(code)
}

/// The language of `text` by whatlang, as an ISO 639-1 code where there is one (639-3
/// otherwise), when whatlang calls its answer reliable; always `None` without the `lang`
/// feature.
pub(crate) fn detect_lang(text: &str) -> Option<&'static str> {
    let mut end = text.len().min(DETECT_MAX_BYTES);
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    let code = whatlang_detect(&text[..end])?;
    Some(iso639_1(code).unwrap_or(code))
}

/// whatlang's three-letter code for `text`, when it calls its answer reliable.
#[cfg(feature = "lang")]
pub(super) fn whatlang_detect(text: &str) -> Option<&'static str> {
    let info = whatlang::detect(text)?;
    info.is_reliable().then(|| info.lang().code())
}

#[cfg(not(feature = "lang"))]
pub(super) fn whatlang_detect(text: &str) -> Option<&'static str> {
    let _ = text;
    None
}

/// ISO 639-3 → 639-1 for the languages whatlang knows that have a two-letter code.
pub(super) fn iso639_1(code: &str) -> Option<&'static str> {
    const MAP: &[(&str, &str)] = &[
        ("afr", "af"),
        ("aka", "ak"),
        ("amh", "am"),
        ("ara", "ar"),
        ("arb", "ar"),
        ("aze", "az"),
        ("bel", "be"),
        ("ben", "bn"),
        ("bul", "bg"),
        ("cat", "ca"),
        ("ces", "cs"),
        ("cmn", "zh"),
        ("dan", "da"),
        ("deu", "de"),
        ("ell", "el"),
        ("eng", "en"),
        ("epo", "eo"),
        ("est", "et"),
        ("fin", "fi"),
        ("fra", "fr"),
        ("guj", "gu"),
        ("heb", "he"),
        ("hin", "hi"),
        ("hrv", "hr"),
        ("hun", "hu"),
        ("hye", "hy"),
        ("ind", "id"),
        ("ita", "it"),
        ("jav", "jv"),
        ("jpn", "ja"),
        ("kan", "kn"),
        ("kat", "ka"),
        ("khm", "km"),
        ("kor", "ko"),
        ("lat", "la"),
        ("lav", "lv"),
        ("lit", "lt"),
        ("mal", "ml"),
        ("mar", "mr"),
        ("mkd", "mk"),
        ("mya", "my"),
        ("nep", "ne"),
        ("nld", "nl"),
        ("nob", "nb"),
        ("ori", "or"),
        ("pan", "pa"),
        ("pes", "fa"),
        ("pol", "pl"),
        ("por", "pt"),
        ("ron", "ro"),
        ("rus", "ru"),
        ("sin", "si"),
        ("slk", "sk"),
        ("slv", "sl"),
        ("sna", "sn"),
        ("spa", "es"),
        ("sqi", "sq"),
        ("srp", "sr"),
        ("swe", "sv"),
        ("tam", "ta"),
        ("tel", "te"),
        ("tgl", "tl"),
        ("tha", "th"),
        ("tuk", "tk"),
        ("tur", "tr"),
        ("ukr", "uk"),
        ("urd", "ur"),
        ("uzb", "uz"),
        ("vie", "vi"),
        ("yid", "yi"),
        ("zul", "zu"),
        ("bos", "bs"),
        ("cym", "cy"),
        ("gle", "ga"),
        ("eus", "eu"),
        ("glg", "gl"),
        ("isl", "is"),
        ("kaz", "kk"),
        ("mon", "mn"),
        ("msa", "ms"),
        ("zsm", "ms"),
        ("som", "so"),
        ("swa", "sw"),
        ("tgk", "tg"),
        ("yor", "yo"),
    ];
    MAP.iter().find(|(k, _)| *k == code).map(|(_, v)| *v)
}

// ---- JSON-LD ----
