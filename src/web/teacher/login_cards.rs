//! Login cards: one a student, with the class's address, to print.

use super::*;

struct Card {
    name: String,
    pictures: Vec<(&'static str, &'static str, &'static str)>,
}

#[derive(Template)]
#[template(path = "teacher_cards.html")]
struct CardsPage {
    chrome: Chrome,
    t: &'static TeacherUi,
    base: String,
    name: String,
    code: String,
    address: String,
    /// Eight cards a sheet.
    sheets: Vec<Vec<Card>>,
}

/// The address students type: the host the teacher used, and `/login`.
fn login_address(headers: &HeaderMap) -> String {
    format!("{}/login", super::super::kit::site_host(headers))
}

/// `GET /teacher/classes/{id}/cards`: A4 login cards, eight a page.
pub(crate) async fn cards(
    signed: Signed,
    headers: HeaderMap,
    Path(id): Path<String>,
) -> Result<Response, PageError> {
    let class = own(&signed, &id).await?;
    let cid = class.id;
    let students = blocking(&signed.room.store, move |s| s.students(cid))
        .await
        .map_err(|e| signed.refuse(Why::Store(e)))?;
    let t = tui(&signed);
    let cards: Vec<Card> = students
        .into_iter()
        .map(|s| Card {
            name: s.name,
            pictures: s
                .code
                .0
                .iter()
                .map(|&i| class::codes::PICTURES[i as usize])
                .collect(),
        })
        .collect();
    let mut sheets: Vec<Vec<Card>> = Vec::new();
    for card in cards {
        match sheets.last_mut() {
            Some(sheet) if sheet.len() < 8 => sheet.push(card),
            _ => sheets.push(vec![card]),
        }
    }
    let page = CardsPage {
        chrome: Chrome::new(
            &signed.req,
            &signed.snap,
            format!("{} · {}", t.cards, class.name),
        ),
        t,
        base: class_href(class.id),
        name: class.name,
        code: class.code,
        address: login_address(&headers),
        sheets,
    };
    Ok(respond(&signed.req, StatusCode::OK, page.render()))
}
