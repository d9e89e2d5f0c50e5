//! Generated pages of small sites, for the template tests of the library (`tests/it/`) and of
//! the command (`cli/tests/it/`): pages of three layouts for clustering and template families
//! ([`layout_page`]), and the pages of two small news sites for FastCE ([`div_site_page`],
//! [`story_site_page`]).

use super::Rng;

/// The article layout's menu and footer links: a real template has dozens of fixed paths.
const NAV: &[&str] = &[
    "Home", "World", "Politics", "Business", "Science", "Health", "Sport", "Arts", "Travel",
    "Opinion",
];
const FOOT: &[&str] = &["About", "Contact", "Careers", "Privacy", "Terms", "Archive"];

/// A page of layout `layout` (0: a news article with a nav bar and a sidebar, 1: a photo
/// gallery built of tables, 2: a forum thread), its story text marked with `STORY`. Each page
/// varies: its story, the number of paragraphs and list items, optional boxes.
pub fn layout_page(layout: usize, rng: &mut Rng) -> String {
    let story = format!("STORY {}.", rng.words(30));
    match layout {
        0 => {
            let mut s = String::from(
                "<html><head><title>Daily News</title></head><body><div id=top><ul class=nav>",
            );
            for label in NAV {
                s.push_str(&format!("<li><a href=/{label}>{label}</a></li>"));
            }
            s.push_str("</ul></div><div class=main><div class=article><h1>");
            s.push_str(&rng.words(6));
            s.push_str("</h1><p class=byline>By staff</p><p>");
            s.push_str(&story);
            s.push_str("</p>");
            for _ in 0..2 + rng.below(6) {
                s.push_str(&format!("<p>{}.</p>", rng.words(25)));
            }
            if rng.below(4) == 0 {
                s.push_str("<blockquote><p>A quote from a witness.</p></blockquote>");
            }
            s.push_str("</div><div class=side><h3>Most read</h3><ol>");
            for _ in 0..3 + rng.below(4) {
                s.push_str(&format!("<li><a href=/x>{}</a></li>", rng.words(5)));
            }
            s.push_str(
                "</ol><p>Sign up to our newsletter for the morning briefing.</p></div></div>\
                 <div class=foot><ul>",
            );
            for label in FOOT {
                s.push_str(&format!("<li><a href=/{label}>{label}</a></li>"));
            }
            s.push_str("</ul><p>Copyright Daily News.</p></div></body></html>");
            s
        }
        1 => {
            let mut s = String::from(
                "<html><head><title>Photo Gallery</title></head><body><table class=frame>\
                 <tr><td class=logo><img src=/logo.png></td><td><span>Galleries</span> \
                 <span>Popular</span> <span>Upload</span></td></tr><tr><td><form><input name=q>\
                 </form></td><td><h2>",
            );
            s.push_str(&rng.words(4));
            s.push_str("</h2><table class=grid>");
            for _ in 0..2 + rng.below(4) {
                s.push_str("<tr>");
                for _ in 0..4 {
                    s.push_str(&format!(
                        "<td><a href=/p><img src=/t.jpg></a><br><span>{}</span></td>",
                        rng.words(2)
                    ));
                }
                s.push_str("</tr>");
            }
            s.push_str("</table><div class=caption><p>");
            s.push_str(&story);
            s.push_str(
                "</p></div></td></tr><tr><td colspan=2><small>All photos reserved. \
                        Terms of use.</small></td></tr></table></body></html>",
            );
            s
        }
        _ => {
            let mut s = String::from(
                "<html><head><title>Forum</title></head><body><header><nav><a href=/f>Forums</a> \
                 <a href=/m>Members</a> <a href=/s>Search</a></nav></header><main><section \
                 class=thread><h2>Thread</h2>",
            );
            for i in 0..3 + rng.below(5) {
                s.push_str(&format!(
                    "<article class=post><header><b>user{}</b> <i>posted</i></header><div \
                     class=body><p>{}</p></div><footer><a href=/r>Reply</a> <a \
                     href=/q>Quote</a></footer></article>",
                    rng.below(50),
                    if i == 0 { story.clone() } else { rng.words(20) }
                ));
            }
            s.push_str("</section></main><footer><p>Forum rules. Powered by boards.</p></footer></body></html>");
            s
        }
    }
}

/// A page of a small site whose article is the text of one `div`, with `extra` inside it and
/// `after` at the end of the body.
pub fn div_site_page(n: usize, extra: &str, after: &str) -> String {
    const STORIES: [&str; 7] = [
        "The council approved the new bridge on Tuesday after a debate of four hours, and \
         building starts in May. Traffic will use the old crossing until the work is done.",
        "Sleeper trains will run again between the capital and the coast from June. The rail \
         company bought twenty refurbished carriages with beds for four travellers each.",
        "A storm brought down trees across the northern valleys overnight. Crews cleared most \
         roads by noon, but two villages were still without power in the evening.",
        "The museum reopens its east wing after three years of repairs to the roof. Visitors \
         will see paintings that have not been shown since the fire of the last decade.",
        "Fishermen report the best herring season in twenty years along the western shore. \
         Prices at the harbour market fell by a third during the first week of landings.",
        "The university will admit students to its new medical school next autumn. Teaching \
         starts in temporary rooms while the hospital finishes the laboratories.",
        "Night buses return to the city centre after a pause of two winters. Drivers asked \
         for better lighting at the stops, which the transport office has promised.",
    ];
    format!(
        "<html><head><title>News {n}</title></head><body>\
         <div><a href=/>Home</a> <a href=/world>World</a> <a href=/sport>Sport</a></div>\
         <div>{}{extra}</div>\
         <div>Copyright News Example. All rights reserved. <a href=/contact>Contact us</a></div>\
         {after}</body></html>",
        STORIES[n % STORIES.len()]
    )
}

/// A page of a small site whose article is paragraphs in a `div` (a container with no text
/// of its own, so its path is not in P), with `between` after the first paragraph, a box
/// every page repeats after the second, and `after` at the end of the body.
pub fn story_site_page(n: usize, between: &str, after: &str) -> String {
    const PARAS: [&str; 8] = [
        "The council approved the new bridge on Tuesday after a debate of four hours.",
        "Sleeper trains will run again between the capital and the coast from June.",
        "A storm brought down trees across the northern valleys overnight.",
        "The museum reopens its east wing after three years of repairs to the roof.",
        "Fishermen report the best herring season in twenty years along the shore.",
        "The university will admit students to its new medical school next autumn.",
        "Night buses return to the city centre after a pause of two winters.",
        "Farmers expect an early harvest after the warmest spring on record here.",
    ];
    let p = |k: usize| PARAS[(n + k) % PARAS.len()];
    format!(
        "<html><head><title>News {n}</title></head><body>\
         <div><a href=/>Home</a> <a href=/world>World</a> <a href=/sport>Sport</a></div>\
         <div><p>{}</p>{between}<p>{}</p><div>Advertisement. Subscribe to the print \
         edition today.</div><p>{}</p></div>\
         <div>Copyright News Example. All rights reserved. <a href=/contact>Contact us</a></div>\
         {after}</body></html>",
        p(0),
        p(1),
        p(2)
    )
}
