//! TLS failures in words.
//!
//! rustls names what went wrong by its enum's variants (`invalid peer
//! certificate: UnknownIssuer`), and its dates as seconds since 1970. A
//! crawler's operator reading an [`UnreachableReason::Tls`] wants to know
//! whose fault it is: the site's certificate (expired, for another name, an
//! intermediate left out), this machine (a clock that is wrong, an
//! authority it does not trust), or a server that does not speak TLS at
//! all. The failures an operator meets most are put so here; any other
//! keeps rustls's own text.
//!
//! [`UnreachableReason::Tls`]: super::UnreachableReason::Tls

use std::error::Error as StdError;
use std::time::{Duration, SystemTime};

use rustls::pki_types::UnixTime;
use rustls::{AlertDescription, CertificateError, Error, InvalidMessage};

use super::exchange::causes;

/// The TLS layer's error among `error` and its causes, if there is one.
pub(crate) fn rustls_error<'a>(error: &'a (dyn StdError + 'static)) -> Option<&'a Error> {
    causes(error).find_map(|err| err.downcast_ref::<Error>())
}

/// What the TLS failure behind `error` was, in words, if it is one that
/// can be put so.
pub(crate) fn in_words(error: &(dyn StdError + 'static)) -> Option<String> {
    describe(rustls_error(error)?)
}

/// `error` in words; `None` to keep rustls's text as it is.
fn describe(error: &Error) -> Option<String> {
    // Words that restate rustls's text whole stand alone; the others are
    // followed by rustls's text, which names the variant.
    let words = match error {
        Error::InvalidCertificate(certificate) => match certificate {
            CertificateError::NotValidForNameContext {
                expected,
                presented,
            } => {
                return Some(format!(
                    "certificate for {}, not for {}",
                    names(presented),
                    expected.to_str()
                ));
            }
            CertificateError::ExpiredContext { time, not_after } => {
                return Some(format!(
                    "certificate expired {} (this machine's clock reads {})",
                    date(*not_after),
                    date(*time)
                ));
            }
            CertificateError::NotValidYetContext { time, not_before } => {
                return Some(format!(
                    "certificate not valid until {} (this machine's clock reads {})",
                    date(*not_before),
                    date(*time)
                ));
            }
            // The chain the server sent leads to no authority the client
            // trusts. Browsers fetch a missing intermediate themselves
            // (from the leaf's Authority Information Access), so a site
            // that works in a browser can still fail here.
            CertificateError::UnknownIssuer => {
                "certificate not trusted: its issuer is unknown or self-signed, \
                 or the server left out an intermediate certificate"
            }
            CertificateError::NotValidForName => "certificate not for this host",
            CertificateError::Expired => "certificate expired",
            CertificateError::NotValidYet => "certificate not valid yet",
            CertificateError::Revoked => "certificate revoked",
            _ => return None,
        },
        // The first octet of a TLS record names its type; a plain-HTTP
        // answer starts `HTTP/1.1`, whose `H` names none.
        Error::InvalidMessage(InvalidMessage::InvalidContentType) => {
            "the server answered in something other than TLS, such as plain HTTP"
        }
        Error::AlertReceived(AlertDescription::ProtocolVersion) | Error::PeerIncompatible(_) => {
            "the server and this client have no TLS version or cipher suite in common"
        }
        _ => return None,
    };
    Some(format!("{words} ({error})"))
}

/// The most names of a certificate a reason lists: a CDN's certificate can
/// hold hundreds, and the reason is kept with every cached outcome.
const MAX_NAMES: usize = 5;

/// The names a certificate holds, as webpki lists them
/// (`DnsName("example.com")`, `IpAddress(192.0.2.1)`), without the kind;
/// past [`MAX_NAMES`], how many more.
fn names(presented: &[String]) -> String {
    let more = presented.len().saturating_sub(MAX_NAMES);
    let plain: Vec<&str> = presented
        .iter()
        .take(MAX_NAMES)
        .map(|name| {
            name.strip_prefix("DnsName(\"")
                .and_then(|rest| rest.strip_suffix("\")"))
                .or_else(|| {
                    name.strip_prefix("IpAddress(")
                        .and_then(|rest| rest.strip_suffix(')'))
                })
                .unwrap_or(name)
        })
        .collect();
    match plain.as_slice() {
        [] => String::from("no host name"),
        all if more > 0 => format!("{} or {more} more", all.join(", ")),
        [one] => (*one).to_owned(),
        [rest @ .., last] => format!("{} or {last}", rest.join(", ")),
    }
}

/// `time` as an HTTP date (`Sun, 31 Dec 2000 23:59:59 GMT`), or as
/// seconds since 1970 past the year 9999, which an HTTP date cannot hold.
fn date(time: UnixTime) -> String {
    let seconds = time.as_secs();
    // 253402300800 is 10000-01-01T00:00:00Z.
    match SystemTime::UNIX_EPOCH.checked_add(Duration::from_secs(seconds)) {
        Some(when) if seconds < 253_402_300_800 => httpdate::fmt_http_date(when),
        _ => format!("{seconds} seconds after 1970"),
    }
}

#[cfg(test)]
mod tests {
    use rustls::PeerIncompatible;
    use rustls::pki_types::ServerName;

    use super::*;

    fn at(seconds: u64) -> UnixTime {
        UnixTime::since_unix_epoch(Duration::from_secs(seconds))
    }

    fn certificate(error: CertificateError) -> Option<String> {
        describe(&Error::InvalidCertificate(error))
    }

    #[test]
    fn a_name_mismatch_names_both_hosts() {
        let mismatch = |presented: &[&str]| {
            certificate(CertificateError::NotValidForNameContext {
                expected: ServerName::try_from("example.com").unwrap(),
                presented: presented.iter().map(|name| name.to_string()).collect(),
            })
            .unwrap()
        };
        assert_eq!(
            mismatch(&[r#"DnsName("other.test")"#]),
            "certificate for other.test, not for example.com"
        );
        assert_eq!(
            mismatch(&[
                r#"DnsName("a.test")"#,
                "IpAddress(192.0.2.1)",
                r#"DnsName("*.c.test")"#
            ]),
            "certificate for a.test, 192.0.2.1 or *.c.test, not for example.com"
        );
        assert_eq!(
            mismatch(&[]),
            "certificate for no host name, not for example.com"
        );
        let many: Vec<String> = (0..120)
            .map(|i| format!(r#"DnsName("h{i}.test")"#))
            .collect();
        let many: Vec<&str> = many.iter().map(String::as_str).collect();
        assert_eq!(
            mismatch(&many),
            "certificate for h0.test, h1.test, h2.test, h3.test, h4.test or 115 more, \
             not for example.com"
        );
        // A form webpki does not use today is kept as it is.
        assert_eq!(
            mismatch(&["DirectoryName"]),
            "certificate for DirectoryName, not for example.com"
        );
    }

    #[test]
    fn dates_are_calendar_dates_with_this_machines_clock() {
        assert_eq!(
            certificate(CertificateError::ExpiredContext {
                time: at(1_795_554_796),
                not_after: at(978_307_200),
            })
            .unwrap(),
            "certificate expired Mon, 01 Jan 2001 00:00:00 GMT \
             (this machine's clock reads Tue, 24 Nov 2026 21:13:16 GMT)"
        );
        assert_eq!(
            certificate(CertificateError::NotValidYetContext {
                time: at(0),
                not_before: at(u64::MAX),
            })
            .unwrap(),
            "certificate not valid until 18446744073709551615 seconds after 1970 \
             (this machine's clock reads Thu, 01 Jan 1970 00:00:00 GMT)"
        );
        assert_eq!(date(at(253_402_300_799)), "Fri, 31 Dec 9999 23:59:59 GMT");
        assert_eq!(date(at(253_402_300_800)), "253402300800 seconds after 1970");
    }

    #[test]
    fn words_keep_rustls_text_when_they_do_not_restate_it() {
        assert_eq!(
            certificate(CertificateError::UnknownIssuer).unwrap(),
            "certificate not trusted: its issuer is unknown or self-signed, or the server \
             left out an intermediate certificate (invalid peer certificate: UnknownIssuer)"
        );
        assert_eq!(
            describe(&Error::InvalidMessage(InvalidMessage::InvalidContentType)).unwrap(),
            "the server answered in something other than TLS, such as plain HTTP \
             (received corrupt message of type InvalidContentType)"
        );
        let incompatible = describe(&Error::PeerIncompatible(
            PeerIncompatible::ServerDoesNotSupportTls12Or13,
        ))
        .unwrap();
        assert!(
            incompatible.starts_with("the server and this client have no TLS version")
                && incompatible.ends_with("ServerDoesNotSupportTls12Or13)"),
            "{incompatible}"
        );
        // Left as rustls puts it: `BadSignature` also comes of a self-signed
        // certificate that is not marked as an authority, so "its signature
        // does not verify" would mislead.
        assert_eq!(certificate(CertificateError::BadSignature), None);
        assert_eq!(describe(&Error::DecryptError), None);
    }
}
