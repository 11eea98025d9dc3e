//! Arithmetic modulo primes below 2^30: the primes the programme at roots
//! of unity runs under, their roots of unity, a fast reduction for the
//! evaluations' sums of products, and the Chinese remainder theorem that
//! joins the residues into the count.

/// Every prime used is below this, so a product of two residues is below
/// 2^60 and sixteen of them add up without overflow.
const BELOW: u64 = 1 << 30;

/// Products a sum may add before it must be reduced.
pub(super) const PRODUCTS_PER_REDUCTION: usize = 16;

/// One prime `p` and Barrett's constant for it.
#[derive(Clone, Copy, Debug)]
pub(super) struct Prime {
    pub p: u64,
    /// floor(2^64 / p).
    barrett: u64,
}

impl Prime {
    pub(super) fn new(p: u64) -> Prime {
        assert!(p > 2 && p < BELOW);
        Prime {
            p,
            barrett: ((1u128 << 64) / p as u128) as u64,
        }
    }

    /// `x` mod p, for any `x`: the quotient estimate
    /// `x * floor(2^64 / p) / 2^64` is short by at most one.
    #[inline(always)]
    pub(super) fn reduce(self, x: u64) -> u64 {
        let q = ((x as u128 * self.barrett as u128) >> 64) as u64;
        let r = x - q * self.p;
        if r >= self.p { r - self.p } else { r }
    }

    pub(super) fn mul(self, a: u64, b: u64) -> u64 {
        self.reduce(a * b)
    }

    pub(super) fn pow(self, mut a: u64, mut e: u64) -> u64 {
        let mut r = 1;
        a %= self.p;
        while e > 0 {
            if e & 1 == 1 {
                r = self.mul(r, a);
            }
            a = self.mul(a, a);
            e >>= 1;
        }
        r
    }

    /// The inverse of a non-zero residue (Fermat).
    pub(super) fn inv(self, a: u64) -> u64 {
        self.pow(a, self.p - 2)
    }

    /// An element of multiplicative order exactly `m` (`m` divides p - 1).
    pub(super) fn root_of_order(self, m: u64) -> u64 {
        assert_eq!((self.p - 1) % m, 0);
        let factors = prime_factors(m);
        (2..self.p)
            .map(|x| self.pow(x, (self.p - 1) / m))
            .find(|&y| factors.iter().all(|&q| self.pow(y, m / q) != 1))
            .expect("a cyclic group has elements of every order dividing it")
    }
}

/// The `count` largest primes below 2^30 that are 1 modulo `modulus`
/// (so they have roots of unity of every order dividing it), largest first.
/// `None` if there are not that many.
pub(super) fn primes(modulus: u64, count: usize) -> Option<Vec<Prime>> {
    let mut out = Vec::with_capacity(count);
    let mut p = (BELOW - 1) / modulus * modulus + 1;
    while out.len() < count {
        if p >= BELOW {
            p = p.checked_sub(modulus)?;
            continue;
        }
        if p > 2 && is_prime(p) {
            out.push(Prime::new(p));
        }
        p = p.checked_sub(modulus).filter(|&q| q > 2)?;
    }
    Some(out)
}

/// Deterministic Miller-Rabin for numbers below 2^32 (bases 2, 7, 61).
fn is_prime(n: u64) -> bool {
    if n < 2 {
        return false;
    }
    for q in [2u64, 3, 5, 7, 11, 13, 61] {
        if n.is_multiple_of(q) {
            return n == q;
        }
    }
    let (mut d, mut s) = (n - 1, 0);
    while d.is_multiple_of(2) {
        d /= 2;
        s += 1;
    }
    let f = |a: u64, e: u64| -> u64 {
        let (mut r, mut a, mut e) = (1u128, a as u128, e);
        while e > 0 {
            if e & 1 == 1 {
                r = r * a % n as u128;
            }
            a = a * a % n as u128;
            e >>= 1;
        }
        r as u64
    };
    [2u64, 7, 61].iter().all(|&a| {
        let mut x = f(a, d);
        if x == 1 || x == n - 1 {
            return true;
        }
        for _ in 1..s {
            x = (x as u128 * x as u128 % n as u128) as u64;
            if x == n - 1 {
                return true;
            }
        }
        false
    })
}

fn prime_factors(mut m: u64) -> Vec<u64> {
    let mut out = Vec::new();
    let mut q = 2;
    while q * q <= m {
        if m.is_multiple_of(q) {
            out.push(q);
            while m.is_multiple_of(q) {
                m /= q;
            }
        }
        q += 1;
    }
    if m > 1 {
        out.push(m);
    }
    out
}

/// The number below the product of the primes with these residues
/// (Garner's mixed-radix form), or `None` past 2^128.
pub(super) fn crt(residues: &[(Prime, u64)]) -> Option<u128> {
    // x = d0 + d1 p0 + d2 p0 p1 + ...: each digit below its radix.
    let mut digits: Vec<u64> = Vec::with_capacity(residues.len());
    for &(q, r) in residues {
        // d_i = (r - (d0 + d1 p0 + ...)) / (p0 ... p_{i-1}) mod q.
        let (mut sum, mut radix) = (0u64, 1u64);
        for (j, &d) in digits.iter().enumerate() {
            sum = (sum + q.mul(d % q.p, radix)) % q.p;
            radix = q.mul(radix, residues[j].0.p % q.p);
        }
        let diff = (r % q.p + q.p - sum) % q.p;
        digits.push(q.mul(diff, q.inv(radix)));
    }
    let mut x = 0u128;
    for (i, &d) in digits.iter().enumerate().rev() {
        x = x
            .checked_mul(residues[i].0.p as u128)?
            .checked_add(d as u128)?;
    }
    Some(x)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn primes_are_prime_below_2_30_and_one_modulo_the_orders() {
        let ps = primes(12, 4).unwrap();
        assert_eq!(ps.len(), 4);
        for w in ps.windows(2) {
            assert!(w[0].p > w[1].p);
        }
        for q in &ps {
            assert!(q.p < 1 << 30 && q.p % 12 == 1);
            assert!((2..1000).all(|d| q.p % d != 0 || d == q.p));
            // Fermat's little theorem for a few bases.
            assert!([2, 3, 5, 7].iter().all(|&a| q.pow(a, q.p - 1) == 1));
        }
        assert!(is_prime(1_000_000_007) && !is_prime(1_000_000_007 * 3));
        assert!(!is_prime(3_215_031_751)); // a strong pseudoprime to 2, 3, 5, 7
    }

    #[test]
    fn the_reduction_agrees_with_the_remainder() {
        let q = Prime::new(primes(12, 1).unwrap()[0].p);
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        for _ in 0..100_000 {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            assert_eq!(q.reduce(x), x % q.p);
        }
        assert_eq!(q.reduce(u64::MAX), u64::MAX % q.p);
        assert_eq!(q.reduce(q.p), 0);
    }

    #[test]
    fn roots_have_their_exact_order() {
        let q = primes(60, 1).unwrap()[0];
        for m in [1u64, 2, 3, 4, 5, 6, 12, 60] {
            let w = q.root_of_order(m);
            assert_eq!(q.pow(w, m), 1);
            assert!((1..m).all(|k| q.pow(w, k) != 1));
        }
    }

    #[test]
    fn the_remainders_give_back_the_number() {
        let ps = primes(12, 5).unwrap();
        for x in [0u128, 1, 12_345, (1 << 61) + 7, u128::MAX / 3, u128::MAX] {
            let rs: Vec<(Prime, u64)> = ps.iter().map(|&q| (q, (x % q.p as u128) as u64)).collect();
            assert_eq!(crt(&rs), Some(x));
        }
        // Past 2^128: the product of five primes is about 2^150.
        let big: Vec<(Prime, u64)> = ps.iter().map(|&q| (q, q.p - 1)).collect();
        assert_eq!(crt(&big), None);
    }
}
