#!/usr/bin/env python3
"""Adds to agents.jsonl and sessions/ the sixteenth build's sessions: SpecStory histories and aider
chat histories that their authors committed into public repositories with a permissive licence,
from projects none of the earlier builds have. A SpecStory history is one record, kept whole, as
agents7.py keeps them; an aider history is one record a chat ("# aider chat started at"), as
agents3.py keeps them. A repository's sessions all fall in one half: the record's group is the
source's name and the SHA-256 rule is applied to it (agents.split_of), so the held-back half is
projects never looked at. Records of other builds are kept as written; manifest.json gets one
entry per file taken. Run it after agents15.py.

    python3 testdata/eval/agents16.py --mirror <dir>   # bare clones as <dir>/<owner>+<name>/repo

Each source is one repository at the commit named below (the one with the most sessions under
its HISTORY_DIRS entry with the licence file present), the licence file read at that commit and
kept in licenses/<source>.txt. Three are SpecStory's own projects, whose authors keep their
SpecStory histories in the repository: the monorepo of its CLI and app (Claude Code sessions
written by the SpecStory CLI; only the root's .specstory/history/ is taken, not the CLI's own
folder, partly older than the licence, nor the synthetic histories its tests keep under
fixtures/), a tutorial (Cursor, in the extension's older format) and a demo project (Claude
Code). Two more are SpecStory histories of a prompt library (Cursor) and of a copy of a manga
reader (VS Code's Copilot agent), and two are aider histories of a Python package and of a pi
extension.

A session is taken only if it was recorded under the licence: its start is not before the commit
that added the licence file (LICENCE_ADDED, the commit and its committer date). A SpecStory
history starts at the time its file name gives (UTC, "YYYY-MM-DD_HH-MM[-SS]Z-…"), or, in the
older format whose names carry no time, at the time of its first heading ("(1/15/2025, 11:29:56
AM)"); an aider chat at its header's time. Those two are the recording machine's local time and
are read in the time zone of the licence commit (the same author's). The test drops no session of
these seven. SpecStory files without a message (empty, a title alone) are not taken, nor files
the snapshot lacks (4 MB and more). A source keeps at most MAX_SESSIONS sessions (histories, or
chats), the first in path order (the oldest, by SpecStory's names) or in the history's order; an
aider history is kept whole when every chat in it is taken, else cut to the chats taken. A session
holding a real credential is left out (WITH_CREDENTIALS, checked by hand)."""
import argparse
import datetime
import os
import re
import subprocess

import agents
import agents4
import agents7

HERE = agents.HERE

# source: (repository, commit, licence, agent, licence file)
SOURCES = {
    "getspecstory": ("specstoryai/getspecstory", "c298edc530f4081de143f8595b3ab9ffcd40e54d", "Apache-2.0", "specstory", "LICENSE.txt"),
    "specstory-tutorials": ("specstoryai/tutorials", "9142953570e616ff877d7daa1c509b6f1bea469d", "MIT", "specstory", "LICENSE"),
    "zero-to-product-video-hero": ("specstoryai/zero-to-product-video-hero", "6b53ffe5bf6a9e294656aa624fba79fd3899e305", "MIT", "specstory", "LICENSE"),
    "promptchain": ("gyasis/PromptChain", "5691b58c36d1b6bbe83a0e0020c7f30e998a17a7", "MIT", "specstory", "LICENSE"),
    "houdoku-2": ("Firedogs2x/Houdoku-2", "fb03d76d41fdc944dcd0679083bb5ceba19d4c7f", "MIT", "specstory", "LICENSE"),
    "systemfactchecking": ("DominiqueLoyer/systemFactChecking", "3568a4504b57ab5ac31dd680c523bd2574acad8f", "MIT", "aider", "LICENSE"),
    "pi-repomap": ("EnTeQuAk/pi-repomap", "676c42fde8a4fd70b1c6411c0d252a81f3601ba3", "MIT", "aider", "LICENSE"),
}
# source: (the commit that added the licence file, its committer date)
LICENCE_ADDED = {
    "getspecstory": ("36a3ca5", "2026-01-11T21:56:10-05:00"),
    "specstory-tutorials": ("19ad067", "2025-01-15T11:25:32-05:00"),
    "zero-to-product-video-hero": ("4f3d401", "2025-08-04T11:23:21-04:00"),
    "promptchain": ("7ea07dc", "2025-02-21T13:53:22-05:00"),
    "houdoku-2": ("7a5f72f", "2025-11-16T10:47:07-07:00"),
    "systemfactchecking": ("9116681", "2026-01-30T17:01:43-05:00"),
    "pi-repomap": ("36d5561", "2026-03-31T12:53:33+02:00"),
}
MAX_SESSIONS = 10
# Where a source's histories are taken from (a path prefix); aider's history is its root file.
HISTORY_DIRS = {
    "getspecstory": ".specstory/history/",
    "specstory-tutorials": "using-cursor-to-create-sample-data/.specstory/history/",
    "zero-to-product-video-hero": ".specstory/history/",
    "promptchain": ".specstory/history/",
    "houdoku-2": ".specstory/history/",
}
AIDER_HISTORY = ".aider.chat.history.md"
# Sessions that hold real credentials (checked by hand), left out, by source and path (an aider
# chat by its header).
WITH_CREDENTIALS = set()

AIDER_HEADER = "# aider chat started at"
SPECSTORY_NAME_TIME = re.compile(r"^(\d{4})-(\d\d)-(\d\d)_(\d\d)-(\d\d)(?:-(\d\d))?Z")
SPECSTORY_TITLE_TIME = re.compile(r"^##? .*\((\d{1,2})/(\d{1,2})/(\d{4}), (\d{1,2}):(\d\d):(\d\d) ([AP]M)\)\s*$", re.M)


def specstory_start(path, text, zone):
    """When a SpecStory history was begun, or None when neither its name nor its title says."""
    m = SPECSTORY_NAME_TIME.match(os.path.basename(path))
    if m:
        y, mo, d, h, mi, s = (int(x or 0) for x in m.groups())
        return datetime.datetime(y, mo, d, h, mi, s, tzinfo=datetime.timezone.utc)
    m = SPECSTORY_TITLE_TIME.search(text)
    if m:
        mo, d, y, h, mi, s = (int(x) for x in m.groups()[:6])
        h = h % 12 + (12 if m.group(7) == "PM" else 0)
        return datetime.datetime(y, mo, d, h, mi, s, tzinfo=zone)
    return None


def aider_start(header, zone):
    """When an aider chat was begun, from its header ("# aider chat started at 2026-02-17 16:02:24")."""
    stamp = header[len(AIDER_HEADER):].strip()
    return datetime.datetime.strptime(stamp, "%Y-%m-%d %H:%M:%S").replace(tzinfo=zone)


def aider_chats(text):
    """The history's text before its first chat, and each chat as (part, text), named as the aider
    evaluation names them (the header, with " (n)" for the n-th of equal headers)."""
    lead, chats, seen = [], [], {}
    for line in text.split("\n"):
        if line.startswith(AIDER_HEADER):
            h = line.strip()
            seen[h] = seen.get(h, 0) + 1
            chats.append([h if seen[h] == 1 else f"{h} ({seen[h]})", h, []])
        (chats[-1][2] if chats else lead).append(line)
    return "\n".join(lead), [(part, header, "\n".join(lines)) for part, header, lines in chats]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--mirror", required=True)
    mirror = ap.parse_args().mirror
    records, manifest = [], []
    for src, (name, commit, licence, agent, licence_file) in SOURCES.items():
        gitdir = os.path.join(mirror, name.replace("/", "+"), "repo")
        with open(os.path.join(HERE, "licenses", f"{src}.txt"), "wb") as f:
            f.write(agents4.git(gitdir, "show", f"{commit}:{licence_file}"))
        added = datetime.datetime.fromisoformat(LICENCE_ADDED[src][1])
        group = {"source": src, "agent": agent, "group": src, "split": agents.split_of(src)}

        if agent == "aider":
            text = agents4.git(gitdir, "show", f"{commit}:{AIDER_HISTORY}").decode("utf-8", "replace")
            lead, chats = aider_chats(text)
            taken = [c for c in chats if (src, c[1]) not in WITH_CREDENTIALS and aider_start(c[1], added.tzinfo) >= added]
            taken = taken[:MAX_SESSIONS]
            if not taken:
                continue
            kept = text if len(taken) == len(chats) else "\n".join([lead] + [c[2] for c in taken])
            rel = agents.keep(src, AIDER_HISTORY.lstrip("."), kept)
            for part, _, _ in taken:
                records.append({"id": f"{src}:{AIDER_HISTORY}#{part}", **group, "file": rel, "part": part})
            manifest.append({"commit": commit, "licence": licence, "path": AIDER_HISTORY, "repo": name, "source": src,
                             "taken": "aider chat history, whole" if kept is text else "aider chat history, the chats taken"})
            continue

        paths = sorted(p for p in agents4.git(gitdir, "-c", "core.quotePath=false", "ls-tree", "-r", "--name-only", commit).decode().split("\n")
                       if agents7.HISTORY.search(p) and p.startswith(HISTORY_DIRS[src]))
        n = 0
        for p in paths:
            if n == MAX_SESSIONS:
                break
            if (src, p) in WITH_CREDENTIALS:
                continue
            try:
                data = agents4.git(gitdir, "show", f"{commit}:{p}").decode("utf-8", "replace")
            except subprocess.CalledProcessError:
                continue  # not in the snapshot (4 MB and more)
            if not agents7.MESSAGE.search(data):
                continue
            start = specstory_start(p, data, added.tzinfo)
            if start is None or start < added:
                continue
            n += 1
            rel = agents.keep(src, agents7.short(p.lstrip(".")), data)
            records.append({"id": f"{src}:{p}", **group, "file": rel})
            manifest.append({"commit": commit, "licence": licence, "path": p, "repo": name, "source": src,
                             "taken": "SpecStory history, whole"})

    agents.write_build(SOURCES, records, manifest)
    for src in SOURCES:
        n = [x for x in records if x["source"] == src]
        print(f"{src}: {len(n)} {'chats' if SOURCES[src][3] == 'aider' else 'histories'}, {n[0]['split'] if n else '-'}")


if __name__ == "__main__":
    main()
