#!/usr/bin/env python3
"""Builds the fuzz seed corpora under fuzz/corpus/<target>/ from ../shared/data (real pages and
WARC samples), so nothing large is committed. Seeds are cut to --max-len bytes: libFuzzer
mutates small inputs far faster, and the start of a page holds its head, charset declaration
and the first of its body. Run by `just fuzz-seeds` (and by `just fuzz` when a corpus is
missing). Usage: seeds.py [SHARED_DATA_DIR] [--max-len N]"""
import gzip, hashlib, json, os, sys

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

for t in sorted(os.listdir(os.path.join(here, "corpus"))):
    print(t, len(os.listdir(os.path.join(here, "corpus", t))), "seeds")
