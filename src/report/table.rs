//! The printed tables, in the seeds' style (`===== ScopeAlloc ===== ---> ...`), and the
//! closing summary of where arena-kit stands.

use std::fmt::Write;

use super::{Report, Row, WorkloadResult};

/// The contender rows count as arena-kit's.
fn is_arena_kit(row: &Row) -> bool {
    row.contender.starts_with("arena-kit")
}

/// The hand-written physical limit, not a contender one could pick.
fn is_limit(row: &Row) -> bool {
    row.contender.starts_with("limit")
}

/// One workload's table: per contender, ns per operation, ms per run, ratio to `Box`
/// (where `Box` runs) and to the fastest.
#[must_use]
pub fn render(result: &WorkloadResult) -> String {
    let fastest = result.rows.iter().map(|r| r.ns_per_op).fold(f64::INFINITY, f64::min);
    let boxed = result.rows.iter().find(|r| r.contender.starts_with("Box")).map(|r| r.ns_per_op);
    let mut out = String::new();
    let _ = writeln!(
        out,
        "\n{} -- {} (n = {}; seed {})",
        result.id, result.title, result.size, result.seed
    );
    for row in &result.rows {
        let vs_box =
            boxed.map_or(String::from("      -"), |b| format!("{:6.2}x", row.ns_per_op / b));
        let _ = writeln!(
            out,
            "===== {:<38} ===== ---> {:9.2} ns/{:<9} {:9.3} ms/run  {vs_box} Box  {:6.2}x fastest",
            row.contender,
            row.ns_per_op,
            result.per,
            row.ms_per_run,
            row.ns_per_op / fastest
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
    out
}

/// Where arena-kit's best contender stands in each workload, against the best of the
/// others (the hand-written limit aside) and against the limit.
#[must_use]
pub fn summary(report: &Report) -> String {
    let mut out = String::from("\nSummary: arena-kit's best against the best peer\n");
    for w in &report.workloads {
        let best = |keep: &dyn Fn(&Row) -> bool| {
            w.rows.iter().filter(|r| keep(r)).min_by(|a, b| a.ns_per_op.total_cmp(&b.ns_per_op))
        };
        let (Some(ours), Some(peer)) =
            (best(&is_arena_kit), best(&|r: &Row| !is_arena_kit(r) && !is_limit(r)))
        else {
            continue;
        };
        let ratio = ours.ns_per_op / peer.ns_per_op;
        let verdict = if ratio <= 1.0 {
            format!("fastest ({:.2}x {})", ratio, peer.contender)
        } else if ratio <= 1.1 {
            format!("within {:.1}% of {}", (ratio - 1.0) * 100.0, peer.contender)
        } else {
            format!("behind {} by {ratio:.2}x", peer.contender)
        };
        let limit = best(&is_limit)
            .map_or(String::new(), |l| format!("; {:.2}x the limit", ours.ns_per_op / l.ns_per_op));
        let _ = writeln!(out, "  {:<7} {:<38} {verdict}{limit}", w.id, ours.contender);
    }
    out
}
