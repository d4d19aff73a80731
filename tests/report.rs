//! The report binary end to end: a `--quick` run at a tiny size writes a valid SVG chart
//! and a JSON file of the figures; each row comes from a child process of its own; bad
//! arguments are refused with a message; `--once` runs one contender untimed.

use std::process::Command;

fn report() -> Command {
    Command::new(env!("CARGO_BIN_EXE_arena-kit-report"))
}

#[test]
fn a_quick_tiny_run_writes_the_chart_and_the_figures() {
    let out = std::env::temp_dir().join(format!("arena-kit-report-{}", std::process::id()));
    let output = report()
        .args(["--quick", "--runs", "2", "--seconds", "0", "--scale", "100", "--out"])
        .arg(&out)
        .output()
        .expect("the report runs");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{stdout}\n{}", String::from_utf8_lossy(&output.stderr));
    assert!(stdout.contains("verdict: arena-kit"), "a verdict per table: {stdout}");
    assert!(stdout.contains("arena-kit is ahead in "), "the verdicts counted: {stdout}");
    assert!(stdout.contains("===== arena-kit"), "seed-style rows: {stdout}");
    assert!(stdout.contains("Summary"), "{stdout}");
    assert!(stdout.contains(" peak ") && stdout.contains(" held "), "memory columns: {stdout}");

    let tables = arena_kit_report::workloads::ALL.len();
    let svg = std::fs::read_to_string(out.join("report.svg")).expect("the chart is written");
    assert!(svg.starts_with("<svg") && svg.contains(" viewBox=\"0 0 "));
    assert!(svg.trim_end().ends_with("</svg>"));
    assert_eq!(svg.matches(r#"<g class="panel""#).count(), tables, "a panel per table");
    assert!(svg.contains("<title>W7 -- "), "each panel titled with its id and verdict");
    assert!(svg.contains(">sharded-slab Slab, 1 thread</text>"), "bars labelled by name");
    assert!(svg.contains(r##"font-weight="bold" fill="#174a9c">arena-kit Pool (handles)</text>"##));
    assert!(svg.contains(">mimalloc Vec&lt;u8&gt;</text>") && !svg.contains("Vec<u8>"), "escaped");
    assert!(svg.contains(">1x</text>") && svg.contains(">4x</text>"), "a linear axis to 4x");

    let overview =
        std::fs::read_to_string(out.join("report-normalised.svg")).expect("the overview");
    assert!(overview.starts_with("<svg") && overview.trim_end().ends_with("</svg>"));
    assert_eq!(overview.matches(r#"<g class="table">"#).count(), tables, "a line per table");
    assert!(overview.contains(">arena-kit is ahead in ") && overview.contains(">W7</text>"));
    assert!(stdout.contains("report-normalised.svg"), "its path is printed: {stdout}");

    let json = std::fs::read_to_string(out.join("report.json")).expect("the figures are written");
    let figures: serde_json::Value = serde_json::from_str(&json).expect("valid JSON");
    let workloads = figures["workloads"].as_array().expect("a list of workloads");
    assert_eq!(workloads.len(), arena_kit_report::workloads::ALL.len());
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

/// Runs a quick tiny report of `only` with `extra` options; its JSON figures.
fn figures_of(only: &str, extra: &[&str]) -> serde_json::Value {
    let out = std::env::temp_dir().join(format!(
        "arena-kit-report-{only}-{}-{}",
        extra.join(""),
        std::process::id()
    ));
    let output = report()
        .args(["--quick", "--runs", "1", "--seconds", "0", "--scale", "100", "--only", only])
        .args(extra)
        .arg("--out")
        .arg(&out)
        .output()
        .expect("the report runs");
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let json = std::fs::read_to_string(out.join("report.json")).expect("the figures are written");
    std::fs::remove_dir_all(&out).ok();
    serde_json::from_str(&json).expect("valid JSON")
}

/// The child pids of each workload's rows, and the report's own pid.
fn pids(figures: &serde_json::Value) -> (Vec<Vec<u64>>, u64) {
    let workloads = figures["workloads"].as_array().expect("workloads");
    let pids = workloads
        .iter()
        .map(|w| {
            let rows = w["rows"].as_array().expect("rows");
            rows.iter().map(|r| r["pid"].as_u64().expect("a pid per row")).collect()
        })
        .collect();
    (pids, figures["pid"].as_u64().expect("the report's pid"))
}

#[test]
fn every_contender_runs_in_a_child_process_of_its_own() {
    let (pids, parent) = pids(&figures_of("W4", &[]));
    assert_eq!(pids.len(), 3, "W4, W4-get, W4-2t");
    let mut all: Vec<u64> = pids.concat();
    let rows = all.len();
    all.sort_unstable();
    all.dedup();
    assert_eq!(all.len(), rows, "one child per row: {pids:?}");
    assert!(!all.contains(&parent), "the report measures nothing itself");
}

#[test]
fn isolate_workload_runs_a_child_per_workload() {
    let figures = figures_of("W4", &["--isolate", "workload"]);
    assert_eq!(figures["isolate"], "workload");
    let (pids, parent) = pids(&figures);
    let children: Vec<u64> = pids.iter().map(|w| w[0]).collect();
    assert!(pids.iter().all(|w| w.iter().all(|&p| p == w[0])), "one child per table: {pids:?}");
    assert!(children[0] != children[1] && children[1] != children[2] && children[0] != children[2]);
    assert!(!children.contains(&parent));
}

/// The row of `contender` in the workload `id` of `figures`.
fn row<'a>(figures: &'a serde_json::Value, id: &str, contender: &str) -> &'a serde_json::Value {
    let workloads = figures["workloads"].as_array().expect("workloads");
    let workload = workloads.iter().find(|w| w["id"] == id).expect("the workload ran");
    let rows = workload["rows"].as_array().expect("rows");
    rows.iter().find(|r| r["contender"] == contender).expect("the contender ran")
}

#[test]
fn each_row_reports_its_peak_and_held_bytes() {
    let figures = figures_of("W2", &[]);
    // W2 at --quick / 100: 150 values.
    let boxed = row(&figures, "W2", "Box (all kept, then dropped)");
    let peak = boxed["peak_bytes"].as_u64().expect("peak_bytes");
    assert!(peak >= 150 * 4 + 150 * 8, "150 boxes and the Vec of them: {peak}");
    assert_eq!(boxed["held_bytes"].as_i64(), Some(0), "everything dropped");
    // A pool kept in a thread-local across runs holds its block after them.
    let warm = row(&figures, "W2", "arena-kit Scope on warm BlockPool");
    assert!(warm["held_bytes"].as_i64().is_some_and(|b| b > 0), "{warm}");
    let fresh = row(&figures, "W2", "arena-kit Scope on BlockPool");
    assert_eq!(fresh["held_bytes"].as_i64(), Some(0), "{fresh}");
    assert!(fresh["peak_bytes"].as_u64().is_some_and(|b| b > 0), "{fresh}");
}

#[test]
fn blocks_on_mimalloc_count_too() {
    let figures = figures_of("W4", &[]);
    // W4 at --quick / 100: 1 000 operations on a table of 20 000 slots, 1 000 boxes.
    for name in ["Box", "mimalloc Box"] {
        let peak = row(&figures, "W4", name)["peak_bytes"].as_u64().expect("peak_bytes");
        assert!(peak >= 1000 * 64, "{name}: {peak}");
    }
}

#[test]
fn a_failing_child_says_why() {
    let output = report().args(["--serve", "W99", "--size", "1"]).output().expect("the child runs");
    assert!(!output.status.success());
    assert!(String::from_utf8_lossy(&output.stderr).contains("no workload `W99`"));
    // A child serves samples on request: ready, then one answer per `sample`.
    let mut child = report()
        .args(["--serve", "W1", "--size", "10", "--contender", "3"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("the child runs");
    {
        use std::io::Write;
        let mut stdin = child.stdin.take().expect("stdin");
        writeln!(stdin, "sample 0\nsample 0\nquit").expect("the child reads");
    }
    let output = child.wait_with_output().expect("the child ends");
    assert!(output.status.success());
    let stdout = String::from_utf8_lossy(&output.stdout);
    let mut lines = stdout.lines();
    let ready: serde_json::Value =
        serde_json::from_str(lines.next().expect("a ready line")).expect("JSON");
    assert_eq!(
        ready["rows"][0]["contender"],
        arena_kit_report::workloads::ALL[0].contenders[3].name
    );
    let samples: Vec<f64> = lines.map(|l| l.parse().expect("seconds per run")).collect();
    assert_eq!(samples.len(), 2);
    assert!(samples.iter().all(|&s| s > 0.0));
}

#[test]
fn compare_lists_what_differs_between_two_runs() {
    let out = std::env::temp_dir().join(format!("arena-kit-report-compare-{}", std::process::id()));
    let run = |dir: &str| {
        let output = report()
            .args(["--quick", "--runs", "3", "--seconds", "0", "--scale", "100", "--only", "W5"])
            .arg("--out")
            .arg(out.join(dir))
            .output()
            .expect("the report runs");
        assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
        out.join(dir).join("report.json")
    };
    let (a, b) = (run("a"), run("b"));
    let output = report().arg("--compare").arg(&a).arg(&b).output().expect("compare runs");
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let text = String::from_utf8_lossy(&output.stdout);
    let last = text.lines().last().expect("a count line");
    assert!(last.starts_with("1 tables and ") && last.contains(" rows in both runs: "), "{text}");
    let output =
        report().arg("--compare").arg(&a).arg(out.join("missing.json")).output().expect("runs");
    assert!(!output.status.success());
    assert!(String::from_utf8_lossy(&output.stderr).contains("missing.json"));
    std::fs::remove_dir_all(&out).ok();
}

#[test]
fn instructions_are_counted_under_callgrind_or_refused_with_a_reason() {
    let out = std::env::temp_dir().join(format!("arena-kit-report-instr-{}", std::process::id()));
    let output = report()
        .args([
            "--quick",
            "--runs",
            "1",
            "--seconds",
            "0",
            "--only",
            "W2",
            "--instructions",
            "--out",
        ])
        .arg(&out)
        .output()
        .expect("the report runs");
    let has_valgrind =
        Command::new("valgrind").arg("--version").output().is_ok_and(|o| o.status.success());
    if !has_valgrind {
        assert!(!output.status.success());
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(stderr.contains("--instructions needs valgrind on the PATH"), "{stderr}");
        return;
    }
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let json = std::fs::read_to_string(out.join("report.json")).expect("the figures");
    std::fs::remove_dir_all(&out).ok();
    let figures: serde_json::Value = serde_json::from_str(&json).expect("valid JSON");
    assert_eq!(figures["instructions"], true);
    let w2 = &figures["workloads"][0];
    let count = |prefix: &str| {
        let rows = w2["rows"].as_array().expect("rows");
        let row =
            rows.iter().find(|r| r["contender"].as_str().is_some_and(|c| c.starts_with(prefix)));
        row.expect("the row ran")["instructions"].as_f64().expect("counted")
    };
    // A box is a malloc and a free of 4 bytes: tens to a few hundred instructions in a
    // release build, some more in the debug build the tests run; the limit writes one
    // value into a reserved buffer, and costs less than a box either way.
    let (boxed, limit) = (count("Box"), count("limit"));
    assert!((20.0..2000.0).contains(&boxed), "Box: {boxed}");
    assert!((1.0..boxed).contains(&limit), "limit: {limit}, Box {boxed}");
}

/// The version of `name` in the workspace's `Cargo.lock` (the one arena-kit uses when
/// several are locked).
fn locked_version(name: &str) -> Vec<String> {
    let lock = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/Cargo.lock"))
        .expect("Cargo.lock");
    let header = format!("name = \"{name}\"\nversion = \"");
    lock.match_indices(&header)
        .map(|(at, _)| {
            let rest = &lock[at + header.len()..];
            rest[..rest.find('"').expect("a closing quote")].to_owned()
        })
        .collect()
}

#[test]
fn the_peers_versions_are_printed_and_saved_as_cargo_lock_has_them() {
    let out =
        std::env::temp_dir().join(format!("arena-kit-report-versions-{}", std::process::id()));
    let output = report()
        .args(["--quick", "--runs", "1", "--scale", "100", "--only", "W5", "--out"])
        .arg(&out)
        .output()
        .expect("the report runs");
    assert!(output.status.success());
    let stdout = String::from_utf8_lossy(&output.stdout);
    let json = std::fs::read_to_string(out.join("report.json")).expect("the figures");
    std::fs::remove_dir_all(&out).ok();
    let figures: serde_json::Value = serde_json::from_str(&json).expect("valid JSON");
    let versions = figures["versions"].as_object().expect("a map of versions");
    for peer in
        ["bumpalo", "bump-scope", "slab", "slotmap", "typed-arena", "sharded-slab", "mimalloc"]
    {
        let version = versions[peer].as_str().expect("a version per peer");
        assert!(locked_version(peer).iter().any(|v| v == version), "{peer} {version}");
        assert!(stdout.contains(&format!("{peer} {version}")), "{peer} printed: {stdout}");
    }
    // allocator-api2 is locked in several versions; the one saved is arena-kit's.
    let api = versions["allocator-api2"].as_str().expect("allocator-api2");
    let lock = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/Cargo.lock"))
        .expect("Cargo.lock");
    let root = &lock[lock.find("name = \"arena-kit\"").expect("the root package")..];
    let root = &root[..root.find("\n\n").unwrap_or(root.len())];
    assert!(root.contains(&format!("\"allocator-api2 {api}\"")), "{api} in {root}");

    // One progress line per workload on stderr, with the time it took.
    let stderr = String::from_utf8_lossy(&output.stderr);
    let progress: Vec<&str> = stderr.lines().filter(|l| l.starts_with('[')).collect();
    assert_eq!(progress.len(), 1, "{stderr}");
    assert!(progress[0].starts_with("[1/1] W5 ") && progress[0].ends_with(" s"), "{stderr}");
}

#[test]
fn only_selects_a_workload_and_its_variants() {
    let ids: Vec<&str> =
        arena_kit_report::report::select(Some("W4")).iter().map(|w| w.id).collect();
    assert_eq!(ids, ["W4", "W4-get", "W4-2t"]);
    let ids: Vec<&str> =
        arena_kit_report::report::select(Some("w6-1m")).iter().map(|w| w.id).collect();
    assert_eq!(ids, ["W6-1M"]);
    assert!(arena_kit_report::report::select(Some("W99")).is_empty());
    let ids: Vec<&str> =
        arena_kit_report::report::select(Some("W7-par, w1-2t,W99")).iter().map(|w| w.id).collect();
    assert_eq!(ids, ["W1-2t", "W7-par"], "in the report's order, unknown ids matching none");
    assert!(arena_kit_report::report::select(Some(",")).is_empty());
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
    for option in ["--quick", "--only", "--runs", "--out", "--scale", "--once"] {
        assert!(text.contains(option), "{option} in --help");
    }
}

#[test]
fn once_runs_one_contender_untimed_and_prints_its_checksum() {
    // W1's checksum is the sum of the round numbers: 0 + 1 + ... + 99.
    for contender in ["0", "4"] {
        let output = report().args(["--once", "W1", contender, "100"]).output().expect("runs");
        assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
        assert_eq!(String::from_utf8_lossy(&output.stdout).trim(), "4950");
    }
    let output = report().args(["--once", "W1", "99", "100"]).output().expect("runs");
    assert!(!output.status.success());
    assert!(String::from_utf8_lossy(&output.stderr).contains("not 100"));
}
