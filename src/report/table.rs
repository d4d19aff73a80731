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

/// One workload's table: per contender, ns per operation, ms per run, ratio to `Box`
/// (where `Box` runs) and to the fastest, then the peak bytes taken during its runs and
/// the bytes still held after them.
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
            "===== {:<38} ===== ---> {:9.2} ns/{:<9} {:9.3} ms/run  {vs_box} Box  {:6.2}x fastest  peak {:>9}  held {:>9}",
            row.contender,
            row.ns_per_op,
            result.per,
            row.ms_per_run,
            row.ns_per_op / fastest,
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
/// memory.
#[must_use]
pub fn summary(report: &Report) -> String {
    let mut out = String::from(
        "\nSummary: arena-kit's fastest against the fastest peer (time; peak bytes)\n",
    );
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
        let memory = format!(
            "; peak {} against {}{}",
            bytes(i128::from(ours.peak_bytes)),
            bytes(i128::from(peer.peak_bytes)),
            peak_ratio(ours, peer).map_or(String::new(), |r| format!(" ({r:.2}x)"))
        );
        let _ = writeln!(out, "  {:<7} {:<38} {verdict}{limit}{memory}", w.id, ours.contender);
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
