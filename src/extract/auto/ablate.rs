//! `auto`'s rules by name, each of which can be switched off ([`Tuning::without`]) to
//! measure what it is worth on pages no rule was written for (`pith-lab rules`,
//! `lab/train/rules.py`, docs/rules.md). Every rule is on by default; switching one off
//! changes only the decision it names, and nothing else: through the knob of [`Tuning`] that
//! already turns it off (recovery, link lists, the spread test), else at the place where the
//! decision is made. Not a user setting: the CLI has no flag for it.
//!
//! [`Tuning::without`]: super::Tuning::without
//! [`Tuning`]: super::Tuning

/// One rule of `auto`, as named in the module docs of its step.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum Rule {
    /// Step 2: class/id words that name boilerplate remove the element.
    ClassWords,
    /// Step 2: class/id words about user comments remove the comment section.
    CommentWords,
    /// Step 2: HTML's boilerplate tags (nav, aside, footer, header, label, figcaption...)
    /// remove the element.
    BoilerplateTags,
    /// Step 2: a `<header>` inside an `<article>` is that article's, not boilerplate.
    ArticleHeader,
    /// Step 2: elements the page hides (`hidden`, `aria-hidden`, `display:none`,
    /// `aria-modal`) are removed.
    Hidden,
    /// Step 2: a boilerplate-looking element holding most of DANAg's region is a wrapper.
    Wrapper,
    /// Step 2: on a page with no article outside its comment sections, they stay (a thread).
    Thread,
    /// Between steps 2 and 3: teaser summaries (a linked headline and its blurb, repeated)
    /// are neither prose for the container nor recovered beside an article.
    Teasers,
    /// Step 3: the class/id verdict weighs on a candidate's score (Readability's class weight).
    ClassPrior,
    /// Step 3: the tag prior of a candidate (Readability's `_initializeNode`).
    TagPrior,
    /// Step 3: a candidate's score is scaled by how much of its text DANAg selected.
    DanagCover,
    /// Step 3: the nearest ancestor shared by three near-winners is the container.
    CommonAncestor,
    /// Step 3: the container climbs while its parent holds clearly more prose.
    Climb,
    /// Step 3: siblings scoring close to the container, or plain paragraphs, join it.
    Siblings,
    /// Step 4: paragraphs of prose outside the container are recovered.
    Recover,
    /// Step 4: a legal notice (copyright, "all rights reserved") is never recovered.
    LegalNotice,
    /// Step 5: link-dense blocks inside the container are left out.
    LinkLists,
    /// Step 6: a page whose container holds under half of its text gives the whole page.
    Spread,
    /// Step 6: the spread test counts the container's text without the paragraphs recovered
    /// outside it (off: with them, as before this rule).
    RecoveredCount,
    /// Retry: a page under 250 characters is read again with hiding and class/id words
    /// ignored.
    RetryClasses,
    /// Retry: class/id words that removed most of the page's prose piecewise name its layout,
    /// and the page is read again without them.
    LayoutClasses,
    /// Retry: a short page of linked cards is read as a listing, its link lists kept.
    RetryListing,
}

impl Rule {
    /// Every rule, in the order of the steps.
    pub const ALL: [Rule; 22] = [
        Rule::ClassWords,
        Rule::CommentWords,
        Rule::BoilerplateTags,
        Rule::ArticleHeader,
        Rule::Hidden,
        Rule::Wrapper,
        Rule::Thread,
        Rule::Teasers,
        Rule::ClassPrior,
        Rule::TagPrior,
        Rule::DanagCover,
        Rule::CommonAncestor,
        Rule::Climb,
        Rule::Siblings,
        Rule::Recover,
        Rule::LegalNotice,
        Rule::LinkLists,
        Rule::Spread,
        Rule::RecoveredCount,
        Rule::RetryClasses,
        Rule::LayoutClasses,
        Rule::RetryListing,
    ];

    /// The rule's name in tables (`class-words`, ...).
    pub fn name(self) -> &'static str {
        match self {
            Rule::ClassWords => "class-words",
            Rule::CommentWords => "comment-words",
            Rule::BoilerplateTags => "boilerplate-tags",
            Rule::ArticleHeader => "article-header",
            Rule::Hidden => "hidden",
            Rule::Wrapper => "wrapper",
            Rule::Thread => "thread",
            Rule::Teasers => "teasers",
            Rule::ClassPrior => "class-prior",
            Rule::TagPrior => "tag-prior",
            Rule::DanagCover => "danag-cover",
            Rule::CommonAncestor => "common-ancestor",
            Rule::Climb => "climb",
            Rule::Siblings => "siblings",
            Rule::Recover => "recover",
            Rule::LegalNotice => "legal-notice",
            Rule::LinkLists => "link-lists",
            Rule::Spread => "spread",
            Rule::RecoveredCount => "recovered-count",
            Rule::RetryClasses => "retry-classes",
            Rule::LayoutClasses => "layout-classes",
            Rule::RetryListing => "retry-listing",
        }
    }

    /// The rule named `name`.
    pub fn from_name(name: &str) -> Option<Rule> {
        Rule::ALL.into_iter().find(|r| r.name() == name)
    }
}

/// A set of [`Rule`]s (one bit each); [`Rules::NONE`] by default.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Rules(u32);

impl Rules {
    /// No rule.
    pub const NONE: Rules = Rules(0);

    /// This set and `rule`.
    pub const fn with(self, rule: Rule) -> Rules {
        Rules(self.0 | 1 << rule as u8)
    }

    /// Whether `rule` is in the set.
    #[inline]
    pub const fn has(self, rule: Rule) -> bool {
        self.0 & (1 << rule as u8) != 0
    }

    /// Whether the set is empty.
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique_and_read_back() {
        for r in Rule::ALL {
            assert_eq!(Rule::from_name(r.name()), Some(r));
            let set = Rules::NONE.with(r);
            assert!(set.has(r));
            assert_eq!(Rule::ALL.iter().filter(|&&o| set.has(o)).count(), 1);
        }
        assert_eq!(Rule::from_name("no-such-rule"), None);
    }
}
