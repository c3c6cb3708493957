//! Training the evaluation net of [`zoo_core::nnue`]: sparse 0/1 inputs
//! seen from both sides, one clipped-ReLU hidden layer per perspective
//! sharing its weights, one output; loss the squared difference between
//! the win probability `σ(eval/k)` and a target in [0, 1] (a blend of the
//! game's result and the search's score, or a table's exact value), as the
//! NNUE trainers of chess and draughts do; Adam, mini-batches, a seed.
//!
//! Written here rather than with `burn` or `candle`: the net is two layers
//! whose first is a sum of a few columns, the inference it must match bit
//! for bit is integer code of our own, and a dense tensor library would
//! spend its time multiplying zeros (a thousand inputs, sixteen active).
//!
//! ```
//! use zoo_learn::nnue::{train, Sample, TrainOptions};
//! // Input 0 on the mover's side wins, input 1 loses.
//! let data: Vec<Sample> = (0..64)
//!     .map(|i| Sample::new(vec![i % 2], vec![], if i % 2 == 0 { 1.0 } else { 0.0 }))
//!     .collect();
//! let opts = TrainOptions { inputs: 2, hidden: 4, epochs: 300, lr: 0.05, ..TrainOptions::default() };
//! let net = train(&data, &[], &opts, &mut |_| {});
//! assert!(net.predict(&data[0]) > 0.8 && net.predict(&data[1]) < 0.2);
//! let quantised = net.quantise();
//! assert_eq!(quantised.inputs(), 2);
//! ```

use zoo_core::nnue::Net;
use zoo_core::rng::SplitMix64;

/// One training position: its active inputs seen from the side to move
/// and from the other side, and the target win probability of the side
/// to move.
#[derive(Debug, Clone, PartialEq)]
pub struct Sample {
    us: Vec<u16>,
    them: Vec<u16>,
    target: f32,
}

impl Sample {
    /// A sample; `target` is clamped to [0, 1].
    pub fn new(us: Vec<u16>, them: Vec<u16>, target: f32) -> Sample {
        Sample {
            us,
            them,
            target: target.clamp(0.0, 1.0),
        }
    }
    /// The target win probability.
    pub fn target(&self) -> f32 {
        self.target
    }
}

/// The shape and the schedule of a training run.
#[derive(Debug, Clone, PartialEq)]
pub struct TrainOptions {
    /// Inputs (features of the game).
    pub inputs: usize,
    /// Hidden units per perspective (at most [`zoo_core::nnue::MAX_HIDDEN`]).
    pub hidden: usize,
    /// Passes over the data.
    pub epochs: usize,
    /// Samples per step.
    pub batch: usize,
    /// Adam's step size.
    pub lr: f32,
    /// Evaluation units of an output of 1.0.
    pub scale: i32,
    /// Evaluation units of one unit of the logistic: win probability
    /// `σ(eval/k)`.
    pub k: f32,
    /// The seed of the initial weights and of the order of the samples.
    pub seed: u64,
}

impl Default for TrainOptions {
    fn default() -> Self {
        TrainOptions {
            inputs: 1,
            hidden: 32,
            epochs: 10,
            batch: 256,
            lr: 1e-3,
            scale: 1000,
            k: 400.0,
            seed: 1,
        }
    }
}

/// What an epoch reached.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Epoch {
    /// 1 for the first pass.
    pub epoch: usize,
    /// Mean loss over the training samples during the pass.
    pub train_loss: f64,
    /// Mean loss over the validation samples after it (NaN without any).
    pub validation_loss: f64,
}

/// A float net in training.
#[derive(Debug, Clone, PartialEq)]
pub struct FloatNet {
    inputs: usize,
    hidden: usize,
    scale: i32,
    k: f32,
    w1: Vec<f32>,
    b1: Vec<f32>,
    w2: Vec<f32>,
    b2: f32,
}

/// The samples' order and the initial weights: the same for a seed in
/// every build.
struct Rng(SplitMix64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0.next_u64()
    }
    /// Uniform in [-a, a).
    fn uniform(&mut self, a: f32) -> f32 {
        ((self.next() >> 40) as f32 / (1u64 << 24) as f32 * 2.0 - 1.0) * a
    }
}

fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// Hidden layer of one perspective before the clipped ReLU.
fn accumulate(w1: &[f32], b1: &[f32], feats: &[u16], acc: &mut [f32]) {
    let h = b1.len();
    acc.copy_from_slice(b1);
    for &f in feats {
        for (a, w) in acc.iter_mut().zip(&w1[f as usize * h..][..h]) {
            *a += w;
        }
    }
}

impl FloatNet {
    fn new(o: &TrainOptions) -> FloatNet {
        let mut rng = Rng(SplitMix64(o.seed));
        let h = o.hidden;
        FloatNet {
            inputs: o.inputs,
            hidden: h,
            scale: o.scale,
            k: o.k,
            w1: (0..o.inputs * h).map(|_| rng.uniform(0.1)).collect(),
            b1: (0..h).map(|_| 0.25 + rng.uniform(0.05)).collect(),
            w2: (0..2 * h)
                .map(|_| rng.uniform(1.0 / (h as f32).sqrt()))
                .collect(),
            b2: 0.0,
        }
    }

    /// The net's output (1.0 = `scale` evaluation units) and the hidden
    /// layers before clipping.
    fn forward(&self, s: &Sample, us: &mut [f32], them: &mut [f32]) -> f32 {
        accumulate(&self.w1, &self.b1, &s.us, us);
        accumulate(&self.w1, &self.b1, &s.them, them);
        let (a, b) = self.w2.split_at(self.hidden);
        let dot = |acc: &[f32], w: &[f32]| -> f32 {
            acc.iter().zip(w).map(|(x, w)| x.clamp(0.0, 1.0) * w).sum()
        };
        self.b2 + dot(us, a) + dot(them, b)
    }

    /// The predicted win probability of the side to move.
    pub fn predict(&self, s: &Sample) -> f32 {
        let (mut us, mut them) = (vec![0.0; self.hidden], vec![0.0; self.hidden]);
        let out = self.forward(s, &mut us, &mut them);
        sigmoid(out * self.scale as f32 / self.k)
    }

    /// The evaluation in evaluation units.
    pub fn evaluate(&self, s: &Sample) -> f32 {
        let (mut us, mut them) = (vec![0.0; self.hidden], vec![0.0; self.hidden]);
        self.forward(s, &mut us, &mut them) * self.scale as f32
    }

    /// Mean loss over `data` (NaN when empty).
    pub fn loss(&self, data: &[Sample]) -> f64 {
        let sum: f64 = data
            .iter()
            .map(|s| ((self.predict(s) - s.target) as f64).powi(2))
            .sum();
        sum / data.len() as f64
    }

    /// The mean absolute difference, in evaluation units, between `q`'s
    /// integer evaluation and this net's over `data` (NaN when empty):
    /// what quantising costs.
    pub fn quantisation_error(&self, q: &Net, data: &[Sample]) -> f64 {
        use zoo_core::nnue::Accumulator;
        let sum: f64 = data
            .iter()
            .map(|s| {
                let (mut us, mut them) = (Accumulator::new(q), Accumulator::new(q));
                s.us.iter().for_each(|&f| us.add(q, f as usize));
                s.them.iter().for_each(|&f| them.add(q, f as usize));
                (q.output(&us, &them) as f64 - self.evaluate(s) as f64).abs()
            })
            .sum();
        sum / data.len() as f64
    }

    /// The integer net for play.
    pub fn quantise(&self) -> Net {
        Net::from_float(
            self.inputs,
            self.hidden,
            self.scale,
            &self.w1,
            &self.b1,
            &self.w2,
            self.b2,
        )
    }
}

/// Adam's moments of one parameter vector.
struct Adam {
    m: Vec<f32>,
    v: Vec<f32>,
}
impl Adam {
    fn new(n: usize) -> Adam {
        Adam {
            m: vec![0.0; n],
            v: vec![0.0; n],
        }
    }
    fn step(&mut self, p: &mut [f32], g: &[f32], lr: f32, t: i32) {
        const B1: f32 = 0.9;
        const B2: f32 = 0.999;
        let (c1, c2) = (1.0 - B1.powi(t), 1.0 - B2.powi(t));
        for i in 0..p.len() {
            self.m[i] = B1 * self.m[i] + (1.0 - B1) * g[i];
            self.v[i] = B2 * self.v[i] + (1.0 - B2) * g[i] * g[i];
            p[i] -= lr * (self.m[i] / c1) / ((self.v[i] / c2).sqrt() + 1e-8);
        }
    }
}

/// Trains a net on `data` from the seed's initial weights, reporting each
/// epoch (with the loss on `validation`) to `on_epoch`. With validation
/// samples, the net of the epoch with the lowest validation loss is
/// returned (positions of one game share its result, so a net can learn
/// the games by heart and get worse on others: early stopping);
/// without, the last.
///
/// # Panics
/// If a sample names an input at or past `opts.inputs`, or the hidden
/// size is 0 or past [`zoo_core::nnue::MAX_HIDDEN`].
pub fn train(
    data: &[Sample],
    validation: &[Sample],
    opts: &TrainOptions,
    on_epoch: &mut dyn FnMut(Epoch),
) -> FloatNet {
    assert!((1..=zoo_core::nnue::MAX_HIDDEN).contains(&opts.hidden));
    let mut net = FloatNet::new(opts);
    let h = opts.hidden;
    let mut rng = Rng(SplitMix64(opts.seed ^ 0x5EED));
    let mut order: Vec<usize> = (0..data.len()).collect();
    let (mut g1, mut gb1, mut g2) = (vec![0.0; net.w1.len()], vec![0.0; h], vec![0.0; 2 * h]);
    let (mut a1, mut ab1, mut a2, mut ab2) = (
        Adam::new(net.w1.len()),
        Adam::new(h),
        Adam::new(2 * h),
        Adam::new(1),
    );
    let (mut us, mut them) = (vec![0.0; h], vec![0.0; h]);
    let (mut gus, mut gthem) = (vec![0.0; h], vec![0.0; h]);
    let mut t = 0;
    let logistic = opts.scale as f32 / opts.k;
    let mut epochs = Vec::new();
    let mut best: Option<FloatNet> = None;
    for epoch in 1..=opts.epochs {
        // Fisher–Yates with the seed's generator.
        for i in (1..order.len()).rev() {
            order.swap(i, (rng.next() % (i as u64 + 1)) as usize);
        }
        let mut total = 0.0f64;
        for batch in order.chunks(opts.batch.max(1)) {
            g1.iter_mut().for_each(|g| *g = 0.0);
            gb1.iter_mut().for_each(|g| *g = 0.0);
            g2.iter_mut().for_each(|g| *g = 0.0);
            let mut gb2 = 0.0;
            for &i in batch {
                let s = &data[i];
                let out = net.forward(s, &mut us, &mut them);
                let p = sigmoid(out * logistic);
                total += ((p - s.target) as f64).powi(2);
                let d = 2.0 * (p - s.target) * p * (1.0 - p) * logistic / batch.len() as f32;
                gb2 += d;
                for j in 0..h {
                    g2[j] += d * us[j].clamp(0.0, 1.0);
                    g2[h + j] += d * them[j].clamp(0.0, 1.0);
                    let live = |x: f32| if x > 0.0 && x < 1.0 { 1.0 } else { 0.0 };
                    gus[j] = d * net.w2[j] * live(us[j]);
                    gthem[j] = d * net.w2[h + j] * live(them[j]);
                    gb1[j] += gus[j] + gthem[j];
                }
                for (feats, g) in [(&s.us, &gus), (&s.them, &gthem)] {
                    for &f in feats.iter() {
                        for (a, b) in g1[f as usize * h..][..h].iter_mut().zip(g.iter()) {
                            *a += b;
                        }
                    }
                }
            }
            t += 1;
            a1.step(&mut net.w1, &g1, opts.lr, t);
            ab1.step(&mut net.b1, &gb1, opts.lr, t);
            a2.step(&mut net.w2, &g2, opts.lr, t);
            ab2.step(std::slice::from_mut(&mut net.b2), &[gb2], opts.lr, t);
        }
        let e = Epoch {
            epoch,
            train_loss: total / data.len().max(1) as f64,
            validation_loss: net.loss(validation),
        };
        on_epoch(e);
        epochs.push(e);
        if kept_epoch(&epochs).is_some_and(|k| k.epoch == epoch) {
            best = Some(net.clone());
        }
    }
    best.unwrap_or(net)
}

/// The epoch whose net [`train`] returns: the lowest validation loss,
/// or the last epoch without validation samples.
pub fn kept_epoch(epochs: &[Epoch]) -> Option<&Epoch> {
    epochs
        .iter()
        .filter(|e| !e.validation_loss.is_nan())
        .min_by(|a, b| a.validation_loss.total_cmp(&b.validation_loss))
        .or(epochs.last())
}

/// The `k` of `σ(score/k)` that best predicts `results` (each 0, ½ or 1)
/// from `scores` (evaluation units): a search over k from 50 to 5000 by
/// ratios of 1.02, least squares, as Texel's tuning fits its constant.
/// `None` without data.
pub fn fit_k(scores: &[f32], results: &[f32]) -> Option<f32> {
    if scores.is_empty() || scores.len() != results.len() {
        return None;
    }
    let err = |k: f32| -> f64 {
        scores
            .iter()
            .zip(results)
            .map(|(&s, &r)| ((sigmoid(s / k) - r) as f64).powi(2))
            .sum()
    };
    let mut best = (f64::INFINITY, 50.0f32);
    let mut k = 50.0f32;
    while k <= 5000.0 {
        let e = err(k);
        if e < best.0 {
            best = (e, k);
        }
        k *= 1.02;
    }
    Some(best.1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use zoo_core::nnue::Accumulator;

    fn data() -> Vec<Sample> {
        // Target: input 0 or 3 for the mover is good, input 1 for the other
        // side is bad for the mover; a sum the net must learn.
        let mut rng = Rng(SplitMix64(7));
        (0..2000)
            .map(|_| {
                let us: Vec<u16> = (0..6).filter(|_| rng.next().is_multiple_of(2)).collect();
                let them: Vec<u16> = (0..6).filter(|_| rng.next().is_multiple_of(2)).collect();
                let v = us.iter().filter(|&&f| f == 0 || f == 3).count() as f32
                    - them.iter().filter(|&&f| f == 0 || f == 3).count() as f32;
                Sample::new(us, them, sigmoid(v))
            })
            .collect()
    }

    #[test]
    fn loss_falls_and_the_same_seed_gives_the_same_net() {
        let d = data();
        let (train_set, val) = d.split_at(1600);
        let opts = TrainOptions {
            inputs: 6,
            hidden: 8,
            epochs: 30,
            batch: 64,
            lr: 3e-3,
            scale: 400,
            k: 400.0,
            seed: 3,
        };
        let mut losses = Vec::new();
        let net = train(train_set, val, &opts, &mut |e| {
            losses.push(e.validation_loss)
        });
        assert!(losses[29] < losses[0] / 4.0, "{losses:?}");
        assert!(losses[29] < 0.002, "{losses:?}");
        let again = train(train_set, val, &opts, &mut |_| {});
        assert_eq!(net, again);
    }

    #[test]
    fn the_quantised_net_evaluates_as_the_float_net() {
        let d = data();
        let opts = TrainOptions {
            inputs: 6,
            hidden: 8,
            epochs: 5,
            ..TrainOptions::default()
        };
        let net = train(&d, &[], &opts, &mut |_| {});
        let q = net.quantise();
        for s in &d[..200] {
            let (mut us, mut them) = (Accumulator::new(&q), Accumulator::new(&q));
            s.us.iter().for_each(|&f| us.add(&q, f as usize));
            s.them.iter().for_each(|&f| them.add(&q, f as usize));
            let diff = q.output(&us, &them) as f32 - net.evaluate(s);
            assert!(diff.abs() < 3.0, "{diff}");
        }
    }

    #[test]
    fn k_is_fitted_from_results() {
        // Results drawn as σ(score/300) would give them.
        let mut rng = Rng(SplitMix64(11));
        let scores: Vec<f32> = (0..20000).map(|_| rng.uniform(1500.0)).collect();
        let results: Vec<f32> = scores
            .iter()
            .map(|&s| {
                let p = sigmoid(s / 300.0);
                if ((rng.next() >> 40) as f32 / (1u64 << 24) as f32) < p {
                    1.0
                } else {
                    0.0
                }
            })
            .collect();
        let k = fit_k(&scores, &results).unwrap();
        assert!((250.0..360.0).contains(&k), "{k}");
        assert_eq!(fit_k(&[], &[]), None);
    }
}
