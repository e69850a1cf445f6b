/*!
The one way a live read reaches the API server: [`Transport`], a GET and nothing else (no
other verb exists to call), and what a GET gives back.
*/

use std::time::Duration;

/// One answer of the API server: its status and body.
#[derive(Debug, Clone)]
pub struct Answer {
    /// The HTTP status.
    pub status: u16,
    /// The body, at most the bytes the request allowed.
    pub body: Vec<u8>,
}

/// Why a GET gave no answer.
#[derive(Debug)]
pub enum Failed {
    /// The body was longer than the bytes allowed.
    TooLarge,
    /// The request passed its deadline.
    TimedOut,
    /// Anything else (connection, TLS, authentication), said for the user.
    Other(String),
}

/// The one way a live read talks to the API server: a GET of a path with its query. There is
/// no other verb, so nothing can write (a test asserts the server only ever saw GETs).
pub trait Transport {
    /// GET `path` (`/apis/…?limit=…`), reading at most `max` bytes of the body, giving up after
    /// `timeout`.
    fn get(&mut self, path: &str, max: u64, timeout: Option<Duration>) -> Result<Answer, Failed>;
    /// The server, for messages (`https://host:port`).
    fn server(&self) -> String;
}
