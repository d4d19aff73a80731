//! The report binary end to end: a `--quick` run at a tiny size writes a valid SVG chart
//! and a JSON file of the figures; bad arguments are refused with a message.

use std::process::Command;

fn report() -> Command {
    Command::new(env!("CARGO_BIN_EXE_arena-kit"))
}

#[test]
fn a_quick_tiny_run_writes_the_chart_and_the_figures() {
    let out = std::env::temp_dir().join(format!("arena-kit-report-{}", std::process::id()));
    let output = report()
        .args(["--quick", "--runs", "1", "--scale", "100", "--out"])
        .arg(&out)
        .output()
        .expect("the report runs");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{stdout}\n{}", String::from_utf8_lossy(&output.stderr));
    assert!(stdout.contains("===== arena-kit"), "seed-style rows: {stdout}");
    assert!(stdout.contains("Summary"), "{stdout}");

    let svg = std::fs::read_to_string(out.join("report.svg")).expect("the chart is written");
    assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"));
    assert!(svg.contains("arena-kit") && svg.contains("W7") && svg.contains("sharded-slab"));

    let json = std::fs::read_to_string(out.join("report.json")).expect("the figures are written");
    let figures: serde_json::Value = serde_json::from_str(&json).expect("valid JSON");
    let workloads = figures["workloads"].as_array().expect("a list of workloads");
    assert_eq!(workloads.len(), arena_kit::workloads::ALL.len());
    for w in workloads {
        let rows = w["rows"].as_array().expect("rows");
        assert!(rows.iter().all(|r| r["ns_per_op"].as_f64().is_some_and(|ns| ns > 0.0)));
        let sums: Vec<_> = rows.iter().map(|r| r["checksum"].as_u64()).collect();
        assert!(sums.windows(2).all(|p| p[0] == p[1]), "checksums agree in {}", w["id"]);
        if w["id"] == "W6" {
            let memory = w["memory"].as_array().expect("W6 reports what each string holds");
            assert!(memory.iter().all(|m| m["held_bytes"].as_u64().is_some_and(|b| b > 0)));
        }
    }
    assert!(stdout.contains("held ="), "W6's memory lines: {stdout}");
    std::fs::remove_dir_all(&out).ok();
}

#[test]
fn only_selects_a_workload_and_its_variants() {
    let ids: Vec<&str> = arena_kit::report::select(Some("W4")).iter().map(|w| w.id).collect();
    assert_eq!(ids, ["W4", "W4-get", "W4-2t"]);
    let ids: Vec<&str> = arena_kit::report::select(Some("w6-1m")).iter().map(|w| w.id).collect();
    assert_eq!(ids, ["W6-1M"]);
    assert!(arena_kit::report::select(Some("W99")).is_empty());
}

#[test]
fn an_unknown_workload_or_option_is_an_error_with_a_message() {
    let output = report().args(["--only", "W99"]).output().expect("the report runs");
    assert!(!output.status.success());
    assert!(String::from_utf8_lossy(&output.stderr).contains("no workload matches `W99`"));
    let output = report().arg("--fast").output().expect("the report runs");
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("unknown option `--fast`"));
}

#[test]
fn help_explains_the_options() {
    let output = report().arg("--help").output().expect("the report runs");
    let text = String::from_utf8_lossy(&output.stdout);
    for option in ["--quick", "--only", "--runs", "--out", "--scale"] {
        assert!(text.contains(option), "{option} in --help");
    }
}
