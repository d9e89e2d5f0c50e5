//! Template families through the command: `pith cluster` groups generated pages of known
//! layouts (`tests/common/sites.rs`), `pith learn` writes one template per cluster, and
//! `--templates` labels the template that ran, or falls back to the chosen algorithm (the block
//! model by default) on a page of no learned layout. The clustering and the families
//! themselves, in-process: the library's `tests/it/families.rs`.

use crate::common::Rng;
use crate::common::sites::layout_page;
use crate::run_util;
use run_util::{pith_args as pith, with_templates};

use std::path::PathBuf;

fn tmp(name: &str) -> PathBuf {
    run_util::fresh_dir("families", name)
}

#[test]
fn learn_and_cluster_from_the_command_line() {
    let dir = tmp("cli");
    let mut rng = Rng(99);
    let mut files = Vec::new();
    let mut layouts = Vec::new();
    for i in 0..18 {
        let l = i % 2;
        let f = dir.join(format!("p{i:02}.html"));
        std::fs::write(&f, layout_page(l, &mut rng)).expect("write");
        files.push(f.to_str().expect("path").to_string());
        layouts.push(l);
    }
    // pith cluster: one JSON line per page in input order, the summary in a file.
    let summary = dir.join("summary.jsonl");
    let mut args = vec![
        "cluster",
        "--host",
        "mixed.example",
        "--signature",
        "64",
        "--summary",
        summary.to_str().expect("path"),
    ];
    args.extend(files.iter().map(String::as_str));
    let o = pith(&args);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let lines: Vec<serde_json::Value> = String::from_utf8_lossy(&o.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).expect("json"))
        .collect();
    assert_eq!(lines.len(), 18);
    for (v, (f, l)) in lines.iter().zip(files.iter().zip(&layouts)) {
        assert_eq!(v["id"], f.as_str());
        assert_eq!(v["host"], "mixed.example");
        assert_eq!(v["cluster"], lines[*l]["cluster"], "{v}");
        assert!(v["template_paths"].as_u64().unwrap_or(0) > 10);
    }
    assert_ne!(lines[0]["cluster"], lines[1]["cluster"]);
    let s: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&summary).expect("summary")).expect("json");
    assert_eq!(s["pages"], 18);
    assert_eq!(s["clusters"], 2);
    assert_eq!(s["sizes"], serde_json::json!([9, 9]));
    // pith learn: two templates in one file; --templates labels the one that ran.
    let store = dir.join("store");
    let mut args = vec!["learn", "--host", "mixed.example", "--min-pages", "5", "-o"];
    let st = store.to_str().expect("path").to_string();
    args.push(&st);
    args.extend(files.iter().map(String::as_str));
    let o = pith(&args);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{err}");
    assert!(err.contains("2 template(s)"), "{err}");
    let show = pith(&[
        "template",
        "show",
        store.join("mixed.example.tpl").to_str().expect("path"),
    ]);
    let v: serde_json::Value = serde_json::from_slice(&show.stdout).expect("json");
    assert_eq!(v["templates"].as_array().map(Vec::len), Some(2));
    assert_eq!(v["templates"][1]["algo"], "fastce+auto:mixed.example#1");
    let fresh = dir.join("fresh.html");
    // A page of a layout never learned falls back to the default algorithm, the block model.
    for (layout, want) in [(1, "fastce+auto:mixed.example#"), (2, "model")] {
        std::fs::write(&fresh, layout_page(layout, &mut rng)).expect("write");
        let o = with_templates(
            &st,
            "https://mixed.example/new",
            &[fresh.to_str().expect("path")],
        );
        let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("json");
        let algo = v["algo"].as_str().unwrap_or("");
        assert!(algo.starts_with(want), "layout {layout}: {algo}");
        assert!(v["text"].as_str().unwrap_or("").contains("STORY"));
    }
}

#[test]
fn cluster_groups_json_lines_by_host() {
    let dir = tmp("jsonl");
    let mut rng = Rng(5);
    let mut records = Vec::new();
    // Host a: two layouts; host b: one. Records interleaved.
    for i in 0..24 {
        let (host, layout) = match i % 3 {
            0 => ("a.example", 0),
            1 => ("a.example", 1),
            _ => ("b.example", 2),
        };
        records.push(serde_json::json!({
            "id": format!("r{i}"),
            "url": format!("https://{host}/p{i}"),
            "html": layout_page(layout, &mut rng),
        }));
    }
    let file = dir.join("pages.jsonl");
    std::fs::write(&file, run_util::jsonl(records)).expect("write");
    let o = pith(&["cluster", file.to_str().expect("path")]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{err}");
    let out: Vec<serde_json::Value> = String::from_utf8_lossy(&o.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).expect("json"))
        .collect();
    assert_eq!(out.len(), 24);
    // Host by host, in order of first appearance; input order within a host.
    let hosts: Vec<&str> = out
        .iter()
        .map(|v| v["host"].as_str().unwrap_or(""))
        .collect();
    assert!(hosts[..16].iter().all(|h| *h == "a.example"), "{hosts:?}");
    assert!(hosts[16..].iter().all(|h| *h == "b.example"), "{hosts:?}");
    assert_eq!(out[0]["id"], "r0");
    assert_eq!(out[0]["url"], "https://a.example/p0");
    assert_eq!(out[16]["id"], "r2");
    let a: std::collections::BTreeSet<u64> = out[..16]
        .iter()
        .map(|v| v["cluster"].as_u64().unwrap_or(99))
        .collect();
    let b: std::collections::BTreeSet<u64> = out[16..]
        .iter()
        .map(|v| v["cluster"].as_u64().unwrap_or(99))
        .collect();
    assert_eq!(a.len(), 2, "{a:?}");
    assert_eq!(b.len(), 1, "{b:?}");
    // The summary, one JSON line per host on stderr without --summary.
    let summaries: Vec<serde_json::Value> = err
        .lines()
        .filter(|l| l.starts_with('{'))
        .map(|l| serde_json::from_str(l).expect("json"))
        .collect();
    assert_eq!(summaries.len(), 2, "{err}");
    assert_eq!(summaries[0]["host"], "a.example");
    assert_eq!(summaries[0]["clusters"], 2);
    assert_eq!(summaries[1]["pages"], 8);
}
