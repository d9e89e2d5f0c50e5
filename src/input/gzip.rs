//! gzip members, one after another, as one stream that survives a corrupt member.
//!
//! A `.warc.gz` is one gzip member per record (RFC 1952 allows concatenated members; WARC 1.1
//! Annex D recommends one per record), sometimes one member for the whole file, sometimes with
//! empty members between records. [`Members`] decodes them in turn. When a member is corrupt or
//! cut short, the read that meets it fails once with [`CORRUPT`] in the message, and the stream
//! resumes at the next gzip header (`1f 8b 08`) found in the raw bytes, so the WARC reader above
//! can report the record and resynchronise at the next one.

use std::io::{self, BufRead, Read};

use flate2::bufread::GzDecoder;

/// Marker in the message of the error a corrupt member gives.
pub const CORRUPT: &str = "corrupt gzip member";

/// gzip magic and the deflate method byte.
const MAGIC: [u8; 3] = [0x1f, 0x8b, 0x08];

enum State<R: BufRead> {
    /// Between members: the raw reader.
    Between(R),
    /// Inside a member.
    In(Box<GzDecoder<R>>),
    /// Transient while switching.
    Empty,
}

/// Decodes concatenated gzip members.
pub struct Members<R: BufRead> {
    state: State<R>,
    /// Members started so far.
    pub members_read: u64,
    /// The last read failed and nothing was decoded since: the next failure steps a byte, so a
    /// header that fails where it stands cannot fail forever.
    stuck: bool,
}

impl<R: BufRead> Members<R> {
    pub fn new(inner: R) -> Self {
        Members {
            state: State::Between(inner),
            members_read: 0,
            stuck: false,
        }
    }
}

/// Skips raw bytes up to the next gzip header; false at end of input.
fn seek_magic<R: BufRead>(r: &mut R) -> io::Result<bool> {
    loop {
        let buf = r.fill_buf()?;
        if buf.is_empty() {
            return Ok(false);
        }
        // A header may straddle two buffers: keep the last two bytes when none is found.
        match memchr::memmem::find(buf, &MAGIC) {
            Some(i) => {
                r.consume(i);
                return Ok(true);
            }
            None if buf.len() > 2 => {
                let n = buf.len() - 2;
                r.consume(n);
            }
            None => {
                let n = buf.len();
                r.consume(n);
                // Fewer than 3 bytes left and no header: the end.
                let more = r.fill_buf()?;
                if more.is_empty() {
                    return Ok(false);
                }
            }
        }
    }
}

impl<R: BufRead> Read for Members<R> {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        if out.is_empty() {
            return Ok(0);
        }
        loop {
            match std::mem::replace(&mut self.state, State::Empty) {
                State::Between(mut r) => {
                    let buf = r.fill_buf()?;
                    if buf.is_empty() {
                        self.state = State::Between(r);
                        return Ok(0);
                    }
                    if !buf.starts_with(&MAGIC[..buf.len().min(3)]) || buf.len() < 2 {
                        // Garbage between members: skip to the next header.
                        if !seek_magic(&mut r)? {
                            self.state = State::Between(r);
                            return Ok(0);
                        }
                    }
                    self.members_read += 1;
                    self.state = State::In(Box::new(GzDecoder::new(r)));
                }
                State::In(mut d) => match d.read(out) {
                    Ok(0) => self.state = State::Between(d.into_inner()),
                    Ok(n) => {
                        self.stuck = false;
                        self.state = State::In(d);
                        return Ok(n);
                    }
                    Err(e) => {
                        let mut r = d.into_inner();
                        // Usually the decoder has read the bad member (a CRC or length error)
                        // and the next header is right here; after a failure in the header
                        // itself, step a byte so the same header is not tried again.
                        if self.stuck {
                            let step = r.fill_buf()?.len().min(1);
                            r.consume(step);
                        }
                        self.stuck = true;
                        seek_magic(&mut r)?;
                        self.state = State::Between(r);
                        return Err(io::Error::new(
                            io::ErrorKind::InvalidData,
                            format!("{CORRUPT}: {e}"),
                        ));
                    }
                },
                State::Empty => return Ok(0),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use flate2::Compression;
    use flate2::write::GzEncoder;
    use std::io::Write;

    fn gz(data: &[u8]) -> Vec<u8> {
        let mut e = GzEncoder::new(Vec::new(), Compression::fast());
        e.write_all(data).unwrap();
        e.finish().unwrap()
    }

    #[test]
    fn concatenated_members_and_empty_ones() {
        let mut all = gz(b"");
        all.extend(gz(b"one "));
        all.extend(gz(b""));
        all.extend(gz(b"two"));
        let mut s = String::new();
        Members::new(&all[..]).read_to_string(&mut s).unwrap();
        assert_eq!(s, "one two");
    }

    #[test]
    fn corrupt_member_fails_once_then_resumes() {
        let mut all = gz(b"first ");
        let mut bad = gz(b"second member with some text in it");
        let mid = bad.len() / 2;
        for b in &mut bad[12..mid] {
            *b ^= 0x5a;
        }
        all.extend(bad);
        all.extend(gz(b"third"));
        let mut m = Members::new(&all[..]);
        let mut out = Vec::new();
        let mut errors = 0;
        let mut buf = [0u8; 4096];
        loop {
            match m.read(&mut buf) {
                Ok(0) => break,
                Ok(n) => out.extend_from_slice(&buf[..n]),
                Err(e) => {
                    assert!(e.to_string().contains(CORRUPT));
                    errors += 1;
                    assert!(errors < 5);
                }
            }
        }
        assert_eq!(errors, 1);
        let s = String::from_utf8_lossy(&out);
        assert!(s.starts_with("first ") && s.ends_with("third"), "{s}");
    }
}
