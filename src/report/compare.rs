//! `--compare A B`: what differs between two saved runs of the report.
//!
//! The report's claims are its verdicts (ahead, level, behind) and its ratios. Two runs
//! of the same binary on the same machine should agree on all of them; this reads two
//! `report.json` files and lists every table whose verdict changed or whose verdict
//! ratio moved by more than [`TOLERANCE`], and every row whose paired ratio to its
//! table's reference row moved by more than that. The reference is the first run's
//! fastest row (of the row's thread count, in a threaded table: [`super::thread_groups`]),
//! the same row in both runs, so that two runs whose fastest rows trade places by a
//! percent do not count every other row as moved. `scripts/report-stability.sh` runs the report twice
//! and calls it.

use std::fmt::Write;
use std::path::Path;

use serde::Deserialize;

use super::stats::{Spread, Verdict, paired};

/// How far a ratio may move between two runs and still count as the same (5 %).
pub const TOLERANCE: f64 = 0.05;

/// The part of a saved row a comparison reads. `rounds` and `ns_per_op` are absent from
/// runs saved before rows kept their rounds: those compare `vs_fastest`.
#[derive(Debug, Deserialize)]
struct SavedRow {
    contender: String,
    vs_fastest: Spread,
    #[serde(default)]
    ns_per_op: f64,
    #[serde(default)]
    rounds: Vec<f64>,
}

/// The reference row of each row of `rows` (by index): the fastest of its thread group.
fn references(rows: &[SavedRow]) -> Vec<usize> {
    let names: Vec<&str> = rows.iter().map(|r| r.contender.as_str()).collect();
    let medians: Vec<f64> = rows.iter().map(|r| r.ns_per_op).collect();
    super::fastest_in_group(&names, &medians)
}

/// Row `row`'s ratio to row `reference` of the same run: the median of their paired
/// rounds, or the saved ratio to the fastest where the rounds were not saved.
fn ratio(row: &SavedRow, reference: &SavedRow) -> f64 {
    if row.rounds.is_empty() || row.rounds.len() != reference.rounds.len() {
        row.vs_fastest.median
    } else {
        paired(&row.rounds, &reference.rounds).median
    }
}

/// The part of a saved table a comparison reads.
#[derive(Debug, Deserialize)]
struct SavedTable {
    id: String,
    rows: Vec<SavedRow>,
    verdict: Option<Verdict>,
}

/// The part of a saved run a comparison reads.
#[derive(Debug, Deserialize)]
struct Saved {
    workloads: Vec<SavedTable>,
}

/// How far `b` is from `a`, as a fraction of `a` (0.05 is 5 %).
fn moved(a: f64, b: f64) -> f64 {
    (b / a - 1.0).abs()
}

/// What differs between the runs saved as `a` and `b` (the text of two `report.json`
/// files): one line per changed verdict or moved ratio, then a count.
///
/// # Errors
///
/// A text that is not a saved report.
pub fn compare(a: &str, b: &str) -> Result<String, String> {
    let a: Saved = serde_json::from_str(a).map_err(|e| format!("the first run: {e}"))?;
    let b: Saved = serde_json::from_str(b).map_err(|e| format!("the second run: {e}"))?;
    let mut out = String::new();
    let (mut tables, mut rows, mut verdicts, mut ratios) = (0, 0, 0, 0);
    for ta in &a.workloads {
        let Some(tb) = b.workloads.iter().find(|t| t.id == ta.id) else { continue };
        tables += 1;
        if let (Some(va), Some(vb)) = (&ta.verdict, &tb.verdict) {
            if va.standing != vb.standing {
                verdicts += 1;
                let _ = writeln!(out, "  {:<7} verdict: {} -> {}", ta.id, va.words(), vb.words());
            } else if moved(va.ratio.median, vb.ratio.median) > TOLERANCE {
                ratios += 1;
                let _ = writeln!(
                    out,
                    "  {:<7} verdict ratio moved: {:.2}x -> {:.2}x ({})",
                    ta.id, va.ratio.median, vb.ratio.median, vb.standing
                );
            }
        }
        let refs = references(&ta.rows);
        let find = |name: &str| tb.rows.iter().find(|r| r.contender == name);
        for (ra, &k) in ta.rows.iter().zip(&refs) {
            let reference = &ta.rows[k];
            let (Some(rb), Some(reference_b)) = (find(&ra.contender), find(&reference.contender))
            else {
                continue;
            };
            rows += 1;
            let (x, y) = (ratio(ra, reference), ratio(rb, reference_b));
            if moved(x, y) > TOLERANCE {
                ratios += 1;
                let _ = writeln!(
                    out,
                    "  {:<7} {:<40} {x:.2}x -> {y:.2}x {}",
                    ta.id, ra.contender, reference.contender
                );
            }
        }
    }
    let _ = writeln!(
        out,
        "{tables} tables and {rows} rows in both runs: {verdicts} verdicts changed, \
         {ratios} ratios moved by more than {:.0} %",
        TOLERANCE * 100.0
    );
    Ok(out)
}

/// [`compare`] of two files.
///
/// # Errors
///
/// A file that cannot be read or is not a saved report.
pub fn compare_files(a: &Path, b: &Path) -> Result<String, String> {
    let read = |p: &Path| std::fs::read_to_string(p).map_err(|e| format!("{}: {e}", p.display()));
    compare(&read(a)?, &read(b)?)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(standing: &str, ratio: f64, fastest: &[(&str, f64)]) -> String {
        let rows: Vec<String> = fastest
            .iter()
            .map(|(name, r)| {
                format!(
                    r#"{{"contender":"{name}","vs_fastest":{{"median":{r},"q1":{r},"q3":{r}}}}}"#
                )
            })
            .collect();
        format!(
            r#"{{"workloads":[{{"id":"W4","rows":[{}],"verdict":{{"ours":"arena-kit Pool","peer":"slab Slab",
            "ratio":{{"median":{ratio},"q1":{ratio},"q3":{ratio}}},"standing":"{standing}"}}}}]}}"#,
            rows.join(",")
        )
    }

    #[test]
    fn the_same_run_twice_differs_in_nothing() {
        let a = run("ahead", 0.8, &[("arena-kit Pool", 1.0), ("slab Slab", 1.25)]);
        let report = compare(&a, &a).unwrap();
        assert_eq!(report.lines().count(), 1, "{report}");
        assert!(report.contains("1 tables and 2 rows in both runs: 0 verdicts changed, 0 ratios"));
    }

    #[test]
    fn a_changed_verdict_and_moved_ratios_are_listed() {
        let a = run("ahead", 0.8, &[("arena-kit Pool", 1.0), ("slab Slab", 1.25)]);
        let b = run("level", 0.99, &[("arena-kit Pool", 1.0), ("slab Slab", 1.01)]);
        let report = compare(&a, &b).unwrap();
        assert!(report.contains("W4      verdict: ahead of slab Slab"), "{report}");
        assert!(report.contains("-> level with slab Slab"), "{report}");
        assert!(report.contains("slab Slab") && report.contains("1.25x -> 1.01x"), "{report}");
        assert!(report.contains("1 verdicts changed, 1 ratios moved"), "{report}");
        // A ratio that moved 4 % is the same ratio.
        let c = run("ahead", 0.83, &[("arena-kit Pool", 1.0), ("slab Slab", 1.3)]);
        assert!(compare(&a, &c).unwrap().contains("0 verdicts changed, 0 ratios moved"));
    }

    /// A table of rows with per-round times (`name`, rounds).
    fn run_with_rounds(rows: &[(&str, &[f64])]) -> String {
        let rows: Vec<String> = rows
            .iter()
            .map(|(name, rounds)| {
                let ns = Spread::of(rounds).median;
                let list: Vec<String> = rounds.iter().map(f64::to_string).collect();
                format!(
                    r#"{{"contender":"{name}","vs_fastest":{{"median":1,"q1":1,"q3":1}},"ns_per_op":{ns},"rounds":[{}]}}"#,
                    list.join(",")
                )
            })
            .collect();
        format!(r#"{{"workloads":[{{"id":"W4","rows":[{}],"verdict":null}}]}}"#, rows.join(","))
    }

    #[test]
    fn rows_are_compared_with_the_first_runs_fastest_row_round_by_round() {
        // The two fastest rows trade places by 1 %, and the second run is twice as slow:
        // every paired ratio is the same, so nothing moved.
        let a = run_with_rounds(&[("a", &[1.0, 1.0, 1.0]), ("b", &[1.01; 3]), ("c", &[2.0; 3])]);
        let b = run_with_rounds(&[("a", &[2.02; 3]), ("b", &[2.0; 3]), ("c", &[4.04; 3])]);
        let report = compare(&a, &b).unwrap();
        assert!(
            report.contains("3 rows in both runs: 0 verdicts changed, 0 ratios moved"),
            "{report}"
        );
        // Row c moves 10 % against a, the first run's fastest: named with it.
        let c = run_with_rounds(&[("a", &[1.0; 3]), ("b", &[1.01; 3]), ("c", &[2.2; 3])]);
        let report = compare(&a, &c).unwrap();
        assert!(report.contains("  W4      c ") && report.contains("2.00x -> 2.20x a"), "{report}");
        assert!(report.contains("0 verdicts changed, 1 ratios moved"), "{report}");
    }

    #[test]
    fn text_that_is_not_a_run_is_an_error() {
        assert!(compare("{}", "{}").unwrap_err().contains("the first run"));
    }
}
