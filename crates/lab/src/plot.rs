//! The plots: log-scale line charts as SVG text.

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

/// A line plot with a log-scale y axis (nodes grow exponentially with
/// depth): one series per `(name, points)`, x values labelled by
/// `x_labels[x]` where there is one. Returns the SVG document.
pub fn log_plot(
    title: &str,
    x_desc: &str,
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
        let root = SVGBackend::with_string(&mut svg, (900, 560)).into_drawing_area();
        root.fill(&WHITE).map_err(plot_err)?;
        let mut chart = ChartBuilder::on(&root)
            .caption(title, ("sans-serif", 20))
            .margin(15)
            .x_label_area_size(45)
            .y_label_area_size(80)
            .build_cartesian_2d(min_x..max_x, (1f64..max_y).log_scale())
            .map_err(plot_err)?;
        let labels = x_labels.to_vec();
        chart
            .configure_mesh()
            .x_desc(x_desc)
            .y_desc("nodes")
            .x_labels((max_x - min_x + 1) as usize)
            .x_label_formatter(&|x| {
                labels
                    .get(*x as usize)
                    .cloned()
                    .unwrap_or_else(|| x.to_string())
            })
            .draw()
            .map_err(plot_err)?;
        for (i, (name, pts)) in series.iter().enumerate() {
            let c = COLOURS[i % COLOURS.len()];
            chart
                .draw_series(LineSeries::new(
                    pts.iter().map(|&(x, y)| (x, y.max(1.0))),
                    c.stroke_width(2),
                ))
                .map_err(plot_err)?
                .label(name.as_str())
                .legend(move |(x, y)| {
                    PathElement::new(vec![(x, y), (x + 20, y)], c.stroke_width(2))
                });
            chart
                .draw_series(
                    pts.iter()
                        .map(|&(x, y)| Circle::new((x, y.max(1.0)), 3, c.filled())),
                )
                .map_err(plot_err)?;
        }
        chart
            .configure_series_labels()
            .position(SeriesLabelPosition::UpperLeft)
            .background_style(WHITE.mix(0.8))
            .border_style(BLACK)
            .draw()
            .map_err(plot_err)?;
        root.present().map_err(plot_err)?;
    }
    Ok(svg)
}
