//! How often one client may ask for something: a token bucket per client address, in a map
//! of bounded size whose eviction cannot be used to reset a client's bucket cheaply.
//!
//! A client is an IPv4 address, or an IPv6 address's /64 network (one household or one
//! machine is given a whole /64, so its addresses are one client). A school's NAT makes a
//! whole class one client: the rates are set for that (docs/classroom.md, "Limits on games").

use std::collections::HashMap;
use std::net::{IpAddr, Ipv6Addr};
use std::time::{Duration, Instant};

/// One token every `every`, at most `burst` saved up.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rate {
    /// Tokens a client that asked nothing for a while may spend at once.
    pub burst: u32,
    /// A token comes back this often.
    pub every: Duration,
}

/// The client an address belongs to: IPv4 addresses (IPv4-mapped IPv6 ones too) as they are,
/// IPv6 addresses by their /64 network.
///
/// ```
/// use qiyuan::play::throttle::client_of;
/// use std::net::IpAddr;
/// let a: IpAddr = "2001:db8:1:2:aaaa::1".parse().unwrap();
/// let b: IpAddr = "2001:db8:1:2:bbbb::9".parse().unwrap();
/// assert_eq!(client_of(a), client_of(b));
/// let v4: IpAddr = "::ffff:192.0.2.7".parse().unwrap();
/// assert_eq!(client_of(v4), "192.0.2.7".parse::<IpAddr>().unwrap());
/// ```
pub fn client_of(addr: IpAddr) -> IpAddr {
    match addr {
        IpAddr::V4(_) => addr,
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => IpAddr::V4(v4),
            None => {
                let network = u128::from(v6) & !((1u128 << 64) - 1);
                IpAddr::V6(Ipv6Addr::from(network))
            }
        },
    }
}

#[derive(Clone, Copy, Debug)]
struct Bucket {
    /// Tokens at `at`.
    tokens: f64,
    at: Instant,
}

impl Bucket {
    fn now(&self, rate: Rate, now: Instant) -> f64 {
        let gained = now.saturating_duration_since(self.at).as_secs_f64()
            / rate.every.as_secs_f64().max(1e-9);
        (self.tokens + gained).min(f64::from(rate.burst))
    }
}

/// Token buckets by client, at most `clients` of them. A client not in the map has a full
/// bucket, so a full bucket is forgotten first; when none is full, the fullest goes (to
/// reset its own bucket a client would need that many others, each with an emptier one).
#[derive(Debug)]
pub struct Buckets {
    rate: Rate,
    clients: usize,
    map: HashMap<IpAddr, Bucket>,
}

impl Buckets {
    /// Buckets filling at `rate`, for at most `clients` clients at once.
    pub fn new(rate: Rate, clients: usize) -> Buckets {
        Buckets {
            rate,
            clients: clients.max(1),
            map: HashMap::new(),
        }
    }

    /// `Ok` if `client` has a token now, else how long until it has one.
    pub fn check(&self, client: IpAddr, now: Instant) -> Result<(), Duration> {
        let tokens = self
            .map
            .get(&client)
            .map_or(f64::from(self.rate.burst), |b| b.now(self.rate, now));
        if tokens >= 1.0 {
            Ok(())
        } else {
            Err(self.rate.every.mul_f64(1.0 - tokens))
        }
    }

    /// Spends one of `client`'s tokens: `Ok`, or how long until it has one (nothing spent).
    pub fn take(&mut self, client: IpAddr, now: Instant) -> Result<(), Duration> {
        self.check(client, now)?;
        let rate = self.rate;
        if !self.map.contains_key(&client) && self.map.len() >= self.clients {
            self.make_room(now);
        }
        let bucket = self.map.entry(client).or_insert(Bucket {
            tokens: f64::from(rate.burst),
            at: now,
        });
        bucket.tokens = bucket.now(rate, now) - 1.0;
        bucket.at = now;
        Ok(())
    }

    /// Forgets the full buckets (as good as absent); if none is full, the fullest one.
    fn make_room(&mut self, now: Instant) {
        let (rate, burst) = (self.rate, f64::from(self.rate.burst));
        self.map.retain(|_, b| b.now(rate, now) < burst);
        if self.map.len() >= self.clients {
            let fullest = self
                .map
                .iter()
                .max_by(|a, b| a.1.now(rate, now).total_cmp(&b.1.now(rate, now)))
                .map(|(k, _)| *k);
            if let Some(k) = fullest {
                self.map.remove(&k);
            }
        }
    }

    /// How many clients are remembered.
    pub fn len(&self) -> usize {
        self.map.len()
    }

    /// Whether no client is remembered.
    pub fn is_empty(&self) -> bool {
        self.map.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ip(n: u8) -> IpAddr {
        IpAddr::from([10, 0, 0, n])
    }

    const HOUR: Duration = Duration::from_secs(3600);

    #[test]
    fn a_burst_is_spent_then_refused_until_a_token_comes_back() {
        let rate = Rate {
            burst: 3,
            every: Duration::from_secs(10),
        };
        let mut b = Buckets::new(rate, 10);
        let t = Instant::now();
        for _ in 0..3 {
            b.take(ip(1), t).unwrap();
        }
        let wait = b.take(ip(1), t).unwrap_err();
        assert_eq!(wait, Duration::from_secs(10));
        assert!(
            b.take(ip(2), t).is_ok(),
            "another client has its own bucket"
        );
        assert!(b.take(ip(1), t + Duration::from_secs(10)).is_ok());
        assert!(b.take(ip(1), t + Duration::from_secs(10)).is_err());
    }

    #[test]
    fn many_other_clients_do_not_reset_an_empty_bucket() {
        let rate = Rate {
            burst: 2,
            every: HOUR,
        };
        let mut b = Buckets::new(rate, 4);
        let t = Instant::now();
        b.take(ip(1), t).unwrap();
        b.take(ip(1), t).unwrap();
        // Clients that spend one token each: fuller than client 1, so they go first.
        for n in 2..200 {
            b.take(ip(n), t).unwrap();
            assert!(b.len() <= 4);
        }
        assert!(b.take(ip(1), t).is_err(), "client 1 is still limited");
    }
}
