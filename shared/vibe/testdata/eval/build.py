#!/usr/bin/env python3
"""Builds the evaluation corpora of the sanitizer from public repositories.

Run once, by hand, with the repositories as bare git directories:

    python3 testdata/eval/build.py --mirror /path/to/mirrors

where /path/to/mirrors/<owner>+<name>/repo is a bare clone of github.com/<owner>/<name>.
Every output line names its source repository, commit, path and licence (manifest.json
lists the same per file). Each example gets its split, dev or held, from the SHA-256 of its
id; a split written once is never changed: rebuilding keeps the ids and so the split.
"""
import argparse
import ast
import base64
import hashlib
import json
import os
import re
import subprocess
import sys

import scanners

HERE = os.path.dirname(os.path.abspath(__file__))

SOURCES = {
    "secrets-patterns-db": ("mazen160/secrets-patterns-db", "CC-BY-SA-4.0 (facts only: examples generated here)"),
    "credsweeper": ("Samsung/CredSweeper", "MIT"),
    "detect-secrets": ("Yelp/detect-secrets", "Apache-2.0"),
    "spotter": ("marot/spotter", "MIT"),
    "claude-code-log": ("daaain/claude-code-log", "MIT"),
    "claude-code-transcripts": ("simonw/claude-code-transcripts", "Apache-2.0"),
    "noseyparker": ("praetorian-inc/noseyparker", "Apache-2.0"),
    "kingfisher": ("mongodb/kingfisher", "Apache-2.0"),
    "secretlint": ("secretlint/secretlint", "MIT"),
    "whispers": ("Skyscanner/whispers", "Apache-2.0"),
    "ripsecrets": ("sirwart/ripsecrets", "MIT"),
    "ggshield": ("GitGuardian/ggshield", "MIT"),
    "trufflehog": ("trufflesecurity/trufflehog", "AGPL-3.0 (facts only: examples generated here)"),
    "ms-security-utilities": ("microsoft/security-utilities", "MIT (facts only: examples generated here)"),
}

# The sources of the second build, from the secret scanners' test suites (scanners.py).
SCANNERS = ["noseyparker", "kingfisher", "secretlint", "whispers", "ripsecrets", "ggshield", "trufflehog",
            "ms-security-utilities"]


def split_of(ident):
    """dev or held, fixed by the id: the first byte of its SHA-256, even or odd."""
    return "dev" if hashlib.sha256(ident.encode()).digest()[0] % 2 == 0 else "held"


class Repo:
    def __init__(self, mirror, name):
        self.name = name
        self.git = os.path.join(mirror, name.replace("/", "+"), "repo")
        self.commit = self.run("rev-parse", "HEAD").strip()

    def run(self, *args):
        return subprocess.run(["git", "--git-dir", self.git, *args], check=True, capture_output=True).stdout.decode("utf-8", "replace")

    def raw(self, path):
        return subprocess.run(["git", "--git-dir", self.git, "show", f"{self.commit}:{path}"], check=True, capture_output=True).stdout

    def show(self, path):
        return self.raw(path).decode("utf-8", "replace")

    def ls(self, prefix):
        return [p for p in self.run("ls-tree", "-r", "--name-only", self.commit, prefix).splitlines() if p]


manifest = []


def record(source, repo, path, what):
    manifest.append({"source": source, "repo": repo.name, "commit": repo.commit, "path": path,
                     "licence": SOURCES[source][1], "taken": what})


# CredSweeper rules that mark identifiers or non-secret values rather than credentials.
CS_NOT_SECRET = {"UUID", "AWS S3 Bucket", "Firebase Domain", "Tencent WeChat API App ID", "Nonce", "Salt", "AWS Client ID"}
# CredSweeper rules found by the keyword, command-line or URL context rather than by format.
CS_CONTEXT = {"Password", "Key", "Token", "Secret", "Credential", "Auth", "API", "SQL Password",
              "CMD Password", "CMD Secret", "CMD Token", "CMD ConvertTo-SecureString", "CURL Options",
              "CURL User Password", "URL Credentials", "Basic Authorization", "Bearer Authorization"}


# A labelled value that is a placeholder by the sanitizer's definition (runs of x, the word
# example, ${VAR}-style references, angle-bracket slots) is no secret to catch: streamers
# expect those to pass. The same rule applies to every source and both halves.
PLACEHOLDER = re.compile(r"(?i)xxxx|example|^\$\{.*\}$|^<[^<>]*>$|\*\*\*\*")


def is_placeholder(secret):
    return bool(PLACEHOLDER.search(secret))


def credsweeper(repo, out):
    """Every credential in CredSweeper's expected report (tests/data/output.json) becomes
    one event holding the line it is on; lines of its text samples that none of its reports
    (the default one and the most permissive ones) flags become harmless events."""
    src = "credsweeper"
    reports = {}
    for name in ["output", "no_filters_no_ml", "depth_3_pedantic", "no_ml", "doc"]:
        reports[name] = json.loads(repo.show(f"tests/data/{name}.json"))
        record(src, repo, f"tests/data/{name}.json", "expected findings (labels)")
    flagged = {}  # path → set of line numbers flagged by any report
    for rep in reports.values():
        for cand in rep:
            for ld in cand["line_data_list"]:
                flagged.setdefault(ld["path"].lstrip("./"), set()).add(ld["line_num"])
    by_line = {}
    for cand in reports["output"]:
        rule = cand["rule"]
        if rule in CS_NOT_SECRET:
            continue
        for ld in cand["line_data_list"]:
            path = ld["path"].removeprefix("./")
            if not path.startswith("tests/samples/") or ld["value"] is None or len(ld["value"]) < 4:
                continue
            key = (path, ld["line_num"])
            e = by_line.setdefault(key, {"path": path, "line": ld["line_num"], "rules": set(), "secrets": set()})
            e["rules"].add(rule)
            e["secrets"].add(ld["value"])
    files = {}
    pem_files = {}
    for (path, ln), e in sorted(by_line.items()):
        if path not in files:
            try:
                files[path] = repo.raw(path).decode("utf-8")
            except (UnicodeDecodeError, subprocess.CalledProcessError):
                files[path] = None
            if files[path] is not None:
                record(src, repo, path, "sample lines")
        text = files[path]
        if text is None:
            continue
        lines = text.split("\n")
        if ln < 1 or ln > len(lines):
            continue
        line = lines[ln - 1]
        secrets = [s for s in e["secrets"] if s in line and not is_placeholder(s)]
        if not secrets:
            continue
        if any("Private Key" in r or "PEM" in r or r in ("JWK", "JSON Web Key") for r in e["rules"]):
            # A key spans lines: the event is the whole file, as `cat` would print it.
            pem_files.setdefault(path, set()).update(secrets)
            continue
        cls = "keyword-context" if e["rules"] <= CS_CONTEXT else "known-format"
        ident = f"{src}:{path}:{ln}"
        out.append({"id": ident, "source": src, "split": split_of(ident), "class": cls,
                    "label": ",".join(sorted(e["rules"])), "text": line, "secrets": sorted(secrets)})
    for path, secrets in sorted(pem_files.items()):
        ident = f"{src}:{path}"
        # Values under 8 characters in a key file are its labels (kty RSA), not key material.
        kept = sorted(s for s in secrets if s in files[path][:16000] and len(s) >= 8 and "kty" not in s)
        if kept:
            out.append({"id": ident, "source": src, "split": split_of(ident), "class": "known-format",
                        "label": "PEM Private Key / JWK", "text": files[path][:16000], "secrets": kept})
    # Lines of the samples that no report flags. They come from files written around
    # credentials (key bodies, encoded blobs, near-miss formats), so they are format
    # negatives, reported but not held to the harmless threshold.
    for path in repo.ls("tests/samples/"):
        try:
            text = repo.raw(path).decode("utf-8")
        except (UnicodeDecodeError, subprocess.CalledProcessError):
            continue
        if "\x00" in text or len(text) > 200_000:
            continue
        fl = flagged.get(path, set())
        used = False
        for i, line in enumerate(text.split("\n"), 1):
            if i in fl or len(line.strip()) < 8:
                continue
            ident = f"{src}:{path}:{i}"
            out.append({"id": ident, "source": src, "split": split_of(ident), "class": "format-negative",
                        "label": "unflagged-sample-line", "text": line, "secrets": []})
            used = True
        if used and path not in files:
            record(src, repo, path, "unflagged sample lines (format negatives)")


def literal(node):
    try:
        return ast.literal_eval(node)
    except Exception:
        return None


def detect_secrets(repo, out):
    """detect-secrets' plugin tests: every parametrized line its tests expect a plugin to
    flag is a secret (the keyword plugin's cases are keyword-context, the others known-format);
    lines they expect no plugin to flag are format negatives."""
    src = "detect-secrets"
    for path in repo.ls("tests/plugins/"):
        if not path.endswith("_test.py"):
            continue
        plugin = os.path.basename(path).removesuffix("_test.py")
        code = repo.show(path)
        taken = 0
        if plugin == "keyword":
            ns = {}
            body = "\n".join(l for l in code.split("\n") if not l.startswith(("from detect_secrets", "import pytest")))
            body = body.split("\n@pytest", 1)[0].split("\nclass ", 1)[0]
            exec(compile(body, path, "exec"), ns)
            for name, cases in ns.items():
                if not name.endswith("_TEST_CASES") or not isinstance(cases, list):
                    continue
                for case in cases:
                    if not (isinstance(case, tuple) and len(case) == 2 and isinstance(case[0], str)):
                        continue
                    line, secret = case
                    if len(line) > 10_000:
                        line = line[:300]
                    ident = f"{src}:{path}:{name}:{line}"
                    if secret and is_placeholder(secret):
                        continue
                    if secret:
                        out.append({"id": ident, "source": src, "split": split_of(ident), "class": "keyword-context",
                                    "label": f"keyword/{name}", "text": line, "secrets": [secret]})
                    else:
                        out.append({"id": ident, "source": src, "split": split_of(ident), "class": "format-negative",
                                    "label": f"keyword/{name}", "text": line, "secrets": []})
                    taken += 1
        else:
            tree = ast.parse(code)
            for node in ast.walk(tree):
                if not (isinstance(node, ast.Call) and getattr(node.func, "attr", "") == "parametrize" and len(node.args) >= 2):
                    continue
                names = literal(node.args[0])
                values = literal(node.args[1])
                if not isinstance(names, str) or not isinstance(values, list):
                    continue
                names = [n.strip() for n in names.split(",")]
                for v in values:
                    if not isinstance(v, tuple):
                        v = (v,)
                    if not v or not isinstance(v[0], str) or len(v) != len(names):
                        continue
                    flag = None
                    if len(names) == 1 and names[0] in ("line", "payload", "token"):
                        flag = True
                    elif len(names) >= 2 and isinstance(v[1], bool):
                        flag = v[1]
                    if flag is None:
                        continue
                    line = v[0]
                    ident = f"{src}:{path}:{line}"
                    cls = "known-format" if plugin not in ("high_entropy_strings", "basic_auth", "ip_public", "base") else "keyword-context"
                    if plugin in ("ip_public", "base"):
                        continue  # IP addresses are not secrets here
                    if flag and is_placeholder(secret_of(plugin, line)):
                        continue
                    if flag:
                        out.append({"id": ident, "source": src, "split": split_of(ident), "class": cls,
                                    "label": plugin, "text": line, "secrets": [secret_of(plugin, line)]})
                    else:
                        out.append({"id": ident, "source": src, "split": split_of(ident), "class": "format-negative",
                                    "label": plugin, "text": line, "secrets": []})
                    taken += 1
        if taken:
            record(src, repo, path, "parametrized test lines")


def secret_of(plugin, line):
    """The secret inside a flagged detect-secrets test line: the quoted value, else the
    longest token of the line."""
    line = re.sub(r"^[A-Za-z][\w-]*:\s+", "", line)  # an HTTP header name
    m = re.search(r"""["']([^"']{8,})["']""", line)
    if m:
        return m.group(1)
    if plugin == "basic_auth":
        m = re.search(r"://[^:/@\s]+:([^@\s]+)@", line)
        if m:
            return m.group(1)
    toks = re.findall(r"[^\s=:\"'`,;()]+", line)
    return max(toks, key=len) if toks else line


def cut_strings(v, n=4000):
    """Cuts every string in a decoded JSON value to n characters (the mapper previews 2000)."""
    if isinstance(v, str):
        return v if len(v) <= n else v[:n]
    if isinstance(v, list):
        return [cut_strings(x, n) for x in v]
    if isinstance(v, dict):
        return {k: cut_strings(x, n) for k, x in v.items()}
    return v


def transcripts(repo, src, paths, out, max_bytes):
    """Real Claude Code transcripts, kept as JSONL lines with every string cut to 4000
    characters, whole sessions up to max_bytes per file, so that a replay sees a session in
    order."""
    for path in paths:
        try:
            data = repo.show(path)
        except subprocess.CalledProcessError:
            continue  # not in the snapshot (files of 4 MB and more)
        kept, size = [], 0
        for line in data.split("\n"):
            if not line.strip():
                continue
            try:
                line = json.dumps(cut_strings(json.loads(line)), ensure_ascii=False, separators=(",", ":"))
            except ValueError:
                continue
            if size + len(line) > max_bytes:
                break
            kept.append(line)
            size += len(line) + 1
        if not kept:
            continue
        ident = f"{src}:{path}"
        name = re.sub(r"[^A-Za-z0-9._-]+", "_", f"{src}__{path}")
        rel = os.path.join("transcripts", name if name.endswith(".jsonl") else name + ".jsonl")
        with open(os.path.join(HERE, rel), "w") as f:
            f.write("\n".join(kept) + "\n")
        out.append({"id": ident, "source": src, "split": split_of(ident), "class": "transcript", "file": rel,
                    "lines": len(kept)})
        record(src, repo, path, f"first {len(kept)} transcript lines, strings cut to 4000 characters")


def generate(regex, rnd):
    """A string matching a simple token regex (literals, classes, bounded repeats, groups,
    alternations), characters drawn from rnd."""
    try:
        import re._parser as sre
    except ImportError:
        import sre_parse as sre
    from re._constants import LITERAL, IN, MAX_REPEAT, MIN_REPEAT, SUBPATTERN, BRANCH, RANGE, CATEGORY, NEGATE, AT, NOT_LITERAL, ANY

    def chars(items):
        out = []
        for op, av in items:
            if op == LITERAL:
                out.append(chr(av))
            elif op == RANGE:
                out.extend(chr(c) for c in range(av[0], av[1] + 1))
            elif op == CATEGORY:
                out.extend("0123456789" if "DIGIT" in str(av) else "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_")
            elif op == NEGATE:
                raise ValueError("negated class")
        return out

    def gen(tokens):
        out = []
        for op, av in tokens:
            if op == LITERAL:
                out.append(chr(av))
            elif op == IN:
                out.append(rnd.choice(chars(av)))
            elif op in (MAX_REPEAT, MIN_REPEAT):
                lo, hi, sub = av
                hi = min(hi, lo + 8) if hi != sre.MAXREPEAT else lo + 8
                for _ in range(rnd.randint(lo, max(lo, hi))):
                    out.append(gen(sub))
            elif op == SUBPATTERN:
                out.append(gen(av[-1]))
            elif op == BRANCH:
                out.append(gen(rnd.choice(av[1])))
            elif op == AT:
                pass
            else:
                raise ValueError(f"unsupported {op}")
        return "".join(out)

    return gen(sre.parse(regex))


def secrets_patterns_db(repo, out):
    """secrets-patterns-db's high-confidence token formats that open with a literal prefix:
    one example per pattern is generated from the pattern (the database is CC BY-SA; only its
    facts, prefix, alphabet and length, are used). Its keyword-name patterns are left out:
    they list identifiers, user names and URLs beside credentials, with no label telling
    them apart."""
    import random
    src = "secrets-patterns-db"
    data = yaml_patterns(repo.show("db/rules-stable.yml"))
    record(src, repo, "db/rules-stable.yml", "token formats (facts); examples generated")
    for name, regex, conf in data:
        if conf != "high" or regex.startswith("(?i)") or "(=| =|:| :)" in regex:
            continue
        if not re.match(r"^[A-Za-z0-9_\-\.]{3,}[\[\(]", regex):
            continue
        rnd = random.Random(hashlib.sha256(regex.encode()).digest())
        try:
            tok = generate(regex, rnd)
        except (ValueError, re.error):
            continue
        if not re.fullmatch(regex, tok) and not re.search(regex, tok):
            continue
        if is_placeholder(tok):
            continue
        ident = f"{src}:{name}"
        out.append({"id": ident, "source": src, "split": split_of(ident), "class": "known-format",
                    "label": name, "text": f"{tok}", "secrets": [tok]})


def yaml_patterns(text):
    """(name, regex, confidence) of each pattern of a rules-stable.yml, without a YAML
    library: the file is a flat list of three-key mappings."""
    out, cur = [], {}
    for line in text.split("\n"):
        m = re.match(r"\s+(name|regex|confidence):\s?(.*)$", line)
        if not m:
            continue
        k, v = m.group(1), m.group(2).strip()
        if v.startswith('"') and v.endswith('"') or v.startswith("'") and v.endswith("'"):
            v = v[1:-1].replace('\\\\', '\\') if v.startswith('"') else v[1:-1]
        cur[k] = v
        if k == "confidence":
            out.append((cur.get("name", ""), cur.get("regex", ""), v))
            cur = {}
    return out


def measurable(text, secrets):
    """The secrets whose survival can be told: a short label that is also part of a longer
    word of the text (the value hardcoded in the key hardcoded_password) is left out."""
    kept = []
    for s in sorted(secrets, key=len, reverse=True):
        t = text
        for longer in kept:
            t = t.replace(longer, "\x00")
        inside = re.search(r"[A-Za-z0-9_]" + re.escape(s) + "|" + re.escape(s) + r"[A-Za-z0-9_]", t)
        if len(s) >= 12 or not inside:
            kept.append(s)
    return sorted(kept)


def merge_new(existing, new, seen_texts):
    """Adds the scanner sources' examples to the corpus. An example whose text or secret is
    already in the corpus, or in gitleaks' rule examples (seen in full while the rules were
    written), is left out; examples that share a secret are joined into one event, so that
    no secret is in both halves."""
    taken_text = {e["text"] for e in existing}
    taken_secret = {s for e in existing for s in e["secrets"]}
    groups, by_secret = [], {}
    negatives = []
    for e in new:
        if e["text"] in taken_text or any(s in taken_secret or any(s in t for t in seen_texts) for s in e["secrets"]):
            continue
        if not e["secrets"]:
            negatives.append(e)
            continue
        hit = sorted({by_secret[s] for s in e["secrets"] if s in by_secret})
        if not hit:
            g = len(groups)
            groups.append([e])
        else:
            g = hit[0]
            for h in hit[1:]:
                groups[g].extend(groups[h])
                for x in groups[h]:
                    for s in x["secrets"]:
                        by_secret[s] = g
                groups[h] = []
            groups[g].append(e)
        for s in e["secrets"]:
            by_secret[s] = g
    out, ids = [], {e["id"] for e in existing}
    for g in groups:
        if not g:
            continue
        first = dict(g[0])
        texts = []
        for x in g:
            if x["text"] not in texts:
                texts.append(x["text"])
        first["text"] = "\n\n".join(texts)
        first["secrets"] = measurable(first["text"], {s for x in g for s in x["secrets"]})
        if not first["secrets"]:
            continue
        if first["id"] not in ids:
            ids.add(first["id"])
            out.append(first)
    positive_secrets = [s for e in existing + out for s in e["secrets"]]
    for e in negatives:
        if e["id"] in ids or e["text"] in taken_text or any(s in e["text"] for s in positive_secrets if len(s) >= 8):
            continue
        ids.add(e["id"])
        taken_text.add(e["text"])
        out.append(e)
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--mirror", required=True)
    ap.add_argument("--only", default="", help="comma-separated sources to rebuild; the examples of the others are kept as written")
    args = ap.parse_args()
    only = set(args.only.split(",")) if args.only else set(SOURCES)
    unknown = only - set(SOURCES)
    if unknown:
        sys.exit(f"unknown sources: {sorted(unknown)}")
    repos = {k: Repo(args.mirror, v[0]) for k, v in SOURCES.items() if k in only}
    kept = []
    if args.only:
        with open(os.path.join(HERE, "secrets.jsonl")) as f:
            kept = [e for e in map(json.loads, f) if e["source"] not in only]
        with open(os.path.join(HERE, "manifest.json")) as f:
            manifest.extend(m for m in json.load(f) if m["source"] not in only)
    secrets = []
    if "credsweeper" in only:
        credsweeper(repos["credsweeper"], secrets)
    if "detect-secrets" in only:
        detect_secrets(repos["detect-secrets"], secrets)
    if "secrets-patterns-db" in only:
        secrets_patterns_db(repos["secrets-patterns-db"], secrets)
    if {"spotter", "claude-code-log", "claude-code-transcripts"} <= only:
        os.makedirs(os.path.join(HERE, "transcripts"), exist_ok=True)
        sessions = []
        sp = repos["spotter"]
        transcripts(sp, "spotter", [p for p in sp.ls("test/fixtures/transcripts/") if p.endswith(".jsonl")], sessions, 1_000_000)
        cl = repos["claude-code-log"]
        transcripts(cl, "claude-code-log", [p for p in cl.ls("test/test_data/") if p.endswith(".jsonl")], sessions, 400_000)
        ct = repos["claude-code-transcripts"]
        transcripts(ct, "claude-code-transcripts", [p for p in ct.ls("tests/") if p.endswith(".jsonl")], sessions, 400_000)
        with open(os.path.join(HERE, "transcripts.jsonl"), "w") as f:
            for e in sessions:
                f.write(json.dumps(e, ensure_ascii=False, sort_keys=True) + "\n")
    seen, corpus = set(), []
    for e in kept + secrets:
        if e["id"] not in seen:
            seen.add(e["id"])
            corpus.append(e)
    new = []
    for src in SCANNERS:
        if src in only:
            getattr(scanners, src.replace("-", "_"))(repos[src], new, record, is_placeholder)
    with open(os.path.join(HERE, "..", "gitleaks", "examples.jsonl")) as f:
        gitleaks_texts = [t for r in map(json.loads, f) for t in r["tps"]]
    corpus += merge_new(corpus, new, gitleaks_texts)
    with open(os.path.join(HERE, "secrets.jsonl"), "w") as f:
        for e in corpus:
            f.write(json.dumps(e, ensure_ascii=False, sort_keys=True) + "\n")
    with open(os.path.join(HERE, "manifest.json"), "w") as f:
        json.dump(manifest, f, indent=1, sort_keys=True)
        f.write("\n")
    os.makedirs(os.path.join(HERE, "licenses"), exist_ok=True)
    for name, repo in repos.items():
        lic_path = "LICENSE.md" if repo.name == "mazen160/secrets-patterns-db" else "LICENSE"
        with open(os.path.join(HERE, "licenses", name + ".txt"), "wb") as f:
            f.write(repo.raw(lic_path))
        if "NOTICE" in repo.ls("NOTICE"):
            with open(os.path.join(HERE, "licenses", name + ".NOTICE.txt"), "wb") as f:
                f.write(repo.raw("NOTICE"))
    print(f"{len(corpus)} examples ({len(corpus) - len(kept) - len(secrets)} from the scanners), {len(manifest)} files")
    if not args.only:
        import sources3  # the code sources, appended after the rest
        sources3.add(args.mirror)


if __name__ == "__main__":
    main()
