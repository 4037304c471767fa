//! Secrets and short codes from the system's randomness: seat tokens, session tokens, game and
//! class codes.

/// The letters of codes: no 0/o, 1/l/i, so a code read aloud in a classroom is typed right.
pub const CODE_LETTERS: &[u8] = b"23456789abcdefghjkmnpqrstuvwxyz";

/// `N` random bytes from the system; if it has none, from the clock and the address space
/// (still unique, not secret: every Linux, macOS and Windows has system randomness).
pub fn bytes<const N: usize>() -> [u8; N] {
    let mut bytes = [0u8; N];
    if getrandom::fill(&mut bytes).is_err() {
        let t = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos())
            .unwrap_or(0);
        let mut x = t as u64 ^ (&bytes as *const _ as u64);
        for b in bytes.iter_mut() {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            *b = (x >> 33) as u8;
        }
    }
    bytes
}

/// A code of `len` letters from [`CODE_LETTERS`] (31 letters: 6 of them make 887 million
/// codes).
///
/// ```
/// let code = qiyuan::random::code(6);
/// assert_eq!(code.len(), 6);
/// assert!(code.bytes().all(|b| qiyuan::random::CODE_LETTERS.contains(&b)));
/// ```
pub fn code(len: usize) -> String {
    (0..len)
        .map(|_| {
            let [b] = bytes::<1>();
            CODE_LETTERS[b as usize % CODE_LETTERS.len()] as char
        })
        .collect()
}

/// A secret: 128 random bits as 32 hex digits.
pub fn token() -> String {
    bytes::<16>().iter().map(|b| format!("{b:02x}")).collect()
}

/// A random number below `n` (`n` > 0), without the bias of a plain remainder.
pub fn below(n: u32) -> u32 {
    assert!(n > 0, "random::below(0)");
    let zone = u32::MAX - u32::MAX % n;
    loop {
        let v = u32::from_le_bytes(bytes::<4>());
        if v < zone {
            return v % n;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_are_distinct_hex() {
        let a = token();
        let b = token();
        assert_eq!(a.len(), 32);
        assert!(a.bytes().all(|c| c.is_ascii_hexdigit()));
        assert_ne!(a, b);
    }

    #[test]
    fn below_stays_below() {
        for n in [1, 2, 7, 100] {
            for _ in 0..200 {
                assert!(below(n) < n);
            }
        }
    }
}
