//! `pith eval ... --html report.html`: the evaluation as a page to look at.
//!
//! Per system (algorithm or prediction folder) on the set: the summary table `pith eval`
//! prints, the sorted per-page F1 curve of every system in one plot, precision against recall
//! per page, and the worst 20 pages with links to their `pith explain` views, which are
//! written beside the report (`report.explain/<algo>/<id>.html`). Scores are bag-of-words when
//! the set has text gold, else trafilatura's snippet counts per page. Self-contained like the
//! page report: inline SVG and CSS, one inline script that writes its checks into `#checks`.
//! The explain views mark each block as in the page's gold text or not (text-gold sets).

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use super::{esc, head};
use crate::eval::{Dataset, PageScore, Report, System};
use crate::files::FileError;
use crate::page::Options;

/// Worst pages listed per system.
const WORST: usize = 20;
/// Series colours, cycled.
const COLOURS: &[&str] = &[
    "#0550ae", "#1a7f37", "#b42318", "#8250df", "#9a6700", "#1b7c83", "#cf222e",
];

/// Precision and recall (`None` where undefined) and F1 of one page.
type Scores = (Option<f64>, Option<f64>, f64);

/// One page's precision, recall and F1 under the report's metric.
fn page_prf(p: &PageScore) -> Option<Scores> {
    if let Some(b) = p.bow {
        return Some((b.precision, b.recall, b.f1));
    }
    p.snippet
        .map(|c| (Some(c.precision()), Some(c.recall()), c.f1()))
}

/// Writes the report to `out` and the explain views of the worst pages beside it. Returns the
/// number of explain views written.
pub fn write(
    ds: &Dataset,
    runs: &[(System, Vec<PageScore>)],
    reports: &[Report],
    out: &Path,
) -> Result<usize, Error> {
    if let Some(dir) = out.parent().filter(|d| !d.as_os_str().is_empty())
        && !dir.is_dir()
    {
        return Err(Error::NoDirectory(dir.to_path_buf()));
    }
    let stem = out
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| "report".into());
    let views_name = format!("{stem}.explain");
    let views_dir: PathBuf = out.with_file_name(&views_name);
    let metric = if runs
        .iter()
        .any(|(_, pages)| pages.iter().any(|p| p.bow.is_some()))
    {
        "bag-of-words"
    } else {
        "snippet"
    };
    let mut html = String::new();
    head(&mut html, &format!("pith eval: {}", ds.name));
    let _ = write!(
        html,
        "<h1>pith eval <small>{} ({} pages)</small></h1>\n<h2>Summary</h2>\n<pre id=summary>{}</pre>\n",
        esc(&ds.name),
        ds.ids.len(),
        esc(&crate::eval::to_table(ds, reports))
    );
    let _ = write!(
        html,
        "<h2>Per-page {metric} F1, sorted</h2>\n<p class=legend>{}</p>\n",
        runs.iter()
            .enumerate()
            .map(|(k, (s, _))| format!(
                "<span class=sw style=\"background:{}\"></span> {}",
                COLOURS[k % COLOURS.len()],
                esc(&s.name())
            ))
            .collect::<Vec<_>>()
            .join(" ")
    );
    sorted_curves(&mut html, runs);
    let _ = write!(
        html,
        "<h2>Precision against recall, per page</h2>\n<div class=scatters>"
    );
    for (k, (sys, pages)) in runs.iter().enumerate() {
        scatter(&mut html, k, &sys.name(), pages);
    }
    html.push_str("</div>\n");
    let mut views = 0;
    for (sys, pages) in runs {
        // Prediction folders are explained with pith's default algorithm: the page's view.
        let opts = match sys {
            System::Pith(o) => o.clone(),
            System::Pred(_) => Options::default(),
        };
        let algo_dir = slug(&System::Pith(opts.clone()).name());
        let mut worst: Vec<(&PageScore, Scores)> = pages
            .iter()
            .filter_map(|p| page_prf(p).map(|s| (p, s)))
            .collect();
        worst.sort_by(|a, b| a.1.2.total_cmp(&b.1.2).then_with(|| a.0.id.cmp(&b.0.id)));
        worst.truncate(WORST);
        let _ = write!(
            html,
            "<h2>Worst {} pages: {}</h2>\n<table class=worst><tr><th>page</th><th>F1</th>\
             <th>precision</th><th>recall</th><th>explain</th></tr>\n",
            worst.len(),
            esc(&sys.name())
        );
        for (p, (pr, rc, f1)) in worst {
            let rel = format!("{views_name}/{algo_dir}/{}.html", slug(&p.id));
            let path = views_dir
                .join(&algo_dir)
                .join(format!("{}.html", slug(&p.id)));
            let link = match write_view(ds, &p.id, &opts, &path) {
                Ok(()) => {
                    views += 1;
                    format!(
                        "<a href=\"{}\">{}{}</a>",
                        esc(&rel),
                        esc(&algo_dir),
                        if matches!(sys, System::Pred(_)) {
                            "'s view"
                        } else {
                            ""
                        }
                    )
                }
                Err(e) => esc(&e.to_string()),
            };
            let f = |x: Option<f64>| x.map_or("–".into(), |v| format!("{v:.3}"));
            let _ = writeln!(
                html,
                "<tr><td>{}</td><td>{f1:.3}</td><td>{}</td><td>{}</td><td>{link}</td></tr>",
                esc(&p.id),
                f(pr),
                f(rc)
            );
        }
        html.push_str("</table>\n");
    }
    html.push_str(CHECK_SCRIPT);
    html.push_str("</body></html>\n");
    std::fs::write(out, html).map_err(FileError::at(out))?;
    Ok(views)
}

/// Writes the explain view of page `id`.
fn write_view(ds: &Dataset, id: &str, opts: &Options, path: &Path) -> Result<(), Error> {
    let src = ds.dir.join("html").join(format!("{id}.html"));
    let bytes = ds.page(id).map_err(FileError::at(&src))?;
    let gold = ds.gold(id);
    let ex = super::explain_with_gold(&bytes, id, opts, gold.text.as_deref()).map_err(|error| {
        Error::Page {
            id: id.to_string(),
            error,
        }
    })?;
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).map_err(FileError::at(dir))?;
    }
    std::fs::write(path, ex.html).map_err(|e| FileError::at(path)(e).into())
}

/// Why a report could not be written.
#[derive(Debug)]
pub enum Error {
    /// The report's folder does not exist.
    NoDirectory(PathBuf),
    /// A page, a view or the report could not be read or written.
    File(FileError),
    /// A page of the set could not be explained.
    Page {
        /// The page's id in the set.
        id: String,
        /// Why.
        error: crate::page::Error,
    },
}

impl From<FileError> for Error {
    fn from(e: FileError) -> Error {
        Error::File(e)
    }
}

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Error::NoDirectory(dir) => write!(f, "{}: no such directory", dir.display()),
            Error::File(e) => e.fmt(f),
            Error::Page { id, error } => write!(f, "{id}: {error}"),
        }
    }
}

impl std::error::Error for Error {}

/// A file-name-safe form of a system or page name.
fn slug(s: &str) -> String {
    let t: String = s
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' || c == '.' {
                c
            } else {
                '_'
            }
        })
        .collect();
    t.trim_start_matches(['.', '_']).to_string()
}

/// Every system's per-page F1, sorted ascending, as one line each over the page rank.
fn sorted_curves(html: &mut String, runs: &[(System, Vec<PageScore>)]) {
    let (w, h, pad) = (800.0f64, 260.0f64, 30.0f64);
    let _ = write!(
        html,
        "<svg id=f1-curves class=plot viewBox=\"0 0 {w} {h}\" width=\"{w}\" height=\"{h}\" \
         role=img aria-label=\"sorted F1 per page\">"
    );
    axes(html, w, h, pad, "pages, worst to best", "F1");
    for (k, (sys, pages)) in runs.iter().enumerate() {
        let mut f1: Vec<f64> = pages
            .iter()
            .filter_map(|p| page_prf(p).map(|s| s.2))
            .collect();
        f1.sort_by(f64::total_cmp);
        let n = f1.len().max(2) - 1;
        let mut d = String::new();
        for (i, v) in f1.iter().enumerate() {
            let _ = write!(
                d,
                "{}{:.1} {:.1}",
                if i == 0 { "M" } else { "L" },
                pad + (w - 2.0 * pad) * i as f64 / n as f64,
                h - pad - (h - 2.0 * pad) * v.clamp(0.0, 1.0)
            );
        }
        let _ = write!(
            html,
            "<path id=\"curve-{k}\" class=curve d=\"{d}\" stroke=\"{}\"><title>{}</title></path>",
            COLOURS[k % COLOURS.len()],
            esc(&sys.name())
        );
    }
    html.push_str("</svg>\n");
}

/// Precision (y) against recall (x) of every page of one system; pages without output have no
/// precision and sit on the x axis, marked hollow.
fn scatter(html: &mut String, k: usize, name: &str, pages: &[PageScore]) {
    let (w, h, pad) = (300.0f64, 300.0f64, 30.0f64);
    let _ = write!(
        html,
        "<figure><svg id=\"scatter-{k}\" class=plot viewBox=\"0 0 {w} {h}\" width=\"{w}\" \
         height=\"{h}\" role=img aria-label=\"precision against recall\">"
    );
    axes(html, w, h, pad, "recall", "precision");
    let colour = COLOURS[k % COLOURS.len()];
    for p in pages {
        let Some((pr, Some(rc), f1)) = page_prf(p) else {
            continue;
        };
        let (cx, cy) = (
            pad + (w - 2.0 * pad) * rc.clamp(0.0, 1.0),
            h - pad - (h - 2.0 * pad) * pr.unwrap_or(0.0).clamp(0.0, 1.0),
        );
        let fill = if pr.is_some() { colour } else { "none" };
        let _ = write!(
            html,
            "<circle class=dot fill-opacity=\".45\" cx=\"{cx:.1}\" cy=\"{cy:.1}\" r=\"3\" fill=\"{fill}\" \
             stroke=\"{colour}\"><title>{} F1 {f1:.3}</title></circle>",
            esc(&p.id)
        );
    }
    let _ = write!(
        html,
        "</svg><figcaption>{} ({} pages; hollow: no output)</figcaption></figure>",
        esc(name),
        pages.len()
    );
}

/// Axes from 0 to 1 with ticks at every 0.2, and their labels.
fn axes(html: &mut String, w: f64, h: f64, pad: f64, x_label: &str, y_label: &str) {
    let _ = write!(
        html,
        "<line class=axis x1=\"{pad}\" y1=\"{}\" x2=\"{}\" y2=\"{}\"/>\
         <line class=axis x1=\"{pad}\" y1=\"{pad}\" x2=\"{pad}\" y2=\"{}\"/>",
        h - pad,
        w - pad,
        h - pad,
        h - pad
    );
    for t in 0..=5 {
        let v = f64::from(t) / 5.0;
        if x_label == "recall" {
            let x = pad + (w - 2.0 * pad) * v;
            let _ = write!(
                html,
                "<text x=\"{x:.1}\" y=\"{}\" text-anchor=middle>{v:.1}</text>",
                h - pad + 14.0
            );
        }
        let y = h - pad - (h - 2.0 * pad) * v;
        let _ = write!(
            html,
            "<line class=grid x1=\"{pad}\" y1=\"{y:.1}\" x2=\"{}\" y2=\"{y:.1}\"/>\
             <text x=\"2\" y=\"{:.1}\">{v:.1}</text>",
            w - pad,
            y + 4.0
        );
    }
    let _ = write!(
        html,
        "<text x=\"{}\" y=\"{}\" text-anchor=middle>{}</text>\
         <text x=\"{pad}\" y=\"{}\">{}</text>",
        w / 2.0,
        h - 2.0,
        esc(x_label),
        pad - 8.0,
        esc(y_label)
    );
}

/// Recomputes the plotted points, scatter dots, worst-page rows and links from the DOM into
/// `#checks` (JSON), for the headless-browser test.
const CHECK_SCRIPT: &str = r#"<pre id=checks></pre>
<script>
(function(){
  var c = {curves: [], dots: [], worst_rows: [], links: 0};
  document.querySelectorAll('path.curve').forEach(function(p){
    c.curves.push((p.getAttribute('d').match(/[ML]/g) || []).length);
  });
  document.querySelectorAll('svg[id^=scatter-]').forEach(function(s){
    c.dots.push(s.querySelectorAll('circle.dot').length);
  });
  document.querySelectorAll('table.worst').forEach(function(t){
    c.worst_rows.push(t.querySelectorAll('tr').length - 1);
  });
  c.links = document.querySelectorAll('table.worst a[href]').length;
  document.getElementById('checks').textContent = JSON.stringify(c);
})();
</script>
"#;
