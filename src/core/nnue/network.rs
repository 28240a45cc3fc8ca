//! The network: its float form (what the trainer fits), its quantized form
//! (what the engine evaluates with), and the file that holds the latter.
//!
//! Shape: `inputs` sparse features per view -> `hidden` units per view (the
//! accumulator) -> an activation (clipped ReLU, or its square) -> one
//! output over both views, the side to move's first. The output is a logit
//! of the side to move's winning chance; times `scale` it is a score in the
//! game's centi-units.
//!
//! File (little-endian): `BGNN`, format version (u32), the feature set's
//! name (u16 length, bytes), inputs (u32), hidden (u32), scale in
//! hundredths (i32), in version 2 the activation (u32: 0 clipped, 1
//! squared; version 1 is clipped), input weights (i16, one row of `hidden`
//! per feature), input biases (i16), output weights (i16, the side to
//! move's `hidden` then the other's), output bias (i32), and last an
//! FNV-1a hash (u64) of everything before it. A clipped network is written
//! as version 1, so its file and hash are what they were before squared
//! units existed.

use multiversion::multiversion;

/// Hidden values are stored times `QA`; a clipped unit lies in 0..=QA.
pub const QA: i32 = 255;
/// Output weights are stored times `QB`.
pub const QB: i32 = 64;
/// The trainer keeps every weight within this bound, so that quantized
/// weights fit in i16 and a clipped unit times an output weight in i32.
pub const WEIGHT_LIMIT: f32 = 1.98;
/// The newest file version: the one with the activation.
pub const FORMAT_VERSION: u32 = 2;
const MAGIC: &[u8; 4] = b"BGNN";
const MAX_HIDDEN: usize = 4096;

/// What the output layer sees of a hidden unit's value `v`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Activation {
    /// clamp(v, 0, 1).
    #[default]
    Clipped,
    /// clamp(v, 0, 1)²: a unit's output grows faster as its input nears
    /// 1, so a few strong features outweigh many weak ones, which a sum
    /// of clipped units can say only with more of them.
    SquaredClipped,
}

impl Activation {
    /// Every activation, in the order of their codes in a file.
    const ALL: [Activation; 2] = [Activation::Clipped, Activation::SquaredClipped];
    /// Their names (`bg-tune --activation`), in the same order.
    pub const NAMES: [&'static str; 2] = ["clipped", "squared"];

    pub fn name(self) -> &'static str {
        Self::NAMES[self.code() as usize]
    }

    pub fn from_name(name: &str) -> Option<Activation> {
        let index = Self::NAMES.iter().position(|&known| known == name)?;
        Some(Self::ALL[index])
    }

    /// The activation's number in a network file or a checkpoint.
    pub fn code(self) -> u32 {
        match self {
            Activation::Clipped => 0,
            Activation::SquaredClipped => 1,
        }
    }

    pub fn from_code(code: u32) -> Option<Activation> {
        Self::ALL.get(usize::try_from(code).ok()?).copied()
    }

    pub fn apply(self, value: f32) -> f32 {
        let clipped = value.clamp(0.0, 1.0);
        match self {
            Activation::Clipped => clipped,
            Activation::SquaredClipped => clipped * clipped,
        }
    }

    /// The slope at `value`: zero where the unit is clipped.
    pub fn slope(self, value: f32) -> f32 {
        if value <= 0.0 || value >= 1.0 {
            return 0.0;
        }
        match self {
            Activation::Clipped => 1.0,
            Activation::SquaredClipped => 2.0 * value,
        }
    }

    /// The steepest slope anywhere: how much a hidden value's error can grow.
    pub fn max_slope(self) -> f32 {
        match self {
            Activation::Clipped => 1.0,
            Activation::SquaredClipped => 2.0,
        }
    }
}

/// The network in floats, as trained.
#[derive(Clone, Debug, PartialEq)]
pub struct FloatNetwork {
    pub inputs: usize,
    pub hidden: usize,
    pub activation: Activation,
    /// Score units per unit of output (the logit).
    pub scale: f32,
    /// `inputs` rows of `hidden`.
    pub input_weights: Vec<f32>,
    pub input_bias: Vec<f32>,
    /// The side to move's `hidden`, then the other side's.
    pub output_weights: Vec<f32>,
    pub output_bias: f32,
}

impl FloatNetwork {
    /// All weights zero.
    pub fn zeros(inputs: usize, hidden: usize, scale: f32) -> Self {
        FloatNetwork {
            inputs,
            hidden,
            activation: Activation::Clipped,
            scale,
            input_weights: vec![0.0; inputs * hidden],
            input_bias: vec![0.0; hidden],
            output_weights: vec![0.0; 2 * hidden],
            output_bias: 0.0,
        }
    }

    /// The hidden layer of one view, before clipping.
    pub fn hidden_values(&self, features: &[u16]) -> Vec<f32> {
        let mut values = self.input_bias.clone();
        for &feature in features {
            let row = &self.input_weights[usize::from(feature) * self.hidden..][..self.hidden];
            values.iter_mut().zip(row).for_each(|(v, w)| *v += w);
        }
        values
    }

    /// The output (logit) for the side to move's and the other's features.
    pub fn output(&self, mover: &[u16], other: &[u16]) -> f32 {
        let (mover, other) = (self.hidden_values(mover), self.hidden_values(other));
        let activated = mover
            .iter()
            .chain(&other)
            .map(|&v| self.activation.apply(v));
        self.output_bias
            + activated
                .zip(&self.output_weights)
                .map(|(v, w)| v * w)
                .sum::<f32>()
    }
}

/// The network in integers, as the engine evaluates with it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Network {
    features: String,
    inputs: usize,
    hidden: usize,
    activation: Activation,
    /// Score units per unit of output, in hundredths.
    scale_hundredths: i32,
    input_weights: Vec<i16>,
    input_bias: Vec<i16>,
    output_weights: Vec<i16>,
    output_bias: i32,
    hash: u64,
}

fn quantize(value: f32, factor: i32) -> i16 {
    (value * factor as f32)
        .round()
        .clamp(f32::from(i16::MIN), f32::from(i16::MAX)) as i16
}

impl Network {
    /// The float network rounded to integers, for the named feature set.
    pub fn quantize(float: &FloatNetwork, features: &str) -> Network {
        let mut network = Network {
            features: features.to_owned(),
            inputs: float.inputs,
            hidden: float.hidden,
            activation: float.activation,
            scale_hundredths: (float.scale * 100.0).round() as i32,
            input_weights: float
                .input_weights
                .iter()
                .map(|&w| quantize(w, QA))
                .collect(),
            input_bias: float.input_bias.iter().map(|&w| quantize(w, QA)).collect(),
            output_weights: float
                .output_weights
                .iter()
                .map(|&w| quantize(w, QB))
                .collect(),
            output_bias: (float.output_bias * (QA * QB) as f32).round() as i32,
            hash: 0,
        };
        network.hash = fnv1a(&network.body());
        network
    }

    /// This network for a feature set that extends its own (`features`,
    /// with `inputs` of which its are the first): the new inputs weigh
    /// nothing, so it evaluates as before. The hash stays the file's.
    pub fn extended(mut self, features: &str, inputs: usize) -> Network {
        if inputs > self.inputs {
            self.input_weights.resize(inputs * self.hidden, 0);
            self.inputs = inputs;
        }
        self.features = features.to_owned();
        self
    }

    /// The float network this one rounds, as near as the integers tell:
    /// a start for training on where no checkpoint is left (`bg-tune
    /// train-network --init`). Quantizing it again gives back this network.
    pub fn dequantize(&self) -> FloatNetwork {
        let divide = |values: &[i16], factor: i32| -> Vec<f32> {
            values
                .iter()
                .map(|&v| f32::from(v) / factor as f32)
                .collect()
        };
        FloatNetwork {
            inputs: self.inputs,
            hidden: self.hidden,
            activation: self.activation,
            scale: self.scale_hundredths as f32 / 100.0,
            input_weights: divide(&self.input_weights, QA),
            input_bias: divide(&self.input_bias, QA),
            output_weights: divide(&self.output_weights, QB),
            output_bias: self.output_bias as f32 / (QA * QB) as f32,
        }
    }

    pub fn features(&self) -> &str {
        &self.features
    }

    pub fn inputs(&self) -> usize {
        self.inputs
    }

    pub fn hidden(&self) -> usize {
        self.hidden
    }

    pub fn activation(&self) -> Activation {
        self.activation
    }

    /// The hash written at the end of the file: which network this is.
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// One line for `info string` and the `eval` command.
    pub fn describe(&self) -> String {
        format!(
            "network {}, {} inputs, {} hidden units a side ({}), hash {:016x}",
            self.features,
            self.inputs,
            self.hidden,
            self.activation.name(),
            self.hash
        )
    }

    pub fn input_bias(&self) -> &[i16] {
        &self.input_bias
    }

    /// The input weights of one feature, one per hidden unit.
    pub fn input_row(&self, feature: u16) -> &[i16] {
        &self.input_weights[usize::from(feature) * self.hidden..][..self.hidden]
    }

    /// The score, in the game's units, from the side to move's and the
    /// other side's accumulators.
    pub fn evaluate(&self, mover: &[i16], other: &[i16]) -> i32 {
        let weights = &self.output_weights;
        // A squared unit is stored times QA², so the bias is raised to it.
        let (sum, unit) = match self.activation {
            Activation::Clipped => (i64::from(output_sum(mover, other, weights)), 1),
            Activation::SquaredClipped => (squared_output_sum(mover, other, weights), QA),
        };
        let total = sum + i64::from(self.output_bias) * i64::from(unit);
        let divisor = i64::from(QA * QB * 100) * i64::from(unit);
        let scaled = total * i64::from(self.scale_hundredths) / divisor;
        scaled.clamp(-20_000, 20_000) as i32
    }

    fn body(&self) -> Vec<u8> {
        let mut bytes = Vec::with_capacity(64 + 2 * self.input_weights.len());
        bytes.extend_from_slice(MAGIC);
        let version = match self.activation {
            Activation::Clipped => 1u32,
            Activation::SquaredClipped => FORMAT_VERSION,
        };
        bytes.extend_from_slice(&version.to_le_bytes());
        bytes.extend_from_slice(&(self.features.len() as u16).to_le_bytes());
        bytes.extend_from_slice(self.features.as_bytes());
        bytes.extend_from_slice(&(self.inputs as u32).to_le_bytes());
        bytes.extend_from_slice(&(self.hidden as u32).to_le_bytes());
        bytes.extend_from_slice(&self.scale_hundredths.to_le_bytes());
        if version >= 2 {
            bytes.extend_from_slice(&self.activation.code().to_le_bytes());
        }
        for values in [&self.input_weights, &self.input_bias, &self.output_weights] {
            values
                .iter()
                .for_each(|v| bytes.extend_from_slice(&v.to_le_bytes()));
        }
        bytes.extend_from_slice(&self.output_bias.to_le_bytes());
        bytes
    }

    /// The file's bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut bytes = self.body();
        bytes.extend_from_slice(&self.hash.to_le_bytes());
        bytes
    }

    /// Reads a network file made for the feature set `features` with
    /// `inputs` inputs; any other file, a truncated or altered one, is
    /// refused with the reason.
    pub fn from_bytes(bytes: &[u8], features: &str, inputs: usize) -> Result<Network, String> {
        let mut reader = ByteReader::new(bytes, "network file");
        if reader.take(4)? != MAGIC {
            return Err("not a network file (it does not start with BGNN)".into());
        }
        let version = reader.u32()?;
        if !(1..=FORMAT_VERSION).contains(&version) {
            return Err(format!(
                "network format version {version}, this engine reads 1 to {FORMAT_VERSION}"
            ));
        }
        let name_length = usize::from(u16::from_le_bytes(reader.array()?));
        let name = String::from_utf8_lossy(reader.take(name_length)?).into_owned();
        if name != features {
            return Err(format!(
                "a network for the features '{name}', this game's are '{features}'"
            ));
        }
        let file_inputs = reader.u32()? as usize;
        let hidden = reader.u32()? as usize;
        if file_inputs != inputs || !(1..=MAX_HIDDEN).contains(&hidden) {
            return Err(format!(
                "a network of {file_inputs} inputs and {hidden} hidden units: \
                 {inputs} inputs and 1 to {MAX_HIDDEN} hidden units expected"
            ));
        }
        let scale_hundredths = reader.i32()?;
        if scale_hundredths <= 0 {
            return Err(format!("a network with score scale {scale_hundredths}"));
        }
        let activation = if version >= 2 {
            let code = reader.u32()?;
            Activation::from_code(code).ok_or_else(|| format!("unknown activation {code}"))?
        } else {
            Activation::Clipped
        };
        let input_weights = reader.i16s(inputs * hidden)?;
        let input_bias = reader.i16s(hidden)?;
        let output_weights = reader.i16s(2 * hidden)?;
        let output_bias = reader.i32()?;
        let body_length = reader.position();
        let hash = u64::from_le_bytes(reader.array()?);
        if reader.position() != bytes.len() {
            return Err(format!(
                "{} bytes after the network's end",
                bytes.len() - reader.position()
            ));
        }
        if fnv1a(&bytes[..body_length]) != hash {
            return Err("the network's hash does not match its contents (altered file)".into());
        }
        Ok(Network {
            features: name,
            inputs,
            hidden,
            activation,
            scale_hundredths,
            input_weights,
            input_bias,
            output_weights,
            output_bias,
            hash,
        })
    }
}

/// The output before its bias: both views' clipped values times their
/// output weights (the side to move's first). Compiled for AVX2 too, as
/// `accumulator::derive_values` is.
#[multiversion(targets("x86_64+avx2"))]
fn output_sum(mover: &[i16], other: &[i16], weights: &[i16]) -> i32 {
    let (mover_weights, other_weights) = weights.split_at(mover.len());
    clipped_dot(mover, mover_weights).wrapping_add(clipped_dot(other, other_weights))
}

/// Σ clamp(value, 0, QA) × weight, in i32 (at most QA × 2^15 per term, and
/// the trainer's weight bound keeps the sum far from overflow).
#[inline(always)]
fn clipped_dot(values: &[i16], weights: &[i16]) -> i32 {
    values
        .iter()
        .zip(weights)
        .map(|(&v, &w)| i32::from(v).clamp(0, QA) * i32::from(w))
        .fold(0i32, i32::wrapping_add)
}

/// The squared units' output before its bias, times QA² × QB: each term
/// clamp(v)² × w fits i32 (255² × 2^15 < 2^31), their sum is taken in i64.
#[multiversion(targets("x86_64+avx2"))]
fn squared_output_sum(mover: &[i16], other: &[i16], weights: &[i16]) -> i64 {
    let (mover_weights, other_weights) = weights.split_at(mover.len());
    squared_dot(mover, mover_weights) + squared_dot(other, other_weights)
}

#[inline(always)]
fn squared_dot(values: &[i16], weights: &[i16]) -> i64 {
    values
        .iter()
        .zip(weights)
        .map(|(&v, &w)| {
            let clipped = i32::from(v).clamp(0, QA);
            i64::from(clipped * i32::from(w) * clipped)
        })
        .sum()
}

/// FNV-1a, 64 bits: a checksum that catches a damaged or altered file.
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |hash, &byte| {
        (hash ^ u64::from(byte)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// Reads little-endian values off a file's bytes, in order; running past
/// the end is an error naming the file's kind (`network file`,
/// `checkpoint`).
pub struct ByteReader<'a> {
    bytes: &'a [u8],
    at: usize,
    kind: &'static str,
}

impl<'a> ByteReader<'a> {
    pub fn new(bytes: &'a [u8], kind: &'static str) -> Self {
        ByteReader { bytes, at: 0, kind }
    }

    /// Bytes read so far.
    pub fn position(&self) -> usize {
        self.at
    }

    pub fn take(&mut self, count: usize) -> Result<&'a [u8], String> {
        let end = self
            .at
            .checked_add(count)
            .filter(|&end| end <= self.bytes.len());
        let end = end.ok_or_else(|| {
            format!(
                "the {} is truncated ({} bytes, more expected after byte {})",
                self.kind,
                self.bytes.len(),
                self.at
            )
        })?;
        let slice = &self.bytes[self.at..end];
        self.at = end;
        Ok(slice)
    }

    pub fn array<const N: usize>(&mut self) -> Result<[u8; N], String> {
        let mut array = [0u8; N];
        array.copy_from_slice(self.take(N)?);
        Ok(array)
    }

    pub fn u32(&mut self) -> Result<u32, String> {
        Ok(u32::from_le_bytes(self.array()?))
    }

    pub fn i32(&mut self) -> Result<i32, String> {
        Ok(i32::from_le_bytes(self.array()?))
    }

    pub fn i16s(&mut self, count: usize) -> Result<Vec<i16>, String> {
        let bytes = self.take(count.saturating_mul(2))?;
        Ok(bytes
            .chunks_exact(2)
            .map(|pair| i16::from_le_bytes([pair[0], pair[1]]))
            .collect())
    }

    pub fn f32s(&mut self, count: usize) -> Result<Vec<f32>, String> {
        let bytes = self.take(count.saturating_mul(4))?;
        Ok(bytes
            .chunks_exact(4)
            .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
            .collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::rngs::SmallRng;
    use rand::{Rng, SeedableRng};

    fn random_float(rng: &mut SmallRng, inputs: usize, hidden: usize) -> FloatNetwork {
        let mut float = FloatNetwork::zeros(inputs, hidden, 50.0);
        let mut fill = |values: &mut Vec<f32>, bound: f32| {
            values
                .iter_mut()
                .for_each(|v| *v = rng.gen_range(-bound..bound))
        };
        fill(&mut float.input_weights, 0.3);
        fill(&mut float.input_bias, 0.5);
        fill(&mut float.output_weights, 1.0);
        float.output_bias = 0.1;
        float
    }

    #[test]
    fn a_network_survives_its_file_and_damage_is_refused() {
        let mut rng = SmallRng::seed_from_u64(1);
        let network = Network::quantize(&random_float(&mut rng, 20, 8), "test-features");
        let bytes = network.to_bytes();
        assert_eq!(
            Network::from_bytes(&bytes, "test-features", 20),
            Ok(network.clone())
        );
        for cut in [0, 3, 10, bytes.len() / 2, bytes.len() - 1] {
            let error = Network::from_bytes(&bytes[..cut], "test-features", 20).unwrap_err();
            assert!(
                error.contains("truncated") || error.contains("BGNN"),
                "{error}"
            );
        }
        let mut altered = bytes.clone();
        altered[40] ^= 1;
        let error = Network::from_bytes(&altered, "test-features", 20).unwrap_err();
        assert!(error.contains("hash"), "{error}");
        let error = Network::from_bytes(&bytes, "other-features", 20).unwrap_err();
        assert!(error.contains("other-features"), "{error}");
        let error = Network::from_bytes(&bytes, "test-features", 21).unwrap_err();
        assert!(error.contains("21 inputs"), "{error}");
        let mut longer = bytes.clone();
        longer.push(0);
        assert!(Network::from_bytes(&longer, "test-features", 20).is_err());
    }

    #[test]
    fn a_squared_network_is_written_as_version_two_and_read_back() {
        let mut rng = SmallRng::seed_from_u64(3);
        let mut float = random_float(&mut rng, 20, 8);
        let clipped = Network::quantize(&float, "test-features").to_bytes();
        assert_eq!(clipped[4..8], 1u32.to_le_bytes());
        float.activation = Activation::SquaredClipped;
        let network = Network::quantize(&float, "test-features");
        let bytes = network.to_bytes();
        assert_eq!(bytes[4..8], 2u32.to_le_bytes());
        let read = Network::from_bytes(&bytes, "test-features", 20);
        assert_eq!(
            read.as_ref().map(Network::activation),
            Ok(Activation::SquaredClipped)
        );
        assert_eq!(read, Ok(network.clone()));
        assert_eq!(network.dequantize().activation, Activation::SquaredClipped);
        let mut unknown = bytes[..bytes.len() - 8].to_vec();
        let activation_at = 8 + 2 + "test-features".len() + 12;
        unknown[activation_at] = 7;
        let hash = fnv1a(&unknown);
        unknown.extend_from_slice(&hash.to_le_bytes());
        let error = Network::from_bytes(&unknown, "test-features", 20).unwrap_err();
        assert!(error.contains("activation 7"), "{error}");
    }

    #[test]
    fn squared_units_evaluate_as_their_floats_do() {
        let mut rng = SmallRng::seed_from_u64(4);
        let mut float = random_float(&mut rng, 40, 16);
        float.activation = Activation::SquaredClipped;
        let network = Network::quantize(&float, "test-features");
        let mut spread = 0.0f32;
        for _ in 0..200 {
            let mut pick = || -> Vec<u16> { (0..40).filter(|_| rng.gen_bool(0.2)).collect() };
            let (mover, other) = (pick(), pick());
            let accumulate = |features: &[u16]| -> Vec<i16> {
                let mut values = network.input_bias().to_vec();
                for &feature in features {
                    let row = network.input_row(feature);
                    values.iter_mut().zip(row).for_each(|(v, w)| *v += w);
                }
                values
            };
            let expected = float.output(&mover, &other) * float.scale;
            let quantized = network.evaluate(&accumulate(&mover), &accumulate(&other));
            // Each of the 32 units' values is off by up to 9 half steps,
            // its square by twice that; the output weights by half a step.
            assert!(
                (quantized as f32 - expected).abs() <= 6.0 + expected.abs() * 0.02,
                "{quantized} against {expected}"
            );
            spread += expected.abs();
        }
        assert!(spread / 200.0 > 5.0, "the scores tell positions apart");
    }

    #[test]
    fn a_dequantized_network_quantizes_back_to_itself() {
        let mut rng = SmallRng::seed_from_u64(2);
        let float = random_float(&mut rng, 30, 16);
        let network = Network::quantize(&float, "test-features");
        let again = network.dequantize();
        assert_eq!(Network::quantize(&again, "test-features"), network);
        // The floats are those of the file, to within half a step.
        let close = |a: &[f32], b: &[f32], step: f32| {
            a.iter()
                .zip(b)
                .all(|(x, y)| (x - y).abs() <= step / 2.0 + 1e-6)
        };
        assert!(close(
            &again.input_weights,
            &float.input_weights,
            1.0 / QA as f32
        ));
        assert!(close(
            &again.output_weights,
            &float.output_weights,
            1.0 / QB as f32
        ));
        assert_eq!(again.scale, float.scale);
    }
}
