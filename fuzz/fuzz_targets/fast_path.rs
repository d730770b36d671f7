//! The parser's fast paths against its general path: the lexer's one-pass
//! reading of `Allow`/`Disallow`/`User-agent`/`Sitemap` lines, and the
//! builder's taking again of a block of rule lines that repeats, octet for
//! octet, the first block of the group before (`Builder::repeat_block`).
//! With both off, every line is read by the general path; the two parses
//! must be equal in everything (`Debug` of the whole parse: arena, rules,
//! lines, groups, agents, patterns as written, records, warnings).
//!
//! Input: a flags octet, then either a body (bit 1 clear) or, to make
//! repeated blocks likely, `block [0x1F variant]...` (bit 1 set): one group
//! per variant (16 at most), each a `User-agent: bN` line (its end, LF,
//! CRLF, CR or a comment, chosen by the variant's first octet), then the
//! block as that octet says (kept, its LFs made CRLF, cut short, or one
//! octet replaced), then the rest of the variant. Bit 0: MK1996.
#![no_main]

use libfuzzer_sys::fuzz_target;

const SEP: u8 = 0x1F;

/// The body of the repeated-groups mode.
fn groups(block: &[u8], variants: &[&[u8]]) -> Vec<u8> {
    let mut body = Vec::new();
    for (i, variant) in variants.iter().take(16).enumerate() {
        let (&how, rest) = variant.split_first().unwrap_or((&0, &[]));
        let line_end: &[u8] = match how >> 6 {
            0 => b"\n",
            1 => b"\r\n",
            2 => b"\r",
            _ => b" # comment\n",
        };
        body.extend_from_slice(format!("User-agent: b{i}").as_bytes());
        body.extend_from_slice(line_end);
        let at = (how as usize) % (block.len() + 1);
        match how % 5 {
            0 | 1 => body.extend_from_slice(block),
            2 => {
                for &b in block {
                    if b == b'\n' {
                        body.extend_from_slice(b"\r\n");
                    } else {
                        body.push(b);
                    }
                }
            }
            3 => body.extend_from_slice(&block[..at]),
            _ => {
                let start = body.len();
                body.extend_from_slice(block);
                if let Some(b) = body.get_mut(start + at) {
                    *b = rest.first().copied().unwrap_or(b'\r');
                }
            }
        }
        body.extend_from_slice(rest);
    }
    body
}

fuzz_target!(|data: &[u8]| {
    let Some((&flags, data)) = data.split_first() else {
        return;
    };
    let mk1996 = flags & 1 == 1;
    let built;
    let body = if flags & 2 == 2 {
        let mut parts = data.split(|&b| b == SEP);
        let block = parts.next().unwrap_or_default();
        let variants: Vec<&[u8]> = parts.collect();
        built = groups(block, &variants);
        &built[..]
    } else {
        data
    };
    let (fast, general) = keepout::__fuzz::parsed_both_ways(body, mk1996);
    assert!(
        fast == general,
        "fast and general paths differ on {:?}\nfast:    {fast}\ngeneral: {general}",
        String::from_utf8_lossy(body)
    );
});
