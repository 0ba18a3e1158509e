#!/usr/bin/env python3
"""Earlybird (a sixth corpus build): the credentials American Express's Earlybird scanner is
tested to flag, and the lines its false-positive filters are tested to drop, in config files,
code and headers.

    python3 testdata/eval/sources6.py --mirror <dir>

reads a bare clone of americanexpress/earlybird under `<dir>/americanexpress+earlybird/repo`
(the Go module proxy does not serve it), replaces this build's examples in secrets.jsonl and
its files in manifest.json, and writes licenses/earlybird.txt. Labels are Earlybird's own:

- a hit its false-positive test (`pkg/scan/falsePositives_test.go`) expects to be kept
  (`wantIsFP: false`), a line its line scan test (`pkg/scan/scan_test.go`) expects a hit on,
  a finding its severity tests score, a line its same-key-and-value filter expects to keep
  (`pkg/postprocess/skipSameKeyValue_test.go`), a header its Basic-credentials check calls
  a secret and a token its JWT check calls one (`pkg/postprocess/*_test.go`) is an example;
  so is the stated `Example` of each of its credential rules (`config/rules/`, categories
  `password-secret` and `key`). The secret is the value the rule matches: the text of an
  XML element, the base64 after `Basic`, a URL's password, else what follows the match's
  last `:`/`=` outside quotes, unquoted (a bare token when there is none). A match that
  stops at a declaration's type (`let password: String! = "…"`) gives no value: left out. The rule is the hit's `Code`,
  or for a line scan the first credential rule that matches.
- a secret with a literal signature of a token format (`eyJ`, `AIza`, `ya29.`, `xox`,
  `AKIA`, a private key's armour) is `known-format`; one found by the name, header or key
  around it (passwords, secrets, client secrets, auth keys, credentials, account tokens,
  Basic credentials) is `keyword-context`.
- a hit its false-positive test expects to be dropped (`wantIsFP: true`), a line its scan
  test expects no hit on, a line its same-key filter drops, a header or token its checks
  reject, is a format negative.
Left out: the default-password rules (a dictionary word flagged wherever it stands, with
no credential around it), the bare high-entropy-string rule, the private key rules (their
examples and tests hold the armour line only), the values Earlybird's password checks test
without the line around them (`validatePassword_test.go`), and hits of rules that are not
about credentials (inclusivity words, personal data, infrastructure).
"""
import argparse
import re

import yaml

import build
import sources3
import sources5

SOURCE = "earlybird"
REPO = "americanexpress/earlybird"
LICENCE = "Apache-2.0"
RULE_FILES = ["config/rules/password-secret.yaml", "config/rules/content.yaml"]
CREDENTIAL_CATEGORIES = {"password-secret", "key"}
# Rules flagging a dictionary word or a high-entropy string wherever it stands (no
# credential name, header or key around it), and the private key rules (armour only).
LEFT_OUT_CAPTION = re.compile(r"(?i)default password|high entropy|private key")

SIGNATURE = re.compile(r"^eyJ|^AIza|^ya29\.|^xox[a-z]-|^AKIA|-----BEGIN")

XML_TEXT = re.compile(r">([^<>]+)</")
BASIC = re.compile(r"\bBasic[ \t]*([A-Za-z0-9+=/]{5,})")
URL_PASSWORD = re.compile(r"[a-zA-Z][a-zA-Z0-9+.-]{2,9}://[^/\s:@]*:([^/\s:@]+)@")
SEPARATOR = re.compile(r"[:=]")
TYPED_DEFAULT = re.compile(r"""^\s*=\s*(["'])([^"'\n]+)\1""")
# A fallback value (a line the hit's rule does not match itself): one token.
ONE_TOKEN = re.compile(r"^[^\s\"'{}\[\]()]+$")
# A line that is a call with the credential word inside its string argument (a log
# message) names no value: its secret cannot be told.
CALL_LINE = re.compile(r"^[\w.]+\(")


def unquote(v):
    return sources3.unquote(v, ",;")  # a statement's semicolon too


def value_of(line, m):
    """The secret in a rule's match m on line (see the module's comment)."""
    match = m.group(0)
    for rx in (XML_TEXT, BASIC, URL_PASSWORD):
        found = rx.search(match)
        if found:
            return found.group(1).strip()
    # the last `:`/`=` of the match outside quotes, then the value: a quoted literal to its
    # closing quote (on the line), else the rest of the match
    sep, quote = None, None
    for k, c in enumerate(match):
        if quote:
            quote = None if c == quote else quote
        elif c in "\"'":
            quote = c
        elif c in ":=":
            sep = k
    # a match that stops at a declaration's type (let password: String! = "…") gives the
    # type, no value: left out (its literal is another row's secret, and joined to that
    # row's event the line would change the half it was measured in)
    if sep is not None and TYPED_DEFAULT.match(line[m.end():]):
        return None
    if sep is None:
        return unquote(match) if SIGNATURE.search(match) else None
    start = m.start() + sep + 1
    rest = line[start:].lstrip()
    if rest[:1] in ("'", '"'):
        end = rest.find(rest[0], 1)
        if end > 0:
            return rest[1:end]
    return unquote(match[sep + 1:])


def load_rules(repo):
    """Earlybird's credential rules by code, in file order: (code, caption, compiled)."""
    rules = []
    for path in RULE_FILES:
        doc = yaml.safe_load(repo.show(path))
        for r in doc["rules"]:
            if "Code" not in r or r.get("Category") not in CREDENTIAL_CATEGORIES:
                continue
            try:
                rx = re.compile(r["Pattern"])
            except re.error:
                continue
            rules.append((r["Code"], r.get("Caption", ""), rx, r.get("Example"), path))
    return rules


def rule_secret(rx, line):
    """The secret the rule's rightmost match on line gives, or None."""
    found = None
    for m in rx.finditer(line):
        found = value_of(line, m)
    return found or None


def fields(toks, out=None):
    """The keyed fields of a composite literal and of those nested in it (name → value of a
    string or bool literal), and its positional literals, in order."""
    if out is None:
        out = ({}, [])
    for part in sources5.split_top(toks):
        if len(part) > 2 and part[0][0] == "ident" and part[1][1] == ":":
            name, rest = part[0][1], part[2:]
            brace = next((k for k, t in enumerate(rest) if t == ("op", "{")), None)
            if brace is not None and sources5.matching(rest, brace) == len(rest) - 1:
                fields(rest[brace + 1:-1], out)
            elif len(rest) == 1 and rest[0][0] in ("str", "raw"):
                out[0][name] = sources5.go_string(rest[0][1])
            elif len(rest) == 1 and rest[0][1] in ("true", "false"):
                out[0][name] = rest[0][1] == "true"
            elif len(rest) == 1 and rest[0][0] == "num":
                out[0][name] = rest[0][1]
        elif len(part) == 1 and part[0][0] in ("str", "raw"):
            out[1].append(sources5.go_string(part[0][1]))
        elif len(part) == 1 and part[0][1] in ("true", "false"):
            out[1].append(part[0][1] == "true")
    return out


def table_rows(src, func):
    """The rows of the test table of the Go test function (or table variable) func:
    (keyed, positional)."""
    toks = sources5.tokens(src)
    start = next(i for i, t in enumerate(toks) if t == ("ident", func) and toks[i - 1] in (("ident", "func"), ("ident", "var")))
    # the table is the first composite literal `[]struct {…}{…}` after it
    i = start
    while True:
        i = next(k for k in range(i + 1, len(toks)) if toks[k] == ("ident", "struct") and toks[k - 1] == ("op", "]"))
        i = sources5.matching(toks, i + 1) + 1
        if toks[i] == ("op", "{"):
            break
    end = sources5.matching(toks, i)
    rows = []
    k = i + 1
    while k < end:
        if toks[k] == ("op", "{"):
            j = sources5.matching(toks, k)
            rows.append(fields(toks[k + 1:j]))
            k = j + 1
        else:
            k += 1
    return rows


def first_rule(rules, line):
    """(code, secret) of the first credential rule matching line, or (None, None)."""
    for code, caption, rx, _, _ in rules:
        if LEFT_OUT_CAPTION.search(caption):
            continue
        s = rule_secret(rx, line)
        if s:
            return code, s
    return None, None


def positive(out, ident, label, text, secret):
    if not secret or build.is_placeholder(secret) or len(secret) < 4:
        return False
    cls = "known-format" if SIGNATURE.search(secret) else "keyword-context"
    sources3.example(out, SOURCE, ident, cls, label, text, [secret])
    return True


def negative(out, ident, label, text):
    if len(text) < 8:
        return False
    sources3.example(out, SOURCE, ident, "format-negative", label, text, [])
    return True


def earlybird(repo, out):
    rules = load_rules(repo)
    by_code = {r[0]: r for r in rules}
    taken = set()

    # the credential rules' stated examples
    for code, caption, rx, ex, path in rules:
        if not isinstance(ex, str) or LEFT_OUT_CAPTION.search(caption):
            continue
        if positive(out, f"earlybird:{path}:{code}", f"rule {code}", ex.strip(), rule_secret(rx, ex)):
            taken.add((path, "rules' Example fields (labels: the values their patterns match)"))

    # the false-positive filter's tests
    path = "pkg/scan/falsePositives_test.go"
    src = repo.show(path)
    for func in ("Test_findFalsePositive",):
        for k, (kv, _) in enumerate(table_rows(src, func)):
            code = int(kv.get("Code", "0"))
            text = (kv.get("MatchValue") or kv.get("LineValue") or "").strip()
            if code not in by_code or not text:
                continue  # not a credential rule (inclusivity words, personal data)
            if LEFT_OUT_CAPTION.search(by_code[code][1]):
                continue
            ident = f"earlybird:{path}:{func}:{k}"
            if kv.get("wantIsFP") is False:
                if CALL_LINE.match(text):
                    continue
                s = rule_secret(by_code[code][2], text)
                if s is None:
                    m = SEPARATOR.search(text)
                    s = unquote(text[m.end():]) if m else None
                    s = s if s and ONE_TOKEN.match(s) else None
                ok = positive(out, ident, f"rule {code}", text, s)
            else:
                ok = negative(out, ident, "false positive dropped", text)
            if ok:
                taken.add((path, "hits and whether its filters keep them (labels and negatives)"))

    # the line scan and severity tests
    path = "pkg/scan/scan_test.go"
    src = repo.show(path)
    for k, (kv, _) in enumerate(table_rows(src, "Test_scanLine")):
        text = (kv.get("LineValue") or "").strip()
        ident = f"earlybird:{path}:Test_scanLine:{k}"
        if kv.get("wantIsHit") is True:
            code, s = first_rule(rules, text)
            ok = positive(out, ident, f"rule {code}", text, s)
        else:
            ok = negative(out, ident, "no hit expected", text)
        if ok:
            taken.add((path, "lines scanned and the hits expected (labels and negatives)"))
    toks = sources5.tokens(src)
    scan_line = next(i for i, t in enumerate(toks) if t == ("ident", "Test_scanLine"))
    scan_line = (scan_line, sources5.matching(toks, next(i for i in range(scan_line + 3, len(toks)) if toks[i] == ("op", "{") and toks[i - 1] == ("op", ")"))))
    for k, t in enumerate(toks):
        # `Hit{Code: …, MatchValue: …}` literals of the severity and uniqueness tests, and the
        # line ScanFiles must report code 3001 on (the line scan's rows are read above)
        if t in (("ident", "MatchValue"), ("ident", "LineValue")) and not scan_line[0] <= k <= scan_line[1]:
            if toks[k + 1] != ("op", ":") or toks[k + 2][0] not in ("str", "raw"):
                continue
            text = sources5.go_string(toks[k + 2][1]).strip()
            code, s = first_rule(rules, text)
            if positive(out, f"earlybird:{path}:literal{k}", f"rule {code}", text, s):
                taken.add((path, "lines scanned and the hits expected (labels and negatives)"))

    # the same-key-and-value filter, the Basic credentials and JWT checks
    path = "pkg/postprocess/skipSameKeyValue_test.go"
    for k, (kv, _) in enumerate(table_rows(repo.show(path), "testsSkipSameKeyValuePasswords")):
        text = (kv.get("lineValue") or "").strip()
        ident = f"earlybird:{path}:{k}"
        if kv.get("wantIgnore") is False:
            m = SEPARATOR.search(text)
            ok = positive(out, ident, "same key and value kept", text, unquote(text[m.end():]) if m else None)
        else:
            ok = negative(out, ident, "same key and value dropped", text)
        if ok:
            taken.add((path, "lines the filter keeps (labels) and drops (negatives)"))
    for path, func, label in (("pkg/postprocess/basicAuthHeader_test.go", "TestIsBasicAuthHeader", "Basic credentials"),
                              ("pkg/postprocess/jwt_test.go", "TestProcessJWT", "JWT")):
        for k, (_, pos) in enumerate(table_rows(repo.show(path), func)):
            if len(pos) != 3 or not isinstance(pos[2], bool):
                continue
            text = pos[1].strip()
            ident = f"earlybird:{path}:{k}"
            if pos[2]:
                m = BASIC.search(text)
                ok = positive(out, ident, label, text, m.group(1) if m else text)
            else:
                ok = negative(out, ident, label + " rejected", text)
            if ok:
                taken.add((path, "values the check calls secrets (labels) and rejects (negatives)"))
    # a text one row keeps and another drops (the rows differ by file name, which an event
    # does not carry) cannot be labelled: left out
    kept = {e["text"] for e in out if e["secrets"]}
    both = kept & {e["text"] for e in out if not e["secrets"]}
    out[:] = [e for e in out if e["text"] not in both]
    for path, what in sorted(taken):
        sources3.record(SOURCE, repo, path, what)


def add(mirror):
    """Replaces this build's examples in secrets.jsonl and its files in manifest.json."""
    repo = build.Repo(mirror, REPO)
    sources3.add_build(SOURCE, REPO, LICENCE, lambda new: earlybird(repo, new), "earlybird.txt",
                       lambda: repo.raw("LICENSE.txt"))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--mirror", required=True)
    add(ap.parse_args().mirror)


if __name__ == "__main__":
    main()
