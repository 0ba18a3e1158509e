#!/usr/bin/env python3
"""DeepSecrets, dd-trace-go's query string obfuscator and GitLab Runner's URL sanitizer (a
sixteenth corpus build): the inputs three more tools test their credential finders and log
scrubbers with, labelled by what each test expects found or replaced.

    python3 testdata/eval/sources16.py --mirror <dir> --zip dd-trace-go-v2.12.0.zip

reads bare clones under `<dir>/avito-tech+deepsecrets/repo` and
`<dir>/gitlabhq+gitlab-runner/repo` at the commits named below and the Go module zip the
module proxy serves for dd-trace-go
(https://proxy.golang.org/github.com/!data!dog/dd-trace-go/v2/@v/v2.12.0.zip; the zip holds
the repository's LICENSE), replaces this build's examples in secrets.jsonl and its files in
manifest.json, and writes each licence to licenses/<source>.txt.

- deepsecrets: its engine tests scan fixture files and assert how many findings each engine
  makes and by which rule. The regex engine's test (`test_regex.py`) runs the tool's own rules
  (`deepsecrets/rules/regexes.json`): the secret is what a rule's expression reports (its
  target group, its match rules and entropy floor applied, with Python's `regex` module
  case-insensitively, as the tool compiles them; a private key rule's block gives its body
  lines of sixteen characters or more), and the test's counts per rule are checked against
  what the expressions find. `regex_checks.txt` is one example per `# S<n>` section (the rule
  it holds); the LDAP file of `test_extless` is the finding's line with up to three lines
  before and one after. The hashed-secret test names the SHA-1 of the value it expects found
  (`tests/fixtures/hashed_secrets.json`): the string literal of `1.py` with that hash, its
  line with up to three before and one after. The semantic engine's tests assert which
  variable's value it reports (`tokens[3].semantic.name == 'pass'`) or only how many and by
  which rule (`Var naming`, `Entropy+Var naming`, `Dangerous condition`); their values, read
  by the engine's rules (a variable whose name holds `pass`, `secret`, `token`, `key`… and
  whose value is one word), are written in LABELS below with the reason for each. A fixture
  a test expects nothing in is a format negative.
- dd-trace-go: Datadog's Go tracer obfuscates the query strings it records
  (`instrumentation/httptrace/httptrace_test.go`): tables of an input and the text the default
  obfuscator must make of it, `<redacted>` in place of each match. The secret is the value
  inside the replaced span, as the obfuscator's expression reads it: the value after a
  sensitive key's `=`/`%3D` or JSON `":"`, the token after `bearer` or `token:`, a GitHub
  token or JWT whole, a private key's body lines of sixteen characters or more. SSH public
  keys, which the obfuscator also replaces, are left out (public keys are no secret here); an
  input the test expects unchanged is a format negative.
- gitlab-runner: the runner's job log masks sensitive URL parameters
  (`common/buildlogger/internal/urlsanitizer/urlsanitizer_test.go`, and the build logger's
  own test of a log line): the secret is the value the test expects replaced by `[MASKED]`;
  the `|` the tests cut an input's writes at is taken out. An input expected unchanged is a
  format negative. The token masker's tests are not taken: their values are lorem-ipsum
  fragments after a prefix (`glpat-imperdiet`, `glpat-t`), most of them prefixes the test
  itself configures (`tok-`, `mask1-`).

A secret with a literal signature of the expression that finds it (Slack's `xox?-`, a
private key's armour, `gh?_`, a JWT's `eyJ`) is `known-format`; one found by the name,
parameter, header or statement around it `keyword-context`. As every later build, a label
that is a placeholder, one of the sanitizer's placeholder words, shorter than four characters
or a short value that also stands unlabelled in its text is dropped (sources9.keep); an
example whose text or secret is already in the corpus or in gitleaks' rule examples is left
out, and examples sharing a secret are one event. Every example of a test function is in that
function's half: the record's `group`, `<source>:<test file>:<test function>`.
"""
import argparse
import ast
import hashlib
import json
import math
import re
import sys

import regex

import build
import sources12
import sources14
import sources15
import sources9

DEEPSECRETS = ("deepsecrets", "avito-tech/deepsecrets", "MIT", "4afd597d3997a2bdbac8059e405659715faa51d4")
DDTRACE_VERSION = "v2.12.0"
DDTRACE = ("dd-trace-go", "DataDog/dd-trace-go", "Apache-2.0 OR BSD-3-Clause",
           DDTRACE_VERSION + " (Go module github.com/DataDog/dd-trace-go/v2)")
RUNNER = ("gitlab-runner", "gitlabhq/gitlab-runner", "MIT", "d79f3e7b89abceace75e2425bfe92b84ea059933")

TAKEN = {}


def example(out, src, ident, group, cls, label, text, secrets, path):
    TAKEN.setdefault((src, text), set()).add(path)
    out.append({"id": ident, "source": src, "split": build.split_of(ident), "group": f"{src}:{group}", "class": cls,
                "label": label, "text": text, "secrets": sorted(set(secrets))})


def window(text, line, before=3, after=1):
    """The line (0-based) with up to `before` lines before it and `after` after it."""
    lines = text.splitlines()
    return "\n".join(lines[max(0, line - before):line + after + 1])


def line_of(text, needle):
    return text[:text.index(needle)].count("\n")


def key_body(block):
    """A private key block's body lines of sixteen characters or more."""
    body = re.sub(r"-----(?:BEGIN|END)[^-]*-----", "\n", block)
    return [l.strip() for l in body.splitlines() if len(l.strip()) >= 16]


# ---- deepsecrets ----

DS_RULES = "deepsecrets/rules/regexes.json"
DS_FIX = "tests/fixtures/"
DS_REGEX_TEST = "tests/core/engines/regex/test_regex.py"
DS_HASH_TEST = "tests/core/engines/hashed_secret/test_hs.py"
DS_SEMANTIC_TEST = "tests/core/engines/semantic/test_semantic.py"
# What test_regex.py's test_1 asserts of regex_checks.txt: the rule of each finding.
DS_REGEX_EXPECTED = ["S0", "S0", "S1", "S2", "S3", "S4", "S5", "S19", "S19"]
KEY_RULES = {"S1", "S2", "S3", "S4", "S5"}

# The semantic engine's tests (test_semantic.py), fixture -> (test, values, reason). The engine
# reports the value of a variable whose name matches its expression (`secret|passw|\bpass\b|
# \btoken\b|\baccess\b|\bpwd\b|rivateke|cesstoke|authkey|\bkey\b`, no `path`, `public`,
# `location`, `field` or `data` part) when the value is one word of two characters or more
# that is not a reference (`${`, `%…%`); above an entropy of 4.15 as `Entropy+Var naming`,
# else `Var naming`. A value of None is read from the fixture by the expression beside it.
DS_SEMANTIC = {
    # tokens[3] is the variable `pass`; one `Var naming` finding.
    "4.py": ("test_1_semantic_engine", ["TESTSECRET1234"], None),
    # tokens[0] and tokens[1] are `access_Token` and `accessToken` (one value, `Entropy+Var
    # naming` twice); the third finding, `Var naming`, is `authkey`'s `ggg` (three characters).
    "2.json": ("test_2_semantic_engine", ["ggg"], r'"accessToken":\s*"([^"]+)"'),
    # Two `Var naming` findings, tokens[50] being MATTERMOST_BOT_TOKEN: it and JIRA_PASSWORD
    # (SESSION_SECRET's value has blanks, the other names match nothing).
    "1.toml": ("test_3_semantic_engine", ["iufkdhsafhiuwehf8qw4oifjh9w4ioafja", "fjaipu4iwhpfgj8eosiruhjfkea,sjflksea"], None),
    # One `Var naming` finding among tokens 4, 10 and 12: STT_KEY's value (TTS_KEY holds the same;
    # KEYLOGGER_KEYS_KEYRING_SUBKEY is one character, SECRET_KEY_PATH has `path`).
    "2.toml": ("test_4_semantic_engine", [], r'STT_KEY = "([^"]+)"'),
    # One `Dangerous condition` finding: the shell rule `curl -u name:value` (a value not
    # starting with `$`), the first line's password.
    "2.sh": ("test_5_semantic_engine", ["password01"], None),
}
# Fixtures a test expects nothing in: (fixture, test file, test function).
DS_NEGATIVES = [("7.go", DS_REGEX_TEST, "test_go_7"), ("1.html", DS_SEMANTIC_TEST, "test_6_semantic_engine")]


def ds_entropy(s):
    return -sum(s.count(c) / len(s) * math.log2(s.count(c) / len(s)) for c in set(s)) if s else 0


def ds_matches(rule, content):
    """The matches of a deepsecrets regex rule: its target group's text (or the whole block
    for a key rule), after its match rules and entropy floor."""
    out = []
    for m in regex.finditer(rule["pattern"], content, regex.IGNORECASE):
        if any(not regex.search(r["pattern"], m.group(int(g)) or "", regex.IGNORECASE)
               for g, r in (rule.get("match_rules") or {}).items()):
            continue
        value = m.group(rule.get("target_group", 0))
        if rule.get("entropy_settings") is not None and ds_entropy(value) < rule["entropy_settings"]:
            continue
        out.append(value)
    return out


def deepsecrets(repo, out):
    src = DEEPSECRETS[0]
    rules = {r["id"]: r for r in json.loads(repo.show(DS_RULES))}
    # test_regex.py test_1: one example per section, the rule it holds.
    path = DS_FIX + "regex_checks.txt"
    found = []
    for section in re.split(r"\n\s*\n", repo.show(path).strip()):
        rid = section.splitlines()[0].lstrip("# ").strip()
        matches = ds_matches(rules[rid], section)
        found += [rid] * len(matches)
        values = []
        if rid in KEY_RULES:
            values = key_body(section)
        else:
            values = matches
        secrets = sources9.keep(section, values, {v: values.count(v) for v in values})
        if secrets:
            cls = "known-format" if rid in KEY_RULES or rid == "S0" else "keyword-context"
            example(out, src, f"{src}:regex_checks.txt:{rid}", "test_regex.py:test_1", cls, rules[rid]["name"], section,
                    secrets, path)
    if found != DS_REGEX_EXPECTED:
        raise SystemExit(f"{src}: regex_checks.txt: the rules find {found}, the test expects {DS_REGEX_EXPECTED}")
    # test_regex.py test_extless: one S28 finding in the LDAP module configuration.
    path = DS_FIX + "extless/radius"
    text = repo.show(path)
    values = ds_matches(rules["S28"], text)
    if len(values) != 1:
        raise SystemExit(f"{src}: radius: S28 finds {values}, the test expects one")
    lines = [i for i, l in enumerate(text.splitlines()) if values[0] in l]
    ex = window(text, lines[0])
    example(out, src, f"{src}:extless/radius", "test_regex.py:test_extless", "keyword-context", rules["S28"]["name"], ex,
            sources9.keep(ex, values), path)
    # test_hs.py test_1: the value of 1.py whose SHA-1 the ruleset names.
    path = DS_FIX + "1.py"
    text = repo.show(path)
    hashes = {r["hash"] for r in json.loads(repo.show(DS_FIX + "hashed_secrets.json"))}
    hits = sorted({s for s in re.findall(r"'([^'\n]*)'|\"([^\"\n]*)\"", text) for s in s if s
                   and hashlib.sha1(s.encode()).hexdigest() in hashes})
    if len(hits) != 1:
        raise SystemExit(f"{src}: 1.py: hashed values {hits}, the test expects one")
    ex = window(text, line_of(text, hits[0]))
    example(out, src, f"{src}:1.py", "test_hs.py:test_1", "keyword-context", "hashed secret", ex, sources9.keep(ex, hits), path)
    # test_semantic.py: the values LABELS names.
    for fixture, (fn, values, expr) in DS_SEMANTIC.items():
        path = DS_FIX + fixture
        text = repo.show(path).rstrip()
        if expr:
            values = values + [re.search(expr, text).group(1)]
        missing = [v for v in values if v not in text]
        if missing:
            raise SystemExit(f"{src}: {fixture}: {missing} not in the fixture")
        secrets = sources9.keep(text, values, {v: 1 for v in values})
        if secrets:
            example(out, src, f"{src}:{fixture}", f"test_semantic.py:{fn}", "keyword-context", fn, text, secrets, path)
    for fixture, test, fn in DS_NEGATIVES:
        path = DS_FIX + fixture
        text = repo.show(path).rstrip()
        example(out, src, f"{src}:{fixture}", f"{test.rsplit('/', 1)[1]}:{fn}", "format-negative", fn, text, [], path)


# ---- dd-trace-go ----

DD_ROOT = f"github.com/DataDog/dd-trace-go/v2@{DDTRACE_VERSION}/"
DD_TEST = "instrumentation/httptrace/httptrace_test.go"
# The tables of the default obfuscator (TestObfuscateQueryString also runs custom expressions,
# an allowlist and a disabled obfuscator: only its subtests that set the default one are read).
DD_TABLES = ["TestObfuscateQueryStringDefault", "TestObfuscateQueryStringDefaultLiteral"]
REDACTED = "<redacted>"


class ZipRepo(sources15.ZipRepo):
    def __init__(self, path, name, root):
        super().__init__(path, name)
        self.root = root

    def raw(self, path):
        return self.zip.read(self.root + path)

    def ls(self, prefix):
        return sorted(n[len(self.root):] for n in self.zip.namelist() if n.startswith(self.root + prefix))


GO_TOKEN = re.compile(r"""\s*(?://[^\n]*\n\s*)*(`[^`]*`|"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'|[A-Za-z_][\w.]*|\d+|:=|[^\s])""")


def go_tokens(src):
    """The tokens of Go source (every other character a token of its own), comments skipped."""
    pos, out = 0, []
    while True:
        m = GO_TOKEN.match(src, pos)
        if not m:
            return out
        pos = m.end()
        out.append(m.group(1))


class GoEnv:
    """The string constants and `:=` values of a test function: literals, `+` and
    strings.Repeat."""

    def __init__(self, body):
        self.names = {}
        for m in re.finditer(r"^\s*(?:const\s+)?(\w+)\s*(?::=|=)\s*(.+)$", body, re.M):
            if m.group(1) in ("got", "tests", "oracle", "want", "nonCapturing"):
                continue
            try:
                self.names[m.group(1)] = self.expr(go_tokens(m.group(2)))
            except (ValueError, KeyError, IndexError, SyntaxError):
                pass

    def expr(self, toks):
        val = self.term(toks)
        while toks and toks[0] == "+":
            toks.pop(0)
            val += self.term(toks)
        return val

    def term(self, toks):
        tok = toks.pop(0)
        if tok[0] in "`\"":
            if "\\x" in tok:
                raise ValueError("a byte escape")  # Go's "\xff" is a byte, not a character
            return sources14.go_literal(tok)
        if tok == "strings.Repeat":
            assert toks.pop(0) == "("
            s = self.term(toks)
            assert toks.pop(0) == ","
            n = int(toks.pop(0))
            while toks[0] == "*":
                toks.pop(0)
                n *= int(toks.pop(0))
            assert toks.pop(0) == ")"
            return s * n
        return self.names[tok]


def field_exprs(body, fields):
    """Each composite literal's fields (`name: …, input: …, want: …`) among `fields`, as lists
    of tokens, for the literals that have any."""
    toks = go_tokens(body)
    rows, stack, key, depth = [], [], None, 0
    i = 0
    while i < len(toks):
        t = toks[i]
        if key is not None:
            if depth == 0 and t in (",", "}"):
                key = None
            else:
                depth += t in "([{"
                depth -= t in ")]}"
                stack[-1][key].append(t)
                i += 1
                continue
        if t == "{":
            stack.append({})
        elif t == "}" and stack:
            row = stack.pop()
            if row:
                rows.append(row)
        elif t in fields and i + 1 < len(toks) and toks[i + 1] == ":" and stack:
            key, depth = t, 0
            stack[-1][key] = []
            i += 1
        i += 1
    return rows


def redacted_spans(text, want, mark):
    """The spans of text that want replaces by mark, or None when the two do not align."""
    parts = want.split(mark)
    rx = "(.+?)".join(re.escape(p) for p in parts)
    m = re.fullmatch(rx, text, re.S)
    return None if not m else [m.group(i) for i in range(1, len(parts))]


PEM = re.compile(r"(?is)-----BEGIN.*?PRIVATE(?:\s|%20)KEY-----(.*?)(?:-----END|$)")
JWT = re.compile(r"(?i)ey[I-L][\w=%\u212a-]*\.ey[I-L][\w.+/=%-]*")


def dd_value(span):
    """The value in a span the obfuscator replaced, as its expression reads it, and whether it
    has a literal signature; None for an SSH public key (left out) or a span not read."""
    if PEM.search(span):
        body = PEM.search(span).group(1).replace("%0A", "\n")
        return [l.strip() for l in body.splitlines() if len(l.strip()) >= 16], True
    if re.match(r"(?i)(?:ssh-|ecdsa-)", span):
        return None
    if JWT.fullmatch(span):
        return [span], True
    for rx, fmt in ((r"(?i)^\"?bearer(?:\s|%20)+(.+)$", False), (r"(?i)^(gh[opsu]_\w+)$", True),
                    (r"(?i)^\"?token(?::|%3A)([a-z0-9]{13})$", False),
                    (r"(?i)^\"?[a-z_-]+(?:\"|%22)(?:\s|%20)*(?::|%3A)(?:\s|%20)*(?:\"|%22)(.*?)(?:\"|%22)$", False),
                    (r"(?i)^\"?[a-z0-9_-]+(?:\s|%20)*(?:=|%3D)(?:\s|%20)*(.+)$", False)):
        m = re.match(rx, span, re.S)
        if m:
            return [m.group(1)], fmt
    m = JWT.search(span)
    return ([m.group(0)], True) if m else None


def dd_rows(src_text):
    """(test function, row name, input, expected) of the default obfuscator's tests."""
    out = []
    for fn, body in sources15.go_functions(src_text):
        if fn in DD_TABLES:
            env = GoEnv(body)
            for k, row in enumerate(field_exprs(body, {"name", "input", "want"})):
                if "input" not in row or "want" not in row:
                    continue
                try:
                    text, want = env.expr(list(row["input"])), env.expr(list(row["want"]))
                except (ValueError, KeyError, IndexError, AssertionError) as e:
                    print(f"dd-trace-go: {fn} row {k}: not read ({e})", file=sys.stderr)
                    continue
                name = sources14.go_literal(row["name"][0]) if row.get("name") else str(k)
                out.append((fn, name, text, want))
        elif fn == "TestObfuscateQueryString":
            for m in re.finditer(r't\.Run\("([^"]+)", func\(t \*testing\.T\) \{(.*?)\n\t\}\)', body, re.S):
                sub = m.group(2)
                if "useDefaultObfuscator = true" not in sub or re.search(r"queryString = false|Allowlist|queryStringRegexp", sub):
                    continue
                for r in re.finditer(r'require\.Equal\(t, ("(?:[^"\\]|\\.)*"), ObfuscateQueryString\(("(?:[^"\\]|\\.)*")\)\)', sub):
                    out.append((fn, m.group(1), ast.literal_eval(r.group(2)), ast.literal_eval(r.group(1))))
    return out


def ddtrace(repo, out):
    src = DDTRACE[0]
    for fn, name, text, want in dd_rows(repo.show(DD_TEST)):
        ident = f"{src}:{fn}:{name}"
        group = f"httptrace_test.go:{fn}"
        if not text.strip():
            continue
        if text == want:
            example(out, src, ident, group, "format-negative", name, text, [], DD_TEST)
            continue
        spans = redacted_spans(text, want, REDACTED)
        if spans is None:
            print(f"{src}: {fn} {name}: expected text not aligned, left out", file=sys.stderr)
            continue
        read = [dd_value(s) for s in spans]
        if any(r is None for r in read):
            continue
        values = [v for vs, _ in read for v in vs]
        secrets = sources9.keep(text, values, {v: values.count(v) for v in values})
        if secrets:
            fmt = all(f for vs, f in read if any(v in secrets for v in vs))
            example(out, src, ident, group, "known-format" if fmt else "keyword-context", name, text, secrets, DD_TEST)


# ---- gitlab-runner ----

URL_TEST = "common/buildlogger/internal/urlsanitizer/urlsanitizer_test.go"
LOGGER_TEST = "common/buildlogger/build_logger_test.go"
MASKED = "[MASKED]"


def runner_pairs(repo):
    """(test file, test function, input, expected)."""
    pairs = []
    for fn, body in sources15.go_functions(repo.show(URL_TEST)):
        env = GoEnv(body)
        for row in field_exprs(body, {"input", "expected"}):
            if "input" in row and "expected" in row:
                try:
                    text, want = env.expr(list(row["input"])), env.expr(list(row["expected"]))
                except (ValueError, KeyError, IndexError, AssertionError) as e:
                    print(f"gitlab-runner: {fn}: a row not read ({e})", file=sys.stderr)
                    continue
                pairs.append((URL_TEST, fn, text.replace("|", ""), want))
    for fn, body in sources15.go_functions(repo.show(LOGGER_TEST)):
        if fn not in ("TestLogLineWithSecret", "TestLogLineWithoutSecret"):
            continue
        line = re.search(r'l\.Errorln\(("(?:[^"\\]|\\.)*")\)', body)
        want = re.search(r"jt\.Read\(\),\s*(`[^`]*`)", body, re.S)
        if line and want:
            text, want = ast.literal_eval(line.group(1)), sources14.go_literal(want.group(1))
            # the logger's job trace holds the line; the test checks the part it names
            pairs.append((LOGGER_TEST, fn, text, text.replace(text[text.index(want.split(MASKED)[0]):], want)
                          if MASKED in want else text))
    return pairs


def runner(repo, out):
    src = RUNNER[0]
    for k, (path, fn, text, want) in enumerate(runner_pairs(repo)):
        ident = f"{src}:{fn}:{k}"
        group = f"{path.rsplit('/', 1)[1]}:{fn}"
        if text == want:
            example(out, src, ident, group, "format-negative", fn, text, [], path)
            continue
        spans = redacted_spans(text, want, MASKED)
        if spans is None:
            print(f"{src}: {fn} case {k}: expected text not aligned, left out: {text[:60]!r}", file=sys.stderr)
            continue
        secrets = sources9.keep(text, spans, {v: spans.count(v) for v in spans})
        if secrets:
            example(out, src, ident, group, "keyword-context", fn, text, secrets, path)


TAKEN_AS = {"deepsecrets": "engine test fixture (labels: the findings its tests expect, read with its rules)",
            "dd-trace-go": "query string obfuscator test input (labels: the text the test expects the obfuscator to make of it)",
            "gitlab-runner": "URL sanitizer test input (labels: the text the test expects the sanitizer to make of it)"}
FACTS = {"deepsecrets": [(DS_REGEX_TEST, "facts only: the findings and rules the regex engine's tests expect"),
                         (DS_HASH_TEST, "facts only: the hashed secret its test expects found"),
                         (DS_SEMANTIC_TEST, "facts only: the findings the semantic engine's tests expect"),
                         (DS_RULES, "facts only: the expressions of the rules the regex tests run"),
                         (DS_FIX + "hashed_secrets.json", "facts only: the SHA-1 of the hashed secret")],
         "dd-trace-go": [(DD_TEST, "facts only: the inputs and the obfuscated text each test expects")],
         "gitlab-runner": [(URL_TEST, "facts only: the inputs and the masked text each test expects"),
                           (LOGGER_TEST, "facts only: the log line and the masked text its test expects")]}


def add(mirror, zip_path):
    """This build's examples and files (sources12.add_builds), dd-trace-go's read from the
    module zip."""
    def open_repo(mirror, name):
        return ZipRepo(zip_path, name, DD_ROOT) if name == DDTRACE[1] else build.Repo(mirror, name)
    sources12.add_builds(mirror, [(DEEPSECRETS, deepsecrets, ["LICENSE"]), (DDTRACE, ddtrace, ["LICENSE"]),
                                  (RUNNER, runner, ["LICENSE"])], TAKEN, TAKEN_AS,
                         lambda src, repo, taken: FACTS[src], open_repo)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--mirror", required=True)
    ap.add_argument("--zip", required=True)
    args = ap.parse_args()
    add(args.mirror, args.zip)


if __name__ == "__main__":
    main()
