//! The page: HTML, script and style from `assets/`, embedded in the
//! binary (no download at run time, no build step).

use axum::extract::Path;
use axum::http::{header, StatusCode};
use axum::response::IntoResponse;

pub async fn index() -> impl IntoResponse {
    (
        [(header::CONTENT_TYPE, "text/html; charset=utf-8")],
        include_str!("../assets/index.html"),
    )
}

fn javascript(text: &'static str) -> impl IntoResponse {
    (
        [(header::CONTENT_TYPE, "text/javascript; charset=utf-8")],
        text,
    )
}

pub async fn script() -> impl IntoResponse {
    javascript(include_str!("../assets/app.js"))
}

pub async fn board() -> impl IntoResponse {
    javascript(include_str!("../assets/board.js"))
}

pub async fn net() -> impl IntoResponse {
    javascript(include_str!("../assets/net.js"))
}

pub async fn review() -> impl IntoResponse {
    javascript(include_str!("../assets/review.js"))
}

pub async fn clock() -> impl IntoResponse {
    javascript(include_str!("../assets/clock.js"))
}

pub async fn tree() -> impl IntoResponse {
    javascript(include_str!("../assets/tree.js"))
}

pub async fn lines() -> impl IntoResponse {
    javascript(include_str!("../assets/lines.js"))
}

pub async fn editor() -> impl IntoResponse {
    javascript(include_str!("../assets/editor.js"))
}

pub async fn style() -> impl IntoResponse {
    (
        [(header::CONTENT_TYPE, "text/css; charset=utf-8")],
        include_str!("../assets/style.css"),
    )
}

/// `GET /favicon.svg` and `/favicon.ico` (which browsers ask for by
/// themselves): the page's icon, an SVG either way.
pub async fn favicon() -> impl IntoResponse {
    (
        [(header::CONTENT_TYPE, "image/svg+xml")],
        include_str!("../assets/favicon.svg"),
    )
}

/// `GET /pieces/COLOUR-ANIMAL.svg`: the animal pieces' drawings.
pub async fn piece(Path(name): Path<String>) -> impl IntoResponse {
    let svg = match name.as_str() {
        "white-rat.svg" => include_str!("../assets/pieces/white-rat.svg"),
        "white-cat.svg" => include_str!("../assets/pieces/white-cat.svg"),
        "white-wolf.svg" => include_str!("../assets/pieces/white-wolf.svg"),
        "white-dog.svg" => include_str!("../assets/pieces/white-dog.svg"),
        "white-panther.svg" => include_str!("../assets/pieces/white-panther.svg"),
        "white-tiger.svg" => include_str!("../assets/pieces/white-tiger.svg"),
        "white-lion.svg" => include_str!("../assets/pieces/white-lion.svg"),
        "white-elephant.svg" => include_str!("../assets/pieces/white-elephant.svg"),
        "black-rat.svg" => include_str!("../assets/pieces/black-rat.svg"),
        "black-cat.svg" => include_str!("../assets/pieces/black-cat.svg"),
        "black-wolf.svg" => include_str!("../assets/pieces/black-wolf.svg"),
        "black-dog.svg" => include_str!("../assets/pieces/black-dog.svg"),
        "black-panther.svg" => include_str!("../assets/pieces/black-panther.svg"),
        "black-tiger.svg" => include_str!("../assets/pieces/black-tiger.svg"),
        "black-lion.svg" => include_str!("../assets/pieces/black-lion.svg"),
        "black-elephant.svg" => include_str!("../assets/pieces/black-elephant.svg"),
        _ => return (StatusCode::NOT_FOUND, "no such piece").into_response(),
    };
    ([(header::CONTENT_TYPE, "image/svg+xml")], svg).into_response()
}
