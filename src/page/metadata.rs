//! Page metadata for JSON output: title, author, date, site name, description, image,
//! categories, tags and language, each from the page's own declarations first and from
//! heuristics last. Computed only when [`super::Options::metadata`] asks for it (`--format
//! json`, the Python module's JSON), so the plain-text path never pays for it.
//!
//! Sources, in the order they are tried (the first that gives a value wins):
//!
//! - `url`: `<link rel=canonical>`, then `og:url`, resolved against `<base href>` and the
//!   caller's URL; only an absolute `http(s)` URL ([`Metadata::url`]; an output gives the
//!   input's URL before it).
//! - `title`: `og:title`, else the `<title>` of the document (never one inside an `<svg>`),
//!   each cleaned of the site name: a first or last part, cut at a [`TITLE_SEPARATORS`]
//!   separator, that is the site name (`og:site_name`, JSON-LD publisher, `application-name`,
//!   ... see `sitename`). When both are missing or only the site name: JSON-LD `headline`,
//!   `twitter:title`, the only `<h1>`.
//! - `author`: JSON-LD `author` of a person (names joined with `; `), `<meta>` author names
//!   ([`AUTHOR_META`]), then the text of a byline element (`rel=author`, `itemprop=author`,
//!   a class or id naming the author: [`AUTHOR_CLASSES`]) cleaned ([`BYLINE_LEADS`],
//!   [`BYLINE_STOPS`]), then a JSON-LD author that is an organization.
//! - `date` (ISO 8601: `YYYY-MM-DD`, or the full date-time when the source gives a time):
//!   JSON-LD `datePublished`, Open Graph / `article:published_time` ([`DATE_OG`]),
//!   `<meta itemprop=datePublished>`, Dublin Core ([`DATE_DC`]), other common meta names
//!   ([`DATE_OTHER`]), `<time datetime>` (one marked `pubdate` or `itemprop=datePublished`
//!   first), a date in the path of the page's URL (`og:url`, canonical link; the caller's
//!   URL through [`read`]); of several publication declarations, the earliest; a UTC time
//!   stamp gives way to the local date of the URL ([`is_local_day_of`]). Then guesses
//!   ([`Metadata::date_source`] says which): the modified date ([`DATE_MODIFIED`], JSON-LD
//!   `dateModified`), an element whose class names a date ([`DATE_CLASSES`]), the first short
//!   text holding one (`05/10/2018` read by the page's language), a date key in a script's
//!   JSON state, the first date in the markup, a date in a link's path, the copyright year.
//!   Values are parsed by [`iso_date`] (ISO, `2020/06/16`, `2020年06月16日 02:31`, `June 16, 2020`, `16.06.2020`, RFC 2822...).
//! - `sitename`: `og:site_name`, JSON-LD publisher or `WebSite` name, publisher meta names
//!   ([`SITENAME_META`]), `twitter:site` (without its `@`), a part of the `<title>` that is
//!   a domain name, then the host of the page's URL (`url`; the caller's URL through
//!   [`host_name`]); a URL gives its host only when it is the site's root, a slug nothing.
//! - `description`: `og:description`, `<meta name=description>`, `twitter:description`, Dublin
//!   Core, JSON-LD `description`.
//! - `image`: `og:image` (`:secure_url`, `:url`), `twitter:image`, JSON-LD `image`,
//!   `<link rel=image_src>`.
//! - `categories`: `article:section`, JSON-LD `articleSection`, links with `rel=category`.
//! - `tags`: `article:tag`, keyword meta names ([`TAG_META`]), JSON-LD `keywords`, links with
//!   `rel=tag`.
//! - `lang`, a lower-case BCP 47 tag ([`lang_tag`]): declared by `<html lang>` (or
//!   `xml:lang`), `<meta http-equiv=content-language>`, `<meta name=language>`, `og:locale`
//!   (`lang_source: "declared"`; one that names no language is passed over), else detected from the
//!   extracted plain text (Markdown output's too) by whatlang (`"detected"`, only when
//!   whatlang calls it reliable; never in a build without the `lang` feature).
//!
//! JSON-LD is parsed with serde_json, never matched with patterns; a hostile page's JSON-LD
//! is bounded: [`LD_MAX_SCRIPT`] bytes per script, [`LD_MAX_TOTAL`] in all, [`LD_MAX_SCRIPTS`]
//! scripts, nesting at serde_json's recursion limit (128), [`LD_MAX_NODES`] values visited.

use serde_json::Value;

use crate::html::{Document, Kind, NodeId, Tag, entities};

// ---- Thresholds and word lists, each with its reason. ----

/// Separators between a title and the site name in `<title>`: the ones news sites, blogs and
/// CMS templates use (`Story - WSJ`, `Site | Page`, `Page — Site`, `Page · Site`, `Site: Page`).
/// Each needs the spaces around it except `:` (written `Site: Page`), so a hyphenated word or a
/// time (`10:30`) is never cut.
pub const TITLE_SEPARATORS: &[&str] = &[
    " | ", " - ", " – ", " — ", " · ", " • ", " :: ", " » ", " « ", " / ", ": ",
];

/// A title part longer than this (characters) is never taken for a site name: site names are
/// short, and cutting a long part would lose half a headline.
pub const SITENAME_MAX_CHARS: usize = 60;

/// A title part that contains the site name is the site name when it is at most this many
/// characters longer (`WSJ Tech` for `WSJ`), not a headline that mentions the site (`The
/// Guardian view on Hong Kong`).
pub const SITENAME_EXTRA_CHARS: usize = 10;

/// `<meta name|property>` naming the author (trafilatura's list, lower case).
pub const AUTHOR_META: &[&str] = &[
    "author",
    "article:author",
    "authors",
    "byl",
    "citation_author",
    "creator",
    "dc.creator",
    "dc:creator",
    "dcterms.creator",
    "parsely-author",
    "sailthru.author",
    "og:author",
    "og:article:author",
    "shareaholic:article_author_name",
];

/// Class or id words of byline elements (`<span class="author-name">`), as trafilatura's
/// author XPaths and the common CMS templates spell them.
pub const AUTHOR_CLASSES: &[&str] = &[
    "author",
    "byline",
    "byl",
    "posted-by",
    "submitted-by",
    "journalist-name",
    "username",
];

/// Words that lead a byline's name in, dropped (ASCII case-insensitively, followed by `:` or a
/// space), longest first.
pub const BYLINE_LEADS: &[&str] = &[
    "authored by",
    "sponsored by",
    "article by",
    "guide by",
    "written by",
    "posted by",
    "reviewed by",
    "words by",
    "text by",
    "story by",
    "author",
    "autor",
    "auteur",
    "text",
    "by",
    "von",
    "par",
    "por",
];

/// Words that end the name in a byline's text (what follows is its date or role).
pub const BYLINE_STOPS: &[&str] = &[
    " last ",
    " is a ",
    " about the author",
    " in ",
    " (",
    "@",
    " published",
    " updated",
    " posted",
    " on ",
    " | ",
    " - ",
    " — ",
    "\n",
    " am ",
    " pm ",
];

/// News agencies that bylines name after the reporter (`Tom Davies Associated Press`): dropped
/// from the end of an author value that has a name before them.
pub const AGENCIES: &[&str] = &[
    "Associated Press",
    "AP",
    "Reuters",
    "AFP",
    "dpa",
    "Bloomberg",
    "AP Auto Writer",
];

/// Words in a byline's name at most: more is a sentence in an element whose class says
/// `author` (an author box's biography, a teaser), not a name; the next byline is read.
pub const BYLINE_MAX_WORDS: usize = 12;

/// Words that are never an author's name on their own: what a byline element holds when it
/// has no name (`Updated`, `Follow`, `Written By`), or an article before an agency (`The
/// Associated Press`).
pub const NOT_NAMES: &[&str] = &[
    "the",
    "by",
    "updated",
    "published",
    "posted",
    "follow",
    "name",
    "author",
    "authors",
    "written by",
    "share",
    "sign in",
    "read more",
];

/// Words that name a role or a title after a byline's name (`Will Judd Former Deputy Tech
/// Editor`, `Mateusz Haberny Founder at Oakywood`): the name ends before the first of them
/// that follows at least two words, or before the [`ROLE_QUALIFIERS`] right before it, or at
/// a comma before it (`Paul Frew, Home and Digital Security Expert`).
pub const ROLE_WORDS: &[&str] = &[
    "writer",
    "editor",
    "founder",
    "co-founder",
    "director",
    "reporter",
    "correspondent",
    "contributor",
    "columnist",
    "expert",
    "manager",
    "ceo",
    "head",
    "former",
    "senior",
    "chief",
    "gardener",
    "reviewer",
];

/// Words that qualify a role (`Contributing Writer`, `AP National Political Writer`, `News
/// reporter`, `Editorial Staff`): part of the role when right before a [`ROLE_WORDS`] word.
pub const ROLE_QUALIFIERS: &[&str] = &[
    "former",
    "senior",
    "managing",
    "contributing",
    "lead",
    "deputy",
    "staff",
    "news",
    "editorial",
    "national",
    "political",
    "sports",
    "tech",
    "marketing",
    "executive",
    "associate",
    "assistant",
];

/// Byline text outside these lengths (characters) is not a name: too short is an initial or
/// a stray letter, longer is a sentence or a whole block (trafilatura's limits, 2 < len < 120).
pub const AUTHOR_CHARS: std::ops::Range<usize> = 3..120;

/// Open Graph and `article:*` properties of the publication date.
pub const DATE_OG: &[&str] = &[
    "article:published_time",
    "article:published",
    "og:published_time",
    "og:article:published_time",
    "article.published",
];

/// Dublin Core names of the publication date.
pub const DATE_DC: &[&str] = &[
    "dc.date",
    "dc.date.issued",
    "dc.date.created",
    "dcterms.date",
    "dcterms.issued",
    "dcterms.created",
    "dc:date",
];

/// Other meta names publishers use for the publication date.
pub const DATE_OTHER: &[&str] = &[
    "date",
    "pubdate",
    "publishdate",
    "publish-date",
    "publish_date",
    "publication_date",
    "citation_publication_date",
    "citation_date",
    "sailthru.date",
    "parsely-pub-date",
    "article_date_original",
    "original-publish-date",
    "datepublished",
    "published",
    "published-date",
    "publication-date",
];

/// Meta names of the date a page was last modified: its date when it states no publication
/// date (then ranked with the guesses, below a date in the page's URL).
pub const DATE_MODIFIED: &[&str] = &[
    "article:modified_time",
    "og:updated_time",
    "article:modified",
    "datemodified",
    "dcterms.modified",
    "last-modified",
    "http-equiv:last-modified",
    "lastreviewed",
    "updated date",
    "dateupdated",
];

/// Keys of the publication date in script-rendered pages' JSON state (Next.js, Nuxt, Gatsby,
/// WordPress' REST output), read as the last guess ([`script_date`]).
pub const SCRIPT_DATE_KEYS: &[&str] = &[
    "\"datePublished",
    "\"publishedAt",
    "\"published_at",
    "\"publish_date",
    "\"publishDate",
    "\"pubDate",
    "\"dateCreated",
    "\"createdAt",
    "\"created_at",
];

/// Occurrences of each key looked at: a page of thousands of records (a feed) has the page's
/// own date first, if at all.
pub const SCRIPT_DATE_TRIES: usize = 20;

/// Class, id or itemprop words of elements that hold the page's date as text
/// (`<span class="article-publish-date">November 19, 2019</span>`), as htmldate looks for them.
pub const DATE_CLASSES: &[&str] = &[
    "date",
    "publish",
    "posted",
    "dateline",
    "timestamp",
    "byline",
    "entry-meta",
    "post-meta",
];

/// Texts longer than this (bytes) are not read for a date: a date line is short, and a
/// paragraph that mentions a date is not the page's.
pub const DATE_TEXT_MAX_BYTES: usize = 120;

/// A UTC time stamp before this hour (UTC) can fall on the day before in a zone west of UTC
/// (down to UTC−12): [`is_local_day_of`].
pub const UTC_WEST_HOURS: u32 = 12;
/// A UTC time stamp from this hour (UTC) on can fall on the day after in a zone east of UTC
/// (up to UTC+14).
pub const UTC_EAST_HOURS: u32 = 10;

/// Words that open a copyright notice (`© 2024`, `Copyright 2019-2024`, `(c) 2024`): its last
/// year is the page's year of last resort ([`copyright_year`]), as htmldate reads it.
pub const COPYRIGHT_MARKS: &[&str] = &["©", "&copy;", "&#169;", "copyright", "(c)"];

/// Characters between a copyright mark and its year at most (`© Example Media Group, Inc.
/// 2024`): a year further on is not the notice's.
pub const COPYRIGHT_GAP: usize = 60;

/// Text nodes after a copyright mark without a year that are read for its year (`©
/// <a>Example Media</a> 2024`).
pub const COPYRIGHT_NODES: u8 = 3;

/// Bytes of a page's source scanned for a date-time ([`markup_date`]) at most: the head
/// and the start of the body, where a render or publication time stamp is, on any page size.
pub const TIMESTAMP_SCAN_BYTES: usize = 4 << 20;

/// Years accepted in a date: before the web or far ahead is a misread number (htmldate's
/// lower bound is 1995; 1990 leaves room for archived pages about their own date).
pub const YEARS: std::ops::RangeInclusive<u32> = 1990..=2100;

/// Meta names of the publisher, for `sitename` (trafilatura's list less `twitter:site`, which
/// comes after them).
pub const SITENAME_META: &[&str] = &[
    "application-name",
    "publisher",
    "dc.publisher",
    "dcterms.publisher",
    "sailthru.publisher",
    "article:publisher",
];

/// Meta names holding keywords, for `tags`.
pub const TAG_META: &[&str] = &[
    "keywords",
    "news_keywords",
    "parsely-tags",
    "citation_keywords",
    "dcterms.subject",
    "tags",
];

/// The two-letter ISO 639-1 codes: a declared language is a BCP 47 tag only when its primary
/// subtag is one of them (or a three-letter code below), so that a country code written as a
/// language (`jp`, `uk` for Ukrainian is a language but `gb` is not), a charset (`utf-8`) or a
/// placeholder (`x-default`, `und`) is dropped and the next declaration read.
pub const ISO639_1: &str = "aa ab ae af ak am an ar as av ay az ba be bg bh bi bm bn bo br bs \
    ca ce ch co cr cs cu cv cy da de dv dz ee el en eo es et eu fa ff fi fj fo fr fy ga gd gl gn \
    gu gv ha he hi ho hr ht hu hy hz ia id ie ig ii ik io is it iu ja jv ka kg ki kj kk kl km kn \
    ko kr ks ku kv kw ky la lb lg li ln lo lt lu lv mg mh mi mk ml mn mr ms mt my na nb nd ne ng \
    nl nn no nr nv ny oc oj om or os pa pi pl ps pt qu rm rn ro ru rw sa sc sd se sg si sk sl sm \
    sn so sq sr ss st su sv sw ta te tg th ti tk tl tn to tr ts tt tw ty ug uk ur uz ve vi vo wa \
    wo xh yi yo za zh zu";

/// Language codes that BCP 47 replaced or writes shorter, with the code it uses: ISO 639-1's
/// withdrawn codes (`iw` Hebrew, `in` Indonesian, `ji` Yiddish, `jw` Javanese, `mo`
/// Moldavian), and the ISO 639-2/B three-letter codes pages copy from library catalogues
/// (`ger`, `fre`). Three-letter 639-3 codes with a two-letter one (`eng`, `jpn`) are mapped by
/// the table of [`detect_lang`]'s codes.
pub const LANG_ALIASES: &[(&str, &str)] = &[
    ("iw", "he"),
    ("in", "id"),
    ("ji", "yi"),
    ("jw", "jv"),
    ("mo", "ro"),
    ("ger", "de"),
    ("fre", "fr"),
    ("chi", "zh"),
    ("dut", "nl"),
    ("cze", "cs"),
    ("gre", "el"),
    ("per", "fa"),
    ("rum", "ro"),
    ("slo", "sk"),
    ("alb", "sq"),
    ("arm", "hy"),
    ("baq", "eu"),
    ("bur", "my"),
    ("geo", "ka"),
    ("ice", "is"),
    ("mac", "mk"),
    ("may", "ms"),
    ("wel", "cy"),
    ("tib", "bo"),
];

/// Three-letter language codes kept as they are: languages pages declare that have no
/// two-letter code (Filipino, Cantonese, Hawaiian, Cebuano, Swiss German, Asturian, Low
/// German, Konkani, Maithili).
pub const LANG_THREE_LETTER: &[&str] = &[
    "fil", "yue", "haw", "ceb", "gsw", "ast", "nds", "kok", "mai",
];

/// The languages whatlang detects: ISO 639-3 code, English name, name in the language itself
/// (whatlang's `Lang::code`, `eng_name` and `name`, in its order). Declared languages are read
/// by this table, not by whatlang, so that a build without the `lang` feature (no whatlang)
/// reads a page's declaration as the default build does; a test holds it to whatlang's.
pub const LANGUAGES: &[(&str, &str, &str)] = &[
    ("epo", "Esperanto", "Esperanto"),
    ("eng", "English", "English"),
    ("rus", "Russian", "Русский"),
    ("cmn", "Mandarin", "普通话"),
    ("spa", "Spanish", "Español"),
    ("por", "Portuguese", "Português"),
    ("ita", "Italian", "Italiano"),
    ("ben", "Bengali", "বাংলা"),
    ("fra", "French", "Français"),
    ("deu", "German", "Deutsch"),
    ("ukr", "Ukrainian", "Українська"),
    ("kat", "Georgian", "ქართული"),
    ("ara", "Arabic", "العربية"),
    ("hin", "Hindi", "हिन्दी"),
    ("jpn", "Japanese", "日本語"),
    ("heb", "Hebrew", "עברית"),
    ("yid", "Yiddish", "ייִדיש"),
    ("pol", "Polish", "Polski"),
    ("amh", "Amharic", "አማርኛ"),
    ("jav", "Javanese", "Basa Jawa"),
    ("kor", "Korean", "한국어"),
    ("nob", "Bokmal", "Bokmål"),
    ("dan", "Danish", "Dansk"),
    ("swe", "Swedish", "Svenska"),
    ("fin", "Finnish", "Suomi"),
    ("tur", "Turkish", "Türkçe"),
    ("nld", "Dutch", "Nederlands"),
    ("hun", "Hungarian", "Magyar"),
    ("ces", "Czech", "Čeština"),
    ("ell", "Greek", "Ελληνικά"),
    ("bul", "Bulgarian", "Български"),
    ("bel", "Belarusian", "Беларуская"),
    ("mar", "Marathi", "मराठी"),
    ("kan", "Kannada", "ಕನ್ನಡ"),
    ("ron", "Romanian", "Română"),
    ("slv", "Slovene", "Slovenščina"),
    ("hrv", "Croatian", "Hrvatski"),
    ("srp", "Serbian", "Српски"),
    ("mkd", "Macedonian", "Македонски"),
    ("lit", "Lithuanian", "Lietuvių"),
    ("lav", "Latvian", "Latviešu"),
    ("est", "Estonian", "Eesti"),
    ("tam", "Tamil", "தமிழ்"),
    ("vie", "Vietnamese", "Tiếng Việt"),
    ("urd", "Urdu", "اُردُو"),
    ("tha", "Thai", "ภาษาไทย"),
    ("guj", "Gujarati", "ગુજરાતી"),
    ("uzb", "Uzbek", "Oʻzbekcha"),
    ("pan", "Punjabi", "ਪੰਜਾਬੀ"),
    ("aze", "Azerbaijani", "Azərbaycanca"),
    ("ind", "Indonesian", "Bahasa Indonesia"),
    ("tel", "Telugu", "తెలుగు"),
    ("pes", "Persian", "فارسی"),
    ("mal", "Malayalam", "മലയാളം"),
    ("ori", "Oriya", "ଓଡ଼ିଆ"),
    ("mya", "Burmese", "မြန်မာစာ"),
    ("nep", "Nepali", "नेपाली"),
    ("sin", "Sinhalese", "සිංහල"),
    ("khm", "Khmer", "ភាសាខ្មែរ"),
    ("tuk", "Turkmen", "Türkmençe"),
    ("aka", "Akan", "Akan"),
    ("zul", "Zulu", "IsiZulu"),
    ("sna", "Shona", "ChiShona"),
    ("afr", "Afrikaans", "Afrikaans"),
    ("lat", "Latin", "Lingua Latina"),
    ("slk", "Slovak", "Slovenčina"),
    ("cat", "Catalan", "Català"),
    ("tgl", "Tagalog", "Tagalog"),
    ("hye", "Armenian", "Հայերեն"),
    ("cym", "Welsh", "Cymraeg"),
];

/// Language names written where a code belongs (`Japanese` in a WARC record's
/// `Content-Language`, `English` in `<meta name=language>`) are read by the names of
/// [`LANGUAGES`], in English and in the language itself (`Deutsch`, `Русский`), and these,
/// which whatlang names otherwise (`Mandarin`) or not at all.
pub const LANG_NAMES: &[(&str, &str)] = &[
    ("chinese", "zh"),
    ("simplified chinese", "zh-hans"),
    ("traditional chinese", "zh-hant"),
    ("norwegian", "no"),
    ("farsi", "fa"),
    ("malay", "ms"),
    ("filipino", "fil"),
    ("español", "es"),
    ("français", "fr"),
];

/// Words that may be written in lower case inside a person's name (`Ludwig van Beethoven`,
/// `Oscar de la Hoya`, `Ahmed bin Salem`) or between two names (`Jane Doe and John Roe`): any
/// other lower-case word in a name that has capitals makes it a phrase, not a person (`The
/// Russian and Syrian defense ministries`).
pub const NAME_PARTICLES: &[&str] = &[
    "van", "von", "der", "den", "de", "del", "della", "di", "da", "das", "dos", "du", "la", "le",
    "ter", "ten", "zu", "bin", "binti", "ibn", "al", "el", "y", "e", "i", "and", "und", "et", "og",
    "och", "en", "&",
];

/// A label before a colon ahead of a name (`Текст: Венера Ерофеева`, `Photos: Jane Doe`,
/// `Text und Fotos: Max Muster`) has at most this many words; a longer head before a colon is
/// a sentence, kept as it is (and then refused as a name by its length or words).
pub const AUTHOR_LABEL_MAX_WORDS: usize = 3;

/// Bytes of one JSON-LD script read at most: real ones are a few KB; a larger one is data
/// dumped into the page, not the page's description.
pub const LD_MAX_SCRIPT: usize = 256 << 10;
/// Bytes of JSON-LD read per page in all.
pub const LD_MAX_TOTAL: usize = 1 << 20;
/// JSON-LD scripts read per page at most.
pub const LD_MAX_SCRIPTS: usize = 32;
/// JSON values visited per page at most (a flat array of millions of items is within the
/// size caps but not worth walking).
pub const LD_MAX_NODES: usize = 20_000;

/// Bytes of the extracted text given to language detection: whatlang was a quarter of
/// `--format json`'s time on CleanEval's pages (mostly undeclared) with 4 KB; its answer on the
/// first 1 KB (150-200 words) is as reliable, and the cost stays constant on long pages.
pub const DETECT_MAX_BYTES: usize = 1024;

/// Characters kept of a description (a page that puts its whole article there).
pub const DESCRIPTION_MAX_CHARS: usize = 1000;

/// Categories and tags kept at most (keyword stuffing).
pub const LIST_MAX: usize = 50;

/// JSON-LD types whose fields describe the page itself (schema.org's CreativeWork kinds pages
/// use); others (`BreadcrumbList`, `ImageObject`, `Organization`...) give only the site name.
const LD_ARTICLE_TYPES: &[&str] = &[
    "article",
    "newsarticle",
    "blogposting",
    "reportagenewsarticle",
    "analysisnewsarticle",
    "opinionnewsarticle",
    "scholarlyarticle",
    "techarticle",
    "report",
    "webpage",
    "itempage",
    "aboutpage",
    "faqpage",
    "qapage",
    "collectionpage",
    "creativework",
    "liveblogposting",
    "socialmediaposting",
    "discussionforumposting",
    "recipe",
    "review",
    "podcastepisode",
    "videoobject",
    "event",
    "product",
    "howto",
];

/// `date_source`: a publication date the page declares (JSON-LD `datePublished`,
/// `article:published_time`, `<meta itemprop=datePublished>`, Dublin Core, other publication
/// meta names, `<time pubdate>`).
pub const DATE_PUBLISHED: &str = "published";
/// `date_source`: a `<time datetime>` not marked as the publication date.
pub const DATE_TIME: &str = "time";
/// `date_source`: a date in the path of the page's URL (`og:url`, canonical link, the
/// record's URL).
pub const DATE_URL: &str = "url";
/// `date_source`: the date the page says it was modified ([`DATE_MODIFIED`], JSON-LD
/// `dateModified`), on a page that states no publication date.
pub const DATE_FROM_MODIFIED: &str = "modified";
/// `date_source`: a date written in the page's visible text (an element whose class names a
/// date, or a short text).
pub const DATE_TEXT: &str = "text";
/// `date_source`: a publication-date key in a script's JSON state ([`SCRIPT_DATE_KEYS`]).
pub const DATE_SCRIPT: &str = "script";
/// `date_source`: the first date anywhere in the page's markup, a date-time first
/// ([`markup_date`]): often when the page was rendered or a record in it changed, not when it
/// was written.
pub const DATE_MARKUP: &str = "markup";
/// `date_source`: a date in the path of a link, image or frame URL of the page
/// (`/2019/01/31/`; `/wp-content/uploads/2023/10/` gives the first of the month).
pub const DATE_LINK: &str = "link";
/// `date_source`: the year of the page's copyright notice, as its first of January.
pub const DATE_COPYRIGHT: &str = "copyright";

/// Where the language came from.
pub const DECLARED: &str = "declared";
/// The language was detected from the text.
pub const DETECTED: &str = "detected";

/// A page's metadata; every field `None` or empty when the page does not give it.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Metadata {
    /// The page's URL as the page declares it (`<link rel=canonical>`, else `og:url`), resolved
    /// against its `<base href>` and the caller's URL; only an absolute `http(s)` URL
    /// ([`own_url`]). The caller's URL itself is not copied here: an output gives it first.
    pub url: Option<String>,
    /// The title, cleaned of the site name.
    pub title: Option<String>,
    /// The author(s), `; `-separated.
    pub author: Option<String>,
    /// The publication date, ISO 8601.
    pub date: Option<String>,
    /// Where `date` came from: [`DATE_PUBLISHED`], [`DATE_TIME`], [`DATE_URL`] (stated
    /// dates), then the guesses [`DATE_FROM_MODIFIED`], [`DATE_TEXT`], [`DATE_SCRIPT`],
    /// [`DATE_MARKUP`], [`DATE_LINK`], [`DATE_COPYRIGHT`], in the order they are tried.
    pub date_source: Option<&'static str>,
    /// The site's name.
    pub sitename: Option<String>,
    /// The page's own summary.
    pub description: Option<String>,
    /// The page's lead image (URL as written).
    pub image: Option<String>,
    /// Sections or categories.
    pub categories: Vec<String>,
    /// Tags and keywords.
    pub tags: Vec<String>,
    /// The language (BCP 47 as declared, ISO 639-1 when detected).
    pub lang: Option<String>,
    /// [`DECLARED`] or [`DETECTED`].
    pub lang_source: Option<&'static str>,
}

/// What the `<meta>` and `<link>` elements and the document say, collected in one pass.
#[derive(Default)]
struct Found {
    html_title: Option<String>,
    h1: Option<String>,
    h1_count: usize,
    html_lang: Option<String>,
    /// `(key, content)` of each `<meta>`, key lower-cased; one entry per key attribute
    /// (`property`, `name`, `itemprop`, `http-equiv`), so that
    /// `<meta property="article:published" itemprop="datePublished">` is found under both.
    meta: Vec<(String, String)>,
    time_pub: Option<String>,
    time_any: Option<String>,
    canonical: Option<String>,
    /// The first `<base href>`.
    base_href: Option<String>,
    image_src: Option<String>,
    rel_category: Vec<String>,
    rel_tag: Vec<String>,
    ld: Ld,
}

impl Found {
    fn meta(&self, keys: &[&str]) -> Option<&str> {
        keys.iter().find_map(|k| {
            self.meta
                .iter()
                .find(|(m, _)| m == k)
                .map(|(_, v)| v.as_str())
        })
    }

    fn meta_all<'s>(&'s self, keys: &'s [&str]) -> impl Iterator<Item = &'s str> + 's {
        self.meta
            .iter()
            .filter(|(m, _)| keys.contains(&m.as_str()))
            .map(|(_, v)| v.as_str())
    }
}

/// Reads the metadata of a parsed page; `text` is its extracted plain text, never Markdown
/// (for language detection when none is declared), `url` the page's URL when the caller knows
/// it (a WARC record's, the command line's): a date in its path is a stated date.
pub fn read(doc: &Document, text: &str, url: Option<&str>) -> Metadata {
    let f = collect(doc);
    let declared_author = declared_author(&f);
    let declared_date = declared_date(&f, url);
    // The byline and the dates written in the text are read only when the declarations leave
    // them needed, in one walk.
    let guesses = if declared_author.is_none() || declared_date.is_none() {
        body_guesses(doc, declared_author.is_none(), declared_date.is_none())
    } else {
        BodyGuesses::default()
    };
    let own_url = own_url(&f, url);
    let sitename = sitename(&f, own_url.as_deref());
    let title = title(&f, sitename.as_deref());
    let author = author(&f, declared_author.or(guesses.byline), sitename.as_deref());
    let date = declared_date.or_else(|| {
        guesses
            .date_elem
            .or(guesses.text_date)
            .or_else(|| slashed_by_lang(guesses.text_slashed?, &declared_lang(&f)?))
            .map(|d| (d, DATE_TEXT))
    });
    let (date, date_source) = match date.or_else(|| last_guess(doc)) {
        Some((d, s)) => (Some(d), Some(s)),
        None => (None, None),
    };
    let description = f
        .meta(&[
            "og:description",
            "description",
            "twitter:description",
            "dc.description",
            "dcterms.description",
        ])
        .map(str::to_string)
        .or_else(|| f.ld.description.clone())
        .or_else(|| f.meta(&["itemprop:description"]).map(str::to_string))
        .map(|d| truncate_chars(d, DESCRIPTION_MAX_CHARS));
    let image = f
        .meta(&[
            "og:image",
            "og:image:secure_url",
            "og:image:url",
            "twitter:image",
            "twitter:image:src",
        ])
        .map(str::to_string)
        .or_else(|| f.ld.image.clone())
        .or_else(|| f.meta(&["itemprop:image"]).map(str::to_string))
        .or_else(|| f.image_src.clone());
    let mut categories: Vec<String> = f.meta_all(&["article:section"]).map(String::from).collect();
    categories.extend(f.ld.sections.iter().cloned());
    categories.extend(f.rel_category.iter().cloned());
    let mut tags: Vec<String> = f.meta_all(&["article:tag"]).map(String::from).collect();
    for k in f.meta_all(TAG_META) {
        tags.extend(k.split([',', ';']).map(str::to_string));
    }
    tags.extend(f.ld.keywords.iter().cloned());
    tags.extend(f.rel_tag.iter().cloned());
    let (lang, lang_source) = match declared_lang(&f) {
        Some(l) => (Some(l), Some(DECLARED)),
        None => match detect_lang(text) {
            Some(l) => (Some(l.to_string()), Some(DETECTED)),
            None => (None, None),
        },
    };
    Metadata {
        url: own_url,
        title,
        author,
        date,
        date_source,
        sitename,
        description,
        image,
        categories: dedup(categories),
        tags: dedup(tags),
        lang,
        lang_source,
    }
}

/// The host of an absolute URL as a site name, without `www.` (`https://www.example.org/a`
/// → `example.org`): the site name of last resort, as trafilatura gives it.
pub fn host_name(url: &str) -> Option<String> {
    let rest = &url[url.find("://")? + 3..];
    let host = rest.split(['/', '?', '#']).next()?;
    let host = host.rsplit('@').next()?.split(':').next()?;
    let host = host.strip_prefix("www.").unwrap_or(host);
    (host.contains('.') && !host.starts_with('.')).then(|| host.to_ascii_lowercase())
}

/// The date in a URL's path (`/2020/06/16/`, `/2020-06-16-`, `/20200616/`), ISO.
pub fn url_date(url: &str) -> Option<String> {
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
pub fn url_month(url: &str) -> Option<String> {
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
pub fn markup_date(src: &str, timed: bool) -> Option<String> {
    let (date_time, date) = markup_dates(src, timed);
    if timed { date_time } else { date }
}

/// [`markup_date`]'s two answers in one scan: the first date-time and the first date (a
/// date-time is a date too, so the date is found by the time the date-time is). The scan ends
/// at the first date-time with `timed`, else at the first date.
fn markup_dates(src: &str, timed: bool) -> (Option<String>, Option<String>) {
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
pub fn copyright_year(text: &str) -> Option<u32> {
    let at = copyright_marks().find(text)?.end();
    year_after_mark(text.get(at..)?)
}

/// [`COPYRIGHT_MARKS`] as one automaton (ASCII case-insensitive): every visible text node is
/// asked, so one pass each, not one per mark.
fn copyright_marks() -> &'static aho_corasick::AhoCorasick {
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
fn year_after_mark(rest: &str) -> Option<u32> {
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

fn collect(doc: &Document) -> Found {
    let mut f = Found::default();
    let mut ld_budget = Budget::default();
    for (i, n) in doc.tree.nodes.iter().enumerate() {
        let id = i as NodeId;
        if n.kind != Kind::Element {
            continue;
        }
        match n.tag {
            Tag::Html if f.html_lang.is_none() => {
                f.html_lang = doc
                    .attr(id, "lang")
                    .or_else(|| doc.attr(id, "xml:lang"))
                    .map(clean)
                    .filter(|l| !l.is_empty());
            }
            Tag::Title if f.html_title.is_none() && !in_svg(doc, id) => {
                let t = clean(doc.raw_text(id));
                if !t.is_empty() {
                    f.html_title = Some(t);
                }
            }
            Tag::Meta => {
                let Some(content) = doc.attr(id, "content").map(clean) else {
                    continue;
                };
                if content.is_empty() {
                    continue;
                }
                for key in ["property", "name", "itemprop", "http-equiv"] {
                    let Some(k) = doc.attr(id, key) else {
                        continue;
                    };
                    let k = k.trim().to_ascii_lowercase();
                    match key {
                        // One key per item property (`itemprop="datePublished dateCreated"`),
                        // also under its own prefix: `itemprop=description` is the page's only
                        // after the meta and JSON-LD descriptions.
                        "itemprop" => {
                            for p in k.split_ascii_whitespace() {
                                f.meta.push((format!("itemprop:{p}"), content.clone()));
                                f.meta.push((p.to_string(), content.clone()));
                            }
                        }
                        "http-equiv" => f.meta.push((format!("http-equiv:{k}"), content.clone())),
                        _ => f.meta.push((k, content.clone())),
                    }
                }
            }
            Tag::Link => {
                let rel = doc.attr(id, "rel").unwrap_or("").to_ascii_lowercase();
                let href = doc
                    .attr(id, "href")
                    .map(str::trim)
                    .filter(|h| !h.is_empty());
                match (rel.as_str(), href) {
                    // Attribute values as the browser reads them (`&amp;` is `&`).
                    ("canonical", Some(h)) if f.canonical.is_none() => {
                        f.canonical = Some(entities::decode(h).into_owned())
                    }
                    ("image_src", Some(h)) if f.image_src.is_none() => {
                        f.image_src = Some(h.to_string())
                    }
                    _ => {}
                }
            }
            Tag::Base if f.base_href.is_none() => {
                f.base_href = doc
                    .attr(id, "href")
                    .map(str::trim)
                    .filter(|h| !h.is_empty())
                    .map(|h| entities::decode(h).into_owned());
            }
            Tag::Script
                if doc
                    .attr(id, "type")
                    .is_some_and(|t| contains_ignore_case(t, "ld+json")) =>
            {
                ld_script(doc.raw_text(id), &mut f.ld, &mut ld_budget);
            }
            Tag::Time if f.time_pub.is_none() => {
                if let Some(dt) = doc
                    .attr(id, "datetime")
                    .map(str::trim)
                    .filter(|v| !v.is_empty())
                {
                    let marked = doc.attr(id, "pubdate").is_some()
                        || doc
                            .attr(id, "itemprop")
                            .is_some_and(|p| p.eq_ignore_ascii_case("datepublished"));
                    if marked {
                        f.time_pub = Some(dt.to_string());
                    } else if f.time_any.is_none() {
                        f.time_any = Some(dt.to_string());
                    }
                }
            }
            Tag::H1 => {
                f.h1_count += 1;
                if f.h1.is_none() {
                    f.h1 = Some(doc.text_of(id)).filter(|t| !t.is_empty());
                }
            }
            _ => {}
        }
        if n.tag == Tag::A
            && let Some(rel) = doc.attr(id, "rel")
        {
            let mut words = rel.split_ascii_whitespace();
            if words.clone().any(|w| w.eq_ignore_ascii_case("category")) {
                push_text(&mut f.rel_category, doc.text_of(id));
            } else if words.any(|w| w.eq_ignore_ascii_case("tag")) {
                push_text(&mut f.rel_tag, doc.text_of(id));
            }
        }
    }
    f.ld.resolve_authors();
    f
}

/// What the page's body says of its author and date when its declarations do not: the name
/// in the first byline element's text, the first date in an element whose class, id or
/// itemprop names a date, the first date in a short visible text and, before it, the first
/// `05/10/2018` that reads both ways.
#[derive(Default)]
struct BodyGuesses {
    byline: Option<String>,
    date_elem: Option<String>,
    text_date: Option<String>,
    /// As (first, second, year): read by the page's language ([`slashed_by_lang`]).
    text_slashed: Option<(u32, u32, u32)>,
}

/// Reads [`BodyGuesses`] in one walk: the byline with `byline` (the page names no author in
/// its JSON-LD or meta), the dates with `dates` (neither its declarations nor its URL give
/// one: [`declared_date`]). The walk ends once each asked is found (the dates at the first date
/// element, which wins over the texts). It used to be part of [`collect`]'s walk, paid by every
/// page; a page that declares both pays nothing now.
fn body_guesses(doc: &Document, byline: bool, dates: bool) -> BodyGuesses {
    let mut g = BodyGuesses::default();
    let (mut byline_done, mut dates_done) = (!byline, !dates);
    for (i, n) in doc.tree.nodes.iter().enumerate() {
        if byline_done && dates_done {
            break;
        }
        let id = i as NodeId;
        if n.kind == Kind::Text {
            if !dates_done
                && g.text_date.is_none()
                && n.context() & crate::html::tree::context::HIDDEN == 0
                && (n.end - n.start) as usize <= DATE_TEXT_MAX_BYTES
            {
                let raw = doc.raw_text(id);
                if has_year_digits(raw) {
                    let t = clean(raw);
                    g.text_date = iso_date_in(&t);
                    if g.text_date.is_none() && g.text_slashed.is_none() {
                        g.text_slashed = slashed_date(&t);
                    }
                }
            }
            continue;
        }
        if n.kind != Kind::Element {
            continue;
        }
        let want_date = !dates_done && holds_text(n.tag, doc, id);
        let byline_tag = !byline_done && byline_tag(n.tag, doc, id);
        // An `<author>` element is a byline whatever its attributes.
        let named_author = byline_tag && n.tag == Tag::Other && doc.name(id) == "author";
        let want_byline = byline_tag && !named_author;
        let (date_mark, byline_mark) = if want_date || want_byline {
            element_marks(doc, id, want_date, want_byline)
        } else {
            (false, false)
        };
        if date_mark {
            g.date_elem = doc
                .attr(id, "datetime")
                .or_else(|| doc.attr(id, "content"))
                .or_else(|| doc.attr(id, "title"))
                .and_then(iso_date)
                .or_else(|| {
                    let t = doc.text_of(id);
                    (t.len() <= DATE_TEXT_MAX_BYTES)
                        .then(|| iso_date_in(&t))
                        .flatten()
                });
            dates_done = g.date_elem.is_some();
        }
        if byline_tag && (named_author || byline_mark) && !in_comments(doc, id) {
            let t = byline_name(&spaced_text(doc, id));
            if AUTHOR_CHARS.contains(&t.chars().count())
                && t.split_whitespace().count() <= BYLINE_MAX_WORDS
                && is_name(&t)
            {
                g.byline = Some(t);
                byline_done = true;
            }
        }
    }
    g
}

/// What an element's attributes say of it, in one scan of its start tag: whether its class,
/// id or itemprop names a date ([`DATE_CLASSES`], asked with `date`), and whether it is
/// marked as a byline (`rel=author`, an `itemprop` naming the author, or a class or id word of
/// [`AUTHOR_CLASSES`]: asked with `byline`). The scan stops once the answers asked are yes.
fn element_marks(doc: &Document, id: NodeId, date: bool, byline: bool) -> (bool, bool) {
    let (mut is_date, mut is_byline) = (false, false);
    for (k, v) in doc.attributes(id) {
        let class_or_id = k.eq_ignore_ascii_case("class") || k.eq_ignore_ascii_case("id");
        let itemprop = !class_or_id && k.eq_ignore_ascii_case("itemprop");
        if date && !is_date && (class_or_id || itemprop) {
            is_date = date_classes().is_match(v);
        }
        if byline && !is_byline {
            is_byline = if class_or_id {
                v.split_ascii_whitespace().any(is_author_class)
            } else if itemprop {
                contains_ignore_case(v, "author")
            } else {
                k.eq_ignore_ascii_case("rel") && v.eq_ignore_ascii_case("author")
            };
        }
        if (is_date || !date) && (is_byline || !byline) {
            break;
        }
    }
    (is_date, is_byline)
}

/// [`DATE_CLASSES`] as one automaton (ASCII case-insensitive): the class, id and itemprop of
/// every element that can hold a date are asked, so one pass each, not one per word.
fn date_classes() -> &'static aho_corasick::AhoCorasick {
    static WORDS: std::sync::OnceLock<aho_corasick::AhoCorasick> = std::sync::OnceLock::new();
    WORDS.get_or_init(|| {
        aho_corasick::AhoCorasick::builder()
            .ascii_case_insensitive(true)
            .build(DATE_CLASSES)
            .unwrap_or_else(|_| unreachable!("a fixed list of short words builds an automaton"))
    })
}

/// `hay` contains `needle` (ASCII lower case), ASCII case-insensitively, without allocating.
fn contains_ignore_case(hay: &str, needle: &str) -> bool {
    hay.len() >= needle.len()
        && hay
            .as_bytes()
            .windows(needle.len())
            .any(|w| w.eq_ignore_ascii_case(needle.as_bytes()))
}

/// The first publication date under a [`SCRIPT_DATE_KEYS`] key in the page's scripts (the
/// JSON state of script-rendered pages: `"publishedAt":"2020-06-16T02:31:00Z"`, also with the
/// quotes escaped inside a JS string). The last of the guesses: a page that states its date
/// nowhere else.
fn script_date(src: &str) -> Option<String> {
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
fn has_year_digits(s: &str) -> bool {
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
fn iso_date_in(t: &str) -> Option<String> {
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

fn push_text(v: &mut Vec<String>, t: String) {
    if !t.is_empty() && v.len() < LIST_MAX {
        v.push(t);
    }
}

/// Whether `id` is inside an `<svg>` (whose `<title>` names a picture, not the page).
fn in_svg(doc: &Document, id: NodeId) -> bool {
    doc.tree
        .ancestors(id)
        .any(|a| doc.tree.node(a).tag == Tag::Svg)
}

/// An element whose text can be a byline: `a`, `address`, `div`, `p`, `span`, `strong`, `h3`,
/// `h4`, `li` or `<author>`. It is one when it is `<author>` or its attributes mark it so
/// ([`element_marks`]), and it is not inside comments ([`in_comments`]).
fn byline_tag(tag: Tag, doc: &Document, id: NodeId) -> bool {
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
fn is_author_class(w: &str) -> bool {
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
fn class_word_is(w: &str, a: &str) -> bool {
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
fn holds_text(tag: Tag, doc: &Document, id: NodeId) -> bool {
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

fn in_comments(doc: &Document, id: NodeId) -> bool {
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
fn byline_name(t: &str) -> String {
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
fn strip_by(t: &str) -> String {
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
fn spaced_text(doc: &Document, id: NodeId) -> String {
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

/// The page's own URL when it declares one: `<link rel=canonical>`, then `og:url`, each
/// resolved against the page's base (its `<base href>`, itself resolved against `input`, else
/// `input`, the URL the caller knows); a protocol-relative `//host/path` without a base is
/// read as `https:`. Only an absolute `http`/`https` URL with a host is given: a relative one
/// with nothing to resolve it against, a `javascript:` or `about:blank`, or what the WHATWG
/// parser refuses is passed over for the next source.
fn own_url(f: &Found, input: Option<&str>) -> Option<String> {
    let input = input.and_then(|u| url::Url::parse(u.trim()).ok());
    let base = match f.base_href.as_deref() {
        Some(h) => match &input {
            Some(i) => i.join(h).ok(),
            None => url::Url::parse(h).ok(),
        }
        .or(input),
        None => input,
    };
    [f.canonical.as_deref(), f.meta(&["og:url"])]
        .into_iter()
        .flatten()
        .find_map(|href| {
            let href = href.trim();
            let u = match &base {
                Some(b) => b.join(href).ok()?,
                None if href.starts_with("//") => url::Url::parse(&format!("https:{href}")).ok()?,
                None => url::Url::parse(href).ok()?,
            };
            (matches!(u.scheme(), "http" | "https")
                && u.host_str()
                    .is_some_and(|h| h.contains('.') || h.contains(':')))
            .then(|| u.into())
        })
}

/// The site name: `og:site_name`, JSON-LD publisher or `WebSite` name, publisher meta names,
/// `twitter:site`, a `<title>` part that is a domain name, then the host of the page's URL
/// (`own_url`). Each is cleaned ([`site_value`]): a URL gives its host, a slug nothing (the
/// next source is read).
fn sitename(f: &Found, own_url: Option<&str>) -> Option<String> {
    let title_domain = || {
        let t = f.html_title.as_deref()?;
        let (first, last) = split_title(t)?;
        [last, first]
            .into_iter()
            .find(|p| p.contains('.') && !p.contains(' '))
    };
    f.meta_all(&["og:site_name"])
        .chain(f.ld.publisher.as_deref())
        .chain(f.ld.website.as_deref())
        .chain(f.meta_all(SITENAME_META))
        .chain(f.meta_all(&["twitter:site"]))
        .find_map(site_value)
        .or_else(|| title_domain().and_then(site_value))
        .or_else(|| own_url.and_then(host_name))
}

/// A site name as written, cleaned: a URL (`https://www.newsnation.in`, `www.example.org`)
/// of the site's root is its host without `www.` ([`host_name`]), another URL nothing; a
/// Twitter handle loses its `@`; a slug (one
/// word with an `_`, `Wday_`, or of lower-case words joined by `-`, `my-site`) is no name.
fn site_value(s: &str) -> Option<String> {
    let s = s.trim();
    let lower = s.to_ascii_lowercase();
    // A URL names the site when it is the site's root (`https://www.newsnation.in/`); with a
    // path it links elsewhere (`https://www.facebook.com/example`) and names nothing.
    let url =
        if lower.starts_with("http://") || lower.starts_with("https://") || lower.starts_with("//")
        {
            Some(&s[s.find("//")? + 2..])
        } else if lower.starts_with("www.") && !s.contains(char::is_whitespace) {
            Some(s)
        } else {
            None
        };
    if let Some(rest) = url {
        let path = rest.find(['/', '?', '#']).map_or("", |i| &rest[i..]);
        return (path.is_empty() || path == "/")
            .then(|| host_name(&format!("https://{rest}")))
            .flatten();
    }
    let s = s.strip_prefix('@').unwrap_or(s).trim();
    let one_word = !s.contains(char::is_whitespace);
    let slug = one_word
        && (s.contains('_')
            || (s.contains('-')
                && s.chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')));
    (!s.is_empty() && !slug && s.chars().any(char::is_alphanumeric)).then(|| s.to_string())
}

/// The first and last parts of a title cut at its first and last separator.
fn split_title(t: &str) -> Option<(&str, &str)> {
    let first = TITLE_SEPARATORS
        .iter()
        .filter_map(|s| t.find(s).map(|i| (i, s.len())))
        .min()?;
    let last = TITLE_SEPARATORS
        .iter()
        .filter_map(|s| t.rfind(s).map(|i| (i, s.len())))
        .max()?;
    Some((&t[..first.0], &t[last.0 + last.1..]))
}

fn norm(s: &str) -> String {
    s.split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_lowercase()
}

fn title(f: &Found, sitename: Option<&str>) -> Option<String> {
    let og = f.meta(&["og:title"]);
    let site = sitename.map(norm);
    let is_site = |p: &str| {
        let p = norm(p);
        site.as_ref().is_some_and(|s| {
            !p.is_empty()
                && (p == *s
                    || (s.contains(&p) && p.len() >= 3)
                    || (p.contains(s.as_str()) && p.len() <= s.len() + SITENAME_EXTRA_CHARS))
        })
    };
    let only_site = |t: &str| site.as_deref() == Some(norm(t).as_str());
    // Site name as the last or first part (repeatedly: `Story | Section | Site`).
    let strip = |mut t: &str| -> Option<String> {
        for _ in 0..3 {
            let Some((first, last)) = split_title(t) else {
                break;
            };
            if last.chars().count() <= SITENAME_MAX_CHARS && is_site(last) {
                t = strip_separator_end(t[..t.len() - last.len()].trim_end());
            } else if first.chars().count() <= SITENAME_MAX_CHARS && is_site(first) {
                t = strip_separator_start(t[first.len()..].trim_start());
            } else {
                break;
            }
        }
        (!t.is_empty() && !only_site(t)).then(|| t.to_string())
    };
    // The publisher's own headline first (`og:title`: written without the site name, or
    // cleaned of it), then `<title>` cleaned.
    og.and_then(strip)
        .or_else(|| f.html_title.as_deref().and_then(strip))
        .or_else(|| f.ld.headline.clone())
        .or_else(|| f.meta(&["twitter:title"]).and_then(strip))
        .or_else(|| (f.h1_count == 1).then(|| f.h1.clone()).flatten())
        .or_else(|| f.html_title.clone())
        .or_else(|| f.h1.clone())
}

fn strip_separator_end(t: &str) -> &str {
    for s in TITLE_SEPARATORS {
        if let Some(r) = t.strip_suffix(s.trim_end()) {
            return r.trim_end();
        }
    }
    t
}

fn strip_separator_start(t: &str) -> &str {
    for s in TITLE_SEPARATORS {
        if let Some(r) = t.strip_prefix(s.trim_start()) {
            return r.trim_start();
        }
    }
    t
}

/// Whether an author value can be a name: not one of [`NOT_NAMES`], not a month name, not an
/// e-mail address, a price or a breadcrumb.
fn is_name(a: &str) -> bool {
    !NOT_NAMES.iter().any(|n| a.eq_ignore_ascii_case(n))
        && !MONTHS.iter().any(|(m, _)| a.eq_ignore_ascii_case(m))
        && !a.contains(['@', '$', '»', '›', '!', '?'])
        && a.chars().any(char::is_alphabetic)
}

/// A name without the role written after it ([`ROLE_WORDS`], [`ROLE_QUALIFIERS`]), in each
/// of its `; `-separated names.
fn without_role(a: &str) -> String {
    a.split("; ")
        .map(name_without_role)
        .collect::<Vec<_>>()
        .join("; ")
}

fn name_without_role(a: &str) -> &str {
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
fn author(f: &Found, named: Option<String>, sitename: Option<&str>) -> Option<String> {
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
fn without_labels(a: &str) -> String {
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
fn people(a: &str) -> Option<String> {
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
fn is_domain(w: &str) -> bool {
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
fn declared_author(f: &Found) -> Option<String> {
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
fn without_publisher(author: String, sitename: Option<&str>) -> String {
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

/// The date and its source from the page's declarations ([`collect`]) and its URL: a
/// publication date or `<time>`, the URL's date, then the modified date; `None` sends [`read`]
/// to the dates written in the text ([`body_guesses`]), then to [`last_guess`].
fn declared_date(f: &Found, url: Option<&str>) -> Option<(String, &'static str)> {
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
            .map(|d| (d, DATE_PUBLISHED))
            .or_else(|| {
                f.time_any
                    .as_deref()
                    .and_then(iso_date)
                    .map(|d| (d, DATE_TIME))
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
        return Some((d, DATE_URL));
    }
    f.ld.modified
        .iter()
        .map(String::as_str)
        .chain(f.meta(DATE_MODIFIED))
        .find_map(iso_date)
        .map(|d| (d, DATE_FROM_MODIFIED))
}

/// A date written `05/10/2018` that reads both ways, read by the page's declared language:
/// month first in US English (`en-US`), day first in the other languages (`pt-BR`, `de`,
/// `fr`, and the English of Britain, India or Australia); plain `en` says neither.
fn slashed_by_lang((a, b, y): (u32, u32, u32), lang: &str) -> Option<String> {
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
fn slashed_date(t: &str) -> Option<(u32, u32, u32)> {
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
fn last_guess(doc: &Document) -> Option<(String, &'static str)> {
    if let Some(d) = script_date(doc.src) {
        return Some((d, DATE_SCRIPT));
    }
    let (date_time, date) = markup_dates(doc.src, true);
    if let Some(d) = date_time {
        return Some((d, DATE_MARKUP));
    }
    let f = links_and_copyright(doc);
    let not_older = |d: &String| {
        f.copyright
            .is_none_or(|c| d.get(..4).and_then(|y| y.parse::<u32>().ok()) >= Some(c))
    };
    f.link_date
        .clone()
        .filter(not_older)
        .map(|d| (d, DATE_LINK))
        .or_else(|| date.filter(not_older).map(|d| (d, DATE_MARKUP)))
        .or_else(|| {
            f.link_month
                .clone()
                .filter(not_older)
                .map(|d| (d, DATE_LINK))
        })
        .or_else(|| {
            f.copyright
                .and_then(|y| ymd(y, 1, 1))
                .map(|d| (d, DATE_COPYRIGHT))
        })
}

/// What the last guesses read off the tree, in a walk of its own: only a page with no date
/// so far, none in its scripts' state and no date-time in its markup pays for it.
#[derive(Default)]
struct LastGuesses {
    /// The first date in the path of a link, image or frame URL ([`url_date`]), else the first
    /// month (`/2023/10/`, [`url_month`]).
    link_date: Option<String>,
    link_month: Option<String>,
    /// The year of the first copyright notice in the visible text ([`copyright_year`]).
    copyright: Option<u32>,
}

fn links_and_copyright(doc: &Document) -> LastGuesses {
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
fn is_local_day_of(utc: &str, local: &str) -> bool {
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
fn next_day(d: &str) -> Option<String> {
    let y: u32 = d.get(..4)?.parse().ok()?;
    let m: u32 = d.get(5..7)?.parse().ok()?;
    let day: u32 = d.get(8..10)?.parse().ok()?;
    ymd(y, m, day + 1)
        .or_else(|| ymd(y, m + 1, 1))
        .or_else(|| ymd(y + 1, 1, 1))
}

/// The language the page declares, as a lower-case BCP 47 tag ([`lang_tag`]): `<html lang>`,
/// `<meta http-equiv=content-language>`, `<meta name=language>`, Dublin Core, `og:locale`; a
/// declaration that is no language (`x-default`, `utf-8`) is passed over for the next one.
fn declared_lang(f: &Found) -> Option<String> {
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
/// `de`: [`LANG_ALIASES`]), a language's name (`Japanese` → `ja`, `Deutsch` → `de`). The
/// primary language must be a known code ([`ISO639_1`], [`LANG_THREE_LETTER`], [`LANGUAGES`]);
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
fn lang_code(code: &str) -> Option<&str> {
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
fn listed_code(code: &str) -> Option<&'static str> {
    LANGUAGES.iter().find(|l| l.0 == code).map(|l| l.0)
}

/// The code of a language written by its name, lower case (`japanese`, `deutsch`).
fn lang_by_name(name: &str) -> Option<&'static str> {
    if let Some((_, code)) = LANG_NAMES.iter().find(|(n, _)| *n == name) {
        return Some(code);
    }
    let code = listed_name(name)?;
    Some(iso639_1(code).unwrap_or(code))
}

/// The three-letter code of the language of [`LANGUAGES`] named `name`, in English or in the
/// language itself.
fn listed_name(name: &str) -> Option<&'static str> {
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
pub fn detect_lang(text: &str) -> Option<&'static str> {
    let mut end = text.len().min(DETECT_MAX_BYTES);
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    let code = whatlang_detect(&text[..end])?;
    Some(iso639_1(code).unwrap_or(code))
}

/// whatlang's three-letter code for `text`, when it calls its answer reliable.
#[cfg(feature = "lang")]
fn whatlang_detect(text: &str) -> Option<&'static str> {
    let info = whatlang::detect(text)?;
    info.is_reliable().then(|| info.lang().code())
}

#[cfg(not(feature = "lang"))]
fn whatlang_detect(text: &str) -> Option<&'static str> {
    let _ = text;
    None
}

/// ISO 639-3 → 639-1 for the languages whatlang knows that have a two-letter code.
fn iso639_1(code: &str) -> Option<&'static str> {
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

#[derive(Default)]
struct Ld {
    headline: Option<String>,
    published: Option<String>,
    /// `dateCreated` of an article.
    created: Option<String>,
    /// `@id` references of the article's authors, and the `(@id, name)` of the people the
    /// graph describes (at most [`LIST_MAX`] of each).
    author_refs: Vec<String>,
    people: Vec<(String, String)>,
    modified: Option<String>,
    authors: Vec<String>,
    /// Authors typed `Organization` (a news agency, the site): ranked after the meta names
    /// and the byline, which usually name the person.
    org_authors: Vec<String>,
    publisher: Option<String>,
    website: Option<String>,
    description: Option<String>,
    image: Option<String>,
    sections: Vec<String>,
    keywords: Vec<String>,
}

impl Ld {
    /// The article's authors given as `@id` references, named from the graph's people.
    fn resolve_authors(&mut self) {
        if !self.authors.is_empty() || !self.org_authors.is_empty() {
            return;
        }
        for r in &self.author_refs {
            if let Some((_, name)) = self.people.iter().find(|(id, _)| id == r) {
                let name = strip_by(name);
                if !name.is_empty() && !self.authors.contains(&name) {
                    self.authors.push(name);
                }
            }
        }
    }
}

#[derive(Default)]
struct Budget {
    scripts: usize,
    bytes: usize,
    nodes: usize,
}

/// Reads one JSON-LD script into `ld`, within `budget`.
fn ld_script(raw: &str, ld: &mut Ld, budget: &mut Budget) {
    let mut s = raw.trim();
    for (open, close) in [
        ("<!--", "-->"),
        ("//<![CDATA[", "//]]>"),
        ("<![CDATA[", "]]>"),
    ] {
        if let Some(r) = s.strip_prefix(open) {
            s = r.trim_start();
            if let Some(r) = s.strip_suffix(close) {
                s = r.trim_end();
            }
        }
    }
    if s.is_empty() || s.len() > LD_MAX_SCRIPT || budget.scripts >= LD_MAX_SCRIPTS {
        return;
    }
    if budget.bytes + s.len() > LD_MAX_TOTAL {
        // The page's JSON-LD budget is spent: no later script is read either.
        budget.bytes = LD_MAX_TOTAL;
        return;
    }
    budget.scripts += 1;
    budget.bytes += s.len();
    // serde_json stops at 128 levels of nesting (its recursion limit, on by default).
    let Ok(value) = serde_json::from_str::<Value>(s) else {
        return;
    };
    ld_walk(&value, ld, budget);
}

fn ld_types(o: &serde_json::Map<String, Value>) -> Vec<String> {
    match o.get("@type") {
        Some(Value::String(t)) => vec![t.to_ascii_lowercase()],
        Some(Value::Array(a)) => a
            .iter()
            .filter_map(Value::as_str)
            .map(str::to_ascii_lowercase)
            .collect(),
        _ => Vec::new(),
    }
}

fn ld_walk(root: &Value, ld: &mut Ld, budget: &mut Budget) {
    let mut stack = vec![root];
    while let Some(v) = stack.pop() {
        if budget.nodes >= LD_MAX_NODES {
            return;
        }
        budget.nodes += 1;
        match v {
            Value::Array(a) => stack.extend(a.iter().rev()),
            Value::Object(o) => {
                let types = ld_types(o);
                let article = types.iter().any(|t| LD_ARTICLE_TYPES.contains(&t.as_str()));
                let page_like = article || types.is_empty();
                if types.iter().any(|t| t == "person")
                    && ld.people.len() < LIST_MAX
                    && let (Some(id), Some(name)) =
                        (o.get("@id").and_then(Value::as_str), ld_str(o.get("name")))
                {
                    ld.people.push((id.to_string(), name));
                }
                if types.iter().any(|t| t == "website") && ld.website.is_none() {
                    ld.website = ld_str(o.get("name"));
                }
                if page_like {
                    if ld.headline.is_none() && article {
                        ld.headline = ld_str(o.get("headline"));
                    }
                    if ld.published.is_none() {
                        if ld.created.is_none() && article {
                            ld.created = ld_str(o.get("dateCreated"));
                        }
                        ld.published = ld_str(o.get("datePublished"))
                            .or_else(|| article.then(|| ld_str(o.get("dateCreated"))).flatten());
                    }
                    if ld.modified.is_none() {
                        ld.modified =
                            ld_str(o.get("dateModified")).or_else(|| ld_str(o.get("lastReviewed")));
                    }
                    if ld.authors.is_empty()
                        && ld.org_authors.is_empty()
                        && ld.author_refs.is_empty()
                        && let Some(a) = o.get("author").or_else(|| o.get("creator"))
                    {
                        ld_authors(a, ld);
                    }
                    if ld.publisher.is_none()
                        && let Some(p) = o.get("publisher")
                    {
                        let mut v = Vec::new();
                        ld_names(p, &mut v);
                        ld.publisher = v.into_iter().next();
                    }
                    if ld.description.is_none() && article {
                        ld.description = ld_str(o.get("description"));
                    }
                    if ld.image.is_none() && article {
                        ld.image = o.get("image").and_then(ld_url);
                    }
                    if ld.sections.is_empty() && article {
                        ld_list(o.get("articleSection"), &mut ld.sections);
                    }
                    if ld.keywords.is_empty() && article {
                        ld_list(o.get("keywords"), &mut ld.keywords);
                    }
                }
                // Descend into containers (@graph, mainEntity...), not into the fields read.
                for (k, child) in o.iter().rev() {
                    if matches!(child, Value::Array(_) | Value::Object(_))
                        && !matches!(k.as_str(), "author" | "creator" | "publisher" | "image")
                    {
                        stack.push(child);
                    }
                }
            }
            _ => {}
        }
    }
}

fn ld_str(v: Option<&Value>) -> Option<String> {
    match v? {
        Value::String(s) => Some(clean(s)).filter(|s| !s.is_empty()),
        Value::Array(a) => a.iter().find_map(|x| ld_str(Some(x))),
        _ => None,
    }
}

fn ld_url(v: &Value) -> Option<String> {
    match v {
        Value::String(s) => Some(s.trim().to_string()).filter(|s| !s.is_empty()),
        Value::Array(a) => a.iter().take(LIST_MAX).find_map(ld_url),
        Value::Object(o) => o
            .get("url")
            .or_else(|| o.get("contentUrl"))
            .and_then(ld_url),
        _ => None,
    }
}

/// The names of an `author` value into `ld.authors`, or `ld.org_authors` for organizations.
fn ld_authors(v: &Value, ld: &mut Ld) {
    let items: Vec<&Value> = match v {
        Value::Array(a) => a.iter().take(LIST_MAX).collect(),
        v => vec![v],
    };
    for item in items {
        // `{"@id": ".../#/schema/person/..."}`: a reference to a Person elsewhere in the graph
        // (Yoast's JSON-LD), resolved once every script is read ([`Ld::resolve_authors`]).
        if let Value::Object(o) = item
            && o.get("name").is_none()
            && let Some(id) = o.get("@id").and_then(Value::as_str)
        {
            if ld.author_refs.len() < LIST_MAX {
                ld.author_refs.push(id.to_string());
            }
            continue;
        }
        let org = matches!(item, Value::Object(o) if ld_types(o).iter().any(|t| t == "organization" || t == "newsmediaorganization"));
        ld_names(
            item,
            if org {
                &mut ld.org_authors
            } else {
                &mut ld.authors
            },
        );
    }
}

/// Names of a person/organization value: a string, `{name}`, or an array of them.
fn ld_names(v: &Value, out: &mut Vec<String>) {
    match v {
        Value::String(s) => {
            let s = strip_by(&clean(s));
            if !s.is_empty() && !s.starts_with("http") && !out.contains(&s) {
                out.push(s);
            }
        }
        Value::Object(o) => {
            if let Some(n) = o.get("name")
                && !matches!(n, Value::Array(_) | Value::Object(_))
            {
                ld_names(n, out);
            }
        }
        Value::Array(a) => {
            for x in a.iter().take(LIST_MAX) {
                if !matches!(x, Value::Array(_)) {
                    ld_names(x, out);
                }
            }
        }
        _ => {}
    }
}

fn ld_list(v: Option<&Value>, out: &mut Vec<String>) {
    match v {
        Some(Value::String(s)) => out.extend(
            s.split(',')
                .map(clean)
                .filter(|s| !s.is_empty())
                .take(LIST_MAX),
        ),
        Some(Value::Array(a)) => out.extend(
            a.iter()
                .filter_map(Value::as_str)
                .map(clean)
                .filter(|s| !s.is_empty())
                .take(LIST_MAX),
        ),
        _ => {}
    }
}

// ---- Dates ----

fn ymd(y: u32, m: u32, d: u32) -> Option<String> {
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
pub const MONTHS: &[(&str, u32)] = &[
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
pub fn iso_date(s: &str) -> Option<String> {
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
fn month_name_date(s: &str) -> Option<String> {
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

fn is_date_sep(g: &str) -> bool {
    matches!(g, "-" | "/" | "." | "年" | "月" | "_" | ". ")
}

/// A run of ASCII digits: its value, length and byte span.
struct Num {
    v: u32,
    len: usize,
    start: usize,
    end: usize,
}

/// The first runs of ASCII digits in `s` (at most 8).
fn numbers(s: &str) -> Vec<Num> {
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
fn with_time(s: &str, date: String, last: &Num, rest: &[Num]) -> String {
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

fn clean(raw: &str) -> String {
    let mut decoded = String::with_capacity(raw.len());
    entities::decode_into(raw, &mut decoded);
    let out = decoded.split_whitespace().collect::<Vec<_>>().join(" ");
    crate::output::nfc(out)
}

fn truncate_chars(s: String, max: usize) -> String {
    match s.char_indices().nth(max) {
        Some((i, _)) => s[..i].to_string(),
        None => s,
    }
}

/// Keeps the first of each value (case-insensitively), at most [`LIST_MAX`].
fn dedup(v: Vec<String>) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for s in v {
        let s = s.trim().to_string();
        if !s.is_empty() && !out.iter().any(|o| o.eq_ignore_ascii_case(&s)) && out.len() < LIST_MAX
        {
            out.push(s);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::html::{Arena, Document};

    /// The metadata of `html`, with `text` as the extracted text.
    fn meta_of(html: &str, text: &str) -> Metadata {
        let arena = Arena::new();
        let doc = Document::parse(html, &arena);
        read(&doc, text, None)
    }

    fn meta(html: &str) -> Metadata {
        meta_of(html, "")
    }

    fn ld(json: &str) -> String {
        format!("<html><head><script type=\"application/ld+json\">{json}</script></head></html>")
    }

    #[test]
    fn title_loses_the_site_name_at_its_separator() {
        let m = meta(
            "<title>Stadia Review: So Many Ways to Play - WSJ</title>\
             <meta property=og:site_name content=WSJ>",
        );
        assert_eq!(
            m.title.as_deref(),
            Some("Stadia Review: So Many Ways to Play")
        );
        assert_eq!(m.sitename.as_deref(), Some("WSJ"));
        for (t, want) in [
            ("The Verge | A phone review", "A phone review"),
            ("A phone review — The Verge", "A phone review"),
            ("A phone review · Tech · The Verge", "A phone review · Tech"),
            ("The Verge: A phone review", "A phone review"),
        ] {
            let m = meta(&format!(
                "<title>{t}</title><meta property=og:site_name content='The Verge'>"
            ));
            assert_eq!(m.title.as_deref(), Some(want), "{t}");
        }
        // A headline that mentions the site keeps it.
        let m = meta(
            "<title>The Guardian view on Hong Kong: a city on the brink | The Guardian</title>\
             <meta property=og:site_name content='The Guardian'>",
        );
        assert_eq!(
            m.title.as_deref(),
            Some("The Guardian view on Hong Kong: a city on the brink")
        );
    }

    #[test]
    fn og_title_first_and_a_title_that_is_only_the_site_name_gives_way() {
        let m = meta(
            "<title>Story of the day | Daily</title><meta property=og:title content='Story of the day'>",
        );
        assert_eq!(m.title.as_deref(), Some("Story of the day"));
        let m = meta(&format!(
            "<title>Example News</title><meta property=og:site_name content='Example News'>{}",
            ld(r#"{"@type":"NewsArticle","headline":"Bridge opens"}"#)
        ));
        assert_eq!(m.title.as_deref(), Some("Bridge opens"));
    }

    #[test]
    fn an_svg_title_never_wins() {
        let m = meta(
            "<html><head><meta property=og:title content='The real title'></head><body>\
             <a href=/><svg><title>Logo</title></svg></a><h1>Heading</h1></body></html>",
        );
        assert_eq!(m.title.as_deref(), Some("The real title"));
        let m = meta("<body><a href=/><svg><title>Logo</title></svg></a><h1>Heading</h1></body>");
        assert_eq!(m.title.as_deref(), Some("Heading"));
    }

    #[test]
    fn author_from_json_ld_meta_and_byline() {
        let m = meta(&ld(
            r#"{"@type":"Article","author":[{"@type":"Person","name":"Ann Lee"},{"@type":"Person","name":"Bo Chen"}]}"#,
        ));
        assert_eq!(m.author.as_deref(), Some("Ann Lee; Bo Chen"));
        let m = meta("<meta name=author content='Jane Doe'>");
        assert_eq!(m.author.as_deref(), Some("Jane Doe"));
        let m = meta(
            "<body><div class=comments><span class=author>Troll</span></div>\
             <p class=byline>By Sam Roe Published 10:02 AM EST Nov 19, 2019</p></body>",
        );
        assert_eq!(m.author.as_deref(), Some("Sam Roe"));
        // An organization as the JSON-LD author ranks below a person's byline.
        let m = meta(&format!(
            "{}<body><a rel=author href=/x>Pat Kim</a></body>",
            ld(r#"{"@type":"NewsArticle","author":{"@type":"Organization","name":"Reuters"}}"#)
        ));
        assert_eq!(m.author.as_deref(), Some("Pat Kim"));
        // The publisher after the names goes: the site name, a news agency.
        let m = meta(
            "<meta property=og:site_name content='Florida Today'>\
             <meta name=author content='Elliot Brownstein, Florida Today'>",
        );
        assert_eq!(m.author.as_deref(), Some("Elliot Brownstein"));
        let m = meta("<meta name=author content='Tom Davies Associated Press'>");
        assert_eq!(m.author.as_deref(), Some("Tom Davies"));
        let m = meta("<meta name=author content='Tom Knap'>");
        assert_eq!(m.author.as_deref(), Some("Tom Knap"));
        let m = meta("<meta name=author content='Reuters'>");
        assert_eq!(m.author.as_deref(), Some("Reuters"));
    }

    #[test]
    fn date_sources_in_their_order() {
        // JSON-LD first on the same day; of different days, the earliest declaration (a later
        // `datePublished` is a republication).
        let m = meta(&format!(
            "<meta property=article:published_time content=2020-06-16>{}",
            ld(r#"{"@type":"NewsArticle","datePublished":"2020-06-16T02:31:00+08:00"}"#)
        ));
        assert_eq!(m.date.as_deref(), Some("2020-06-16T02:31:00+08:00"));
        assert_eq!(m.date_source, Some(DATE_PUBLISHED));
        let m = meta(&format!(
            "<meta property=article:published_time content=2020-01-02>{}",
            ld(r#"{"@type":"NewsArticle","datePublished":"2020-06-16T02:31:00+08:00"}"#)
        ));
        assert_eq!(m.date.as_deref(), Some("2020-01-02"));
        let m = meta(&ld(
            r#"{"@type":"Article","datePublished":"2025-11-29","dateCreated":"2025-08-08"}"#,
        ));
        assert_eq!(m.date.as_deref(), Some("2025-08-08"));
        // `property` and `itemprop` on one element: found under either.
        let m =
            meta("<meta property=article:published itemprop=datePublished content='2020-06-16'>");
        assert_eq!(m.date.as_deref(), Some("2020-06-16"));
        let m = meta("<meta name=foo itemprop=datePublished content='2021-03-04T05:06Z'>");
        assert_eq!(m.date.as_deref(), Some("2021-03-04T05:06Z"));
        let m = meta("<meta name=DC.date.issued content=2019-11-19><time datetime=2018-01-01>");
        assert_eq!(m.date.as_deref(), Some("2019-11-19"));
        let m = meta(
            "<body><time datetime=2018-01-02>x</time><time pubdate datetime=2018-03-04>y</time>",
        );
        assert_eq!(m.date.as_deref(), Some("2018-03-04"));
        assert_eq!(m.date_source, Some(DATE_PUBLISHED));
        let m = meta("<body><time datetime=2018-01-02>x</time>");
        assert_eq!(m.date_source, Some(DATE_TIME));
        let m = meta("<link rel=canonical href='https://x.org/2020/06/16/story/'>");
        assert_eq!(
            (m.date.as_deref(), m.date_source),
            (Some("2020-06-16"), Some(DATE_URL))
        );
        // The modified date of a page that states no publication date.
        let m = meta("<meta property=article:modified_time content=2021-02-03T04:05Z>");
        assert_eq!(m.date_source, Some(DATE_FROM_MODIFIED));
        // Guesses: a date-named element, then a short text.
        let m = meta("<body><span class=article-publish-date>November 19, 2019, 9:02 AM</span>");
        assert_eq!(
            (m.date.as_deref(), m.date_source),
            (Some("2019-11-19"), Some(DATE_TEXT))
        );
        let m = meta("<body><p>Posted on 16. März 2020</p>");
        assert_eq!(m.date.as_deref(), Some("2020-03-16"));
        // The last guess: a date key in a script's JSON state, quotes escaped or not.
        let m =
            meta(r#"<script>window.s = "{\"publishedAt\":\"2021-05-06T07:08:09Z\"}";</script>"#);
        assert_eq!(
            (m.date.as_deref(), m.date_source),
            (Some("2021-05-06T07:08:09Z"), Some(DATE_SCRIPT))
        );
        let m = meta(
            r#"<script>x = {"created_at": "2019-02-03", "publish_date": "2020-01-02"}</script>"#,
        );
        assert_eq!(m.date.as_deref(), Some("2019-02-03"));
    }

    #[test]
    fn dates_are_normalized_to_iso() {
        for (raw, want) in [
            ("2020年06月16日 02:31", Some("2020-06-16T02:31")),
            ("2020-06-16", Some("2020-06-16")),
            (
                "2020-06-16T02:31:05.123+0200",
                Some("2020-06-16T02:31:05+02:00"),
            ),
            ("2020-06-16 02:31:05Z", Some("2020-06-16T02:31:05Z")),
            ("2020/6/16", Some("2020-06-16")),
            ("20200616", Some("2020-06-16")),
            ("16.06.2020", Some("2020-06-16")),
            ("06/16/2020", Some("2020-06-16")),
            ("05/06/2020", None),
            ("June 16, 2020", Some("2020-06-16")),
            ("Tue, 16 Jun 2020 02:31:00 GMT", Some("2020-06-16")),
            ("16 juin 2020", Some("2020-06-16")),
            ("2020-02-30", None),
            ("1850-01-01", None),
            ("mayor 12 said 2020", None),
            ("", None),
        ] {
            assert_eq!(iso_date(raw).as_deref(), want, "{raw}");
        }
        assert_eq!(
            url_date("https://a.com/2020/06/16/x").as_deref(),
            Some("2020-06-16")
        );
        assert_eq!(
            url_date("https://a.com/news/20200616/x").as_deref(),
            Some("2020-06-16")
        );
        assert_eq!(url_date("https://a.com/x?d=2020/06/16"), None);
        assert_eq!(url_date("https://a.com/id/1234567890"), None);
    }

    #[test]
    fn sitename_description_image_categories_tags() {
        let m = meta(
            "<meta name=description content='Short summary.'>\
             <meta property=og:image content=https://a.com/i.jpg>\
             <meta name=twitter:site content=@ExampleNews>\
             <meta property=article:section content=Tech>\
             <meta property=article:tag content=Phones><meta property=article:tag content=phones>\
             <meta name=keywords content='review, Android'>\
             <body><a rel='category tag' href=/c/ai>AI</a><a rel=tag href=/t/x>Gadgets</a></body>",
        );
        assert_eq!(m.sitename.as_deref(), Some("ExampleNews"));
        assert_eq!(m.description.as_deref(), Some("Short summary."));
        assert_eq!(m.image.as_deref(), Some("https://a.com/i.jpg"));
        assert_eq!(m.categories, ["Tech", "AI"]);
        assert_eq!(m.tags, ["Phones", "review", "Android", "Gadgets"]);
        let m = meta(&ld(
            r#"{"@graph":[{"@type":"WebSite","name":"Site"},{"@type":"BlogPosting","description":"D","image":{"url":"/i.png"},"articleSection":["A","B"],"keywords":"x, y"}]}"#,
        ));
        assert_eq!(m.sitename.as_deref(), Some("Site"));
        assert_eq!(m.description.as_deref(), Some("D"));
        assert_eq!(m.image.as_deref(), Some("/i.png"));
        assert_eq!(m.categories, ["A", "B"]);
        assert_eq!(m.tags, ["x", "y"]);
        let m = meta("<title>Page | example.org</title>");
        assert_eq!(m.sitename.as_deref(), Some("example.org"));
        assert_eq!(m.title.as_deref(), Some("Page"));
    }

    #[test]
    fn lang_declared_or_detected() {
        let m = meta_of("<html lang=de-AT><title>x</title>", "the English text");
        assert_eq!(
            (m.lang.as_deref(), m.lang_source),
            (Some("de-at"), Some(DECLARED))
        );
        let m = meta("<meta http-equiv=Content-Language content='fr, en'>");
        assert_eq!(
            (m.lang.as_deref(), m.lang_source),
            (Some("fr"), Some(DECLARED))
        );
        let text = "Der Gemeinderat hat am Dienstag nach einer vierstündigen Debatte den Bau der \
            neuen Brücke beschlossen, und die Arbeiten sollen im Mai beginnen, sagte die \
            Bürgermeisterin der Stadt am Abend.";
        let m = meta_of("<p>x", text);
        // Without the `lang` feature nothing is detected: `lang` is only what is declared.
        let want = if cfg!(feature = "lang") {
            (Some("de"), Some(DETECTED))
        } else {
            (None, None)
        };
        assert_eq!((m.lang.as_deref(), m.lang_source), want);
        // Too little text: no answer rather than a wrong one.
        let m = meta_of("<p>x", "OK");
        assert_eq!((m.lang, m.lang_source), (None, None));
    }

    /// [`LANGUAGES`] is whatlang's table, so that declarations read the same with and
    /// without the `lang` feature.
    #[cfg(feature = "lang")]
    #[test]
    fn languages_are_whatlangs() {
        let theirs: Vec<_> = whatlang::Lang::all()
            .iter()
            .map(|l| (l.code(), l.eng_name(), l.name()))
            .collect();
        assert_eq!(LANGUAGES, theirs.as_slice());
        for (code, _, _) in LANGUAGES {
            assert_eq!(
                whatlang::Lang::from_code(*code).map(|l| l.code()),
                Some(*code)
            );
        }
    }

    #[test]
    fn lang_is_a_lower_case_bcp47_tag_from_every_form() {
        for (raw, want) in [
            ("en", Some("en")),
            ("EN", Some("en")),
            ("en_US", Some("en-us")),
            ("en-US", Some("en-us")),
            ("en-gb", Some("en-gb")),
            (" pt-BR ", Some("pt-br")),
            ("zh-Hant-TW", Some("zh-hant-tw")),
            ("es-419", Some("es-419")),
            ("de-DE-1996", Some("de-de-1996")),
            ("en-US,en;q=0.9", Some("en-us")),
            ("fr, en", Some("fr")),
            ("en-US-x-private", Some("en-us")),
            ("eng", Some("en")),
            ("jpn", Some("ja")),
            ("ger", Some("de")),
            ("iw", Some("he")),
            ("fil", Some("fil")),
            ("Japanese", Some("ja")),
            ("english", Some("en")),
            ("Deutsch", Some("de")),
            ("Русский", Some("ru")),
            ("Chinese", Some("zh")),
            // No language: a placeholder, a country, a charset, nothing.
            ("x-default", None),
            ("und", None),
            ("jp", None),
            ("utf-8", None),
            ("", None),
            ("{{lang}}", None),
            ("Klingonese", None),
        ] {
            assert_eq!(lang_tag(raw).as_deref(), want, "{raw:?}");
        }
    }

    #[test]
    fn lang_from_each_declaration_normalized_the_unknown_passed_over() {
        let lang = |html: &str| {
            let m = meta(html);
            (m.lang, m.lang_source)
        };
        let declared = |l: &str| (Some(l.to_string()), Some(DECLARED));
        assert_eq!(lang("<html lang=EN_us><p>x"), declared("en-us"));
        assert_eq!(
            lang("<meta http-equiv=content-language content='de-DE'>"),
            declared("de-de")
        );
        assert_eq!(lang("<meta name=language content=English>"), declared("en"));
        assert_eq!(
            lang("<meta name=dc.language content=Japanese>"),
            declared("ja")
        );
        assert_eq!(
            lang("<meta property=og:locale content=en_GB>"),
            declared("en-gb")
        );
        // An unrecognisable declaration gives way to the next source.
        assert_eq!(
            lang("<html lang=x-default><meta property=og:locale content=ja_JP>"),
            declared("ja-jp")
        );
        assert_eq!(
            lang("<html lang=jp><meta name=language content=ko>"),
            declared("ko")
        );
        assert_eq!(lang("<html lang=utf-8><p>x"), (None, None));
        // The declared `en-US` still reads `05/10/2018` month first.
        assert_eq!(
            meta("<html lang=EN_US><body><b>05/10/2018</b>")
                .date
                .as_deref(),
            Some("2018-05-10")
        );
    }

    #[test]
    fn url_is_the_canonical_then_og_url_resolved() {
        let url = |html: &str, input: Option<&str>| {
            let arena = Arena::new();
            let doc = Document::parse(html, &arena);
            read(&doc, "", input).url
        };
        let canon = "<link rel=canonical href='https://www.example.org/a/story?id=1&amp;p=2'>";
        assert_eq!(
            url(canon, None).as_deref(),
            Some("https://www.example.org/a/story?id=1&p=2")
        );
        // Canonical before og:url.
        let both = "<meta property=og:url content='https://example.org/og'>\
                    <link rel=canonical href='https://example.org/canonical'>";
        assert_eq!(
            url(both, None).as_deref(),
            Some("https://example.org/canonical")
        );
        // Relative: resolved against <base href>, else the caller's URL, else dropped.
        let rel = "<link rel=canonical href='/news/1'>";
        assert_eq!(url(rel, None), None);
        assert_eq!(
            url(rel, Some("http://example.org/x/y?z")).as_deref(),
            Some("http://example.org/news/1")
        );
        assert_eq!(
            url(&format!("<base href='https://example.com/a/'>{rel}"), None).as_deref(),
            Some("https://example.com/news/1")
        );
        assert_eq!(
            url(
                "<base href='/b/'><link rel=canonical href='c'>",
                Some("https://x.org/a")
            )
            .as_deref(),
            Some("https://x.org/b/c")
        );
        // Protocol-relative without a base: https.
        assert_eq!(
            url("<link rel=canonical href='//example.net/p'>", None).as_deref(),
            Some("https://example.net/p")
        );
        // Not http(s), no host, unparseable: the next source, or nothing.
        for bad in [
            "javascript:void(0)",
            "about:blank",
            "mailto:a@example.org",
            "https://",
            "http://exa mple.org/",
            "http://[::1",
            "http://localhost/a",
        ] {
            let html = format!(
                "<link rel=canonical href='{bad}'><meta property=og:url content='https://example.org/og'>"
            );
            assert_eq!(
                url(&html, None).as_deref(),
                Some("https://example.org/og"),
                "{bad}"
            );
            assert_eq!(
                url(&format!("<link rel=canonical href='{bad}'>"), None),
                None,
                "{bad}"
            );
        }
        // The host of the page's URL is the site name of last resort.
        assert_eq!(
            meta("<base href='https://www.example.com/'><link rel=canonical href=/a>")
                .sitename
                .as_deref(),
            Some("example.com")
        );
    }

    #[test]
    fn sitename_is_never_a_url_or_a_slug() {
        let site = |html: &str| meta(html).sitename;
        assert_eq!(
            site("<meta property=og:site_name content='https://www.newsnation.in'>").as_deref(),
            Some("newsnation.in")
        );
        assert_eq!(
            site("<meta property=og:site_name content='www.example.co.uk'>").as_deref(),
            Some("example.co.uk")
        );
        // A handle or a slug is passed over for the next source, here the canonical's host.
        let canon = "<link rel=canonical href='https://www.wday.ru/a'>";
        assert_eq!(
            site(&format!("<meta name=twitter:site content='@Wday_'>{canon}")).as_deref(),
            Some("wday.ru")
        );
        assert_eq!(
            site(&format!(
                "<meta property=og:site_name content='my-news-site'>{canon}"
            ))
            .as_deref(),
            Some("wday.ru")
        );
        assert_eq!(site("<meta name=twitter:site content='@Wday_'>"), None);
        // A URL with a path links elsewhere: the next source.
        assert_eq!(
            site(&format!(
                "<meta name=publisher content='https://www.facebook.com/wday'>{canon}"
            ))
            .as_deref(),
            Some("wday.ru")
        );
        // Names stay: a hyphen inside a capitalized name, a handle that is a word.
        assert_eq!(
            site("<meta property=og:site_name content='Spiegel-Online'>").as_deref(),
            Some("Spiegel-Online")
        );
        assert_eq!(
            site("<meta name=twitter:site content='@nytimes'>").as_deref(),
            Some("nytimes")
        );
        // The site name is still cut from the title when it came from a URL.
        let m = meta(
            "<title>Oxygen bars | newsnation.in</title>\
             <meta property=og:site_name content='https://www.newsnation.in'>",
        );
        assert_eq!(m.title.as_deref(), Some("Oxygen bars"));
    }

    #[test]
    fn authors_are_people_without_labels() {
        let author = |a: &str| meta(&format!("<meta name=author content='{a}'>")).author;
        for (a, want) in [
            ("Текст: Венера Ерофеева", Some("Венера Ерофеева")),
            (
                "Photos: Jane Doe; Text: John Roe",
                Some("Jane Doe; John Roe"),
            ),
            ("Text und Fotos: Max Muster", Some("Max Muster")),
            ("Recipe by PJ Hamel", Some("PJ Hamel")),
            ("Insights from Liza Burke", None),
            ("The Russian and Syrian defense ministries", None),
            ("The Editors", None),
            ("The\u{a0}Editors", None),
            ("The Associated Press", Some("The Associated Press")),
            ("Staff reporter", None),
            ("Jane Doe; the editorial team", Some("Jane Doe")),
            ("Troy L. Smith, Cleveland.com", Some("Troy L. Smith")),
            // Names that stay as they are.
            ("Ludwig van Beethoven", Some("Ludwig van Beethoven")),
            ("Ahmad al-Sharif", Some("Ahmad al-Sharif")),
            ("Oscar de la Hoya", Some("Oscar de la Hoya")),
            ("Dr. med. Anna Roth", Some("Dr. med. Anna Roth")),
            ("Jane Doe and John Roe", Some("Jane Doe and John Roe")),
            ("rmb", Some("rmb")),
            ("bell hooks", Some("bell hooks")),
            ("王小明", Some("王小明")),
        ] {
            assert_eq!(author(a).as_deref(), want, "{a}");
        }
        // An author who is the site is kept: on a personal site it is the person.
        let m = meta(
            "<meta property=og:site_name content='Rick Steves'>\
             <meta name=author content='Rick Steves'>",
        );
        assert_eq!(m.author.as_deref(), Some("Rick Steves"));
    }

    #[test]
    fn hostile_json_ld_is_bounded() {
        // The date JSON-LD declares (not the script-key guess, which reads any script's text
        // without parsing it: bounded by its own caps).
        let declared_date = |html: &str| {
            Some(meta(html))
                .filter(|m| m.date_source == Some(DATE_PUBLISHED))?
                .date
        };
        // Broken JSON, comment-wrapped JSON, a non-object: nothing, or what parses.
        let m = meta(&ld(r#"{"@type":"Article","headline":"Half"#));
        assert_eq!(m.title, None);
        let m = meta(&ld(r#"<!-- {"@type":"Article","headline":"Wrapped"} -->"#));
        assert_eq!(m.title.as_deref(), Some("Wrapped"));
        let m = meta(&ld("42"));
        assert_eq!(m, Metadata::default());
        // Deeper than serde_json's recursion limit: refused, no stack overflow.
        let deep = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
        assert_eq!(declared_date(&ld(&deep)), None);
        let deep_ok = format!(
            "{}{{\"@type\":\"Article\",\"datePublished\":\"2020-01-02\"}}{}",
            "[".repeat(100),
            "]".repeat(100)
        );
        assert_eq!(declared_date(&ld(&deep_ok)).as_deref(), Some("2020-01-02"));
        // Larger than the per-script cap: not read.
        let pad = "x".repeat(LD_MAX_SCRIPT);
        let huge = format!(r#"{{"@type":"Article","datePublished":"2020-01-02","pad":"{pad}"}}"#);
        assert_eq!(declared_date(&ld(&huge)), None);
        // Items past the visit cap are not looked at.
        let many = format!(
            "[{}{{\"@type\":\"Article\",\"datePublished\":\"2020-01-02\"}}]",
            "{},".repeat(LD_MAX_NODES)
        );
        assert_eq!(declared_date(&ld(&many)), None);
        // Scripts past the count cap are not read; those before it are.
        let one = r#"<script type="application/ld+json">{"x":1}</script>"#;
        let last = r#"<script type="application/ld+json">{"@type":"Article","datePublished":"2020-01-02"}</script>"#;
        let page = format!("{}{last}", one.repeat(LD_MAX_SCRIPTS));
        assert_eq!(declared_date(&page), None);
        let page = format!("{}{last}", one.repeat(LD_MAX_SCRIPTS - 1));
        assert_eq!(declared_date(&page).as_deref(), Some("2020-01-02"));
        // The total cap: many scripts just under the per-script cap.
        let big = format!(
            r#"<script type="application/ld+json">{{"pad":"{}"}}</script>"#,
            "x".repeat(LD_MAX_SCRIPT - 100)
        );
        let page = format!("{}{last}", big.repeat(LD_MAX_TOTAL / LD_MAX_SCRIPT));
        assert_eq!(declared_date(&page).as_deref(), Some("2020-01-02"));
        let page = format!("{}{last}", big.repeat(LD_MAX_TOTAL / LD_MAX_SCRIPT + 1));
        assert_eq!(declared_date(&page), None);
    }

    #[test]
    fn a_utc_time_stamp_gives_way_to_the_urls_local_day() {
        let page = |stamp: &str, url: &str| {
            format!(
                "<link rel=canonical href='{url}'>{}",
                ld(&format!(
                    r#"{{"@type":"NewsArticle","datePublished":"{stamp}"}}"#
                ))
            )
        };
        // 01:50 UTC on the 20th is the evening of the 19th west of UTC, as the URL files it.
        let m = meta(&page(
            "2019-11-20T01:50:59Z",
            "https://x.com/2019/11/19/story/",
        ));
        assert_eq!(
            (m.date.as_deref(), m.date_source),
            (Some("2019-11-19"), Some(DATE_PUBLISHED))
        );
        // East of UTC: 22:00 UTC on the 31st is the 1st of the next year.
        let m = meta(&page(
            "2019-12-31T22:00:00+00:00",
            "https://x.com/2020/01/01/a/",
        ));
        assert_eq!(m.date.as_deref(), Some("2020-01-01"));
        // A time stamp with its own offset is already local; a UTC one at noon is no evening
        // of the day before; a URL two days off is another date.
        for (stamp, url) in [
            ("2019-11-20T01:50:59-05:00", "https://x.com/2019/11/19/s/"),
            ("2019-11-20T13:00:00Z", "https://x.com/2019/11/19/s/"),
            ("2019-11-21T01:50:59Z", "https://x.com/2019/11/19/s/"),
        ] {
            assert_eq!(meta(&page(stamp, url)).date.as_deref(), Some(stamp));
        }
        // The caller's URL counts as the page's.
        let arena = Arena::new();
        let html = ld(r#"{"@type":"NewsArticle","datePublished":"2019-11-19T04:58:46Z"}"#);
        let doc = Document::parse(&html, &arena);
        let m = read(&doc, "", Some("https://t.com/2019/11/18/a/"));
        assert_eq!(m.date.as_deref(), Some("2019-11-18"));
        let m = read(
            &Document::parse("<p>x", &arena),
            "",
            Some("https://t.com/2019/11/18/a/"),
        );
        assert_eq!(m.date_source, Some(DATE_URL));
    }

    #[test]
    fn last_guesses_markup_link_copyright() {
        let src = |html: &str| {
            let m = meta(html);
            (m.date, m.date_source)
        };
        let some = |d: &str, s| (Some(d.to_string()), Some(s));
        assert_eq!(
            src(r#"<script>var c = {"issuedAt":"2026-03-05T12:16:07Z"}</script><p>© 2024"#),
            some("2026-03-05", DATE_MARKUP)
        );
        assert_eq!(
            src("<body><a href='/blog/2019/01/31/post/'>x</a>"),
            some("2019-01-31", DATE_LINK)
        );
        assert_eq!(
            src("<body><img src='/wp-content/uploads/2023/10/a.png'>"),
            some("2023-10-01", DATE_LINK)
        );
        assert_eq!(
            src("<body><p>© 2019–2024 Example Media"),
            some("2024-01-01", DATE_COPYRIGHT)
        );
        // The year in the next text node; a mark without a year near it gives nothing.
        assert_eq!(
            src("<body><footer>© <a>Example Media</a> 2022. All rights reserved."),
            some("2022-01-01", DATE_COPYRIGHT)
        );
        assert_eq!(
            src("<body><p>Copyright Example Media Group, all rights reserved, since forever, 2020"),
            (None, None)
        );
        // A file older than the page's copyright year is not the page's date.
        assert_eq!(
            src("<body><img src='/uploads/2019/03/a.png'><p>Copyright 2024 Example"),
            some("2024-01-01", DATE_COPYRIGHT)
        );
        // Hostile: digits everywhere stay linear, and an endless copyright line is bounded.
        let digits = "2020-01-0".repeat(200_000);
        assert_eq!(markup_date(&digits, true), None);
        assert_eq!(copyright_year(&format!("© {}", "1".repeat(100_000))), None);
    }

    #[test]
    fn a_date_that_reads_both_ways_is_read_by_the_language() {
        let date = |lang: &str| meta(&format!("<html lang={lang}><body><b>05/10/2018</b>")).date;
        assert_eq!(date("pt-BR").as_deref(), Some("2018-10-05"));
        assert_eq!(date("en-GB").as_deref(), Some("2018-10-05"));
        assert_eq!(date("en-US").as_deref(), Some("2018-05-10"));
        assert_eq!(date("en"), None);
        // One reading impossible: no language needed.
        assert_eq!(
            meta("<body><b>25/10/2018</b>").date.as_deref(),
            Some("2018-10-25")
        );
    }

    #[test]
    fn authors_lose_roles_and_publishers_and_non_names_are_none() {
        let author = |html: &str| meta(html).author;
        let byline = |t: &str| author(&format!("<body><span class=byline>{t}</span>"));
        assert_eq!(
            byline("By Will Judd Former Deputy Tech Editor").as_deref(),
            Some("Will Judd")
        );
        assert_eq!(
            byline("Paul Frew , Home and Digital Security Expert").as_deref(),
            Some("Paul Frew")
        );
        assert_eq!(
            byline("Linda Rosencrance Contributing Writer").as_deref(),
            Some("Linda Rosencrance")
        );
        assert_eq!(
            byline("Authored by: Dr. Ehsan Jazini").as_deref(),
            Some("Dr. Ehsan Jazini")
        );
        // Two words are the name: a second word is never a role.
        assert_eq!(byline("Podium Staff").as_deref(), Some("Podium Staff"));
        for t in [
            "Updated",
            "Follow",
            "October",
            "billed annually, or $",
            "Home » Services",
        ] {
            assert_eq!(byline(t), None, "{t}");
        }
        // A sentence in an author box is skipped for the next byline.
        let m = meta(
            "<body><div class=author>The government has unveiled a plan to help the PV industry \
             reduce the cost of solar panels</div><a rel=author>Emiliano Bellini</a>",
        );
        assert_eq!(m.author.as_deref(), Some("Emiliano Bellini"));
        // The site name written without its space, and an agency after an article.
        let m = meta(
            "<meta property=og:site_name content=floridatoday><meta name=author content='Elliot Brownstein Florida Today'>",
        );
        assert_eq!(m.author.as_deref(), Some("Elliot Brownstein"));
        assert_eq!(
            author("<meta name=author content='The Associated Press'>").as_deref(),
            Some("The Associated Press")
        );
        // JSON-LD authors given by reference to a Person of the graph (Yoast).
        let m = meta(&ld(
            r##"{"@graph":[{"@type":"Article","author":{"@id":"https://x.org/#/p/1"}},
                {"@type":"Person","@id":"https://x.org/#/p/1","name":"Yoav Schumacher"}]}"##,
        ));
        assert_eq!(m.author.as_deref(), Some("Yoav Schumacher"));
    }

    /// Real pages of `../shared/data` (ignored when it is absent, failing then with
    /// `PITH_REQUIRE_SHARED=1`: build.rs): values read off the pages.
    #[test]
    #[cfg_attr(pith_no_shared, ignore = "needs ../shared/data")]
    fn shared_scrapinghub_pages_have_their_author_and_date() {
        let dir = std::path::Path::new(env!("PITH_TEST_SHARED_DIR")).join("data/scrapinghub/html");
        assert!(dir.is_dir(), "{} is missing", dir.display());
        for (id, title, author, date) in [
            (
                "042bb7b5fedab6eac7db576522b89b93904c237d344bcbe14a6a5ab7f7335856",
                "Google Stadia, Microsoft xCloud, Apple Arcade: So Many Ways to Play…and Pay",
                "Sarah E. Needleman",
                "2019-11-19",
            ),
            (
                "04a6711caa7c687592777718866e781e976e0fe684faebe8b3cedcef8cd0ea34",
                "Opinion | Republicans Are Following Trump to Nowhere",
                "Jamelle Bouie",
                "2019-11-19",
            ),
        ] {
            let bytes = std::fs::read(dir.join(format!("{id}.html"))).expect("page");
            let opts = crate::page::Options {
                metadata: true,
                ..Default::default()
            };
            let e = crate::page::extract(&bytes, None, &opts).expect("extracted");
            assert_eq!(e.title.as_deref(), Some(title), "{id}");
            assert_eq!(e.author.as_deref(), Some(author), "{id}");
            assert_eq!(e.date.as_deref().map(|d| &d[..10]), Some(date), "{id}");
            assert_eq!(e.lang_source, Some(DECLARED), "{id}");
        }
    }

    /// The date and author rules on the pages they were made for (`../shared/data`).
    #[test]
    #[cfg_attr(pith_no_shared, ignore = "needs ../shared/data")]
    fn shared_pages_dates_and_authors_by_the_new_rules() {
        use std::io::Read;
        let root = std::path::Path::new(env!("PITH_TEST_SHARED_DIR")).join("data");
        assert!(root.is_dir(), "{} is missing", root.display());
        let opts = crate::page::Options {
            metadata: true,
            ..Default::default()
        };
        for (page, url, author, date, source) in [
            // JSON-LD `2019-11-20T01:50:59Z`, filed under 2019-11-19 in its URL.
            (
                "scrapinghub/html/098bb3e96c0acdf36efdcde45fb9cca3f8c82c7cb2071b76097a1b96155f1eb2.html",
                None,
                None,
                "2019-11-19",
                DATE_PUBLISHED,
            ),
            // JSON-LD `2019-11-19T04:58:46Z` and a local `2019-11-18T20:58:46` declared: the
            // earliest, the day of the URL.
            (
                "scrapinghub/html/1ace8c85aaee21b9d4505eca506d50c4721c29db62848b567a9703bfe0583892.html",
                Some(
                    "https://techcrunch.com/2019/11/18/new-york-state-attorney-general-reportedly-investigating-wework/",
                ),
                None,
                "2019-11-18",
                DATE_PUBLISHED,
            ),
            // `<b>05/10/2018</b>` on a `pt-BR` page.
            (
                "scrapinghub/html/f6ac15a4d98511396da23e4428deb5605422b1c8bbc8284e771f6896bdccf57f.html",
                None,
                None,
                "2018-10-05",
                DATE_TEXT,
            ),
            // Yoast: the article's author is an `@id` of a Person in the graph.
            (
                "scrapinghub/html/57e2e98887a1965689955921208e32f410b10e2b95c907e74e57982d3edf3cc6.html",
                None,
                Some("Yoav Schumacher"),
                "",
                "",
            ),
            // `Elliot Brownstein Florida Today` on the site `floridatoday`.
            (
                "scrapinghub/html/c81e134ed49902bcf69b551426b4a346c5a77ae993cac8bda68b5541a664ef4c.html",
                None,
                Some("Elliot Brownstein"),
                "",
                "",
            ),
            // `article:published_time` 2022-05-26 beside a JSON-LD `datePublished` 2025-12-01.
            (
                "wcxb_train/html/0057.html.gz",
                None,
                None,
                "2022-05-26",
                DATE_PUBLISHED,
            ),
            // No date but `© <em>Supernatural, Inc.</em> ©<em>2022 — All rights reserved.`
            (
                "wcxb_train/html/0611.html.gz",
                None,
                None,
                "2022-01-01",
                DATE_COPYRIGHT,
            ),
        ] {
            let raw = std::fs::read(root.join(page)).expect("page");
            let bytes = if page.ends_with(".gz") {
                let mut out = Vec::new();
                flate2::read::GzDecoder::new(&raw[..])
                    .read_to_end(&mut out)
                    .expect("gzip");
                out
            } else {
                raw
            };
            let cx = crate::page::Context {
                url,
                ..Default::default()
            };
            let e = crate::page::extract_with(&bytes, &cx, &opts).expect("extracted");
            if let Some(a) = author {
                assert_eq!(e.author.as_deref(), Some(a), "{page}");
            }
            if !date.is_empty() {
                assert_eq!(e.date.as_deref().map(|d| &d[..10]), Some(date), "{page}");
                assert_eq!(e.date_source, Some(source), "{page}");
            }
        }
    }
}
