#!/usr/bin/env bash
# Real mail servers on loopback for the mail tests (issue 20): Debian's Postfix
# (SMTP submission: STARTTLS required, then SASL authentication through
# Dovecot) and Dovecot (IMAP: STARTTLS required; LMTP delivery from Postfix;
# the SASL authentication), each instance wholly inside one directory, on free
# ports of 127.0.0.1 and 127.0.0.2 (both). No system service, system
# configuration or system spool is used or touched (/etc/postfix,
# /etc/dovecot, /var/spool/postfix, /var/lib/dovecot, /run/dovecot);
# /etc/postfix is only read (postfix-files: which queue directories Postfix
# creates, and how).
#
#   bash tests/mail/servers.sh start DIR USER:PASSWORD [USER:PASSWORD ...]
#   bash tests/mail/servers.sh stop DIR
#
# start: DIR must be empty or not exist (its path at most 60 characters of
# [A-Za-z0-9_./+-]: Unix socket paths are short). Writes DIR/env, and prints
# the same lines on stdout: shell assignments that need no quoting.
#   SMTP_PORT=...      submission: plain SMTP, STARTTLS before anything else
#                      (530 otherwise), then AUTH PLAIN or LOGIN
#   IMAP_PORT=...      IMAP: STARTTLS before LOGIN/AUTHENTICATE (LOGINDISABLED;
#                      on 127.0.0.2 only, see "Why 127.0.0.2")
#   MAIL_HOST=127.0.0.2  the address to use; both also answer on 127.0.0.1
#   MAIL_CA=DIR/ca.pem   the CA that signed the servers' certificate, whose
#                        subjectAltName is DNS:localhost, IP:127.0.0.1, IP:127.0.0.2
#   MAIL_DOMAIN=example.test
#   MAIL_DIR=DIR
#
# Users: USER:PASSWORD makes the mailbox USER@example.test; USER@DOMAIN:PASSWORD
# makes USER@DOMAIN (and DOMAIN a local domain too). Either login name works,
# for SMTP AUTH and IMAP alike: the bare USER (Dovecot adds the realm
# example.test) or the full address. Passwords are kept in plain text
# ({PLAIN}, DIR/dovecot/users) and may not contain ':' or a newline.
#
# Routing: a recipient in a local domain is checked when given (RCPT; 550 if
# unknown) and delivered over LMTP to Dovecot; one in any other domain is
# handed to Dovecot over LMTP as well (never to DNS or the network), which
# refuses it, so it bounces to the sender. Only authenticated clients may
# send. Mail lands in the Maildir DIR/mail/USER@DOMAIN/Maildir.
#
# Logs: DIR/postfix.log (Postfix, through its postlogd), DIR/dovecot.log
# (Dovecot), DIR/start.log (what the start and stop commands printed).
#
# stop: stops Postfix (postfix stop) and Dovecot (SIGTERM to its master), waits
# until every process of both has exited (each master is a session leader; its
# children stay in its session), then kills what lingers after 10 s.
# Idempotent; safe after a start that failed halfway, or on a DIR that does
# not exist; it never signals a process of another instance.
#
# Why 127.0.0.2: Dovecot 2.3 takes a connection whose client address equals
# its own address as secured (login-common: secured = ssl || trusted ||
# remote_ip == local_ip), and then allows login without STARTTLS whatever
# ssl=required and disable_plaintext_auth say. A client on this host
# connecting to 127.0.0.1 comes from 127.0.0.1: there IMAP STARTTLS cannot be
# required. Connecting to 127.0.0.2 it comes from 127.0.0.1 too (the kernel's
# source address for all of 127/8), so it is not "secured" and must use
# STARTTLS. Linux routes all of 127.0.0.0/8 to lo: nothing to configure. Both
# servers listen on both addresses, on the same ports: 127.0.0.1 for clients
# written to it (IMAP there accepts a login without STARTTLS), 127.0.0.2
# (MAIL_HOST) where every rule holds. Postfix refuses AUTH without STARTTLS
# on either.
#
# Root: the start must run as root: Postfix's master runs only as root, and
# the daemons switch to the users the packages created (postfix, postdrop,
# dovecot, dovenull) and to "mail" (uid 8, from base-passwd) for mailboxes.
# As non-root one would need sudo for this script: Dovecot alone could run
# unprivileged (default_internal_user/default_login_user the caller, no
# chroot), Postfix cannot. DIR's parent directories must be searchable by the
# postfix user (checked; /tmp is); DIR itself is made 0755.
#
# Several instances may run at once: every path, socket, pid file and port
# belongs to one DIR. A port taken between choosing it and binding it (by
# another instance, or as someone's ephemeral port) makes the start retry with
# new ports.
set -euo pipefail

PF_DAEMON_DIR=/usr/lib/postfix/sbin
DOMAIN=example.test
HOST=127.0.0.2                # MAIL_HOST: IMAP STARTTLS enforced here
HOSTS=(127.0.0.1 127.0.0.2)   # every listener is on both, same port
WAIT_SECONDS=${MAIL_SERVERS_WAIT:-30}
# Debian's interpreter, not a shim ahead of it in PATH (pyenv's costs ~1 s a call).
PYTHON=/usr/bin/python3
[ -x "$PYTHON" ] || PYTHON=python3

die() { echo "servers.sh: $*" >&2; exit 1; }

usage() {
  echo "usage: $0 start DIR USER:PASSWORD [USER:PASSWORD ...]" >&2
  echo "       $0 stop DIR" >&2
  exit 2
}

# The tails of the logs, for a failure's message.
log_tails() {
  local f
  for f in "$DIR/start.log" "$DIR/postfix.log" "$DIR/dovecot.log"; do
    if [ -s "$f" ]; then
      echo "---- last lines of $f ----" >&2
      tail -n 25 "$f" >&2
    fi
  done
}

# Two distinct TCP ports free on every address of HOSTS (all held open while
# chosen).
free_ports() {
  "$PYTHON" - "${HOSTS[@]}" <<'EOF'
import socket, sys
hosts, held, ports = sys.argv[1:], [], []
for _ in range(200):
    if len(ports) == 2:
        break
    first = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    first.bind((hosts[0], 0))
    port, group = first.getsockname()[1], [first]
    try:
        for h in hosts[1:]:
            s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            group.append(s)
            s.bind((h, port))
    except OSError:
        for s in group:
            s.close()
        continue
    held += group
    ports.append(port)
for s in held:
    s.close()
if len(ports) < 2:
    sys.exit("no free port found on " + " ".join(hosts))
print(*ports)
EOF
}

# Do servers answer on port $1 of every address of HOSTS, with a greeting
# starting with $2?
greets() {
  "$PYTHON" - "$1" "$2" "${HOSTS[@]}" <<'EOF' 2>/dev/null
import socket, sys
port, want, hosts = int(sys.argv[1]), sys.argv[2].encode(), sys.argv[3:]
try:
    for host in hosts:
        with socket.create_connection((host, port), timeout=2) as s:
            s.settimeout(2)
            data = b""
            while b"\n" not in data:
                chunk = s.recv(512)
                if not chunk:
                    break
                data += chunk
            if not data.startswith(want):
                sys.exit(1)
except OSError:
    sys.exit(1)
EOF
}

# Is pid $1 alive and running one of the daemons' programs?
our_program() {
  local exe
  exe=$(readlink "/proc/$1/exe" 2>/dev/null) || return 1
  case "$exe" in
    "$PF_DAEMON_DIR"/*|/usr/sbin/dovecot|/usr/lib/dovecot/*) return 0 ;;
  esac
  return 1
}

# Is pid $1 a master of this DIR: Dovecot's started with -c DIR/dovecot/...,
# Postfix's with MAIL_CONFIG=DIR/postfix in its environment?
our_master() {
  our_program "$1" || return 1
  tr '\0' '\n' < "/proc/$1/cmdline" 2>/dev/null | grep -qxF "$DIR/dovecot/dovecot.conf" && return 0
  tr '\0' '\n' < "/proc/$1/environ" 2>/dev/null | grep -qxF "MAIL_CONFIG=$DIR/postfix" && return 0
  return 1
}

# The live processes of session $1 (a master's pid: both masters call
# setsid(), their children stay in the session) that run the daemons'
# programs. If the session's leader still runs it must be this DIR's master
# (a pid is not reused while a session or group still names it, so the
# members of a session whose leader has exited are this DIR's too).
session_members() {
  local sid=$1 pid s
  if [ -e "/proc/$sid" ] && our_program "$sid" && ! our_master "$sid"; then
    return 0
  fi
  ps -e -o pid=,sid= | while read -r pid s; do
    if [ "$s" = "$sid" ] && our_program "$pid"; then echo "$pid"; fi
  done
  return 0
}

# A pid file's first number, if the file exists.
pid_of() {
  if [ -f "$1" ]; then awk 'NR == 1 { print $1 + 0; exit }' "$1" || true; fi
}

do_stop() {
  [ -d "$DIR" ] || return 0
  local pf_pid dc_pid sids=() sid waited pid left
  pf_pid=$(pid_of "$DIR/postfix-queue/pid/master.pid")
  dc_pid=$(pid_of "$DIR/run/master.pid")
  # Sessions recorded at start (the masters' pids), in case a pid file is gone.
  if [ -f "$DIR/sessions" ]; then read -r -a sids < "$DIR/sessions" || true; fi
  [ -n "$pf_pid" ] && [ "$pf_pid" != 0 ] && sids+=("$pf_pid")
  [ -n "$dc_pid" ] && [ "$dc_pid" != 0 ] && sids+=("$dc_pid")

  if [ -n "$pf_pid" ] && [ -f "$DIR/postfix/main.cf" ] && our_master "$pf_pid"; then
    /usr/sbin/postfix -c "$DIR/postfix" stop >>"$DIR/start.log" 2>&1 || true
  fi
  if [ -n "$dc_pid" ] && our_master "$dc_pid"; then
    kill -TERM "$dc_pid" 2>/dev/null || true
  fi

  # Wait (bounded) for every process of both sessions, then kill what is left.
  waited=0
  while :; do
    left=()
    for sid in ${sids[@]+"${sids[@]}"}; do
      for pid in $(session_members "$sid"); do left+=("$pid"); done
    done
    [ ${#left[@]} -eq 0 ] && break
    if [ $waited -ge 100 ]; then
      echo "servers.sh: killing what still runs after 10 s: ${left[*]}" | tee -a "$DIR/start.log" >&2
      kill -KILL "${left[@]}" 2>/dev/null || true
      sleep 0.5
      break
    fi
    sleep 0.1
    waited=$((waited + 1))
  done
  # The masters were daemons, children of init: give it a moment to reap
  # them, so that no <defunct> entry outlives the stop (not an error if so).
  for pid in ${sids[@]+"${sids[@]}"}; do
    for _ in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do
      [ "$(awk '{ print $3 }' "/proc/$pid/stat" 2>/dev/null)" = Z ] || break
      sleep 0.1
    done
  done
  rm -f "$DIR/sessions"
  return 0
}

write_certs() {
  local d=$DIR/tls log=$DIR/tls/openssl.log san="IP:127.0.0.1,IP:127.0.0.2"
  mkdir -p "$d"
  chmod 0755 "$d"
  # ECDSA P-256 keys: instant to make, and every TLS client takes them.
  if ! {
    openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 3650 -sha256 \
      -keyout "$d/ca.key" -out "$DIR/ca.pem" -subj "/CN=Adjutant test mail CA" \
      -addext "basicConstraints=critical,CA:TRUE" \
      -addext "keyUsage=critical,keyCertSign,cRLSign" &&
    openssl req -new -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -sha256 \
      -keyout "$d/server.key" -out "$d/server.csr" -subj "/CN=localhost" &&
    printf '%s\n' "basicConstraints=critical,CA:FALSE" \
      "keyUsage=critical,digitalSignature,keyEncipherment" \
      "extendedKeyUsage=serverAuth" \
      "subjectAltName=DNS:localhost,$san" > "$d/server.ext" &&
    openssl x509 -req -in "$d/server.csr" -CA "$DIR/ca.pem" -CAkey "$d/ca.key" \
      -CAserial "$d/ca.srl" -CAcreateserial -days 3650 -sha256 -extfile "$d/server.ext" -out "$d/server.pem"
  } >"$log" 2>&1; then
    cat "$log" >>"$DIR/start.log"
    return 1
  fi
  chmod 0600 "$d/ca.key" "$d/server.key"
  chmod 0644 "$DIR/ca.pem" "$d/server.pem"
}

# Postfix: config_directory DIR/postfix, queue_directory DIR/postfix-queue,
# data_directory DIR/postfix-data. Everything the shared /etc/postfix would
# give is set here; /etc/postfix is only read for postfix-files (the list of
# queue directories post-install creates).
write_postfix() {
  local smtp_port=$1 c=$DIR/postfix domains
  # The queue directory root-owned (Postfix checks); "postfix start" creates
  # the rest (post-install create-missing, owners and modes from postfix-files).
  mkdir -p "$c" "$DIR/postfix-queue"
  chmod 0755 "$c" "$DIR/postfix-queue"
  domains=$(printf '%s\n' "${DOMAINS[@]}" | sort -u | paste -sd ' ')
  cat > "$c/main.cf" <<EOF
# Generated by tests/mail/servers.sh for one test instance.
compatibility_level = 3.6
queue_directory = $DIR/postfix-queue
data_directory = $DIR/postfix-data
mail_owner = postfix
setgid_group = postdrop
maillog_file = $DIR/postfix.log
maillog_file_prefixes = $DIR
syslog_name = postfix-test
myhostname = localhost
mydomain = localdomain
myorigin = $DOMAIN
mydestination =
relay_domains =
# The submission service's addresses are explicit in master.cf; here Postfix
# wants an interface's own address (127.0.0.2 is not one, though lo answers
# for it).
inet_interfaces = 127.0.0.1
inet_protocols = ipv4
mynetworks = 127.0.0.0/8
smtp_dns_support_level = disabled
smtpd_peername_lookup = no
alias_maps =
alias_database =
local_recipient_maps =
biff = no
append_dot_mydomain = no
readme_directory = no
sendmail_path = /usr/sbin/sendmail
# Every recipient goes to Dovecot over LMTP (a socket in the queue directory,
# which Dovecot's lmtp service listens on); local domains' recipients are
# checked against the users first.
virtual_mailbox_domains = $domains
virtual_mailbox_maps = texthash:$c/mailboxes
virtual_transport = lmtp:unix:private/dovecot-lmtp
default_transport = lmtp:unix:private/dovecot-lmtp
relay_transport = lmtp:unix:private/dovecot-lmtp
# Nothing retried for long in tests.
maximal_queue_lifetime = 1h
bounce_queue_lifetime = 1h
queue_run_delay = 10s
minimal_backoff_time = 10s
maximal_backoff_time = 60s
# TLS (required on the submission service) and SASL through Dovecot.
smtpd_tls_cert_file = $DIR/tls/server.pem
smtpd_tls_key_file = $DIR/tls/server.key
smtpd_tls_loglevel = 1
smtpd_tls_received_header = yes
smtpd_sasl_type = dovecot
smtpd_sasl_path = private/auth
smtpd_sasl_auth_enable = no
smtpd_relay_restrictions = permit_sasl_authenticated, reject
smtpd_recipient_restrictions = reject_unlisted_recipient, permit_sasl_authenticated, reject
EOF
  : > "$c/mailboxes"
  local u
  for u in "${ADDRESSES[@]}"; do echo "$u $u/" >> "$c/mailboxes"; done

  local h
  {
    echo "# Generated by tests/mail/servers.sh: submission on port $smtp_port of"
    echo "# ${HOSTS[*]}, the internal services Postfix needs, no port 25."
    for h in "${HOSTS[@]}"; do
      cat <<EOF
$h:$smtp_port inet n - n - - smtpd
  -o syslog_name=postfix-test/submission
  -o smtpd_tls_security_level=encrypt
  -o smtpd_tls_auth_only=yes
  -o smtpd_sasl_auth_enable=yes
  -o smtpd_sasl_security_options=noanonymous
  -o smtpd_client_restrictions=
  -o smtpd_helo_restrictions=
  -o smtpd_sender_restrictions=
  -o smtpd_relay_restrictions=permit_sasl_authenticated,reject
  -o smtpd_recipient_restrictions=reject_unlisted_recipient,permit_sasl_authenticated,reject
  -o milter_macro_daemon_name=ORIGINATING
EOF
    done
    cat <<EOF
pickup     unix  n - n 60   1 pickup
cleanup    unix  n - n -    0 cleanup
qmgr       unix  n - n 300  1 qmgr
tlsmgr     unix  - - n 1000? 1 tlsmgr
rewrite    unix  - - n -    - trivial-rewrite
bounce     unix  - - n -    0 bounce
defer      unix  - - n -    0 bounce
trace      unix  - - n -    0 bounce
verify     unix  - - n -    1 verify
flush      unix  n - n 1000? 0 flush
proxymap   unix  - - n -    - proxymap
proxywrite unix  - - n -    1 proxymap
smtp       unix  - - n -    - smtp
relay      unix  - - n -    - smtp
showq      unix  n - n -    - showq
error      unix  - - n -    - error
retry      unix  - - n -    - error
discard    unix  - - n -    - discard
lmtp       unix  - - n -    - lmtp
anvil      unix  - - n -    1 anvil
scache     unix  - - n -    1 scache
postlog    unix-dgram n - n - 1 postlogd
EOF
  } > "$c/master.cf"
  chmod 0644 "$c/main.cf" "$c/master.cf" "$c/mailboxes"
}

# Dovecot: configuration DIR/dovecot/dovecot.conf, base_dir DIR/run,
# state_dir DIR/dovecot-state. Only this file is read (no /etc/dovecot).
write_dovecot() {
  local imap_port=$1 c=$DIR/dovecot dh=""
  mkdir -p "$c" "$DIR/dovecot-state" "$DIR/mail"
  chmod 0755 "$c"
  chown mail:mail "$DIR/mail"
  chmod 0700 "$DIR/mail"
  [ -f /usr/share/dovecot/dh.pem ] && dh="ssl_dh = </usr/share/dovecot/dh.pem"
  # Passwords in plain text: only for tests.
  : > "$c/users"
  local i
  for i in "${!ADDRESSES[@]}"; do
    echo "${ADDRESSES[$i]}:{PLAIN}${PASSWORDS[$i]}::::::" >> "$c/users"
  done
  chown root:dovecot "$c/users"
  chmod 0640 "$c/users"
  cat > "$c/dovecot.conf" <<EOF
# Generated by tests/mail/servers.sh for one test instance.
instance_name = adjutant-mail-$(basename "$DIR")
base_dir = $DIR/run
state_dir = $DIR/dovecot-state
log_path = $DIR/dovecot.log
protocols = imap lmtp
listen = $(IFS=,; echo "${HOSTS[*]}")
hostname = localhost
postmaster_address = postmaster@$DOMAIN
default_internal_user = dovecot
default_internal_group = dovecot
default_login_user = dovenull
shutdown_clients = yes

ssl = required
ssl_cert = <$DIR/tls/server.pem
ssl_key = <$DIR/tls/server.key
ssl_min_protocol = TLSv1.2
$dh
disable_plaintext_auth = yes
auth_mechanisms = plain login
# No 2 s sleep after each failed login (tests try wrong passwords on purpose).
auth_failure_delay = 0
# "alice" logs in as alice@$DOMAIN; "alice@$DOMAIN" as itself.
auth_default_realm = $DOMAIN
auth_username_format = %Lu

passdb {
  driver = passwd-file
  args = scheme=PLAIN username_format=%u $c/users
}
# Every mailbox belongs to the system user "mail" (uid 8, gid 8).
first_valid_uid = 8
last_valid_uid = 8
first_valid_gid = 8
last_valid_gid = 8
userdb {
  driver = static
  args = uid=mail gid=mail home=$DIR/mail/%u
}
mail_location = maildir:~/Maildir
namespace inbox {
  inbox = yes
  separator = /
}

service imap-login {
$(for h in "${HOSTS[@]}"; do printf '  inet_listener imap-%s {\n    address = %s\n    port = %s\n  }\n' "${h//./-}" "$h" "$imap_port"; done)
  inet_listener imap {
    port = 0
  }
  inet_listener imaps {
    port = 0
  }
}
service pop3-login {
  inet_listener pop3 {
    port = 0
  }
  inet_listener pop3s {
    port = 0
  }
}
service submission-login {
  inet_listener submission {
    port = 0
  }
}
# No growing delay (2, 4, 8, 15 s) for a client address after failed logins:
# without this socket Dovecot's auth process disables its "auth penalty".
service anvil {
  unix_listener anvil-auth-penalty {
    mode = 0
  }
}
service lmtp {
  unix_listener $DIR/postfix-queue/private/dovecot-lmtp {
    mode = 0600
    user = postfix
    group = postfix
  }
}
service auth {
  unix_listener $DIR/postfix-queue/private/auth {
    mode = 0660
    user = postfix
    group = postfix
  }
}
protocol lmtp {
  # Recipients are looked up as given (user@domain).
  auth_username_format = %Lu
}
EOF
  chmod 0644 "$c/dovecot.conf"
}

# Is there an "address in use" complaint in what the start wrote?
port_clash() {
  grep -qiE 'address already in use|bind\(.*\) failed' "$DIR/start.log" "$DIR/postfix.log" \
      "$DIR/dovecot.log" 2>/dev/null
}

# One attempt at starting both on new ports: 0 started, 1 failed, 2 port clash.
try_start() {
  local smtp_port imap_port waited
  read -r smtp_port imap_port < <(free_ports) || { echo "cannot choose free ports" >>"$DIR/start.log"; return 1; }
  write_postfix "$smtp_port"
  write_dovecot "$imap_port"

  # Postfix first: its start creates the queue directories (post-install
  # create-missing, owners and modes as Postfix wants them) in which Dovecot's
  # LMTP and auth sockets for Postfix live.
  # The postfix command prints its errors only to a terminal (else to syslog,
  # absent here, or to maillog_file once it has read main.cf): give it one.
  if ! script -qefc "/usr/sbin/postfix -c $DIR/postfix start" /dev/null </dev/null >>"$DIR/start.log" 2>&1; then
    port_clash && return 2
    echo "postfix start failed" >>"$DIR/start.log"
    return 1
  fi
  pid_of "$DIR/postfix-queue/pid/master.pid" > "$DIR/sessions"
  if ! /usr/sbin/dovecot -c "$DIR/dovecot/dovecot.conf" >>"$DIR/start.log" 2>&1; then
    port_clash && return 2
    echo "dovecot start failed" >>"$DIR/start.log"
    return 1
  fi
  echo "$(pid_of "$DIR/postfix-queue/pid/master.pid") $(pid_of "$DIR/run/master.pid")" > "$DIR/sessions"

  # Wait until both greet and Dovecot's sockets for Postfix exist.
  waited=0
  while :; do
    if greets "$smtp_port" "220 " && greets "$imap_port" "* OK" \
        && [ -S "$DIR/postfix-queue/private/auth" ] && [ -S "$DIR/postfix-queue/private/dovecot-lmtp" ]; then
      break
    fi
    if [ $waited -ge $((WAIT_SECONDS * 10)) ]; then
      port_clash && return 2
      echo "servers not ready after ${WAIT_SECONDS} s (SMTP port $smtp_port, IMAP port $imap_port)" >>"$DIR/start.log"
      return 1
    fi
    sleep 0.1
    waited=$((waited + 1))
  done
  SMTP_PORT=$smtp_port
  IMAP_PORT=$imap_port
  return 0
}

do_start() {
  [ "$(id -u)" -eq 0 ] || die "must run as root (Postfix's master runs only as root; see the comment at the top)"
  local p
  for p in /usr/sbin/postfix "$PF_DAEMON_DIR/master" /usr/sbin/dovecot /usr/lib/dovecot/lmtp \
           /usr/lib/dovecot/imap; do
    [ -x "$p" ] || die "$p is missing: install postfix, dovecot-imapd and dovecot-lmtpd (scripts/setup.sh)"
  done
  for p in openssl "$PYTHON" script runuser; do
    command -v "$p" >/dev/null || die "$p is missing"
  done
  for p in postfix dovecot dovenull mail; do
    id "$p" >/dev/null 2>&1 || die "user $p is missing (installed with the postfix/dovecot packages)"
  done
  getent group postdrop >/dev/null || die "group postdrop is missing (installed with postfix)"

  # Users.
  ADDRESSES=() PASSWORDS=() DOMAINS=("$DOMAIN")
  local arg user pass
  for arg in "${USERS[@]}"; do
    [[ "$arg" == *:* ]] || die "user argument '$arg' is not USER:PASSWORD"
    user=${arg%%:*}
    pass=${arg#*:}
    [[ "$user" == *@* ]] || user="$user@$DOMAIN"
    user=${user,,}
    [[ "$user" =~ ^[a-z0-9._+-]+@[a-z0-9.-]+$ ]] || die "user '$user': only [a-z0-9._+-]@[a-z0-9.-] are allowed"
    [ -n "$pass" ] || die "user '$user': empty password"
    [[ "$pass" != *:* && "$pass" != *$'\n'* ]] || die "user '$user': the password may not contain ':' or a newline"
    for p in ${ADDRESSES[@]+"${ADDRESSES[@]}"}; do
      [ "$p" != "$user" ] || die "user '$user' given twice"
    done
    ADDRESSES+=("$user")
    PASSWORDS+=("$pass")
    DOMAINS+=("${user#*@}")
  done

  [[ "$DIR" =~ ^[A-Za-z0-9_./+-]+$ ]] || die "$DIR: only [A-Za-z0-9_./+-] are allowed in the directory's path"
  if [ -e "$DIR" ]; then
    [ -d "$DIR" ] || die "$DIR exists and is not a directory"
    [ -z "$(ls -A "$DIR")" ] || die "$DIR is not empty"
  fi
  mkdir -p "$DIR"
  DIR=$(cd "$DIR" && pwd -P)
  [[ "$DIR" =~ ^/[A-Za-z0-9_./+-]+$ ]] || die "$DIR: only [A-Za-z0-9_./+-] are allowed in the directory's path"
  # Unix socket paths are limited to 107 bytes; the longest is
  # DIR/postfix-queue/private/dovecot-lmtp (and DIR/run/login/... in Dovecot).
  [ ${#DIR} -le 60 ] || die "$DIR: path too long for Unix sockets under it (at most 60 characters)"
  chmod 0755 "$DIR"
  runuser -u postfix -- test -x "$DIR" \
    || die "$DIR is not reachable by the postfix user (a parent directory is not searchable)"

  : > "$DIR/start.log"
  write_certs || { log_tails; die "creating the certificates failed"; }

  local attempt rc
  for attempt in 1 2 3 4 5; do
    rc=0
    try_start || rc=$?
    [ $rc -eq 0 ] && break
    do_stop
    if [ $rc -eq 2 ] && [ $attempt -lt 5 ]; then
      echo "servers.sh: a port was taken meanwhile, retrying with others (attempt $attempt)" >&2
      # Keep the logs of the failed attempt, start the next one clean.
      for p in start.log postfix.log dovecot.log; do
        [ -f "$DIR/$p" ] && mv "$DIR/$p" "$DIR/$p.attempt$attempt"
      done
      rm -rf "$DIR/postfix" "$DIR/postfix-queue" "$DIR/postfix-data" "$DIR/dovecot" \
             "$DIR/dovecot-state" "$DIR/run"
      : > "$DIR/start.log"
      continue
    fi
    log_tails
    die "starting the mail servers in $DIR failed (see the logs above; stopped again)"
  done

  cat > "$DIR/env" <<EOF
SMTP_PORT=$SMTP_PORT
IMAP_PORT=$IMAP_PORT
MAIL_HOST=$HOST
MAIL_CA=$DIR/ca.pem
MAIL_DOMAIN=$DOMAIN
MAIL_DIR=$DIR
EOF
  cat "$DIR/env"
}

[ $# -ge 2 ] || usage
CMD=$1
DIR=$2
shift 2
case "$CMD" in
  start)
    [ $# -ge 1 ] || usage
    USERS=("$@")
    do_start
    ;;
  stop)
    [ $# -eq 0 ] || usage
    if [ -d "$DIR" ]; then DIR=$(cd "$DIR" && pwd -P); fi
    do_stop
    ;;
  *) usage ;;
esac
