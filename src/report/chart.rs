//! The SVG charts, written by hand as text.
//!
//! [`write_svg`] draws small multiples: a panel per table, titled with the table's id and
//! its verdict, and in it a horizontal bar per contender, labelled with its name, as long
//! as the contender's paired ratio to the table's fastest row (1 is the fastest) on a
//! linear axis from 0 to [`CLIP`]; a bar that would run past it stops there and has its
//! value written at its end. A whisker spans the middle half of the rounds' ratios.
//! arena-kit's rows are blue with bold labels, the hand-written limit grey, the peers
//! orange.
//!
//! [`write_normalised_svg`] draws the overview: a line per table, the verdict's paired
//! ratio (arena-kit's best row over the best peer's) as a dot with its whisker on a log
//! axis around 1, coloured by what it shows, the verdict in words beside it.
//!
//! Both are self-contained SVG with a `viewBox`, in the generic `sans-serif` family;
//! widths of text are estimated from the characters, generously, since the reader's
//! font is not known.

use std::fmt::Write as _;
use std::path::Path;

use super::stats::{Spread, Standing, Verdict};
use super::{Report, Row, WorkloadResult, is_arena_kit, is_limit};

/// Ratios to the fastest row past this are clipped, their value written at the bar's end.
pub const CLIP: f64 = 4.0;

/// Draws the small multiples (a panel per table) to `path`.
///
/// # Errors
///
/// The file cannot be written.
pub fn write_svg(report: &Report, path: &Path) -> Result<(), String> {
    write(path, &small_multiples(report))
}

/// Draws the overview (a line per table: arena-kit's best row over the best peer's) to
/// `path`.
///
/// # Errors
///
/// The file cannot be written.
pub fn write_normalised_svg(report: &Report, path: &Path) -> Result<(), String> {
    write(path, &overview(report))
}

fn write(path: &Path, svg: &str) -> Result<(), String> {
    std::fs::write(path, svg).map_err(|e| format!("cannot write {}: {e}", path.display()))
}

/// The colours: one per kind of row, one per verdict, and the greys around them.
mod colour {
    pub(super) const ARENA_KIT: &str = "#2b6cd4";
    pub(super) const ARENA_KIT_TEXT: &str = "#174a9c";
    pub(super) const PEER: &str = "#ef9a3c";
    pub(super) const LIMIT: &str = "#a9a9a9";
    pub(super) const AHEAD: &str = "#1a7f37";
    pub(super) const BEHIND: &str = "#b42318";
    pub(super) const LEVEL: &str = "#57606a";
    pub(super) const TEXT: &str = "#1f2328";
    pub(super) const MUTED: &str = "#656d76";
    pub(super) const GRID: &str = "#d8dee4";
    pub(super) const FRAME: &str = "#d0d7de";
    pub(super) const PANEL: &str = "#fbfcfd";
}

/// Font sizes, in px.
const TITLE: f64 = 13.0;
const LABEL: f64 = 12.0;
const SMALL: f64 = 11.0;

/// The small multiples' layout, in px.
const MARGIN: f64 = 16.0;
const COLUMNS: usize = 2;
const GAP: f64 = 16.0;
const PAD: f64 = 10.0;
/// The widest a contender's label may be before it wraps onto a second line.
const LABEL_MAX: f64 = 240.0;
const AXIS: f64 = 190.0;
/// Room right of the axis for the value of each bar.
const VALUE: f64 = 46.0;
const LINE: f64 = 14.0;
const BAR: f64 = 10.0;

/// What a row is, which gives its colour.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    ArenaKit,
    Limit,
    Peer,
}

impl Kind {
    fn of(contender: &str) -> Kind {
        if is_arena_kit(contender) {
            Kind::ArenaKit
        } else if is_limit(contender) {
            Kind::Limit
        } else {
            Kind::Peer
        }
    }

    fn fill(self) -> &'static str {
        match self {
            Kind::ArenaKit => colour::ARENA_KIT,
            Kind::Limit => colour::LIMIT,
            Kind::Peer => colour::PEER,
        }
    }
}

fn standing_colour(standing: Standing) -> &'static str {
    match standing {
        Standing::Ahead => colour::AHEAD,
        Standing::Level => colour::LEVEL,
        Standing::Behind => colour::BEHIND,
    }
}

/// `text` with the five characters XML gives a meaning to escaped.
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            c => out.push(c),
        }
    }
    out
}

/// The width of `text` at font `size`, estimated on the wide side (`DejaVu Sans`, the
/// widest common sans-serif; Helvetica and Arial come out narrower).
fn text_width(text: &str, size: f64, bold: bool) -> f64 {
    let em: f64 = text
        .chars()
        .map(|c| match c {
            'i' | 'j' | 'l' | '.' | ',' | ':' | ';' | '\'' | '|' | '!' => 0.30,
            ' ' | '(' | ')' | '[' | ']' | 'I' | 'f' | 't' | 'r' | '-' => 0.40,
            'm' | 'w' | 'M' | 'W' => 0.92,
            'A'..='Z' | '<' | '>' | '=' | '+' | '_' | '&' | '%' => 0.72,
            _ => 0.62,
        })
        .sum();
    em * size * if bold { 1.08 } else { 1.0 }
}

/// `text` in lines no wider than `width`, broken after a comma where the clause after it
/// fits a line and the line before it is half full, else at spaces; a word wider than
/// `width` gets a line of its own.
fn wrap(text: &str, width: f64, size: f64, bold: bool) -> Vec<String> {
    let fits = |line: &str| text_width(line, size, bold) <= width;
    let mut lines: Vec<String> = Vec::new();
    let mut line = String::new();
    for clause in text.split_inclusive(", ").map(str::trim_end) {
        let joined = if line.is_empty() { clause.to_owned() } else { format!("{line} {clause}") };
        if fits(&joined) {
            line = joined;
            continue;
        }
        // Break at the comma only where the line is well filled already.
        if fits(clause) && text_width(&line, size, bold) >= width / 2.0 {
            lines.push(std::mem::replace(&mut line, clause.to_owned()));
            continue;
        }
        for word in clause.split(' ').filter(|w| !w.is_empty()) {
            let joined = if line.is_empty() { word.to_owned() } else { format!("{line} {word}") };
            if line.is_empty() || fits(&joined) {
                line = joined;
            } else {
                lines.push(std::mem::replace(&mut line, word.to_owned()));
            }
        }
    }
    lines.push(line);
    lines
}

/// A bar's length on the axis (at most [`CLIP`]) and whether it was clipped.
fn clip(ratio: f64) -> (f64, bool) {
    if ratio > CLIP { (CLIP, true) } else { (ratio.max(0.0), false) }
}

/// A ratio as the chart writes it: `0.97x`, `1.41x`, `26.8x`, `341x`.
fn ratio_text(ratio: f64) -> String {
    if ratio >= 100.0 {
        format!("{ratio:.0}x")
    } else if ratio >= 10.0 {
        format!("{ratio:.1}x")
    } else {
        format!("{ratio:.2}x")
    }
}

/// A table's panel title: its id and its verdict in words, or "no verdict".
fn panel_title(result: &WorkloadResult) -> String {
    let words = result.verdict.as_ref().map_or_else(|| "no verdict".to_owned(), Verdict::words);
    format!("{} -- {words}", result.id)
}

/// The opening of an SVG document of `width` by `height` px, white, with its title.
fn open(svg: &mut String, width: f64, height: f64, title: &str) {
    let _ = writeln!(
        svg,
        r#"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width:.0} {height:.0}" width="{width:.0}" height="{height:.0}" font-family="sans-serif" fill="{}">"#,
        colour::TEXT
    );
    let _ = writeln!(svg, "<title>{}</title>", escape(title));
    let _ = writeln!(svg, r##"<rect width="100%" height="100%" fill="#ffffff"/>"##);
}

/// One line of text at (`x`, `y`, the baseline); `attrs` are extra attributes, written
/// as they are.
fn text(svg: &mut String, x: f64, y: f64, size: f64, attrs: &str, content: &str) {
    let _ = writeln!(
        svg,
        r#"<text x="{x:.1}" y="{y:.1}" font-size="{size}" {attrs}>{}</text>"#,
        escape(content)
    );
}

fn line(svg: &mut String, (x1, y1): (f64, f64), (x2, y2): (f64, f64), stroke: &str, width: f64) {
    let _ = writeln!(
        svg,
        r#"<line x1="{x1:.1}" y1="{y1:.1}" x2="{x2:.1}" y2="{y2:.1}" stroke="{stroke}" stroke-width="{width}"/>"#
    );
}

fn rect(svg: &mut String, (x, y): (f64, f64), (w, h): (f64, f64), attrs: &str) {
    let _ =
        writeln!(svg, r#"<rect x="{x:.1}" y="{y:.1}" width="{w:.1}" height="{h:.1}" {attrs}/>"#);
}

/// A whisker from `x1` to `x2` at height `y`, with end caps; an open end (`open_right`)
/// gets an arrowhead instead of a cap, for a spread that runs past the axis.
fn whisker(svg: &mut String, (x1, x2): (f64, f64), y: f64, open_right: bool) {
    const CAP: f64 = 3.5;
    if x2 - x1 < 1.0 {
        return;
    }
    let ink = colour::TEXT;
    line(svg, (x1, y), (x2, y), ink, 1.4);
    line(svg, (x1, y - CAP), (x1, y + CAP), ink, 1.4);
    if open_right {
        let _ = writeln!(
            svg,
            r#"<path d="M{:.1} {:.1} L{x2:.1} {y:.1} L{:.1} {:.1}" fill="none" stroke="{ink}" stroke-width="1.4"/>"#,
            x2 - CAP,
            y - CAP,
            x2 - CAP,
            y + CAP
        );
    } else {
        line(svg, (x2, y - CAP), (x2, y + CAP), ink, 1.4);
    }
}

/// A row of a panel: its label's lines and its kind.
struct Bar<'a> {
    row: &'a Row,
    kind: Kind,
    label: Vec<String>,
}

impl Bar<'_> {
    fn height(&self) -> f64 {
        #[expect(clippy::cast_precision_loss, reason = "one or two lines")]
        let lines = self.label.len() as f64;
        lines * LINE + 4.0
    }
}

/// A table laid out: its title and subtitle lines and its bars.
struct Panel<'a> {
    result: &'a WorkloadResult,
    title: Vec<String>,
    subtitle: Vec<String>,
    bars: Vec<Bar<'a>>,
}

/// Where a panel's parts go, across: the label column's right edge, the axis.
#[derive(Clone, Copy)]
struct Across {
    width: f64,
    label_right: f64,
    axis_left: f64,
}

impl Across {
    /// The x of ratio `r` on the axis, `r` within `0..=CLIP`.
    fn x(self, r: f64) -> f64 {
        self.axis_left + r.clamp(0.0, CLIP) / CLIP * AXIS
    }
}

impl<'a> Panel<'a> {
    fn new(result: &'a WorkloadResult, across: Across, label_width: f64) -> Panel<'a> {
        let inner = across.width - 2.0 * PAD;
        let subtitle = format!("{}; per {}, {} rounds", result.title, result.per, result.rounds);
        let bars = result
            .rows
            .iter()
            .map(|row| {
                let kind = Kind::of(&row.contender);
                let bold = kind == Kind::ArenaKit;
                Bar { row, kind, label: wrap(&row.contender, label_width, LABEL, bold) }
            })
            .collect();
        Panel {
            result,
            title: wrap(&panel_title(result), inner, TITLE, false),
            subtitle: wrap(&subtitle, inner, SMALL, false),
            bars,
        }
    }

    /// The baselines of the title's lines, of the subtitle's, and the top of the bars.
    fn head(&self) -> (Vec<f64>, Vec<f64>, f64) {
        let mut y = PAD + TITLE;
        let mut title = Vec::new();
        for _ in &self.title {
            title.push(y);
            y += TITLE + 4.0;
        }
        y -= TITLE + 4.0;
        let mut subtitle = Vec::new();
        y += 2.0;
        for _ in &self.subtitle {
            y += SMALL + 3.0;
            subtitle.push(y);
        }
        (title, subtitle, y + 10.0)
    }

    fn height(&self) -> f64 {
        // The axis's tick labels below the bars, then the padding.
        self.head().2 + self.bars.iter().map(Bar::height).sum::<f64>() + 4.0 + SMALL + 4.0 + PAD
    }

    /// Draws the panel with its top left corner at (`x`, `y`), `height` tall.
    fn draw(&self, svg: &mut String, (x, y): (f64, f64), height: f64, across: Across) {
        let _ = writeln!(svg, r#"<g class="panel" transform="translate({x:.1} {y:.1})">"#);
        let _ = writeln!(svg, "<title>{}</title>", escape(&panel_title(self.result)));
        let frame = format!(r#"fill="{}" stroke="{}" rx="4""#, colour::PANEL, colour::FRAME);
        rect(svg, (0.0, 0.0), (across.width, height), &frame);

        let (title_baselines, subtitle_baselines, top) = self.head();
        let tone =
            self.result.verdict.as_ref().map_or(colour::MUTED, |v| standing_colour(v.standing));
        let toned = format!(r#"class="title" fill="{tone}""#);
        for (i, (title, &baseline)) in self.title.iter().zip(&title_baselines).enumerate() {
            // The id in bold, then the verdict in its colour: two texts rather than two
            // tspans, which some renderers place on top of each other.
            let id = self.result.id;
            match title.strip_prefix(id) {
                Some(rest) if i == 0 => {
                    text(svg, PAD, baseline, TITLE, r#"class="title" font-weight="bold""#, id);
                    let x = PAD + text_width(id, TITLE, true) + text_width(" ", TITLE, false);
                    text(svg, x, baseline, TITLE, &toned, rest.trim_start());
                }
                _ => text(svg, PAD, baseline, TITLE, &toned, title),
            }
        }
        for (subtitle, &baseline) in self.subtitle.iter().zip(&subtitle_baselines) {
            text(svg, PAD, baseline, SMALL, &format!(r#"fill="{}""#, colour::MUTED), subtitle);
        }

        let bottom = top + self.bars.iter().map(Bar::height).sum::<f64>();
        // The grid: a line per whole ratio, the fastest's (1) darker and dashed.
        for tick in 0..=4_u8 {
            let r = f64::from(tick);
            let gx = across.x(r);
            if tick == 1 {
                let _ = writeln!(
                    svg,
                    r#"<line x1="{gx:.1}" y1="{:.1}" x2="{gx:.1}" y2="{bottom:.1}" stroke="{}" stroke-width="1" stroke-dasharray="3 2"/>"#,
                    top - 2.0,
                    colour::MUTED
                );
            } else {
                line(svg, (gx, top - 2.0), (gx, bottom), colour::GRID, 1.0);
            }
            let label = if tick == 0 { "0".to_owned() } else { format!("{tick}x") };
            let attrs = format!(r#"text-anchor="middle" fill="{}""#, colour::MUTED);
            text(svg, gx, bottom + 4.0 + SMALL, SMALL, &attrs, &label);
        }

        let mut row_top = top;
        for bar in &self.bars {
            draw_bar(svg, bar, row_top, across);
            row_top += bar.height();
        }
        let _ = writeln!(svg, "</g>");
    }
}

/// Draws one contender's label, bar, whisker and value, in the row from `row_top` down.
fn draw_bar(svg: &mut String, bar: &Bar<'_>, row_top: f64, across: Across) {
    let Spread { median, q1, q3 } = bar.row.vs_fastest;
    let centre = row_top + bar.height() / 2.0;
    #[expect(clippy::cast_precision_loss, reason = "one or two lines")]
    let lines = bar.label.len() as f64;
    // The label's lines, centred on the bar, right-aligned against the axis.
    let mut baseline = centre - (lines - 1.0) * LINE / 2.0 + LABEL * 0.35;
    let attrs = if bar.kind == Kind::ArenaKit {
        format!(r#"text-anchor="end" font-weight="bold" fill="{}""#, colour::ARENA_KIT_TEXT)
    } else {
        r#"text-anchor="end""#.to_owned()
    };
    for label in &bar.label {
        text(svg, across.label_right, baseline, LABEL, &attrs, label);
        baseline += LINE;
    }

    let (length, clipped) = clip(median);
    let (x0, x1) = (across.x(0.0), across.x(length));
    let bar_top = centre - BAR / 2.0;
    let fill = format!(r#"fill="{}""#, bar.kind.fill());
    rect(svg, (x0, bar_top), (x1 - x0, BAR), &fill);
    if clipped {
        // A break in the bar near its end: it goes on past the axis.
        let _ = writeln!(
            svg,
            r##"<path d="M{:.1} {:.1} l4 {BAR} M{:.1} {:.1} l4 {BAR}" stroke="#ffffff" stroke-width="2"/>"##,
            x1 - 14.0,
            bar_top,
            x1 - 9.0,
            bar_top
        );
    }
    whisker(svg, (across.x(q1), across.x(q3)), centre, q3 > CLIP);
    let attrs = if clipped {
        r#"font-weight="bold""#.to_owned()
    } else {
        format!(r#"fill="{}""#, colour::MUTED)
    };
    text(svg, across.x(CLIP) + 5.0, centre + SMALL * 0.35, SMALL, &attrs, &ratio_text(median));
}

/// The key above the panels: what a bar, a whisker and each colour mean.
fn legend(svg: &mut String, report: &Report, width: f64) -> f64 {
    let sizes = if report.quick { "quick sizes" } else { "full sizes" };
    let heading = "Each table: time per operation over the table's fastest row (1x = the fastest; \
                   in a threaded table, the fastest on as many threads; lower is better; \
                   linear, bars past 4x cut, their value written)";
    let mut y = MARGIN;
    for line in wrap(heading, width - 2.0 * MARGIN, TITLE, true) {
        y += TITLE + 3.0;
        text(svg, MARGIN, y, TITLE, r#"font-weight="bold""#, &line);
    }
    y += 8.0;
    let mut x = MARGIN;
    let swatch = |svg: &mut String, x: &mut f64, fill: &str, name: &str| {
        rect(svg, (*x, y), (14.0, BAR), &format!(r#"fill="{fill}""#));
        text(svg, *x + 19.0, y + BAR - 1.0, LABEL, "", name);
        *x += 19.0 + text_width(name, LABEL, false) + 18.0;
    };
    swatch(svg, &mut x, colour::ARENA_KIT, "arena-kit (bold label)");
    swatch(svg, &mut x, colour::PEER, "other crates, std");
    swatch(svg, &mut x, colour::LIMIT, "hand-written limit");
    whisker(svg, (x, x + 22.0), y + BAR / 2.0, false);
    let note = "middle half of the rounds' paired ratios";
    text(svg, x + 28.0, y + BAR - 1.0, LABEL, "", note);
    y += BAR + 6.0;
    let about = format!(
        "{} tables, {sizes}, at least {} rounds each, {} CPUs; title: the table and \
         arena-kit's best row against the best other (the limit aside)",
        report.workloads.len(),
        report.runs,
        report.cpus
    );
    for line in wrap(&about, width - 2.0 * MARGIN, SMALL, false) {
        y += SMALL + 3.0;
        text(svg, MARGIN, y, SMALL, &format!(r#"fill="{}""#, colour::MUTED), &line);
    }
    y + 10.0
}

/// The small multiples as an SVG document.
#[must_use]
pub fn small_multiples(report: &Report) -> String {
    let widest = report
        .workloads
        .iter()
        .flat_map(|w| &w.rows)
        .map(|r| text_width(&r.contender, LABEL, is_arena_kit(&r.contender)))
        .fold(0.0, f64::max);
    let label_width = widest.min(LABEL_MAX);
    let label_right = PAD + label_width;
    let axis_left = label_right + 8.0;
    let across = Across { width: axis_left + AXIS + VALUE + PAD, label_right, axis_left };
    #[expect(clippy::cast_precision_loss, reason = "two or three columns")]
    let width = 2.0 * MARGIN + COLUMNS as f64 * across.width + (COLUMNS - 1) as f64 * GAP;

    let panels: Vec<Panel<'_>> =
        report.workloads.iter().map(|w| Panel::new(w, across, label_width)).collect();
    let mut body = String::new();
    let mut y = legend(&mut body, report, width);
    for row in panels.chunks(COLUMNS) {
        let height = row.iter().map(Panel::height).fold(0.0, f64::max);
        for (column, panel) in row.iter().enumerate() {
            #[expect(clippy::cast_precision_loss, reason = "two or three columns")]
            let x = MARGIN + column as f64 * (across.width + GAP);
            panel.draw(&mut body, (x, y), height, across);
        }
        y += height + GAP;
    }
    let height = y - GAP + MARGIN;

    let mut svg = String::new();
    open(
        &mut svg,
        width,
        height,
        "arena-kit against its peers: each table's rows over its fastest",
    );
    svg.push_str(&body);
    svg.push_str("</svg>\n");
    svg
}

/// The overview's axis: log scale from 1/`SPAN` to `SPAN`.
const SPAN: f64 = 4.0;
const OVERVIEW_AXIS: f64 = 320.0;
const OVERVIEW_LINE: f64 = 20.0;

/// `n` tables, in words: "1 table", "3 tables".
fn tables(n: usize) -> String {
    if n == 1 { "1 table".to_owned() } else { format!("{n} tables") }
}

/// The overview as an SVG document.
#[must_use]
pub fn overview(report: &Report) -> String {
    let id_width =
        report.workloads.iter().map(|w| text_width(w.id, LABEL, true)).fold(0.0, f64::max);
    let words = |w: &WorkloadResult| {
        w.verdict.as_ref().map_or_else(|| "no verdict".to_owned(), Verdict::words)
    };
    let words_width =
        report.workloads.iter().map(|w| text_width(&words(w), LABEL, false)).fold(0.0, f64::max);
    let axis_left = MARGIN + id_width + 12.0;
    // 1/SPAN at the axis's left end, 1 in its middle, SPAN at its right end.
    let x = |r: f64| {
        let unit = r.clamp(1.0 / SPAN, SPAN).log2() / SPAN.log2();
        axis_left + OVERVIEW_AXIS / 2.0 * (1.0 + unit)
    };
    let words_left = axis_left + OVERVIEW_AXIS + 14.0;
    let width = (words_left + words_width + MARGIN).max(560.0);

    let mut body = String::new();
    let heading = "arena-kit's fastest row over the fastest other row (the limit aside), per table: \
                   the paired ratio's median and middle half (log scale; left of 1x, arena-kit is faster)";
    let mut y = MARGIN;
    for line in wrap(heading, width - 2.0 * MARGIN, TITLE, true) {
        y += TITLE + 3.0;
        text(&mut body, MARGIN, y, TITLE, r#"font-weight="bold""#, &line);
    }
    let count = |standing: Standing| {
        report
            .workloads
            .iter()
            .filter(|w| w.verdict.as_ref().is_some_and(|v| v.standing == standing))
            .count()
    };
    let none = report.workloads.iter().filter(|w| w.verdict.is_none()).count();
    let mut counts = format!(
        "arena-kit is ahead in {}, level in {}, behind in {}",
        tables(count(Standing::Ahead)),
        count(Standing::Level),
        count(Standing::Behind)
    );
    if none > 0 {
        let _ = write!(counts, "; {none} without a verdict");
    }
    y += SMALL + 6.0;
    text(&mut body, MARGIN, y, SMALL, &format!(r#"fill="{}""#, colour::MUTED), &counts);
    y += 10.0;
    let top = y;
    #[expect(clippy::cast_precision_loss, reason = "a few tables")]
    let bottom = top + report.workloads.len() as f64 * OVERVIEW_LINE;
    for tick in [0.25, 0.5, 1.0, 2.0, 4.0] {
        let gx = x(tick);
        let stroke = if (tick - 1.0_f64).abs() < 1e-9 { colour::MUTED } else { colour::GRID };
        line(&mut body, (gx, top), (gx, bottom), stroke, 1.0);
        let attrs = format!(r#"text-anchor="middle" fill="{}""#, colour::MUTED);
        text(&mut body, gx, bottom + 4.0 + SMALL, SMALL, &attrs, &format!("{tick}x"));
    }
    for (i, w) in report.workloads.iter().enumerate() {
        #[expect(clippy::cast_precision_loss, reason = "a few tables")]
        let centre = top + (i as f64 + 0.5) * OVERVIEW_LINE;
        let baseline = centre + LABEL * 0.35;
        let _ = writeln!(body, r#"<g class="table">"#);
        text(&mut body, MARGIN, baseline, LABEL, r#"font-weight="bold""#, w.id);
        let tone = w.verdict.as_ref().map_or(colour::MUTED, |v| standing_colour(v.standing));
        if let Some(verdict) = &w.verdict {
            let Spread { median, q1, q3 } = verdict.ratio;
            whisker(&mut body, (x(q1), x(q3)), centre, q3 > SPAN);
            let _ = writeln!(
                body,
                r#"<circle cx="{:.1}" cy="{centre:.1}" r="4.5" fill="{tone}"/>"#,
                x(median)
            );
        }
        text(&mut body, words_left, baseline, LABEL, &format!(r#"fill="{tone}""#), &words(w));
        let _ = writeln!(body, "</g>");
    }
    let height = bottom + 4.0 + SMALL + MARGIN;

    let mut svg = String::new();
    open(&mut svg, width, height, "arena-kit's verdict per table");
    svg.push_str(&body);
    svg.push_str("</svg>\n");
    svg
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(contender: &str, median: f64, q1: f64, q3: f64) -> Row {
        let one = Spread { median: 1.0, q1: 1.0, q3: 1.0 };
        Row {
            contender: contender.to_owned(),
            ns_per_op: median,
            ms_per_run: 1.0,
            spread: one,
            rounds: vec![median],
            vs_fastest: Spread { median, q1, q3 },
            vs_box: None,
            instructions: None,
            checksum: 1,
            peak_bytes: 0,
            held_bytes: 0,
            pid: 1,
        }
    }

    fn table(id: &'static str, rows: Vec<Row>, verdict: Option<Verdict>) -> WorkloadResult {
        WorkloadResult {
            id,
            title: "free and construct an object",
            seed: "a seed",
            size: 10,
            per: "operation",
            rounds: 3,
            epoch_of: vec![0; 3],
            rows,
            verdict,
            memory: Vec::new(),
        }
    }

    fn report(workloads: Vec<WorkloadResult>) -> Report {
        Report {
            runs: 3,
            seconds: 0.0,
            instructions: false,
            quick: true,
            cpus: 2,
            pid: 1,
            isolate: "contender",
            pinned_cpu: None,
            shifted: true,
            warm_malloc: true,
            versions: std::collections::BTreeMap::new(),
            workloads,
        }
    }

    fn sample() -> Report {
        let ahead = Verdict::new(("arena-kit Pool", &[0.8, 0.8, 0.8]), ("slab Slab", &[1.0; 3]));
        report(vec![
            table(
                "W4",
                vec![
                    row("arena-kit Pool", 1.0, 1.0, 1.0),
                    row("slab Slab", 1.25, 1.2, 1.3),
                    row("Box", 26.8, 20.0, 30.0),
                    row("limit: Vec + u32 free list", 0.9, 0.85, 0.95),
                ],
                Some(ahead),
            ),
            table("W6", vec![row("mimalloc Vec<u8> & 'co' \"x\"", 1.0, 1.0, 1.0)], None),
            table("W7", vec![row("Box", 1.0, 1.0, 1.0)], None),
        ])
    }

    /// Every opening `<tag` of `svg` has its closing `</tag>` or closes itself.
    fn balanced(svg: &str, tag: &str) -> bool {
        let open =
            svg.matches(&format!("<{tag} ")).count() + svg.matches(&format!("<{tag}>")).count();
        let closed = svg.matches(&format!("</{tag}>")).count();
        let selfclosed = svg
            .split(&format!("<{tag} "))
            .skip(1)
            .filter(|rest| rest.split('>').next().is_some_and(|t| t.ends_with('/')))
            .count();
        open == closed + selfclosed
    }

    #[test]
    fn the_chart_is_one_svg_document_with_a_panel_per_table() {
        let svg = small_multiples(&sample());
        assert!(svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 "));
        assert!(svg.trim_end().ends_with("</svg>"));
        assert_eq!(svg.matches("<svg").count(), 1);
        assert_eq!(svg.matches(r#"<g class="panel""#).count(), 3);
        for tag in ["g", "text", "title", "rect", "line", "path"] {
            assert!(balanced(&svg, tag), "<{tag}> balanced");
        }
        assert!(svg.contains(r#"font-family="sans-serif""#), "a generic family");
        assert_eq!(svg.matches("font-family").count(), 1, "and no other");
    }

    #[test]
    fn a_panel_is_titled_with_its_id_and_verdict() {
        let svg = small_multiples(&sample());
        assert!(
            svg.contains("<title>W4 -- ahead of slab Slab (0.80x, 0.80-0.80)</title>"),
            "{svg}"
        );
        assert!(svg.contains("<title>W7 -- no verdict</title>"), "{svg}");
        assert!(svg.contains(r#"class="title" font-weight="bold">W4</text>"#), "the id in bold");
    }

    #[test]
    fn names_are_escaped() {
        let svg = small_multiples(&sample());
        assert!(svg.contains("mimalloc Vec&lt;u8&gt; &amp; &apos;co&apos; &quot;x&quot;"), "{svg}");
        assert!(!svg.contains("Vec<u8>"));
        assert_eq!(escape(r#"a<b>&"c'"#), "a&lt;b&gt;&amp;&quot;c&apos;");
    }

    #[test]
    fn a_ratio_past_the_clip_is_cut_and_written_in_bold() {
        assert_eq!(clip(26.8), (CLIP, true));
        assert_eq!(clip(1.5), (1.5, false));
        let svg = small_multiples(&sample());
        assert!(svg.contains(r#"font-weight="bold">26.8x</text>"#), "{svg}");
        assert!(svg.contains(">1.25x</text>"), "a bar within the axis has its value too");
        assert_eq!(ratio_text(0.874), "0.87x");
        assert_eq!(ratio_text(341.2), "341x");
    }

    #[test]
    fn arena_kit_the_limit_and_the_peers_have_a_colour_each() {
        let svg = small_multiples(&sample());
        for colour in [colour::ARENA_KIT, colour::PEER, colour::LIMIT] {
            assert!(svg.contains(&format!(r#"fill="{colour}"/>"#)), "{colour}");
        }
        assert!(svg.contains(&format!(
            r#"text-anchor="end" font-weight="bold" fill="{}">arena-kit Pool</text>"#,
            colour::ARENA_KIT_TEXT
        )));
    }

    #[test]
    fn long_labels_wrap_at_spaces() {
        let name = "arena-kit ArenaPool, guard per task, reset per depth, rayon";
        let lines = wrap(name, 150.0, LABEL, true);
        assert!(lines.len() >= 2, "{lines:?}");
        assert_eq!(lines.join(" "), name);
        assert!(lines.iter().all(|l| text_width(l, LABEL, true) <= 150.0));
        assert_eq!(wrap("one", 1.0, LABEL, false), ["one"], "a word longer than the line");
        let name = "bumpalo Bump::reset per job, 1 thread";
        let width = text_width("bumpalo Bump::reset per job, 1", LABEL, false);
        assert_eq!(wrap(name, width, LABEL, false), ["bumpalo Bump::reset per job,", "1 thread"]);
    }

    #[test]
    fn the_overview_has_a_line_per_table_with_its_verdict() {
        let svg = overview(&sample());
        assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"));
        assert_eq!(svg.matches(r#"<g class="table">"#).count(), 3);
        assert!(svg.contains(">ahead of slab Slab (0.80x, 0.80-0.80)</text>"), "{svg}");
        assert_eq!(svg.matches(">no verdict</text>").count(), 2);
        assert_eq!(svg.matches("<circle").count(), 1, "a dot where there is a verdict");
        assert!(svg.contains(">arena-kit is ahead in 1 table, level in 0, behind in 0; 2 without a verdict</text>"), "{svg}");
        for tag in ["g", "text", "title", "circle", "line"] {
            assert!(balanced(&svg, tag), "<{tag}> balanced");
        }
    }
}
