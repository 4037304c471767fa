//! Who added which variation of a record held in memory. A viewer (a browser, known by a
//! cookie of its own) may delete only the variations it added by trying moves, never the
//! record's own variations nor another viewer's.

use crate::record::path::Branch;
use axum::http::{header, HeaderMap, HeaderValue};

/// The viewer's cookie.
const COOKIE: &str = "qiyuan-viewer";

/// A variation a viewer added: in which game (index from 0) and the branches leading into it.
#[derive(Clone, Debug)]
pub(super) struct Owned {
    pub game: usize,
    pub viewer: String,
    pub branches: Vec<Branch>,
}

/// The viewer's token, from its cookie, if it has one that looks like ours.
pub(super) fn viewer(headers: &HeaderMap) -> Option<String> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|c| c.trim().strip_prefix(COOKIE)?.strip_prefix('='))
        .find(|t| !t.is_empty() && t.len() <= 64 && t.bytes().all(|b| b.is_ascii_alphanumeric()))
        .map(String::from)
}

/// The viewer's token, a new one if it has none, and the cookie to set for a new one.
pub(super) fn viewer_or_new(headers: &HeaderMap) -> (String, Option<HeaderValue>) {
    match viewer(headers) {
        Some(v) => (v, None),
        None => {
            let token = crate::random::token();
            let cookie = format!(
                "{COOKIE}={token}; Path=/records; HttpOnly; SameSite=Strict; Max-Age=31536000"
            );
            (token, HeaderValue::from_str(&cookie).ok())
        }
    }
}

/// Whether `viewer` added the variation `branches` of game `game`.
pub(super) fn owns(owned: &[Owned], game: usize, viewer: &str, branches: &[Branch]) -> bool {
    !branches.is_empty()
        && owned
            .iter()
            .any(|o| o.game == game && o.viewer == viewer && o.branches == branches)
}

/// After the variation `deleted` of game `game` was deleted: forgets what was in it, and
/// renumbers the variations after it in the same place.
pub(super) fn after_delete(owned: &mut Vec<Owned>, game: usize, deleted: &[Branch]) {
    let Some((last, outer)) = deleted.split_last() else {
        return;
    };
    owned.retain(|o| !(o.game == game && o.branches.starts_with(deleted)));
    for o in owned.iter_mut().filter(|o| o.game == game) {
        if o.branches.len() > outer.len() && o.branches.starts_with(outer) {
            let b = &mut o.branches[outer.len()];
            if b.at == last.at && b.variation > last.variation {
                b.variation -= 1;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn b(at: usize, variation: usize) -> Branch {
        Branch { at, variation }
    }

    #[test]
    fn deleting_forgets_the_inside_and_renumbers_the_later() {
        let own = |branches| Owned {
            game: 0,
            viewer: "v".into(),
            branches,
        };
        let mut owned = vec![
            own(vec![b(3, 1)]),
            own(vec![b(3, 1), b(0, 0)]),
            own(vec![b(3, 2)]),
            own(vec![b(3, 2), b(1, 0)]),
            own(vec![b(4, 2)]),
        ];
        after_delete(&mut owned, 0, &[b(3, 1)]);
        let left: Vec<_> = owned.iter().map(|o| o.branches.clone()).collect();
        assert_eq!(left, [vec![b(3, 1)], vec![b(3, 1), b(1, 0)], vec![b(4, 2)]]);
        assert!(owns(&owned, 0, "v", &[b(3, 1)]) && !owns(&owned, 0, "w", &[b(3, 1)]));
        let mut headers = HeaderMap::new();
        headers.insert(
            header::COOKIE,
            HeaderValue::from_static("a=1; qiyuan-viewer=abc123"),
        );
        assert_eq!(viewer(&headers).as_deref(), Some("abc123"));
    }
}
