//! Logging in and out: the login page, students by picture code, teachers by password, the
//! session's start and end.

use super::*;
use crate::class::throttle::Reservation;

/// `GET /login`.
pub(crate) async fn login_page(State(state): State<AppState>, req: Req) -> Response {
    login_form(&state, &req, "", StatusCode::OK, LoginForm::default())
}

#[derive(Default, Deserialize)]
pub struct LoginForm {
    #[serde(default)]
    class: String,
    #[serde(default)]
    name: String,
    #[serde(default)]
    code: String,
    #[serde(default)]
    p1: String,
    #[serde(default)]
    p2: String,
    #[serde(default)]
    p3: String,
    #[serde(default)]
    password: String,
    #[serde(default)]
    next: String,
    /// Whether the form sent was the teacher's (its name goes back in the teacher's form,
    /// not the student's).
    #[serde(skip)]
    teacher: bool,
}

/// A picture of the login grid: its number, its drawing's file (`static/pictures/`) and word.
struct Picture {
    index: usize,
    file: &'static str,
    word: &'static str,
}

#[derive(Template)]
#[template(path = "login.html")]
struct LoginPage {
    chrome: Chrome,
    error: String,
    class: String,
    name: String,
    teacher_name: String,
    next: String,
    pictures: Vec<Picture>,
    enabled: bool,
}

fn login_form(
    state: &AppState,
    req: &Req,
    error: &str,
    status: StatusCode,
    form: LoginForm,
) -> Response {
    let snap = state.snapshot();
    let page = LoginPage {
        chrome: Chrome::new(req, &snap, req.ui().class.login.clone()),
        error: error.to_string(),
        class: form.class,
        name: if form.teacher {
            String::new()
        } else {
            form.name.clone()
        },
        teacher_name: if form.teacher {
            form.name
        } else {
            String::new()
        },
        next: if form.next.is_empty() {
            req.param("next").unwrap_or("").to_string()
        } else {
            form.next
        },
        pictures: class::codes::PICTURES
            .iter()
            .enumerate()
            .map(|(index, (_, zh, en))| Picture {
                index,
                file: en,
                word: if req.lang == Lang::Zh { zh } else { en },
            })
            .collect(),
        enabled: state.classroom().is_some(),
    };
    respond(req, status, page.render())
}

async fn start_session(room: &Classroom, role: Role, name: String, next: String) -> Response {
    let life = match role {
        Role::Teacher(_) => TEACHER_SESSION,
        Role::Student(..) => STUDENT_SESSION,
    };
    let token = crate::random::token();
    let account = Account {
        role,
        name,
        csrf: crate::random::token(),
        expires: class::now() + life.as_millis() as Millis,
    };
    let hash = password::token_hash(&token);
    match blocking(&room.store, move |s| s.open_session(&hash, &account)).await {
        Ok(()) => {
            let mut r = Redirect::to(&next).into_response();
            r.headers_mut()
                .append(header::SET_COOKIE, session_cookie(&token, life));
            r
        }
        Err(e) => {
            eprintln!("qiyuan: cannot open a session: {e}");
            (StatusCode::SERVICE_UNAVAILABLE, e.to_string()).into_response()
        }
    }
}

/// A login refused: the login form again with why and what was typed, or the store's page.
pub(crate) enum LoginRefused {
    /// The login form again, saying why, with its status.
    Form {
        /// The server's state.
        state: AppState,
        /// The request (boxed: errors stay small).
        req: Box<Req>,
        /// What was typed (without the password), shown again (boxed: errors stay small).
        form: Box<LoginForm>,
        /// Why.
        why: NotIn,
    },
    /// The store failed (the try is not counted): [`PageError`]'s page.
    Store(PageError),
}

/// Why a login form is shown again.
pub(crate) enum NotIn {
    /// The server has no classroom: 404.
    NoClassroom,
    /// A form from another site: 403.
    BadForm,
    /// The limits of tries were met: 429.
    TooMany,
    /// A wrong class, name or picture code (the same answer for each): 401.
    WrongLogin,
    /// A wrong teacher's name or password: 401.
    WrongPassword,
    /// The password could not be checked (not a wrong password): 503 with `Retry-After: 1`
    /// when the server is busy or hashing failed, 500 when the stored hash is malformed.
    Unchecked(password::PasswordError),
}

impl LoginRefused {
    /// The login form of `req` again, with `form` and `why`.
    fn form(state: &AppState, req: &Req, form: LoginForm, why: NotIn) -> LoginRefused {
        LoginRefused::Form {
            state: state.clone(),
            req: Box::new(req.clone()),
            form: Box::new(form),
            why,
        }
    }
}

impl IntoResponse for LoginRefused {
    fn into_response(self) -> Response {
        match self {
            LoginRefused::Form {
                state,
                req,
                form,
                why,
            } => refused_form(&state, &req, *form, why),
            LoginRefused::Store(e) => e.into_response(),
        }
    }
}

/// The login form again, saying `why` with its status.
fn refused_form(state: &AppState, req: &Req, form: LoginForm, why: NotIn) -> Response {
    let ui = &req.ui().class;
    let (status, text) = match &why {
        NotIn::NoClassroom => (StatusCode::NOT_FOUND, ui.no_classroom.clone()),
        NotIn::BadForm => (StatusCode::FORBIDDEN, ui.bad_form.clone()),
        NotIn::TooMany => (StatusCode::TOO_MANY_REQUESTS, ui.too_many.clone()),
        NotIn::WrongLogin => (StatusCode::UNAUTHORIZED, ui.wrong_login.clone()),
        NotIn::WrongPassword => (StatusCode::UNAUTHORIZED, ui.wrong_password.clone()),
        NotIn::Unchecked(e) => match e {
            password::PasswordError::Busy => (StatusCode::SERVICE_UNAVAILABLE, ui.busy.clone()),
            password::PasswordError::Hashing(_) => (
                StatusCode::SERVICE_UNAVAILABLE,
                fill(&ui.check_failed, &[("error", &e.to_string())]),
            ),
            password::PasswordError::Malformed(_) => (
                StatusCode::INTERNAL_SERVER_ERROR,
                fill(&ui.check_failed, &[("error", &e.to_string())]),
            ),
        },
    };
    let mut r = login_form(state, req, &text, status, form);
    if matches!(why, NotIn::Unchecked(_)) && status == StatusCode::SERVICE_UNAVAILABLE {
        r.headers_mut()
            .insert(header::RETRY_AFTER, HeaderValue::from_static("1"));
    }
    r
}

/// What the store found, with the reservation; or the store's error, the reservation
/// refunded (the try is not counted).
fn or_refund<T>(
    room: &Classroom,
    reserved: Reservation,
    found: Result<T, ClassError>,
) -> Result<(T, Reservation), ClassError> {
    match found {
        Ok(t) => Ok((t, reserved)),
        Err(e) => {
            room.limiter.refund(reserved);
            Err(e)
        }
    }
}

/// `POST /login/student`: class code, name and picture code. A wrong class, a wrong name and
/// a wrong code get the same answer; eight failures for one name in ten minutes lock it for
/// the rest of the ten minutes.
pub(crate) async fn login_student(
    State(state): State<AppState>,
    req: Req,
    Client(peer): Client,
    headers: HeaderMap,
    Form(form): Form<LoginForm>,
) -> Result<Response, LoginRefused> {
    let refused = |form, why| LoginRefused::form(&state, &req, form, why);
    let Some(room) = state.classroom_arc() else {
        return Err(refused(form, NotIn::NoClassroom));
    };
    if cross_site(&headers) {
        return Err(refused(form, NotIn::BadForm));
    }
    let typed = if form.code.trim().is_empty() {
        format!("{} {} {}", form.p1, form.p2, form.p3)
    } else {
        form.code.clone()
    };
    let key = format!(
        "{}:{}",
        form.class.trim().to_lowercase(),
        form.name.trim().to_lowercase()
    );
    let Ok(reserved) = room.limiter.reserve(Kind::Student, &key, peer) else {
        return Err(refused(form, NotIn::TooMany));
    };
    let (class_code, name) = (form.class.clone(), form.name.clone());
    let found = blocking(&room.store, move |s| s.student_login(&class_code, &name)).await;
    let (student, reserved) = or_refund(&room, reserved, found)
        .map_err(|e| LoginRefused::Store(PageError::store(&req, &state.snapshot(), e)))?;
    let code = PictureCode::parse(&typed);
    match student {
        Some(st) if code == Some(st.code) => {
            room.limiter.succeeded(reserved);
            let next = safe_next(
                Some(form.next.as_str()).filter(|n| !n.is_empty()),
                "/me?merge=1",
            );
            Ok(start_session(&room, Role::Student(st.id, st.class), st.name, next).await)
        }
        _ => {
            room.limiter.failed(reserved);
            Err(refused(form, NotIn::WrongLogin))
        }
    }
}

/// `POST /login/teacher`: name and password (argon2id; an unknown name is checked against a
/// decoy hash, so it takes as long as a wrong password).
pub(crate) async fn login_teacher(
    State(state): State<AppState>,
    req: Req,
    Client(peer): Client,
    headers: HeaderMap,
    Form(mut form): Form<LoginForm>,
) -> Result<Response, LoginRefused> {
    form.teacher = true;
    let refused = |form, why| LoginRefused::form(&state, &req, form, why);
    let Some(room) = state.classroom_arc() else {
        return Err(refused(form, NotIn::NoClassroom));
    };
    if cross_site(&headers) {
        return Err(refused(form, NotIn::BadForm));
    }
    let key = form.name.trim().to_lowercase();
    let Ok(reserved) = room.limiter.reserve(Kind::Teacher, &key, peer) else {
        return Err(refused(form, NotIn::TooMany));
    };
    let password = std::mem::take(&mut form.password);
    let name = form.name.clone();
    let found = blocking(&room.store, move |s| {
        Ok(match s.teacher_login(&name)? {
            Some((t, hash)) => (Some(t), hash),
            None => (None, password::decoy().to_string()),
        })
    })
    .await;
    let ((teacher, hash), reserved) = or_refund(&room, reserved, found)
        .map_err(|e| LoginRefused::Store(PageError::store(&req, &state.snapshot(), e)))?;
    match (room.hashing.check(password, hash).await, teacher) {
        (Ok(true), Some(t)) => {
            room.limiter.succeeded(reserved);
            let next = safe_next(
                Some(form.next.as_str()).filter(|n| !n.is_empty()),
                "/teacher",
            );
            Ok(start_session(&room, Role::Teacher(t.id), t.name, next).await)
        }
        (Ok(_), _) => {
            room.limiter.failed(reserved);
            Err(refused(form, NotIn::WrongPassword))
        }
        (Err(e), _) => {
            // Not a wrong password: not counted, and told as what it is.
            room.limiter.refund(reserved);
            eprintln!("qiyuan: a teacher's password could not be checked: {e}");
            Err(refused(form, NotIn::Unchecked(e)))
        }
    }
}

/// `POST /logout`.
pub(crate) async fn logout(
    signed: Signed,
    headers: HeaderMap,
    Form(form): Form<CsrfForm>,
) -> Result<Response, PageError> {
    signed.check(&form.csrf)?;
    if let Some(token) = session_token(&headers) {
        let hash = password::token_hash(&token);
        blocking(&signed.room.store, move |s| s.close_session(&hash))
            .await
            .map_err(|e| signed.refuse(Why::Store(e)))?;
    }
    let mut r = Redirect::to("/").into_response();
    r.headers_mut().append(
        header::SET_COOKIE,
        HeaderValue::from_static("qiyuan-session=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0"),
    );
    Ok(r)
}
