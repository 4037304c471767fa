//! The teacher's home page (`/teacher`): their classes, making and deleting one.

use super::*;

struct ClassRow {
    id: i64,
    name: String,
    code: String,
    created: String,
}

#[derive(Template)]
#[template(path = "teacher_home.html")]
struct HomePage {
    chrome: Chrome,
    t: &'static TeacherUi,
    csrf: String,
    classes: Vec<ClassRow>,
    error: String,
    name: String,
}

async fn home_page(
    signed: &Signed,
    status: StatusCode,
    error: String,
    name: String,
) -> Result<Response, PageError> {
    let teacher = signed.teacher()?;
    let classes = blocking(&signed.room.store, move |s| s.classes(teacher))
        .await
        .map_err(|e| signed.refuse(Why::Store(e)))?;
    let t = tui(signed);
    let page = HomePage {
        chrome: Chrome::new(&signed.req, &signed.snap, t.title.clone()),
        t,
        csrf: signed.account.csrf.clone(),
        classes: classes
            .into_iter()
            .map(|c| ClassRow {
                id: c.id.0,
                name: c.name,
                code: c.code,
                created: fill(&t.created, &[("date", &class::day_of(c.created))]),
            })
            .collect(),
        error,
        name,
    };
    Ok(respond(&signed.req, status, page.render()))
}

/// `GET /teacher`: the teacher's classes, newest first, and the form to make one.
pub(crate) async fn home(signed: Signed) -> Result<Response, PageError> {
    home_page(&signed, StatusCode::OK, String::new(), String::new()).await
}

/// The new-class form.
#[derive(Deserialize)]
pub struct NewClassForm {
    #[serde(default)]
    csrf: String,
    #[serde(default)]
    name: String,
}

/// `POST /teacher/classes`: makes a class, then opens it.
pub(crate) async fn create_class(
    signed: Signed,
    Form(form): Form<NewClassForm>,
) -> Result<Response, PageError> {
    signed.check(&form.csrf)?;
    let teacher = signed.teacher()?;
    let name = form.name.trim().to_string();
    let made = {
        let name = name.clone();
        blocking(&signed.room.store, move |s| s.create_class(teacher, &name)).await
    };
    match made {
        Ok(c) => Ok(redirect(&class_href(c.id))),
        Err(e) => match why(tui(&signed), &e) {
            Some(text) => home_page(&signed, StatusCode::UNPROCESSABLE_ENTITY, text, name).await,
            None => Err(signed.refuse(Why::Store(e))),
        },
    }
}

/// Are you sure? A page that asks before something is deleted or taken back (a page, so it
/// works without a script): what, why it matters, the form that does it and the way back.
#[derive(Template)]
#[template(path = "teacher_delete.html")]
pub(super) struct DeletePage {
    pub chrome: Chrome,
    pub t: &'static TeacherUi,
    pub csrf: String,
    pub title: String,
    pub note: String,
    pub action: String,
    pub yes: String,
    pub back: String,
}

/// `GET /teacher/classes/{id}/delete`: are you sure? (a page, so it works without a script).
pub(crate) async fn delete_confirm(
    signed: Signed,
    Path(id): Path<String>,
) -> Result<Response, PageError> {
    let class = own(&signed, &id).await?;
    let t = tui(&signed);
    let title = fill(&t.delete_title, &[("name", &class.name)]);
    let page = DeletePage {
        chrome: Chrome::new(&signed.req, &signed.snap, title.clone()),
        t,
        csrf: signed.account.csrf.clone(),
        title,
        note: t.delete_note.clone(),
        action: format!("{}/delete", class_href(class.id)),
        yes: t.delete_yes.clone(),
        back: class_href(class.id),
    };
    Ok(respond(&signed.req, StatusCode::OK, page.render()))
}

/// `POST /teacher/classes/{id}/delete`: deletes the class (its history stays in the store).
pub(crate) async fn delete_class(
    signed: Signed,
    Path(id): Path<String>,
    Form(form): Form<CsrfForm>,
) -> Result<Response, PageError> {
    signed.check(&form.csrf)?;
    let class = own(&signed, &id).await?;
    let teacher = class.teacher;
    match blocking(&signed.room.store, move |s| {
        s.delete_class(teacher, class.id)
    })
    .await
    {
        Ok(()) => Ok(redirect("/teacher")),
        Err(e) => Err(signed.refuse(Why::Store(e))),
    }
}
