#!/usr/bin/env python3
"""Adds to agents.jsonl and sessions/ the seventh build's sessions: SpecStory histories (the
Markdown chats the SpecStory extension saves from Cursor and VS Code, and the SpecStory CLI from
Claude Code, Codex CLI and Gemini CLI, in <project>/.specstory/history/) that their authors
committed into public repositories with a permissive licence, from projects none of the earlier
builds have. One record per history file, kept whole (as agents3.py keeps aider's histories);
a repository's histories all fall in one half: the record's group is the source's name and the
SHA-256 rule is applied to it, so the held-back half is projects never looked at. Records of
other builds are kept as written; manifest.json gets one entry per file taken. Run it after
agents6.py.

    python3 testdata/eval/agents7.py --mirror <dir>   # bare clones as <dir>/<owner>+<name>/repo

Each source is one repository at the commit named below (the one with the most histories and
the licence file present), the licence file checked present at that commit and kept in
licenses/<source>.txt. Files without any message (empty, a title alone, or not SpecStory's)
are not taken, nor files the snapshot lacks (4 MB and more). A source keeps at most
MAX_SESSIONS histories, the first in path order (the oldest, by SpecStory's file names). A
history holding a real credential is left out (WITH_CREDENTIALS, checked by hand)."""
import argparse, hashlib, os, re, subprocess

import agents
import agents4

HERE = agents.HERE

# source: (repository, commit, licence, licence file)
SOURCES = {
    "zero-auth": ("0-auth/zero-auth", "be7320309da091a82f698c9a5e25ab7abb2fa50e", "MIT", "LICENSE"),
    "munsellspace": ("ChrisGVE/MunsellSpace", "3863ef289dd69bbc59cd3a761bd8c9e281f01bd4", "Apache-2.0", "LICENSE"),
    "tree-sitter-languages-rs": ("DakineMI/tree-sitter-languages-rs", "8e6f3dd86cb33e5a0019d17179745730d3886dd7", "MIT", "LICENSE"),
    "cal-date-widget": ("DanCard/cal-date-widget", "84623ac91d64e43b5c1c258843721f05cf975bd3", "MIT", "LICENSE"),
    "mcp-gateway": ("DakineMI/mcp-gateway", "4ff9ea90c23720249ac7456ced2cdefa3b717afe", "MIT", "LICENSE"),
    "destyler": ("destyler/destyler", "558faf91c6a180723eabe6a3799eab9431ce70cb", "MIT", "LICENSE"),
    "esphome-workshop": ("barbarachbc/esphome-workshop", "fe2fb410972bc05a45d62328e984ef3dcc4e4135", "MIT", "LICENSE"),
    "mcp-rag-server": ("design4pro/mcp-rag-server", "a1ac4b0d174f7322dfc06e3d13f15bbff6da94ab", "MIT", "LICENSE"),
    "skillz": ("kevinslin/skillz", "0fbe7ff3c0f98f43cbb5811953a9b7f56465cf4d", "Apache-2.0", "LICENSE"),
    "economic-bc-connector": ("Hornsyld/economic-bc-connector", "eee4ddfd923bb27bd1dee262e85efa52161cd96d", "MIT", "LICENSE"),
    "gryag": ("ThatHunky/gryag", "27dc8ac4dbf20b5598f933fb9fdb7864726de2b3", "MIT", "LICENSE"),
    "chef-chopsky": ("daviswhitehead/chef-chopsky", "505bcbb3962ffc0fbcf853befaffc90132d98d0f", "CC0-1.0", "LICENSE"),
    "docgen": ("iDorgham/DocGen", "fdcb8c53a4ee6a32db0f8644c6f2d71a6e11b471", "MIT", "LICENSE"),
    "download-manager": ("pichsy/download-manager", "185ac56e5f680506c36a9aaa1fad22ccddc7389a", "Apache-2.0", "LICENSE"),
    "contact-maintain": ("CooKingThe1st/contact_maintain", "8bdccc6ee28c4869f69c692a21ae7d058710c238", "MIT", "LICENSE"),
}
MAX_SESSIONS = 10
# Histories that hold real credentials (checked by hand), left out, by source and path:
# chef-chopsky's a Supabase project's anon key (a JWT) in one, an OpenAI project key and a
# Supabase secret key in another; mcp-rag-server's a Google API key (its Gemini key) in two.
WITH_CREDENTIALS = {
    ("chef-chopsky", ".specstory/history/2025-08-25_16-51Z-improving-chef-chopski-s-product-quality.md"),
    ("chef-chopsky", ".specstory/history/2025-09-05_20-15Z-run-viewer-end-to-end-tests.md"),
    ("mcp-rag-server", ".specstory/history/2025-07-24_19-57Z-tworzenie-serwera-mcp-rag-z-qdrant.md"),
    ("mcp-rag-server", ".specstory/history/2025-07-24_21-10Z-sprawdzenie-statusu-pamięci.md"),
}

HISTORY = re.compile(r"(^|/)\.specstory/history/[^/]+\.md$")
MESSAGE = re.compile(r"^_\*\*(User|Assistant|Agent)\b[^\n]*\*\*_\s*$", re.M)


def short(path):
    """The path a history is kept under: its name, cut and told apart by a hash of the whole
    when its ASCII form is long (the titles SpecStory puts in file names may be long, and in
    any script)."""
    ascii_ = re.sub(r"[^A-Za-z0-9._-]+", "_", path.strip("/"))
    if len(ascii_) <= 120 and ascii_.count("_") * 3 < len(ascii_):
        return path
    return ascii_[:80].rstrip("_") + "-" + hashlib.sha256(path.encode()).hexdigest()[:10] + ".md"


def take(mirror, sources=SOURCES, with_credentials=WITH_CREDENTIALS, max_sessions=MAX_SESSIONS, history_dirs=None):
    """Takes each source's histories at its commit (under its history_dirs entry, when it has
    one), its licence file, and writes the build: agents.jsonl, sessions/ and manifest.json."""
    history_dirs = history_dirs or {}
    records, manifest = [], []
    for src, (name, commit, licence, licence_file) in sources.items():
        gitdir = os.path.join(mirror, name.replace("/", "+"), "repo")
        with open(os.path.join(HERE, "licenses", f"{src}.txt"), "wb") as f:
            f.write(agents4.git(gitdir, "show", f"{commit}:{licence_file}"))
        paths = sorted(p for p in agents4.git(gitdir, "-c", "core.quotePath=false", "ls-tree", "-r", "--name-only", commit).decode().split("\n")
                       if HISTORY.search(p) and p.startswith(history_dirs.get(src, "")))
        taken = 0
        for p in paths:
            if taken == max_sessions:
                break
            if (src, p) in with_credentials:
                continue
            try:
                data = agents4.git(gitdir, "show", f"{commit}:{p}").decode("utf-8", "replace")
            except subprocess.CalledProcessError:
                continue  # not in the snapshot (4 MB and more)
            if not MESSAGE.search(data):
                continue
            taken += 1
            rel = agents.keep(src, short(p.lstrip(".")), data)
            records.append({"id": f"{src}:{p}", "source": src, "agent": "specstory", "group": src,
                            "split": agents.split_of(src), "file": rel})
            manifest.append({"commit": commit, "licence": licence, "path": p, "repo": name, "source": src,
                             "taken": "SpecStory history, whole"})

    agents.write_build(sources, records, manifest)
    for src in sources:
        n = [x for x in records if x["source"] == src]
        print(f"{src}: {len(n)} histories, {n[0]['split'] if n else '-'}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--mirror", required=True)
    take(ap.parse_args().mirror)


if __name__ == "__main__":
    main()
