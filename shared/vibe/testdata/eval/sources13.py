#!/usr/bin/env python3
"""CodeQL's hard-coded credential query tests (a thirteenth corpus build): the literals
github/codeql's tests expect its CWE-798 queries to flag as credentials, and the lines beside
them they expect nothing of.

    python3 testdata/eval/sources13.py --mirror <dir>

reads the test files named in FILES, each at the commit named beside it, either from a bare
clone under `<dir>/github+codeql/repo` (`git show <commit>:<path>`) or, as this build was made
(the snapshot of that repository is too large to fetch here), from `<dir>/github+codeql/files/
<commit>/<path>`, files read one by one through the file index at those commits; each file's
SHA-256 is checked. It replaces this build's examples in secrets.jsonl and its files in
manifest.json, and writes licenses/codeql.txt.

- Files whose lines carry CodeQL's inline expectations (JavaScript, C#): a line marked
  `$ Alert` is an example, the line with up to three lines before it; its secret is the
  literal the mark is about: of the literals given to a name, those whose name says password,
  secret, key, token or auth (not an id, user, account, name or public key); without a named
  literal, the last literal of the line (the password after a user name in a call), the value
  of a `Password=` in a connection string, the password after `Basic user:`. Lines marked
  `$ MISSING: Alert` (the query's known misses) are not taken. A line with no mark that gives
  a literal of four characters or more beside a word of credentials (pass, secret, token, key,
  auth, hmac) is a format negative, unless it holds a value labelled elsewhere in the file; keys
  and the modules a `require`/`import` names are not values.
- Files without inline marks (Python, Go, Ruby): the lines the test's comments and expected
  results name, labelled by hand in LABELS (line number -> value); Python's and Go's files are
  one example each, whole.

All keyword-context: none of these values has a vendor's signature. A label that is a
placeholder, one of the sanitizer's placeholder words, shorter than four characters or a short
value that also stands unlabelled in its text is dropped (sources9.keep); an example whose text
or secret is already in the corpus or in gitleaks' rule examples is left out, and examples
sharing a secret are one event. Every example of a test file is in that file's half: the
record's `group`, `codeql:<path>`.
"""
import argparse
import hashlib
import json
import os
import re
import subprocess

import build
import sources3
import sources9

SOURCE = "codeql"
REPO = "github/codeql"
LICENCE = "MIT"
CWE = "/ql/test/query-tests/"
# path -> (commit, lines taken (None: all), SHA-256 of the text taken). Each file at the
# commit the file index gave for it. The JavaScript test is taken to line 303, before its
# block of 40-odd AWS service constructors that repeat one key pair.
FILES = {
    "javascript/ql/test/query-tests/Security/CWE-798/HardcodedCredentials.js":
        ("05e4677fd167c1631e1832ffccf243b88df243f1", 303, None),
    "csharp/ql/test/query-tests/Security Features/CWE-798/HardcodedCredentials.cs":
        ("092cae0355226e324a792260b37284136ed2bafd", None, None),
    "python/ql/test/query-tests/Security/CWE-798/test.py":
        ("05b69a1c0faa794609e86160587c79ced0e941b9", None, None),
    "go/ql/test/query-tests/Security/CWE-798/HardcodedCredentials.go":
        ("868f07bc91593555b15b912530a27d7b77a4e11b", None, None),
    "ruby/ql/test/query-tests/security/cwe-798/HardcodedCredentials.rb":
        ("29b1e75724d097b829f64ab96425e3712e6238b9", None, None),
}
# The licence (MIT, "Copyright (c) 2006-2025 GitHub, Inc."), at the commit the file index gave.
LICENCE_FILE = "LICENSE"
LICENCE_COMMIT = "4b3c6128335166c2cfbb099d41d64c1257920764"

# Files without inline marks: line number (1-based) -> the value the test names. Ruby's
# comments name a comparison with, or an argument of, a hard-coded credential on the line below
# them; the concatenated `pw_left`/`pw_right` pair and `default_cred`'s default are not named by
# a comment and are not taken, nor is the credential-like value the comment says must not be
# flagged (it is one all the same). Python's password flows into `connect(password=…)`; Go's
# into a connection URL (the user name `dbuser` is no secret).
LABELS = {
    "python/ql/test/query-tests/Security/CWE-798/test.py": {6: "insecure_pwd"},
    "go/ql/test/query-tests/Security/CWE-798/HardcodedCredentials.go": {10: "s3cretp4ssword"},
    "ruby/ql/test/query-tests/security/cwe-798/HardcodedCredentials.rb": {
        4: "xwjVWdfzfRlbcgKkbSfG/xSrUeHYqxPgz9WKN3Yow1o=",
        8: "X6BLgRWSAtAWG/GaHS+WGGW2K7zZFTAjJ54fGSudHJk=",
        12: "4NQX/CqB5Ae98zFUmwj1DMpF7azshxSvb0Jo4gIFmIQ=",
        15: "WLC17dLQ9P8YlQvqm77qplOMm5pd1q25Q2onWqu78JI=",
        18: "ogH6qSYWGdbR/2WOGYa7eZ/tObL+GtqDPx6q37BTTRQ=",
        38: "kdW/xVhiv6y1fQQNevDpUaq+2rfPKfh+teE/45zS7bc=",
    },
}
WHOLE = {"python/ql/test/query-tests/Security/CWE-798/test.py",
         "go/ql/test/query-tests/Security/CWE-798/HardcodedCredentials.go"}

LITERAL = re.compile(r"""(["'`])((?:(?!\1)[^\\]|\\.)*)\1""")
# a literal given to a name: `name: '…'`, `'name': '…'`, `name = '…'`, `['name'] = '…'`
NAMED = re.compile(r"""([\w\-]+)["'\]]*\s*(?::|=(?!=))\s*$""")
SECRET_NAME = re.compile(r"(?i)pass|secret|key|token|bearer|auth|cred")
NOT_SECRET_NAME = re.compile(r"(?i)id$|user|account|name|public|host")
CRED_WORD = re.compile(r"(?i)pass|secret|token|key|auth|hmac|cred")
ALERT = re.compile(r"\$ Alert")
MARK = re.compile(r"\$ (?:Alert|Sink|MISSING)")
WINDOW = 3


def text_of(mirror, path):
    commit, lines, _ = FILES[path]
    repo = os.path.join(mirror, "github+codeql", "repo")
    if os.path.isdir(repo):
        raw = subprocess.run(["git", "--git-dir", repo, "show", f"{commit}:{path}"], check=True,
                             capture_output=True).stdout.decode("utf-8")
    else:
        with open(os.path.join(mirror, "github+codeql", "files", commit, path), encoding="utf-8") as f:
            raw = f.read()
    if lines:
        raw = "".join(raw.splitlines(keepends=True)[:lines])
    return raw


def marked_secrets(line):
    """The literal an `$ Alert` line is about (see the module's comment)."""
    code = line.split("//")[0] if "//" in line else line
    lits = [(m.start(), m.group(2)) for m in LITERAL.finditer(code)]
    named = []
    for start, value in lits:
        m = NAMED.search(code[:start])
        if m:
            named.append((m.group(1), value))
    found = []
    if named:
        found = [v for name, v in named if SECRET_NAME.search(name) and not NOT_SECRET_NAME.search(name)]
    elif lits:
        value = lits[-1][1]
        if m := re.search(r"(?i)password=([^;]+)", value):
            value = m.group(1)
        elif re.search(r"(?i)user ?id=", value):
            value = ""
        elif m := re.match(r"Basic [^:\s]+:(\S+)$", value):
            value = m.group(1)
        found = [value]
    return found


def examples(path, text, out):
    group = f"{SOURCE}:{path}"
    lines = text.split("\n")
    labelled = set()
    positives = []
    if path in LABELS:
        for num, value in LABELS[path].items():
            assert value in lines[num - 1], (path, num)
            labelled.add(value)
            window = text.strip("\n") if path in WHOLE else "\n".join(lines[max(0, num - 1 - WINDOW):num]).strip("\n")
            positives.append((f"{SOURCE}:{path}:{num}", window, [value]))
    else:
        for i, line in enumerate(lines):
            if ALERT.search(line) and "MISSING" not in line:
                secrets = marked_secrets(line)
                labelled.update(secrets)
                window = "\n".join(lines[max(0, i - WINDOW):i + 1]).strip("\n")
                positives.append((f"{SOURCE}:{path}:{i + 1}", window, secrets))
        for i, line in enumerate(lines):
            if MARK.search(line) or not CRED_WORD.search(line):
                continue
            # values only: not a key (`'auth': {`), not a module a require or import names
            lits = [m.group(2) for m in LITERAL.finditer(line) if len(m.group(2)) >= sources9.MIN_SECRET
                    and not re.match(r"\s*:", line[m.end():]) and not re.search(r"(?:require\(|import .*from |^\s*import )$", line[:m.start()])]
            if not lits or any(s and s in line for s in labelled):
                continue
            out.append({"id": f"{SOURCE}:{path}:{i + 1}:negative", "source": SOURCE, "group": group,
                        "split": build.split_of(group), "class": "format-negative", "label": path,
                        "text": line.strip(), "secrets": []})
    for ident, window, secrets in positives:
        secrets = sources9.keep(window, secrets)
        if secrets:
            out.append({"id": ident, "source": SOURCE, "group": group, "split": build.split_of(group),
                        "class": "keyword-context", "label": path, "text": window, "secrets": secrets})


def collect(mirror, out):
    for path, (commit, lines, digest) in FILES.items():
        text = text_of(mirror, path)
        if digest:
            assert hashlib.sha256(text.encode()).hexdigest() == digest, path
        examples(path, text, out)
        taken = f"test file{'' if lines is None else f', lines 1-{lines}'} (labels: the test's expectation marks and comments)"
        sources3.manifest.append({"source": SOURCE, "repo": REPO, "commit": commit, "path": path,
                                  "licence": LICENCE, "taken": taken})


def licence_text(mirror):
    commit = LICENCE_COMMIT
    repo = os.path.join(mirror, "github+codeql", "repo")
    if os.path.isdir(repo):
        return subprocess.run(["git", "--git-dir", repo, "show", f"{commit}:{LICENCE_FILE}"], check=True,
                              capture_output=True).stdout
    with open(os.path.join(mirror, "github+codeql", "files", commit, LICENCE_FILE), "rb") as f:
        return f.read()


def add(mirror):
    """Replaces this build's examples in secrets.jsonl and its files in manifest.json, then
    fixes each example's half by its test file."""
    sources3.add_build(SOURCE, REPO, LICENCE, lambda new: collect(mirror, new), "codeql.txt",
                       lambda: licence_text(mirror))
    path = os.path.join(sources3.HERE, "secrets.jsonl")
    with open(path) as f:
        corpus = list(map(json.loads, f))
    for e in corpus:
        if e["source"] == SOURCE:
            e["split"] = build.split_of(e["group"])
    with open(path, "w") as f:
        for e in corpus:
            f.write(json.dumps(e, ensure_ascii=False, sort_keys=True) + "\n")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--mirror", required=True)
    add(ap.parse_args().mirror)


if __name__ == "__main__":
    main()
