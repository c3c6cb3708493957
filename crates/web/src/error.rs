//! API errors: an HTTP status and a JSON body that names the problem.

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;

/// An answer other than success.
#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    /// The request is wrong: bad JSON, an unknown game, an illegal move…
    #[error("{0}")]
    Bad(String),
    /// The request body is over the server's cap.
    #[error("{0}")]
    TooLarge(String),
    /// Every search slot is taken.
    #[error("{0}")]
    Busy(String),
    /// Something failed on the server's side.
    #[error("{0}")]
    Internal(String),
    /// A search or proof that did not stop within its time cap and a
    /// second: abandoned, its slot freed.
    #[error("{0}")]
    Stuck(String),
    /// The request's body did not arrive in time.
    #[error("{0}")]
    Timeout(String),
    /// A request from another site's page (its `Origin` is not this
    /// server).
    #[error("{0}")]
    Forbidden(String),
    /// No such path.
    #[error("{0}")]
    NotFound(String),
    /// A path that exists, asked with a method it does not take.
    #[error("{0}")]
    MethodNotAllowed(String),
}

impl From<zoo_app::AppError> for ApiError {
    fn from(e: zoo_app::AppError) -> Self {
        ApiError::Bad(e.to_string())
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let status = match self {
            ApiError::Bad(_) => StatusCode::BAD_REQUEST,
            ApiError::TooLarge(_) => StatusCode::PAYLOAD_TOO_LARGE,
            ApiError::Busy(_) => StatusCode::SERVICE_UNAVAILABLE,
            ApiError::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
            ApiError::Stuck(_) => StatusCode::GATEWAY_TIMEOUT,
            ApiError::Timeout(_) => StatusCode::REQUEST_TIMEOUT,
            ApiError::Forbidden(_) => StatusCode::FORBIDDEN,
            ApiError::NotFound(_) => StatusCode::NOT_FOUND,
            ApiError::MethodNotAllowed(_) => StatusCode::METHOD_NOT_ALLOWED,
        };
        (
            status,
            Json(serde_json::json!({ "error": self.to_string() })),
        )
            .into_response()
    }
}
