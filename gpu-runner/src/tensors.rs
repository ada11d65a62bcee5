//! The tensors the harness saved (safetensors), loaded with tch and compared.
//!
//! tch 0.26 cannot read a pickled `state_dict` written by torch 2.13 (`loadz_multi`: "Expected
//! GenericDict"), so the harness writes safetensors copies of every DDP model's final
//! parameters and of every checkpoint's tensors.

use std::collections::BTreeMap;
use std::path::Path;

use tch::{Device, Kind, Tensor};

use crate::RunnerError;

/// A state dict: name to tensor, in name order.
pub struct StateDict(pub BTreeMap<String, Tensor>);

impl StateDict {
    pub fn load(path: &Path) -> Result<StateDict, RunnerError> {
        let tensors = Tensor::read_safetensors(path).map_err(|e| RunnerError::Tensors {
            path: path.to_path_buf(),
            message: e.to_string(),
        })?;
        Ok(StateDict(tensors.into_iter().map(|(k, t)| (k, t.to_device(Device::Cpu))).collect()))
    }

    pub fn numel(&self) -> i64 {
        self.0.values().map(|t| t.numel() as i64).sum()
    }
}

/// How two state dicts differ, name by name.
#[derive(Debug, Clone, PartialEq)]
pub struct Difference {
    /// Names in one and not the other.
    pub missing: Vec<String>,
    pub extra: Vec<String>,
    /// The tensor that differs most, and by how much (largest absolute difference).
    pub worst: Option<(String, f64)>,
    /// Tensors whose values are not bit for bit equal.
    pub unequal: usize,
}

impl Difference {
    pub fn identical(&self) -> bool {
        self.missing.is_empty() && self.extra.is_empty() && self.unequal == 0
    }
}

/// Compares `b` with `a`, name by name, after `rename` is applied to `b`'s names.
pub fn compare(a: &StateDict, b: &StateDict, rename: impl Fn(&str) -> String) -> Difference {
    let b: BTreeMap<String, &Tensor> = b.0.iter().map(|(k, t)| (rename(k), t)).collect();
    let missing = a.0.keys().filter(|k| !b.contains_key(*k)).cloned().collect();
    let extra = b.keys().filter(|k| !a.0.contains_key(*k)).cloned().collect();
    let mut worst: Option<(String, f64)> = None;
    let mut unequal = 0;
    for (name, x) in &a.0 {
        let Some(y) = b.get(name) else { continue };
        if x.size() != y.size() {
            unequal += 1;
            worst = Some((name.clone(), f64::INFINITY));
            continue;
        }
        if bits_equal(x, y) {
            continue;
        }
        unequal += 1;
        let diff = if x.numel() == 0 {
            0.0
        } else {
            (x.to_kind(Kind::Double) - y.to_kind(Kind::Double)).abs().max().double_value(&[])
        };
        // A NaN on one side only: no number says by how much.
        let diff = if diff.is_nan() { f64::INFINITY } else { diff };
        if worst.as_ref().is_none_or(|(_, w)| diff > *w) {
            worst = Some((name.clone(), diff));
        }
    }
    Difference { missing, extra, worst, unequal }
}

/// Whether two tensors hold the same bits. `torch.equal` says a NaN differs from itself, which
/// would fail replicas that diverged to NaN together; DDP keeps replicas identical bit for bit.
fn bits_equal(x: &Tensor, y: &Tensor) -> bool {
    if x.kind() != y.kind() || x.size() != y.size() {
        return false;
    }
    let as_bits = match x.kind() {
        Kind::Double => Some(Kind::Int64),
        Kind::Float => Some(Kind::Int),
        Kind::Half | Kind::BFloat16 => Some(Kind::Int16),
        _ => None,
    };
    match as_bits {
        Some(bits) => x.contiguous().view_dtype(bits).equal(&y.contiguous().view_dtype(bits)),
        None => x.equal(y),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dict(pairs: &[(&str, &[f32])]) -> StateDict {
        StateDict(pairs.iter().map(|(k, v)| (k.to_string(), Tensor::from_slice(v))).collect())
    }

    #[test]
    fn replicas_gone_to_nan_together_are_identical_and_one_side_s_nan_is_no_number() {
        let nan = f32::NAN;
        let a = dict(&[("0.weight", &[nan, 2.0])]);
        assert!(compare(&a, &dict(&[("0.weight", &[nan, 2.0])]), str::to_string).identical());
        let d = compare(&a, &dict(&[("0.weight", &[1.0, 2.0])]), str::to_string);
        assert_eq!(d.worst, Some(("0.weight".to_string(), f64::INFINITY)));
        // -0.0 and 0.0 compare equal as numbers but are other bits.
        let zero = compare(&dict(&[("b", &[0.0])]), &dict(&[("b", &[-0.0])]), str::to_string);
        assert!(!zero.identical());
    }

    #[test]
    fn equal_dicts_are_identical() {
        let a = dict(&[("0.weight", &[1.0, 2.0]), ("0.bias", &[0.5])]);
        let b = dict(&[("0.weight", &[1.0, 2.0]), ("0.bias", &[0.5])]);
        assert!(compare(&a, &b, str::to_string).identical());
    }

    #[test]
    fn reports_the_worst_tensor_and_renamed_keys() {
        let a = dict(&[("0.weight", &[1.0, 2.0]), ("0.bias", &[0.5])]);
        let b = dict(&[("module.0.weight", &[1.0, 2.25]), ("module.0.bias", &[0.5])]);
        let raw = compare(&a, &b, str::to_string);
        assert_eq!(raw.missing.len(), 2);
        let d = compare(&a, &b, |k| k.strip_prefix("module.").unwrap_or(k).to_string());
        assert!(d.missing.is_empty() && d.extra.is_empty());
        assert_eq!(d.unequal, 1);
        assert_eq!(d.worst, Some(("0.weight".to_string(), 0.25)));
    }
}
