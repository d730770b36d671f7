//! A naive percent-encoding normaliser, written for clarity, not speed,
//! from the rules in `src/percent.rs` (RFC 9309 section 2.2.2): the
//! `normalize` target checks the crate's against it, and other targets use
//! it as an oracle that shares no code with the crate.
#![allow(dead_code)]

pub fn hex(b: u8) -> Option<u8> {
    (b as char).to_digit(16).map(|v| v as u8)
}

pub fn unreserved(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b"-._~".contains(&b)
}

/// Octets kept as they are (RFC 3986 unreserved and reserved, less `*`, `$`
/// and `%`, which have their own rules).
fn kept(b: u8) -> bool {
    unreserved(b) || b":/?#[]@!&'()+,;=".contains(&b)
}

#[derive(Clone, Copy, PartialEq)]
pub enum Mode {
    Path,
    Pattern,
    Literal,
}

/// The normal form, written for clarity, not speed.
pub fn naive(input: &[u8], mode: Mode) -> Vec<u8> {
    let mut out = Vec::new();
    let escape = |out: &mut Vec<u8>, v: u8| out.extend(format!("%{v:02X}").bytes());
    let mut i = 0;
    while i < input.len() {
        let b = input[i];
        if b == b'%' {
            let digits = (
                input.get(i + 1).and_then(|&c| hex(c)),
                input.get(i + 2).and_then(|&c| hex(c)),
            );
            if let (Some(h), Some(l)) = digits {
                let v = h * 16 + l;
                if unreserved(v) {
                    out.push(v);
                } else {
                    escape(&mut out, v);
                }
                i += 3;
                continue;
            }
            // A `%` that ends a pattern's text is kept; otherwise it is data.
            let ends = i + 1 == input.len() || (mode == Mode::Pattern && input[i + 1] == b'*');
            if mode != Mode::Path && ends {
                out.push(b'%');
            } else {
                escape(&mut out, b'%');
            }
        } else if b == b'*' && mode == Mode::Pattern {
            out.push(b'*');
        } else if b == b'$' && mode == Mode::Pattern && i + 1 == input.len() {
            out.push(b'$');
        } else if b == b'\'' && mode != Mode::Path && input[..i].contains(&b'?') {
            // In a pattern's query, as a client sends it.
            escape(&mut out, b);
        } else if kept(b) {
            out.push(b);
        } else {
            escape(&mut out, b);
        }
        i += 1;
    }
    out
}
