//! The model the timelines train: a multilayer perceptron,
//! `nn.Sequential(nn.Linear(w0, w1), nn.ReLU(), …, nn.Linear(wL−1, wL))`, in float32.
//!
//! What DDP's bucketing depends on is taken from PyTorch, not assumed: the parameter order is
//! `model.parameters()` (each layer's weight, then its bias), and in backward the gradients
//! become ready from the last layer to the first, each layer's bias before its weight
//! (checked against real DDP's `prev_iteration_grad_ready_order_indices` in the fixtures).

/// Bytes per element: float32.
pub const ELEMENT_BYTES: u64 = 4;

/// Bytes of a `rows × cols` float32 tensor. Sizes multiply in u64: `usize` is 32 bits on wasm32,
/// where a 4096-sample batch through a 4096×4096 layer would overflow it.
pub fn tensor_bytes(rows: usize, cols: usize) -> u64 {
    rows as u64 * cols as u64 * ELEMENT_BYTES
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ModelError {
    #[error("a model needs at least two layer widths (input and output), got {0}")]
    TooFewWidths(usize),
    #[error("layer widths must be at least 1")]
    ZeroWidth,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Mlp {
    widths: Vec<usize>,
}

/// One parameter tensor, as `named_parameters()` lists it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Param {
    /// `"0.weight"`, `"0.bias"`, `"2.weight"`, …: the `nn.Sequential` index counts the ReLUs.
    pub name: String,
    pub layer: usize,
    pub numel: u64,
}

impl Param {
    pub fn bytes(&self) -> u64 {
        self.numel * ELEMENT_BYTES
    }
}

impl Mlp {
    pub fn new(widths: Vec<usize>) -> Result<Mlp, ModelError> {
        if widths.len() < 2 {
            return Err(ModelError::TooFewWidths(widths.len()));
        }
        if widths.contains(&0) {
            return Err(ModelError::ZeroWidth);
        }
        Ok(Mlp { widths })
    }

    pub fn widths(&self) -> &[usize] {
        &self.widths
    }

    pub fn layers(&self) -> usize {
        self.widths.len() - 1
    }

    pub fn input_width(&self) -> usize {
        self.widths[0]
    }

    pub fn output_width(&self) -> usize {
        self.widths[self.widths.len() - 1]
    }

    /// `(in, out)` of layer `l`.
    pub fn layer_shape(&self, l: usize) -> (usize, usize) {
        (self.widths[l], self.widths[l + 1])
    }

    /// In `model.parameters()` order.
    pub fn parameters(&self) -> Vec<Param> {
        (0..self.layers())
            .flat_map(|l| {
                let (i, o) = self.layer_shape(l);
                [
                    Param {
                        name: format!("{}.weight", 2 * l),
                        layer: l,
                        numel: i as u64 * o as u64,
                    },
                    Param { name: format!("{}.bias", 2 * l), layer: l, numel: o as u64 },
                ]
            })
            .collect()
    }

    pub fn parameter_count(&self) -> u64 {
        self.parameters().iter().map(|p| p.numel).sum()
    }

    pub fn parameter_bytes(&self) -> u64 {
        self.parameter_count() * ELEMENT_BYTES
    }

    /// Parameter indices in the order backward makes their gradients ready.
    pub fn grad_ready_order(&self) -> Vec<usize> {
        (0..self.layers()).rev().flat_map(|l| [2 * l + 1, 2 * l]).collect()
    }

    /// Multiply-adds count twice: `2·in·out` per sample for the matrix product.
    pub fn forward_flops(&self, l: usize, samples: usize) -> f64 {
        let (i, o) = self.layer_shape(l);
        2.0 * i as f64 * o as f64 * samples as f64
    }

    /// The gradient of the weight costs as much as the forward product, and so does the gradient
    /// of the input, which the first layer does not need (its input does not require grad).
    pub fn backward_flops(&self, l: usize, samples: usize) -> f64 {
        let products = if l == 0 { 1.0 } else { 2.0 };
        products * self.forward_flops(l, samples)
    }

    /// Bytes autograd keeps for backward: every layer's input and output, per sample.
    pub fn activation_bytes(&self, samples: usize) -> u64 {
        let l = self.layers();
        let per_sample: usize =
            self.widths[..l].iter().sum::<usize>() + self.widths[1..].iter().sum::<usize>();
        tensor_bytes(per_sample, samples)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parameters_as_torch_lists_them() {
        let m = Mlp::new(vec![784, 1024, 10]).unwrap();
        let names: Vec<(String, u64)> =
            m.parameters().into_iter().map(|p| (p.name, p.numel)).collect();
        assert_eq!(
            names,
            vec![
                ("0.weight".into(), 784 * 1024),
                ("0.bias".into(), 1024),
                ("2.weight".into(), 10240),
                ("2.bias".into(), 10)
            ]
        );
        // sum(p.numel() for p in model.parameters()) in torch: 814,090.
        assert_eq!(m.parameter_count(), 814_090);
        assert_eq!(m.grad_ready_order(), vec![3, 2, 1, 0]);
    }

    #[test]
    fn invalid_models() {
        assert_eq!(Mlp::new(vec![3]), Err(ModelError::TooFewWidths(1)));
        assert_eq!(Mlp::new(vec![3, 0]), Err(ModelError::ZeroWidth));
    }
}
