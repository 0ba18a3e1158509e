#!/usr/bin/env python3
"""Three scanners' test tables (a ninth corpus build): octarinesec/secret-detector's detector
tests, GitHub's secret scanning custom patterns with their sample files, and the tests of the
plugins IBM's fork of detect-secrets added or changed.

    python3 testdata/eval/sources9.py --mirror <dir>

reads bare clones under `<dir>/<owner>+<name>/repo` (octarinesec/secret-detector,
advanced-security/secret-scanning-custom-patterns, IBM/detect-secrets, and Yelp/detect-secrets
to tell IBM's own tests from those it shares with Yelp's), each at its HEAD, replaces this
build's examples in secrets.jsonl and its files in manifest.json, and writes each
repository's licence to licenses/<source>.txt. Labels:

- secret-detector: each detector test's table rows `{"name", "input", true|false}`. A true
  row is an event, its secret what the detector's own expression flags in the input (the
  value of `AccountKey=`, the token after `Basic`/`Bearer`, a URL's password as Go's
  url.Parse reads it, the value after a suspicious key's `:=`/`:`/`=`, a token format's
  match, a Slack webhook's whole URL); a row where that is not one value is left out. False
  rows are format negatives, except those written as a credential by any other reading: an
  Authorization scheme with a value of six characters or more (`bearer YWRtaW46YWRtaW4=` in
  the Basic test), an `_authToken=` with a value but not the registry the detector wants.
  Left out: the detectors of identifiers (AWS access key ids, Twilio account and API key
  SIDs), the bare high-entropy-string detector (a hash is as random), the private key
  test's one-line bodies, and artifactory's `AP…` rows (that format is no longer detected).
- custom-patterns: each `patterns.yml` pattern's `expected` spans (file, byte offsets) in
  the sample files beside it, as `testing/test.py` checks them. A sample file of twelve lines
  or fewer, or a private key file, is one event; in a longer one, the span's lines with up to
  three before and one after, overlapping windows joined. A private key's secrets are its
  body lines of sixteen characters or more. The optional `test: data` of a pattern is an
  event too, its secret the span its offsets give (the whole data without them) when the
  pattern matches that span whole between non-alphanumerics (test.py does not check these
  offsets; some are off by one). Files or sections named as negatives (`not_*`, `wrong_*`,
  after a `# False Positives` header) give format negatives, each line with its comment.
  Left out: PII (cards, IBANs, IP addresses, e-mails), identifiers (UUIDs, URLs, host
  names, public keys, action references), the common-password list (dictionary words
  flagged wherever they stand), a password store's metadata, spans that hold a name or a
  whole URL rather than the secret (full connection strings, JDBC URLs, presigned URLs,
  SAS query strings, `user:token`, multi-line YAML values) and, as everywhere, secrets of
  fewer than four characters.
- ibm-detect-secrets: the `(token, payload, should_flag)` and `(payload, should_flag)` tables
  of `tests/plugins/*_test.py` of the plugins whose cases are not all Yelp's too; the secret
  is the token column, else what the plugin's expression captures in the payload (one value,
  else the case is left out). A base64 value that decodes to a placeholder is one too.
  False cases are format negatives.

A label that is a placeholder (`build.is_placeholder`, or one of the words the sanitizer's
placeholder expression names: `password`, `secret`, `test`, …) is dropped, and so is one of fewer
than twelve characters that also stands elsewhere in its text unlabelled (the password
`root` of a file whose user name is `root`). A secret with a vendor's literal signature
(`ghp_`, `eyJ`, `SG.`, `xox?-`, `sq0atp-`, `npm_`, `AKC`, a private key's armour, a pattern
whose expression demands three literal characters or more) is `known-format`; one found by
the name, flag, header or URL around it is `keyword-context`.
"""
import argparse
import ast
import base64
import json
import os
import re
import sys

import yaml

import build
import sources3
import sources8

SOURCES = {
    "secret-detector": ("octarinesec/secret-detector", "Apache-2.0"),
    "custom-patterns": ("advanced-security/secret-scanning-custom-patterns", "MIT"),
    "ibm-detect-secrets": ("IBM/detect-secrets", "Apache-2.0"),
}
YELP = "Yelp/detect-secrets"
MIN_SECRET = 4


# the words the sanitizer's placeholder expression (rules.go) takes for a stand-in, not a value
PLACEHOLDER_WORDS = {"password", "secret", "token", "test", "pass", "changeme", "sample", "dummy", "foo", "bar"}


def placeholder(s):
    """build.is_placeholder, or one of the sanitizer's placeholder words, also of what a
    base64 value decodes to."""
    if build.is_placeholder(s) or s.lower() in PLACEHOLDER_WORDS:
        return True
    try:
        raw = base64.b64decode(s + "=" * (-len(s) % 4), validate=True).decode("utf-8")
    except Exception:
        return False
    return build.is_placeholder(raw)


def unlabelled_elsewhere(text, secret, labelled):
    """A short label that also stands in the text more times than it is labelled."""
    return len(secret) < 12 and text.count(secret) > labelled


def keep(text, secrets, counts=None):
    counts = counts or {}
    return sorted({s for s in secrets if len(s) >= MIN_SECRET and s in text and not placeholder(s)
                   and not unlabelled_elsewhere(text, s, counts.get(s, 1))})


# ---- octarinesec/secret-detector ----

GO_STR = r'"(?:[^"\\]|\\.)*"|`[^`]*`'
ROW = re.compile(r"^\s*\{\s*(" + GO_STR + r")\s*,\s*(" + GO_STR + r")\s*,\s*(true|false)\s*\},?\s*(?://.*)?$")


def go_string(lit):
    return lit[1:-1] if lit.startswith("`") else json.loads(lit)


def url_password(s):
    """The password of the first URL with credentials, as Go's url.Parse reads it: the
    authority runs to the first `/`, its user information to the last `@` in it."""
    m = re.search(r"[a-z][a-z0-9+.-]+://([^\s/]*)", s)
    if not m or "@" not in m.group(1):
        return []
    userinfo = m.group(1).rsplit("@", 1)[0]
    if ":" not in userinfo:
        return []
    return [userinfo.split(":", 1)[1]]


def keyword_value(s):
    """The value of a `key: value` row as the keyword detector's test splits it."""
    for sep in (":=", ":", "="):
        parts = s.split(sep, 1)
        if len(parts) == 2:
            return [parts[1].strip().strip("\"'")]
    return []


def regex_secret(expr, group=0):
    def find(s):
        return [m.group(group) for m in re.finditer(expr, s)]
    return find


# detector file -> (how its secret is read, class); None: left out
SD_DETECTORS = {
    "artifactory/artifactory_detector_test.go": (regex_secret(r"AKC[a-zA-Z0-9]{10,}"), "known-format"),
    "aws/aws_client_id_detector_test.go": None,  # access key ids: identifiers
    "aws/aws_secret_key_detector_test.go": (regex_secret(r"['\"]([0-9a-zA-Z/+]{40})['\"]", 1), "keyword-context"),
    "aws/mws_key_detector_test.go": (regex_secret(r"amzn\.mws\.[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"), "known-format"),
    "azure/storage_key_detector_test.go": (regex_secret(r"AccountKey=([a-zA-Z0-9+/=]{88})", 1), "keyword-context"),
    "basicauth/basic_auth_detector_test.go": (regex_secret(r"(?i)basic +([a-zA-Z0-9+/,_\-]{2,}={0,2})", 1), "keyword-context"),
    "bearerauth/bearer_auth_detector_test.go": (regex_secret(r"(?i)bearer +([a-zA-Z0-9+/,_\-.=]{2,})", 1), "keyword-context"),
    "generic/high_entropy_string_detector_test.go": None,  # bare strings: a hash is as random
    "generic/url_password_detector_test.go": (url_password, "keyword-context"),
    "github/github_detector_test.go": (regex_secret(r"gh[pousr]_[A-Za-z0-9_]{36}"), "known-format"),
    "jwt/jwt_detector_test.go": (regex_secret(r"eyJ[A-Za-z0-9\-_=]+\.eyJ[A-Za-z0-9\-_=]+\.?[A-Za-z0-9\-_.+/=]*"), "known-format"),
    "keyword/keyword_detector_test.go": (keyword_value, "keyword-context"),
    "mailchimp/mailchimp_detector_test.go": (regex_secret(r"[0-9a-f]{32}-us[0-9]{1,2}"), "known-format"),
    "privatekey/private_key_detector_test.go": (lambda s: [], "known-format"),  # bodies of 9 characters
    "sendgrid/sendgrid_detector_test.go": (regex_secret(r"SG\.[a-zA-Z0-9_-]{22}\.[a-zA-Z0-9_-]{43}"), "known-format"),
    "slack/slack_detector_test.go": (regex_secret(r"(?:(?:xoxe\.)?xox[bp]|xox[aeosr]|xapp)-\d+-[-a-zA-Z0-9]+|"
                                                  r"https://hooks\.slack\.com/services/T[a-zA-Z0-9_]+/B[a-zA-Z0-9_]+/[a-zA-Z0-9_]+"), "known-format"),
    "square/square_detector_test.go": (regex_secret(r"sq0atp-[0-9A-Za-z\\\-_]{22}|sq0csp-[0-9A-Za-z\\\-_]{43}"), "known-format"),
    "stripe/stripe_detector_test.go": (regex_secret(r"[rs]k_(?:live|test)_[0-9a-zA-Z]{24}"), "known-format"),
    "twilio/twilio_auth_detector_test.go": None,  # account and API key SIDs: identifiers
}
NPM_TEST = "npm/npm_token_detector_test.go"  # two expressions, one of each class
NPM_AUTH = re.compile(r"//\S+/:_authToken=([^${\s]\S+)")
NPM_ACCESS = re.compile(r"npm_[a-zA-Z0-9]{36}")
# a negative written as a credential by any other reading: an Authorization scheme or header
# with a value, an .npmrc `_authToken=` with one (without the registry the detector wants)
CREDENTIAL_SYNTAX = re.compile(r"(?i)\b(?:basic|bearer)\s+[^\s\"]{6,}|authorization\"?\s*[:=]\s*\"[^\"\s]{6,}|"
                               r"_authToken=[^${\s]\S{5,}")


def secret_detector(repo, out):
    src = "secret-detector"
    for path in repo.ls("pkg/detectors/"):
        rel = path.removeprefix("pkg/detectors/")
        conf = SD_DETECTORS.get(rel)
        if conf is None and rel != NPM_TEST:
            continue  # not a detector test, or one left out
        detector = rel.split("/")[0]
        taken = 0
        for line in repo.show(path).splitlines():
            m = ROW.match(line)
            if not m:
                continue
            name, text, flag = go_string(m.group(1)), go_string(m.group(2)), m.group(3) == "true"
            if not text.strip():
                continue
            if detector == "artifactory" and name.startswith("password"):
                continue  # AP… encrypted passwords: no longer detected
            ident = f"{src}:{path}:{text}"
            label = f"{os.path.basename(rel).removesuffix('_detector_test.go')}: {name}"
            if flag:
                if rel == NPM_TEST:
                    found = [x for x in NPM_AUTH.findall(text)] + NPM_ACCESS.findall(text)
                    cls = "known-format" if NPM_ACCESS.search(text) else "keyword-context"
                else:
                    read, cls = conf
                    found = read(text)
                if len(set(found)) != 1:
                    continue
                secrets = keep(text, found)
                if not secrets:
                    continue
                sources3.example(out, src, ident, cls, label, text, secrets)
            else:
                if CREDENTIAL_SYNTAX.search(text):
                    continue
                sources3.example(out, src, ident, "format-negative", label, text, [])
            taken += 1
        if taken:
            sources3.record(src, repo, path, "detector test table rows (name, input, expected detection)")


# ---- advanced-security/secret-scanning-custom-patterns ----

CP_SKIP_DIRS = {"pii"}  # cards, IBANs, national ids
CP_SKIP_TYPES = {
    "uuids", "hardcoded_internal_emails", "hardcoded_internal_urls", "any_ipv4_addresses", "ghcr_typos",
    "ssh_public_key", "github_actions_sha_checker", "azure_sql_connection_string",  # not secrets
    "common_passwords_shortlist",  # dictionary words flagged wherever they stand
    "arc",  # a password store's metadata, not a secret
    # spans holding a name, a user or a whole URL rather than the secret
    "database_connection_string_full", "jdbc_connection_string", "generic_passwords_fewer_fps",
    "aws_s3_presigned_url", "azure_sas_token", "browserstack_token_url", "yaml_passwords_multiline",
    "mongodb_connection_string", "oauth_client_secret",
}
CP_KEY_TYPES = {"generic_rsa_keys", "ssh_private_keys", "gpg_private_key"}
# sample files whose user name is its password (`https://你好:你好@…`): the label cannot be told
CP_SKIP_FILES = {"uri/non-english.txt"}
WHOLE_FILE_LINES = 12
KEY_LINE = re.compile(r"^[A-Za-z0-9+/=]{16,}$")
FALSE_POSITIVES = re.compile(r"(?i)^#\s*false[ -]positives?\s*$")


def key_body(span):
    """The body lines of a private key of sixteen characters or more, its lines broken by
    newlines or by escaped `\\n`/`\\r\\n` in a string literal."""
    return [ln.strip() for ln in re.split(r"\\r\\n|\\n|\\r|[\r\n]", span) if KEY_LINE.match(ln.strip())]


def cp_regex(pattern):
    import regex
    try:
        return regex.compile(pattern.strip())
    except Exception:
        return None


def line_of(text, offset):
    return text.count("\n", 0, offset)


def cp_tests(p):
    """(id suffix, data, secret) of a pattern's `test` entries whose span the pattern matches."""
    tests = p.get("test")
    tests = tests if isinstance(tests, list) else [tests] if tests else []
    rx = cp_regex(p["regex"]["pattern"])
    for i, t in enumerate(tests):
        data = t.get("data") if isinstance(t, dict) else None
        if not isinstance(data, str) or rx is None:
            continue
        raw = data.encode()
        s, e = t.get("start_offset"), t.get("end_offset")
        s = 0 if s is None else s
        e = len(raw.rstrip(b"\n")) if e in (None, -1) else e
        span = raw[s:e].decode("utf-8", "replace")
        before, after = raw[:s].decode("utf-8", "replace"), raw[e:].decode("utf-8", "replace")
        if not span or not rx.fullmatch(span):
            continue
        if before[-1:].isalnum() or after[:1].isalnum():
            continue
        yield i, data.rstrip("\n"), span


def custom_patterns(repo, out):
    src = "custom-patterns"
    files = [f for f in repo.run("ls-tree", "-r", "-z", "--name-only", repo.commit).split("\0") if f]
    pattern_files = sorted(p for p in files if p.endswith("/patterns.yml") and p.split("/")[0] not in CP_SKIP_DIRS)
    for pf in pattern_files:
        d = os.path.dirname(pf)
        doc = yaml.safe_load(repo.show(pf)) or {}
        spans = {}  # file -> [(start, end, type, known)]
        used = False
        for p in doc.get("patterns") or []:
            ptype = p.get("type", "")
            if ptype in CP_SKIP_TYPES:
                continue
            known = ptype in CP_KEY_TYPES or sources8.signature_run(p["regex"]["pattern"].strip()) >= 3
            cls = "known-format" if known else "keyword-context"
            for i, data, secret in cp_tests(p):
                secrets = keep(data, key_body(secret) if ptype in CP_KEY_TYPES else [secret])
                if secrets:
                    sources3.example(out, src, f"{src}:{pf}:{p.get('name', ptype)}:test{i}", cls, f"{ptype} {p.get('name', '')}",
                                     data, secrets)
                    used = True
            for e in p.get("expected") or []:
                spans.setdefault(e["name"], []).append((e["start_offset"], e["end_offset"], ptype, known))
        for name in sorted(spans):
            path = f"{d}/{name}"
            if path in CP_SKIP_FILES:
                continue
            raw = repo.raw(path)
            text = raw.decode("utf-8", "replace")
            lines = text.split("\n")
            labelled = []  # (first line, last line, secrets, type, known)
            for s, e, ptype, known in sorted(set(spans[name])):
                span = raw[s:e].decode("utf-8", "replace")
                found = key_body(span) if ptype in CP_KEY_TYPES else [span]
                a = line_of(raw.decode("latin-1"), s)
                b = line_of(raw.decode("latin-1"), e)
                labelled.append((a, b, found, ptype, known))
            whole = len(lines) <= WHOLE_FILE_LINES or any(x[3] in CP_KEY_TYPES for x in labelled)
            windows = []  # [first line, last line, [(secrets, type, known)]], overlapping ones joined
            for a, b, found, ptype, known in sorted(labelled, key=lambda x: x[:2]):
                lo, hi = (0, len(lines) - 1) if whole else (max(0, a - 3), min(len(lines) - 1, b + 1))
                if windows and lo <= windows[-1][1]:
                    windows[-1][1] = max(windows[-1][1], hi)
                    windows[-1][2].append((found, ptype, known))
                else:
                    windows.append([lo, hi, [(found, ptype, known)]])
            taken = 0
            for lo, hi, items in windows:
                wtext = "\n".join(lines[lo:hi + 1]).strip("\n")
                counts = {}
                for found, _, _ in items:
                    for f in set(found):
                        counts[f] = counts.get(f, 0) + 1
                secrets = keep(wtext, [f for found, _, _ in items for f in found], counts)
                if not secrets:
                    continue
                types = sorted({t for _, t, _ in items})
                cls = "known-format" if any(k for _, _, k in items) else "keyword-context"
                sources3.example(out, src, f"{src}:{path}:{lo + 1}-{hi + 1}", cls,
                                 " ".join(types) + f" ({name})", wtext, secrets)
                taken += 1
            if taken:
                used = True
                sources3.record(src, repo, path, "sample file: expected spans of patterns.yml (labels)")
        # files and sections named as negatives
        for path in sorted(p for p in files if os.path.dirname(p) == d):
            name = os.path.basename(path)
            if path in CP_SKIP_FILES or name == "patterns.yml":
                continue
            named = name.startswith(("not_", "wrong_"))
            if not named and name not in spans:
                continue
            text = repo.show(path)
            lines = text.split("\n")
            inside = named
            comment, group, groups = [], [], []
            for i, ln in enumerate(lines + [""]):
                s = ln.strip()
                if FALSE_POSITIVES.match(s):
                    inside = True
                    comment, group = [], []
                    continue
                if not inside:
                    continue
                if s.startswith("#"):
                    if group:
                        groups.append((comment, group))
                        comment, group = [], []
                    if not s.strip("#= "):
                        continue
                    comment.append(ln)
                elif not s:
                    if group:
                        groups.append((comment, group))
                    comment, group = [], []
                else:
                    group.append((i, ln))
            taken = 0
            for comment, group in groups:
                ntext = "\n".join(comment + [ln for _, ln in group])
                sources3.example(out, src, f"{src}:{path}:neg:{group[0][0] + 1}", "format-negative",
                                 f"negative ({name})", ntext, [])
                taken += 1
            if taken:
                sources3.record(src, repo, path, "lines named as negatives (not_*, wrong_*, # False Positives)")
        if used:
            sources3.record(src, repo, pf, "pattern expressions, expected spans and test data (labels)")


# ---- IBM/detect-secrets ----

TABLE_NAMES = {("token", "payload", "should_flag"), ("payload", "should_flag"), ("line", "should_flag"),
               ("file_content", "should_flag")}
# what each plugin's expression captures (the secret), for the tables without a token column
IBM_SECRET = {
    "softlayer": re.compile(r"(?i)(?<![a-z0-9])[a-z0-9]{64}(?![a-z0-9])"),
    "cloudant": re.compile(r"(?<![0-9a-f])[0-9a-f]{64}(?![0-9a-f])|(?<![A-Za-z0-9_])[a-z]{24}(?![A-Za-z0-9_])"),
    "ibm_cloud_iam": re.compile(r"(?<![a-zA-Z0-9_\-])[a-zA-Z0-9_\-]{44}(?![a-zA-Z0-9_\-])"),
    "ibm_cos_hmac": re.compile(r"(?<![a-f0-9])[a-f0-9]{48}(?![a-zA-Z0-9])"),
    "box": re.compile(r"(?<![a-zA-Z0-9])[a-zA-Z0-9]{32}(?![a-zA-Z0-9])"),
    "gh_enterprise": re.compile(r"(?<![0-9a-f])[0-9a-f]{40}(?![0-9a-zA-Z_])|gh[pousr]_[A-Za-z0-9_]{36}|"
                                r"(?<![A-Za-z0-9+/])[A-Za-z0-9+/]{55}=(?![A-Za-z0-9+/=])"),
    "artifactory": re.compile(r"(?:_auth|_password)\s*=\s*(\S+)"),
}
SIGNATURE = re.compile(r"^(?:gh[pousr]_|eyJ|AKC|AP[0-9A-F]|npm_|xox[a-z]-|SG\.)")


def test_tables(code, path):
    """(names, cases) of each parametrize table of the given shapes, the module's constants
    evaluated (string formatting and concatenation of literals)."""
    tree = ast.parse(code)
    ns = {"textwrap": __import__("textwrap")}
    for node in tree.body:
        if isinstance(node, ast.Assign):
            try:
                exec(compile(ast.Module(body=[node], type_ignores=[]), path, "exec"), ns)
            except Exception:
                pass
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Call) and getattr(node.func, "attr", "") == "parametrize" and len(node.args) >= 2):
            continue
        names = build.literal(node.args[0])
        if not isinstance(names, str):
            continue
        names = tuple(n.strip() for n in names.split(","))
        if names not in TABLE_NAMES:
            continue
        try:
            values = eval(compile(ast.Expression(node.args[1]), path, "eval"), dict(ns))
        except Exception:
            continue
        cases = []
        for v in values:
            v = v if isinstance(v, tuple) else (v,)
            if len(v) == len(names) and isinstance(v[-1], bool) and all(isinstance(x, str) for x in v[:-1]):
                cases.append(dict(zip(names, v)))
        yield names, cases


def payload_of(case):
    return case.get("payload", case.get("line", case.get("file_content")))


def ibm_detect_secrets(repo, yelp, out):
    src = "ibm-detect-secrets"
    for path in repo.ls("tests/plugins/"):
        if not path.endswith("_test.py") or "/common/" in path:
            continue
        plugin = os.path.basename(path).removesuffix("_test.py")
        tables = list(test_tables(repo.show(path), path))
        cases = [c for _, cs in tables for c in cs]
        if not cases:
            continue
        try:
            theirs = {payload_of(c) for _, cs in test_tables(yelp.show(path), path) for c in cs}
        except Exception:
            theirs = set()
        # the cases of this fork's own (a placeholder payload adds nothing)
        own = [c for c in cases if payload_of(c) not in theirs and not build.is_placeholder(payload_of(c))]
        if not own:
            print(f"{src}: {plugin}: the same tests as Yelp's, left out", file=sys.stderr)
            continue
        taken = 0
        for c in cases:
            text = payload_of(c)
            if not text.strip():
                continue
            ident = f"{src}:{path}:{text}"
            if c["should_flag"]:
                if c.get("token"):
                    found = [c["token"]]
                elif plugin in IBM_SECRET:
                    rx = IBM_SECRET[plugin]
                    found = [m.group(m.lastindex or 0) for m in rx.finditer(text)]
                else:
                    continue
                if len(set(found)) != 1 or found[0] not in text:
                    continue
                secrets = keep(text, found)
                if not secrets:
                    continue
                cls = "known-format" if SIGNATURE.match(secrets[0]) else "keyword-context"
                sources3.example(out, src, ident, cls, plugin, text, secrets)
            else:
                sources3.example(out, src, ident, "format-negative", plugin, text, [])
            taken += 1
        if taken:
            sources3.record(src, repo, path, "parametrized (token, payload, should_flag) cases")


def add(mirror):
    """Replaces this build's examples in secrets.jsonl and its files in manifest.json."""
    repos = {k: build.Repo(mirror, v[0]) for k, v in SOURCES.items()}
    yelp = build.Repo(mirror, YELP)
    collect = {
        "secret-detector": lambda new: secret_detector(repos["secret-detector"], new),
        "custom-patterns": lambda new: custom_patterns(repos["custom-patterns"], new),
        "ibm-detect-secrets": lambda new: ibm_detect_secrets(repos["ibm-detect-secrets"], yelp, new),
    }
    for src, (name, licence) in SOURCES.items():
        repo = repos[src]
        sources3.add_build(src, name, licence, collect[src], f"{src}.txt", lambda: repo.raw("LICENSE"))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--mirror", required=True)
    add(ap.parse_args().mirror)


if __name__ == "__main__":
    main()
