//! JSON-LD, parsed with serde_json within [`LD_MAX_SCRIPT`], [`LD_MAX_TOTAL`],
//! [`LD_MAX_SCRIPTS`] and [`LD_MAX_NODES`]: the types, names, dates and authors it declares.

use super::*;

#[derive(Default)]
pub(super) struct Ld {
    pub(super) headline: Option<String>,
    pub(super) published: Option<String>,
    /// `dateCreated` of an article.
    pub(super) created: Option<String>,
    /// `@id` references of the article's authors, and the `(@id, name)` of the people the
    /// graph describes (at most [`LIST_MAX`] of each).
    pub(super) author_refs: Vec<String>,
    pub(super) people: Vec<(String, String)>,
    pub(super) modified: Option<String>,
    pub(super) authors: Vec<String>,
    /// Authors typed `Organization` (a news agency, the site): ranked after the meta names
    /// and the byline, which usually name the person.
    pub(super) org_authors: Vec<String>,
    pub(super) publisher: Option<String>,
    pub(super) website: Option<String>,
    pub(super) description: Option<String>,
    pub(super) image: Option<String>,
    pub(super) sections: Vec<String>,
    pub(super) keywords: Vec<String>,
}

impl Ld {
    /// The article's authors given as `@id` references, named from the graph's people.
    pub(super) fn resolve_authors(&mut self) {
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
pub(super) struct Budget {
    pub(super) scripts: usize,
    pub(super) bytes: usize,
    pub(super) nodes: usize,
}

/// Reads one JSON-LD script into `ld`, within `budget`.
pub(super) fn ld_script(raw: &str, ld: &mut Ld, budget: &mut Budget) {
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

pub(super) fn ld_types(o: &serde_json::Map<String, Value>) -> Vec<String> {
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

pub(super) fn ld_walk(root: &Value, ld: &mut Ld, budget: &mut Budget) {
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

pub(super) fn ld_str(v: Option<&Value>) -> Option<String> {
    match v? {
        Value::String(s) => Some(clean(s)).filter(|s| !s.is_empty()),
        Value::Array(a) => a.iter().find_map(|x| ld_str(Some(x))),
        _ => None,
    }
}

pub(super) fn ld_url(v: &Value) -> Option<String> {
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
pub(super) fn ld_authors(v: &Value, ld: &mut Ld) {
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
pub(super) fn ld_names(v: &Value, out: &mut Vec<String>) {
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

pub(super) fn ld_list(v: Option<&Value>, out: &mut Vec<String>) {
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
