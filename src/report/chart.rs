//! The SVG charts: one bar group per workload, one bar per contender family (the fastest
//! of each), on a log scale; [`write_svg`] in nanoseconds per operation,
//! [`write_normalised_svg`] as each family's ratio to the workload's fastest row.

use std::path::Path;

use plotters::prelude::*;

use super::Report;

/// Families in the order of the legend, each with the name prefixes of its contenders.
const FAMILIES: &[(&str, &[&str])] = &[
    ("arena-kit", &["arena-kit"]),
    ("Box / std / malloc", &["Box", "std ", "Vec<u8> (malloc)"]),
    ("mimalloc", &["mimalloc"]),
    ("bumpalo", &["bumpalo"]),
    ("bump-scope", &["bump-scope"]),
    ("typed-arena", &["typed-arena"]),
    ("slab", &["slab "]),
    ("slotmap", &["slotmap"]),
    ("sharded-slab", &["sharded-slab"]),
    ("soa_derive", &["soa_derive"]),
    ("Mutex + slab", &["Mutex<"]),
    ("limit", &["limit"]),
];

/// The fastest time per operation of the family with name `prefixes` in workload `w`,
/// if it runs there.
fn family_best(report: &Report, w: usize, prefixes: &[&str]) -> Option<f64> {
    report.workloads[w]
        .rows
        .iter()
        .filter(|r| prefixes.iter().any(|p| r.contender.starts_with(p)))
        .map(|r| r.ns_per_op)
        .min_by(f64::total_cmp)
}

/// The fastest time per operation of any row of workload `w`.
fn fastest(report: &Report, w: usize) -> Option<f64> {
    report.workloads[w].rows.iter().map(|r| r.ns_per_op).min_by(f64::total_cmp)
}

/// Draws the chart of nanoseconds per operation to `path`.
///
/// # Errors
///
/// Drawing or writing failed.
pub fn write_svg(report: &Report, path: &Path) -> Result<(), String> {
    let chart = Chart {
        caption: "arena-kit against peers: ns per operation (log scale, lower is better)",
        y_desc: "ns per operation",
        value: &|w, prefixes| family_best(report, w, prefixes),
    };
    draw(report, &chart, path).map_err(|e| format!("cannot draw {}: {e}", path.display()))
}

/// Draws the normalised chart to `path`: per workload, each family's fastest row divided
/// by the workload's fastest row (1 is the fastest; the limit rows count).
///
/// # Errors
///
/// Drawing or writing failed.
pub fn write_normalised_svg(report: &Report, path: &Path) -> Result<(), String> {
    let chart = Chart {
        caption: "each family's fastest row against the workload's fastest (log scale, 1 = fastest)",
        y_desc: "times the fastest row",
        value: &|w, prefixes| Some(family_best(report, w, prefixes)? / fastest(report, w)?),
    };
    draw(report, &chart, path).map_err(|e| format!("cannot draw {}: {e}", path.display()))
}

/// What one chart shows: its texts and the bar of a family (its name prefixes) in a
/// workload (its index), if the family runs there.
struct Chart<'a> {
    caption: &'a str,
    y_desc: &'a str,
    value: &'a dyn Fn(usize, &[&str]) -> Option<f64>,
}

#[expect(clippy::cast_precision_loss, reason = "a handful of workloads and families")]
fn draw(report: &Report, spec: &Chart<'_>, path: &Path) -> Result<(), Box<dyn std::error::Error>> {
    let groups = report.workloads.len();
    let values: Vec<Vec<Option<f64>>> = (0..groups)
        .map(|w| FAMILIES.iter().map(|&(_, prefixes)| (spec.value)(w, prefixes)).collect())
        .collect();
    let all = values.iter().flatten().flatten().copied();
    let (lo, hi) = all.fold((f64::INFINITY, 0.0_f64), |(lo, hi), v| (lo.min(v), hi.max(v)));
    // Headroom above the tallest bar for the workload labels and the legend.
    let (lo, hi) = if lo.is_finite() && hi > 0.0 { (lo / 2.0, hi * 20.0) } else { (0.1, 10.0) };

    let width = 400 + 140 * u32::try_from(groups).unwrap_or(32);
    let root = SVGBackend::new(path, (width, 520)).into_drawing_area();
    root.fill(&WHITE)?;
    let mut chart = ChartBuilder::on(&root)
        .caption(spec.caption, ("sans-serif", 18))
        .margin(12)
        .x_label_area_size(32)
        .y_label_area_size(60)
        // A spare group width on the right holds the legend.
        .build_cartesian_2d(0.0..groups as f64 + 1.2, (lo..hi).log_scale())?;
    chart
        .configure_mesh()
        .disable_x_mesh()
        .x_label_formatter(&|_| String::new())
        .y_desc(spec.y_desc)
        .draw()?;
    // Each workload's id, centred over its group.
    chart.draw_series(report.workloads.iter().enumerate().map(|(w, result)| {
        Text::new(
            result.id.to_owned(),
            (w as f64 + 0.45, hi / 4.0),
            ("sans-serif", 16).into_font().color(&BLACK),
        )
    }))?;
    let width = 0.8 / FAMILIES.len() as f64;
    for (f, &(family, _)) in FAMILIES.iter().enumerate() {
        let color = Palette99::pick(f);
        let bars: Vec<_> = (0..groups)
            .filter_map(|w| values[w][f].map(|v| (w, v)))
            .map(|(w, v)| {
                let x0 = w as f64 + 0.1 + f as f64 * width;
                Rectangle::new([(x0, lo), (x0 + width * 0.9, v)], color.filled())
            })
            .collect();
        chart
            .draw_series(bars)?
            .label(family)
            .legend(move |(x, y)| Rectangle::new([(x, y - 5), (x + 10, y + 5)], color.filled()));
    }
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperRight)
        .background_style(WHITE.mix(0.9))
        .border_style(BLACK)
        .draw()?;
    root.present()?;
    Ok(())
}
