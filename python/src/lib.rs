//! The `pith._pith` extension module: pith's extraction for Python, on the library's own code
//! paths, so the module gives what the command line prints byte for byte.
//!
//! - `extract` runs [`pith_core::extract`] (what `pith FILE` prints for one page);
//! - `extract_many` runs it over a list on Rust threads with the GIL released;
//! - `read_warc` iterates [`pith_core::pipeline::JsonLines`] (what `pith --format json` prints
//!   for an input), as dicts or as the raw lines;
//! - `Templates` is a store of site templates ([`pith_core::site::Store`], `--templates`);
//!   a page whose URL's host has one goes through [`pith_core::extract_with`] with it.
//!
//! Every call into the library runs under `catch_unwind`: a panic becomes a `PithError`, never a
//! `PanicException` in the caller's process. Errors carry the CLI's messages.

use std::io::Read;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use mimalloc::MiMalloc;
use pith_core::input::{Framing, Input};
use pith_core::pipeline::{JsonLines, OutputFormat};
use pith_core::site::{Family, Store};
use pith_core::{Algo, Format, Mode, Options};
use pyo3::exceptions::{PyOSError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::pybacked::{PyBackedBytes, PyBackedStr};
use pyo3::types::{PyDict, PyList};

#[global_allocator]
static GLOBAL: MiMalloc = MiMalloc;

pyo3::create_exception!(
    _pith,
    PithError,
    pyo3::exceptions::PyValueError,
    "A page pith cannot extract (empty, binary, too large) or a template store it cannot open, with the command line's message."
);

/// The command line's default `--max-record-bytes`.
const DEFAULT_MAX_RECORD_BYTES: usize = pith_core::input::DEFAULT_MAX_RECORD;

/// A page as Python gives it: bytes are decoded as the CLI decodes a file; a str is already
/// text, so it is read as UTF-8 whatever its `<meta charset>` says.
#[derive(FromPyObject)]
enum Page {
    Bytes(PyBackedBytes),
    Str(PyBackedStr),
}

impl Page {
    /// `html` as a page, or a `TypeError` that names what was given instead (not PyO3's
    /// message about the enum).
    fn from_arg(html: &Bound<'_, PyAny>, function: &str) -> PyResult<Page> {
        html.extract().map_err(|_| {
            let given = html
                .get_type()
                .name()
                .map(|n| n.to_string())
                .unwrap_or_else(|_| "?".into());
            PyTypeError::new_err(format!(
                "{function}: html must be bytes or str, not {given}"
            ))
        })
    }

    fn bytes(&self) -> &[u8] {
        match self {
            Page::Bytes(b) => b,
            Page::Str(s) => s.as_bytes(),
        }
    }
}

/// The options shared by every entry point, as the CLI's flags set them.
///
/// Each entry point declares these keyword arguments again in its own signature: pyo3 makes a
/// Python function's parameters of the Rust function's, one by one (it cannot take them from
/// a struct), and their Python names and defaults are the module's API.
fn options(
    algo: &str,
    format: Format,
    comments: bool,
    links: bool,
    images: bool,
    favor: Option<&str>,
    charset: Option<String>,
) -> PyResult<Options> {
    let err = |e: pith_core::UnknownName| PyValueError::new_err(e.to_string());
    // One page at a time: the site algorithms (ce, tmpl-dom, tmpl-text) need a site's pages
    // together and are the CLI's, so they are unknown here.
    let algo: Algo = algo.parse().map_err(err)?;
    let mode = match favor {
        None => Mode::Balanced,
        Some("precision") => Mode::Precision,
        Some("recall") => Mode::Recall,
        Some(other) => {
            return Err(PyValueError::new_err(format!(
                "unknown favor `{other}` (one of: precision, recall, or None)"
            )));
        }
    };
    let charset = match charset {
        Some(label) => Some(label.parse().map_err(err)?),
        None => None,
    };
    // Text and Markdown need no metadata; HTML and XML documents carry it, and `read_warc`'s
    // JSON lines turn it on.
    Ok(Options::new(algo)
        .with_mode(mode)
        .with_comments(comments)
        .with_format(format)
        .with_links(links)
        .with_images(images)
        .with_charset(charset)
        .with_metadata(format.is_document()))
}

/// Runs `f`, turning a panic into a `PithError` so that none ever reaches Python.
fn guarded<T>(f: impl FnOnce() -> T) -> Result<T, String> {
    catch_unwind(AssertUnwindSafe(f)).map_err(|panic| {
        let what = panic
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| panic.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "unknown".into());
        format!("internal error in pith (please report it): {what}")
    })
}

/// The template of `url`'s host in `store`, as the CLI finds it for a page (none without a URL).
fn template_for(store: Option<&Store>, url: Option<&str>) -> Result<Option<Arc<Family>>, String> {
    match store.zip(url) {
        Some((store, url)) => guarded(|| store.for_url(url).0),
        None => Ok(None),
    }
}

/// One page through the library (with its site's template, if any): its text, or the CLI's
/// message.
fn extract_one(
    page: &[u8],
    forced_utf8: bool,
    opts: &Options,
    template: Option<&Family>,
    url: Option<&str>,
) -> Result<String, String> {
    let utf8;
    let opts = if forced_utf8 && opts.charset.is_none() {
        utf8 = Options {
            charset: "utf-8".parse().ok(),
            ..opts.clone()
        };
        &utf8
    } else {
        opts
    };
    let cx = pith_core::Context {
        family: template,
        url,
        ..Default::default()
    };
    let format = opts.output.format;
    guarded(|| {
        pith_core::extract_with(page, &cx, opts).map(|e| {
            if format.is_document() {
                // As `pith --format html|xml --url URL` writes a page given as a file.
                let origin = pith_core::pipeline::Origin {
                    url,
                    ..Default::default()
                };
                pith_core::pipeline::document(format, &e, &origin)
            } else {
                e.text
            }
        })
    })?
    .map_err(|e| e.to_string())
}

/// One page as `pith --format json` writes it (`--url URL` when given; the id is `-`, as for
/// standard input): the JSON line, metadata included. A page that cannot be read gives its
/// line with `error`, as the CLI's does.
fn json_one(
    page: &[u8],
    forced_utf8: bool,
    opts: &Options,
    url: Option<&str>,
    store: Option<Arc<Store>>,
) -> Result<String, String> {
    let mut opts = opts.clone();
    if forced_utf8 && opts.charset.is_none() {
        opts.charset = "utf-8".parse().ok();
    }
    let page = page.to_vec();
    let url = url.map(str::to_string);
    guarded(move || {
        let reader = Box::new(std::io::Cursor::new(page));
        let (input, _) =
            Input::from_reader(reader, "-", Framing::Html, DEFAULT_MAX_RECORD_BYTES, false)
                .map_err(|e| e.to_string())?;
        let mut lines = JsonLines::new(input, opts).templates(store).url(url);
        lines.next().ok_or_else(|| "no record".to_string())
    })?
}

/// A JSON line as a Python dict; a record that failed raises `PithError` with its message.
fn json_dict(py: Python<'_>, line: &str) -> PyResult<Py<PyAny>> {
    let dict = py.import("json")?.call_method1("loads", (line,))?;
    if let Ok(Some(error)) = dict
        .get_item("error")
        .and_then(|e| e.extract::<Option<String>>())
    {
        return Err(PithError::new_err(error));
    }
    Ok(dict.unbind())
}

/// `format=` as the CLI's `--format`: the body's format, and whether the page comes back as
/// its JSON object (a dict) instead of the body alone.
fn shape(format: &str) -> PyResult<OutputFormat> {
    format
        .parse()
        .map_err(|e: pith_core::UnknownName| PyValueError::new_err(e.to_string()))
}

/// The main content of one page, as `pith FILE` prints it.
///
/// html: the page, as bytes (decoded as the CLI decodes a file: BOM, charset, <meta>, detection)
/// or str (read as the text it is). url: the page's URL (its host picks the site template;
/// the CLI's --url). algo: "model" (the default), "rules" ("auto" is its old name), "danag" or "danag-lines". format: "text" (one paragraph per
/// line), "markdown", "html" (a whole HTML document, metadata in <head>), "xml" (trafilatura's
/// <doc> with <main>), or "json" / "json-markdown": a dict with every field of `pith --format
/// json` (url, title, author, date, sitename, lang, text...). comments: keep user comments.
/// links: keep link targets in Markdown. images: keep the images of the main content (the
/// CLI's --images): in Markdown as ![alt](src) lines with their captions, in the json dict as
/// "images", a list of {"src", "alt", "caption"} dicts (alt and caption None when missing).
/// keep_repeats: keep every copy of a text the page repeats (the CLI's --keep-repeats; by
/// default model and rules drop a copy that renders a region again, such as a quoted post). favor: None, "precision" or "recall" (the CLI's
/// --precision / --recall). charset: force an encoding. templates: a Templates store (the CLI's --templates): when it has a template for
/// url's host, FastCE runs with it, falling back to algo when the page does not match it.
///
/// Returns "" when the page has no main text; raises PithError for an empty or binary input.
/// The GIL is released while the page is extracted.
#[allow(clippy::too_many_arguments)]
#[pyfunction]
#[pyo3(signature = (html, url=None, algo="model", format="text", comments=false, templates=None, *, links=false, images=false, keep_repeats=false, favor=None, charset=None))]
fn extract(
    py: Python<'_>,
    html: &Bound<'_, PyAny>,
    url: Option<&str>,
    algo: &str,
    format: &str,
    comments: bool,
    templates: Option<PyRef<'_, Templates>>,
    links: bool,
    images: bool,
    keep_repeats: bool,
    favor: Option<&str>,
    charset: Option<String>,
) -> PyResult<Py<PyAny>> {
    let html = Page::from_arg(html, "extract")?;
    let shape = shape(format)?;
    let mut opts = options(algo, shape.body, comments, links, images, favor, charset)?;
    opts.extract.keep_repeats = keep_repeats;
    let store = templates.map(|t| t.store.clone());
    let is_str = matches!(html, Page::Str(_));
    let bytes = html.bytes();
    if shape.json {
        let line = py
            .detach(|| json_one(bytes, is_str, &opts, url, store))
            .map_err(PithError::new_err)?;
        return json_dict(py, &line);
    }
    let text = py
        .detach(|| {
            let template = template_for(store.as_deref(), url)?;
            extract_one(bytes, is_str, &opts, template.as_deref(), url)
        })
        .map_err(PithError::new_err)?;
    Ok(text.into_pyobject(py)?.into_any().unbind())
}

/// The main content of many pages, extracted on `threads` Rust threads (0: one per core) with
/// the GIL released; a list in input order.
///
/// Options as for extract(). urls: the pages' URLs (a list as long as pages, None for a page
/// without one), which pick each page's site template from templates. errors="raise" raises
/// PithError for the first page that failed ("page INDEX: MESSAGE"); errors="none" puts None
/// in its place instead.
#[allow(clippy::too_many_arguments)]
#[pyfunction]
#[pyo3(signature = (pages, threads=0, algo="model", format="text", comments=false, templates=None, *, links=false, images=false, keep_repeats=false, favor=None, charset=None, errors="raise", urls=None))]
fn extract_many(
    py: Python<'_>,
    pages: &Bound<'_, PyAny>,
    threads: usize,
    algo: &str,
    format: &str,
    comments: bool,
    templates: Option<PyRef<'_, Templates>>,
    links: bool,
    images: bool,
    keep_repeats: bool,
    favor: Option<&str>,
    charset: Option<String>,
    errors: &str,
    urls: Option<Vec<Option<String>>>,
) -> PyResult<Py<PyList>> {
    let shape = shape(format)?;
    let mut opts = options(algo, shape.body, comments, links, images, favor, charset)?;
    opts.extract.keep_repeats = keep_repeats;
    let raise = match errors {
        "raise" => true,
        "none" => false,
        other => {
            return Err(PyValueError::new_err(format!(
                "unknown errors `{other}` (one of: raise, none)"
            )));
        }
    };
    let mut held: Vec<Page> = Vec::new();
    for p in pages.try_iter()? {
        held.push(
            p?.extract().map_err(|_| {
                PyTypeError::new_err("extract_many: every page must be bytes or str")
            })?,
        );
    }
    if let Some(urls) = &urls
        && urls.len() != held.len()
    {
        return Err(PyValueError::new_err(format!(
            "extract_many: {} urls for {} pages",
            urls.len(),
            held.len()
        )));
    }
    let store = templates.map(|t| t.store.clone());
    let many = Many {
        pages: &held,
        urls: urls.as_deref(),
        store: store.as_ref(),
        opts: &opts,
        json: shape.json,
    };
    let threads = if threads == 0 {
        std::thread::available_parallelism().map_or(1, |n| n.get())
    } else {
        threads
    }
    .min(held.len().max(1));
    let results = py.detach(|| run_many(&many, threads));
    if raise && let Some((i, Err(msg))) = results.iter().enumerate().find(|(_, r)| r.is_err()) {
        return Err(PithError::new_err(format!("page {i}: {msg}")));
    }
    let list = PyList::empty(py);
    for (i, r) in results.into_iter().enumerate() {
        match r {
            Ok(out) if shape.json => match json_dict(py, &out) {
                Ok(dict) => list.append(dict)?,
                Err(e) if raise => {
                    return Err(PithError::new_err(format!("page {i}: {}", e.value(py))));
                }
                Err(_) => list.append(py.None())?,
            },
            Ok(text) => list.append(text)?,
            Err(_) => list.append(py.None())?,
        }
    }
    Ok(list.unbind())
}

/// The work of one extract_many call.
struct Many<'a> {
    pages: &'a [Page],
    urls: Option<&'a [Option<String>]>,
    store: Option<&'a Arc<Store>>,
    opts: &'a Options,
    /// Each page as its JSON line (`format="json"`) instead of the body.
    json: bool,
}

impl Many<'_> {
    /// Page `i`, with its site's template when it has a URL and the store has one.
    fn one(&self, i: usize, p: &Page) -> Result<String, String> {
        let url = self.urls.and_then(|u| u.get(i)).and_then(|u| u.as_deref());
        let is_str = matches!(p, Page::Str(_));
        if self.json {
            return json_one(p.bytes(), is_str, self.opts, url, self.store.cloned());
        }
        let template = template_for(self.store.map(|s| &**s), url)?;
        extract_one(p.bytes(), is_str, self.opts, template.as_deref(), url)
    }
}

/// Extracts every page on `threads` threads (each takes the next page when it is free, so one
/// long page does not hold up a fixed share); results come back in input order.
fn run_many(many: &Many<'_>, threads: usize) -> Vec<Result<String, String>> {
    let pages = many.pages;
    if threads <= 1 {
        return pages
            .iter()
            .enumerate()
            .map(|(i, p)| many.one(i, p))
            .collect();
    }
    let next = AtomicUsize::new(0);
    let mut done: Vec<(usize, Result<String, String>)> = std::thread::scope(|s| {
        let workers: Vec<_> = (0..threads)
            .map(|_| {
                s.spawn(|| {
                    let mut mine = Vec::new();
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        let Some(p) = pages.get(i) else { break };
                        mine.push((i, many.one(i, p)));
                    }
                    mine
                })
            })
            .collect();
        workers
            .into_iter()
            .flat_map(|w| {
                // A worker only panics outside `extract_one`'s guard if pushing fails (out of
                // memory); its pages are then reported as failed below.
                w.join().unwrap_or_default()
            })
            .collect()
    });
    done.sort_unstable_by_key(|(i, _)| *i);
    let mut out: Vec<Result<String, String>> = Vec::with_capacity(pages.len());
    let mut it = done.into_iter().peekable();
    for i in 0..pages.len() {
        match it.next_if(|(j, _)| *j == i) {
            Some((_, r)) => out.push(r),
            None => out.push(Err("internal error in pith: a worker thread died".into())),
        }
    }
    out
}

/// A Python binary file object as a byte stream (the GIL is taken for each read).
struct PyReader(Py<PyAny>);

impl Read for PyReader {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        Python::attach(|py| {
            let chunk = self
                .0
                .bind(py)
                .call_method1("read", (buf.len(),))
                .map_err(std::io::Error::other)?;
            let bytes: PyBackedBytes = chunk.extract().map_err(|_| {
                std::io::Error::other("read_warc: the file object must be opened in binary mode")
            })?;
            let n = bytes.len().min(buf.len());
            buf[..n].copy_from_slice(&bytes[..n]);
            Ok(n)
        })
    }
}

/// Iterator over the records of a WARC (or JSON lines) input, as `pith --format json` prints them.
#[pyclass(module = "pith")]
struct WarcReader {
    lines: Mutex<Option<JsonLines>>,
    raw: bool,
}

#[pymethods]
impl WarcReader {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__(&self, py: Python<'_>) -> PyResult<Option<Py<PyAny>>> {
        let line = py.detach(|| {
            let mut guard = self
                .lines
                .lock()
                .map_err(|_| "read_warc: an earlier read failed".to_string())?;
            let Some(lines) = guard.as_mut() else {
                return Ok(None);
            };
            let line = guard_next(lines);
            if !matches!(line, Ok(Some(_))) {
                *guard = None;
            }
            line
        });
        let Some(line) = line.map_err(PithError::new_err)? else {
            return Ok(None);
        };
        if self.raw {
            return Ok(Some(line.into_pyobject(py)?.into_any().unbind()));
        }
        let value: serde_json::Value =
            serde_json::from_str(&line).map_err(|e| PithError::new_err(e.to_string()))?;
        Ok(Some(to_py(py, &value)?))
    }
}

fn guard_next(lines: &mut JsonLines) -> Result<Option<String>, String> {
    guarded(|| lines.next())
}

/// A JSON value as the equal Python object (what `json.loads` gives).
fn to_py(py: Python<'_>, v: &serde_json::Value) -> PyResult<Py<PyAny>> {
    use serde_json::Value;
    Ok(match v {
        Value::Null => py.None(),
        Value::Bool(b) => b.into_pyobject(py)?.to_owned().into_any().unbind(),
        Value::Number(n) => {
            if let Some(i) = n.as_i64() {
                i.into_pyobject(py)?.into_any().unbind()
            } else if let Some(u) = n.as_u64() {
                u.into_pyobject(py)?.into_any().unbind()
            } else {
                n.as_f64()
                    .unwrap_or(f64::NAN)
                    .into_pyobject(py)?
                    .into_any()
                    .unbind()
            }
        }
        Value::String(s) => s.into_pyobject(py)?.into_any().unbind(),
        Value::Array(a) => {
            let list = PyList::empty(py);
            for x in a {
                list.append(to_py(py, x)?)?;
            }
            list.into_any().unbind()
        }
        Value::Object(o) => {
            let dict = PyDict::new(py);
            for (k, x) in o {
                dict.set_item(k, to_py(py, x)?)?;
            }
            dict.into_any().unbind()
        }
    })
}

/// Iterates the records of a WARC file (plain or gzip; JSON lines also work), one dict per
/// line that `pith --format json FILE` prints: id, url, title, lang, date, date_source, warc_date,
/// text (or markdown with format="markdown"), bytes_in, algo; a record that failed has "error"
/// (and a record that could not be read, "source", "record", "offset").
///
/// source: a path (str or os.PathLike) or a binary file object. raw=True yields the JSON lines
/// themselves (str, ending in a newline), byte for byte what the CLI prints. Non-HTML records
/// are skipped as the CLI skips them. Records are read and extracted one at a time, with the
/// GIL released while a page is extracted. templates: a Templates store (the CLI's
/// --templates); each record's URL picks its site's template, and "algo" says what ran
/// ("fastce+auto", "fastce+auto:HOST#i" when the host has several templates, or the
/// fallback). url: the URL of a source that is one plain HTML page (--url).
#[allow(clippy::too_many_arguments)]
#[pyfunction]
#[pyo3(signature = (source, algo="model", format="text", comments=false, templates=None, *, links=false, images=false, keep_repeats=false, favor=None, charset=None, raw=false, max_record_bytes=DEFAULT_MAX_RECORD_BYTES, url=None))]
fn read_warc(
    py: Python<'_>,
    source: &Bound<'_, PyAny>,
    algo: &str,
    format: &str,
    comments: bool,
    templates: Option<PyRef<'_, Templates>>,
    links: bool,
    images: bool,
    keep_repeats: bool,
    favor: Option<&str>,
    charset: Option<String>,
    raw: bool,
    max_record_bytes: usize,
    url: Option<String>,
) -> PyResult<WarcReader> {
    // Records always come as their JSON objects; format= picks the body's ("json-markdown"
    // is "markdown" here). An HTML or XML document is a whole file, not a JSON field.
    let body = shape(format)?.body;
    if body.is_document() {
        return Err(PyValueError::new_err(format!(
            "read_warc: format `{format}` writes whole documents; records come as dicts with a text or markdown body (use extract for html or xml)"
        )));
    }
    let mut opts = options(algo, body, comments, links, images, favor, charset)?;
    opts.extract.keep_repeats = keep_repeats;
    let store = templates.map(|t| t.store.clone());
    let opened = if let Ok(path) = source.extract::<PathBuf>() {
        let name = path.to_string_lossy().into_owned();
        py.detach(|| {
            guarded(|| {
                Input::open_with(
                    &name,
                    Framing::Auto,
                    max_record_bytes,
                    Default::default(),
                    false,
                )
            })
        })
        .map_err(PithError::new_err)?
        .map_err(|e| PyOSError::new_err(format!("{name}: {e}")))?
    } else if source.hasattr("read")? {
        let name = source
            .getattr("name")
            .ok()
            .and_then(|n| n.extract::<String>().ok())
            .unwrap_or_else(|| "-".into());
        let reader = Box::new(PyReader(source.clone().unbind()));
        guarded(|| Input::from_reader(reader, &name, Framing::Auto, max_record_bytes, false))
            .map_err(PithError::new_err)?
            .map_err(|e| PyOSError::new_err(format!("{name}: {e}")))?
    } else {
        return Err(PyTypeError::new_err(
            "read_warc: expected a path (str or os.PathLike) or a binary file object",
        ));
    };
    Ok(WarcReader {
        lines: Mutex::new(Some(
            JsonLines::new(opened.0, opts).templates(store).url(url),
        )),
        raw,
    })
}

/// A store of site templates, a directory written by `pith learn -o DIR` (the CLI's
/// `--templates DIR`): Templates(dir) opens it once, and extract(), extract_many() and
/// read_warc() take it as templates=. A host's template file is read the first time a page of
/// that host comes, then kept; a faulty one is reported once on stderr, as the CLI does, and
/// its host extracted without it. Raises PithError (the CLI's message) when dir is not a
/// directory. Safe to share between threads.
#[pyclass(module = "pith", frozen)]
struct Templates {
    store: Arc<Store>,
    dir: PathBuf,
}

#[pymethods]
impl Templates {
    #[new]
    fn new(dir: PathBuf) -> PyResult<Self> {
        let store = guarded(|| Store::open(&dir))
            .and_then(|r| r.map_err(|e| e.to_string()))
            .map_err(PithError::new_err)?;
        Ok(Templates {
            store: Arc::new(store),
            dir,
        })
    }

    /// The store's directory, as given.
    #[getter]
    fn dir(&self) -> PathBuf {
        self.dir.clone()
    }

    fn __repr__(&self) -> String {
        format!("pith.Templates({:?})", self.dir.display().to_string())
    }
}

#[pymodule]
fn _pith(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(extract, m)?)?;
    m.add_function(wrap_pyfunction!(extract_many, m)?)?;
    m.add_function(wrap_pyfunction!(read_warc, m)?)?;
    m.add_class::<WarcReader>()?;
    m.add_class::<Templates>()?;
    m.add("PithError", m.py().get_type::<PithError>())?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    let names: Vec<&str> = pith_core::PageType::ALL.iter().map(|t| t.name()).collect();
    m.add("PAGE_TYPES", names)?;
    Ok(())
}
