#!/usr/bin/env python3
"""Titus (an eleventh corpus build): the examples of the rules that praetorian-inc/titus, the
successor of Nosey Parker, carries and the corpus does not have yet.

    python3 testdata/eval/sources11.py --mirror <dir>

reads a bare clone of praetorian-inc/titus under `<dir>/praetorian-inc+titus/repo` at COMMIT,
replaces this build's examples in secrets.jsonl and its files in manifest.json, and writes
licenses/titus.txt (the LICENSE, then the NOTICE). Titus' rules (`pkg/rule/rules/*.yml`) have
Nosey Parker's shape and are read as the scanner sources read noseyparker's and kingfisher's
(scanners.np_style: a rule's `examples` are events, their secrets what the rule's own pattern
captures; `negative_examples` no other rule matches are format negatives; rules that find
identifiers, user names, domains or public keys left out). Only the rules whose id the
corpus has no example of are taken: Titus imports most of Nosey Parker's rules and many of
Kingfisher's, whose examples the noseyparker and kingfisher sources already hold; what is
left are rules Nosey Parker's snapshot did not have, Kingfisher's newer ones, and Titus' own.
Every example of a rule is in the rule's half: the record's `group` is the rule's id, so a
format learned from a development example has no sibling in the held-back half. As every
later build, an example whose text or secret is already in the corpus or in gitleaks' rule
examples is left out, and examples that share a secret are one event.
"""
import argparse
import json
import os
import re

import build
import scanners
import sources3

SOURCE = "titus"
REPO = "praetorian-inc/titus"
LICENCE = "Apache-2.0"
COMMIT = "369d8dc4359a2d70629e0fe7732d3244a3315efc"
RULES = "pkg/rule/rules/"


def corpus_rules():
    """The rule ids the noseyparker and kingfisher sources have examples of."""
    ids = set()
    with open(os.path.join(sources3.HERE, "secrets.jsonl")) as f:
        for e in map(json.loads, f):
            if m := re.match(r"(?:noseyparker|kingfisher):([^:]+):", e["id"]):
                ids.add(m.group(1))
    return ids


# Rules whose name says secret but whose pattern captures an identifier: the account name
# of an Azure Storage connection string.
NOT_SECRET_RULES = {"kingfisher.azurestorage.1a"}


def titus(repo, new):
    known = corpus_rules() | NOT_SECRET_RULES
    found = []
    scanners.np_style(SOURCE, repo, RULES, found, sources3.record, build.is_placeholder)
    for e in found:
        rid = e["id"].split(":")[1]
        if rid in known:
            continue
        e["group"] = rid
        new.append(e)


def add(mirror):
    """Replaces this build's examples in secrets.jsonl and its files in manifest.json, then
    fixes each example's half by its rule."""
    repo = build.Repo(mirror, REPO)
    repo.commit = COMMIT
    sources3.add_build(SOURCE, REPO, LICENCE, lambda new: titus(repo, new), "titus.txt",
                       lambda: repo.raw("LICENSE") + b"\n\n" + repo.raw("NOTICE"))
    path = os.path.join(sources3.HERE, "secrets.jsonl")
    with open(path) as f:
        corpus = list(map(json.loads, f))
    kept = set()
    for e in corpus:
        if e["source"] == SOURCE:
            e["split"] = build.split_of(e["group"])
            kept.add(e["group"])
    with open(path, "w") as f:
        for e in corpus:
            f.write(json.dumps(e, ensure_ascii=False, sort_keys=True) + "\n")
    # The manifest names only the rule files that hold a rule taken.
    path = os.path.join(sources3.HERE, "manifest.json")
    with open(path) as f:
        files = json.load(f)
    holds = {p: {r["id"] for _, r in scanners.yaml_rules(repo, p)} for p in {m["path"] for m in files if m["source"] == SOURCE}}
    files = [m for m in files if m["source"] != SOURCE or holds[m["path"]] & kept]
    with open(path, "w") as f:
        json.dump(files, f, indent=1, sort_keys=True)
        f.write("\n")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--mirror", required=True)
    add(ap.parse_args().mirror)


if __name__ == "__main__":
    main()
