#!/usr/bin/env python3
"""Horusec, Checkov and DevSkim (a twelfth corpus build): the samples three more scanners test
their secret rules with, labelled by what each test says the secret is.

    python3 testdata/eval/sources12.py --mirror <dir>

reads bare clones under `<dir>/<owner>+<name>/repo` of ZupIT/horusec, bridgecrewio/checkov and
microsoft/DevSkim, each at the commit named below, replaces this build's examples in
secrets.jsonl and its files in manifest.json, and writes each licence to
licenses/<source>.txt.

- horusec: the leaks engine's rules (`internal/services/engines/leaks/rules.go`), each with an
  unsafe sample its test must flag and a safe one it must not (`samples.go`). The secret of an
  unsafe sample is the quoted value on the line the rule's own expression matches (a private
  key's body pieces, a URL's password).
- checkov: the secrets framework's test inputs (`tests/secrets/`): files a test expects
  findings in, labelled by the SHA-1 the test names for a finding (checkov reports a secret by
  its hash), by the value the test names, or, where the test only counts findings, by the
  values assigned to the names it flags; inputs it expects nothing in are format negatives.
- devskim: the `must-match` and `must-not-match` strings of DevSkim's rules for tokens and
  keys in code (`rules/default/security/privacy/secrets.json`).

As every later build, a label that is a placeholder, one of the sanitizer's placeholder words,
shorter than four characters or a short value that also stands unlabelled in its text is
dropped (sources9.keep); an example whose text or secret is already in the corpus or in
gitleaks' rule examples is left out, and examples sharing a secret are one event. Every
example of a rule (horusec, devskim) or of a test's input directory (checkov) is in that
unit's half: the record's `group`, `<source>:<rule or directory>`.
"""
import argparse
import ast
import hashlib
import json
import os
import re

import regex

import build
import sources3
import sources9

HORUSEC = ("horusec", "ZupIT/horusec", "Apache-2.0", "873d4104a6aa89be8f86d93db8e416909d9add87")
CHECKOV = ("checkov", "bridgecrewio/checkov", "Apache-2.0", "03d5fdad8d6154b1565799a7b1fb8070c158866f")
DEVSKIM = ("devskim", "microsoft/DevSkim", "MIT", "a452aa506f80928b611c4c7bfe306b8115821aae")

QUOTED = re.compile(r"""(["'])((?:(?!\1).)+)\1""")


# The files each example's text was taken from, (source, text) -> paths: the manifest names
# those of the examples kept.
TAKEN = {}


def example(out, src, ident, group, cls, label, text, secrets, path):
    TAKEN.setdefault((src, text), set()).add(path)
    out.append({"id": ident, "source": src, "split": build.split_of(ident), "group": f"{src}:{group}", "class": cls,
                "label": label, "text": text, "secrets": sorted(set(secrets))})


# ---- horusec ----

LEAKS = "internal/services/engines/leaks/"
# Rules that find identifiers, not secrets: AWS access key ids, Facebook, Twitter and LinkedIn
# client ids, a Google OAuth client id, and Twilio's API key SID (the key's name, not its
# secret).
HORUSEC_NOT_SECRET = {"HS-LEAKS-1", "HS-LEAKS-5", "HS-LEAKS-7", "HS-LEAKS-9", "HS-LEAKS-14", "HS-LEAKS-24"}
# Rules whose expression demands three literal characters or more in the value: a vendor's
# signature (amzn.mws., the Slack webhook host, a private key's armour, AIza, -us, key-,
# access_token$production$, sk_live_, SG., rk_live_, sq0atp-, sq0csp-).
HORUSEC_FORMAT = {"HS-LEAKS-3", "HS-LEAKS-11", "HS-LEAKS-12", "HS-LEAKS-13", "HS-LEAKS-16", "HS-LEAKS-17",
                  "HS-LEAKS-18", "HS-LEAKS-19", "HS-LEAKS-20", "HS-LEAKS-21", "HS-LEAKS-22", "HS-LEAKS-23"}
# The phrase WordPress' sample configuration ships in place of its keys.
WORDPRESS_PLACEHOLDER = "put your unique phrase here"


def go_constants(src):
    """The raw-string constants of a Go file: name -> text."""
    return {m.group(1): m.group(2) for m in re.finditer(r"(\w+)\s*=\s*`([^`]*)`", src)}


def horusec_rules(src):
    """(id, name, safe sample constant, unsafe sample constant, expressions) of rules.go."""
    rules = []
    for body in re.split(r"\nfunc ", src)[1:]:
        rid = re.search(r'ID:\s*"([^"]+)"', body)
        if not rid:
            continue
        rules.append((rid.group(1), re.search(r'Name:\s*"([^"]+)"', body).group(1),
                      re.search(r"SafeExample:\s*(\w+)", body).group(1),
                      re.search(r"UnsafeExample:\s*(\w+)", body).group(1),
                      re.findall(r"regexp\.MustCompile\(`([^`]*)`\)", body)))
    return rules


def horusec_secrets(rid, expressions, sample):
    """The values the rule's own expressions flag in the sample: on each line an expression
    matches, the quoted value the match reaches into, a URL's password, or a private key's
    body pieces (the sample cuts its body with `...`)."""
    found = []
    for line in sample.splitlines():
        for expr in expressions:
            # Go's flags within a pattern, (?i) … (?-i), last to the end of their group, as
            # the regex module's version 1 reads them.
            m = regex.search("(?V1)" + expr, line)
            if not m:
                continue
            if rid == "HS-LEAKS-12":
                body = re.search(r"-----BEGIN [A-Z ]*PRIVATE KEY-----(.*?)-----END", line)
                found += [p for p in re.split(r"\.\.\.|\s+", body.group(1)) if len(p) >= 16]
            elif rid == "HS-LEAKS-27":
                found += sources9.url_password(m.group(0))
            else:
                # the last literal the match reaches into: the value, after a quoted name
                # (`define('DB_PASSWORD', '…')`)
                values = [q.group(2) for q in QUOTED.finditer(line) if q.start(2) < m.end() and m.start() < q.end(2)]
                found += values[-1:]
    return [s for s in found if s != WORDPRESS_PLACEHOLDER]


def horusec(repo, out):
    src, *_ = HORUSEC
    samples = go_constants(repo.show(LEAKS + "samples.go"))
    for rid, name, safe, unsafe, expressions in horusec_rules(repo.show(LEAKS + "rules.go")):
        label = f"{rid} {name}"
        if rid not in HORUSEC_NOT_SECRET:
            text = samples[unsafe].strip("\n").rstrip()
            secrets = sources9.keep(text, horusec_secrets(rid, expressions, text))
            if secrets:
                cls = "known-format" if rid in HORUSEC_FORMAT else "keyword-context"
                example(out, src, f"{src}:{rid}:unsafe", rid, cls, label, text, secrets, LEAKS + "samples.go")
        example(out, src, f"{src}:{rid}:safe", rid, "format-negative", label, samples[safe].strip("\n").rstrip(), [],
                LEAKS + "samples.go")


# ---- checkov ----

TESTS = "tests/secrets/"
# The SHA-1 checkov reports a secret by, over every token of a file.
TOKEN = re.compile(r"""[^\s"'`,;()\[\]{}<>=:]{4,}""")


def assigned(text, names):
    """The values given to the named keys (`name = "v"`, `name: v`, `NAME="v"`)."""
    vals = []
    for name in names:
        for m in re.finditer(r"(?<![\w])" + re.escape(name) + r"""["']?\s*[:=]\s*["']?([^"'\s]+)""", text):
            vals.append(m.group(1))
    return vals


def by_hash(text, hashes):
    return [t for t in set(TOKEN.findall(text)) | {q.group(2) for q in QUOTED.finditer(text)}
            if hashlib.sha1(t.encode()).hexdigest() in hashes]


# Inputs a test counts findings in, and the names whose values are those findings (access
# key ids, also found, are identifiers and left out). resources/: test_runner.py counts two
# findings a file (the key id and the secret key; in the Dockerfiles the names are swapped);
# sanity/secrets/: six findings, every value; test_entropy_source_files/: the password
# (CKV_SECRET_6, line 4) and the URL's password (CKV_SECRET_4, line 6); single_line_finding/:
# the two 32-character values its custom policy's test flags.
CHECKOV_COUNTED = {
    "resources/cfn/secret.yml": ["secret_key"],
    "resources/terraform_failed/main.tf": ["secret_key"],
    "resources/file_type/test.py": ["secret_key"],
    "resources/file_type/test.ts": ["secret_key"],
    "resources/file_type/Dockerfile": ["AWS_ACCESS_KEY_ID"],
    "resources/file_type/Dockerfile.simple": ["AWS_ACCESS_KEY_ID"],
    "sanity/secrets/true_positive.json": ["SA_PASSWORD", "secret_key", "my_new_password", "test_pass", "pg_pass",
                                          "my_secret"],
    "test_entropy_source_files/db-conn.js": ["pg_pass"],
    "single_line_finding/secret.txt": ["ADMIN_KEY", "SECOND_KEY"],
    "omit_multiple_secrets/test/multiple_secrets_one_line.txt": ["CIRCLE"],
}
# Inputs whose findings include a URL's password.
CHECKOV_URL = {"test_entropy_source_files/db-conn.js"}
# Inputs whose test expects no finding, each one format negative (a file), or one per line
# (the JSON of UI strings) or per blank-line block (the Python file).
CHECKOV_CLEAN = ["sanity/iac_fp/main.tf", "sanity/iac_fp/main.json", "resources/cfn/secret-no-false-positive2.yml",
                 "resources/k8s/secret-name.yaml", "resources/terraform/main.tf", "terraform_multiline/data.tf"]
CHECKOV_CLEAN_LINES = "sanity/non_secrets/true_negative.json"
CHECKOV_CLEAN_BLOCKS = "sanity/non_iac_fp/a.py"
# A value that reads as a token (eight characters or more, no blank, letters with digits or
# symbols): a negative holding one is left out, another reading would flag it.
TOKENISH = re.compile(r"""^(?=[^\s"]*[A-Za-z])(?=[^\s"]*[^A-Za-z\s"])[^\s"]{8,}$""")


def checkov_hashed(repo, out):
    """The multi-line tests name each finding by its SHA-1 (`failing_resources`)."""
    src = CHECKOV[0]
    test = "test_plugin_multiline_terraform.py"
    code = repo.show(TESTS + test)
    for m in re.finditer(r'Path\(__file__\)\.parent / "([^"]+)"(.*?)(?=\ndef |\Z)', code, re.S):
        path, hashes = m.group(1), set(re.findall(r'"([0-9a-f]{40})"', m.group(2)))
        text = repo.show(TESTS + path).rstrip()
        group = os.path.dirname(path)
        if hashes:
            secrets = sources9.keep(text, by_hash(text, hashes))
            if len(secrets) == len(hashes):
                example(out, src, f"{src}:{path}", group, "keyword-context", test, text, secrets, TESTS + path)
        elif "len(report.failed_checks) == 0" in m.group(2):
            example(out, src, f"{src}:{path}", group, "format-negative", test, text, [], TESTS + path)


def checkov_lines(repo, out):
    """The combinator plugin's one-line cases (test_plugin.py): a case expecting a finding
    is an example, its secret the value the test names, the one whose SHA-1 it names, else the
    value after the key; one expecting none is a format negative unless its value reads as a
    token (checkov skips source files, `api_key = "7T)G#…"` in main.py)."""
    src, path = CHECKOV[0], TESTS + "test_plugin.py"
    tree = ast.parse(repo.show(path))
    for fn in ast.walk(tree):
        if not isinstance(fn, ast.FunctionDef):
            continue
        calls = [c for c in ast.walk(fn) if isinstance(c, ast.Call) and getattr(c.func, "attr", "") == "analyze_line"
                 and all(isinstance(a, ast.Constant) for a in c.args)]
        counts = [c.args[0].value for c in ast.walk(fn) if isinstance(c, ast.Call) and getattr(c.func, "attr", "") == "assertEqual"
                  and isinstance(c.args[0], ast.Constant) and isinstance(c.args[0].value, int)]
        if len(calls) != 1 or len(counts) != 1:
            continue
        name, line = calls[0].args[0].value, calls[0].args[1].value
        strings = [c.args[0].value for c in ast.walk(fn) if isinstance(c, ast.Call) and getattr(c.func, "attr", "") == "assertEqual"
                   and isinstance(c.args[0], ast.Constant) and isinstance(c.args[0].value, str)]
        ident, group = f"{src}:test_plugin.py:{fn.name}", "test_plugin.py"
        if counts[0] == 1:
            hashes = {s for s in strings if re.fullmatch(r"[0-9a-f]{40}", s)}
            named = [s for s in strings if s in line]
            secrets = named or by_hash(line, hashes) if hashes or named else [v for v in re.findall(r"""[=:]\s*["']?([^"'\s]{8,})""", line)]
            secrets = sources9.keep(line, secrets)
            if secrets:
                example(out, src, ident, group, "keyword-context", fn.name, line, secrets, path)
        elif counts[0] == 0:
            values = [q.group(2) for q in QUOTED.finditer(line)] or [line]
            if name.endswith(".py") and any(TOKENISH.match(v) for v in values):
                continue
            example(out, src, ident, group, "format-negative", fn.name, line, [], path)


def checkov(repo, out):
    src = CHECKOV[0]
    for path, names in CHECKOV_COUNTED.items():
        text = repo.show(TESTS + path).rstrip()
        found = assigned(text, names)
        if path in CHECKOV_URL:
            found += sources9.url_password(text)
        secrets = sources9.keep(text, found)
        if secrets:
            cls = "known-format" if any(re.match(r"[rs]k_live_", s) for s in secrets) else "keyword-context"
            example(out, src, f"{src}:{path}", os.path.dirname(path), cls, path, text, secrets, TESTS + path)
    checkov_hashed(repo, out)
    checkov_lines(repo, out)
    for path in CHECKOV_CLEAN:
        example(out, src, f"{src}:{path}", os.path.dirname(path), "format-negative", path,
                repo.show(TESTS + path).rstrip(), [], TESTS + path)
    for i, line in enumerate(repo.show(TESTS + CHECKOV_CLEAN_LINES).splitlines()):
        m = re.match(r'\s*"([^"]+)":\s*"(.*)",?$', line)
        if not m or TOKENISH.match(m.group(2)):
            continue
        example(out, src, f"{src}:{CHECKOV_CLEAN_LINES}:{i}", os.path.dirname(CHECKOV_CLEAN_LINES),
                "format-negative", CHECKOV_CLEAN_LINES, line.strip().rstrip(","), [], TESTS + CHECKOV_CLEAN_LINES)
    blocks = repo.show(TESTS + CHECKOV_CLEAN_BLOCKS).split("\n\n")
    for i, block in enumerate(blocks):
        block = block.strip("\n").rstrip()
        if block and not block.startswith("def "):
            example(out, src, f"{src}:{CHECKOV_CLEAN_BLOCKS}:{i}", os.path.dirname(CHECKOV_CLEAN_BLOCKS),
                    "format-negative", CHECKOV_CLEAN_BLOCKS, block, [], TESTS + CHECKOV_CLEAN_BLOCKS)


# ---- devskim ----

DEVSKIM_RULES = "rules/default/security/privacy/secrets.json"
# DS173237 flags any quoted run of 30 hex digits or more: a hash is as random, so its
# must-match is not taken; its must-not-match strings are.
DEVSKIM_BARE = {"DS173237"}


def devskim(repo, out):
    src = DEVSKIM[0]
    for r in json.loads(repo.show(DEVSKIM_RULES)):
        rid, label = r["id"], f'{r["id"]} {r["name"]}'
        exprs = [p["pattern"] for p in r["patterns"] if p["type"] == "regex"]
        if rid not in DEVSKIM_BARE:
            for i, text in enumerate(r.get("must-match") or []):
                # the value: the hex run the rule's expression ends on, to its closing quote
                secrets = [h for e in exprs if (m := re.search(e, text)) for h in re.findall(r"[a-f0-9]{30,}", m.group(0))]
                secrets = sources9.keep(text, secrets)
                if secrets:
                    example(out, src, f"{src}:{rid}:must-match:{i}", rid, "keyword-context", label, text, secrets, DEVSKIM_RULES)
        for i, text in enumerate(r.get("must-not-match") or []):
            example(out, src, f"{src}:{rid}:must-not-match:{i}", rid, "format-negative", label, text, [], DEVSKIM_RULES)


# What each source's taken files are, and the files read for facts only (which value a
# sample's secret is), named whenever the source keeps an example.
TAKEN_AS = {"horusec": "rule samples, unsafe (labels: the rule's own expressions) and safe",
            "checkov": "secrets test input (labels: the findings its test expects)",
            "devskim": "rules' must-match (labels: the rule's own expression) and must-not-match strings"}
FACTS = {"horusec": [(LEAKS + "rules.go", "facts only: the rules' names and expressions")],
         "checkov": [(p, "facts only: the findings its tests expect") for p in
                     (TESTS + "test_runner.py", TESTS + "test_plugin_multiline_terraform.py",
                      TESTS + "test_multiline_finding_line_number.py")],
         "devskim": []}


def add_builds(mirror, builds, taken_files, taken_as, facts_of, open_repo=build.Repo):
    """Replaces the examples of builds, [((source, repository, licence, commit), collect,
    licence files)], in secrets.jsonl and their files in manifest.json, then fixes each
    example's half by its group and names in the manifest the files of the examples kept:
    taken_files maps (source, text) to the paths the text was taken from, taken_as a source to
    how its examples were taken, and facts_of(source, repo, paths taken) lists the (path, how
    taken) entries read for facts only. open_repo(mirror, repository) gives what a source is
    read from (a bare clone unless told otherwise: show, raw, ls and a commit)."""
    repos = {}
    for (src, name, licence, commit), collect, files in builds:
        repo = repos[src] = open_repo(mirror, name)
        repo.commit = commit
        sources3.add_build(src, name, licence, lambda new, repo=repo, collect=collect: collect(repo, new), src + ".txt",
                           lambda repo=repo, files=files: b"\n\n".join(repo.raw(f).rstrip(b"\n") for f in files) + b"\n")
    path = os.path.join(sources3.HERE, "secrets.jsonl")
    with open(path) as f:
        corpus = list(map(json.loads, f))
    kept = {}
    for e in corpus:
        if e["source"] in repos:
            e["split"] = build.split_of(e["group"])
            kept.setdefault(e["source"], []).append(e["text"])
    with open(path, "w") as f:
        for e in corpus:
            f.write(json.dumps(e, ensure_ascii=False, sort_keys=True) + "\n")
    path = os.path.join(sources3.HERE, "manifest.json")
    with open(path) as f:
        files = [m for m in json.load(f) if m["source"] not in repos]
    for (src, name, licence, _), _, _ in builds:
        if src not in kept:
            continue
        taken = sorted({p for (s, t), ps in taken_files.items() if s == src and any(t in k for k in kept[src]) for p in ps})
        for p, what in [(p, taken_as[src]) for p in taken] + facts_of(src, repos[src], taken):
            files.append({"source": src, "repo": name, "commit": repos[src].commit, "path": p, "licence": licence, "taken": what})
    with open(path, "w") as f:
        json.dump(files, f, indent=1, sort_keys=True, ensure_ascii=False)
        f.write("\n")


def add(mirror):
    """This build's examples and files (add_builds)."""
    add_builds(mirror, [(HORUSEC, horusec, ["LICENSE"]), (CHECKOV, checkov, ["LICENSE"]), (DEVSKIM, devskim, ["LICENSE.txt", "NOTICE.txt"])],
               TAKEN, TAKEN_AS, lambda src, repo, taken: FACTS[src])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--mirror", required=True)
    add(ap.parse_args().mirror)


if __name__ == "__main__":
    main()
