//! The printed tables, in the seeds' style (`===== ScopeAlloc ===== ---> ...`), and the
//! closing summary of where arena-kit stands.

use std::fmt::Write;

use super::stats::{Spread, Standing};
use super::{Report, Row, WorkloadResult, is_limit};

/// A byte count in binary units: `512 B`, `12.3 KiB`, `4.00 MiB`.
#[must_use]
#[expect(clippy::cast_precision_loss, reason = "shown to three digits")]
pub fn bytes(n: i128) -> String {
    let magnitude = n.unsigned_abs() as f64;
    let sign = if n < 0 { "-" } else { "" };
    if magnitude < 1024.0 {
        format!("{n} B")
    } else if magnitude < 1024.0 * 1024.0 {
        format!("{sign}{:.1} KiB", magnitude / 1024.0)
    } else if magnitude < 1024.0 * 1024.0 * 1024.0 {
        format!("{sign}{:.2} MiB", magnitude / (1024.0 * 1024.0))
    } else {
        format!("{sign}{:.2} GiB", magnitude / (1024.0 * 1024.0 * 1024.0))
    }
}

/// A paired ratio as a table cell: its median, and its interquartile range where that
/// is wider than the printed precision.
fn ratio_cell(r: &Spread) -> String {
    if r.q3 - r.q1 < 0.005 {
        format!("{:.2}x", r.median)
    } else {
        format!("{:.2}x ({:.2}-{:.2})", r.median, r.q1, r.q3)
    }
}

/// One workload's table: per contender, the median ns per operation over the rounds
/// with its interquartile range (as a percentage of the median), ms per run, the paired
/// ratio to `Box` (where `Box` runs) and to the fastest, instructions per operation
/// (with `--instructions`), the peak bytes taken during its warm-up run and the bytes
/// still held after it; then the table's verdict.
#[must_use]
pub fn render(result: &WorkloadResult) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "\n{} -- {} (n = {}; seed {}; {} rounds)",
        result.id, result.title, result.size, result.seed, result.rounds
    );
    for row in &result.rows {
        let vs_box = row.vs_box.as_ref().map_or(String::from("-"), ratio_cell);
        let instructions =
            row.instructions.map_or(String::new(), |i| format!("  {i:7.1} instr/{}", result.per));
        let _ = writeln!(
            out,
            "===== {:<38} ===== ---> {:9.2} ns/{:<9} +-{:4.1}% {:9.3} ms/run  {vs_box:>18} Box  {:>18} fastest  peak {:>9}  held {:>9}{instructions}",
            row.contender,
            row.ns_per_op,
            result.per,
            row.spread.relative_width() * 50.0,
            row.ms_per_run,
            ratio_cell(&row.vs_fastest),
            bytes(i128::from(row.peak_bytes)),
            bytes(i128::from(row.held_bytes)),
        );
    }
    for m in &result.memory {
        #[expect(clippy::cast_precision_loss, reason = "byte counts far below 2^52")]
        let ratio = m.held_bytes as f64 / m.capacity.max(1) as f64;
        let _ = writeln!(
            out,
            "      {:<38}  capacity {:>9} bytes, {:>9} held = {ratio:5.2}x capacity",
            m.contender, m.capacity, m.held_bytes
        );
    }
    if let Some(v) = &result.verdict {
        let _ = writeln!(out, "      verdict: {} {}", v.ours, v.words());
    }
    out
}

/// `ours`'s peak bytes over `peer`'s, if the peer took any.
#[must_use]
#[expect(clippy::cast_precision_loss, reason = "a ratio")]
pub fn peak_ratio(ours: &Row, peer: &Row) -> Option<f64> {
    (peer.peak_bytes > 0).then(|| ours.peak_bytes as f64 / peer.peak_bytes as f64)
}

/// Where arena-kit's best contender stands in each workload, against the best of the
/// others (the hand-written limit aside) and against the limit, in time and in peak
/// memory, and how many tables it is ahead, level and behind in.
#[must_use]
pub fn summary(report: &Report) -> String {
    let mut out = String::from(
        "\nSummary: arena-kit's fastest against the fastest peer (paired ratio of the rounds, \
         interquartile range; peak bytes)\n",
    );
    let (mut ahead, mut level, mut behind) = (0, 0, 0);
    for w in &report.workloads {
        let Some(v) = &w.verdict else { continue };
        match v.standing {
            Standing::Ahead => ahead += 1,
            Standing::Level => level += 1,
            Standing::Behind => behind += 1,
        }
        let find = |name: &str| w.rows.iter().find(|r| r.contender == name);
        let (Some(ours), Some(peer)) = (find(&v.ours), find(&v.peer)) else { continue };
        let limit = w
            .rows
            .iter()
            .filter(|r| is_limit(&r.contender))
            .min_by(|a, b| a.ns_per_op.total_cmp(&b.ns_per_op))
            .map_or(String::new(), |l| {
                let r = super::stats::paired(&ours.rounds, &l.rounds);
                format!("; {:.2}x the limit", r.median)
            });
        let memory = format!(
            "; peak {} against {}{}",
            bytes(i128::from(ours.peak_bytes)),
            bytes(i128::from(peer.peak_bytes)),
            peak_ratio(ours, peer).map_or(String::new(), |r| format!(" ({r:.2}x)"))
        );
        let _ = writeln!(out, "  {:<7} {:<38} {}{limit}{memory}", w.id, ours.contender, v.words());
    }
    let _ = writeln!(
        out,
        "  arena-kit is ahead in {ahead} tables, level in {level}, behind in {behind}"
    );
    let counted = report.workloads.iter().flat_map(|w| &w.rows).any(|r| r.instructions.is_some());
    if counted {
        let _ = writeln!(out, "  (instructions per operation are in each table's last column)");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bytes_are_shown_in_binary_units() {
        assert_eq!(bytes(0), "0 B");
        assert_eq!(bytes(1023), "1023 B");
        assert_eq!(bytes(-512), "-512 B");
        assert_eq!(bytes(1536), "1.5 KiB");
        assert_eq!(bytes(3 * 1024 * 1024), "3.00 MiB");
        assert_eq!(bytes(-(5 << 30)), "-5.00 GiB");
    }
}
