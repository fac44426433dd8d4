//! `judge listen`: a server on localhost for the Competitive Companion browser extension;
//! each problem it POSTs is imported (`corpus::import`).

use std::io::{BufRead, BufReader, ErrorKind, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::Path;
use std::time::Duration;

use rustix::event::{PollFd, PollFlags};

use crate::corpus::import;
use crate::error::{Error, Result};
use crate::problem::Repository;
use crate::report::Notices;

/// No problem's samples come near it.
const MAX_BODY_BYTES: usize = 64 << 20;

/// Serves on 127.0.0.1:`port` until SIGINT / SIGTERM; each POST is imported and answered
/// 200, or 400 with the error (also said through `notices`).
pub fn serve(repository: &Repository, port: u16, notices: &mut Notices) -> Result<()> {
    let address = format!("127.0.0.1:{port}");
    let listener = TcpListener::bind(&address).map_err(|error| {
        Error::usage(format!(
            "cannot listen on {address}: {error} (try another --port)"
        ))
    })?;
    notices.info(format_args!(
        "listening on http://{address} for Competitive Companion (add port {port} to its \
         custom ports); Ctrl-C stops"
    ));
    loop {
        let mut fds = [
            PollFd::new(&listener, PollFlags::IN),
            PollFd::from_borrowed_fd(crate::runner::interrupt::wake_fd(), PollFlags::IN),
        ];
        match rustix::event::poll(&mut fds, None) {
            Ok(_) | Err(rustix::io::Errno::INTR) => {}
            Err(error) => return Err(Error::io(&address, error.into())),
        }
        if crate::runner::interrupt::pending() {
            notices.info("stopped");
            return Ok(());
        }
        if fds[0].revents().is_empty() {
            continue;
        }
        let Ok((stream, _)) = listener.accept() else {
            continue;
        };
        handle(repository, stream, notices);
    }
}

/// Errors go to the sender and to `notices`; the server keeps going.
fn handle(repository: &Repository, mut stream: TcpStream, notices: &mut Notices) {
    // The extension sends from this machine at once: a pause this long is a stall.
    let _ = stream.set_read_timeout(Some(Duration::from_secs(10)));
    let sender = Path::new("POST");
    let result = read_body(&stream).and_then(|body| {
        let payload = import::parse(&body, sender)?;
        import::import(repository, &payload)
    });
    let (status, answer) = match result {
        Ok(lines) => {
            for line in &lines {
                notices.result(line);
            }
            ("200 OK", lines.join("\n"))
        }
        Err(error) => {
            notices.problem(format_args!("error: {error}"));
            ("400 Bad Request", format!("error: {error}"))
        }
    };
    let _ = write!(
        stream,
        "HTTP/1.1 {status}\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{answer}\n",
        answer.len() + 1
    );
}

/// By its Content-Length. A sender that goes quiet for the stream's read timeout is dropped,
/// and the error says so.
fn read_body(stream: &TcpStream) -> Result<String> {
    let sender = Path::new("POST");
    let failed = |error: std::io::Error| match (error.kind(), stream.read_timeout()) {
        (ErrorKind::WouldBlock | ErrorKind::TimedOut, Ok(Some(quiet))) => Error::parse(
            sender,
            None,
            format!(
                "the sender sent nothing for {:.1} s before the request's end: dropped",
                quiet.as_secs_f64()
            ),
        ),
        _ => Error::io(sender, error),
    };
    let mut reader = BufReader::new(stream);
    let mut line = String::new();
    let mut length = None;
    let mut first = true;
    loop {
        line.clear();
        let read = reader.read_line(&mut line).map_err(failed)?;
        if read == 0 {
            return Err(Error::parse(
                sender,
                None,
                "the request ended before its body",
            ));
        }
        let header = line.trim_end();
        if first {
            if !header.starts_with("POST ") {
                return Err(Error::parse(
                    sender,
                    None,
                    format!("expected a POST, got `{header}`"),
                ));
            }
            first = false;
        } else if header.is_empty() {
            break;
        } else if let Some((name, value)) = header.split_once(':') {
            if name.eq_ignore_ascii_case("content-length") {
                length = value.trim().parse::<usize>().ok();
            }
        }
    }
    let length = length
        .filter(|length| *length <= MAX_BODY_BYTES)
        .ok_or_else(|| Error::parse(sender, None, "no Content-Length (or over 64 MiB)"))?;
    let mut body = vec![0; length];
    reader.read_exact(&mut body).map_err(failed)?;
    String::from_utf8(body).map_err(|_| Error::parse(sender, None, "the body is not UTF-8"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sender_that_goes_quiet_mid_body_is_dropped_by_name() {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let mut sender = TcpStream::connect(listener.local_addr().unwrap()).unwrap();
        write!(
            sender,
            "POST / HTTP/1.1\r\nContent-Length: 100\r\n\r\n{{\"name\""
        )
        .unwrap();
        let (stream, _) = listener.accept().unwrap();
        stream
            .set_read_timeout(Some(Duration::from_millis(100)))
            .unwrap();
        let error = read_body(&stream).unwrap_err().to_string();
        assert_eq!(
            error,
            "POST: the sender sent nothing for 0.1 s before the request's end: dropped"
        );
    }
}
