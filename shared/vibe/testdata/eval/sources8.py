#!/usr/bin/env python3
"""sonar-text (an eighth corpus build): the examples SonarSource wrote beside each rule of its
secret detector, each one a snippet of code, configuration, a command line or a log, said to
hold a secret or not, with the secret's text.

    python3 testdata/eval/sources8.py --mirror <dir>

reads a bare clone of SonarSource/sonar-text under `<dir>/SonarSource+sonar-text/repo` at
COMMIT, the last commit under the LGPL-3.0 (the next change relicensed the project and moved
most rules out of it), replaces this build's examples in secrets.jsonl and its files in
manifest.json, and writes licenses/sonar-text.txt. Labels are the rules' own:

- an example with `containsSecret: true` is an event, its secret the example's `match`,
  which is what the rule's pattern captures, with these readings: a URL's `user:password`
  gives its password; an Azure shared access signature (`r=…&e=…&s=…`) its signature; a
  value written over several lines or string literals (`"…" +` then `"…"`) each piece of
  eight characters or more; a private key (the match is its armour line) the body lines of
  sixteen characters or more.
- a rule whose pattern demands a literal of three characters or more inside the secret
  (the vendor's signature: `sk_live_`, `glpat-`, `AKCp`, …) is `known-format`; one found by
  the name, header, flag or URL around a value without one is `keyword-context`.
- an example with `containsSecret: false` is a format negative, unless it holds a secret
  another example is labelled with (a negative of one rule may carry another rule's key).
Left out: rules that find identifiers (access key ids, client ids, account names).
"""
import argparse
import re

import yaml

import build
import scanners
import sources3

SOURCE = "sonar-text"
REPO = "SonarSource/sonar-text"
LICENCE = "LGPL-3.0"
COMMIT = "da21f3d7a51144c0a4a33ae6d7a74c5a26c344ad"
RULES = "sonar-text-plugin/src/main/resources/org/sonar/plugins/secrets/configuration/"

URL_USERINFO = re.compile(r"://([^\s:/@]+):([^\s/@]+)@")
SAS_SIGNATURE = re.compile(r"&s(?:ig)?=([^&\s\"']+)")
PIECES = re.compile(r"[\"'\s+]+")


def python_pattern(pattern):
    """A sonar-text (Java) pattern as Python's re reads it, for its literal signature: named
    groups spelled `(?P<…>`, look-arounds (they capture nothing) and inline flags after the
    start dropped."""
    p = re.sub(r"\(\?<([A-Za-z]\w*)>", r"(?P<\1>", pattern)
    p = re.sub(r"\(\?<?[!=](?:[^()\\]|\\.|\([^()]*\))*\)", "", p)
    return p[:5] + re.sub(r"\(\?[imsx]+\)", "", p[5:])


def fixed_run(tokens):
    """The longest run of fixed characters in a parsed pattern (re._parser's sequence), where
    a class of five characters or fewer (`gh[pusor]_`, `[rs]k_live_`) counts as one, and a
    group or an alternation of fixed runs of one length as that many."""
    from re._constants import IN, LITERAL, SUBPATTERN, MAX_REPEAT, MIN_REPEAT, BRANCH

    def fixed(op, av):
        return op == LITERAL or op == IN and len(av) <= 5 and all(o == LITERAL for o, _ in av)

    def longest(tokens):
        best = cur = 0
        for op, av in tokens:
            if fixed(op, av):
                cur += 1
                best = max(best, cur)
                continue
            if op == SUBPATTERN:
                inner = longest(av[-1])
                if all(fixed(o, a) for o, a in av[-1]):
                    cur += len(av[-1])
                    best = max(best, cur)
                    continue
                best = max(best, inner)
            elif op == BRANCH:
                alts = av[1]
                if alts and len({len(a) for a in alts}) == 1 and all(all(fixed(o, x) for o, x in a) for a in alts):
                    cur += len(alts[0])
                    best = max(best, cur)
                    continue
            elif op in (MAX_REPEAT, MIN_REPEAT) and av[0] >= 1:
                best = max(best, longest(av[2]))
            cur = 0
        return best

    return longest(tokens)


def signature_run(pattern):
    """The longest run of characters a match of the pattern's secret must hold (fixed_run of
    its first capturing group, else of the whole pattern): the vendor's signature when it has
    one."""
    import re._parser as sre
    try:
        tree = sre.parse(python_pattern(pattern))
    except Exception:
        return 0
    g = scanners.first_group(list(tree))
    return fixed_run(g if g is not None else list(tree))


def secrets_of(match, text):
    """The secrets an example's match names (see the module's comment)."""
    match = match.strip()
    if match.startswith("-----BEGIN") or match.startswith("PuTTY-User-Key-File"):
        body = []
        inside = False
        for ln in text.splitlines():
            s = ln.strip().strip("\"',;")
            if s.startswith("-----BEGIN") or s.startswith("Private-Lines:"):
                inside = True
                continue
            if s.startswith("-----END") or s.startswith("Private-MAC:"):
                inside = False
                continue
            if inside and len(s) >= 16 and ":" not in s and " " not in s:
                body.append(s)
        return body
    m = SAS_SIGNATURE.search(match)
    if match.startswith("r=http") and m:
        return [m.group(1)]
    u = URL_USERINFO.search(text)
    if u and match == f"{u.group(1)}:{u.group(2)}":
        return [u.group(2)]
    if "\n" in match or '" +' in match or "' +" in match:
        return [p for p in PIECES.split(match) if len(p) >= 8]
    return [match]


def sonar(repo, out):
    taken = set()
    rule_files = sorted(p for p in repo.ls(RULES) if p.endswith(".yaml"))
    for path in rule_files:
        doc = yaml.safe_load(repo.show(path)) or {}
        provider = doc.get("provider") or {}
        for rule in provider.get("rules") or []:
            rid = rule.get("id", "")
            name = (rule.get("metadata") or {}).get("name", "")
            if scanners.NOT_SECRET_NAME.search(name) and not scanners.KEEP_NAME.search(name):
                continue
            pattern = ((rule.get("detection") or {}).get("matching") or {}).get("pattern", "")
            cls = "known-format" if signature_run(pattern) >= 3 else "keyword-context"
            for i, ex in enumerate(rule.get("examples") or []):
                text = (ex.get("text") or "").rstrip("\n")
                if not text.strip():
                    continue
                ident = f"{SOURCE}:{rid}:{i}"
                if ex.get("containsSecret"):
                    secrets = [s for s in secrets_of(str(ex.get("match", "")), text)
                               if s in text and not build.is_placeholder(s)]
                    if not secrets:
                        continue
                    scanners.example(out, SOURCE, ident, cls, f"{rid} {name}", text, secrets)
                else:
                    scanners.example(out, SOURCE, ident, "format-negative", f"{rid} {name}", text, [])
                taken.add(path)
    # a negative that holds a secret another example is labelled with is no negative
    labelled = {s for e in out if e["secrets"] for s in e["secrets"]}
    out[:] = [e for e in out if e["secrets"] or not any(s in e["text"] for s in labelled)]
    for path in sorted(taken):
        sources3.record(SOURCE, repo, path, "rule examples, containsSecret and match (labels and negatives)")


def add(mirror):
    """Replaces this build's examples in secrets.jsonl and its files in manifest.json."""
    repo = build.Repo(mirror, REPO)
    repo.commit = COMMIT
    sources3.add_build(SOURCE, REPO, LICENCE, lambda new: sonar(repo, new), "sonar-text.txt",
                       lambda: repo.raw("LICENSE.txt"))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--mirror", required=True)
    add(ap.parse_args().mirror)


if __name__ == "__main__":
    main()
