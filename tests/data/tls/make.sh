#!/bin/sh
# Makes the certificates tests/tls.rs serves: a test authority, and leaf
# certificates it signed for 127.0.0.1, for another name, and one that
# expired in 2001. Run from this directory with OpenSSL 3; the files are
# kept in the repository, so the tests need no OpenSSL. The authority's key
# is thrown away: nothing else can be signed by it.
set -eu
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The authority: a self-signed CA, valid for a century.
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes \
    -keyout "$work/ca.key" -out ca.pem -days 36500 -subj "/CN=keepout test CA" \
    -addext "basicConstraints=critical,CA:TRUE" \
    -addext "keyUsage=critical,keyCertSign"

# One key for every leaf.
openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out leaf.key
openssl req -new -key leaf.key -subj "/CN=keepout test" -out "$work/leaf.csr"

leaf() { # name, subjectAltName, then the dates as `openssl ca` takes them
    cat > "$work/ext" <<END
basicConstraints=critical,CA:FALSE
keyUsage=critical,digitalSignature
extendedKeyUsage=serverAuth
subjectAltName=$2
END
    : > "$work/index"
    cat > "$work/ca.cnf" <<END
[ca]
default_ca = test
[test]
database = $work/index
new_certs_dir = $work
serial = $work/serial
default_md = sha256
policy = any
unique_subject = no
[any]
commonName = supplied
END
    openssl rand -hex 16 > "$work/serial"
    openssl ca -batch -notext -config "$work/ca.cnf" -cert ca.pem \
        -keyfile "$work/ca.key" -in "$work/leaf.csr" -extfile "$work/ext" \
        -startdate "$3" -enddate "$4" -out "$1.pem" 2>/dev/null
}

leaf localhost "IP:127.0.0.1,DNS:localhost" 20000101000000Z 21251231000000Z
leaf other "DNS:other.test" 20000101000000Z 21251231000000Z
leaf expired "IP:127.0.0.1,DNS:localhost" 20000101000000Z 20010101000000Z
