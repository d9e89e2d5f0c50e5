//! The reports in a real browser: Debian's Chromium, headless, started by the test with no
//! network. Each report's inline script recomputes its figures from the rendered DOM into
//! `#checks`; the test reads them from `--dump-dom` and compares them with what the report
//! shows and with `pith`'s own output, then saves a screenshot (under the test's tmp
//! directory, or `PITH_SCREENSHOT_DIR` when set: that is how `docs/*.png` were made).
//! The tests are ignored unless asked for, because they need Chromium (`apt-get install
//! chromium`): `cargo test -p pith-cli --test it explain_browser -- --ignored` runs them, and
//! then a missing Chromium, or one that cannot run a page headless, fails them (`.ci/run` runs
//! them so). The tests on the ScrapingHub set need `../shared` as well, and fail without it.

use crate::common;

use crate::run_util;
use run_util::pith_args as pith;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

/// Chromium, which must be installed and run scripts headless here (a probe page whose script
/// rewrites its text): the test fails, saying why, when it does not.
#[track_caller]
fn chromium() -> PathBuf {
    let bin = match std::env::var_os("PITH_CHROMIUM") {
        Some(p) => PathBuf::from(p),
        None => {
            let Some(bin) = ["/usr/bin/chromium", "/usr/bin/chromium-browser"]
                .iter()
                .map(PathBuf::from)
                .find(|p| p.exists())
            else {
                panic!(
                    "Chromium not found (apt-get install -y chromium, or set PITH_CHROMIUM); \
                     these tests run only when asked for, and need it"
                );
            };
            bin
        }
    };
    let probe = tempdir("probe").join("probe.html");
    std::fs::write(
        &probe,
        "<p id=x>static</p><script>document.getElementById('x').textContent='scripted'</script>",
    )
    .expect("write probe");
    assert!(
        run_chromium(&bin, &probe, "--dump-dom").contains("scripted"),
        "{} does not run a page headless here",
        bin.display()
    );
    bin
}

/// Runs headless Chromium on `file` with `mode` (`--dump-dom` or `--screenshot=...`) and
/// returns its standard output; the flags keep it off the network (see the machine notes).
fn run_chromium(bin: &Path, file: &Path, mode: &str) -> String {
    let profile = tempdir("chromium-profile");
    let url = format!(
        "file://{}",
        file.canonicalize().expect("report path").display()
    );
    let child = Command::new(bin)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--hide-scrollbars",
            "--window-size=1100,1400",
            &format!("--user-data-dir={}", profile.display()),
            mode,
            &url,
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn();
    let Ok(mut child) = child else {
        return String::new();
    };
    let mut out = child.stdout.take().expect("stdout");
    let reader = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = std::io::Read::read_to_string(&mut out, &mut s);
        s
    });
    let started = Instant::now();
    loop {
        if let Ok(Some(_)) = child.try_wait() {
            break;
        }
        if started.elapsed() > Duration::from_secs(120) {
            let _ = child.kill();
            let _ = child.wait();
            panic!("chromium did not finish in 120 s on {}", file.display());
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let _ = std::fs::remove_dir_all(&profile);
    reader.join().expect("reader")
}

fn tempdir(name: &str) -> PathBuf {
    static N: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let k = N.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let d = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("explain-browser-{}-{name}-{k}", std::process::id()));
    std::fs::create_dir_all(&d).expect("tmp dir");
    d
}

/// The JSON the report's inline script wrote into `#checks` after it ran.
fn checks(dom: &str) -> Value {
    let start = dom
        .find("<pre id=\"checks\">")
        .expect("#checks in the dumped DOM (did the script run?)")
        + "<pre id=\"checks\">".len();
    let end = start + dom[start..].find("</pre>").expect("end of #checks");
    serde_json::from_str(&dom[start..end].replace("&quot;", "\"")).expect("checks are JSON")
}

/// The number in `<b id="NAME">N</b>` of the dumped DOM.
fn shown(dom: &str, name: &str) -> u64 {
    let key = format!("<b id=\"{name}\">");
    let at = dom.find(&key).unwrap_or_else(|| panic!("{name} not shown")) + key.len();
    dom[at..]
        .split('<')
        .next()
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("{name} is not a number"))
}

fn screenshot(bin: &Path, report: &Path, name: &str) {
    let dir = std::env::var_os("PITH_SCREENSHOT_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| tempdir("screenshots"));
    let png = dir.join(name);
    run_chromium(bin, report, &format!("--screenshot={}", png.display()));
    let size = std::fs::metadata(&png).map(|m| m.len()).unwrap_or(0);
    assert!(
        size > 10_000,
        "screenshot {} is {size} bytes",
        png.display()
    );
    eprintln!("screenshot: {} ({size} bytes)", png.display());
}

#[test]
#[ignore = "needs Chromium: cargo test -p pith-cli --test it explain_browser -- --ignored"]
fn explain_report_renders_and_its_counts_are_pith_s() {
    let bin = chromium();
    let pages = [PathBuf::from("../tests/pages/article.html")];
    let dir = tempdir("explain");
    explain_reports_render(&bin, &pages, &dir);
}

/// The same on three pages of the ScrapingHub set; the screenshot is of the last.
#[test]
#[ignore = "needs Chromium and ../shared/data: cargo test -p pith-cli --test it explain_browser -- --ignored"]
fn explain_report_renders_on_scrapinghub_pages() {
    let html = common::shared("data/scrapinghub/html");
    let bin = chromium();
    let mut all: Vec<PathBuf> = std::fs::read_dir(&html)
        .expect("scrapinghub pages")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .collect();
    all.sort();
    let pages: Vec<PathBuf> = all.into_iter().step_by(60).take(3).collect();
    assert_eq!(pages.len(), 3, "{}", html.display());
    let dir = tempdir("explain-scrapinghub");
    explain_reports_render(&bin, &pages, &dir);
    let shot = format!("{}-rules.html", pages.len() - 1);
    screenshot(&bin, &dir.join(shot), "explain.png");
}

/// `pith explain` on each page under the rules and `danag`, into `dir`: the report renders, and
/// its counts are those of its rendered blocks and of pith's own output.
fn explain_reports_render(bin: &Path, pages: &[PathBuf], dir: &Path) {
    for (k, page) in pages.iter().enumerate() {
        let page = page.to_str().expect("utf-8 path");
        for algo in ["rules", "danag"] {
            let report = dir.join(format!("{k}-{algo}.html"));
            let o = pith(&[
                "explain",
                "--algo",
                algo,
                page,
                "-o",
                report.to_str().expect("utf-8"),
            ]);
            assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
            let text = String::from_utf8(pith(&["--algo", algo, page]).stdout).expect("utf-8");
            let dom = run_chromium(bin, &report, "--dump-dom");
            let c = checks(&dom);
            // The profile was drawn: every path has points, one per plotted line or group.
            for path in ["t1", "t2", "diff"] {
                let points = c[format!("{path}_points")].as_u64().unwrap_or(0);
                assert!(points > 0, "{page} {algo}: path {path} has no points: {c}");
                assert_eq!(Some(points), c["t1_points"].as_u64(), "{page}: {c}");
            }
            // The counts shown are the counts of the rendered blocks...
            for (shown_id, key) in [
                ("n-kept", "kept_blocks"),
                ("n-dropped", "dropped_blocks"),
                ("n-partial", "partial_blocks"),
            ] {
                assert_eq!(
                    Some(shown(&dom, shown_id)),
                    c[key].as_u64(),
                    "{page} {algo} {key}"
                );
            }
            // ...and the kept text of the blocks is pith's own output, word for word in count,
            // as are the lines and words the report states.
            let words = text.split_whitespace().count() as u64;
            assert_eq!(c["kept_words"].as_u64(), Some(words), "{page} {algo}: {c}");
            assert_eq!(shown(&dom, "n-words"), words);
            assert_eq!(shown(&dom, "n-lines"), text.lines().count() as u64);
            eprintln!("{page} {algo}: {c}");
        }
    }
}

#[test]
#[ignore = "needs Chromium and ../shared/data: cargo test -p pith-cli --test it explain_browser -- --ignored"]
fn eval_report_renders_its_plots_and_links() {
    let set = common::shared("data/scrapinghub");
    let peer = common::shared("peers/scrapinghub/readability");
    let bin = chromium();
    let n = std::fs::read_dir(set.join("html"))
        .expect("scrapinghub pages")
        .count() as u64;
    let dir = tempdir("eval");
    let report = dir.join("report.html");
    // pith's two algorithms and one peer's saved outputs.
    let systems = 3;
    let o = pith(&[
        "eval",
        set.to_str().expect("utf-8"),
        "--algo",
        "rules",
        "--algo",
        "danag",
        "--html",
        report.to_str().expect("utf-8"),
        "--pred",
        peer.to_str().expect("utf-8"),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let dom = run_chromium(&bin, &report, "--dump-dom");
    let c = checks(&dom);
    let curves: Vec<u64> = c["curves"]
        .as_array()
        .expect("curves")
        .iter()
        .filter_map(Value::as_u64)
        .collect();
    assert_eq!(
        curves,
        vec![n; systems],
        "one point per page per system: {c}"
    );
    let dots = c["dots"].as_array().expect("dots");
    assert_eq!(dots.len(), systems);
    assert!(dots.iter().all(|d| d.as_u64().unwrap_or(0) > n / 2), "{c}");
    let rows: Vec<u64> = c["worst_rows"]
        .as_array()
        .expect("rows")
        .iter()
        .filter_map(Value::as_u64)
        .collect();
    assert_eq!(rows, vec![20; systems]);
    assert_eq!(c["links"].as_u64(), Some(20 * systems as u64));
    // A linked explain view renders too.
    let first = dom
        .split("<a href=\"")
        .nth(1)
        .and_then(|s| s.split('"').next())
        .expect("a link to an explain view");
    let view = dir.join(first);
    let vdom = run_chromium(&bin, &view, "--dump-dom");
    let vc = checks(&vdom);
    assert!(vc["t1_points"].as_u64().unwrap_or(0) > 0, "{vc}");
    // The view was made with the page's gold: its marks are counted as shown.
    assert_eq!(
        vc["kept_nogold"].as_u64(),
        Some(shown(&vdom, "n-kept-nogold"))
    );
    assert_eq!(
        vc["dropped_gold"].as_u64(),
        Some(shown(&vdom, "n-dropped-gold"))
    );
    eprintln!("eval report: {c}");
    screenshot(&bin, &report, "eval.png");
}
