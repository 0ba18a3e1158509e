#!/usr/bin/env python3
"""OSV-SCALIBR's secret detectors (a fifth corpus build): the tests of the `veles` secret
scanner of google/osv-scalibr (veles/secrets/<detector>/*_test.go), one table row of a
detector's test an example.

    python3 testdata/eval/sources5.py --zip osv-scalibr-v0.5.3.zip

reads the Go module zip the module proxy serves
(https://proxy.golang.org/github.com/google/osv-scalibr/@v/v0.5.3.zip; the tests are Go
source, read here with a small reader of Go's string expressions), replaces this build's
examples in secrets.jsonl and its files in manifest.json, and writes licenses/osv-scalibr.txt.
Labels are the tests' own:

- a test row (`input:` with `want:`/`expected:`) whose expected secrets are not empty is an
  example: the input is the event, the secrets the string fields of the secrets it expects
  (keys, tokens, passwords, client secrets, private keys); identifiers (ids, access ids,
  client ids, user names, URLs, project refs, e-mail addresses) are left out. A password the
  detector decoded (HTTP Basic credentials) is labelled by the base64 that carries it; a
  Tink keyset by the key material in it (each keyData's "value", public keys left out).
  `velestest.AcceptDetector(t, detector, example, secret)` gives one more example.
- a secret with a literal signature of its detector's token format (`sk-ant-`, `ghp_`,
  `GOCSPX-`, a private key's armour, a JWT's `eyJ`, …) is `known-format`; one found by the
  name or context around a value without one (AWS and GCS HMAC secrets, Azure storage keys,
  Basic and Bearer credentials, cookies, CSRF tokens, Vault AppRole secret ids, a URL's
  password, client secrets and refresh tokens after their names) is `keyword-context`.
- a row whose expected secrets are empty (`want: nil`) is a format negative.
Rows whose input or expectation is computed by code this reader does not evaluate (a loop, a
helper, a file read) are left out.
"""
import argparse
import base64
import os
import re
import zipfile

import build
import sources3

SOURCE = "osv-scalibr"
REPO = "google/osv-scalibr"
VERSION = "v0.5.3"
LICENCE = "Apache-2.0"
ROOT = f"github.com/google/osv-scalibr@{VERSION}/"
SECRETS = "veles/secrets/"

# Literal signatures of the detectors' token formats (their regular expressions' fixed
# parts): a secret holding one is `known-format`.
SIGNATURE = re.compile(
    r"sk-ant-|^(?:AKIA|ASIA)|^CCIP(?:AT|RJ)_|^cio|^key_|^dd[po]_|^dop_v1_|^mfa\.|^dckr_pat_|^essu_|"
    r"^AIzaSy|^AQ\.Ab8R|^ya29\.|GOCSPX-|^GOOG|^gh[psuor]_|^Z2[hl]|^github_pat_|^glpat-|^xai-|"
    r"^hv[sb]\.|^HRKU-|^hf_|^npm_|^A3-|^ops_eyJ|^1PRK|^sk-(?:proj-|svcacct-|admin-|None-|or-v|pyx-)|"
    r"T3BlbkFJ|^packagist_|^sk_(?:live|test)_|^pplx-|^PMA[KT]-|-----BEGIN|^pypi-|"
    r"^rubygems_|^00D[0-9A-Za-z]{8,15}!|^SG\.|^xapp-|^xoxe|^EAAA|^sq0csp-|^[sr]k_live_|^whsec_|"
    r"^sbp_|^sb_secret_|^eyJ|primaryKeyId|type\.googleapis\.com|dHlwZS5nb29nbGVhcGlz|\"private_key\"")
# Detectors whose secret is told by a structure with a literal signature around it (a Tink
# keyset's type URLs), not by the value itself: `known-format`.
STRUCTURED = {"tinkkeyset"}
# Fields of the expected secrets that hold identifiers, not secrets.
NOT_SECRET_FIELD = re.compile(r"(?i)^(?:.*id|username|user|url|uri|projectref|serviceaccount|email|"
                              r"instanceurl|host|name|type|issuer|audience|subject|domain|region|"
                              r"expir.*|scopes?|prefix|kind|version|account|public.*)$")

URL_USERINFO = re.compile(r"^[a-zA-Z][a-zA-Z0-9+.-]*://[^/@:\s]*:([^/@\s]*)@")

# A Tink keyset (JSON): each key's material is the "value" of its keyData, a secret unless
# the material is a public key or a reference to a key held elsewhere.
TINK_KEY_DATA = re.compile(r'"keyData"\s*:\s*\{([^{}]*)\}')
TINK_VALUE = re.compile(r'"value"\s*:\s*"([^"]+)"')
TINK_PUBLIC = re.compile(r'"keyMaterialType"\s*:\s*"(?:ASYMMETRIC_PUBLIC|REMOTE)"')

# ---- a reader of Go's string expressions ----

TOKEN = re.compile(r"""
    (?P<ws>[ \t\r]+) | (?P<nl>\n) | (?P<comment>//[^\n]*|/\*.*?\*/) |
    (?P<raw>`[^`]*`) | (?P<str>"(?:[^"\\\n]|\\.)*") | (?P<rune>'(?:[^'\\\n]|\\.)+') |
    (?P<ident>[A-Za-z_][A-Za-z0-9_]*) | (?P<num>[0-9][0-9a-fA-FxX._]*) |
    (?P<op>:=|\.\.\.|&&|\|\||==|!=|<=|>=|\+\+|--|<-|[-+*/%&|^<>=!(){}\[\],;:.~]) | (?P<other>.)
""", re.S | re.X)
ENDS_STATEMENT = {"ident", "raw", "str", "rune", "num"}


def tokens(src):
    """Go tokens as (kind, text), with the semicolons Go inserts at line ends."""
    out = []
    for m in TOKEN.finditer(src):
        kind, text = m.lastgroup, m.group()
        if kind in ("ws",):
            continue
        if kind == "comment":
            if "\n" in text:
                kind = "nl"
            else:
                continue
        if kind == "nl":
            if out and (out[-1][0] in ENDS_STATEMENT or out[-1][1] in (")", "]", "}", "++", "--")):
                out.append(("op", ";"))
            continue
        out.append((kind, text))
    return out


ESCAPES = {"a": "\a", "b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t", "v": "\v", "\\": "\\",
           "'": "'", '"': '"'}


def go_string(text):
    """The value of a Go string literal."""
    if text[0] == "`":
        return text[1:-1].replace("\r", "")
    body, out, i = text[1:-1], [], 0
    raw = bytearray()
    while i < len(body):
        c = body[i]
        if c != "\\":
            raw += c.encode()
            i += 1
            continue
        e = body[i + 1]
        if e in ESCAPES:
            raw += ESCAPES[e].encode()
            i += 2
        elif e == "x":
            raw.append(int(body[i + 2:i + 4], 16))
            i += 4
        elif e in "uU":
            n = 4 if e == "u" else 8
            raw += chr(int(body[i + 2:i + 2 + n], 16)).encode()
            i += 2 + n
        elif e in "01234567":
            raw.append(int(body[i + 1:i + 4], 8))
            i += 4
        else:
            raise ValueError(text)
    return raw.decode("utf-8", "replace")


def matching(toks, i):
    """The index of the bracket closing the one at toks[i]."""
    pairs = {"(": ")", "[": "]", "{": "}"}
    depth = 0
    for j in range(i, len(toks)):
        t = toks[j][1] if toks[j][0] == "op" else None
        if t in pairs:
            depth += 1
        elif t in (")", "]", "}"):
            depth -= 1
            if depth == 0:
                return j
    return len(toks) - 1


def split_top(toks, sep=","):
    """toks split at separators outside brackets."""
    parts, depth, cur = [], 0, []
    for t in toks:
        if t[0] == "op" and t[1] in "([{":
            depth += 1
        elif t[0] == "op" and t[1] in ")]}":
            depth -= 1
        if depth == 0 and t[0] == "op" and t[1] in (sep, ";"):
            if cur:
                parts.append(cur)
            cur = []
            continue
        cur.append(t)
    if cur:
        parts.append(cur)
    return parts


def definitions(toks):
    """name -> the token slices given to it (`name = …`, `name := …`, `const (name = …)`)."""
    defs = {}
    i = 0
    while i < len(toks) - 2:
        if toks[i][0] == "ident" and toks[i + 1][1] in ("=", ":=") and (i == 0 or toks[i - 1][1] in (";", "(", "{", "const", "var")):
            j, depth = i + 2, 0
            while j < len(toks):
                t = toks[j][1] if toks[j][0] == "op" else None
                if t in ("(", "[", "{"):
                    depth += 1
                elif t in (")", "]", "}"):
                    if depth == 0:
                        break
                    depth -= 1
                elif depth == 0 and t in (";", ","):
                    break
                j += 1
            defs.setdefault(toks[i][1], []).append(toks[i + 2:j])
            i = j
        else:
            i += 1
    return defs


class Unknown(Exception):
    pass


class Reader:
    """Evaluates Go string expressions of one package's test files: literals, `+`, names
    defined once, `strings.Repeat`, `strings.Join` of a literal slice, `fmt.Sprintf` with
    `%s`/`%d`/`%v`/`%q`, `string(…)`/`[]byte(…)` conversions."""

    def __init__(self, defs):
        self.defs = defs

    def lookup(self, name):
        found = self.defs.get(name, [])
        values = []
        for d in found:
            if d not in values:
                values.append(d)
        if len(values) != 1:
            raise Unknown(name)
        return values[0]

    def value(self, toks, depth=0):
        if depth > 20:
            raise Unknown("deep")
        terms = split_top(toks, "+")
        if len(terms) > 1:
            return "".join(self.value(t, depth + 1) for t in terms)
        t = toks
        if not t:
            raise Unknown("empty")
        if len(t) == 1:
            kind, text = t[0]
            if kind in ("str", "raw"):
                return go_string(text)
            if kind == "ident":
                return self.value(self.lookup(text), depth + 1)
            if kind == "num":
                return text
            raise Unknown(text)
        if t[0][1] == "(" and matching(t, 0) == len(t) - 1:
            return self.value(t[1:-1], depth + 1)
        # a slice of a string: s[a:b], the bounds numbers, len(…) and +/-.
        if t[0][0] == "ident" and t[1][1] == "[" and matching(t, 1) == len(t) - 1:
            base = self.value(t[:1], depth + 1)
            inner = t[2:-1]
            colon = [k for k, x in enumerate(inner) if x == ("op", ":")]
            if len(colon) != 1:
                raise Unknown("index")
            lo, hi = inner[:colon[0]], inner[colon[0] + 1:]
            return base[self.number(lo) if lo else 0:self.number(hi) if hi else len(base)]
        # pkg.Name: a name of the package under test.
        if len(t) == 3 and t[0][0] == "ident" and t[1][1] == "." and t[2][0] == "ident":
            return self.value(self.lookup(t[2][1]), depth + 1)
        # conversions and calls
        call = None
        for n in (1, 3):
            if len(t) > n and t[n][1] == "(" and matching(t, n) == len(t) - 1:
                call = ("".join(x[1] for x in t[:n]), split_top(t[n + 1:-1]))
        if t[0][1] == "[" and len(t) > 4 and t[1][1] == "]" and t[2][1] == "byte" and t[3][1] == "(":
            return self.value(t[4:-1], depth + 1)
        if not call:
            raise Unknown(" ".join(x[1] for x in t[:6]))
        fn, args = call
        if fn == "string":
            return self.value(args[0], depth + 1)
        if fn == "strings.Repeat":
            return self.value(args[0], depth + 1) * int(self.number(args[1]))
        if fn == "strings.ToUpper":
            return self.value(args[0], depth + 1).upper()
        if fn == "strings.ToLower":
            return self.value(args[0], depth + 1).lower()
        if fn == "strings.Join" and args[0][0][1] == "[":
            inner = args[0][args[0].index(("op", "{")) + 1:-1]
            return self.value(args[1], depth + 1).join(self.value(p, depth + 1) for p in split_top(inner))
        if fn == "fmt.Sprintf":
            fmt = self.value(args[0], depth + 1)
            vals = [a for a in args[1:]]
            out, k = [], 0

            def sub(m):
                nonlocal k
                if m.group() == "%%":
                    return "%"
                if k >= len(vals):
                    raise Unknown("sprintf")
                v = self.value(vals[k], depth + 1)
                k += 1
                return '"' + v + '"' if m.group(1) == "q" else v
            out = re.sub(r"%%|%[-+# 0-9.]*([sdvq])", sub, fmt)
            if "%" in re.sub(r"%%", "", fmt.replace("%s", "").replace("%d", "").replace("%v", "").replace("%q", "")):
                if re.search(r"%[-+# 0-9.]*[a-zA-Z]", re.sub(r"%[-+# 0-9.]*[sdvq]|%%", "", fmt)):
                    raise Unknown("verb")
            return out
        raise Unknown(fn)

    def number(self, toks):
        terms, sign, cur = [], 1, []
        for x in toks:
            if x[0] == "op" and x[1] in "+-" and cur and not any(y[1] == "(" for y in cur[-1:]):
                terms.append((sign, cur))
                sign, cur = (1 if x[1] == "+" else -1), []
            else:
                cur.append(x)
        if terms:
            terms.append((sign, cur))
            return sum(sg * self.number(c) for sg, c in terms)
        if len(toks) == 4 and toks[0][1] == "len" and toks[1][1] == "(":
            return len(self.value(toks[2:3]))
        if len(toks) == 1 and toks[0][0] == "num":
            return int(toks[0][1].replace("_", ""))
        if len(toks) == 1 and toks[0][0] == "ident":
            return self.number(self.lookup(toks[0][1]))
        raise Unknown("number")

    def secrets(self, toks, depth=0):
        """The (field, value) pairs of the composite literals in an expectation."""
        if depth > 10:
            raise Unknown("deep")
        out = []
        i = 0
        while i < len(toks):
            kind, text = toks[i]
            if kind == "op" and text == "{":
                j = matching(toks, i)
                inner = toks[i + 1:j]
                keyed = [p for p in split_top(inner) if len(p) > 2 and p[0][0] == "ident" and p[1][1] == ":"]
                if keyed:
                    for p in keyed:
                        field = p[0][1]
                        if field[0].isupper() and p[2][1] not in ("{", "[", "&"):
                            try:
                                out.append((field, self.value(p[2:])))
                            except Unknown:
                                if not NOT_SECRET_FIELD.match(field) and p[2][1] not in ("time", "true", "false"):
                                    raise
                        elif field[0].isupper():
                            out.extend(self.secrets(p[2:], depth + 1))
                    i = j + 1
                    continue
                out.extend(self.secrets(inner, depth + 1))
                i = j + 1
                continue
            if kind == "ident" and text in self.defs and (i + 1 >= len(toks) or toks[i + 1][1] in (",", "}")) \
                    and (i == 0 or toks[i - 1][1] in (",", "{")):
                out.extend(self.secrets(self.lookup(text), depth + 1))
            i += 1
        return out


INPUT_KEYS = ("input", "data", "in", "content", "text")
WANT_KEYS = ("want", "expected", "wantSecrets", "wantSecret", "want_secrets")


def rows(toks):
    """Every brace block with an input and an expectation as keyed fields: (input, want)."""
    for i, (kind, text) in enumerate(toks):
        if kind != "op" or text != "{":
            continue
        j = matching(toks, i)
        fields = {}
        for p in split_top(toks[i + 1:j]):
            if len(p) > 2 and p[0][0] == "ident" and p[1][1] == ":":
                fields[p[0][1]] = p[2:]
        inp = next((fields[k] for k in INPUT_KEYS if k in fields), None)
        want = next((fields[k] for k in WANT_KEYS if k in fields), None)
        if inp is not None and want is not None:
            yield inp, want


def accept_calls(toks):
    """velestest.AcceptDetector(t, detector, example, secret) calls: (example, secret)."""
    for i in range(len(toks) - 3):
        if toks[i][1] == "velestest" and toks[i + 2][1] == "AcceptDetector" and toks[i + 3][1] == "(":
            args = split_top(toks[i + 4:matching(toks, i + 3)])
            if len(args) >= 4:
                yield args[2], args[3]


def label_of(text, pairs):
    """The secrets of an expectation as they appear in the input (a Basic password by the
    base64 that carries it), identifiers left out."""
    out = []
    users = [v for f, v in pairs if f.lower() in ("username", "user")]
    for field, v in pairs:
        if NOT_SECRET_FIELD.match(field) or not v:
            continue
        if '"keyData"' in v:  # a Tink keyset: the key material of its private and symmetric keys
            for data in TINK_KEY_DATA.findall(v):
                m = TINK_VALUE.search(data)
                if m and not TINK_PUBLIC.search(data) and m.group(1) in text:
                    out.append(m.group(1))
            continue
        url = URL_USERINFO.match(v)
        if url:  # a URL's password is the secret, the rest of it an address
            if url.group(1) and url.group(1) in text:
                out.append(url.group(1))
            continue
        if v in text:
            out.append(v)
            continue
        for u in users or [""]:
            b = base64.b64encode(f"{u}:{v}".encode()).decode()
            for cand in (b, b.rstrip("=")):
                if cand in text:
                    out.append(cand)
                    break
    return out


def scalibr(zf, out):
    names = sorted(n for n in zf.namelist() if n.startswith(ROOT + SECRETS) and n.endswith("_test.go"))
    by_pkg = {}
    for n in names:
        rel = n[len(ROOT):]
        pkg = os.path.dirname(rel[len(SECRETS):])
        if pkg.split("/")[0] == "common" or "validator" in os.path.basename(rel):
            continue
        by_pkg.setdefault(pkg, []).append(n)
    for pkg in sorted(by_pkg):
        files = by_pkg[pkg]
        # The names a test refers to: its own package's test files and the package's code.
        pkg_dir = os.path.dirname(files[0]) + "/"
        srcs = {n: zf.read(n).decode("utf-8", "replace") for n in zf.namelist()
                if n.startswith(pkg_dir) and n.endswith(".go") and "/" not in n[len(pkg_dir):]}
        defs = {}
        for n, s in srcs.items():
            for k, v in definitions(tokens(s)).items():
                defs.setdefault(k, []).extend(v)
        for n in files:
            rel = n[len(ROOT):]
            toks = tokens(srcs[n])
            reader = Reader(defs)
            taken = 0
            found = [("row", a, b) for a, b in rows(toks)] + [("acceptance", a, b) for a, b in accept_calls(toks)]
            for k, (what, inp, want) in enumerate(found):
                try:
                    text = reader.value(inp)
                    negative = len(want) == 1 and want[0][1] == "nil" or \
                        len(want) >= 2 and want[-2][1] == "{" and want[-1][1] == "}" and not any(
                            t[1] == "{" for t in want[:-2])
                    pairs = [] if negative else reader.secrets(want)
                except (Unknown, ValueError, IndexError):
                    continue
                if not text.strip() or len(text) > 20000:
                    continue
                ident = f"osv-scalibr:{rel}:{what}{k}"
                if negative:
                    if len(text.strip()) >= 8:
                        sources3.example(out, SOURCE, ident, "format-negative", "negative test", text, [])
                        taken += 1
                    continue
                secrets = [s for s in label_of(text, pairs) if not build.is_placeholder(s) and len(s) >= 4]
                if not secrets:
                    continue
                cls = "known-format" if pkg in STRUCTURED or any(SIGNATURE.search(s) for s in secrets) else "keyword-context"
                sources3.example(out, SOURCE, ident, cls, pkg, text, secrets)
                taken += 1
            if taken:
                sources3.record(SOURCE, Module, rel, "test rows' inputs and expected secrets (labels)")


class Module:
    name = REPO
    commit = VERSION + " (Go module github.com/google/osv-scalibr)"


def add(path):
    """Replaces this build's examples in secrets.jsonl and its files in manifest.json."""
    zf = zipfile.ZipFile(path)
    sources3.add_build(SOURCE, REPO, LICENCE, lambda new: scalibr(zf, new), "osv-scalibr.txt",
                       lambda: zf.read(ROOT + "LICENSE"))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--zip", required=True)
    add(ap.parse_args().zip)


if __name__ == "__main__":
    main()
