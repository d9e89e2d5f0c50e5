#!/usr/bin/env python3
"""Builds the fuzz seed corpora under fuzz/corpus/<target>/ from ../shared/data (real pages and
WARC samples), so nothing large is committed. Seeds are cut to --max-len bytes: libFuzzer
mutates small inputs far faster, and the start of a page holds its head, charset declaration
and the first of its body. Run by `just fuzz-seeds` (and by `just fuzz` when a corpus is
missing). The template target's seeds are site templates `pith learn` writes from the pages of each
site-year of msv_big9 (the binary: $PITH, else ../target/release/pith or ../target/debug/pith;
without one those seeds are skipped with a message).
Usage: seeds.py [SHARED_DATA_DIR] [--max-len N]"""
import gzip, hashlib, json, os, subprocess, sys, tempfile

here = os.path.dirname(os.path.abspath(__file__))
args = [a for a in sys.argv[1:] if not a.startswith("--")]
data = args[0] if args else os.path.join(here, "..", "..", "shared", "data")
max_len = 32768
if "--max-len" in sys.argv:
    max_len = int(sys.argv[sys.argv.index("--max-len") + 1])
if not os.path.isdir(data):
    sys.exit(f"no shared data at {data}: the corpora start empty (libFuzzer still works)")

def put(target, blob):
    d = os.path.join(here, "corpus", target)
    os.makedirs(d, exist_ok=True)
    name = hashlib.sha1(blob).hexdigest()
    with open(os.path.join(d, name), "wb") as f:
        f.write(blob)

pages = []
for s in sorted(os.listdir(data)):
    html_dir = os.path.join(data, s, "html")
    if not os.path.isdir(html_dir):
        continue
    for name in sorted(os.listdir(html_dir)):
        with open(os.path.join(html_dir, name), "rb") as f:
            pages.append(f.read())

for i, page in enumerate(pages):
    cut = page[:max_len]
    put("parse", cut)
    put("differential", cut[: max_len // 4])
    # extract and charset read their options from the first byte.
    put("extract", bytes([i % 256]) + cut)
    put("charset", bytes([(i * 37) % 256]) + page[:4096])

def record(body, uri, i):
    http = b"HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\n"
    if i % 3 == 1:
        body = gzip.compress(body)
        http += b"Content-Encoding: gzip\r\n"
    if i % 3 == 2:
        chunked = b"%x\r\n" % len(body) + body + b"\r\n0\r\n\r\n"
        body, http = chunked, http + b"Transfer-Encoding: chunked\r\n"
    block = http + b"Content-Length: %d\r\n\r\n" % len(body) + body
    head = (b"WARC/1.0\r\nWARC-Type: response\r\nWARC-Target-URI: " + uri.encode()
            + b"\r\nWARC-Record-ID: <urn:uuid:%08d>\r\nContent-Type: application/http; msgtype=response\r\n" % i
            + b"Content-Length: %d\r\n\r\n" % len(block))
    return head + block + b"\r\n\r\n"

# WARCs of 1-3 small records, plain and one gzip member per record.
for i in range(0, min(len(pages), 300), 3):
    recs = [record(p[:2048], f"http://example.org/{i + k}", i + k) for k, p in enumerate(pages[i:i + 3])]
    put("warc", b"".join(recs))
    put("warc", b"".join(gzip.compress(r) for r in recs))
    put("jsonl", b"".join(json.dumps({"url": f"http://e.org/{i + k}", "id": str(i + k),
                                       "html": p[:2048].decode("utf-8", "replace"), "x": [k]}).encode() + b"\n"
                          for k, p in enumerate(pages[i:i + 3])))
samples = os.path.join(data, "warc_samples", "files")
if os.path.isdir(samples):
    for name in sorted(os.listdir(samples)):
        with open(os.path.join(samples, name), "rb") as f:
            put("warc", f.read(max_len * 2))

# Site templates: one per site-year of msv_big9, from all its pages and from its first five
# (a smaller file), as `pith learn` writes them.
sites = os.path.join(data, "msv_big9")
pith = os.environ.get("PITH") or next(
    (b for b in (os.path.join(here, "..", "target", k, "pith") for k in ("release", "debug"))
     if os.access(b, os.X_OK)), None)
if os.path.isdir(sites) and pith is None:
    print("no pith binary (cargo build, or set PITH): the template corpus starts empty")
elif os.path.isdir(sites):
    with tempfile.TemporaryDirectory() as tmp:
        for site in sorted(os.listdir(sites)):
            for year in sorted(os.listdir(os.path.join(sites, site)) if os.path.isdir(os.path.join(sites, site)) else []):
                html_dir = os.path.join(sites, site, year, "html")
                if not os.path.isdir(html_dir):
                    continue
                files = sorted(os.path.join(html_dir, n) for n in os.listdir(html_dir))
                for k, chosen in enumerate((files, files[:5])):
                    store = os.path.join(tmp, f"{site}-{year}-{k}")
                    r = subprocess.run([pith, "learn", "--host", site, "--min-pages", "2", "-o", store] + chosen,
                                       capture_output=True)
                    tpl = os.path.join(store, site + ".tpl")
                    if r.returncode == 0 and os.path.exists(tpl):
                        with open(tpl, "rb") as f:
                            put("template", f.read())
                    else:
                        print(f"pith learn failed on {html_dir}: {r.stderr.decode(errors='replace').strip()}")

for t in sorted(os.listdir(os.path.join(here, "corpus"))):
    print(t, len(os.listdir(os.path.join(here, "corpus", t))), "seeds")
