//! Pictures of a tuning run, as SVG: Texel's loss per epoch and SPSA's
//! parameter trajectories, one panel per parameter on its own scale.

use std::path::Path;

use plotters::prelude::*;

use super::spsa::SpsaParam;
use super::spsa_log::StepLine;
use super::texel::EpochLoss;

fn drawing_error(path: &Path, e: impl std::fmt::Display) -> String {
    format!("cannot draw '{}': {e}", path.display())
}

/// A little room above and below a curve, and never an empty range.
fn padded(low: f64, high: f64) -> std::ops::Range<f64> {
    let span = (high - low).abs().max(1e-9);
    (low - 0.05 * span)..(high + 0.05 * span)
}

/// The loss on fitted and held-back positions, epoch by epoch, under
/// `caption`.
pub fn draw_loss_curve(path: &Path, caption: &str, curve: &[EpochLoss]) -> Result<(), String> {
    let area = SVGBackend::new(path, (800, 500)).into_drawing_area();
    area.fill(&WHITE).map_err(|e| drawing_error(path, e))?;
    let losses = curve.iter().flat_map(|p| [p.fit, p.held]);
    let low = losses.clone().fold(f64::INFINITY, f64::min);
    let high = losses.fold(f64::NEG_INFINITY, f64::max);
    let last_epoch = curve.last().map_or(1, |p| p.epoch.max(1));
    let mut chart = ChartBuilder::on(&area)
        .caption(caption, ("sans-serif", 22))
        .margin(12)
        .x_label_area_size(40)
        .y_label_area_size(70)
        .build_cartesian_2d(0.0..last_epoch as f64, padded(low, high))
        .map_err(|e| drawing_error(path, e))?;
    chart
        .configure_mesh()
        .x_desc("epoch")
        .x_label_formatter(&|x| format!("{x:.0}"))
        .y_desc("mean squared error")
        .draw()
        .map_err(|e| drawing_error(path, e))?;
    let series = [
        (
            "fitted positions",
            BLUE,
            curve
                .iter()
                .map(|p| (p.epoch as f64, p.fit))
                .collect::<Vec<_>>(),
        ),
        (
            "held-back positions",
            RED,
            curve.iter().map(|p| (p.epoch as f64, p.held)).collect(),
        ),
    ];
    for (label, colour, points) in series {
        chart
            .draw_series(LineSeries::new(points, colour.stroke_width(2)))
            .map_err(|e| drawing_error(path, e))?
            .label(label)
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], colour));
    }
    chart
        .configure_series_labels()
        .border_style(BLACK)
        .background_style(WHITE.mix(0.8))
        .draw()
        .map_err(|e| drawing_error(path, e))?;
    area.present().map_err(|e| drawing_error(path, e))
}

/// Each parameter's estimate against the pairs played, with the values
/// its two engines played at as faint marks.
pub fn draw_trajectories(
    path: &Path,
    params: &[SpsaParam],
    steps: &[StepLine],
) -> Result<(), String> {
    let height = 60 + 220 * params.len() as u32;
    let area = SVGBackend::new(path, (800, height)).into_drawing_area();
    area.fill(&WHITE).map_err(|e| drawing_error(path, e))?;
    let area = area
        .titled("SPSA: parameter estimates", ("sans-serif", 22))
        .map_err(|e| drawing_error(path, e))?;
    let last_pair = steps.last().map_or(1, |s| s.pairs_done.max(1)) as f64;
    for (index, (param, panel)) in params
        .iter()
        .zip(area.split_evenly((params.len(), 1)))
        .enumerate()
    {
        let estimate: Vec<(f64, f64)> = std::iter::once((0.0, param.start))
            .chain(steps.iter().map(|s| (s.pairs_done as f64, s.theta[index])))
            .collect();
        // A hundred or so steps show the spread; thousands only weigh the file.
        let stride = (steps.len() / 120).max(1);
        let tried: Vec<(f64, f64)> = steps
            .iter()
            .step_by(stride)
            .flat_map(|s| [s.plus[index], s.minus[index]].map(|v| (s.pairs_done as f64, v as f64)))
            .collect();
        let values = estimate.iter().chain(&tried).map(|&(_, v)| v);
        let low = values.clone().fold(f64::INFINITY, f64::min);
        let high = values.fold(f64::NEG_INFINITY, f64::max);
        let mut chart = ChartBuilder::on(&panel)
            .caption(&param.name, ("sans-serif", 16))
            .margin(10)
            .x_label_area_size(30)
            .y_label_area_size(60)
            .build_cartesian_2d(0.0..last_pair, padded(low, high))
            .map_err(|e| drawing_error(path, e))?;
        chart
            .configure_mesh()
            .x_desc("game pairs")
            .x_label_formatter(&|x| format!("{x:.0}"))
            .draw()
            .map_err(|e| drawing_error(path, e))?;
        chart
            .draw_series(
                tried
                    .iter()
                    .map(|&point| Circle::new(point, 2, BLUE.mix(0.3).filled())),
            )
            .map_err(|e| drawing_error(path, e))?;
        chart
            .draw_series(LineSeries::new(estimate, BLUE.stroke_width(2)))
            .map_err(|e| drawing_error(path, e))?;
    }
    area.present().map_err(|e| drawing_error(path, e))
}
