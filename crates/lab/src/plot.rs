//! The plots: line charts (mostly log-scale) and scatters as SVG text.

use anyhow::{anyhow, Result};
use plotters::prelude::*;

fn plot_err<E: std::fmt::Debug>(e: E) -> anyhow::Error {
    anyhow!("plot: {e:?}")
}

const COLOURS: [RGBColor; 8] = [
    RGBColor(31, 119, 180),
    RGBColor(255, 127, 14),
    RGBColor(44, 160, 44),
    RGBColor(214, 39, 40),
    RGBColor(148, 103, 189),
    RGBColor(140, 86, 75),
    RGBColor(227, 119, 194),
    RGBColor(127, 127, 127),
];

/// Width of the chart and of the legend's column beside it, in pixels.
const WIDTH: u32 = 900;

/// Series `i`'s line and name in the legend beside a plot.
fn legend_entry<DB: DrawingBackend>(
    area: &DrawingArea<DB, plotters::coord::Shift>,
    i: usize,
    name: &str,
    c: RGBColor,
) -> Result<()> {
    let y = 60 + 22 * i as i32;
    area.draw(&PathElement::new(vec![(5, y), (25, y)], c.stroke_width(2)))
        .map_err(plot_err)?;
    area.draw(&Text::new(
        name.to_string(),
        (32, y - 7),
        ("sans-serif", 14).into_font(),
    ))
    .map_err(plot_err)
}
const LEGEND: u32 = 260;

/// A y tick of the log scale: whole numbers as such below 10⁴, above as
/// powers of ten (`1e5`), never `100000.0`.
fn tick(y: f64) -> String {
    if y < 1e4 {
        format!("{y:.0}")
    } else {
        format!("{y:.0e}")
    }
}

/// A line plot with a log-scale y axis (nodes grow exponentially with
/// depth): one series per `(name, points)`, x values labelled by
/// `x_labels[x]` where there is one. Returns the SVG document.
pub fn log_plot(
    title: &str,
    x_desc: &str,
    x_labels: &[String],
    series: &[(String, Vec<(u32, f64)>)],
) -> Result<String> {
    log_plot_of(title, x_desc, "nodes", x_labels, series)
}

/// [`log_plot`] of another quantity than nodes, named `y_desc` (bytes of
/// memory, say).
pub fn log_plot_of(
    title: &str,
    x_desc: &str,
    y_desc: &str,
    x_labels: &[String],
    series: &[(String, Vec<(u32, f64)>)],
) -> Result<String> {
    let max_x = series
        .iter()
        .flat_map(|s| s.1.iter().map(|p| p.0))
        .max()
        .unwrap_or(1);
    let min_x = series
        .iter()
        .flat_map(|s| s.1.iter().map(|p| p.0))
        .min()
        .unwrap_or(0);
    let max_y = series
        .iter()
        .flat_map(|s| s.1.iter().map(|p| p.1))
        .fold(10.0f64, f64::max)
        * 2.0;
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (WIDTH + LEGEND, 560)).into_drawing_area();
        root.fill(&WHITE).map_err(plot_err)?;
        // The legend has a column of its own beside the chart: inside the
        // plotting area it covered points whichever corner it took.
        let (plot_area, legend_area) = root.split_horizontally(WIDTH);
        let mut chart = ChartBuilder::on(&plot_area)
            .caption(title, ("sans-serif", 20))
            .margin(15)
            // Room for the last x label, centred on the right edge: about
            // half its width (the labels are drawn ~10 px high, ~6 px a
            // letter).
            .margin_right(
                x_labels
                    .last()
                    .map_or(0, |l| 4 * l.chars().count() as u32)
                    .max(30),
            )
            .x_label_area_size(45)
            .y_label_area_size(80)
            .build_cartesian_2d(min_x..max_x, (1f64..max_y).log_scale())
            .map_err(plot_err)?;
        let labels = x_labels.to_vec();
        chart
            .configure_mesh()
            .x_desc(x_desc)
            .y_desc(y_desc)
            // Every x its label where there are few (depths); past 31 (the
            // positions of an experiment) plotters' round steps.
            .x_labels(((max_x - min_x + 1) as usize).min(31))
            .x_label_formatter(&|x| {
                labels
                    .get(*x as usize)
                    .cloned()
                    .unwrap_or_else(|| x.to_string())
            })
            .y_label_formatter(&|y| tick(*y))
            .draw()
            .map_err(plot_err)?;
        for (i, (name, pts)) in series.iter().enumerate() {
            let c = COLOURS[i % COLOURS.len()];
            chart
                .draw_series(LineSeries::new(
                    pts.iter().map(|&(x, y)| (x, y.max(1.0))),
                    c.stroke_width(2),
                ))
                .map_err(plot_err)?;
            legend_entry(&legend_area, i, name, c)?;
            chart
                .draw_series(
                    pts.iter()
                        .map(|&(x, y)| Circle::new((x, y.max(1.0)), 3, c.filled())),
                )
                .map_err(plot_err)?;
        }
        root.present().map_err(plot_err)?;
    }
    Ok(svg)
}

/// Accuracy against size of decision trees (`zoo tree`): one series per
/// tree sequence of `(leaves, accuracy in %)`, the leaves on a log scale
/// (perfect trees have hundreds, the interesting trade-offs are at a
/// few). Returns the SVG document.
pub fn tradeoff_plot(title: &str, series: &[(String, Vec<(f64, f64)>)]) -> Result<String> {
    let max_x = series
        .iter()
        .flat_map(|s| s.1.iter().map(|p| p.0))
        .fold(2.0f64, f64::max)
        * 1.2;
    let min_y = series
        .iter()
        .flat_map(|s| s.1.iter().map(|p| p.1))
        .fold(100.0f64, f64::min);
    let min_y = (min_y / 10.0).floor() * 10.0;
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (WIDTH + LEGEND, 560)).into_drawing_area();
        root.fill(&WHITE).map_err(plot_err)?;
        let (plot_area, legend_area) = root.split_horizontally(WIDTH);
        let mut chart = ChartBuilder::on(&plot_area)
            .caption(title, ("sans-serif", 20))
            .margin(15)
            .margin_right(30)
            .x_label_area_size(45)
            .y_label_area_size(60)
            .build_cartesian_2d((1f64..max_x).log_scale(), min_y..100.5f64)
            .map_err(plot_err)?;
        chart
            .configure_mesh()
            .x_desc("leaves")
            .y_desc("positions classified right (%)")
            .x_label_formatter(&|x| format!("{x:.0}"))
            .y_label_formatter(&|y| format!("{y:.0}"))
            .draw()
            .map_err(plot_err)?;
        for (i, (name, pts)) in series.iter().enumerate() {
            let c = COLOURS[i % COLOURS.len()];
            chart
                .draw_series(LineSeries::new(pts.iter().copied(), c.stroke_width(2)))
                .map_err(plot_err)?;
            chart
                .draw_series(pts.iter().map(|&p| Circle::new(p, 2, c.filled())))
                .map_err(plot_err)?;
            legend_entry(&legend_area, i, name, c)?;
        }
        root.present().map_err(plot_err)?;
    }
    Ok(svg)
}

/// Values over time with a log-scale y axis (`zoo solve --plot`: the
/// root's proof and disproof numbers, literature B's Figure 7.1): one
/// series per `(name, points)` of `(x, y)`, x on a linear scale; y below 1
/// is drawn at 1, the log scale's floor. Returns the SVG document.
pub fn log_plot_xy(
    title: &str,
    x_desc: &str,
    y_desc: &str,
    series: &[(String, Vec<(f64, f64)>)],
) -> Result<String> {
    let points = || series.iter().flat_map(|s| s.1.iter());
    let max_x = points().map(|p| p.0).fold(0.0f64, f64::max).max(1e-3) * 1.02;
    let max_y = points().map(|p| p.1).fold(10.0f64, f64::max) * 2.0;
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (WIDTH + LEGEND, 560)).into_drawing_area();
        root.fill(&WHITE).map_err(plot_err)?;
        let (plot_area, legend_area) = root.split_horizontally(WIDTH);
        let mut chart = ChartBuilder::on(&plot_area)
            .caption(title, ("sans-serif", 20))
            .margin(15)
            .margin_right(30)
            .x_label_area_size(45)
            .y_label_area_size(80)
            .build_cartesian_2d(0f64..max_x, (1f64..max_y).log_scale())
            .map_err(plot_err)?;
        chart
            .configure_mesh()
            .x_desc(x_desc)
            .y_desc(y_desc)
            .y_label_formatter(&|y| tick(*y))
            .draw()
            .map_err(plot_err)?;
        for (i, (name, pts)) in series.iter().enumerate() {
            let c = COLOURS[i % COLOURS.len()];
            let at = |&(x, y): &(f64, f64)| (x, y.max(1.0));
            chart
                .draw_series(LineSeries::new(pts.iter().map(at), c.stroke_width(2)))
                .map_err(plot_err)?;
            chart
                .draw_series(pts.iter().map(|p| Circle::new(at(p), 2, c.filled())))
                .map_err(plot_err)?;
            legend_entry(&legend_area, i, name, c)?;
        }
        root.present().map_err(plot_err)?;
    }
    Ok(svg)
}

/// A scatter of `(x, y)` points with the fitted line `y = a·x + b`
/// (`zoo experiment probcut-fit`: deep values against shallow ones),
/// both axes linear and equal in range. Returns the SVG document.
pub fn scatter_plot(
    title: &str,
    x_desc: &str,
    y_desc: &str,
    points: &[(f64, f64)],
    (a, b): (f64, f64),
) -> Result<String> {
    let reach = points
        .iter()
        .flat_map(|p| [p.0.abs(), p.1.abs()])
        .fold(1.0f64, f64::max)
        * 1.05;
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (WIDTH, 700)).into_drawing_area();
        root.fill(&WHITE).map_err(plot_err)?;
        let mut chart = ChartBuilder::on(&root)
            .caption(title, ("sans-serif", 20))
            .margin(15)
            .margin_right(30)
            .x_label_area_size(45)
            .y_label_area_size(60)
            .build_cartesian_2d(-reach..reach, -reach..reach)
            .map_err(plot_err)?;
        chart
            .configure_mesh()
            .x_desc(x_desc)
            .y_desc(y_desc)
            .x_label_formatter(&|x| format!("{x:.0}"))
            .y_label_formatter(&|y| format!("{y:.0}"))
            .draw()
            .map_err(plot_err)?;
        chart
            .draw_series(
                points
                    .iter()
                    .map(|&p| Circle::new(p, 2, COLOURS[0].mix(0.6).filled())),
            )
            .map_err(plot_err)?;
        let line = line_in_square(a, b, reach);
        chart
            .draw_series(LineSeries::new(line, COLOURS[3].stroke_width(2)))
            .map_err(plot_err)?;
        root.present().map_err(plot_err)?;
    }
    Ok(svg)
}

/// The ends of the part of `y = a·x + b` inside the square of half-side
/// `reach` (plotters would move each end into the plot on its own, and
/// so draw another line).
fn line_in_square(a: f64, b: f64, reach: f64) -> [(f64, f64); 2] {
    let (mut x0, mut x1) = (-reach, reach);
    if a != 0.0 {
        let (xa, xb) = ((-reach - b) / a, (reach - b) / a);
        x0 = x0.max(xa.min(xb));
        x1 = x1.min(xa.max(xb));
    }
    [x0, x1].map(|x| (x, a * x + b))
}

/// Values over x with both axes linear (`zoo train --plot`: the loss of
/// each epoch): one series per `(name, points)`; the y axis starts at 0.
/// Returns the SVG document.
pub fn line_plot_xy(
    title: &str,
    x_desc: &str,
    y_desc: &str,
    series: &[(String, Vec<(f64, f64)>)],
) -> Result<String> {
    let points = || {
        series
            .iter()
            .flat_map(|s| s.1.iter())
            .filter(|p| p.1.is_finite())
    };
    let max_x = points().map(|p| p.0).fold(1.0f64, f64::max);
    let max_y = points().map(|p| p.1).fold(1e-9f64, f64::max) * 1.1;
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (WIDTH + LEGEND, 560)).into_drawing_area();
        root.fill(&WHITE).map_err(plot_err)?;
        let (plot_area, legend_area) = root.split_horizontally(WIDTH);
        let mut chart = ChartBuilder::on(&plot_area)
            .caption(title, ("sans-serif", 20))
            .margin(15)
            .margin_right(30)
            .x_label_area_size(45)
            .y_label_area_size(80)
            .build_cartesian_2d(0f64..max_x, 0f64..max_y)
            .map_err(plot_err)?;
        chart
            .configure_mesh()
            .x_desc(x_desc)
            .y_desc(y_desc)
            .draw()
            .map_err(plot_err)?;
        for (i, (name, pts)) in series.iter().enumerate() {
            let c = COLOURS[i % COLOURS.len()];
            let pts: Vec<(f64, f64)> = pts.iter().copied().filter(|p| p.1.is_finite()).collect();
            chart
                .draw_series(LineSeries::new(pts.iter().copied(), c.stroke_width(2)))
                .map_err(plot_err)?;
            chart
                .draw_series(pts.iter().map(|&p| Circle::new(p, 3, c.filled())))
                .map_err(plot_err)?;
            legend_entry(&legend_area, i, name, c)?;
        }
        root.present().map_err(plot_err)?;
    }
    Ok(svg)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ticks_are_whole_numbers_or_powers_of_ten() {
        assert_eq!(tick(1.0), "1");
        assert_eq!(tick(1000.0), "1000");
        assert_eq!(tick(100000.0), "1e5");
    }

    /// The x of the SVG text element that reads `text`.
    fn text_x(svg: &str, text: &str) -> f64 {
        let at = svg.find(&format!(">\n{text}\n<")).expect("the text");
        let tag = &svg[svg[..at].rfind("<text").expect("its element")..at];
        let x = tag.split("x=\"").nth(1).and_then(|r| r.split('"').next());
        x.and_then(|x| x.parse().ok()).expect("an x")
    }

    #[test]
    fn values_over_time_are_plotted_with_their_names() {
        let series = vec![
            ("pn".to_string(), vec![(0.0, 1.0), (2.5, 4e6), (3.0, 0.0)]),
            ("dn".to_string(), vec![(0.0, 1.0), (2.5, 30.0)]),
        ];
        let svg = log_plot_xy("root", "seconds", "number", &series).unwrap();
        assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"));
        for name in ["pn", "dn"] {
            assert!(text_x(&svg, name) > WIDTH as f64, "{name}");
        }
        // A dot for each point, a line in each series' colour.
        assert_eq!(svg.matches("<circle").count(), 5, "{svg}");
        for colour in ["#1F77B4", "#FF7F0E"] {
            assert!(svg.contains(&format!("stroke=\"{colour}\"")), "{colour}");
        }
    }

    #[test]
    fn the_legend_stands_beside_the_chart() {
        let series = vec![
            ("first".to_string(), vec![(0, 1e6), (1, 1e3)]),
            ("second".to_string(), vec![(0, 5e5), (1, 10.0)]),
        ];
        let labels: Vec<String> = (0..2).map(|d| format!("d{d}")).collect();
        let svg = log_plot("t", "depth", &labels, &series).unwrap();
        assert!(!svg.contains("100000.0"), "{svg}");
        // Each legend entry is text to the right of the chart's width.
        for name in ["first", "second"] {
            assert!(text_x(&svg, name) > WIDTH as f64, "{name}");
        }
        // The last x label is drawn whole: inside the chart's width.
        assert!(text_x(&svg, "d1") + 10.0 < WIDTH as f64);
    }

    #[test]
    fn a_steep_line_is_cut_at_the_square_not_bent() {
        for (a, b) in [(1.267, 4.2), (-2.0, 30.0), (0.5, -10.0), (0.0, 5.0)] {
            let ends = super::line_in_square(a, b, 100.0);
            for (x, y) in ends {
                assert!((y - (a * x + b)).abs() < 1e-9, "{a} {b}: ({x}, {y})");
                assert!(x.abs() <= 100.0 + 1e-9 && y.abs() <= 100.0 + 1e-9);
            }
            // Ends on the square's border.
            let on_border = |(x, y): (f64, f64)| {
                (x.abs() - 100.0).abs() < 1e-9 || (y.abs() - 100.0).abs() < 1e-9
            };
            assert!(ends.iter().all(|&p| on_border(p)), "{a} {b}: {ends:?}");
        }
    }
}
