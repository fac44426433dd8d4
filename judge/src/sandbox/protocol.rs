//! The judge–supervisor protocol over a `SOCK_SEQPACKET` pair (one message, one packet):
//! JSON messages, some lending descriptors.
//!
//! Judge → supervisor: `Request` (strings after its JSON; with stdin and stdout if lent),
//! maybe `STOP`; once, before the first judged program's run, `VIEW` and its `View`.
//! Supervisor → judge: `SlotReady` once, with the reading ends of the slot's output pipes, then
//! a `RunReport` per request, and a `ViewReply` to the view.

use std::io::{self, IoSlice, IoSliceMut};
use std::mem::MaybeUninit;
use std::os::fd::{AsFd, BorrowedFd, OwnedFd};

use rustix::net::{
    RecvAncillaryBuffer, RecvAncillaryMessage, RecvFlags, SendAncillaryBuffer,
    SendAncillaryMessage, SendFlags,
};
use serde::{Deserialize, Serialize};

/// Ends the current run now (output limit passed, judge interrupted).
pub const STOP: &[u8] = b"stop";

/// Starts the message giving the judged programs' view (its JSON follows).
pub const VIEW: &[u8] = b"view\0";

const MAX_MESSAGE: usize = 64 * 1024;

/// Sent as its JSON, a NUL, then `argc` arguments and `envc` variables as NUL-terminated
/// strings (`request_message`), which the supervisor passes to its spawner undecoded.
#[derive(Debug, Serialize, Deserialize)]
pub struct Request {
    /// Arguments (the first is the program's path, found on PATH by the judge), then
    /// `KEY=VALUE` variables.
    pub argc: u32,
    pub envc: u32,
    pub cpu_time_ms: u64,
    /// The watchdog ends the run past this (`cpu_cutoff`).
    pub cpu_cutoff_ms: u64,
    pub memory_bytes: u64,
    pub stack_bytes: u64,
    pub output_bytes: u64,
    /// After this, a program not computing is stopped.
    pub wall_timeout_ms: u64,
    /// Cap the address space without a memory cgroup (false for runtimes that reserve far
    /// more than they use, like the JVM).
    pub address_space_backstop: bool,
    /// Opened by the supervisor; `None` when the judge lends stdin (the first descriptor).
    pub stdin_path: Option<String>,
    /// The judge lends stdout (after stdin, if lent); else it is the slot's output pipe.
    pub stdout_lent: bool,
    /// Where to keep the supervisor and its spawners from this run on (see `placement`).
    pub cpu: Option<usize>,
    /// A judged program: it runs in the view, where the slot has one.
    pub contained: bool,
    /// The run folder holds `dev`, a link to `/dev` (see `RunSpec::dev_in_run_folder`).
    pub dev_in_run_folder: bool,
    /// A folder the supervisor copies into the run folder before the program starts.
    pub case_files: Option<String>,
}

/// Sent once, with the reading ends of the slot's stdout and stderr pipes, shared by all its
/// runs so that a run makes no pipe of its own.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct SlotReady {
    /// The run's working folder (emptied after every run), the programs' `TMPDIR`.
    pub workdir: String,
    pub containment: super::Containment,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ViewReply {
    pub applied: bool,
    pub refused: Option<String>,
}

#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct RunReport {
    /// The program could not be started: the failing step's errno.
    pub spawn_errno: Option<i32>,
    pub exit_code: Option<i32>,
    pub signal: Option<i32>,
    /// Of the whole tree.
    pub cpu_time_us: u64,
    pub wall_time_us: u64,
    /// Of the whole tree (see `sandbox` for how it is measured).
    pub peak_memory_bytes: u64,
    /// Stopped at the wall-clock backstop while not computing.
    pub wall_timeout: bool,
    pub memory_limit_seen: bool,
    /// How long the backstop waited past its time for a program still computing.
    pub starved_ms: u64,
    pub load: Option<super::Load>,
    /// A program killed a spawner of the slot, or changed its limits or priority or the
    /// supervisor's: the slot ends after this run (see `Supervisor::judges_processes_intact`).
    pub slot_ends: bool,
}

pub fn request_message(request: &Request, strings: &[u8]) -> io::Result<Vec<u8>> {
    let mut bytes = serde_json::to_vec(request).map_err(io::Error::other)?;
    bytes.push(0);
    bytes.extend_from_slice(strings);
    Ok(bytes)
}

pub fn parse_request(bytes: &[u8]) -> io::Result<(Request, &[u8])> {
    let end = bytes
        .iter()
        .position(|&b| b == 0)
        .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidData, "a request with no strings"))?;
    Ok((parse(&bytes[..end])?, &bytes[end + 1..]))
}

/// Closed on exec: (ours, theirs).
pub fn socket_pair() -> io::Result<(OwnedFd, OwnedFd)> {
    Ok(rustix::net::socketpair(
        rustix::net::AddressFamily::UNIX,
        rustix::net::SocketType::SEQPACKET,
        rustix::net::SocketFlags::CLOEXEC,
        None,
    )?)
}

pub fn send(socket: BorrowedFd, message: &impl Serialize, fds: &[BorrowedFd]) -> io::Result<()> {
    let bytes = serde_json::to_vec(message).map_err(io::Error::other)?;
    send_bytes(socket, &bytes, fds)
}

pub fn send_bytes(socket: BorrowedFd, bytes: &[u8], fds: &[BorrowedFd]) -> io::Result<()> {
    let mut space = [MaybeUninit::<u8>::uninit(); rustix::cmsg_space!(ScmRights(3))];
    let mut control = SendAncillaryBuffer::new(&mut space);
    if !fds.is_empty() && !control.push(SendAncillaryMessage::ScmRights(fds)) {
        return Err(io::Error::other("too many descriptors for one message"));
    }
    rustix::net::sendmsg(
        socket,
        &[IoSlice::new(bytes)],
        &mut control,
        SendFlags::NOSIGNAL,
    )?;
    Ok(())
}

pub struct Received {
    pub bytes: Vec<u8>,
    pub fds: Vec<OwnedFd>,
}

/// `None` at end of stream (the other side has gone).
pub fn receive(socket: impl AsFd) -> io::Result<Option<Received>> {
    // Made once per thread: zeroing a fresh one costs more than the message.
    thread_local! {
        static BUFFER: std::cell::RefCell<Vec<u8>> = std::cell::RefCell::new(vec![0u8; MAX_MESSAGE]);
    }
    BUFFER.with_borrow_mut(|bytes| {
        Ok(receive_in(socket, bytes)?.map(|(length, fds)| Received {
            bytes: bytes[..length].to_vec(),
            fds,
        }))
    })
}

/// Its length and descriptors; `None` at end of stream.
pub fn receive_in(
    socket: impl AsFd,
    bytes: &mut [u8],
) -> io::Result<Option<(usize, Vec<OwnedFd>)>> {
    let mut space = [MaybeUninit::<u8>::uninit(); rustix::cmsg_space!(ScmRights(3))];
    let mut control = RecvAncillaryBuffer::new(&mut space);
    let received = loop {
        match rustix::net::recvmsg(
            socket.as_fd(),
            &mut [IoSliceMut::new(bytes)],
            &mut control,
            RecvFlags::CMSG_CLOEXEC,
        ) {
            Err(rustix::io::Errno::INTR) => continue,
            other => break other?,
        }
    };
    let mut fds = Vec::new();
    for message in control.drain() {
        if let RecvAncillaryMessage::ScmRights(lent) = message {
            fds.extend(lent);
        }
    }
    if received.bytes == 0 && fds.is_empty() {
        return Ok(None);
    }
    Ok(Some((received.bytes, fds)))
}

/// Whether the next message starts with `prefix`, without taking it or waiting for one.
pub fn next_starts_with(socket: impl AsFd, prefix: &[u8]) -> bool {
    let mut start = [0u8; 16];
    let start = &mut start[..prefix.len().min(16)];
    let peeked = rustix::net::recv(socket, &mut *start, RecvFlags::PEEK | RecvFlags::DONTWAIT);
    matches!(peeked, Ok((length, _)) if length == start.len() && *start == *prefix)
}

pub fn parse<T: for<'de> Deserialize<'de>>(bytes: &[u8]) -> io::Result<T> {
    serde_json::from_slice(bytes).map_err(|error| {
        io::Error::new(
            io::ErrorKind::InvalidData,
            format!("a supervisor message that does not parse: {error}"),
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_next_message_is_told_by_its_start_without_waiting_or_taking_it() {
        let (ours, theirs) = socket_pair().unwrap();
        // A message that peeking took is missing then, not waited for.
        rustix::fs::fcntl_setfl(&ours, rustix::fs::OFlags::NONBLOCK).unwrap();
        // Nothing sent yet: no waiting.
        assert!(!next_starts_with(&ours, VIEW));
        send_bytes(theirs.as_fd(), b"{\"argc\":1}", &[]).unwrap();
        assert!(!next_starts_with(&ours, VIEW));
        assert_eq!(receive(&ours).unwrap().unwrap().bytes, b"{\"argc\":1}");
        let view = [VIEW, b"{\"hidden\":[],\"kept\":[]}"].concat();
        send_bytes(theirs.as_fd(), &view, &[]).unwrap();
        assert!(next_starts_with(&ours, VIEW));
        assert!(next_starts_with(&ours, VIEW), "peeking took the message");
        assert_eq!(receive(&ours).unwrap().unwrap().bytes, view);
        // The other side gone: not a view.
        drop(theirs);
        assert!(!next_starts_with(&ours, VIEW));
    }
}
