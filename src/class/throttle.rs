//! Login throttling that holds under races and floods: a try is reserved (checked and
//! counted in one step, under one lock) before the password or the pictures are checked, so
//! a hundred logins at once get no more checks than the limit; teachers and students are
//! counted in tables of their own; a locked name is never evicted before its window ends,
//! however many other names are tried; and an address is limited too, so that one machine
//! cannot flood the tables with names.
//!
//! A teacher's name is counted per address (`name` from `address`): a student who guesses a
//! teacher's password locks that name only for their own address, and the teacher logs in
//! from another one meanwhile. A student's name is counted from every address together
//! (a class may share one address).

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Failed logins allowed for one name in [`WINDOW`].
pub const NAME_TRIES: u32 = 8;
/// Failed teacher logins allowed from one address in [`WINDOW`], whatever the names.
pub const TEACHER_ADDRESS_TRIES: u32 = 32;
/// Failed student logins allowed from one address in [`WINDOW`], whatever the names: a
/// class of thirty behind one address, each mistyping eight times.
pub const STUDENT_ADDRESS_TRIES: u32 = 240;
/// The window of every limit: a name or an address locked stays locked until its first
/// counted failure is this old.
pub const WINDOW: Duration = Duration::from_secs(10 * 60);
/// The most names (or addresses) a table keeps; a new one beyond is refused while every
/// kept one is locked.
pub const CAPACITY: usize = 10_000;

/// Who is logging in: each has its own tables.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A teacher (name and password).
    Teacher,
    /// A student (class code, name and pictures).
    Student,
}

/// Why a login may not be tried now.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Refused {
    /// This name has failed [`NAME_TRIES`] times in the window.
    NameLocked,
    /// This address has failed too often in the window.
    AddressLocked,
    /// The table is full of locked names: no new name until one's window ends.
    Full,
}

/// A try reserved by [`Throttle::reserve`]: counted as a failure until it is told
/// otherwise ([`Throttle::succeeded`], [`Throttle::refund`]).
#[derive(Debug)]
#[must_use = "a reservation is a failure until told otherwise"]
pub struct Reservation {
    kind: Kind,
    name: String,
    address: Option<String>,
}

#[derive(Clone, Copy, Debug)]
struct Bucket {
    count: u32,
    since: Instant,
}

impl Bucket {
    fn expired(&self, now: Instant) -> bool {
        now.duration_since(self.since) >= WINDOW
    }
}

#[derive(Debug, Default)]
struct Table {
    buckets: HashMap<String, Bucket>,
}

impl Table {
    /// Whether `key` may be counted once more under `limit`.
    fn check(&mut self, key: &str, limit: u32, capacity: usize, now: Instant) -> bool {
        if let Some(b) = self.buckets.get_mut(key) {
            if b.expired(now) {
                *b = Bucket {
                    count: 0,
                    since: now,
                };
            }
            return b.count < limit;
        }
        if self.buckets.len() >= capacity {
            self.make_room(limit, capacity, now);
        }
        self.buckets.len() < capacity
    }

    /// Drops the expired buckets, then the oldest half of the unlocked ones; a locked bucket
    /// stays until its window ends.
    fn make_room(&mut self, limit: u32, capacity: usize, now: Instant) {
        self.buckets.retain(|_, b| !b.expired(now));
        if self.buckets.len() < capacity {
            return;
        }
        let mut open: Vec<(Instant, String)> = self
            .buckets
            .iter()
            .filter(|(_, b)| b.count < limit)
            .map(|(k, b)| (b.since, k.clone()))
            .collect();
        open.sort();
        let drop = open.len().div_ceil(2);
        for (_, k) in open.into_iter().take(drop) {
            self.buckets.remove(&k);
        }
    }

    fn count(&mut self, key: &str, now: Instant) {
        let b = self.buckets.entry(key.to_string()).or_insert(Bucket {
            count: 0,
            since: now,
        });
        b.count += 1;
    }

    fn uncount(&mut self, key: &str) {
        if let Some(b) = self.buckets.get_mut(key) {
            b.count = b.count.saturating_sub(1);
        }
    }
}

#[derive(Debug, Default)]
struct Tables {
    teachers: Table,
    students: Table,
    teacher_addresses: Table,
    student_addresses: Table,
}

impl Tables {
    fn of(&mut self, kind: Kind) -> (&mut Table, &mut Table, u32) {
        match kind {
            Kind::Teacher => (
                &mut self.teachers,
                &mut self.teacher_addresses,
                TEACHER_ADDRESS_TRIES,
            ),
            Kind::Student => (
                &mut self.students,
                &mut self.student_addresses,
                STUDENT_ADDRESS_TRIES,
            ),
        }
    }
}

/// The login limits of a server (see the module's documentation).
#[derive(Debug)]
pub struct Throttle {
    tables: Mutex<Tables>,
    capacity: usize,
}

impl Default for Throttle {
    fn default() -> Throttle {
        Throttle::with_capacity(CAPACITY)
    }
}

impl Throttle {
    /// Tables of at most `capacity` names (and addresses) each.
    pub fn with_capacity(capacity: usize) -> Throttle {
        Throttle {
            tables: Mutex::new(Tables::default()),
            capacity: capacity.max(1),
        }
    }

    /// Reserves one try for `name` (already in its canonical form: the teacher's name, or
    /// class code and name) from `address` (if known): checked and counted in one step.
    ///
    /// ```
    /// use qiyuan::class::throttle::{Kind, Refused, Throttle, NAME_TRIES};
    /// let t = Throttle::default();
    /// for _ in 0..NAME_TRIES {
    ///     let r = t.reserve(Kind::Student, "abc:li", None).unwrap();
    ///     t.failed(r);
    /// }
    /// assert_eq!(t.reserve(Kind::Student, "abc:li", None).unwrap_err(), Refused::NameLocked);
    /// // Teachers are counted apart.
    /// assert!(t.reserve(Kind::Teacher, "abc:li", None).is_ok());
    /// ```
    pub fn reserve(
        &self,
        kind: Kind,
        name: &str,
        address: Option<IpAddr>,
    ) -> Result<Reservation, Refused> {
        let now = Instant::now();
        let mut guard = self.tables.lock().unwrap_or_else(|e| e.into_inner());
        let (names, addresses, address_limit) = guard.of(kind);
        let address = address.map(|a| a.to_string());
        if let Some(a) = &address {
            if !addresses.check(a, address_limit, self.capacity, now) {
                return Err(if addresses.buckets.contains_key(a) {
                    Refused::AddressLocked
                } else {
                    Refused::Full
                });
            }
        }
        let name = match (kind, &address) {
            (Kind::Teacher, Some(a)) => format!("{name}\u{0}{a}"),
            _ => name.to_string(),
        };
        if !names.check(&name, NAME_TRIES, self.capacity, now) {
            return Err(if names.buckets.contains_key(&name) {
                Refused::NameLocked
            } else {
                Refused::Full
            });
        }
        names.count(&name, now);
        if let Some(a) = &address {
            addresses.count(a, now);
        }
        Ok(Reservation {
            kind,
            name,
            address,
        })
    }

    /// The try failed: it stays counted.
    pub fn failed(&self, reservation: Reservation) {
        drop(reservation);
    }

    /// The try succeeded: the name's failures are forgotten, and the try is not counted
    /// against the address.
    pub fn succeeded(&self, reservation: Reservation) {
        let mut guard = self.tables.lock().unwrap_or_else(|e| e.into_inner());
        let (names, addresses, _) = guard.of(reservation.kind);
        names.buckets.remove(&reservation.name);
        if let Some(a) = &reservation.address {
            addresses.uncount(a);
        }
    }

    /// The try could not be judged (the server was busy, the database failed): it is not
    /// counted.
    pub fn refund(&self, reservation: Reservation) {
        let mut guard = self.tables.lock().unwrap_or_else(|e| e.into_inner());
        let (names, addresses, _) = guard.of(reservation.kind);
        names.uncount(&reservation.name);
        if let Some(a) = &reservation.address {
            addresses.uncount(a);
        }
    }
}

/// Events (`/api/class/event`) a student may send in [`EVENT_WINDOW`].
pub const EVENTS_PER_WINDOW: u32 = 60;
/// The window of [`EVENTS_PER_WINDOW`]: a minute.
pub const EVENT_WINDOW: Duration = Duration::from_secs(60);

/// A rate limit by student: at most [`EVENTS_PER_WINDOW`] in each [`EVENT_WINDOW`] (a fixed
/// window that starts at a student's first event), bounded to [`CAPACITY`] students.
#[derive(Debug, Default)]
pub struct StudentEvents {
    buckets: Mutex<HashMap<i64, Bucket>>,
}

impl StudentEvents {
    /// Counts one event of `student`; false if it is over the limit (then it is not counted).
    ///
    /// ```
    /// use qiyuan::class::throttle::{StudentEvents, EVENTS_PER_WINDOW};
    /// let rate = StudentEvents::default();
    /// assert!((0..EVENTS_PER_WINDOW).all(|_| rate.allow(7)));
    /// assert!(!rate.allow(7));
    /// assert!(rate.allow(8));
    /// ```
    pub fn allow(&self, student: i64) -> bool {
        let now = Instant::now();
        let mut map = self.buckets.lock().unwrap_or_else(|e| e.into_inner());
        if map.len() >= CAPACITY && !map.contains_key(&student) {
            map.retain(|_, b| now.duration_since(b.since) < EVENT_WINDOW);
            if map.len() >= CAPACITY {
                return false;
            }
        }
        let b = map.entry(student).or_insert(Bucket {
            count: 0,
            since: now,
        });
        if now.duration_since(b.since) >= EVENT_WINDOW {
            *b = Bucket {
                count: 0,
                since: now,
            };
        }
        if b.count >= EVENTS_PER_WINDOW {
            return false;
        }
        b.count += 1;
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fail(t: &Throttle, kind: Kind, name: &str, address: Option<IpAddr>) -> Result<(), Refused> {
        t.reserve(kind, name, address).map(|r| t.failed(r))
    }

    #[test]
    fn a_flood_of_names_cannot_evict_a_locked_name() {
        let t = Throttle::with_capacity(100);
        for _ in 0..NAME_TRIES {
            fail(&t, Kind::Student, "c:locked", None).unwrap();
        }
        for i in 0..1_000 {
            let _ = fail(&t, Kind::Student, &format!("c:junk{i}"), None);
        }
        assert_eq!(
            t.reserve(Kind::Student, "c:locked", None).unwrap_err(),
            Refused::NameLocked
        );
        let kept = t.tables.lock().unwrap().students.buckets.len();
        assert!(kept <= 100, "{kept} names kept");
    }

    #[test]
    fn a_table_full_of_locked_names_refuses_new_ones_and_keeps_them_all() {
        let t = Throttle::with_capacity(3);
        for n in ["a", "b", "c"] {
            for _ in 0..NAME_TRIES {
                fail(&t, Kind::Teacher, n, None).unwrap();
            }
        }
        assert_eq!(fail(&t, Kind::Teacher, "d", None), Err(Refused::Full));
        for n in ["a", "b", "c"] {
            assert_eq!(fail(&t, Kind::Teacher, n, None), Err(Refused::NameLocked));
        }
    }

    #[test]
    fn one_address_cannot_flood_names() {
        let t = Throttle::default();
        let a: IpAddr = "10.0.0.7".parse().unwrap();
        for i in 0..STUDENT_ADDRESS_TRIES {
            fail(&t, Kind::Student, &format!("c:n{i}"), Some(a)).unwrap();
        }
        assert_eq!(
            fail(&t, Kind::Student, "c:fresh", Some(a)),
            Err(Refused::AddressLocked)
        );
        let b: IpAddr = "10.0.0.8".parse().unwrap();
        assert_eq!(fail(&t, Kind::Student, "c:fresh", Some(b)), Ok(()));
    }

    #[test]
    fn a_teacher_locked_from_one_address_logs_in_from_another() {
        let t = Throttle::default();
        let (student, teacher): (IpAddr, IpAddr) =
            ("10.0.0.7".parse().unwrap(), "10.0.0.2".parse().unwrap());
        for _ in 0..NAME_TRIES {
            fail(&t, Kind::Teacher, "wang", Some(student)).unwrap();
        }
        assert_eq!(
            fail(&t, Kind::Teacher, "wang", Some(student)),
            Err(Refused::NameLocked)
        );
        let r = t.reserve(Kind::Teacher, "wang", Some(teacher)).unwrap();
        t.succeeded(r);
    }

    #[test]
    fn a_refunded_try_is_not_counted() {
        let t = Throttle::default();
        for _ in 0..NAME_TRIES * 4 {
            let r = t.reserve(Kind::Teacher, "wang", None).unwrap();
            t.refund(r);
        }
        assert!(t.reserve(Kind::Teacher, "wang", None).is_ok());
    }
}
