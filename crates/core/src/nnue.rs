//! A small evaluation network of the NNUE shape, with integer inference:
//! sparse 0/1 inputs (a game's piece-square features, seen from each side),
//! one hidden layer per perspective (the "accumulator": a bias plus the
//! columns of the active inputs), a clipped ReLU, and one output over both
//! perspectives, the side to move's first.
//!
//! The weights are stored quantised — the first layer times [`QA`], the
//! output layer times [`QB`] — so that play needs only integer adds and
//! one dot product; the float net of a trainer (zoo-learn) maps onto this
//! exactly (`clamp(acc, 0, 1)` becomes `clamp(acc, 0, QA)`).
//!
//! ```
//! use zoo_core::nnue::{Accumulator, Net};
//! // Two inputs, one hidden unit: input 0 adds nothing to it, input 1 adds 1.
//! let net = Net::from_float(2, 1, 100, &[0.0, 1.0], &[0.0], &[2.0, -2.0], 0.0);
//! let bytes = net.to_bytes();
//! let net = Net::from_bytes(&bytes).unwrap();
//! // Side to move has input 1, the other side input 0: (1·2 − 0·2)·100.
//! let (mut us, mut them) = (Accumulator::new(&net), Accumulator::new(&net));
//! us.add(&net, 1);
//! them.add(&net, 0);
//! assert_eq!(net.output(&us, &them), 200);
//! ```

use std::fmt;

/// The first layer's scale: a float weight `w` is stored as `round(w·QA)`,
/// and the clipped ReLU's ceiling 1.0 is `QA`.
pub const QA: i32 = 1024;
/// The output layer's scale.
pub const QB: i32 = 1024;

const MAGIC: &[u8; 8] = b"ZOONNUE2";
/// Bytes of the header: magic, inputs, hidden, scale.
const HEADER: usize = 8 + 4 * 3;
/// Nets larger than this are refused (a few MB live in the repository).
const MAX_WEIGHTS: usize = 1 << 24;
/// The largest scale (evaluation units of an output of 1.0) a net may have.
pub const MAX_SCALE: u32 = 1 << 16;
/// The most hidden units a net may have: an [`Accumulator`] is a fixed
/// array, so an evaluation from scratch allocates nothing.
pub const MAX_HIDDEN: usize = 256;

/// Why bytes are not a net.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NetError {
    /// Not a zoo net file (the first bytes differ).
    #[error("not a zoo evaluation net (no ZOONNUE2 header)")]
    Magic,
    /// The sizes in the header are zero, too large, or not the file's.
    #[error(
        "net file has {len} bytes where its header ({inputs} inputs, {hidden} hidden) needs {want}"
    )]
    Size {
        /// Inputs in the header.
        inputs: u32,
        /// Hidden units in the header.
        hidden: u32,
        /// Bytes the header implies.
        want: usize,
        /// Bytes found.
        len: usize,
    },
    /// The checksum at the end does not match: the file is damaged.
    #[error("net file is damaged: checksum {found:08x}, computed {computed:08x}")]
    Checksum {
        /// The stored CRC-32.
        found: u32,
        /// The CRC-32 of the bytes before it.
        computed: u32,
    },
    /// The scale in the header is not 1 to [`MAX_SCALE`].
    #[error("net file has scale {0}; expected 1 to 65536")]
    Scale(u32),
    /// The net has other inputs than the game's features.
    #[error("net has {found} inputs where this game's features are {want}")]
    Inputs {
        /// Inputs of the net.
        found: usize,
        /// Features of the game.
        want: usize,
    },
}

/// A quantised net ready to evaluate.
#[derive(Clone, PartialEq, Eq)]
pub struct Net {
    inputs: usize,
    hidden: usize,
    /// Evaluation units of an output of 1.0.
    scale: i32,
    /// Input-major: the column of input `f` is `w1[f·hidden ..][..hidden]`.
    w1: Vec<i16>,
    b1: Vec<i16>,
    /// The side to move's half, then the other side's.
    w2: Vec<i16>,
    /// The output bias times `QA·QB`.
    b2: i32,
}

impl fmt::Debug for Net {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Net({} inputs, {} hidden, scale {})",
            self.inputs, self.hidden, self.scale
        )
    }
}

fn quantise(w: f32, q: i32) -> i16 {
    (w * q as f32)
        .round()
        .clamp(i16::MIN as f32, i16::MAX as f32) as i16
}

impl Net {
    /// Quantises a float net: `w1` input-major (`inputs·hidden`), `b1`
    /// (`hidden`), `w2` (`2·hidden`, side to move first), `b2`; an output
    /// of 1.0 is `scale` evaluation units.
    ///
    /// # Panics
    /// If the slices' lengths are not those of the shape.
    pub fn from_float(
        inputs: usize,
        hidden: usize,
        scale: i32,
        w1: &[f32],
        b1: &[f32],
        w2: &[f32],
        b2: f32,
    ) -> Net {
        assert!((1..=MAX_HIDDEN).contains(&hidden));
        assert_eq!(w1.len(), inputs * hidden);
        assert_eq!(b1.len(), hidden);
        assert_eq!(w2.len(), 2 * hidden);
        Net {
            inputs,
            hidden,
            scale,
            w1: w1.iter().map(|&w| quantise(w, QA)).collect(),
            b1: b1.iter().map(|&w| quantise(w, QA)).collect(),
            w2: w2.iter().map(|&w| quantise(w, QB)).collect(),
            b2: (b2 * (QA * QB) as f32).round() as i32,
        }
    }

    /// Inputs (features) of the net.
    pub fn inputs(&self) -> usize {
        self.inputs
    }
    /// Hidden units per perspective.
    pub fn hidden(&self) -> usize {
        self.hidden
    }
    /// Evaluation units of an output of 1.0.
    pub fn scale(&self) -> i32 {
        self.scale
    }

    /// The file's bytes: header, little-endian weights, CRC-32.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut b = Vec::with_capacity(self.byte_len());
        b.extend_from_slice(MAGIC);
        for v in [self.inputs as u32, self.hidden as u32, self.scale as u32] {
            b.extend_from_slice(&v.to_le_bytes());
        }
        for w in self.w1.iter().chain(&self.b1).chain(&self.w2) {
            b.extend_from_slice(&w.to_le_bytes());
        }
        b.extend_from_slice(&self.b2.to_le_bytes());
        let crc = crc32(&b);
        b.extend_from_slice(&crc.to_le_bytes());
        b
    }

    fn byte_len(&self) -> usize {
        Self::len_of(self.inputs, self.hidden)
    }
    fn len_of(inputs: usize, hidden: usize) -> usize {
        HEADER + 2 * (inputs * hidden + 3 * hidden) + 4 + 4
    }

    /// Reads a net written by [`Net::to_bytes`], checking its size and
    /// checksum.
    pub fn from_bytes(b: &[u8]) -> Result<Net, NetError> {
        if b.len() < HEADER || &b[..8] != MAGIC {
            return Err(NetError::Magic);
        }
        let u32_at = |i: usize| u32::from_le_bytes(b[i..i + 4].try_into().expect("4 bytes"));
        let (inputs, hidden, scale) = (u32_at(8), u32_at(12), u32_at(16));
        let size_error = |want| NetError::Size {
            inputs,
            hidden,
            want,
            len: b.len(),
        };
        let (ni, nh) = (inputs as usize, hidden as usize);
        if ni == 0 || nh == 0 || ni.saturating_mul(nh) > MAX_WEIGHTS || nh > MAX_HIDDEN {
            return Err(size_error(0));
        }
        if !(1..=MAX_SCALE).contains(&scale) {
            return Err(NetError::Scale(scale));
        }
        let want = Self::len_of(ni, nh);
        if b.len() != want {
            return Err(size_error(want));
        }
        let body = want - 4;
        let found = u32_at(body);
        let computed = crc32(&b[..body]);
        if found != computed {
            return Err(NetError::Checksum { found, computed });
        }
        let mut at = HEADER;
        let mut take = |n: usize| -> Vec<i16> {
            let v = b[at..at + 2 * n]
                .chunks_exact(2)
                .map(|c| i16::from_le_bytes([c[0], c[1]]))
                .collect();
            at += 2 * n;
            v
        };
        let (w1, b1, w2) = (take(ni * nh), take(nh), take(2 * nh));
        let b2 = i32::from_le_bytes(b[body - 4..body].try_into().expect("4 bytes"));
        Ok(Net {
            inputs: ni,
            hidden: nh,
            scale: scale as i32,
            w1,
            b1,
            w2,
            b2,
        })
    }

    /// The evaluation (side to move's view, in evaluation units) of the
    /// side to move's accumulator `us` and the other side's `them`.
    #[inline]
    pub fn output(&self, us: &Accumulator, them: &Accumulator) -> i32 {
        let h = self.hidden;
        let half = |acc: &[i32], w: &[i16]| -> i64 {
            acc.iter()
                .zip(w)
                .map(|(&a, &w)| a.clamp(0, QA) as i64 * w as i64)
                .sum()
        };
        let sum =
            half(&us.0[..h], &self.w2[..h]) + half(&them.0[..h], &self.w2[h..]) + self.b2 as i64;
        // Within i64 for any net `from_bytes` accepts (|sum| < 2^40, scale
        // ≤ 2^16); clamped so that no output wraps.
        (sum * self.scale as i64 / (QA * QB) as i64).clamp(i32::MIN as i64, i32::MAX as i64) as i32
    }
}

/// One perspective's hidden layer before the clipped ReLU: the bias plus
/// the columns of its active inputs, kept as `i32` so no sum overflows.
/// A search can keep one per side and [`Accumulator::add`]/[`Accumulator::remove`]
/// the inputs a move changes; an evaluation from scratch adds them all.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Accumulator([i32; MAX_HIDDEN]);

impl Accumulator {
    /// The bias alone (no input active).
    #[inline]
    pub fn new(net: &Net) -> Accumulator {
        let mut a = Accumulator([0; MAX_HIDDEN]);
        a.reset(net);
        a
    }
    /// Resets to the bias, keeping the allocation.
    pub fn reset(&mut self, net: &Net) {
        for (a, &b) in self.0.iter_mut().zip(&net.b1) {
            *a = b as i32;
        }
    }
    /// Input `f` becomes active.
    #[inline]
    pub fn add(&mut self, net: &Net, f: usize) {
        let col = &net.w1[f * net.hidden..][..net.hidden];
        for (a, &w) in self.0.iter_mut().zip(col) {
            *a += w as i32;
        }
    }
    /// Input `f` stops being active.
    #[inline]
    pub fn remove(&mut self, net: &Net, f: usize) {
        let col = &net.w1[f * net.hidden..][..net.hidden];
        for (a, &w) in self.0.iter_mut().zip(col) {
            *a -= w as i32;
        }
    }
}

/// A game whose positions a net reads: its sparse features seen from a
/// side (the trainer and the evaluators of each game share them).
pub trait NetInputs {
    /// The number of features (the net's inputs).
    fn net_inputs() -> usize;
    /// Each feature of this position seen from `persp`, in any order.
    fn for_each_net_feature(&self, persp: crate::Side, f: &mut dyn FnMut(usize));
}

/// The net in `bytes` if it has `want` inputs; errors name `what`.
pub fn parse_for(bytes: &[u8], want: usize, what: &str) -> Result<Net, String> {
    let net = Net::from_bytes(bytes).map_err(|e| format!("{what}: {e}"))?;
    if net.inputs() != want {
        return Err(format!(
            "{what}: {}",
            NetError::Inputs {
                found: net.inputs(),
                want
            }
        ));
    }
    Ok(net)
}

/// The net in file `path` with `want` inputs, read once per process and
/// file contents: a net is a few hundred KB, a protocol may name the same
/// file many times, and a file written anew is read anew. Kept for the
/// process's life, since an evaluation holding it is `Copy` and handed to
/// every search thread.
pub fn load_file(path: &std::path::Path, want: usize) -> Result<&'static Net, String> {
    use std::collections::HashMap;
    use std::sync::{Mutex, OnceLock};
    /// Nets kept at most.
    const MAX_LOADED: usize = 64;
    static LOADED: OnceLock<Mutex<HashMap<Vec<u8>, &'static Net>>> = OnceLock::new();
    let bytes =
        crate::files::read_limited(path, 64 << 20, "net file").map_err(|e| e.to_string())?;
    let mut loaded = LOADED
        .get_or_init(Default::default)
        .lock()
        .unwrap_or_else(|p| p.into_inner());
    if let Some(&net) = loaded.get(&bytes) {
        if net.inputs() == want {
            return Ok(net);
        }
    }
    let net = parse_for(&bytes, want, &path.display().to_string())?;
    if loaded.len() >= MAX_LOADED {
        return Err(format!(
            "{}: {MAX_LOADED} different nets are loaded already; restart to load more",
            path.display()
        ));
    }
    let net: &'static Net = Box::leak(Box::new(net));
    loaded.insert(bytes, net);
    Ok(net)
}

/// CRC-32 (IEEE), bitwise: a net is read once per process, so the table
/// a crate would bring buys nothing here and zoo-core keeps its few
/// dependencies.
fn crc32(b: &[u8]) -> u32 {
    let mut c = !0u32;
    for &x in b {
        c ^= x as u32;
        for _ in 0..8 {
            c = if c & 1 != 0 {
                (c >> 1) ^ 0xEDB8_8320
            } else {
                c >> 1
            };
        }
    }
    !c
}

#[cfg(test)]
mod tests {
    use super::*;

    fn small() -> Net {
        let w1: Vec<f32> = (0..12).map(|i| (i as f32 - 6.0) / 10.0).collect();
        Net::from_float(
            4,
            3,
            400,
            &w1,
            &[0.1, 0.2, 0.3],
            &[1.0, -1.0, 0.5, -0.5, 0.25, 2.0],
            0.05,
        )
    }

    #[test]
    fn crc_is_ieee() {
        assert_eq!(crc32(b"123456789"), 0xCBF4_3926);
    }

    #[test]
    fn bytes_round_trip_and_damage_is_refused() {
        let net = small();
        let b = net.to_bytes();
        assert_eq!(Net::from_bytes(&b).unwrap(), net);
        let mut bad = b.clone();
        bad[HEADER + 3] ^= 1;
        assert!(matches!(
            Net::from_bytes(&bad),
            Err(NetError::Checksum { .. })
        ));
        assert!(matches!(
            Net::from_bytes(&b[..b.len() - 1]),
            Err(NetError::Size { .. })
        ));
        assert_eq!(Net::from_bytes(b"ZOO"), Err(NetError::Magic));
        let mut huge = b.clone();
        huge[8..12].copy_from_slice(&u32::MAX.to_le_bytes());
        assert!(matches!(Net::from_bytes(&huge), Err(NetError::Size { .. })));
        // A scale of 0 or past the limit, with a checksum made to match.
        for scale in [0u32, MAX_SCALE + 1] {
            let mut odd = b.clone();
            odd[16..20].copy_from_slice(&scale.to_le_bytes());
            let body = odd.len() - 4;
            let crc = crc32(&odd[..body]);
            odd[body..].copy_from_slice(&crc.to_le_bytes());
            assert_eq!(Net::from_bytes(&odd), Err(NetError::Scale(scale)));
        }
    }

    #[test]
    fn integer_output_follows_the_float_net() {
        let net = small();
        let (mut us, mut them) = (Accumulator::new(&net), Accumulator::new(&net));
        us.add(&net, 3);
        us.add(&net, 1);
        them.add(&net, 2);
        // Float: acc_us = b1 + w1[3] + w1[1], acc_them = b1 + w1[2].
        let w1 = |f: usize, j: usize| ((f * 3 + j) as f32 - 6.0) / 10.0;
        let b1 = [0.1, 0.2, 0.3];
        let w2 = [1.0, -1.0, 0.5, -0.5, 0.25, 2.0];
        let mut out = 0.05f32;
        for j in 0..3 {
            out += (b1[j] + w1(3, j) + w1(1, j)).clamp(0.0, 1.0) * w2[j];
            out += (b1[j] + w1(2, j)).clamp(0.0, 1.0) * w2[3 + j];
        }
        let got = net.output(&us, &them);
        assert!(
            (got as f32 - out * 400.0).abs() <= 4.0,
            "{got} vs {}",
            out * 400.0
        );
        us.remove(&net, 1);
        us.add(&net, 1);
        assert_eq!(net.output(&us, &them), got);
    }
}
