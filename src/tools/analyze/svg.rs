//! The evaluation curve of an analysed game as a standalone SVG: x is the move
//! number, y the evaluation in discs from Black's point of view (above the middle
//! line Black is ahead), the exact region shaded, mistakes marked with red
//! circles, and the final result as the last point.

use super::MoveAnalysis;
use std::fmt::Write;

/// The drawing's size in pixels.
const WIDTH: f64 = 800.0;
const HEIGHT: f64 = 400.0;
/// Room for the axis labels.
const MARGIN: f64 = 40.0;
/// The vertical scale is a multiple of this many discs (and at most 64).
const Y_STEP: f64 = 8.0;

/// Escapes text for SVG content and attributes.
fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// The plot's scales: move numbers 0..=`x_max` across, ±`y_max` discs up.
struct Frame {
    x_max: f64,
    y_max: f64,
}

impl Frame {
    /// The plot's width inside the margins.
    const PLOT_W: f64 = WIDTH - 2.0 * MARGIN;
    /// The plot's height inside the margins.
    const PLOT_H: f64 = HEIGHT - 2.0 * MARGIN;

    /// The x coordinate of a ply.
    fn x(&self, ply: f64) -> f64 {
        MARGIN + Self::PLOT_W * ply / self.x_max
    }

    /// The y coordinate of a value in discs (clamped to the scale).
    fn y(&self, v: f64) -> f64 {
        let y_max = self.y_max;
        MARGIN + Self::PLOT_H * (1.0 - (v.clamp(-y_max, y_max) + y_max) / (2.0 * y_max))
    }
}

/// The SVG of `moves` (in game order) with `title`; `final_black` is the game's
/// final margin for Black if it ended.
pub fn render(moves: &[MoveAnalysis], title: &str, final_black: Option<i32>) -> String {
    // The curve: each position's value before its move, then the result.
    let mut points: Vec<(f64, f64, bool)> = moves
        .iter()
        .map(|a| (a.ply as f64 - 1.0, a.for_black(a.best_eval), a.exact))
        .collect();
    let last_ply = moves.last().map_or(0.0, |a| a.ply as f64);
    if let Some(f) = final_black {
        points.push((last_ply, f64::from(f), true));
    }
    let frame = Frame {
        x_max: last_ply.max(1.0),
        y_max: points
            .iter()
            .map(|p| p.1.abs())
            .fold(Y_STEP, f64::max)
            .div_euclid(Y_STEP)
            .mul_add(Y_STEP, Y_STEP)
            .min(64.0),
    };
    let mut s = String::new();
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" viewBox="0 0 {WIDTH} {HEIGHT}">"#
    );
    let _ = writeln!(s, r#"<title>{}</title>"#, escape(title));
    let _ = writeln!(
        s,
        r#"<rect width="{WIDTH}" height="{HEIGHT}" fill="white"/>"#
    );
    if let Some(first) = points.iter().find(|p| p.2) {
        let x0 = frame.x(first.0);
        let _ = writeln!(
            s,
            r##"<rect class="exact" x="{x0:.1}" y="{MARGIN}" width="{:.1}" height="{}" fill="#dde8f5"/>"##,
            frame.x(frame.x_max) - x0,
            Frame::PLOT_H
        );
        let _ = writeln!(
            s,
            r##"<text x="{:.1}" y="{:.1}" font-size="11" fill="#557">exact</text>"##,
            x0 + 3.0,
            MARGIN + 12.0
        );
    }
    write_axes(&mut s, &frame, title);
    write_curve(&mut s, &frame, &points, moves);
    s.push_str("</svg>\n");
    s
}

/// The axes: the frame, the zero line, the scale and the titles.
fn write_axes(s: &mut String, frame: &Frame, title: &str) {
    let (plot_w, plot_h, x_max, y_max) = (Frame::PLOT_W, Frame::PLOT_H, frame.x_max, frame.y_max);
    let _ = writeln!(
        s,
        r#"<rect x="{MARGIN}" y="{MARGIN}" width="{plot_w}" height="{plot_h}" fill="none" stroke="black"/>"#
    );
    let _ = writeln!(
        s,
        r#"<line x1="{MARGIN}" y1="{0:.1}" x2="{1:.1}" y2="{0:.1}" stroke="gray" stroke-dasharray="4 3"/>"#,
        frame.y(0.0),
        WIDTH - MARGIN
    );
    for v in [y_max, 0.0, -y_max] {
        let _ = writeln!(
            s,
            r#"<text x="{:.1}" y="{:.1}" font-size="11" text-anchor="end">{v:+}</text>"#,
            MARGIN - 4.0,
            frame.y(v) + 4.0
        );
    }
    let _ = writeln!(
        s,
        r#"<text x="{:.1}" y="{:.1}" font-size="11" text-anchor="middle">move number (0 .. {x_max}); discs for Black</text>"#,
        WIDTH / 2.0,
        HEIGHT - 12.0
    );
    let _ = writeln!(
        s,
        r#"<text x="{:.1}" y="20" font-size="13" text-anchor="middle">{}</text>"#,
        WIDTH / 2.0,
        escape(title)
    );
}

/// The evaluation curve through `points`, and a circle on every mistake.
fn write_curve(s: &mut String, frame: &Frame, points: &[(f64, f64, bool)], moves: &[MoveAnalysis]) {
    let path: Vec<String> = points
        .iter()
        .map(|p| format!("{:.1},{:.1}", frame.x(p.0), frame.y(p.1)))
        .collect();
    let _ = writeln!(
        s,
        r#"<polyline class="eval" points="{}" fill="none" stroke="black" stroke-width="1.5"/>"#,
        path.join(" ")
    );
    for a in moves.iter().filter(|a| a.is_mistake()) {
        let _ = writeln!(
            s,
            r#"<circle class="mistake" cx="{:.1}" cy="{:.1}" r="5" fill="none" stroke="red" stroke-width="2"><title>{} {}{} loses {:.2}</title></circle>"#,
            frame.x(a.ply as f64),
            frame.y(a.for_black(a.played_eval)),
            a.ply,
            a.played,
            a.mark,
            a.loss
        );
    }
}
