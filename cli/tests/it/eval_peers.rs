//! `pith eval --pred` on the peers' saved outputs reproduces the reference scorer's figures in
//! `../shared/peers/<set>.json` (bag-of-words and LCS F1, precision; snippet F1 for
//! trafilatura_eval), and the snippet scorer agrees with the reference per page. Needs
//! `../shared` (ignored without it: see tests/common).

use crate::common;

use std::path::PathBuf;
use std::process::Command;

use serde_json::Value;

const SETS: &[&str] = &[
    "scrapinghub",
    "cleaneval_final",
    "dragnet",
    "l3s_gn1",
    "wcxb_dev",
    "trafilatura_eval",
];

/// The shared folder, with its `peers/` and `data/`.
fn shared() -> PathBuf {
    common::shared("peers");
    common::shared("data");
    common::shared("")
}

fn eval_json(args: &[&str]) -> Value {
    let out = Command::new(env!("CARGO_BIN_EXE_pith"))
        .arg("eval")
        .args(args)
        .output()
        .expect("run pith eval");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("eval --json prints JSON")
}

fn f(v: &Value, path: &[&str]) -> f64 {
    let mut cur = v;
    for k in path {
        cur = &cur[*k];
    }
    cur.as_f64()
        .unwrap_or_else(|| panic!("no number at {path:?} in {v}"))
}

#[test]
#[cfg_attr(pith_no_shared, ignore = "needs ../shared/data")]
fn peer_figures_are_reproduced() {
    let shared = shared();
    let mut checked = 0;
    for set in SETS {
        let peers: Value = serde_json::from_slice(
            &std::fs::read(shared.join(format!("peers/{set}.json"))).expect("peers json"),
        )
        .expect("valid json");
        let Ok(dirs) = std::fs::read_dir(shared.join("peers").join(set)) else {
            continue;
        };
        for dir in dirs.filter_map(|d| d.ok()).filter(|d| d.path().is_dir()) {
            let tool = dir.file_name().to_string_lossy().into_owned();
            if tool == "runs" {
                continue;
            }
            let pred = dir.path();
            let data = shared.join("data").join(set);
            let mine = eval_json(&[
                "--json",
                "--pred",
                pred.to_str().expect("utf8"),
                data.to_str().expect("utf8"),
            ]);
            let r = &mine["results"][&tool];
            let p = &peers["tools"][&tool];
            // Reading saved outputs times nothing of the tool that wrote them.
            assert!(
                r["pages_per_s"].is_null(),
                "{set}/{tool}: {}",
                r["pages_per_s"]
            );
            if *set == "trafilatura_eval" {
                let (a, b) = (f(r, &["snippet", "f1"]), f(p, &["snippet", "f1"]));
                assert!((a - b).abs() < 0.005, "{set}/{tool} snippet F1 {a} vs {b}");
            } else {
                for path in [
                    ["bow", "f1", "mean"],
                    ["lcs", "f1", "mean"],
                    ["bow", "precision", "mean"],
                    ["bow", "recall", "median"],
                ] {
                    let (a, b) = (f(r, &path), f(p, &path));
                    assert!((a - b).abs() < 0.005, "{set}/{tool} {path:?}: {a} vs {b}");
                }
            }
            checked += 1;
        }
    }
    assert!(checked >= SETS.len(), "only {checked} peer outputs found");
}

#[test]
#[cfg_attr(pith_no_shared, ignore = "needs ../shared/data")]
fn snippet_scorer_matches_reference_per_page() {
    let shared = shared();
    let tsv = std::fs::read_to_string(shared.join("peers/trafilatura_eval/per_page.tsv"))
        .expect("per_page.tsv");
    let mut checked = 0;
    for line in tsv
        .lines()
        .skip(1)
        .filter(|l| l.starts_with("trafilatura\t"))
        .take(2)
    {
        let cols: Vec<&str> = line.split('\t').collect();
        let (id, with_found, without_found) = (cols[1], cols[2], cols[4]);
        let pred = std::fs::read_to_string(
            shared.join(format!("peers/trafilatura_eval/trafilatura/{id}.txt")),
        )
        .unwrap_or_default();
        let gold: Value = serde_json::from_slice(
            &std::fs::read(shared.join(format!("data/trafilatura_eval/gold/{id}.json")))
                .expect("gold"),
        )
        .expect("gold json");
        let list = |k: &str| -> Vec<String> {
            gold[k]
                .as_array()
                .map(|a| {
                    a.iter()
                        .filter_map(|s| s.as_str().map(String::from))
                        .collect()
                })
                .unwrap_or_default()
        };
        let c = pith::eval::snippets(&pred, &list("with"), &list("without"));
        assert_eq!(c.tp.to_string(), with_found, "{id}");
        assert_eq!(c.fp.to_string(), without_found, "{id}");
        checked += 1;
    }
    assert_eq!(checked, 2);
}

#[test]
#[cfg_attr(pith_no_shared, ignore = "needs ../shared/data")]
fn pith_algorithms_score_in_process() {
    let data = common::shared("data/l3s_gn1");
    let v = eval_json(&[
        "--json",
        "--algo",
        "rules",
        "--algo",
        "danag",
        data.to_str().expect("utf8"),
    ]);
    assert_eq!(v["pages"].as_u64(), Some(125));
    for algo in ["rules", "danag"] {
        let f1 = f(&v["results"][algo], &["bow", "f1", "mean"]);
        assert!(f1 > 0.85, "{algo}: {f1}");
        assert!(
            v["results"][algo]["pages_per_s"]
                .as_f64()
                .is_some_and(|x| x > 0.0)
        );
    }
}

#[test]
fn bad_dataset_is_a_clear_error() {
    let out = Command::new(env!("CARGO_BIN_EXE_pith"))
        .args(["eval", "../tests/no-such-set"])
        .output()
        .expect("run");
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("no-such-set"));
}
