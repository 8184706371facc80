#!/usr/bin/env bash
# The mail harness (tests/mail/servers.sh) against itself, with curl as the
# client: real Postfix and Dovecot on loopback, two users. Mail from alice to
# bob goes through submission (STARTTLS and SASL) and is read back over IMAP
# (STARTTLS); what must be refused is: AUTH or mail without STARTTLS, a wrong
# password, an unauthenticated sender, an unknown recipient, IMAP login without
# STARTTLS, bob's mailbox with alice's password. Exit 0 only when every check
# holds; each failed check is printed. The servers are always stopped.
set -uo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
PYTHON=/usr/bin/python3
[ -x "$PYTHON" ] || PYTHON=python3
SERVERS="$HERE/servers.sh"
D=$(mktemp -d)
cleanup() {
  trap '' INT TERM   # the stop is not to be cut short
  bash "$SERVERS" stop "$D" || echo "servers_test: stopping the servers failed" >&2
  rm -rf "$D"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM   # ctest's timeout: still stop the servers

failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
pass() { echo "ok: $*"; }

ALICE_PW=alice-$(openssl rand -hex 8)
BOB_PW=bob-$(openssl rand -hex 8)
TOKEN=token-$(openssl rand -hex 12)
EXPECTED_TOKEN=$TOKEN
SUBJECT="Orders for the 3rd corps $(openssl rand -hex 4)"

if ! bash "$SERVERS" start "$D" "alice:$ALICE_PW" "bob:$BOB_PW"; then
  echo "FAIL: the servers did not start"
  exit 1
fi
# shellcheck disable=SC1091
. "$D/env"
for v in SMTP_PORT IMAP_PORT MAIL_HOST MAIL_CA MAIL_DOMAIN MAIL_DIR; do
  [ -n "${!v:-}" ] || fail "$D/env does not set $v"
done
[ "$MAIL_DOMAIN" = example.test ] || fail "MAIL_DOMAIN is $MAIL_DOMAIN"
echo "servers: SMTP $MAIL_HOST:$SMTP_PORT, IMAP $MAIL_HOST:$IMAP_PORT, CA $MAIL_CA"

SMTP_URL="smtp://$MAIL_HOST:$SMTP_PORT"
IMAP_URL="imap://$MAIL_HOST:$IMAP_PORT"
TLS=(--ssl-reqd --cacert "$MAIL_CA")
CURL=(curl -sS --max-time 20)

msg=$D/msg
printf '%s\r\n' "From: Alice <alice@example.test>" "To: Bob <bob@example.test>" \
  "Subject: $SUBJECT" "Message-ID: <$TOKEN@example.test>" "" \
  "The 3rd corps marches at dawn." "$TOKEN" > "$msg"

# 1. Submission with STARTTLS and SASL (login name alice, the realm added).
if out=$("${CURL[@]}" "${TLS[@]}" "$SMTP_URL" --mail-from alice@example.test \
         --mail-rcpt bob@example.test --user "alice:$ALICE_PW" --upload-file "$msg" 2>&1); then
  pass "alice sent to bob through submission (STARTTLS, AUTH)"
else
  fail "sending through submission failed: $out"
fi

# 2. Without STARTTLS (on either address): no AUTH offered, AUTH and MAIL
# refused (530).
for host in "$MAIL_HOST" 127.0.0.1; do
  if out=$("${CURL[@]}" "smtp://$host:$SMTP_PORT" --mail-from alice@example.test --mail-rcpt bob@example.test \
           --user "alice:$ALICE_PW" --upload-file "$msg" 2>&1); then
    fail "submission without STARTTLS on $host was accepted"
  else
    case "$out" in *530*) pass "submission without STARTTLS on $host refused ($out)" ;;
                   *) fail "submission without STARTTLS on $host failed, but not with 530: $out" ;; esac
  fi
done
if out=$("$PYTHON" - "$MAIL_HOST" "$SMTP_PORT" "alice" "$ALICE_PW" <<'EOF' 2>&1
import base64, smtplib, sys
host, port, user, pw = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
s = smtplib.SMTP(host, port, timeout=10)
s.ehlo("client.test")
if s.has_extn("auth"):
    print("AUTH offered before STARTTLS:", s.esmtp_features["auth"]); sys.exit(1)
code, text = s.docmd("AUTH", "PLAIN " + base64.b64encode(f"\0{user}\0{pw}".encode()).decode())
print(code, text.decode())
s.close()
sys.exit(0 if code == 530 else 1)
EOF
); then
  pass "AUTH without STARTTLS: not offered, refused ($out)"
else
  fail "AUTH without STARTTLS was not refused with 530: $out"
fi

# 3. A wrong password (over TLS) is refused (curl: 67, login denied).
out=$("${CURL[@]}" "${TLS[@]}" "$SMTP_URL" --mail-from alice@example.test --mail-rcpt bob@example.test \
      --user "alice:wrong-$ALICE_PW" --upload-file "$msg" 2>&1)
rc=$?
if [ $rc -eq 67 ]; then pass "wrong password refused ($out)"
else fail "submission with a wrong password: curl exit $rc (want 67): $out"; fi

# 4. Without AUTH (over TLS) nothing is relayed; an unknown recipient gets 550.
if out=$("${CURL[@]}" "${TLS[@]}" "$SMTP_URL" --mail-from alice@example.test --mail-rcpt bob@example.test \
         --upload-file "$msg" 2>&1); then
  fail "submission without AUTH was accepted"
else
  case "$out" in *554*) pass "submission without AUTH refused ($out)" ;;
                 *) fail "submission without AUTH failed, but not with 554: $out" ;; esac
fi
if out=$("${CURL[@]}" "${TLS[@]}" "$SMTP_URL" --mail-from alice@example.test \
         --mail-rcpt nobody@example.test --user "alice:$ALICE_PW" --upload-file "$msg" 2>&1); then
  fail "mail to an unknown recipient was accepted"
else
  case "$out" in *550*) pass "unknown recipient refused ($out)" ;;
                 *) fail "unknown recipient failed, but not with 550: $out" ;; esac
fi

# 5. IMAP without STARTTLS: LOGINDISABLED, login refused (on MAIL_HOST; on
# 127.0.0.1 Dovecot takes a client from its own address as secured, see
# servers.sh).
if out=$("${CURL[@]}" -v "$IMAP_URL/INBOX;UID=1" --user "bob:$BOB_PW" 2>&1); then
  fail "IMAP login without STARTTLS was accepted"
else
  case "$out" in *LOGINDISABLED*) pass "IMAP login without STARTTLS refused (LOGINDISABLED)" ;;
                 *) fail "IMAP without STARTTLS failed, but LOGINDISABLED was not announced: $(tail -n 3 <<<"$out")" ;; esac
fi

# 6. Bob's INBOX over IMAP with STARTTLS: the message arrives (delivery is
# asynchronous: Postfix's queue, then LMTP into Dovecot), polled up to 20 s.
got=""
for _ in $(seq 1 40); do
  if got=$("${CURL[@]}" "${TLS[@]}" "$IMAP_URL/INBOX;UID=1" --user "bob:$BOB_PW" 2>/dev/null) && [ -n "$got" ]; then
    break
  fi
  got=""
  sleep 0.5
done
if [ -z "$got" ]; then
  fail "nothing in bob's INBOX after 20 s"
  echo "---- $MAIL_DIR/postfix.log ----"; tail -n 20 "$MAIL_DIR/postfix.log" 2>/dev/null
  echo "---- $MAIL_DIR/dovecot.log ----"; tail -n 20 "$MAIL_DIR/dovecot.log" 2>/dev/null
else
  check() { if grep -qF -- "$1" <<<"$got"; then pass "$2"; else fail "$2: '$1' not found"; fi; }
  check "Subject: $SUBJECT" "bob's message 1 has the subject"
  check "$EXPECTED_TOKEN" "bob's message 1 has the body's token"
  check "Delivered-To: bob@example.test" "bob's message 1 was delivered to bob@example.test"
fi
# The full address logs in too; and 127.0.0.1 serves the same (with STARTTLS).
if "${CURL[@]}" "${TLS[@]}" "$IMAP_URL/INBOX;UID=1" --user "bob@example.test:$BOB_PW" 2>/dev/null \
     | grep -qF "$EXPECTED_TOKEN"; then
  pass "login as bob@example.test reads the same INBOX"
else
  fail "login as bob@example.test did not read bob's message"
fi
if "${CURL[@]}" "${TLS[@]}" "imap://127.0.0.1:$IMAP_PORT/INBOX;UID=1" --user "bob:$BOB_PW" 2>/dev/null \
     | grep -qF "$EXPECTED_TOKEN"; then
  pass "IMAP with STARTTLS on 127.0.0.1:$IMAP_PORT reads the same INBOX"
else
  fail "IMAP with STARTTLS on 127.0.0.1:$IMAP_PORT did not read bob's message"
fi

# 7. Alice cannot read bob's mailbox with her password; her own INBOX is empty.
out=$("${CURL[@]}" "${TLS[@]}" "$IMAP_URL/INBOX;UID=1" --user "bob:$ALICE_PW" 2>&1)
rc=$?
if [ $rc -eq 67 ]; then pass "bob's INBOX refused with alice's password ($out)"
else fail "bob's INBOX with alice's password: curl exit $rc (want 67): $out"; fi
if out=$("${CURL[@]}" "${TLS[@]}" "$IMAP_URL/INBOX" -X "SEARCH ALL" --user "alice:$ALICE_PW" 2>&1) \
     && ! grep -qE '^\* SEARCH [0-9]' <<<"$out"; then
  pass "alice's own INBOX is empty"
else
  fail "alice's INBOX: $out"
fi

if [ "$failures" -ne 0 ]; then
  echo "servers_test: $failures check(s) failed"
  exit 1
fi
echo "servers_test: all checks passed"
