//! What every request goes through before and after its handler: the
//! `Origin` check, the body read in full within its time and size caps,
//! and the answer's error made the documented JSON `{"error": …}` with no
//! server path in it (docs/web.md, "Limits").

use crate::{ApiError, AppState};
use axum::body::{Body, Bytes};
use axum::extract::{Request, State};
use axum::http::{header, Method};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use std::path::Path;
use std::time::Duration;

/// The largest error answer read back to be rewritten (they are a line).
const MAX_ERROR_BYTES: usize = 64 << 10;

/// The middleware: refuses a foreign `Origin` (403), reads the body
/// within [`crate::Config::body_timeout_ms`] and
/// [`crate::Config::max_body_bytes`] (408, 413), runs the handler, and
/// makes its error answer JSON without server paths.
pub(crate) async fn checks(State(st): State<AppState>, req: Request, next: Next) -> Response {
    if let Err(e) = origin(&req) {
        return e.into_response();
    }
    let (parts, body) = req.into_parts();
    let limit = st.config.max_body_bytes;
    let declared = parts
        .headers
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u64>().ok());
    if declared.is_some_and(|n| n > limit as u64) {
        return too_large(limit).into_response();
    }
    let wait = Duration::from_millis(st.config.body_timeout_ms);
    let bytes = match tokio::time::timeout(wait, axum::body::to_bytes(body, limit)).await {
        Err(_) => {
            return ApiError::Timeout(format!(
                "the request body did not arrive within {} ms",
                st.config.body_timeout_ms
            ))
            .into_response()
        }
        Ok(Err(e)) if is_length_limit(&e) => return too_large(limit).into_response(),
        Ok(Err(e)) => {
            return ApiError::Bad(format!("the request body could not be read: {e}"))
                .into_response()
        }
        Ok(Ok(b)) => b,
    };
    let answer = next
        .run(Request::from_parts(parts, Body::from(bytes)))
        .await;
    error_as_json(answer, st.config.tables.as_deref()).await
}

fn too_large(limit: usize) -> ApiError {
    ApiError::TooLarge(format!(
        "request body too large: the server takes at most {limit} bytes"
    ))
}

fn is_length_limit(e: &axum::Error) -> bool {
    let mut source: Option<&(dyn std::error::Error + 'static)> = Some(e);
    while let Some(s) = source {
        if s.is::<http_body_util::LengthLimitError>() {
            return true;
        }
        source = s.source();
    }
    false
}

/// Requests that change something or start work (every method but GET
/// and HEAD, and the event stream) are refused from a page of another
/// site: a browser names the page's origin in `Origin`, which must then be
/// this server (its `Host`). Requests without `Origin` (curl, scripts, a
/// same-origin GET) pass.
fn origin(req: &Request) -> Result<(), ApiError> {
    let guarded = !matches!(*req.method(), Method::GET | Method::HEAD)
        || req.uri().path() == "/api/analyse/stream";
    if !guarded {
        return Ok(());
    }
    let Some(origin) = req.headers().get(header::ORIGIN) else {
        return Ok(());
    };
    let host = req
        .headers()
        .get(header::HOST)
        .and_then(|h| h.to_str().ok())
        .unwrap_or("");
    let origin_host = origin.to_str().ok().and_then(|o| {
        o.strip_prefix("http://")
            .or_else(|| o.strip_prefix("https://"))
    });
    match origin_host {
        Some(o) if !host.is_empty() && o.eq_ignore_ascii_case(host) => Ok(()),
        _ => Err(ApiError::Forbidden(format!(
            "requests from another site's page are refused (Origin {:?}, this server {host:?})",
            String::from_utf8_lossy(origin.as_bytes())
        ))),
    }
}

/// An error answer as `{"error": …}` (axum's own answers, such as a bad
/// query string, are plain text) with every mention of the tables
/// directory replaced by `<tables>`.
async fn error_as_json(answer: Response, tables: Option<&Path>) -> Response {
    let status = answer.status();
    if !(status.is_client_error() || status.is_server_error()) {
        return answer;
    }
    let (mut parts, body) = answer.into_parts();
    let bytes = axum::body::to_bytes(body, MAX_ERROR_BYTES)
        .await
        .unwrap_or_else(|_| Bytes::from_static(b"the answer could not be read"));
    let text = match serde_json::from_slice::<serde_json::Value>(&bytes) {
        Ok(serde_json::Value::Object(o)) => match o.get("error") {
            Some(serde_json::Value::String(e)) => e.clone(),
            _ => String::from_utf8_lossy(&bytes).into_owned(),
        },
        _ => String::from_utf8_lossy(&bytes).into_owned(),
    };
    let text = match tables {
        Some(dir) => redact(&text, dir),
        None => text,
    };
    let text = if text.trim().is_empty() {
        status
            .canonical_reason()
            .unwrap_or("error")
            .to_ascii_lowercase()
    } else {
        text
    };
    let body = serde_json::json!({ "error": text }).to_string();
    parts.headers.remove(header::CONTENT_LENGTH);
    parts.headers.insert(
        header::CONTENT_TYPE,
        header::HeaderValue::from_static("application/json"),
    );
    Response::from_parts(parts, Body::from(body))
}

/// `text` with the tables directory `dir` (an absolute path: the server
/// makes it so) written `<tables>` wherever a path starts with it. What
/// follows it inside the directory is kept: it is no secret of the
/// server's, and it names the table (`<tables>/jungle-checkers/leiden/
/// Evd.zootb`: a damaged table's message says which material, issue #51).
pub(crate) fn redact(text: &str, dir: &Path) -> String {
    let dir = dir.to_string_lossy();
    let dir = dir.trim_end_matches('/');
    if dir.is_empty() {
        return text.to_string();
    }
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(i) = rest.find(dir) {
        out.push_str(&rest[..i]);
        let tail = &rest[i + dir.len()..];
        // Only the directory itself or a path inside it: `/srv/tables2`
        // is another directory, and stays as it is.
        if !tail.starts_with(|c: char| c.is_alphanumeric() || "-_.".contains(c)) {
            out.push_str("<tables>");
        } else {
            out.push_str(dir);
        }
        rest = tail;
    }
    out.push_str(rest);
    out
}

/// Any path the server does not have: 404 as JSON.
pub(crate) async fn not_found(req: Request) -> ApiError {
    ApiError::NotFound(format!("no such path: {}", req.uri().path()))
}

/// A path asked with a method it does not take: 405 as JSON.
pub(crate) async fn method_not_allowed(req: Request) -> ApiError {
    ApiError::MethodNotAllowed(format!(
        "{} does not take {}",
        req.uri().path(),
        req.method()
    ))
}

#[cfg(test)]
mod tests {
    use super::redact;
    use std::path::Path;

    #[test]
    fn paths_under_the_tables_directory_are_hidden() {
        let dir = Path::new("/srv/zoo/tables");
        assert_eq!(
            redact(
                "no table for Ed in /srv/zoo/tables/jungle-checkers/leiden (build it)",
                dir
            ),
            "no table for Ed in <tables>/jungle-checkers/leiden (build it)"
        );
        assert_eq!(
            redact("a: /srv/zoo/tables, b: \"/srv/zoo/tables/x y\"", dir),
            "a: <tables>, b: \"<tables>/x y\""
        );
        assert_eq!(
            redact(
                "table file /srv/zoo/tables/jc/leiden/Evd.zootb refused",
                dir
            ),
            "table file <tables>/jc/leiden/Evd.zootb refused"
        );
        assert_eq!(redact("nothing here", dir), "nothing here");
    }
}
