//! The thresholds and word lists of the metadata, each with its reason, in one place (as
//! trafilatura's settings.py keeps its own).

/// Separators between a title and the site name in `<title>`: the ones news sites, blogs and
/// CMS templates use (`Story - WSJ`, `Site | Page`, `Page — Site`, `Page · Site`, `Site: Page`).
/// Each needs the spaces around it except `:` (written `Site: Page`), so a hyphenated word or a
/// time (`10:30`) is never cut.
pub(crate) const TITLE_SEPARATORS: &[&str] = &[
    " | ", " - ", " – ", " — ", " · ", " • ", " :: ", " » ", " « ", " / ", ": ",
];

/// A title part longer than this (characters) is never taken for a site name: site names are
/// short, and cutting a long part would lose half a headline.
pub(crate) const SITENAME_MAX_CHARS: usize = 60;

/// A title part that contains the site name is the site name when it is at most this many
/// characters longer (`WSJ Tech` for `WSJ`), not a headline that mentions the site (`The
/// Guardian view on Hong Kong`).
pub(crate) const SITENAME_EXTRA_CHARS: usize = 10;

/// `<meta name|property>` naming the author (trafilatura's list, lower case).
pub(crate) const AUTHOR_META: &[&str] = &[
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
pub(crate) const AUTHOR_CLASSES: &[&str] = &[
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
pub(crate) const BYLINE_LEADS: &[&str] = &[
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
pub(crate) const BYLINE_STOPS: &[&str] = &[
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
pub(crate) const AGENCIES: &[&str] = &[
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
pub(crate) const BYLINE_MAX_WORDS: usize = 12;

/// Words that are never an author's name on their own: what a byline element holds when it
/// has no name (`Updated`, `Follow`, `Written By`), or an article before an agency (`The
/// Associated Press`).
pub(crate) const NOT_NAMES: &[&str] = &[
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
pub(crate) const ROLE_WORDS: &[&str] = &[
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
pub(crate) const ROLE_QUALIFIERS: &[&str] = &[
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
pub(crate) const AUTHOR_CHARS: std::ops::Range<usize> = 3..120;

/// Open Graph and `article:*` properties of the publication date.
pub(crate) const DATE_OG: &[&str] = &[
    "article:published_time",
    "article:published",
    "og:published_time",
    "og:article:published_time",
    "article.published",
];

/// Dublin Core names of the publication date.
pub(crate) const DATE_DC: &[&str] = &[
    "dc.date",
    "dc.date.issued",
    "dc.date.created",
    "dcterms.date",
    "dcterms.issued",
    "dcterms.created",
    "dc:date",
];

/// Other meta names publishers use for the publication date.
pub(crate) const DATE_OTHER: &[&str] = &[
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
pub(crate) const DATE_MODIFIED: &[&str] = &[
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
pub(crate) const SCRIPT_DATE_KEYS: &[&str] = &[
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
pub(crate) const SCRIPT_DATE_TRIES: usize = 20;

/// Class, id or itemprop words of elements that hold the page's date as text
/// (`<span class="article-publish-date">November 19, 2019</span>`), as htmldate looks for them.
pub(crate) const DATE_CLASSES: &[&str] = &[
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
pub(crate) const DATE_TEXT_MAX_BYTES: usize = 120;

/// A UTC time stamp before this hour (UTC) can fall on the day before in a zone west of UTC
/// (down to UTC−12): [`is_local_day_of`].
pub(crate) const UTC_WEST_HOURS: u32 = 12;
/// A UTC time stamp from this hour (UTC) on can fall on the day after in a zone east of UTC
/// (up to UTC+14).
pub(crate) const UTC_EAST_HOURS: u32 = 10;

/// Words that open a copyright notice (`© 2024`, `Copyright 2019-2024`, `(c) 2024`): its last
/// year is the page's year of last resort ([`copyright_year`]), as htmldate reads it.
pub(crate) const COPYRIGHT_MARKS: &[&str] = &["©", "&copy;", "&#169;", "copyright", "(c)"];

/// Characters between a copyright mark and its year at most (`© Example Media Group, Inc.
/// 2024`): a year further on is not the notice's.
pub(crate) const COPYRIGHT_GAP: usize = 60;

/// Text nodes after a copyright mark without a year that are read for its year (`©
/// <a>Example Media</a> 2024`).
pub(crate) const COPYRIGHT_NODES: u8 = 3;

/// Bytes of a page's source scanned for a date-time ([`markup_date`]) at most: the head
/// and the start of the body, where a render or publication time stamp is, on any page size.
pub(crate) const TIMESTAMP_SCAN_BYTES: usize = 4 << 20;

/// Years accepted in a date: before the web or far ahead is a misread number (htmldate's
/// lower bound is 1995; 1990 leaves room for archived pages about their own date).
pub(crate) const YEARS: std::ops::RangeInclusive<u32> = 1990..=2100;

/// Meta names of the publisher, for `sitename` (trafilatura's list less `twitter:site`, which
/// comes after them).
pub(crate) const SITENAME_META: &[&str] = &[
    "application-name",
    "publisher",
    "dc.publisher",
    "dcterms.publisher",
    "sailthru.publisher",
    "article:publisher",
];

/// Meta names holding keywords, for `tags`.
pub(crate) const TAG_META: &[&str] = &[
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
pub(crate) const ISO639_1: &str = "aa ab ae af ak am an ar as av ay az ba be bg bh bi bm bn bo br bs \
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
pub(crate) const LANG_ALIASES: &[(&str, &str)] = &[
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
pub(crate) const LANG_THREE_LETTER: &[&str] = &[
    "fil", "yue", "haw", "ceb", "gsw", "ast", "nds", "kok", "mai",
];

/// The languages whatlang detects: ISO 639-3 code, English name, name in the language itself
/// (whatlang's `Lang::code`, `eng_name` and `name`, in its order). Declared languages are read
/// by this table, not by whatlang, so that a build without the `lang` feature (no whatlang)
/// reads a page's declaration as the default build does; a test holds it to whatlang's.
pub(crate) const LANGUAGES: &[(&str, &str, &str)] = &[
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
pub(crate) const LANG_NAMES: &[(&str, &str)] = &[
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
pub(crate) const NAME_PARTICLES: &[&str] = &[
    "van", "von", "der", "den", "de", "del", "della", "di", "da", "das", "dos", "du", "la", "le",
    "ter", "ten", "zu", "bin", "binti", "ibn", "al", "el", "y", "e", "i", "and", "und", "et", "og",
    "och", "en", "&",
];

/// A label before a colon ahead of a name (`Текст: Венера Ерофеева`, `Photos: Jane Doe`,
/// `Text und Fotos: Max Muster`) has at most this many words; a longer head before a colon is
/// a sentence, kept as it is (and then refused as a name by its length or words).
pub(crate) const AUTHOR_LABEL_MAX_WORDS: usize = 3;

/// Bytes of one JSON-LD script read at most: real ones are a few KB; a larger one is data
/// dumped into the page, not the page's description.
pub(crate) const LD_MAX_SCRIPT: usize = 256 << 10;
/// Bytes of JSON-LD read per page in all.
pub(crate) const LD_MAX_TOTAL: usize = 1 << 20;
/// JSON-LD scripts read per page at most.
pub(crate) const LD_MAX_SCRIPTS: usize = 32;
/// JSON values visited per page at most (a flat array of millions of items is within the
/// size caps but not worth walking).
pub(crate) const LD_MAX_NODES: usize = 20_000;

/// Bytes of the extracted text given to language detection: whatlang was a quarter of
/// `--format json`'s time on CleanEval's pages (mostly undeclared) with 4 KB; its answer on the
/// first 1 KB (150-200 words) is as reliable, and the cost stays constant on long pages.
pub(crate) const DETECT_MAX_BYTES: usize = 1024;

/// Characters kept of a description (a page that puts its whole article there).
pub(crate) const DESCRIPTION_MAX_CHARS: usize = 1000;

/// Categories and tags kept at most (keyword stuffing).
pub(crate) const LIST_MAX: usize = 50;

/// JSON-LD types whose fields describe the page itself (schema.org's CreativeWork kinds pages
/// use); others (`BreadcrumbList`, `ImageObject`, `Organization`...) give only the site name.
pub(super) const LD_ARTICLE_TYPES: &[&str] = &[
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
