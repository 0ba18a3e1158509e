#!/usr/bin/env python3
"""The code sources (a third corpus build): credentials written into code, build files and
cloud configuration, labelled by the static analysers and secret scanners that test for them.

    python3 testdata/eval/sources3.py --mirror /path/to/mirrors

appends these sources' examples to secrets.jsonl and their files to manifest.json (the
examples and files of every other source are kept as written; a rerun replaces only its
own). build.py runs it after a full rebuild. Labels are the sources' own:

- trivy: the findings its scanner test expects, masked (`****`) where the secret is; the
  secret is what the mask covers on the input file's line.
- gosec: the G101 samples with the number of issues each must raise; in a sample that must
  raise one, the secret is the string literal given to a credential name or compared with
  one (gosec reports the literal), a URL's password taken out of it.
- bandit: `examples/hardcoded-passwords.py`, where a comment above each case names the
  password bandit reports; `tests/functional/test_functional.py` expects 16 of them.
- semgrep-rules: test files where `ruleid:` marks the next line as flagged and `ok:` as not;
  the secret is the line's one string literal (or, unquoted, its value).

Examples that share a secret (or hold one inside another) are one event, so that no secret
is in both halves; one whose text or secret is already in the corpus, or in gitleaks' rule
examples, is left out; placeholders are dropped (build.is_placeholder).
"""
import argparse
import json
import os
import re
import sys

import build
import scanners

HERE = os.path.dirname(os.path.abspath(__file__))

SOURCES3 = {
    "trivy": ("aquasecurity/trivy", "Apache-2.0"),
    "gosec": ("securego/gosec", "Apache-2.0"),
    "bandit": ("PyCQA/bandit", "Apache-2.0"),
    "semgrep-rules": ("semgrep/semgrep-rules", "LGPL-2.1 with the Commons Clause"),
}
LICENCE_FILES = {"trivy": ["LICENSE", "NOTICE"], "gosec": ["LICENSE.txt"], "bandit": ["LICENSE"],
                 "semgrep-rules": ["LICENSE"]}

manifest = []


def record(source, repo, path, what):
    manifest.append({"source": source, "repo": repo.name, "commit": repo.commit, "path": path,
                     "licence": SOURCES3[source][1], "taken": what})


example = scanners.example  # the same record and split rule as the scanner sources


# ---- trivy ----

# Trivy's built-in rules whose secret carries a literal signature of its vendor; the others
# are found by the name or key before them. Public halves are left out.
TRIVY_FORMAT = {"alibaba-access-key-id", "aws-access-key-id", "azure-ai-services-key",
                "azure-container-registry-credential", "azure-entra-client-secret", "github-pat",
                "github-fine-grained-pat", "github-app-token", "grafana-api-token", "hugging-face-access-token",
                "jwt-token", "private-key", "private-packagist-token", "stripe-secret-token"}
TRIVY_SKIP = {"stripe-publishable-token"}
# Rules of the tests' own configuration files rather than trivy's built-in set.
TRIVY_CUSTOM = {"rule1", "multi-line-secret"}
# Test inputs trivy must find nothing in with only its built-in rules (skip-test.yaml):
# near misses of its formats.
TRIVY_NEGATIVE_CONFIG = "skip-test.yaml"


def go_string(s):
    """A Go interpreted string literal's value (the escapes trivy's test uses)."""
    return json.loads(s)


FINDING_FIELD = re.compile(r'RuleID:\s*("(?:[^"\\]|\\.)*")|Number:\s*(\d+)|Content:\s*("(?:[^"\\]|\\.)*")|IsCause:\s*(true|false)')


def trivy_findings(chunk):
    """(rule, [(line number, masked content)]) of every finding literal in chunk."""
    out, rule, num, content = [], None, None, None
    for m in FINDING_FIELD.finditer(chunk):
        if m.group(1):
            rule = go_string(m.group(1))
            out.append((rule, []))
        elif m.group(2):
            num, content = int(m.group(2)), None
        elif m.group(3):
            content = go_string(m.group(3))
        elif m.group(4) == "true" and out and num is not None and content is not None:
            out[-1][1].append((num, content))
    return out


def unmask(masked, line):
    """The parts of line under the masked content's asterisks (trivy masks the secret, and
    the quotes around it, with one asterisk a character; a long line is cut around the
    finding)."""
    parts = re.split(r"(\*+)", masked)
    rx = "".join("(.+?)" if p.startswith("*") else re.escape(p) for p in parts if p)
    m = re.search(rx + ("$" if not parts[-1] else ""), line)
    if not m:
        return []
    # a key in a JSON string: its lines are set apart by written-out newlines
    return [p.strip().strip("\"'") for g in m.groups() for p in g.split("\\n")]


def trivy(repo, out):
    src = "trivy"
    test = "pkg/fanal/secret/scanner_test.go"
    code = repo.show(test)
    record(src, repo, test, "expected findings, masked where the secret is (labels)")
    named = {}
    for m in re.finditer(r"\n\t(wantFinding\w*|want\w+)\s*:=\s*types\.SecretFinding\{(.*?)\n\t\}", code, re.S):
        named[m.group(1)] = trivy_findings(m.group(2))
    start = code.index("inputFilePath string")
    cases = re.split(r"\n\t\t\{\n\t\t\tname:", code[start:])
    files = {}
    for case in cases[1:]:
        inp = re.search(r'inputFilePath:\s*(?:filepath\.Join\("testdata",\s*"([^"]+)"\)|"testdata/([^"]+)")', case)
        cfg = re.search(r'configPath:\s*filepath\.Join\("testdata",\s*"([^"]+)"\)', case)
        if not inp:
            continue
        name = inp.group(1) or inp.group(2)
        want = case.split("want:", 1)[1] if "want:" in case else ""
        findings = []
        for ident in re.findall(r"\b(want\w+)\b", want):
            findings.extend(named.get(ident, []))
        findings.extend(trivy_findings(want))
        e = files.setdefault(name, {"secrets": set(), "rules": set(), "negative": False})
        if not findings and cfg and cfg.group(1) == TRIVY_NEGATIVE_CONFIG and re.search(r"want:\s*types\.Secret\{\}", case):
            e["negative"] = True
        for rule, causes in findings:
            if rule in TRIVY_CUSTOM or rule in TRIVY_SKIP:
                continue
            text = repo.show("pkg/fanal/secret/testdata/" + name)
            lines = text.replace("\r\n", "\n").split("\n")
            for num, masked in causes:
                if 1 <= num <= len(lines):
                    for run in unmask(masked, lines[num - 1]):
                        if len(run) >= 4:
                            e["secrets"].add(run)
                            e["rules"].add(rule)
    for name, e in sorted(files.items()):
        path = "pkg/fanal/secret/testdata/" + name
        text = repo.show(path).replace("\r\n", "\n")[:16000]
        secrets = sorted(s for s in e["secrets"] if s in text and not build.is_placeholder(s))
        if secrets:
            cls = "known-format" if e["rules"] <= TRIVY_FORMAT else "keyword-context"
            example(out, src, f"{src}:{path}", cls, ",".join(sorted(e["rules"])), text, secrets)
            record(src, repo, path, "test input (event: the file as cat prints it)")
        elif e["negative"] and not e["secrets"]:
            for i, line in enumerate(text.split("\n"), 1):
                if len(line.strip()) >= 8:
                    example(out, src, f"{src}:{path}:{i}", "format-negative", "built-in rules find nothing", line, [])
            record(src, repo, path, "test input trivy must find nothing in (format negatives, one per line)")


# ---- gosec ----

GO_STRING = re.compile(r'`[^`]*`|"(?:[^"\\\n]|\\.)*"')


def go_concat(expr):
    """The value of a Go string expression made of literals joined by +."""
    parts = []
    for m in GO_STRING.finditer(expr):
        s = m.group(0)
        parts.append(s[1:-1] if s.startswith("`") else json.loads(s))
    return "".join(parts)


def gosec_samples(code, var):
    """(sources, issues) of each sample of the CodeSample list named var."""
    body = code.split(f"{var} = []CodeSample{{", 1)[1].split("[]CodeSample{", 1)[0]
    out = []
    for m in re.finditer(r"\{\[\]string\{((?:`[^`]*`|\"(?:[^\"\\\n]|\\.)*\"|\s|\+|,)*)\},\s*(\d+),\s*gosec\.\w+\(\)\}", body):
        out.append((go_concat(m.group(1)), int(m.group(2))))
    return out


def gosec_secrets(src_code):
    """The literals a G101 issue reports in a sample that must raise one: those given to a
    name (an assignment, a keyed field, a map key) or compared with one, of six characters
    or more and no spaces; a URL's password taken out of it, a bearer scheme word before it
    left out. (The shorter ones in those samples are user names: admin, user.)"""
    found = []
    for line in src_code.split("\n"):
        for m in re.finditer(r'"((?:[^"\\]|\\.)*)"', line):
            before, after = line[:m.start()], line[m.end():]
            given = re.search(r'(?:[A-Za-z_][\w.]*|"[^"]*")\s*(?::=|=|:|==|!=)\s*$', before)
            compared = re.match(r"\s*(?:==|!=)\s*[A-Za-z_]", after)
            value = re.sub(r"^Bearer:?\s+", "", m.group(1))
            if (given or compared) and len(value) >= 6 and " " not in value:
                found.append(scanners.url_password(value) or value)
    return found


def gosec(repo, out):
    src = "gosec"
    path = "testutils/g101_samples.go"
    code = repo.show(path)
    record(src, repo, path, "G101 samples and the issues each must raise (labels)")
    for var in ("SampleCodeG101", "SampleCodeG101Values"):
        for i, (sample, issues) in enumerate(gosec_samples(code, var)):
            text = sample.strip("\n")
            ident = f"{src}:{path}:{var}:{i}"
            if issues:
                secrets = [s for s in gosec_secrets(text) if not build.is_placeholder(s)]
                if secrets:
                    example(out, src, ident, "keyword-context", f"{var} ({issues} issue)", text, secrets)
            else:
                example(out, src, ident, "format-negative", f"{var} (no issue)", text, [])


# ---- bandit ----

BANDIT_LABEL = re.compile(r"^\s*# Possible hardcoded password: (.*)$")


def bandit(repo, out):
    src = "bandit"
    path = "examples/hardcoded-passwords.py"
    text = repo.show(path)
    record(src, repo, path, "cases, each under a comment naming the password bandit reports (labels)")
    record(src, repo, "tests/functional/test_functional.py", "the number of findings expected of the example (16)")
    for n, block in enumerate(re.split(r"\n\s*\n", text)):
        lines = block.split("\n")
        labels = [BANDIT_LABEL.match(l) for l in lines]
        secrets = []
        for m in labels:
            if m and m.group(1).startswith("'"):
                secrets.append(m.group(1)[1:-1])
        code = "\n".join(l for l, m in zip(lines, labels) if not m and not re.match(r"\s*# (?:Severity:|\.\.\. but not|https://)", l))
        if not code.strip():
            continue
        ident = f"{src}:{path}:{n}"
        if any(m for m in labels):
            secrets = [s for s in secrets if s and not build.is_placeholder(s)]
            if secrets:
                example(out, src, ident, "keyword-context", "B105/B106/B107", code, secrets)
        elif "password" in code:
            example(out, src, ident, "format-negative", "not reported", code, [])


# ---- semgrep-rules ----

# Test files of rules for hard-coded credentials: the generic secret rules, and the rules for
# credentials written into code and configuration in each language.
SEMGREP_FILES = re.compile(
    r"^generic/secrets/(?:security|gitleaks)/(?!.*(?:aws-account-id|bcrypt-hash|etc-shadow|client-id|public-key|"
    r"pub-api-key|pub-key|public|-id\.|api-id))[^/]+\.(?!ya?ml$)\w+$"
    r"|hardcode|hard-code|hardcoded|password-hardcoded|static-credentials|environment-credentials|"
    r"insecure-password-storage|scale-set-password|secret-in-build-arg|hardcoded-http-auth|"
    r"passport-hardcode|express-session-hardcoded-secret")
SEMGREP_EXCLUDE = re.compile(r"\.ya?ml$|/correctness/|hardcoded-tmp|\.fixed\.|hardcoded-conditional")
QUOTED = re.compile(r"""(?<![\w\\])(["'`])((?:(?!\1)[^\\\n]|\\.){4,}?)\1""")
SEMGREP_MARK = re.compile(r"(?:#|//|--|/\*|<!--|;)\s*(ruleid|ok|todoruleid|todook)\s*:\s*([\w.,\s-]+)")


def semgrep_secret(line, generic):
    """The secret of a flagged line: an element's text, a URL's password, a token parameter
    of a query, else the line's one string literal of four or more characters; in a generic
    (not code) file with no literal, the value after its key. None when the line holds
    several literals or the value is itself a URL: what was flagged cannot be told."""
    line = SEMGREP_MARK.split(line)[0]
    m = re.search(r">([^<>]{4,})</", line)
    if m:
        return m.group(1).strip()
    p = scanners.url_password(line.strip())
    if p:
        return p
    m = re.search(r"[?&](?:access_token|token|api_?key|key|secret|sig)=([^&\s\"']+)", line)
    if m:
        return m.group(1)
    lits = [m.group(2) for m in QUOTED.finditer(line)]
    if len(lits) == 1:
        v = scanners.url_password(lits[0]) or lits[0]
    elif not lits and generic:
        v = scanners.line_value(line)
        if v == line.strip():
            return None
    else:
        return None
    return None if "//" in v else v


def semgrep_literals(rule_text):
    """The literal runs (three characters or more, lower-cased) of a rule's regexes."""
    runs = set()
    for m in re.finditer(r"(?:pattern-regex|regex):\s*(.+)", rule_text):
        rx = m.group(1)
        rx = re.sub(r"\\[pP]\{\w+\}|\\.|\[(?:\\.|[^\]])*\]|\{[^}]*\}|\(\?[a-zA-Z]*[:)]?", " ", rx)
        runs.update(r.lower() for r in re.findall(r"[A-Za-z0-9_]{3,}", rx))
    return runs


def semgrep_rules(repo, out):
    src = "semgrep-rules"
    for path in repo.run("ls-tree", "-r", "--name-only", repo.commit).splitlines():
        if not SEMGREP_FILES.search(path) or SEMGREP_EXCLUDE.search(path):
            continue
        try:
            text = repo.raw(path).decode("utf-8")
        except UnicodeDecodeError:
            continue
        if "ruleid" not in text:
            continue
        rule_path = re.sub(r"\.[^/.]+$", ".yaml", path)
        try:
            literals = semgrep_literals(repo.show(rule_path)) if "/secrets/" in path else set()
        except Exception:
            literals = set()
        taken = 0
        for n, block in enumerate(re.split(r"\n[ \t]*\n", text.replace("\r\n", "\n"))):
            lines = block.split("\n")
            marks, kept = [], []
            pending = None
            for l in lines:
                m = SEMGREP_MARK.search(l)
                if m and not SEMGREP_MARK.split(l)[0].strip():
                    pending = m.group(1)
                    continue
                if m:  # a trailing mark labels its own line
                    marks.append((m.group(1), len(kept)))
                    kept.append(SEMGREP_MARK.split(l)[0].rstrip().rstrip("/#").rstrip())
                    continue
                if pending and l.strip():
                    marks.append((pending, len(kept)))
                    pending = None
                kept.append(l)
            code = "\n".join(kept).strip("\n")
            if not code.strip():
                continue
            flagged = [i for kind, i in marks if kind == "ruleid"]
            ident = f"{src}:{path}:{n}"
            if flagged:
                generic = path.startswith("generic/")
                secrets = [semgrep_secret(kept[i], generic) for i in flagged]
                if any(s is None for s in secrets):
                    continue  # a flagged line whose value cannot be told from its literals
                secrets = [s for s in secrets if len(s) >= 4 and not build.is_placeholder(s)]
                if secrets:
                    # known-format when the secret holds a literal of the rule's own
                    # expression (its vendor's signature), else found by the name before it
                    cls = "known-format" if any(r in s.lower() for s in secrets for r in literals) else "keyword-context"
                    example(out, src, ident, cls, os.path.basename(path), code, secrets)
                    taken += 1
            elif marks and all(kind == "ok" for kind, _ in marks):
                lits = [m.group(2) for i in (i for _, i in marks) for m in QUOTED.finditer(kept[i])]
                if "/secrets/" in path or not any(len(x) >= 4 for x in lits):
                    # a generic format rule's near miss, or code holding no literal value:
                    # no secret of another kind
                    example(out, src, ident, "format-negative", os.path.basename(path), code, [])
                    taken += 1
        if taken:
            record(src, repo, path, "rule test file: lines marked ruleid (labels) and ok (negatives)")


def secret_families(examples):
    """The examples that share a secret, or hold one inside another's, as lists of indexes,
    each in order and the lists in the order of their first member."""
    parent = list(range(len(examples)))

    def find(i):
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    secrets = [(s, i) for i, e in enumerate(examples) for s in e["secrets"]]
    for a, i in secrets:
        for b, j in secrets:
            if i != j and (a in b or b in a) and find(i) != find(j):
                parent[find(j)] = find(i)
    families = {}
    for i in range(len(examples)):
        families.setdefault(find(i), []).append(i)
    return list(families.values())


def join_shared(examples):
    """Examples that share a secret, or hold one inside another's, become one event."""
    out = []
    for members in secret_families(examples):
        g = [examples[i] for i in members]
        first = dict(g[0])
        texts = []
        for x in g:
            if x["text"] not in texts:
                texts.append(x["text"])
        first["text"] = "\n\n".join(texts)
        first["secrets"] = sorted({s for x in g for s in x["secrets"]})
        if len(g) > 1 and any(x["class"] == "known-format" for x in g):
            first["class"] = "known-format"
        out.append(first)
    return out


def add(mirror):
    """Replaces this build's examples in secrets.jsonl and its files in manifest.json."""
    repos = {k: build.Repo(mirror, v[0]) for k, v in SOURCES3.items()}
    new = []
    trivy(repos["trivy"], new)
    gosec(repos["gosec"], new)
    bandit(repos["bandit"], new)
    semgrep_rules(repos["semgrep-rules"], new)
    positives = join_shared([e for e in new if e["secrets"]])
    negatives = [e for e in new if not e["secrets"]]
    added = replace_build(set(SOURCES3), positives + negatives, manifest)
    for name, repo in repos.items():
        for lic in LICENCE_FILES[name]:
            suffix = ".NOTICE.txt" if lic == "NOTICE" else ".txt"
            with open(os.path.join(HERE, "licenses", name + suffix), "wb") as f:
                f.write(repo.raw(lic))
    report(added)


def replace_build(sources, examples, files):
    """Replaces the examples and manifest files of a build's sources with new ones; the
    examples of every other source are kept as written. Returns the examples added."""
    with open(os.path.join(HERE, "secrets.jsonl")) as f:
        corpus = [e for e in map(json.loads, f) if e["source"] not in sources]
    with open(os.path.join(HERE, "manifest.json")) as f:
        old_manifest = [m for m in json.load(f) if m["source"] not in sources]
    with open(os.path.join(HERE, "..", "gitleaks", "examples.jsonl")) as f:
        gitleaks_texts = [t for r in map(json.loads, f) for t in r["tps"]]
    added = build.merge_new(corpus, examples, gitleaks_texts)
    for e in added:
        e["split"] = build.split_of(e["id"])
    with open(os.path.join(HERE, "secrets.jsonl"), "w") as f:
        for e in corpus + added:
            f.write(json.dumps(e, ensure_ascii=False, sort_keys=True) + "\n")
    used = {e["source"] for e in added}
    with open(os.path.join(HERE, "manifest.json"), "w") as f:
        json.dump(old_manifest + [m for m in files if m["source"] in used], f, indent=1, sort_keys=True, ensure_ascii=False)
        f.write("\n")
    return added


def unquote(v, trailing=","):
    """A value as a config line or a test row writes it: blanks, the trailing separators and
    one pair of matching quotes taken off."""
    v = v.strip().rstrip(trailing).strip()
    if len(v) >= 2 and v[0] == v[-1] and v[0] in "\"'":
        v = v[1:-1]
    return v


def add_build(source, repo, licence, collect, licence_name, licence_text):
    """Builds one source of a later build: collect(new) appends its examples (record() finds
    the source's licence in SOURCES3 meanwhile), examples sharing a secret are joined, the
    source's examples and manifest files are replaced, licence_text() is written to
    licenses/<licence_name>, and what was added is reported."""
    SOURCES3[source] = (repo, licence)
    new = []
    collect(new)
    positives = join_shared([e for e in new if e["secrets"]])
    negatives = [e for e in new if not e["secrets"]]
    added = replace_build({source}, positives + negatives, manifest)
    with open(os.path.join(HERE, "licenses", licence_name), "wb") as f:
        f.write(licence_text())
    report(added)


def report(added):
    counts = {}
    for e in added:
        k = (e["source"], e["class"], e["split"])
        counts[k] = counts.get(k, 0) + 1
    for k in sorted(counts):
        print(*k, counts[k], file=sys.stderr)
    print(f"{len(added)} examples added", file=sys.stderr)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--mirror", required=True)
    add(ap.parse_args().mirror)


if __name__ == "__main__":
    main()
