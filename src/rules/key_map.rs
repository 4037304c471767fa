//! A hash map keyed by Zobrist keys, the transposition tables of the mate searches: the
//! keys are uniformly random already, so hashing them again would only cost time.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// A map from 64-bit Zobrist keys to `V`.
pub(crate) type KeyMap<V> = HashMap<u64, V, BuildHasherDefault<KeyHasher>>;

/// Passes a `u64` key through (other writes are mixed, should a caller hash anything
/// else); the mate searches' tables and the Go search board's history both use it.
#[derive(Default)]
pub(crate) struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 ^ b as u64).wrapping_mul(0x100_0000_01B3);
        }
    }

    fn write_u64(&mut self, n: u64) {
        self.0 ^= n;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_pass_through() {
        let mut map: KeyMap<&str> = KeyMap::default();
        map.insert(0x9E37_79B9_7F4A_7C15, "a");
        map.insert(1, "b");
        assert_eq!(map.get(&0x9E37_79B9_7F4A_7C15), Some(&"a"));
        assert_eq!(map.get(&1), Some(&"b"));
        assert_eq!(map.get(&2), None);
    }
}
