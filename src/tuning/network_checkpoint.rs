//! A training run's checkpoint: the float weights, Adam's moments and the
//! epochs done, so that a stopped run resumes where it was. Written to a
//! temporary file and renamed, so a stop while writing never leaves half of
//! one.
//!
//! Format (little-endian): `BGCK`, version (u32), inputs, hidden, epochs
//! done (u32 each), in version 2 the activation (u32, as in a network
//! file; version 1 is clipped), the scale (f32), Adam's step (u64), then
//! the weights, the first moments and the second moments, each as a
//! network's floats in the order of the network file.

use std::path::Path;

use super::network_train::{AdamState, Training};
use crate::core::nnue::network::{Activation, ByteReader, FloatNetwork};

const MAGIC: &[u8; 4] = b"BGCK";
const VERSION: u32 = 2;

fn push_network(bytes: &mut Vec<u8>, network: &FloatNetwork) {
    for values in [
        &network.input_weights,
        &network.input_bias,
        &network.output_weights,
    ] {
        values
            .iter()
            .for_each(|v| bytes.extend_from_slice(&v.to_le_bytes()));
    }
    bytes.extend_from_slice(&network.output_bias.to_le_bytes());
}

pub fn to_bytes(training: &Training) -> Vec<u8> {
    let network = &training.network;
    let mut bytes = Vec::new();
    bytes.extend_from_slice(MAGIC);
    for value in [
        VERSION,
        network.inputs as u32,
        network.hidden as u32,
        training.epochs_done as u32,
    ] {
        bytes.extend_from_slice(&value.to_le_bytes());
    }
    bytes.extend_from_slice(&network.activation.code().to_le_bytes());
    bytes.extend_from_slice(&network.scale.to_le_bytes());
    bytes.extend_from_slice(&training.adam.step.to_le_bytes());
    for part in [network, &training.adam.first, &training.adam.second] {
        push_network(&mut bytes, part);
    }
    bytes
}

pub fn save(path: &Path, training: &Training) -> Result<(), String> {
    let temporary = path.with_extension("partial");
    std::fs::write(&temporary, to_bytes(training))
        .and_then(|()| std::fs::rename(&temporary, path))
        .map_err(|e| format!("cannot write checkpoint '{}': {e}", path.display()))
}

pub fn load(path: &Path) -> Result<Training, String> {
    let bytes = std::fs::read(path)
        .map_err(|e| format!("cannot read checkpoint '{}': {e}", path.display()))?;
    from_bytes(&bytes).map_err(|e| format!("checkpoint '{}': {e}", path.display()))
}

pub fn from_bytes(bytes: &[u8]) -> Result<Training, String> {
    let mut words = ByteReader::new(bytes, "checkpoint");
    if words.take(4)? != MAGIC {
        return Err("not a checkpoint (it does not start with BGCK)".into());
    }
    let version = words.u32()?;
    if !(1..=VERSION).contains(&version) {
        return Err(format!(
            "checkpoint version {version}, expected 1 to {VERSION}"
        ));
    }
    let inputs = words.u32()? as usize;
    let hidden = words.u32()? as usize;
    let epochs_done = words.u32()? as usize;
    let activation = if version >= 2 {
        let code = words.u32()?;
        Activation::from_code(code).ok_or_else(|| format!("unknown activation {code}"))?
    } else {
        Activation::Clipped
    };
    let scale = f32::from_le_bytes(words.array()?);
    let step = u64::from_le_bytes(words.array()?);
    let expected = 3 * 4 * (inputs * hidden + 3 * hidden + 1);
    if bytes.len() - words.position() != expected {
        return Err(format!(
            "{} bytes of weights, {expected} expected for {inputs} inputs and {hidden} hidden units",
            bytes.len() - words.position()
        ));
    }
    let mut next = || -> Result<FloatNetwork, String> {
        Ok(FloatNetwork {
            inputs,
            hidden,
            activation,
            scale,
            input_weights: words.f32s(inputs * hidden)?,
            input_bias: words.f32s(hidden)?,
            output_weights: words.f32s(2 * hidden)?,
            output_bias: f32::from_le_bytes(words.array()?),
        })
    };
    let (network, first, second) = (next()?, next()?, next()?);
    Ok(Training {
        network,
        adam: AdamState {
            step,
            first,
            second,
        },
        epochs_done,
    })
}
