//! PyTorch's CPU random number generator, bit for bit: `at::mt19937` behind
//! `torch.Generator()` on CPU, and the `randperm` built on it.
//!
//! Sources (PyTorch 2.13): `aten/src/ATen/core/MT19937RNGEngine.h` (seeding and tempering),
//! `aten/src/ATen/CPUGeneratorImpl.cpp` (`random()` is one 32-bit draw; `random64()` is two,
//! the first as the high half), `aten/src/ATen/native/TensorFactories.cpp` (`randperm_cpu`).

const N: usize = 624;
const M: usize = 397;
const MATRIX_A: u32 = 0x9908_b0df;
const UPPER_MASK: u32 = 0x8000_0000;
const LOWER_MASK: u32 = 0x7fff_ffff;

/// The Mersenne Twister as ATen implements it.
#[derive(Clone)]
pub struct Mt19937 {
    state: [u32; N],
    next: usize,
}

impl Mt19937 {
    /// `torch.Generator().manual_seed(seed)`. Python ints are taken modulo 2^64 (a negative seed
    /// becomes its two's complement), and the engine keeps the low 32 bits.
    pub fn new(seed: u64) -> Self {
        let mut state = [0u32; N];
        state[0] = seed as u32;
        for j in 1..N {
            let prev = state[j - 1];
            state[j] = 1_812_433_253u32.wrapping_mul(prev ^ (prev >> 30)).wrapping_add(j as u32);
        }
        Mt19937 { state, next: N }
    }

    /// A seed as Python passes it. torch accepts integers in [-2^63, 2^64) and raises
    /// `ValueError: Overflow when unpacking long long` for others; `None` here.
    pub fn from_python_seed(seed: i128) -> Option<Self> {
        (i64::MIN as i128..=u64::MAX as i128).contains(&seed).then(|| Self::new(seed as u64))
    }

    fn twist(&mut self) {
        for i in 0..N {
            let y = (self.state[i] & UPPER_MASK) | (self.state[(i + 1) % N] & LOWER_MASK);
            let mag = if y & 1 == 1 { MATRIX_A } else { 0 };
            self.state[i] = self.state[(i + M) % N] ^ (y >> 1) ^ mag;
        }
        self.next = 0;
    }

    /// `CPUGeneratorImpl::random()`.
    pub fn random(&mut self) -> u32 {
        if self.next >= N {
            self.twist();
        }
        let mut y = self.state[self.next];
        self.next += 1;
        y ^= y >> 11;
        y ^= (y << 7) & 0x9d2c_5680;
        y ^= (y << 15) & 0xefc6_0000;
        y ^ (y >> 18)
    }

    /// `CPUGeneratorImpl::random64()`.
    pub fn random64(&mut self) -> u64 {
        let hi = self.random() as u64;
        let lo = self.random() as u64;
        (hi << 32) | lo
    }
}

/// Below this length `randperm` shuffles with 32-bit draws; from it on, with 64-bit draws and
/// the "inside-out" Fisher–Yates (`n < std::numeric_limits<uint32_t>::max() / 20`).
pub const RANDPERM_SMALL_LIMIT: u64 = u32::MAX as u64 / 20;

/// A permutation, stored as compactly as its length allows.
pub enum Permutation {
    /// Lengths below [`RANDPERM_SMALL_LIMIT`]: half the memory traffic of u64 while shuffling.
    Small(Vec<u32>),
    Large(Vec<u64>),
}

impl Permutation {
    pub fn len(&self) -> usize {
        match self {
            Permutation::Small(v) => v.len(),
            Permutation::Large(v) => v.len(),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    pub fn get(&self, i: usize) -> u64 {
        match self {
            Permutation::Small(v) => u64::from(v[i]),
            Permutation::Large(v) => v[i],
        }
    }
}

/// `torch.randperm(n, generator=g)` on CPU.
pub fn randperm(n: usize, rng: &mut Mt19937) -> Vec<u64> {
    match randperm_compact(n, rng) {
        Permutation::Small(v) => v.into_iter().map(u64::from).collect(),
        Permutation::Large(v) => v,
    }
}

/// [`randperm`] without widening the small case to u64.
pub fn randperm_compact(n: usize, rng: &mut Mt19937) -> Permutation {
    if (n as u64) < RANDPERM_SMALL_LIMIT {
        let mut r: Vec<u32> = (0..n as u32).collect();
        // The swaps hit random places of an array far larger than the caches, so they wait on
        // memory. The draws do not depend on the array, so draw AHEAD targets early and prefetch
        // them: several cache misses are then in flight at once. Same draws, same swaps.
        const AHEAD: usize = 32;
        let steps = n.saturating_sub(1);
        let mut targets = [0usize; AHEAD];
        let draw = |rng: &mut Mt19937, i: usize| i + (rng.random() % (n - i) as u32) as usize;
        for (i, t) in targets.iter_mut().enumerate().take(steps) {
            *t = draw(rng, i);
            prefetch(&r, *t);
        }
        for i in 0..steps {
            let z = targets[i % AHEAD];
            if i + AHEAD < steps {
                let next = draw(rng, i + AHEAD);
                targets[i % AHEAD] = next;
                prefetch(&r, next);
            }
            r.swap(i, z);
        }
        Permutation::Small(r)
    } else {
        let mut r = vec![0u64; n];
        for i in 0..n {
            let z = (rng.random64() % (i as u64 + 1)) as usize;
            r[i] = r[z];
            r[z] = i as u64;
        }
        Permutation::Large(r)
    }
}

/// A hint that `v[i]` will be needed soon; nothing on targets without one.
#[inline(always)]
fn prefetch(v: &[u32], i: usize) {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        // SAFETY: prefetching never faults and reads nothing; the pointer is in bounds anyway.
        unsafe { _mm_prefetch::<_MM_HINT_T0>(v.as_ptr().wrapping_add(i).cast()) };
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = (v, i);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reference_mt19937_output() {
        // The C++ standard fixes the 10000th output of std::mt19937 seeded with 5489.
        let mut g = Mt19937::new(5489);
        let mut last = 0;
        for _ in 0..10_000 {
            last = g.random();
        }
        assert_eq!(last, 4_123_659_995);
    }

    #[test]
    fn python_seed_range() {
        assert!(Mt19937::from_python_seed(-(1i128 << 63)).is_some());
        assert!(Mt19937::from_python_seed((1i128 << 64) - 1).is_some());
        assert!(Mt19937::from_python_seed(1i128 << 64).is_none());
        assert!(Mt19937::from_python_seed(-(1i128 << 63) - 1).is_none());
    }

    #[test]
    fn randperm_matches_torch_for_seed_42() {
        // torch.randperm(10, generator=torch.Generator().manual_seed(42))
        let mut g = Mt19937::new(42);
        assert_eq!(randperm(10, &mut g), vec![2, 6, 1, 8, 4, 5, 0, 9, 3, 7]);
    }
}
