//! Every threshold, weight and word list of `auto`, in one place, each with its reason (the
//! model is trafilatura's `settings.py`). The steps read them from here; none of them writes a
//! number of its own beyond structural ones (0, 1, a bit position).
//!
//! Grouped by the step that reads them, in the order [`super::select`] runs: the modes, the
//! statistics and hints (steps 1-2), teasers, the container (step 3), recovery (step 4), and
//! the retries of [`super::extract_traced`].

use super::{Mode, Rules, Tuning};
use crate::html::tags::{Tag, flags};

/// A share of a whole, `num / den`, compared in integers (`part * den` against `whole * num`,
/// no rounding), for the rules that say "most of", "half of", "twice".
#[derive(Clone, Copy, Debug)]
pub(crate) struct Share {
    pub num: u64,
    pub den: u64,
}

impl Share {
    /// `part` is more than this share of `whole`.
    #[inline(always)]
    pub(crate) fn exceeded(self, part: u64, whole: u64) -> bool {
        part * self.den > whole * self.num
    }

    /// `part` is at least this share of `whole`.
    #[inline(always)]
    pub(crate) fn reached(self, part: u64, whole: u64) -> bool {
        part * self.den >= whole * self.num
    }
}

/// One half: "most of" is more than it.
const HALF: Share = Share { num: 1, den: 2 };

// ---------------------------------------------------------------------------------------------
// The modes: the thresholds of steps 4 to 6 per mode

/// `auto`'s default trade-off. Recovery from about two sentences (150 characters: longer than
/// captions, teasers and bylines), of prose that cites rather than lists (under 0.2 link text)
/// and whose parent is not a teaser card (a linked headline beside a summary, 0.25). A block
/// that is more than half link text is a list of links (trafilatura and jusText use the same
/// 0.5 order of magnitude for link density). The page is spread when its container holds under
/// [`SPREAD_SHARE`] of its text.
pub(crate) const BALANCED: Tuning = Tuning {
    recover_min_text: 150,
    recover_max_link_density: 0.2,
    recover_max_parent_link_density: 0.25,
    link_list_density: 0.5,
    comments: false,
    spread_share: SPREAD_SHARE,
    off: Rules::NONE,
};

/// `--precision`: only the main container (no recovery, never spread), and blocks a third
/// links are already link lists.
pub(crate) const PRECISION: Tuning = Tuning {
    recover_min_text: 0,
    recover_max_link_density: 0.0,
    recover_max_parent_link_density: 0.0,
    link_list_density: 0.33,
    comments: false,
    spread_share: 0.0,
    off: Rules::NONE,
};

/// `--recall`: one sentence (80 characters) is enough to come back, with more links in it and
/// around it (0.3, 0.4); only clear link lists (two thirds links) go; the page is spread unless
/// its container holds three quarters of its text.
pub(crate) const RECALL: Tuning = Tuning {
    recover_min_text: 80,
    recover_max_link_density: 0.3,
    recover_max_parent_link_density: 0.4,
    link_list_density: 0.66,
    comments: false,
    spread_share: 0.75,
    off: Rules::NONE,
};

/// The knobs of `mode` (comment sections not kept).
pub(crate) const fn tuning(mode: Mode) -> Tuning {
    match mode {
        Mode::Balanced => BALANCED,
        Mode::Precision => PRECISION,
        Mode::Recall => RECALL,
    }
}

/// An article's container holds most of a page's non-boilerplate text; when it holds less
/// than half, the page is something else (a listing, a product page, a collection).
pub(crate) const SPREAD_SHARE: f32 = 0.5;

// ---------------------------------------------------------------------------------------------
// Step 1: statistics

/// `<br>` and `<hr>`: a line break or a rule does not make its parent a container
/// (`text<br>text` is one paragraph), though they are blocks.
#[inline]
pub(crate) fn separator_tag(tag: Tag) -> bool {
    matches!(tag, Tag::Br | Tag::Hr)
}

// ---------------------------------------------------------------------------------------------
// Step 2: class/id hints, boilerplate tags, hiding

/// Words in class and id values that name page parts which are not main content. Sources:
/// the boilerplate classes that Readability's and trafilatura's cleaners remove, reduced to
/// words that name a page part rather than a site.
pub(crate) const NEGATIVE: &[&str] = &[
    "comment",
    "footer",
    "sidebar",
    "share",
    "sharing",
    "social",
    "related",
    "advert",
    "sponsor",
    "promo",
    "newsletter",
    "subscribe",
    "breadcrumb",
    "pagination",
    "pager",
    "widget",
    "menu",
    "navbar",
    "masthead",
    "cookie",
    "consent", // cookie-consent banners, beside Readability's "gdpr"
    "gdpr",
    "banner",
    "popup",
    "modal",
    "disqus",
    "outbrain",
    "taboola",
    "recommend",
    "most-popular",
    "trending",
    "signup",
    "login",
    "byline",
    "toolbar",
    "skip",
    // A person's profile box beside what they wrote: an author's bio card under a post, a
    // forum poster's panel (name, join date, post count), a hover card. A profile page's own
    // container says so with a content word (`profile-content`), which cancels this one.
    "profile",
];

/// Words that name the main content; they cancel a negative word on the same element
/// (`main-content comments-open`, `article-footer`, `commentText` are no verdict: a forum's
/// posts are often `comment` + `content`).
pub(crate) const POSITIVE: &[&str] = &[
    "article", "content", "entry", "post", "story", "body", "main", "text", "blog",
];

/// Class/id words about user comments (and customers' reviews of a product, its users' comments);
/// with `--comments` they are not boilerplate.
pub(crate) const COMMENT_WORDS: &[&str] = &["comment", "disqus", "review"];

/// Inline styles that hide an element, matched with blanks and case ignored. The matcher
/// (`hints::style_hides`) relies on no phrase repeating its first letter.
pub(crate) const HIDING_STYLES: [&[u8]; 2] = [b"display:none", b"visibility:hidden"];

/// Tags that are boilerplate wherever they stand: HTML's sectioning semantics (navigation,
/// asides, page header and footer), form controls' captions (`label`; `select` holds only
/// options) and figure captions (`figcaption`: a photo's description and credit, not the
/// article's text; trafilatura's cleaner drops whole `figure`s, labels too).
#[inline]
pub(crate) fn boilerplate_tag(tag: Tag) -> bool {
    matches!(
        tag,
        Tag::Nav
            | Tag::Aside
            | Tag::Footer
            | Tag::Header
            | Tag::Menu
            | Tag::Select
            | Tag::Label
            | Tag::Figcaption
    )
}

/// Boilerplate tags that are never the page's wrapper, however dense their text: a footer or a
/// menu (a market data notice longer than the story). Not `<aside>` or `<header>`: sites build
/// product sheets and hero sections with them.
#[inline]
pub(crate) fn never_main_tag(tag: Tag) -> bool {
    matches!(
        tag,
        Tag::Footer | Tag::Nav | Tag::Menu | Tag::Select | Tag::Label
    )
}

/// The document's own containers, never boilerplate whatever their class says.
#[inline]
pub(crate) fn document_tag(tag: Tag) -> bool {
    matches!(tag, Tag::Html | Tag::Body | Tag::Main | Tag::Article)
}

/// A boilerplate-looking element holding more than this share of DANAg's densest region is a
/// page wrapper with an unlucky class (`container penci_sidebar`), not a boilerplate block.
pub(crate) const WRAPPER_DANAG_SHARE: Share = HALF;

/// Class/id words that removed more than this share of the page's prose name the site's layout
/// (a builder that calls every module a `widget`), not its boilerplate, which is the minority
/// of a page's prose...
pub(crate) const CLASS_PROSE_SHARE: Share = HALF;

/// ...when they took it piecewise: no one removed region holds more than this share of it (a
/// sidebar or a footer is one region).
pub(crate) const CLASS_PROSE_REGION_SHARE: Share = HALF;

// ---------------------------------------------------------------------------------------------
// Teasers (between steps 2 and 3): linked headlines and their summaries, repeated

/// Tags of a card's title: headings and definition terms (`<dt><a>` over its `<dd>` summary).
#[inline]
pub(crate) fn title_tag(tag: Tag) -> bool {
    tag.is(flags::HEADING) || tag == Tag::Dt
}

/// A block of at least this much link text is a linked headline (a title that is the link).
pub(crate) const HEADLINE_LINK_DENSITY: f32 = 0.8;
/// A heading is a card's title from this length on: a few words, past a label ("News").
pub(crate) const TITLE_MIN_TEXT: u32 = 10;
/// A linked line outside a heading is a headline from this length on: five or six words, past
/// a name or a category label.
pub(crate) const HEADLINE_MIN_TEXT: u32 = 30;
/// Text under this many characters between a headline and its summary is a byline, a date or
/// a category label, not the summary (about half a sentence).
pub(crate) const TEASER_MIN_TEXT: u32 = 60;
/// At most this many such short blocks (a byline, a date) stand between a headline and its
/// summary.
pub(crate) const CARD_MAX_BETWEEN: u32 = 2;
/// Three cards make a list; one or two linked headlines before a paragraph are an article's
/// own title link or byline. Also the linked cards that make a page a listing for the last
/// retry.
pub(crate) const TEASER_REPEAT: usize = 3;
/// A card is small: the headline and the summary meet at most this many levels above the
/// summary.
pub(crate) const CARD_DEPTH: u64 = 3;
/// The headline may sit this many levels deeper in the card than the summary (its text inside
/// a heading and a link, `<h3><a>`): its ancestors are looked through up to
/// `CARD_DEPTH + HEADLINE_NESTING + 1` levels.
pub(crate) const HEADLINE_NESTING: u64 = 2;
/// A card's summary is mostly its own words: under half of it is link text (more, and it is
/// a list of links).
pub(crate) const SUMMARY_MAX_LINK_DENSITY: f32 = 0.5;
/// A "read more" link is short: a few words ("Read more...", "Weiterlesen", "→"), not a
/// sentence that happens to end in a link.
pub(crate) const READ_MORE_MAX_TEXT: u32 = 25;
/// The "read more" link holds its text at most this many levels up (`<a><span>Read
/// more</span></a>`).
pub(crate) const READ_MORE_DEPTH: usize = 4;
/// Nodes looked through for a headline's link (a headline is a leaf block of a few nodes).
pub(crate) const HEADLINE_SCAN: usize = 64;
/// A link holds a card when it holds this many pieces of text (a title and its details, a
/// name and its price).
pub(crate) const LINKED_CARD_PIECES: u8 = 2;

// ---------------------------------------------------------------------------------------------
// Step 3: the container, Readability's scoring

/// The shortest text that is an article on its own (Mozilla Readability's
/// `DEFAULT_CHAR_THRESHOLD`): under it the page is read again with comment sections kept
/// (a thread), teasers are content (a listing), and a first reading is retried.
pub(crate) const ARTICLE_MIN_CHARS: u64 = 500;

/// A paragraph votes from this many visible characters on (Readability's 25-character floor
/// on a paragraph, here in non-blank bytes); also what counts as article text and as prose
/// when the container climbs.
pub(crate) const PARAGRAPH_MIN_TEXT: u32 = 25;

/// The page itself, never the container: the common-ancestor rule and the climb stop below
/// `<body>` and `<html>`.
#[inline]
pub(crate) fn page_tag(tag: Tag) -> bool {
    matches!(tag, Tag::Body | Tag::Html)
}

/// Paragraph tags: they vote for their parent and grandparent.
#[inline]
pub(crate) fn paragraph_tag(tag: Tag) -> bool {
    matches!(tag, Tag::P | Tag::Pre | Tag::Td | Tag::Blockquote)
}

/// Tags that are paragraphs when no block with text stands inside them (a `<div>` of text).
#[inline]
pub(crate) fn leaf_paragraph_tag(tag: Tag) -> bool {
    matches!(
        tag,
        Tag::Div | Tag::Section | Tag::Article | Tag::Span | Tag::Font
    )
}

/// Every voting paragraph's base vote (Readability's 1 point per paragraph)...
pub(crate) const VOTE_BASE: f32 = 1.0;
/// ...plus a point for each comma, and one per this many characters...
pub(crate) const VOTE_CHARS_PER_POINT: u32 = 100;
/// ...up to this many (Readability: `Math.min(Math.floor(innerText.length / 100), 3)`).
pub(crate) const VOTE_LENGTH_POINTS_MAX: u32 = 3;
/// The grandparent gets the vote divided by this (Readability's score divider for level 1).
pub(crate) const GRANDPARENT_DIVIDER: f32 = 2.0;

/// A container's prior from its tag (Readability's `_initializeNode`): sections of a page
/// gain, preformatted and quoted text less, lists and forms lose, headings more.
#[inline]
pub(crate) fn tag_prior(tag: Tag) -> f32 {
    match tag {
        Tag::Div | Tag::Article | Tag::Main | Tag::Section => 5.0,
        Tag::Pre | Tag::Td | Tag::Blockquote => 3.0,
        Tag::Ol | Tag::Ul | Tag::Dl | Tag::Li | Tag::Form => -3.0,
        t if t.is(flags::HEADING) => -5.0,
        _ => 0.0,
    }
}

/// Points per unit of class/id verdict (+1 content, -1 boilerplate; Readability's class
/// weight, 25).
pub(crate) const CLASS_WEIGHT: f32 = 25.0;

/// The container's score is scaled by this plus the share of its text DANAg selected: half a
/// score without DANAg's region, one and a half with all of it inside.
pub(crate) const DANAG_COVER_BASE: f32 = 0.5;

/// A winner with less text than this is no container (a heading, a caption); DANAg's selection
/// is the answer then.
pub(crate) const CONTAINER_MIN_TEXT: u32 = 50;

/// Candidates kept for the common-ancestor rule, the winner included (Readability's
/// `nbTopCandidates`, 5).
pub(crate) const LEADERS: usize = 5;
/// A runner-up counts when it scores this share of the winner (Readability, 0.75).
pub(crate) const RIVAL_SHARE: f32 = 0.75;
/// Runners-up that must share an ancestor (Readability's `MINIMUM_TOPCANDIDATES`, 3).
pub(crate) const RIVALS_SHARING: usize = 3;

/// The container climbs to its parent when the parent holds at least this much of the
/// winner's prose (one and a half times: the other sections of an article cut around figures,
/// adverts, pull quotes)...
pub(crate) const CLIMB_PROSE_GAIN: Share = Share { num: 3, den: 2 };
/// ...and the parent is under this share of link text (not the page's frame with its menus).
pub(crate) const CLIMB_MAX_LINK_DENSITY: f32 = 0.35;
/// A paragraph counts as prose for the climb when under this share of it is link text.
pub(crate) const PROSE_MAX_LINK_DENSITY: f32 = 0.5;

/// A container (or a sibling of it) whose text is at least this share teaser summaries is a
/// listing, not an article.
pub(crate) const LISTING_TEASER_SHARE: Share = HALF;

/// A sibling of the container joins it when it scores this share of the winner
/// (Readability's `siblingScoreThreshold`: `Math.max(10, topCandidate.score * 0.2)`)...
pub(crate) const SIBLING_SCORE_SHARE: f32 = 0.2;
/// ...or at least this.
pub(crate) const SIBLING_MIN_SCORE: f32 = 10.0;
/// A `<p>` sibling joins with more than this much text...
pub(crate) const SIBLING_P_MIN_TEXT: u32 = 80;
/// ...under this share of links (Readability: `nodeLength > 80 && linkDensity < 0.25`), or
/// when it has no link and ends like a sentence ([`SENTENCE_ENDS`]).
pub(crate) const SIBLING_P_MAX_LINK_DENSITY: f32 = 0.25;

/// How a sentence ends, for a sibling `<p>` without links (Readability keeps a short one with a
/// period followed by a space or the end), in Latin and CJK script, closing quotes included.
pub(crate) const SENTENCE_ENDS: [char; 6] = ['.', '!', '?', '。', '"', '”'];

// ---------------------------------------------------------------------------------------------
// Step 4: recovery of prose outside the container (its thresholds are the modes')

/// Signs of a site's legal footer, which reads as prose but names its owner: a copyright sign
/// in every spelling. The scan (`recover::owner_sign`) looks for their first bytes, `©`'s
/// lead byte and `&`.
pub(crate) const COPYRIGHT_SIGNS: [&[u8]; 3] = ["©".as_bytes(), b"&copy;", b"&#169;"];

/// The other sign of a legal footer, in any case. The scan (`recover::rights_reserved`)
/// looks for its rarest letter, the `v` of "reserved" (about 1% of English letters).
pub(crate) const RIGHTS_RESERVED: &[u8] = b"all rights reserved";

// ---------------------------------------------------------------------------------------------
// The retries ([`super::extract_traced`])

/// trafilatura's `MIN_EXTRACTED_SIZE`: less text than this is a failed extraction (where it
/// falls back to other extractors), and the page's class names are not trusted.
pub(crate) const EXTRACTED_MIN_CHARS: u64 = 250;

/// A retry wins with at least this much of the first reading's text (twice): it must find what
/// the rules hid, not another part of the page of about the same size (a footer beside a
/// three-sentence story).
pub(crate) const RETRY_GAIN: Share = Share { num: 2, den: 1 };
