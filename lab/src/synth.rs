//! Synthetic sites with known template nodes, for the tests and `pith template eval-links`:
//! the exact node-level precision and recall that no real crawl here can give (no crawl in
//! `../shared/data` marks its template).
//!
//! A site has a home page, sections (the main menu links every section's index page from every
//! page, so the section pages form a complete subdigraph) and articles in each section (in the
//! [`Layout::Semantic`] layout a section's pages also share a submenu of its articles, as the
//! thesis' Figure 2.3 draws). Every page is a [`Layout`]'s template around slots: the
//! `<title>`, and the headline, byline, body and related links of the article skeleton (elements
//! with a `data-slot` attribute). Inside the slots everything changes from page to page (text,
//! number and kind of blocks, their classes, links); outside them nothing does, except what a
//! real template changes too: the submenu of the section, the menu item marked active, a clock
//! in the header.
//! The gold template of a page is every node outside the slots' insides ([`gold`]).
//!
//! Pages are generated from a seed with a fixed generator, so every run sees the same sites.

use pith::lab::html::Document;
use pith::lab::html::tree::{Kind, NONE};

/// The page layouts: three decades of templates.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Layout {
    /// Nested tables: a banner row, a menu column and a content cell (around 2000).
    Tables,
    /// Divs with ids and classes: header, menu bar, content, sidebar, footer (around 2008).
    Divs,
    /// HTML5: header, nav, a section submenu, main, aside, footer (around 2015).
    Semantic,
}

impl Layout {
    pub const ALL: [Layout; 3] = [Layout::Tables, Layout::Divs, Layout::Semantic];
    pub fn name(self) -> &'static str {
        match self {
            Layout::Tables => "tables",
            Layout::Divs => "divs",
            Layout::Semantic => "semantic",
        }
    }
}

/// One generated page.
#[derive(Clone, Debug)]
pub struct Page {
    pub url: String,
    pub html: String,
    /// Whether it is an article (a key page the evaluation uses).
    pub article: bool,
}

/// One generated site.
#[derive(Clone, Debug)]
pub struct Site {
    pub host: String,
    pub layout: Layout,
    pub pages: Vec<Page>,
}

const WORDS: &[&str] = &[
    "river",
    "council",
    "market",
    "winter",
    "station",
    "garden",
    "report",
    "museum",
    "harbour",
    "teacher",
    "bridge",
    "festival",
    "village",
    "engine",
    "summer",
    "library",
    "doctor",
    "forest",
    "valley",
    "company",
    "election",
    "weather",
    "school",
    "theatre",
    "island",
    "factory",
    "painter",
    "ancient",
    "modern",
    "quiet",
    "bright",
    "sudden",
    "local",
    "national",
    "early",
    "late",
    "green",
    "golden",
    "narrow",
    "broad",
    "opened",
    "closed",
    "announced",
    "reported",
    "visited",
    "built",
    "found",
    "sold",
    "carried",
    "planned",
    "after",
    "before",
    "during",
    "across",
    "under",
    "between",
    "against",
    "around",
    "toward",
    "beyond",
    "the",
    "a",
    "of",
    "and",
    "in",
    "on",
    "with",
    "for",
    "by",
    "from",
];
const SECTIONS: &[&str] = &[
    "news", "sport", "culture", "science", "travel", "food", "money", "health",
];

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        pith::lab::extract::sample::xorshift64(&mut self.0)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
    fn words(&mut self, n: usize) -> String {
        let mut s = String::new();
        for k in 0..n {
            if k > 0 {
                s.push(' ');
            }
            s.push_str(WORDS[self.below(WORDS.len())]);
        }
        s
    }
    fn sentence(&mut self) -> String {
        let n = 8 + self.below(14);
        let mut s = self.words(n);
        if let Some(f) = s.get_mut(0..1) {
            f.make_ascii_uppercase();
        }
        s.push('.');
        s
    }
}

/// The article body of one page (the inside of the `id="content"` slot): a varying sequence of
/// blocks.
fn body(rng: &mut Rng) -> String {
    let mut s = String::new();
    let blocks = 3 + rng.below(10);
    for _ in 0..blocks {
        let class = ["", " class=lead", " class=note", " class=wide"][rng.below(4)];
        match rng.below(10) {
            0 => {
                let n = 3 + rng.below(3);
                s.push_str(&format!("<h2{class}>{}</h2>", rng.words(n)));
            }
            1 => {
                s.push_str(&format!("<ul{class}>"));
                for _ in 0..2 + rng.below(4) {
                    let n = 4 + rng.below(5);
                    s.push_str(&format!("<li>{}</li>", rng.words(n)));
                }
                s.push_str("</ul>");
            }
            2 => s.push_str(&format!(
                "<figure{class}><img src=/img/{}.jpg alt=\"{}\"><figcaption>{}</figcaption></figure>",
                rng.next() % 10_000,
                rng.words(2),
                rng.sentence()
            )),
            3 => s.push_str(&format!(
                "<blockquote{class}><p>{}</p></blockquote>",
                rng.sentence()
            )),
            4 => {
                s.push_str(&format!("<table{class}>"));
                for _ in 0..2 + rng.below(3) {
                    s.push_str(&format!(
                        "<tr><td>{}</td><td>{}</td></tr>",
                        rng.words(2),
                        rng.below(1000)
                    ));
                }
                s.push_str("</table>");
            }
            _ => {
                let mut p = format!("<p{class}>");
                for k in 0..1 + rng.below(4) {
                    if k > 0 {
                        p.push(' ');
                    }
                    p.push_str(&rng.sentence());
                    if rng.below(4) == 0 {
                        p.push_str(&format!(" <em>{}</em>", rng.words(2)));
                    }
                }
                p.push_str("</p>");
                s.push_str(&p);
            }
        }
    }
    s
}

/// The article skeleton every page of the site has, around its slots (`data-slot`): the
/// headline, the byline, the body and the related links.
fn article(rng: &mut Rng, title: &str, related: &[(String, String)]) -> String {
    let by = rng.words(2);
    let day = 1 + rng.below(28);
    let body = body(rng);
    let rel: String = related
        .iter()
        .map(|(u, t)| format!("<li><a href=\"{u}\">{t}</a></li>"))
        .collect();
    format!(
        "<h1 data-slot>{title}</h1><p class=byline data-slot>By {by} on {day} May</p>\
         <div id=content data-slot>{body}</div>\
         <div class=related><h3>Related</h3><ul data-slot>{rel}</ul></div>"
    )
}

/// Generates site number `seed` in `layout`.
pub fn site(seed: u64, layout: Layout) -> Site {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15 ^ seed.wrapping_mul(0x2545_f491_4f6c_dd1d) | 1);
    let host = format!("site{seed}-{}.example", layout.name());
    let name = format!(
        "The {} {}",
        rng.words(1),
        ["Herald", "Post", "Courier"][rng.below(3)]
    );
    let nsec = 4 + rng.below(4);
    let sections: Vec<&str> = SECTIONS.iter().copied().take(nsec).collect();
    // Articles per section, with their titles.
    let mut articles: Vec<Vec<(String, String)>> = Vec::new();
    for sec in &sections {
        let k = 3 + rng.below(4);
        articles.push(
            (0..k)
                .map(|j| {
                    let title = rng.sentence();
                    (format!("/{sec}/story-{j}.html"), title)
                })
                .collect(),
        );
    }
    // The sidebar's popular stories: fixed across the site.
    let popular: Vec<(String, String)> = (0..4)
        .map(|_| {
            let s = rng.below(articles.len());
            let a = &articles[s];
            a[rng.below(a.len())].clone()
        })
        .collect();
    // The current section's menu item carries `class=active`: the template changes a little
    // from page to page, as real menus do.
    let menu = |cur: Option<usize>| -> String {
        let mut m = String::new();
        m.push_str("<li><a href=\"/\">Home</a></li>");
        for (i, s) in sections.iter().enumerate() {
            let active = if cur == Some(i) { " class=active" } else { "" };
            m.push_str(&format!(
                "<li{active}><a href=\"/{s}/\">{}</a></li>",
                capital(s)
            ));
        }
        m
    };
    let footer_links = "<a href=\"/about.html\">About us</a> <a href=\"/contact.html\">Contact</a> \
                        <a href=\"/privacy.html\">Privacy</a>";
    let popular_html: String = popular
        .iter()
        .map(|(u, t)| format!("<li><a href=\"{u}\">{t}</a></li>"))
        .collect();
    let mut pages = Vec::new();
    // (url, title, section index or none, is article)
    let mut specs: Vec<(String, String, Option<usize>, bool)> =
        vec![("/".into(), format!("{name}: front page"), None, false)];
    for (i, s) in sections.iter().enumerate() {
        specs.push((
            format!("/{s}/"),
            format!("{} - {name}", capital(s)),
            Some(i),
            false,
        ));
        for (u, t) in &articles[i] {
            specs.push((u.clone(), t.clone(), Some(i), true));
        }
    }
    for (path, title, sec, is_article) in specs {
        let related: Vec<(String, String)> = (0..rng.below(4))
            .map(|_| {
                let s = rng.below(articles.len());
                let a = &articles[s];
                a[rng.below(a.len())].clone()
            })
            .collect();
        let body = article(&mut rng, &title, &related);
        // A clock in the header: template text that changes on every page.
        let updated = format!("Updated {:02}:{:02}", rng.below(24), rng.below(60));
        let submenu: String = sec
            .map(|i| {
                articles[i]
                    .iter()
                    .map(|(u, t)| format!("<li><a href=\"{u}\">{}</a></li>", short(t)))
                    .collect()
            })
            .unwrap_or_default();
        let html = match layout {
            Layout::Tables => format!(
                "<html><head><title>{title}</title></head><body bgcolor=white>\
                 <table width=100% border=0><tr><td colspan=2 class=banner><font size=5>{name}</font>\
                 <br><small>Since 1901</small> <small>{updated}</small></td></tr>\
                 <tr><td width=150 valign=top><table class=menu>{}</table></td>\
                 <td valign=top class=story>{body}</td></tr>\
                 <tr><td colspan=2 align=center><small>{footer_links} &copy; {name}</small></td></tr>\
                 </table></body></html>",
                menu(sec)
                    .replace("<li", "<tr")
                    .replace("><a href", "><td><a href")
                    .replace("</li>", "</td></tr>")
            ),
            Layout::Divs => format!(
                "<!DOCTYPE html><html><head><title>{title}</title><meta charset=utf-8></head><body>\
                 <div id=header><div class=logo>{name}</div><div class=clock>{updated}</div><form class=search action=/search>\
                 <input type=text name=q><input type=submit value=Search></form></div>\
                 <div id=menubar><ul class=menu>{}</ul></div>\
                 <div id=page><div class=main>{body}</div>\
                 <div id=sidebar><div class=box><h3>Most read</h3><ul>{popular_html}</ul></div>\
                 <div class=box><h3>Newsletter</h3><p>Get the best of {name} every morning.</p></div></div></div>\
                 <div id=footer><p>{footer_links}</p><p>&copy; {name}. All rights reserved.</p></div>\
                 </body></html>",
                menu(sec)
            ),
            Layout::Semantic => format!(
                "<!DOCTYPE html><html lang=en><head><title>{title}</title></head><body>\
                 <header class=site-header><a class=brand href=/>{name}</a><time>{updated}</time>\
                 <nav class=primary><ul>{}</ul></nav></header>\
                 <div class=layout><nav class=secondary><ul>{submenu}</ul></nav>\
                 <main><article>{body}</article></main>\
                 <aside class=rail><section class=popular><h2>Popular</h2><ol>{popular_html}</ol></section>\
                 <section class=follow><h2>Follow us</h2><a class=social href=/rss.xml>RSS</a></section></aside></div>\
                 <footer class=site-footer><nav>{footer_links}</nav><p>&copy; {name}</p></footer>\
                 </body></html>",
                menu(sec)
            ),
        };
        pages.push(Page {
            url: format!("http://{host}{path}"),
            html,
            article: is_article,
        });
    }
    Site {
        host,
        layout,
        pages,
    }
}

fn capital(s: &str) -> String {
    let mut c = s.to_string();
    if let Some(f) = c.get_mut(0..1) {
        f.make_ascii_uppercase();
    }
    c
}

/// The first three words of a title (submenu labels).
fn short(t: &str) -> String {
    t.split(' ').take(3).collect::<Vec<_>>().join(" ")
}

/// The gold template of a generated page, per node of its tree: every element and non-blank
/// text node that is not inside a slot (`<title>`, or an element with a `data-slot` attribute);
/// the slot elements themselves are template. The document node and blank text are not
/// counted (false).
pub fn gold(doc: &Document<'_>) -> Vec<bool> {
    let nodes = &doc.tree.nodes;
    let mut inside = vec![false; nodes.len()];
    let mut out = vec![false; nodes.len()];
    for (i, n) in nodes.iter().enumerate().skip(1) {
        let id = i as u32;
        inside[i] = n.parent != NONE && {
            let p = n.parent;
            let pn = doc.tree.node(p);
            inside[p as usize]
                || (pn.kind == Kind::Element
                    && (pn.tag == pith::lab::html::Tag::Title
                        || doc.attr(p, "data-slot").is_some()))
        };
        let counted = match n.kind {
            Kind::Element => true,
            Kind::Text => !doc.raw_text(id).bytes().all(|b| b.is_ascii_whitespace()),
            Kind::Document => false,
        };
        out[i] = counted && !inside[i];
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sites_are_repeatable_and_articles_differ_inside_the_slot_only() {
        let a = site(1, Layout::Divs);
        let b = site(1, Layout::Divs);
        assert_eq!(a.pages.len(), b.pages.len());
        assert!(a.pages.iter().zip(&b.pages).all(|(x, y)| x.html == y.html));
        let arts: Vec<&Page> = a.pages.iter().filter(|p| p.article).collect();
        assert!(arts.len() >= 12);
        let arena = bumpalo::Bump::new();
        let doc = Document::parse(&arts[0].html, &arena);
        let g = gold(&doc);
        let tpl = g.iter().filter(|t| **t).count();
        let counted = doc
            .tree
            .nodes
            .iter()
            .enumerate()
            .skip(1)
            .filter(|(i, n)| {
                n.kind == Kind::Element
                    || !doc
                        .raw_text(*i as u32)
                        .bytes()
                        .all(|b| b.is_ascii_whitespace())
            })
            .count();
        assert!(tpl > 50 && tpl < counted, "{tpl} of {counted}");
    }
}
