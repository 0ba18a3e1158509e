#!/usr/bin/env python3
"""Datadog's scrubber and Syft's secrets cataloger (a fifteenth corpus build): the inputs two
more tools test their credential finders with, labelled by what each test expects found.

    python3 testdata/eval/sources15.py --mirror <dir> --zip scrubber-v0.85.4.zip

reads the Go module zip the module proxy serves for Datadog's agent scrubber
(https://proxy.golang.org/github.com/!data!dog/datadog-agent/pkg/util/scrubber/@v/v0.85.4.zip;
the zip holds the repository's LICENSE) and a bare clone under `<dir>/anchore+syft/repo` at the
commit named below (the last before Syft removed its secrets cataloger), replaces this build's
examples in secrets.jsonl and its files in manifest.json, and writes each licence to
licenses/<source>.txt.

- datadog-scrubber: the agent scrubs credentials out of its logs, configuration dumps and flare
  files; its tests (`default_test.go`) give an input and the text the scrubber must make of it
  (`assertClean(t, input, want)`, and tables of `log`/`want` or `input`/`expected`), and two
  configuration files have a scrubbed twin (`test/conf.yaml`, `test/conf_enc.yaml`). The
  secret is what the scrubber replaces: the input's text under each run of `*` in the
  expected text (its quotes off), with the characters of the same token the scrubber leaves
  showing (an API key's last four) joined back on; a replaced list or flow sequence gives its
  items, a replaced key block its body lines of sixteen characters or more. A pair whose
  expected text is its input is a format negative.
- syft: `TestSecretsCataloger_DefaultSecrets` names, for each fixture its default patterns
  scan, the values found (`Value:`); a fixture it expects nothing in is a format negative.
  The cases run with patterns written in the test itself (`secret_key=.*`) are not taken.

A secret with a literal signature of the pattern that finds it (Datadog's `ddapp_` and
`DDRCM_` keys, a private key's armour around its body) is `known-format`; one found by the name,
header or URL around it (`api_key:`, `Bearer`, `password=`, `x-api-key:`, a URL's password) is
`keyword-context`. A replaced value holding a blank (`some auth`, `token with space`, four
emoji) is left out: several words stand for a value, and cannot be told from prose. As every
later build, a label that is a placeholder, one of the sanitizer's placeholder words, shorter
than four characters or a short value that also stands unlabelled in its text is dropped
(sources9.keep); an example whose text or secret is already in the corpus or in gitleaks' rule
examples is left out, and examples sharing a secret are one event. Every example of a test
function (Datadog) or fixture (Syft) is in that unit's half: the record's `group`,
`<source>:<test or fixture>`.
"""
import argparse
import difflib
import os
import re
import sys
import zipfile

import build
import sources12
import sources14
import sources3
import sources9

SCRUBBER_VERSION = "v0.85.4"
DATADOG = ("datadog-scrubber", "DataDog/datadog-agent", "Apache-2.0",
           SCRUBBER_VERSION + " (Go module github.com/DataDog/datadog-agent/pkg/util/scrubber)")
SYFT = ("syft", "anchore/syft", "Apache-2.0", "1676934c63b2c55d6f0b926f2669ad34bcad5037")
ZIP_ROOT = f"github.com/DataDog/datadog-agent/pkg/util/scrubber@{SCRUBBER_VERSION}/"
DEFAULT_TEST = "default_test.go"
# Configuration files and their scrubbed twins (default_test.go, TestConfigScrubbedValidYaml;
# the encrypted-values file's test in yaml_scrubber_test.go).
FILE_PAIRS = [("test/conf.yaml", "test/conf_scrubbed.yaml"), ("test/conf_enc.yaml", "test/conf_enc_scrubbed.yaml")]
# Tests that are not about credentials or not about the default scrubber: a data-security
# rule's patterns (scrubbed as configuration, no secret), keys the test adds itself, and the
# helper that hides all but a key's last characters (bare strings, no context).
DATADOG_SKIP = {"TestDataSecurityScanningRulePatterns", "TestAddStrippedKeys", "TestAddStrippedKeysNewReplacer",
                "TestHideKeyExceptLastChars"}
# Signatures of the patterns with a literal part: Datadog's prefixed application and remote
# configuration keys.
DATADOG_FORMAT = re.compile(r"^(?:ddapp_|DDRCM_)")

# The files each example's text was taken from, (source, text) -> paths: the manifest names
# those of the examples kept.
TAKEN = {}


def example(out, src, ident, group, cls, label, text, secrets, path):
    TAKEN.setdefault((src, text), set()).add(path)
    out.append({"id": ident, "source": src, "split": build.split_of(ident), "group": f"{src}:{group}", "class": cls,
                "label": label, "text": text, "secrets": sorted(set(secrets))})


class ZipRepo:
    """A module zip read as add_builds reads a clone: paths relative to the module's root."""

    def __init__(self, path, name):
        self.zip, self.name, self.commit = zipfile.ZipFile(path), name, None

    def raw(self, path):
        return self.zip.read(ZIP_ROOT + path)

    def show(self, path):
        return self.raw(path).decode("utf-8", "replace")

    def ls(self, prefix):
        return sorted(n[len(ZIP_ROOT):] for n in self.zip.namelist() if n.startswith(ZIP_ROOT + prefix))


# ---- what a scrubber replaced ----

STARS = re.compile(r"""(["']?)\*{4,}(["']?)""")
BLANKS = re.compile(r"\s+")
KEY_BODY = re.compile(r"-----BEGIN [A-Z ]*-----(.*?)(?:-----END|$)", re.S)


def expected_pattern(want):
    """A pattern of the expected text: each run of `*` a capture (the quotes the scrubber puts
    around it optional, since it quotes what it replaces), blanks any blanks."""
    parts, pos = [], 0
    for m in STARS.finditer(want):
        parts.append(literal_pattern(want[pos:m.start()]))
        parts.append(r"""["']?(.+?)["']?""" if m.group(1) or m.group(2) else "(.+?)")
        pos = m.end()
    parts.append(literal_pattern(want[pos:]))
    return re.compile("".join(parts), re.S)


def literal_pattern(s):
    """Blanks any blanks, a quote an optional quote of either kind."""
    out = []
    for part in re.split(r"(\s+|[\"'])", s):
        if not part:
            continue
        out.append(r"\s*" if part.isspace() else r"""["']?""" if part in "\"'" else re.escape(part))
    return "".join(out)


def replaced(text, want):
    """The values the scrubber replaced in text to make want, or None when the two cannot be
    aligned. Comment lines the scrubber drops are let go."""
    rx = expected_pattern(want.strip())
    for candidate in (text.strip(), "\n".join(l for l in text.strip().splitlines() if not l.strip().startswith("#"))):
        m = rx.fullmatch(candidate)
        if m:
            break
    else:
        return None
    values = []
    for i in range(1, (m.lastindex or 0) + 1):
        start, end = m.span(i)
        # the token's characters the scrubber leaves showing (an API key's last four)
        while end < len(candidate) and candidate[end].isalnum():
            end += 1
        values += values_of(candidate[start:end])
    return values


def values_of(v):
    """A replaced span's values: a key block's body lines, a list's items, else the value."""
    v = v.strip()
    if "-----BEGIN" in v:
        body = KEY_BODY.search(v)
        return [l.strip() for l in (body.group(1) if body else "").splitlines() if len(l.strip()) >= 16]
    if v[:1] in "[-" or "\n" in v:
        items = [p.strip().strip("-[]{}'\" \t") for p in re.split(r"[\n,]", v)]
        return [p for p in items if p and not re.search(r"\s", p)]
    v = sources3.unquote(v)
    return [] if re.search(r"\s", v) else [v]


# ---- datadog-scrubber ----

def go_functions(src):
    """(name, body) of a Go file's functions."""
    return [(m.group(1), m.group(2)) for m in re.finditer(r"\nfunc (\w+)\(.*?\n(.*?)(?=\nfunc |\Z)", src, re.S)]


def literal_args(body, pos):
    """The string expressions (literals joined by `+`) of a call's arguments from pos on, to
    its closing parenthesis."""
    args, current, depth = [], [], 0
    for tok, _ in sources14.tokens(body, pos):
        if tok == "(":
            depth += 1
        elif tok == ")":
            if depth == 0:
                break
            depth -= 1
        elif tok == "," and depth == 0:
            args.append(current)
            current = []
            continue
        current.append(tok)
    args.append(current)
    return ["".join(sources14.go_literal(t) for t in a if t != "+") if a and all(t[0] in "`\"" or t == "+" for t in a) else None
            for a in args if a]


def table_rows(body):
    """The rows of a table test (`[]struct{…}{ {…}, … }`): (input, expected) from fields named
    log/want or input/expected, else a row's last two string literals."""
    rows = []
    for m in re.finditer(r"\[\]struct\s*\{[^}]*\}\s*\{", body):
        depth, row = 0, None
        for tok, _ in sources14.tokens(body, m.end()):
            if tok == "{":
                depth += 1
                row = [] if depth == 1 else row
                continue
            if tok == "}":
                if depth == 0:
                    break
                depth -= 1
                if depth == 0 and row is not None:
                    named = {row[i - 1]: row[i] for i in range(1, len(row)) if isinstance(row[i], tuple) and isinstance(row[i - 1], str)}
                    lits = [r[0] for r in row if isinstance(r, tuple)]
                    pair = [named[k][0] for k in ("log", "want") if k in named] or [named[k][0] for k in ("input", "expected") if k in named]
                    if len(pair) == 2:
                        rows.append(tuple(pair))
                    elif len(lits) >= 2 and not named:
                        rows.append((lits[-2], lits[-1]))
                    row = None
                continue
            if row is None:
                continue
            if tok[0] in "`\"":
                row.append((sources14.go_literal(tok),))
            elif re.fullmatch(r"[A-Za-z_]\w*", tok):
                row.append(tok)
    return rows


def datadog_pairs(src):
    """(test function, input, expected) of default_test.go."""
    pairs = []
    for fn, body in go_functions(src):
        if not fn.startswith("Test") or fn in DATADOG_SKIP:
            continue
        for m in re.finditer(r"\bassertClean\(\s*t\s*,", body):
            args = literal_args(body, m.end())
            if len(args) == 2 and None not in args:
                pairs.append((fn, args[0], args[1]))
        for text, want in table_rows(body):
            pairs.append((fn, text, want))
    return pairs


def datadog(repo, out):
    src = DATADOG[0]
    for i, (fn, text, want) in enumerate(datadog_pairs(repo.show(DEFAULT_TEST))):
        text = text.strip("\n").rstrip()
        if not text.strip():
            continue
        if text.strip() == want.strip():
            example(out, src, f"{src}:{fn}:{i}", fn, "format-negative", fn, text, [], DEFAULT_TEST)
            continue
        values = replaced(text, want)
        if values is None:
            print(f"{src}: {fn} case {i}: expected text not aligned, left out: {text[:60]!r}", file=sys.stderr)
            continue
        secrets = sources9.keep(text, values, {v: values.count(v) for v in values})
        if secrets:
            example(out, src, f"{src}:{fn}:{i}", fn, datadog_class(text, secrets), fn, text, secrets, DEFAULT_TEST)
    for path, scrubbed in FILE_PAIRS:
        text, want = repo.show(path).rstrip(), repo.show(scrubbed).rstrip()
        a, b = text.splitlines(), want.splitlines()
        values = []
        for op, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
            if op == "replace" and i2 - i1 == j2 - j1:
                for x, y in zip(a[i1:i2], b[j1:j2]):
                    values += replaced(x, y) or []
        secrets = sources9.keep(text, values, {v: values.count(v) for v in values})
        if secrets:
            example(out, src, f"{src}:{path}", path, datadog_class(text, secrets), path, text, secrets, path)
            TAKEN[(src, text)].add(scrubbed)


def datadog_class(text, secrets):
    keys = [b for m in KEY_BODY.finditer(text) for b in m.group(1).split()]
    if all(DATADOG_FORMAT.match(s) or any(s in k for k in keys) for s in secrets):
        return "known-format"
    return "keyword-context"


# ---- syft ----

SECRETS = "syft/file/cataloger/secrets/"
SYFT_TEST = SECRETS + "cataloger_test.go"


def syft(repo, out):
    src = SYFT[0]
    body = repo.show(SYFT_TEST)
    default = body[body.index("func TestSecretsCataloger_DefaultSecrets"):]
    for m in re.finditer(r'fixture:\s*"([^"]+)",\s*expected:\s*(nil|\[\]file\.SearchResult\{(.*?)\n\t\t\t\},)', default, re.S):
        fixture, results = m.group(1), m.group(3)
        path = SECRETS + fixture
        text = repo.show(path).rstrip()
        name = os.path.basename(fixture)
        if m.group(2) == "nil":
            example(out, src, f"{src}:{fixture}", name, "format-negative", name, text, [], path)
            continue
        values = []
        for r in re.finditer(r"Classification:\s*\"([^\"]+)\".*?Value:\s*(`[^`]*`|\"(?:[^\"\\]|\\.)*\")", results, re.S):
            value = sources14.go_literal(r.group(2))
            values += [l for l in value.split("\n") if len(l) >= 16] if r.group(1).endswith("private-key") else [value]
        secrets = sources9.keep(text, values, {v: values.count(v) for v in values})
        if secrets:
            cls = "known-format" if "PRIVATE KEY-----" in text else "keyword-context"
            example(out, src, f"{src}:{fixture}", name, cls, name, text, secrets, path)


TAKEN_AS = {"datadog-scrubber": "scrubber test input (labels: the text the test expects the scrubber to make of it)",
            "syft": "secrets cataloger test fixture (labels: the values its test expects found)"}
FACTS = {"datadog-scrubber": [(DEFAULT_TEST, "facts only: the inputs and the scrubbed text each test expects")],
         "syft": [(SYFT_TEST, "facts only: the values the default patterns must find in each fixture")]}


def add(mirror, zip_path):
    """This build's examples and files (sources12.add_builds), Datadog's read from the module
    zip."""
    def open_repo(mirror, name):
        return ZipRepo(zip_path, name) if name == DATADOG[1] else build.Repo(mirror, name)
    sources12.add_builds(mirror, [(DATADOG, datadog, ["LICENSE"]), (SYFT, syft, ["LICENSE"])], TAKEN, TAKEN_AS,
                         lambda src, repo, taken: FACTS[src], open_repo)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--mirror", required=True)
    ap.add_argument("--zip", required=True)
    args = ap.parse_args()
    add(args.mirror, args.zip)


if __name__ == "__main__":
    main()
